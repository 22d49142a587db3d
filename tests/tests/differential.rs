//! The generated Rust and the interpreter are two implementations of one semantics: on
//! the same seeds they must roll the same dice, ask the same decisions, emit the same
//! trace events, return the same outcome and leave the combatants in the same state.

mod common;

use common::{combatant_value, kingsmark, weapon_value, Draw, RandomDecide};
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSource, Env, NoTrace, SeededDice, TraceEvent, VecTrace};
use rulesc_tests::kingsmark as km;
use std::fmt::Display;

const SEEDS: u64 = 10_000;

type TracedEnv = Env<SeededDice, RandomDecide, VecTrace>;

fn env(seed: u64) -> TracedEnv {
    Env::new(
        SeededDice::new(seed.wrapping_mul(0x9E37_79B9)),
        RandomDecide::new(seed),
        VecTrace::default(),
    )
}

/// What a resolution left behind, compared between the two backends.
#[derive(Debug, PartialEq)]
struct Run {
    outcome: String,
    events: Vec<TraceEvent>,
    asked: Vec<(&'static str, u32)>,
    /// The next face of the dice after the resolution: both consumed as many.
    next_face: u32,
    /// The arguments afterwards (changed in place where the procedure changes them).
    args: Vec<Value>,
}

fn finish(mut env: TracedEnv, outcome: String, args: Vec<Value>) -> Run {
    Run {
        outcome,
        events: env.trace.events,
        asked: env.decide.asked,
        next_face: env.dice.face(1_000_000),
        args,
    }
}

fn interpret(p: &Program, name: &str, seed: u64, args: Vec<Value>) -> Run {
    let (id, f) = p
        .function(name)
        .unwrap_or_else(|| panic!("no procedure `{name}`"));
    let mut e = env(seed);
    let shared: Vec<Value> = args.clone();
    let v = eval::call(p, &mut e, id, shared);
    finish(e, eval::show(p, &v, &f.ret), args)
}

fn generated(seed: u64, run: impl FnOnce(&mut TracedEnv) -> (String, Vec<Value>)) -> Run {
    let mut e = env(seed);
    let (outcome, args) = run(&mut e);
    finish(e, outcome, args)
}

/// The same resolution without a trace sink must reach the same outcome and dice.
fn untraced<R: Display>(
    seed: u64,
    run: impl FnOnce(&mut Env<SeededDice, RandomDecide, NoTrace>) -> R,
) -> (String, u32) {
    let mut e = Env::new(
        SeededDice::new(seed.wrapping_mul(0x9E37_79B9)),
        RandomDecide::new(seed),
        NoTrace,
    );
    let r = run(&mut e).to_string();
    (r, e.dice.face(1_000_000))
}

fn check(p: &Program, name: &str, seed: u64, interp: Run, gen: Run, plain: (String, u32)) {
    if interp != gen {
        let sites = &p.sites;
        let render = |r: &Run| {
            VecTrace {
                events: r.events.clone(),
            }
            .render(sites)
        };
        panic!(
            "`{name}`, seed {seed}: the backends differ\n--- interpreter: {}\n{}\n--- generated: {}\n{}\n{interp:#?}\n{gen:#?}",
            interp.outcome,
            render(&interp),
            gen.outcome,
            render(&gen)
        );
    }
    assert_eq!(
        (gen.outcome.clone(), gen.next_face),
        plain,
        "`{name}`, seed {seed}: NoTrace run differs from the traced one"
    );
}

#[test]
fn site_tables_are_identical() {
    let p = kingsmark();
    assert_eq!(km::SITES, p.sites.as_slice());
}

#[test]
fn melee_attack_matches_the_interpreter() {
    let p = kingsmark();
    let mut outcomes = std::collections::BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (attacker, defender, weapon) = (d.combatant(), d.combatant(), d.weapon());
        let args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            weapon_value(&p, &weapon),
        ];
        let interp = interpret(&p, "melee_attack", seed, args);
        let gen = generated(seed, |e| {
            let mut def = defender.clone();
            let r = km::melee_attack(e, &attacker, &mut def, &weapon);
            (
                r.to_string(),
                vec![
                    combatant_value(&p, &attacker),
                    combatant_value(&p, &def),
                    weapon_value(&p, &weapon),
                ],
            )
        });
        let plain = untraced(seed, |e| {
            km::melee_attack(e, &attacker, &mut defender.clone(), &weapon)
        });
        let tag = gen
            .outcome
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        *outcomes.entry(tag).or_default() += 1;
        check(&p, "melee_attack", seed, interp, gen, plain);
    }
    // The seeds reach every outcome, so every branch was compared.
    for tag in ["EpicFailure", "Miss", "NoWound", "Hit"] {
        assert!(outcomes.get(tag).copied().unwrap_or(0) > 10, "{outcomes:?}");
    }
}

