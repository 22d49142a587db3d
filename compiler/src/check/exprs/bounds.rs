//! What the checker knows of a number before running: the values an expression can take
//! (a constant, a roll of fixed dice, a natural face, an `int(lo..hi)` field, and sums
//! and clamps of those), and how long a list is (a literal, a constant, a roll's faces).
//! A table key or list index that is known to fall outside the table or list is a
//! compile-time error (`E0332`), not a rule error waiting for the dice to show it.

use crate::check::Checker;
use crate::ir::{self, Const, ExprKind as K, FacesPart, IntOp, Ty};
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
    match &e.kind {
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

/// `a + b` or `a - b`: shifted by a constant, exact as `a` is; two varying operands give
/// bounds, not every value between them.
fn offset(c: &Checker, a: &ir::Expr, b: &ir::Expr, negate: bool) -> Option<Bounds> {
    let (x, y) = (bounds(c, a)?, bounds(c, b)?);
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
