//! Backend: the reference interpreter. Runs a checked procedure with a dice source, a
//! decider and a trace sink from the runtime, exactly as generated code does: the same
//! runtime calls, in the same order, with the same trace events. The differential tests
//! hold the two to that.
//!
//! A function that lowers to the core IR (`crate::core_ir`: every function but one
//! needing more registers than a frame holds) runs on its VM. The walker (`expr.rs`,
//! `stmt.rs`, ...) runs the rest, the pieces of procedures `analyze` runs ([`eval_in`],
//! [`exec_in`]), and is the VM's oracle in the tests.

mod copy;
mod effects;
pub(crate) mod expr;
mod lists;
mod show;
mod stmt;
pub(crate) use stmt::{assign_value, update};

pub(crate) use copy::{privatize, weight};
pub use effects::{among_faces, die_segments, lookup, table_roll_faces};
pub(crate) use effects::{dice_steps, look_up, row_value, DIE_ROWS};
pub(crate) use effects::{fill_event, fill_track, option_label, track_levels};
pub(crate) use lists::ordered;
pub use show::{show, show_result, show_traced, show_traced_in};

use crate::ir::{self, Const, Program, Stmt, Ty};
use crate::source::Span;
use rulesc_runtime::{
    __private::error, dice, Decide, DiceSource, DiceSpec, Env, Faces, Fight, NoTrace, Roll,
    RuleError, RuleErrorKind, TraceEvent, TraceSink, Track,
};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A run-time value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Dice(DiceSpec),
    Roll(Roll),
    Choice(u16),
    Track(Track),
    /// A box of track `track`, 1-based `number`.
    TrackBox {
        track: usize,
        number: u16,
    },
    List(Rc<Vec<Value>>),
    Map(Rc<Vec<Value>>),
    /// A map keyed by anything but a scale or enum.
    SortedMap(Rc<SortedMap>),
    /// Shared, so a procedure changes the caller's combatant in place.
    Record(Rc<RefCell<Vec<Value>>>),
    Outcome {
        tag: u16,
        fields: Rc<[Value]>,
    },
    /// A combatant of the running fight (its index).
    Fighter(u32),
    /// A side of the running fight.
    Side(u16),
    /// The dice of a roll (a hidden local `faces(r)` reads).
    Faces(Rc<Faces>),
    /// `none`, of an optional type (a present value is the value itself).
    None,
    Unit,
}

/// A map keyed by anything but a scale or enum (`ir::Ty::SortedMap`): the keys held,
/// ascending by [`cmp_key`], each with its value; a key not held reads `zero`. A tree, so
/// that a key written below every other (a run counting down) costs a logarithm, not a
/// move of every entry.
#[derive(Debug, Clone, PartialEq)]
pub struct SortedMap {
    entries: BTreeMap<MapKey, Value>,
    pub zero: Value,
}

/// A key of a [`SortedMap`], ordered (and equal) by [`cmp_key`].
#[derive(Debug, Clone)]
struct MapKey(Value);

impl Ord for MapKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        cmp_key(&self.0, &other.0)
    }
}

impl PartialOrd for MapKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for MapKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for MapKey {}

impl SortedMap {
    /// The map holding `entries` (a key given twice keeps its last value), reading `zero`
    /// for any other key.
    pub fn new(entries: impl IntoIterator<Item = (Value, Value)>, zero: Value) -> Self {
        SortedMap {
            entries: entries.into_iter().map(|(k, v)| (MapKey(k), v)).collect(),
            zero,
        }
    }

    /// The value of `key`, or the zero.
    pub fn get(&self, key: &Value) -> &Value {
        // A lookup key is a clone of the value (for a record key, one more reference).
        self.entries.get(&MapKey(key.clone())).unwrap_or(&self.zero)
    }

    /// The value of `key` to change, added (a copy of the key, with the zero) when the
    /// map does not hold it.
    pub fn entry(&mut self, key: &Value) -> &mut Value {
        let zero = &self.zero;
        self.entries
            .entry(MapKey(key.deep_clone()))
            .or_insert_with(|| zero.deep_clone())
    }

