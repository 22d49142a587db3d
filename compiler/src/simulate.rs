//! `rulesc simulate`: a whole fight, described in YAML, run many times by the
//! interpreter through the runtime's fight engine.
//!
//! ```yaml
//! title: Sir Aldren and Tomas against two brigands
//! rounds: 20                     # the round limit: a fight still going is undecided
//! sides:
//!   Watch:                       # a side: its combatants, by name
//!     Aldren: { physical_performance: 1, skills: { ArmedCombat: 2 } }
//!     Tomas: veteran             # the name of a record, or the record's fields
//!   Brigands:
//!     Brigand: {}
//! decisions:                     # how decisions are answered (see `Answer`)
//!   default: random
//!   melee_defence: DefendArmed
//! report:                        # outcome groups: every condition given must hold
//!   Aldren stands: { standing: [Aldren] }
//!   quick win: { winner: Watch, rounds: "..3" }
//! ```
//!
//! Run `k` of a simulation with seed `S` rolls dice seeded with `run_seed(S, k, 0)` and
//! answers `random` decisions from `run_seed(S, k, 1)`, so every run is reproducible on
//! its own and the totals do not depend on how runs are spread over threads.

use crate::eval::{Options, Value};
use crate::fight::EvalRules;
use crate::ir::{Const, Program};
use crate::source::Span;
use rayon::prelude::*;
use rulesc_runtime::{Env, Fight, FightEnd, FightRules, Fighter, Policy, SeededDice, TraceSink};
use std::fmt::Write as _;

pub mod expect;
mod read;
mod replay;

pub(crate) use read::read_sides;
pub use read::{read, read_with};
pub use replay::{replay, replay_ending, Replayed};

/// Most runs one simulation may ask for.
pub const MAX_RUNS: u64 = 10_000_000;
/// Most rounds a fight file may allow.
pub const MAX_ROUNDS: u32 = 10_000;

/// A fight's sides: each side's name and its combatants (name, record value).
pub type Sides = Vec<(String, Vec<(String, Const)>)>;

/// A fight file, read against a program.
#[derive(Debug, Clone)]
pub struct FightFile {
    pub title: String,
    pub rounds: u32,
    /// Each side's name and combatants (name, record value).
    pub sides: Vec<(String, Vec<(String, Const)>)>,
    /// How decisions are answered (its random stream is reseeded per run).
    pub policy: Policy,
    pub groups: Vec<Group>,
    /// The fight file among the sources (for a diagnostic about the whole file).
    pub file: crate::source::FileId,
    /// What `rulesc test` holds the fight to (`expect:`, [`expect`]).
    pub expect: Option<crate::yaml::YNode>,
    /// The scripted dice and answers of a fight that replays a worked example
    /// (`dice:`): `None` for a fight left to chance.
    pub script: Option<Script>,
}

/// One scripted answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scripted {
    Index(u32),
    /// The option of this name (a fighter's, for `decide target from enemies(me)`).
    Named(String),
}

/// A scripted fight's dice and answers (see [`replay`]).
#[derive(Debug, Clone, Default)]
pub struct Script {
    pub faces: Vec<u32>,
    /// Where each face is written, in order.
    pub face_spans: Vec<Span>,
    /// Where the `dice:` list is.
    pub dice_at: Option<Span>,
    /// Answers given as lists under `decisions:`, per decision in order: an option's
    /// index, or (a decision among a list) an option's name.
    pub decisions: Vec<(String, Vec<Scripted>)>,
    pub answer_spans: Vec<(String, Vec<Span>)>,
    /// Decisions given one word (the policy answers them every time).
    pub answered: Vec<String>,
    /// Whether `decisions:` names a `default:`.
    pub default_given: bool,
}

/// A named outcome group: every condition given must hold at the end of a run.
#[derive(Debug, Clone, Default)]
pub struct Group {
    pub name: String,
    pub winner: Option<GroupEnd>,
    /// Fighters (indices in joining order) that must not be out.
    pub standing: Vec<u32>,
    /// Fighters that must be out.
    pub out: Vec<u32>,
    /// Inclusive bounds on the rounds played.
    pub rounds: Option<(u32, u32)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupEnd {
    Side(u16),
    Draw,
    Undecided,
}

/// What one run gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub end: FightEnd,
    pub rounds: u32,
    /// The rule error that stopped the fight: `file:line: message`.
    pub error: Option<String>,
    /// For each outcome group, whether this run is in it.
    pub groups: Vec<bool>,
}

