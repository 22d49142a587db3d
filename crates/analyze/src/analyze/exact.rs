//! Exact probabilities: arbitrary-precision rationals (`num-rational` over `num-bigint`).
//! They never overflow, saturate or wrap, however many dice a path holds.

use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};

/// An exact probability.
pub type Prob = num_rational::BigRational;

/// `n/d` as text.
pub fn fraction(p: &Prob) -> String {
    format!("{}/{}", p.numer(), p.denom())
}

/// The nearest `f64` (for percentages; never used in exact sums).
pub fn to_f64(p: &Prob) -> f64 {
    p.to_f64().unwrap_or(f64::NAN)
}

/// A sum of path probabilities `1 / (s1 * s2 * ...)`, kept as a count per denominator so
/// that adding a path costs a few multiplications, not a big-number gcd; the sum is
/// reduced once, at the end. An outcome's paths have few distinct denominators (one per
/// combination of dice), so a short list beats a hash map.
#[derive(Debug, Default, Clone)]
pub struct Mass {
    small: Vec<(u128, u64)>,
    big: Vec<(BigUint, u64)>,
}

fn count<K: PartialEq>(list: &mut Vec<(K, u64)>, key: K) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => list.push((key, 1)),
    }
}

impl Mass {
    /// Adds one path whose dice have these sides.
    pub fn add(&mut self, sides: impl Iterator<Item = u32>) {
        let mut den: u128 = 1;
        let mut big: Option<BigUint> = None;
        for s in sides {
            let s = s.max(1);
            match &mut big {
                Some(b) => *b *= s,
                None => match den.checked_mul(u128::from(s)) {
                    Some(d) => den = d,
                    None => big = Some(BigUint::from(den) * s),
                },
            }
        }
        match big {
            Some(b) => count(&mut self.big, b),
            None => count(&mut self.small, den),
        }
    }

    /// The exact sum.
    pub fn value(&self) -> Prob {
        let small = self
            .small
            .iter()
            .map(|&(d, n)| Prob::new(BigInt::from(n), BigInt::from(d)));
        let big = self
            .big
            .iter()
            .map(|(d, n)| Prob::new(BigInt::from(*n), BigInt::from(d.clone())));
        small.chain(big).fold(Prob::zero(), |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masses_past_128_bits_stay_exact() {
        let mut m = Mass::default();
        // 2^130 = (2^10)^13: a denominator past u128.
        m.add(std::iter::repeat_n(1024, 13));
        m.add(std::iter::repeat_n(1024, 13));
        m.add([2, 3].into_iter());
        let expect = Prob::new(2.into(), BigInt::from(2).pow(130)) + Prob::new(1.into(), 6.into());
        assert_eq!(m.value(), expect);
        assert_eq!(fraction(&Prob::new(2.into(), 4.into())), "1/2");
    }
}

/// An exact non-negative integer weight: a probability's numerator over a denominator
/// kept elsewhere. Small weights stay in a `u128` (no allocation); a product or sum that
/// would overflow it moves to a big integer, so nothing ever wraps or saturates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum W {
    Small(u128),
    Big(BigUint),
}

impl Default for W {
    fn default() -> Self {
        W::Small(0)
    }
}

impl W {
    pub fn zero() -> W {
        W::Small(0)
    }

    pub fn one() -> W {
        W::Small(1)
    }

    pub fn is_zero(&self) -> bool {
        match self {
            W::Small(x) => *x == 0,
            W::Big(b) => b.is_zero(),
        }
    }

    pub fn big(&self) -> BigUint {
        match self {
            W::Small(x) => BigUint::from(*x),
            W::Big(b) => b.clone(),
        }
    }

    fn from_big(b: BigUint) -> W {
        match u128::try_from(&b) {
            Ok(x) => W::Small(x),
            Err(_) => W::Big(b),
        }
    }

    #[inline]
    pub fn add(&mut self, other: &W) {
        match (&mut *self, other) {
            (W::Small(a), W::Small(b)) => match a.checked_add(*b) {
                Some(c) => *a = c,
                None => *self = W::Big(BigUint::from(*a) + *b),
            },
            (W::Big(a), W::Small(b)) => *a += *b,
            (W::Big(a), W::Big(b)) => *a += b,
            (W::Small(a), W::Big(b)) => *self = W::Big(b + *a),
        }
    }

    pub fn mul(&self, other: &W) -> W {
        match (self, other) {
            (W::Small(a), W::Small(b)) => match a.checked_mul(*b) {
                Some(c) => W::Small(c),
                None => W::Big(BigUint::from(*a) * *b),
            },
            (W::Big(a), W::Small(b)) | (W::Small(b), W::Big(a)) => W::from_big(a * *b),
            (W::Big(a), W::Big(b)) => W::Big(a * b),
        }
    }

    /// `self - other`, for `other <= self`.
    pub fn sub(&self, other: &W) -> W {
        match (self, other) {
            (W::Small(a), W::Small(b)) => W::Small(a.saturating_sub(*b)),
            _ => W::from_big(self.big() - other.big().min(self.big())),
        }
    }

    /// `self / d`, for a `d` that divides it exactly.
    pub fn div_exact(&self, d: &W) -> W {
        match (self, d) {
            (W::Small(a), W::Small(b)) if *b != 0 => W::Small(a / b),
            _ => W::from_big(self.big() / d.big().max(BigUint::from(1u32))),
        }
    }

    pub fn gcd(&self, other: &W) -> W {
        use num_integer::Integer;
        match (self, other) {
            (W::Small(a), W::Small(b)) => {
                let (mut a, mut b) = (*a, *b);
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                W::Small(a)
            }
            _ => W::from_big(self.big().gcd(&other.big())),
        }
    }

    /// `self / den` as an exact probability.
    pub fn over(&self, den: &W) -> Prob {
        Prob::new(BigInt::from(self.big()), BigInt::from(den.big()))
    }
}
