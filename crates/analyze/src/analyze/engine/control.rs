//! The engine's control flow: `if`, `match` and loops whose blocks roll, taken apart so
//! their branches merge, and calls to procedures that roll, run with their frame pushed
//! on each state.

use super::{Builder, Engine, Exits, Res};
use crate::analyze::exact::W;
use crate::analyze::state::Dist;
use crate::core_ir::PieceOf;
use crate::eval::Value;
use crate::ir::{Body, Expr, ExprKind as K, Id, MatchArm, Stmt};

impl Engine<'_> {
    pub(super) fn if_(
        &self,
        f: Id,
        branches: &[(Expr, Vec<Stmt>, u32)],
        otherwise: Option<&[Stmt]>,
        mut rest: Dist,
        mutates: bool,
    ) -> Res<Exits> {
        let mut ex = Exits::empty();
        for (cond, body, _) in branches {
            if rest.is_empty() {
                return Ok(ex);
            }
            let (mut taken, not) =
                self.split(f, cond, rest, mutates, 1, |_, v| v.bool().then_some(0))?;
            ex.merge(self.block(f, body, taken.remove(0))?);
            rest = not;
        }
        match otherwise {
            Some(o) => ex.merge(self.block(f, o, rest)?),
            None => ex.normal.merge(rest),
        }
        Ok(ex)
    }

    pub(super) fn match_(
        &self,
        f: Id,
        scrutinee: &Expr,
        arms: &[MatchArm<Vec<Stmt>>],
        dist: Dist,
        mutates: bool,
    ) -> Res<Exits> {
        // As the interpreter picks an arm: the first naming the tag (or variant), or a
        // wildcard; an outcome's fields are bound to the arm's slots.
        let (per_arm, none) = self.split(f, scrutinee, dist, mutates, arms.len(), |s, v| {
            let i = match v {
                Value::Outcome { tag, .. } => crate::ir::arm_for(arms, *tag)?,
                Value::Choice(c) => crate::ir::arm_for(arms, *c)?,
                // Anything else has only wildcard arms (the checker names cases of
                // scales, enums and outcomes only, E0321): the first takes it.
                _ => arms.iter().position(|a| a.alts.is_empty())?,
            };
            if let Value::Outcome { fields, .. } = v {
                let top = s.top();
                for (slot, x) in arms[i].binds.iter().zip(fields.iter()) {
                    if let Some(slot) = slot {
                        if let Some(l) = top.get_mut(*slot) {
                            *l = x.clone();
                        }
                    }
                }
            }
            Some(i)
        })?;
        let mut ex = Exits::empty();
        ex.normal.merge(none);
        for (arm, d) in arms.iter().zip(per_arm) {
            if !d.is_empty() {
                ex.merge(self.block(f, &arm.body, d)?);
            }
        }
        Ok(ex)
    }

    /// `for var in list`: the list (a copy, as the interpreter walks) and the position
    /// live in two hidden slots, so states at the same turn of the loop merge.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn for_(
        &self,
        f: Id,
        var: usize,
        list: &Expr,
        body: &[Stmt],
        hidden: &[usize],
        dist: Dist,
        mutates: bool,
    ) -> Res<Exits> {
        let (ls, is) = (hidden[0], hidden[1]);
        let (mut start, _) = self.split(f, list, dist, mutates, 1, |s, v| {
            let top = s.top();
            // A path cut off never comes here (`Engine::paths` counts it unexplored).
            let Value::List(_) = v else {
                unreachable!("`for x in {v:?}`: the checker's `for` takes a list or a range")
            };
            top[ls] = v.clone();
            top[is] = Value::Int(0);
            Some(0)
        })?;
        self.turns(f, body, start.remove(0), hidden, |top| {
            let (Value::List(items), Value::Int(i)) = (&top[ls], &top[is]) else {
                return false;
            };
            let i = *i;
            let Some(item) = usize::try_from(i).ok().and_then(|i| items.get(i)) else {
                return false;
            };
            let item = item.deep_clone();
            top[var] = item;
            top[is] = Value::Int(i + 1);
            true
        })
    }

    /// `for var in lo..hi`: counter and bound in two hidden slots. With a
    /// site, a state whose range holds more than `MAX_LOOP` numbers ends in that rule error.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn range(
        &self,
        f: Id,
        var: usize,
        (lo, hi, site): (&Expr, &Expr, Option<u32>),
        body: &[Stmt],
        hidden: &[usize],
        dist: Dist,
        mutates: bool,
    ) -> Res<Exits> {
        let (is, hs) = (hidden[0], hidden[1]);
        let (mut a, _) = self.split(f, lo, dist, mutates, 1, |s, v| {
            s.top()[is] = Value::Int(v.int());
            Some(0)
        })?;
        let room = |lo: i64, hi: i64| match site {
            Some(site) => rulesc_runtime::__private::error::range_room(lo, hi, site),
            None => Ok(()),
        };
        let (mut b, mut long) = self.split(f, hi, a.remove(0), mutates, 1, |s, v| {
            let top = s.top();
            top[hs] = Value::Int(v.int());
            room(top[is].int(), top[hs].int()).ok().map(|()| 0)
        })?;
        let den = long.den.clone();
        for (mut st, w) in long.take() {
            let top = st.top();
            if let Err(e) = room(top[is].int(), top[hs].int()) {
                self.outcome(Err(e), &w, &den)?;
            }
        }
        self.turns(f, body, b.remove(0), hidden, |top| {
            let (i, h) = (top[is].int(), top[hs].int());
            if i >= h {
                return false;
            }
            top[var] = Value::Int(i);
            top[is] = Value::Int(i + 1);
            true
        })
    }

    /// Runs a loop's turns: `next` moves a state to its next turn (false: the loop is
    /// over for it, and its hidden slots are cleared).
    fn turns(
        &self,
        f: Id,
        body: &[Stmt],
        mut at: Dist,
        hidden: &[usize],
        mut next: impl FnMut(&mut Vec<Value>) -> bool,
    ) -> Res<Exits> {
        let mut ex = Exits::empty();
        while !at.is_empty() {
            let den = at.den.clone();
            let (mut go, mut done) = (Builder::new(self, &[]), Builder::new(self, hidden));
            let one = W::one();
            for (mut s, w) in at.take() {
                if next(s.top()) {
                    go.add(s, w, &one)?;
                } else {
                    done.add(s, w, &one)?;
                }
            }
            ex.normal.merge(done.finish(&den, self)?);
            let inner = self.block(f, body, go.finish(&den, self)?)?;
            ex.returned.merge(inner.returned);
            at = inner.normal;
        }
        Ok(ex)
    }

    /// A call to a procedure that rolls, in the engine: the arguments are evaluated per
    /// state, the callee's frame pushed, its body run over the states, the frame popped
    /// and the result used as the statement uses it.
    pub(super) fn call(&self, f: Id, s: &Stmt, callee: Id, mut dist: Dist) -> Res<Exits> {
        let sp = self.plan.stmt(s);
        let value = match s {
            Stmt::Let { value, .. } | Stmt::Expr(value) | Stmt::Assign { value, .. } => value,
            Stmt::Return { value: Some(v), .. } => v,
            _ => return self.whole(f, PieceOf::stmt(s), dist, sp.mutates, &sp.clear),
        };
        let K::Call(_, args) = &value.kind else {
            return self.whole(f, PieceOf::stmt(s), dist, sp.mutates, &sp.clear);
        };
        // The plan holds a frame size for every function.
        let size = self.plan.frame[callee];
        let nparams = self.p.functions[callee].params.len();
        let den = dist.den.clone();
        let mut pushed = Builder::new(self, &[]);
        for (st, w) in dist.take() {
            self.paths(
                &st,
                &w,
                &den,
                sp.mutates,
                |env, locals| {
                    args.iter()
                        .map(|a| self.value_of(f, a, env, locals))
                        .collect::<Result<Vec<_>, _>>()
                },
                |mut s2, vals, w, dp| {
                    let mut frame = vec![Value::Unit; size];
                    for (slot, v) in vals.into_iter().enumerate().take(nparams) {
                        frame[slot] = v;
                    }
                    s2.frames.push(frame);
                    pushed.add(s2, w, dp)
                },
            )?;
        }
        let Body::Procedure(body) = &self.p.functions[callee].body else {
            return self.whole(
                f,
                PieceOf::stmt(s),
                pushed.finish(&den, self)?,
                sp.mutates,
                &sp.clear,
            );
        };
        let inner = self.block(callee, body, pushed.finish(&den, self)?)?;
        // Pop the frame and use the result.
        let mut ex = Exits::empty();
        for d in [inner.normal, inner.returned] {
            let den = d.den.clone();
            let (mut normal, mut returned) =
                (Builder::new(self, &sp.clear), Builder::new(self, &[]));
            let one = W::one();
            for (mut st, w) in d.states {
                st.frames.pop();
                let ret = std::mem::replace(&mut st.ret, Value::Unit);
                match s {
                    Stmt::Let { slot, .. } => {
                        st.top()[*slot] = ret.deep_clone();
                        normal.add(st, w, &one)?;
                    }
                    Stmt::Return { .. } => self.returning(st, ret, w, &one, &den, &mut returned)?,
                    Stmt::Assign { value, .. } => {
                        let (Some(assign), &[tmp]) = (&sp.assign_result, &sp.hidden[..]) else {
                            unreachable!("the plan makes the assignment of a call it runs")
                        };
                        st.top()[tmp] = ret;
                        let mut one_state = Dist::new(one.clone());
                        one_state.push(st, W::one());
                        let made = PieceOf::made(s, assign, tmp, &value.ty);
                        let r = self.whole(f, made, one_state, sp.mutates, &[tmp])?;
                        for (s3, w3) in r.normal.states {
                            normal.add(s3, w.mul(&w3), &r.normal.den)?;
                        }
                    }
                    _ => normal.add(st, w, &one)?,
                }
            }
            ex.normal.merge(normal.finish(&den, self)?);
            ex.returned.merge(returned.finish(&den, self)?);
        }
        Ok(ex)
    }
}
