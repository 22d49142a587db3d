//! Decisions the caller supplies. A rule that says "the GM picks" or "player's choice" is
//! a `decide` in the language; at run time it asks a [`Decide`] for an option index.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};

/// Answers a decision point: `name` is the decision's name in the rules, `options` how
/// many options there are (at least 1). The answer is an index; one out of range is
/// clamped to the last option, so a decider can never make a resolution fail.
pub trait Decide {
    fn decide(&mut self, name: &'static str, options: u32) -> u32;

    /// Whether this decider answers decision `name` by an option's name, when the options
    /// are a list's items ([`Decide::decide_among`]); false unless it says so, so the
    /// names are made only for a decider that reads them.
    fn wants_labels(&self, _name: &str) -> bool {
        false
    }

    /// Answers a decision among a list's items: `label(i)` is option `i`'s name (a
    /// fighter's or side's name, a level's or variant's). By default, [`Decide::decide`].
    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        _label: &dyn Fn(u32) -> String,
    ) -> u32 {
        self.decide(name, options)
    }
}

/// [`answer`] among named options ([`Decide::decide_among`]): the same clamp.
#[inline]
pub fn answer_among<X: Decide + ?Sized>(
    decider: &mut X,
    name: &'static str,
    options: u32,
    label: &dyn Fn(u32) -> String,
) -> u32 {
    decider
        .decide_among(name, options, label)
        .min(options.saturating_sub(1))
}

/// `decider`'s answer to `name` among `options`, one out of range read as the last option
/// (see [`Decide`]): the one place the interpreter's paths apply that clamp.
#[inline]
pub fn answer<X: Decide + ?Sized>(decider: &mut X, name: &'static str, options: u32) -> u32 {
    decider.decide(name, options).min(options.saturating_sub(1))
}

/// Always takes the first option.
#[derive(Debug, Default, Clone, Copy)]
pub struct FirstOption;

impl Decide for FirstOption {
    #[inline]
    fn decide(&mut self, _name: &'static str, _options: u32) -> u32 {
        0
    }
}

/// Answers from a script: for each decision name, a queue of indices taken in order.
/// A name with no answer left takes the first option and is remembered in `unanswered`.
/// Every question is logged in `asked` (name and number of options, in the order asked),
/// so a caller can check the decisions asked were exactly the scripted ones, in order.
#[derive(Debug, Default, Clone)]
pub struct ScriptedDecisions {
    answers: Vec<(String, Vec<u32>)>,
    /// The decision names in the order their answers were scripted.
    scripted: Vec<String>,
    pub unanswered: Vec<String>,
    /// Every decision asked, in order: its name and how many options it offered.
    pub asked: Vec<(String, u32)>,
    /// Scripted answers past the options offered: the decision's name, which of its
    /// answers (0-based), the answer and the number of options. The last option was
    /// taken instead; a caller running a user's script reports these as errors.
    pub out_of_range: Vec<(String, usize, u32, u32)>,
}

impl ScriptedDecisions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `index` as the next answer to the decision `name`.
    pub fn answer(mut self, name: &str, index: u32) -> Self {
        self.scripted.push(name.to_string());
        match self.answers.iter_mut().find(|(n, _)| n == name) {
            Some((_, queue)) => queue.push(index),
            None => self.answers.push((name.to_string(), vec![index])),
        }
        self
    }
}

impl ScriptedDecisions {
    /// The answers still queued, per decision name (in the order the names were first
    /// scripted): what an enumeration replays on every path without copying the script.
    pub fn queues(&self) -> impl Iterator<Item = (&str, &[u32])> {
        self.answers.iter().map(|(n, q)| (n.as_str(), q.as_slice()))
    }

    /// The decision names with scripted answers that were never asked for.
    pub fn unused(&self) -> Vec<String> {
        self.answers
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(n, q)| format!("{n} ({} left)", q.len()))
            .collect()
    }

    /// True when every scripted answer was used and no decision went unanswered.
    pub fn fits_exactly(&self) -> bool {
        self.unanswered.is_empty() && self.answers.iter().all(|(_, q)| q.is_empty())
    }

    /// The names of the decisions asked, in the order they were asked.
    pub fn asked_names(&self) -> Vec<&str> {
        self.asked.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The names of the scripted answers, in the order they were scripted.
    pub fn scripted_names(&self) -> Vec<&str> {
        self.scripted.iter().map(String::as_str).collect()
    }

    /// True when no decision went unanswered and the decisions asked were exactly the
    /// scripted ones, in the order scripted (stricter than [`Self::fits_exactly`], which
    /// only orders the answers to one name).
    pub fn asked_as_scripted(&self) -> bool {
        self.unanswered.is_empty() && self.asked_names() == self.scripted_names()
    }
}

impl Decide for ScriptedDecisions {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        // While answers are left, every earlier question of this name took one.
        let nth = self.asked.iter().filter(|(n, _)| n == name).count();
        self.asked.push((name.to_string(), options));
        let last = options.saturating_sub(1);
        match self.answers.iter_mut().find(|(n, _)| n == name) {
            Some((_, queue)) if !queue.is_empty() => {
                let answer = queue.remove(0);
                if answer > last {
                    self.out_of_range
                        .push((name.to_string(), nth, answer, options));
                }
                answer.min(last)
            }
            _ => {
                self.unanswered.push(name.to_string());
                0
            }
        }
    }
}

impl<D: Decide + ?Sized> Decide for &mut D {
    #[inline]
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        (**self).decide(name, options)
    }

    fn wants_labels(&self, name: &str) -> bool {
        (**self).wants_labels(name)
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        (**self).decide_among(name, options, label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_decisions_log_every_question_in_order() {
        let mut d = ScriptedDecisions::new()
            .answer("defence", 2)
            .answer("target", 1)
            .answer("defence", 0);
        assert_eq!(d.scripted_names(), ["defence", "target", "defence"]);
        assert!(d.asked.is_empty() && !d.asked_as_scripted());
        assert_eq!(d.decide("defence", 4), 2);
        assert_eq!(d.decide("target", 3), 1);
        assert_eq!(d.decide("defence", 1), 0);
        assert_eq!(
            d.asked,
            [
                ("defence".to_string(), 4),
                ("target".to_string(), 3),
                ("defence".to_string(), 1)
            ]
        );
        assert!(d.fits_exactly() && d.asked_as_scripted());
    }

    #[test]
    fn asking_out_of_script_order_or_unscripted_is_caught() {
        let mut d = ScriptedDecisions::new().answer("a", 1).answer("b", 1);
        d.decide("b", 2);
        d.decide("a", 2);
        assert!(d.fits_exactly(), "each name's queue was used up");
        assert!(!d.asked_as_scripted(), "but not in the scripted order");
        assert_eq!(d.asked_names(), ["b", "a"]);

        let mut d = ScriptedDecisions::new();
        assert_eq!(d.decide("c", 3), 0);
        assert_eq!(d.unanswered, ["c"]);
        assert_eq!(d.asked, [("c".to_string(), 3)]);
        assert!(!d.asked_as_scripted());
    }
}
