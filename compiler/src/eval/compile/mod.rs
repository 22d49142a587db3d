//! The compile step: each function of a program turned once into closures, kept with the
//! program ([`ir::Program::compiled`]) and run by every later call. A closure per IR
//! node, made for its shape and type: integer and boolean subtrees give `i64`/`bool`,
//! locals are slots of the call's frame, constants, table ids, a track's levels, a
//! decision's name and which arguments are copied are worked out here, not per run.
//!
//! The closures are the walker's (`eval::expr`, `eval::stmt`) semantics node for node:
//! the same steps charged at the same points, the same trace events, the same rule
//! errors. What is rare (fight built-ins, `sort`, comprehensions, timers, ...) compiles to
//! a closure that hands its node to the walker, which itself calls compiled functions.
//! `expr.rs`: expressions by type; `held.rs`: values read where they are held (locals and
//! their fields in place, a table's rows); `items.rs`: calls, lists walked item by item,
//! effects.

mod expr;
mod held;
mod inline;
mod items;
mod operands;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod walker_tests;

use super::{Flow, Interpreter, Value};
use crate::ir::{self, AssignOp, MatchArm, PlaceStep, Program, Stmt, Ty};
use expr::Wrapped;
use operands::LetRoll;
use rulesc_runtime::{__private::arith, __private::error, RuleError, TraceEvent};
use std::cell::Cell;
use std::rc::Rc;

/// What a compiled node gives: `T`, or the rule error that stopped the run, boxed so that
/// an `i64` or `bool` result comes back in registers (errors are rare).
type Got<T> = Result<T, Box<RuleError>>;

/// A compiled node giving `T`, run with the interpreter and the call's frame.
type Fx<T> = Box<dyn Fn(&mut Interpreter<'_, '_>, &mut Vec<Value>) -> Got<T> + Send + Sync>;
type ValueFn = Fx<Value>;
type IntFn = Fx<i64>;
type BoolFn = Fx<bool>;
type StmtFn = Fx<Flow>;

/// A program compiled: one entry per function, by id.
pub(crate) struct Code {
    pub(super) functions: Vec<Function>,
    /// The functions the core IR takes so far, lowered (see [`crate::core_ir`]): the
    /// VM runs those at a call from outside (`eval::call`).
    pub(crate) lowered: crate::core_ir::Module,
}

/// One function compiled.
pub(super) struct Function {
    /// Its id in the program (what a traced formula shows of it is read there).
    id: ir::Id,
    pub(super) params: usize,
    pub(super) locals: usize,
    pub(super) site: u32,
    body: Body,
}

enum Body {
    Formula(ValueFn),
    Procedure(Block),
}

/// A block's statements.
struct Block(Box<[StmtFn]>);

/// The program's code, compiled on its first run.
pub(crate) fn code(p: &Program) -> &Code {
    p.compiled
        .get_or_init(|| program(p))
        .expect("a program keeps only the interpreter's code")
}

fn program(p: &Program) -> Code {
    Code {
        functions: p
            .functions
            .iter()
            .enumerate()
            .map(|(id, f)| Cx::new(p, f.locals.len()).function(id, f))
            .collect(),
        lowered: crate::core_ir::lower(p),
    }
}

impl Code {
    /// Function `id` lowered to the core IR, if it lowers.
    pub(crate) fn lowered(&self, id: ir::Id) -> Option<&crate::core_ir::Func> {
        self.lowered.func(id)
    }
}

