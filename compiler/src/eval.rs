//! Backend: the reference interpreter. Runs a checked procedure with a dice source, a
//! decider and a trace sink from the runtime, exactly as generated code does: the same
//! runtime calls, in the same order, with the same trace events. The differential tests
//! hold the two to that.

use crate::ir::{
    self, Agg, AssignOp, BoxPart, CmpOp, Const, DecideOptions, ExprKind as K, FacesPart, IntOp,
    PlaceStep, Program, Stmt, TableKey, Ty,
};
use rulesc_runtime::{
    arith, dice, error, Decide, DiceSource, DiceSpec, Env, Faces, Fight, Fighter, Roll, RuleError,
    RuleErrorKind, Side, TraceEvent, TraceSink, Track,
};
use std::cell::RefCell;
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
    /// Shared, so a procedure changes the caller's combatant in place.
    Record(Rc<RefCell<Vec<Value>>>),
    Outcome {
        tag: u16,
        fields: Rc<Vec<Value>>,
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

impl Value {
    pub fn from_const(c: &Const) -> Value {
        match c {
            Const::Int(i) => Value::Int(*i),
            Const::Bool(b) => Value::Bool(*b),
            Const::Dice(d) => Value::Dice(*d),
            Const::Choice(i) => Value::Choice(*i),
            Const::Track(t) => Value::Track(*t),
            Const::List(v) => Value::List(Rc::new(v.iter().map(Value::from_const).collect())),
            Const::Map(v) => Value::Map(Rc::new(v.iter().map(Value::from_const).collect())),
            Const::Record(v) => Value::Record(Rc::new(RefCell::new(
                v.fields.iter().map(Value::from_const).collect(),
            ))),
            Const::Opt(None) => Value::None,
            Const::Opt(Some(c)) => Value::from_const(c),
        }
    }

    pub fn int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            Value::Roll(r) => r.total,
            Value::Choice(i) => i64::from(*i),
            Value::Bool(b) => i64::from(*b),
            Value::Fighter(f) => i64::from(*f),
            Value::Side(s) => i64::from(*s),
            _ => 0,
        }
    }

    pub fn bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    fn choice(&self) -> u16 {
        match self {
            Value::Choice(i) => *i,
            _ => 0,
        }
    }

    /// A copy that shares nothing mutable with `self`.
    pub fn deep_clone(&self) -> Value {
        match self {
            Value::Record(r) => Value::Record(Rc::new(RefCell::new(
                r.borrow().iter().map(Value::deep_clone).collect(),
            ))),
            Value::List(l) => Value::List(Rc::new(l.iter().map(Value::deep_clone).collect())),
            other => other.clone(),
        }
    }
}

/// How a value prints in traces and results (as generated code's `Display` does).
pub fn show(p: &Program, v: &Value, ty: &Ty) -> String {
    let mut out = Shown {
        text: String::new(),
        limit: usize::MAX - 1,
        fight: None,
    };
    show_into(p, v, ty, &mut out);
    out.text
}

/// [`show`] for a trace event: cut after `show::MAX_SHOWN` bytes, as generated code cuts
/// (`rulesc_runtime::show::cut`), and never built past that, however large the value.
pub fn show_traced(p: &Program, v: &Value, ty: &Ty) -> String {
    show_traced_in(p, None, v, ty)
}

/// [`show_traced`], with the fight whose fighters and sides print by name.
pub fn show_traced_in(p: &Program, fight: Option<&Fight<Value>>, v: &Value, ty: &Ty) -> String {
    let mut out = Shown {
        text: String::new(),
        limit: rulesc_runtime::show::MAX_SHOWN,
        fight,
    };
    show_into(p, v, ty, &mut out);
    rulesc_runtime::show::cut(out.text)
}

/// Text being shown, kept only a little past `limit` bytes (whole characters): enough
/// for [`rulesc_runtime::show::cut`] to cut it as it would cut the whole text.
struct Shown<'f> {
    text: String,
    limit: usize,
    /// The fight whose fighters and sides print by name.
    fight: Option<&'f Fight<Value>>,
}

impl Shown<'_> {
    fn full(&self) -> bool {
        self.text.len() > self.limit
    }

    fn push(&mut self, s: &str) {
        if self.full() {
            return;
        }
        let mut end = (self.limit + 1 - self.text.len()).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        self.text.push_str(&s[..end]);
    }
}

