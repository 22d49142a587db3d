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
//! This module decides which statements are fast ([`stmt`]) and what a run of them reads
//! and writes, off an [`F`] form of their expressions that nothing evaluates. The engine
//! runs a segment on the VM, its statements lowered together: path by path
//! (`engine/segment.rs`), or, when it rolls once, over all the roll's outcomes at once
//! (`engine/lanes`). Whatever ends
//! in a rule error (a division by zero, an expression that fails) gives up on the fast
//! path ([`Bail::Slow`]) and the engine runs that state the ordinary way, so errors are
//! reported exactly as before. The engine's tests hold every path to the same fractions on
//! every shipped scenario.

use super::Stop;
use crate::eval::Value;
use crate::ir::{AssignOp, CmpOp, Const, Expr, ExprKind as K, IntOp, Program, Stmt, Ty};
use rulesc_runtime::DiceSpec;

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

/// An expression compiled for the fast path.
#[derive(Debug, Clone)]
pub enum F {
    /// A constant int, bool or level.
    Val(Value),
    Local(usize),
    /// A field path read from a local record (`attacker.skill`).
    Field(usize, Vec<usize>),
    Neg(Box<F>),
    Int(IntOp, Box<F>, Box<F>),
    /// `a / b`, `a % b` where `b` may be 0 (a rule error: [`Bail::Slow`]).
    CheckedDiv(IntOp, Box<F>, Box<F>),
    Compare(CmpOp, Box<F>, Box<F>),
    And(Box<F>, Box<F>),
    Or(Box<F>, Box<F>),
    Not(Box<F>),
    ToInt(Box<F>),
    Natural(Box<F>),
    /// `min(..)` / `max(..)`, and whether the result is a level.
    MinMax(bool, Vec<F>, Ty),
    Clamp(Box<F>, Box<F>, Box<F>, Ty),
    Abs(Box<F>),
    If(Box<F>, Box<F>, Box<F>),
    Roll(DiceSpec, u32),
    RollAdd(Box<F>, Box<F>, bool),
    /// `level ± n` on a scale of `len` levels.
    LevelStep(Box<F>, Box<F>, bool, u8),
    /// `Tag(field: value, ..)`.
    Outcome(u16, Vec<F>),
    /// Anything else that neither rolls nor decides nor changes state (the VM runs it
    /// with the rest of the segment).
    Interp(Expr),
}

impl F {
    /// Whether `f` holds for every expression directly inside this one, asked in
    /// evaluation order and stopping at the first `false`.
    pub(super) fn all_children(&self, mut f: impl FnMut(&F) -> bool) -> bool {
        match self {
            F::Val(_) | F::Local(_) | F::Field(..) | F::Interp(..) | F::Roll(..) => true,
            F::Neg(a) | F::Not(a) | F::ToInt(a) | F::Natural(a) | F::Abs(a) => f(a),
            F::Int(_, a, b)
            | F::CheckedDiv(_, a, b)
            | F::Compare(_, a, b)
            | F::And(a, b)
            | F::Or(a, b)
            | F::RollAdd(a, b, _)
            | F::LevelStep(a, b, _, _) => f(a) && f(b),
            F::If(a, b, c) | F::Clamp(a, b, c, _) => f(a) && f(b) && f(c),
            F::MinMax(_, xs, _) | F::Outcome(_, xs) => xs.iter().all(f),
        }
    }
}

/// A statement compiled for the fast path.
#[derive(Debug, Clone)]
pub enum FStmt {
    /// `let slot = value`, `slot = value`, `slot += value`, `slot -= value`.
    Set(usize, AssignOp, F),
    If(Vec<(F, Vec<FStmt>)>, Option<Vec<FStmt>>),
    Return(Option<F>),
}

/// Types whose values are plain (no record, list or map inside).
fn plain(t: &Ty) -> bool {
    matches!(t, Ty::Int | Ty::Bool | Ty::Roll | Ty::Choice(_))
}

/// `s` compiled for the fast path, if it is fast.
pub fn stmt(p: &Program, s: &Stmt) -> Option<FStmt> {
    Some(match s {
        Stmt::Let { slot, value, .. } if plain(&value.ty) => {
            FStmt::Set(*slot, AssignOp::Set, expr(p, value)?)
        }
        Stmt::Assign {
            place, op, value, ..
        } if place.path.is_empty() && plain(&place.ty) && plain(&value.ty) => {
            FStmt::Set(place.root, *op, expr(p, value)?)
        }
        Stmt::If {
            branches,
            otherwise,
        } => FStmt::If(
            branches
                .iter()
                .map(|(c, b, _)| Some((expr(p, c)?, block(p, b)?)))
                .collect::<Option<_>>()?,
            match otherwise {
                Some(o) => Some(block(p, o)?),
                None => None,
            },
        ),
        Stmt::Return { value, .. } => FStmt::Return(match value {
            Some(v) => Some(expr(p, v)?),
            None => None,
        }),
        _ => return None,
    })
}

