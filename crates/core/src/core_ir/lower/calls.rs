//! Calls: the arguments in order, the call's step, then the callee, or a small
//! formula's body lowered in place.

use super::fight::param_of;
use super::{Lower, Lowered, NoRoom, INLINE_MAX};
use crate::core_ir::code::{Inst, Part};
use crate::ir::{Body, Expr, ExprKind as K, Ty};

impl Lower<'_, '_> {
    /// A call of a function that lowered.
    pub(super) fn call_expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            // A call: the arguments in order, the call's step, then the callee.
            K::Call(fid, args) => {
                let Some(callee) = self.callee(*fid) else {
                    return Err(NoRoom);
                };
                let (small, params) = (callee.plain.len() <= INLINE_MAX, callee.params.clone());
                let mut parts = Vec::with_capacity(args.len());
                for a in args {
                    let part = self.argument(a, param_of(self.p, *fid, parts.len()))?;
                    let take = matches!(part, Part::Val(r) if self.temporary(r));
                    parts.push((part, take));
                }
                if let (true, true, Body::Formula(body)) =
                    (self.inline, small, &self.p.functions[*fid].body)
                {
                    return self.inlined(*fid, body, &parts);
                }
                let ret = match self.p.functions[*fid].ret {
                    Ty::Unit => Part::Unit,
                    ref ty => self.fresh(ty)?,
                };
                // Each argument into its parameter's registers, by register file.
                let (mut ints, mut vals) = (Vec::new(), Vec::new());
                for (param, (arg, take)) in params.iter().zip(&parts) {
                    match (*param, *arg) {
                        (Part::Int(d), Part::Int(s))
                        | (Part::Bool(d), Part::Bool(s))
                        | (Part::Level(d), Part::Level(s))
                        | (Part::Fighter(d), Part::Fighter(s))
                        | (Part::Side(d), Part::Side(s)) => ints.push((d, s)),
                        (
                            Part::Roll { total, natural },
                            Part::Roll {
                                total: t,
                                natural: n,
                            },
                        ) => ints.extend([(total, t), (natural, n)]),
                        (Part::Val(d), Part::Val(s)) => vals.push((d, s, *take)),
                        (param, arg) => unreachable!(
                            "an argument is held as its parameter is (the checker's types), not {arg:?} for {param:?}"
                        ),
                    }
                }
                self.pending += 1;
                self.flush();
                self.code.push(Inst::Call {
                    func: *fid as u32,
                    ints: ints.into(),
                    vals: vals.into(),
                    ret,
                });
                ret
            }
            _ => unreachable!("`Lower::expr` sends only calls here"),
        })
    }
}