fn show_into(p: &Program, v: &Value, ty: &Ty, out: &mut Shown<'_>) {
    // Items of a list, a map or a record, separated by `, `, until the text is full.
    fn items<'a, I: Iterator<Item = (String, &'a Value, &'a Ty)>>(
        p: &Program,
        parts: I,
        out: &mut Shown<'_>,
    ) {
        for (i, (prefix, v, ty)) in parts.enumerate() {
            if out.full() {
                return;
            }
            if i > 0 {
                out.push(", ");
            }
            out.push(&prefix);
            show_into(p, v, ty, out);
        }
    }
    match (v, ty) {
        (Value::None, _) => out.push("none"),
        (v, Ty::Option(t)) => show_into(p, v, t, out),
        (Value::Choice(i), Ty::Choice(c)) => {
            if let Some(v) = p.choices[*c].variants.get(*i as usize) {
                out.push(&v.label);
            }
        }
        (Value::Fighter(_) | Value::Int(_), Ty::Fighter) => {
            let f = Fighter(v.int().clamp(0, i64::from(u32::MAX)) as u32);
            let name = match out.fight {
                Some(x) => x.name(f).to_string(),
                None => format!("fighter {}", f.0),
            };
            out.push(&name);
        }
        (Value::Side(_) | Value::Int(_), Ty::Side) => {
            let s = Side(v.int().clamp(0, i64::from(u16::MAX)) as u16);
            let name = match out.fight {
                Some(x) => x.side_name(s).to_string(),
                None => format!("side {}", s.0),
            };
            out.push(&name);
        }
        (Value::Int(i), _) => out.push(&i.to_string()),
        (Value::Roll(r), _) => out.push(&r.total.to_string()),
        (Value::Bool(b), _) => out.push(&b.to_string()),
        (Value::Dice(d), _) => out.push(&d.to_string()),
        (Value::Track(t), _) => {
            let boxes: Vec<String> = t.boxes().map(|b| b.to_string()).collect();
            out.push(&format!("[{}]", boxes.join(", ")));
        }
        (Value::TrackBox { number, .. }, _) => out.push(&format!("box {number}")),
        (Value::List(list), Ty::List(elem)) => {
            out.push("[");
            items(p, list.iter().map(|i| (String::new(), i, &**elem)), out);
            out.push("]");
        }
        (Value::Map(map), Ty::Map(k, vt)) => {
            out.push("{");
            let parts = map
                .iter()
                .zip(&p.choices[*k].variants)
                .map(|(i, var)| (format!("{}: ", var.label), i, &**vt));
            items(p, parts, out);
            out.push("}");
        }
        (Value::Record(fields), Ty::Record(r)) => {
            let t = &p.records[*r];
            out.push(&t.name);
            out.push("(");
            let fields = fields.borrow();
            let parts = t
                .fields
                .iter()
                .zip(fields.iter())
                .map(|(f, v)| (format!("{}: ", f.name), v, &f.ty));
            items(p, parts, out);
            out.push(")");
        }
        (Value::Outcome { tag, fields }, Ty::Outcome(o)) => {
            let Some(t) = p.outcomes[*o].tags.get(*tag as usize) else {
                return;
            };
            out.push(&t.label);
            if !t.fields.is_empty() {
                out.push("(");
                let parts = t
                    .fields
                    .iter()
                    .zip(fields.iter())
                    .map(|((n, ty), v)| (format!("{n}: "), v, ty));
                items(p, parts, out);
                out.push(")");
            }
        }
        _ => {}
    }
}

/// How a run's result reads in traces and reports: the value, or
/// `rule error at FILE:LINE: MESSAGE`.
pub fn show_result(p: &Program, result: &Result<Value, RuleError>, ty: &Ty) -> String {
    match result {
        Ok(v) => show(p, v, ty),
        Err(e) => {
            let at = p
                .sites
                .get(e.site as usize)
                .map(|s| format!(" at {}:{}", s.file, s.line))
                .unwrap_or_default();
            format!("rule error{at}: {e}")
        }
    }
}

enum Flow {
    Normal,
    Return(Value),
}

/// What running a statement or expression gives: its value, or the rule error that
/// stopped the resolution.
type Run<T> = Result<T, RuleError>;

/// Runs procedures and formulas of one program.
pub struct Interpreter<'p, 'e, D, X, T> {
    pub prog: &'p Program,
    pub(crate) env: &'e mut Env<D, X, T>,
    /// The running fight, for fight functions.
    pub(crate) fight: Option<&'e mut Fight<Value>>,
    /// Off while a formula runs (formulas are untraced, as in generated code).
    tracing: bool,
    /// Steps taken so far in this run (see [`MAX_STEPS`]).
    steps: u64,
    /// The site of the function running, where a spent budget is reported.
    at: u32,
}

/// Most steps one run of the interpreter takes: each statement, loop turn, call and
/// item of a comprehension is one, and each value copied (a `let` of a record, a list
/// appended, a constant) one more per value in it. Past it the run stops with
/// [`RuleErrorKind::TooManySteps`], so nested loops, fan-out through calls and values
/// doubled by appending are all bounded in time and memory. Generated code has no such
/// budget: the rules always end, and a run within the budget gives the same result.
pub const MAX_STEPS: u64 = 1_000_000;

/// How many values `v` holds (itself included): what copying it costs.
fn weight(v: &Value) -> u64 {
    match v {
        Value::List(items) | Value::Map(items) => {
            items.iter().fold(1u64, |n, i| n.saturating_add(weight(i)))
        }
        Value::Record(fields) => fields
            .borrow()
            .iter()
            .fold(1u64, |n, i| n.saturating_add(weight(i))),
        Value::Outcome { fields, .. } => {
            fields.iter().fold(1u64, |n, i| n.saturating_add(weight(i)))
        }
        _ => 1,
    }
}

/// Calls function `id` with `args` (one per parameter). Records passed in are changed
/// in place when the function changes their state. A rule error stops the run (state
/// changed before it stays changed) and is returned, as generated code returns it.
pub fn call<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    id: ir::Id,
    args: Vec<Value>,
) -> Result<Value, RuleError> {
    let mut it = Interpreter {
        prog,
        env,
        fight: None,
        tracing: true,
        steps: 0,
        at: prog.functions.get(id).map_or(0, |f| f.site),
    };
    it.call(id, args)
}

/// [`call`] in a fight: fighters in `args` (and everything the function reaches) are
/// combatants of `fight`.
pub fn call_in<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    fight: &mut Fight<Value>,
    id: ir::Id,
    args: Vec<Value>,
) -> Result<Value, RuleError> {
    let mut it = Interpreter {
        prog,
        env,
        fight: Some(fight),
        tracing: true,
        steps: 0,
        at: prog.functions.get(id).map_or(0, |f| f.site),
    };
    it.call(id, args)
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
    let mut it = Interpreter {
        prog,
        env,
        fight: None,
        tracing: false,
        steps: 0,
        at: 0,
    };
    it.expr(e, locals)
}

/// Runs one statement in a frame's `locals`, untraced (see [`eval_in`]): `Some(value)`
/// when it returned.
pub fn exec_in<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    locals: &mut Vec<Value>,
    s: &Stmt,
) -> Result<Option<Value>, RuleError> {
    let mut it = Interpreter {
        prog,
        env,
        fight: None,
        tracing: false,
        steps: 0,
        at: 0,
    };
    Ok(match it.stmt(s, locals)? {
        Flow::Return(v) => Some(v),
        Flow::Normal => None,
    })
}

