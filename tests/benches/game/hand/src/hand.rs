//! Kingsmark's bare exchange and melee attack written by hand, as a game programmer would:
//! plain Rust over the generated types and the runtime's raw face source
//! (`SeededDice::face`), with no call into `roll` or anything else under test. The melee
//! bench compares the generated code against these, in its own binary
//! (`tests/benches/melee.rs` includes this file) and built as a game builds them (this
//! crate, `bench-hand`, apart from the generated one and from the harness).

use crate::{ex, km};
use rulesc_runtime::{Decide, DiceSource, Env, NoTrace, SeededDice};

/// One exploding d12 written by hand: (total, natural face).
#[inline(always)]
pub fn d12_exploding(dice: &mut SeededDice) -> (i64, i64) {
    let first = dice.face(12);
    let mut total = i64::from(first);
    let mut last = first;
    while last == 12 {
        last = dice.face(12);
        total += i64::from(last);
    }
    (total, i64::from(first))
}

/// The bare exchange by hand.
pub fn hand_exchange(dice: &mut SeededDice, a: &ex::Fighter, d: &ex::Fighter) -> ex::Exchange {
    let (roll, natural) = d12_exploding(dice);
    let attack = roll + a.physical_performance + a.skill;
    if natural == 1 {
        return ex::Exchange::EpicFailure;
    }
    let (roll, _) = d12_exploding(dice);
    let defence = roll + d.physical_performance + d.skill;
    if attack < defence {
        ex::Exchange::Miss
    } else {
        ex::Exchange::Hit {
            margin: attack - defence,
        }
    }
}

/// The hit-location table as a programmer would write it: face 1 is index 0.
pub const LOCATIONS: [km::HitLocation; 12] = {
    use km::HitLocation::*;
    [
        LeftFoot, RightFoot, LeftLeg, RightLeg, LeftHand, RightHand, LeftArm, RightArm, LowerTorso,
        UpperTorso, Neck, Head,
    ]
};

/// The melee attack by hand, against the generated types: same dice and decisions in the
/// same order.
pub fn hand_melee<X: Decide>(
    env: &mut Env<SeededDice, X, NoTrace>,
    attacker: &km::Combatant,
    defender: &mut km::Combatant,
    weapon: &km::Weapon,
) -> km::AttackResult {
    use km::{AttackResult, DamageLevel, Maneuver, MeleeDefence};
    let pain = |c: &km::Combatant| {
        let p: i64 = c.wounds.boxes().map(|b| km::WOUND_BOXES_PAIN[b - 1]).sum();
        (p - c.pain_relief).max(0)
    };
    let net = |c: &km::Combatant| pain(c) + c.distress + c.disadvantage - c.advantage;
    let (roll, natural) = d12_exploding(&mut env.dice);
    let attack = roll + attacker.physical_performance + attacker.skills[weapon.skill as usize];
    if natural == 1 {
        return AttackResult::EpicFailure;
    }
    let mut base_tn = 4;
    let mut shield = false;
    if !defender.surprised && !defender.defenceless {
        let choice = MeleeDefence::ALL[env.decide.decide("melee_defence", 3) as usize];
        shield = choice == MeleeDefence::DefendWithShield;
        let (roll, natural) = d12_exploding(&mut env.dice);
        let defence = roll
            + defender.physical_performance
            + defender.skills[km::melee_defence_skill(choice) as usize];
        base_tn = if natural == 1 {
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
        LOCATIONS[env.dice.face(12) as usize - 1]
    } else {
        let exposed = |l: &&km::HitLocation| defender.exposed_locations.contains(l);
        let n = LOCATIONS.iter().filter(exposed).count();
        let face = env.dice.face(n as u32) as usize;
        *LOCATIONS.iter().filter(exposed).nth(face - 1).unwrap()
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
