//! Rolls whose dice were known when the code was generated: the code generator picks one
//! of these for a constant dice expression (`d12`, `d12!`, `3d6`, `4d6kh3`) instead of
//! the general [`roll`](crate::dice::roll), so a plain `1d12` is one face and nothing
//! else.
//!
//! Each gives exactly what `roll` gives for the same dice: the same faces asked of the
//! source in the same order, the same total and natural face, and (when tracing is on)
//! the same [`TraceEvent::Roll`]. The unit tests below hold them to that on scripted and
//! seeded dice. Callers pass dice inside the limits `roll` clamps to (`1..=MAX_DICE`
//! dice of `1..=MAX_SIDES` sides, keeping fewer than `MAX_KEPT`); the code generator
//! uses the general path for anything else.

use crate::dice::{DiceSource, DiceSpec, Keep, Roll, MAX_EXPLOSIONS};
use crate::trace::{TraceEvent, TraceSink};
use alloc::vec;
use alloc::vec::Vec;

/// One face of a die, in range even if the source misbehaves (as `roll` clamps).
#[inline(always)]
fn face<D: DiceSource + ?Sized>(source: &mut D, sides: u32) -> u32 {
    source.face(sides).clamp(1, sides)
}

/// `1dN`: one face.
#[inline(always)]
pub fn one<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    sides: u32,
    trace: &mut T,
    site: u32,
) -> Roll {
    let f = face(source, sides);
    let total = i64::from(f);
    if T::ENABLED {
        trace.event(TraceEvent::Roll {
            site,
            dice: DiceSpec::new(1, sides),
            faces: vec![f],
            total,
        });
    }
    Roll {
        total,
        natural: total,
    }
}

/// One exploding die (`sides > 1`): rolls again and adds while it shows its highest face,
/// at most [`MAX_EXPLOSIONS`] more times. `faces` receives every face when tracing.
#[inline(always)]
fn exploding_die<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    sides: u32,
    first: u32,
    faces: &mut Vec<u32>,
) -> i64 {
    let mut die = i64::from(first);
    let mut last = first;
    let mut explosions = 0;
    while last == sides && explosions < MAX_EXPLOSIONS {
        last = face(source, sides);
        if T::ENABLED {
            faces.push(last);
        }
        // At most 1 + MAX_EXPLOSIONS faces below 2^32 each: far inside `i64`.
        die += i64::from(last);
        explosions += 1;
    }
    die
}

/// `1dN!` (`sides > 1`): a die that explodes on its highest face.
#[inline(always)]
pub fn exploding<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    sides: u32,
    trace: &mut T,
    site: u32,
) -> Roll {
    let first = face(source, sides);
    let mut faces = Vec::new();
    if T::ENABLED {
        faces.push(first);
    }
    let total = exploding_die::<D, T>(source, sides, first, &mut faces);
    if T::ENABLED {
        trace.event(TraceEvent::Roll {
            site,
            dice: DiceSpec {
                explode: true,
                ..DiceSpec::new(1, sides)
            },
            faces,
            total,
        });
    }
    Roll {
        total,
        natural: i64::from(first),
    }
}