impl<'p, D: DiceSource, X: Decide, T: TraceSink> Interpreter<'p, '_, D, X, T> {
    pub(crate) fn on(&self) -> bool {
        T::ENABLED && self.tracing
    }

    pub(crate) fn event(&mut self, e: TraceEvent) {
        self.env.trace.event(e);
    }

    /// How a value reads in a trace event (fighters and sides by name).
    pub(crate) fn show(&self, v: &Value, ty: &Ty) -> String {
        show_traced_in(self.prog, self.fight.as_deref(), v, ty)
    }

    /// A rule error met here: recorded in the trace when a procedure meets it (formulas
    /// are untraced: the procedure calling one records it), as generated code does.
    fn fail(&mut self, site: u32, kind: RuleErrorKind) -> RuleError {
        let e = RuleError::new(site, kind);
        if self.on() {
            error::fail(&mut self.env.trace, e)
        } else {
            e
        }
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

    pub(crate) fn call(&mut self, id: ir::Id, args: Vec<Value>) -> Run<Value> {
        self.step(1)?;
        let f = &self.prog.functions[id];
        let caller = std::mem::replace(&mut self.at, f.site);
        let result = self.call_body(f, args);
        self.at = caller;
        result
    }

    fn call_body(&mut self, f: &'p ir::Function, args: Vec<Value>) -> Run<Value> {
        let mut locals: Vec<Value> = vec![Value::Unit; f.locals.len()];
        for (slot, a) in args.into_iter().enumerate().take(f.params.len()) {
            locals[slot] = a;
        }
        match &f.body {
            ir::Body::Formula(e) => {
                let was = self.tracing;
                self.tracing = false;
                let v = self.expr(e, &mut locals);
                self.tracing = was;
                v
            }
            ir::Body::Procedure(stmts) => {
                if self.on() {
                    self.event(TraceEvent::Call { site: f.site });
                }
                match self.block(stmts, &mut locals)? {
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

    fn block(&mut self, stmts: &[Stmt], locals: &mut Vec<Value>) -> Run<Flow> {
        for s in stmts {
            // An enumeration that cut this path off (or ran out of budget) stops the run
            // here; its result is discarded.
            if self.env.dice.stopped() {
                return Ok(Flow::Return(Value::Unit));
            }
            self.step(1)?;
            if let Flow::Return(v) = self.stmt(s, locals)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Normal)
    }

    fn stmt(&mut self, s: &Stmt, locals: &mut Vec<Value>) -> Run<Flow> {
        match s {
            // `let slot = value`
            Stmt::Let { slot, value, site } => {
                let v = self.expr(value, locals)?;
                // A record or list read from state is a copy (value semantics); a local
                // bound to a parameter stays that parameter (`let me = c`).
                let v = if matches!(value.kind, K::Local(_)) {
                    v
                } else {
                    self.copy(&v)?
                };
                if self.on() {
                    let shown = self.show(&v, &value.ty);
                    self.event(TraceEvent::Assign {
                        site: *site,
                        value: shown,
                    });
                }
                locals[*slot] = v;
            }
            // `place = value`, `place += value`, `place -= value`
            Stmt::Assign {
                place,
                op,
                value,
                site,
            } => {
                let v = self.expr(value, locals)?;
                let v = self.copy(&v)?;
                let keys = self.place_keys(place, locals)?;
                let new = update(locals, self.fight.as_deref(), place, &keys, |old| {
                    *old = match (op, &mut *old) {
                        (AssignOp::Set, _) => v,
                        (AssignOp::Add, Value::List(items)) => {
                            if let Value::List(more) = v {
                                error::room(items.len(), more.len(), *site).map_err(|e| e.kind)?;
                                Rc::make_mut(items).extend(more.iter().cloned());
                            }
                            return Ok(());
                        }
                        (AssignOp::Add, _) => Value::Int(arith::add(old.int(), v.int())),
                        (AssignOp::Sub, _) => Value::Int(arith::sub(old.int(), v.int())),
                    };
                    Ok(())
                });
                let new = match new {
                    Ok(new) => new,
                    Err(kind) => return Err(self.fail(*site, kind)),
                };
                if self.on() {
                    let shown = self.show(&new, &place.ty);
                    self.event(TraceEvent::Assign {
                        site: *site,
                        value: shown,
                    });
                }
            }
            // `if c { .. } else if c { .. } else { .. }`
            Stmt::If {
                branches,
                otherwise,
            } => {
                for (cond, body, site) in branches {
                    let taken = self.expr(cond, locals)?.bool();
                    if self.on() {
                        self.event(TraceEvent::Branch { site: *site, taken });
                    }
                    if taken {
                        return self.block(body, locals);
                    }
                }
                if let Some(o) = otherwise {
                    return self.block(o, locals);
                }
            }
            // `match e { Case => { .. } }`
            Stmt::Match { scrutinee, arms } => {
                let v = self.expr(scrutinee, locals)?;
                if let Some(arm) = self.pick_arm(&v, &scrutinee.ty, arms, locals) {
                    return self.block(&arm.body, locals);
                }
            }
            // `for var in list { .. }`
            Stmt::For { var, list, body } => {
                let items = self.list(list, locals)?;
                // The loop walks a copy of the list: changing the list inside the loop
                // does not change what the loop visits.
                for item in items.iter() {
                    locals[*var] = self.copy(item)?;
                    if let Flow::Return(v) = self.block(body, locals)? {
                        return Ok(Flow::Return(v));
                    }
                }
            }
            // `for var in lo..hi { .. }`
            Stmt::ForRange { var, lo, hi, body } => {
                let lo = self.expr(lo, locals)?.int();
                let hi = self.expr(hi, locals)?.int();
                let mut i = lo;
                let mut n = 0;
                while i < hi && n < rulesc_runtime::MAX_LOOP {
                    self.step(1)?;
                    locals[*var] = Value::Int(i);
                    if let Flow::Return(v) = self.block(body, locals)? {
                        return Ok(Flow::Return(v));
                    }
                    i += 1;
                    n += 1;
                }
            }
            // `return value`
            Stmt::Return { value, site } => {
                let (v, ty) = match value {
                    Some(e) => (self.expr(e, locals)?, e.ty.clone()),
                    None => (Value::Unit, Ty::Unit),
                };
                if self.on() {
                    let shown = self.show(&v, &ty);
                    self.event(TraceEvent::Return {
                        site: *site,
                        value: shown,
                    });
                }
                return Ok(Flow::Return(v));
            }
            Stmt::Expr(e) => {
                self.expr(e, locals)?;
            }
            Stmt::Schedule {
                at,
                action,
                args,
                site,
            } => self.schedule(at, *action, args, *site, locals)?,
            Stmt::Advance { amount, .. } => {
                let amount = self.expr(amount, locals)?.int();
                self.advance(amount)?;
            }
        }
        Ok(Flow::Normal)
    }

    /// The keys and indices on a place's path, evaluated in order (fields give `Unit`).
    fn place_keys(&mut self, place: &ir::Place, locals: &mut Vec<Value>) -> Run<Vec<Value>> {
        place
            .path
            .iter()
            .map(|st| match st {
                PlaceStep::Key(k) | PlaceStep::Index(k) => self.expr(k, locals),
                PlaceStep::Field(_) => Ok(Value::Unit),
            })
            .collect()
    }

    /// Finds the arm for `v`, binds its fields, traces the choice.
    fn pick_arm<'a, B>(
        &mut self,
        v: &Value,
        ty: &Ty,
        arms: &'a [ir::MatchArm<B>],
        locals: &mut [Value],
    ) -> Option<&'a ir::MatchArm<B>> {
        let tag = match v {
            Value::Outcome { tag, .. } => *tag,
            other => other.choice(),
        };
        let arm = arms
            .iter()
            .find(|a| a.alts.is_empty() || a.alts.contains(&tag))?;
        if let Value::Outcome { fields, .. } = v {
            for (slot, f) in arm.binds.iter().zip(fields.iter()) {
                if let Some(s) = slot {
                    locals[*s] = f.clone();
                }
            }
        }
        if self.on() {
            let shown = self.show(v, ty);
            self.event(TraceEvent::Match {
                site: arm.site,
                arm: shown,
            });
        }
        Some(arm)
    }

    /// A list-typed expression's elements.
    fn list(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<Rc<Vec<Value>>> {
        Ok(match self.expr(e, locals)? {
            Value::List(l) => l,
            _ => Rc::new(Vec::new()),
        })
    }

    pub(crate) fn expr(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<Value> {
        Ok(match &e.kind {
            K::Const(c) => {
                let v = Value::from_const(c);
                self.step(weight(&v))?;
                v
            }
            K::Local(s) => locals[*s].clone(),
            // `record.field`
            K::Field(r, i) => match self.expr(r, locals)? {
                Value::Record(r) => r.borrow().get(*i).cloned().unwrap_or(Value::Unit),
                _ => Value::Unit,
            },
            // `box.number`, `box.level`, `box.attr`
            K::BoxPart(b, part) => match self.expr(b, locals)? {
                Value::TrackBox { track, number } => {
                    let def = &self.prog.tracks[track];
                    let bx = &def.boxes[usize::from(number)
                        .saturating_sub(1)
                        .min(def.boxes.len().saturating_sub(1))];
                    match part {
                        BoxPart::Number => Value::Int(i64::from(number)),
                        BoxPart::Level => Value::Choice(bx.level),
                        BoxPart::Attr(a) => Value::Int(bx.attrs.get(*a).copied().unwrap_or(0)),
                    }
                }
                _ => Value::Unit,
            },
            // `map[key]` (keyed by a scale or enum: every key has an entry)
            K::MapGet(m, k) => {
                let m = self.expr(m, locals)?;
                let k = self.expr(k, locals)?.choice();
                match m {
                    Value::Map(items) => items.get(k as usize).cloned().unwrap_or(Value::Unit),
                    _ => Value::Unit,
                }
            }
            K::Lookup {
                table,
                key,
                column,
                site,
                ..
            } => self.lookup(*table, key, column.as_deref(), *site, locals)?,
            K::Call(f, args) => {
                let params = &self.prog.functions[*f].params;
                let args = args
                    .iter()
                    .zip(params)
                    .map(|(a, p)| {
                        // A record read from the fight is passed as a copy.
                        let v = self.expr(a, locals)?;
                        Ok(if ir::copied_from_fight(a, p) {
                            v.deep_clone()
                        } else {
                            v
                        })
                    })
                    .collect::<Run<Vec<Value>>>()?;
                match self.call(*f, args) {
                    // A formula's rule error is recorded by the procedure calling it.
                    Err(e) if self.on() && !self.prog.functions[*f].is_procedure() => {
                        return Err(error::fail(&mut self.env.trace, e))
                    }
                    other => other?,
                }
            }
            K::Neg(a) => Value::Int(arith::neg(self.expr(a, locals)?.int())),
            K::Not(a) => Value::Bool(!self.expr(a, locals)?.bool()),
            K::Int(op, a, b) => {
                let (a, b) = (self.expr(a, locals)?.int(), self.expr(b, locals)?.int());
                Value::Int(match op {
                    IntOp::Add => arith::add(a, b),
                    IntOp::Sub => arith::sub(a, b),
                    IntOp::Mul => arith::mul(a, b),
                    IntOp::Div => arith::div(a, b),
                    IntOp::Rem => arith::rem(a, b),
                })
            }
            // `a / b`, `a % b` where `b` may be 0
            K::CheckedDiv(op, a, b, site) => {
                let (a, b) = (self.expr(a, locals)?.int(), self.expr(b, locals)?.int());
                if b == 0 {
                    return Err(self.fail(*site, RuleErrorKind::DivideByZero));
                }
                Value::Int(if *op == IntOp::Rem {
                    arith::rem(a, b)
                } else {
                    arith::div(a, b)
                })
            }
            // `roll ± n`
            K::RollAdd {
                roll,
                delta,
                negate,
            } => {
                let r = match self.expr(roll, locals)? {
                    Value::Roll(r) => r,
                    other => Roll {
                        total: other.int(),
                        natural: 0,
                    },
                };
                let d = self.expr(delta, locals)?.int();
                let total = if *negate {
                    arith::sub(r.total, d)
                } else {
                    arith::add(r.total, d)
                };
                Value::Roll(Roll {
                    total,
                    natural: r.natural,
                })
            }
            // `level ± n`
            K::LevelStep {
                level,
                delta,
                negate,
            } => {
                let l = self.expr(level, locals)?.choice();
                let d = self.expr(delta, locals)?.int();
                let d = if *negate { arith::neg(d) } else { d };
                let len = match &e.ty {
                    Ty::Choice(c) => self.prog.choices[*c].variants.len(),
                    _ => 1,
                };
                Value::Choice(
                    arith::step_level(l.min(u16::from(u8::MAX)) as u8, d, len.min(255) as u8)
                        .into(),
                )
            }
            K::Compare(op, a, b) => {
                let (a, b) = (self.expr(a, locals)?, self.expr(b, locals)?);
                let (a, b) = (a.int(), b.int());
                Value::Bool(match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                })
            }
            K::And(a, b) => {
                Value::Bool(self.expr(a, locals)?.bool() && self.expr(b, locals)?.bool())
            }
            K::Or(a, b) => {
                Value::Bool(self.expr(a, locals)?.bool() || self.expr(b, locals)?.bool())
            }
            // `x in list`
            K::In(x, l) => {
                let x = self.expr(x, locals)?;
                let items = self.list(l, locals)?;
                Value::Bool(items.iter().any(|i| values_equal(i, &x)))
            }
            K::ToInt(a) => Value::Int(self.expr(a, locals)?.int()),
            K::Natural(a) => match self.expr(a, locals)? {
                Value::Roll(r) => Value::Int(r.natural),
                _ => Value::Int(0),
            },
            K::Min(xs) | K::Max(xs) => {
                let is_max = matches!(e.kind, K::Max(_));
                let vals = xs
                    .iter()
                    .map(|x| self.expr(x, locals))
                    .collect::<Run<Vec<Value>>>()?;
                let best = vals
                    .iter()
                    .map(Value::int)
                    .reduce(|a, b| if is_max { a.max(b) } else { a.min(b) })
                    .unwrap_or(0);
                rewrap(best, &e.ty)
            }
            K::Clamp(x, lo, hi) => {
                let x = self.expr(x, locals)?.int();
                let lo = self.expr(lo, locals)?.int();
                let hi = self.expr(hi, locals)?.int();
                rewrap(arith::clamp(x, lo, hi), &e.ty)
            }
            K::Abs(a) => Value::Int(self.expr(a, locals)?.int().saturating_abs()),
            K::Len(a) => Value::Int(self.list(a, locals)?.len() as i64),
            // `dice * n`
            K::DiceTimes(d, n) => {
                let d = self.expr(d, locals)?;
                let n = self.expr(n, locals)?.int();
                match d {
                    Value::Dice(d) => Value::Dice(d.times(n)),
                    other => other,
                }
            }
            // `roll dice`
            K::Roll {
                dice: d,
                site,
                faces,
            } => {
                let spec = match self.expr(d, locals)? {
                    Value::Dice(s) => s,
                    _ => DiceSpec::new(0, 1),
                };
                match faces {
                    None => Value::Roll(self.roll(spec, *site)),
                    Some(slot) => {
                        let (r, f) = self.roll_faces(spec, *site);
                        locals[*slot] = Value::Faces(Rc::new(f));
                        Value::Roll(r)
                    }
                }
            }
            // `faces(r)`, `kept(r)`, `dropped(r)`
            K::Faces { part, of, slot } => {
                self.expr(of, locals)?;
                let Value::Faces(f) = &locals[*slot] else {
                    return Ok(Value::List(Rc::new(Vec::new())));
                };
                let dice = match part {
                    FacesPart::All => f.all(),
                    FacesPart::Kept => f.kept(),
                    FacesPart::Dropped => f.dropped(),
                };
                Value::List(Rc::new(dice.into_iter().map(Value::Int).collect()))
            }
            K::RollTable { table, among, site } => self.roll_table(*table, among, *site, locals)?,
            K::Decide {
                name,
                options,
                site,
            } => self.decide(name, options, *site, locals)?,
            K::Fill { track, level, site } => self.fill(track, level, *site, locals)?,
            // `filled(track)`
            K::Filled(t) => {
                let v = self.expr(t, locals)?;
                let (Value::Track(track), Ty::Track(tid)) = (v, &t.ty) else {
                    return Ok(Value::List(Rc::new(Vec::new())));
                };
                let n = self.prog.tracks[*tid].boxes.len();
                let boxes = track
                    .boxes()
                    .filter(|&b| b <= n)
                    .map(|b| Value::TrackBox {
                        track: *tid,
                        number: b as u16,
                    })
                    .collect();
                Value::List(Rc::new(boxes))
            }
            K::Aggregate {
                kind,
                var,
                list,
                cond,
                body,
            } => self.aggregate(*kind, *var, list, cond.as_deref(), body, &e.ty, locals)?,
            // `if c then a else b`
            K::If(c, a, b) => {
                if self.expr(c, locals)?.bool() {
                    self.expr(a, locals)?
                } else {
                    self.expr(b, locals)?
                }
            }
            // `match e { Case => value }`
            K::Match { scrutinee, arms } => {
                let v = self.expr(scrutinee, locals)?;
                match self.pick_arm(&v, &scrutinee.ty, arms, locals) {
                    Some(arm) => self.expr(&arm.body, locals)?,
                    None => Value::Unit,
                }
            }
            // `Tag(field: value, ..)`
            K::MakeOutcome { tag, fields, .. } => {
                // Copies, as a new record's fields: a later change of state does not
                // change an outcome already made.
                let fields = self.copies(fields, locals)?;
                Value::Outcome {
                    tag: *tag,
                    fields: Rc::new(fields),
                }
            }
            // `Record(field: value, ..)`
            K::MakeRecord { fields, .. } => {
                Value::Record(Rc::new(RefCell::new(self.copies(fields, locals)?)))
            }
            // `[a, b, c]`
            K::List(items) => Value::List(Rc::new(self.copies(items, locals)?)),
            K::Collect {
                var,
                list,
                cond,
                body,
            } => self.collect(*var, list, cond.as_deref(), body, locals)?,
            // `e` where a `T?` is wanted: a present value is the value itself.
            K::Some(x) | K::Unwrap(x) => self.expr(x, locals)?,
            // `x != none`
            K::IsSome(x) => Value::Bool(!matches!(self.expr(x, locals)?, Value::None)),
            // `lo..hi`
            K::Range(lo, hi) => {
                let lo = self.expr(lo, locals)?.int();
                let hi = self.expr(hi, locals)?.int();
                let n = hi.saturating_sub(lo).clamp(0, rulesc_runtime::MAX_LOOP);
                Value::List(Rc::new((0..n).map(|i| Value::Int(lo + i)).collect()))
            }
            K::Find {
                var,
                list,
                cond,
                index,
            } => self.find(*var, list, cond.as_deref(), *index, locals)?,
            K::Sort {
                var,
                list,
                cond,
                keys,
            } => {
                let mut keyed = self.keyed(*var, list, cond.as_deref(), keys, locals)?;
                // Stable: equal keys keep the list's order.
                keyed.sort_by(|a, b| a.0.cmp(&b.0));
                Value::List(Rc::new(keyed.into_iter().map(|(_, v)| v).collect()))
            }
            K::Best {
                var,
                list,
                cond,
                keys,
                max,
            } => {
                let keyed = self.keyed(*var, list, cond.as_deref(), keys, locals)?;
                let mut best: Option<(Vec<i64>, Value)> = None;
                for (k, v) in keyed {
                    let better = match &best {
                        None => true,
                        Some((b, _)) if *max => k > *b,
                        Some((b, _)) => k < *b,
                    };
                    if better {
                        best = Some((k, v));
                    }
                }
                best.map_or(Value::None, |(_, v)| v)
            }
            // `list[i]`
            K::Combatant(f) => {
                let f = self.expr(f, locals)?.int();
                self.combatant(f)
            }
            K::Fight(q, args) => {
                let args = args
                    .iter()
                    .map(|a| self.expr(a, locals))
                    .collect::<Run<Vec<Value>>>()?;
                self.fight_query(*q, args)?
            }
            K::ListGet(list, index, check) => {
                let l = self.list(list, locals)?;
                let i = self.expr(index, locals)?.int();
                match usize::try_from(i).ok().and_then(|i| l.get(i)) {
                    Some(v) => v.clone(),
                    None => {
                        let kind = RuleErrorKind::Index {
                            index: i,
                            len: l.len(),
                        };
                        return Err(self.fail(check.unwrap_or(0), kind));
                    }
                }
            }
        })
    }

    /// `first(var in list if cond)`, or with `index` `index_of(..)`.
    fn find(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        index: bool,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let items = self.list(list, locals)?;
        for (i, item) in items.iter().enumerate() {
            locals[var] = item.deep_clone();
            let holds = match cond {
                Some(c) => self.expr(c, locals)?.bool(),
                None => true,
            };
            if holds {
                return Ok(if index {
                    Value::Int(i as i64)
                } else {
                    item.deep_clone()
                });
            }
        }
        Ok(Value::None)
    }

    /// The elements of `list` passing `cond`, each with its keys, in list order (each
    /// element's condition and keys evaluated once, left to right).
    fn keyed(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        keys: &[ir::Expr],
        locals: &mut Vec<Value>,
    ) -> Run<Vec<(Vec<i64>, Value)>> {
        let mut out = Vec::new();
        self.each(var, list, cond, locals, &mut |it, locals| {
            let k = keys
                .iter()
                .map(|k| it.expr(k, locals).map(|v| v.int()))
                .collect::<Run<Vec<i64>>>()?;
            out.push((k, locals[var].clone()));
            Ok(true)
        })?;
        Ok(out)
    }

    /// Deep copies of each expression's value, in order.
    fn copies(&mut self, xs: &[ir::Expr], locals: &mut Vec<Value>) -> Run<Vec<Value>> {
        xs.iter()
            .map(|x| {
                let v = self.expr(x, locals)?;
                self.copy(&v)
            })
            .collect()
    }

    fn roll(&mut self, spec: DiceSpec, site: u32) -> Roll {
        if self.on() {
            dice::roll(&mut self.env.dice, spec, &mut self.env.trace, site)
        } else {
            dice::roll(&mut self.env.dice, spec, &mut rulesc_runtime::NoTrace, site)
        }
    }

    fn roll_faces(&mut self, spec: DiceSpec, site: u32) -> (Roll, Faces) {
        if self.on() {
            dice::roll_faces(&mut self.env.dice, spec, &mut self.env.trace, site)
        } else {
            dice::roll_faces(&mut self.env.dice, spec, &mut rulesc_runtime::NoTrace, site)
        }
    }

    /// `table[key]`, or `table[key, column]`
    fn lookup(
        &mut self,
        table: ir::Id,
        key: &ir::Expr,
        column: Option<&ir::Expr>,
        site: u32,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let k = self.expr(key, locals)?;
        let col = match column {
            Some(c) => Some(self.expr(c, locals)?),
            None => None,
        };
        let t = &self.prog.tables[table];
        let key_ty = |k: &TableKey| match k {
            TableKey::Choice(c) => Ty::Choice(*c),
            _ => Ty::Int,
        };
        let found = match (&col, &t.columns) {
            (Some(cv), Some(cols)) => t
                .cell(k.int(), cv.int())
                .map(Value::from_const)
                .map(|v| (v, Some(key_ty(&cols.key)))),
            _ => lookup(t, k.int()).map(|v| (v, None)),
        };
        let shown = |ev: &Self, col_ty: &Option<Ty>| {
            let ks = ev.show(&k, &key_ty(&t.key));
            match (&col, col_ty) {
                (Some(cv), Some(ct)) => format!("{ks}, {}", ev.show(cv, ct)),
                _ => ks,
            }
        };
        let Some((v, col_ty)) = found else {
            let col_ty = t.columns.as_ref().map(|cols| key_ty(&cols.key));
            let kind = RuleErrorKind::NoRow {
                table: leak_name(&t.name),
                key: shown(self, &col_ty),
            };
            return Err(self.fail(site, kind));
        };
        if self.on() {
            let (ks, vs) = (shown(self, &col_ty), self.show(&v, &t.value));
            self.event(TraceEvent::Lookup {
                site,
                key: ks,
                value: vs,
            });
        }
        Ok(v)
    }

    /// `roll table` or `roll table among list`
    fn roll_table(
        &mut self,
        table: ir::Id,
        among: &Option<Box<ir::Expr>>,
        site: u32,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let t = &self.prog.tables[table];
        let TableKey::Die(die) = t.key else {
            return Ok(Value::Unit);
        };
        let allowed = match among {
            Some(a) => Some(self.list(a, locals)?.to_vec()),
            None => None,
        };
        let (spec, faces) = table_roll_faces(t, die, allowed.as_deref());
        let r = self.roll(spec, site);
        let face = match &faces {
            Some(segments) => dice::nth_total(segments.iter().copied(), r.total.max(1)),
            None => r.total,
        };
        // Every face of the table's die has a row (checked), and `among` picks faces.
        let v = lookup(t, face).unwrap_or(Value::Unit);
        if self.on() {
            let vs = self.show(&v, &t.value);
            self.event(TraceEvent::Lookup {
                site,
                key: face.to_string(),
                value: vs,
            });
        }
        Ok(v)
    }

    /// `decide name: Type` or `decide name from list`
    fn decide(
        &mut self,
        name: &str,
        options: &DecideOptions,
        site: u32,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let name: &'static str = leak_name(name);
        let (v, elem_ty) = match options {
            DecideOptions::Choice(c) => {
                let n = self.prog.choices[*c].variants.len() as u32;
                let i = self.env.decide.decide(name, n).min(n.saturating_sub(1));
                (Value::Choice(i as u16), Ty::Choice(*c))
            }
            DecideOptions::Bool => {
                let i = self.env.decide.decide(name, 2).min(1);
                (Value::Bool(i == 1), Ty::Bool)
            }
            DecideOptions::List(l) => {
                let items = self.list(l, locals)?;
                let elem = match &l.ty {
                    Ty::List(t) => (**t).clone(),
                    _ => Ty::Error,
                };
                if items.is_empty() {
                    return Err(self.fail(site, RuleErrorKind::NoOptions { decision: name }));
                }
                let n = items.len() as u32;
                let i = self.env.decide.decide(name, n).min(n - 1);
                (items[i as usize].clone(), elem)
            }
        };
        if self.on() {
            let shown = self.show(&v, &elem_ty);
            self.event(TraceEvent::Decide {
                site,
                choice: shown,
            });
        }
        Ok(v)
    }

    /// `fill track level`
    fn fill(
        &mut self,
        track: &ir::Place,
        level: &ir::Expr,
        site: u32,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let lvl = self.expr(level, locals)?.choice();
        let keys = self.place_keys(track, locals)?;
        let Ty::Track(tid) = track.ty else {
            return Ok(Value::Int(0));
        };
        let def = &self.prog.tracks[tid];
        let levels: Vec<u8> = def.boxes.iter().map(|b| b.level.min(255) as u8).collect();
        let mut result = None;
        let changed = update(locals, self.fight.as_deref(), track, &keys, |old| {
            let mut t = match old {
                Value::Track(t) => *t,
                _ => Track::default(),
            };
            result = t.fill(&levels, lvl.min(255) as u8, def.escalate);
            *old = Value::Track(t);
            Ok(())
        });
        if let Err(kind) = changed {
            return Err(self.fail(site, kind));
        }
        let (slot, filled_level) = match result {
            Some((n, l)) => (n as i64, u16::from(l)),
            None => (0, lvl),
        };
        if self.on() {
            let label = show_traced(
                self.prog,
                &Value::Choice(filled_level),
                &Ty::Choice(def.scale),
            );
            self.event(TraceEvent::Fill {
                site,
                level: label,
                slot,
            });
        }
        Ok(Value::Int(slot))
    }

    /// `sum/count/any/all/max/min(body for var in list if cond)`
    #[allow(clippy::too_many_arguments)]
    fn aggregate(
        &mut self,
        kind: Agg,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        body: &ir::Expr,
        ty: &Ty,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let mut acc: Option<i64> = None;
        let mut count = 0i64;
        let mut stop = None;
        self.each(var, list, cond, locals, &mut |it, locals| {
            match kind {
                Agg::Count => count = count.saturating_add(1),
                Agg::Any => {
                    if it.expr(body, locals)?.bool() {
                        stop = Some(true);
                    }
                }
                Agg::All => {
                    if !it.expr(body, locals)?.bool() {
                        stop = Some(false);
                    }
                }
                Agg::Sum => acc = Some(arith::add(acc.unwrap_or(0), it.expr(body, locals)?.int())),
                Agg::Max => {
                    let v = it.expr(body, locals)?.int();
                    acc = Some(acc.map_or(v, |a| a.max(v)));
                }
                Agg::Min => {
                    let v = it.expr(body, locals)?.int();
                    acc = Some(acc.map_or(v, |a| a.min(v)));
                }
            }
            Ok(stop.is_none())
        })?;
        Ok(match kind {
            Agg::Count => Value::Int(count),
            Agg::Any => Value::Bool(stop.unwrap_or(false)),
            Agg::All => Value::Bool(stop.unwrap_or(true)),
            _ => rewrap(acc.unwrap_or(0), ty),
        })
    }

    /// `[body for var in list if cond]`
    fn collect(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        body: &ir::Expr,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let mut out = Vec::new();
        self.each(var, list, cond, locals, &mut |it, locals| {
            let v = it.expr(body, locals)?;
            out.push(it.copy(&v)?);
            Ok(true)
        })?;
        Ok(Value::List(Rc::new(out)))
    }

    /// The one item loop of aggregates and comprehensions: binds `var` to a copy of each
    /// element of `list` (as `for` does: a procedure called in the body that changes the
    /// list's records does not change it), skips those failing `cond`, and calls `f`
    /// until it returns false.
    fn each(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        locals: &mut Vec<Value>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> Run<bool>,
    ) -> Run<()> {
        let items = self.list(list, locals)?;
        for item in items.iter() {
            locals[var] = self.copy(item)?;
            if let Some(c) = cond {
                if !self.expr(c, locals)?.bool() {
                    continue;
                }
            }
            if !f(self, locals)? {
                break;
            }
        }
        Ok(())
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

fn rewrap(v: i64, ty: &Ty) -> Value {
    match ty {
        Ty::Choice(_) => Value::Choice(v.clamp(0, i64::from(u16::MAX)) as u16),
        _ => Value::Int(v),
    }
}

fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Record(x), Value::Record(y)) => Rc::ptr_eq(x, y) || *x.borrow() == *y.borrow(),
        (Value::Roll(_) | Value::Int(_), Value::Roll(_) | Value::Int(_)) => a.int() == b.int(),
        _ => a == b,
    }
}

/// The row holding `key`, else the default; `None` when neither (a die table read with
/// `[k]` off its faces): a rule error, never a made-up row.
pub fn lookup(t: &ir::Table, key: i64) -> Option<Value> {
    match t.row(key) {
        Some(r) => Some(Value::from_const(&r.value)),
        None => t.default.as_ref().map(Value::from_const),
    }
}

/// What to roll for a die table, and (with `among`) the allowed totals: the segments
/// ([`ir::Table::segments`]) whose value is in the list, in order. The roll is then a
/// `dN` over their totals (`N` their count), the `k`th total found by walking them;
/// none allowed: the whole die. Work grows with the rows, never with the die's faces.
pub fn table_roll_faces(
    t: &ir::Table,
    die: DiceSpec,
    allowed: Option<&[Value]>,
) -> (DiceSpec, Option<Vec<(i64, i64)>>) {
    let Some(allowed) = allowed else {
        return (die, None);
    };
    let (lo, hi) = die.range();
    let segments: Vec<(i64, i64)> = t
        .segments(lo, hi)
        .into_iter()
        .filter(|&(a, _)| lookup(t, a).is_some_and(|v| allowed.iter().any(|x| values_equal(x, &v))))
        .collect();
    let count: i64 = segments.iter().map(|(a, b)| b - a + 1).sum();
    if count == 0 {
        (die, None)
    } else {
        (DiceSpec::new(1, count as u32), Some(segments))
    }
}

/// Applies `f` to the value at `place` (keys already evaluated) and returns the new value,
/// or the rule error of a list index outside its list.
fn update(
    locals: &mut [Value],
    fight: Option<&Fight<Value>>,
    place: &ir::Place,
    keys: &[Value],
    f: impl FnOnce(&mut Value) -> Result<(), RuleErrorKind>,
) -> Result<Value, RuleErrorKind> {
    fn go(
        v: &mut Value,
        steps: &[PlaceStep],
        keys: &[Value],
        f: impl FnOnce(&mut Value) -> Result<(), RuleErrorKind>,
    ) -> Result<Value, RuleErrorKind> {
        let Some((first, rest)) = steps.split_first() else {
            // Changed in place: appending to a list not shared costs the items appended.
            f(v)?;
            return Ok(v.clone());
        };
        match (first, v) {
            (PlaceStep::Field(i), Value::Record(r)) => {
                let mut r = r.borrow_mut();
                match r.get_mut(*i) {
                    Some(slot) => go(slot, rest, &keys[1..], f),
                    None => Ok(Value::Unit),
                }
            }
            (PlaceStep::Key(_), Value::Map(m)) => {
                let k = keys[0].choice() as usize;
                let m = Rc::make_mut(m);
                match m.get_mut(k) {
                    Some(slot) => go(slot, rest, &keys[1..], f),
                    None => Ok(Value::Unit),
                }
            }
            (PlaceStep::Index(_), Value::List(l)) => {
                let i = keys[0].int();
                let l = Rc::make_mut(l);
                let len = l.len();
                match usize::try_from(i).ok().and_then(|i| l.get_mut(i)) {
                    Some(slot) => go(slot, rest, &keys[1..], f),
                    None => Err(RuleErrorKind::Index { index: i, len }),
                }
            }
            _ => Ok(Value::Unit),
        }
    }
    // A path under a fighter changes its combatant in the fight.
    if let (Value::Fighter(i), Some(fight), false) =
        (&locals[place.root], fight, place.path.is_empty())
    {
        let mut combatant = fight
            .combatants
            .get(*i as usize)
            .cloned()
            .unwrap_or(Value::Unit);
        return go(&mut combatant, &place.path, keys, f);
    }
    go(&mut locals[place.root], &place.path, keys, f)
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

fn field_index(p: &Program, type_name: &str, name: &str) -> Option<usize> {
    let t = p.records.iter().find(|r| r.name == type_name)?;
    t.fields.iter().position(|f| f.name == name)
}

/// Reads field `name` of a record of type `type_name`.
pub fn field(p: &Program, type_name: &str, v: &Value, name: &str) -> Option<Value> {
    let i = field_index(p, type_name, name)?;
    let Value::Record(r) = v else { return None };
    let value = r.borrow().get(i).cloned();
    value
}

/// Sets field `name` of a record of type `type_name`.
pub fn set_field(p: &Program, type_name: &str, v: &Value, name: &str, value: Value) -> Option<()> {
    let i = field_index(p, type_name, name)?;
    let Value::Record(r) = v else { return None };
    *r.borrow_mut().get_mut(i)? = value;
    Some(())
}

/// A choice value by variant name (`choice(p, "DamageLevel", "Minor")`).
pub fn choice(p: &Program, choice: &str, variant: &str) -> Option<Value> {
    let c = p.choices.iter().find(|c| c.name == choice)?;
    c.variants
        .iter()
        .position(|v| v.name == variant)
        .map(|i| Value::Choice(i as u16))
}
