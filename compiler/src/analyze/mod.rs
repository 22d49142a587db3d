//! `rulesc analyze`: the exact odds of a scenario's outcomes (decisions as the scenario
//! scripts them, scripted dice ignored).
//!
//! - [`exact`]: arbitrary-precision probabilities; nothing overflows.
//! - [`dice`]: one roll's exact distribution (convolution, order statistics, chains).
//! - [`engine`], [`plan`], [`state`]: the merged-state engine.
//! - [`paths`]: the path walker, one interpreter run per dice path (the reference).
//!
//! Every engine's work is bounded by [`Limits`]; what a limit cut off is reported as
//! unexplored mass (never dropped), and reaching a limit is a warning (`W0101`..).

pub mod dice;
pub mod engine;
pub mod exact;
pub mod paths;
pub mod plan;
pub mod state;

use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{self, Value};
use crate::ir::Program;
use crate::scenario::{self, Scenario};
use crate::source::{Sources, Span};
use exact::{fraction, to_f64, Prob};
use num_traits::Zero;
use rulesc_runtime::{Env, NoTrace};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// Which engine computes the odds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EngineKind {
    /// The merged-state engine: cost grows with distinct states (the default).
    #[default]
    Merged,
    /// The path walker: one interpreter run per dice path (the reference).
    Paths,
}

/// What bounds one analysis. Each flag's accepted range is in [`RANGES`]; a value outside
/// it is a usage error, never silently capped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub engine: EngineKind,
    /// Most dice on one path; a path needing more is cut (its mass is unexplored). The
    /// path walker defaults to [`WALKER_DICE`]; the merged engine counts dice per path
    /// only when this is given (then both engines report the same figures).
    pub max_dice: Option<u64>,
    /// Most times one exploding die explodes in the merged engine (the rest of the chain
    /// is unexplored); 100, the runtime's own cap, cuts nothing.
    pub explode_depth: u64,
    /// Most paths the walker visits (`W0101`).
    pub max_paths: u64,
    /// Most steps (statements run and dice drawn, over the whole analysis) (`W0102`).
    pub max_steps: u64,
    /// Most wall-clock seconds (`W0103`).
    pub max_seconds: u64,
    /// Most states the merged engine holds at once, and most distinct totals one roll
    /// may have (`W0104`).
    pub max_states: u64,
}

/// The path walker's dice per path when `--max-dice` is not given.
pub const WALKER_DICE: u64 = 12;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            engine: EngineKind::Merged,
            max_dice: None,
            explode_depth: 9,
            max_paths: 2_000_000,
            max_steps: 200_000_000,
            max_seconds: 60,
            max_states: 250_000,
        }
    }
}

/// The accepted range of each limit flag: (flag, lowest, highest).
pub const RANGES: [(&str, u64, u64); 6] = [
    ("max-dice", 1, 1_000),
    ("explode-depth", 0, 100),
    ("max-paths", 1, 1_000_000_000_000),
    ("max-steps", 1, 1_000_000_000_000),
    ("max-seconds", 1, 86_400),
    ("max-states", 1, 100_000_000),
];

impl Limits {
    /// When the analysis must stop, counted from now.
    pub fn deadline(&self) -> Option<Instant> {
        Instant::now().checked_add(Duration::from_secs(self.max_seconds))
    }

    /// Dice per path for the walker.
    pub fn walker_dice(&self) -> u64 {
        self.max_dice.unwrap_or(WALKER_DICE)
    }
}

/// The limit that stopped an analysis early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Paths,
    Steps,
    Time,
    States,
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
                "the odds shown are exact for the part reached; raise --max-steps, or lower --explode-depth, to reach more",
            ),
            Stop::Time => (
                "W0103",
                format!("the analysis stopped after {} seconds", limits.max_seconds),
                "the odds shown are exact for the part reached; raise --max-seconds, or lower --explode-depth, to reach more",
            ),
            Stop::States => (
                "W0104",
                format!("the analysis needed more than {} states at once", limits.max_states),
                "the odds shown are exact for the part reached; raise --max-states, or lower --explode-depth",
            ),
        };
        Diagnostic::warning(code, Span::new(file, 0, 0), message)
            .label("this scenario")
            .help(help)
    }
}

