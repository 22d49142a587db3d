//! `rulesc analyze <ruleset> <fight.yaml>`: a whole fight's exact odds.
//!
//! No evaluator of its own: the fight is played by the runtime's fight engine with the
//! interpreter's rules ([`EvalRules`]), as `simulate` plays it, one engine step at a time
//! ([`Fight::step_within`]: the start, a round's start, a turn or a group acting
//! together, a round's end). What differs is the dice: each step is run again on every
//! path of its dice ([`paths::walk`], the runtime's `PathDice` odometer), and each path
//! carries its exact probability.
//!
//! A fight state is the engine's fight between two steps: what the engine holds
//! ([`Fight::encode_engine`]) and every combatant's value ([`state::encode_value`], the
//! encoding the merged engine merges program states on). States with equal encodings play
//! on alike, so they are merged and their weights add. States are stepped in the order of
//! the fight's progress (round, then turns taken in it, then the round's end): every
//! state reaching a point of the fight is merged before any is stepped from it, whatever
//! the path (a tie acting at once reaches the round's end in one turn step fewer).
//!
//! Decisions are answered as the fight file's `decisions:` say; one answered `random` is
//! a branch over its options, each equally likely, walked like a die
//! ([`rulesc_runtime::Policy::answer_with`]).
//!
//! The work is bounded by analyze's [`Limits`]: the states held at once (`--max-states`)
//! and their memory (`--max-memory`), the time of the whole run (`--max-seconds`), and
//! within one step the dice per path (`--max-dice`), paths (`--max-paths`) and steps
//! (`--max-steps`). What a limit leaves unreached is reported unexplored, never dropped:
//! the ends and the unexplored mass always add up to exactly one.

use super::exact::{to_f64, Prob};
use super::paths::{self, Walker};
use super::report::{Report, Row};
use super::state::{self, State};
use super::view::{self, Group};
use super::{Keyed, Limits, Stop};
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::Value;
use crate::fight::EvalRules;
use crate::ir::Program;
use crate::simulate::{in_group, FightFile};
use crate::source::{Sources, Span};
use num_traits::{One, Zero};
use rulesc_runtime::{
    Decide, DiceSource, Env, Fight, FightEnd, FightRules, Fighter, NoTrace, Policy, Step,
};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// A fight's exact odds.
#[derive(Debug, Clone)]
pub struct FightOdds {
    /// Each side's chance to win, in side order.
    pub wins: Vec<Prob>,
    pub draw: Prob,
    /// Still going after the round limit.
    pub undecided: Prob,
    /// Fights a rule error stopped, by where and what (`file:line: message`), in the
    /// order first met.
    pub errors: Vec<(String, Prob)>,
    /// `rounds[r]`: the chance the fight lasted `r` rounds (an undecided fight lasted the
    /// limit), for `r` in `0..=limit`, as `simulate` counts them.
    pub rounds: Vec<Prob>,
    /// The chance of each of the file's report groups.
    pub groups: Vec<Prob>,
    /// What was cut (paths past `--max-dice`) or not reached before a limit stopped the
    /// run.
    pub unexplored: Prob,
    /// Whether some of the unexplored mass is paths cut at `--max-dice`.
    pub cut: bool,
    pub stop: Option<Stop>,
    /// Distinct states stepped from, over the whole run (each counted once at each
    /// point of the fight it was reached at), the start included.
    pub states: u64,
    /// Most states held at once.
    pub peak: u64,
}

impl FightOdds {
    /// Every end's chance plus the unexplored mass: exactly one.
    pub fn total(&self) -> Prob {
        let ends = self.wins.iter().chain([&self.draw, &self.undecided]);
        let errors = self.errors.iter().map(|(_, p)| p);
        ends.chain(errors)
            .fold(self.unexplored.clone(), |acc, p| acc + p)
    }
}

/// Where a fight state stands, in the order the fight moves through them: before the
/// start `(0, 0)`; in round `r` with `k` fighters having acted, `(r, 1 + k)`; after
/// round `r` (or the start, round 0), `(r, MAX)`. Every engine step moves a fight to a
/// later point.
type Point = (u32, u32);

/// One state of the fight with the chance of reaching it.
struct Node {
    fight: Box<Fight<Value>>,
    weight: Prob,
}

/// How one path of a step ended: a fight state to step from, or an end.
enum Next {
    Going(Box<Fight<Value>>, Point),
    Over(End),
}

/// A fight over, as the odds count it.
struct End {
    end: FightEnd,
    rounds: u32,
    /// Which report groups it is in.
    groups: Vec<bool>,
    /// The rule error that stopped it (`file:line: message`).
    error: Option<String>,
}

