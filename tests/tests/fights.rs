//! Whole fights: the runtime's engine driven by the interpreter and by generated code
//! must order the same turns, roll the same dice, fire the same timers and triggers,
//! trace the same events and end the same way (`fixtures/codegen/arena`, a fight using
//! every fight construct).

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_tests::differential::{
    assert_simulation_repeats, compare_fights, fight_file, generated_fight, interpret_fight,
};
use rulesc_tests::{arena, skirmish};

const SEEDS: u64 = 1_000;

fn arena_program() -> Program {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/codegen/arena");
    let (p, diags, _) = rulesc::compile_dir(std::path::Path::new(dir));
    assert!(!diags.has_errors(), "{diags:?}");
    p.expect("arena compiles")
}

fn gladiator_value(p: &Program, g: &arena::Gladiator) -> Value {
    eval::record(
        p,
        "Gladiator",
        &[
            ("hp", Value::Int(g.hp)),
            ("skill", Value::Int(g.skill)),
            ("speed", Value::Int(g.speed)),
            ("initiative", Value::Int(g.initiative)),
            ("stunned", Value::Bool(g.stunned)),
            ("bleeding", Value::Int(g.bleeding)),
        ],
    )
    .expect("Gladiator's fields")
}

#[test]
fn arena_fights_match_the_interpreter() {
    let p = arena_program();
    let mut ends = std::collections::BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let ann = arena::Gladiator {
            skill: 3,
            speed: 1,
            ..Default::default()
        };
        let bob = arena::Gladiator::default();
        let cid = arena::Gladiator {
            hp: 25,
            skill: 5,
            ..Default::default()
        };
        let sides = [
            (
                "Red",
                vec![
                    ("Ann", gladiator_value(&p, &ann)),
                    ("Bob", gladiator_value(&p, &bob)),
                ],
            ),
            ("Blue", vec![("Cid", gladiator_value(&p, &cid))]),
        ];
        let interp = interpret_fight(&p, &sides, seed, 30);
        let gen = generated_fight(seed, |env| {
            let mut fight = arena::Fight::new();
            fight.join("Red", "Ann", ann.clone());
            fight.join("Red", "Bob", bob.clone());
            fight.join("Blue", "Cid", cid.clone());
            let end = fight.run(&mut arena::Rules, env, 30);
            let state = fight
                .combatants
                .iter()
                .map(|g| gladiator_value(&p, g))
                .collect();
            (end, fight.round(), state)
        });
        assert!(
            gen.events.len() > 10,
            "seed {seed}: a whole fight is traced"
        );
        *ends.entry(format!("{:?}", gen.end)).or_default() += 1;
        compare_fights(&p, "arena", seed, &interp, &gen);
    }
    // Both sides win sometimes, and the fumble table stops some fights: every path of
    // the turn, and a rule error in the middle of a fight, were compared.
    assert!(ends.len() >= 3, "{ends:?}");
    assert!(ends.contains_key("RuleError"), "{ends:?}");
}

fn brawler_value(p: &Program, b: &skirmish::Brawler) -> Value {
    eval::record(
        p,
        "Brawler",
        &[
            ("hp", Value::Int(b.hp)),
            ("skill", Value::Int(b.skill)),
            ("initiative", Value::Int(b.initiative)),
            ("guard", Value::Bool(b.guard)),
            ("rage", Value::Int(b.rage)),
            ("regen", Value::Int(b.regen)),
            ("regrown", Value::Int(b.regrown)),
            ("taunted", Value::Int(b.taunted)),
            ("foes_seen", Value::Int(b.foes_seen)),
            (
                "wounds",
                Value::Map(std::rc::Rc::new(
                    b.wounds.iter().map(|&w| Value::Int(w)).collect(),
                )),
            ),
            (
                "tally",
                eval::record(
                    p,
                    "Tally",
                    &[
                        ("blows", Value::Int(b.tally.blows)),
                        ("last", Value::Int(b.tally.last)),
                    ],
                )
                .expect("Tally's fields"),
            ),
        ],
    )
    .expect("Brawler's fields")
}