/// A scenario's exact distribution, from either engine.
#[derive(Debug, Clone)]
pub struct Distribution {
    /// Each distinct result (or rule error) with its probability, in the order first
    /// reached.
    pub outcomes: Vec<(engine::Outcome, Prob)>,
    /// What was cut off (exploding chains past the depth, paths past the dice budget)
    /// or not reached (a limit stopped the engine).
    pub unexplored: Prob,
    pub stop: Option<Stop>,
    /// The work done, for the header line ("45431 paths", "at most 312 states").
    pub work: String,
}

/// The scenario's scripted decisions, as both engines answer them (plus `fixed` answers
/// for some decision names, which take precedence).
pub fn decisions<'a>(s: &'a Scenario, fixed: &[(String, u32)]) -> engine::Decisions<'a> {
    engine::Decisions {
        script: s.decisions.queues().collect(),
        fixed: fixed.to_vec(),
    }
}

/// An outcome with its canonical encoding, hashed and compared by the encoding.
#[derive(Debug, Clone)]
struct Keyed(Vec<u64>, engine::Outcome);

impl PartialEq for Keyed {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl Eq for Keyed {}
impl std::hash::Hash for Keyed {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}

/// The exact distribution of scenario `s`'s results, with some decisions' answers fixed.
pub fn distribution(
    p: &Program,
    s: &Scenario,
    limits: &Limits,
    fixed: &[(String, u32)],
) -> Distribution {
    let f = &p.functions[s.function];
    let dec = decisions(s, fixed);
    match limits.engine {
        EngineKind::Paths => {
            let mut cursor = vec![0u32; dec.script.len()];
            let w = paths::walk(limits, |dice| {
                // Only the arguments the procedure changes need a fresh copy per path.
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
                cursor.iter_mut().for_each(|c| *c = 0);
                let mut decide = engine::Cursor::new(&dec, &mut cursor);
                let mut env = Env::new(dice, &mut decide, NoTrace);
                let v = eval::call(p, &mut env, s.function, args);
                Keyed(engine::outcome_key(&v), v)
            });
            Distribution {
                outcomes: w.outcomes.into_iter().map(|(k, p)| (k.1, p)).collect(),
                unexplored: w.unexplored,
                stop: w.stop,
                work: format!("{} paths", w.paths),
            }
        }
        EngineKind::Merged => {
            let plan = plan::Plan::new(p);
            let opts = engine::Options {
                truncation: match limits.max_dice {
                    Some(n) => engine::Truncation::PathDice(n as u32),
                    None => engine::Truncation::Depth(limits.explode_depth as u32),
                },
                max_states: limits.max_states,
                max_steps: limits.max_steps,
                deadline: limits.deadline(),
            };
            let o = engine::run(p, &plan, s.function, s.args.clone(), &dec, &opts);
            Distribution {
                outcomes: o.outcomes,
                unexplored: o.unexplored,
                stop: o.stop,
                work: format!("at most {} states", o.peak_states),
            }
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
    let d = distribution(p, &s, limits, &[]);
    let mut outcomes: Vec<(String, Prob)> = d
        .outcomes
        .iter()
        .map(|(v, prob)| (eval::show_result(p, v, &f.ret), prob.clone()))
        .collect();
    outcomes.sort_by(|(a, pa), (b, pb)| pb.cmp(pa).then_with(|| a.cmp(b)));
    let mut out = String::new();
    let _ = writeln!(out, "{} ({}):", f.name, d.work);
    for (r, prob) in &outcomes {
        let _ = writeln!(
            out,
            "  {:>8.4}%  {:>14}  {r}",
            to_f64(prob) * 100.0,
            fraction(prob)
        );
    }
    if !d.unexplored.is_zero() {
        let why = match (limits.engine, limits.max_dice) {
            (EngineKind::Merged, None) => {
                format!("exploding dice past {} explosions", limits.explode_depth)
            }
            _ => format!("paths longer than {} dice", limits.walker_dice()),
        };
        let _ = writeln!(
            out,
            "  {:>8.4}%  {:>14}  (unexplored: {why}, or past a limit)",
            to_f64(&d.unexplored) * 100.0,
            fraction(&d.unexplored),
        );
    }
    let mut diags = Diagnostics::default();
    if let Some(stop) = d.stop {
        let file = sources.files.len().saturating_sub(1) as u32;
        diags.push(stop.diagnostic(limits, file));
    }
    Ok((out, diags, sources))
}
