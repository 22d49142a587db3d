//! Hit Strength: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same outcome and leave every combatant in the
//! same state: 10,000 seeded resolutions each of the attack (`attack`) and of the injury
//! at 0 hit points (`injure`), and fewer of the timers and Heal checks.

mod common;
#[path = "common/hit_strength_draw.rs"]
mod hit_strength_draw;

use common::Draw;
use hit_strength_draw::{combatant, combatant_value, seconds, weapon, weapon_value};
use rulesc::eval::Value;
use rulesc::ir::Program;
use rulesc_tests::differential::{
    check, fight_differential, fight_env, fight_file, generated, interpret, join_file, tag,
    untraced,
};
use rulesc_tests::hit_strength as hs;
use rulesc_tests::support::Shown;
use std::collections::BTreeMap;
use std::path::Path;

const SEEDS: u64 = 10_000;

fn hit_strength() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/hit-strength");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("hit-strength does not check: {:?}", diags.items))
}

// ---------------------------------------------------------------------------------------
// Running both backends

// ---------------------------------------------------------------------------------------

#[test]
fn site_tables_are_identical() {
    let p = hit_strength();
    assert_eq!(hs::SITES, p.sites.as_slice());
}

#[test]
fn attack_matches_the_interpreter() {
    let p = hit_strength();
    let mut outcomes = BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (attacker, defender, weapon) = (combatant(&mut d), combatant(&mut d), weapon(&mut d));
        let args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            weapon_value(&p, &weapon),
        ];
        let interp = interpret(&p, "attack", seed, args);
        let gen = generated(seed, |e| {
            let mut def = defender.clone();
            let r = hs::attack(e, &attacker, &mut def, &weapon);
            (
                r.shown(),
                vec![
                    combatant_value(&p, &attacker),
                    combatant_value(&p, &def),
                    weapon_value(&p, &weapon),
                ],
            )
        });
        let plain = untraced(seed, |e| {
            hs::attack(e, &attacker, &mut defender.clone(), &weapon)
        });
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "attack", seed, &interp, &gen, plain);
    }
    // The seeds reach every outcome, so every branch was compared.
    for t in ["Miss", "Hit", "NoEffect", "Injured"] {
        assert!(outcomes.get(t).copied().unwrap_or(0) > 100, "{outcomes:?}");
    }
}

#[test]
fn injure_matches_the_interpreter() {
    let p = hit_strength();
    let mut outcomes = BTreeMap::<String, u32>::new();
    let mut knocked_out = 0;
    let mut eyes_at_risk = 0;
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let mut c = combatant(&mut d);
        c.hit_points = 0;
        let strength = d.pick(&hs::HitStrength::ALL);
        let args = vec![combatant_value(&p, &c), Value::Choice(strength as u16)];
        let interp = interpret(&p, "injure", seed, args);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = hs::injure(e, &mut x, strength);
            knocked_out += u32::from(!c.knocked_out && x.knocked_out);
            eyes_at_risk += u32::from(c.eye_at_risk == 0 && x.eye_at_risk > 0);
            (
                r.shown(),
                vec![combatant_value(&p, &x), Value::Choice(strength as u16)],
            )
        });
        let plain = untraced(seed, |e| hs::injure(e, &mut c.clone(), strength));
        *outcomes.entry(gen.outcome.clone()).or_default() += 1;
        check(&p, "injure", seed, &interp, &gen, plain);
    }
    assert!(
        outcomes.get("NoEffect").copied().unwrap_or(0) > 100,
        "{outcomes:?}"
    );
    // Every severity at every place, the H5 escalation included.
    for severity in ["Severe Injury", "Fatal Injury"] {
        for place in ["Arm", "Leg", "Internal", "Head"] {
            let n: u32 = outcomes
                .iter()
                .filter(|(o, _)| o.contains(severity) && o.contains(&format!("{place} Injury")))
                .map(|(_, n)| n)
                .sum();
            assert!(n > 50, "{severity} {place}: {outcomes:?}");
        }
    }
    let escalated: u32 = outcomes
        .iter()
        .filter(|(o, _)| o.contains("Medium Hit") && o.contains("Fatal Injury"))
        .map(|(_, n)| n)
        .sum();
    assert!(escalated > 50, "H5: {outcomes:?}");
    assert!(
        knocked_out > 50 && eyes_at_risk > 50,
        "{knocked_out} {eyes_at_risk}"
    );
}

