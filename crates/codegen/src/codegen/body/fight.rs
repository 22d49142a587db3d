//! The fight in function bodies: fight built-ins, timers and `advance` (see
//! `crate::fight` for the interpreter's side).

use super::super::RT;
use super::*;
use crate::ir::{At, Expr, FightQuery, Ty};

impl BodyGen<'_, '_> {
    /// A call of the fight's formula `id` on fighter text `who` (`false` without one);
    /// a fallible one's rule error goes up, recorded as any formula's is.
    fn fight_formula(&self, id: Option<usize>, who: &str) -> String {
        match id {
            Some(id) => {
                let call = format!("{}(fight, {who})", self.g.id.function[id]);
                if self.g.p.functions[id].fallible {
                    self.try_(&call, false)
                } else {
                    call
                }
            }
            None => "false".into(),
        }
    }

    pub(super) fn fight_query(
        &mut self,
        q: FightQuery,
        args: &[Expr],
        dest: &Dest,
    ) -> Result<Ex, String> {
        let d = self
            .g
            .p
            .fight
            .as_ref()
            .ok_or("rulesc bug: a fight built-in without a fight")?;
        let (out, order) = (d.out, d.order);
        let mut parts = Vec::new();
        for a in args {
            parts.push(self.expr(a, Dest::Val)?);
        }
        let mut pre = self.seq(&mut parts);
        let arg = |i: usize| match parts.get(i) {
            Some(p) => p.val.clone(),
            None => unreachable!("a fight built-in has its arity (the checker's E0327)"),
        };
        let collect = ".collect::<Vec<_>>()";
        let val = match q {
            FightQuery::Fighters => format!("fight.fighters(){collect}"),
            FightQuery::Sides => format!("fight.sides(){collect}"),
            FightQuery::SideOf => format!("fight.side({})", arg(0)),
            FightQuery::Members => format!("fight.members({}){collect}", arg(0)),
            FightQuery::Acted => format!("fight.acted({})", arg(0)),
            FightQuery::Round => "i64::from(fight.round())".into(),
            FightQuery::Time => "fight.time()".into(),
            FightQuery::Out => self.fight_formula(out, &arg(0)),
            FightQuery::Enemies | FightQuery::Allies => {
                let who = self.stable_val(&mut pre, parts[0].clone(), "who");
                let x = self.tmp("other");
                let keep = if q == FightQuery::Enemies {
                    format!("fight.side({x}) != fight.side({who})")
                } else {
                    format!("fight.side({x}) == fight.side({who}) && {x} != {who}")
                };
                let not_out = match out {
                    Some(_) => format!(" && !{}", self.fight_formula(out, &x)),
                    None => String::new(),
                };
                let l = self.tmp("list");
                format!(
                    "{{ let mut {l} = Vec::new(); for {x} in fight.fighters() {{ if {keep}{not_out} {{ {l}.push({x}); }} }} {l} }}"
                )
            }
            FightQuery::InOrder => {
                let list = self.by_ref(&parts[0]);
                let (f, x) = (self.tmp("fight"), self.tmp("fighter"));
                let key = format!("{}({f}, {x})", self.g.id.function[order]);
                let fallible = self.g.p.functions[order].fallible;
                // The key as the runtime sorts by it (a `SmallList` made a `Vec`).
                let key = match self.g.small_list_ty(&self.g.p.functions[order].ret)? {
                    Some(_) if fallible => format!("{key}.map(Vec::from)"),
                    Some(_) => format!("Vec::from({key})"),
                    None => key,
                };
                if fallible {
                    let sorted =
                        format!("{RT}::__private::in_order(fight, {list}, |{f}, {x}| {key})");
                    self.try_(&sorted, false)
                } else {
                    format!(
                        "{RT}::__private::in_order(fight, {list}, |{f}, {x}| Ok::<_, ::core::convert::Infallible>({key})).unwrap_or_else(|e| match e {{}})"
                    )
                }
            }
            FightQuery::MarkActed => {
                pre.push(format!("fight.mark_acted({});", arg(0)));
                return Ok(Ex::new("()", P_ATOM).stable().with_pre(pre));
            }
        };
        let _ = dest;
        Ok(Ex::new(val, P_ATOM).with_pre(pre))
    }

    /// A small value (`int`, `bool`, choice, fighter, side) as the `i64` a timer keeps.
    fn encode(&self, ty: &Ty, x: &str) -> String {
        match ty {
            Ty::Bool => format!("i64::from({x})"),
            Ty::Choice(_) => format!("{} as i64", paren(x, P_ATOM, P_CAST)),
            Ty::Fighter | Ty::Side => format!("i64::from({}.0)", paren(x, P_ATOM, P_ATOM)),
            _ => x.to_string(),
        }
    }

    /// `Stmt::Schedule`: the moment's operand, then the arguments, evaluated now.
    pub(super) fn schedule(
        &mut self,
        at: &At,
        action: usize,
        args: &[Expr],
        site: u32,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        let mut parts = Vec::new();
        let operand = match at {
            At::RoundsLater(e) | At::TimeLater(e) | At::Turn { who: e, .. } => Some(e),
            At::RoundEnd => None,
        };
        if let Some(e) = operand {
            parts.push(self.expr(e, Dest::Val)?);
        }
        for a in args {
            parts.push(self.expr(a, Dest::Val)?);
        }
        let pre = self.seq(&mut parts);
        out.extend(pre);
        let mut vals = parts.iter().map(|p| p.val.clone());
        let mut operand = || {
            vals.next()
                .unwrap_or_else(|| unreachable!("a moment's operand is pushed first (above)"))
        };
        let moment = match at {
            At::RoundsLater(_) => {
                format!("fight.rounds_later({})", operand())
            }
            At::TimeLater(_) => format!("fight.time_later({})", operand()),
            At::RoundEnd => format!("{RT}::Moment::RoundEnd(fight.round().max(1))"),
            At::Turn { end, next, .. } => {
                format!("fight.turn_moment({}, {end}, {next})", operand())
            }
        };
        let encoded: Vec<String> = args
            .iter()
            .zip(vals)
            .map(|(a, v)| self.encode(&a.ty, &v))
            .collect();
        let at = self.tmp("at");
        out.push(format!("let {at} = {moment};"));
        out.push(self.event(&format!(
            "Fight {{ site: {site}, what: format!(\"at {{}}\", fight.describe({at})), cite: true }}"
        )));
        out.push(format!(
            "fight.schedule({at}, {action}, vec![{}]);",
            encoded.join(", ")
        ));
        Ok(())
    }
}
