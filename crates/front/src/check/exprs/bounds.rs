//! What the checker knows of a number before running: the values an expression can take
//! (a constant, a roll of fixed dice, a natural face, an `int(lo..hi)` field, and sums
//! and clamps of those), and how long a list is (a literal, a constant, a roll's faces).
//! A table key or list index that is known to fall outside the table or list is a
//! compile-time error (`E0332`), not a rule error waiting for the dice to show it.

use super::mk;
use crate::check::Checker;
use crate::ir::{self, walk, AssignOp, Const, ExprKind as K, FacesPart, IntOp, Stmt, Ty};
use rulesc_runtime::{DiceSpec, Keep};

/// Every value of the expression lies in `lo..=hi`; with `exact`, every one of them can
/// occur (so a key among them that the table lacks will be met).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lo: i64,
    pub hi: i64,
    pub exact: bool,
}

impl Bounds {
    fn exact(lo: i64, hi: i64) -> Bounds {
        Bounds {
            lo,
            hi,
            exact: true,
        }
    }

    fn shift(self, by: i64) -> Bounds {
        Bounds {
            lo: self.lo.saturating_add(by),
            hi: self.hi.saturating_add(by),
            exact: self.exact,
        }
    }

    /// `lo..hi` as a writer reads it: `7`, `7-8`.
    pub fn show(lo: i64, hi: i64) -> String {
        if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        }
    }
}