/// The dice of one path: the walker, shared with the decisions answered at random.
struct PathDice<'a, 'w>(&'a RefCell<&'w mut Walker>);

impl DiceSource for PathDice<'_, '_> {
    fn face(&mut self, sides: u32) -> u32 {
        self.0.borrow_mut().face(sides)
    }

    fn stopped(&self) -> bool {
        self.0.borrow().stopped()
    }
}

/// The fight file's decisions, a `random` answer drawn from the path's dice (a branch
/// over the options, each as likely).
struct Answers<'a, 'w> {
    policy: &'a Policy,
    dice: &'a RefCell<&'w mut Walker>,
}

impl Answers<'_, '_> {
    fn answer(&self, name: &str, options: u32, label: Option<&dyn Fn(u32) -> String>) -> u32 {
        let dice = self.dice;
        let mut random = |n: u32| dice.borrow_mut().face(n).saturating_sub(1);
        self.policy.answer_with(name, options, label, &mut random)
    }
}

impl Decide for Answers<'_, '_> {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        self.answer(name, options, None)
    }

    fn wants_labels(&self, name: &str) -> bool {
        self.policy.wants_labels(name)
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        self.answer(name, options, Some(label))
    }
}

/// The encoding two fight states are merged on.
fn encode(f: &Fight<Value>) -> Vec<u64> {
    let mut out = Vec::with_capacity(64);
    f.encode_engine(&mut out);
    let mut seen = Vec::new();
    for c in &f.combatants {
        state::encode_value(c, &mut out, &mut seen);
    }
    out
}

/// A copy of the fight whose combatants share no record with `f`'s (a record two
/// combatants share stays shared between the copies).
fn copy(f: &Fight<Value>) -> Fight<Value> {
    let mut c = f.clone();
    let held = State {
        frames: vec![std::mem::take(&mut c.combatants)],
        ..State::default()
    };
    c.combatants =
        held.unshared().frames.pop().unwrap_or_else(|| {
            unreachable!("`State::unshared` gives back the one frame it was given")
        });
    c
}

/// The point a step leaves the fight at.
fn point(step: &Step, f: &Fight<Value>) -> Point {
    match step {
        Step::Started | Step::RoundEnded(_) | Step::Ended(_) => (f.round(), u32::MAX),
        _ => {
            let acted = f.fighters().filter(|&g| f.acted(g)).count() as u32;
            (f.round(), acted.saturating_add(1))
        }
    }
}

/// The frontier: the states not yet stepped, by the point they stand at.
#[derive(Default)]
struct Frontier {
    at: BTreeMap<Point, HashMap<Vec<u64>, Node>>,
    states: u64,
    /// The words the states held take, estimated ([`words`]).
    words: u64,
}

/// The memory one fight state takes, in words of [`super::state::BYTES_PER_WORD`]
/// bytes (which already allow for a value beside each word of its encoding), estimated
/// from its encoding's length, plus 40 words (960 bytes) for the engine's fight and its
/// lists.
fn words(key: &[u64]) -> u64 {
    (key.len() as u64).saturating_add(40)
}

impl Frontier {
    fn add(&mut self, key: Vec<u64>, fight: Box<Fight<Value>>, at: Point, weight: Prob) {
        let layer = self.at.entry(at).or_default();
        let words = words(&key);
        match layer.entry(key) {
            std::collections::hash_map::Entry::Occupied(mut o) => o.get_mut().weight += weight,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(Node { fight, weight });
                self.states += 1;
                self.words += words;
            }
        }
    }

    /// The mass of every state held.
    fn mass(&self) -> Prob {
        self.at
            .values()
            .flat_map(|l| l.values())
            .fold(Prob::zero(), |a, n| a + &n.weight)
    }
}

