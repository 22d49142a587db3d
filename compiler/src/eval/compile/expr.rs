//! Expressions compiled by type: [`Cx::value`] (any), [`Cx::int`] (`i64`: integers, rolls
//! read as totals, choices and booleans read as numbers) and [`Cx::truth`] (`bool`). Each
//! is the walker's `expr`, `int` or `truth` of the same node: `int` and `truth` give what
//! `value(..).int()` and `.bool()` would, taking the same steps.

use super::held::{in_place, plain, Rows};
use super::operands::{Arith, BoxOf, Compare, Operand};
use super::{BoolFn, Cx, Fx, IntFn, ValueFn};
use crate::eval::effects::dice_steps;
use crate::eval::expr::{field_of, map_entry, rewrap, scan, NO_FIELDS};
use crate::eval::{weight, Interpreter, Run, Value};
use crate::ir::{self, BoxPart, Const, ExprKind as K, IntOp, Ty};
use rulesc_runtime::{
    __private::arith, __private::error, DiceSpec, Roll, RuleError, RuleErrorKind,
};
use std::cell::RefCell;
use std::rc::Rc;

/// An integer constant's value (ints, choices, booleans: what `Value::int` reads).
pub(super) fn int_const(e: &ir::Expr) -> Option<i64> {
    match e.kind {
        K::Const(Const::Int(i)) => Some(i),
        K::Const(Const::Choice(c)) => Some(i64::from(c)),
        K::Const(Const::Bool(b)) => Some(i64::from(b)),
        _ => None,
    }
}

/// A type whose values are equal exactly when their numbers are (`Value::int`): a roll
/// compares as its total, as `values_equal` compares it.
fn numeric(ty: &Ty) -> bool {
    matches!(ty, Ty::Int | Ty::Bool | Ty::Choice(_) | Ty::Roll)
}

/// The items of a list literal of integer, choice or boolean constants, as numbers.
fn const_items(list: &ir::Expr) -> Option<Vec<i64>> {
    match &list.kind {
        K::List(items) => items.iter().map(int_const).collect(),
        _ => None,
    }
}

/// A number or truth compiled as such, where [`Cx::value`] would wrap it in a `Value`.
pub(super) enum Wrapped {
    Int(IntFn),
    Bool(BoolFn),
}

/// A map keyed by anything but a scale or enum: read by the walker.
fn sorted(m: &ir::Expr) -> bool {
    matches!(m.ty, Ty::SortedMap(..))
}

/// What `rewrap(v, ty).int()` reads: a choice's index is cut to `u16`.
fn rewrapped(v: i64, choice: bool) -> i64 {
    if choice {
        v.clamp(0, i64::from(u16::MAX))
    } else {
        v
    }
}

