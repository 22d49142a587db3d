//! `rulesc analyze`: the exact odds of a scenario's outcomes (decisions as the scenario
//! scripts them, scripted dice ignored).
//!
//! - [`exact`]: arbitrary-precision probabilities; nothing overflows.
//! - [`dice`]: one roll's exact distribution (convolution, order statistics, chains).
//! - [`engine`], [`plan`], [`state`], [`fast`]: the merged-state engine.
//! - [`paths`]: the path walker, one interpreter run per dice path (the reference).
//!
//! Every engine's work is bounded by [`Limits`]; what a limit cut off is reported as
//! unexplored mass (never dropped), and reaching a limit is a warning (`W0101`..).

pub mod cases;
pub mod dice;
pub mod diff;
pub mod engine;
pub mod exact;
pub mod fast;
pub mod fight;
pub mod goal;
pub mod paths;
pub mod plan;
pub mod report;
pub mod sample;
pub mod state;
pub mod svg;
pub mod view;

use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{self, Value};
use crate::ir::Program;
use crate::scenario::{self, Scenario};
use crate::source::{Sources, Span};
use exact::Prob;
use num_traits::Zero;
use report::Report;
use rulesc_runtime::{Env, NoTrace};
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
    /// Most wall-clock seconds of the whole run, counted from [`Limits::started`]: every
    /// case, scenario and ruleset of one command together (`W0103`).
    pub max_seconds: u64,
    /// Most states the merged engine holds at once, and most distinct totals one roll
    /// may have (`W0104`).
    pub max_states: u64,
    /// Most memory, in MiB, the states of one distribution may take (estimated from
    /// their canonical encodings, [`state::BYTES_PER_WORD`] bytes a word), and the
    /// distinct outcomes of one case (`W0104`).
    pub max_memory: u64,
    /// When the run began: `--max-seconds` counts from here (set when the limits are
    /// made, once per command).
    pub started: Instant,
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
            max_memory: 128,
            started: Instant::now(),
        }
    }
}

/// The accepted range of each limit flag: (flag, lowest, highest).
pub const RANGES: [(&str, u64, u64); 7] = [
    ("max-dice", 1, 1_000),
    ("explode-depth", 0, 100),
    ("max-paths", 1, 1_000_000_000_000),
    ("max-steps", 1, 1_000_000_000_000),
    ("max-seconds", 1, 86_400),
    ("max-states", 1, 100_000_000),
    ("max-memory", 1, 1_048_576),
];

impl Limits {
    /// When the run must stop: `max_seconds` after it began, whatever the cases,
    /// scenarios and rulesets it analyzes.
    pub fn deadline(&self) -> Option<Instant> {
        self.started
            .checked_add(Duration::from_secs(self.max_seconds))
    }

