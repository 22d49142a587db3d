//! Expressions: the hot ones (constants, locals, fields, arithmetic, comparisons,
//! conditions) in [`Interpreter::expr`], the others in `Interpreter::expr_more`.

use super::{weight, Interpreter, Run, Value};
use crate::ir::{self, BoxPart, Const, ExprKind as K, FacesPart, IntOp, Ty};
use rulesc_runtime::{__private::arith, __private::error, DiceSpec, Roll, RuleErrorKind};
use std::cell::RefCell;
use std::rc::Rc;

impl<'p> Interpreter<'p, '_> {
    /// A list-typed expression's elements.
    pub(super) fn list(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<Rc<Vec<Value>>> {
        Ok(match self.expr(e, locals)? {
            Value::List(l) => l,
            _ => Rc::new(Vec::new()),
        })
    }

    pub(crate) fn expr(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<Value> {
        Ok(match &e.kind {
            K::Const(Const::Int(i)) => {
                self.step(1)?;
                Value::Int(*i)
            }
            K::Const(Const::Bool(b)) => {
                self.step(1)?;
                Value::Bool(*b)
            }
            K::Const(Const::Choice(c)) => {
                self.step(1)?;
                Value::Choice(*c)
            }
            K::Const(Const::Dice(d)) => {
                self.step(1)?;
                Value::Dice(*d)
            }
            K::Local(s) => locals[*s].clone(),
            // `record.field`; of a local, read in place
            K::Field(r, i) => match &r.kind {
                K::Local(s) => field_of(&locals[*s], *i),
                _ => field_of(&self.expr(r, locals)?, *i),
            },
            K::Neg(_) | K::Int(..) | K::ToInt(_) | K::Natural(_) => {
                Value::Int(self.int(e, locals)?)
            }
            K::Not(_) | K::Compare(..) | K::And(..) | K::Or(..) => {
                Value::Bool(self.truth(e, locals)?)
            }
            // `if c then a else b`
            K::If(c, a, b) => {
                let taken = self.truth(c, locals)?;
                if self.formulas && self.on() {
                    self.formula_branch(c.span, taken);
                }
                if taken {
                    self.expr(a, locals)?
                } else {
                    self.expr(b, locals)?
                }
            }
            K::Call(f, args) => self.call_expr(*f, args, locals)?,
            _ => self.expr_more(e, locals)?,
        })
    }

    /// `e.int()` of [`Self::expr`]'s value, without making the values of integer
    /// operations in between: the same steps and results.
    pub(super) fn int(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<i64> {
        Ok(match &e.kind {
            K::Const(Const::Int(i)) => {
                self.step(1)?;
                *i
            }
            K::Local(s) => locals[*s].int(),
            K::Field(r, i) if matches!(r.kind, K::Local(_)) => {
                let K::Local(s) = r.kind else { return Ok(0) };
                match &locals[s] {
                    Value::Record(r) => r.borrow().get(*i).map_or(0, Value::int),
                    _ => 0,
                }
            }
            K::Neg(a) => arith::neg(self.int(a, locals)?),
            K::Int(op, a, b) => {
                let (a, b) = (self.int(a, locals)?, self.int(b, locals)?);
                op.apply(a, b)
            }
            K::ToInt(a) => self.int(a, locals)?,
            K::Natural(a) => match &a.kind {
                K::Local(s) => match &locals[*s] {
                    Value::Roll(r) => r.natural,
                    _ => 0,
                },
                _ => match self.expr(a, locals)? {
                    Value::Roll(r) => r.natural,
                    _ => 0,
                },
            },
            K::Not(_) | K::Compare(..) | K::And(..) | K::Or(..) => {
                i64::from(self.truth(e, locals)?)
            }
            _ => self.expr(e, locals)?.int(),
        })
    }

    /// `e.bool()` of [`Self::expr`]'s value, as [`Self::int`] is of integers.
    pub(super) fn truth(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<bool> {
        Ok(match &e.kind {
            K::Const(Const::Bool(b)) => {
                self.step(1)?;
                *b
            }
            K::Local(s) => locals[*s].bool(),
            K::Not(a) => !self.truth(a, locals)?,
            K::Compare(op, a, b) => {
                let (a, b) = (self.int(a, locals)?, self.int(b, locals)?);
                op.holds(a, b)
            }
            K::And(a, b) => self.truth(a, locals)? && self.truth(b, locals)?,
            K::Or(a, b) => self.truth(a, locals)? || self.truth(b, locals)?,
            _ => self.expr(e, locals)?.bool(),
        })
    }

    /// A call: the arguments, evaluated in order, fill a frame kept from an earlier call.
    #[inline(never)]
    fn call_expr(&mut self, f: ir::Id, args: &[ir::Expr], locals: &mut Vec<Value>) -> Run<Value> {
        let params = &self.prog.functions[f].params;
        let mut frame = self.frames.pop().unwrap_or_default();
        for (a, p) in args.iter().zip(params) {
            // A record read from the fight is passed as a copy.
            let v = self.expr(a, locals)?;
            // Outside a fight no value is read from one.
            frame.push(if self.fight.is_some() && ir::copied_from_fight(a, p) {
                v.deep_clone()
            } else {
                v
            });
        }
        match self.call_frame(f, frame) {
            // A formula's rule error is recorded by the procedure calling it.
            Err(e) if self.on() && !self.prog.functions[f].is_procedure() => Err(self.env.fail(e)),
            other => other,
        }
    }

    /// The expressions [`Self::expr`] leaves out.
    #[inline(never)]
    fn expr_more(&mut self, e: &ir::Expr, locals: &mut Vec<Value>) -> Run<Value> {
        Ok(match &e.kind {
            K::Const(c) => {
                let v = Value::from_const(c);
                self.step(weight(&v))?;
                v
            }
            // `box.number`, `box.level`, `box.attr`
            K::BoxPart(b, part) => {
                let b = self.expr(b, locals)?;
                box_part(self.prog, &b, *part)
            }
            // `map[key]` (keyed by a scale or enum: every key has an entry)
            K::MapGet(m, k) => {
                let m = self.expr(m, locals)?;
                let k = self.expr(k, locals)?;
                match m {
                    Value::Map(_) => map_entry(&m, k.choice()),
                    Value::SortedMap(m) => {
                        let (v, steps) = sorted_get(&m, &k);
                        self.step(steps)?;
                        v
                    }
                    _ => Value::Unit,
                }
            }
            // `keys(map)`
            K::Keys(m) => {
                let m = self.expr(m, locals)?;
                let (keys, steps) = keys_of(&m);
                self.step(steps)?;
                keys
            }
            K::Lookup {
                table,
                key,
                column,
                site,
                ..
            } => self.lookup(*table, key, column.as_deref(), *site, locals)?,
            // `a / b`, `a % b` where `b` may be 0
            K::CheckedDiv(op, a, b, site) => {
                let (a, b) = (self.int(a, locals)?, self.int(b, locals)?);
                let q = if *op == IntOp::Rem {
                    error::rem(a, b, *site)
                } else {
                    error::div(a, b, *site)
                };
                Value::Int(q.map_err(|e| self.fail(e.site, e.kind))?)
            }
            // a new record's `int(lo..hi)` field, not proven inside
            K::InRange {
                value,
                lo,
                hi,
                site,
            } => {
                let v = self.int(value, locals)?;
                let v =
                    error::in_range(v, *lo, *hi, *site).map_err(|e| self.fail(e.site, e.kind))?;
                Value::Int(v)
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
                let d = self.int(delta, locals)?;
                Value::Roll(r.shifted(d, *negate))
            }
            // `level ± n`
            K::LevelStep {
                level,
                delta,
                negate,
            } => {
                let l = self.expr(level, locals)?.choice();
                let d = self.int(delta, locals)?;
                let len = match &e.ty {
                    Ty::Choice(c) => self.prog.choices[*c].variants.len(),
                    _ => 1,
                };
                let len = len.min(255) as u8;
                Value::Choice(arith::level_plus(l.into(), d, *negate, len).into())
            }
            // `x in list`
            K::In(x, l) => {
                let x = self.expr(x, locals)?;
                let items = self.list(l, locals)?;
                let (found, compared) = scan(&items, &x);
                self.step(compared)?;
                Value::Bool(found)
            }
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
                let x = self.int(x, locals)?;
                let lo = self.int(lo, locals)?;
                let hi = self.int(hi, locals)?;
                rewrap(arith::clamp(x, lo, hi), &e.ty)
            }
            K::Abs(a) => Value::Int(self.int(a, locals)?.saturating_abs()),
            K::Len(a) => Value::Int(self.list(a, locals)?.len() as i64),
            // `dice * n`
            K::DiceTimes(d, n, site) => {
                let d = self.expr(d, locals)?;
                let n = self.int(n, locals)?;
                match d {
                    Value::Dice(d) => Value::Dice(self.dice_times(d, n, *site)?),
                    other => other,
                }
            }
            // `roll dice`: a step per die past the first (`effects::dice_steps`)
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
                    None => Value::Roll(self.roll(spec, *site)?),
                    Some(slot) => {
                        let (r, f) = self.roll_faces(spec, *site)?;
                        locals[*slot] = Value::Faces(Rc::new(f));
                        Value::Roll(r)
                    }
                }
            }
            // `faces(r)`, `kept(r)`, `dropped(r)`
            K::Faces { part, of, slot } => {
                self.expr(of, locals)?;
                faces_of(&locals[*slot], *part)
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
                filled(self.prog, &v, &t.ty)
            }
            K::Aggregate {
                kind,
                var,
                list,
                cond,
                body,
            } => self.aggregate(*kind, *var, list, cond.as_deref(), body, &e.ty, locals)?,
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
                let fields = if fields.is_empty() {
                    // Fields are never changed in place: one empty list serves every tag
                    // without fields.
                    NO_FIELDS.with(Rc::clone)
                } else {
                    Rc::from(self.copies(fields, locals)?)
                };
                Value::Outcome { tag: *tag, fields }
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
            K::Range(lo, hi, site) => {
                let lo = self.int(lo, locals)?;
                let hi = self.int(hi, locals)?;
                self.range_room(lo, hi, *site)?;
                Value::List(Rc::new((lo..hi.max(lo)).map(Value::Int).collect()))
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
                let keyed = self.keyed(*var, list, cond.as_deref(), keys, locals)?;
                super::ordered(keyed, None)
            }
            K::Best {
                var,
                list,
                cond,
                keys,
                max,
            } => {
                let keyed = self.keyed(*var, list, cond.as_deref(), keys, locals)?;
                super::ordered(keyed, Some(*max))
            }
            // `list[i]`
            K::Combatant(f) => {
                let f = self.int(f, locals)?;
                self.combatant(f)
            }
            K::Fight(q, args) => {
                let arg = match args.first() {
                    Some(a) => Some(self.expr(a, locals)?),
                    None => None,
                };
                self.fight_query(*q, arg)?
            }
            K::ListGet(list, index, check) => {
                let l = self.list(list, locals)?;
                let i = self.int(index, locals)?;
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
            // Taken by `expr` itself.
            K::Local(_)
            | K::Field(..)
            | K::Call(..)
            | K::Neg(_)
            | K::Not(_)
            | K::Int(..)
            | K::Compare(..)
            | K::And(..)
            | K::Or(..)
            | K::ToInt(_)
            | K::Natural(_)
            | K::If(..) => return self.expr(e, locals),
        })
    }
}

thread_local! {
    /// The fields of an outcome tag that has none.
    pub(crate) static NO_FIELDS: Rc<[Value]> = Rc::new([]);
}

/// What the walker reads a part of when an enumeration cut its path off inside a call:
/// the call gave `Unit`, and the path's result is discarded at its next statement
/// (`Interpreter::block`). The VM ends the run there instead, so it never reads one.
pub(crate) const CUT_OFF: Value = Value::Unit;

/// Field `i` of a record ([`CUT_OFF`] of [`CUT_OFF`]).
#[inline]
pub(crate) fn field_of(v: &Value, i: usize) -> Value {
    let Value::Record(r) = v else {
        if *v == CUT_OFF {
            return CUT_OFF;
        }
        unreachable!("`.field` of a value that is no record, {v:?}: the checker reads fields only of records")
    };
    let fields = r.borrow();
    let Some(f) = fields.get(i) else {
        unreachable!("field {i} of a record of {} fields: the checker numbers a field within its record type", fields.len())
    };
    f.clone()
}

pub(super) fn rewrap(v: i64, ty: &Ty) -> Value {
    match ty {
        Ty::Choice(_) => Value::Choice(v.clamp(0, i64::from(u16::MAX)) as u16),
        _ => Value::Int(v),
    }
}

/// `box.number`, `box.level` or `box.attr` of the track box `b` ([`CUT_OFF`] of
/// [`CUT_OFF`]).
pub(crate) fn box_part(prog: &ir::Program, b: &Value, part: BoxPart) -> Value {
    let Value::TrackBox { track, number } = b else {
        if *b == CUT_OFF {
            return CUT_OFF;
        }
        unreachable!("a box's part of {b:?}: the checker reads parts only of a track's boxes")
    };
    let def = &prog.tracks[*track];
    // Boxes are numbered from 1 (`filled` makes them from the track's own boxes).
    let Some(bx) = usize::from(*number)
        .checked_sub(1)
        .and_then(|i| def.boxes.get(i))
    else {
        unreachable!(
            "box {number} of a track of {} boxes: `filled` gives only the track's own boxes",
            def.boxes.len()
        )
    };
    match part {
        BoxPart::Number => Value::Int(i64::from(*number)),
        BoxPart::Level => Value::Choice(bx.level),
        BoxPart::Attr(a) => match bx.attrs.get(a) {
            Some(x) => Value::Int(*x),
            None => unreachable!(
                "attribute {a} of a box with {}: the checker resolves `box.attr` to one every box of the track declares",
                bx.attrs.len()
            ),
        },
    }
}

/// `faces(r)`, `kept(r)` or `dropped(r)` of the faces `v` a roll left ([`CUT_OFF`] of
/// [`CUT_OFF`]).
pub(crate) fn faces_of(v: &Value, part: FacesPart) -> Value {
    let Value::Faces(f) = v else {
        if *v == CUT_OFF {
            return CUT_OFF;
        }
        unreachable!("`faces` of {v:?}: the checker takes faces only of a local roll, whose faces its hidden local holds")
    };
    let dice = match part {
        FacesPart::All => f.all(),
        FacesPart::Kept => f.kept(),
        FacesPart::Dropped => f.dropped(),
    };
    Value::List(Rc::new(dice.into_iter().map(Value::Int).collect()))
}

/// `filled(track)`: the filled boxes of the track `v` of type `ty`, in order
/// ([`CUT_OFF`] of [`CUT_OFF`]).
pub(crate) fn filled(prog: &ir::Program, v: &Value, ty: &Ty) -> Value {
    let (Value::Track(track), Ty::Track(tid)) = (v, ty) else {
        if *v == CUT_OFF {
            return CUT_OFF;
        }
        unreachable!("`filled` of {v:?} ({ty:?}): the checker takes `filled` only of a track")
    };
    let n = prog.tracks[*tid].boxes.len();
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

/// Entry `k` of a map keyed by a scale or enum (every key has one; [`CUT_OFF`] of
/// [`CUT_OFF`]).
pub(crate) fn map_entry(m: &Value, k: u16) -> Value {
    let Value::Map(items) = m else {
        if *m == CUT_OFF {
            return CUT_OFF;
        }
        unreachable!(
            "`map[key]` by level of {m:?}: the checker reads so only maps keyed by a scale or enum"
        )
    };
    match items.get(usize::from(k)) {
        Some(v) => v.clone(),
        None => unreachable!(
            "entry {k} of a map of {} entries: such a map holds one per level or variant, and a level register holds one of them",
            items.len()
        ),
    }
}

/// `x in items`: whether `items` holds `x`, and how many items were compared, the steps
/// it costs (a long list costs its length, as walking it would).
pub(crate) fn scan(items: &[Value], x: &Value) -> (bool, u64) {
    scan_by(items, |i| values_equal(i, x))
}

/// Whether an item of `items` is the one sought, and the steps the search takes: one
/// per item compared (`x in list`'s rule, for a list of values or of numbers alike).
#[inline]
pub(crate) fn scan_by<T>(items: &[T], hit: impl Fn(&T) -> bool) -> (bool, u64) {
    match items.iter().position(hit) {
        Some(at) => (true, at as u64 + 1),
        None => (false, items.len() as u64),
    }
}

pub(super) fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Record(x), Value::Record(y)) => Rc::ptr_eq(x, y) || *x.borrow() == *y.borrow(),
        (Value::Roll(_) | Value::Int(_), Value::Roll(_) | Value::Int(_)) => a.int() == b.int(),
        (Value::Choice(x), Value::Choice(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;

/// `map[key]` of a sorted map: a key not held reads the zero. A copy (it may be changed in
/// place), paid for by the values it holds past the first, as a copy is: the value and
/// its steps (the walker's and the VM's one rule).
pub(crate) fn sorted_get(m: &super::SortedMap, k: &Value) -> (Value, u64) {
    let v = m.get(k);
    (v.deep_clone(), super::weight(v) - 1)
}

/// `keys(map)`, ascending, and its steps: one per value of the keys listed (a record key
/// one per field too); every level or variant of a map keyed by a scale or enum.
pub(crate) fn keys_of(m: &Value) -> (Value, u64) {
    match m {
        Value::Map(items) => (
            Value::List(Rc::new(
                (0..items.len()).map(|i| Value::Choice(i as u16)).collect(),
            )),
            items.len() as u64,
        ),
        Value::SortedMap(m) => {
            let n = m
                .iter()
                .fold(0u64, |n, (k, _)| n.saturating_add(super::weight(k)));
            let keys = m.iter().map(|(k, _)| k.deep_clone()).collect();
            (Value::List(Rc::new(keys)), n)
        }
        &CUT_OFF => (CUT_OFF, 0),
        other => unreachable!("`keys` of {other:?}: the checker takes `keys` only of a map"),
    }
}
