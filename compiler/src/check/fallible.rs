//! Whole-program: which functions may meet a rule error, themselves or through the
//! functions they call (a fixed point over the call graph). Generated code gives those,
//! and only those, a `Result` (see [`crate::ir::Function::fallible`]).

use super::Checker;
use crate::ir::walk::{
    assign_may_fail, for_each_body_expr, for_each_child, for_each_stmt, may_fail,
};
use crate::ir::{self, ExprKind as K};

/// Sets `fallible` on every function that may meet a rule error.
pub fn mark_fallible(c: &mut Checker) {
    loop {
        let mut changed = false;
        for f in 0..c.prog.functions.len() {
            if !c.prog.functions[f].fallible
                && body_may_fail(&c.prog.functions[f], &c.prog.functions)
            {
                c.prog.functions[f].fallible = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

fn body_may_fail(f: &ir::Function, fns: &[ir::Function]) -> bool {
    fn expr(e: &ir::Expr, fns: &[ir::Function], found: &mut bool) {
        *found |= may_fail(e) || matches!(e.kind, K::Call(g, _) if fns[g].fallible);
        if !*found {
            for_each_child(e, &mut |x| expr(x, fns, found));
        }
    }
    let mut found = false;
    if let ir::Body::Procedure(stmts) = &f.body {
        for_each_stmt(stmts, &mut |s| {
            found |= matches!(s, ir::Stmt::Assign { place, op, .. } if assign_may_fail(place, *op));
        });
    }
    for_each_body_expr(f, &mut |e| expr(e, fns, &mut found));
    found
}
