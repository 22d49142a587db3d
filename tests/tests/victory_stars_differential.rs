//! Victory Stars: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same exchange and leave both combatants in the
//! same state: 10,000 seeded resolutions of each attack procedure with each defence it
//! admits (the defender's `defence` decision is steered to it; every other decision is
//! answered from the seed, sometimes out of range, which both backends clamp alike).

mod common;
#[path = "common/victory_stars_draw.rs"]
mod victory_stars_draw;

use common::Draw;
use rulesc_tests::differential::{check, env, finish, interpret, untraced, Seeded};
use rulesc_tests::support::Shown;
use rulesc_tests::victory_stars as vs;
use std::collections::BTreeMap;
use victory_stars_draw::{choice, combatant_value, list, victory_stars};

const SEEDS: u64 = 10_000;

// ---------------------------------------------------------------------------------------
// Running both backends

/// The shape of a blow in a printed exchange (`Wounded`, `NoBlow`, ...), for coverage.
fn blow_kinds(outcome: &str) -> Vec<String> {
    ["blow: ", "counterblow: "]
        .iter()
        .filter_map(|field| {
            let at = outcome.find(field)?;
            let rest = &outcome[at + field.len()..];
            let end = rest.find(['(', ',', ')']).unwrap_or(rest.len());
            Some(format!("{field}{}", &rest[..end]))
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Procedure {
    Melee,
    Missile,
}

/// `SEEDS` resolutions of one attack procedure with defence `d`; returns how often each
/// kind of blow came out.
fn compare(procedure: Procedure, d: vs::Defence) -> BTreeMap<String, u32> {
    let p = victory_stars();
    let name = match procedure {
        Procedure::Melee => "melee_attack",
        Procedure::Missile => "missile_attack",
    };
    let what = format!("`{name}` with {d}");
    let mut seen = BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut draw = Draw::new(seed);
        let attacker = victory_stars_draw::combatant(&mut draw);
        let mut defender = victory_stars_draw::combatant(&mut draw);
        let mut mode = match procedure {
            Procedure::Melee => victory_stars_draw::melee_mode(&mut draw),
            Procedure::Missile => victory_stars_draw::missile_mode(&mut draw),
        };
        victory_stars_draw::allow(&mut draw, d, &mut defender, &mut mode);
        let ammunition = victory_stars_draw::ammunition(&mut draw);
        let range = victory_stars_draw::range(&mut draw);
        let options = vs::available_defences(&defender, mode);
        let steer = options.iter().position(|o| *o == d).map(|i| i as u32);
        assert!(steer.is_some(), "{what}, seed {seed}: {d} is not available");
        let steered = Seeded::steered(seed, "defence", steer);

        let mut args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            choice(mode as u16),
        ];
        if procedure == Procedure::Missile {
            args.push(list(ammunition.iter().map(|a| choice(*a as u16))));
            args.push(choice(range as u16));
        }
        let interp = interpret(&p, name, steered, args);

        let (mut a, mut b) = (attacker.clone(), defender.clone());
        let mut e = env(steered);
        let r = match procedure {
            Procedure::Melee => vs::melee_attack(&mut e, &mut a, &mut b, mode),
            Procedure::Missile => {
                vs::missile_attack(&mut e, &mut a, &mut b, mode, &ammunition, range)
            }
        };
        let mut after = vec![
            combatant_value(&p, &a),
            combatant_value(&p, &b),
            choice(mode as u16),
        ];
        if procedure == Procedure::Missile {
            after.push(list(ammunition.iter().map(|a| choice(*a as u16))));
            after.push(choice(range as u16));
        }
        let gen = finish(e, r.shown(), after);

        let plain = untraced(steered, |e| {
            let (mut a, mut b) = (attacker.clone(), defender.clone());
            match procedure {
                Procedure::Melee => vs::melee_attack(e, &mut a, &mut b, mode),
                Procedure::Missile => {
                    vs::missile_attack(e, &mut a, &mut b, mode, &ammunition, range)
                }
            }
        });
        check(&p, &what, seed, &interp, &gen, plain);
        for kind in blow_kinds(&gen.outcome) {
            *seen.entry(kind).or_default() += 1;
        }
        let tag = gen
            .outcome
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        *seen.entry(tag).or_default() += 1;
    }
    seen
}

/// Each listed kind came out often enough that its branch was compared.
fn assert_reached(seen: &BTreeMap<String, u32>, kinds: &[&str]) {
    for kind in kinds {
        assert!(
            seen.get(*kind).copied().unwrap_or(0) > 10,
            "`{kind}` too rare: {seen:?}"
        );
    }
}

#[test]
fn site_tables_are_identical() {
    let p = victory_stars();
    assert_eq!(vs::SITES, p.sites.as_slice());
}

#[test]
fn melee_attack_with_block_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Block);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: NoBlow",
            "blow: Breakage",
            "blow: Wounded",
            "blow: NoInjury",
        ],
    );
}

#[test]
fn melee_attack_with_dodge_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Dodge);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: NoBlow",
            "blow: Wounded",
            "blow: NoInjury",
            "blow: OffTheBody",
        ],
    );
}

#[test]
fn melee_attack_with_counterstrike_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Counterstrike);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: Wounded",
            "counterblow: Wounded",
            "counterblow: NoBlow",
            "counterblow: NoInjury",
        ],
    );
}

#[test]
fn melee_attack_with_ignore_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Ignore);
    assert_reached(
        &seen,
        &[
            "Unopposed",
            "blow: NoBlow",
            "blow: Wounded",
            "blow: NoInjury",
            "blow: Glance",
            "blow: OffTheBody",
        ],
    );
}

#[test]
fn missile_attack_with_block_matches_the_interpreter() {
    let seen = compare(Procedure::Missile, vs::Defence::Block);
    assert_reached(
        &seen,
        &["Contest", "blow: Breakage", "blow: Wounded", "blow: NoBlow"],
    );
}

#[test]
fn missile_attack_with_dodge_matches_the_interpreter() {
    let seen = compare(Procedure::Missile, vs::Defence::Dodge);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: Wounded",
            "blow: NoBlow",
            "blow: OffTheBody",
        ],
    );
}

#[test]
fn missile_attack_with_ignore_matches_the_interpreter() {
    let seen = compare(Procedure::Missile, vs::Defence::Ignore);
    assert_reached(&seen, &["Unopposed", "blow: Wounded", "blow: NoInjury"]);
}

/// Counterstrike is never available against a missile (V2): no seed can steer to it.
#[test]
fn missile_attack_admits_no_counterstrike() {
    let mut draw = Draw::new(1);
    for _ in 0..1_000 {
        let defender = victory_stars_draw::combatant(&mut draw);
        let mode = victory_stars_draw::missile_mode(&mut draw);
        assert!(!vs::available_defences(&defender, mode).contains(&vs::Defence::Counterstrike));
    }
}

#[test]
fn whole_victory_stars_fights_match_the_interpreter() {
    // `examples/victory-stars/fight.yaml`, 1,000 seeds, decisions at random: exchanges,
    // wounds, shock and the Morale triggers of a whole fight.
    let p = victory_stars();
    let file = rulesc_tests::differential::fight_file(&p, "examples/victory-stars/fight.yaml");
    let ends = rulesc_tests::differential::fight_differential(
        &p,
        "victory-stars",
        &file,
        &rulesc_tests::fights::victory_stars().combatants,
        |c| combatant_value(&p, c),
        || vs::Rules,
        1_000,
    );
    assert!(
        ends.contains_key("Won(Side(0))") && ends.contains_key("Won(Side(1))"),
        "{ends:?}"
    );
}