fn block(p: &Program, stmts: &[Stmt]) -> Option<Vec<FStmt>> {
    stmts.iter().map(|s| stmt(p, s)).collect()
}

/// Whether a fast statement rolls.
pub fn rolls(s: &FStmt) -> bool {
    match s {
        FStmt::Set(_, _, e) | FStmt::Return(Some(e)) => expr_rolls(e),
        FStmt::Return(None) => false,
        FStmt::If(branches, otherwise) => {
            branches
                .iter()
                .any(|(c, b)| expr_rolls(c) || b.iter().any(rolls))
                || otherwise.iter().flatten().any(rolls)
        }
    }
}

fn expr_rolls(e: &F) -> bool {
    matches!(e, F::Roll(..)) || !e.all_children(|x| !expr_rolls(x))
}

/// Every local a fast statement writes, nested blocks included.
pub fn writes(s: &FStmt, out: &mut Vec<usize>) {
    match s {
        FStmt::Set(slot, ..) => out.push(*slot),
        FStmt::Return(_) => {}
        FStmt::If(branches, otherwise) => {
            for b in branches.iter().map(|(_, b)| b).chain(otherwise) {
                b.iter().for_each(|x| writes(x, out));
            }
        }
    }
}

/// The locals that fast statements read only as numbers (every use of them is `int()`
/// of their value: operands of arithmetic and comparisons), and are not written: the
/// statements give the same results for any two values with the same number (a roll's
/// natural face, for one, does not matter to them).
pub fn int_only(stmts: &[FStmt]) -> Vec<usize> {
    let mut uses: std::collections::HashMap<usize, bool> = std::collections::HashMap::new();
    stmts.iter().for_each(|s| stmt_uses(s, &mut uses));
    let mut out: Vec<usize> = uses.into_iter().filter(|u| u.1).map(|u| u.0).collect();
    out.sort_unstable();
    out
}

fn stmt_uses(s: &FStmt, uses: &mut std::collections::HashMap<usize, bool>) {
    match s {
        FStmt::Set(slot, op, e) => {
            uses.insert(*slot, false);
            uses_of(e, *op != AssignOp::Set, uses);
        }
        FStmt::If(branches, otherwise) => {
            for (c, b) in branches {
                uses_of(c, false, uses);
                b.iter().for_each(|x| stmt_uses(x, uses));
            }
            otherwise.iter().flatten().for_each(|x| stmt_uses(x, uses));
        }
        FStmt::Return(Some(e)) => uses_of(e, false, uses),
        FStmt::Return(None) => {}
    }
}

/// Records each local `e` reads, and whether only as a number (`int`: `e` itself is read
/// with `int()`).
fn uses_of(e: &F, int: bool, uses: &mut std::collections::HashMap<usize, bool>) {
    let full = |s: usize, u: &mut std::collections::HashMap<usize, bool>| {
        u.insert(s, false);
    };
    match e {
        F::Local(s) => {
            let u = uses.entry(*s).or_insert(true);
            *u &= int;
        }
        F::Field(s, _) => full(*s, uses),
        F::Val(_) | F::Roll(..) => {}
        F::Neg(a) | F::ToInt(a) | F::Abs(a) => uses_of(a, true, uses),
        F::Int(_, a, b) | F::CheckedDiv(_, a, b) | F::Compare(_, a, b) => {
            uses_of(a, true, uses);
            uses_of(b, true, uses);
        }
        F::And(a, b) | F::Or(a, b) => {
            uses_of(a, false, uses);
            uses_of(b, false, uses);
        }
        F::Not(a) | F::Natural(a) => uses_of(a, false, uses),
        F::MinMax(_, xs, _) => xs.iter().for_each(|x| uses_of(x, true, uses)),
        F::Clamp(a, b, c, _) => [a, b, c].iter().for_each(|x| uses_of(x, true, uses)),
        F::If(c, a, b) => [c, a, b].iter().for_each(|x| uses_of(x, false, uses)),
        F::RollAdd(a, d, _) | F::LevelStep(a, d, _, _) => {
            uses_of(a, false, uses);
            uses_of(d, true, uses);
        }
        F::Outcome(_, xs) => xs.iter().for_each(|x| uses_of(x, false, uses)),
        F::Interp(e) => super::plan::walk_all(e, &mut |x| {
            if let K::Local(s) = x.kind {
                full(s, uses);
            }
        }),
    }
}

fn bx(p: &Program, e: &Expr) -> Option<Box<F>> {
    expr(p, e).map(Box::new)
}

