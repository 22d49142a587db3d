//! Checking `every 3 rounds: p(..) until cond`, a timer that sets itself again.
//!
//! The call is checked as `after 3 rounds: p(..)`'s is (`timed::schedule`); the engine
//! sets the timer again each time it fires (`ir::Repeat`, `rulesc_runtime::Repeat`). The
//! stop condition becomes a formula of its own (`fight_stop_N`) whose parameters are the
//! locals it reads, captured where the timer is set, after the call's arguments, as a
//! timer's arguments are; both backends ask it through the engine (`FightRules::stops`)
//! each time the timer falls due.

use super::coerce::{coerce, expect_ty};
use super::expr::expr;
use super::fight::unit_size;
use super::{mk, FnCtx};
use crate::check::{Checker, DefKind};
use crate::ir::{self, ExprKind as K, Period, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

/// The name of the `n`-th stop condition's formula (from 1).
pub(super) const STOP: &str = "fight_stop_";

pub(super) fn repeat(
    c: &mut Checker,
    fcx: &mut FnCtx,
    s: &ast::Stmt,
    r: &ast::Repeat,
) -> Option<ir::Stmt> {
    let amount = ast::Expr {
        kind: A::Int(r.amount),
        span: r.amount_span,
    };
    let first = ast::Until::After(amount, r.unit.clone());
    let ir::Stmt::Schedule {
        at,
        action,
        mut args,
        site,
    } = super::timed::schedule(c, fcx, s, &first, &r.call)?
    else {
        return None;
    };
    let every = period(c, r)?;
    let stop = match &r.until {
        Some(cond) => {
            let (f, captured) = stop_formula(c, fcx, cond)?;
            args.extend(captured);
            Some(f)
        }
        None => None,
    };
    c.prog.fight.as_mut()?.repeats.push(ir::Repeat {
        action,
        every,
        stop,
        site,
    });
    Some(ir::Stmt::Schedule {
        at,
        action,
        args,
        site,
    })
}

/// The period: at least one round or one base unit of world time.
fn period(c: &mut Checker, r: &ast::Repeat) -> Option<Period> {
    let rounds = matches!(r.unit.name.as_str(), "round" | "rounds");
    if r.amount < 1 {
        c.error(
            "E0351",
            r.amount_span,
            format!("a timer cannot repeat every {} {}", r.amount, r.unit.name),
            "not a period",
            "repeat every 1 or more; for a call once, write `after 3 rounds: p(..)`",
        );
        return None;
    }
    let every = if rounds {
        u32::try_from(r.amount).ok().map(Period::Rounds)
    } else {
        let size = c
            .prog
            .fight
            .as_ref()
            .and_then(|fd| unit_size(&fd.units, &r.unit.name))?;
        r.amount.checked_mul(size).map(Period::Time)
    };
    if every.is_none() {
        c.error(
            "E0351",
            r.amount_span,
            "this period is too long to count",
            "too long",
            "a period of rounds fits 4294967295; of world time, 9223372036854775807 base units",
        );
    }
    every
}

/// The stop condition as a formula of the locals it reads (in the order first read),
/// and those locals, captured when the timer is set.
fn stop_formula(
    c: &mut Checker,
    fcx: &mut FnCtx,
    cond: &ast::Expr,
) -> Option<(usize, Vec<ir::Expr>)> {
    if let Some((what, span)) = effect(c, cond) {
        c.error(
            "E0324",
            span,
            format!("the `until` of a repeating timer cannot {what}"),
            "asked each time the timer falls due",
            "do it in the procedure the timer calls, and keep what it gives in a field the condition reads",
        );
        return None;
    }
    let mut names = Vec::new();
    free_names(cond, &mut names);
    let mut read: Vec<(ast::Ident, usize)> = Vec::new();
    for n in names {
        let Some(slot) = fcx.find(&n.name) else {
            continue;
        };
        if read.iter().any(|(_, s)| *s == slot) {
            continue;
        }
        // Read here, kept or not.
        fcx.unread.retain(|(s, _)| *s != slot);
        let ty = &fcx.locals[slot].ty;
        if !super::timed::timer_keeps(ty) {
            let t = c.ty_name(ty);
            c.error(
                "E0352",
                n.span,
                format!("the `until` of a repeating timer reads `{}` ({t}): a timer keeps numbers, levels, variants, booleans, fighters and sides", n.name),
                "kept until the timer falls due",
                "read the state through a fighter (`until c.hp >= 10`), or bind a number first: `let left = len(xs)`",
            );
            return None;
        }
        read.push((n, slot));
    }
    let id = c.prog.functions.len();
    let made = |fd: &ir::FightDef| fd.repeats.iter().filter(|r| r.stop.is_some()).count();
    let n = c.prog.fight.as_ref().map_or(0, made) + 1;
    let name = format!("{STOP}{n}");
    let mut stop = FnCtx {
        id,
        locals: Vec::new(),
        spans: Vec::new(),
        scopes: vec![Vec::new()],
        formula: true,
        ret: Some(Ty::Bool),
        nparams: read.len(),
        unread: Vec::new(),
        faces_of: Vec::new(),
        then: Vec::new(),
        known_some: Vec::new(),
        depth: 0,
    };
    let mut params = Vec::new();
    let mut captured = Vec::new();
    for (n, slot) in &read {
        let ty = fcx.locals[*slot].ty.clone();
        stop.bind(n, ty.clone());
        params.push(ir::Param {
            name: n.name.clone(),
            ty: ty.clone(),
            mutated: false,
        });
        captured.push(mk(K::Local(*slot), ty, n.span));
    }
    c.prog.functions.push(ir::Function {
        name: name.clone(),
        params,
        ret: Ty::Bool,
        locals: Vec::new(),
        body: ir::Body::Formula(mk(K::Const(ir::Const::Bool(false)), Ty::Bool, cond.span)),
        site: 0,
        span: cond.span,
        fallible: false,
    });
    c.fn_syntax.push(ast::Item::Function {
        name: ast::Ident {
            name,
            span: cond.span,
        },
        params: Vec::new(),
        ret: None,
        body: ast::Body::Expr(cond.clone()),
        span: cond.span,
        overrides: false,
    });
    c.fn_state.push(1);
    c.fn_stack.push(id);
    let x = expr(c, &mut stop, cond, Some(&Ty::Bool));
    expect_ty(c, &x, &Ty::Bool);
    let x = coerce(x, &Ty::Bool);
    c.fn_stack.pop();
    c.fn_state[id] = 2;
    // For editors: the names the condition reads are the locals where it is written;
    // those it binds itself (an aggregate's variable) are its own.
    let slots: Vec<usize> = read.iter().map(|(_, s)| *s).collect();
    c.index.move_params(id, fcx.id, &slots);
    for (slot, (local, span)) in stop.locals.iter().zip(&stop.spans).enumerate() {
        if slot >= slots.len() {
            c.index
                .local((id, slot), &local.name, "until", *span, local.ty.clone());
        }
    }
    let site = c.site(Span {
        end: cond.span.start,
        ..cond.span
    });
    let f = &mut c.prog.functions[id];
    f.body = ir::Body::Formula(x);
    f.locals = stop.locals;
    f.site = site;
    Some((id, captured))
}

/// The names `e` reads that it does not bind itself (an aggregate's or a list
/// operation's variable, a `match` arm's bindings), in the order read.
fn free_names(e: &ast::Expr, out: &mut Vec<ast::Ident>) {
    walk(e, &mut Vec::new(), &mut |x, bound| {
        if let A::Name(n) = &x.kind {
            if !bound.contains(&n.name) {
                out.push(n.clone());
            }
        }
    });
}

/// What in `e` a condition asked when a timer falls due cannot do (roll dice, ask for
/// a decision, fill a track, call a procedure), and where: the first such.
fn effect(c: &Checker, e: &ast::Expr) -> Option<(&'static str, Span)> {
    let procedure = |name: &str| match c.names.get(name).map(|d| d.kind) {
        Some(DefKind::Function(f)) => matches!(
            c.fn_syntax.get(f),
            Some(ast::Item::Function {
                body: ast::Body::Block(_),
                ..
            })
        ),
        _ => false,
    };
    let mut found = None;
    walk(e, &mut Vec::new(), &mut |x, bound| {
        let what = match &x.kind {
            A::Roll { .. } => "roll dice",
            A::Decide { .. } => "ask for a decision",
            A::Fill { .. } => "fill a track",
            A::Call(callee, _) => match &callee.kind {
                A::Name(n) if !bound.contains(&n.name) && procedure(&n.name) => "call a procedure",
                _ => return,
            },
            _ => return,
        };
        found.get_or_insert((what, x.span));
    });
    found
}

/// Calls `f` on `e` and every expression inside it, with the names bound around it.
fn walk(e: &ast::Expr, bound: &mut Vec<String>, f: &mut dyn FnMut(&ast::Expr, &[String])) {
    f(e, bound);
    let mut go = |x: &ast::Expr, bound: &mut Vec<String>| walk(x, bound, f);
    match &e.kind {
        A::Int(_) | A::Bool(_) | A::Dice(_) | A::Name(_) => {}
        A::Field(x, _) | A::Unary(_, x) => go(x, bound),
        A::Index(a, b) | A::Binary(_, a, b) | A::Range(a, b) => {
            go(a, bound);
            go(b, bound);
        }
        A::Cell(a, b, d) | A::If(a, b, d) => {
            go(a, bound);
            go(b, bound);
            go(d, bound);
        }
        A::Call(callee, args) => {
            go(callee, bound);
            for a in args {
                go(&a.value, bound);
            }
        }
        A::Roll { target, among } => {
            go(target, bound);
            if let Some(a) = among {
                go(a, bound);
            }
        }
        A::Decide { from, .. } => {
            if let ast::DecideFrom::List(l) = from {
                go(l, bound);
            }
        }
        A::Fill { track, level } => {
            go(track, bound);
            go(level, bound);
        }
        A::List(xs) => xs.iter().for_each(|x| go(x, bound)),
        A::Aggregate {
            body,
            var,
            list,
            cond,
            ..
        }
        | A::Collect {
            body,
            var,
            list,
            cond,
        } => {
            go(list, bound);
            bound.push(var.name.clone());
            go(body, bound);
            if let Some(x) = cond {
                go(x, bound);
            }
            bound.pop();
        }
        A::ListOp {
            var,
            list,
            cond,
            keys,
            ..
        } => {
            go(list, bound);
            bound.push(var.name.clone());
            if let Some(x) = cond {
                go(x, bound);
            }
            keys.iter().for_each(|x| go(x, bound));
            bound.pop();
        }
        A::Match(x, arms) => {
            go(x, bound);
            for arm in arms {
                let before = bound.len();
                if let ast::Pattern::Alts(alts) = &arm.pattern {
                    for (_, binds) in alts {
                        bound.extend(binds.iter().map(|b| b.name.clone()));
                    }
                }
                go(&arm.body, bound);
                bound.truncate(before);
            }
        }
    }
}