#[test]
fn ranged_attack_matches_the_interpreter() {
    let p = kingsmark();
    let mut outcomes = std::collections::BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (attacker, defender, weapon, realism) =
            (d.combatant(), d.combatant(), d.weapon(), d.int(-4, 6));
        let args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            weapon_value(&p, &weapon),
            Value::Int(realism),
        ];
        let interp = interpret(&p, "ranged_attack", seed, args);
        let gen = generated(seed, |e| {
            let mut def = defender.clone();
            let r = km::ranged_attack(e, &attacker, &mut def, &weapon, realism);
            let args = vec![
                combatant_value(&p, &attacker),
                combatant_value(&p, &def),
                weapon_value(&p, &weapon),
                Value::Int(realism),
            ];
            (r.to_string(), args)
        });
        let plain = untraced(seed, |e| {
            km::ranged_attack(e, &attacker, &mut defender.clone(), &weapon, realism)
        });
        let tag = gen
            .outcome
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        *outcomes.entry(tag).or_default() += 1;
        check(&p, "ranged_attack", seed, interp, gen, plain);
    }
    for tag in ["EpicFailure", "Miss", "NoWound", "Hit"] {
        assert!(outcomes.get(tag).copied().unwrap_or(0) > 10, "{outcomes:?}");
    }
}

#[test]
fn turn_and_surprise_procedures_match_the_interpreter() {
    let p = kingsmark();
    for seed in 0..SEEDS / 10 {
        let mut d = Draw::new(seed);
        let c = d.combatant();
        let cv = || combatant_value(&p, &c);

        let interp = interpret(&p, "roll_initiative", seed, vec![cv()]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = km::roll_initiative(e, &mut x);
            (r.to_string(), vec![combatant_value(&p, &x)])
        });
        let plain = untraced(seed, |e| km::roll_initiative(e, &mut c.clone()));
        check(&p, "roll_initiative", seed, interp, gen, plain);

        let victim = d.chance(50);
        let interp = interpret(&p, "surprise_test", seed, vec![cv(), Value::Bool(victim)]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = km::surprise_test(e, &mut x, victim);
            (
                r.to_string(),
                vec![combatant_value(&p, &x), Value::Bool(victim)],
            )
        });
        let plain = untraced(seed, |e| km::surprise_test(e, &mut c.clone(), victim));
        check(&p, "surprise_test", seed, interp, gen, plain);

        let opponents: Vec<km::Combatant> = (0..d.int(0, 3)).map(|_| d.combatant()).collect();
        let ov = || {
            Value::List(std::rc::Rc::new(
                opponents.iter().map(|o| combatant_value(&p, o)).collect(),
            ))
        };
        let interp = interpret(&p, "resolve_surprise", seed, vec![cv(), ov()]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = km::resolve_surprise(e, &mut x, &opponents);
            (r.to_string(), vec![combatant_value(&p, &x), ov()])
        });
        let plain = untraced(seed, |e| {
            km::resolve_surprise(e, &mut c.clone(), &opponents)
        });
        check(&p, "resolve_surprise", seed, interp, gen, plain);

        let actions: Vec<km::Action> = (0..d.int(0, 4)).map(|_| d.pick(&km::Action::ALL)).collect();
        let av = || {
            Value::List(std::rc::Rc::new(
                actions.iter().map(|a| Value::Choice(*a as u16)).collect(),
            ))
        };
        let interp = interpret(&p, "declare_turn", seed, vec![cv(), av()]);
        let gen = generated(seed, |e| {
            (
                km::declare_turn(e, &c, &actions).to_string(),
                vec![combatant_value(&p, &c), av()],
            )
        });
        let plain = untraced(seed, |e| km::declare_turn(e, &c, &actions));
        check(&p, "declare_turn", seed, interp, gen, plain);

        let interp = interpret(&p, "interrupt", seed, vec![cv()]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = km::interrupt(e, &mut x);
            (r.to_string(), vec![combatant_value(&p, &x)])
        });
        let plain = untraced(seed, |e| km::interrupt(e, &mut c.clone()));
        check(&p, "interrupt", seed, interp, gen, plain);
    }
}
