//! Lowering what reads or changes the running fight: a fighter's combatant, the fight's
//! built-ins, timers set, `advance`, and the copies made of what a call reads
//! from the fight. Each becomes one instruction whose VM side runs the fight's own rule
//! (`crate::fight`).

use super::{count, Lower, Lowered, NoRoom};
use crate::core_ir::code::{IReg, Inst, Part, VReg};
use crate::ir::{self, At, Expr, FightQuery, Param, Ty};

impl<'p> Lower<'p, '_> {
    /// Argument `a` of a call for parameter `param`: a record read from the fight's state
    /// for a parameter the callee does not change is passed as a copy
    /// (`ir::copied_from_fight`), made for no steps.
    pub(super) fn argument(&mut self, a: &Expr, param: Option<&Param>) -> Lowered<Part> {
        let part = self.expr(a)?;
        Ok(match (param, part) {
            (Some(p), Part::Val(src)) if ir::copied_from_fight(a, p) => {
                let dst = self.val();
                self.code.push(Inst::Detach { dst, src });
                Part::Val(dst)
            }
            _ => part,
        })
    }

    /// The combatant fighter `who` stands for, shared with the fight.
    pub(super) fn combatant(&mut self, who: &Expr) -> Lowered<Part> {
        let who = self.scalar(who)?;
        Ok(Part::Val(self.combatant_of(who)))
    }

    fn combatant_of(&mut self, who: IReg) -> VReg {
        let dst = self.val();
        self.code.push(Inst::Combatant { dst, who });
        dst
    }

    /// The register a place rooted at `part` (a local's) changes through: a record's own,
    /// or the combatant a fighter stands for (`eval::update`: a path under a fighter
    /// changes its combatant in the fight). Call it just before the change.
    pub(super) fn place_root(&mut self, part: Option<Part>) -> Lowered<VReg> {
        match part {
            Some(Part::Val(root)) => Ok(root),
            Some(Part::Fighter(who)) => Ok(self.combatant_of(who)),
            other => unreachable!(
                "a path of fields, keys or indices starts at a bound record, list, map or fighter (the checker's rule), not {other:?}"
            ),
        }
    }

    /// Fight built-in `q` of its operand (at most one), of type `ty`. `out`, `allies`,
    /// `enemies` and `in_order` ask the fight's `out` or `order` formula, so they lower
    /// only when it did.
    pub(super) fn fight_query(&mut self, q: FightQuery, args: &[Expr], ty: &Ty) -> Lowered<Part> {
        let asks = match q {
            FightQuery::Out | FightQuery::Allies | FightQuery::Enemies => {
                self.p.fight.as_ref().and_then(|d| d.out)
            }
            FightQuery::InOrder => self.p.fight.as_ref().map(|d| d.order),
            _ => None,
        };
        if let Some(f) = asks {
            if self.callee(f).is_none() {
                return Err(NoRoom);
            }
        }
        let arg = match args.first() {
            Some(a) => Some(match self.expr(a)? {
                Part::Unit => unreachable!(
                    "a fight built-in is given a fighter or a side (the checker's rule)"
                ),
                part => part,
            }),
            None => None,
        };
        let dst = match ty {
            Ty::Unit => Part::Unit,
            ty => self.fresh(ty)?,
        };
        self.flush();
        self.code.push(Inst::FightQuery { q, arg, dst });
        Ok(dst)
    }

    /// `Stmt::Schedule`: the moment's operand, then the arguments, then the timer set.
    pub(super) fn schedule(
        &mut self,
        at: &At,
        action: usize,
        args: &[Expr],
        site: u32,
    ) -> Lowered<()> {
        let operand = match at {
            At::RoundsLater(n) | At::TimeLater(n) => Some(self.scalar(n)?),
            At::Turn { who, .. } => Some(self.scalar(who)?),
            At::RoundEnd => None,
        };
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.scalar(a)?);
        }
        self.flush();
        self.code.push(Inst::Schedule {
            at: Box::new(at.clone()),
            operand,
            action: count(action),
            args: values.into(),
            site,
        });
        Ok(())
    }

    /// `Stmt::Advance`: world time moves `amount` through the fight's engine.
    pub(super) fn advance(&mut self, amount: &Expr) -> Lowered<()> {
        let amount = self.scalar(amount)?;
        self.flush();
        self.code.push(Inst::Advance { amount });
        Ok(())
    }
}

/// Parameter `i` of function `fid`.
pub(super) fn param_of(p: &ir::Program, fid: usize, i: usize) -> Option<&Param> {
    p.functions[fid].params.get(i)
}
