//! Whole fights: the runtime's engine driven by the interpreter and by generated code
//! must order the same turns, roll the same dice, fire the same timers and triggers,
//! trace the same events and end the same way (`fixtures/codegen/arena`, a fight using
//! every fight construct).

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_tests::arena;
use rulesc_tests::differential::{
    assert_simulation_repeats, compare_fights, fight_file, generated_fight, interpret_fight,
};

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
