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