#[test]
fn skirmish_fights_with_ties_at_once_and_repeating_timers_match_the_interpreter() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/codegen/skirmish");
    let (p, diags, _) = rulesc::compile_dir(std::path::Path::new(dir));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let brawlers = [
        (
            "Red",
            "Ann",
            skirmish::Brawler {
                skill: 2,
                ..Default::default()
            },
        ),
        ("Red", "Bob", skirmish::Brawler::default()),
        (
            "Blue",
            "Cid",
            skirmish::Brawler {
                hp: 12,
                ..Default::default()
            },
        ),
        (
            "Blue",
            "Dee",
            skirmish::Brawler {
                skill: 1,
                ..Default::default()
            },
        ),
    ];
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for seed in 0..SEEDS {
        let mut sides: Vec<(&str, Vec<(&str, Value)>)> = Vec::new();
        for (side, name, b) in &brawlers {
            match sides.iter_mut().find(|(s, _)| s == side) {
                Some((_, members)) => members.push((name, brawler_value(&p, b))),
                None => sides.push((side, vec![(name, brawler_value(&p, b))])),
            }
        }
        let interp = interpret_fight(&p, &sides, seed, 20);
        let gen = generated_fight(seed, |env| {
            let mut fight = skirmish::Fight::new();
            for (side, name, b) in &brawlers {
                fight.join(side, name, b.clone());
            }
            let end = fight.run(&mut skirmish::Rules, env, 20);
            let state = fight
                .combatants
                .iter()
                .map(|b| brawler_value(&p, b))
                .collect();
            (end, fight.round(), state)
        });
        compare_fights(&p, "skirmish", seed, &interp, &gen);
        let text = rulesc_runtime::VecTrace {
            events: gen.events.clone(),
        }
        .render(&p.sites);
        for (what, needle) in [
            ("a group acting at once", "(at once)"),
            (
                "a repeating timer firing",
                "until c.hp <= 0 or c.hp >= cap or c.regen == 0: fires",
            ),
            ("a repeating timer stopping", "c.regen == 0: stops"),
            ("a landing out of range", "is outside int(0..4)"),
        ] {
            if text.contains(needle) {
                *seen.entry(what).or_default() += 1;
            }
        }
    }
    // Every new path was compared, many times.
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(seen.values().all(|&n| n >= 20), "{seen:?}");
}

fn arena_file(p: &Program) -> rulesc::simulate::FightFile {
    fight_file(p, "tests/fixtures/fights/arena.yaml")
}

#[test]
fn a_simulation_repeats_for_its_seed_and_changes_with_another() {
    let p = arena_program();
    assert_simulation_repeats(&p, &arena_file(&p), 400);
}

#[test]
fn a_simulation_does_not_depend_on_the_number_of_threads() {
    let p = arena_program();
    let file = arena_file(&p);
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| rulesc::simulate::simulate(&p, &file, 300, 11))
    };
    let (one, four) = (on(1), on(4));
    assert_eq!(
        (one.wins.clone(), one.rounds.clone(), one.groups.clone()),
        (four.wins, four.rounds, four.groups)
    );
    assert_eq!(one.runs, 300);
    let errors: u64 = one.errors.values().sum();
    assert_eq!(
        one.wins.iter().sum::<u64>() + one.draws + one.undecided + errors,
        300
    );
    assert!(errors > 0, "the fumble table stops some fights");
}

#[test]
fn run_k_of_a_simulation_is_the_traced_run_k() {
    // `--trace K` shows the very fight run K of the totals was.
    let p = arena_program();
    let file = arena_file(&p);
    for k in 0..20 {
        let (plain, _) = rulesc::simulate::run_once(
            &p,
            &file,
            5,
            k,
            rulesc_runtime::NoTrace,
            Default::default(),
        );
        let (traced, trace) = rulesc::simulate::run_once(
            &p,
            &file,
            5,
            k,
            rulesc_runtime::VecTrace::default(),
            Default::default(),
        );
        assert_eq!(plain, traced);
        assert!(!trace.events.is_empty());
    }
}

