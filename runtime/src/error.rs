//! Rule errors: a value the rules do not define, met while a resolution runs (an index
//! outside a list, a key no table row holds, a decision with nothing to choose from).
//!
//! Both backends stop there and return the same [`RuleError`]: generated code as the
//! `Err` of a fallible formula or procedure, the interpreter as the `Err` of
//! `rulesc::eval::call`. The first traced procedure that meets one records a
//! [`TraceEvent::RuleError`](crate::TraceEvent::RuleError) (see [`fail`]). Nothing is
//! ever made up in its place.

use alloc::string::String;
use core::fmt;

use crate::trace::{TraceEvent, TraceSink};

/// A rule error, and where in the rules it happened (`site` indexes the program's sites:
/// `SITES` in generated code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub site: u32,
    pub kind: RuleErrorKind,
}

/// What was undefined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleErrorKind {
    /// `list[i]` read or assigned with `i` outside `0..len`.
    Index { index: i64, len: usize },
    /// `table[key]` when no row holds `key` and the table has no default.
    NoRow { table: &'static str, key: String },
    /// `map[key]` on a map without an entry for `key`.
    NoKey { key: String },
    /// `decide .. from` an empty list.
    NoOptions { decision: &'static str },
    /// A value for a range-typed place (`int(1..10)`) outside its range.
    OutOfRange { value: i64, lo: i64, hi: i64 },
    /// An optional value read as a value while it is `none`.
    NoValue,
    /// `a / b` or `a % b` with `b == 0`.
    DivideByZero,
    /// `list += ..` that would make the list longer than [`crate::MAX_LIST`] items
    /// (`len`: the length it would have had). The list is left as it was.
    ListTooLong { len: usize, max: usize },
    /// A range `lo..hi` whose bounds the rules do not fix holds more than `max`
    /// ([`crate::MAX_LOOP`]) numbers (`len`: how many it would hold). Nothing ran.
    RangeTooLong { len: u64, max: u64 },
    /// `dice * n` that would throw `count` dice: fewer than 0, or more than `max`
    /// ([`crate::dice::MAX_DICE`]). Nothing was rolled.
    DiceCount { count: i64, max: i64 },
    /// The interpreter's budget of steps for one run was spent (`rulesc` only: generated
    /// code runs the rules, which always end, to the end).
    TooManySteps { max: u64 },
    /// More than `max` timers, `on every` hooks and triggers fired at one moment of a
    /// fight, or in one `advance` ([`crate::fight::MAX_FIRES`]): a rule that keeps
    /// scheduling itself for now, or world time moved past more than the engine runs.
    TooManyFires { max: u32 },
    /// An `advance` made while `max` were under way ([`crate::fight::MAX_ADVANCE_DEPTH`]):
    /// a hook or timer that `advance` runs moves world time again, and what that runs
    /// does the same. Nothing of that `advance` ran.
    TooDeep { max: u32 },
}

impl RuleError {
    pub fn new(site: u32, kind: RuleErrorKind) -> RuleError {
        RuleError { site, kind }
    }
}

impl fmt::Display for RuleErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleErrorKind::Index { index, len } => {
                if *len == 0 {
                    write!(f, "list index {index} is outside the empty list")
                } else {
                    write!(f, "list index {index} is outside 0..{len}")
                }
            }
            RuleErrorKind::NoRow { table, key } => {
                write!(f, "table `{table}` has no row for {key}")
            }
            RuleErrorKind::NoKey { key } => write!(f, "the map has no entry for {key}"),
            RuleErrorKind::NoOptions { decision } => {
                write!(
                    f,
                    "decision `{decision}` has no options (the list is empty)"
                )
            }
            RuleErrorKind::OutOfRange { value, lo, hi } => {
                write!(f, "{value} is outside int({lo}..{hi})")
            }
            RuleErrorKind::NoValue => write!(f, "the value is none"),
            RuleErrorKind::DivideByZero => write!(f, "division by zero"),
            RuleErrorKind::ListTooLong { len, max } => {
                write!(f, "the list would hold {len} items, more than {max}")
            }
            RuleErrorKind::RangeTooLong { len, max } => {
                write!(f, "the range holds {len} numbers, more than {max}")
            }
            RuleErrorKind::DiceCount { count, max } => {
                write!(f, "a roll of {count} dice: a roll throws 0 to {max} dice")
            }
            RuleErrorKind::TooManySteps { max } => {
                write!(f, "the run took more than {max} steps")
            }
            RuleErrorKind::TooManyFires { max } => {
                write!(
                    f,
                    "more than {max} timers, hooks and triggers fired at one moment or in one advance"
                )
            }
            RuleErrorKind::TooDeep { max } => {
                write!(
                    f,
                    "advance nested more than {max} deep: what an advance runs advances again"
                )
            }
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RuleError {}

/// Records `e` in the trace (when tracing is on) and gives it back: what a procedure does
/// with a rule error it meets itself or gets from a formula it calls. An error from a
/// procedure it calls is already recorded and is passed on as it is.
#[inline]
pub fn fail<T: TraceSink>(trace: &mut T, e: RuleError) -> RuleError {
    if T::ENABLED {
        trace.event(TraceEvent::RuleError {
            site: e.site,
            message: alloc::string::ToString::to_string(&e.kind),
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
    if b == 0 {
        Err(RuleError::new(site, RuleErrorKind::DivideByZero))
    } else {
        Ok(crate::arith::div(a, b))
    }
}

/// `a % b` with the sign of `a`, or [`RuleErrorKind::DivideByZero`] at `site`.
#[inline]
pub fn rem(a: i64, b: i64, site: u32) -> Result<i64, RuleError> {
    if b == 0 {
        Err(RuleError::new(site, RuleErrorKind::DivideByZero))
    } else {
        Ok(crate::arith::rem(a, b))
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
    use alloc::string::ToString;

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