    /// The keys held with their values, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter().map(|(k, v)| (&k.0, v))
    }

    /// How many keys it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The order of map keys, as `ir::cmp_key` orders constants (and generated code's derived
/// `Ord`): numbers, `false` before `true`, levels and variants as declared, records field
/// by field.
pub fn cmp_key(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Record(x), Value::Record(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.iter()
                .zip(y.iter())
                .map(|(p, q)| cmp_key(p, q))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        }
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.int().cmp(&b.int()),
    }
}

impl Value {
    #[inline]
    pub fn from_const(c: &Const) -> Value {
        match c {
            Const::Int(i) => Value::Int(*i),
            Const::Bool(b) => Value::Bool(*b),
            Const::Dice(d) => Value::Dice(*d),
            Const::Choice(i) => Value::Choice(*i),
            Const::Track(t) => Value::Track(*t),
            _ => Value::from_const_holding(c),
        }
    }

    /// [`Value::from_const`] of a constant that may hold others.
    fn from_const_holding(c: &Const) -> Value {
        match c {
            Const::Int(_)
            | Const::Bool(_)
            | Const::Dice(_)
            | Const::Choice(_)
            | Const::Track(_) => Value::from_const(c),
            Const::List(v) => Value::List(Rc::new(v.iter().map(Value::from_const).collect())),
            Const::Map(v) => Value::Map(Rc::new(v.iter().map(Value::from_const).collect())),
            Const::SortedMap(entries, zero) => Value::SortedMap(Rc::new(SortedMap::new(
                entries
                    .iter()
                    .map(|(k, v)| (Value::from_const(k), Value::from_const(v))),
                Value::from_const(zero),
            ))),
            Const::Record(v) => Value::Record(Rc::new(RefCell::new(
                v.fields.iter().map(Value::from_const).collect(),
            ))),
            Const::Opt(None) => Value::None,
            Const::Opt(Some(c)) => Value::from_const(c),
        }
    }

    /// The number a scalar stands for: an integer, a roll's total, a level's or
    /// variant's index, a truth as 0 or 1, a fighter's or side's index. The walker's
    /// [`expr::CUT_OFF`] reads 0: its path is discarded at its next statement.
    #[inline]
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            Value::Roll(r) => r.total,
            Value::Choice(i) => i64::from(*i),
            Value::Bool(b) => i64::from(*b),
            Value::Fighter(f) => i64::from(*f),
            Value::Side(s) => i64::from(*s),
            &expr::CUT_OFF => 0,
            other => unreachable!(
                "the number of {other:?}: the checker's type rules read a number only of an int, roll, level, variant, truth, fighter or side"
            ),
        }
    }

    /// A truth. The walker's [`expr::CUT_OFF`] reads `false`: its path is discarded at its
    /// next statement.
    #[inline]
    pub fn bool(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            &expr::CUT_OFF => false,
            other => unreachable!(
                "the truth of {other:?}: the checker's type rules give a condition, `out` and a trigger's test the type bool"
            ),
        }
    }

    /// A level's or variant's index. The walker's [`expr::CUT_OFF`] reads 0: its path is
    /// discarded at its next statement.
    #[inline]
    fn choice(&self) -> u16 {
        match self {
            Value::Choice(i) => *i,
            &expr::CUT_OFF => 0,
            other => unreachable!(
                "the level of {other:?}: the checker's type rules key a map by level, and step or compare levels, only with a value of its scale or enum"
            ),
        }
    }

    /// A copy that shares nothing mutable with `self`.
    pub fn deep_clone(&self) -> Value {
        match self {
            Value::Record(r) => Value::Record(Rc::new(RefCell::new(
                r.borrow().iter().map(Value::deep_clone).collect(),
            ))),
            Value::List(l) => Value::List(Rc::new(l.iter().map(Value::deep_clone).collect())),
            Value::SortedMap(m) => Value::SortedMap(Rc::new(SortedMap::new(
                m.iter().map(|(k, v)| (k.deep_clone(), v.deep_clone())),
                m.zero.deep_clone(),
            ))),
            other => other.clone(),
        }
    }
}

