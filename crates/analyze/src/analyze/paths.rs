//! The path walker: runs a resolution once per path of its dice (the runtime's
//! [`PathDice`] odometer) and adds up each outcome's exact probability.
//!
//! It is the reference the merged-state engine is tested against: simple enough to be
//! obviously right, and it costs one interpreter run per path. Its work is bounded:
//! a path that needs more than `max_dice` dice stops at once (the interpreter asks
//! [`DiceSource::stopped`] before every statement), and the walk stops after `max_paths`
//! paths, `max_steps` steps (statements run plus dice drawn, over all paths) or
//! `max_seconds`. Whatever it did not reach is reported as unexplored, never dropped, so
//! the outcomes and the unexplored mass always add up to exactly one.

use super::exact::{Mass, Prob};
use super::{Limits, Stop};
use num_traits::{One, Zero};
use rulesc_runtime::{DiceSource, PathDice};
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::Hash;
use std::time::Instant;

/// Every outcome with its exact probability, in the order first reached.
#[derive(Debug, Clone)]
pub struct Walk<R> {
    pub outcomes: Vec<(R, Prob)>,
    /// Paths cut at `max_dice`, and every path not visited when the walk stopped early.
    pub unexplored: Prob,
    /// Whether some paths were cut at `max_dice` (some of `unexplored` is not only what
    /// a limit left unvisited).
    pub cut: bool,
    /// Paths run to the end or cut (an interrupted last run is not counted).
    pub paths: u64,
    /// Why the walk stopped before visiting every path, if it did.
    pub stop: Option<Stop>,
}

impl<R: PartialEq> Walk<R> {
    /// The probability of one outcome (zero if never reached).
    pub fn probability_of(&self, outcome: &R) -> Prob {
        self.outcomes
            .iter()
            .find(|(r, _)| r == outcome)
            .map_or_else(Prob::zero, |(_, p)| p.clone())
    }

    /// Every outcome's probability plus the unexplored mass: exactly one.
    pub fn total(&self) -> Prob {
        self.outcomes
            .iter()
            .fold(self.unexplored.clone(), |acc, (_, p)| acc + p)
    }
}

/// The dice source of a walk: the odometer, plus the walk's step and time budget. The
/// interpreter asks [`DiceSource::stopped`] before each statement, so counting those
/// questions counts the statements run.
pub struct Walker {
    path: PathDice,
    steps: Cell<u64>,
    max_steps: u64,
    deadline: Option<Instant>,
    out: Cell<Option<Stop>>,
}

impl Walker {
    fn step(&self) -> bool {
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if self.out.get().is_some() {
            return true;
        }
        if n > self.max_steps {
            self.out.set(Some(Stop::Steps));
        } else if n % 4096 == 1 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            // On the first step too: the run's time may be up before this walk begins.
            self.out.set(Some(Stop::Time));
        }
        self.out.get().is_some()
    }
}

impl DiceSource for Walker {
    fn face(&mut self, sides: u32) -> u32 {
        self.step();
        self.path.face(sides)
    }

    fn stopped(&self) -> bool {
        self.step() || self.path.cut()
    }
}