/// `e` compiled for the fast path, if it can be.
pub fn expr(p: &Program, e: &Expr) -> Option<F> {
    Some(match &e.kind {
        K::Const(c @ (Const::Int(_) | Const::Bool(_) | Const::Choice(_))) => {
            F::Val(Value::from_const(c))
        }
        K::Local(s) => F::Local(*s),
        K::Field(..) => {
            let mut path = Vec::new();
            let mut at = e;
            while let K::Field(r, i) = &at.kind {
                path.push(*i);
                at = r;
            }
            match at.kind {
                K::Local(s) => {
                    path.reverse();
                    F::Field(s, path)
                }
                _ => interp(e)?,
            }
        }
        K::Neg(a) => F::Neg(bx(p, a)?),
        K::Int(op, a, b) => F::Int(*op, bx(p, a)?, bx(p, b)?),
        K::CheckedDiv(op, a, b, _) => F::CheckedDiv(*op, bx(p, a)?, bx(p, b)?),
        K::Compare(op, a, b) => F::Compare(*op, bx(p, a)?, bx(p, b)?),
        K::And(a, b) => F::And(bx(p, a)?, bx(p, b)?),
        K::Or(a, b) => F::Or(bx(p, a)?, bx(p, b)?),
        K::Not(a) => F::Not(bx(p, a)?),
        K::ToInt(a) => F::ToInt(bx(p, a)?),
        K::Natural(a) => F::Natural(bx(p, a)?),
        K::Min(xs) | K::Max(xs) => F::MinMax(
            matches!(e.kind, K::Max(_)),
            xs.iter().map(|x| expr(p, x)).collect::<Option<_>>()?,
            e.ty.clone(),
        ),
        K::Clamp(x, lo, hi) => F::Clamp(bx(p, x)?, bx(p, lo)?, bx(p, hi)?, e.ty.clone()),
        K::Abs(a) => F::Abs(bx(p, a)?),
        K::If(c, a, b) => F::If(bx(p, c)?, bx(p, a)?, bx(p, b)?),
        K::Roll {
            dice,
            site,
            faces: None,
        } => match &dice.kind {
            K::Const(Const::Dice(spec)) => F::Roll(*spec, *site),
            _ => return None,
        },
        K::RollAdd {
            roll,
            delta,
            negate,
        } => F::RollAdd(bx(p, roll)?, bx(p, delta)?, *negate),
        K::LevelStep {
            level,
            delta,
            negate,
        } => {
            // A level stepped is a level of its scale (the checker's type rule).
            let Ty::Choice(c) = &e.ty else {
                unreachable!("`level ± n` has the level's type")
            };
            let len = p.choices[*c].variants.len();
            F::LevelStep(bx(p, level)?, bx(p, delta)?, *negate, len.min(255) as u8)
        }
        K::MakeOutcome { tag, fields, .. } if fields.iter().all(|x| plain(&x.ty)) => F::Outcome(
            *tag,
            fields.iter().map(|x| expr(p, x)).collect::<Option<_>>()?,
        ),
        _ => interp(e)?,
    })
}

/// `e` for the interpreter, if evaluating it can neither roll, decide, change state nor
/// read the running fight.
fn interp(e: &Expr) -> Option<F> {
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
    ok.then(|| F::Interp(e.clone()))
}

/// Whether statements can run over lanes (`engine/lanes`): they roll once, in the
/// first statement, where every path evaluates it (not inside a branch, a conditional
/// expression's arm or the right of `and`/`or`), and make outcomes only where they
/// return them.
pub fn one_roll(stmts: &[FStmt]) -> bool {
    let (mut all, mut sure) = (0, 0);
    for s in stmts {
        if !stmt_scan(s, &mut all) {
            return false;
        }
    }
    match stmts.first() {
        Some(FStmt::Set(_, _, e) | FStmt::Return(Some(e))) => sure_rolls(e, &mut sure),
        Some(FStmt::If(branches, _)) => {
            if let Some((c, _)) = branches.first() {
                sure_rolls(c, &mut sure)
            }
        }
        _ => {}
    }
    all == 1 && sure == 1
}

/// Counts the rolls of `s` into `n`; false when it makes an outcome that it does not
/// return directly.
fn stmt_scan(s: &FStmt, n: &mut u32) -> bool {
    match s {
        FStmt::Return(Some(F::Outcome(_, fields))) => fields.iter().all(|f| expr_scan(f, n)),
        FStmt::Set(_, _, e) | FStmt::Return(Some(e)) => expr_scan(e, n),
        FStmt::Return(None) => true,
        FStmt::If(branches, otherwise) => {
            branches
                .iter()
                .all(|(c, b)| expr_scan(c, n) && b.iter().all(|x| stmt_scan(x, n)))
                && otherwise.iter().flatten().all(|x| stmt_scan(x, n))
        }
    }
}

fn expr_scan(e: &F, n: &mut u32) -> bool {
    match e {
        F::Roll(..) => {
            *n += 1;
            true
        }
        F::Outcome(..) => false,
        _ => e.all_children(|x| expr_scan(x, n)),
    }
}

/// Counts the rolls of `e` that every evaluation of `e` makes.
fn sure_rolls(e: &F, n: &mut u32) {
    match e {
        F::Roll(..) => *n += 1,
        // The right of `and`/`or` and a conditional's arms are not always evaluated.
        F::And(a, _) | F::Or(a, _) | F::If(a, _, _) => sure_rolls(a, n),
        _ => {
            e.all_children(|x| {
                sure_rolls(x, n);
                true
            });
        }
    }
}
