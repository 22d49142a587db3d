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

use crate::check;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::eval::{Options, Value};
use crate::fight::EvalRules;
use crate::ir::{self, Const, DecideOptions, ExprKind as K, FightTies, Program, Ty};
use crate::load;
use crate::source::{Sources, Span};
use crate::yaml::{YNode, YValue};
use rayon::prelude::*;
use rulesc_runtime::{
    Answer, Env, Fight, FightEnd, FightRules, Fighter, Policy, SeededDice, TraceSink,
};
use std::fmt::Write as _;
use std::path::Path;

/// Most runs one simulation may ask for.
pub const MAX_RUNS: u64 = 10_000_000;
/// Most rounds a fight file may allow.
pub const MAX_ROUNDS: u32 = 10_000;

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
    pub runs: u64,
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

/// Runs `file` `n` times from seed `seed`, in parallel; the same for any thread count.
pub fn simulate(p: &Program, file: &FightFile, n: u64, seed: u64) -> Summary {
    let runs: Vec<Run> = (0..n)
        .into_par_iter()
        .map(|k| {
            run_once(
                p,
                file,
                seed,
                k,
                rulesc_runtime::NoTrace,
                Options::default(),
            )
            .0
        })
        .collect();
    let mut s = Summary {
        runs: n,
        wins: vec![0; file.sides.len()],
        rounds: vec![0; file.rounds as usize + 1],
        groups: vec![0; file.groups.len()],
        ..Summary::default()
    };
    for r in &runs {
        match r.end {
            FightEnd::Won(side) => {
                if let Some(w) = s.wins.get_mut(side.index()) {
                    *w += 1;
                }
            }
            FightEnd::Draw => s.draws += 1,
            FightEnd::Undecided => s.undecided += 1,
            FightEnd::RuleError => {
                let what = r.error.clone().unwrap_or_default();
                *s.errors.entry(what).or_default() += 1;
            }
        }
        if let Some(x) = s.rounds.get_mut(r.rounds as usize) {
            *x += 1;
        }
        for (g, &hit) in s.groups.iter_mut().zip(&r.groups) {
            *g += u64::from(hit);
        }
    }
    s
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
        let _ = writeln!(
            out,
            "{} ({}): {n} runs, seed {seed}, at most {} rounds",
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

// ---------------------------------------------------------------------------------------
// Reading a fight file

fn err(diags: &mut Diagnostics, span: Span, msg: impl Into<String>, help: impl Into<String>) {
    diags.push(
        Diagnostic::error("E0404", span, msg)
            .label("here")
            .help(help),
    );
}

/// The decisions a program can ask for, with what they choose from.
fn decisions(p: &Program) -> Vec<(String, Option<DecideOptions>)> {
    let mut out: Vec<(String, Option<DecideOptions>)> = Vec::new();
    fn go(e: &ir::Expr, out: &mut Vec<(String, Option<DecideOptions>)>) {
        if let K::Decide { name, options, .. } = &e.kind {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), Some(options.clone())));
            }
        }
        crate::ir::walk::for_each_child(e, &mut |x| go(x, out));
    }
    for f in &p.functions {
        crate::ir::walk::for_each_body_expr(f, &mut |e| go(e, &mut out));
    }
    if let Some(FightTies::Decide(name)) = p.fight.as_ref().map(|d| &d.ties) {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.clone(), None));
        }
    }
    out
}

/// Reads a fight file against a program. Diagnostics point into the file.
pub fn read(p: &Program, path: &Path) -> Result<(FightFile, Sources), (Diagnostics, Sources)> {
    let mut diags = Diagnostics::default();
    let mut sources = p.sources.clone();
    let name = path.display().to_string().replace('\\', "/");
    let Some((_, root)) = load::read_yaml(&mut sources, name, path, &mut diags) else {
        return Err((diags, sources));
    };
    let file = read_node(p, &sources, &root, &mut diags);
    match file {
        Some(f) if !diags.has_errors() => Ok((f, sources)),
        _ => Err((diags, sources)),
    }
}

