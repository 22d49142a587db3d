//! Enumeration: every path through a resolution's dice, each with its exact probability.
//!
//! [`enumerate`] runs a resolution again and again with a [`PathDice`] source that walks
//! the tree of faces like an odometer: the first run takes face 1 everywhere, each next
//! run advances the deepest die that still has faces left. A path that asks for more dice
//! than the depth bound is cut off; its probability is reported as `unexplored`, never
//! silently dropped, so `sum(outcomes) + unexplored == 1` always.

use crate::dice::DiceSource;
use alloc::vec::Vec;

/// An exact probability `num / den`, kept reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prob {
    pub num: u128,
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Prob {
    pub const ZERO: Prob = Prob { num: 0, den: 1 };
    pub const ONE: Prob = Prob { num: 1, den: 1 };

    fn reduced(num: u128, den: u128) -> Prob {
        let g = gcd(num, den).max(1);
        Prob {
            num: num / g,
            den: den / g,
        }
    }

    /// `self * 1/n`.
    pub fn over(self, n: u32) -> Prob {
        Prob::reduced(self.num, self.den.saturating_mul(u128::from(n.max(1))))
    }

    pub fn plus(self, other: Prob) -> Prob {
        let g = gcd(self.den, other.den).max(1);
        let den = (self.den / g).saturating_mul(other.den);
        let num = self
            .num
            .saturating_mul(other.den / g)
            .saturating_add(other.num.saturating_mul(self.den / g));
        Prob::reduced(num, den)
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// A dice source that follows one path of the enumeration tree.
#[derive(Debug, Default)]
pub struct PathDice {
    /// (face chosen, sides) for each die rolled so far on this path.
    path: Vec<(u32, u32)>,
    pos: usize,
    max_dice: usize,
    cut: bool,
}

impl PathDice {
    /// The probability of the path just run (dice past the bound do not count).
    fn probability(&self) -> Prob {
        self.path[..self.pos.min(self.path.len())]
            .iter()
            .fold(Prob::ONE, |p, &(_, sides)| p.over(sides))
    }

    /// Moves to the next path; false when every path was visited.
    fn advance(&mut self) -> bool {
        self.path.truncate(self.pos);
        while let Some((face, sides)) = self.path.pop() {
            if face < sides {
                self.path.push((face + 1, sides));
                return true;
            }
        }
        false
    }
}

impl DiceSource for PathDice {
    fn face(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        if self.pos >= self.max_dice {
            self.cut = true;
            return 1;
        }
        if self.pos == self.path.len() {
            self.path.push((1, sides));
        }
        let (face, recorded) = self.path[self.pos];
        self.pos += 1;
        // A resolution is a deterministic function of its dice, so the same prefix always
        // asks for the same die; if not, stay in range rather than panic.
        face.min(sides).min(recorded)
    }
}

/// Every outcome of an enumeration with its probability, and the mass left unexplored.
#[derive(Debug, Clone)]
pub struct Enumeration<R> {
    pub outcomes: Vec<(R, Prob)>,
    pub unexplored: Prob,
    /// Paths visited (complete or cut off).
    pub paths: u64,
    /// True when `max_paths` stopped the walk before every path was visited; the mass of
    /// the unvisited paths is then also in `unexplored`.
    pub stopped_early: bool,
}

impl<R: PartialEq> Enumeration<R> {
    /// Sum of every outcome's probability and the unexplored mass: exactly one.
    pub fn total(&self) -> Prob {
        self.outcomes
            .iter()
            .fold(self.unexplored, |acc, (_, p)| acc.plus(*p))
    }

    /// The probability of one outcome.
    pub fn probability_of(&self, outcome: &R) -> Prob {
        self.outcomes
            .iter()
            .filter(|(r, _)| r == outcome)
            .fold(Prob::ZERO, |a, (_, p)| a.plus(*p))
    }
}

/// Runs `resolve` on every dice path. `max_dice` bounds the dice on one path (exploding
/// dice make paths unbounded); `max_paths` bounds the number of runs. Equal outcomes are
/// merged.
pub fn enumerate<R: PartialEq>(
    max_dice: usize,
    max_paths: u64,
    mut resolve: impl FnMut(&mut PathDice) -> R,
) -> Enumeration<R> {
    let mut dice = PathDice {
        max_dice,
        ..PathDice::default()
    };
    let mut outcomes: Vec<(R, Prob)> = Vec::new();
    let mut explored = Prob::ZERO;
    let mut unexplored = Prob::ZERO;
    let mut paths = 0u64;
    loop {
        dice.pos = 0;
        dice.cut = false;
        let outcome = resolve(&mut dice);
        let p = dice.probability();
        paths += 1;
        explored = explored.plus(p);
        if dice.cut {
            unexplored = unexplored.plus(p);
        } else if let Some(slot) = outcomes.iter_mut().find(|(r, _)| *r == outcome) {
            slot.1 = slot.1.plus(p);
        } else {
            outcomes.push((outcome, p));
        }
        if !dice.advance() {
            return Enumeration {
                outcomes,
                unexplored,
                paths,
                stopped_early: false,
            };
        }
        if paths >= max_paths {
            // Everything not yet visited is unexplored mass.
            let rest = Prob {
                num: explored.den - explored.num.min(explored.den),
                den: explored.den,
            };
            unexplored = unexplored.plus(rest);
            return Enumeration {
                outcomes,
                unexplored,
                paths,
                stopped_early: true,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{roll, DiceSpec};
    use crate::trace::NoTrace;

    #[test]
    fn two_d6_has_the_triangle_distribution() {
        let e = enumerate(10, 1_000, |d| {
            roll(d, DiceSpec::new(2, 6), &mut NoTrace, 0).total
        });
        assert_eq!(e.paths, 36);
        assert_eq!(e.probability_of(&7), Prob { num: 1, den: 6 });
        assert_eq!(e.probability_of(&2), Prob { num: 1, den: 36 });
        assert_eq!(e.total(), Prob::ONE);
    }

    #[test]
    fn exploding_mass_beyond_the_bound_is_reported() {
        let spec = DiceSpec {
            explode: true,
            ..DiceSpec::new(1, 12)
        };
        let e = enumerate(3, 10_000, |d| roll(d, spec, &mut NoTrace, 0).total);
        // Three dice deep: 12, 12, then the third die's 12 would need a fourth die.
        assert_eq!(e.unexplored, Prob { num: 1, den: 1728 });
        assert_eq!(e.total(), Prob::ONE);
        assert_eq!(e.probability_of(&13), Prob { num: 1, den: 144 });
    }

    #[test]
    fn stopping_early_keeps_the_total_at_one() {
        let e = enumerate(10, 5, |d| {
            roll(d, DiceSpec::new(2, 6), &mut NoTrace, 0).total
        });
        assert!(e.stopped_early);
        assert_eq!(e.total(), Prob::ONE);
    }
}