pub(crate) enum Flow {
    Normal,
    Return(Value),
}

/// What running a statement or expression gives: its value, or the rule error that
/// stopped the resolution.
type Run<T> = Result<T, RuleError>;

/// What a run draws on from its [`Env`]: dice, decisions, the trace, the fight engine.
/// The interpreter reaches its environment through this one trait object, so it (and the
/// code compiled from a program, see [`compile`]) is built once, not once per dice
/// source, decider and trace sink.
pub(crate) trait Host {
    /// An enumeration cut this path off (see `DiceSource::stopped`).
    fn stopped(&self) -> bool;
    /// The dice source may stop the run (see `DiceSource::may_stop`).
    fn may_stop(&self) -> bool;
    /// `dice::roll`, into the trace when `traced`.
    fn roll(&mut self, spec: DiceSpec, site: u32, traced: bool) -> Roll;
    /// `dice::roll_faces`, into the trace when `traced`.
    fn roll_faces(&mut self, spec: DiceSpec, site: u32, traced: bool) -> (Roll, Faces);
    /// The decider's answer, within the options (`rulesc_runtime::decide::answer`).
    /// The decider's answer within the options (`rulesc_runtime::decide::answer`).
    fn decide(&mut self, name: &'static str, options: u32) -> u32;
    /// `Decide::wants_labels` and `decide_among` (`rulesc_runtime::decide::answer_among`):
    /// a decision among a list answered by an option's name.
    fn wants_labels(&self, name: &str) -> bool;
    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32;
    fn event(&mut self, e: TraceEvent);
    /// The trace records events (`TraceSink::ENABLED`).
    fn traces(&self) -> bool;
    /// Runs function `id`, which lowered into `module`, on the VM with the arguments in
    /// `args` (taken), in `fight` when there is one, `steps` into the run: its result and
    /// the run's steps after it (`core_ir::vm::run_from`).
    #[allow(clippy::too_many_arguments)]
    fn vm(
        &mut self,
        prog: &Program,
        module: &crate::core_ir::Module,
        id: ir::Id,
        fight: Option<&mut Fight<Value>>,
        args: &mut Vec<Value>,
        how: (bool, bool),
        steps: u64,
    ) -> (Result<Value, RuleError>, u64);
    /// `error::fail`: the rule error recorded in the trace.
    fn fail(&mut self, e: RuleError) -> RuleError;
    /// World time moves in `fight` through the runtime's engine (`advance`); what falls
    /// due runs traced as `options` say.
    fn advance(
        &mut self,
        prog: &Program,
        fight: &mut Fight<Value>,
        amount: i64,
        options: Options,
    ) -> Run<()>;
}

impl<D: DiceSource, X: Decide, T: TraceSink> Host for Env<D, X, T> {
    #[inline]
    fn stopped(&self) -> bool {
        self.dice.stopped()
    }

    fn may_stop(&self) -> bool {
        self.dice.may_stop()
    }

    fn roll(&mut self, spec: DiceSpec, site: u32, traced: bool) -> Roll {
        if traced {
            dice::roll(&mut self.dice, spec, &mut self.trace, site)
        } else {
            dice::roll(&mut self.dice, spec, &mut NoTrace, site)
        }
    }

    fn roll_faces(&mut self, spec: DiceSpec, site: u32, traced: bool) -> (Roll, Faces) {
        if traced {
            dice::roll_faces(&mut self.dice, spec, &mut self.trace, site)
        } else {
            dice::roll_faces(&mut self.dice, spec, &mut NoTrace, site)
        }
    }

    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        rulesc_runtime::decide::answer(&mut self.decide, name, options)
    }

