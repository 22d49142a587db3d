//! Victory Stars' one generator of test inputs, drawn from a seed through the shared
//! `crate::common::Draw`: combatants (with wounds, shock, morale, armour, held items),
//! strike modes, ammunition, range bands and the Morale triggers' numbers; and the
//! combatants as the interpreter's `eval::Value`s. Used by `victory_stars_differential.rs`
//! (interpreter against generated code) and `properties_victory_stars.rs` (the rules'
//! invariants), each through `#[path = "common/victory_stars_draw.rs"] mod ...`.

#![allow(dead_code)]

use crate::common::Draw;
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_tests::victory_stars as vs;
use std::path::Path;
use std::rc::Rc;

pub fn victory_stars() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/victory-stars");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("victory-stars does not check: {:?}", diags.items))
}

// ---------------------------------------------------------------------------------------
// Arguments drawn from a seed

pub fn wound(d: &mut Draw) -> vs::Wound {
    vs::Wound {
        part: d.pick(&vs::BodyPart::ALL),
        severity: d.pick(&vs::Severity::ALL),
        injury_level: d.int(0, 5),
        impairment: d.int(0, 4),
        bleeding: d.chance(50),
        healing_days: d.int(0, 60),
        shock_index: d.int(0, 6),
    }
}

/// A combatant: no skill now and then, up to two held items (never the bare arm), the
/// Cat's, the Bull's or drawn thresholds, some armour, up to two wounds, a shock state
/// (Unshaken four times in five), Tactical Advantages held, morale states in play and a
/// Morale Test pending now and then.
pub fn combatant(d: &mut Draw) -> vs::Combatant {
    let mut skills = [0i64; 6];
    for s in skills.iter_mut() {
        if d.chance(85) {
            *s = d.int(20, 95);
        }
    }
    let items: Vec<vs::Item> = vs::Item::ALL
        .iter()
        .copied()
        .filter(|i| *i != vs::Item::BareArm)
        .collect();
    let held = (0..d.int(0, 2)).map(|_| d.pick(&items)).collect();
    let thresholds = match d.int(0, 3) {
        0 => vs::Combatant::cat().thresholds,
        1 => vs::Combatant::bull().thresholds,
        2 => {
            let mut t = Vec::new();
            let mut at = 0;
            for _ in 0..d.int(1, 6) {
                at += d.int(1, 6);
                t.push(at);
            }
            t
        }
        _ => vec![4, 8, 12, 16, 20],
    };
    let mut toughness = [0i64; 4];
    for t in toughness.iter_mut() {
        if d.chance(30) {
            *t = d.int(0, 3);
        }
    }
    let mut armour = Vec::new();
    for (piece, percent) in [
        (vs::Armour::padded_jack(), 40),
        (vs::Armour::mail_hauberk(), 25),
        (vs::Armour::steel_breastplate(), 50),
        (vs::Armour::kettle_helm(), 50),
    ] {
        if d.chance(percent) {
            armour.push(piece);
        }
    }
    let wounds = (0..d.int(0, 2)).map(|_| wound(d)).collect();
    let shock = if d.chance(80) {
        vs::ShockState::Unshaken
    } else {
        d.pick(&vs::ShockState::ALL)
    };
    let mut advantages = [0i64; 4];
    for a in advantages.iter_mut() {
        if d.chance(20) {
            *a = d.int(1, 2);
        }
    }
    let morale_states = (0..d.int(0, 2))
        .map(|_| d.pick(&vs::MoraleState::ALL))
        .collect();
    vs::Combatant {
        strength: d.int(3, 20),
        dexterity: d.int(3, 18),
        agility: d.int(3, 18),
        endurance: d.int(4, 20),
        skills,
        fatigue: d.int(0, 2),
        encumbrance: d.int(0, 2),
        prone: d.chance(15),
        situational: d.int(-4, 4) * 5,
        pinned: d.chance(10),
        unaware: d.chance(10),
        held,
        thresholds,
        toughness,
        armour,
        wounds,
        shock,
        advantages,
        morale_states,
        morale_test_pending: d.chance(10),
        side_strength: d.int(0, 10),
        badly_outnumbered: d.chance(20),
        leader: false,
    }
}

/// Any strike mode, melee or missile.
pub fn mode(d: &mut Draw) -> vs::StrikeMode {
    d.pick(&vs::StrikeMode::ALL)
}

pub fn melee_mode(d: &mut Draw) -> vs::StrikeMode {
    let modes: Vec<vs::StrikeMode> = vs::StrikeMode::ALL
        .iter()
        .copied()
        .filter(|m| !vs::strike_modes(*m).missile)
        .collect();
    d.pick(&modes)
}

pub fn missile_mode(d: &mut Draw) -> vs::StrikeMode {
    let modes: Vec<vs::StrikeMode> = vs::StrikeMode::ALL
        .iter()
        .copied()
        .filter(|m| vs::strike_modes(*m).missile)
        .collect();
    d.pick(&modes)
}