/// `NdM` or `NdM!` without keep: the sum of the dice.
#[inline(always)]
pub fn sum<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> Roll {
    let sides = spec.sides;
    let mut faces = Vec::new();
    let mut total = 0i64;
    let mut natural = 0i64;
    for i in 0..spec.count {
        let first = face(source, sides);
        if T::ENABLED {
            faces.push(first);
        }
        if i == 0 {
            natural = i64::from(first);
        }
        let die = if spec.explode && sides > 1 {
            exploding_die::<D, T>(source, sides, first, &mut faces)
        } else {
            i64::from(first)
        };
        total = total.saturating_add(die);
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

/// `NdMkhK` / `NdMklK` (optionally exploding) with `N` dice: every die in a fixed array
/// of `N`, then the sum of the `K` highest (or lowest). `spec.count` must be `N`.
#[inline(always)]
pub fn keep<const N: usize, D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> Roll {
    let sides = spec.sides;
    let mut faces = Vec::new();
    let mut dice = [0i64; N];
    let mut natural = 0i64;
    for (i, die) in dice.iter_mut().enumerate() {
        let first = face(source, sides);
        if T::ENABLED {
            faces.push(first);
        }
        if i == 0 {
            natural = i64::from(first);
        }
        *die = if spec.explode && sides > 1 {
            exploding_die::<D, T>(source, sides, first, &mut faces)
        } else {
            i64::from(first)
        };
    }
    dice.sort_unstable();
    let kept = match spec.keep {
        Keep::All => &dice[..],
        Keep::Highest(k) => &dice[N - (k as usize).min(N)..],
        Keep::Lowest(k) => &dice[..(k as usize).min(N)],
    };
    let total = kept.iter().fold(0i64, |a, &b| a.saturating_add(b));
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

/// Most dice a keep-highest/lowest pool may have to be rolled by [`keep`], into a fixed
/// array.
pub const SMALL_POOL: u32 = 8;

/// How dice known before the roll are rolled: which function of this module (or the
/// general [`roll`](crate::dice::roll)). The one choice, read by the interpreter's VM when
/// it lowers a roll and by the code generator when it prints one, so the two cannot
/// disagree on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `1dN`: [`one`].
    One,
    /// `1dN!` with `N > 1`: [`exploding`].
    Exploding,
    /// `NdM` or `NdM!` without keep: [`sum`].
    Sum,
    /// `NdMkhK`/`NdMklK` with `N <= SMALL_POOL` and `K < MAX_KEPT`: [`keep`] with `N`.
    Keep,
    /// Anything else, and dice outside the limits `roll` clamps to: `roll`.
    General,
}

/// The [`Shape`] that rolls `spec`.
pub fn shape(spec: DiceSpec) -> Shape {
    use crate::dice::{MAX_DICE, MAX_KEPT, MAX_SIDES};
    let in_limits = spec.count >= 1
        && i64::from(spec.count) <= MAX_DICE
        && spec.sides >= 1
        && i64::from(spec.sides) <= MAX_SIDES;
    if !in_limits {
        return Shape::General;
    }
    match spec.keep {
        Keep::All if spec.count == 1 && !spec.explode => Shape::One,
        Keep::All if spec.count == 1 && spec.sides > 1 => Shape::Exploding,
        Keep::All => Shape::Sum,
        Keep::Highest(k) | Keep::Lowest(k) if spec.count <= SMALL_POOL && k < MAX_KEPT => {
            Shape::Keep
        }
        Keep::Highest(_) | Keep::Lowest(_) => Shape::General,
    }
}

/// What [`roll`](crate::dice::roll) gives for `spec`, for dice known before the roll (the
/// interpreter's constant dice), by its [`Shape`]: a source that decides whole rolls
/// decides it, as in `roll`.
#[inline]
pub fn known<D: DiceSource + ?Sized, T: TraceSink>(
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> Roll {
    by_shape(shape(spec), source, spec, trace, site)
}

/// [`known`] with the shape chosen beforehand (`shape` must be [`shape`]`(spec)`): the
/// interpreter's VM chooses it once, when it lowers the roll.
#[inline(always)]
pub fn by_shape<D: DiceSource + ?Sized, T: TraceSink>(
    shape: Shape,
    source: &mut D,
    spec: DiceSpec,
    trace: &mut T,
    site: u32,
) -> Roll {
    if let Some(r) = crate::dice::decided_whole(source, spec, trace, site) {
        return r;
    }
    match shape {
        Shape::One => one(source, spec.sides, trace, site),
        Shape::Exploding => exploding(source, spec.sides, trace, site),
        Shape::Sum => sum(source, spec, trace, site),
        Shape::Keep => match spec.count {
            1 => keep::<1, D, T>(source, spec, trace, site),
            2 => keep::<2, D, T>(source, spec, trace, site),
            3 => keep::<3, D, T>(source, spec, trace, site),
            4 => keep::<4, D, T>(source, spec, trace, site),
            5 => keep::<5, D, T>(source, spec, trace, site),
            6 => keep::<6, D, T>(source, spec, trace, site),
            7 => keep::<7, D, T>(source, spec, trace, site),
            8 => keep::<8, D, T>(source, spec, trace, site),
            n => unreachable!("`shape` gives `Keep` for at most SMALL_POOL = 8 dice, not {n}"),
        },
        Shape::General => crate::dice::roll(source, spec, trace, site),
    }
}

/// The `k`th (from 1) of the totals `lo..=hi` of `segments`, in order; past them, `k`.
/// A die table rolled `among` some values rolls a `dN` over the allowed totals and reads
/// the total this way, in both backends, without listing every total.
pub fn nth_total(segments: impl IntoIterator<Item = (i64, i64)>, k: i64) -> i64 {
    let mut left = k - 1;
    for (lo, hi) in segments {
        let n = hi - lo + 1;
        if left < n {
            return lo + left;
        }
        left -= n;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{roll, ScriptedDice, SeededDice};
    use crate::trace::{NoTrace, VecTrace};

    /// Every shape, rolled by `roll` and by its specialised function on the same dice,
    /// traced and untraced: same faces consumed, same result, same events.
    fn same_as_roll(spec: DiceSpec, special: impl Fn(&mut dyn DiceSource, &mut VecTrace) -> Roll) {
        for seed in 0..2_000 {
            let (mut a, mut b) = (SeededDice::new(seed), SeededDice::new(seed));
            let (mut ta, mut tb) = (VecTrace::default(), VecTrace::default());
            let ra = roll(&mut a, spec, &mut ta, 7);
            let rb = special(&mut b, &mut tb);
            assert_eq!(ra, rb, "{spec} seed {seed}");
            assert_eq!(ta, tb, "{spec} seed {seed}");
            // The next face agrees: both consumed the same number of faces.
            assert_eq!(a.face(1_000), b.face(1_000), "{spec} seed {seed}");
        }
    }

    #[test]
    fn one_face() {
        for sides in [1, 2, 6, 12, 20, 100] {
            same_as_roll(DiceSpec::new(1, sides), |d, t| one(d, sides, t, 7));
        }
    }

    #[test]
    fn exploding_die() {
        for sides in [2, 3, 6, 12] {
            let spec = DiceSpec {
                explode: true,
                ..DiceSpec::new(1, sides)
            };
            same_as_roll(spec, |d, t| exploding(d, sides, t, 7));
        }
        // A chain of highest faces stops after MAX_EXPLOSIONS more dice, as `roll` does.
        let chain = [2u32; 1 + MAX_EXPLOSIONS as usize + 1];
        let mut dice = ScriptedDice::new(&chain);
        let r = exploding(&mut dice, 2, &mut NoTrace, 0);
        assert_eq!(r.total, 2 * (1 + i64::from(MAX_EXPLOSIONS)));
        assert_eq!(dice.remaining(), 1);
    }

    #[test]
    fn sums() {
        for (count, sides, explode) in [
            (2, 6, false),
            (3, 6, false),
            (2, 10, true),
            (5, 2, true),
            (4, 1, true),
        ] {
            let spec = DiceSpec {
                explode,
                ..DiceSpec::new(count, sides)
            };
            same_as_roll(spec, |d, t| sum(d, spec, t, 7));
        }
    }

    #[test]
    fn keeps() {
        fn check<const N: usize>(sides: u32, keep: Keep, explode: bool) {
            let spec = DiceSpec {
                count: N as u32,
                sides,
                explode,
                keep,
            };
            same_as_roll(spec, |d, t| super::keep::<N, _, _>(d, spec, t, 7));
        }
        check::<2>(20, Keep::Highest(1), false);
        check::<2>(20, Keep::Lowest(1), false);
        check::<4>(6, Keep::Highest(3), false);
        check::<4>(6, Keep::Lowest(3), true);
        check::<3>(6, Keep::Highest(5), false);
        check::<3>(6, Keep::Highest(0), false);
        check::<1>(6, Keep::Lowest(1), true);
    }

    #[test]
    fn known_dice_roll_as_roll_does_by_their_shape() {
        use crate::dice::{MAX_KEPT, MAX_SIDES};
        let explode = |spec: DiceSpec| DiceSpec {
            explode: true,
            ..spec
        };
        let keep = |count, k| DiceSpec {
            keep: Keep::Highest(k),
            ..DiceSpec::new(count, 6)
        };
        let lowest = DiceSpec {
            keep: Keep::Lowest(2),
            ..explode(DiceSpec::new(4, 6))
        };
        let max_sides = u32::try_from(MAX_SIDES).unwrap();
        let max_dice = u32::try_from(crate::dice::MAX_DICE).unwrap();
        for (spec, want) in [
            (DiceSpec::new(1, 12), Shape::One),
            (DiceSpec::new(1, 1), Shape::One),
            (DiceSpec::new(1, max_sides), Shape::One),
            (DiceSpec::new(1, max_sides + 1), Shape::General),
            (DiceSpec::new(0, 6), Shape::General),
            (explode(DiceSpec::new(1, 12)), Shape::Exploding),
            (explode(DiceSpec::new(1, 2)), Shape::Exploding),
            // A d1 cannot explode: summed as a plain die, as `roll` does.
            (explode(DiceSpec::new(1, 1)), Shape::Sum),
            (DiceSpec::new(3, 6), Shape::Sum),
            (explode(DiceSpec::new(3, 6)), Shape::Sum),
            (DiceSpec::new(max_dice, 6), Shape::Sum),
            (DiceSpec::new(max_dice + 1, 6), Shape::General),
            (keep(2, 1), Shape::Keep),
            (keep(8, 3), Shape::Keep),
            (keep(9, 3), Shape::General),
            (keep(8, MAX_KEPT - 1), Shape::Keep),
            (keep(8, MAX_KEPT), Shape::General),
            (lowest, Shape::Keep),
        ] {
            assert_eq!(shape(spec), want, "{spec}");
            same_as_roll(spec, |d, t| known(d, spec, t, 7));
        }
    }

    /// A source that decides whole rolls: every roll totals 5.
    struct Whole(u32);

    impl DiceSource for Whole {
        fn face(&mut self, _: u32) -> u32 {
            self.0 += 1;
            1
        }

        fn whole(&mut self, _: DiceSpec, _: u32) -> Option<Roll> {
            Some(Roll {
                total: 5,
                natural: 5,
            })
        }
    }

    #[test]
    fn known_dice_are_decided_whole_by_a_source_that_decides_them() {
        for spec in [DiceSpec::new(1, 12), DiceSpec::new(3, 6)] {
            let (mut a, mut b) = (Whole(0), Whole(0));
            let (mut ta, mut tb) = (VecTrace::default(), VecTrace::default());
            assert_eq!(
                known(&mut a, spec, &mut ta, 3),
                roll(&mut b, spec, &mut tb, 3)
            );
            assert_eq!(ta, tb);
            assert_eq!((a.0, b.0), (0, 0), "no face drawn");
        }
    }

    #[test]
    fn scripted_faces_give_the_book_totals() {
        // 4d6 keep highest 3 on 4, 1, 6, 3: 4 + 6 + 3.
        let spec = DiceSpec {
            keep: Keep::Highest(3),
            ..DiceSpec::new(4, 6)
        };
        let mut dice = ScriptedDice::new(&[4, 1, 6, 3]);
        let r = keep::<4, _, _>(&mut dice, spec, &mut NoTrace, 0);
        assert_eq!((r.total, r.natural), (13, 4));
        // d12! on 12, 12, 5: 29, natural 12.
        let mut dice = ScriptedDice::new(&[12, 12, 5]);
        let r = exploding(&mut dice, 12, &mut NoTrace, 0);
        assert_eq!((r.total, r.natural), (29, 12));
        assert!(dice.fits_exactly());
    }
}
