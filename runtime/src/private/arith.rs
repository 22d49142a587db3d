//! Integer arithmetic of the rules language. Every operation is total: overflow saturates
//! at the bounds of `i64`. The interpreter and the generated code both call these, so
//! they cannot disagree. The rules never divide by zero here: a divisor that may be 0
//! goes through [`super::error::div`] and [`super::error::rem`] (a rule error), and a
//! written `0` is refused by the checker; `div` and `rem` still give 0 for it rather than
//! panic.

// `add` and `sub` take the overflow as a cold branch (an add and a jump the predictor
// never takes) rather than `saturating_*`'s select, which costs a few instructions on
// every operation: rules arithmetic almost never reaches the bounds. Same results.
// The branch picks its bound inline, with no call: a call, even a cold one, clobbers the
// caller-saved registers, so the function around it keeps more values in callee-saved
// registers or on the stack on its hot path too (the bench's bare exchange: 98
// instructions with the call, 94 without; the hand-written one takes 88). The bound is
// read through `black_box`, which the optimizer cannot hoist: otherwise it turns the
// branch back into the select.

#[inline(always)]
pub fn add(a: i64, b: i64) -> i64 {
    match a.checked_add(b) {
        Some(sum) => sum,
        None => beyond(b > 0),
    }
}

#[inline(always)]
pub fn sub(a: i64, b: i64) -> i64 {
    match a.checked_sub(b) {
        Some(difference) => difference,
        None => beyond(b < 0),
    }
}

/// The bound an overflowing sum or difference saturates at: `i64::MAX` above. Inlined
/// into the cold branch (see the top of this file).
#[cold]
#[inline(always)]
fn beyond(above: bool) -> i64 {
    if core::hint::black_box(above) {
        i64::MAX
    } else {
        i64::MIN
    }
}

#[inline]
pub fn mul(a: i64, b: i64) -> i64 {
    a.saturating_mul(b)
}

#[inline]
pub fn neg(a: i64) -> i64 {
    a.saturating_neg()
}

/// Division rounds toward zero, as a rulebook's "half, rounded down" does for positive
/// numbers; `i64::MIN / -1` saturates. The divisor is never 0: a written `0` is the
/// checker's E0332, and a divisor that may be 0 goes through [`error::div`], a rule
/// error (`docs/reference.md`, "by zero, a rule error").
///
/// [`error::div`]: crate::__private::error::div
#[inline]
pub fn div(a: i64, b: i64) -> i64 {
    match a.checked_div(b) {
        Some(q) => q,
        None if b == 0 => unreachable!(
            "{a} / 0: a written 0 is the checker's E0332, any other divisor is checked first (`error::div`)"
        ),
        // `i64::MIN / -1`, the one overflow.
        None => i64::MAX,
    }
}

/// `div_up(a, b)`: the quotient rounded up (toward positive infinity), as a rulebook's
/// "half, rounded up" is `div_up(x, 2)`; `i64::MIN / -1` saturates. The divisor is never
/// 0, as for [`div`] ([`error::div_up`] checks one that may be).
///
/// [`error::div_up`]: crate::__private::error::div_up
#[inline]
pub fn div_up(a: i64, b: i64) -> i64 {
    let q = div(a, b);
    // Truncation rounded a positive quotient down: one more. A negative one it rounded
    // up already. `a % b` is only 0 or of a's sign, and never overflows here (`rem`).
    if rem(a, b) != 0 && (a < 0) == (b < 0) {
        q + 1
    } else {
        q
    }
}

/// Remainder with the sign of the dividend (`i64::MIN % -1` is 0). The divisor is never
/// 0, as for [`div`].
#[inline]
pub fn rem(a: i64, b: i64) -> i64 {
    match a.checked_rem(b) {
        Some(r) => r,
        None if b == 0 => unreachable!(
            "{a} % 0: a written 0 is the checker's E0332, any other divisor is checked first (`error::rem`)"
        ),
        // `i64::MIN % -1`: the true remainder, 0, overflows only in the hardware's division.
        None => 0,
    }
}

