//! Checking the fight's statements in bodies: durations (`x = v until ...`, `for 2
//! rounds`), scheduled calls (`after ...:`, `at ...:`) and `advance`; each belongs to the
//! fight, so a body outside one is told so.

use super::call::call;
use super::coerce::{as_int, coerce, expect_ty};
use super::expr::expr;
use super::fight::unit_size;
use super::place::place;
use super::{mk, FnCtx};
use crate::check::Checker;
use crate::diag::suggest;
use crate::ir::{self, Action, At, Const, ExprKind as K, ResetStep, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

/// Where a duration ends or a timer fires.
fn at(c: &mut Checker, fcx: &mut FnCtx, until: &ast::Until) -> Option<At> {
    match until {
        ast::Until::After(amount, unit) => {
            let n = expr(c, fcx, amount, Some(&Ty::Int));
            let n = as_int(c, n);
            if matches!(unit.name.as_str(), "round" | "rounds") {
                return Some(At::RoundsLater(n));
            }
            let Some(size) = c
                .prog
                .fight
                .as_ref()
                .and_then(|fd| unit_size(&fd.units, &unit.name))
            else {
                let mut cands: Vec<String> = vec!["rounds".into()];
                if let Some(fd) = &c.prog.fight {
                    cands.extend(fd.units.iter().map(|(n, _)| format!("{n}s")));
                }
                let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
                c.error(
                    "E0351",
                    unit.span,
                    format!("unknown unit `{}`", unit.name),
                    "not a unit",
                    suggest(&unit.name, &cands, "units"),
                );
                return None;
            };
            let span = n.span;
            let scaled = if size == 1 {
                n
            } else {
                mk(
                    K::Int(
                        ir::IntOp::Mul,
                        Box::new(n),
                        Box::new(mk(K::Const(Const::Int(size)), Ty::Int, span)),
                    ),
                    Ty::Int,
                    span,
                )
            };
            Some(At::TimeLater(scaled))
        }
        ast::Until::Moment(m) => match &m.kind {
            ast::MomentKind::Round if m.end => Some(At::RoundEnd),
            ast::MomentKind::NextRound if !m.end => Some(At::RoundsLater(mk(
                K::Const(Const::Int(1)),
                Ty::Int,
                m.span,
            ))),
            ast::MomentKind::Round | ast::MomentKind::NextRound => {
                c.error(
                    "E0351",
                    m.span,
                    "this round has started; the next one has no end yet",
                    "here",
                    "say `end of round` or `start of next round`",
                );
                None
            }
            ast::MomentKind::Turn { next, who } => {
                let w = expr(c, fcx, who, Some(&Ty::Fighter));
                expect_ty(c, &w, &Ty::Fighter);
                Some(At::Turn {
                    who: w,
                    end: m.end,
                    next: *next,
                })
            }
        },
    }
}

fn no_fight(c: &mut Checker, fcx: &FnCtx, span: Span, what: &str) -> bool {
    if c.prog.fight.is_none() {
        c.error(
            "E0351",
            span,
            format!("{what} needs a fight"),
            "no fight declared",
            "declare the fight: `fight of Combatant { ... }`",
        );
        return true;
    }
    if fcx.formula {
        c.error(
            "E0324",
            span,
            "a formula cannot change anything",
            what,
            "make it a `procedure`",
        );
        return true;
    }
    false
}

/// Whether an expression can be evaluated twice with the same result and no effect.
fn pure(e: &ir::Expr, c: &Checker) -> bool {
    let here = match &e.kind {
        K::Roll { .. } | K::RollTable { .. } | K::Decide { .. } | K::Fill { .. } => false,
        K::Call(f, _) => !c.prog.functions[*f].is_procedure(),
        _ => true,
    };
    let mut ok = here;
    crate::ir::walk::for_each_child(e, &mut |x| ok &= pure(x, c));
    ok
}

/// `place = value until <moment>`: the assignment, then a timer that resets the place.
pub(super) fn timed_assign(
    c: &mut Checker,
    fcx: &mut FnCtx,
    s: &ast::Stmt,
    target: &ast::Expr,
    value: &ast::Expr,
    until: &ast::Until,
) -> Option<(ir::Stmt, ir::Stmt)> {
    if no_fight(c, fcx, s.span, "a duration") {
        return None;
    }
    let mut p = place(c, fcx, target)?;
    let v = expr(c, fcx, value, Some(&p.ty));
    expect_ty(c, &v, &p.ty);
    let v = coerce(v, &p.ty);
    super::bounds::known_outside(c, p.range, ir::AssignOp::Set, &v);
    p.range = super::bounds::unproven(c, p.range, ir::AssignOp::Set, &v);
    let at = at(c, fcx, until)?;
    if fcx.locals[p.root].ty != Ty::Fighter || p.path.is_empty() {
        c.error(
            "E0352",
            target.span,
            "a duration lasts on a fighter's state",
            "not under a fighter",
            "set a field of a fighter: `me.guard = Parry until end of next turn of me`",
        );
        return None;
    }
    let combatant = c.prog.fight.as_ref().map(|fd| fd.combatant)?;
    // What the place returns to: the field's default (or its type's zero).
    let mut rec = Ty::Record(combatant);
    let mut steps = Vec::new();
    let mut keys = vec![mk(K::Local(p.root), Ty::Fighter, target.span)];
    let mut reset = c.prog.zero(&p.ty);
    for st in &p.path {
        match (st, &rec) {
            (ir::PlaceStep::Field(i), Ty::Record(r)) => {
                let f = &c.prog.records[*r].fields[*i];
                reset = c.prog.field_zero(f);
                rec = f.ty.clone();
                steps.push(ResetStep::Field(*i));
            }
            (ir::PlaceStep::Key(k) | ir::PlaceStep::Index(k), Ty::Map(_, v) | Ty::List(v)) => {
                if !pure(k, c) {
                    c.error(
                        "E0352",
                        k.span,
                        "a key of a timed place is read again when the duration ends",
                        "rolls, decides or calls a procedure",
                        "bind it first: `let part = ...`",
                    );
                    return None;
                }
                reset = c.prog.zero(v);
                steps.push(if matches!(st, ir::PlaceStep::Key(_)) {
                    ResetStep::Key
                } else {
                    ResetStep::Index
                });
                keys.push(k.clone());
                rec = (**v).clone();
            }
            (ir::PlaceStep::Key(k), Ty::SortedMap(..)) => {
                c.error(
                    "E0352",
                    k.span,
                    "a duration cannot last on an entry of a map keyed by anything but a scale or enum",
                    "a key the timer would have to keep",
                    "keep the state in a field, or in a map keyed by a scale or enum",
                );
                return None;
            }
            _ => return None,
        }
    }
    let site = c.site(s.span);
    let fd = c.prog.fight.as_mut()?;
    fd.actions.push(Action::Reset {
        path: steps,
        ty: p.ty.clone(),
        value: reset,
        site,
    });
    let action = fd.actions.len() - 1;
    let assign = ir::Stmt::Assign {
        place: p,
        op: ir::AssignOp::Set,
        value: v,
        site,
    };
    let timer = ir::Stmt::Schedule {
        at,
        action,
        args: keys,
        site,
    };
    Some((assign, timer))
}

/// `after 10 minutes: p(..)` / `at end of next turn of c: p(..)`.
pub(super) fn schedule(
    c: &mut Checker,
    fcx: &mut FnCtx,
    s: &ast::Stmt,
    until: &ast::Until,
    target: &ast::Expr,
) -> Option<ir::Stmt> {
    if no_fight(c, fcx, s.span, "a timer") {
        return None;
    }
    let at = at(c, fcx, until)?;
    let A::Call(callee, args) = &target.kind else {
        c.error(
            "E0352",
            target.span,
            "a timer calls a procedure",
            "not a call",
            "write `after 10 minutes: bleed_out(c)`",
        );
        return None;
    };
    let x = call(c, fcx, callee, args, target.span, None);
    let K::Call(function, args) = x.kind else {
        if x.ty != Ty::Error {
            c.error(
                "E0352",
                target.span,
                "a timer calls a procedure",
                "not a procedure",
                "write `after 10 minutes: bleed_out(c)`",
            );
        }
        return None;
    };
    if !c.prog.functions[function].is_procedure() {
        c.error(
            "E0352",
            target.span,
            "a timer calls a procedure, not a formula",
            "formula",
            "call a procedure",
        );
        return None;
    }
    for a in &args {
        if !timer_keeps(&a.ty) {
            let n = c.ty_name(&a.ty);
            c.error(
                "E0352",
                a.span,
                format!("a timer keeps numbers, levels, variants, fighters and sides, not {n}"),
                "kept until the timer fires",
                "pass the fighter and read its state when the timer fires",
            );
            return None;
        }
    }
    let site = c.site(s.span);
    let fd = c.prog.fight.as_mut()?;
    fd.actions.push(Action::Call { function, site });
    let action = fd.actions.len() - 1;
    Some(ir::Stmt::Schedule {
        at,
        action,
        args,
        site,
    })
}

/// `advance 10 minutes`.
pub(super) fn advance(
    c: &mut Checker,
    fcx: &mut FnCtx,
    s: &ast::Stmt,
    amount: &ast::Expr,
    unit: &ast::Ident,
) -> Option<ir::Stmt> {
    if no_fight(c, fcx, s.span, "`advance`") {
        return None;
    }
    let until = ast::Until::After(amount.clone(), unit.clone());
    if matches!(unit.name.as_str(), "round" | "rounds") {
        c.error(
            "E0351",
            unit.span,
            "rounds pass by themselves; `advance` moves world time",
            "rounds",
            "advance a unit of time: `advance 10 minutes`",
        );
        return None;
    }
    let At::TimeLater(amount) = at(c, fcx, &until)? else {
        return None;
    };
    let site = c.site(s.span);
    Some(ir::Stmt::Advance { amount, site })
}

/// Whether a timer can keep a value of type `ty` until it falls due (its arguments, and a
/// repeating timer's `until` locals, are kept as `i64`s): numbers, truths, levels and
/// variants, fighters and sides.
pub(super) fn timer_keeps(ty: &Ty) -> bool {
    matches!(
        ty,
        Ty::Int | Ty::Bool | Ty::Fighter | Ty::Side | Ty::Choice(_) | Ty::Error
    )
}
