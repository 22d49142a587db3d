//! Type agreement: whether a value may stand where a type is expected, and the one
//! implicit conversion (a roll read as its total).

use super::mk;
use crate::check::Checker;
use crate::ir::{self, ExprKind as K, Ty};

/// Types that may stand where `want` is expected (a roll where an int is wanted).
pub(super) fn compatible(have: &Ty, want: &Ty) -> bool {
    have == want
        || *have == Ty::Error
        || *want == Ty::Error
        || (*have == Ty::Roll && *want == Ty::Int)
        || matches!(want, Ty::Option(t) if compatible(have, t) && !matches!(have, Ty::Option(_)))
}

/// `e` as a value of `want`: a roll's total where an int is wanted, a `T` wrapped where a
/// `T?` is.
pub(super) fn coerce(e: ir::Expr, want: &Ty) -> ir::Expr {
    if e.ty == Ty::Fighter && matches!(want, Ty::Record(_)) {
        // A fighter stands for its combatant (checked by `expect_ty`).
        let (span, ty) = (e.span, want.clone());
        return mk(K::Combatant(Box::new(e)), ty, span);
    }
    let span = e.span;
    match want {
        Ty::Int if e.ty == Ty::Roll => mk(K::ToInt(Box::new(e)), Ty::Int, span),
        Ty::Option(t) if e.ty != *want && e.ty != Ty::Error && compatible(&e.ty, t) => {
            let inner = coerce(e, t);
            mk(K::Some(Box::new(inner)), want.clone(), span)
        }
        _ => e,
    }
}

pub(super) fn expect_ty(c: &mut Checker, e: &ir::Expr, want: &Ty) -> bool {
    if compatible(&e.ty, want) || super::fight::is_combatant_of(c, &e.ty, want) {
        return true;
    }
    let (h, w) = (c.ty_name(&e.ty), c.ty_name(want));
    let help = match &e.ty {
        Ty::Option(t) if compatible(t, want) => {
            "test it first: inside `if x != none { .. }` (or after `if x == none { return .. }`) a local `x` is its value".to_string()
        }
        _ => format!("a value of type {w} is needed here"),
    };
    c.error(
        "E0321",
        e.span,
        format!("expected {w}, found {h}"),
        format!("this is {h}"),
        help,
    );
    false
}

pub(super) fn as_int(c: &mut Checker, e: ir::Expr) -> ir::Expr {
    expect_ty(c, &e, &Ty::Int);
    coerce(e, &Ty::Int)
}