    fn wants_labels(&self, name: &str) -> bool {
        self.decide.wants_labels(name)
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        rulesc_runtime::decide::answer_among(&mut self.decide, name, options, label)
    }

    fn event(&mut self, e: TraceEvent) {
        self.trace.event(e);
    }

    fn traces(&self) -> bool {
        T::ENABLED
    }

    fn vm(
        &mut self,
        prog: &Program,
        module: &crate::core_ir::Module,
        id: ir::Id,
        fight: Option<&mut Fight<Value>>,
        args: &mut Vec<Value>,
        how: (bool, bool),
        steps: u64,
    ) -> (Result<Value, RuleError>, u64) {
        let args = args.drain(..);
        crate::core_ir::vm::run_from(prog, module, id, self, fight, args, how, steps)
    }

    fn fail(&mut self, e: RuleError) -> RuleError {
        error::fail(&mut self.trace, e)
    }

    fn advance(
        &mut self,
        prog: &Program,
        fight: &mut Fight<Value>,
        amount: i64,
        options: Options,
    ) -> Run<()> {
        match crate::fight::EvalRules::within(prog) {
            Some(rules) => fight.advance(&mut rules.with(options), self, amount),
            None => Ok(()),
        }
    }
}

/// Runs procedures and formulas of one program.
pub struct Interpreter<'p, 'e> {
    pub prog: &'p Program,
    pub(crate) env: &'e mut dyn Host,
    /// The running fight, for fight functions.
    pub(crate) fight: Option<&'e mut Fight<Value>>,
    /// Off while a formula runs (formulas are untraced, as in generated code), and when
    /// the trace sink records nothing.
    pub(crate) tracing: bool,
    /// Steps taken so far in this run (see [`MAX_STEPS`]).
    pub(crate) steps: u64,
    /// The site of the function running, where a spent budget is reported.
    pub(crate) at: u32,
    /// On while a formula runs: nothing can change a record then (formulas are pure), so
    /// a loop variable need not be a copy of its element to stay unchanged.
    pure: bool,
    /// Frames of calls that returned, kept for the next call's locals.
    frames: Vec<Vec<Value>>,
    /// Formulas are traced too: their arguments, `if` conditions, lookups, the formulas
    /// they call and their results (`rulesc trace --trace-formulas`).
    pub(crate) formulas: bool,
    /// The dice source may stop the run: asked before each statement when it may.
    may_stop: bool,
}

/// How a run is traced, past what every backend traces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Trace inside formulas as well ([`TraceEvent::Step`] for arguments and `if`
    /// conditions; calls, lookups and results as for procedures). Generated code never
    /// does: a trace with it is the interpreter's own.
    pub trace_formulas: bool,
}

/// Most steps one run of the interpreter takes: each statement, loop turn, call and
/// item of a comprehension is one, and each value copied (a `let` of a record, a list
/// appended, a constant) one more per value in it. Past it the run stops with
/// [`RuleErrorKind::TooManySteps`], so nested loops, fan-out through calls and values
/// doubled by appending are all bounded in time and memory. Generated code has no such
/// budget: the rules always end, and a run within the budget gives the same result.
pub const MAX_STEPS: u64 = 1_000_000;

/// Calls function `id` with `args` (one per parameter: a `Vec`, or an array, which costs
/// no allocation). Records passed in are changed in place when the function changes their
/// state. A rule error stops the run (state changed before it stays changed) and is
/// returned, as generated code returns it.
pub fn call<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
) -> Result<Value, RuleError> {
    run(prog, env, None, id, args, Options::default())
}

/// [`call`], traced as `options` say.
pub fn call_with<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
    options: Options,
) -> Result<Value, RuleError> {
    run(prog, env, None, id, args, options)
}

/// [`call_with`] in a fight: fighters in `args` (and everything the function reaches)
/// are combatants of `fight`.
pub fn call_in<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    fight: &mut Fight<Value>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
    options: Options,
) -> Result<Value, RuleError> {
    run(prog, env, Some(fight), id, args, options)
}

