//! Shared by the differential tests, the property tests and the bench: Kingsmark arguments
//! built from a seed, in both shapes (the generated structs and the interpreter's
//! `eval::Value`), a seeded decider that records what it was asked
//! (`rulesc_tests::differential`'s), and dice that log the faces they gave.

#![allow(dead_code)]

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{Decide, DiceSource, SeededDice, Track};
#[allow(unused_imports)]
pub use rulesc_tests::differential::RandomDecide;
use rulesc_tests::kingsmark as km;
use std::path::Path;
use std::rc::Rc;

pub fn kingsmark() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/kingsmark");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("kingsmark does not check: {:?}", diags.items))
}

/// Answers decisions from seeded dice, remembering nothing (no allocation).
pub struct SeededDecide(SeededDice);

impl SeededDecide {
    pub fn new(seed: u64) -> Self {
        SeededDecide(SeededDice::new(seed ^ 0xdec1_de00))
    }
}

impl Decide for SeededDecide {
    fn decide(&mut self, _name: &'static str, options: u32) -> u32 {
        self.0.face(options) - 1
    }
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

/// Draws argument values from a seed.
pub struct Draw(SeededDice);

impl Draw {
    pub fn new(seed: u64) -> Self {
        Draw(SeededDice::new(seed))
    }

    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.0.face((hi - lo + 1) as u32)) - 1
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.0.face(100) <= percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.int(0, items.len() as i64 - 1) as usize]
    }

    pub fn combatant(&mut self) -> km::Combatant {
        let mut skills = [0i64; 9];
        for s in skills.iter_mut() {
            if self.chance(60) {
                *s = self.int(0, 4);
            }
        }
        let mut armor = Vec::new();
        if self.chance(50) {
            armor.push(km::ArmorPiece::leather_jerkin());
        }
        if self.chance(30) {
            armor.push(km::ArmorPiece::padded_coif());
        }
        if self.chance(30) {
            armor.push(km::ArmorPiece::round_shield());
        }
        let mut wounds = Track::default();
        for b in 1..=12u32 {
            if self.chance(if b <= 6 { 30 } else { 15 }) {
                wounds.filled |= 1 << (b - 1);
            }
        }
        let mut exposed = Vec::new();
        if self.chance(30) {
            for l in km::HitLocation::ALL {
                if self.chance(40) {
                    exposed.push(l);
                }
            }
        }
        km::Combatant {
            physical_performance: self.int(-2, 4),
            reflexes: self.int(-2, 4),
            influence_allure: self.int(-2, 4),
            spirituality: self.int(-2, 4),
            mental_performance: self.int(-2, 4),
            speed: self.int(-3, 4),
            skills,
            trained_perception: self.chance(30),
            armor,
            wounds,
            pain_relief: self.int(0, 2),
            distress: self.int(0, 2),
            advantage: self.int(0, 2),
            disadvantage: self.int(0, 2),
            initiative_roll: self.int(0, 12),
            laying_in_wait: self.chance(20),
            surprise_score: self.int(0, 15),
            concealment: self.pick(&km::Concealment::ALL),
            surprised: self.chance(15),
            defenceless: self.chance(10),
            aiming: self.chance(15),
            exposed_locations: exposed,
            // Only a fight reads it (the differential draws the weapon as an argument).
            weapon: km::Weapon::arming_sword(),
        }
    }

    pub fn weapon(&mut self) -> km::Weapon {
        match self.int(0, 2) {
            0 => km::Weapon::arming_sword(),
            1 => km::Weapon::longbow(),
            _ => km::Weapon {
                skill: self.pick(&km::Skill::ALL),
                base_damage: self.pick(&km::DamageLevel::ALL),
                damage_type: self.pick(&km::DamageType::ALL),
                critical_threshold: self.int(6, 20),
            },
        }
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