fn read_node(
    p: &Program,
    sources: &Sources,
    root: &YNode,
    diags: &mut Diagnostics,
) -> Option<FightFile> {
    let Some(def) = &p.fight else {
        err(
            diags,
            root.span,
            format!("ruleset `{}` declares no fight", p.name),
            "add `fight of <Combatant> { ... }` to a `.rules` file (see the reference, Fights)",
        );
        return None;
    };
    let Some(map) = root.as_map() else {
        err(
            diags,
            root.span,
            "a fight file is a mapping",
            "write `sides:`, and optionally `title:`, `rounds:`, `decisions:`, `report:`",
        );
        return None;
    };
    const KEYS: &[&str] = &[
        "title",
        "description",
        "rounds",
        "sides",
        "decisions",
        "report",
    ];
    for (k, _) in map {
        let key = k.scalar_text().unwrap_or_default();
        if !KEYS.contains(&key.as_str()) {
            diags.push(
                Diagnostic::error(
                    "E0103",
                    k.span,
                    format!("unknown key `{key}` in a fight file"),
                )
                .label("unknown key")
                .help(suggest(&key, KEYS, "keys")),
            );
        }
    }
    let title = root
        .get("title")
        .and_then(|t| t.scalar_text())
        .unwrap_or_else(|| "fight".into());
    let rounds = match root.get("rounds") {
        None => 100,
        Some(n) => match n.value {
            YValue::Int(r) if (1..=i64::from(MAX_ROUNDS)).contains(&r) => r as u32,
            _ => {
                err(
                    diags,
                    n.span,
                    "`rounds` is the round limit",
                    format!("give a number from 1 to {MAX_ROUNDS}"),
                );
                100
            }
        },
    };
    let combatant = Ty::Record(def.combatant);
    let mut sides: Vec<(String, Vec<(String, Const)>)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    match root.get("sides").and_then(|s| s.as_map().map(|m| (s, m))) {
        Some((node, m)) if m.len() >= 2 => {
            let _ = node;
            for (k, v) in m {
                let side = k.scalar_text().unwrap_or_default();
                let mut members = Vec::new();
                match v.as_map() {
                    Some(ms) if !ms.is_empty() => {
                        for (mk, mv) in ms {
                            let who = mk.scalar_text().unwrap_or_default();
                            if names.contains(&who) {
                                err(
                                    diags,
                                    mk.span,
                                    format!("two combatants are named `{who}`"),
                                    "give each combatant its own name",
                                );
                            }
                            names.push(who.clone());
                            let value = match &mv.value {
                                YValue::Null => Some(p.zero(&combatant)),
                                _ => check::read_value(p, sources, mv, &combatant, diags),
                            };
                            members.push((who, value.unwrap_or_else(|| p.zero(&combatant))));
                        }
                    }
                    _ => err(
                        diags,
                        v.span,
                        format!("side `{side}` has no combatants"),
                        "list them: `Name: record` or `Name: { field: value }`",
                    ),
                }
                sides.push((side, members));
            }
        }
        Some((node, _)) => err(
            diags,
            node.span,
            "a fight needs at least two sides",
            "add another side under `sides:`",
        ),
        None => {
            err(
                diags,
                root.span,
                "the fight file has no `sides:`",
                "add `sides:` with two sides, each a mapping of combatants",
            );
            return None;
        }
    }
    let known = decisions(p);
    let mut policy = Policy::new(Answer::Random, 0);
    if let Some(d) = root.get("decisions") {
        for (k, v) in d.as_map().unwrap_or(&[]) {
            let key = k.scalar_text().unwrap_or_default();
            let text = v.scalar_text().unwrap_or_default();
            let plain = match text.as_str() {
                "first" => Some(Answer::First),
                "last" => Some(Answer::Last),
                "random" => Some(Answer::Random),
                _ => None,
            };
            if key == "default" {
                match plain {
                    Some(a) => policy = policy.with_default(a),
                    None => err(
                        diags,
                        v.span,
                        "the default answer is `first`, `last` or `random`",
                        "pick one of them",
                    ),
                }
                continue;
            }
            let Some((_, options)) = known.iter().find(|(n, _)| *n == key) else {
                let cands: Vec<&str> = known.iter().map(|(n, _)| n.as_str()).collect();
                diags.push(
                    Diagnostic::error(
                        "E0306",
                        k.span,
                        format!("the rules ask no decision named `{key}`"),
                    )
                    .label("unknown decision")
                    .help(suggest(&key, &cands, "decisions")),
                );
                continue;
            };
            let answer = match (plain, options) {
                (Some(a), _) => Some(a),
                (None, Some(DecideOptions::Bool)) => match text.as_str() {
                    "yes" | "true" => Some(Answer::Index(1)),
                    "no" | "false" => Some(Answer::Index(0)),
                    _ => None,
                },
                (None, Some(DecideOptions::Choice(c))) => p.choices[*c]
                    .variants
                    .iter()
                    .position(|x| x.name == text)
                    .map(|i| Answer::Index(i as u32)),
                (None, _) => None,
            };
            match answer {
                Some(a) => policy = policy.with(&key, a),
                None => {
                    let help = match options {
                        Some(DecideOptions::Choice(c)) => {
                            let cands: Vec<&str> = p.choices[*c].variants.iter().map(|x| x.name.as_str()).collect();
                            suggest(&text, &cands, "answers (or first, last, random)")
                        }
                        Some(DecideOptions::Bool) => "answer `yes`, `no`, `first`, `last` or `random`".into(),
                        _ => "answer `first`, `last` or `random` (the options are known only when it is asked)".into(),
                    };
                    err(
                        diags,
                        v.span,
                        format!("`{text}` does not answer `{key}`"),
                        help,
                    );
                }
            }
        }
    }
    let mut groups = Vec::new();
    let fighter_index = |n: &str| names.iter().position(|x| x == n).map(|i| i as u32);
    if let Some(r) = root.get("report") {
        for (k, v) in r.as_map().unwrap_or(&[]) {
            let mut g = Group {
                name: k.scalar_text().unwrap_or_default(),
                ..Group::default()
            };
            for (ck, cv) in v.as_map().unwrap_or(&[]) {
                let key = ck.scalar_text().unwrap_or_default();
                match key.as_str() {
                    "winner" => {
                        let t = cv.scalar_text().unwrap_or_default();
                        g.winner = match t.as_str() {
                            "draw" => Some(GroupEnd::Draw),
                            "undecided" => Some(GroupEnd::Undecided),
                            _ => match sides.iter().position(|(s, _)| *s == t) {
                                Some(i) => Some(GroupEnd::Side(i as u16)),
                                None => {
                                    let cands: Vec<&str> =
                                        sides.iter().map(|(s, _)| s.as_str()).collect();
                                    err(
                                        diags,
                                        cv.span,
                                        format!("no side is named `{t}`"),
                                        suggest(&t, &cands, "sides (or draw, undecided)"),
                                    );
                                    None
                                }
                            },
                        };
                    }
                    "standing" | "out" => {
                        let mut list = Vec::new();
                        for item in cv.as_seq().unwrap_or(&[]) {
                            let t = item.scalar_text().unwrap_or_default();
                            match fighter_index(&t) {
                                Some(i) => list.push(i),
                                None => {
                                    let cands: Vec<&str> =
                                        names.iter().map(String::as_str).collect();
                                    err(
                                        diags,
                                        item.span,
                                        format!("no combatant is named `{t}`"),
                                        suggest(&t, &cands, "combatants"),
                                    );
                                }
                            }
                        }
                        if key == "out" {
                            g.out = list;
                        } else {
                            g.standing = list;
                        }
                    }
                    "rounds" => match rounds_range(cv) {
                        Some(r) => g.rounds = Some(r),
                        None => err(
                            diags,
                            cv.span,
                            "`rounds` is a number or a range",
                            "write `3`, `\"2..4\"`, `\"..3\"` or `\"5..\"`",
                        ),
                    },
                    _ => diags.push(
                        Diagnostic::error("E0103", ck.span, format!("unknown condition `{key}`"))
                            .label("unknown key")
                            .help(suggest(
                                &key,
                                &["winner", "standing", "out", "rounds"],
                                "conditions",
                            )),
                    ),
                }
            }
            groups.push(g);
        }
    }
    Some(FightFile {
        title,
        rounds,
        sides,
        policy,
        groups,
    })
}

fn rounds_range(node: &YNode) -> Option<(u32, u32)> {
    if let YValue::Int(r) = node.value {
        let r = u32::try_from(r).ok()?;
        return Some((r, r));
    }
    let t = node.scalar_text()?;
    let (lo, hi) = t.split_once("..")?;
    let lo = if lo.trim().is_empty() {
        0
    } else {
        lo.trim().parse().ok()?
    };
    let hi = if hi.trim().is_empty() {
        u32::MAX
    } else {
        hi.trim().parse().ok()?
    };
    (lo <= hi).then_some((lo, hi))
}
