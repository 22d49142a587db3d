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

mod frontier;
mod order;
mod views;

pub use views::{reports, svg, views};

use super::exact::Prob;
use super::paths::{self, Walker};
use super::state::{self, State};
use super::{Keyed, Limits, Stop};
use crate::eval::Value;
use crate::fight::EvalRules;
use crate::ir::{walk, Expr, ExprKind, FightQuery, Program};
use crate::simulate::{in_group, FightFile};
use frontier::{node_words, over_one, words, Frontier};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use order::{OrderOnly, Watch};
use rulesc_runtime::fight::Clock as ClockParts;
use rulesc_runtime::{
    Decide, DiceSource, Env, Fight, FightEnd, FightRules, Fighter, NoTrace, Policy, Step,
};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

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
    /// Of those, the states run on the fight engine: a state met again in a later round
    /// whose rules read no clock (`round()`, `time()`) plays on as it did, its clock
    /// shifted, and is not run again.
    pub stepped: u64,
    /// Whether states were merged on the ranks the turn order gives, for fields only it
    /// reads ([`order`]); false when the rules do not allow it, or a fighter came back.
    pub ranked: bool,
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

/// A fight's clock: its round, world time and each fighter's turns taken. What an
/// unclocked state ([`Fight::encode_engine_unclocked`]) leaves out, and a step moves on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Clock {
    round: u32,
    time: i64,
    turns: Vec<u32>,
}

impl Clock {
    fn of(f: &Fight<Value>) -> Clock {
        Clock {
            round: f.round(),
            time: f.time(),
            turns: f.fighters().map(|g| f.turns_taken(g)).collect(),
        }
    }

    /// How far `self` is from `from` (a step moves every part of the clock forward).
    fn since(&self, from: &Clock) -> Shift {
        Shift {
            round: self.round.wrapping_sub(from.round),
            time: self.time.wrapping_sub(from.time),
            turns: self
                .turns
                .iter()
                .zip(&from.turns)
                .map(|(a, b)| a.wrapping_sub(*b))
                .collect(),
        }
    }

    /// The clock `shift` later.
    fn after(&self, shift: &Shift) -> Clock {
        Clock {
            round: self.round.wrapping_add(shift.round),
            time: self.time.wrapping_add(shift.time),
            turns: self
                .turns
                .iter()
                .zip(&shift.turns)
                .map(|(a, b)| a.wrapping_add(*b))
                .collect(),
        }
    }
}

/// How far one step moves a fight's clock.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Shift {
    round: u32,
    time: i64,
    turns: Vec<u32>,
}

/// What one path of a step led to, as a state's successors are kept: a fight going on
/// (the distinct unclocked state and how far the step moved the clock), or an end.
#[derive(Debug, Clone)]
enum Next {
    Going(u32, Shift),
    Over(Over),
}

/// A fight over, its rounds counted from the state stepped.
#[derive(Debug, Clone)]
struct Over {
    end: FightEnd,
    /// Rounds played in the step (0 or 1).
    rounds: u32,
    /// Who is out at the end (`None` when a rule error stopped the fight).
    outs: Option<Vec<bool>>,
    /// The rule error that stopped it (`file:line: message`).
    error: Option<String>,
}

/// What one path of a step led to, as the walk gathers them.
enum Path {
    Going(Box<Fight<Value>>, Shift, u32),
    Over(Over),
}

/// One distinct unclocked state: a fight holding it (at whatever clock it was first
/// met), and once stepped what it leads to (a fight between rounds, once with the round
/// limit not reached and once reached).
struct Known {
    fight: Box<Fight<Value>>,
    clock: Clock,
    /// The second half of its point: `1 + acted`, or `MAX` between rounds.
    at: u32,
    between: bool,
    next: [Option<Stepped>; 2],
}

/// A state's step on every path of its dice: each successor with its chance, as a whole
/// number over the step's one denominator (the least common one), and the part of the
/// paths cut at `--max-dice`.
struct Stepped {
    next: Vec<(Next, BigUint)>,
    den: BigUint,
    cut: Option<Prob>,
}