/// Runs `resolve` on every dice path within `limits`; equal outcomes are merged (by hash,
/// so merging costs the same for the millionth outcome as for the first).
pub fn walk<R: Hash + Eq>(limits: &Limits, mut resolve: impl FnMut(&mut Walker) -> R) -> Walk<R> {
    let mut dice = Walker {
        path: PathDice::new(limits.walker_dice() as usize),
        steps: Cell::new(0),
        max_steps: limits.max_steps,
        deadline: limits.deadline(),
        out: Cell::new(None),
    };
    // Each outcome's mass, and when it was first reached (the order reported).
    let mut masses: HashMap<R, (usize, Mass)> = HashMap::new();
    let mut cut = Mass::default();
    let mut explored = Mass::default();
    let mut paths = 0u64;
    let stop = loop {
        dice.path.start();
        let outcome = resolve(&mut dice);
        if let Some(stop) = dice.out.get() {
            // The run was interrupted: its path is not visited.
            break Some(stop);
        }
        paths += 1;
        let sides = || dice.path.sides();
        explored.add(sides());
        if dice.path.cut() {
            cut.add(sides());
        } else {
            let first = masses.len();
            masses
                .entry(outcome)
                .or_insert_with(|| (first, Mass::default()))
                .1
                .add(sides());
        }
        if !dice.path.advance() {
            break None;
        }
        if paths >= limits.max_paths {
            break Some(Stop::Paths);
        }
    };
    let mut unexplored = cut.value();
    let was_cut = !unexplored.is_zero();
    if stop.is_some() {
        unexplored += Prob::one() - explored.value();
    }
    let mut outcomes: Vec<(usize, R, Prob)> = masses
        .into_iter()
        .map(|(r, (first, m))| (first, r, m.value()))
        .collect();
    outcomes.sort_unstable_by_key(|(first, _, _)| *first);
    Walk {
        outcomes: outcomes.into_iter().map(|(_, r, p)| (r, p)).collect(),
        unexplored,
        cut: was_cut,
        paths,
        stop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulesc_runtime::{roll, DiceSpec, NoTrace};

    fn limits(max_dice: u64, max_paths: u64) -> Limits {
        Limits {
            max_dice: Some(max_dice),
            max_paths,
            ..Limits::default()
        }
    }

    fn p(num: u64, den: u64) -> Prob {
        Prob::new(num.into(), den.into())
    }

    #[test]
    fn two_d6_has_the_triangle_distribution() {
        let w = walk(&limits(10, 1_000), |d| {
            roll(d, DiceSpec::new(2, 6), &mut NoTrace, 0).total
        });
        assert_eq!(w.paths, 36);
        assert_eq!(w.probability_of(&7), p(1, 6));
        assert_eq!(w.probability_of(&2), p(1, 36));
        assert_eq!(w.total(), Prob::one());
    }

    #[test]
    fn exploding_mass_beyond_the_bound_is_reported() {
        let spec = DiceSpec {
            explode: true,
            ..DiceSpec::new(1, 12)
        };
        let w = walk(&limits(3, 10_000), |d| roll(d, spec, &mut NoTrace, 0).total);
        // Three dice deep: 12, 12, then the third die's 12 would need a fourth die.
        assert_eq!(w.unexplored, p(1, 1728));
        assert_eq!(w.total(), Prob::one());
        assert_eq!(w.probability_of(&13), p(1, 144));
    }

    #[test]
    fn stopping_early_keeps_the_total_at_one() {
        let w = walk(&limits(10, 5), |d| {
            roll(d, DiceSpec::new(2, 6), &mut NoTrace, 0).total
        });
        assert_eq!(w.stop, Some(Stop::Paths));
        assert_eq!(w.paths, 5);
        assert_eq!(w.unexplored, p(31, 36));
        assert_eq!(w.total(), Prob::one());
    }

    #[test]
    fn the_step_budget_stops_the_walk() {
        let l = Limits {
            max_steps: 100,
            ..limits(10, 1_000_000)
        };
        let w = walk(&l, |d| roll(d, DiceSpec::new(3, 6), &mut NoTrace, 0).total);
        assert_eq!(w.stop, Some(Stop::Steps));
        // 100 dice drawn: 33 whole paths of three dice.
        assert_eq!(w.paths, 33);
        assert_eq!(w.total(), Prob::one());
    }

    #[test]
    fn paths_with_denominators_past_128_bits_add_exactly() {
        // 40 d12s: each path has probability 12^-40, far below 2^-128.
        let l = limits(40, 12);
        let w = walk(&l, |d| {
            roll(d, DiceSpec::new(40, 12), &mut NoTrace, 0).total
        });
        let den = num_bigint::BigInt::from(12u32).pow(40);
        let path = Prob::new(1.into(), den);
        assert_eq!(w.probability_of(&40), path);
        assert_eq!(w.probability_of(&51), path);
        assert_eq!(
            w.unexplored,
            Prob::one() - path * Prob::from_integer(12.into())
        );
        assert_eq!(w.total(), Prob::one());
    }
}
