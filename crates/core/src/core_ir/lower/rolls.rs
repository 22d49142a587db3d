//! What the run draws: rolls of dice, their faces, dice multiplied, a roll shifted,
//! tables rolled and looked up, and the decisions of `decide`.

use super::{count, dense, Lower, Lowered};
use crate::core_ir::code::{IReg, Inst, Part};
use crate::eval::dice_steps;
use crate::ir::{Const, Expr, ExprKind as K, Ty};
use rulesc_runtime::__private::rolls;

impl Lower<'_, '_> {
    /// A roll, a table's row, dice or a decision.
    pub(super) fn roll_expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            // `table[key]` of a one-key table
            K::Lookup {
                table,
                key,
                column: None,
                site,
                ..
            } if self.p.tables[*table].columns.is_none() => {
                let key = match self.expr(key)? {
                    k @ (Part::Int(_) | Part::Level(_)) => k,
                    k => unreachable!("a one-key table is read at a number or a level (the checker's rule), not {k:?}"),
                };
                // (A row holds a constant: a number, truth, level or a value with parts.)
                let dst = self.fresh(&e.ty)?;
                self.flush();
                if let (true, Some(dense)) = (self.plain, dense(&self.p.tables[*table], dst)) {
                    let (lo, rows, outside, reg) = dense;
                    self.code.push(Inst::LookupDense {
                        dst: reg,
                        key,
                        lo,
                        rows,
                        outside,
                        table: *table as u32,
                        site: *site,
                    });
                    return Ok(dst);
                }
                self.code.push(Inst::Lookup {
                    dst,
                    table: *table as u32,
                    key,
                    site: *site,
                });
                dst
            }
            // `table[key, column]`, or `table[key]` of a table with columns
            K::Lookup {
                table,
                key,
                column,
                site,
                ..
            } => {
                let scalar = |p: Part| {
                    match p {
                    Part::Int(_) | Part::Level(_) | Part::Bool(_) => p,
                    p => unreachable!("a table's key or column is a number, truth or level (the checker's rule), not {p:?}"),
                }
                };
                let key = scalar(self.expr(key)?);
                let column = match column {
                    Some(c) => Some(scalar(self.expr(c)?)),
                    None => None,
                };
                let dst = self.fresh(&e.ty)?;
                self.flush();
                self.code.push(Inst::LookupCell {
                    dst,
                    table: count(*table),
                    key,
                    column,
                    site: *site,
                });
                dst
            }
            K::Natural(a) => match self.expr(a)? {
                Part::Roll { natural, .. } => Part::Int(natural),
                p => unreachable!("`natural` reads a roll (the checker's rule), not {p:?}"),
            },
            // `roll dice` of dice known here: the constant's step and one per die past the
            // first, then the roll.
            K::Roll {
                dice,
                site,
                faces: None,
            } => {
                let K::Const(Const::Dice(spec)) = dice.kind else {
                    // Dice known only when the run comes to them: their steps are charged
                    // by the roll.
                    let held = self.val_of(dice)?;
                    self.flush();
                    let (total, natural) = (self.int(), self.int());
                    self.code.push(Inst::RollHeld {
                        total,
                        natural,
                        dice: held,
                        site: *site,
                    });
                    return Ok(Part::Roll { total, natural });
                };
                self.pending += 1 + count(dice_steps(spec));
                self.flush();
                let (total, natural) = (self.int(), self.int());
                self.code.push(Inst::Roll {
                    total,
                    natural,
                    shape: rolls::shape(spec),
                    spec,
                    site: *site,
                });
                Part::Roll { total, natural }
            }
            // `roll Table`, `roll Table among list`
            K::RollTable { table, among, site } => {
                let t = &self.p.tables[*table];
                let crate::ir::TableKey::Die(die) = t.key else {
                    unreachable!("`roll Table` rolls a table keyed by a die (the checker's rule)")
                };
                let among = match among {
                    Some(a) => {
                        let l = self.val_of(a)?;
                        let segments = crate::eval::die_segments(t, die)
                            .into_iter()
                            .map(|(lo, hi, v)| (lo, hi, v.cloned()))
                            .collect();
                        Some((l, segments))
                    }
                    None => None,
                };
                let dst = self.fresh(&e.ty)?;
                self.flush();
                self.code.push(Inst::RollTable {
                    dst,
                    table: count(*table),
                    among,
                    site: *site,
                });
                dst
            }
            // `roll dice` whose faces are read later
            K::Roll {
                dice,
                site,
                faces: Some(slot),
            } => {
                let (held, spec) = match dice.kind {
                    K::Const(Const::Dice(spec)) => {
                        self.pending += 1;
                        (None, spec)
                    }
                    _ => (
                        Some(self.val_of(dice)?),
                        rulesc_runtime::DiceSpec::new(0, 1),
                    ),
                };
                let faces = match self.slots[*slot] {
                    Some(Part::Val(v)) => v,
                    Some(p) => {
                        unreachable!("a roll's faces are held in a value register, not {p:?}")
                    }
                    None => {
                        let v = self.val();
                        self.slots[*slot] = Some(Part::Val(v));
                        v
                    }
                };
                self.flush();
                let (total, natural) = (self.int(), self.int());
                self.code.push(Inst::RollFaces {
                    total,
                    natural,
                    faces,
                    held,
                    spec,
                    site: *site,
                });
                Part::Roll { total, natural }
            }
            // `faces(r)`, `kept(r)`, `dropped(r)`: of the faces its roll left
            K::Faces { part, of, slot } => {
                self.expr(of)?;
                let Some(Part::Val(faces)) = self.slots[*slot] else {
                    unreachable!(
                        "`faces(r)` reads the faces its roll bound (the checker's hidden local)"
                    )
                };
                let dst = self.val();
                self.code.push(Inst::FacesOf {
                    dst,
                    faces,
                    part: *part,
                });
                Part::Val(dst)
            }
            // `dice * n`: `DiceSpec::times`, a rule error past the dice a roll may have
            K::DiceTimes(d, n, site) => {
                let held = self.val_of(d)?;
                let n = self.scalar(n)?;
                self.flush();
                let dst = self.val();
                self.code.push(Inst::DiceTimes {
                    dst,
                    dice: held,
                    n,
                    site: *site,
                });
                Part::Val(dst)
            }
            // `roll ± n ± m ..`: the total shifted, the natural face kept; the chain
            // walked down its left side as a sum is, one register holding its total.
            K::RollAdd { .. } => {
                let (left, terms) = crate::ir::walk::roll_shifts(e);
                let Part::Roll { mut total, natural } = self.expr(left)? else {
                    unreachable!("`roll ± n` shifts a roll (the checker's rule)")
                };
                let dst = self.int();
                for (delta, negate) in terms.into_iter().rev() {
                    // A term's own temporaries are read by nothing after its step.
                    let from = self.taken.len();
                    let d = self.scalar(delta)?;
                    let op = if negate {
                        crate::ir::IntOp::Sub
                    } else {
                        crate::ir::IntOp::Add
                    };
                    self.code.push(Inst::Arith {
                        op,
                        dst,
                        a: total,
                        b: d,
                    });
                    self.give_back(from);
                    total = dst;
                }
                Part::Roll {
                    total: dst,
                    natural,
                }
            }
            // `decide name: Type` of an enum, a scale or a truth
            K::Decide {
                name,
                options,
                site,
            } => {
                let (options, ty, part): (u32, Ty, fn(IReg) -> Part) = match options {
                    crate::ir::DecideOptions::Choice(c) => (
                        self.p.choices[*c].variants.len() as u32,
                        Ty::Choice(*c),
                        Part::Level,
                    ),
                    crate::ir::DecideOptions::Bool => (2, Ty::Bool, Part::Bool),
                    crate::ir::DecideOptions::List(l) => {
                        let Ty::List(elem) = &l.ty else {
                            unreachable!("`decide .. from` a list (the checker's rule)")
                        };
                        let list = self.val_of(l)?;
                        let dst = self.fresh(elem)?;
                        self.flush();
                        self.code.push(Inst::DecideFrom {
                            dst,
                            name: crate::eval::leak_name(name),
                            list,
                            elem: elem.clone(),
                            site: *site,
                        });
                        return Ok(dst);
                    }
                };
                self.flush();
                let dst = self.int();
                self.code.push(Inst::Decide {
                    dst,
                    name: crate::eval::leak_name(name),
                    options,
                    ty: Box::new(ty),
                    site: *site,
                });
                part(dst)
            }
            _ => unreachable!("`Lower::expr` sends only rolls, tables, dice and decisions here"),
        })
    }
}
