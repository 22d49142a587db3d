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
}

pub(super) fn coerce(e: ir::Expr, want: &Ty) -> ir::Expr {
    if e.ty == Ty::Fighter && matches!(want, Ty::Record(_)) {
        // A fighter stands for its combatant (checked by `expect_ty`).
        let (span, ty) = (e.span, want.clone());
        return mk(K::Combatant(Box::new(e)), ty, span);
    }
    if e.ty == Ty::Roll && *want == Ty::Int {
        let span = e.span;
        mk(K::ToInt(Box::new(e)), Ty::Int, span)
    } else {
        e
    }
}

pub(super) fn expect_ty(c: &mut Checker, e: &ir::Expr, want: &Ty) -> bool {
    if compatible(&e.ty, want) || super::fight::is_combatant_of(c, &e.ty, want) {
        return true;
    }
    let (h, w) = (c.ty_name(&e.ty), c.ty_name(want));
    c.error(
        "E0321",
        e.span,
        format!("expected {w}, found {h}"),
        format!("this is {h}"),
        format!("a value of type {w} is needed here"),
    );
    false
}

pub(super) fn as_int(c: &mut Checker, e: ir::Expr) -> ir::Expr {
    expect_ty(c, &e, &Ty::Int);
    coerce(e, &Ty::Int)
}
