//! The merged-state engine: a procedure evaluated over distributions of program states.
//!
//! The engine walks a procedure statement by statement with a [`Dist`] of states. After
//! each statement, branches that reached the same state are merged (their weights add),
//! and locals that nothing reads any more are cleared first, so they do not keep equal
//! branches apart. The cost grows with the number of distinct states, not with the
//! number of dice paths.
//!
//! Straight-line statements on plain locals (ints, rolls, levels) form fast segments
//! ([`super::fast`], `segment.rs`): the engine runs them itself along every roll path from
//! each state, on one scratch frame, and gathers the paths' results per state, so a roll
//! followed by the comparisons and arithmetic that use it costs no state per path. Every
//! other statement (and the conditions, lists and arguments the engine splits on) runs on
//! the core IR's VM as a piece (`core_ir::run_piece`: the statement lowered alone, the
//! frame's locals its registers), once per state and per distinct outcome of the rolls
//! it makes (`source.rs`). The rolls themselves are decided
//! whole ([`rulesc_runtime::DiceSource::whole`]): each roll's distinct totals come from
//! [`super::dice`] (convolution, order statistics, chains), so `roll 20d6` is 96 outcomes,
//! not 6^20 paths. Only the shape of the program is the engine's (`control.rs`): an `if`,
//! `match` or `for` whose blocks roll is taken apart so its branches merge, and a call to
//! a procedure that rolls runs in the engine (its frame pushed on each state) so states
//! merge inside it too. Any other construct, present or future, costs nothing here: the
//! VM runs it.

mod control;
mod lanes;
#[cfg(test)]
mod pieces;
mod segment;
mod source;

pub use segment::{forget, memo_id};
pub use source::{Cursor, RollPaths};

use super::dice::{roll_dist, Bound, RollDist};
use super::exact::{Prob, W};
use super::plan::Plan;
use super::state::{encode_value, scales, Dist, State};
use super::Stop;
use crate::core_ir::{self, PieceOf};
use crate::eval::Value;
use crate::ir::{Body, Expr, Id, Program, Stmt};
use num_traits::Zero;
use rulesc_runtime::{Decide, DiceSource, DiceSpec, Env, NoTrace, RuleError, TraceSink};

/// A resolution's result: the value it returned, or the rule error that stopped it.
pub type Outcome = Result<Value, RuleError>;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

pub use crate::scenario::BadAnswer;
use std::time::Instant;

/// How the engine bounds rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truncation {
    /// Each exploding die explodes at most this many times (the runtime's own cap, 100,
    /// cuts nothing).
    Depth(u32),
    /// At most this many dice on one path, counted as the path walker counts them: the
    /// two engines then report the same figures (the differential tests use this).
    PathDice(u32),
}

#[derive(Debug, Clone)]
pub struct Options {
    pub truncation: Truncation,
    pub max_states: u64,
    /// Most words of state encodings one distribution holds, and of outcome encodings
    /// ([`super::Limits::max_words`]).
    pub max_words: u64,
    pub max_steps: u64,
    pub deadline: Option<Instant>,
    /// Runs straight-line pieces itself, per roll path ([`super::fast`]); off, every
    /// statement goes through the interpreter (the tests compare the two).
    pub fast: bool,
    /// Runs a fast segment that rolls once over all the roll's outcomes at once
    /// (`lanes/`); off, path by path (the tests compare the two).
    pub columns: bool,
    /// Keep what fast segments give from each starting point between runs with this id
    /// (the cases of one sweep, on each thread: [`memo_id`]).
    pub memo: Option<u64>,
}

/// How the engine answers decisions: a fixed answer for some names, the scenario's
/// script for the rest (each name's answers in order, then the first option).
#[derive(Debug, Clone, Default)]
pub struct Decisions<'a> {
    pub script: Vec<(&'a str, &'a [rulesc_runtime::Scripted])>,
    pub fixed: Vec<(String, u32)>,
    /// The first answer met that was not one of the options its decision offered on
    /// some path (a decision from a list, whose length only the run knows). The analysis
    /// is then an error (`E0403`, as in `trace`), never odds of a clamped answer.
    pub bad: OnceLock<BadAnswer>,
}