/// A traced run of function `id`, in `fight` when there is one: what [`call`] and
/// [`call_in`] share.
fn run<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    fight: Option<&mut Fight<Value>>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
    options: Options,
) -> Result<Value, RuleError> {
    let may_stop = env.dice.may_stop();
    let in_fight = fight.is_some();
    let site = prog.functions.get(id).map_or(0, |f| f.site);
    let module = crate::core_ir::module(prog);
    // Every function of a checked program lowers (one needing more numbers at once than
    // a frame holds is the checker's E0363), and runs on the VM; the walker runs only as
    // the VM's oracle in tests.
    if on_the_vm() {
        assert!(
            module.func(id).is_some(),
            "function {id} did not lower: the checker's E0363 refuses such a program"
        );
        let how = (may_stop, options.trace_formulas);
        let Some(fight) = fight else {
            return crate::core_ir::vm::run(prog, module, id, env, None, args, how).0;
        };
        // A fight's calls share its budget as well (as `fight_budget_left` and
        // `fight_steps_taken` keep it below for the walker).
        let fail = |env: &mut Env<D, X, T>, kind| {
            let e = RuleError::new(site, kind);
            match T::ENABLED {
                true => error::fail(&mut env.trace, e),
                false => e,
            }
        };
        if let Err(kind) = crate::fight::budget_left() {
            return Err(fail(env, kind));
        }
        let (result, steps) =
            crate::core_ir::vm::run(prog, module, id, env, Some(fight), args, how);
        return match crate::fight::steps_taken(steps, result.is_ok()) {
            Err(kind) => Err(fail(env, kind)),
            Ok(()) => result,
        };
    }
    let mut it = Interpreter {
        prog,
        env,
        fight,
        tracing: T::ENABLED,
        steps: 0,
        at: site,
        pure: false,
        frames: kept_frames(),
        formulas: options.trace_formulas,
        may_stop,
    };
    if !in_fight {
        return it.call(id, args);
    }
    // A fight's calls share its budget as well.
    it.fight_budget_left(site)?;
    let result = it.call(id, args);
    it.fight_steps_taken(site, result)
}

/// Evaluates one expression in a frame's `locals` (one slot per local of the function it
/// belongs to), untraced: for analyses that run a procedure piece by piece, such as the
/// merged-state engine of `analyze`, which leaves every dice-free piece to this
/// interpreter.
pub fn eval_in<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    locals: &mut Vec<Value>,
    e: &ir::Expr,
) -> Result<Value, RuleError> {
    let mut it = Interpreter::untraced(prog, env);
    it.expr(e, locals)
}

impl<'p, 'e> Interpreter<'p, 'e> {
    /// An interpreter for a piece of a procedure, outside any fight and untraced
    /// ([`eval_in`], [`exec_in`]).
    pub(crate) fn untraced(prog: &'p Program, env: &'e mut dyn Host) -> Self {
        let may_stop = env.may_stop();
        Interpreter {
            prog,
            env,
            fight: None,
            tracing: false,
            steps: 0,
            at: 0,
            pure: false,
            frames: kept_frames(),
            formulas: false,
            may_stop,
        }
    }
}

/// Runs one statement in a frame's `locals`, untraced (see [`eval_in`]): `Some(value)`
/// when it returned.
pub fn exec_in<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    locals: &mut Vec<Value>,
    s: &Stmt,
) -> Result<Option<Value>, RuleError> {
    let mut it = Interpreter::untraced(prog, env);
    Ok(match it.stmt(s, locals)? {
        Flow::Return(v) => Some(v),
        Flow::Normal => None,
    })
}

