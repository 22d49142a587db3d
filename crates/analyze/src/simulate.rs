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

pub mod diff;
pub mod expect;
mod read;
mod replay;
pub mod sweep;
#[cfg(test)]
mod vm_tests;

pub use read::{answer_by_name, answer_help, decisions, known_decision, read_sides};
pub use read::{read, read_edited, read_with};
pub use replay::{replay, replay_ending, Replayed};

/// Most runs one simulation may ask for.
pub const MAX_RUNS: u64 = 10_000_000;
/// Most rounds a fight file may allow.
pub const MAX_ROUNDS: u32 = 10_000;
/// Most combatants of one fight, all sides together: the engine looks at every pair of
/// them each round, and no fight a rulebook describes comes near.
pub const MAX_COMBATANTS: usize = 1_000;

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

/// One scripted answer: an option's index, or its name (the runtime's, shared with scenarios).
pub use rulesc_runtime::Scripted;

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

    /// The name of side `s`. The engine's fight is built from [`FightFile::sides`]
    /// ([`FightFile::fight`]), so every side it names is one of them: a side past them
    /// would be a bug in the engine, not a fight file's mistake.
    pub fn side_name(&self, s: rulesc_runtime::Side) -> &str {
        &self
            .sides
            .get(s.index())
            .expect("the fight engine names only the sides the fight file joined")
            .0
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
        unreachable!(
            "a fight file is read only against a ruleset that declares a fight (simulate::read)"
        )
    };
    let end = fight.run(&mut rules, &mut env, file.rounds);
    let rounds = fight.round();
    let error = error_text(p, &fight);
    // Who is out at the end; a run a rule error stopped is in no group.
    let outs: Option<Vec<bool>> = (0..fight.len() as u32)
        .map(|f| rules.is_out(&mut env, &mut fight, Fighter(f)).ok())
        .collect();
    let groups = match &outs {
        Some(outs) if end != FightEnd::RuleError => {
            let out = |f: u32| match outs.get(f as usize) {
                Some(&out) => out,
                None => unreachable!("a group names fighters of its fight (simulate::read)"),
            };
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

/// How a fight ended, in words: `Watch wins`, `a draw`, `stopped by a rule error at
/// rules/duel.rules:4: ...` (`error`: the rule error, for a fight it stopped). One
/// wording for a simulated run and a replay.
pub fn ending(end: FightEnd, error: Option<&str>, file: &FightFile) -> String {
    match end {
        FightEnd::Won(s) => format!("{} wins", file.side_name(s)),
        FightEnd::Draw => "a draw".into(),
        FightEnd::Undecided => "undecided".into(),
        FightEnd::RuleError => format!("stopped by a rule error at {}", error.unwrap_or("")),
    }
}

/// The trace of run `k`, rendered, and how it ended (what `--trace k` prints; with
/// `--trace-formulas`, `options` trace inside formulas too).
pub fn trace_run(p: &Program, file: &FightFile, seed: u64, k: u64, options: Options) -> String {
    let (run, mut out) = traced(p, file, seed, k, options);
    let _ = writeln!(
        out,
        "run {k} of seed {seed}: {} after {} round(s)",
        ending(run.end, run.error.as_deref(), file),
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
        FightEnd::Won(s) => ("won", Some(file.side_name(s).to_string())),
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
    let clock = Clock::new(max);
    let mut s = Summary::new(file, n);
    while s.runs < n {
        let to = (s.runs + BATCH).min(n);
        let runs = batch(p, file, seed, s.runs..to, &clock);
        s.count(&runs);
        if s.runs < to {
            break;
        }
    }
    s
}

/// Runs `n` fights of `base` (read against program `bp`) and of `variant` (against
/// `vp`), run `k` of each from the same seeds, so the two summaries count the same runs:
/// when `max` passes, both stop after the same run (`rulesc diff` on a fight file).
pub fn simulate_pair(
    (bp, base): (&Program, &FightFile),
    (vp, variant): (&Program, &FightFile),
    n: u64,
    seed: u64,
    max: Option<std::time::Duration>,
) -> (Summary, Summary) {
    let clock = Clock::new(max);
    let (mut a, mut b) = (Summary::new(base, n), Summary::new(variant, n));
    while a.runs < n {
        let to = (a.runs + BATCH).min(n);
        let ra = batch(bp, base, seed, a.runs..to, &clock);
        let rb = batch(vp, variant, seed, a.runs..to, &clock);
        let both = ra.len().min(rb.len());
        a.count(&ra[..both]);
        b.count(&rb[..both]);
        if a.runs < to {
            break;
        }
    }
    (a, b)
}

/// When a simulation stops starting runs.
struct Clock {
    start: std::time::Instant,
    max: Option<std::time::Duration>,
}

impl Clock {
    fn new(max: Option<std::time::Duration>) -> Self {
        Clock {
            start: std::time::Instant::now(),
            max,
        }
    }

    fn past(&self) -> bool {
        self.max.is_some_and(|m| self.start.elapsed() >= m)
    }
}

/// Runs `runs` of `file` in parallel: those started before the clock ran out, in order
/// (the runs after the first one not started are dropped, finished or not).
fn batch(
    p: &Program,
    file: &FightFile,
    seed: u64,
    runs: std::ops::Range<u64>,
    clock: &Clock,
) -> Vec<Run> {
    crate::analyze::threads();
    let runs: Vec<Option<Run>> = runs
        .into_par_iter()
        .map(|k| {
            let options = Options::default();
            (!clock.past()).then(|| run_once(p, file, seed, k, rulesc_runtime::NoTrace, options).0)
        })
        .collect();
    runs.into_iter().map_while(|r| r).collect()
}

impl Summary {
    /// No run yet of `file`, `n` asked for.
    fn new(file: &FightFile, n: u64) -> Self {
        Summary {
            asked: n,
            wins: vec![0; file.sides.len()],
            rounds: vec![0; file.rounds as usize + 1],
            groups: vec![0; file.groups.len()],
            ..Summary::default()
        }
    }

    /// Counts `runs`.
    fn count(&mut self, runs: &[Run]) {
        for r in runs {
            self.add(r);
            self.runs += 1;
        }
    }
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

/// A share as a percentage with two decimals: `62.50%`.
pub fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// The rounds the runs lasted, summed up.
pub struct RoundStats {
    pub mean: f64,
    pub median: usize,
    pub p90: usize,
    pub most: usize,
}

/// A share of `n` runs with its 95% interval, as JSON.
pub fn share_json(k: u64, n: u64) -> serde_json::Value {
    let (lo, hi) = wilson(k, n);
    let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    serde_json::json!({ "runs": k, "share": share, "low": lo, "high": hi })
}

impl Summary {
    /// Mean, median, 90th percentile and most of the rounds; `None` when no run counted.
    pub fn round_stats(&self) -> Option<RoundStats> {
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

    /// The report as `rulesc simulate --svg FILE` draws it: each side's win rate, the
    /// draws, the undecided fights and the runs a rule error stopped, each with its 95%
    /// interval as a whisker; under them the share of runs that lasted each number of
    /// rounds (a bar per round up to 40 of them, else per span of rounds, so the chart
    /// stays readable whatever the round limit). Deterministic: the same runs draw the
    /// same bytes.
    pub fn svg(&self, p: &Program, file: &FightFile, seed: u64) -> String {
        use crate::analyze::svg::{chart, Panel, Series};
        let n = self.runs;
        let share = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let mut labels: Vec<String> = file.sides.iter().map(|(s, _)| s.clone()).collect();
        let mut counts: Vec<u64> = self.wins.clone();
        labels.extend(["draw".to_string(), "undecided".to_string()]);
        counts.extend([self.draws, self.undecided]);
        let errors: u64 = self.errors.values().sum();
        if errors > 0 {
            labels.push("stopped by a rule error".into());
            counts.push(errors);
        }
        let wins = Series {
            name: file.title.clone(),
            values: counts.iter().map(|&k| share(k)).collect(),
            intervals: counts.iter().map(|&k| wilson(k, n)).collect(),
        };
        let (round_labels, round_counts) = self.round_buckets(40);
        let rounds = Series {
            name: file.title.clone(),
            values: round_counts.iter().map(|&k| share(k)).collect(),
            intervals: Vec::new(),
        };
        let title = format!("{} ({}): {n} runs, seed {seed}", file.title, p.name);
        chart(&[
            Panel {
                title: &title,
                labels: &labels,
                series: &[wins],
            },
            Panel {
                title: "rounds played",
                labels: &round_labels,
                series: &[rounds],
            },
        ])
    }

    /// The runs by rounds played, from the fewest any run lasted to the most, as at most
    /// `bars` bars: one per number of rounds (`3`), or per span of them (`11-15`).
    fn round_buckets(&self, bars: usize) -> (Vec<String>, Vec<u64>) {
        let Some(first) = self.rounds.iter().position(|&c| c > 0) else {
            return (Vec::new(), Vec::new());
        };
        let last = self.rounds.iter().rposition(|&c| c > 0).unwrap_or(first);
        let width = (last - first + 1).div_ceil(bars.max(1));
        let mut labels = Vec::new();
        let mut counts = Vec::new();
        let mut lo = first;
        while lo <= last {
            let hi = (lo + width - 1).min(last);
            labels.push(if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            });
            counts.push(self.rounds[lo..=hi].iter().sum());
            lo = hi + 1;
        }
        (labels, counts)
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

/// The `file:line: message` of the rule error that stopped `fight`, as a run counts it
/// (`simulate`, and exact fight odds).
pub fn error_text(p: &Program, fight: &Fight<Value>) -> Option<String> {
    fight.rule_error().map(|e| {
        let at = p
            .sites
            .get(e.site as usize)
            .map(|s| format!("{}:{}", s.file, s.line))
            .unwrap_or_default();
        format!("{at}: {}", e.kind)
    })
}

#[cfg(test)]
mod tests {
    use super::Summary;

    /// A summary whose runs lasted the rounds `first..=last`, one run each.
    fn lasted(first: usize, last: usize) -> Summary {
        let mut rounds = vec![0; last + 2];
        for r in &mut rounds[first..=last] {
            *r = 1;
        }
        Summary {
            rounds,
            ..Summary::default()
        }
    }

    #[test]
    fn rounds_are_drawn_one_bar_each_up_to_the_limit_then_in_spans() {
        for (first, last, bars, label0, label_last) in [
            (3, 42, 40, "3", "42"),
            (3, 43, 21, "3-4", "43"),
            (1, 1, 1, "1", "1"),
            (0, 119, 40, "0-2", "117-119"),
            (0, 120, 31, "0-3", "120"),
        ] {
            let (labels, counts) = lasted(first, last).round_buckets(40);
            assert_eq!(labels.len(), bars, "{first}..{last}: {labels:?}");
            assert_eq!(labels[0], label0);
            assert_eq!(labels[bars - 1], label_last);
            assert_eq!(counts.iter().sum::<u64>(), (last - first + 1) as u64);
        }
        assert!(Summary::default().round_buckets(40).0.is_empty());
    }
}
