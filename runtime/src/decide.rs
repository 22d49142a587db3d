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

/// One scripted answer: an option's index, or (a decision among a list's items) the
/// name of the option, found among the options' names when the decision is asked
/// ([`Decide::decide_among`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scripted {
    Index(u32),
    Named(String),
}

/// Answers from a script: for each decision name, a queue of answers taken in order.
/// A name with no answer left takes the first option and is remembered in `unanswered`.
/// Every question is logged in `asked` (name and number of options, in the order asked),
/// so a caller can check the decisions asked were exactly the scripted ones, in order.
#[derive(Debug, Default, Clone)]
pub struct ScriptedDecisions {
    answers: Vec<(String, Vec<Scripted>)>,
    /// The decision names in the order their answers were scripted.
    scripted: Vec<String>,
    pub unanswered: Vec<String>,
    /// Every decision asked, in order: its name and how many options it offered.
    pub asked: Vec<(String, u32)>,
    /// Scripted answers that were not among the options offered: the decision's name,
    /// which of its answers (0-based), the answer, the number of options and (for an
    /// answer by name) the options' names. The last option was taken instead of an index
    /// past them, the first instead of a name not among them; a caller running a user's
    /// script reports these as errors.
    pub missed: Vec<(String, usize, Scripted, u32, Vec<String>)>,
}

impl ScriptedDecisions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `index` as the next answer to the decision `name`.
    pub fn answer(self, name: &str, index: u32) -> Self {
        self.queue(name, Scripted::Index(index))
    }

    /// Queues the option named `label` as the next answer to the decision `name` (a
    /// decision among a list's items).
    pub fn answer_named(self, name: &str, label: &str) -> Self {
        self.queue(name, Scripted::Named(label.to_string()))
    }

    fn queue(mut self, name: &str, answer: Scripted) -> Self {
        self.scripted.push(name.to_string());
        match self.answers.iter_mut().find(|(n, _)| n == name) {
            Some((_, queue)) => queue.push(answer),
            None => self.answers.push((name.to_string(), vec![answer])),
        }
        self
    }

    /// The next answer to `name`, taken, with which of its answers it is; `None` (the
    /// question remembered as unanswered) when none is left. The question is logged.
    fn next(&mut self, name: &str, options: u32) -> Option<(usize, Scripted)> {
        // While answers are left, every earlier question of this name took one.
        let nth = self.asked.iter().filter(|(n, _)| n == name).count();
        self.asked.push((name.to_string(), options));
        match self.answers.iter_mut().find(|(n, _)| n == name) {
            Some((_, queue)) if !queue.is_empty() => Some((nth, queue.remove(0))),
            _ => {
                self.unanswered.push(name.to_string());
                None
            }
        }
    }

    /// Scripted answer `a` (the `nth` to `name`) among `options` named by `label`.
    fn pick(
        &mut self,
        name: &str,
        (nth, a): (usize, Scripted),
        options: u32,
        label: Option<&dyn Fn(u32) -> String>,
    ) -> u32 {
        let last = options.saturating_sub(1);
        let found = match &a {
            Scripted::Index(i) => (*i <= last).then_some(*i),
            Scripted::Named(n) => label.and_then(|l| (0..options).find(|&i| l(i) == *n)),
        };
        found.unwrap_or_else(|| {
            let offered = match (&a, label) {
                (Scripted::Named(_), Some(l)) => (0..options).map(l).collect(),
                _ => Vec::new(),
            };
            let taken = match a {
                Scripted::Index(_) => last,
                Scripted::Named(_) => 0,
            };
            self.missed
                .push((name.to_string(), nth, a, options, offered));
            taken
        })
    }
}

impl ScriptedDecisions {
    /// The answers still queued, per decision name (in the order the names were first
    /// scripted): what an enumeration replays on every path without copying the script.
    pub fn queues(&self) -> impl Iterator<Item = (&str, &[Scripted])> {
        self.answers.iter().map(|(n, q)| (n.as_str(), q.as_slice()))
    }

    /// Whether an answer to `name` is left.
    pub fn has_answer(&self, name: &str) -> bool {
        self.answers.iter().any(|(n, q)| n == name && !q.is_empty())
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
        match self.next(name, options) {
            Some(a) => self.pick(name, a, options, None),
            None => 0,
        }
    }

    fn wants_labels(&self, name: &str) -> bool {
        // Names are made only when the next answer is one.
        self.answers
            .iter()
            .find(|(n, _)| n == name)
            .is_some_and(|(_, q)| matches!(q.first(), Some(Scripted::Named(_))))
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        match self.next(name, options) {
            Some(a) => self.pick(name, a, options, Some(label)),
            None => 0,
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
    fn an_answer_by_name_is_found_among_the_options_or_missed() {
        let names = ["Ike", "Jo"];
        let label = |i: u32| names[i as usize].to_string();
        let mut d = ScriptedDecisions::new()
            .answer_named("target", "Jo")
            .answer("target", 0)
            .answer_named("target", "Vera")
            .answer("target", 2);
        assert!(d.wants_labels("target"));
        assert_eq!(d.decide_among("target", 2, &label), 1);
        assert!(!d.wants_labels("target"), "the next answer is an index");
        assert_eq!(d.decide_among("target", 2, &label), 0);
        assert!(d.missed.is_empty());
        // A name not among the options takes the first, an index past them the last,
        // and both are missed, with what was offered.
        assert_eq!(d.decide_among("target", 2, &label), 0);
        assert_eq!(d.decide("target", 2), 1);
        assert_eq!(
            d.missed,
            [
                (
                    "target".to_string(),
                    2,
                    Scripted::Named("Vera".into()),
                    2,
                    vec!["Ike".to_string(), "Jo".to_string()]
                ),
                ("target".to_string(), 3, Scripted::Index(2), 2, vec![]),
            ]
        );
        assert!(d.fits_exactly());
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
