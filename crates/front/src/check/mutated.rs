//! Whole-program: which parameters a procedure changes, directly or through the
//! procedures it calls (a fixed point over the call graph).

use super::Checker;
use crate::ir::places::root_local as local_root;
use crate::ir::walk::{for_each_child, for_each_stmt, for_each_stmt_child, Child};
use crate::ir::{self, ExprKind as K, Ty};

/// Marks parameters whose state a function changes, directly or through a call.
pub fn mark_mutated(c: &mut Checker) {
    loop {
        let mut changed = false;
        for f in 0..c.prog.functions.len() {
            let mut roots: Vec<usize> = Vec::new();
            let mut aliases: Vec<(usize, usize)> = Vec::new();
            if let ir::Body::Procedure(stmts) = &c.prog.functions[f].body {
                for s in stmts {
                    visit_stmt(s, &c.prog.functions, &mut roots);
                }
                record_aliases(stmts, &mut aliases);
            }
            for mut r in roots {
                // `let me = c` names the same record: changing `me` changes `c`.
                for _ in 0..aliases.len() {
                    match aliases.iter().find(|(slot, _)| *slot == r) {
                        Some((_, root)) => r = *root,
                        None => break,
                    }
                }
                if let Some(p) = c.prog.functions[f].params.get_mut(r) {
                    if !p.mutated {
                        p.mutated = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Collects the locals whose state `s` changes: assigned through, or passed to a
/// parameter that is changed.
fn visit_stmt(s: &ir::Stmt, fns: &[ir::Function], roots: &mut Vec<usize>) {
    if let ir::Stmt::Assign { place, .. } = s {
        if !place.path.is_empty() {
            roots.push(place.root);
        }
    }
    for_each_stmt_child(s, &mut |c| match c {
        Child::Expr(e) => visit_expr(e, fns, roots),
        Child::Block(b) => b.iter().for_each(|s| visit_stmt(s, fns, roots)),
    });
}

fn visit_expr(e: &ir::Expr, fns: &[ir::Function], roots: &mut Vec<usize>) {
    match &e.kind {
        K::Fill { track, .. } => roots.push(track.root),
        K::Call(f, args) => {
            for (a, p) in args.iter().zip(&fns[*f].params) {
                if p.mutated {
                    if let Some(slot) = local_root(a) {
                        roots.push(slot);
                    }
                }
            }
        }
        _ => {}
    }
    for_each_child(e, &mut |x| visit_expr(x, fns, roots));
}

/// `let` slots that name a record of another local (records are shared, not copied).
fn record_aliases(stmts: &[ir::Stmt], out: &mut Vec<(usize, usize)>) {
    for_each_stmt(stmts, &mut |s| {
        if let ir::Stmt::Let { slot, value, .. } = s {
            if let (Ty::Record(_), Some(root)) = (&value.ty, local_root(value)) {
                out.push((*slot, root));
            }
        }
    });
}
