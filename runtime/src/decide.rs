//! Decisions the caller supplies. A rule that says "the GM picks" or "player's choice" is
//! a `decide` in the language; at run time it asks a [`Decide`] for an option index.

/// Answers a decision point: `name` is the decision's name in the rules, `options` how
/// many options there are (at least 1). The answer is an index; one out of range is
/// clamped to the last option, so a decider can never make a resolution fail.
pub trait Decide {
    fn decide(&mut self, name: &'static str, options: u32) -> u32;
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
#[derive(Debug, Default, Clone)]
pub struct ScriptedDecisions {
    answers: Vec<(String, Vec<u32>)>,
    pub unanswered: Vec<String>,
}

impl ScriptedDecisions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `index` as the next answer to the decision `name`.
    pub fn answer(mut self, name: &str, index: u32) -> Self {
        match self.answers.iter_mut().find(|(n, _)| n == name) {
            Some((_, queue)) => queue.push(index),
            None => self.answers.push((name.to_string(), vec![index])),
        }
        self
    }
}

impl ScriptedDecisions {
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
}

impl Decide for ScriptedDecisions {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        let last = options.saturating_sub(1);
        match self.answers.iter_mut().find(|(n, _)| n == name) {
            Some((_, queue)) if !queue.is_empty() => queue.remove(0).min(last),
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
}
