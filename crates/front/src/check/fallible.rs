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
                && body_may_fail(
                    &c.prog.functions[f],
                    &c.prog.functions,
                    c.prog.fight.as_ref(),
                )
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

fn body_may_fail(f: &ir::Function, fns: &[ir::Function], fight: Option<&ir::FightDef>) -> bool {
    // The fight's formulas a fight built-in calls.
    let calls = |q: ir::FightQuery| -> Option<usize> {
        let d = fight?;
        match q {
            ir::FightQuery::Out | ir::FightQuery::Enemies | ir::FightQuery::Allies => d.out,
            ir::FightQuery::InOrder => Some(d.order),
            _ => None,
        }
    };
    let expr = |e: &ir::Expr, found: &mut bool| {
        fn go(
            e: &ir::Expr,
            fns: &[ir::Function],
            calls: &dyn Fn(ir::FightQuery) -> Option<usize>,
            found: &mut bool,
        ) {
            *found |= may_fail(e)
                || matches!(e.kind, K::Call(g, _) if fns[g].fallible)
                || matches!(e.kind, K::Fight(q, _) if calls(q).is_some_and(|g| fns.get(g).is_some_and(|g| g.fallible)));
            if !*found {
                for_each_child(e, &mut |x| go(x, fns, calls, found));
            }
        }
        go(e, fns, &calls, found)
    };
    let mut found = false;
    if let ir::Body::Procedure(stmts) = &f.body {
        for_each_stmt(stmts, &mut |s| {
            found |= matches!(s, ir::Stmt::Assign { place, op, .. } if assign_may_fail(place, *op))
                // `advance` runs timers and hooks, any of which may fail.
                || matches!(s, ir::Stmt::Advance { .. })
                || matches!(s, ir::Stmt::ForRange { site: Some(_), .. });
        });
    }
    for_each_body_expr(f, &mut |e| expr(e, &mut found));
    found
}
