//! Hit Strength's one generator of seeded inputs, shared by the differential test
//! (`hit_strength_differential.rs`) and the property test (`properties_hit_strength.rs`):
//! combatants (with their injuries), weapons and spans of time drawn from
//! `crate::common::Draw`, and the converters of those records to the interpreter's
//! `eval::Value`s (the differential test's arguments).

#![allow(dead_code)]

use crate::common::Draw;
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_tests::hit_strength as hs;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------
// Seeded arguments

/// One entry of a combatant's injury list: mostly Severe or Fatal, now and then the
/// `NoInjury` the type allows (the rules never add one, but must read one); a Fatal
/// injury is usually still bleeding (its timer anywhere up to the arm's ten minutes).
pub fn injury(d: &mut Draw) -> hs::Injury {
    let severity = if d.chance(5) {
        hs::InjurySeverity::NoInjury
    } else {
        d.pick(&[
            hs::InjurySeverity::SevereInjury,
            hs::InjurySeverity::FatalInjury,
        ])
    };
    hs::Injury {
        location: d.pick(&hs::InjuryLocation::ALL),
        severity,
        bleeding_out: if severity == hs::InjurySeverity::FatalInjury && d.chance(70) {
            d.int(1, 600)
        } else {
            0
        },
    }
}

/// A combatant in any state the rules can leave one in: half of them at 0 hit points
/// (vulnerable, mostly exhausted, with up to 3 injuries), the rest wounded or whole; now
/// and then knocked out, dead, blind in one or both eyes, or with an eye at risk.
pub fn combatant(d: &mut Draw) -> hs::Combatant {
    let at_zero = d.chance(50);
    let injuries = if at_zero {
        (0..d.int(0, 3)).map(|_| injury(d)).collect()
    } else {
        Vec::new()
    };
    hs::Combatant {
        hit_points: if at_zero { 0 } else { d.int(1, 25) },
        max_hit_points: d.int(10, 30),
        defense: d.int(6, 20),
        attack_bonus: d.int(-2, 10),
        endurance: d.int(-1, 8),
        heal: d.int(-1, 8),
        speed: d.int(0, 40),
        exhausted: if at_zero { d.chance(90) } else { d.chance(5) },
        healing_blocked: if d.chance(50) { d.int(0, 3600) } else { 0 },
        injuries,
        knocked_out: d.chance(10),
        eye_at_risk: if d.chance(15) { 20 } else { 0 },
        eyes_lost: d.int(0, 2),
        dead: d.chance(5),
        // Only a fight reads it (the tests draw the attack's weapon as an argument).
        weapon: hs::Weapon::standard_sword(),
    }
}

/// The standard sword, or a weapon with any damage at each Hit Strength.
pub fn weapon(d: &mut Draw) -> hs::Weapon {
    if d.chance(50) {
        hs::Weapon::standard_sword()
    } else {
        hs::Weapon {
            damage: [d.int(0, 5), d.int(3, 9), d.int(6, 15)],
        }
    }
}

/// Seconds for `time_passes`: no time, a negative count, the edges of the rules' timers
/// (a second, a round, a minute and the second before it, ten minutes, the hour), or any
/// count from -10 to 4,000.
pub fn seconds(d: &mut Draw) -> i64 {
    let any = d.int(-10, 4000);
    d.pick(&[0, -1, 1, 6, 59, 60, 600, 3600, any])
}

// ---------------------------------------------------------------------------------------
// The interpreter's values

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

pub fn weapon_value(p: &Program, w: &hs::Weapon) -> Value {
    let damage = Value::Map(Rc::new(w.damage.iter().map(|d| Value::Int(*d)).collect()));
    rec(p, "Weapon", &[("damage", damage)])
}

pub fn injury_value(p: &Program, i: &hs::Injury) -> Value {
    rec(
        p,
        "Injury",
        &[
            ("location", Value::Choice(i.location as u16)),
            ("severity", Value::Choice(i.severity as u16)),
            ("bleeding_out", Value::Int(i.bleeding_out)),
        ],
    )
}

pub fn combatant_value(p: &Program, c: &hs::Combatant) -> Value {
    let injuries = Value::List(Rc::new(
        c.injuries.iter().map(|i| injury_value(p, i)).collect(),
    ));
    rec(
        p,
        "Combatant",
        &[
            ("hit_points", Value::Int(c.hit_points)),
            ("max_hit_points", Value::Int(c.max_hit_points)),
            ("defense", Value::Int(c.defense)),
            ("attack_bonus", Value::Int(c.attack_bonus)),
            ("endurance", Value::Int(c.endurance)),
            ("heal", Value::Int(c.heal)),
            ("speed", Value::Int(c.speed)),
            ("exhausted", Value::Bool(c.exhausted)),
            ("healing_blocked", Value::Int(c.healing_blocked)),
            ("injuries", injuries),
            ("knocked_out", Value::Bool(c.knocked_out)),
            ("eye_at_risk", Value::Int(c.eye_at_risk)),
            ("eyes_lost", Value::Int(c.eyes_lost)),
            ("dead", Value::Bool(c.dead)),
        ],
    )
}