/// The exact odds of fight `file` (read against `p`) within `limits`; `None` when the
/// program declares no fight.
pub fn odds(p: &Program, file: &FightFile, limits: &Limits) -> Option<FightOdds> {
    let mut rules = EvalRules::new(p)?;
    let mut odds = FightOdds {
        wins: vec![Prob::zero(); file.sides.len()],
        draw: Prob::zero(),
        undecided: Prob::zero(),
        errors: Vec::new(),
        rounds: vec![Prob::zero(); file.rounds as usize + 1],
        groups: vec![Prob::zero(); file.groups.len()],
        unexplored: Prob::zero(),
        cut: false,
        stop: None,
        states: 0,
        peak: 1,
    };
    let mut frontier = Frontier::default();
    let start = file.fight();
    frontier.add(encode(&start), Box::new(start), (0, 0), Prob::one());
    while let Some((_, layer)) = frontier.at.pop_first() {
        frontier.states -= layer.len() as u64;
        frontier.words -= layer.keys().map(|k| words(k)).sum::<u64>();
        odds.states += layer.len() as u64;
        let mut nodes = layer.into_values();
        for node in nodes.by_ref() {
            let stop = if limits.out_of_time() {
                Some(Stop::Time)
            } else {
                step(p, file, limits, &mut rules, node, &mut frontier, &mut odds).err()
            };
            let stop = stop.or(if frontier.states > limits.max_states {
                Some(Stop::States)
            } else if frontier.words > limits.max_words() {
                Some(Stop::Memory)
            } else {
                None
            });
            odds.peak = odds.peak.max(frontier.states);
            if let Some(stop) = stop {
                // What was not stepped yet is unexplored: the rest of this point and
                // every later one.
                odds.stop = Some(stop);
                let rest = nodes.fold(frontier.mass(), |a, n| a + n.weight);
                odds.unexplored += rest;
                return Some(odds);
            }
        }
    }
    Some(odds)
}

/// Steps `node` one engine step on every path of its dice: fights going on join the
/// frontier, fights over are counted. `Err` when a limit of the walk stopped it (the
/// node's whole weight is then unexplored, added here).
fn step(
    p: &Program,
    file: &FightFile,
    limits: &Limits,
    rules: &mut EvalRules,
    node: Node,
    frontier: &mut Frontier,
    odds: &mut FightOdds,
) -> Result<(), Stop> {
    // The fights one step leads to are held until the step is done, at most one a path:
    // its paths are bounded by `--max-states` too, so a step rolling many dice for many
    // fighters stops at the limit rather than fill memory.
    let by_states = limits.max_states < limits.max_paths;
    let step_limits = Limits {
        max_paths: limits.max_paths.min(limits.max_states),
        ..limits.clone()
    };
    let walk = paths::walk(&step_limits, |dice| {
        // Each step has the fight's budget of steps to itself: a path's steps so far are
        // not part of the state.
        crate::fight::FIGHT_STEPS.set(0);
        let dice = RefCell::new(dice);
        let decide = Answers {
            policy: &file.policy,
            dice: &dice,
        };
        let mut env = Env::new(PathDice(&dice), decide, NoTrace);
        let mut fight = copy(&node.fight);
        let step = fight.step_within(rules, &mut env, file.rounds);
        let Step::Ended(end) = step else {
            let at = point(&step, &fight);
            return Keyed(encode(&fight), Next::Going(Box::new(fight), at));
        };
        let rounds = fight.round();
        let error = crate::simulate::error_text(p, &fight);
        // Who is out at the end; a fight a rule error stopped is in no group.
        let outs: Option<Vec<bool>> = (0..fight.len() as u32)
            .map(|f| rules.is_out(&mut env, &mut fight, Fighter(f)).ok())
            .collect();
        let groups: Vec<bool> = match &outs {
            Some(outs) if end != FightEnd::RuleError => {
                // A group names fighters of the fight file, each one of the fight's.
                let out = |f: u32| outs[f as usize];
                let out = &out;
                file.groups
                    .iter()
                    .map(|g| in_group(g, end, rounds, out))
                    .collect()
            }
            _ => vec![false; file.groups.len()],
        };
        let (code, side) = match end {
            FightEnd::Won(s) => (0, u64::from(s.0)),
            FightEnd::Draw => (1, 0),
            FightEnd::Undecided => (2, 0),
            FightEnd::RuleError => (3, 0),
        };
        let mut key = vec![u64::MAX, code, side, u64::from(rounds)];
        key.extend(groups.iter().map(|&g| u64::from(g)));
        if let Some(e) = &error {
            key.extend(e.bytes().map(u64::from));
        }
        Keyed(
            key,
            Next::Over(End {
                end,
                rounds,
                groups,
                error,
            }),
        )
    });
    if let Some(stop) = walk.stop {
        odds.unexplored += node.weight;
        return Err(match stop {
            Stop::Paths if by_states => Stop::States,
            other => other,
        });
    }
    if walk.cut {
        odds.cut = true;
        odds.unexplored += &node.weight * &walk.unexplored;
    }
    for (Keyed(key, next), prob) in walk.outcomes {
        let weight = &node.weight * prob;
        match next {
            Next::Going(fight, at) => frontier.add(key, fight, at, weight),
            Next::Over(e) => count(odds, e, weight),
        }
    }
    Ok(())
}