/// The exact distribution of a resolution's results.
#[derive(Debug, Clone)]
pub struct Outcomes {
    /// Each distinct result (as the procedure returned it, or the rule error that stopped
    /// it) with its probability, in the order first reached.
    pub outcomes: Vec<(Outcome, Prob)>,
    /// Exploding chains cut at the depth (or paths past the dice budget), and everything
    /// not reached when a limit stopped the engine.
    pub unexplored: Prob,
    /// Whether dice were cut off (some of `unexplored` is not only what a limit left
    /// unreached).
    pub cut: bool,
    pub stop: Option<Stop>,
    /// The most states alive at once.
    pub peak_states: usize,
    /// States from which a segment ran over lanes (`lanes/`).
    pub column_states: u64,
    pub steps: u64,
}

/// Runs procedure (or formula) `f` on `args` over every roll.
pub fn run(
    p: &Program,
    plan: &Plan,
    f: Id,
    args: Vec<Value>,
    decisions: &Decisions,
    opts: &Options,
) -> Outcomes {
    let e = Engine {
        p,
        plan,
        dec: decisions,
        opts,
        cache: RefCell::new(HashMap::new()),
        steps: Cell::new(0),
        peak: Cell::new(0),
        column_states: Cell::new(0),
        outcomes: RefCell::new((Vec::new(), HashMap::new())),
        outcome_words: Cell::new(0),
        unexplored: RefCell::new(Prob::zero()),
    };
    // The plan holds a frame size for every function.
    let mut frame = vec![Value::Unit; plan.frame[f]];
    for (slot, a) in args
        .into_iter()
        .enumerate()
        .take(p.functions[f].params.len())
    {
        frame[slot] = a;
    }
    let start = State {
        frames: vec![frame],
        cursor: vec![0; decisions.script.len()],
        ..State::default()
    };
    let stop = e.top(f, Dist::single(start)).err();
    let (outcomes, _) = e.outcomes.into_inner();
    let mut unexplored = e.unexplored.into_inner();
    let cut = !unexplored.is_zero();
    if stop.is_some() {
        // Everything not reached is unexplored.
        let reached = outcomes.iter().fold(unexplored.clone(), |a, (_, p)| a + p);
        unexplored = Prob::from_integer(1.into()) - reached + unexplored;
    }
    Outcomes {
        outcomes,
        unexplored,
        cut,
        stop,
        peak_states: e.peak.get(),
        column_states: e.column_states.get(),
        steps: e.steps.get(),
    }
}

type Res<T> = Result<T, Stop>;

/// The outcomes reached so far, and where each is, by its key.
type Reached = (Vec<(Outcome, Prob)>, HashMap<Vec<u64>, usize>);

/// The canonical encoding of an outcome: equal keys, equal outcomes (rule errors are
/// equal when they are the same error at the same site).
pub fn outcome_key(o: &Outcome) -> Vec<u64> {
    let mut key = Vec::new();
    match o {
        Ok(v) => encode_value(v, &mut key, &mut Vec::new()),
        Err(e) => {
            key.extend([16, u64::from(e.site)]);
            key.extend(e.to_string().bytes().map(u64::from));
        }
    }
    key
}

struct Engine<'a> {
    p: &'a Program,
    plan: &'a Plan,
    dec: &'a Decisions<'a>,
    opts: &'a Options,
    cache: RefCell<HashMap<(DiceSpec, Bound, bool), Rc<RollDist>>>,
    steps: Cell<u64>,
    peak: Cell<usize>,
    column_states: Cell<u64>,
    outcomes: RefCell<Reached>,
    /// Words of the outcomes' keys (bounded by `max_words`, as a distribution's states).
    outcome_words: Cell<u64>,
    unexplored: RefCell<Prob>,
}

/// Where the states leaving a block go.
struct Exits {
    normal: Dist,
    returned: Dist,
}

