//! What a function body does, found before generating it: which locals are read,
//! which are reassigned, which statements change state, which always return.

use crate::ir::{self, Expr, ExprKind as K, Place, PlaceStep, Stmt};

/// The local an expression reads through fields (`c` of `c.armor`), if any.
pub(super) fn root_local(e: &Expr) -> Option<usize> {
    match &e.kind {
        K::Local(s) => Some(*s),
        K::Field(r, _) | K::MapGet(r, _) => root_local(r),
        _ => None,
    }
}

pub(super) fn always_returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(stmt_returns)
}

pub(super) fn stmt_returns(s: &Stmt) -> bool {
    match s {
        Stmt::Return { .. } => true,
        Stmt::If {
            branches,
            otherwise: Some(o),
        } => branches.iter().all(|(_, b, _)| always_returns(b)) && always_returns(o),
        Stmt::Match { arms, .. } => {
            !arms.is_empty() && arms.iter().all(|a| always_returns(&a.body))
        }
        _ => false,
    }
}

pub(super) fn scan_stmt(s: &Stmt, read: &mut [bool], mutable: &mut [bool]) {
    match s {
        Stmt::ForRange { lo, hi, body, .. } => {
            scan_expr(lo, read, mutable);
            scan_expr(hi, read, mutable);
            for s in body {
                scan_stmt(s, read, mutable);
            }
        }
        Stmt::Let { value, .. } | Stmt::Expr(value) => scan_expr(value, read, mutable),
        Stmt::Assign { place, value, .. } => {
            scan_place(place, read, mutable);
            scan_expr(value, read, mutable);
        }
        Stmt::If {
            branches,
            otherwise,
        } => {
            for (c, b, _) in branches {
                scan_expr(c, read, mutable);
                b.iter().for_each(|s| scan_stmt(s, read, mutable));
            }
            otherwise
                .iter()
                .flatten()
                .for_each(|s| scan_stmt(s, read, mutable));
        }
        Stmt::Match { scrutinee, arms } => {
            scan_expr(scrutinee, read, mutable);
            arms.iter()
                .flat_map(|a| &a.body)
                .for_each(|s| scan_stmt(s, read, mutable));
        }
        Stmt::For { list, body, .. } => {
            scan_expr(list, read, mutable);
            body.iter().for_each(|s| scan_stmt(s, read, mutable));
        }
        Stmt::Return { value, .. } => value.iter().for_each(|v| scan_expr(v, read, mutable)),
    }
}

pub(super) fn scan_place(p: &Place, read: &mut [bool], mutable: &mut [bool]) {
    if p.path.is_empty() {
        mutable[p.root] = true;
    } else {
        read[p.root] = true;
    }
    for st in &p.path {
        if let PlaceStep::Key(k) = st {
            scan_expr(k, read, mutable);
        }
    }
}

pub(super) fn scan_expr(e: &Expr, read: &mut [bool], mutable: &mut [bool]) {
    match &e.kind {
        K::Local(s) => read[*s] = true,
        K::Fill { track, level, .. } => {
            scan_expr(level, read, mutable);
            scan_place(track, read, mutable);
            // A local track filled in place is also read by the fill.
            read[track.root] = true;
        }
        _ => crate::check::for_each_child(e, &mut |x| scan_expr(x, read, mutable)),
    }
}

pub(super) fn mark_lets(stmts: &[Stmt], lets: &mut [bool]) {
    for s in stmts {
        match s {
            Stmt::Let { slot, .. } => lets[*slot] = true,
            Stmt::If {
                branches,
                otherwise,
            } => {
                branches.iter().for_each(|(_, b, _)| mark_lets(b, lets));
                if let Some(o) = otherwise {
                    mark_lets(o, lets);
                }
            }
            Stmt::Match { arms, .. } => arms.iter().for_each(|a| mark_lets(&a.body, lets)),
            Stmt::For { body, .. } => mark_lets(body, lets),
            _ => {}
        }
    }
}

pub(super) fn uses_slot(e: &Expr, slot: usize) -> bool {
    let mut found = false;
    pub(super) fn go(e: &Expr, slot: usize, found: &mut bool) {
        if let K::Local(s) = e.kind {
            if s == slot {
                *found = true;
            }
        }
        if let K::Fill { track, .. } = &e.kind {
            if track.root == slot {
                *found = true;
            }
        }
        crate::check::for_each_child(e, &mut |x| go(x, slot, found));
    }
    go(e, slot, &mut found);
    found
}

/// Whether running `e` may change a record or track (a fill, a procedure call).
pub(super) fn expr_mutates(e: &Expr, fns: &[ir::Function]) -> bool {
    let mut found = false;
    pub(super) fn go(e: &Expr, fns: &[ir::Function], found: &mut bool) {
        match &e.kind {
            K::Fill { .. } => *found = true,
            K::Call(f, _) if fns[*f].is_procedure() => *found = true,
            _ => {}
        }
        crate::check::for_each_child(e, &mut |x| go(x, fns, found));
    }
    go(e, fns, &mut found);
    found
}

pub(super) fn stmts_mutate(stmts: &[Stmt], fns: &[ir::Function]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::ForRange { lo, hi, body, .. } => expr_mutates(lo, fns) || expr_mutates(hi, fns) || stmts_mutate(body, fns),
        Stmt::Let { value, .. } | Stmt::Expr(value) => expr_mutates(value, fns),
        Stmt::Assign { place, value, .. } => !place.path.is_empty() || expr_mutates(value, fns),
        Stmt::If {
            branches,
            otherwise,
        } => {
            branches
                .iter()
                .any(|(c, b, _)| expr_mutates(c, fns) || stmts_mutate(b, fns))
                || otherwise.as_ref().is_some_and(|o| stmts_mutate(o, fns))
        }
        Stmt::Match { scrutinee, arms } => {
            expr_mutates(scrutinee, fns) || arms.iter().any(|a| stmts_mutate(&a.body, fns))
        }
        Stmt::For { list, body, .. } => expr_mutates(list, fns) || stmts_mutate(body, fns),
        Stmt::Return { value, .. } => value.as_ref().is_some_and(|v| expr_mutates(v, fns)),
    })
}