/// The distinct unclocked states met so far, and what each leads to: a state recurring
/// in a later round (its clock shifted, its rules reading no clock) is stepped once.
#[derive(Default)]
struct Memo {
    ids: HashMap<Vec<u64>, u32>,
    known: Vec<Known>,
    /// Words held, estimated ([`words`]).
    words: u64,
    /// States stepped on the engine.
    stepped: u64,
}

impl Memo {
    /// The id of the unclocked state `key`, `fight` (with `at` and `clock`) kept for it
    /// when it is new.
    fn intern(&mut self, key: Vec<u64>, fight: Box<Fight<Value>>, at: u32) -> u32 {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.known.len() as u32;
        self.words += words(&key);
        // The encoding's first word is the phase; 1: between rounds.
        let between = key.first() == Some(&1);
        let clock = Clock::of(&fight);
        self.known.push(Known {
            fight,
            clock,
            at,
            between,
            next: [None, None],
        });
        self.ids.insert(key, id);
        id
    }
}

/// Which parts of the clock a fight's states are merged without: those the rules never
/// read (`round()`, `time()`; `on every` hooks read world time too). The turns taken are
/// read by nothing but timers set for turns, which the unclocked state holds relative to
/// them.
fn unclocked(p: &Program) -> ClockParts {
    let mut round = false;
    let mut time = false;
    fn scan(e: &Expr, round: &mut bool, time: &mut bool) {
        match e.kind {
            ExprKind::Fight(FightQuery::Round, _) => *round = true,
            ExprKind::Fight(FightQuery::Time, _) => *time = true,
            _ => {}
        }
        walk::for_each_child(e, &mut |x| scan(x, round, time));
    }
    for f in &p.functions {
        walk::for_each_body_expr(f, &mut |e| scan(e, &mut round, &mut time));
    }
    let every = p.fight.as_ref().is_some_and(|d| !d.every.is_empty());
    ClockParts {
        round: !round,
        time: !time && !every,
        turns: true,
    }
}

/// The encoding two fight states are merged on, less the parts of the clock `clock`
/// says (see [`unclocked`]).
fn encode(f: &Fight<Value>, clock: ClockParts) -> Vec<u64> {
    let mut out = Vec::with_capacity(64);
    f.encode_engine_unclocked(clock, &mut out);
    let mut seen = Vec::new();
    for c in &f.combatants {
        state::encode_value(c, &mut out, &mut seen);
    }
    out
}

