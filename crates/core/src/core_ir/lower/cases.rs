//! `match`, as a statement and as an expression: the first arm
//! whose cases hold the scrutinee's level, variant or tag (or a wildcard), its outcome
//! fields bound, traced, then its body.

use super::{count, Lower, Lowered};
use crate::core_ir::code::{Inst, Part};
use crate::ir::{CmpOp, Expr, ExprKind as K, MatchArm, Ty};

impl Lower<'_, '_> {
    /// `match` as an expression.
    pub(super) fn match_expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            // `match e { A => a, Tag(x) => b, _ => c }`: every case is covered (the checker's
            // E0323), so the last arm takes what the others did not
            K::Match { scrutinee, arms } => {
                // (Of no type, when its arms call procedures that return nothing.)
                let dst = self.fresh(&e.ty)?;
                self.cases(scrutinee, arms, true, |l, body| {
                    let v = l.expr(body)?;
                    l.move_part(dst, v)
                })?;
                dst
            }
            _ => unreachable!("`Lower::expr` sends only a `match` here"),
        })
    }

    /// The arms of a `match` on `scrutinee`, each lowered by `body`. With `total` (an
    /// expression: the checker made its arms cover every case), the last arm takes what
    /// the others did not; without, no arm taken does nothing.
    pub(super) fn cases<B>(
        &mut self,
        scrutinee: &Expr,
        arms: &[MatchArm<B>],
        total: bool,
        mut body: impl FnMut(&mut Self, &B) -> Lowered<()>,
    ) -> Lowered<()> {
        let s = self.expr(scrutinee)?;
        let tag = match (s, &scrutinee.ty) {
            (Part::Level(r), _) => Some(r),
            (Part::Val(v), Ty::Outcome(_)) => {
                let t = self.int();
                self.code.push(Inst::Tag { dst: t, src: v });
                Some(t)
            }
            // Anything else (a number, a record, nothing) is matched by wildcards alone: a case
            // named on it is the checker's E0321. The first arm takes it.
            _ => None,
        };
        self.flush();
        // The tests, in the arms' order: a jump to the arm at its first case that holds.
        let mut to_arm: Vec<Vec<usize>> = vec![Vec::new(); arms.len()];
        let mut unmatched = None;
        // One truth for every case's test: each is read by its jump alone.
        let c = self.int();
        for (k, arm) in arms.iter().enumerate() {
            if arm.alts.is_empty() || (total && k + 1 == arms.len()) {
                to_arm[k].push(self.code.len());
                self.code.push(Inst::Jump(0));
                break;
            }
            for &alt in &arm.alts {
                let Some(tag) = tag else {
                    unreachable!("a case is named only on a scale, an enum or an outcome (E0321)")
                };
                self.code.push(Inst::CompareImm {
                    op: CmpOp::Eq,
                    dst: c,
                    a: tag,
                    b: i64::from(alt),
                });
                to_arm[k].push(self.code.len());
                self.code.push(Inst::JumpIf { cond: c, to: 0 });
            }
            if k + 1 == arms.len() {
                unmatched = Some(self.code.len());
                self.code.push(Inst::Jump(0));
            }
        }
        let mut ends: Vec<usize> = unmatched.into_iter().collect();
        for (arm, jumps) in arms.iter().zip(&to_arm) {
            // An arm after a wildcard is never taken.
            if jumps.is_empty() {
                continue;
            }
            let at = self.here();
            for &j in jumps {
                self.patch(j, at);
            }
            // The arm's fields and temporaries are its own: given back after it.
            let (before, from) = (self.bound(), self.taken.len());
            if let Part::Val(v) = s {
                for (field, slot) in arm.binds.iter().enumerate() {
                    let Some(slot) = *slot else { continue };
                    let part = match self.slots[slot] {
                        Some(part) => part,
                        None => {
                            let part = self.fresh(&self.locals[slot].ty)?;
                            self.slots[slot] = Some(part);
                            part
                        }
                    };
                    self.code.push(Inst::OutcomeField {
                        dst: part,
                        src: v,
                        field: count(field),
                    });
                }
            }
            self.trace(Inst::TraceMatch {
                site: arm.site,
                value: s,
                ty: Box::new(scrutinee.ty.clone()),
            });
            body(self, &arm.body)?;
            self.flush();
            if !matches!(self.code.last(), Some(Inst::Return { .. })) {
                ends.push(self.code.len());
                self.code.push(Inst::Jump(0));
            }
            self.close(&before);
            self.give_back(from);
        }
        let end = self.here();
        for j in ends {
            self.patch(j, end);
        }
        Ok(())
    }
}