impl Cx<'_> {
    /// An expression whose value is its number or truth wrapped (as [`Self::value`] makes
    /// it): the number or truth compiled, for a statement to wrap it itself.
    pub(super) fn wrapped(&self, e: &ir::Expr) -> Option<Wrapped> {
        Some(match &e.kind {
            K::Neg(_)
            | K::Int(..)
            | K::ToInt(_)
            | K::Natural(_)
            | K::CheckedDiv(..)
            | K::Abs(_)
            | K::Len(_) => Wrapped::Int(self.int(e)),
            K::Not(_) | K::Compare(..) | K::And(..) | K::Or(..) | K::In(..) | K::IsSome(_) => {
                Wrapped::Bool(self.truth(e))
            }
            _ => return None,
        })
    }

    /// Fight built-in `q` of its one operand, if any, as `read` gives it
    /// ([`Interpreter::fight_query`], or [`Interpreter::fight_count`] for its length).
    fn fight_builtin<T: 'static>(
        &self,
        q: ir::FightQuery,
        args: &[ir::Expr],
        read: fn(&mut Interpreter<'_, '_>, ir::FightQuery, Option<Value>) -> Run<T>,
    ) -> Fx<T> {
        let arg = args.first().map(|a| self.value(a));
        Box::new(move |it, l| {
            let arg = match &arg {
                Some(a) => Some(a(it, l)?),
                None => None,
            };
            Ok(read(it, q, arg)?)
        })
    }

    /// `r.i`, field `i` of record `r`: of a local, read in place; of a table's row (a
    /// one-key table of records), read from the row itself, untraced, without the record
    /// the lookup would make; of a formula's result, inlined as the field of its body.
    fn field(&self, r: &ir::Expr, i: usize) -> ValueFn {
        match &r.kind {
            K::Local(s) => {
                let s = self.slot(*s);
                return Box::new(move |_, l| Ok(field_of(&l[s], i)));
            }
            K::Lookup {
                table,
                key,
                column: None,
                site,
                ..
            } => {
                if let Some(rows) = Rows::field(&self.p.tables[*table], i) {
                    let (table, site, key) = (*table, *site, self.value(key));
                    // Traced, the lookup and its event as ever; a key without a row is
                    // the lookup's rule error.
                    return Box::new(move |it, l| {
                        let k = key(it, l)?;
                        if !it.on() {
                            if let Some(v) = rows.get(k.int()) {
                                return Ok(v);
                            }
                        }
                        Ok(field_of(&it.lookup_at(table, k, None, site)?, i))
                    });
                }
            }
            K::Call(f, args) if !self.p.functions[*f].is_procedure() => {
                let call = self.ordinary_call(*f, args);
                let call: ValueFn = Box::new(move |it, l| Ok(field_of(&call(it, l)?, i)));
                return self.inlined_as(*f, args, call, |cx, body| cx.field(body, i));
            }
            _ => {}
        }
        let r = self.value(r);
        Box::new(move |it, l| Ok(field_of(&r(it, l)?, i)))
    }

    /// Any expression, as the walker's `expr`.
    pub(super) fn value(&self, e: &ir::Expr) -> ValueFn {
        // A number or truth computed as such, then wrapped.
        match self.wrapped(e) {
            Some(Wrapped::Int(f)) => return Box::new(move |it, l| Ok(Value::Int(f(it, l)?))),
            Some(Wrapped::Bool(f)) => return Box::new(move |it, l| Ok(Value::Bool(f(it, l)?))),
            None => {}
        }
        match &e.kind {
            K::Const(Const::Int(i)) => {
                let i = *i;
                Box::new(move |it, _| {
                    it.step(1)?;
                    Ok(Value::Int(i))
                })
            }
            K::Const(Const::Bool(b)) => {
                let b = *b;
                Box::new(move |it, _| {
                    it.step(1)?;
                    Ok(Value::Bool(b))
                })
            }
            K::Const(Const::Choice(c)) => {
                let c = *c;
                Box::new(move |it, _| {
                    it.step(1)?;
                    Ok(Value::Choice(c))
                })
            }
            K::Const(Const::Dice(d)) => {
                let d = *d;
                Box::new(move |it, _| {
                    it.step(1)?;
                    Ok(Value::Dice(d))
                })
            }
            K::Const(c) => {
                let c = c.clone();
                let w = weight(&Value::from_const(&c));
                Box::new(move |it, _| {
                    let v = Value::from_const(&c);
                    it.step(w)?;
                    Ok(v)
                })
            }
            K::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |_, l| Ok(l[s].clone()))
            }
            K::Field(r, i) => self.field(r, *i),
            // `if c then a else b`
            K::If(c, a, b) => {
                let span = c.span;
                let (c, a, b) = (self.truth(c), self.value(a), self.value(b));
                Box::new(move |it, l| {
                    let taken = c(it, l)?;
                    if it.formulas && it.on() {
                        it.formula_branch(span, taken);
                    }
                    if taken {
                        a(it, l)
                    } else {
                        b(it, l)
                    }
                })
            }
            K::Call(f, args) => self.call(*f, args),
            // `Tag(field: value, ..)`
            K::MakeOutcome { tag, fields, .. } => {
                let tag = *tag;
                if fields.is_empty() {
                    // Fields are never changed in place: one empty list serves every tag
                    // without fields.
                    return Box::new(move |_, _| {
                        Ok(Value::Outcome {
                            tag,
                            fields: NO_FIELDS.with(Rc::clone),
                        })
                    });
                }
                // Copies, as a new record's fields: a later change of state does not
                // change an outcome already made.
                let fields = self.copies(fields);
                Box::new(move |it, l| {
                    Ok(Value::Outcome {
                        tag,
                        fields: fields.run_shared(it, l)?,
                    })
                })
            }
            // `Record(field: value, ..)`
            K::MakeRecord { fields, .. } => {
                let fields = self.copies(fields);
                Box::new(move |it, l| Ok(Value::Record(Rc::new(RefCell::new(fields.run(it, l)?)))))
            }
            // `[a, b, c]`
            K::List(items) => {
                let items = self.copies(items);
                Box::new(move |it, l| Ok(Value::List(Rc::new(items.run(it, l)?))))
            }
            // `e` where a `T?` is wanted: a present value is the value itself.
            K::Some(x) | K::Unwrap(x) => self.value(x),
            // `map[key]` (keyed by a scale or enum: every key has an entry)
            K::MapGet(m, k) if in_place(m).is_some() && plain(k) && !sorted(m) => {
                let (m, k) = (self.in_place(m).expect("checked above"), self.value(k));
                // The key first: reading it changes nothing, so the map is read as the
                // walker reads it, in place rather than shared.
                Box::new(move |it, l| {
                    let k = k(it, l)?.choice();
                    Ok(m.read(l, |m| map_entry(m, k)))
                })
            }
            K::MapGet(m, k) if !sorted(m) => {
                if let Some(f) = self.row_map_get(m, k) {
                    return f;
                }
                let (m, k) = (self.value(m), self.value(k));
                Box::new(move |it, l| {
                    let m = m(it, l)?;
                    Ok(map_entry(&m, k(it, l)?.choice()))
                })
            }
            // `box.number`, `box.level`, `box.attr`
            K::BoxPart(b, part) => {
                let (b, part) = (self.value(b), *part);
                Box::new(move |it, l| {
                    Ok(match b(it, l)? {
                        Value::TrackBox { track, number } => box_part(it.prog, track, number, part),
                        _ => Value::Unit,
                    })
                })
            }
            // `roll ± n`
            K::RollAdd {
                roll,
                delta,
                negate,
            } => {
                if let Some((chain, a, b)) = self.roll_chain(e) {
                    return self.chain_operands(a, b, chain);
                }
                let (roll, delta, negate) = (self.value(roll), self.int(delta), *negate);
                Box::new(move |it, l| {
                    let r = match roll(it, l)? {
                        Value::Roll(r) => r,
                        other => Roll {
                            total: other.int(),
                            natural: 0,
                        },
                    };
                    let d = delta(it, l)?;
                    Ok(Value::Roll(r.shifted(d, negate)))
                })
            }
            // `level ± n`
            K::LevelStep {
                level,
                delta,
                negate,
            } => {
                let (level, delta, negate) = (self.value(level), self.int(delta), *negate);
                let len = match &e.ty {
                    Ty::Choice(c) => self.p.choices[*c].variants.len(),
                    _ => 1,
                };
                let len = len.min(255) as u8;
                Box::new(move |it, l| {
                    let lv = level(it, l)?.choice();
                    let d = delta(it, l)?;
                    Ok(Value::Choice(
                        arith::level_plus(lv.into(), d, negate, len).into(),
                    ))
                })
            }
            K::Min(_) | K::Max(_) | K::Clamp(..) => {
                let ty = e.ty.clone();
                let f = self.int(e);
                Box::new(move |it, l| Ok(rewrap(f(it, l)?, &ty)))
            }
            // `dice * n`
            K::DiceTimes(d, n, site) => {
                let (d, n, site) = (self.value(d), self.int(n), *site);
                Box::new(move |it, l| {
                    let d = d(it, l)?;
                    let n = n(it, l)?;
                    Ok(match d {
                        Value::Dice(d) => Value::Dice(it.dice_times(d, n, site)?),
                        other => other,
                    })
                })
            }
            // `roll dice`
            K::Roll { dice, site, faces } => self.roll(dice, *site, *faces),
            K::Lookup {
                table,
                key,
                column,
                site,
                ..
            } => {
                let (table, site) = (*table, *site);
                let key = self.value(key);
                if let (None, Some(rows)) = (column, Rows::new(&self.p.tables[table])) {
                    // Untraced, a key with a row (or the default) reads it here.
                    return Box::new(move |it, l| {
                        let k = key(it, l)?;
                        if !it.on() {
                            if let Some(v) = rows.get(k.int()) {
                                return Ok(v);
                            }
                        }
                        Ok(it.lookup_at(table, k, None, site)?)
                    });
                }
                let column = column.as_ref().map(|c| self.value(c));
                Box::new(move |it, l| {
                    let k = key(it, l)?;
                    let col = match &column {
                        Some(c) => Some(c(it, l)?),
                        None => None,
                    };
                    Ok(it.lookup_at(table, k, col, site)?)
                })
            }
            K::RollTable { table, among, site } => self.roll_table(*table, among.as_deref(), *site),
            K::Decide {
                name,
                options,
                site,
            } => self.decide(name, options, *site),
            K::Fill { track, level, site } => self.fill(track, level, *site),
            K::Filled(t) => {
                let tid = match t.ty {
                    Ty::Track(tid) => Some(tid),
                    _ => None,
                };
                let t = self.value(t);
                Box::new(move |it, l| {
                    let v = t(it, l)?;
                    Ok(match (v, tid) {
                        (Value::Track(track), Some(tid)) => filled(it.prog, track, tid),
                        _ => Value::List(Rc::new(Vec::new())),
                    })
                })
            }
            K::Aggregate { .. } => self.aggregate(e),
            K::Collect {
                var,
                list,
                cond,
                body,
            } => self.collect(*var, list, cond.as_deref(), body),
            // The combatant a fighter stands for (the fight's own record, shared).
            K::Combatant(f) => {
                let f = self.int(f);
                Box::new(move |it, l| {
                    let f = f(it, l)?;
                    Ok(it.combatant(f))
                })
            }
            // A fight built-in of its one operand, if any.
            K::Fight(q, args) => self.fight_builtin(*q, args, |it, q, a| it.fight_query(q, a)),
            // `match e { Case => value }`
            K::Match { scrutinee, arms } => {
                let ty = scrutinee.ty.clone();
                let scrutinee = self.value(scrutinee);
                let arms: Vec<_> = arms.iter().map(|a| self.arm(a, Cx::value)).collect();
                Box::new(move |it, l| {
                    let v = scrutinee(it, l)?;
                    match it.pick_arm(&v, &ty, &arms, l) {
                        Some(arm) => (arm.body)(it, l),
                        None => Ok(Value::Unit),
                    }
                })
            }
            // `list[i]`
            K::ListGet(list, index, check) => {
                let (list, index, site) = (self.value(list), self.int(index), check.unwrap_or(0));
                Box::new(move |it, l| {
                    let items = match list(it, l)? {
                        Value::List(items) => items,
                        _ => Rc::new(Vec::new()),
                    };
                    let i = index(it, l)?;
                    match usize::try_from(i).ok().and_then(|i| items.get(i)) {
                        Some(v) => Ok(v.clone()),
                        None => {
                            let kind = RuleErrorKind::Index {
                                index: i,
                                len: items.len(),
                            };
                            Err(Box::new(it.fail(site, kind)))
                        }
                    }
                })
            }
            // The rest: the walker's.
            _ => {
                self.walked();
                let e = e.clone();
                Box::new(move |it, l| Ok(it.expr(&e, l)?))
            }
        }
    }

    /// An integer (or a roll's total, a choice's index, a boolean as 0/1), as the
    /// walker's `int`.
    pub(super) fn int(&self, e: &ir::Expr) -> IntFn {
        if let Some(i) = int_const(e) {
            return Box::new(move |it, _| {
                it.step(1)?;
                Ok(i)
            });
        }
        match &e.kind {
            K::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |_, l| Ok(l[s].int()))
            }
            K::Field(r, i) if matches!(r.kind, K::Local(_)) => {
                let (K::Local(s), i) = (&r.kind, *i) else {
                    unreachable!("matched above")
                };
                let s = self.slot(*s);
                Box::new(move |_, l| {
                    Ok(match &l[s] {
                        Value::Record(r) => r.borrow().get(i).map_or(0, Value::int),
                        _ => 0,
                    })
                })
            }
            K::Neg(a) => {
                let a = self.int(a);
                Box::new(move |it, l| Ok(arith::neg(a(it, l)?)))
            }
            K::Int(op, a, b) => self.operands(a, b, Arith(*op)),
            K::ToInt(a) => self.int(a),
            K::Natural(a) => match a.kind {
                K::Local(s) => {
                    let s = self.slot(s);
                    Box::new(move |_, l| {
                        Ok(match &l[s] {
                            Value::Roll(r) => r.natural,
                            _ => 0,
                        })
                    })
                }
                _ => {
                    let a = self.value(a);
                    Box::new(move |it, l| {
                        Ok(match a(it, l)? {
                            Value::Roll(r) => r.natural,
                            _ => 0,
                        })
                    })
                }
            },
            K::Not(_) | K::Compare(..) | K::And(..) | K::Or(..) | K::In(..) | K::IsSome(_) => {
                let f = self.truth(e);
                Box::new(move |it, l| Ok(i64::from(f(it, l)?)))
            }
            // `a / b`, `a % b` where `b` may be 0
            K::CheckedDiv(op, a, b, site) => {
                let (a, b, site) = (self.int(a), self.int(b), *site);
                let f: fn(i64, i64, u32) -> Result<i64, RuleError> = if *op == IntOp::Rem {
                    error::rem
                } else {
                    error::div
                };
                Box::new(move |it, l| {
                    let x = a(it, l)?;
                    let y = b(it, l)?;
                    f(x, y, site).map_err(|e| Box::new(it.fail(e.site, e.kind)))
                })
            }
            K::Abs(a) => {
                let a = self.int(a);
                Box::new(move |it, l| Ok(a(it, l)?.saturating_abs()))
            }
            K::Len(a) if in_place(a).is_some() => {
                let a = self.in_place(a).expect("checked above");
                Box::new(move |_, l| {
                    Ok(a.read(l, |v| match v {
                        Value::List(items) => items.len() as i64,
                        _ => 0,
                    }))
                })
            }
            K::MapGet(m, k) if in_place(m).is_some() && plain(k) && !sorted(m) => {
                let (m, k) = (self.in_place(m).expect("checked above"), self.value(k));
                Box::new(move |it, l| {
                    let k = k(it, l)?.choice();
                    Ok(m.read(l, |m| match m {
                        Value::Map(items) => items.get(k as usize).map_or(0, Value::int),
                        _ => 0,
                    }))
                })
            }
            // `box.number`, `box.attr` of a local box
            K::BoxPart(b, part) if matches!(b.kind, K::Local(_)) => {
                let K::Local(s) = b.kind else {
                    unreachable!("matched above")
                };
                let b = BoxOf(self.slot(s), *part);
                Box::new(move |it, l| b.get(it, l))
            }
            // `box.number`, `box.attr`
            K::BoxPart(b, part) => {
                let (b, part) = (self.value(b), *part);
                Box::new(move |it, l| {
                    Ok(match b(it, l)? {
                        Value::TrackBox { track, number } => {
                            box_part(it.prog, track, number, part).int()
                        }
                        _ => 0,
                    })
                })
            }
            // `len(allies(c))`, `len(enemies(c))`: counted, the list never made.
            K::Len(a) if matches!(a.kind, K::Fight(..)) => {
                let K::Fight(q, args) = &a.kind else {
                    unreachable!("matched above")
                };
                self.fight_builtin(*q, args, |it, q, a| it.fight_count(q, a))
            }
            K::Len(a) => {
                let a = self.value(a);
                Box::new(move |it, l| {
                    Ok(match a(it, l)? {
                        Value::List(items) => items.len() as i64,
                        _ => 0,
                    })
                })
            }
            // min/max: every operand evaluated, in order, then the best
            K::Min(xs) | K::Max(xs) => {
                let is_max = matches!(e.kind, K::Max(_));
                let choice = matches!(e.ty, Ty::Choice(_));
                let xs: Vec<IntFn> = xs.iter().map(|x| self.int(x)).collect();
                Box::new(move |it, l| {
                    let mut best: Option<i64> = None;
                    for x in &xs {
                        let v = x(it, l)?;
                        best = Some(match best {
                            None => v,
                            Some(b) if is_max => b.max(v),
                            Some(b) => b.min(v),
                        });
                    }
                    Ok(rewrapped(best.unwrap_or(0), choice))
                })
            }
            K::Clamp(x, lo, hi) => {
                let choice = matches!(e.ty, Ty::Choice(_));
                let (x, lo, hi) = (self.int(x), self.int(lo), self.int(hi));
                Box::new(move |it, l| {
                    let x = x(it, l)?;
                    let lo = lo(it, l)?;
                    let hi = hi(it, l)?;
                    Ok(rewrapped(arith::clamp(x, lo, hi), choice))
                })
            }
            K::Aggregate { .. } => self.aggregate_int(e),
            // A formula's number, read without wrapping it.
            K::Call(f, args) if !self.p.functions[*f].is_procedure() => {
                self.formula_call_as(*f, args, Value::int, |cx, b| cx.int(b))
            }
            _ => {
                let f = self.value(e);
                Box::new(move |it, l| Ok(f(it, l)?.int()))
            }
        }
    }

    /// A condition, as the walker's `truth`.
    pub(super) fn truth(&self, e: &ir::Expr) -> BoolFn {
        match &e.kind {
            K::Const(Const::Bool(b)) => {
                let b = *b;
                Box::new(move |it, _| {
                    it.step(1)?;
                    Ok(b)
                })
            }
            K::Local(_) | K::Field(..) if in_place(e).is_some() => {
                let e = self.in_place(e).expect("checked above");
                Box::new(move |_, l| Ok(e.read(l, Value::bool)))
            }
            K::Not(a) => match self.not_flag(a) {
                Some(f) => f,
                None => {
                    let a = self.truth(a);
                    Box::new(move |it, l| Ok(!a(it, l)?))
                }
            },
            K::Compare(op, a, b) => self.operands(a, b, Compare(*op)),
            K::And(a, b) => self.and_or(false, a, b),
            K::Or(a, b) => self.and_or(true, a, b),
            // `x in [A, B]`, a list of constants: compared as numbers, the list never made.
            // Its steps are the walker's: two for each item (the constant, its copy into
            // the list) after `x`, then one for each item compared.
            K::In(x, list) if numeric(&x.ty) && const_items(list).is_some() => {
                let items = const_items(list).expect("checked above");
                let (x, made) = (self.int(x), 2 * items.len() as u64);
                Box::new(move |it, l| {
                    let x = x(it, l)?;
                    it.step(made)?;
                    let (found, compared) = match items.iter().position(|i| *i == x) {
                        Some(at) => (true, at as u64 + 1),
                        None => (false, items.len() as u64),
                    };
                    it.step(compared)?;
                    Ok(found)
                })
            }
            // `x in list`, the list read in place after `x`, as the walker reads it
            K::In(x, list) if in_place(list).is_some() => {
                let (x, list) = (self.value(x), self.in_place(list).expect("checked above"));
                Box::new(move |it, l| {
                    let x = x(it, l)?;
                    let (found, compared) = list.read(l, |v| match v {
                        Value::List(items) => scan(items, &x),
                        _ => (false, 0),
                    });
                    it.step(compared)?;
                    Ok(found)
                })
            }
            K::In(x, list) => {
                let (x, list) = (self.value(x), self.value(list));
                Box::new(move |it, l| {
                    let x = x(it, l)?;
                    let (found, compared) = match list(it, l)? {
                        Value::List(items) => scan(&items, &x),
                        _ => (false, 0),
                    };
                    it.step(compared)?;
                    Ok(found)
                })
            }
            // `x != none`
            K::IsSome(x) => {
                let x = self.value(x);
                Box::new(move |it, l| Ok(!matches!(x(it, l)?, Value::None)))
            }
            K::Aggregate { .. } => self.aggregate_truth(e),
            // A formula's truth, read without wrapping it.
            K::Call(f, args) if !self.p.functions[*f].is_procedure() => {
                self.formula_call_as(*f, args, Value::bool, |cx, b| cx.truth(b))
            }
            _ => {
                let f = self.value(e);
                Box::new(move |it, l| Ok(f(it, l)?.bool()))
            }
        }
    }

    /// `roll dice`, a constant die read once here (still a step, as the walker's).
    fn roll(&self, dice: &ir::Expr, site: u32, faces: Option<usize>) -> ValueFn {
        let faces = faces.map(|s| self.slot(s));
        let spec: IntoSpec = match dice.kind {
            K::Const(Const::Dice(d)) => IntoSpec::Const(d),
            _ => IntoSpec::Expr(self.value(dice)),
        };
        if let (IntoSpec::Const(d), None) = (&spec, faces) {
            // Constant dice: the runtime's fixed shapes, as generated code rolls them.
            // The constant's step and the dice's past the first ([`dice_steps`]) in one.
            let (d, steps) = (*d, 1 + dice_steps(*d));
            return Box::new(move |it, _| {
                it.step(steps)?;
                let traced = it.on();
                Ok(Value::Roll(it.env.roll_known(d, site, traced)))
            });
        }
        Box::new(move |it, l| {
            let spec = match &spec {
                IntoSpec::Const(d) => {
                    it.step(1)?;
                    *d
                }
                IntoSpec::Expr(e) => match e(it, l)? {
                    Value::Dice(s) => s,
                    _ => DiceSpec::new(0, 1),
                },
            };
            Ok(match faces {
                None => Value::Roll(it.roll(spec, site)?),
                Some(slot) => {
                    let (r, f) = it.roll_faces(spec, site)?;
                    l[slot] = Value::Faces(Rc::new(f));
                    Value::Roll(r)
                }
            })
        })
    }
}

/// The dice a roll rolls: known here, or an expression's.
enum IntoSpec {
    Const(DiceSpec),
    Expr(ValueFn),
}

/// `box.number`, `box.level`, `box.attr` of box `number` of track `track`.
pub(super) fn box_part(p: &ir::Program, track: usize, number: u16, part: BoxPart) -> Value {
    let def = &p.tracks[track];
    let bx = &def.boxes[usize::from(number)
        .saturating_sub(1)
        .min(def.boxes.len().saturating_sub(1))];
    match part {
        BoxPart::Number => Value::Int(i64::from(number)),
        BoxPart::Level => Value::Choice(bx.level),
        BoxPart::Attr(a) => Value::Int(bx.attrs.get(a).copied().unwrap_or(0)),
    }
}

/// `filled(track)` of a track of type `tid`: its filled boxes.
pub(super) fn filled(p: &ir::Program, track: rulesc_runtime::Track, tid: usize) -> Value {
    let n = p.tracks[tid].boxes.len();
    let boxes = track
        .boxes()
        .filter(|&b| b <= n)
        .map(|b| Value::TrackBox {
            track: tid,
            number: b as u16,
        })
        .collect();
    Value::List(Rc::new(boxes))
}