#[test]
fn timers_and_heal_checks_match_the_interpreter() {
    let p = hit_strength();
    for seed in 0..SEEDS / 5 {
        let mut d = Draw::new(seed);
        let (a, b) = (combatant(&mut d), combatant(&mut d));
        let seconds = seconds(&mut d);
        let amount = d.int(0, 30);

        let interp = interpret(
            &p,
            "time_passes",
            seed,
            vec![combatant_value(&p, &b), Value::Int(seconds)],
        );
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::time_passes(e, &mut x, seconds);
            (
                r.shown(),
                vec![combatant_value(&p, &x), Value::Int(seconds)],
            )
        });
        let plain = untraced(seed, |e| hs::time_passes(e, &mut b.clone(), seconds));
        check(&p, "time_passes", seed, &interp, &gen, plain);

        let interp = interpret(
            &p,
            "heal",
            seed,
            vec![combatant_value(&p, &b), Value::Int(amount)],
        );
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::heal(e, &mut x, amount);
            (
                r.to_string(),
                vec![combatant_value(&p, &x), Value::Int(amount)],
            )
        });
        let plain = untraced(seed, |e| hs::heal(e, &mut b.clone(), amount));
        check(&p, "heal", seed, &interp, &gen, plain);

        let pair = || vec![combatant_value(&p, &a), combatant_value(&p, &b)];
        let interp = interpret(&p, "stop_bleeding", seed, pair());
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::stop_bleeding(e, &a, &mut x);
            (
                r.shown(),
                vec![combatant_value(&p, &a), combatant_value(&p, &x)],
            )
        });
        let plain = untraced(seed, |e| hs::stop_bleeding(e, &a, &mut b.clone()));
        check(&p, "stop_bleeding", seed, &interp, &gen, plain);

        let interp = interpret(&p, "save_eye", seed, pair());
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::save_eye(e, &a, &mut x);
            (
                r.to_string(),
                vec![combatant_value(&p, &a), combatant_value(&p, &x)],
            )
        });
        let plain = untraced(seed, |e| hs::save_eye(e, &a, &mut b.clone()));
        check(&p, "save_eye", seed, &interp, &gen, plain);
    }
}

// ---------------------------------------------------------------------------------------
// Whole fights

const FIGHT: &str = "examples/hit-strength/fight.yaml";

/// The combatants of `examples/hit-strength/fight.yaml`, in its order, as the generated
/// code's records (`fight_differential` checks they are the file's).
fn example_combatants() -> Vec<hs::Combatant> {
    let fighter = |hp, defense, attack_bonus, endurance, heal, speed| hs::Combatant {
        hit_points: hp,
        max_hit_points: hp,
        defense,
        attack_bonus,
        endurance,
        heal,
        speed,
        ..Default::default()
    };
    vec![
        fighter(14, 13, 5, 3, 6, 30),
        fighter(16, 12, 4, 4, 0, 25),
        fighter(12, 12, 4, 2, 2, 30),
        fighter(12, 11, 3, 2, 0, 20),
    ]
}

#[test]
fn whole_fights_match_the_interpreter() {
    let p = hit_strength();
    let file = fight_file(&p, FIGHT);
    let combatants = example_combatants();
    let ends = fight_differential(
        &p,
        "hit-strength fight",
        &file,
        &combatants,
        |c| combatant_value(&p, c),
        || hs::Rules,
        1_000,
    );
    assert_eq!(
        ends.keys().filter(|k| k.starts_with("Won")).count(),
        2,
        "both sides win some: {ends:?}"
    );
    // The fights compared took every path: injuries at 0 hit points (H3), blood loss
    // stopped by an ally (H7); and world time is 6 seconds a round (fight.rules).
    let (mut injured, mut helped) = (0, 0);
    for seed in 0..1_000 {
        let mut env = fight_env(seed);
        let mut fight = join_file(&file, &combatants);
        fight.run(&mut hs::Rules, &mut env, file.rounds);
        let round = i64::from(fight.round());
        assert!(
            [6 * round - 6, 6 * round].contains(&fight.time()),
            "seed {seed}: world time passes at each round's end"
        );
        injured += fight
            .combatants
            .iter()
            .filter(|c| !c.injuries.is_empty())
            .count();
        helped += fight
            .combatants
            .iter()
            .filter(|c| {
                !c.dead
                    && c.injuries.iter().any(|i| {
                        i.severity == hs::InjurySeverity::FatalInjury && i.bleeding_out == 0
                    })
            })
            .count();
    }
    assert!(injured > 200 && helped > 50, "{injured} {helped}");
}
