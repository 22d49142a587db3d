//! Dice: the only randomness a ruleset has.
//!
//! A [`DiceSource`] answers one question, "which face did this die show?". Three kinds:
//! [`SeededDice`] (play and simulation: the same seed gives the same faces on every
//! machine), [`ScriptedDice`] (replay a rulebook example with the faces the book gives)
//! and [`crate::PathDice`] (enumeration of every path, for exact odds).
//!
//! [`roll`] is the one implementation of `NdM`, exploding dice and keep-highest/lowest;
//! the interpreter and generated code both call it.

use crate::error::{RuleError, RuleErrorKind};
use crate::trace::{TraceEvent, TraceSink};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Most dice one roll may throw: the compiler rejects larger literals, and dice
/// multiplied past it ([`DiceSpec::times`]) are a rule error.
pub const MAX_DICE: i64 = 1_000;
/// Most faces a die may have.
pub const MAX_SIDES: i64 = 1_000_000;
/// Most extra dice one exploding die may add; the chain stops there.
pub const MAX_EXPLOSIONS: u32 = 100;
/// Most dice a keep-highest/lowest may keep (kept dice live on the stack).
pub const MAX_KEPT: u32 = 32;

/// Where faces come from. `face` returns a value in `1..=sides` (`sides >= 1`).
pub trait DiceSource {
    fn face(&mut self, sides: u32) -> u32;

    /// True when the source wants the resolution stopped (an enumeration cut this path
    /// off, or ran out of time): the interpreter then stops the run before its next
    /// statement, and its result is discarded. Sources for play never stop.
    #[inline]
    fn stopped(&self) -> bool {
        false
    }

    /// False when [`Self::stopped`] is always false: the interpreter then does not ask
    /// before each statement. True unless a source says otherwise (a source that stops
    /// and forgot to say so would run on).
    #[inline]
    fn may_stop(&self) -> bool {
        true
    }

    /// A source that decides whole rolls rather than single faces (an analysis that
    /// enumerates each roll's distinct totals instead of every face) returns the roll of
    /// `spec` at `site` here, and [`roll`] then draws no face. Sources for play return
    /// `None`.
    #[inline]
    fn whole(&mut self, spec: DiceSpec, site: u32) -> Option<Roll> {
        let _ = (spec, site);
        None
    }
}

impl<D: DiceSource + ?Sized> DiceSource for &mut D {
    #[inline]
    fn face(&mut self, sides: u32) -> u32 {
        (**self).face(sides)
    }

    #[inline]
    fn stopped(&self) -> bool {
        (**self).stopped()
    }

    #[inline]
    fn may_stop(&self) -> bool {
        (**self).may_stop()
    }

    #[inline]
    fn whole(&mut self, spec: DiceSpec, site: u32) -> Option<Roll> {
        (**self).whole(spec, site)
    }
}

/// Which dice of a roll count toward its total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keep {
    All,
    Highest(u32),
    Lowest(u32),
}

/// A dice expression: `count` dice of `sides` faces, optionally exploding on the highest
/// face, optionally keeping only the highest or lowest few.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceSpec {
    pub count: u32,
    pub sides: u32,
    pub explode: bool,
    pub keep: Keep,
}

impl DiceSpec {
    pub const fn new(count: u32, sides: u32) -> Self {
        DiceSpec {
            count,
            sides,
            explode: false,
            keep: Keep::All,
        }
    }

    /// The same dice, `factor` times as many (`dice * n`: a critical "doubles the damage
    /// dice"), or [`RuleErrorKind::DiceCount`] at `site` when that is fewer than 0 or
    /// more than [`MAX_DICE`] dice. No dice (`d6 * 0`) is a roll that totals 0. The one
    /// place a count computed while the rules run becomes dice: the interpreter and
    /// generated code both call it.
    pub fn times(self, factor: i64, site: u32) -> Result<Self, RuleError> {
        let count = i128::from(self.count) * i128::from(factor);
        if (0..=i128::from(MAX_DICE)).contains(&count) {
            Ok(DiceSpec {
                count: count as u32,
                ..self
            })
        } else {
            let count = count.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
            Err(RuleError::new(
                site,
                RuleErrorKind::DiceCount {
                    count,
                    max: MAX_DICE,
                },
            ))
        }
    }

    /// Lowest and highest total this roll can give without explosions.
    pub fn range(self) -> (i64, i64) {
        let counted = match self.keep {
            Keep::All => self.count,
            Keep::Highest(k) | Keep::Lowest(k) => k.min(self.count),
        };
        (
            i64::from(counted),
            i64::from(counted) * i64::from(self.sides),
        )
    }
}

