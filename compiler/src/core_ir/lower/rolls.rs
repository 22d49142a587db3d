//! What the run draws: rolls of dice, their faces, dice multiplied, a roll shifted,
//! tables rolled and looked up, and the decisions of `decide`.

use super::{dense, Lower, Lowered, Unsupported};
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
                    _ => return Err(Unsupported),
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. }) {
                    return Err(Unsupported);
                }
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
                let scalar = |p: Part| match p {
                    Part::Int(_) | Part::Level(_) | Part::Bool(_) => Ok(p),
                    _ => Err(Unsupported),
                };
                let key = scalar(self.expr(key)?)?;
                let column = match column {
                    Some(c) => Some(scalar(self.expr(c)?)?),
                    None => None,
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. }) {
                    return Err(Unsupported);
                }
                self.flush();
                self.code.push(Inst::LookupCell {
                    dst,
                    table: u32::try_from(*table).map_err(|_| Unsupported)?,
                    key,
                    column,
                    site: *site,
                });
                dst
            }
            K::Natural(a) => match self.expr(a)? {
                Part::Roll { natural, .. } => Part::Int(natural),
                _ => return Err(Unsupported),
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
                    let Part::Val(held) = self.expr(dice)? else {
                        return Err(Unsupported);
                    };
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
                self.pending += 1 + u32::try_from(dice_steps(spec)).map_err(|_| Unsupported)?;
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
                if !matches!(self.p.tables[*table].key, crate::ir::TableKey::Die(_)) {
                    return Err(Unsupported);
                }
                let t = &self.p.tables[*table];
                let among = match (among, &t.key) {
                    (Some(a), &crate::ir::TableKey::Die(die)) => match self.expr(a)? {
                        Part::Val(l) if matches!(a.ty, Ty::List(_)) => {
                            let segments = crate::eval::die_segments(t, die)
                                .into_iter()
                                .map(|(lo, hi, v)| (lo, hi, v.cloned()))
                                .collect();
                            Some((l, segments))
                        }
                        _ => return Err(Unsupported),
                    },
                    _ => None,
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. } | Part::Unit) {
                    return Err(Unsupported);
                }
                self.flush();
                self.code.push(Inst::RollTable {
                    dst,
                    table: u32::try_from(*table).map_err(|_| Unsupported)?,
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
                    _ => match self.expr(dice)? {
                        Part::Val(held) => (Some(held), rulesc_runtime::DiceSpec::new(0, 1)),
                        _ => return Err(Unsupported),
                    },
                };
                let faces = match self.slots[*slot] {
                    Some(Part::Val(v)) => v,
                    Some(_) => return Err(Unsupported),
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
                    return Err(Unsupported);
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
                let Part::Val(held) = self.expr(d)? else {
                    return Err(Unsupported);
                };
                let n = self.scalar(n)?;
                self.flush();
                let dst = self.val();
                self.code.push(Inst::DiceTimes {
                    dst,
                    dice: held,
                    n,
                    site: site.unwrap_or(0),
                });
                Part::Val(dst)
            }
            // `roll ± n`: the total shifted, the natural face kept.
            K::RollAdd {
                roll,
                delta,
                negate,
            } => {
                let Part::Roll { total, natural } = self.expr(roll)? else {
                    return Err(Unsupported);
                };
                let d = self.scalar(delta)?;
                let dst = self.int();
                let op = if *negate {
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
                        let (Part::Val(list), Ty::List(elem)) = (self.expr(l)?, &l.ty) else {
                            return Err(Unsupported);
                        };
                        let dst = self.fresh(elem)?;
                        if matches!(dst, Part::Roll { .. } | Part::Unit) {
                            return Err(Unsupported);
                        }
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
            _ => return Err(Unsupported),
        })
    }
}
