//! Statements: `let`, assignment, `if`, loops, `return` and the rest.

use super::{shares, Lower, Lowered};
use crate::core_ir::code::{Inst, Part};
use crate::ir::{ExprKind as K, PlaceStep, Stmt, Ty};

impl Lower<'_, '_> {
    /// The keys and indices on a place's path, in order, a
    /// part per step (`Unit` for a field); none for a path of fields only.
    pub(super) fn place_keys(&mut self, place: &crate::ir::Place) -> Lowered<Box<[Part]>> {
        let keyed = place
            .path
            .iter()
            .any(|st| !matches!(st, PlaceStep::Field(_)));
        let mut keys = Vec::new();
        if keyed {
            for st in &place.path {
                keys.push(match st {
                    PlaceStep::Field(_) => Part::Unit,
                    PlaceStep::Key(k) | PlaceStep::Index(k) => match self.expr(k)? {
                        Part::Unit => {
                            unreachable!("a key or index has a value (the checker's rule)")
                        }
                        part => part,
                    },
                });
            }
        }
        Ok(keys.into())
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> Lowered<()> {
        match s {
            // `let slot = value`
            Stmt::Let { slot, value, site } => {
                let v = self.expr(value)?;
                let at = match self.slots[*slot] {
                    Some(at) => at,
                    // A fresh scalar or roll no local holds becomes the local itself
                    // (a temporary of this statement): the copy's step, and no `Move`.
                    None if !matches!(value.kind, K::Local(_))
                        && !matches!(v, Part::Val(_) | Part::Unit)
                        && !self.slots.iter().flatten().any(|p| shares(*p, v)) =>
                    {
                        self.slots[*slot] = Some(v);
                        self.named(*slot, v);
                        self.pending += 1;
                        self.trace(Inst::TraceAssign {
                            site: *site,
                            value: v,
                            ty: Box::new(value.ty.clone()),
                        });
                        return Ok(());
                    }
                    None => {
                        let at = self.fresh(&value.ty)?;
                        self.slots[*slot] = Some(at);
                        self.named(*slot, at);
                        at
                    }
                };
                // A value read from elsewhere is a copy; a local
                // bound to another stays that local's value (`let me = c`).
                if matches!(value.kind, K::Local(_)) {
                    self.move_part(at, v)?;
                } else {
                    self.copy_into(at, v)?;
                }
                self.trace(Inst::TraceAssign {
                    site: *site,
                    value: at,
                    ty: Box::new(value.ty.clone()),
                });
            }
            // `if c { .. } else if c { .. } else { .. }`
            Stmt::If {
                branches,
                otherwise,
            } => {
                let mut ends = Vec::new();
                for (cond, body, site) in branches {
                    // The condition's temporaries are read by nothing past its jump, so
                    // a long `else if` chain holds one condition at a time.
                    let from = self.taken.len();
                    let skip = self.unless(cond, *site)?;
                    self.give_back(from);
                    self.scope(body)?;
                    self.flush();
                    // A branch ending in `return` does not fall through to the end.
                    if !matches!(self.code.last(), Some(Inst::Return { .. })) {
                        ends.push(self.code.len());
                        self.code.push(Inst::Jump(0));
                    }
                    let next = self.here();
                    self.patch(skip, next);
                }
                if let Some(o) = otherwise {
                    self.scope(o)?;
                }
                let end = self.here();
                for j in ends {
                    self.patch(j, end);
                }
            }
            // `return value`
            Stmt::Return { value, site } => {
                let (v, ty) = match value {
                    Some(e) => (self.expr(e)?, e.ty.clone()),
                    None => (Part::Unit, Ty::Unit),
                };
                self.flush();
                self.code.push(Inst::Return {
                    value: v,
                    ty: Box::new(ty),
                    site: *site,
                });
            }
            // `local = value`, `local += value`, `local -= value`
            Stmt::Assign {
                place,
                op,
                value,
                site,
            } if place.path.is_empty()
                && place.range.is_none()
                && !matches!(self.slots[place.root], Some(Part::Val(_))) =>
            {
                let v = self.expr(value)?;
                let at = self.slots[place.root].unwrap_or_else(|| {
                    unreachable!("a local is bound before it is assigned (the checker's rule)")
                });
                match (op, at) {
                    (crate::ir::AssignOp::Set, _) => self.copy_into(at, v)?,
                    // (Of a roll, its total: `r += n` is `r = r + n`, the natural face kept.)
                    (
                        crate::ir::AssignOp::Add | crate::ir::AssignOp::Sub,
                        Part::Int(dst) | Part::Roll { total: dst, .. },
                    ) => {
                        // The copy of a plain value.
                        self.pending += 1;
                        let b = self.scalar_of(v)?;
                        let op = if *op == crate::ir::AssignOp::Add {
                            crate::ir::IntOp::Add
                        } else {
                            crate::ir::IntOp::Sub
                        };
                        self.code.push(Inst::Arith { op, dst, a: dst, b });
                    }
                    (_, at) => unreachable!(
                        "`+=` and `-=` change an int or a roll (the checker's E0321), not {at:?}"
                    ),
                }
                self.trace(Inst::TraceAssign {
                    site: *site,
                    value: at,
                    ty: Box::new(place.ty.clone()),
                });
            }
            // `record.field = value`, `+=`, `-=`: a path of fields from a local record
            Stmt::Assign {
                place,
                op,
                value,
                site,
            } => {
                let root = self.slots[place.root];
                if !matches!(root, Some(Part::Val(_) | Part::Fighter(_))) {
                    unreachable!("a path (or a ranged field) starts at a bound record, list, map or fighter, not {root:?}");
                }
                let v = self.expr(value)?;
                let v = self.copied(v, &value.ty)?;
                // The keys and indices on the path, after the value.
                let keys = self.place_keys(place)?;
                // Made in both forms (they have the same value registers), written only
                // when traced.
                let out = self.fresh(&place.ty)?;
                let out = self.traced.then_some(out);
                let root = self.place_root(root)?;
                self.flush();
                let ty = place.ty.clone();
                let mut place = place.clone();
                place.root = root as usize;
                self.code.push(Inst::Assign {
                    place: Box::new(place),
                    keys,
                    op: *op,
                    value: v,
                    out,
                    site: *site,
                });
                if let Some(out) = out {
                    self.trace(Inst::TraceAssign {
                        site: *site,
                        value: out,
                        ty: Box::new(ty),
                    });
                }
            }
            // `match e { Case => { .. } }`: no arm taken, nothing done
            Stmt::Match { scrutinee, arms } => {
                self.cases(scrutinee, arms, false, |l, body| l.scope(body))?;
            }
            // `for var in lo..hi { .. }`: the local set from a counter of the loop's own
            // at each turn (a body changing the local does not change the turns), a step
            // a turn
            Stmt::ForRange {
                var,
                lo,
                hi,
                body,
                site,
            } => {
                let lo = self.scalar(lo)?;
                let hi = self.scalar(hi)?;
                if let Some(site) = site {
                    self.flush();
                    self.code.push(Inst::RangeRoom {
                        lo,
                        hi,
                        site: *site,
                    });
                }
                let turn = self.int();
                self.mov(turn, lo);
                let before = self.bound();
                let local = match self.slots[*var] {
                    Some(Part::Int(r)) => r,
                    Some(p) => unreachable!("a range's local is an int, not {p:?}"),
                    None => {
                        let r = self.int();
                        self.slots[*var] = Some(Part::Int(r));
                        r
                    }
                };
                let top = self.here();
                let exit = self.code.len();
                self.code.push(Inst::JumpUnless {
                    op: crate::ir::CmpOp::Lt,
                    a: turn,
                    b: hi,
                    to: 0,
                });
                self.pending += 1;
                self.code.push(Inst::Move {
                    dst: local,
                    src: turn,
                });
                self.block(body)?;
                self.here();
                let end = self.loop_back(turn, top);
                self.patch(exit, end);
                self.close(&before);
            }
            // `for var in list { .. }`: over a copy of each item
            Stmt::For { var, list, body } => {
                self.each(*var, list, None, false, |l, _| {
                    l.block(body)?;
                    Ok(Vec::new())
                })?;
            }
            Stmt::Expr(e) => {
                self.expr(e)?;
            }
            Stmt::Schedule {
                at,
                action,
                args,
                site,
            } => self.schedule(at, *action, args, *site)?,
            Stmt::Advance { amount, .. } => self.advance(amount)?,
        }
        Ok(())
    }
}
