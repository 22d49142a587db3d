//! Columns: a value per lane of a segment's roll, or one value for every lane.

use crate::analyze::state::encode_value;
use crate::eval::Value;
use crate::ir::{CmpOp, Ty};
use rulesc_runtime::Roll;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// Buffers of dropped columns, for the next ones: a state's lanes make and drop a
    /// few dozen columns of the same length. At most [`SPARE_MAX`] of each are kept.
    static SPARE: RefCell<Spare> = RefCell::default();
}

/// Spare buffers of integer and of truth-value columns.
type Spare = (Vec<Vec<i64>>, Vec<Vec<bool>>);

const SPARE_MAX: usize = 32;

/// An empty buffer for a column of `n` integers.
pub(super) fn ints_buf(n: usize) -> Vec<i64> {
    match SPARE.with(|s| s.borrow_mut().0.pop()) {
        Some(mut v) => {
            v.clear();
            v.reserve(n);
            v
        }
        None => Vec::with_capacity(n),
    }
}

/// An empty buffer for a column of `n` truth values.
pub(super) fn bools_buf(n: usize) -> Vec<bool> {
    match SPARE.with(|s| s.borrow_mut().1.pop()) {
        Some(mut v) => {
            v.clear();
            v.reserve(n);
            v
        }
        None => Vec::with_capacity(n),
    }
}

/// Keeps `v`'s buffer for a later column.
pub(super) fn spare_ints(v: Vec<i64>) {
    SPARE.with(|s| {
        let mut s = s.borrow_mut();
        if s.0.len() < SPARE_MAX {
            s.0.push(v);
        }
    });
}

/// Keeps `v`'s buffer for a later column.
pub(super) fn spare_bools(v: Vec<bool>) {
    SPARE.with(|s| {
        let mut s = s.borrow_mut();
        if s.1.len() < SPARE_MAX {
            s.1.push(v);
        }
    });
}

/// A value per lane, or one value for every lane.
#[derive(Debug, Clone)]
pub(super) enum Col {
    S(Value),
    I(Vec<i64>),
    B(Vec<bool>),
    L(Vec<u16>),
    /// Rolls: their totals, and their natural faces (which adding to a roll keeps).
    R(Vec<i64>, Rc<[i64]>),
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
                spare_ints(b);
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
        let (a, b) = match (self, b) {
            (Ints::S(a), Ints::S(b)) => return Bools::S(f(a, b)),
            (a, b) => (a, b),
        };
        let n = match (&a, &b) {
            (Ints::V(v), _) | (_, Ints::V(v)) => v.len(),
            (Ints::S(_), Ints::S(_)) => unreachable!("two shared values were compared above"),
        };
        let mut out = bools_buf(n);
        match (&a, &b) {
            (Ints::V(a), Ints::S(b)) => out.extend(a.iter().map(|&x| f(x, *b))),
            (Ints::S(a), Ints::V(b)) => out.extend(b.iter().map(|&y| f(*a, y))),
            (Ints::V(a), Ints::V(b)) => out.extend(a.iter().zip(b).map(|(&x, &y)| f(x, y))),
            (Ints::S(_), Ints::S(_)) => {}
        }
        a.spare();
        b.spare();
        Bools::V(out)
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
        if let Col::S(v) = self {
            return Ints::S(v.int());
        }
        let mut out = ints_buf(self.len());
        match self {
            Col::S(_) => {}
            Col::I(v) | Col::R(v, _) => out.extend_from_slice(v),
            Col::B(v) => out.extend(v.iter().map(|&b| i64::from(b))),
            Col::L(v) => out.extend(v.iter().map(|&c| i64::from(c))),
        }
        Ints::V(out)
    }

    /// Its lanes (none for a shared value).
    fn len(&self) -> usize {
        match self {
            Col::S(_) => 0,
            Col::I(v) | Col::R(v, _) => v.len(),
            Col::B(v) => v.len(),
            Col::L(v) => v.len(),
        }
    }

    /// Keeps its buffers for later columns.
    pub(super) fn spare(self) {
        match self {
            Col::I(v) | Col::R(v, _) => spare_ints(v),
            Col::B(v) => spare_bools(v),
            Col::S(_) | Col::L(_) => {}
        }
    }

    /// Each lane's `bool()` (true only for a true bool).
    pub(super) fn bools(&self) -> Bools {
        match self {
            Col::S(v) => Bools::S(v.bool()),
            Col::B(v) => {
                let mut out = bools_buf(v.len());
                out.extend_from_slice(v);
                Bools::V(out)
            }
            Col::I(_) | Col::L(_) | Col::R(..) => Bools::S(false),
        }
    }

    /// Each lane's value at `lane`.
    pub(super) fn at(&self, lane: usize) -> Value {
        match self {
            Col::S(v) => v.clone(),
            Col::I(v) => Value::Int(v[lane]),
            Col::B(v) => Value::Bool(v[lane]),
            Col::L(v) => Value::Choice(v[lane]),
            Col::R(t, nat) => Value::Roll(Roll {
                total: t[lane],
                natural: nat[lane],
            }),
        }
    }

    /// How many words [`Col::encode`] writes for a lane of a column.
    pub(super) fn width(&self) -> usize {
        match self {
            Col::S(_) => 0,
            Col::R(..) => 3,
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
            Col::R(t, nat) => out.extend([4, t[lane] as u64, nat[lane] as u64]),
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
            (Col::I(a), Col::I(b)) => {
                let a = sel(pick, a, &b);
                spare_ints(b);
                Col::I(a)
            }
            (Col::B(a), Col::B(b)) => {
                let a = sel(pick, a, &b);
                spare_bools(b);
                Col::B(a)
            }
            (Col::L(a), Col::L(b)) => Col::L(sel(pick, a, &b)),
            (Col::R(ta, na), Col::R(tb, nb)) => Col::R(
                sel(pick, ta, &tb),
                if Rc::ptr_eq(&na, &nb) {
                    na
                } else {
                    sel(pick, na.to_vec(), &nb).into()
                },
            ),
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
            Col::S(Value::Roll(r)) => Col::R(vec![r.total; n], vec![r.natural; n].into()),
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
    let mut out = bools_buf(m.len());
    out.extend(m.iter().zip(c).map(|(&a, &b)| a && b == keep));
    out
}

impl Ints {
    /// Keeps its buffer for later columns.
    pub(super) fn spare(self) {
        if let Ints::V(v) = self {
            spare_ints(v);
        }
    }
}

impl Bools {
    /// Keeps its buffer for later columns.
    pub(super) fn spare(self) {
        if let Bools::V(v) = self {
            spare_bools(v);
        }
    }

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
