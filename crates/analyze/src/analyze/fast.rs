//! Straight-line pieces of a procedure that the merged engine runs whole from each state,
//! per roll path, without building a state per path ("fast segments").
//!
//! A statement is fast when it is a `let` or an assignment of a plain value (an int,
//! bool, roll or level) to a local, an `if` of fast statements, or a `return`; its
//! expressions are integer and boolean arithmetic, comparisons, levels, rolls of constant
//! dice, and any other expression that neither rolls nor decides nor changes anything.
//! Anything else (a record changed, a call, a decision, a loop, a table roll) is left to
//! the engine's statement-by-statement path.
//!
//! This module decides which statements are fast ([`stmt`]) and what a run of them reads,
//! writes and rolls, by reading the checked IR: it builds nothing and evaluates nothing.
//! The engine runs a segment on the VM, its statements lowered together: path by path
//! (`engine/segment.rs`), or, when it rolls once, over all the roll's outcomes at once
//! (`engine/lanes`). Whatever ends
//! in a rule error (a division by zero, an expression that fails) gives up on the fast
//! path ([`Bail::Slow`]) and the engine runs that state the ordinary way, so errors are
//! reported exactly as before. The engine's tests hold every path to the same fractions on
//! every shipped scenario.
//!
//! Within a fast expression, a node is read by its own rule here ([`own`]: arithmetic,
//! logic, comparisons, levels, constant rolls, outcomes of plain fields, locals and their
//! fields) or is *opaque*: a subexpression the VM runs with the rest that neither rolls,
//! decides, changes state nor reads the running fight ([`opaque`]), and whose every local
//! counts as read whole.

use super::Stop;
use crate::ir::walk::{for_each_stmt_child, Child};
use crate::ir::{AssignOp, Const, Expr, ExprKind as K, Stmt, Ty};
use std::collections::HashMap;

/// Why a fast path stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bail {
    /// Something only the interpreter reports exactly (a rule error): run this state the
    /// ordinary way.
    Slow,
    /// A limit of the analysis.
    Stop(Stop),
}

pub type Fast<T> = Result<T, Bail>;

/// Types whose values are plain (no record, list or map inside).
fn plain(t: &Ty) -> bool {
    matches!(t, Ty::Int | Ty::Bool | Ty::Roll | Ty::Choice(_))
}

/// Whether `s` is fast.
pub fn stmt(s: &Stmt) -> bool {
    match s {
        Stmt::Let { value, .. } => plain(&value.ty) && expr(value),
        Stmt::Assign { place, value, .. } => {
            place.path.is_empty() && plain(&place.ty) && plain(&value.ty) && expr(value)
        }
        Stmt::If {
            branches,
            otherwise,
        } => {
            branches
                .iter()
                .all(|(c, b, _)| expr(c) && b.iter().all(stmt))
                && otherwise.iter().flatten().all(stmt)
        }
        Stmt::Return { value, .. } => value.as_ref().is_none_or(expr),
        _ => false,
    }
}

/// Whether `e` is read by its own rule on the fast path (its children then fast in
/// turn), not run whole as an opaque subexpression.
fn own(e: &Expr) -> bool {
    match &e.kind {
        K::Const(Const::Int(_) | Const::Bool(_) | Const::Choice(_)) | K::Local(_) => true,
        // A path of fields read from a local record (`attacker.skill`).
        K::Field(..) => matches!(field_root(e).kind, K::Local(_)),
        K::Neg(_)
        | K::Int(..)
        | K::CheckedDiv(..)
        | K::Compare(..)
        | K::And(..)
        | K::Or(..)
        | K::Not(_)
        | K::ToInt(_)
        | K::Natural(_)
        | K::Min(_)
        | K::Max(_)
        | K::Clamp(..)
        | K::Abs(_)
        | K::If(..)
        | K::RollAdd { .. }
        | K::LevelStep { .. } => true,
        K::Roll {
            dice, faces: None, ..
        } => matches!(dice.kind, K::Const(Const::Dice(_))),
        K::MakeOutcome { fields, .. } => fields.iter().all(|x| plain(&x.ty)),
        _ => false,
    }
}