/// The seed of stream `stream` of run `k` (SplitMix64 over the three).
pub fn run_seed(seed: u64, k: u64, stream: u64) -> u64 {
    let mut z = seed
        .wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl FightFile {
    /// The fight at its start, for the interpreter.
    pub fn fight(&self) -> Fight<Value> {
        let mut f = Fight::new();
        for (side, members) in &self.sides {
            for (name, value) in members {
                f.join(side, name, Value::from_const(value));
            }
        }
        f
    }

    /// The decider of run `k`.
    pub fn policy_for(&self, seed: u64, k: u64) -> Policy {
        self.policy.reseeded(run_seed(seed, k, 1))
    }
}

/// Whether a run ended in `group`; `out` tells who is out at the end.
pub fn in_group(g: &Group, end: FightEnd, rounds: u32, out: &dyn Fn(u32) -> bool) -> bool {
    let winner = match g.winner {
        None => true,
        Some(GroupEnd::Side(s)) => end == FightEnd::Won(rulesc_runtime::Side(s)),
        Some(GroupEnd::Draw) => end == FightEnd::Draw,
        Some(GroupEnd::Undecided) => end == FightEnd::Undecided,
    };
    winner
        && g.standing.iter().all(|&f| !out(f))
        && g.out.iter().all(|&f| out(f))
        && g.rounds.is_none_or(|(lo, hi)| (lo..=hi).contains(&rounds))
}

/// Runs fight `file` once: run `k` of seed `seed`, traced into `trace` as `options` say.
pub fn run_once<T: TraceSink>(
    p: &Program,
    file: &FightFile,
    seed: u64,
    k: u64,
    trace: T,
    options: Options,
) -> (Run, T) {
    let dice = SeededDice::new(run_seed(seed, k, 0));
    let mut env = Env::new(dice, file.policy_for(seed, k), trace);
    let mut fight = file.fight();
    let Some(mut rules) = EvalRules::new(p).map(|r| r.with(options)) else {
        let run = Run {
            end: FightEnd::Undecided,
            rounds: 0,
            error: None,
            groups: vec![false; file.groups.len()],
        };
        return (run, env.trace);
    };
    let end = fight.run(&mut rules, &mut env, file.rounds);
    let rounds = fight.round();
    let error = fight.rule_error().map(|e| {
        let at = p
            .sites
            .get(e.site as usize)
            .map(|s| format!("{}:{}", s.file, s.line))
            .unwrap_or_default();
        format!("{at}: {}", e.kind)
    });
    // Who is out at the end; a run a rule error stopped is in no group.
    let outs: Option<Vec<bool>> = (0..fight.len() as u32)
        .map(|f| rules.is_out(&mut env, &mut fight, Fighter(f)).ok())
        .collect();
    let groups = match &outs {
        Some(outs) if end != FightEnd::RuleError => {
            let out = |f: u32| outs.get(f as usize).copied().unwrap_or(false);
            file.groups
                .iter()
                .map(|g| in_group(g, end, rounds, &out))
                .collect()
        }
        _ => vec![false; file.groups.len()],
    };
    (
        Run {
            end,
            rounds,
            error,
            groups,
        },
        env.trace,
    )
}

/// Run `k` traced: how it went, and its trace rendered.
fn traced(p: &Program, file: &FightFile, seed: u64, k: u64, options: Options) -> (Run, String) {
    let trace = rulesc_runtime::VecTrace::default();
    let (run, trace) = run_once(p, file, seed, k, trace, options);
    (run, trace.render(&p.sites))
}

/// How a run ended, in words: `veterans wins`, `a draw`...
fn ending(run: &Run, file: &FightFile) -> String {
    match run.end {
        FightEnd::Won(s) => format!(
            "{} wins",
            file.sides.get(s.index()).map_or("?", |x| x.0.as_str())
        ),
        FightEnd::Draw => "a draw".into(),
        FightEnd::Undecided => "undecided".into(),
        FightEnd::RuleError => format!(
            "stopped by a rule error at {}",
            run.error.clone().unwrap_or_default()
        ),
    }
}

/// The trace of run `k`, rendered, and how it ended (what `--trace k` prints; with
/// `--trace-formulas`, `options` trace inside formulas too).
pub fn trace_run(p: &Program, file: &FightFile, seed: u64, k: u64, options: Options) -> String {
    let (run, mut out) = traced(p, file, seed, k, options);
    let _ = writeln!(
        out,
        "run {k} of seed {seed}: {} after {} round(s)",
        ending(&run, file),
        run.rounds
    );
    out
}

/// Run `k` as `rulesc simulate --trace k --format json` prints it: the trace's lines,
/// then how it ended (`end`: `won` with the `winner`, `draw`, `undecided`, or
/// `rule_error` with the `error`) and the rounds it lasted.
pub fn trace_json(
    p: &Program,
    file: &FightFile,
    seed: u64,
    k: u64,
    options: Options,
) -> serde_json::Value {
    let (run, text) = traced(p, file, seed, k, options);
    let (end, winner) = match run.end {
        FightEnd::Won(s) => ("won", file.sides.get(s.index()).map(|x| x.0.clone())),
        FightEnd::Draw => ("draw", None),
        FightEnd::Undecided => ("undecided", None),
        FightEnd::RuleError => ("rule_error", None),
    };
    serde_json::json!({
        "fight": file.title,
        "ruleset": p.name,
        "seed": seed,
        "run": k,
        "trace": text.lines().collect::<Vec<_>>(),
        "end": end,
        "winner": winner,
        "error": run.error,
        "rounds": run.rounds,
    })
}

/// Totals over many runs.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Runs made: `asked`, or fewer when the time limit stopped the simulation.
    pub runs: u64,
    /// Runs asked for.
    pub asked: u64,
    /// Wins per side, in side order.
    pub wins: Vec<u64>,
    pub draws: u64,
    pub undecided: u64,
    /// Runs a rule error stopped, by where and what (`file:line: message`).
    pub errors: std::collections::BTreeMap<String, u64>,
    /// `rounds[r]`: runs that lasted `r` rounds.
    pub rounds: Vec<u64>,
    pub groups: Vec<u64>,
}

