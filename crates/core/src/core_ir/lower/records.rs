//! Values with parts: records and outcomes made and read, maps read, optional values,
//! and tracks (their filled boxes, a box's parts, a place filled).

use super::{count, Lower, Lowered};
use crate::core_ir::code::{Inst, Part, Proj, VReg};
use crate::ir::{Expr, ExprKind as K, Ty};

impl Lower<'_, '_> {
    /// A record, outcome, map, optional or track expression.
    pub(super) fn record_expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            // `record.field`: of a local record read in place; a field with parts shared,
            // as `eval::expr::field_of` reads it
            K::Field(r, i) => {
                let rec = self.val_of(r)?;
                let field = *i as u32;
                if let Some(part) = self.project(rec, Proj::Field(field), &e.ty)? {
                    return Ok(part);
                }
                if let Some(part) = self.combatant_field(rec, field, &e.ty)? {
                    return Ok(part);
                }
                match self.fresh(&e.ty)? {
                    Part::Val(dst) => {
                        self.code.push(Inst::FieldVal { dst, rec, field });
                        Part::Val(dst)
                    }
                    part @ (Part::Int(dst) | Part::Bool(dst) | Part::Level(dst)) => {
                        self.code.push(Inst::Field { dst, rec, field });
                        part
                    }
                    part => unreachable!(
                        "a record's field is written in YAML (a number, truth, level or a value with parts), not held as {part:?}"
                    ),
                }
            }
            // `map[key]` of a map keyed by a scale or enum
            K::MapGet(m, k) if matches!(m.ty, Ty::Map(..)) => {
                let map = self.val_of(m)?;
                let Part::Level(key) = self.expr(k)? else {
                    unreachable!("a map keyed by a scale or enum is read at a level or variant (the checker's rule)")
                };
                if let Some(part) = self.project(map, Proj::Entry(key), &e.ty)? {
                    return Ok(part);
                }
                // (A map holds no roll: the checker's E0311.)
                let dst = self.fresh(&e.ty)?;
                self.code.push(Inst::MapGet { dst, map, key });
                dst
            }
            // `map[key]` of a sorted map (keyed by numbers, truths or records)
            K::MapGet(m, k) if matches!(m.ty, Ty::SortedMap(..)) => {
                let map = self.val_of(m)?;
                // (A key is a number, truth or record, and a value no roll: the checker's
                // `Program::is_key` and E0311.)
                let key = self.expr(k)?;
                let dst = self.fresh(&e.ty)?;
                self.flush();
                self.code.push(Inst::MapOf {
                    dst,
                    map,
                    key: Some(key),
                });
                dst
            }
            // `keys(map)`
            K::Keys(m) => {
                let map = self.val_of(m)?;
                let dst = self.val();
                self.flush();
                self.code.push(Inst::MapOf {
                    dst: Part::Val(dst),
                    map,
                    key: None,
                });
                Part::Val(dst)
            }
            // `fill place at level`: the level, then the keys on the place's path
            K::Fill { track, level, site } => {
                let Ty::Track(tid) = track.ty else {
                    unreachable!("`fill` fills a track (the checker's rule)")
                };
                let root = self.slots[track.root];
                let level = self.scalar(level)?;
                let keys = self.place_keys(track)?;
                let root = self.place_root(root)?;
                self.flush();
                let mut place = track.clone();
                place.root = root as usize;
                let dst = self.int();
                self.code.push(Inst::Fill {
                    dst,
                    place: Box::new(place),
                    keys,
                    track: count(tid),
                    levels: crate::eval::track_levels(&self.p.tracks[tid]).into(),
                    level,
                    site: *site,
                });
                Part::Int(dst)
            }
            // `e` where a `T?` is wanted: a present value is the value itself
            K::Some(x) => match self.expr(x)? {
                Part::Val(v) => Part::Val(v),
                Part::Unit | Part::Roll { .. } => {
                    unreachable!("an optional value is of a type written in YAML, never of a roll or nothing")
                }
                scalar => {
                    let dst = self.val();
                    self.code.push(Inst::Wrap { dst, src: scalar });
                    Part::Val(dst)
                }
            },
            // an optional value where the checker proved it present
            K::Unwrap(x) => {
                let src = self.val_of(x)?;
                let dst = self.fresh(&e.ty)?;
                self.code.push(Inst::Unwrap { dst, src });
                dst
            }
            // `x != none`
            K::IsSome(x) => {
                let src = self.val_of(x)?;
                let dst = self.int();
                self.code.push(Inst::IsSome { dst, src });
                Part::Bool(dst)
            }
            // `filled(track)`
            K::Filled(t) => {
                let track = self.val_of(t)?;
                let dst = self.val();
                self.code.push(Inst::Filled {
                    dst,
                    track,
                    ty: Box::new(t.ty.clone()),
                });
                Part::Val(dst)
            }
            // `box.number`, `box.level`, `box.attr`
            K::BoxPart(b, part) => {
                let src = self.val_of(b)?;
                // (A box's number, level or attribute: an int or a level.)
                let dst = self.fresh(&e.ty)?;
                self.code.push(Inst::BoxPart {
                    dst,
                    src,
                    part: *part,
                });
                dst
            }
            // `Type(field: value, ..)`: a copy of each field
            K::MakeRecord { fields, .. } => {
                let parts = fields
                    .iter()
                    .map(|x| {
                        let v = self.expr(x)?;
                        self.copied(v, &x.ty)
                    })
                    .collect::<Lowered<Vec<_>>>()?;
                let dst = self.val();
                self.code.push(Inst::Record {
                    dst,
                    fields: parts.into(),
                });
                Part::Val(dst)
            }
            // `Tag(field: value, ..)`: each field a copy (one step for a plain value).
            K::MakeOutcome { tag, fields, .. } => {
                let mut parts = Vec::with_capacity(fields.len());
                for x in fields {
                    let v = self.expr(x)?;
                    let field = self.fresh(&x.ty)?;
                    self.copy_into(field, v)?;
                    parts.push(field);
                }
                let dst = self.val();
                self.code.push(Inst::Outcome {
                    dst,
                    tag: *tag,
                    fields: parts.into(),
                });
                Part::Val(dst)
            }
            _ => unreachable!(
                "`Lower::expr` sends only records, maps, optional values and tracks here"
            ),
        })
    }

    /// Scalar field `field` of the combatant just put in the temporary `rec`: the two
    /// become one [`Inst::CombatantField`] (neither charges a step nor is traced), no
    /// record shared. `None`: nothing changed.
    fn combatant_field(&mut self, rec: VReg, field: u32, ty: &Ty) -> Lowered<Option<Part>> {
        let Some(at) = self.just_wrote(rec, |_| false) else {
            return Ok(None);
        };
        let Inst::Combatant { who, .. } = self.code[at] else {
            return Ok(None);
        };
        let part = match self.fresh(ty)? {
            part @ (Part::Int(dst) | Part::Bool(dst) | Part::Level(dst)) => {
                self.code[at] = Inst::CombatantField { dst, who, field };
                // `dst` holds its value from that instruction on (`Func::allocs`).
                if let Some(a) = self.allocs.last_mut().filter(|a| a.reg == dst) {
                    a.pc = count(at);
                }
                part
            }
            _ => return Ok(None),
        };
        Ok(Some(part))
    }

    /// The instruction that just wrote the temporary `rec`, if only instructions
    /// `between` says nothing can see come after it and no jump lands after it: one a
    /// peephole may fold what reads `rec` into.
    pub(super) fn just_wrote(&self, rec: VReg, between: fn(&Inst) -> bool) -> Option<usize> {
        if !self.temporary(rec) {
            return None;
        }
        let at = self.code.iter().rposition(|i| !between(i))?;
        let wrote = match &self.code[at] {
            Inst::Combatant { dst, .. }
            | Inst::Lookup {
                dst: Part::Val(dst),
                ..
            } => *dst == rec,
            Inst::RowRead {
                dst: Part::Val(dst),
                ..
            } => *dst == rec,
            Inst::FightQuery {
                dst: Part::Val(dst),
                ..
            } => *dst == rec,
            _ => false,
        };
        (wrote && at >= self.label).then_some(at)
    }

    /// `step` of the row a table lookup just read into the temporary `rec`, in plain code:
    /// the lookup becomes (or, read further, stays) an [`Inst::RowRead`] whose path goes
    /// one step further, so the row is read in place instead of made (a lookup, a field
    /// and an entry charge no steps, so none move). Only what cannot be seen comes
    /// between the lookup and here (constants written, a formula's site left: the read
    /// moves after them), and no jump lands after the lookup. `None`: nothing changed,
    /// the step is lowered as usual.
    fn project(&mut self, rec: VReg, step: Proj, ty: &Ty) -> Lowered<Option<Part>> {
        if !self.plain {
            return Ok(None);
        }
        let unseen = |i: &Inst| matches!(i, Inst::Site(_) | Inst::Const { .. });
        let Some(at) = self.just_wrote(rec, unseen) else {
            return Ok(None);
        };
        let (table, key, site, mut path) = match &self.code[at] {
            Inst::Lookup {
                table, key, site, ..
            } => (*table, *key, *site, Vec::new()),
            Inst::RowRead {
                table,
                key,
                path,
                site,
                ..
            } => (*table, *key, *site, path.to_vec()),
            _ => return Ok(None),
        };
        if !matches!(key, Part::Int(_) | Part::Level(_)) {
            return Ok(None);
        }
        let dst = self.fresh(ty)?;
        if matches!(dst, Part::Roll { .. } | Part::Unit) {
            return Ok(None);
        }
        path.push(step);
        self.code.remove(at);
        // The registers taken after it are taken for what follows it.
        for a in self.allocs.iter_mut().filter(|a| a.pc as usize > at) {
            a.pc -= 1;
        }
        for l in self.lets.iter_mut().filter(|l| l.pc as usize > at) {
            l.pc -= 1;
        }
        self.code.push(Inst::RowRead {
            dst,
            table,
            key,
            path: path.into(),
            site,
        });
        Ok(Some(dst))
    }
}
