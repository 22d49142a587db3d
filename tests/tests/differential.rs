//! The generated Rust and the interpreter are two implementations of one semantics: on
//! the same seeds they must roll the same dice, ask the same decisions, emit the same
//! trace events, return the same outcome and leave the combatants in the same state.

mod common;

use common::{combatant_value, kingsmark, weapon_value, Draw};
use rulesc::eval::Value;
use rulesc_tests::differential::{check, generated, interpret, tag, untraced};
use rulesc_tests::kingsmark as km;

const SEEDS: u64 = 10_000;

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
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "melee_attack", seed, &interp, &gen, plain);
    }
    // The seeds reach every outcome, so every branch was compared.
    for t in ["EpicFailure", "Miss", "NoWound", "Hit"] {
        assert!(outcomes.get(t).copied().unwrap_or(0) > 10, "{outcomes:?}");
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
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "ranged_attack", seed, &interp, &gen, plain);
    }
    for t in ["EpicFailure", "Miss", "NoWound", "Hit"] {
        assert!(outcomes.get(t).copied().unwrap_or(0) > 10, "{outcomes:?}");
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
        check(&p, "roll_initiative", seed, &interp, &gen, plain);

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
        check(&p, "surprise_test", seed, &interp, &gen, plain);

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
        check(&p, "resolve_surprise", seed, &interp, &gen, plain);

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
        check(&p, "declare_turn", seed, &interp, &gen, plain);

        let interp = interpret(&p, "interrupt", seed, vec![cv()]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = km::interrupt(e, &mut x);
            (r.to_string(), vec![combatant_value(&p, &x)])
        });
        let plain = untraced(seed, |e| km::interrupt(e, &mut c.clone()));
        check(&p, "interrupt", seed, &interp, &gen, plain);
    }
}

/// The benchmark's bare exchange (`fixtures/bench/exchange`), which the melee bench times
/// against hand-written Rust.
#[test]
fn bare_exchange_matches_the_interpreter() {
    use rulesc_tests::exchange as ex;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench/exchange");
    let p = rulesc::compile_dir(&dir)
        .0
        .expect("the exchange fixture checks");
    let fighter = |f: &ex::Fighter| {
        rulesc::eval::record(
            &p,
            "Fighter",
            &[
                ("physical_performance", Value::Int(f.physical_performance)),
                ("skill", Value::Int(f.skill)),
            ],
        )
        .unwrap()
    };
    let mut outcomes = std::collections::BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let mut draw = || ex::Fighter {
            physical_performance: d.int(-2, 5),
            skill: d.int(0, 6),
        };
        let (a, b) = (draw(), draw());
        let interp = interpret(&p, "exchange", seed, vec![fighter(&a), fighter(&b)]);
        let gen = generated(seed, |e| {
            let r = ex::exchange(e, &a, &b);
            (r.to_string(), vec![fighter(&a), fighter(&b)])
        });
        let plain = untraced(seed, |e| ex::exchange(e, &a, &b));
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "exchange", seed, &interp, &gen, plain);
    }
    for t in ["EpicFailure", "Miss", "Hit"] {
        assert!(outcomes.get(t).copied().unwrap_or(0) > 10, "{outcomes:?}");
    }
}