/// What a path of fields is read from.
fn field_root(e: &Expr) -> &Expr {
    let mut at = e;
    while let K::Field(r, _) = &at.kind {
        at = r;
    }
    at
}

/// Whether `e` is fast: read by its own rule with fast children, or opaque.
pub fn expr(e: &Expr) -> bool {
    match &e.kind {
        K::Field(..) if own(e) => true,
        K::Roll { .. } => own(e),
        _ if own(e) => {
            let mut ok = true;
            crate::ir::walk::for_each_child(e, &mut |c| ok = ok && expr(c));
            ok
        }
        _ => opaque(e),
    }
}

/// Whether the VM can run `e` whole on the fast path: evaluating it can neither roll,
/// decide, change state nor read the running fight.
fn opaque(e: &Expr) -> bool {
    let mut ok = true;
    super::plan::walk_all(e, &mut |x| {
        ok &= !matches!(
            x.kind,
            K::Roll { .. }
                | K::RollTable { .. }
                | K::Decide { .. }
                | K::Fill { .. }
                | K::Call(..)
                | K::Fight(..)
                | K::Combatant(_)
                | K::Faces { .. }
        )
    });
    ok
}

/// Calls `f` on each expression of a fast statement, nested blocks included, in order.
fn each_expr<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    for_each_stmt_child(s, &mut |c| match c {
        Child::Expr(e) => f(e),
        Child::Block(b) => b.iter().for_each(|s| each_expr(s, f)),
    });
}

/// Whether a fast statement rolls.
pub fn rolls(s: &Stmt) -> bool {
    let mut r = false;
    each_expr(s, &mut |e| {
        super::plan::walk_all(e, &mut |x| r |= matches!(x.kind, K::Roll { .. }))
    });
    r
}

/// Every local a fast statement writes, nested blocks included.
pub fn writes(s: &Stmt, out: &mut Vec<usize>) {
    match s {
        Stmt::Let { slot, .. } => out.push(*slot),
        Stmt::Assign { place, .. } => out.push(place.root),
        _ => for_each_stmt_child(s, &mut |c| {
            if let Child::Block(b) = c {
                b.iter().for_each(|x| writes(x, out));
            }
        }),
    }
}

/// The locals that fast statements read only as numbers (every use of them is `int()`
/// of their value: operands of arithmetic and comparisons), and are not written: the
/// statements give the same results for any two values with the same number (a roll's
/// natural face, for one, does not matter to them).
pub fn int_only(stmts: &[Stmt]) -> Vec<usize> {
    let mut uses: HashMap<usize, bool> = HashMap::new();
    stmts.iter().for_each(|s| stmt_uses(s, &mut uses));
    let mut out: Vec<usize> = uses.into_iter().filter(|u| u.1).map(|u| u.0).collect();
    out.sort_unstable();
    out
}

fn stmt_uses(s: &Stmt, uses: &mut HashMap<usize, bool>) {
    match s {
        Stmt::Let { slot, value, .. } => {
            uses.insert(*slot, false);
            uses_of(value, false, uses);
        }
        Stmt::Assign {
            place, op, value, ..
        } => {
            uses.insert(place.root, false);
            uses_of(value, *op != AssignOp::Set, uses);
        }
        _ => for_each_stmt_child(s, &mut |c| match c {
            Child::Expr(e) => uses_of(e, false, uses),
            Child::Block(b) => b.iter().for_each(|x| stmt_uses(x, uses)),
        }),
    }
}