#[test]
fn the_wilson_interval_holds_the_rate_and_narrows_with_runs() {
    let (lo, hi) = rulesc::simulate::wilson(50, 100);
    assert!(
        lo < 0.5 && 0.5 < hi && (hi - lo - 0.192).abs() < 0.01,
        "{lo} {hi}"
    );
    let (lo2, hi2) = rulesc::simulate::wilson(5000, 10000);
    assert!(hi2 - lo2 < (hi - lo) / 5.0);
    assert_eq!(rulesc::simulate::wilson(0, 10).0, 0.0);
    assert_eq!(rulesc::simulate::wilson(10, 10).1, 1.0);
}

/// One fight of `fixtures/codegen/edges` (Ann, deep or not, against Bob) for 4 rounds
/// in both backends, compared: the same trace, end, state and rule error. The
/// interpreter's run, and its rule error.
/// The `edges` fight of a unit `deep` (its minute advances into itself) or `short` (a
/// duration on an item of a list it then empties) against a plain one.
fn edges_fight(deep: bool, short: bool) -> (rulesc_tests::differential::FightRun, Option<String>) {
    use rulesc_runtime::Fight;
    use rulesc_tests::differential::fight_env;
    use rulesc_tests::edges;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/codegen/edges");
    let (p, diags, _) = rulesc::compile_dir(std::path::Path::new(dir));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let value = |u: &edges::Unit| {
        eval::record(
            &p,
            "Unit",
            &[
                ("hp", Value::Int(u.hp)),
                ("x", Value::Int(u.x)),
                ("y", Value::Int(u.y)),
                ("a_fired", Value::Int(u.a_fired)),
                ("b_fired", Value::Int(u.b_fired)),
                ("deep", Value::Bool(u.deep)),
                ("short", Value::Bool(u.short)),
                (
                    "marks",
                    Value::List(std::rc::Rc::new(
                        u.marks.iter().map(|m| Value::Int(*m)).collect(),
                    )),
                ),
            ],
        )
        .expect("Unit's fields")
    };
    let ann = edges::Unit {
        deep,
        short,
        ..Default::default()
    };
    let bob = edges::Unit::default();
    let sides = [
        ("A", vec![("Ann", value(&ann))]),
        ("B", vec![("Bob", value(&bob))]),
    ];
    let interp = interpret_fight(&p, &sides, 0, 4);
    // The rule error, which `interpret_fight` does not keep: the same fight again.
    let mut fight: Fight<Value> = Fight::new();
    for (side, members) in &sides {
        for (name, v) in members {
            fight.join(side, name, v.deep_clone());
        }
    }
    let mut rules = rulesc::fight::EvalRules::new(&p).expect("a fight");
    fight.run(&mut rules, &mut fight_env(0), 4);
    let interp_error = fight.rule_error().cloned();
    let mut gen_error = None;
    let gen = generated_fight(0, |env| {
        let mut fight = edges::Fight::new();
        fight.join("A", "Ann", ann.clone());
        fight.join("B", "Bob", bob.clone());
        let end = fight.run(&mut edges::Rules, env, 4);
        gen_error = fight.rule_error().cloned();
        let state = fight.combatants.iter().map(&value).collect();
        (end, fight.round(), state)
    });
    compare_fights(&p, "edges", 0, &interp, &gen);
    assert_eq!(interp_error, gen_error, "the same rule error");
    (interp, interp_error.map(|e| e.kind.to_string()))
}