impl<'p> Interpreter<'p, '_> {
    #[inline]
    pub(crate) fn on(&self) -> bool {
        self.tracing
    }

    pub(crate) fn event(&mut self, e: TraceEvent) {
        self.env.event(e);
    }

    /// How a value reads in a trace event (fighters and sides by name).
    pub(crate) fn show(&self, v: &Value, ty: &Ty) -> String {
        show_traced_in(self.prog, self.fight.as_deref(), v, ty)
    }

    /// A rule error met here: recorded in the trace when a procedure meets it (formulas
    /// are untraced: the procedure calling one records it), as generated code does.
    pub(crate) fn fail(&mut self, site: u32, kind: RuleErrorKind) -> RuleError {
        let e = RuleError::new(site, kind);
        if self.on() {
            self.env.fail(e)
        } else {
            e
        }
    }

    /// A range whose bounds the rules do not fix (it has a `site`) holds at most
    /// `MAX_LOOP` numbers: past it, a rule error there.
    pub(crate) fn range_room(&mut self, lo: i64, hi: i64, site: Option<u32>) -> Run<()> {
        match site {
            Some(site) => error::range_room(lo, hi, site).map_err(|e| self.fail(site, e.kind)),
            None => Ok(()),
        }
    }

    /// `dice * n` (`DiceSpec::times`, the one rule): fewer than 0 or more than
    /// `MAX_DICE` dice is a rule error at `site` (none where the checker proved the count
    /// inside, so this never fails there).
    pub(crate) fn dice_times(
        &mut self,
        d: rulesc_runtime::DiceSpec,
        n: i64,
        site: Option<u32>,
    ) -> Run<rulesc_runtime::DiceSpec> {
        d.times(n, site.unwrap_or(0))
            .map_err(|e| self.fail(e.site, e.kind))
    }

    /// Takes `n` steps of the run's budget; past it, the run stops with a rule error.
    fn step(&mut self, n: u64) -> Run<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > MAX_STEPS {
            return Err(self.fail(self.at, RuleErrorKind::TooManySteps { max: MAX_STEPS }));
        }
        Ok(())
    }

    /// A copy of `v` (value semantics), paid for by the values it holds.
    fn copy(&mut self, v: &Value) -> Run<Value> {
        self.step(weight(v))?;
        Ok(v.deep_clone())
    }

    /// [`Self::copy`] of a value owned already: a value holding no other is itself, and
    /// the parts no one else holds are kept rather than copied ([`privatize`]). The steps
    /// are a copy's either way.
    #[inline]
    fn copied(&mut self, mut v: Value) -> Run<Value> {
        match v {
            Value::List(_)
            | Value::Map(_)
            | Value::SortedMap(_)
            | Value::Record(_)
            | Value::Outcome { .. } => {
                self.step(weight(&v))?;
                privatize(&mut v);
                Ok(v)
            }
            v => {
                self.step(1)?;
                Ok(v)
            }
        }
    }

    /// Calls function `id` with `args` (one per parameter), put straight into a kept frame.
    pub(crate) fn call(&mut self, id: ir::Id, args: impl IntoIterator<Item = Value>) -> Run<Value> {
        let mut frame = self.frames.pop().unwrap_or_default();
        frame.extend(args);
        self.call_frame(id, frame)
    }

    /// Calls function `id` with `frame` holding its arguments; the frame becomes its
    /// locals, and is kept for a later call when the function returns.
    fn call_frame(&mut self, id: ir::Id, mut frame: Vec<Value>) -> Run<Value> {
        self.step(1)?;
        // A function that lowered runs on the VM, from the steps taken so far, unless this
        // run is kept quiet under a trace that records (the VM traces by the sink's type:
        // a piece `analyze` runs, a formula's call): the walker runs it then.
        let module = crate::core_ir::module(self.prog);
        let quiet = !self.tracing && self.env.traces();
        if module.func(id).is_some() && on_the_vm() && !quiet {
            let how = (self.may_stop, self.formulas);
            let fight = self.fight.as_deref_mut();
            let (result, steps) = self
                .env
                .vm(self.prog, module, id, fight, &mut frame, how, self.steps);
            self.steps = steps;
            frame.clear();
            self.frames.push(frame);
            return result;
        }
        let f = &self.prog.functions[id];
        frame.truncate(f.params.len());
        // Each slot made, not cloned from one (`resize` clones).
        let n = f.locals.len().saturating_sub(frame.len());
        frame.extend(std::iter::repeat_with(|| Value::Unit).take(n));
        let caller = std::mem::replace(&mut self.at, f.site);
        let result = self.body(f, &mut frame);
        self.at = caller;
        // Measured: `clear`'s drop of each slot costs fewer instructions than popping
        // them and forgetting those holding nothing to free.
        frame.clear();
        self.frames.push(frame);
        result
    }

    /// Runs `f`'s body in `frame` (its arguments, then a slot per local).
    fn body(&mut self, f: &'p ir::Function, frame: &mut Vec<Value>) -> Run<Value> {
        match &f.body {
            ir::Body::Formula(e) => {
                // Formulas are pure, and untraced unless formulas are traced too.
                let (was, was_pure) = (self.tracing, self.pure);
                let shown = self.formulas && self.on();
                self.tracing = shown;
                self.pure = true;
                if shown {
                    self.formula_entered(f, frame);
                }
                let v = self.expr(e, frame);
                if let (true, Ok(v)) = (shown, &v) {
                    let value = self.show(v, &f.ret);
                    self.event(TraceEvent::Return {
                        site: f.site,
                        value,
                    });
                }
                self.tracing = was;
                self.pure = was_pure;
                v
            }
            ir::Body::Procedure(stmts) => {
                if self.on() {
                    self.event(TraceEvent::Call { site: f.site });
                }
                match self.block(stmts, frame)? {
                    Flow::Return(v) => Ok(v),
                    Flow::Normal => {
                        if self.on() {
                            self.event(TraceEvent::Return {
                                site: f.site,
                                value: String::new(),
                            });
                        }
                        Ok(Value::Unit)
                    }
                }
            }
        }
    }
}

