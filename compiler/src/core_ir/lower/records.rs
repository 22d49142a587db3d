//! Values with parts: records and outcomes made and read, maps read, optional values,
//! and tracks (their filled boxes, a box's parts, a place filled).

use super::{Lower, Lowered, Unsupported};
use crate::core_ir::code::{Inst, Part, Proj};
use crate::ir::{Const, Expr, ExprKind as K, Ty};

impl Lower<'_, '_> {
    /// A record, outcome, map, optional or track expression.
    pub(super) fn record_expr(&mut self, e: &Expr) -> Lowered<Part> {
        if let Some(part) = self.row_read(e)? {
            return Ok(part);
        }
        Ok(match &e.kind {
            // `record.field`: of a local record read in place; a field with parts shared,
            // as `eval::expr::field_of` reads it
            K::Field(r, i) => {
                let Part::Val(rec) = self.expr(r)? else {
                    return Err(Unsupported);
                };
                let field = *i as u32;
                match self.fresh(&e.ty)? {
                    Part::Val(dst) => {
                        self.code.push(Inst::FieldVal { dst, rec, field });
                        Part::Val(dst)
                    }
                    part @ (Part::Int(dst) | Part::Bool(dst) | Part::Level(dst)) => {
                        self.code.push(Inst::Field { dst, rec, field });
                        part
                    }
                    _ => return Err(Unsupported),
                }
            }
            // `map[key]` of a map keyed by a scale or enum
            K::MapGet(m, k) if matches!(m.ty, Ty::Map(..)) => {
                let Part::Val(map) = self.expr(m)? else {
                    return Err(Unsupported);
                };
                let Part::Level(key) = self.expr(k)? else {
                    return Err(Unsupported);
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. }) {
                    return Err(Unsupported);
                }
                self.code.push(Inst::MapGet { dst, map, key });
                dst
            }
            // `map[key]` of a sorted map (keyed by numbers, truths or records)
            K::MapGet(m, k) if matches!(m.ty, Ty::SortedMap(..)) => {
                let Part::Val(map) = self.expr(m)? else {
                    return Err(Unsupported);
                };
                let key = match self.expr(k)? {
                    Part::Unit | Part::Roll { .. } => return Err(Unsupported),
                    key => key,
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. }) {
                    return Err(Unsupported);
                }
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
                let Part::Val(map) = self.expr(m)? else {
                    return Err(Unsupported);
                };
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
                    return Err(Unsupported);
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
                    track: u32::try_from(tid).map_err(|_| Unsupported)?,
                    levels: crate::eval::track_levels(&self.p.tracks[tid]).into(),
                    level,
                    site: *site,
                });
                Part::Int(dst)
            }
            // `e` where a `T?` is wanted: a present value is the value itself
            K::Some(x) => match self.expr(x)? {
                Part::Val(v) => Part::Val(v),
                Part::Unit | Part::Roll { .. } => return Err(Unsupported),
                scalar => {
                    let dst = self.val();
                    self.code.push(Inst::Wrap { dst, src: scalar });
                    Part::Val(dst)
                }
            },
            // an optional value where the checker proved it present
            K::Unwrap(x) => {
                let Part::Val(src) = self.expr(x)? else {
                    return Err(Unsupported);
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. } | Part::Unit) {
                    return Err(Unsupported);
                }
                self.code.push(Inst::Unwrap { dst, src });
                dst
            }
            // `x != none`
            K::IsSome(x) => {
                let Part::Val(src) = self.expr(x)? else {
                    return Err(Unsupported);
                };
                let dst = self.int();
                self.code.push(Inst::IsSome { dst, src });
                Part::Bool(dst)
            }
            // `filled(track)`
            K::Filled(t) => {
                let Part::Val(track) = self.expr(t)? else {
                    return Err(Unsupported);
                };
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
                let Part::Val(src) = self.expr(b)? else {
                    return Err(Unsupported);
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. } | Part::Val(_)) {
                    return Err(Unsupported);
                }
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
            _ => return Err(Unsupported),
        })
    }

    /// `table[key].field[k]..` (fields, and entries at a local or constant level) of a
    /// one-key table, in plain code: [`Inst::RowRead`], the row read in place instead of
    /// made and then read (no steps either way: a lookup, a field and an entry charge
    /// none). `None` for anything else, nothing lowered.
    fn row_read(&mut self, e: &Expr) -> Lowered<Option<Part>> {
        if !self.plain {
            return Ok(None);
        }
        // The path, from its end back to the lookup.
        let mut path = Vec::new();
        let mut at = e;
        let (table, key, site) = loop {
            match &at.kind {
                K::Field(r, i) => {
                    path.push(Step::Field(u32::try_from(*i).map_err(|_| Unsupported)?));
                    at = r;
                }
                // An entry at a local or constant level: read with no effect, after the
                // row is found, as the walker reads it.
                K::MapGet(m, k)
                    if matches!(m.ty, Ty::Map(..))
                        && matches!(k.kind, K::Local(_) | K::Const(Const::Choice(_))) =>
                {
                    path.push(Step::Entry(k));
                    at = m;
                }
                K::Lookup {
                    table,
                    key,
                    column: None,
                    site,
                    ..
                } if self.p.tables[*table].columns.is_none() => break (*table, key, *site),
                _ => return Ok(None),
            }
        };
        if path.is_empty() {
            return Ok(None);
        }
        let dst = self.fresh(&e.ty)?;
        if matches!(dst, Part::Roll { .. } | Part::Unit) {
            return Ok(None);
        }
        let key = match self.expr(key)? {
            k @ (Part::Int(_) | Part::Level(_)) => k,
            _ => return Err(Unsupported),
        };
        // The path in order, each entry's level lowered as read.
        let mut proj = Vec::with_capacity(path.len());
        for step in path.into_iter().rev() {
            proj.push(match step {
                Step::Field(i) => Proj::Field(i),
                Step::Entry(k) => match self.expr(k)? {
                    Part::Level(r) => Proj::Entry(r),
                    _ => return Err(Unsupported),
                },
            });
        }
        self.flush();
        self.code.push(Inst::RowRead {
            dst,
            table: u32::try_from(table).map_err(|_| Unsupported)?,
            key,
            path: proj.into(),
            site,
        });
        Ok(Some(dst))
    }
}

/// A step of a row's path as lowering finds it: a field, or an entry at a level not yet
/// lowered.
enum Step<'e> {
    Field(u32),
    Entry(&'e Expr),
}