/// Runs handed to the threads at once: memory holds a batch of runs, not all `n`.
const BATCH: u64 = 256;

/// Runs `file` `n` times from seed `seed`, in parallel; the same for any thread count.
pub fn simulate(p: &Program, file: &FightFile, n: u64, seed: u64) -> Summary {
    simulate_within(p, file, n, seed, None)
}

/// [`simulate`], starting no run once `max` has passed: the runs counted are then runs
/// `0..k` (those after the first run not started are dropped, finished or not), and
/// [`Summary::runs`] is below [`Summary::asked`] (`rulesc simulate` warns, `W0105`).
pub fn simulate_within(
    p: &Program,
    file: &FightFile,
    n: u64,
    seed: u64,
    max: Option<std::time::Duration>,
) -> Summary {
    let start = std::time::Instant::now();
    let past = || max.is_some_and(|m| start.elapsed() >= m);
    let mut s = Summary {
        asked: n,
        wins: vec![0; file.sides.len()],
        rounds: vec![0; file.rounds as usize + 1],
        groups: vec![0; file.groups.len()],
        ..Summary::default()
    };
    while s.runs < n {
        let runs: Vec<Option<Run>> = (s.runs..(s.runs + BATCH).min(n))
            .into_par_iter()
            .map(|k| {
                let options = Options::default();
                (!past()).then(|| run_once(p, file, seed, k, rulesc_runtime::NoTrace, options).0)
            })
            .collect();
        for r in &runs {
            let Some(r) = r else { return s };
            s.add(r);
            s.runs += 1;
        }
    }
    s
}