/// Counts a fight over with chance `weight`.
fn count(odds: &mut FightOdds, e: End, weight: Prob) {
    if let Some(r) = odds.rounds.get_mut(e.rounds as usize) {
        *r += &weight;
    }
    for (g, _) in odds.groups.iter_mut().zip(&e.groups).filter(|(_, &i)| i) {
        *g += &weight;
    }
    match e.end {
        FightEnd::Won(s) => {
            if let Some(w) = odds.wins.get_mut(s.index()) {
                *w += weight;
            }
        }
        FightEnd::Draw => odds.draw += weight,
        FightEnd::Undecided => odds.undecided += weight,
        FightEnd::RuleError => {
            let what = e.error.unwrap_or_default();
            match odds.errors.iter_mut().find(|(w, _)| *w == what) {
                Some((_, p)) => *p += weight,
                None => odds.errors.push((what, weight)),
            }
        }
    }
}

/// `rulesc analyze <ruleset> <fight.yaml>`: the fight file's exact odds as reports, as
/// a scenario's are shown: how the fights end (each side's win, the draw, undecided, rule
/// errors), the rounds they last (`by rounds`, with at-least and at-most columns and the
/// mean), and the file's report groups (`by report`, when it names any); the warning of
/// the limit that stopped the run, if one did.
pub fn reports(
    p: &Program,
    path: &std::path::Path,
    limits: &Limits,
    v: &super::View,
) -> Result<(Vec<Report>, Diagnostics, Sources), (Diagnostics, Sources)> {
    let (file, sources) = crate::simulate::read(p, path)?;
    let at = sources.files.len().saturating_sub(1) as u32;
    // The views of a scenario's results do not shape a fight's odds.
    let shaped = [
        ("--by", v.by.is_some()),
        ("--best", v.best.is_some()),
        ("--decide", !v.decide.is_empty()),
        ("--sweep", !v.sweeps.is_empty()),
        ("--samples", v.samples.is_some()),
    ];
    if let Some((flag, _)) = shaped.iter().find(|(_, given)| *given) {
        let d = Diagnostic::error(
            "E0514",
            Span::new(at, 0, 0),
            format!("`{flag}` shapes a scenario's odds, and this is a fight file"),
        )
        .label("this fight file")
        .help("a fight's exact odds are its ends, the rounds it lasts and its report groups, all shown without it: drop the flag");
        return Err((Diagnostics { items: vec![d] }, sources));
    }
    let Some(odds) = odds(p, &file, limits) else {
        // `simulate::read` refuses a fight file of a ruleset that declares no fight.
        return Ok((Vec::new(), Diagnostics::default(), sources));
    };
    let mut diags = Diagnostics::default();
    if let Some(stop) = odds.stop {
        let done = format!(
            "{} states stepped, {:.4}% of the fights unexplored",
            odds.states,
            to_f64(&odds.unexplored) * 100.0
        );
        // Analyze's warning, said of a fight: what to raise, and how to shape the fight
        // to fit.
        let help = match stop {
            Stop::Time => "the odds shown are exact for the part reached; raise --max-seconds",
            Stop::Paths => "the odds shown are exact for the part reached; raise --max-paths, or lower --max-dice",
            Stop::Steps => "the odds shown are exact for the part reached; raise --max-steps",
            Stop::Memory => "the odds shown are exact for the part reached; raise --max-memory",
            Stop::States | Stop::Totals => "the odds shown are exact for the part reached; raise --max-states",
        };
        let shape = "to fit, keep fewer distinct states: reset at the round's end a field the rules roll again (an initiative), keep conditions as flags, keep the round limit no higher than the fights need";
        let mut d = stop
            .diagnostic(limits, at, Some(done))
            .label("this fight file");
        d.help = Some(format!("{help}; {shape}"));
        diags.push(d);
    }
    Ok((
        views(&file, &odds, limits, path.display().to_string()),
        diags,
        sources,
    ))
}

