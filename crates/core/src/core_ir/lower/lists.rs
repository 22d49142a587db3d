//! Lists: the one loop over a list's items (`for`, aggregates, comprehensions), lists
//! made, read at an index, searched and measured.

use super::{count, Lower, Lowered};
use crate::core_ir::code::{IReg, Inst, Part, VReg};
use crate::eval::{weight, Value};
use crate::ir::{Expr, ExprKind as K, FightQuery, Ty};

/// How a loop walks its items ([`Lower::each`]).
enum Walk {
    /// A list's, by index `i` up to its length.
    List { list: VReg, len: IReg, i: IReg },
    /// A constant list's numbers, truths or levels, held in the code, by index `i`.
    Consts {
        items: Box<[i64]>,
        len: IReg,
        i: IReg,
    },
    /// The filled boxes of a track of type `track`, the ones left as bits.
    Boxes { bits: IReg, track: u32 },
}

impl Lower<'_, '_> {
    /// The steps making `list` charges (one of [`const_items`]), with nothing made: the
    /// list lowered as it would be, for its steps alone, its code (the constants'
    /// registers written, no effect) dropped, and the registers it took.
    fn list_steps(&mut self, list: &Expr) -> Lowered<()> {
        let (mark, regs) = (self.code.len(), (self.ints, self.vals));
        let (free, taken, allocs) = (self.free.clone(), self.taken.len(), self.allocs.len());
        let lets = self.lets.len();
        self.expr(list)?;
        debug_assert!(self.code[mark..].iter().all(|i| matches!(
            i,
            Inst::Const { .. } | Inst::ConstVal { .. } | Inst::NewList { .. } | Inst::Push { .. }
        )));
        self.code.truncate(mark);
        // Its registers are not taken after all.
        (self.ints, self.vals) = regs;
        self.free = free;
        self.taken.truncate(taken);
        self.allocs.truncate(allocs);
        self.lets.truncate(lets);
        Ok(())
    }