impl Function {
    /// Runs the body in `frame` (the arguments, then a slot per local): what the walker's
    /// call did once the frame was made.
    pub(super) fn run(&self, it: &mut Interpreter<'_, '_>, frame: &mut Vec<Value>) -> Got<Value> {
        match &self.body {
            Body::Formula(e) => {
                // Formulas are pure, and untraced unless formulas are traced too.
                let (was, was_pure) = (it.tracing, it.pure);
                let shown = it.formulas && it.on();
                it.tracing = shown;
                it.pure = true;
                if shown {
                    it.formula_entered(&it.prog.functions[self.id], frame);
                }
                let v = e(it, frame);
                if let (true, Ok(v)) = (shown, &v) {
                    let f = &it.prog.functions[self.id];
                    let value = it.show(v, &f.ret);
                    it.event(TraceEvent::Return {
                        site: self.site,
                        value,
                    });
                }
                it.tracing = was;
                it.pure = was_pure;
                v
            }
            Body::Procedure(stmts) => {
                if it.on() {
                    it.event(TraceEvent::Call { site: self.site });
                }
                match stmts.run(it, frame)? {
                    Flow::Return(v) => Ok(v),
                    Flow::Normal => {
                        if it.on() {
                            it.event(TraceEvent::Return {
                                site: self.site,
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

impl Block {
    fn run(&self, it: &mut Interpreter<'_, '_>, locals: &mut Vec<Value>) -> Got<Flow> {
        for s in self.0.iter() {
            // An enumeration that cut this path off (or ran out of budget) stops the run
            // here; its result is discarded.
            if it.may_stop && it.env.stopped() {
                return Ok(Flow::Return(Value::Unit));
            }
            it.step(1)?;
            if let Flow::Return(v) = s(it, locals)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Normal)
    }
}

/// What compiling one function reads and keeps: the program, where the locals of the
/// code being compiled live in the function's frame, and how big the frame has grown.
struct Cx<'p> {
    p: &'p Program,
    /// `None`: the function's own locals, each at its own slot. In a formula inlined into
    /// it (see `inline.rs`), the formula's local `i` is at `slots[i]`.
    slots: Option<Rc<[usize]>>,
    /// The frame's size: the function's locals, then those of the formulas inlined.
    frame: Rc<Cell<usize>>,
    /// How many inlined formulas deep this code is.
    depth: u32,
    /// Set when a node is handed to the walker (which reads locals at their own slots).
    walked: Cell<bool>,
}

impl<'p> Cx<'p> {
    fn new(p: &'p Program, locals: usize) -> Self {
        Cx {
            p,
            slots: None,
            frame: Rc::new(Cell::new(locals)),
            depth: 0,
            walked: Cell::new(false),
        }
    }
}

impl Cx<'_> {
    fn function(&self, id: ir::Id, f: &ir::Function) -> Function {
        let body = match &f.body {
            ir::Body::Formula(e) => Body::Formula(self.value(e)),
            ir::Body::Procedure(stmts) => Body::Procedure(self.block(stmts)),
        };
        Function {
            id,
            params: f.params.len(),
            locals: self.frame.get(),
            site: f.site,
            body,
        }
    }

    /// Notes a node handed to the walker, or to a walker piece reading a place's local.
    fn walked(&self) {
        self.walked.set(true);
    }

    /// Where local `s` of the code being compiled lives in the frame.
    #[inline]
    fn slot(&self, s: usize) -> usize {
        match &self.slots {
            Some(slots) => slots[s],
            None => s,
        }
    }

    fn block(&self, stmts: &[Stmt]) -> Block {
        Block(stmts.iter().map(|s| self.stmt(s)).collect())
    }

    fn stmt(&self, s: &Stmt) -> StmtFn {
        match s {
            // `let slot = value`
            Stmt::Let { slot, value, site } => {
                let (slot, site, ty) = (self.slot(*slot), *site, value.ty.clone());
                // A record or list read from state is a copy (value semantics); a local
                // bound to a parameter stays that parameter (`let me = c`).
                let alias = matches!(value.kind, ir::ExprKind::Local(_));
                let scalar = scalar(&value.ty);
                if let (Some((chain, a, b)), Ty::Roll) = (self.roll_chain(value), &value.ty) {
                    let let_site = site;
                    return self.chain_operands(
                        a,
                        b,
                        LetRoll {
                            chain,
                            slot,
                            let_site,
                        },
                    );
                }
                // A number or truth: wrapped here, with no closure of its own to wrap it.
                match self.wrapped(value) {
                    Some(Wrapped::Int(f)) => return let_scalar(f, Value::Int, slot, site, ty),
                    Some(Wrapped::Bool(f)) => return let_scalar(f, Value::Bool, slot, site, ty),
                    None => {}
                }
                let value = self.value(value);
                Box::new(move |it, l| {
                    let v = value(it, l)?;
                    let v = if alias {
                        v
                    } else if scalar {
                        // A copy of a value holding no other: one step.
                        it.step(1)?;
                        v
                    } else {
                        it.copied(v)?
                    };
                    if it.on() {
                        let shown = it.show(&v, &ty);
                        it.event(TraceEvent::Assign { site, value: shown });
                    }
                    l[slot] = v;
                    Ok(Flow::Normal)
                })
            }
            // `place = value`, `place += value`, `place -= value`
            Stmt::Assign {
                place,
                op,
                value,
                site,
            } => {
                let (op, site) = (*op, *site);
                if place.path.is_empty() {
                    return self.assign_local(place, op, value, site);
                }
                self.walked();
                let value = self.value(value);
                let keys = self.place_keys(place);
                let place = place.clone();
                Box::new(move |it, l| {
                    let v = value(it, l)?;
                    let v = it.copied(v)?;
                    let keys = keys.run(it, l)?;
                    it.assign_at(&place, op, v, &keys, site, l)?;
                    Ok(Flow::Normal)
                })
            }
            // `if c { .. } else if c { .. } else { .. }`
            Stmt::If {
                branches,
                otherwise,
            } => {
                if let ([(c, b, site)], None) = (&branches[..], otherwise) {
                    if let [s] = &b[..] {
                        return self.if_one(c, s, *site);
                    }
                }
                let branches: Vec<(BoolFn, Block, u32)> = branches
                    .iter()
                    .map(|(c, b, site)| (self.truth(c), self.block(b), *site))
                    .collect();
                let otherwise = otherwise.as_ref().map(|o| self.block(o));
                if let ([_], None) = (&branches[..], &otherwise) {
                    // `if c { .. }` alone: no list of branches to walk.
                    let (cond, body, site) = branches.into_iter().next().expect("one branch");
                    return Box::new(move |it, l| {
                        let taken = cond(it, l)?;
                        if it.on() {
                            it.event(TraceEvent::Branch { site, taken });
                        }
                        if taken {
                            return body.run(it, l);
                        }
                        Ok(Flow::Normal)
                    });
                }
                Box::new(move |it, l| {
                    for (cond, body, site) in &branches {
                        let taken = cond(it, l)?;
                        if it.on() {
                            it.event(TraceEvent::Branch { site: *site, taken });
                        }
                        if taken {
                            return body.run(it, l);
                        }
                    }
                    match &otherwise {
                        Some(o) => o.run(it, l),
                        None => Ok(Flow::Normal),
                    }
                })
            }
            // `match e { Case => { .. } }`
            Stmt::Match { scrutinee, arms } => {
                let ty = scrutinee.ty.clone();
                let scrutinee = self.value(scrutinee);
                let arms: Vec<MatchArm<Block>> = arms
                    .iter()
                    .map(|a| self.arm(a, |cx, b: &Vec<Stmt>| cx.block(b)))
                    .collect();
                Box::new(move |it, l| {
                    let v = scrutinee(it, l)?;
                    match it.pick_arm(&v, &ty, &arms, l) {
                        Some(arm) => arm.body.run(it, l),
                        None => Ok(Flow::Normal),
                    }
                })
            }
            // `for var in list { .. }`
            Stmt::For { var, list, body } => {
                let var = self.slot(*var);
                let list = self.value(list);
                let body = self.block(body);
                Box::new(move |it, l| {
                    let items = match list(it, l)? {
                        Value::List(items) => items,
                        _ => Rc::new(Vec::new()),
                    };
                    // The loop walks a copy of the list: changing the list inside the
                    // loop does not change what the loop visits.
                    for item in items.iter() {
                        l[var] = it.copy(item)?;
                        if let Flow::Return(v) = body.run(it, l)? {
                            return Ok(Flow::Return(v));
                        }
                    }
                    Ok(Flow::Normal)
                })
            }
            // `for var in lo..hi { .. }`
            Stmt::ForRange {
                var,
                lo,
                hi,
                body,
                site,
            } => {
                let (var, site) = (self.slot(*var), *site);
                let (lo, hi) = (self.int(lo), self.int(hi));
                let body = self.block(body);
                Box::new(move |it, l| {
                    let lo = lo(it, l)?;
                    let hi = hi(it, l)?;
                    it.range_room(lo, hi, site)?;
                    let mut i = lo;
                    while i < hi {
                        it.step(1)?;
                        l[var] = Value::Int(i);
                        if let Flow::Return(v) = body.run(it, l)? {
                            return Ok(Flow::Return(v));
                        }
                        i += 1;
                    }
                    Ok(Flow::Normal)
                })
            }
            // `return value`
            Stmt::Return { value, site } => {
                let site = *site;
                let (value, ty) = match value {
                    Some(e) => (Some(self.value(e)), e.ty.clone()),
                    None => (None, Ty::Unit),
                };
                Box::new(move |it, l| {
                    let v = match &value {
                        Some(e) => e(it, l)?,
                        None => Value::Unit,
                    };
                    if it.on() {
                        let shown = it.show(&v, &ty);
                        it.event(TraceEvent::Return { site, value: shown });
                    }
                    Ok(Flow::Return(v))
                })
            }
            Stmt::Expr(e) => {
                let e = self.value(e);
                Box::new(move |it, l| {
                    e(it, l)?;
                    Ok(Flow::Normal)
                })
            }
            // Timers and world time: the walker's.
            Stmt::Schedule { .. } | Stmt::Advance { .. } => {
                self.walked();
                let s = s.clone();
                Box::new(move |it, l| Ok(it.stmt(&s, l)?))
            }
        }
    }

    /// `if c { s }` of one statement: the block's run of its one statement (the stop
    /// check, the statement's step, the statement) without the block's loop; a `return`
    /// is made in place.
    fn if_one(&self, cond: &ir::Expr, s: &Stmt, site: u32) -> StmtFn {
        let cond = self.truth(cond);
        macro_rules! taken {
            ($it:ident, $l:ident, $body:expr) => {
                Box::new(move |$it, $l| {
                    let taken = cond($it, $l)?;
                    if $it.on() {
                        $it.event(TraceEvent::Branch { site, taken });
                    }
                    if !taken {
                        return Ok(Flow::Normal);
                    }
                    if $it.may_stop && $it.env.stopped() {
                        return Ok(Flow::Return(Value::Unit));
                    }
                    $it.step(1)?;
                    $body
                })
            };
        }
        match s {
            Stmt::Return {
                value: Some(e),
                site: at,
            } => {
                let (value, ty, at) = (self.value(e), e.ty.clone(), *at);
                taken!(it, l, {
                    let v = value(it, l)?;
                    if it.on() {
                        let shown = it.show(&v, &ty);
                        it.event(TraceEvent::Return {
                            site: at,
                            value: shown,
                        });
                    }
                    Ok(Flow::Return(v))
                })
            }
            _ => {
                let s = self.stmt(s);
                taken!(it, l, s(it, l))
            }
        }
    }

    /// `x = v`, `x += v`, `x -= v` of a local with no path: the walker's `assign_at` of
    /// an empty path (the value copied, then changed in the slot, checked against the
    /// place's range, traced), without its keys or its walk of the place.
    fn assign_local(&self, place: &ir::Place, op: AssignOp, value: &ir::Expr, site: u32) -> StmtFn {
        let (slot, range, ty) = (self.slot(place.root), place.range, place.ty.clone());
        match op {
            AssignOp::Set => {
                match self.wrapped(value) {
                    Some(Wrapped::Int(f)) => {
                        return set_scalar(f, Value::Int, slot, range, site, ty)
                    }
                    Some(Wrapped::Bool(f)) => {
                        return set_scalar(f, Value::Bool, slot, range, site, ty)
                    }
                    None => {}
                }
                let scalar = scalar(&value.ty);
                let value = self.value(value);
                Box::new(move |it, l| {
                    let v = value(it, l)?;
                    let v = if scalar {
                        // A copy of a value holding no other: one step.
                        it.step(1)?;
                        v
                    } else {
                        it.copied(v)?
                    };
                    if let Some((lo, hi)) = range {
                        if let Err(e) = error::in_range(v.int(), lo, hi, site) {
                            return Err(Box::new(it.fail(site, e.kind)));
                        }
                    }
                    if it.on() {
                        let shown = it.show(&v, &ty);
                        it.event(TraceEvent::Assign { site, value: shown });
                    }
                    l[slot] = v;
                    Ok(Flow::Normal)
                })
            }
            // Appending to a list: the walker's.
            AssignOp::Add | AssignOp::Sub if !scalar(&place.ty) || !scalar(&value.ty) => {
                self.walked();
                let value = self.value(value);
                let place = place.clone();
                Box::new(move |it, l| {
                    let v = value(it, l)?;
                    let v = it.copied(v)?;
                    it.assign_at(&place, op, v, &[], site, l)?;
                    Ok(Flow::Normal)
                })
            }
            AssignOp::Add | AssignOp::Sub => {
                // A number: its copy is one step.
                let value = self.int(value);
                let f: fn(i64, i64) -> i64 = if op == AssignOp::Add {
                    arith::add
                } else {
                    arith::sub
                };
                Box::new(move |it, l| {
                    let v = value(it, l)?;
                    it.step(1)?;
                    let new = f(l[slot].int(), v);
                    if let Some((lo, hi)) = range {
                        if let Err(e) = error::in_range(new, lo, hi, site) {
                            return Err(Box::new(it.fail(site, e.kind)));
                        }
                    }
                    l[slot] = Value::Int(new);
                    if it.on() {
                        let shown = it.show(&l[slot], &ty);
                        it.event(TraceEvent::Assign { site, value: shown });
                    }
                    Ok(Flow::Normal)
                })
            }
        }
    }

    /// A match arm with its body compiled by `body`.
    fn arm<B, C>(&self, a: &MatchArm<B>, body: impl Fn(&Self, &B) -> C) -> MatchArm<C> {
        MatchArm {
            alts: a.alts.clone(),
            binds: a.binds.iter().map(|b| b.map(|s| self.slot(s))).collect(),
            body: body(self, &a.body),
            site: a.site,
        }
    }

    /// The keys and indices on a place's path, in order (fields give `Unit`).
    fn place_keys(&self, place: &ir::Place) -> Keys {
        if place
            .path
            .iter()
            .all(|st| matches!(st, PlaceStep::Field(_)))
        {
            return Keys(None);
        }
        Keys(Some(
            place
                .path
                .iter()
                .map(|st| match st {
                    PlaceStep::Key(k) | PlaceStep::Index(k) => Some(self.value(k)),
                    PlaceStep::Field(_) => None,
                })
                .collect(),
        ))
    }
}

/// `let slot = value` of a number or truth `f` (wrapped by `wrap`): the `let` of a scalar
/// (one step for the copy, the Assign event).
fn let_scalar<T: 'static>(
    f: Fx<T>,
    wrap: fn(T) -> Value,
    slot: usize,
    site: u32,
    ty: Ty,
) -> StmtFn {
    Box::new(move |it, l| {
        let v = wrap(f(it, l)?);
        // A copy of a value holding no other: one step.
        it.step(1)?;
        if it.on() {
            let shown = it.show(&v, &ty);
            it.event(TraceEvent::Assign { site, value: shown });
        }
        l[slot] = v;
        Ok(Flow::Normal)
    })
}

/// `slot = value` of a local with no path, `value` a number or truth `f` (wrapped by
/// `wrap`): the copy's one step, the range check, the Assign event.
fn set_scalar<T: 'static>(
    f: Fx<T>,
    wrap: fn(T) -> Value,
    slot: usize,
    range: Option<(i64, i64)>,
    site: u32,
    ty: Ty,
) -> StmtFn {
    Box::new(move |it, l| {
        let v = wrap(f(it, l)?);
        // A copy of a value holding no other: one step.
        it.step(1)?;
        if let Some((lo, hi)) = range {
            if let Err(e) = error::in_range(v.int(), lo, hi, site) {
                return Err(Box::new(it.fail(site, e.kind)));
            }
        }
        if it.on() {
            let shown = it.show(&v, &ty);
            it.event(TraceEvent::Assign { site, value: shown });
        }
        l[slot] = v;
        Ok(Flow::Normal)
    })
}

/// Whether values of `ty` hold no other value: copying one is a step and nothing else.
fn scalar(ty: &Ty) -> bool {
    matches!(
        ty,
        Ty::Int | Ty::Bool | Ty::Choice(_) | Ty::Roll | Ty::Dice | Ty::Track(_) | Ty::TrackBox(_)
    )
}

/// A place's keys compiled: `None` for a path of fields only (no key to evaluate).
struct Keys(Option<Vec<Option<ValueFn>>>);

impl Keys {
    fn run(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<Vec<Value>> {
        let Some(keys) = &self.0 else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            out.push(match k {
                Some(k) => k(it, l)?,
                None => Value::Unit,
            });
        }
        Ok(out)
    }
}