/// The encoding a distinct state is kept by: [`encode`]'s, or with `order`, the fields
/// only the turn order reads left out and the fighters' ranks written instead
/// ([`order::encode_ranked`]; a state it does not take is encoded whole).
fn encode_kept(
    f: &mut Fight<Value>,
    clock: ClockParts,
    order: Option<&OrderOnly>,
    rules: &mut EvalRules,
) -> Vec<u64> {
    let Some(only) = order else {
        return encode(f, clock);
    };
    let mut out = Vec::with_capacity(64);
    f.encode_engine_unclocked(clock, &mut out);
    out.push(1);
    let mut env = Env::new(
        rulesc_runtime::PathDice::new(0),
        rulesc_runtime::FirstOption,
        NoTrace,
    );
    let at = out.len();
    if order::encode_ranked(only, rules, &mut env, f, &mut out).is_none() {
        out.truncate(at - 1);
        out.push(0);
        let mut seen = Vec::new();
        for c in &f.combatants {
            state::encode_value(c, &mut out, &mut seen);
        }
    }
    out
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

/// The `k` of point `(r, k)` a step leaves the fight at.
fn point(step: &Step, f: &Fight<Value>) -> u32 {
    match step {
        Step::Started | Step::RoundEnded(_) | Step::Ended(_) => u32::MAX,
        _ => {
            let acted = f.fighters().filter(|&g| f.acted(g)).count() as u32;
            acted.saturating_add(1)
        }
    }
}

/// The exact odds of fight `file` (read against `p`) within `limits`; `None` when the
/// program declares no fight.
pub fn odds(p: &Program, file: &FightFile, limits: &Limits) -> Option<FightOdds> {
    let order = order::order_only(p);
    match odds_with(p, file, limits, order.as_ref())? {
        Ok(odds) => Some(odds),
        // A fighter came back: fields only the turn order reads may be compared stale
        // with fresh ones, so their values count. Again, merged on the whole state.
        Err(Revived) => odds_with(p, file, limits, None)?.ok(),
    }
}

/// A fighter out came back into the fight (see [`order`]).
#[derive(Debug)]
struct Revived;

/// Why stepping a state stopped: a limit, or a fighter come back.
enum Halt {
    Stop(Stop),
    Revived,
}

/// [`odds`], merging states on the turn order's ranks for the fields `order` names.
fn odds_with(
    p: &Program,
    file: &FightFile,
    limits: &Limits,
    order: Option<&OrderOnly>,
) -> Option<Result<FightOdds, Revived>> {
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
        stepped: 0,
        ranked: order.is_some(),
        peak: 1,
    };
    let clock = unclocked(p);
    let mut memo = Memo::default();
    let mut frontier = Frontier::default();
    let mut start = file.fight();
    let at_start = Clock::of(&start);
    let key = encode_kept(&mut start, clock, order, &mut rules);
    let id = memo.intern(key, Box::new(start), 0);
    frontier.add(id, at_start, 0, BigUint::one(), &BigUint::one());
    let stepping = Stepping {
        p,
        file,
        limits,
        clock,
        order,
    };
    while let Some((_, layer)) = frontier.at.pop_first() {
        frontier.states -= layer.nodes.len() as u64;
        frontier.words -= layer.nodes.keys().map(|(_, c)| node_words(c)).sum::<u64>();
        odds.states += layer.nodes.len() as u64;
        let den = layer.den;
        // The ends this point's states reach, gathered as whole numbers and counted once
        // the point is done.
        let mut ends = Ends::default();
        let mut nodes = layer.nodes.into_iter();
        for ((id, at), num) in nodes.by_ref() {
            let stop = if limits.out_of_time() {
                odds.unexplored += Prob::new(num.into(), den.clone().into());
                Some(Stop::Time)
            } else {
                let node = Node {
                    id,
                    at,
                    num,
                    den: &den,
                };
                let run = stepping.run(
                    &mut rules,
                    &mut memo,
                    node,
                    &mut frontier,
                    &mut ends,
                    &mut odds,
                );
                match run {
                    Ok(()) => None,
                    Err(Halt::Stop(stop)) => Some(stop),
                    Err(Halt::Revived) => return Some(Err(Revived)),
                }
            };
            let words = frontier.words.saturating_add(memo.words);
            let stop = stop.or(if frontier.states > limits.max_states {
                Some(Stop::States)
            } else if words > limits.max_words() {
                Some(Stop::Memory)
            } else {
                None
            });
            odds.peak = odds.peak.max(frontier.states);
            if let Some(stop) = stop {
                // What was not stepped yet is unexplored: the rest of this point and
                // every later one.
                ends.count(&stepping, &memo, &den, &mut odds);
                odds.stop = Some(stop);
                let rest = nodes.fold(BigUint::zero(), |a, (_, n)| a + n);
                odds.unexplored += Prob::new(rest.into(), den.clone().into()) + frontier.mass();
                odds.stepped = memo.stepped;
                return Some(Ok(odds));
            }
        }
        ends.count(&stepping, &memo, &den, &mut odds);
    }
    odds.stepped = memo.stepped;
    Some(Ok(odds))
}

/// A state of the frontier being stepped: its chance is `num / den`.
struct Node<'d> {
    id: u32,
    at: Clock,
    num: BigUint,
    den: &'d BigUint,
}

/// The ends one point's states reach: by the state, its step (limit or not), the end
/// among its successors and the rounds played, the numerators over the point's
/// denominator times the step's.
#[derive(Default)]
struct Ends {
    by: HashMap<(u32, usize, usize, u32), BigUint>,
}