    /// A list expression: `[a, b]`, a comprehension, `list[i]`, `x in list`, `len(list)`
    /// or an aggregate.
    pub(super) fn list_expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            // `[a, b, c]`: a copy of each
            K::List(items) => {
                let dst = self.val();
                self.code.push(Inst::NewList {
                    dst,
                    cap: count(items.len()),
                });
                for x in items {
                    let v = self.expr(x)?;
                    self.push_copy(dst, v, &x.ty)?;
                }
                Part::Val(dst)
            }
            // `[body for var in list if cond]`: a copy of each body
            K::Collect {
                var,
                list,
                cond,
                body,
            } => {
                let dst = self.val();
                self.code.push(Inst::NewList { dst, cap: 0 });
                self.each(*var, list, cond.as_deref(), false, |l, _| {
                    let v = l.expr(body)?;
                    l.push_copy(dst, v, &body.ty)?;
                    Ok(Vec::new())
                })?;
                Part::Val(dst)
            }
            // `list[i]`
            K::ListGet(list, index, check) => {
                let l = self.val_of(list)?;
                let idx = self.scalar(index)?;
                let dst = self.fresh(&e.ty)?;
                self.flush();
                self.code.push(Inst::ListGet {
                    dst,
                    list: l,
                    idx,
                    site: *check,
                });
                dst
            }
            // `x in list`
            K::In(x, list) => {
                let x = self.expr(x)?;
                if matches!(x, Part::Unit) || !matches!(list.ty, Ty::List(_)) {
                    unreachable!("`x in list` asks a list for a value (the checker's rule)");
                }
                // Of a list of constant numbers, truths or levels: no list made, its
                // steps charged as the list's are.
                let scalar = !matches!(x, Part::Val(_));
                if let (Some(items), true) = (const_items(list), scalar) {
                    let x = self.scalar_of(x)?;
                    self.list_steps(list)?;
                    let dst = self.int();
                    self.flush();
                    self.code.push(Inst::InImm { dst, x, items });
                    return Ok(Part::Bool(dst));
                }
                let l = self.val_of(list)?;
                let dst = self.int();
                self.flush();
                self.code.push(Inst::In { dst, x, list: l });
                Part::Bool(dst)
            }
            // `len(list)`
            K::Len(list) => {
                let l = self.val_of(list)?;
                if !matches!(list.ty, Ty::List(_)) {
                    unreachable!("`len` measures a list (the checker's rule)");
                }
                let dst = self.int();
                // `len(allies(c))`, `len(enemies(c))` in plain code: counted, no list made.
                if let Some(at) = self.just_wrote(l, |_| false).filter(|_| self.plain) {
                    if let Inst::FightQuery {
                        q: q @ (FightQuery::Allies | FightQuery::Enemies),
                        arg: Some(arg),
                        ..
                    } = self.code[at]
                    {
                        self.code[at] = Inst::FightCount { q, arg, dst };
                        return Ok(Part::Int(dst));
                    }
                }
                self.code.push(Inst::Len { dst, list: l });
                Part::Int(dst)
            }
            // `sum`/`max`/`min`/`any`/`all`/`count` over a list
            K::Aggregate {
                kind,
                var,
                list,
                cond,
                body,
            } => self.aggregate(*kind, *var, list, cond.as_deref(), body, &e.ty)?,
            K::Find {
                var,
                list,
                cond,
                index,
            } => self.find(*var, list, cond.as_deref(), *index)?,
            // `sort(..)`, `min_by(..)`, `max_by(..)`: each item
            // passing `cond` a copy, its keys in order, then the items ordered by them
            K::Sort {
                var,
                list,
                cond,
                keys,
            } => self.ordered(*var, list, cond.as_deref(), keys, None)?,
            K::Best {
                var,
                list,
                cond,
                keys,
                max,
            } => self.ordered(*var, list, cond.as_deref(), keys, Some(*max))?,
            // `lo..hi` as a list: its numbers pushed one by one, past a range's room a
            // rule error before the first
            K::Range(lo, hi, site) => {
                let (lo, hi) = (self.scalar(lo)?, self.scalar(hi)?);
                self.flush();
                if let Some(site) = site {
                    self.code.push(Inst::RangeRoom {
                        lo,
                        hi,
                        site: *site,
                    });
                }
                let dst = self.val();
                self.code.push(Inst::NewList { dst, cap: 0 });
                let i = self.int();
                self.code.push(Inst::Move { dst: i, src: lo });
                let top = self.here();
                let exit = self.code.len();
                self.code.push(Inst::JumpUnless {
                    op: crate::ir::CmpOp::Lt,
                    a: i,
                    b: hi,
                    to: 0,
                });
                self.code.push(Inst::Push {
                    list: dst,
                    value: Part::Int(i),
                });
                let end = self.loop_back(i, top);
                self.patch(exit, end);
                Part::Val(dst)
            }
            _ => unreachable!("`Lower::expr` sends only list expressions here"),
        })
    }

    /// `first(var in list if cond)`, or with `index` `index_of(..)`:
    /// `var` bound to each item in turn (a copy charged nothing), the first passing
    /// `cond` (or its index) the result, none when no item does.
    fn find(&mut self, var: usize, list: &Expr, cond: Option<&Expr>, index: bool) -> Lowered<Part> {
        let Ty::List(item_ty) = &list.ty else {
            unreachable!("`first` and `index_of` search a list (the checker's rule)")
        };
        let l = self.val_of(list)?;
        let dst = self.val();
        self.code.push(Inst::ConstVal {
            dst,
            value: Box::new(crate::ir::Const::Opt(None)),
        });
        let before = self.bound();
        let (len, i) = (self.int(), self.int());
        self.code.push(Inst::Len { dst: len, list: l });
        self.code.push(Inst::Const { dst: i, value: 0 });
        let top = self.here();
        let exit = self.code.len();
        self.code.push(Inst::JumpUnless {
            op: crate::ir::CmpOp::Lt,
            a: i,
            b: len,
            to: 0,
        });
        let item = match self.slots[var] {
            Some(part) => part,
            None => {
                let part = self.fresh(item_ty)?;
                self.slots[var] = Some(part);
                part
            }
        };
        self.code.push(Inst::Nth {
            dst: item,
            list: l,
            idx: i,
        });
        let mut next = None;
        if let Some(c) = cond {
            let c = self.truth(c)?;
            self.flush();
            next = Some(self.code.len());
            self.code.push(Inst::JumpIfNot { cond: c, to: 0 });
        }
        self.code.push(if index {
            Inst::Wrap {
                dst,
                src: Part::Int(i),
            }
        } else {
            Inst::Nth {
                dst: Part::Val(dst),
                list: l,
                idx: i,
            }
        });
        self.flush();
        let out = self.code.len();
        self.code.push(Inst::Jump(0));
        if let Some(next) = next {
            let at = self.here();
            self.patch(next, at);
        }
        let end = self.loop_back(i, top);
        self.patch(exit, end);
        self.patch(out, end);
        self.close(&before);
        Ok(Part::Val(dst))
    }

    /// `sort` (`best` `None`), `min_by`/`max_by` (`eval::ordered`): over [`Self::each`] (a copy of
    /// each item, charged), each key in order pushed, then the item.
    fn ordered(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        keys: &[Expr],
        best: Option<bool>,
    ) -> Lowered<Part> {
        let (items, ks) = (self.val(), self.val());
        self.code.push(Inst::NewList { dst: items, cap: 0 });
        self.code.push(Inst::NewList { dst: ks, cap: 0 });
        self.each(var, list, cond, false, |l, _| {
            for k in keys {
                // A key as it is held (a truth, a level, a roll's total): `Inst::Order`
                // compares each as a number.
                let k = match l.expr(k)? {
                    Part::Roll { total, .. } => Part::Int(total),
                    k => k,
                };
                l.code.push(Inst::Push { list: ks, value: k });
            }
            let item = l.slots[var]
                .unwrap_or_else(|| unreachable!("`each` binds its item before the body"));
            l.code.push(Inst::Push {
                list: items,
                value: item,
            });
            Ok(Vec::new())
        })?;
        let dst = self.val();
        self.code.push(Inst::Order {
            dst,
            items,
            keys: ks,
            n: count(keys.len()),
            best,
        });
        Ok(Part::Val(dst))
    }

    /// The loop of `for`, aggregates and comprehensions: `var`
    /// bound to each item of `list` in turn (a copy, charged; the item itself when
    /// `shared`), the items failing `cond` skipped, then what `body` lowers. `body`
    /// returns the jumps it leaves to patch to the next item and gives the loop's way
    /// out to `outs` (patched to the loop's end, as is the end of the items).
    pub(super) fn each(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        shared: bool,
        body: impl FnOnce(&mut Self, &mut Vec<usize>) -> Lowered<Vec<usize>>,
    ) -> Lowered<()> {
        let Ty::List(item_ty) = &list.ty else {
            unreachable!("a loop walks a list (the checker's rule)")
        };
        let before = self.bound();
        // The items: a list's, by index; or, for `filled(track)`, the filled boxes
        // themselves, walked as a set of bits with no list made.
        let walk = match &list.kind {
            K::Filled(t) => {
                let Ty::Track(track) = t.ty else {
                    unreachable!("`filled` reads a track (the checker's rule)")
                };
                let t = self.val_of(t)?;
                let bits = self.int();
                let boxes = self.p.tracks[track].boxes.len() as u32;
                self.code.push(Inst::FilledBits {
                    dst: bits,
                    track: t,
                    boxes,
                });
                Walk::Boxes {
                    bits,
                    track: track as u32,
                }
            }
            // A constant list of numbers, truths or levels: its items in place.
            K::Const(c @ crate::ir::Const::List(items)) if scalars(items).is_some() => {
                let Some(items) = scalars(items) else {
                    unreachable!("the arm's guard found the items scalars")
                };
                // The constant's steps, as `Inst::ConstVal` charges them.
                self.pending += count(weight(&Value::from_const(c)));
                let (len, i) = (self.int(), self.int());
                self.code.push(Inst::Const {
                    dst: len,
                    value: items.len() as i64,
                });
                self.code.push(Inst::Const { dst: i, value: 0 });
                Walk::Consts { items, len, i }
            }
            _ => {
                let list = self.val_of(list)?;
                let (len, i) = (self.int(), self.int());
                self.code.push(Inst::Len { dst: len, list });
                self.code.push(Inst::Const { dst: i, value: 0 });
                Walk::List { list, len, i }
            }
        };
        let top = self.here();
        let exit = self.code.len();
        self.code.push(match &walk {
            Walk::List { len, i, .. } | Walk::Consts { len, i, .. } => Inst::JumpUnless {
                op: crate::ir::CmpOp::Lt,
                a: *i,
                b: *len,
                to: 0,
            },
            Walk::Boxes { bits, .. } => Inst::JumpIfNot { cond: *bits, to: 0 },
        });
        let item = match self.slots[var] {
            Some(part) => part,
            None => {
                let part = self.fresh(item_ty)?;
                self.slots[var] = Some(part);
                part
            }
        };
        self.code.push(match (&walk, item) {
            (Walk::List { list, i, .. }, _) => Inst::Item {
                dst: item,
                list: *list,
                idx: *i,
                shared,
            },
            (Walk::Boxes { bits, track }, Part::Val(dst)) => Inst::NextBox {
                bits: *bits,
                dst,
                track: *track,
            },
            (
                Walk::Consts { items, i, .. },
                Part::Int(dst) | Part::Bool(dst) | Part::Level(dst),
            ) => {
                // An item's copy: one step (a number's weight).
                self.pending += 1;
                Inst::ItemImm {
                    dst,
                    items: items.clone(),
                    idx: *i,
                }
            }
            (Walk::Boxes { .. } | Walk::Consts { .. }, item) => unreachable!(
                "a box is held in a value register and a constant list's item in an `i64` one, not {item:?}"
            ),
        });
        let mut nexts = Vec::new();
        if let Some(c) = cond {
            let c = self.truth(c)?;
            self.flush();
            nexts.push(self.code.len());
            self.code.push(Inst::JumpIfNot { cond: c, to: 0 });
        }
        let mut outs = vec![exit];
        nexts.extend(body(self, &mut outs)?);
        let next = self.here();
        for j in nexts {
            self.patch(j, next);
        }
        if let Walk::List { i, .. } | Walk::Consts { i, .. } = walk {
            self.code.push(Inst::ArithImm {
                op: crate::ir::IntOp::Add,
                dst: i,
                a: i,
                b: 1,
            });
        }
        self.code.push(Inst::Jump(top));
        let end = self.here();
        for j in outs {
            self.patch(j, end);
        }
        self.close(&before);
        Ok(())
    }

    /// An aggregate: an accumulator (a count, a truth, a sum or the best so far) over
    /// [`Self::each`]. `any`/`all` leave at the first item that settles them; `max`/`min`
    /// of no item is 0 (the reference's rule for an empty aggregate).
    pub(super) fn aggregate(
        &mut self,
        kind: crate::ir::Agg,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        body: &Expr,
        ty: &Ty,
    ) -> Lowered<Part> {
        use crate::ir::Agg;
        let acc = self.int();
        let part = match (kind, ty) {
            (Agg::Any | Agg::All, _) => Part::Bool(acc),
            (Agg::Count, _) | (_, Ty::Int) => Part::Int(acc),
            (_, Ty::Choice(_)) => Part::Level(acc),
            (_, ty) => unreachable!(
                "`sum`, `max` and `min` are of numbers or levels (the checker's rule), not {ty:?}"
            ),
        };
        let start = match kind {
            Agg::Count | Agg::Sum | Agg::Any => 0,
            Agg::All => 1,
            Agg::Max => i64::MIN,
            Agg::Min => i64::MAX,
        };
        self.code.push(Inst::Const {
            dst: acc,
            value: start,
        });
        // How many items the best was taken over: none leaves 0.
        let seen = matches!(kind, Agg::Max | Agg::Min).then(|| self.int());
        if let Some(seen) = seen {
            self.code.push(Inst::Const {
                dst: seen,
                value: 0,
            });
        }
        let shared = self.formula;
        self.each(var, list, cond, shared, |l, outs| {
            let mut nexts = Vec::new();
            match kind {
                Agg::Count => l.code.push(Inst::ArithImm {
                    op: crate::ir::IntOp::Add,
                    dst: acc,
                    a: acc,
                    b: 1,
                }),
                Agg::Any | Agg::All => {
                    let t = l.truth(body)?;
                    l.flush();
                    nexts.push(l.code.len());
                    // `any` goes on while false, `all` while true.
                    l.code.push(if kind == Agg::Any {
                        Inst::JumpIfNot { cond: t, to: 0 }
                    } else {
                        Inst::JumpIf { cond: t, to: 0 }
                    });
                    l.code.push(Inst::Const {
                        dst: acc,
                        value: i64::from(kind == Agg::Any),
                    });
                    outs.push(l.code.len());
                    l.code.push(Inst::Jump(0));
                }
                Agg::Sum => {
                    let v = l.scalar(body)?;
                    l.code.push(Inst::Arith {
                        op: crate::ir::IntOp::Add,
                        dst: acc,
                        a: acc,
                        b: v,
                    });
                }
                Agg::Max | Agg::Min => {
                    let v = l.scalar(body)?;
                    l.code.push(Inst::Pick {
                        max: kind == Agg::Max,
                        dst: acc,
                        a: acc,
                        b: v,
                    });
                    if let Some(seen) = seen {
                        l.code.push(Inst::Const {
                            dst: seen,
                            value: 1,
                        });
                    }
                }
            }
            Ok(nexts)
        })?;
        if let Some(seen) = seen {
            let done = self.code.len();
            self.code.push(Inst::JumpIf { cond: seen, to: 0 });
            self.code.push(Inst::Const { dst: acc, value: 0 });
            let end = self.here();
            self.patch(done, end);
        }
        Ok(part)
    }
}

/// The items of a constant list as the `i64` registers hold them, if each is a number,
/// a truth or a level.
/// A list of constant numbers, truths or levels (`[Arms, Legs]`, or a constant list) as
/// a register holds each item.
fn const_items(list: &Expr) -> Option<Box<[i64]>> {
    match &list.kind {
        K::Const(crate::ir::Const::List(items)) => scalars(items),
        K::List(xs) => {
            let items = xs
                .iter()
                .map(|x| match &x.kind {
                    K::Const(c) => Some(c.clone()),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            scalars(&items)
        }
        _ => None,
    }
}

fn scalars(items: &[crate::ir::Const]) -> Option<Box<[i64]>> {
    use crate::ir::Const;
    items
        .iter()
        .map(|c| match c {
            Const::Int(i) => Some(*i),
            Const::Bool(b) => Some(i64::from(*b)),
            Const::Choice(c) => Some(i64::from(*c)),
            _ => None,
        })
        .collect()
}
