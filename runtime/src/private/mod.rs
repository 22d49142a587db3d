//! What generated code and `rulesc`'s interpreter call, and a game does not: hidden from
//! the documentation (`#[doc(hidden)]`), outside the runtime's API (the listing in
//! `tests/tests/runtime_api.rs` leaves it out) and free to change with `rulesc`, as
//! serde's `__private` is. A generated module names these by their full path; nothing
//! here is meant to be called by hand.
//!
//! - [`arith`]: the language's checked integer arithmetic (saturating, never panics).
//! - [`error`]: the checks that give a rule error where the rules define no value, and
//!   `fail`, which records one in the trace; `known` and `proven` read a value the
//!   checker proved is there (they panic only on a bug in `rulesc`, which is why they are
//!   here and not in the API).
//! - [`rolls`]: `roll` specialised for dice known at generation time.
//! - [`show`]: how values print in traces (lists, maps, boxes), cut at `MAX_SHOWN`.
//! - [`branch`]: a condition of a long `else if` chain, traced.
//! - [`in_order`], [`Cow`]: what a generated fight's rules name; [`land`]: how the turns
//!   of a group acting at once land (`ties at once`), field by field.
//! - `serial` (feature `serde`): the `#[serde(with = ..)]` helpers of generated types.

pub mod arith;
pub mod error;
pub mod rolls;
pub mod show;

pub use crate::fight::land;
pub use crate::fight::play::in_order;
pub use alloc::borrow::Cow;

/// `taken`, an `if`'s condition, traced as branch `site` (`TraceEvent::Branch`) and given
/// back: how a long `else if` chain prints each condition, `} else if branch(..) {`,
/// without a block nested per arm.
#[inline(always)]
pub fn branch<T: crate::TraceSink>(taken: bool, trace: &mut T, site: u32) -> bool {
    if T::ENABLED {
        trace.event(crate::TraceEvent::Branch { site, taken });
    }
    taken
}

/// The serde helpers generated types name in their `#[serde(..)]` attributes.
#[cfg(feature = "serde")]
pub mod serial {
    pub use crate::serial::{Map, MapKey, TrackOf};
}