/// No dice (`0d1`, totals 0): what a `dice` field without a default starts at, as in
/// the compiler's `Program::zero`.
impl Default for DiceSpec {
    fn default() -> Self {
        DiceSpec::new(0, 1)
    }
}

impl fmt::Display for DiceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "d{}", self.sides)?;
        match self.keep {
            Keep::All => {}
            Keep::Highest(k) => write!(f, "kh{k}")?,
            Keep::Lowest(k) => write!(f, "kl{k}")?,
        }
        if self.explode {
            write!(f, "!")?;
        }
        Ok(())
    }
}

/// A rolled value: its modified total and the natural face of its first die (what "an
/// unmodified 1" or "a natural 20" looks at). Adding a modifier to a roll keeps its
/// natural face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Roll {
    pub total: i64,
    pub natural: i64,
}

impl Roll {
    /// `roll + delta` (or `roll - delta` with `negate`): the total moved (saturating, as
    /// the language's `+` and `-`), the natural face kept.
    #[inline]
    pub fn shifted(self, delta: i64, negate: bool) -> Roll {
        let total = if negate {
            crate::__private::arith::sub(self.total, delta)
        } else {
            crate::__private::arith::add(self.total, delta)
        };
        Roll {
            total,
            natural: self.natural,
        }
    }
}

/// Rolls `spec` from `source`, records one [`TraceEvent::Roll`] at `site` when tracing is
/// on, and returns the total with the first die's natural face.
///
/// An exploding die that shows its highest face rolls again and adds, up to
/// [`MAX_EXPLOSIONS`] times. Keep-highest/lowest compares whole dice (explosions
/// included). A zero-sided or zero-count roll totals 0 and rolls nothing. A source that
/// decides whole rolls ([`DiceSource::whole`]) gives the roll instead, and no face is
/// drawn.
#[inline]
pub fn roll<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> Roll {
    roll_into(source, spec, trace, site, None)
}

/// [`roll`], also giving every die of the roll, kept and dropped (what `faces(r)`,
/// `kept(r)` and `dropped(r)` read). The same faces are drawn and the same event traced.
pub fn roll_faces<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> (Roll, Faces) {
    let mut dice = Vec::new();
    let r = roll_into(source, spec, trace, site, Some(&mut dice));
    (r, Faces::new(dice, spec.keep))
}

/// The roll of `spec` when the source decides whole rolls (`DiceSource::whole`), traced
/// as `roll` traces it; `None` for a source that draws faces.
#[inline]
pub(crate) fn decided_whole<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> Option<Roll> {
    let r = source.whole(spec, site)?;
    if T::ENABLED {
        trace.event(TraceEvent::Roll {
            site,
            dice: spec,
            faces: Vec::new(),
            total: r.total,
        });
    }
    Some(r)
}

#[inline]
fn roll_into<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
    mut dice: Option<&mut Vec<i64>>,
) -> Roll {
    // A source that decides whole rolls (an analysis) does so unless the faces are
    // wanted.
    if dice.is_none() {
        if let Some(r) = decided_whole(source, spec, trace, site) {
            return r;
        }
    }
    let mut faces: Vec<u32> = Vec::new();
    let count = spec.count.min(MAX_DICE as u32);
    let sides = spec.sides.min(MAX_SIDES as u32);
    let mut natural = 0i64;
    // Kept dice: a small buffer on the stack, used only by keep-highest/lowest.
    let mut kept = [0i64; MAX_KEPT as usize];
    let mut kept_len = 0usize;
    let keep = match spec.keep {
        Keep::All => None,
        Keep::Highest(k) => Some(((k.min(MAX_KEPT)) as usize, true)),
        Keep::Lowest(k) => Some(((k.min(MAX_KEPT)) as usize, false)),
    };
    let mut total = 0i64;
    if sides > 0 {
        for i in 0..count {
            let first = source.face(sides).clamp(1, sides);
            if T::ENABLED {
                faces.push(first);
            }
            if i == 0 {
                natural = i64::from(first);
            }
            let mut die = i64::from(first);
            if spec.explode && sides > 1 {
                let mut last = first;
                let mut explosions = 0;
                while last == sides && explosions < MAX_EXPLOSIONS {
                    last = source.face(sides).clamp(1, sides);
                    if T::ENABLED {
                        faces.push(last);
                    }
                    die = die.saturating_add(i64::from(last));
                    explosions += 1;
                }
            }
            if let Some(d) = dice.as_deref_mut() {
                d.push(die);
            }
            match keep {
                None => total = total.saturating_add(die),
                Some((n, highest)) => insert_kept(&mut kept, &mut kept_len, n, die, highest),
            }
        }
    }
    if keep.is_some() {
        total = kept[..kept_len]
            .iter()
            .fold(0i64, |a, &b| a.saturating_add(b));
    }
    if T::ENABLED {
        trace.event(TraceEvent::Roll {
            site,
            dice: spec,
            faces,
            total,
        });
    }
    Roll { total, natural }
}

