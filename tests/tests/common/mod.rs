//! Shared by the differential tests, the property tests and the bench: Kingsmark arguments
//! built from a seed, in both shapes (the generated structs and the interpreter's
//! `eval::Value`), a seeded decider that records what it was asked
//! (`rulesc_tests::differential`'s), and dice that log the faces they gave.

#![allow(dead_code)]

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSource, SeededDice};
#[allow(unused_imports)]
pub use rulesc_tests::differential::RandomDecide;
use rulesc_tests::kingsmark as km;
use std::path::Path;
use std::rc::Rc;

mod kingsmark_draw;
#[allow(unused_imports)]
pub use kingsmark_draw::{Draw, SeededDecide};

pub fn kingsmark() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/kingsmark");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("kingsmark does not check: {:?}", diags.items))
}

/// The property tests' proptest settings: 100 cases, and failures saved beside the test's
/// source as `<test>.proptest-regressions` (proptest's default looks for a `lib.rs` or
/// `main.rs` above the source, finds none for a test file, warns, and falls back to the
/// same place).
pub fn proptest_config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: 100,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..proptest::test_runner::Config::default()
    }
}

/// Seeded dice that remember every face they gave, with its number of sides (the property
/// tests read what a resolution rolled).
pub struct LoggedDice {
    pub dice: SeededDice,
    pub faces: Vec<(u32, u32)>,
}

impl DiceSource for LoggedDice {
    fn face(&mut self, sides: u32) -> u32 {
        let f = self.dice.face(sides);
        self.faces.push((sides, f));
        f
    }
}

fn choice(i: u16) -> Value {
    Value::Choice(i)
}

fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn map(items: impl IntoIterator<Item = Value>) -> Value {
    Value::Map(Rc::new(items.into_iter().collect()))
}

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

pub fn weapon_value(p: &Program, w: &km::Weapon) -> Value {
    rec(
        p,
        "Weapon",
        &[
            ("skill", choice(w.skill as u16)),
            ("base_damage", choice(w.base_damage as u16)),
            ("damage_type", choice(w.damage_type as u16)),
            ("critical_threshold", Value::Int(w.critical_threshold)),
        ],
    )
}

pub fn armor_value(p: &Program, a: &km::ArmorPiece) -> Value {
    rec(
        p,
        "ArmorPiece",
        &[
            ("covers", list(a.covers.iter().map(|l| choice(*l as u16)))),
            ("ratings", map(a.ratings.iter().map(|r| Value::Int(*r)))),
            ("shield", Value::Bool(a.shield)),
        ],
    )
}

pub fn combatant_value(p: &Program, c: &km::Combatant) -> Value {
    rec(
        p,
        "Combatant",
        &[
            ("physical_performance", Value::Int(c.physical_performance)),
            ("reflexes", Value::Int(c.reflexes)),
            ("influence_allure", Value::Int(c.influence_allure)),
            ("spirituality", Value::Int(c.spirituality)),
            ("mental_performance", Value::Int(c.mental_performance)),
            ("speed", Value::Int(c.speed)),
            ("skills", map(c.skills.iter().map(|s| Value::Int(*s)))),
            ("trained_perception", Value::Bool(c.trained_perception)),
            ("armor", list(c.armor.iter().map(|a| armor_value(p, a)))),
            ("wounds", Value::Track(c.wounds)),
            ("pain_relief", Value::Int(c.pain_relief)),
            ("distress", Value::Int(c.distress)),
            ("advantage", Value::Int(c.advantage)),
            ("disadvantage", Value::Int(c.disadvantage)),
            ("initiative_roll", Value::Int(c.initiative_roll)),
            ("laying_in_wait", Value::Bool(c.laying_in_wait)),
            ("surprise_score", Value::Int(c.surprise_score)),
            ("concealment", choice(c.concealment as u16)),
            ("surprised", Value::Bool(c.surprised)),
            ("defenceless", Value::Bool(c.defenceless)),
            ("aiming", Value::Bool(c.aiming)),
            (
                "exposed_locations",
                list(c.exposed_locations.iter().map(|l| choice(*l as u16))),
            ),
            ("weapon", weapon_value(p, &c.weapon)),
        ],
    )
}
