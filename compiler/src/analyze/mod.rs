//! `rulesc analyze`: the exact odds of a scenario's outcomes (decisions as the scenario
//! scripts them, scripted dice ignored).
//!
//! - [`exact`]: arbitrary-precision probabilities; nothing overflows.
//! - [`paths`]: the path walker, one interpreter run per dice path.
//!
//! Every engine's work is bounded by [`Limits`]; what a limit cut off is reported as
//! unexplored mass (never dropped), and reaching a limit is a warning (`W0101`..).

pub mod exact;
pub mod paths;

use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{self, Value};
use crate::ir::Program;
use crate::scenario::{self, Scenario};
use crate::source::{Sources, Span};
use exact::{fraction, to_f64};
use num_traits::Zero;
use rulesc_runtime::{Decide, Env, NoTrace};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// What bounds one analysis. Each flag's accepted range is in [`RANGES`]; a value outside
/// it is a usage error, never silently capped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Most dice on one path; a path needing more is cut (its mass is unexplored).
    pub max_dice: u64,
    /// Most paths the walker visits (`W0101`).
    pub max_paths: u64,
    /// Most steps (statements run and dice drawn, over the whole analysis) (`W0102`).
    pub max_steps: u64,
    /// Most wall-clock seconds (`W0103`).
    pub max_seconds: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_dice: 12,
            max_paths: 2_000_000,
            max_steps: 200_000_000,
            max_seconds: 60,
        }
    }
}

/// The accepted range of each limit flag: (flag, lowest, highest).
pub const RANGES: [(&str, u64, u64); 4] = [
    ("max-dice", 1, 1_000),
    ("max-paths", 1, 1_000_000_000_000),
    ("max-steps", 1, 1_000_000_000_000),
    ("max-seconds", 1, 86_400),
];

impl Limits {
    /// When the analysis must stop, counted from now.
    pub fn deadline(&self) -> Option<Instant> {
        Instant::now().checked_add(Duration::from_secs(self.max_seconds))
    }
}

/// The limit that stopped an analysis early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Paths,
    Steps,
    Time,
}

impl Stop {
    /// The warning saying so, pointing at the scenario.
    fn diagnostic(self, limits: &Limits, file: u32) -> Diagnostic {
        let (code, message, help) = match self {
            Stop::Paths => (
                "W0101",
                format!("the enumeration stopped after {} paths", limits.max_paths),
                "the odds shown are exact for the paths reached; raise --max-paths, or lower --max-dice, to reach more",
            ),
            Stop::Steps => (
                "W0102",
                format!("the analysis stopped after {} steps", limits.max_steps),
                "the odds shown are exact for the part reached; raise --max-steps, or lower --max-dice, to reach more",
            ),
            Stop::Time => (
                "W0103",
                format!("the analysis stopped after {} seconds", limits.max_seconds),
                "the odds shown are exact for the part reached; raise --max-seconds, or lower --max-dice, to reach more",
            ),
        };
        Diagnostic::warning(code, Span::new(file, 0, 0), message)
            .label("this scenario")
            .help(help)
    }
}

/// A scenario's scripted decisions, replayed on every path without copying the script:
/// each decision name's next answer is a position in the scenario's own queue.
pub struct Script<'a> {
    queues: Vec<(&'a str, &'a [u32])>,
    used: Vec<usize>,
}

impl<'a> Script<'a> {
    pub fn new(s: &'a Scenario) -> Self {
        let queues: Vec<_> = s.decisions.queues().collect();
        let used = vec![0; queues.len()];
        Script { queues, used }
    }

    /// Back to the first answer of every queue (before each path).
    pub fn rewind(&mut self) {
        self.used.iter_mut().for_each(|u| *u = 0);
    }
}

impl Decide for Script<'_> {
    /// As `ScriptedDecisions` answers: the next scripted answer (at most the last
    /// option), or the first option when none is left.
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        let Some(i) = self.queues.iter().position(|(n, _)| *n == name) else {
            return 0;
        };
        let (_, queue) = self.queues[i];
        match queue.get(self.used[i]) {
            Some(&a) => {
                self.used[i] += 1;
                a.min(options.saturating_sub(1))
            }
            None => 0,
        }
    }
}

/// The distribution of a scenario's results, as text, and any warning.
pub fn analyze(
    p: &Program,
    path: &Path,
    limits: &Limits,
) -> Result<(String, Diagnostics, Sources), (Diagnostics, Sources)> {
    let (s, sources) = scenario::read(p, path)?;
    let f = &p.functions[s.function];
    let mut script = Script::new(&s);
    let w = paths::walk(limits, |dice| {
        // Only the arguments the procedure changes need a fresh copy on each path.
        let args: Vec<Value> = s
            .args
            .iter()
            .zip(&f.params)
            .map(|(a, param)| {
                if param.mutated {
                    a.deep_clone()
                } else {
                    a.clone()
                }
            })
            .collect();
        script.rewind();
        let mut env = Env::new(dice, &mut script, NoTrace);
        let result = eval::call(p, &mut env, s.function, args);
        eval::show_result(p, &result, &f.ret)
    });
    let mut outcomes = w.outcomes;
    outcomes.sort_by(|(a, pa), (b, pb)| pb.cmp(pa).then_with(|| a.cmp(b)));
    let mut out = String::new();
    let _ = writeln!(out, "{} ({} paths):", f.name, w.paths);
    for (r, prob) in &outcomes {
        let _ = writeln!(
            out,
            "  {:>8.4}%  {:>14}  {r}",
            to_f64(prob) * 100.0,
            fraction(prob)
        );
    }
    if !w.unexplored.is_zero() {
        let _ = writeln!(
            out,
            "  {:>8.4}%  {:>14}  (unexplored: paths longer than {} dice or past a limit)",
            to_f64(&w.unexplored) * 100.0,
            fraction(&w.unexplored),
            limits.max_dice
        );
    }
    let mut diags = Diagnostics::default();
    if let Some(stop) = w.stop {
        let file = sources.files.len().saturating_sub(1) as u32;
        diags.push(stop.diagnostic(limits, file));
    }
    Ok((out, diags, sources))
}