#[test]
fn a_trigger_fires_on_each_rising_edge_the_engine_sees_in_both_backends() {
    let (run, error) = edges_fight(false, false);
    assert_eq!(error, None);
    assert_eq!(run.end, rulesc_runtime::FightEnd::Undecided);
    // Rounds 1 and 3 raise `x`: `a` fires each time, once, though `a` lowered `x` and
    // `b` raised it again in the same pass; rounds 2 and 4 lower it.
    for c in &run.combatants {
        let Value::Record(r) = c else { panic!("{c:?}") };
        let fields = r.borrow();
        assert_eq!((fields[3].int(), fields[4].int()), (2, 2), "{c:?}");
    }
}

#[test]
fn an_advance_nested_too_deep_is_the_same_rule_error_in_both_backends() {
    let (run, error) = edges_fight(true, false);
    assert_eq!(run.end, rulesc_runtime::FightEnd::RuleError);
    assert_eq!(run.rounds, 1, "the first round's minute");
    assert_eq!(
        error.as_deref(),
        Some("advance nested more than 8 deep: what an advance runs advances again")
    );
}

/// A duration whose item is gone when it ends (the list emptied) is the list's index
/// error at the duration, in both backends, never a value put back nowhere.
#[test]
fn a_duration_on_an_item_no_longer_there_is_the_index_rule_error_in_both_backends() {
    let (run, error) = edges_fight(false, true);
    assert_eq!(run.end, rulesc_runtime::FightEnd::RuleError);
    assert_eq!(run.rounds, 1, "the end of the first round");
    assert_eq!(
        error.as_deref(),
        Some("list index 1 is outside the empty list")
    );
}

#[test]
fn a_volley_at_once_lands_every_blow_and_answers_a_filtered_decision_by_name() {
    // `fixtures/fights/volley-tests`: three archers tie under `ties at once`; two blows
    // on Ann both land (5 - 2 - 2, a wound in each zone), no member sees another acted,
    // a duration "until the end of the foe's next turn" set on a member lasts to its
    // next round's turn (its turn in the volley was at once with the blow), and each
    // decision among a filtered list (`[e for e in enemies(me) if not e.hidden]`) is
    // answered by the option's name.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/volley-tests");
    let report = rulesc::testing::run(&[dir.into()], &Default::default());
    assert_eq!(report.cases.len(), 2);
    assert!(report.passed(), "{}", report.summary());
}

#[test]
fn a_name_in_a_repeating_timers_until_is_the_local_where_it_is_written() {
    // `cap` and `c` in skirmish's `until` resolve, for editors, to `begin`'s `let cap`
    // and its loop variable `c`; renaming either finds the use in the condition.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/codegen/skirmish");
    let checked = rulesc::check_dir(std::path::Path::new(dir), &Default::default());
    let file = (0..)
        .find(|&f| checked.sources.file(f).name.ends_with("fight.rules"))
        .unwrap();
    let text = checked.sources.file(file).text.to_string();
    let until = text.find("until c.hp <= 0").unwrap();
    for (name, bound_at) in [("cap", "let cap"), ("c", "for c")] {
        let used = until + text[until..].find(&format!(" {name}")).unwrap() + 1;
        let i = checked.index.at(file, used as u32).expect("a symbol");
        let sym = &checked.index.symbols[i];
        let bound = text.find(bound_at).unwrap() + bound_at.len() - name.len();
        assert_eq!(
            (sym.name.as_str(), sym.span.start as usize),
            (name, bound),
            "{name}"
        );
        assert!(checked
            .index
            .occurrences(i)
            .iter()
            .any(|s| s.start as usize == used));
    }
}