    /// Whether the run's time is up.
    pub fn out_of_time(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// The most words of state encodings one distribution may hold.
    pub fn max_words(&self) -> u64 {
        self.max_memory.saturating_mul(1 << 20) / state::BYTES_PER_WORD
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
    /// More states (or distinct outcomes) at once than `--max-states`.
    States,
    /// A roll with more distinct totals than `--max-states`.
    Totals,
    /// States (or outcomes) taking more memory than `--max-memory`.
    Memory,
}

impl Stop {
    /// The code of the warning saying so.
    pub fn code(self) -> &'static str {
        match self {
            Stop::Paths => "W0101",
            Stop::Steps => "W0102",
            Stop::Time => "W0103",
            Stop::States | Stop::Totals | Stop::Memory => "W0104",
        }
    }

    /// The limit reached, said with its value and flag: what the warning, the header
    /// and the unexplored line all name.
    pub fn limit(self, limits: &Limits) -> String {
        match self {
            Stop::Paths => format!("the limit of {} paths (--max-paths)", limits.max_paths),
            Stop::Steps => format!("the limit of {} steps (--max-steps)", limits.max_steps),
            Stop::Time => format!(
                "the time limit of {} s for the whole run (--max-seconds)",
                limits.max_seconds
            ),
            Stop::States => format!(
                "the limit of {} states or outcomes held at once (--max-states)",
                limits.max_states
            ),
            Stop::Totals => format!(
                "the limit of {} distinct totals of one roll (--max-states)",
                limits.max_states
            ),
            Stop::Memory => format!(
                "the limit of {} MiB for the states or outcomes held at once (--max-memory)",
                limits.max_memory
            ),
        }
    }

    /// The warning saying so, pointing at the scenario; `done` says how much of the
    /// work asked was done ("12 of 100 cases analyzed in full", "4096 of 3000000
    /// samples drawn"), when that is more than one case's odds say.
    fn diagnostic(self, limits: &Limits, file: u32, done: Option<String>) -> Diagnostic {
        let (code, what, help) = match self {
            Stop::Paths => (
                "W0101",
                "the enumeration stopped at",
                "the odds shown are exact for the paths reached; raise --max-paths, or lower --max-dice, to reach more",
            ),
            Stop::Steps => (
                "W0102",
                "the analysis stopped at",
                "the odds shown are exact for the part reached; raise --max-steps, or lower --explode-depth, to reach more",
            ),
            Stop::Time => (
                "W0103",
                "the analysis stopped at",
                "the odds shown are exact for the part reached (sampled odds: from the samples drawn); raise --max-seconds, or lower --explode-depth, to reach more",
            ),
            Stop::States | Stop::Totals => (
                "W0104",
                "the analysis needed more than",
                "the odds shown are exact for the part reached; raise --max-states, or lower --explode-depth",
            ),
            Stop::Memory => (
                "W0104",
                "the analysis needed more than",
                "the odds shown are exact for the part reached; raise --max-memory, or keep fewer or smaller values alive across rolls",
            ),
        };
        let limit = self.limit(limits);
        // "needed more than the limit of N states": the limit's own words follow.
        let limit = limit.strip_prefix("the limit of ").unwrap_or(&limit);
        let mut message = format!("{what} {limit}");
        if let Some(done) = done {
            message.push_str(": ");
            message.push_str(&done);
        }
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
    /// Whether some of the unexplored mass is dice cut off (exploding chains past the
    /// depth, paths past the dice budget), not only what a limit left unreached.
    pub cut: bool,
    pub stop: Option<Stop>,
    /// The work done, for the header line ("45431 paths", "at most 312 states"), and
    /// the limit that stopped it.
    pub work: String,
    /// An answer that was not one of its decision's options on some path: the figures
    /// are not to be shown ([`bad_answer`] says why).
    pub bad_answer: Option<engine::BadAnswer>,
}

/// The error for an answer out of range met while analyzing `s` (`E0403`, as `trace`
/// reports it).
/// `sources`: the program's with the scenario's file.
fn bad_answer(s: &Scenario, sources: Sources, b: &engine::BadAnswer) -> (Diagnostics, Sources) {
    let mut diags = Diagnostics::default();
    diags.push(scenario::answer_out_of_range(s, b));
    (diags, sources)
}

/// The scenario's arguments for one run: only those the procedure changes need a fresh
/// copy per run (path or sample); the rest share the scenario's values.
pub fn fresh_args(s: &Scenario, f: &crate::ir::Function) -> Vec<Value> {
    s.args
        .iter()
        .zip(&f.params)
        .map(|(a, param)| {
            if param.mutated {
                a.deep_clone()
            } else {
                a.clone()
            }
        })
        .collect()
}

/// The scenario's scripted decisions, as both engines answer them (plus `fixed` answers
/// for some decision names, which take precedence).
pub fn decisions<'a>(s: &'a Scenario, fixed: &[(String, u32)]) -> engine::Decisions<'a> {
    engine::Decisions {
        script: s.decisions.queues().collect(),
        fixed: fixed.to_vec(),
        bad: Default::default(),
    }
}