/// The dice a roll expression rolls, when they are fixed (and do not explode).
fn fixed_dice(e: &ir::Expr) -> Option<DiceSpec> {
    match &e.kind {
        K::Roll { dice, .. } => match &dice.kind {
            K::Const(Const::Dice(d)) if !d.explode && d.sides > 0 => Some(*d),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn bounds(c: &Checker, e: &ir::Expr) -> Option<Bounds> {
    bounds_in(c, e, &[])
}

/// [`bounds`], knowing the bounds of some locals (`known`, by slot).
fn bounds_in(c: &Checker, e: &ir::Expr, known: &[Option<Bounds>]) -> Option<Bounds> {
    let bounds = |c: &Checker, e: &ir::Expr| bounds_in(c, e, known);
    let offset =
        |c: &Checker, a: &ir::Expr, b: &ir::Expr, negate: bool| offset(c, a, b, negate, known);
    match &e.kind {
        K::Local(s) => known.get(*s).copied().flatten(),
        K::Const(Const::Int(v)) => Some(Bounds::exact(*v, *v)),
        K::Roll { .. } => {
            let (lo, hi) = fixed_dice(e)?.range();
            Some(Bounds::exact(lo, hi))
        }
        K::ToInt(x) => bounds(c, x),
        K::Natural(r) => {
            let d = fixed_dice(r)?;
            (d.count > 0).then(|| Bounds::exact(1, i64::from(d.sides)))
        }
        K::Neg(a) => {
            let b = bounds(c, a)?;
            Some(Bounds {
                lo: b.hi.saturating_neg(),
                hi: b.lo.saturating_neg(),
                exact: b.exact,
            })
        }
        K::RollAdd {
            roll,
            delta,
            negate,
        } => offset(c, roll, delta, *negate),
        K::Int(IntOp::Add, a, b) => offset(c, a, b, false),
        K::Int(IntOp::Sub, a, b) => offset(c, a, b, true),
        K::Clamp(x, lo, hi) if bounds(c, x).is_none() => match ends(c, e, known) {
            (Some(l), Some(h)) if l <= h => Some(Bounds {
                lo: l,
                hi: h,
                exact: false,
            }),
            _ => None,
        },
        K::Clamp(x, lo, hi) => {
            let (x, lo, hi) = (bounds(c, x)?, bounds(c, lo)?, bounds(c, hi)?);
            let (l, h) = (x.lo.max(lo.lo), x.hi.min(hi.hi));
            // Clamped to constants: the ends are met wherever `x` reaches past them.
            let exact = x.exact && lo.lo == lo.hi && hi.lo == hi.hi;
            (l <= h).then_some(Bounds {
                lo: l,
                hi: h,
                exact,
            })
        }
        K::Min(_) | K::Max(_) => match ends(c, e, known) {
            (Some(lo), Some(hi)) => Some(Bounds {
                lo,
                hi,
                exact: false,
            }),
            _ => None,
        },
        K::If(_, a, b) => {
            let (a, b) = (bounds(c, a)?, bounds(c, b)?);
            Some(Bounds {
                lo: a.lo.min(b.lo),
                hi: a.hi.max(b.hi),
                exact: false,
            })
        }
        K::Field(base, i) => match &base.ty {
            Ty::Record(r) => {
                let (lo, hi) = c.prog.records[*r].fields.get(*i)?.range?;
                Some(Bounds::exact(lo, hi))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The range a write of `value` into an `int(lo..hi)` field (`range`) still checks when it
/// runs: none when the number stored is proven inside it (`= v` with `v` within, `+= v` /
/// `-= v` with the field's own range moved by `v` still within).
pub(super) fn unproven(
    c: &Checker,
    range: Option<(i64, i64)>,
    op: AssignOp,
    value: &ir::Expr,
) -> Option<(i64, i64)> {
    unproven_in(c, range, op, value, &[])
}

/// `E0312` where the checker knows a write of `value` into an `int(lo..hi)` field
/// (`range`) stores a number outside it, whatever happens before: every number it can
/// store lies outside (`w.speed = 9`, `w.speed += 20` into `int(-2..2)`).
pub(super) fn known_outside(
    c: &mut Checker,
    range: Option<(i64, i64)>,
    op: AssignOp,
    value: &ir::Expr,
) {
    let Some((lo, hi)) = range else { return };
    let Some(v) = bounds(c, value) else { return };
    let (new_lo, new_hi) = stored(lo, hi, op, v);
    if new_hi < lo || new_lo > hi {
        let what = Bounds::show(new_lo, new_hi);
        c.error(
            "E0312",
            value.span,
            format!("this stores {what}, outside int({lo}..{hi})"),
            format!("always outside {lo}..{hi}"),
            "the field's type limits its values: store a number inside, or widen the range in `types:`",
        );
    }
}

/// The numbers an assignment `op` of a value within `v` stores into a field within
/// `lo..=hi`.
fn stored(lo: i64, hi: i64, op: AssignOp, v: Bounds) -> (i64, i64) {
    match op {
        AssignOp::Set => (v.lo, v.hi),
        AssignOp::Add => (lo.saturating_add(v.lo), hi.saturating_add(v.hi)),
        AssignOp::Sub => (lo.saturating_sub(v.hi), hi.saturating_sub(v.lo)),
    }
}

fn unproven_in(
    c: &Checker,
    range: Option<(i64, i64)>,
    op: AssignOp,
    value: &ir::Expr,
    known: &[Option<Bounds>],
) -> Option<(i64, i64)> {
    let (lo, hi) = range?;
    let Some(v) = bounds_in(c, value, known) else {
        return range;
    };
    let (new_lo, new_hi) = stored(lo, hi, op, v);
    (new_lo < lo || new_hi > hi).then_some((lo, hi))
}

/// Once a procedure is checked: the `int(lo..hi)` writes ([`unproven`]) proven inside
/// their range after all, knowing the locals a single `let` binds and nothing changes
/// (`let d = roll d12` then `c.initiative_roll = d`). Those writes are no longer checked.
/// (A `let` inside a loop binds a new value each turn, each within the same bounds.)
pub(super) fn prove_writes(c: &Checker, stmts: &mut [Stmt], nlocals: usize) {
    let mut lets = vec![0u32; nlocals];
    let mut changed = vec![false; nlocals];
    walk::for_each_stmt(stmts, &mut |s| match s {
        Stmt::Let { slot, .. } => lets[*slot] += 1,
        Stmt::Assign { place, .. } => changed[place.root] = true,
        _ => {}
    });
    let mut known: Vec<Option<Bounds>> = vec![None; nlocals];
    // In the order written: a `let`'s value reads only locals bound before it.
    walk::for_each_stmt(stmts, &mut |s| {
        if let Stmt::Let { slot, value, .. } = s {
            if lets[*slot] == 1 && !changed[*slot] {
                known[*slot] = bounds_in(c, value, &known);
            }
        }
    });
    if known.iter().any(Option::is_some) {
        prove_in(c, stmts, &known);
    }
}

fn prove_in(c: &Checker, stmts: &mut [Stmt], known: &[Option<Bounds>]) {
    fn expr(c: &Checker, e: &mut ir::Expr, known: &[Option<Bounds>]) {
        walk::for_each_child_mut(e, &mut |x| expr(c, x, known));
        if let K::InRange { value, lo, hi, .. } = &mut e.kind {
            if unproven_in(c, Some((*lo, *hi)), AssignOp::Set, value, known).is_none() {
                let value =
                    std::mem::replace(&mut **value, mk(K::Const(Const::Int(0)), Ty::Int, e.span));
                *e = value;
            }
        }
    }
    for s in stmts {
        match s {
            Stmt::Let { value, .. } | Stmt::Expr(value) => expr(c, value, known),
            Stmt::Return { value, .. } => value.iter_mut().for_each(|v| expr(c, v, known)),
            Stmt::Assign {
                place, op, value, ..
            } => {
                place.range = unproven_in(c, place.range, *op, value, known);
                expr(c, value, known);
            }
            Stmt::If {
                branches,
                otherwise,
            } => {
                for (_, b, _) in branches {
                    prove_in(c, b, known);
                }
                otherwise.iter_mut().for_each(|o| prove_in(c, o, known));
            }
            Stmt::Match { arms, .. } => arms
                .iter_mut()
                .for_each(|a| prove_in(c, &mut a.body, known)),
            Stmt::For { body, .. } | Stmt::ForRange { body, .. } => prove_in(c, body, known),
            Stmt::Schedule { .. } | Stmt::Advance { .. } => {}
        }
    }
}

/// The lowest and highest values of an expression, each when known: `min` and `max` know
/// one end even of operands with no bounds (`min(10, max(0, x))` is 0 to 10 whatever `x`
/// is). Which values in between occur depends on how the operands move together.
fn ends(c: &Checker, e: &ir::Expr, known: &[Option<Bounds>]) -> (Option<i64>, Option<i64>) {
    match &e.kind {
        K::Min(xs) | K::Max(xs) => {
            let each: Vec<_> = xs.iter().map(|x| ends(c, x, known)).collect();
            combine(&each, matches!(e.kind, K::Max(_)))
        }
        // `clamp(x, lo, hi)` is `min(max(x, lo), hi)`.
        K::Clamp(x, lo, hi) => {
            let low = combine(&[ends(c, x, known), ends(c, lo, known)], true);
            combine(&[low, ends(c, hi, known)], false)
        }
        _ => {
            let b = bounds_in(c, e, known);
            (b.map(|b| b.lo), b.map(|b| b.hi))
        }
    }
}

/// The ends of the lowest (`max` false) or highest of values with these ends: the lowest
/// of several is at least the lowest of their lows (all needed), and at most the lowest
/// high any one of them has; the highest, the other way round.
fn combine(each: &[(Option<i64>, Option<i64>)], max: bool) -> (Option<i64>, Option<i64>) {
    let pick = if max { i64::max } else { i64::min };
    let lows: Option<Vec<i64>> = each.iter().map(|e| e.0).collect();
    let highs: Option<Vec<i64>> = each.iter().map(|e| e.1).collect();
    let some_low = each.iter().filter_map(|e| e.0).reduce(pick);
    let some_high = each.iter().filter_map(|e| e.1).reduce(pick);
    let all_low = lows.and_then(|v| v.into_iter().reduce(pick));
    let all_high = highs.and_then(|v| v.into_iter().reduce(pick));
    if max {
        (some_low, all_high)
    } else {
        (all_low, some_high)
    }
}

/// `a + b` or `a - b`: shifted by a constant, exact as `a` is; two varying operands give
/// bounds, not every value between them.
fn offset(
    c: &Checker,
    a: &ir::Expr,
    b: &ir::Expr,
    negate: bool,
    known: &[Option<Bounds>],
) -> Option<Bounds> {
    let (x, y) = (bounds_in(c, a, known)?, bounds_in(c, b, known)?);
    let y = if negate {
        Bounds {
            lo: y.hi.saturating_neg(),
            hi: y.lo.saturating_neg(),
            exact: y.exact,
        }
    } else {
        y
    };
    if y.lo == y.hi {
        return Some(x.shift(y.lo));
    }
    if x.lo == x.hi {
        return Some(y.shift(x.lo));
    }
    Some(Bounds {
        lo: x.lo.saturating_add(y.lo),
        hi: x.hi.saturating_add(y.hi),
        exact: false,
    })
}

/// What the checker knows of the number of dice `dice * n` throws: the lowest and
/// highest counts when the dice are constant and `n` has bounds (`d6 * rank`, `rank` an
/// `int(0..5)` field: 0 to 5 dice).
pub(super) fn dice_count(c: &Checker, dice: &ir::Expr, n: &ir::Expr) -> Option<(i64, i64)> {
    let K::Const(Const::Dice(d)) = &dice.kind else {
        return None;
    };
    let b = bounds(c, n)?;
    let count = i64::from(d.count);
    Some((count.saturating_mul(b.lo), count.saturating_mul(b.hi)))
}

/// How many elements a list has, when the checker knows: a literal, a constant, or the
/// dice of a roll of fixed dice.
pub(super) fn list_len(e: &ir::Expr) -> Option<i64> {
    match &e.kind {
        K::Const(Const::List(items)) => Some(items.len() as i64),
        K::List(items) => Some(items.len() as i64),
        K::Faces { part, of, .. } => {
            let d = fixed_dice(of)?;
            let kept = match d.keep {
                Keep::All => d.count,
                Keep::Highest(k) | Keep::Lowest(k) => k.min(d.count),
            };
            Some(i64::from(match part {
                FacesPart::All => d.count,
                FacesPart::Kept => kept,
                FacesPart::Dropped => d.count - kept,
            }))
        }
        _ => None,
    }
}

/// The keys in `b` that no row of the die table `t` holds, as ranges (none when every
/// key in `b` has one).
pub(super) fn missing_rows(t: &ir::Table, b: Bounds) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let mut next = b.lo;
    for r in &t.rows {
        if next > b.hi {
            break;
        }
        if r.hi < next {
            continue;
        }
        if r.lo > next {
            out.push((next, (r.lo - 1).min(b.hi)));
        }
        next = r.hi.saturating_add(1);
        if r.hi == i64::MAX {
            next = b.hi.saturating_add(1);
            break;
        }
    }
    if next <= b.hi {
        out.push((next, b.hi));
    }
    out
}
