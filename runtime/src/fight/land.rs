//! How the turns of a group acting at once ([`super::Ties::AtOnce`]) land: the rule of
//! merging, field by field, written once here; each backend walks its combatant's fields
//! and calls these.
//!
//! Every member's turn ran from the combatants as they were before the group. Their
//! changes land in the order the members joined, on a copy of that state, place by
//! place: a record field by field, a map keyed by a scale or enum entry by entry, and
//! at each place:
//! - a whole number (`int`) lands as a change: what the turn added or took away is added,
//!   so two blows of 4 and 5 on 10 hit points leave 1;
//! - an `int(lo..hi)` field the same, and a sum outside its range is a rule error, as any
//!   write outside it is;
//! - anything else (a `bool`, a level, a list, a track, ...) that a turn changed takes
//!   that turn's value: of two turns changing it, the later joiner's wins.

use crate::__private::arith;
use crate::error::{RuleError, RuleErrorKind};

/// An `int` field: the turn's change (`after - before`) added to what has landed.
#[inline]
pub fn int(now: &mut i64, before: i64, after: i64) {
    *now = arith::add(*now, arith::sub(after, before));
}

/// An `int(lo..hi)` field: as [`int`]; a sum outside `lo..=hi` is
/// [`RuleErrorKind::OutOfRange`] at `site`, the field left as it was.
#[inline]
pub fn ranged(
    now: &mut i64,
    before: i64,
    after: i64,
    (lo, hi): (i64, i64),
    site: u32,
) -> Result<(), RuleError> {
    let mut sum = *now;
    int(&mut sum, before, after);
    if sum < lo || sum > hi {
        return Err(RuleError::new(
            site,
            RuleErrorKind::OutOfRange { value: sum, lo, hi },
        ));
    }
    *now = sum;
    Ok(())
}

/// Any other field: the turn's value if the turn changed it.
#[inline]
pub fn other<V: PartialEq + Clone>(now: &mut V, before: &V, after: &V) {
    if after != before {
        *now = after.clone();
    }
}