impl Interpreter<'_, '_> {
    /// A traced formula was called: its declaration, then each argument's value.
    fn formula_entered(&mut self, f: &ir::Function, locals: &[Value]) {
        self.event(TraceEvent::Call { site: f.site });
        let line = self.prog.sites.get(f.site as usize).map_or(0, |s| s.line);
        for (p, v) in f.params.iter().zip(locals) {
            // A value with parts (a record, a list, a map, a track) is named by its type:
            // shown whole it would bury the steps; what the formula reads of it is traced.
            // A fighter shows its name.
            let value = match &p.ty {
                Ty::Record(_) | Ty::List(_) | Ty::Map(..) | Ty::SortedMap(..) | Ty::Track(_) => {
                    format!("a {}", self.prog.ty_name(&p.ty))
                }
                _ => self.show(v, &p.ty),
            };
            self.event(TraceEvent::Step {
                site: f.site,
                line,
                text: p.name.clone(),
                value,
            });
        }
    }

    /// The condition of an `if .. then .. else` in a traced formula.
    pub(crate) fn formula_branch(&mut self, c: Span, taken: bool) {
        let (_, line, _) = self.prog.sources.position(c);
        let text = format!("if {}", self.prog.sources.snippet(c));
        let value = if taken { "yes" } else { "no" };
        self.event(TraceEvent::Step {
            site: self.at,
            line,
            text,
            value: value.into(),
        });
    }
}