#[test]
fn a_repeating_timer_stops_at_the_first_moment_due_after_its_condition_holds() {
    // `every 3 rounds: regrow(c) until c.burned`, set before round 1: due at the start
    // of rounds 3, 6 and 9. The troll is burned in round `burned` (on the hero's turn,
    // after that round's start): the rounds it regrew in, as digits.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/regrowth");
    let (p, diags, _) = rulesc::compile_dir(std::path::Path::new(dir));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let folder = std::env::temp_dir().join(format!("rulesc-regrowth-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    for (burned, regrown) in [
        (Some(2), 0),  // burned before the first moment: never regrows
        (Some(3), 3),  // regrew at round 3's start, then burned
        (Some(5), 3),  // not at 4 or 5: only every third round
        (Some(6), 36), // round 6's regrowth came first
        (Some(7), 36), // stops at 9
        (None, 369),   // never burned: every third round of ten
    ] {
        let answers: Vec<&str> = (1..=10)
            .map(|r| if Some(r) == burned { "yes" } else { "no" })
            .collect();
        let path = folder.join("torch.yaml");
        let text = format!(
            "rounds: 10\nsides:\n  Hero:\n    Ada: {{ hp: 5, torch: true }}\n  Trolls:\n    Grok: {{ regrows: true }}\ndice: []\ndecisions:\n  target: first\n  burn: [{}]\n",
            answers.join(", ")
        );
        std::fs::write(&path, text).unwrap();
        let file = match rulesc::simulate::read(&p, &path) {
            Ok((f, _)) => f,
            Err((d, _)) => panic!("{:?}", d.items),
        };
        let ran = rulesc::simulate::replay(&p, &file);
        assert!(ran.problems.items.is_empty(), "{:?}", ran.problems.items);
        let grok = &ran.combatants[1];
        assert_eq!(
            eval::field(&p, "Brute", grok, "regrown"),
            Some(Value::Int(regrown)),
            "burned in round {burned:?}\n{}",
            ran.trace
        );
        let stops = ran.trace.matches("until c.burned: stops").count();
        assert_eq!(stops, usize::from(burned.is_some()), "{}", ran.trace);
    }
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn a_huge_group_at_once_stops_on_the_fights_step_budget_not_after_minutes_of_copying() {
    // 3,000 archers all tied: each turn of the group starts from a copy of all 3,000, and
    // the copies count against the fight's budget of steps, so the run stops on it with
    // the rule error, in the first round, quickly.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/volley");
    let (p, diags, _) = rulesc::compile_dir(std::path::Path::new(dir));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    // A fight file holds at most `MAX_COMBATANTS` (1,000): it names one archer a side,
    // and each side is filled to 1,500 here, past the reader (the engine has no cap).
    let mut text = String::from("rounds: 100\nsides:\n");
    for side in ["Red", "Blue"] {
        text.push_str(&format!("  {side}:\n    {side}0: {{ hp: 50 }}\n"));
    }
    text.push_str("decisions:\n  default: random\n");
    let folder = std::env::temp_dir().join(format!("rulesc-volley-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("big.yaml");
    std::fs::write(&path, text).unwrap();
    let mut file = match rulesc::simulate::read(&p, &path) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    for (side, members) in &mut file.sides {
        let archer = members[0].1.clone();
        for i in 1..1500 {
            members.push((format!("{side}{i}"), archer.clone()));
        }
    }
    let summary = rulesc::simulate::simulate(&p, &file, 1, 0);
    let errors: Vec<&String> = summary.errors.keys().collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].ends_with("the run took more than 10000000 steps"),
        "{errors:?}"
    );
    assert_eq!(summary.rounds.iter().position(|&n| n > 0), Some(1));
    // The copies are what the budget ran out on: about 120 turns of the 3,000 were taken
    // (about 220 if copies cost nothing, and the rest of the group would have copied
    // 3,000 archers 2,800 times more).
    let (_, trace) = rulesc::simulate::run_once(
        &p,
        &file,
        100,
        0,
        rulesc_runtime::VecTrace::default(),
        Default::default(),
    );
    std::fs::remove_dir_all(&folder).ok();
    let turns = trace.render(&p.sites).matches("loose(me: fighter)").count();
    assert!((50..200).contains(&turns), "{turns} turns");
}
