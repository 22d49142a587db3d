//! List operations that pick or order elements: `first`, `index_of`, `sort`, `min_by`,
//! `max_by`, and `lo..hi` where a list is walked.

use super::coerce::{as_int, coerce, expect_ty};
use super::expr::{element_type, expr};
use super::{err_expr, mk, FnCtx};
use crate::check::Checker;
use crate::ir::{self, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ListOp};

/// `lo..hi`: the whole numbers from `lo` up to `hi - 1`, as a list.
pub(super) fn range(
    c: &mut Checker,
    fcx: &mut FnCtx,
    lo: &ast::Expr,
    hi: &ast::Expr,
    span: Span,
) -> ir::Expr {
    let lo = expr(c, fcx, lo, Some(&Ty::Int));
    let lo = as_int(c, lo);
    let hi = expr(c, fcx, hi, Some(&Ty::Int));
    let hi = as_int(c, hi);
    let site = (!ir::walk::range_bounded(&lo, &hi)).then(|| c.site(span));
    mk(
        K::Range(Box::new(lo), Box::new(hi), site),
        Ty::List(Box::new(Ty::Int)),
        span,
    )
}

/// `first(var in list if cond)`, `index_of(..)`, `sort(var in list by k, ..)`,
/// `min_by(..)`, `max_by(..)`.
pub(super) fn list_op(
    c: &mut Checker,
    fcx: &mut FnCtx,
    op: ListOp,
    (var, list, cond, keys): (&ast::Ident, &ast::Expr, Option<&ast::Expr>, &[ast::Expr]),
    span: Span,
) -> ir::Expr {
    let name = match op {
        ListOp::First => "first",
        ListOp::IndexOf => "index_of",
        ListOp::Sort => "sort",
        ListOp::MinBy => "min_by",
        ListOp::MaxBy => "max_by",
    };
    let lx = expr(c, fcx, list, None);
    let elem = element_type(
        c,
        &lx,
        list.span,
        &format!("`{name}` walks a list or `lo..hi`"),
    );
    let wants_keys = matches!(op, ListOp::Sort | ListOp::MinBy | ListOp::MaxBy);
    if wants_keys && keys.is_empty() {
        c.error(
            "E0327",
            span,
            format!("`{name}` needs the keys to order by"),
            "no `by`",
            format!("write `{name}({} in list by key)`", var.name),
        );
        return err_expr(span);
    }
    if !wants_keys && !keys.is_empty() {
        c.error(
            "E0327",
            keys[0].span,
            format!("`{name}` takes no keys"),
            "`by ..`",
            "remove `by ..`; `sort`, `min_by` and `max_by` order by keys",
        );
    }
    fcx.scopes.push(Vec::new());
    let slot = fcx.bind(var, elem.clone());
    let cx = cond.map(|cnd| {
        let x = expr(c, fcx, cnd, Some(&Ty::Bool));
        expect_ty(c, &x, &Ty::Bool);
        Box::new(x)
    });
    let keys: Vec<ir::Expr> = if wants_keys {
        keys.iter().map(|k| key(c, fcx, k)).collect()
    } else {
        Vec::new()
    };
    fcx.scopes.pop();
    let list = Box::new(lx);
    let (kind, ty) = match op {
        ListOp::First | ListOp::IndexOf => {
            let index = op == ListOp::IndexOf;
            let found = if index { Ty::Int } else { elem.clone() };
            (
                K::Find {
                    var: slot,
                    list,
                    cond: cx,
                    index,
                },
                Ty::Option(Box::new(found)),
            )
        }
        ListOp::Sort => (
            K::Sort {
                var: slot,
                list,
                cond: cx,
                keys,
            },
            Ty::List(Box::new(elem)),
        ),
        ListOp::MinBy | ListOp::MaxBy => (
            K::Best {
                var: slot,
                list,
                cond: cx,
                keys,
                max: op == ListOp::MaxBy,
            },
            Ty::Option(Box::new(elem)),
        ),
    };
    mk(kind, ty, span)
}

/// A key to order by: a whole number, a level of a scale, or a boolean.
fn key(c: &mut Checker, fcx: &mut FnCtx, k: &ast::Expr) -> ir::Expr {
    let x = expr(c, fcx, k, None);
    match &x.ty {
        Ty::Choice(ch) if c.prog.choices[*ch].ordered => x,
        Ty::Error => x,
        Ty::Int | Ty::Roll => coerce(x, &Ty::Int),
        // `false` before `true`.
        Ty::Bool => x,
        other => {
            let n = c.ty_name(other);
            c.error(
                "E0321",
                x.span,
                format!("cannot order by {n}"),
                "not a number, level or boolean",
                "order by whole numbers, levels of a scale or booleans",
            );
            x
        }
    }
}
