//! d20 Armor Slots' random inputs: the one generator of the ruleset's weapons, armor
//! suits, worn armor and combatants, drawn from a seed over the shared
//! `crate::common::Draw`, and the converters of those values to the interpreter's
//! `eval::Value`.
//!
//! Used by `d20_armor_slots_differential.rs` (the generated code against the
//! interpreter, seed by seed) and `properties_d20_armor_slots.rs` (the rules' invariants
//! after every attack), which include it as
//! `#[path = "common/d20_armor_slots_draw.rs"] mod d20_armor_slots_draw;` next to
//! `mod common;`.

#![allow(dead_code)]

use crate::common::Draw;
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::DiceSpec;
use rulesc_tests::d20_armor_slots as d20;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------
// Seeded arguments

/// One of the book's weapons, or (one time in nine) any ability, attack bonus, damage
/// dice and range.
pub fn weapon(d: &mut Draw) -> d20::Weapon {
    match d.int(0, 8) {
        0 => d20::Weapon::longsword(),
        1 => d20::Weapon::greatsword(),
        2 => d20::Weapon::spear(),
        3 => d20::Weapon::heavy_crossbow(),
        4 => d20::Weapon::dagger(),
        5 => d20::Weapon::rapier(),
        6 => d20::Weapon::shortbow(),
        7 => d20::Weapon::katana(),
        _ => d20::Weapon {
            ability: d.pick(&d20::WeaponAbility::ALL),
            attack_bonus: d.int(-2, 4),
            damage: DiceSpec::new(d.int(1, 3) as u32, d.pick(&[4, 6, 8, 10, 12])),
            range: d.int(1, 100),
        },
    }
}

/// One of the four preset suits (D7), or (one time in five) up to seven pieces in any
/// slots (a slot may hold several), of AC 0 to 3 and HP 0 to 20: all unworn.
pub fn suit(d: &mut Draw) -> d20::ArmorSet {
    match d.int(0, 4) {
        0 => d20::ArmorSet::unarmored(),
        1 => d20::ArmorSet::full_leather(),
        2 => d20::ArmorSet::full_chain(),
        3 => d20::ArmorSet::full_plate(),
        _ => d20::ArmorSet {
            pieces: (0..d.int(0, 7))
                .map(|_| d20::ArmorPiece {
                    slot: d.pick(&d20::ArmorSlot::ALL),
                    ac: d.int(0, 3),
                    hp: d.int(0, 20),
                })
                .collect(),
        },
    }
}

/// Worn armor: a suit with some of its pieces damaged, some broken.
pub fn armor(d: &mut Draw) -> Vec<d20::ArmorPiece> {
    let mut pieces = suit(d).pieces;
    for piece in pieces.iter_mut() {
        if d.chance(30) {
            piece.hp = d.int(0, piece.hp);
        }
    }
    pieces
}

/// A combatant in any state the procedures accept: abilities -2 to 12, skills -3 to 5,
/// HP 0 to 30 (0: already down), half of them with a shield of HP 0 to 25 (0: broken),
/// up to two conditions, now and then an unspent assistance, assisted or having assisted
/// this round.
pub fn combatant(d: &mut Draw) -> d20::Combatant {
    let shield = if d.chance(50) {
        d.pick(&d20::ShieldKind::ALL)
    } else {
        d20::ShieldKind::NoShield
    };
    d20::Combatant {
        abilities: [d.int(-2, 12), d.int(-2, 12)],
        skills: [d.int(-3, 5), d.int(-3, 5), d.int(-3, 5)],
        hp: d.int(0, 30),
        weapon: weapon(d),
        armor: armor(d),
        shield,
        shield_hp: d.int(0, 25),
        initiative: d.int(0, 10),
        // 0 as a fight begins: settling initiative ties (`begin_combat`) sets it.
        tie_break: 0,
        conditions: (0..d.int(0, 2))
            .map(|_| d.pick(&d20::Condition::ALL))
            .collect(),
        assist_bonus: if d.chance(25) { 2 } else { 0 },
        assistance_this_round: d.int(0, 1),
        gave_up_action: d.chance(20),
    }
}

/// Narrower on purpose: gives `c` a shield with HP left (any kind but `NoShield`, HP 1 to
/// 25), for the tests that need Block to be offered (D4: Block requires a shield with HP).
pub fn with_unbroken_shield(d: &mut Draw, c: &mut d20::Combatant) {
    c.shield = d.pick(&d20::ShieldKind::ALL[1..]);
    c.shield_hp = d.int(1, 25);
}

// ---------------------------------------------------------------------------------------
// Argument values for the interpreter

pub fn choice(i: u16) -> Value {
    Value::Choice(i)
}

pub fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn ints(items: &[i64]) -> Value {
    Value::Map(Rc::new(items.iter().map(|i| Value::Int(*i)).collect()))
}

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

pub fn weapon_value(p: &Program, w: &d20::Weapon) -> Value {
    rec(
        p,
        "Weapon",
        &[
            ("ability", choice(w.ability as u16)),
            ("attack_bonus", Value::Int(w.attack_bonus)),
            ("damage", Value::Dice(w.damage)),
            ("range", Value::Int(w.range)),
        ],
    )
}

pub fn piece_value(p: &Program, a: &d20::ArmorPiece) -> Value {
    rec(
        p,
        "ArmorPiece",
        &[
            ("slot", choice(a.slot as u16)),
            ("ac", Value::Int(a.ac)),
            ("hp", Value::Int(a.hp)),
        ],
    )
}

pub fn suit_value(p: &Program, s: &d20::ArmorSet) -> Value {
    rec(
        p,
        "ArmorSet",
        &[("pieces", list(s.pieces.iter().map(|a| piece_value(p, a))))],
    )
}

pub fn combatant_value(p: &Program, c: &d20::Combatant) -> Value {
    rec(
        p,
        "Combatant",
        &[
            ("abilities", ints(&c.abilities)),
            ("skills", ints(&c.skills)),
            ("hp", Value::Int(c.hp)),
            ("weapon", weapon_value(p, &c.weapon)),
            ("armor", list(c.armor.iter().map(|a| piece_value(p, a)))),
            ("shield", choice(c.shield as u16)),
            ("shield_hp", Value::Int(c.shield_hp)),
            ("initiative", Value::Int(c.initiative)),
            ("tie_break", Value::Int(c.tie_break)),
            (
                "conditions",
                list(c.conditions.iter().map(|x| choice(*x as u16))),
            ),
            ("assist_bonus", Value::Int(c.assist_bonus)),
            ("assistance_this_round", Value::Int(c.assistance_this_round)),
            ("gave_up_action", Value::Bool(c.gave_up_action)),
        ],
    )
}