/// Records each local `e` reads, and whether only as a number (`int`: `e` itself is read
/// with `int()`).
fn uses_of(e: &Expr, int: bool, uses: &mut HashMap<usize, bool>) {
    let all = |xs: &[&Expr], int: bool, uses: &mut HashMap<usize, bool>| {
        xs.iter().for_each(|x| uses_of(x, int, uses))
    };
    if !own(e) {
        // Opaque: every local in it is read whole.
        super::plan::walk_all(e, &mut |x| {
            if let K::Local(s) = x.kind {
                uses.insert(s, false);
            }
        });
        return;
    }
    match &e.kind {
        K::Local(s) => *uses.entry(*s).or_insert(true) &= int,
        K::Field(..) => {
            if let K::Local(s) = field_root(e).kind {
                uses.insert(s, false);
            }
        }
        K::Neg(a) | K::ToInt(a) | K::Abs(a) => all(&[a], true, uses),
        K::Int(_, a, b) | K::CheckedDiv(_, a, b, _) | K::Compare(_, a, b) => {
            all(&[a, b], true, uses)
        }
        K::And(a, b) | K::Or(a, b) => all(&[a, b], false, uses),
        K::Not(a) | K::Natural(a) => all(&[a], false, uses),
        K::Min(xs) | K::Max(xs) => all(&xs.iter().collect::<Vec<_>>(), true, uses),
        K::Clamp(x, lo, hi) => all(&[x, lo, hi], true, uses),
        K::If(c, a, b) => all(&[c, a, b], false, uses),
        K::RollAdd { roll, delta, .. } => {
            all(&[roll], false, uses);
            all(&[delta], true, uses);
        }
        K::LevelStep { level, delta, .. } => {
            all(&[level], false, uses);
            all(&[delta], true, uses);
        }
        K::MakeOutcome { fields, .. } => all(&fields.iter().collect::<Vec<_>>(), false, uses),
        // Constants and constant rolls read no local.
        _ => {}
    }
}

/// Whether statements can run over lanes (`engine/lanes`): they roll once, in the
/// first statement, where every path evaluates it (not inside a branch, a conditional
/// expression's arm or the right of `and`/`or`), and make outcomes only where they
/// return them.
pub fn one_roll(stmts: &[Stmt]) -> bool {
    let (mut all, mut sure) = (0, 0);
    for s in stmts {
        if !stmt_scan(s, &mut all) {
            return false;
        }
    }
    match stmts.first() {
        Some(Stmt::Let { value: e, .. } | Stmt::Assign { value: e, .. })
        | Some(Stmt::Return { value: Some(e), .. }) => sure_rolls(e, &mut sure),
        Some(Stmt::If { branches, .. }) => {
            if let Some((c, _, _)) = branches.first() {
                sure_rolls(c, &mut sure)
            }
        }
        _ => {}
    }
    all == 1 && sure == 1
}

/// Counts the rolls of `s` into `n`; false when it makes an outcome that it does not
/// return directly.
fn stmt_scan(s: &Stmt, n: &mut u32) -> bool {
    match s {
        Stmt::Return {
            value:
                Some(
                    e @ Expr {
                        kind: K::MakeOutcome { fields, .. },
                        ..
                    },
                ),
            ..
        } if own(e) => fields.iter().all(|f| expr_scan(f, n)),
        _ => {
            let mut ok = true;
            for_each_stmt_child(s, &mut |c| {
                ok = ok
                    && match c {
                        Child::Expr(e) => expr_scan(e, n),
                        Child::Block(b) => b.iter().all(|x| stmt_scan(x, n)),
                    }
            });
            ok
        }
    }
}

/// Counts the rolls of `e` read by their own rule into `n`; false when it makes an
/// outcome by its own rule (an opaque subexpression neither rolls nor is looked into).
fn expr_scan(e: &Expr, n: &mut u32) -> bool {
    match &e.kind {
        _ if !own(e) => true,
        K::Roll { .. } => {
            *n += 1;
            true
        }
        K::MakeOutcome { .. } => false,
        _ => {
            let mut ok = true;
            crate::ir::walk::for_each_child(e, &mut |c| ok = ok && expr_scan(c, n));
            ok
        }
    }
}

/// Counts the rolls of `e` that every evaluation of `e` makes.
fn sure_rolls(e: &Expr, n: &mut u32) {
    match &e.kind {
        _ if !own(e) => {}
        K::Roll { .. } => *n += 1,
        // The right of `and`/`or` and a conditional's arms are not always evaluated.
        K::And(a, _) | K::Or(a, _) | K::If(a, _, _) => sure_rolls(a, n),
        _ => crate::ir::walk::for_each_child(e, &mut |c| sure_rolls(c, n)),
    }
}
