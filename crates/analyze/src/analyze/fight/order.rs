//! Fields only the turn order reads (an initiative rolled each round): merged on the
//! order they give, not on their values.
//!
//! The engine reads the `order` formula's keys only to compare them (who acts next, the
//! order of a hook run for each fighter). When some fields of the combatant are read by
//! `order` alone, and `order` reads nothing else of the fight, two states whose keys rank
//! the fighters alike play on alike as long as no key is ever compared with one made
//! from fields written since: the fields' values are then dead but for their ranks.
//! That holds when the fields are written only where every fighter standing writes them
//! afresh at once (the `round start` hook run for each fighter, each writing its own
//! fields first thing, the hook called from nowhere else): the keys compared afterwards
//! are all fresh, but those of fighters out at the round's start, which the engine skips
//! (`next_group` and the hooks run for each fighter ask `out` first). A fighter out
//! coming back would bring its stale key among fresh ones: the run watches every answer
//! of `out` ([`Watch`]) and, if a fighter ever comes back, starts again without this
//! merging.
//!
//! A state is then encoded with those fields left out and each fighter's rank among the
//! keys of all (highest first, equal keys one rank) written instead.

use crate::eval::Value;
use crate::fight::EvalRules;
use crate::ir::{walk, Action, AssignOp, Expr, ExprKind, FightQuery, PlaceStep, Program};
use crate::ir::{ResetStep, Stmt, Ty};
use rulesc_runtime::fight::{FightShape, Key, Res};
use rulesc_runtime::{Decide, DiceSource, Env, Fight, FightRules, Fighter, Hook, TraceSink};
use std::cell::RefCell;
use std::rc::Rc;

/// The fields of the combatant record only the turn order reads (see the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OrderOnly {
    pub fields: Vec<usize>,
}

/// The fields only `order` reads, when every rule above holds of `p`'s fight.
pub(super) fn order_only(p: &Program) -> Option<OrderOnly> {
    let d = p.fight.as_ref()?;
    let record = Ty::Record(d.combatant);
    let mut fields: Vec<usize> = Vec::new();
    let mut plain = true;
    // `order` reads fields of the combatant and calls nothing, asks nothing of the fight.
    fn in_order(e: &Expr, record: &Ty, fields: &mut Vec<usize>, plain: &mut bool) {
        match &e.kind {
            ExprKind::Field(base, i) if base.ty == *record && !fields.contains(i) => {
                fields.push(*i);
            }
            ExprKind::Fight(..) | ExprKind::Call(..) => *plain = false,
            _ => {}
        }
        walk::for_each_child(e, &mut |x| in_order(x, record, fields, plain));
    }
    walk::for_each_body_expr(&p.functions[d.order], &mut |e| {
        in_order(e, &record, &mut fields, &mut plain)
    });
    // Numbers, truths and levels only: written by assignments alone (not by `fill`, nor
    // through a list or map).
    let scalar = |i: &usize| {
        p.records[d.combatant]
            .fields
            .get(*i)
            .is_some_and(|f| matches!(f.ty, Ty::Int | Ty::Bool | Ty::Choice(_)))
    };
    if !plain || fields.is_empty() || !fields.iter().all(scalar) {
        return None;
    }
    // Nothing else reads them, compares a whole combatant or sorts by `order`.
    fn elsewhere(e: &Expr, record: &Ty, fields: &[usize], order: usize, read: &mut bool) {
        match &e.kind {
            ExprKind::Field(base, i) if base.ty == *record && fields.contains(i) => *read = true,
            ExprKind::In(x, _) if x.ty == *record => *read = true,
            ExprKind::Fight(FightQuery::InOrder, _) => *read = true,
            ExprKind::Call(f, _) if *f == order => *read = true,
            _ => {}
        }
        walk::for_each_child(e, &mut |x| elsewhere(x, record, fields, order, read));
    }
    let mut read = false;
    for (id, f) in p.functions.iter().enumerate() {
        if id != d.order {
            walk::for_each_body_expr(f, &mut |e| {
                elsewhere(e, &record, &fields, d.order, &mut read)
            });
        }
    }
    if read {
        return None;
    }
    // Written only by the `round start` hook run for each fighter, each field as its
    // first statements, from nothing that returns before; the hook called by nothing
    // else. A place through a field of that index in any record counts (a place's
    // record is not looked up: counting too many only turns the merging off).
    let hook = match d.hooks[1] {
        Some((h, true)) => Some(h),
        _ => None,
    };
    let writes = |place: &crate::ir::Place| {
        place
            .path
            .iter()
            .any(|s| matches!(s, PlaceStep::Field(i) if fields.contains(i)))
    };
    let resets = d.actions.iter().any(|a| match a {
        Action::Reset { path, .. } => path
            .iter()
            .any(|s| matches!(s, ResetStep::Field(i) if fields.contains(i))),
        Action::Call { function, .. } => Some(*function) == hook,
    });
    let other_hooks = d
        .hooks
        .iter()
        .enumerate()
        .any(|(k, h)| k != 1 && h.is_some_and(|(f, _)| Some(f) == hook))
        || d.every.iter().any(|e| Some(e.1) == hook)
        || d.triggers.iter().any(|t| Some(t.procedure) == hook);
    if resets || other_hooks {
        return None;
    }
    let mut called = false;
    fn calls(e: &Expr, hook: Option<usize>, called: &mut bool) {
        if matches!(e.kind, ExprKind::Call(f, _) if Some(f) == hook) {
            *called = true;
        }
        walk::for_each_child(e, &mut |x| calls(x, hook, called));
    }
    let mut written_elsewhere = false;
    for (id, f) in p.functions.iter().enumerate() {
        walk::for_each_body_expr(f, &mut |e| calls(e, hook, &mut called));
        if Some(id) == hook {
            continue;
        }
        if let crate::ir::Body::Procedure(body) = &f.body {
            walk::for_each_stmt(body, &mut |s| {
                if let Stmt::Assign { place, .. } = s {
                    written_elsewhere |= writes(place);
                }
            });
        }
    }
    if called || written_elsewhere {
        return None;
    }
    if let Some(h) = hook {
        let crate::ir::Body::Procedure(body) = &p.functions[h].body else {
            return None;
        };
        // Its first statements: each a plain `c.field = ..` of the hook's fighter, until
        // one that is not; no other statement writes them.
        let mut fresh: Vec<usize> = Vec::new();
        let mut first = true;
        for s in body {
            let own = match s {
                Stmt::Assign {
                    place,
                    op: AssignOp::Set,
                    ..
                } if first && place.root == 0 => match place.path[..] {
                    [PlaceStep::Field(i)] if fields.contains(&i) => Some(i),
                    _ => None,
                },
                _ => None,
            };
            match own {
                Some(i) => fresh.push(i),
                None => {
                    first = false;
                    let mut other = false;
                    walk::for_each_stmt(std::slice::from_ref(s), &mut |s| {
                        if let Stmt::Assign { place, .. } = s {
                            other |= writes(place);
                        }
                    });
                    if other {
                        return None;
                    }
                }
            }
        }
        // A field the hook does not write afresh must be written by nothing (it keeps
        // the fight file's value throughout).
        let mut written = false;
        walk::for_each_stmt(body, &mut |s| {
            if let Stmt::Assign { place, .. } = s {
                if let [PlaceStep::Field(i)] = place.path[..] {
                    written |= fields.contains(&i) && !fresh.contains(&i);
                }
            }
        });
        if written {
            return None;
        }
    }
    fields.sort_unstable();
    Some(OrderOnly { fields })
}