impl Exits {
    fn empty() -> Exits {
        Exits {
            normal: Dist::new(W::one()),
            returned: Dist::new(W::one()),
        }
    }

    fn merge(&mut self, o: Exits) {
        self.normal.merge(o.normal);
        self.returned.merge(o.returned);
    }
}

/// Collects weighted states over varying path denominators (merging as they come, one
/// distribution per denominator), then builds one [`Dist`] over their common multiple.
/// The locals in `clear` are cleared first, so states differing only there merge.
struct Builder<'c> {
    parts: Vec<(W, Dist)>,
    clear: &'c [usize],
    max: u64,
    max_words: u64,
}

impl<'c> Builder<'c> {
    fn new(eng: &Engine, clear: &'c [usize]) -> Builder<'c> {
        Builder {
            parts: Vec::new(),
            clear,
            max: eng.opts.max_states,
            max_words: eng.opts.max_words,
        }
    }

    /// State `s` with weight `w` over `base * dp` (`base` the input's denominator).
    fn add(&mut self, mut s: State, w: W, dp: &W) -> Res<()> {
        if !self.clear.is_empty() {
            let top = s.top();
            for &c in self.clear {
                if let Some(v) = top.get_mut(c) {
                    *v = Value::Unit;
                }
            }
        }
        let i = match self.parts.iter().position(|(d, _)| d == dp) {
            Some(i) => i,
            None => {
                self.parts.push((dp.clone(), Dist::new(W::one())));
                self.parts.len() - 1
            }
        };
        self.parts[i].1.push(s, w);
        let n: usize = self.parts.iter().map(|(_, d)| d.len()).sum();
        if n as u64 > self.max {
            return Err(Stop::States);
        }
        let words: u64 = self.parts.iter().map(|(_, d)| d.words()).sum();
        if words > self.max_words {
            return Err(Stop::Memory);
        }
        Ok(())
    }

    fn finish(mut self, base: &W, eng: &Engine) -> Res<Dist> {
        let mut dist = if self.parts.len() == 1 {
            let (dp, mut d) = self.parts.remove(0);
            d.den = base.mul(&dp);
            d
        } else {
            let mut l = W::one();
            for (d, _) in &self.parts {
                let (a, _) = scales(&l, d);
                l = l.mul(&a);
            }
            let mut dist = Dist::new(base.mul(&l));
            for (dp, mut part) in self.parts {
                let scale = l.div_exact(&dp);
                for (s, w) in part.take() {
                    dist.push(s, w.mul(&scale));
                }
            }
            dist
        };
        if dist.den.big().bits() > 64 {
            dist.reduce();
        }
        eng.check_states(&dist)?;
        Ok(dist)
    }
}

impl<'a> Engine<'a> {
    fn tick(&self) -> Res<()> {
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if n > self.opts.max_steps {
            return Err(Stop::Steps);
        }
        // The clock is read on the first step (the run's time may be up before this
        // analysis begins: an earlier case took it) and every 64th after.
        if n % 64 == 1 && self.opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Time);
        }
        Ok(())
    }

    fn check_states(&self, d: &Dist) -> Res<()> {
        let n = d.len();
        if n > self.peak.get() {
            self.peak.set(n);
        }
        if n as u64 > self.opts.max_states {
            return Err(Stop::States);
        }
        if d.words() > self.opts.max_words {
            return Err(Stop::Memory);
        }
        Ok(())
    }

    /// The outcomes of the roll of `spec` at `site` (`u32::MAX`: a face drawn outside a
    /// roll) on a path that has drawn `used` dice: cut as the truncation says, its natural
    /// faces told apart where something reads them.
    fn roll_at(&self, spec: DiceSpec, site: u32, used: u32) -> Res<Rc<RollDist>> {
        let bound = match self.opts.truncation {
            Truncation::Depth(d) => Bound::Depth(d),
            Truncation::PathDice(max) => Bound::Dice(max.saturating_sub(used)),
        };
        let natural = site != u32::MAX && self.plan.natural_sites.contains(&site);
        self.roll_dist(spec, bound, natural)
    }

    fn roll_dist(&self, spec: DiceSpec, bound: Bound, natural: bool) -> Res<Rc<RollDist>> {
        let key = (spec, bound, natural);
        if let Some(d) = self.cache.borrow().get(&key) {
            return Ok(d.clone());
        }
        let max = usize::try_from(self.opts.max_states).unwrap_or(usize::MAX);
        let d = Rc::new(roll_dist(spec, bound, natural, max).map_err(|_| Stop::Totals)?);
        self.cache.borrow_mut().insert(key, d.clone());
        Ok(d)
    }

    /// Adds `w / den` to outcome `v` (distinct outcomes count toward the state limit).
    fn outcome(&self, v: Outcome, w: &W, den: &W) -> Res<()> {
        let key = outcome_key(&v);
        let p = w.over(den);
        let (list, index) = &mut *self.outcomes.borrow_mut();
        match index.get(&key) {
            Some(&i) => list[i].1 += p,
            None => {
                if list.len() as u64 >= self.opts.max_states {
                    return Err(Stop::States);
                }
                let words = self.outcome_words.get() + key.len() as u64;
                if words > self.opts.max_words {
                    return Err(Stop::Memory);
                }
                self.outcome_words.set(words);
                index.insert(key, list.len());
                list.push((v, p));
            }
        }
        Ok(())
    }

    fn lost(&self, w: &W, den: &W) -> Res<()> {
        if !w.is_zero() {
            *self.unexplored.borrow_mut() += w.over(den);
        }
        Ok(())
    }

    /// Runs `f`'s body over `dist` at the top of the stack: what it returns are the
    /// outcomes.
    fn top(&self, f: Id, dist: Dist) -> Res<()> {
        let func = &self.p.functions[f];
        match &func.body {
            Body::Procedure(stmts) => {
                let ex = self.block(f, stmts, dist)?;
                for (s, w) in &ex.normal.states {
                    self.outcome(Ok(s.ret.clone()), w, &ex.normal.den)?;
                }
                for (s, w) in &ex.returned.states {
                    self.outcome(Ok(s.ret.clone()), w, &ex.returned.den)?;
                }
            }
            Body::Formula(e) => {
                let den = dist.den.clone();
                for (s, w) in &dist.states {
                    self.paths(
                        s,
                        w,
                        &den,
                        false,
                        |env, locals| self.value_of(f, e, env, locals),
                        |_, v, w, dp| self.outcome(Ok(v), &w, &den.mul(dp)),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Every path of the rolls one piece of work makes from state `s` (weight `w` over
    /// `den`): `work` runs it on the top frame with an environment whose dice decide
    /// whole rolls; `each` gets each path's state and result with its weight, over `den`
    /// times the path's denominator. A path cut off is unexplored mass; a path that meets
    /// a rule error is that outcome.
    #[allow(clippy::too_many_arguments)]
    fn paths<R>(
        &self,
        s: &State,
        w: &W,
        den: &W,
        mutates: bool,
        mut work: impl FnMut(
            &mut Env<&mut RollPaths<'_, 'a>, &mut Cursor<'_>, NoTrace>,
            &mut Vec<Value>,
        ) -> Result<R, RuleError>,
        mut each: impl FnMut(State, R, W, &W) -> Res<()>,
    ) -> Res<()> {
        let mut src = RollPaths {
            eng: self,
            path: Vec::new(),
            pos: 0,
            used: s.used,
            cut: false,
            fail: Cell::new(None),
        };
        loop {
            self.tick()?;
            src.pos = 0;
            src.used = s.used;
            src.cut = false;
            let mut st = if mutates { s.unshared() } else { s.clone() };
            let r = {
                let State { frames, cursor, .. } = &mut st;
                let mut dec = Cursor::new(self.dec, cursor);
                let mut env = Env::new(&mut src, &mut dec, NoTrace);
                let top = match frames.last_mut() {
                    Some(t) => t,
                    None => return Ok(()),
                };
                work(&mut env, top)
            };
            if let Some(stop) = src.fail.get() {
                return Err(stop);
            }
            st.used = src.used;
            let (pw, dp) = src.weight();
            let pw = w.mul(&pw);
            match r {
                _ if src.cut => self.lost(&pw, &den.mul(&dp))?,
                Ok(r) => each(st, r, pw, &dp)?,
                Err(e) => self.outcome(Err(e), &pw, &den.mul(&dp))?,
            }
            if !src.advance() {
                return Ok(());
            }
        }
    }

    fn block(&self, f: Id, stmts: &[Stmt], dist: Dist) -> Res<Exits> {
        self.run_block(f, stmts, dist, self.opts.fast)
    }

    /// Runs `stmts` over `dist`: a fast segment ([`super::fast`]) as one piece when `fast`,
    /// every other statement one by one.
    fn run_block(&self, f: Id, stmts: &[Stmt], mut dist: Dist, fast: bool) -> Res<Exits> {
        let mut returned = Dist::new(W::one());
        let mut i = 0;
        while i < stmts.len() {
            if dist.is_empty() {
                break;
            }
            let ex = match self.plan.segment(&stmts[i]).filter(|_| fast) {
                Some(seg) => {
                    let n = seg.len;
                    let ex = self.segment(f, seg, &stmts[i..i + n], dist)?;
                    i += n;
                    ex
                }
                None => {
                    let ex = self.stmt(f, &stmts[i], dist)?;
                    i += 1;
                    ex
                }
            };
            returned.merge(ex.returned);
            dist = ex.normal;
        }
        Ok(Exits {
            normal: dist,
            returned,
        })
    }

    fn stmt(&self, f: Id, s: &Stmt, dist: Dist) -> Res<Exits> {
        let sp = self.plan.stmt(s);
        if let Some(callee) = sp.call {
            return self.call(f, s, callee, dist);
        }
        if sp.structural {
            #[allow(unreachable_patterns)]
            let ex = match s {
                Stmt::If {
                    branches,
                    otherwise,
                } => self.if_(f, branches, otherwise.as_deref(), dist, sp.mutates)?,
                Stmt::Match { scrutinee, arms } => {
                    self.match_(f, scrutinee, arms, dist, sp.mutates)?
                }
                Stmt::For { var, list, body } => {
                    self.for_(f, *var, list, body, &sp.hidden, dist, sp.mutates)?
                }
                Stmt::ForRange {
                    var,
                    lo,
                    hi,
                    body,
                    site,
                } => self.range(f, *var, (lo, hi, *site), body, &sp.hidden, dist, sp.mutates)?,
                _ => self.whole(f, PieceOf::stmt(s), dist, sp.mutates, &[])?,
            };
            return self.cleared(ex, &sp.clear);
        }
        self.whole(f, PieceOf::stmt(s), dist, sp.mutates, &sp.clear)
    }

    /// Clears dead locals of the states leaving a taken-apart statement (re-merging).
    fn cleared(&self, mut ex: Exits, clear: &[usize]) -> Res<Exits> {
        if clear.is_empty() || ex.normal.is_empty() {
            return Ok(ex);
        }
        let den = ex.normal.den.clone();
        let mut b = Builder::new(self, clear);
        let one = W::one();
        for (s, w) in ex.normal.take() {
            b.add(s, w, &one)?;
        }
        ex.normal = b.finish(&den, self)?;
        Ok(ex)
    }

    /// A state leaving its function with `v`: an outcome at the top of the stack, a
    /// returned state (its frame cleared) below.
    fn returning(
        &self,
        mut s: State,
        v: Value,
        w: W,
        dp: &W,
        den: &W,
        returned: &mut Builder,
    ) -> Res<()> {
        if s.frames.len() <= 1 {
            return self.outcome(Ok(v), &w, &den.mul(dp));
        }
        s.ret = v;
        for x in s.top().iter_mut() {
            *x = Value::Unit;
        }
        returned.add(s, w, dp)
    }

    /// Runs a whole statement of function `f`, per state and roll path ([`Self::run_piece`]).
    fn whole(
        &self,
        f: Id,
        s: PieceOf<'_>,
        mut dist: Dist,
        mutates: bool,
        clear: &[usize],
    ) -> Res<Exits> {
        let den = dist.den.clone();
        let (mut normal, mut returned) = (Builder::new(self, clear), Builder::new(self, &[]));
        for (st, w) in dist.take() {
            self.paths(
                &st,
                &w,
                &den,
                mutates,
                |env, locals| self.run_piece(f, s, env, locals),
                |s2, r, w, dp| match r {
                    None => normal.add(s2, w, dp),
                    Some(v) => self.returning(s2, v, w, dp, &den, &mut returned),
                },
            )?;
        }
        Ok(Exits {
            normal: normal.finish(&den, self)?,
            returned: returned.finish(&den, self)?,
        })
    }

    /// Evaluates `e` per state and roll path, and sorts the resulting states with
    /// `route` (which may change the state, binding what the value binds): `None` drops
    /// the state into the statement's normal exit.
    fn split(
        &self,
        f: Id,
        e: &Expr,
        mut dist: Dist,
        mutates: bool,
        n: usize,
        mut route: impl FnMut(&mut State, &Value) -> Option<usize>,
    ) -> Res<(Vec<Dist>, Dist)> {
        let den = dist.den.clone();
        let mut outs: Vec<Builder> = (0..n).map(|_| Builder::new(self, &[])).collect();
        let mut rest = Builder::new(self, &[]);
        for (st, w) in dist.take() {
            self.paths(
                &st,
                &w,
                &den,
                mutates,
                |env, locals| self.value_of(f, e, env, locals),
                |mut s2, v, w, dp| match route(&mut s2, &v) {
                    Some(i) => outs[i].add(s2, w, dp),
                    None => rest.add(s2, w, dp),
                },
            )?;
        }
        let outs = outs
            .into_iter()
            .map(|b| b.finish(&den, self))
            .collect::<Res<Vec<_>>>()?;
        Ok((outs, rest.finish(&den, self)?))
    }
}

/// The options the engine's tests on small rules run with: exploding dice cut at depth
/// 3, and the ways of running `(fast, columns)` they compare.
#[cfg(test)]
fn test_options((fast, columns): (bool, bool), memo: Option<u64>) -> Options {
    Options {
        truncation: Truncation::Depth(3),
        max_states: 20_000,
        max_words: u64::MAX,
        max_steps: 10_000_000,
        deadline: None,
        fast,
        columns,
        memo,
    }
}

/// The decisions of what decides none (a fast segment: `fast::stmt`).
pub(super) struct NoDecisions;

impl rulesc_runtime::Decide for NoDecisions {
    fn decide(&mut self, name: &'static str, _options: u32) -> u32 {
        unreachable!("a fast segment decides nothing (`fast::expr`), yet `{name}` was asked")
    }
}

impl Engine<'_> {
    /// Runs `what`, a statement or expression of function `f`, in the frame `locals`, on
    /// the VM ([`core_ir::run_piece`]): `Some(value)` for an expression's value or a
    /// statement's `return`.
    fn run_piece<D: DiceSource, X: Decide, T: TraceSink>(
        &self,
        f: Id,
        what: PieceOf<'_>,
        env: &mut Env<D, X, T>,
        locals: &mut [Value],
    ) -> Result<Option<Value>, RuleError> {
        core_ir::run_piece(self.p, f, what, env, locals)
    }

    /// Expression `e` of function `f` evaluated in the frame `locals` ([`Self::run_piece`]).
    fn value_of<D: DiceSource, X: Decide, T: TraceSink>(
        &self,
        f: Id,
        e: &Expr,
        env: &mut Env<D, X, T>,
        locals: &mut [Value],
    ) -> Result<Value, RuleError> {
        // No value: a path cut off, which the engine counts as unexplored.
        self.run_piece(f, PieceOf::expr(e), env, locals)
            .map(|v| v.unwrap_or(Value::Unit))
    }
}