/// One projectile four times in five, none otherwise, whatever the mode (a mode that
/// launches none ignores it).
pub fn ammunition(d: &mut Draw) -> Vec<vs::Ammunition> {
    if d.chance(80) {
        vec![d.pick(&vs::Ammunition::ALL)]
    } else {
        Vec::new()
    }
}

pub fn range(d: &mut Draw) -> vs::RangeBand {
    d.pick(&vs::RangeBand::ALL)
}

/// Narrows a drawn defender and mode so that defence `defence` is available (`Ignore`
/// always is): the differential steers the defender's `defence` decision to it, so it
/// must be one of the options. The defender is made able to respond; a missile Block
/// gets a shield, any other bar draws another mode of the same kind.
pub fn allow(
    d: &mut Draw,
    defence: vs::Defence,
    defender: &mut vs::Combatant,
    mode: &mut vs::StrikeMode,
) {
    if defence == vs::Defence::Ignore {
        return;
    }
    defender.pinned = false;
    defender.unaware = false;
    defender.shock = vs::ShockState::Unshaken;
    let missile = vs::strike_modes(*mode).missile;
    while !vs::available_defences(defender, *mode).contains(&defence) {
        if missile && defence == vs::Defence::Block {
            defender.held.push(vs::Item::RoundShield);
        } else {
            *mode = if missile {
                missile_mode(d)
            } else {
                melee_mode(d)
            };
        }
    }
}

/// `side_losses`' argument: how many of `c`'s side still stand (up to its strength).
pub fn standing(d: &mut Draw, c: &vs::Combatant) -> i64 {
    d.int(0, c.side_strength.max(0))
}

/// `numbers_change`'s arguments: allies (1..=4) and enemies (0..=12).
pub fn numbers(d: &mut Draw) -> (i64, i64) {
    (d.int(1, 4), d.int(0, 12))
}

// ---------------------------------------------------------------------------------------
// The interpreter's values

pub fn choice(i: u16) -> Value {
    Value::Choice(i)
}

pub fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn ints(items: &[i64]) -> Vec<Value> {
    items.iter().map(|i| Value::Int(*i)).collect()
}

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

pub fn armour_value(p: &Program, a: &vs::Armour) -> Value {
    rec(
        p,
        "Armour",
        &[
            ("covers", list(a.covers.iter().map(|x| choice(*x as u16)))),
            ("protection", Value::Map(Rc::new(ints(&a.protection)))),
            ("rigid", Value::Bool(a.rigid)),
        ],
    )
}

pub fn wound_value(p: &Program, w: &vs::Wound) -> Value {
    rec(
        p,
        "Wound",
        &[
            ("part", choice(w.part as u16)),
            ("severity", choice(w.severity as u16)),
            ("injury_level", Value::Int(w.injury_level)),
            ("impairment", Value::Int(w.impairment)),
            ("bleeding", Value::Bool(w.bleeding)),
            ("healing_days", Value::Int(w.healing_days)),
            ("shock_index", Value::Int(w.shock_index)),
        ],
    )
}

pub fn combatant_value(p: &Program, c: &vs::Combatant) -> Value {
    rec(
        p,
        "Combatant",
        &[
            ("strength", Value::Int(c.strength)),
            ("dexterity", Value::Int(c.dexterity)),
            ("agility", Value::Int(c.agility)),
            ("endurance", Value::Int(c.endurance)),
            ("skills", Value::Map(Rc::new(ints(&c.skills)))),
            ("fatigue", Value::Int(c.fatigue)),
            ("encumbrance", Value::Int(c.encumbrance)),
            ("prone", Value::Bool(c.prone)),
            ("situational", Value::Int(c.situational)),
            ("pinned", Value::Bool(c.pinned)),
            ("unaware", Value::Bool(c.unaware)),
            ("held", list(c.held.iter().map(|i| choice(*i as u16)))),
            ("thresholds", list(ints(&c.thresholds))),
            ("toughness", Value::Map(Rc::new(ints(&c.toughness)))),
            ("armour", list(c.armour.iter().map(|a| armour_value(p, a)))),
            ("wounds", list(c.wounds.iter().map(|w| wound_value(p, w)))),
            ("shock", choice(c.shock as u16)),
            ("advantages", Value::Map(Rc::new(ints(&c.advantages)))),
            (
                "morale_states",
                list(c.morale_states.iter().map(|s| choice(*s as u16))),
            ),
            ("morale_test_pending", Value::Bool(c.morale_test_pending)),
            ("side_strength", Value::Int(c.side_strength)),
            ("badly_outnumbered", Value::Bool(c.badly_outnumbered)),
            ("leader", Value::Bool(c.leader)),
        ],
    )
}
