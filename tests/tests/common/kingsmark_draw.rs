//! Kingsmark's generated arguments drawn from a seed, and a seeded decider: what the
//! property tests, the differential tests and the bench draw. It names only the
//! generated module (`super::km`) and the runtime, so the melee bench's game-like
//! harness (`tests/benches/game/harness`) includes this same file over its own build of
//! the module.

use super::km;
use rulesc_runtime::{Decide, DiceSource, SeededDice, Track};

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