/// A result with its canonical encoding, hashed and compared by the encoding alone (a
/// walk of dice paths merges equal ones): an outcome here, a fight's next state in
/// `fight.rs`.
#[derive(Debug, Clone)]
struct Keyed<T>(Vec<u64>, T);

impl<T> PartialEq for Keyed<T> {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl<T> Eq for Keyed<T> {}
impl<T> std::hash::Hash for Keyed<T> {
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
    distribution_in(p, s, limits, fixed, None)
}

/// [`distribution`] as one case of a sweep: the merged engine remembers what its fast
/// segments gave between the runs with the same `memo` id ([`engine::memo_id`]).
pub fn distribution_in(
    p: &Program,
    s: &Scenario,
    limits: &Limits,
    fixed: &[(String, u32)],
    memo: Option<u64>,
) -> Distribution {
    let f = &p.functions[s.function];
    let dec = decisions(s, fixed);
    if limits.out_of_time() {
        // The run's time is up (an earlier case, scenario or ruleset took it): this case
        // is not begun, all of it unexplored.
        return Distribution {
            outcomes: Vec::new(),
            unexplored: Prob::from_integer(1.into()),
            cut: false,
            stop: Some(Stop::Time),
            work: work(limits, "not begun".to_string(), Some(Stop::Time)),
            bad_answer: None,
        };
    }
    match limits.engine {
        EngineKind::Paths => {
            let mut cursor = vec![0u32; dec.script.len()];
            let w = paths::walk(limits, |dice| {
                let args = fresh_args(s, f);
                cursor.iter_mut().for_each(|c| *c = 0);
                let mut decide = engine::Cursor::new(&dec, &mut cursor);
                let mut env = Env::new(dice, &mut decide, NoTrace);
                let v = eval::call(p, &mut env, s.function, args);
                Keyed(engine::outcome_key(&v), v)
            });
            Distribution {
                outcomes: w.outcomes.into_iter().map(|(k, p)| (k.1, p)).collect(),
                unexplored: w.unexplored,
                cut: w.cut,
                stop: w.stop,
                work: work(limits, format!("{} paths", w.paths), w.stop),
                bad_answer: dec.bad.get().cloned(),
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
                max_words: limits.max_words(),
                max_steps: limits.max_steps,
                deadline: limits.deadline(),
                fast: true,
                columns: true,
                memo,
            };
            let o = engine::run(p, &plan, s.function, s.args.clone(), &dec, &opts);
            // Stopped, the figure is what the finished statements held, beside the
            // limit the next one passed.
            let between = if o.stop.is_some() {
                " between statements"
            } else {
                ""
            };
            let held = match o.peak_states.max(1) {
                1 => format!("at most 1 state{between}"),
                n => format!("at most {n} states{between}"),
            };
            Distribution {
                outcomes: o.outcomes,
                unexplored: o.unexplored,
                cut: o.cut,
                stop: o.stop,
                work: work(limits, held, o.stop),
                bad_answer: dec.bad.get().cloned(),
            }
        }
    }
}

/// The header's account of the work done (`done`: "at most 312 states", "45431
/// paths"), with the limit that stopped it, named: the figure before it is what was
/// held or walked, the one in it the limit.
pub fn work(limits: &Limits, done: String, stop: Option<Stop>) -> String {
    match stop {
        Some(stop) => format!("{done}; stopped by {}", stop.limit(limits)),
        None => done,
    }
}

/// How to show the odds (`--by`, `--best`, `--decide`), as given on the command line.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// Group the outcomes by this path (`level`, `tag`, `value`).
    pub by: Option<String>,
    /// Compare the answers to decisions by the chance of this goal.
    pub best: Option<String>,
    /// Analyze every answer to these decisions (with `--best` and none named: the
    /// decisions the scenario scripts, or if it scripts none, every decision the
    /// procedure reaches).
    pub decide: Vec<String>,
    /// Analyze every point of these sweeps (a Cartesian grid).
    pub sweeps: Vec<cases::Sweep>,
    /// Estimate from this many seeded random runs instead of the exact engine.
    pub samples: Option<u64>,
    /// The seed of the samples.
    pub seed: u64,
}

