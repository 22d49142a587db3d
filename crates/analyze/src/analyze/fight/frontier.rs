//! The states of a fight not stepped yet, by the point they stand at, each chance a
//! whole number over its point's one denominator; and a step's chances put over one.

use super::{Clock, Point};
use crate::analyze::exact::Prob;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use std::collections::{BTreeMap, HashMap};

/// Chances over their least common denominator: the numerators, and it.
pub(super) fn over_one(probs: &[Prob]) -> (Vec<BigUint>, BigUint) {
    use num_integer::Integer;
    let den = probs.iter().fold(BigInt::one(), |l, p| l.lcm(p.denom()));
    let nums = probs
        .iter()
        .map(|p| {
            let n = p.numer() * (&den / p.denom());
            n.to_biguint()
                .unwrap_or_else(|| unreachable!("a chance is never negative"))
        })
        .collect();
    let den = den
        .to_biguint()
        .unwrap_or_else(|| unreachable!("a denominator is positive"));
    (nums, den)
}

/// The frontier: the states not yet stepped (a distinct unclocked state at a clock),
/// with their chances, by the point they stand at. A point's chances are whole numbers
/// over the point's one denominator, so adding them takes no big-number gcd (a chance
/// over another denominator makes it their least common multiple).
#[derive(Default)]
pub(super) struct Frontier {
    pub at: BTreeMap<Point, Layer>,
    pub states: u64,
    /// The words the states held take, estimated ([`words`]).
    pub words: u64,
}

/// The states at one point: each one's chance, `nodes[s] / den`.
pub(super) struct Layer {
    pub den: BigUint,
    pub nodes: HashMap<(u32, Clock), BigUint>,
    /// Denominators added from, and what their numerators are multiplied by to be over
    /// `den` (forgotten when `den` grows).
    scale: Vec<(BigUint, BigUint)>,
}

impl Layer {
    /// What a numerator over `den` is multiplied by to be over this layer's; the layer's
    /// denominator grown first if `den` does not divide it.
    fn factor(&mut self, den: &BigUint) -> Option<BigUint> {
        use num_integer::Integer;
        if self.den == *den {
            return None;
        }
        if let Some((_, k)) = self.scale.iter().find(|(d, _)| d == den) {
            return Some(k.clone());
        }
        let (q, r) = self.den.div_rem(den);
        if !r.is_zero() {
            let lcm = self.den.lcm(den);
            let grow = &lcm / &self.den;
            for n in self.nodes.values_mut() {
                *n *= &grow;
            }
            self.den = lcm;
            self.scale.clear();
            return self.factor(den);
        }
        self.scale.push((den.clone(), q.clone()));
        Some(q)
    }
}

/// The memory one fight state takes, in words of [`super::state::BYTES_PER_WORD`]
/// bytes (which already allow for a value beside each word of its encoding), estimated
/// from its encoding's length, plus 40 words (960 bytes) for the engine's fight and its
/// lists.
pub(super) fn words(key: &[u64]) -> u64 {
    (key.len() as u64).saturating_add(40)
}

/// The words a state of the frontier takes: its clock and its chance.
pub(super) fn node_words(clock: &Clock) -> u64 {
    (clock.turns.len() as u64).saturating_add(8)
}

impl Frontier {
    /// Adds chance `num / den` to state `id` at `clock`, at point `(clock.round, at)`.
    pub fn add(&mut self, id: u32, clock: Clock, at: u32, num: BigUint, den: &BigUint) {
        let layer = self.at.entry((clock.round, at)).or_insert_with(|| Layer {
            den: den.clone(),
            nodes: HashMap::new(),
            scale: Vec::new(),
        });
        let num = match layer.factor(den) {
            Some(k) => num * k,
            None => num,
        };
        let words = node_words(&clock);
        match layer.nodes.entry((id, clock)) {
            std::collections::hash_map::Entry::Occupied(mut o) => *o.get_mut() += num,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(num);
                self.states += 1;
                self.words += words;
            }
        }
    }

    /// The mass of every state held.
    pub fn mass(&self) -> Prob {
        self.at.values().fold(Prob::zero(), |a, l| a + l.mass())
    }
}

impl Layer {
    /// The mass of the layer's states.
    pub fn mass(&self) -> Prob {
        let sum = self.nodes.values().fold(BigUint::zero(), |a, n| a + n);
        Prob::new(sum.into(), self.den.clone().into())
    }
}
