//! Columns: a value per lane of a segment's roll, or one value for every lane.

use crate::analyze::state::encode_value;
use crate::eval::Value;
use crate::ir::{CmpOp, Ty};
use rulesc_runtime::Roll;

/// A value per lane, or one value for every lane.
#[derive(Debug, Clone)]
pub(super) enum Col {
    S(Value),
    I(Vec<i64>),
    B(Vec<bool>),
    L(Vec<u16>),
    R(Vec<Roll>),
}

/// Integers, per lane or shared.
pub(super) enum Ints {
    S(i64),
    V(Vec<i64>),
}

/// Truth values, per lane or shared.
pub(super) enum Bools {
    S(bool),
    V(Vec<bool>),
}

impl Ints {
    pub(super) fn map(self, f: impl Fn(i64) -> i64) -> Ints {
        match self {
            Ints::S(x) => Ints::S(f(x)),
            Ints::V(mut v) => {
                v.iter_mut().for_each(|x| *x = f(*x));
                Ints::V(v)
            }
        }
    }

    pub(super) fn zip(self, b: Ints, f: impl Fn(i64, i64) -> i64) -> Ints {
        match (self, b) {
            (Ints::S(a), Ints::S(b)) => Ints::S(f(a, b)),
            (Ints::V(mut a), Ints::S(b)) => {
                a.iter_mut().for_each(|x| *x = f(*x, b));
                Ints::V(a)
            }
            (Ints::S(a), Ints::V(mut b)) => {
                b.iter_mut().for_each(|x| *x = f(a, *x));
                Ints::V(b)
            }
            (Ints::V(mut a), Ints::V(b)) => {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x = f(*x, *y));
                Ints::V(a)
            }
        }
    }

    pub(super) fn compare(self, b: Ints, op: CmpOp) -> Bools {
        match op {
            CmpOp::Eq => self.test(b, |a, b| a == b),
            CmpOp::Ne => self.test(b, |a, b| a != b),
            CmpOp::Lt => self.test(b, |a, b| a < b),
            CmpOp::Le => self.test(b, |a, b| a <= b),
            CmpOp::Gt => self.test(b, |a, b| a > b),
            CmpOp::Ge => self.test(b, |a, b| a >= b),
        }
    }

    pub(super) fn test(self, b: Ints, f: impl Fn(i64, i64) -> bool) -> Bools {
        match (self, b) {
            (Ints::S(a), Ints::S(b)) => Bools::S(f(a, b)),
            (Ints::V(a), Ints::S(b)) => Bools::V(a.iter().map(|&x| f(x, b)).collect()),
            (Ints::S(a), Ints::V(b)) => Bools::V(b.iter().map(|&y| f(a, y)).collect()),
            (Ints::V(a), Ints::V(b)) => {
                Bools::V(a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect())
            }
        }
    }

    pub(super) fn at(&self, lane: usize) -> i64 {
        match self {
            Ints::S(x) => *x,
            Ints::V(v) => v[lane],
        }
    }

    /// As [`crate::analyze::fast`]'s `rewrap`: a level, or an int.
    pub(super) fn rewrap(self, ty: &Ty) -> Col {
        match ty {
            Ty::Choice(_) => match self {
                Ints::S(x) => Col::S(Value::Choice(x.clamp(0, i64::from(u16::MAX)) as u16)),
                Ints::V(v) => Col::L(
                    v.iter()
                        .map(|x| (*x).clamp(0, i64::from(u16::MAX)) as u16)
                        .collect(),
                ),
            },
            _ => self.col(),
        }
    }

    pub(super) fn col(self) -> Col {
        match self {
            Ints::S(x) => Col::S(Value::Int(x)),
            Ints::V(v) => Col::I(v),
        }
    }
}

impl Col {
    /// Each lane's `int()`.
    pub(super) fn ints(&self) -> Ints {
        match self {
            Col::S(v) => Ints::S(v.int()),
            Col::I(v) => Ints::V(v.clone()),
            Col::B(v) => Ints::V(v.iter().map(|&b| i64::from(b)).collect()),
            Col::L(v) => Ints::V(v.iter().map(|&c| i64::from(c)).collect()),
            Col::R(v) => Ints::V(v.iter().map(|r| r.total).collect()),
        }
    }