/// One distribution as a report: its outcomes (grouped by `by`), the chance of `goal`.
#[allow(clippy::too_many_arguments)]
pub fn report(
    p: &Program,
    function: usize,
    d: &Distribution,
    limits: &Limits,
    by: Option<&view::Path>,
    goal: Option<&goal::Goal>,
    scenario: String,
    case: Vec<(String, String)>,
) -> Report {
    let ret = &p.functions[function].ret;
    let groups = match by {
        Some(path) => view::group(p, ret, path, &d.outcomes),
        None => view::each(p, ret, &d.outcomes),
    };
    let goal = goal.map(|g| {
        d.outcomes
            .iter()
            .filter(|(o, _)| g.holds(p, ret, o))
            .fold(Prob::zero(), |a, (_, x)| a + x)
    });
    let mut r = finish(p, function, groups, by, limits, d, scenario, case);
    r.goal = goal;
    r
}

/// A report of groups (in order) from a distribution's other figures.
#[allow(clippy::too_many_arguments)]
pub fn finish(
    p: &Program,
    function: usize,
    groups: Vec<view::Group>,
    by: Option<&view::Path>,
    limits: &Limits,
    d: &Distribution,
    scenario: String,
    case: Vec<(String, String)>,
) -> Report {
    let ordered = by.is_some_and(|b| b.ordered(p));
    let stats = by
        .filter(|b| b.numeric())
        .and_then(|_| view::stats(&groups));
    let cumulative = if ordered {
        view::cumulative(&groups)
    } else {
        vec![(Prob::zero(), Prob::zero()); groups.len()]
    };
    let rows = groups
        .into_iter()
        .zip(cumulative)
        .map(|(g, (least, most))| report::Row {
            label: g.label,
            value: g.value,
            prob: g.prob,
            at_least: ordered.then_some(least),
            at_most: ordered.then_some(most),
            interval: None,
        })
        .collect();
    // What the unexplored mass is: dice cut off, and what the limit that stopped the
    // analysis left unreached, each named.
    let cut = match (limits.engine, limits.max_dice) {
        (EngineKind::Merged, None) => {
            format!("exploding dice past {} explosions", limits.explode_depth)
        }
        _ => format!("paths longer than {} dice", limits.walker_dice()),
    };
    let unexplored_why = match d.stop {
        Some(stop) if d.cut => format!("{cut}, and what {} left unreached", stop.limit(limits)),
        Some(stop) => format!("not reached before {}", stop.limit(limits)),
        None => cut,
    };
    Report {
        scenario,
        case,
        procedure: p.functions[function].name.clone(),
        by: by.map(|b| b.text.clone()),
        work: d.work.clone(),
        rows,
        ordered,
        unexplored: d.unexplored.clone(),
        unexplored_why,
        stats,
        goal: None,
        stop: d.stop,
        samples: None,
    }
}

/// `f` of each item, in order: in parallel when there are several, on this thread when
/// there is one (a thread of the pool costs an allocator arena, which a single large
/// analysis under a memory limit cannot spare).
pub fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    if items.len() <= 1 {
        items.iter().map(f).collect()
    } else {
        threads();
        items.par_iter().map(f).collect()
    }
}

/// The stack of each of rayon's threads. They run analyze's cases and samples and
/// simulate's fights, which clone, walk and drop the program by recursion, as deep as its
/// deepest expression ([`crate::check::MAX_DEPTH`] levels: some 10 MiB in a debug
/// build); rayon's own is 2 MiB, which a sweep of a 1,000-term sum overflowed. Each
/// thread's stack is address space taken: `compiler/tests/bounded` runs `rulesc` in
/// 512 MiB, beside the CLI worker's 256 MiB.
pub const THREAD_STACK: usize = 32 << 20;

