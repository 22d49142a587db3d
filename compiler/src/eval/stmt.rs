//! Statements: blocks, `let`, assignment to a place, `if`, `match`, loops, `return`, and
//! the fight's `schedule` and `advance`.

use super::{Flow, Interpreter, Run, Value};
use crate::ir::{self, AssignOp, ExprKind as K, PlaceStep, Stmt, Ty};
use rulesc_runtime::{__private::arith, __private::error, Fight, RuleErrorKind, TraceEvent};
use std::rc::Rc;

impl<'p> Interpreter<'p, '_> {
    pub(crate) fn block(&mut self, stmts: &[Stmt], locals: &mut Vec<Value>) -> Run<Flow> {
        for s in stmts {
            // An enumeration that cut this path off (or ran out of budget) stops the run
            // here; its result is discarded.
            if self.may_stop && self.env.stopped() {
                return Ok(Flow::Return(Value::Unit));
            }
            self.step(1)?;
            if let Flow::Return(v) = self.stmt(s, locals)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Normal)
    }

    pub(super) fn stmt(&mut self, s: &Stmt, locals: &mut Vec<Value>) -> Run<Flow> {
        match s {
            // `let slot = value`
            Stmt::Let { slot, value, site } => {
                let v = self.expr(value, locals)?;
                // A record or list read from state is a copy (value semantics); a local
                // bound to a parameter stays that parameter (`let me = c`).
                let v = if matches!(value.kind, K::Local(_)) {
                    v
                } else {
                    self.copied(v)?
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
                let v = self.copied(v)?;
                let keys = self.place_keys(place, locals)?;
                self.assign_at(place, *op, v, &keys, *site, locals)?;
            }
            // `if c { .. } else if c { .. } else { .. }`
            Stmt::If {
                branches,
                otherwise,
            } => {
                for (cond, body, site) in branches {
                    let taken = self.truth(cond, locals)?;
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
            Stmt::ForRange {
                var,
                lo,
                hi,
                body,
                site,
            } => {
                let lo = self.int(lo, locals)?;
                let hi = self.int(hi, locals)?;
                self.range_room(lo, hi, *site)?;
                let mut i = lo;
                while i < hi {
                    self.step(1)?;
                    locals[*var] = Value::Int(i);
                    if let Flow::Return(v) = self.block(body, locals)? {
                        return Ok(Flow::Return(v));
                    }
                    i += 1;
                }
            }
            // `return value`
            Stmt::Return { value, site } => {
                let (v, ty) = match value {
                    Some(e) => (self.expr(e, locals)?, &e.ty),
                    None => (Value::Unit, &Ty::Unit),
                };
                if self.on() {
                    let shown = self.show(&v, ty);
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
                let amount = self.int(amount, locals)?;
                self.advance(amount)?;
            }
        }
        Ok(Flow::Normal)
    }

    /// `place op= v` with the place's keys evaluated, traced.
    pub(super) fn assign_at(
        &mut self,
        place: &ir::Place,
        op: AssignOp,
        v: Value,
        keys: &[Value],
        site: u32,
        locals: &mut [Value],
    ) -> Run<()> {
        let new = update(locals, self.fight.as_deref(), place, keys, |old| {
            assign_value(op, old, v, place.range, site)
        });
        let new = match new {
            Ok(new) => new,
            Err(kind) => return Err(self.fail(site, kind)),
        };
        if self.on() {
            let shown = self.show(&new, &place.ty);
            self.event(TraceEvent::Assign { site, value: shown });
        }
        Ok(())
    }

    /// The keys and indices on a place's path, evaluated in order (fields give `Unit`).
    pub(super) fn place_keys(
        &mut self,
        place: &ir::Place,
        locals: &mut Vec<Value>,
    ) -> Run<Vec<Value>> {
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
    pub(super) fn pick_arm<'a, B>(
        &mut self,
        v: &Value,
        ty: &Ty,
        arms: &'a [ir::MatchArm<B>],
        locals: &mut [Value],
    ) -> Option<&'a ir::MatchArm<B>> {
        let i = match v {
            Value::Outcome { tag, .. } => ir::arm_for(arms, *tag)?,
            Value::Choice(c) => ir::arm_for(arms, *c)?,
            // Anything else has only wildcard arms (the checker names cases of scales,
            // enums and outcomes only, E0321): the first takes it.
            _ => arms.iter().position(|a| a.alts.is_empty())?,
        };
        let arm = &arms[i];
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
}

/// `old op= v` at a place: `=` stores `v`, `+=`/`-=` add to or take from a number, `+=`
/// appends to a list (a rule error past a list's room); at an `int(lo..hi)` field
/// (`range`) a number outside is a rule error and the field keeps its value. The one
/// statement of assignment's rule, for the walker and the VM.
pub(crate) fn assign_value(
    op: AssignOp,
    old: &mut Value,
    v: Value,
    range: Option<(i64, i64)>,
    site: u32,
) -> Result<(), RuleErrorKind> {
    let new = match (op, &mut *old) {
        (AssignOp::Set, _) => v,
        (AssignOp::Add, Value::List(items)) => {
            let Value::List(more) = v else {
                if v == super::expr::CUT_OFF {
                    return Ok(());
                }
                unreachable!(
                    "`list += {v:?}`: the checker's `+=` on a list takes a list (`list += [x]`)"
                )
            };
            error::room(items.len(), more.len(), site).map_err(|e| e.kind)?;
            Rc::make_mut(items).extend(more.iter().cloned());
            return Ok(());
        }
        // A roll's total moves; its natural face stays (`roll ± n`).
        (AssignOp::Add | AssignOp::Sub, Value::Roll(r)) => {
            let total = match op {
                AssignOp::Add => arith::add(r.total, v.int()),
                _ => arith::sub(r.total, v.int()),
            };
            Value::Roll(rulesc_runtime::Roll { total, ..*r })
        }
        (AssignOp::Add, _) => Value::Int(arith::add(old.int(), v.int())),
        (AssignOp::Sub, _) => Value::Int(arith::sub(old.int(), v.int())),
    };
    if let Some((lo, hi)) = range {
        error::in_range(new.int(), lo, hi, site).map_err(|e| e.kind)?;
    }
    *old = new;
    Ok(())
}

/// Applies `f` to the value at `place` (keys already evaluated: one per step, fields
/// giving `Unit`, or none for a path of fields only) and returns the new value, or the
/// rule error of a list index outside its list.
pub(crate) fn update(
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
                let n = r.len();
                match r.get_mut(*i) {
                    Some(slot) => go(slot, rest, keys.get(1..).unwrap_or_default(), f),
                    None => unreachable!(
                        "field {i} of a record of {n} fields: the checker numbers a field within its record type"
                    ),
                }
            }
            (PlaceStep::Key(_), Value::SortedMap(m)) => {
                let m = Rc::make_mut(m);
                go(
                    m.entry(&keys[0]),
                    rest,
                    keys.get(1..).unwrap_or_default(),
                    f,
                )
            }
            (PlaceStep::Key(_), Value::Map(m)) => {
                let k = keys[0].choice() as usize;
                let m = Rc::make_mut(m);
                let n = m.len();
                match m.get_mut(k) {
                    Some(slot) => go(slot, rest, keys.get(1..).unwrap_or_default(), f),
                    None => unreachable!(
                        "key {k} of a map of {n} entries: a map keyed by a scale or enum holds one per level or variant"
                    ),
                }
            }
            (PlaceStep::Index(_), Value::List(l)) => {
                let i = keys[0].int();
                let l = Rc::make_mut(l);
                let len = l.len();
                match usize::try_from(i).ok().and_then(|i| l.get_mut(i)) {
                    Some(slot) => go(slot, rest, keys.get(1..).unwrap_or_default(), f),
                    None => Err(RuleErrorKind::Index { index: i, len }),
                }
            }
            (step, v) => unreachable!(
                "{step:?} of {v:?}: the checker types each step of a place (a field of a record, a key of a map, an index of a list)"
            ),
        }
    }
    // A path under a fighter changes its combatant in the fight.
    if let (Value::Fighter(i), false) = (&locals[place.root], place.path.is_empty()) {
        let mut combatant = crate::fight::combatant(fight, i64::from(*i));
        return go(&mut combatant, &place.path, keys, f);
    }
    go(&mut locals[place.root], &place.path, keys, f)
}