    /// Each lane's `bool()` (true only for a true bool).
    pub(super) fn bools(&self) -> Bools {
        match self {
            Col::S(v) => Bools::S(v.bool()),
            Col::B(v) => Bools::V(v.clone()),
            Col::I(_) | Col::L(_) | Col::R(_) => Bools::S(false),
        }
    }

    /// Each lane's value at `lane`.
    pub(super) fn at(&self, lane: usize) -> Value {
        match self {
            Col::S(v) => v.clone(),
            Col::I(v) => Value::Int(v[lane]),
            Col::B(v) => Value::Bool(v[lane]),
            Col::L(v) => Value::Choice(v[lane]),
            Col::R(v) => Value::Roll(v[lane]),
        }
    }

    /// How many words [`Col::encode`] writes for a lane of a column.
    pub(super) fn width(&self) -> usize {
        match self {
            Col::S(_) => 0,
            Col::R(_) => 3,
            Col::I(_) | Col::B(_) | Col::L(_) => 2,
        }
    }

    /// Writes the words [`encode_value`] writes for the value at `lane`.
    pub(super) fn encode(
        &self,
        lane: usize,
        out: &mut Vec<u64>,
        seen: &mut Vec<*const std::cell::RefCell<Vec<Value>>>,
    ) {
        match self {
            Col::S(v) => encode_value(v, out, seen),
            Col::I(v) => out.extend([1, v[lane] as u64]),
            Col::B(v) => out.extend([2, u64::from(v[lane])]),
            Col::L(v) => out.extend([3, u64::from(v[lane])]),
            Col::R(v) => out.extend([4, v[lane].total as u64, v[lane].natural as u64]),
        }
    }

    /// `self` where `pick` holds, `other` elsewhere: `None` when the two are of
    /// different kinds (a lane's value would not be one a column holds).
    pub(super) fn select(self, pick: &[bool], other: Col) -> Option<Col> {
        fn sel<T: Copy>(pick: &[bool], mut a: Vec<T>, b: &[T]) -> Vec<T> {
            for (x, (&p, &y)) in a.iter_mut().zip(pick.iter().zip(b)) {
                if !p {
                    *x = y;
                }
            }
            a
        }
        let n = pick.len();
        Some(match (self.spread(n)?, other.spread(n)?) {
            (Col::I(a), Col::I(b)) => Col::I(sel(pick, a, &b)),
            (Col::B(a), Col::B(b)) => Col::B(sel(pick, a, &b)),
            (Col::L(a), Col::L(b)) => Col::L(sel(pick, a, &b)),
            (Col::R(a), Col::R(b)) => Col::R(sel(pick, a, &b)),
            _ => return None,
        })
    }

    /// A shared int, bool, level or roll as a column of `n` lanes; a column as it is;
    /// `None` for a shared value no column holds.
    pub(super) fn spread(self, n: usize) -> Option<Col> {
        Some(match self {
            Col::S(Value::Int(x)) => Col::I(vec![x; n]),
            Col::S(Value::Bool(b)) => Col::B(vec![b; n]),
            Col::S(Value::Choice(c)) => Col::L(vec![c; n]),
            Col::S(Value::Roll(r)) => Col::R(vec![r; n]),
            Col::S(_) => return None,
            c => c,
        })
    }
}

pub(super) fn bools_col(b: Bools) -> Col {
    match b {
        Bools::S(x) => Col::S(Value::Bool(x)),
        Bools::V(v) => Col::B(v),
    }
}

pub(super) fn any(m: &[bool]) -> bool {
    m.iter().any(|&x| x)
}

/// `m` and (`keep`) or (not `keep`) `c`.
pub(super) fn narrow(m: &[bool], c: &[bool], keep: bool) -> Vec<bool> {
    m.iter().zip(c).map(|(&a, &b)| a && b == keep).collect()
}

impl Bools {
    pub(super) fn at(&self, lane: usize) -> bool {
        match self {
            Bools::S(b) => *b,
            Bools::V(v) => v[lane],
        }
    }
}

/// `rewrap(v, ty).int()`.
pub(super) fn rewrap_int(v: i64, ty: &Ty) -> i64 {
    match ty {
        Ty::Choice(_) => v.clamp(0, i64::from(u16::MAX)),
        _ => v,
    }
}
