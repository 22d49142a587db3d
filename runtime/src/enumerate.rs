//! Enumeration: a dice source that walks every path through a resolution's dice.
//!
//! [`PathDice`] is run again and again on one resolution; it walks the tree of faces like
//! an odometer: the first run takes face 1 everywhere, each next run ([`PathDice::advance`])
//! moves the deepest die that still has faces left. A path that asks for more dice than
//! the depth bound is cut: [`PathDice::cut`] says so, and [`DiceSource::stopped`] tells
//! the interpreter to stop the run at once.
//!
//! The runtime does no probability arithmetic: a path's probability is the product of
//! `1 / sides` over [`PathDice::sides`], and exact sums of such fractions need big
//! numbers, which belong to the caller (the compiler's `analyze`), not to code linked
//! into games.

use crate::dice::DiceSource;
use alloc::vec::Vec;

/// A dice source that follows one path of the enumeration tree per run.
#[derive(Debug, Default, Clone)]
pub struct PathDice {
    /// (face chosen, sides) for each die rolled so far on this path.
    path: Vec<(u32, u32)>,
    pos: usize,
    max_dice: usize,
    cut: bool,
}

impl PathDice {
    /// A walk whose paths hold at most `max_dice` dice; a longer path is cut.
    pub fn new(max_dice: usize) -> Self {
        PathDice {
            max_dice,
            ..PathDice::default()
        }
    }

    /// Call before each run: the next run replays the current path from its first die.
    pub fn start(&mut self) {
        self.pos = 0;
        self.cut = false;
    }

    /// The sides of each die the run just made drew (dice past the bound are not drawn):
    /// the path's probability is the product of their reciprocals.
    pub fn sides(&self) -> impl Iterator<Item = u32> + '_ {
        self.path[..self.pos.min(self.path.len())]
            .iter()
            .map(|&(_, sides)| sides)
    }

    /// True when the run just made asked for more dice than the bound.
    pub fn cut(&self) -> bool {
        self.cut
    }

    /// Dice drawn by the run so far.
    pub fn drawn(&self) -> usize {
        self.pos
    }

    /// Moves to the next path; false when every path was visited.
    pub fn advance(&mut self) -> bool {
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

    fn stopped(&self) -> bool {
        self.cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{roll, DiceSpec};
    use crate::trace::NoTrace;

    /// Every path of `resolve`: its outcome, the sides of its dice, and whether it was cut.
    fn walk<R>(
        max_dice: usize,
        mut resolve: impl FnMut(&mut PathDice) -> R,
    ) -> Vec<(R, Vec<u32>, bool)> {
        let mut d = PathDice::new(max_dice);
        let mut out = Vec::new();
        loop {
            d.start();
            let r = resolve(&mut d);
            out.push((r, d.sides().collect(), d.cut()));
            if !d.advance() {
                return out;
            }
        }
    }

    #[test]
    fn two_d6_visits_each_of_the_36_paths_once() {
        let paths = walk(10, |d| roll(d, DiceSpec::new(2, 6), &mut NoTrace, 0).total);
        assert_eq!(paths.len(), 36);
        assert_eq!(paths.iter().filter(|(t, _, _)| *t == 7).count(), 6);
        assert!(paths.iter().all(|(_, s, cut)| s == &[6, 6] && !cut));
    }

    #[test]
    fn an_exploding_chain_is_cut_at_the_bound() {
        let spec = DiceSpec {
            explode: true,
            ..DiceSpec::new(1, 12)
        };
        let paths = walk(3, |d| roll(d, spec, &mut NoTrace, 0).total);
        // Faces 1..11, then 12 + 1..11, then 12 + 12 + 1..12 where the last 12 is cut.
        assert_eq!(paths.len(), 11 + 11 + 12);
        let cut: Vec<_> = paths.iter().filter(|(_, _, c)| *c).collect();
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0].1, [12, 12, 12]);
    }
}