/// `level + delta` (`level - delta` when `negate`) of a level held as an index of any
/// width, on a scale of `len` levels: the one place every interpreter path steps a level
/// (a scale has at most 255 levels, E0360, so an index past that is read as the last byte).
#[inline]
pub fn level_plus(index: i64, delta: i64, negate: bool, len: u8) -> u8 {
    let delta = if negate { neg(delta) } else { delta };
    step_level(index.clamp(0, i64::from(u8::MAX)) as u8, delta, len)
}

/// Moves a level index by `delta` steps and saturates inside `0..len`. Scales ("Minor <
/// Moderate < Severe < Critical") step this way: one more than the top is the top.
#[inline]
pub fn step_level(index: u8, delta: i64, len: u8) -> u8 {
    let top = i64::from(len.saturating_sub(1));
    (i64::from(index).saturating_add(delta)).clamp(0, top) as u8
}

/// `clamp(x, lo, hi)` that never panics: when `lo > hi`, `hi` wins.
#[inline]
pub fn clamp(x: i64, lo: i64, hi: i64) -> i64 {
    x.max(lo).min(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_saturates_and_never_panics() {
        assert_eq!(add(i64::MAX, 1), i64::MAX);
        assert_eq!(add(i64::MIN, -1), i64::MIN);
        assert_eq!(add(i64::MAX, i64::MIN), -1);
        assert_eq!(sub(i64::MIN, 1), i64::MIN);
        assert_eq!(sub(i64::MAX, -1), i64::MAX);
        assert_eq!(sub(0, i64::MIN), i64::MAX);
        assert_eq!(sub(-1, i64::MIN), i64::MAX);
        assert_eq!(sub(-2, i64::MAX), i64::MIN);
        assert_eq!(mul(i64::MAX, 2), i64::MAX);
        assert_eq!(neg(i64::MIN), i64::MAX);
        assert_eq!(div(i64::MIN, -1), i64::MAX);
        assert_eq!(rem(i64::MIN, -1), 0);
        assert_eq!(div_up(i64::MIN, -1), i64::MAX);
        assert_eq!(div_up(i64::MAX, 2), i64::MAX / 2 + 1);
        assert_eq!(div_up(i64::MIN, 2), i64::MIN / 2);
    }

    /// "Half, rounded up": an odd total gains the half, an even one is halved; a
    /// quotient below zero rounds up toward zero, and signs on both sides cancel.
    #[test]
    fn div_up_rounds_toward_positive_infinity() {
        for (a, b, q) in [
            (6, 2, 3),
            (7, 2, 4),
            (8, 2, 4),
            (1, 2, 1),
            (0, 2, 0),
            (9, 3, 3),
            (10, 3, 4),
            (11, 3, 4),
            (-7, 2, -3),
            (-8, 2, -4),
            (7, -2, -3),
            (-7, -2, 4),
            (-8, -2, 4),
            (5, 1, 5),
            (5, -1, -5),
        ] {
            assert_eq!(div_up(a, b), q, "div_up({a}, {b})");
        }
    }

    #[test]
    #[should_panic(expected = "E0332")]
    fn a_division_by_zero_is_never_made_a_number() {
        div(7, 0);
    }

    #[test]
    #[should_panic(expected = "E0332")]
    fn a_remainder_by_zero_is_never_made_a_number() {
        rem(7, 0);
    }

    #[test]
    fn add_and_sub_saturate_exactly_as_the_standard_library_does() {
        let edges = [
            i64::MIN,
            i64::MIN + 1,
            i64::MIN / 2,
            -1_000,
            -2,
            -1,
            0,
            1,
            2,
            1_000,
            i64::MAX / 2,
            i64::MAX - 1,
            i64::MAX,
        ];
        for a in edges {
            for b in edges {
                assert_eq!(add(a, b), a.saturating_add(b), "{a} + {b}");
                assert_eq!(sub(a, b), a.saturating_sub(b), "{a} - {b}");
            }
        }
    }

    #[test]
    fn levels_saturate_at_both_ends() {
        assert_eq!(step_level(1, 3, 4), 3);
        assert_eq!(step_level(1, -5, 4), 0);
        assert_eq!(step_level(2, i64::MAX, 4), 3);
        assert_eq!(step_level(2, i64::MIN, 4), 0);
    }

    #[test]
    fn clamp_with_inverted_bounds_takes_the_upper() {
        assert_eq!(clamp(5, 10, 1), 1);
        assert_eq!(clamp(5, 1, 10), 5);
    }
}
