//! What a function body does, found before generating it: which locals are read,
//! which are reassigned, which statements change state, which always return.

pub(super) use crate::ir::places::{
    changed_roots, field_path, record_aliases, resolve, root_local,
};
pub(super) use crate::ir::walk::{always_returns, stmt_returns};
use crate::ir::walk::{for_each_child, for_each_stmt, for_each_stmt_child, Child};
use crate::ir::{self, Expr, ExprKind as K, Place, PlaceStep, Stmt};

/// The local an expression reads and the steps under it: `Some(field)`, or `None` for
/// a map key or list index (any element).
pub(super) fn access_path(e: &Expr) -> Option<(usize, Vec<Option<usize>>)> {
    match &e.kind {
        K::Local(s) => Some((*s, Vec::new())),
        K::Field(r, i) => {
            let (root, mut steps) = access_path(r)?;
            steps.push(Some(*i));
            Some((root, steps))
        }
        K::MapGet(r, _) | K::ListGet(r, ..) => {
            let (root, mut steps) = access_path(r)?;
            steps.push(None);
            Some((root, steps))
        }
        _ => None,
    }
}

/// The state a value that is read in place (not built) may be part of: its path under a
/// local, or, for a choice among values, every candidate's (`decide .. from c.armor`,
/// `if .. then c.main else c.spare`). Empty for a value built anew.
pub(super) fn ref_paths(e: &Expr, out: &mut Vec<(usize, Vec<Option<usize>>)>) {
    if let Some(p) = access_path(e) {
        out.push(p);
        return;
    }
    let start = out.len();
    match &e.kind {
        K::Field(r, i) => {
            ref_paths(r, out);
            out[start..].iter_mut().for_each(|(_, s)| s.push(Some(*i)));
        }
        K::ListGet(r, ..) | K::MapGet(r, _) => {
            ref_paths(r, out);
            out[start..].iter_mut().for_each(|(_, s)| s.push(None));
        }
        K::Decide {
            options: ir::DecideOptions::List(l),
            ..
        } => {
            ref_paths(l, out);
            out[start..].iter_mut().for_each(|(_, s)| s.push(None));
        }
        K::If(_, a, b) => {
            ref_paths(a, out);
            ref_paths(b, out);
        }
        _ => {}
    }
}

/// Whether two paths under one local may reach the same value (one holds the other).
fn paths_meet(a: &[Option<usize>], b: &[Option<usize>]) -> bool {
    a.iter().zip(b).all(|(x, y)| match (x, y) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    })
}

fn place_steps(p: &Place) -> Vec<Option<usize>> {
    p.path
        .iter()
        .map(|st| match st {
            PlaceStep::Field(i) => Some(*i),
            PlaceStep::Key(_) | PlaceStep::Index(_) => None,
        })
        .collect()
}

/// Whether statements may change the value at `steps` under local `root` (or a value
/// holding it, or one inside it): an assignment or fill through it, a procedure that
/// changes it, or (for a local) a new value for the local itself.
pub(super) fn may_change(
    stmts: &[Stmt],
    fns: &[ir::Function],
    alias: &[Option<usize>],
    root: usize,
    steps: &[Option<usize>],
) -> bool {
    fn expr(
        e: &Expr,
        fns: &[ir::Function],
        alias: &[Option<usize>],
        root: usize,
        steps: &[Option<usize>],
        found: &mut bool,
    ) {
        match &e.kind {
            K::Fill { track, .. }
                if resolve(alias, track.root) == root && paths_meet(&place_steps(track), steps) =>
            {
                *found = true;
            }
            K::Call(f, args) if fns[*f].is_procedure() => {
                for (a, p) in args.iter().zip(&fns[*f].params) {
                    if !p.mutated {
                        continue;
                    }
                    if let Some((r, s)) = access_path(a) {
                        if resolve(alias, r) == root && paths_meet(&s, steps) {
                            *found = true;
                        }
                    }
                }
            }
            _ => {}
        }
        for_each_child(e, &mut |x| expr(x, fns, alias, root, steps, found));
    }
    let mut found = false;
    for s in stmts {
        if let Stmt::Assign { place, .. } = s {
            if resolve(alias, place.root) == root && paths_meet(&place_steps(place), steps) {
                found = true;
            }
        }
        for_each_stmt_child(s, &mut |c| match c {
            Child::Expr(x) => expr(x, fns, alias, root, steps, &mut found),
            Child::Block(b) => found |= may_change(b, fns, alias, root, steps),
        });
        if found {
            return true;
        }
    }
    found
}

/// Whether a `for` loop among these statements gives its variable new values.
pub(super) fn loop_var_reassigned(stmts: &[Stmt], mutable: &[bool]) -> bool {
    let mut found = false;
    for_each_stmt(stmts, &mut |s| {
        if let Stmt::For { var, .. } | Stmt::ForRange { var, .. } = s {
            found |= mutable[*var];
        }
    });
    found
}

/// Whether statements give local `slot` a new value (`x = e`, `x += [e]`).
pub(super) fn assigns_local(stmts: &[Stmt], slot: usize) -> bool {
    let mut found = false;
    for_each_stmt(stmts, &mut |s| {
        if let Stmt::Assign { place, .. } = s {
            found |= place.root == slot && place.path.is_empty();
        }
    });
    found
}

