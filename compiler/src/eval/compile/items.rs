//! Calls, values copied into new ones, aggregates walked item by item, and the effects
//! (decisions, tracks filled, die tables rolled), compiled.

use super::held::{InPlace, Rows};
use super::{scalar, Cx, Fx, Got, IntFn, Interpreter, ValueFn};
use crate::eval::effects::{dice_steps, elem_of, level_byte, track_levels};
use crate::eval::expr::rewrap;
use crate::eval::{leak_name, weight, Value};
use crate::ir::{self, Agg, Const, DecideOptions, ExprKind as K, TableKey, Ty};
use rulesc_runtime::{__private::arith, DiceSpec, Track};
use std::rc::Rc;

/// Expressions whose values are copied, in order, into a new value's parts (each with
/// whether its type is [`scalar`]).
pub(super) struct Copies(Vec<(ValueFn, bool)>);

impl Copies {
    pub(super) fn run(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<Vec<Value>> {
        let mut out = Vec::with_capacity(self.0.len());
        for (x, scalar) in &self.0 {
            let v = x(it, l)?;
            out.push(if *scalar {
                it.step(1)?;
                v
            } else {
                it.copied(v)?
            });
        }
        Ok(out)
    }

    /// [`Self::run`] into a shared slice, made with one allocation (an outcome's fields).
    pub(super) fn run_shared(
        &self,
        it: &mut Interpreter<'_, '_>,
        l: &mut Vec<Value>,
    ) -> Got<Rc<[Value]>> {
        const ON_STACK: usize = 4;
        if self.0.len() > ON_STACK {
            return Ok(Rc::from(self.run(it, l)?));
        }
        let mut out: [Value; ON_STACK] = std::array::from_fn(|_| Value::Unit);
        for ((x, scalar), slot) in self.0.iter().zip(&mut out) {
            let v = x(it, l)?;
            *slot = if *scalar {
                it.step(1)?;
                v
            } else {
                it.copied(v)?
            };
        }
        // A `TrustedLen` iterator: the slice is allocated once, at its size.
        Ok(out.into_iter().take(self.0.len()).collect())
    }
}

/// The list an aggregate walks.
enum Items {
    List(ValueFn),
    /// `filled(track)` of a track of type `.1`, walked box by box without making the
    /// list: each box is one value, one step, as the list's copy would cost.
    Filled(ValueFn, usize),
    /// The same of a track read in place (a local's, or a field of a local record).
    FilledAt(InPlace, usize),
    /// A constant list (`for p in BodyPart`: every value of an enum), walked item by
    /// item without making it: the constant's steps (its weight), then each item's.
    Consts(u64, Vec<Const>),
}

/// The item loop of an aggregate: the walker's `each`.
struct Each {
    var: usize,
    items: Items,
    cond: Option<Fx<bool>>,
}

impl Each {
    /// Binds `var` to a copy of each element (or, in a formula, the element itself, paid
    /// for as a copy), skips those failing `cond`, and calls `f` until it returns false.
    fn run(
        &self,
        it: &mut Interpreter<'_, '_>,
        l: &mut Vec<Value>,
        mut f: impl FnMut(&mut Interpreter<'_, '_>, &mut Vec<Value>) -> Got<bool>,
    ) -> Got<()> {
        match &self.items {
            Items::List(list) => {
                let items = match list(it, l)? {
                    Value::List(items) => items,
                    _ => return Ok(()),
                };
                let shared = it.pure;
                for item in items.iter() {
                    l[self.var] = if shared {
                        it.step(weight(item))?;
                        item.clone()
                    } else {
                        it.copy(item)?
                    };
                    if !self.holds(it, l)? {
                        continue;
                    }
                    if !f(it, l)? {
                        break;
                    }
                }
            }
            Items::Consts(steps, items) => {
                it.step(*steps)?;
                for c in items {
                    // A copy of the item made, or the item shared: a value made afresh.
                    let item = Value::from_const(c);
                    it.step(weight(&item))?;
                    l[self.var] = item;
                    if !self.holds(it, l)? {
                        continue;
                    }
                    if !f(it, l)? {
                        break;
                    }
                }
            }
            Items::Filled(..) | Items::FilledAt(..) => {
                let (track, tid) = match &self.items {
                    Items::Filled(track, tid) => (track(it, l)?, tid),
                    Items::FilledAt(track, tid) => (track.read(l, Value::clone), tid),
                    Items::List(_) | Items::Consts(..) => unreachable!("matched above"),
                };
                let Value::Track(track) = track else {
                    return Ok(());
                };
                let n = it.prog.tracks[*tid].boxes.len();
                for b in track.boxes().filter(|&b| b <= n) {
                    it.step(1)?;
                    l[self.var] = Value::TrackBox {
                        track: *tid,
                        number: b as u16,
                    };
                    if !self.holds(it, l)? {
                        continue;
                    }
                    if !f(it, l)? {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn holds(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<bool> {
        match &self.cond {
            Some(c) => c(it, l),
            None => Ok(true),
        }
    }
}

impl Cx<'_> {
    /// A call: the arguments, evaluated in order, fill a frame kept from an earlier call.
    pub(super) fn call(&self, f: ir::Id, exprs: &[ir::Expr]) -> ValueFn {
        let call = self.ordinary_call(f, exprs);
        if self.p.functions[f].is_procedure() {
            call
        } else {
            self.inlined(f, exprs, call)
        }
    }

    /// A call of formula `f` read as `T` (a number by `body_as` = [`Cx::int`], a truth by
    /// [`Cx::truth`]): inlined as such when it can be, else the call's value read by
    /// `read`.
    pub(super) fn formula_call_as<T: 'static>(
        &self,
        f: ir::Id,
        exprs: &[ir::Expr],
        read: fn(&Value) -> T,
        body_as: impl Fn(&Cx<'_>, &ir::Expr) -> Fx<T>,
    ) -> Fx<T> {
        let call = self.ordinary_call(f, exprs);
        let call: Fx<T> = Box::new(move |it, l| Ok(read(&call(it, l)?)));
        self.inlined_as(f, exprs, call, body_as)
    }

    /// The ordinary call of function `f`: arguments into a kept frame, then its code.
    pub(super) fn ordinary_call(&self, f: ir::Id, exprs: &[ir::Expr]) -> ValueFn {
        let callee = &self.p.functions[f];
        // A record read from the fight is passed as a copy.
        let args: Vec<(ValueFn, bool)> = exprs
            .iter()
            .zip(&callee.params)
            .map(|(a, p)| (self.value(a), ir::copied_from_fight(a, p)))
            .collect();
        let formula = !callee.is_procedure();
        Box::new(move |it, l| {
            let mut frame = it.frames.pop().unwrap_or_default();
            for (a, copied) in &args {
                let v = a(it, l)?;
                // Outside a fight no value is read from one.
                frame.push(if *copied && it.fight.is_some() {
                    v.deep_clone()
                } else {
                    v
                });
            }
            match it.call_frame(f, frame) {
                // A formula's rule error is recorded by the procedure calling it.
                Err(e) if formula && it.on() => Err(Box::new(it.env.fail(e))),
                Err(e) => Err(Box::new(e)),
                Ok(v) => Ok(v),
            }
        })
    }

    pub(super) fn copies(&self, xs: &[ir::Expr]) -> Copies {
        Copies(xs.iter().map(|x| (self.value(x), scalar(&x.ty))).collect())
    }

    /// The item loop over `list` binding local `var`, with `cond`.
    fn each(&self, var: usize, list: &ir::Expr, cond: Option<&ir::Expr>) -> Each {
        let items = match (&list.kind, &list.ty) {
            (K::Filled(t), _) if matches!(t.ty, Ty::Track(_)) => {
                let Ty::Track(tid) = t.ty else {
                    unreachable!("matched above")
                };
                match self.in_place(t) {
                    Some(at) => Items::FilledAt(at, tid),
                    None => Items::Filled(self.value(t), tid),
                }
            }
            (K::Const(c @ Const::List(items)), _) => {
                Items::Consts(weight(&Value::from_const(c)), items.clone())
            }
            _ => Items::List(self.value(list)),
        };
        Each {
            var: self.slot(var),
            items,
            cond: cond.map(|c| self.truth(c)),
        }
    }

    /// `[body for var in list if cond]`: the walker's `collect` (each value kept a copy;
    /// in a formula, where nothing can change a record, the loop variable is the element
    /// itself, paid for as a copy, as for aggregates: what the comprehension keeps is a
    /// copy all the same).
    pub(super) fn collect(
        &self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        body: &ir::Expr,
    ) -> ValueFn {
        let each = self.each(var, list, cond);
        let body = self.value(body);
        Box::new(move |it, l| {
            let mut out = Vec::new();
            each.run(it, l, |it, l| {
                let v = body(it, l)?;
                out.push(it.copied(v)?);
                Ok(true)
            })?;
            Ok(Value::List(Rc::new(out)))
        })
    }

    /// `sum/count/any/all/max/min(body for var in list if cond)` as a number: `any` and
    /// `all` give 0 or 1, an aggregate of levels the level's index.
    pub(super) fn aggregate_int(&self, e: &ir::Expr) -> IntFn {
        let K::Aggregate {
            kind,
            var,
            list,
            cond,
            body,
        } = &e.kind
        else {
            let f = self.value(e);
            return Box::new(move |it, l| Ok(f(it, l)?.int()));
        };
        let each = self.each(*var, list, cond.as_deref());
        let choice = matches!(e.ty, Ty::Choice(_));
        match kind {
            Agg::Count => Box::new(move |it, l| {
                let mut count = 0i64;
                each.run(it, l, |_, _| {
                    count = count.saturating_add(1);
                    Ok(true)
                })?;
                Ok(count)
            }),
            Agg::Any | Agg::All => {
                let any = *kind == Agg::Any;
                let body = self.truth(body);
                Box::new(move |it, l| {
                    // `any` stops at the first true, `all` at the first false.
                    let mut found = !any;
                    each.run(it, l, |it, l| {
                        if body(it, l)? == any {
                            found = any;
                            return Ok(false);
                        }
                        Ok(true)
                    })?;
                    Ok(i64::from(found))
                })
            }
            Agg::Sum | Agg::Max | Agg::Min => {
                let kind = *kind;
                let body = self.int(body);
                Box::new(move |it, l| {
                    let mut acc: Option<i64> = None;
                    each.run(it, l, |it, l| {
                        let v = body(it, l)?;
                        acc = Some(match (kind, acc) {
                            (Agg::Sum, a) => arith::add(a.unwrap_or(0), v),
                            (_, None) => v,
                            (Agg::Max, Some(a)) => a.max(v),
                            (_, Some(a)) => a.min(v),
                        });
                        Ok(true)
                    })?;
                    let v = acc.unwrap_or(0);
                    Ok(if choice {
                        v.clamp(0, i64::from(u16::MAX))
                    } else {
                        v
                    })
                })
            }
        }
    }

    /// An aggregate's value.
    pub(super) fn aggregate(&self, e: &ir::Expr) -> ValueFn {
        let f = self.aggregate_int(e);
        match &e.kind {
            K::Aggregate {
                kind: Agg::Count, ..
            } => Box::new(move |it, l| Ok(Value::Int(f(it, l)?))),
            K::Aggregate {
                kind: Agg::Any | Agg::All,
                ..
            } => Box::new(move |it, l| Ok(Value::Bool(f(it, l)? != 0))),
            _ => {
                let ty = e.ty.clone();
                Box::new(move |it, l| Ok(rewrap(f(it, l)?, &ty)))
            }
        }
    }

    /// `any(..)` or `all(..)` as a condition.
    pub(super) fn aggregate_truth(&self, e: &ir::Expr) -> Fx<bool> {
        let f = self.aggregate_int(e);
        if matches!(
            e.kind,
            K::Aggregate {
                kind: Agg::Any | Agg::All,
                ..
            }
        ) {
            Box::new(move |it, l| Ok(f(it, l)? != 0))
        } else {
            // A number read as a condition: the walker's `Value::bool` of an integer.
            Box::new(move |it, l| {
                f(it, l)?;
                Ok(false)
            })
        }
    }

    /// `decide name: Type`, `decide name from list`: the walker's `decide`.
    pub(super) fn decide(&self, name: &str, options: &DecideOptions, site: u32) -> ValueFn {
        let name: &'static str = leak_name(name);
        match options {
            DecideOptions::Choice(c) => {
                let n = self.p.choices[*c].variants.len() as u32;
                let ty = Ty::Choice(*c);
                Box::new(move |it, _| {
                    let i = it.env.decide(name, n);
                    Ok(it.decided(Value::Choice(i as u16), &ty, site))
                })
            }
            DecideOptions::Bool => Box::new(move |it, _| {
                let i = it.env.decide(name, 2);
                Ok(it.decided(Value::Bool(i == 1), &Ty::Bool, site))
            }),
            DecideOptions::List(list) => {
                let elem = elem_of(&list.ty);
                let list = self.value(list);
                Box::new(move |it, l| {
                    let items = match list(it, l)? {
                        Value::List(items) => items,
                        _ => Rc::new(Vec::new()),
                    };
                    Ok(it.decide_from(name, &items, &elem, site)?)
                })
            }
        }
    }

    /// `fill track level`, the track's levels read here.
    pub(super) fn fill(&self, track: &ir::Place, level: &ir::Expr, site: u32) -> ValueFn {
        // The track's place is read by the walker's `fill_at`.
        self.walked();
        let level = self.value(level);
        let keys = self.place_keys(track);
        let tid = match track.ty {
            Ty::Track(t) => Some(t),
            _ => None,
        };
        let levels = tid.map_or_else(Vec::new, |t| track_levels(&self.p.tracks[t]));
        if let (Some(tid), [ir::PlaceStep::Field(field)]) = (tid, &track.path[..]) {
            // A track field of a local record: filled where it is when untraced (what
            // `fill_at` does through `update`); traced, or not a record, the walker's.
            let (slot, field) = (self.slot(track.root), *field);
            let escalate = self.p.tracks[tid].escalate;
            let track = track.clone();
            return Box::new(move |it, l| {
                let lvl = level(it, l)?.choice();
                if !it.on() {
                    if let Value::Record(r) = &l[slot] {
                        if let Some(v) = r.borrow_mut().get_mut(field) {
                            let mut t = match v {
                                Value::Track(t) => *t,
                                _ => Track::default(),
                            };
                            let filled = t.fill(&levels, level_byte(lvl), escalate);
                            *v = Value::Track(t);
                            return Ok(Value::Int(filled.map_or(0, |(n, _)| n as i64)));
                        }
                    }
                }
                Ok(it.fill_at(&track, tid, &levels, lvl, &[], site, l)?)
            });
        }
        let track = track.clone();
        Box::new(move |it, l| {
            let lvl = level(it, l)?.choice();
            let keys = keys.run(it, l)?;
            let Some(tid) = tid else {
                return Ok(Value::Int(0));
            };
            Ok(it.fill_at(&track, tid, &levels, lvl, &keys, site, l)?)
        })
    }

    /// `roll table` or `roll table among list`
    pub(super) fn roll_table(&self, table: ir::Id, among: Option<&ir::Expr>, site: u32) -> ValueFn {
        let TableKey::Die(die) = self.p.tables[table].key else {
            return Box::new(|_, _| Ok(Value::Unit));
        };
        if let (None, Some(rows)) = (among, Rows::new(&self.p.tables[table])) {
            return match dice_steps(die) {
                0 => rows_rolled::<false>(table, die, site, rows, 0),
                extra => rows_rolled::<true>(table, die, site, rows, extra),
            };
        }
        let among = among.map(|a| self.value(a));
        Box::new(move |it, l| {
            let allowed = match &among {
                Some(a) => Some(match a(it, l)? {
                    Value::List(items) => items,
                    _ => Rc::new(Vec::new()),
                }),
                None => None,
            };
            Ok(it.roll_table_at(table, allowed.as_deref().map(Vec::as_slice), site)?)
        })
    }
}

/// A die table whose rows are at hand, rolled (no `among`): untraced, the face rolled
/// reads its row here (every face has one). `MANY`: its die is more than one die, which
/// pay their `extra` steps ([`dice_steps`]) as the walker's roll does; a die of one pays
/// none, and takes no work for it.
fn rows_rolled<const MANY: bool>(
    table: ir::Id,
    die: DiceSpec,
    site: u32,
    rows: Rows,
    extra: u64,
) -> ValueFn {
    Box::new(move |it, _| {
        if it.on() {
            return Ok(it.roll_table_at(table, None, site)?);
        }
        if MANY {
            it.step(extra)?;
        }
        let face = it.env.roll(die, site, false).total;
        Ok(rows.get(face).unwrap_or(Value::Unit))
    })
}
