//! How decisions are answered when nobody is there to answer them: in `rulesc simulate`
//! and in a game's computer-run fighters. Each decision name gets an [`Answer`]; names
//! without one take the default. Random answers come from their own seeded stream, so a
//! run is reproducible from its seed.

use crate::decide::Decide;
use crate::dice::{DiceSource, SeededDice};
use alloc::string::String;
use alloc::vec::Vec;

/// A policy for one decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The first option offered.
    First,
    /// The last option offered.
    Last,
    /// Any option, uniformly, from the policy's seeded stream.
    Random,
    /// This option (clamped to the last one offered): a variant's index, `1` for yes.
    Index(u32),
}

/// Answers decisions by name.
#[derive(Debug, Clone)]
pub struct Policy {
    default: Answer,
    named: Vec<(String, Answer)>,
    rng: SeededDice,
}

impl Policy {
    /// Every decision answered `default`; random answers seeded with `seed`.
    pub fn new(default: Answer, seed: u64) -> Self {
        Policy {
            default,
            named: Vec::new(),
            rng: SeededDice::new(seed),
        }
    }

    /// Decisions without an answer of their own are answered `answer`.
    pub fn with_default(mut self, answer: Answer) -> Self {
        self.default = answer;
        self
    }

    /// Decision `name` is answered `answer`.
    pub fn with(mut self, name: &str, answer: Answer) -> Self {
        match self.named.iter_mut().find(|(n, _)| n == name) {
            Some((_, a)) => *a = answer,
            None => self.named.push((name.into(), answer)),
        }
        self
    }

    /// The same answers with a fresh random stream (one per simulated run).
    pub fn reseeded(&self, seed: u64) -> Self {
        Policy {
            rng: SeededDice::new(seed),
            ..self.clone()
        }
    }

    pub fn answer(&self, name: &str) -> Answer {
        self.named
            .iter()
            .find(|(n, _)| n == name)
            .map_or(self.default, |(_, a)| *a)
    }
}

impl Decide for Policy {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        let last = options.saturating_sub(1);
        match self.answer(name) {
            Answer::First => 0,
            Answer::Last => last,
            Answer::Random => self.rng.face(options.max(1)) - 1,
            Answer::Index(i) => i.min(last),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_answers_override_the_default_and_clamp() {
        let mut p = Policy::new(Answer::First, 1)
            .with("target", Answer::Last)
            .with("defence", Answer::Index(5));
        assert_eq!(p.decide("target", 4), 3);
        assert_eq!(
            p.decide("defence", 3),
            2,
            "index past the options: the last"
        );
        assert_eq!(p.decide("defence", 9), 5);
        assert_eq!(p.decide("other", 7), 0);
    }

    #[test]
    fn random_answers_cover_every_option_and_repeat_for_a_seed() {
        let mut a = Policy::new(Answer::Random, 42);
        let mut b = a.reseeded(42);
        let xs: Vec<u32> = (0..200).map(|_| a.decide("x", 3)).collect();
        let ys: Vec<u32> = (0..200).map(|_| b.decide("x", 3)).collect();
        assert_eq!(xs, ys);
        for option in 0..3 {
            assert!(xs.contains(&option));
        }
        assert!(xs.iter().all(|&x| x < 3));
    }
}
