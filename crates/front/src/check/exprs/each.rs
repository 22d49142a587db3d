//! `body for var in list if cond`: aggregates (`sum`, `count`, `any`, `all`, `max`,
//! `min`) and list comprehensions.

use super::coerce::{as_int, coerce, expect_ty};
use super::expr::{element_type, expr};
use super::{mk, FnCtx};
use crate::check::Checker;
use crate::ir::{self, Agg, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast;

/// `sum/count/any/all/max/min(body for var in list if cond)`.
pub(super) fn aggregate(
    c: &mut Checker,
    fcx: &mut FnCtx,
    kind: ast::AggKind,
    (var, list, cond, body): (&ast::Ident, &ast::Expr, Option<&ast::Expr>, &ast::Expr),
    span: Span,
) -> ir::Expr {
    let (lx, slot, cx, bx) = for_each_element(
        c,
        fcx,
        (var, list, cond, body),
        None,
        "aggregate over a list field or `filled(track)`",
    );
    finish_aggregate(c, kind, lx, slot, cx, bx, span)
}

/// `sum(list)`, `any(list)`, `all(list)`, `max(list)`, `min(list)`: the aggregate of
/// the elements themselves, `list` already checked.
pub(super) fn aggregate_list(
    c: &mut Checker,
    fcx: &mut FnCtx,
    kind: ast::AggKind,
    lx: ir::Expr,
    span: Span,
) -> ir::Expr {
    let elem = element_type(c, &lx, lx.span, "give a list");
    let slot = fcx.hidden("item", elem.clone());
    let bx = mk(K::Local(slot), elem, lx.span);
    finish_aggregate(c, kind, lx, slot, None, bx, span)
}

/// The aggregate's result type, its body's coercion, and the IR node.
fn finish_aggregate(
    c: &mut Checker,
    kind: ast::AggKind,
    lx: ir::Expr,
    slot: usize,
    cx: Option<Box<ir::Expr>>,
    bx: ir::Expr,
    span: Span,
) -> ir::Expr {
    let (agg, ty, bx) = match kind {
        ast::AggKind::Sum => (Agg::Sum, Ty::Int, as_int(c, bx)),
        ast::AggKind::Count => (Agg::Count, Ty::Int, bx),
        ast::AggKind::Any | ast::AggKind::All => {
            expect_ty(c, &bx, &Ty::Bool);
            (
                if kind == ast::AggKind::Any {
                    Agg::Any
                } else {
                    Agg::All
                },
                Ty::Bool,
                bx,
            )
        }
        ast::AggKind::Max | ast::AggKind::Min => {
            let agg = if kind == ast::AggKind::Max {
                Agg::Max
            } else {
                Agg::Min
            };
            match bx.ty.clone() {
                Ty::Choice(ch) if c.prog.choices[ch].ordered => (agg, Ty::Choice(ch), bx),
                _ => {
                    let bx = as_int(c, bx);
                    (agg, Ty::Int, bx)
                }
            }
        }
    };
    mk(
        K::Aggregate {
            kind: agg,
            var: slot,
            list: Box::new(lx),
            cond: cx,
            body: Box::new(bx),
        },
        ty,
        span,
    )
}

/// `[body for var in list if cond]`.
pub(super) fn collect(
    c: &mut Checker,
    fcx: &mut FnCtx,
    (var, list, cond, body): (&ast::Ident, &ast::Expr, Option<&ast::Expr>, &ast::Expr),
    span: Span,
    expect: Option<&Ty>,
) -> ir::Expr {
    let want = match expect {
        Some(Ty::List(t)) => Some((**t).clone()),
        _ => None,
    };
    let (lx, slot, cx, bx) = for_each_element(
        c,
        fcx,
        (var, list, cond, body),
        want.as_ref(),
        "collect over a list field, `filled(track)` or a scale or enum",
    );
    let ty = if bx.ty == Ty::Roll {
        Ty::Int
    } else {
        bx.ty.clone()
    };
    let bx = coerce(bx, &ty);
    mk(
        K::Collect {
            var: slot,
            list: Box::new(lx),
            cond: cx,
            body: Box::new(bx),
        },
        Ty::List(Box::new(ty)),
        span,
    )
}

/// `body for var in list if cond` (aggregates and comprehensions): checks the list,
/// binds `var` to its elements in a new scope, checks the condition (a bool) and the
/// body there. Returns the list, the variable's slot, the condition and the body.
#[allow(clippy::type_complexity)]
fn for_each_element(
    c: &mut Checker,
    fcx: &mut FnCtx,
    (var, list, cond, body): (&ast::Ident, &ast::Expr, Option<&ast::Expr>, &ast::Expr),
    body_hint: Option<&Ty>,
    help: &str,
) -> (ir::Expr, usize, Option<Box<ir::Expr>>, ir::Expr) {
    let lx = expr(c, fcx, list, None);
    let elem = element_type(c, &lx, list.span, help);
    fcx.scopes.push(Vec::new());
    let slot = fcx.bind(var, elem);
    let cx = cond.map(|cnd| {
        let x = expr(c, fcx, cnd, Some(&Ty::Bool));
        expect_ty(c, &x, &Ty::Bool);
        Box::new(x)
    });
    let bx = expr(c, fcx, body, body_hint);
    fcx.scopes.pop();
    (lx, slot, cx, bx)
}