/// The combatants encoded with `only`'s fields left out, then each fighter's rank among
/// the turn-order keys of all (`None` when a key is a rule error, or two fighters share
/// one record: the state is then encoded whole).
pub(super) fn encode_ranked<D, X, T>(
    only: &OrderOnly,
    rules: &mut EvalRules,
    env: &mut Env<D, X, T>,
    fight: &mut Fight<Value>,
    out: &mut Vec<u64>,
) -> Option<()>
where
    D: DiceSource,
    X: Decide,
    T: TraceSink,
{
    let mut keys: Vec<Key> = Vec::with_capacity(fight.len());
    for f in 0..fight.len() as u32 {
        keys.push(rules.key(env, fight, Fighter(f)).ok()?);
    }
    // The copies are all made before any is encoded: the encoding tells shared records
    // by address, and a copy dropped could give its address to the next.
    let mut blanks = Vec::with_capacity(fight.len());
    for (i, c) in fight.combatants.iter().enumerate() {
        let Value::Record(r) = c else { return None };
        if fight.combatants[..i]
            .iter()
            .any(|d| matches!(d, Value::Record(s) if Rc::ptr_eq(r, s)))
        {
            return None;
        }
        let mut fields = r.borrow().clone();
        for &k in &only.fields {
            if let Some(v) = fields.get_mut(k) {
                *v = Value::Unit;
            }
        }
        blanks.push(Value::Record(Rc::new(RefCell::new(fields))));
    }
    let mut seen = Vec::new();
    for blank in &blanks {
        super::state::encode_value(blank, out, &mut seen);
    }
    let mut distinct: Vec<&Key> = keys.iter().collect();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    for k in &keys {
        let rank = distinct.iter().position(|d| *d == k).unwrap_or(0);
        out.push(rank as u64);
    }
    Some(())
}

/// The interpreter's rules with every answer of `out` watched: `revived` once a fighter
/// seen out (in `out`) is seen standing again.
pub(super) struct Watch<'r, 'p> {
    pub rules: &'r mut EvalRules<'p>,
    pub out: Vec<bool>,
    pub revived: bool,
}

impl<D: DiceSource, X: Decide, T: TraceSink> FightRules<Value, D, X, T> for Watch<'_, '_> {
    fn shape(&self) -> &FightShape {
        FightRules::<Value, D, X, T>::shape(&*self.rules)
    }

    fn key(&mut self, env: &mut Env<D, X, T>, fight: &mut Fight<Value>, who: Fighter) -> Res<Key> {
        self.rules.key(env, fight, who)
    }

    fn is_out(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        who: Fighter,
    ) -> Res<bool> {
        let out = self.rules.is_out(env, fight, who)?;
        if let Some(seen) = self.out.get_mut(who.index()) {
            self.revived |= *seen && !out;
            *seen |= out;
        }
        Ok(out)
    }

    fn hook(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        hook: Hook,
        who: Option<Fighter>,
    ) -> Res<()> {
        self.rules.hook(env, fight, hook, who)
    }

    fn fire(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        action: u32,
        args: &[i64],
    ) -> Res<()> {
        self.rules.fire(env, fight, action, args)
    }

    fn condition(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        index: usize,
        who: Option<Fighter>,
    ) -> Res<bool> {
        self.rules.condition(env, fight, index, who)
    }

    fn trigger(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        index: usize,
        who: Option<Fighter>,
    ) -> Res<()> {
        self.rules.trigger(env, fight, index, who)
    }

    fn stops(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        action: u32,
        args: &[i64],
    ) -> Res<bool> {
        self.rules.stops(env, fight, action, args)
    }

    fn copy(&mut self, c: &Value) -> Value {
        FightRules::<Value, D, X, T>::copy(self.rules, c)
    }

    fn land(&mut self, now: &mut Value, before: &Value, after: &Value, site: u32) -> Res<()> {
        FightRules::<Value, D, X, T>::land(self.rules, now, before, after, site)
    }
}