impl Summary {
    /// Counts one run.
    fn add(&mut self, r: &Run) {
        match r.end {
            FightEnd::Won(side) => {
                if let Some(w) = self.wins.get_mut(side.index()) {
                    *w += 1;
                }
            }
            FightEnd::Draw => self.draws += 1,
            FightEnd::Undecided => self.undecided += 1,
            FightEnd::RuleError => {
                let what = r.error.clone().unwrap_or_default();
                *self.errors.entry(what).or_default() += 1;
            }
        }
        if let Some(x) = self.rounds.get_mut(r.rounds as usize) {
            *x += 1;
        }
        for (g, &hit) in self.groups.iter_mut().zip(&r.groups) {
            *g += u64::from(hit);
        }
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (all, none) = (k == n, k == 0);
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let center = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    let lo = if none { 0.0 } else { (center - half).max(0.0) };
    let hi = if all { 1.0 } else { (center + half).min(1.0) };
    (lo, hi)
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// The rounds the runs lasted, summed up.
struct RoundStats {
    mean: f64,
    median: usize,
    p90: usize,
    most: usize,
}

/// A share of `n` runs with its 95% interval, as JSON.
fn share_json(k: u64, n: u64) -> serde_json::Value {
    let (lo, hi) = wilson(k, n);
    let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    serde_json::json!({ "runs": k, "share": share, "low": lo, "high": hi })
}

impl Summary {
    /// Mean, median, 90th percentile and most of the rounds; `None` when no run counted.
    fn round_stats(&self) -> Option<RoundStats> {
        let played: u64 = self.rounds.iter().sum();
        if played == 0 {
            return None;
        }
        let total: u64 = self
            .rounds
            .iter()
            .enumerate()
            .map(|(r, &c)| r as u64 * c)
            .sum();
        let quantile = |q: f64| {
            let target = (q * played as f64).ceil().max(1.0) as u64;
            let mut seen = 0;
            for (r, &c) in self.rounds.iter().enumerate() {
                seen += c;
                if seen >= target {
                    return r;
                }
            }
            self.rounds.len().saturating_sub(1)
        };
        Some(RoundStats {
            mean: total as f64 / played as f64,
            median: quantile(0.5),
            p90: quantile(0.9),
            most: self.rounds.iter().rposition(|&c| c > 0).unwrap_or(0),
        })
    }

    /// The report as `rulesc simulate --format json` prints it: the same figures as
    /// [`Summary::render`], each share with its count and 95% interval (`runs`, `share`,
    /// `low`, `high`, shares as fractions of 1).
    pub fn json(&self, p: &Program, file: &FightFile, seed: u64) -> serde_json::Value {
        let n = self.runs;
        let wins: Vec<serde_json::Value> = file
            .sides
            .iter()
            .zip(&self.wins)
            .map(|((side, _), &w)| {
                let mut v = share_json(w, n);
                v["side"] = side.clone().into();
                v
            })
            .collect();
        let errors: Vec<serde_json::Value> = self
            .errors
            .iter()
            .map(|(what, &k)| {
                let mut v = share_json(k, n);
                v["error"] = what.clone().into();
                v
            })
            .collect();
        let rounds: Vec<serde_json::Value> = self
            .rounds
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(r, &c)| serde_json::json!({ "rounds": r, "runs": c }))
            .collect();
        let stats = self.round_stats().map(|st| {
            serde_json::json!({ "mean": st.mean, "median": st.median, "p90": st.p90, "most": st.most })
        });
        let report: Vec<serde_json::Value> = file
            .groups
            .iter()
            .zip(&self.groups)
            .map(|(g, &k)| {
                let mut v = share_json(k, n);
                v["group"] = g.name.clone().into();
                v
            })
            .collect();
        serde_json::json!({
            "fight": file.title,
            "ruleset": p.name,
            "runs": n,
            "asked": self.asked,
            "seed": seed,
            "max_rounds": file.rounds,
            "wins": wins,
            "draw": share_json(self.draws, n),
            "undecided": share_json(self.undecided, n),
            "rule_errors": errors,
            "rounds": { "stats": stats, "counts": rounds },
            "report": report,
        })
    }

    /// The report `rulesc simulate` prints.
    pub fn render(&self, p: &Program, file: &FightFile, seed: u64) -> String {
        let mut out = String::new();
        let n = self.runs;
        let runs = if n < self.asked {
            format!("{n} of {} runs (stopped by the time limit)", self.asked)
        } else {
            format!("{n} runs")
        };
        let _ = writeln!(
            out,
            "{} ({}): {runs}, seed {seed}, at most {} rounds",
            file.title, p.name, file.rounds
        );
        let width = file
            .sides
            .iter()
            .map(|(s, _)| s.len())
            .chain(file.groups.iter().map(|g| g.name.len()))
            .chain([9])
            .max()
            .unwrap_or(9);
        let line = |out: &mut String, label: &str, k: u64| {
            let (lo, hi) = wilson(k, n);
            let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
            let _ = writeln!(
                out,
                "  {label:<width$}  {:>7}  95% [{}, {}]",
                pct(share),
                pct(lo),
                pct(hi)
            );
        };
        let _ = writeln!(out, "wins:");
        for ((side, _), &w) in file.sides.iter().zip(&self.wins) {
            line(&mut out, side, w);
        }
        line(&mut out, "draw", self.draws);
        line(&mut out, "undecided", self.undecided);
        if !self.errors.is_empty() {
            // A rule the fight reached that does not say what happens: a finding about
            // the rules, counted apart and never as a win.
            let _ = writeln!(out, "stopped by a rule error:");
            for (what, &k) in &self.errors {
                let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
                let _ = writeln!(out, "  {:>7}  {what}", pct(share));
            }
        }
        let played: u64 = self.rounds.iter().sum();
        if let Some(st) = self.round_stats() {
            let _ = writeln!(
                out,
                "rounds: mean {:.2}, median {}, 90th percentile {}, most {}",
                st.mean, st.median, st.p90, st.most
            );
            let top = self.rounds.iter().copied().max().unwrap_or(1).max(1);
            for (r, &c) in self.rounds.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                let bar = "#".repeat(((c * 40).div_ceil(top)) as usize);
                let _ = writeln!(out, "  {r:>4}  {:>7}  {bar}", pct(c as f64 / played as f64));
            }
        }
        if !file.groups.is_empty() {
            let _ = writeln!(out, "report:");
            for (g, &k) in file.groups.iter().zip(&self.groups) {
                line(&mut out, &g.name, k);
            }
        }
        out
    }
}