/// Starts rayon's global pool with [`THREAD_STACK`]: called before each use of the pool.
/// A program using this library may have started the pool already; then its threads are
/// used as they are.
pub(crate) fn threads() {
    static START: std::sync::Once = std::sync::Once::new();
    START.call_once(|| {
        // The one error besides a pool already started is a thread that could not start,
        // which rayon's own start (at the first use) meets again and reports.
        let _ = rayon::ThreadPoolBuilder::new()
            .stack_size(THREAD_STACK)
            .build_global();
    });
}

/// One setting of a case: a sweep's value, or an answer to a decision.
#[derive(Debug, Clone, Copy)]
enum Setting {
    Sweep(usize, usize),
    Answer(usize, u32),
}

/// The reports of one scenario: one per point of the sweeps and combination of answers
/// (the points analyzed in parallel), and any warning.
pub fn reports(
    p: &Program,
    path: &Path,
    limits: &Limits,
    v: &View,
) -> Result<(Vec<Report>, Diagnostics, Sources), (Diagnostics, Sources)> {
    if crate::simulate::diff::is_fight_file(path) {
        // A fight file: the whole fight's exact odds.
        return fight::reports(p, path, limits, v);
    }
    let (s, mut sources) = scenario::read(p, path)?;
    if s.fight.is_some() {
        // The engine runs one procedure outside any fight; a fighter needs one.
        let d = Diagnostic::error(
            "E0512",
            s.at,
            "this scenario runs inside a fight: exact odds inside a fight are not available yet",
        )
        .label("this scenario")
        .help("run it with `rulesc trace` or `rulesc test` (its `result:` and `state:`); for rates, `rulesc simulate` a fight file");
        return Err((Diagnostics { items: vec![d] }, sources));
    }
    let scenario_file = sources.files.len().saturating_sub(1) as u32;
    let f = &p.functions[s.function];
    let mut diags = Diagnostics::default();
    let by = v.by.as_ref().and_then(|text| {
        let file = view::flag_source(&mut sources, "by", text);
        view::path(p, &f.ret, text, file)
            .map_err(|d| diags.push(d))
            .ok()
    });
    let goal = v.best.as_ref().and_then(|text| {
        let file = view::flag_source(&mut sources, "best", text);
        goal::parse(p, &f.ret, text, file)
            .map_err(|d| diags.push(d))
            .ok()
    });
    let mut decisions = Vec::new();
    if !v.decide.is_empty() || v.best.is_some() {
        let text = v.decide.join(" ");
        let file = view::flag_source(&mut sources, "decide", &text);
        // `--best` alone compares the answers to the decisions the scenario scripts.
        let names: Vec<String> = if v.decide.is_empty() {
            s.decisions.queues().map(|(n, _)| n.to_string()).collect()
        } else {
            v.decide.clone()
        };
        let given = !v.decide.is_empty();
        match cases::decisions(p, s.function, &names, given, Span::new(file, 0, text.len())) {
            Ok(d) => decisions = d,
            Err(d) => diags.push(d),
        }
    }
    if diags.has_errors() {
        return Err((diags, sources));
    }
    let mut axes: Vec<Vec<Setting>> = Vec::new();
    for (k, sw) in v.sweeps.iter().enumerate() {
        axes.push((0..sw.values.len()).map(|i| Setting::Sweep(k, i)).collect());
    }
    for (k, d) in decisions.iter().enumerate() {
        axes.push(
            (0..d.answers.len() as u32)
                .map(|a| Setting::Answer(k, a))
                .collect(),
        );
    }
    let Some(grid) = cases::grid(&axes) else {
        diags.push(
            Diagnostic::error(
                "E0510",
                Span::new(scenario_file, 0, 0),
                format!(
                    "the sweeps and decisions make more than {} cases",
                    cases::MAX_CASES
                ),
            )
            .label("this scenario")
            .help("sweep fewer values, or name fewer decisions with --decide"),
        );
        return Err((diags, sources));
    };
    let name = path.display().to_string();
    // What a case sets, and the decisions it fixes.
    let settings = |case: &[Setting]| {
        let mut fixed: Vec<(String, u32)> = Vec::new();
        let mut label = Vec::new();
        for &c in case {
            match c {
                Setting::Sweep(k, i) => {
                    let sw = &v.sweeps[k];
                    label.push((sw.path.clone(), cases::shown(&sw.values[i])));
                }
                Setting::Answer(k, a) => {
                    let d = &decisions[k];
                    fixed.push((d.name.clone(), a));
                    label.push((d.name.clone(), d.answers[a as usize].clone()));
                }
            }
        }
        (fixed, label)
    };
    // The scenario with a case's sweep values set (read afresh for each case: values
    // are not shared between threads).
    let read_case = |case: &[Setting]| {
        scenario::read_edited(p, path, |root, diags| {
            for &c in case {
                let Setting::Sweep(k, i) = c else { continue };
                let sw = &v.sweeps[k];
                if let Err(part) = cases::set(root, &sw.path, &sw.values[i]) {
                    diags.push(
                        Diagnostic::error(
                            "E0511",
                            root.span,
                            format!(
                                "`--sweep {}`: `{part}` is not a mapping in this scenario",
                                sw.path
                            ),
                        )
                        .label("this scenario")
                        .help("sweep a value under `args:` whose parents are mappings"),
                    );
                }
            }
        })
    };
    // Cases of one sweep share what fast segments gave (per thread).
    let memo = (grid.len() > 1).then(engine::memo_id);
    let run_case = |case: &Vec<Setting>| -> Result<Report, (Diagnostics, Sources)> {
        let (fixed, label) = settings(case);
        let (s, sources) = read_case(case)?;
        let Some(n) = v.samples else {
            let d = distribution_in(p, &s, limits, &fixed, memo);
            if let Some(b) = &d.bad_answer {
                return Err(bad_answer(&s, sources, b));
            }
            return Ok(report(
                p,
                s.function,
                &d,
                limits,
                by.as_ref(),
                goal.as_ref(),
                name.clone(),
                label,
            ));
        };
        let read = || read_case(case).ok().map(|(s, _)| s);
        sample::sample(
            p,
            s.function,
            read,
            &fixed,
            limits,
            by.as_ref(),
            n,
            v.seed,
            name.clone(),
            label,
        )
        .map_err(|bad| match bad {
            Some(b) => bad_answer(&s, sources, &b),
            None => (Diagnostics::default(), p.sources.clone()),
        })
    };
    let results: Vec<Result<Report, (Diagnostics, Sources)>> = in_parallel(&grid, run_case);
    if memo.is_some() {
        // The memo is per thread: every thread of the pool forgets it, and this one.
        rayon::broadcast(|_| engine::forget());
        engine::forget();
    }
    let mut reports = Vec::with_capacity(results.len());
    for r in results {
        reports.push(r?);
    }
    if let Some(stop) = reports.iter().find_map(|r| r.stop) {
        // How much of what was asked was done: the samples drawn, or the cases
        // analyzed in full (a case the limit reached is partly or wholly unexplored).
        let sampled = reports
            .iter()
            .filter_map(|r| r.samples)
            .fold(None, |a, (d, n)| {
                let (x, y) = a.unwrap_or((0, 0));
                Some((x + d, y + n))
            });
        let done = match sampled {
            Some((drawn, asked)) => Some(format!("{drawn} of {asked} samples drawn")),
            None if reports.len() > 1 => {
                let full = reports.iter().filter(|r| r.stop.is_none()).count();
                Some(format!(
                    "{full} of {} cases analyzed in full",
                    reports.len()
                ))
            }
            None => None,
        };
        diags.push(stop.diagnostic(limits, scenario_file, done));
    }
    Ok((reports, diags, sources))
}

/// The distribution of a scenario's results, as text, and any warning.
pub fn analyze(
    p: &Program,
    path: &Path,
    limits: &Limits,
) -> Result<(String, Diagnostics, Sources), (Diagnostics, Sources)> {
    let (reports, diags, sources) = reports(p, path, limits, &View::default())?;
    Ok((reports.iter().map(Report::text).collect(), diags, sources))
}
