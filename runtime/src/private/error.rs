//! The checks both backends make where the rules may not define a value: each gives a
//! [`RuleError`] at the site the code names, never a made-up value (`index`, `div`,
//! `in_range`, `room`, ...), and [`fail`] records one in the trace.
//!
//! Hidden (`__private::error`): generated code and the interpreter call these; a game
//! meets their errors as [`RuleError`], never calls them.

use alloc::string::ToString;

use crate::error::{RuleError, RuleErrorKind};
use crate::trace::{TraceEvent, TraceSink};

/// Records `e` in the trace (when tracing is on) and gives it back: what a procedure does
/// with a rule error it meets itself or gets from a formula it calls. An error from a
/// procedure it calls is already recorded and is passed on as it is.
#[inline]
pub fn fail<T: TraceSink>(trace: &mut T, e: RuleError) -> RuleError {
    if T::ENABLED {
        trace.event(TraceEvent::RuleError {
            site: e.site,
            message: e.kind.to_string(),
        });
    }
    e
}

/// Checks that a list of `len` items may take `more`: [`RuleErrorKind::ListTooLong`] at
/// `site` past [`crate::MAX_LIST`], before anything is appended.
#[inline]
pub fn room(len: usize, more: usize, site: u32) -> Result<(), RuleError> {
    let total = len.saturating_add(more);
    if total > crate::MAX_LIST {
        Err(RuleError::new(
            site,
            RuleErrorKind::ListTooLong {
                len: total,
                max: crate::MAX_LIST,
            },
        ))
    } else {
        Ok(())
    }
}

/// Checks that the range `lo..hi` holds at most [`crate::MAX_LOOP`] numbers:
/// [`RuleErrorKind::RangeTooLong`] at `site` past it, before the loop's first turn.
#[inline]
pub fn range_room(lo: i64, hi: i64, site: u32) -> Result<(), RuleError> {
    let len = (i128::from(hi) - i128::from(lo)).max(0);
    if len > i128::from(crate::MAX_LOOP) {
        Err(RuleError::new(
            site,
            RuleErrorKind::RangeTooLong {
                len: len as u64,
                max: crate::MAX_LOOP as u64,
            },
        ))
    } else {
        Ok(())
    }
}

/// The value of an optional the checker proved is not none (inside `if x != none`,
/// where `x` cannot change): generated code reads a narrowed optional through this.
#[inline]
pub fn known<T>(x: Option<T>) -> T {
    match x {
        Some(v) => v,
        None => unreachable!("rulesc proved this optional value is not none"),
    }
}

/// The value of a step that may fail (a rule error) where the checker proved it does
/// not (`d6 * rank` with `rank` an `int(0..5)` field): generated code reads it through
/// this.
#[inline]
pub fn proven<T>(r: Result<T, RuleError>) -> T {
    match r {
        Ok(v) => v,
        Err(_) => unreachable!("rulesc proved this step meets no rule error"),
    }
}

/// `list[index]`, or [`RuleErrorKind::Index`] at `site`.
#[inline]
pub fn index<T>(list: &[T], index: i64, site: u32) -> Result<&T, RuleError> {
    usize::try_from(index)
        .ok()
        .and_then(|i| list.get(i))
        .ok_or(RuleError::new(
            site,
            RuleErrorKind::Index {
                index,
                len: list.len(),
            },
        ))
}

/// `list[index]` to change, or [`RuleErrorKind::Index`] at `site`.
#[inline]
pub fn index_mut<T>(list: &mut [T], index: i64, site: u32) -> Result<&mut T, RuleError> {
    let len = list.len();
    usize::try_from(index)
        .ok()
        .and_then(|i| list.get_mut(i))
        .ok_or(RuleError::new(site, RuleErrorKind::Index { index, len }))
}

/// `a / b` rounding toward zero (`i64::MIN / -1` saturates), or
/// [`RuleErrorKind::DivideByZero`] at `site`.
#[inline]
pub fn div(a: i64, b: i64, site: u32) -> Result<i64, RuleError> {
    divided(crate::__private::arith::div, a, b, site)
}

/// `div_up(a, b)`, the quotient rounded up (`arith::div_up`), or
/// [`RuleErrorKind::DivideByZero`] at `site`.
#[inline]
pub fn div_up(a: i64, b: i64, site: u32) -> Result<i64, RuleError> {
    divided(crate::__private::arith::div_up, a, b, site)
}

/// `a % b` with the sign of `a`, or [`RuleErrorKind::DivideByZero`] at `site`.
#[inline]
pub fn rem(a: i64, b: i64, site: u32) -> Result<i64, RuleError> {
    divided(crate::__private::arith::rem, a, b, site)
}

/// The one rule of a division by a divisor that may be 0: `op(a, b)`, or
/// [`RuleErrorKind::DivideByZero`] at `site` when `b` is 0.
#[inline(always)]
fn divided(op: fn(i64, i64) -> i64, a: i64, b: i64, site: u32) -> Result<i64, RuleError> {
    if b == 0 {
        Err(RuleError::new(site, RuleErrorKind::DivideByZero))
    } else {
        Ok(op(a, b))
    }
}

/// `value` if it lies in `lo..=hi`, else [`RuleErrorKind::OutOfRange`] at `site`.
#[inline]
pub fn in_range(value: i64, lo: i64, hi: i64, site: u32) -> Result<i64, RuleError> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(RuleError::new(
            site,
            RuleErrorKind::OutOfRange { value, lo, hi },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VecTrace;

    #[test]
    fn index_reads_inside_and_reports_just_outside_both_ends() {
        let xs = [10, 20, 30];
        assert_eq!(index(&xs, 0, 1), Ok(&10));
        assert_eq!(index(&xs, 2, 1), Ok(&30));
        let e = index(&xs, 3, 7).unwrap_err();
        assert_eq!(e.site, 7);
        assert_eq!(e.to_string(), "list index 3 is outside 0..3");
        assert_eq!(
            index(&xs, -1, 7).unwrap_err().kind,
            RuleErrorKind::Index { index: -1, len: 3 }
        );
        assert_eq!(
            index::<i64>(&[], 0, 1).unwrap_err().to_string(),
            "list index 0 is outside the empty list"
        );
    }

    #[test]
    fn division_by_zero_is_an_error_and_by_one_is_not() {
        assert_eq!(div(7, 1, 0), Ok(7));
        assert_eq!(div(7, 0, 4).unwrap_err().kind, RuleErrorKind::DivideByZero);
        assert_eq!(rem(7, 0, 4).unwrap_err().to_string(), "division by zero");
        assert_eq!(div(i64::MIN, -1, 0), Ok(i64::MAX));
    }

    #[test]
    fn in_range_takes_both_bounds_and_rejects_one_past_each() {
        assert_eq!(in_range(1, 1, 10, 0), Ok(1));
        assert_eq!(in_range(10, 1, 10, 0), Ok(10));
        assert_eq!(
            in_range(11, 1, 10, 0).unwrap_err().to_string(),
            "11 is outside int(1..10)"
        );
        assert!(in_range(0, 1, 10, 0).is_err());
    }

    #[test]
    fn fail_records_one_event_when_tracing() {
        let mut t = VecTrace::default();
        let e = fail(&mut t, RuleError::new(3, RuleErrorKind::NoValue));
        assert_eq!(e.site, 3);
        assert_eq!(
            t.events,
            [TraceEvent::RuleError {
                site: 3,
                message: "the value is none".into()
            }]
        );
    }
}