impl Ends {
    /// Counts them, each once.
    fn count(self, stepping: &Stepping, memo: &Memo, den: &BigUint, odds: &mut FightOdds) {
        let mut by: Vec<_> = self.by.into_iter().collect();
        // In the order the run met them (an error's first place in `odds.errors`).
        by.sort_unstable_by_key(|(k, _)| *k);
        for ((id, limit, i, rounds), num) in by {
            let Some(stepped) = &memo.known[id as usize].next[limit] else {
                unreachable!("an end is gathered from a state stepped")
            };
            let Next::Over(e) = &stepped.next[i].0 else {
                unreachable!("an end is gathered from an end")
            };
            let weight = Prob::new(num.into(), (den * &stepped.den).into());
            count(stepping.file, odds, e, rounds, weight);
        }
    }
}

/// What stepping a state needs of the run.
struct Stepping<'a> {
    p: &'a Program,
    file: &'a FightFile,
    limits: &'a Limits,
    clock: ClockParts,
    order: Option<&'a OrderOnly>,
}

impl Stepping<'_> {
    /// Steps state `id` at clock `at` (chance `weight`) one engine step on every path of
    /// its dice, once for every clock it is met at: fights going on join the frontier,
    /// fights over are counted. `Err` when a limit of the walk stopped it (the state's
    /// whole weight is then unexplored, added here), or a fighter came back.
    fn run(
        &self,
        rules: &mut EvalRules,
        memo: &mut Memo,
        node: Node,
        frontier: &mut Frontier,
        ends: &mut Ends,
        odds: &mut FightOdds,
    ) -> Result<(), Halt> {
        let Node { id, at, num, den } = node;
        let known = &memo.known[id as usize];
        // Between rounds, whether the round limit is reached is the clock's: the state
        // is stepped once each way.
        let limit = usize::from(known.between && at.round >= self.file.rounds);
        if known.next[limit].is_none() {
            match self.step(rules, memo, id, limit == 1) {
                Ok(stepped) => memo.known[id as usize].next[limit] = Some(stepped),
                Err(Halt::Stop(stop)) => {
                    odds.unexplored += Prob::new(num.into(), den.clone().into());
                    return Err(Halt::Stop(stop));
                }
                Err(revived) => return Err(revived),
            }
        }
        let Some(stepped) = &memo.known[id as usize].next[limit] else {
            unreachable!("state {id} was stepped just above")
        };
        if let Some(cut) = &stepped.cut {
            odds.cut = true;
            odds.unexplored += Prob::new(num.clone().into(), den.clone().into()) * cut;
        }
        let to_den = den * &stepped.den;
        for (i, (next, n)) in stepped.next.iter().enumerate() {
            let w = &num * n;
            match next {
                Next::Going(to, shift) => {
                    let k = memo.known[*to as usize].at;
                    frontier.add(*to, at.after(shift), k, w, &to_den);
                }
                Next::Over(e) => {
                    let rounds = at.round.wrapping_add(e.rounds);
                    *ends.by.entry((id, limit, i, rounds)).or_default() += w;
                }
            }
        }
        Ok(())
    }

    /// Steps the fight kept for state `id` on every path of its dice (`limit`: the round
    /// limit reached, when it stands between rounds), its successors interned.
    fn step(
        &self,
        rules: &mut EvalRules,
        memo: &mut Memo,
        id: u32,
        limit: bool,
    ) -> Result<Stepped, Halt> {
        let limits = self.limits;
        // The fights one step leads to are held until the step is done, at most one a
        // path: its paths are bounded by `--max-states` too, so a step rolling many dice
        // for many fighters stops at the limit rather than fill memory.
        let by_states = limits.max_states < limits.max_paths;
        let step_limits = Limits {
            max_paths: limits.max_paths.min(limits.max_states),
            ..limits.clone()
        };
        let known = &memo.known[id as usize];
        let (from, clock) = (&known.fight, &known.clock);
        let revived = Cell::new(false);
        let walk = paths::walk(&step_limits, |dice| {
            let dice = RefCell::new(dice);
            let decide = Answers {
                policy: &self.file.policy,
                dice: &dice,
            };
            let mut env = Env::new(PathDice(&dice), decide, NoTrace);
            let mut fight = copy(from);
            let mut watch = Watch {
                rules: &mut *rules,
                out: vec![false; fight.len()],
                revived: false,
            };
            if self.order.is_some() {
                // Who is out before the step: one coming back is watched for from here.
                for f in 0..fight.len() as u32 {
                    let _ = watch.is_out(&mut env, &mut fight, Fighter(f));
                }
            }
            // Each step has the fight's budget of steps to itself: a path's steps so far
            // are not part of the state.
            crate::fight::FIGHT_STEPS.set(0);
            let step = if limit {
                // Past the limit: the fight ends undecided.
                fight.step_within(&mut watch, &mut env, 0)
            } else {
                fight.step(&mut watch, &mut env)
            };
            let shift = Clock::of(&fight).since(clock);
            let Step::Ended(end) = step else {
                if watch.revived {
                    revived.set(true);
                }
                let k = point(&step, &fight);
                let mut key = vec![0, u64::from(shift.round), shift.time as u64];
                key.extend(shift.turns.iter().map(|&t| u64::from(t)));
                key.extend(encode(&fight, self.clock));
                return Keyed(key, Path::Going(Box::new(fight), shift, k));
            };
            let error = crate::simulate::error_text(self.p, &fight);
            // Who is out at the end; a fight a rule error stopped is in no group.
            let outs: Option<Vec<bool>> = (0..fight.len() as u32)
                .map(|f| watch.rules.is_out(&mut env, &mut fight, Fighter(f)).ok())
                .collect();
            let outs = outs.filter(|_| end != FightEnd::RuleError);
            let (code, side) = match end {
                FightEnd::Won(s) => (0, u64::from(s.0)),
                FightEnd::Draw => (1, 0),
                FightEnd::Undecided => (2, 0),
                FightEnd::RuleError => (3, 0),
            };
            let mut key = vec![u64::MAX, code, side, u64::from(shift.round)];
            key.extend(outs.iter().flatten().map(|&o| u64::from(o)));
            if let Some(e) = &error {
                key.extend(e.bytes().map(u64::from));
            }
            let over = Over {
                end,
                rounds: shift.round,
                outs,
                error,
            };
            Keyed(key, Path::Over(over))
        });
        if self.order.is_some() && revived.get() {
            return Err(Halt::Revived);
        }
        if let Some(stop) = walk.stop {
            return Err(Halt::Stop(match stop {
                Stop::Paths if by_states => Stop::States,
                other => other,
            }));
        }
        memo.stepped += 1;
        let cut = walk.cut.then_some(walk.unexplored);
        let probs: Vec<Prob> = walk.outcomes.iter().map(|(_, p)| p.clone()).collect();
        let (nums, den) = over_one(&probs);
        let mut next = Vec::with_capacity(walk.outcomes.len());
        for ((Keyed(_, path), _), n) in walk.outcomes.into_iter().zip(nums) {
            next.push(match path {
                Path::Going(mut fight, shift, k) => {
                    let key = encode_kept(&mut fight, self.clock, self.order, rules);
                    (Next::Going(memo.intern(key, fight, k), shift), n)
                }
                Path::Over(over) => (Next::Over(over), n),
            });
        }
        Ok(Stepped { next, den, cut })
    }
}

/// Counts a fight over with chance `weight`, after `rounds` rounds.
fn count(file: &FightFile, odds: &mut FightOdds, e: &Over, rounds: u32, weight: Prob) {
    if let Some(r) = odds.rounds.get_mut(rounds as usize) {
        *r += &weight;
    }
    if let Some(outs) = &e.outs {
        // A group names fighters of the fight file, each one of the fight's.
        let out = |f: u32| outs[f as usize];
        let out = &out;
        for (g, p) in file.groups.iter().zip(odds.groups.iter_mut()) {
            if in_group(g, e.end, rounds, out) {
                *p += &weight;
            }
        }
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
            let what = e.error.clone().unwrap_or_default();
            match odds.errors.iter_mut().find(|(w, _)| *w == what) {
                Some((_, p)) => *p += weight,
                None => odds.errors.push((what, weight)),
            }
        }
    }
}