/// Every die of one roll, in the order thrown: each die's value (an exploding die's
/// rolls added up), and whether it counts toward the total (keep-highest/lowest drop the
/// others; among equal dice the earlier ones are kept, so the kept dice sum to the total).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faces {
    dice: Vec<i64>,
    kept: Vec<bool>,
}

impl Faces {
    pub fn new(dice: Vec<i64>, keep: Keep) -> Faces {
        let n = dice.len();
        let (count, highest) = match keep {
            Keep::All => (n, true),
            Keep::Highest(k) => ((k.min(MAX_KEPT) as usize).min(n), true),
            Keep::Lowest(k) => ((k.min(MAX_KEPT) as usize).min(n), false),
        };
        let mut order: Vec<usize> = (0..n).collect();
        // Best first; a stable sort keeps the earlier of equal dice first.
        order.sort_by(|&a, &b| {
            if highest {
                dice[b].cmp(&dice[a])
            } else {
                dice[a].cmp(&dice[b])
            }
        });
        let mut kept = alloc::vec![false; n];
        for &i in order.iter().take(count) {
            kept[i] = true;
        }
        Faces { dice, kept }
    }

    /// Every die, kept and dropped.
    pub fn all(&self) -> Vec<i64> {
        self.dice.clone()
    }

    /// The dice that count toward the total.
    pub fn kept(&self) -> Vec<i64> {
        self.pick(true)
    }

    /// The dice keep-highest/lowest dropped.
    pub fn dropped(&self) -> Vec<i64> {
        self.pick(false)
    }

    fn pick(&self, kept: bool) -> Vec<i64> {
        self.dice
            .iter()
            .zip(&self.kept)
            .filter(|(_, &k)| k == kept)
            .map(|(&d, _)| d)
            .collect()
    }
}

/// Keeps the `n` best dice seen so far in `kept[..len]` (best = highest or lowest).
fn insert_kept(kept: &mut [i64], len: &mut usize, n: usize, die: i64, highest: bool) {
    if n == 0 {
        return;
    }
    let better = |a: i64, b: i64| if highest { a > b } else { a < b };
    if *len < n {
        kept[*len] = die;
        *len += 1;
        return;
    }
    // Replace the worst kept die if this one is better.
    let mut worst = 0;
    for i in 1..*len {
        if better(kept[worst], kept[i]) {
            worst = i;
        }
    }
    if better(die, kept[worst]) {
        kept[worst] = die;
    }
}

/// A seeded, reproducible, unbiased source: xoshiro256** seeded through SplitMix64, with
/// Lemire's multiply-and-reject for an exactly uniform face. Pure integer arithmetic, so
/// the same seed gives the same faces on every machine.
#[derive(Debug, Clone)]
pub struct SeededDice {
    s: [u64; 4],
}

impl SeededDice {
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        SeededDice {
            s: [next(), next(), next(), next()],
        }
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }
}

impl DiceSource for SeededDice {
    #[inline]
    fn face(&mut self, sides: u32) -> u32 {
        let n = u64::from(sides.max(1));
        // Lemire's nearly divisionless method: the high word of a 64x64 product is the
        // face; the rare low words below 2^64 mod n are rejected so every face is exactly
        // equally likely. The division runs only when a low word falls under n.
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u32 + 1
    }

    #[inline]
    fn may_stop(&self) -> bool {
        false
    }
}

/// Faces given in advance, taken in order: replay a worked example with the book's dice.
/// When the script runs out, or gives a face the die does not have, the source answers
/// with a valid face (1, or the clamped face) and records the problem, so a test can
/// assert the script fit exactly.
#[derive(Debug, Clone, Default)]
pub struct ScriptedDice {
    faces: Vec<u32>,
    next: usize,
    pub problems: Vec<String>,
}