#[cfg(test)]
thread_local! {
    /// Set: every call runs on the walker, the VM's oracle in tests that compare them.
    pub(crate) static WALKER_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every call on the walker: the oracle side of a test against the VM.
#[cfg(test)]
pub(crate) fn off_the_vm<R>(f: impl FnOnce() -> R) -> R {
    WALKER_ONLY.with(|w| w.set(true));
    let r = f();
    WALKER_ONLY.with(|w| w.set(false));
    r
}

/// Whether a function that lowered runs on the VM (always, but in a test holding the
/// walker to it).
fn on_the_vm() -> bool {
    #[cfg(test)]
    if WALKER_ONLY.with(std::cell::Cell::get) {
        return false;
    }
    true
}

thread_local! {
    /// The frames an interpreter kept (see [`Interpreter::frames`]), for the next one
    /// on this thread: a run of many resolutions allocates no frame after the first.
    static FRAMES: std::cell::Cell<Vec<Vec<Value>>> = const { std::cell::Cell::new(Vec::new()) };
}

fn kept_frames() -> Vec<Vec<Value>> {
    FRAMES.with(|f| f.take())
}

impl Drop for Interpreter<'_, '_> {
    fn drop(&mut self) {
        let frames = std::mem::take(&mut self.frames);
        FRAMES.with(|f| f.set(frames));
    }
}

/// Decision names are `&'static str` in the runtime's `Decide` trait (generated code
/// passes literals). The interpreter interns them once per distinct name.
pub(crate) fn leak_name(name: &str) -> &'static str {
    thread_local! {
        static NAMES: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    }
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        if let Some(s) = n.iter().find(|s| **s == name) {
            return *s;
        }
        let s: &'static str = Box::leak(name.to_string().into_boxed_str());
        n.push(s);
        s
    })
}

/// The ruleset of `yaml` (its `ruleset.yaml`) and one `.rules` file holding `rules`,
/// checked: the programs the interpreter's unit tests run.
#[cfg(test)]
pub(crate) fn test_program(yaml: &str, rules: &str) -> Program {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("ruleset.yaml"), yaml).expect("ruleset.yaml written");
    std::fs::write(dir.path().join("test.rules"), rules).expect("test.rules written");
    let (p, diags, _) = crate::compile_dir(dir.path());
    p.unwrap_or_else(|| panic!("does not check: {:?}", diags.items))
}

/// A record of type `type_name` with its defaults, and `fields` set by name (for tests
/// and tools that build arguments by hand). `None` if a name is unknown.
pub fn record(p: &Program, type_name: &str, fields: &[(&str, Value)]) -> Option<Value> {
    let rid = p.records.iter().position(|r| r.name == type_name)?;
    let v = Value::from_const(&p.zero(&Ty::Record(rid)));
    for (name, value) in fields {
        set_field(p, type_name, &v, name, value.clone())?;
    }
    Some(v)
}

/// Field `name` of records of type `type_name`, found once: for a host that reads or sets
/// one field of many records (what [`field`] and [`set_field`] look up by name each time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldRef(usize);

impl FieldRef {
    /// `None` if the program has no such record type or field.
    pub fn new(p: &Program, type_name: &str, name: &str) -> Option<Self> {
        let t = p.records.iter().find(|r| r.name == type_name)?;
        t.fields.iter().position(|f| f.name == name).map(FieldRef)
    }

    /// The field of record `v` (`None` if `v` is not a record with it).
    pub fn get(self, v: &Value) -> Option<Value> {
        let Value::Record(r) = v else { return None };
        let value = r.borrow().get(self.0).cloned();
        value
    }

    /// Sets the field of record `v` (`None` if `v` is not a record with it).
    pub fn set(self, v: &Value, value: Value) -> Option<()> {
        let Value::Record(r) = v else { return None };
        *r.borrow_mut().get_mut(self.0)? = value;
        Some(())
    }
}

/// Reads field `name` of a record of type `type_name`.
pub fn field(p: &Program, type_name: &str, v: &Value, name: &str) -> Option<Value> {
    FieldRef::new(p, type_name, name)?.get(v)
}

/// Sets field `name` of a record of type `type_name`.
pub fn set_field(p: &Program, type_name: &str, v: &Value, name: &str, value: Value) -> Option<()> {
    FieldRef::new(p, type_name, name)?.set(v, value)
}

/// A choice value by variant name (`choice(p, "DamageLevel", "Minor")`).
pub fn choice(p: &Program, choice: &str, variant: &str) -> Option<Value> {
    let c = p.choices.iter().find(|c| c.name == choice)?;
    c.variants
        .iter()
        .position(|v| v.name == variant)
        .map(|i| Value::Choice(i as u16))
}