pub(super) fn scan_stmt(s: &Stmt, read: &mut [bool], mutable: &mut [bool]) {
    if let Stmt::Assign { place, .. } = s {
        scan_place(place, read, mutable);
    }
    for_each_stmt_child(s, &mut |c| match c {
        Child::Expr(x) => scan_expr(x, read, mutable),
        Child::Block(b) => reachable(b)
            .iter()
            .for_each(|s| scan_stmt(s, read, mutable)),
    });
}

/// The statements of a block that can run: up to the first that always returns (the
/// rest is not generated).
pub(super) fn reachable(stmts: &[Stmt]) -> &[Stmt] {
    let end = stmts
        .iter()
        .position(stmt_returns)
        .map_or(stmts.len(), |i| i + 1);
    &stmts[..end]
}

pub(super) fn scan_place(p: &Place, read: &mut [bool], mutable: &mut [bool]) {
    if p.path.is_empty() {
        mutable[p.root] = true;
    } else {
        read[p.root] = true;
    }
    for st in &p.path {
        if let PlaceStep::Key(k) | PlaceStep::Index(k) = st {
            scan_expr(k, read, mutable);
        }
    }
}

pub(super) fn scan_expr(e: &Expr, read: &mut [bool], mutable: &mut [bool]) {
    match &e.kind {
        K::Local(s) => read[*s] = true,
        // The element a list operation picks is its loop variable's value.
        K::Find { var, .. } | K::Sort { var, .. } | K::Best { var, .. } => {
            read[*var] = true;
            for_each_child(e, &mut |x| scan_expr(x, read, mutable));
        }
        K::Faces { of, slot, .. } => {
            read[*slot] = true;
            // A local roll's own value is not read: its dice are.
            if !matches!(of.kind, K::Local(_)) {
                scan_expr(of, read, mutable);
            }
        }
        K::Fill { track, level, .. } => {
            scan_expr(level, read, mutable);
            scan_place(track, read, mutable);
            // A local track filled in place is also read by the fill.
            read[track.root] = true;
        }
        _ => for_each_child(e, &mut |x| scan_expr(x, read, mutable)),
    }
}

/// Marks the `let` locals passed whole to a procedure that changes that parameter
/// (`let board = Board(..)` then `drop_item(board)`): they are owned and `mut`, and the
/// callee changes them in place, as the interpreter's callee changes the local's value.
/// A `let` naming another local (`let me = c`) is that record itself, not a copy, and
/// is left alone.
pub(super) fn mark_passed_to_change(
    func: &ir::Function,
    fns: &[ir::Function],
    mutable: &mut [bool],
) {
    let mut lets = vec![false; mutable.len()];
    if let ir::Body::Procedure(stmts) = &func.body {
        for_each_stmt(stmts, &mut |s| {
            if let Stmt::Let { slot, value, .. } = s {
                lets[*slot] = !matches!(value.kind, K::Local(_));
            }
        });
    }
    let lets = &lets;
    fn go(e: &Expr, fns: &[ir::Function], lets: &[bool], nparams: usize, out: &mut [bool]) {
        if let K::Call(fid, args) = &e.kind {
            for (a, p) in args.iter().zip(&fns[*fid].params) {
                if let K::Local(s) = a.kind {
                    let record = matches!(p.ty, ir::Ty::Record(_));
                    if p.mutated && record && s >= nparams && lets.get(s) == Some(&true) {
                        out[s] = true;
                    }
                }
            }
        }
        for_each_child(e, &mut |x| go(x, fns, lets, nparams, out));
    }
    let nparams = func.params.len();
    crate::ir::walk::for_each_body_expr(func, &mut |e| go(e, fns, lets, nparams, mutable));
}

pub(super) fn mark_lets(stmts: &[Stmt], lets: &mut [bool]) {
    for_each_stmt(stmts, &mut |s| {
        if let Stmt::Let { slot, .. } = s {
            lets[*slot] = true;
        }
    });
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
        for_each_child(e, &mut |x| go(x, slot, found));
    }
    go(e, slot, &mut found);
    found
}

/// Whether running `e` may change a record or track (a fill, a procedure call).
pub(super) fn expr_mutates(e: &Expr, fns: &[ir::Function]) -> bool {
    let mut found = false;
    pub(super) fn go(e: &Expr, fns: &[ir::Function], found: &mut bool) {
        match &e.kind {
            K::Fill { .. } | K::Fight(ir::FightQuery::MarkActed, _) => *found = true,
            K::Call(f, _) if fns[*f].is_procedure() => *found = true,
            _ => {}
        }
        for_each_child(e, &mut |x| go(x, fns, found));
    }
    go(e, fns, &mut found);
    found
}

pub(super) fn stmts_mutate(stmts: &[Stmt], fns: &[ir::Function]) -> bool {
    let mut found = false;
    for_each_stmt(stmts, &mut |s| {
        match s {
            Stmt::Assign { place, .. } => found |= !place.path.is_empty(),
            // Timers and time may run any procedure.
            Stmt::Schedule { .. } | Stmt::Advance { .. } => found = true,
            _ => {}
        }
        for_each_stmt_child(s, &mut |c| {
            if let Child::Expr(x) = c {
                found |= expr_mutates(x, fns);
            }
        });
    });
    found
}