impl ScriptedDice {
    pub fn new(faces: &[u32]) -> Self {
        ScriptedDice {
            faces: faces.to_vec(),
            next: 0,
            problems: Vec::new(),
        }
    }

    /// How many scripted faces were not used.
    pub fn remaining(&self) -> usize {
        self.faces.len().saturating_sub(self.next)
    }

    /// True when every face was used, none was missing and none was out of range.
    pub fn fits_exactly(&self) -> bool {
        self.problems.is_empty() && self.remaining() == 0
    }
}

impl DiceSource for ScriptedDice {
    fn face(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        match self.faces.get(self.next) {
            Some(&f) => {
                self.next += 1;
                if f == 0 || f > sides {
                    self.problems
                        .push(format!("scripted face {f} is not on a d{sides}"));
                }
                f.clamp(1, sides)
            }
            None => {
                self.problems
                    .push(format!("script ran out of faces for a d{sides}"));
                1
            }
        }
    }

    #[inline]
    fn may_stop(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{NoTrace, VecTrace};
    use alloc::string::ToString;

    #[test]
    fn only_sources_that_never_stop_say_so() {
        // Sources for play never stop: the interpreter need not ask them.
        assert!(!SeededDice::new(1).may_stop());
        assert!(!ScriptedDice::new(&[1]).may_stop());
        fn asked<D: DiceSource>(d: D) -> bool {
            d.may_stop()
        }
        assert!(!asked(&mut SeededDice::new(1)));
        // An enumeration's source stops paths, and any source says it may unless it
        // says otherwise.
        assert!(crate::PathDice::new(4).may_stop());
        struct Plain;
        impl DiceSource for Plain {
            fn face(&mut self, _: u32) -> u32 {
                1
            }
        }
        assert!(Plain.may_stop());
    }

    fn faces_of(spec: DiceSpec, script: &[u32]) -> (Roll, Faces, Vec<TraceEvent>) {
        let mut t = VecTrace::default();
        let (r, f) = roll_faces(&mut ScriptedDice::new(script), spec, &mut t, 3);
        (r, f, t.events)
    }

    #[test]
    fn roll_faces_gives_every_die_and_the_same_roll_and_event_as_roll() {
        let spec = DiceSpec::new(3, 6);
        let (r, f, events) = faces_of(spec, &[1, 1, 1]);
        assert_eq!(f.all(), [1, 1, 1]);
        assert_eq!(f.kept(), [1, 1, 1]);
        assert!(f.dropped().is_empty());
        let mut t = VecTrace::default();
        let plain = roll(&mut ScriptedDice::new(&[1, 1, 1]), spec, &mut t, 3);
        assert_eq!((r, events), (plain, t.events));
    }

    #[test]
    fn keep_highest_drops_the_lowest_and_keeps_the_earlier_of_equal_dice() {
        let spec = DiceSpec {
            keep: Keep::Highest(2),
            ..DiceSpec::new(4, 6)
        };
        let (r, f, _) = faces_of(spec, &[3, 5, 3, 1]);
        assert_eq!(f.all(), [3, 5, 3, 1]);
        assert_eq!(f.kept(), [3, 5]);
        assert_eq!(f.dropped(), [3, 1]);
        assert_eq!(r.total, f.kept().iter().sum::<i64>());
        let low = DiceSpec {
            keep: Keep::Lowest(1),
            ..DiceSpec::new(2, 20)
        };
        let (r, f, _) = faces_of(low, &[15, 6]);
        assert_eq!(
            (f.kept(), f.dropped(), r.total),
            (alloc::vec![6], alloc::vec![15], 6)
        );
    }

    #[test]
    fn an_exploding_die_is_one_die_of_its_rolls_added() {
        let spec = DiceSpec {
            explode: true,
            ..DiceSpec::new(2, 6)
        };
        let (r, f, _) = faces_of(spec, &[6, 2, 4]);
        assert_eq!(f.all(), [8, 4]);
        assert_eq!(r.total, 12);
    }

    #[test]
    fn seeded_faces_are_reproducible() {
        let mut a = SeededDice::new(42);
        let mut b = SeededDice::new(42);
        let fa: Vec<u32> = (0..100).map(|_| a.face(12)).collect();
        let fb: Vec<u32> = (0..100).map(|_| b.face(12)).collect();
        assert_eq!(fa, fb);
        // Pinned: the same seed gives these faces on every machine (integer-only
        // generator, no platform-dependent floats).
        assert_eq!(&fa[..8], &[2, 5, 9, 12, 12, 10, 9, 11]);
    }

    #[test]
    fn seeded_faces_are_uniform() {
        // Chi-square over 600,000 d12 faces; 11 degrees of freedom, 0.1% critical
        // value 31.26. A biased sampler fails this; a fair one passes it for this seed.
        let mut dice = SeededDice::new(7);
        let mut counts = [0u64; 12];
        let n = 600_000u64;
        for _ in 0..n {
            let f = dice.face(12);
            assert!((1..=12).contains(&f));
            counts[(f - 1) as usize] += 1;
        }
        let expected = n as f64 / 12.0;
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi < 31.26, "chi-square {chi} for counts {counts:?}");
    }