/// The odds as reports (see [`reports`]); `scenario` names the fight file.
pub fn views(file: &FightFile, odds: &FightOdds, limits: &Limits, scenario: String) -> Vec<Report> {
    let work = format!("{} states, at most {} at once", odds.states, odds.peak);
    let work = super::work(limits, work, odds.stop);
    let why = match odds.stop {
        Some(stop) if odds.cut => format!(
            "paths longer than {} dice, and what {} left unreached",
            limits.walker_dice(),
            stop.limit(limits)
        ),
        Some(stop) => format!("not reached before {}", stop.limit(limits)),
        None => format!("paths longer than {} dice", limits.walker_dice()),
    };
    let row = |label: String, value: serde_json::Value, prob: &Prob| Row {
        label,
        value,
        prob: prob.clone(),
        at_least: None,
        at_most: None,
        interval: None,
    };
    let report = |by: Option<&str>, rows: Vec<Row>| Report {
        scenario: scenario.clone(),
        case: Vec::new(),
        procedure: file.title.clone(),
        by: by.map(str::to_string),
        work: work.clone(),
        rows,
        ordered: false,
        unexplored: odds.unexplored.clone(),
        unexplored_why: why.clone(),
        stats: None,
        goal: None,
        stop: odds.stop,
        samples: None,
    };
    let mut ends: Vec<Row> = file
        .sides
        .iter()
        .zip(&odds.wins)
        .map(|((side, _), p)| {
            let value = serde_json::json!({ "end": "won", "winner": side });
            row(format!("{side} wins"), value, p)
        })
        .collect();
    ends.push(row(
        "a draw".into(),
        serde_json::json!({ "end": "draw" }),
        &odds.draw,
    ));
    let undecided = serde_json::json!({ "end": "undecided" });
    ends.push(row("undecided".into(), undecided, &odds.undecided));
    for (error, p) in &odds.errors {
        let value = serde_json::json!({ "end": "rule_error", "error": error });
        ends.push(row(format!("stopped by a rule error at {error}"), value, p));
    }
    // The rounds from the fewest any fight lasted to the most.
    let lasted = |r: &(usize, &Prob)| !r.1.is_zero();
    let first = odds.rounds.iter().enumerate().position(|r| lasted(&r));
    let last = odds.rounds.iter().enumerate().rposition(|r| lasted(&r));
    let groups: Vec<Group> = match (first, last) {
        (Some(a), Some(b)) => (a..=b)
            .map(|r| Group::number(r as i64, odds.rounds[r].clone()))
            .collect(),
        _ => Vec::new(),
    };
    let stats = view::stats(&groups);
    let rows = groups
        .iter()
        .zip(view::cumulative(&groups))
        .map(|(g, (least, most))| Row {
            at_least: Some(least),
            at_most: Some(most),
            ..row(g.label.clone(), g.value.clone(), &g.prob)
        })
        .collect();
    let mut out = vec![
        report(None, ends),
        Report {
            ordered: true,
            stats,
            ..report(Some("rounds"), rows)
        },
    ];
    if !file.groups.is_empty() {
        let rows = file
            .groups
            .iter()
            .zip(&odds.groups)
            .map(|(g, p)| row(g.name.clone(), serde_json::Value::from(g.name.clone()), p))
            .collect();
        out.push(report(Some("report"), rows));
    }
    out
}

/// The reports of one fight file ([`views`]) as one chart (`--svg`): how the fights end
/// (with the unexplored part, when there is one), then the rounds they last, each bar an
/// exact chance; the panels of `simulate --svg`, without intervals.
pub fn svg(reports: &[Report]) -> Option<String> {
    use super::svg::{chart, Panel, Series};
    let [ends, rounds, ..] = reports else {
        return None;
    };
    let panel = |r: &Report| {
        let mut labels: Vec<String> = r.rows.iter().map(|row| row.label.clone()).collect();
        let mut values: Vec<f64> = r.rows.iter().map(|row| to_f64(&row.prob)).collect();
        if !r.unexplored.is_zero() {
            labels.push("(unexplored)".into());
            values.push(to_f64(&r.unexplored));
        }
        let series = Series {
            name: r.procedure.clone(),
            values,
            intervals: Vec::new(),
        };
        (labels, [series])
    };
    let (end_labels, end_series) = panel(ends);
    let (mut round_labels, mut round_series) = panel(rounds);
    // Past 40 numbers of rounds, a bar per span of them (`11-15`), as `simulate` draws.
    let n = rounds.rows.len();
    if n > 40 {
        let span = n.div_ceil(40);
        let values = &round_series[0].values;
        let spans: Vec<(String, f64)> = rounds
            .rows
            .chunks(span)
            .zip(values.chunks(span))
            .map(|(rows, v)| {
                let (a, b) = (&rows[0].label, &rows[rows.len() - 1].label);
                (format!("{a}-{b}"), v.iter().sum())
            })
            .collect();
        let unexplored = values.get(n).copied();
        round_labels = spans.iter().map(|(l, _)| l.clone()).collect();
        round_series[0].values = spans.iter().map(|(_, v)| *v).collect();
        if let Some(u) = unexplored {
            round_labels.push("(unexplored)".into());
            round_series[0].values.push(u);
        }
    }
    let title = format!("{}: exact odds", ends.procedure);
    Some(chart(&[
        Panel {
            title: &title,
            labels: &end_labels,
            series: &end_series,
        },
        Panel {
            title: "rounds played",
            labels: &round_labels,
            series: &round_series,
        },
    ]))
}
