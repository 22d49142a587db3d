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
#[non_exhaustive]
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
    /// Decisions among a list answered by an option's name ([`Policy::with_label`]).
    labels: Vec<(String, String)>,
    rng: SeededDice,
}

impl Policy {
    /// Every decision answered `default`; random answers seeded with `seed`.
    pub fn new(default: Answer, seed: u64) -> Self {
        Policy {
            default,
            named: Vec::new(),
            labels: Vec::new(),
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

    /// Decision `name`, among a list's items, is answered by the option named `label`
    /// (a fighter, by name); when no option has that name (that fighter is out), the
    /// default answers it.
    pub fn with_label(mut self, name: &str, label: &str) -> Self {
        self.labels.retain(|(n, _)| n != name);
        self.labels.push((name.into(), label.into()));
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

impl Policy {
    /// The answer to decision `name` among `options`, by an option's name when the
    /// policy answers it so and `label` names the options (a decision among a list's
    /// items); a `random` answer is `random(options)` (from `0..options`). The one rule
    /// of answers: [`Decide`] below passes the policy's seeded stream; an exact
    /// analysis passes a source that branches over every option.
    #[doc(hidden)]
    pub fn answer_with(
        &self,
        name: &str,
        options: u32,
        label: Option<&dyn Fn(u32) -> String>,
        random: &mut dyn FnMut(u32) -> u32,
    ) -> u32 {
        let wanted = label.and_then(|label| {
            let (_, wanted) = self.labels.iter().find(|(n, _)| n == name)?;
            Some((0..options).find(|&i| label(i) == *wanted))
        });
        match wanted {
            Some(Some(i)) => i,
            // Answered by a name no option has (that fighter is out): the default.
            Some(None) => Self::by(self.default, options, random),
            None => Self::by(self.answer(name), options, random),
        }
    }

    fn by(answer: Answer, options: u32, random: &mut dyn FnMut(u32) -> u32) -> u32 {
        let last = options.saturating_sub(1);
        match answer {
            Answer::First => 0,
            Answer::Last => last,
            Answer::Random => random(options.max(1)),
            Answer::Index(i) => i.min(last),
        }
    }

    /// [`Policy::answer_with`], random answers from the policy's own stream.
    fn answer_seeded(
        &mut self,
        name: &str,
        options: u32,
        label: Option<&dyn Fn(u32) -> String>,
    ) -> u32 {
        let mut rng = core::mem::replace(&mut self.rng, SeededDice::new(0));
        let answer = self.answer_with(name, options, label, &mut |n| rng.face(n) - 1);
        self.rng = rng;
        answer
    }
}

impl Decide for Policy {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        self.answer_seeded(name, options, None)
    }

    fn wants_labels(&self, name: &str) -> bool {
        self.labels.iter().any(|(n, _)| n == name)
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        self.answer_seeded(name, options, Some(label))
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
    fn an_answer_by_name_picks_that_option_or_the_default_when_none_has_it() {
        let names = ["Vera", "Ike", "Jo"];
        let label = |i: u32| String::from(names[i as usize]);
        let mut p = Policy::new(Answer::Last, 1).with_label("target", "Ike");
        assert!(p.wants_labels("target") && !p.wants_labels("other"));
        assert_eq!(p.decide_among("target", 3, &label), 1);
        let two = |i: u32| String::from(["Vera", "Jo"][i as usize]);
        assert_eq!(
            p.decide_among("target", 2, &two),
            1,
            "no Ike: the default, last"
        );
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