    #[test]
    fn exploding_die_adds_repeatedly() {
        let mut dice = ScriptedDice::new(&[12, 12, 5]);
        let mut trace = VecTrace::default();
        let r = roll(
            &mut dice,
            DiceSpec {
                explode: true,
                ..DiceSpec::new(1, 12)
            },
            &mut trace,
            0,
        );
        assert_eq!(
            r,
            Roll {
                total: 29,
                natural: 12
            }
        );
        assert!(dice.fits_exactly());
        assert_eq!(trace.events.len(), 1);
    }

    #[test]
    fn keep_highest_keeps_the_best_dice() {
        let mut dice = ScriptedDice::new(&[3, 18]);
        let spec = DiceSpec {
            keep: Keep::Highest(1),
            ..DiceSpec::new(2, 20)
        };
        assert_eq!(roll(&mut dice, spec, &mut NoTrace, 0).total, 18);
        let mut dice = ScriptedDice::new(&[4, 1, 6, 3]);
        let spec = DiceSpec {
            keep: Keep::Lowest(3),
            ..DiceSpec::new(4, 6)
        };
        assert_eq!(roll(&mut dice, spec, &mut NoTrace, 0).total, 8);
    }

    #[test]
    fn script_problems_are_recorded_not_panicked() {
        let mut dice = ScriptedDice::new(&[13]);
        assert_eq!(dice.face(12), 12);
        assert_eq!(dice.face(12), 1);
        assert_eq!(dice.problems.len(), 2);
    }

    #[test]
    fn dice_display_reads_like_the_book() {
        assert_eq!(
            DiceSpec {
                explode: true,
                ..DiceSpec::new(1, 12)
            }
            .to_string(),
            "d12!"
        );
        assert_eq!(
            DiceSpec {
                keep: Keep::Highest(1),
                ..DiceSpec::new(2, 20)
            }
            .to_string(),
            "2d20kh1"
        );
        assert_eq!(
            DiceSpec::new(2, 10).times(2, 0).unwrap().to_string(),
            "4d10"
        );
    }

    #[test]
    fn dice_times_n_throws_0_to_max_dice_and_errs_past_either_end() {
        let d6 = DiceSpec::new(1, 6);
        assert_eq!(d6.times(MAX_DICE, 0).unwrap().count, 1_000);
        assert_eq!(d6.times(0, 0).unwrap().count, 0);
        let err = |spec: DiceSpec, n: i64| spec.times(n, 5).unwrap_err();
        assert_eq!(
            err(d6, 1_001),
            RuleError::new(
                5,
                RuleErrorKind::DiceCount {
                    count: 1_001,
                    max: 1_000
                }
            )
        );
        assert_eq!(
            err(d6, -1).to_string(),
            "a roll of -1 dice: a roll throws 0 to 1000 dice"
        );
        // The count of the dice multiplied, not the factor, is held to the limit.
        assert_eq!(
            err(DiceSpec::new(3, 6), 334).kind,
            RuleErrorKind::DiceCount {
                count: 1_002,
                max: 1_000
            }
        );
        assert_eq!(
            err(DiceSpec::new(1_000, 6), i64::MAX).kind,
            RuleErrorKind::DiceCount {
                count: i64::MAX,
                max: 1_000
            }
        );
        // No dice stay no dice, whatever they are multiplied by.
        assert_eq!(DiceSpec::default().times(-5, 0).unwrap().count, 0);
        // A roll of no dice totals 0, with no natural face.
        let r = roll(
            &mut ScriptedDice::new(&[]),
            d6.times(0, 0).unwrap(),
            &mut NoTrace,
            0,
        );
        assert_eq!(
            r,
            Roll {
                total: 0,
                natural: 0
            }
        );
    }
}
