//! `cargo bench -p rulesc-tests --bench melee`: Kingsmark melee attacks per second, the
//! generated code (with `NoTrace`) against the interpreter, on the same seeded inputs.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{combatant_value, kingsmark, weapon_value, Draw, SeededDecide};
use rulesc::eval::{self, Value};
use rulesc_runtime::{roll, Decide, DiceSource, DiceSpec, Env, NoTrace, SeededDice};
use rulesc_tests::kingsmark as km;
use std::hint::black_box;
use std::time::{Duration, Instant};

const INPUTS: u64 = 1_000;
const RUN_FOR: Duration = Duration::from_secs(2);

/// Runs `round` (which resolves every input once) until `RUN_FOR` has passed; returns
/// resolutions per second.
fn rate(mut round: impl FnMut() -> u64) -> f64 {
    round(); // warm up
    let start = Instant::now();
    let mut done = 0u64;
    while start.elapsed() < RUN_FOR {
        done += round();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

/// The same melee attack written by hand against the generated types: the yardstick for
/// "how close does the generated code come". Same dice and decisions in the same order
/// (checked against the generated code on every input before timing).
fn hand_melee<D: DiceSource, X: Decide>(
    env: &mut Env<D, X, NoTrace>,
    attacker: &km::Combatant,
    defender: &mut km::Combatant,
    weapon: &km::Weapon,
) -> km::AttackResult {
    use km::{AttackResult, DamageLevel, Maneuver, MeleeDefence};
    let d12x = DiceSpec {
        explode: true,
        ..DiceSpec::new(1, 12)
    };
    let pain = |c: &km::Combatant| {
        let p: i64 = c.wounds.boxes().map(|b| km::WOUND_BOXES_PAIN[b - 1]).sum();
        (p - c.pain_relief).max(0)
    };
    let net = |c: &km::Combatant| pain(c) + c.distress + c.disadvantage - c.advantage;
    let a = roll(&mut env.dice, d12x, &mut NoTrace, 0);
    let attack = a.total + attacker.physical_performance + attacker.skills[weapon.skill as usize];
    if a.natural == 1 {
        return AttackResult::EpicFailure;
    }
    let mut base_tn = 4;
    let mut shield = false;
    if !defender.surprised && !defender.defenceless {
        let choice = MeleeDefence::ALL[env.decide.decide("melee_defence", 3) as usize];
        shield = choice == MeleeDefence::DefendWithShield;
        let d = roll(&mut env.dice, d12x, &mut NoTrace, 0);
        let defence = d.total
            + defender.physical_performance
            + defender.skills[km::melee_defence_skill(choice) as usize];
        base_tn = if d.natural == 1 {
            defence.min(4)
        } else {
            defence
        };
    }
    let tn = base_tn + net(attacker) - net(defender);
    if attack < tn {
        return AttackResult::Miss;
    }
    let mut maneuver =
        Maneuver::ALL[env.decide.decide("maneuver", Maneuver::ALL.len() as u32) as usize];
    let mut final_tn = tn + km::maneuver_difficulty(maneuver);
    if attack < final_tn {
        maneuver = Maneuver::OrdinaryStrike;
        final_tn = tn + km::maneuver_difficulty(maneuver);
    }
    let top = DamageLevel::ALL.len() as i64 - 1;
    let mut level = (weapon.base_damage as i64 + attack - final_tn).clamp(0, top);
    if attack < weapon.critical_threshold {
        level = level.min(DamageLevel::Severe as i64);
    }
    let mut in_play = false;
    if shield {
        let ready = env.decide.decide("shield_ready", 2) == 1;
        let intercepts = env.decide.decide("shield_intercepts", 2) == 1;
        in_play = ready && intercepts;
    }
    let location = if attacker.aiming {
        km::HitLocation::ALL[env.decide.decide("aimed_location", 12) as usize]
    } else if defender.exposed_locations.is_empty() {
        km::hit_locations(roll(&mut env.dice, DiceSpec::new(1, 12), &mut NoTrace, 0).total)
    } else {
        let faces: Vec<i64> = (1..=12)
            .filter(|&f| defender.exposed_locations.contains(&km::hit_locations(f)))
            .collect();
        let r = roll(
            &mut env.dice,
            DiceSpec::new(1, faces.len() as u32),
            &mut NoTrace,
            0,
        )
        .total;
        km::hit_locations(faces[r as usize - 1])
    };
    let armor: i64 = defender
        .armor
        .iter()
        .filter(|p| p.covers.contains(&location) && (in_play || !p.shield))
        .map(|p| p.ratings[weapon.damage_type as usize])
        .sum();
    let wound = (level + armor).clamp(0, top);
    if wound < DamageLevel::Minor as i64 {
        return AttackResult::NoWound;
    }
    let (number, filled) = defender
        .wounds
        .fill(&km::WOUND_BOXES_LEVELS, wound as u8, true)
        .map_or((0, wound as u8), |(n, l)| (n as i64, l));
    let level = DamageLevel::ALL[usize::from(filled).max(wound as usize)];
    AttackResult::Hit {
        level,
        location,
        r#box: number,
    }
}

fn main() {
    let p = kingsmark();
    let (id, _) = p.function("melee_attack").expect("melee_attack");
    let mut inputs = Vec::new();
    for seed in 0..INPUTS {
        let mut d = Draw::new(seed);
        inputs.push((d.combatant(), d.combatant(), d.weapon()));
    }
    let values: Vec<(Value, Value, Value)> = inputs
        .iter()
        .map(|(a, d, w)| {
            (
                combatant_value(&p, a),
                combatant_value(&p, d),
                weapon_value(&p, w),
            )
        })
        .collect();

    // `cargo bench --bench melee -- generated` (or `interpreter`) runs only one side,
    // for profiling.
    let only: Option<String> = std::env::args()
        .skip(1)
        .find(|a| a == "generated" || a == "interpreter" || a == "hand");
    let run = |side: &str| only.as_deref().is_none_or(|o| o == side);

    // Generated: the defender's wounds are restored after each attack (the only state
    // an attack changes), so the loop measures resolutions, not clones.
    let mut env = Env::new(SeededDice::new(1), SeededDecide::new(1), NoTrace);
    let mut defenders: Vec<km::Combatant> = inputs.iter().map(|(_, d, _)| d.clone()).collect();
    let generated = if !run("generated") {
        0.0
    } else {
        rate(|| {
            for ((a, d0, w), d) in inputs.iter().zip(defenders.iter_mut()) {
                black_box(km::melee_attack(&mut env, a, d, w));
                d.wounds = d0.wounds;
            }
            INPUTS
        })
    };

    // Interpreter: each call gets a fresh copy of the defender (its records are shared
    // and changed in place).
    let mut env = Env::new(SeededDice::new(1), SeededDecide::new(1), NoTrace);
    let interpreted = if !run("interpreter") {
        0.0
    } else {
        rate(|| {
            for (a, d, w) in &values {
                black_box(eval::call(
                    &p,
                    &mut env,
                    id,
                    vec![a.clone(), d.deep_clone(), w.clone()],
                ));
            }
            INPUTS
        })
    };

    // Hand-written, after checking it does what the generated code does.
    let mut env_g = Env::new(SeededDice::new(9), SeededDecide::new(9), NoTrace);
    let mut env_h = Env::new(SeededDice::new(9), SeededDecide::new(9), NoTrace);
    for (a, d, w) in &inputs {
        let (mut dg, mut dh) = (d.clone(), d.clone());
        assert_eq!(
            km::melee_attack(&mut env_g, a, &mut dg, w),
            hand_melee(&mut env_h, a, &mut dh, w)
        );
        assert_eq!(dg, dh);
    }
    let mut env = Env::new(SeededDice::new(1), SeededDecide::new(1), NoTrace);
    let mut defenders: Vec<km::Combatant> = inputs.iter().map(|(_, d, _)| d.clone()).collect();
    let hand = if !run("hand") {
        0.0
    } else {
        rate(|| {
            for ((a, d0, w), d) in inputs.iter().zip(defenders.iter_mut()) {
                black_box(hand_melee(&mut env, a, d, w));
                d.wounds = d0.wounds;
            }
            INPUTS
        })
    };

    println!("melee_attack, {INPUTS} seeded inputs, NoTrace:");
    println!("  hand-written {:>11.0} resolutions/s", hand);
    println!("  generated   {:>12.0} resolutions/s", generated);
    println!("  interpreter {:>12.0} resolutions/s", interpreted);
    println!("  generated / hand-written: {:.2}", generated / hand);
    println!(
        "  generated / interpreter:  {:.1}x",
        generated / interpreted
    );
}
