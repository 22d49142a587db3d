//! The runtime of `rulesc`: everything a compiled ruleset calls, and everything the
//! reference interpreter shares with it, so that both backends roll, trace and order
//! turns through one piece of code.
//!
//! - [`dice`]: the dice-source trait and its three kinds (seeded, scripted, enumerated),
//!   and [`dice::roll`], the one implementation of `NdM`, explosions and keep-highest.
//! - [`rolls`]: the same, specialised for dice known when the code was generated
//!   (`d12` is one face); generated code calls these for constant dice.
//! - [`trace`]: trace events and sinks; [`trace::NoTrace`] compiles to nothing.
//! - [`decide`]: decisions the caller supplies ("the GM picks").
//! - [`turn_order`]: rounds, turns, acted markers, re-ordering on initiative changes.
//! - [`track`]: rows of boxes filled from the lowest (wound boxes).
//! - [`env`]: the dice, decider and trace sink a resolution runs with.
//! - [`fight`]: fights as a process: sides, rounds, turns, ties, timers, triggers, the end.
//! - [`policy`]: how decisions are answered in a simulation (first, last, seeded random, fixed).
//! - [`error`]: rule errors (a value the rules do not define, met at run time).
//! - [`small_list`]: [`SmallList`], the lists generated code computes, inline up to a
//!   few items (no allocation).
//! - [`sorted_map`]: [`SortedMap`], a `map<K, V>` keyed by anything but a scale or enum.
//!
//! - `serde` (feature `serde`): dice, tracks and maps read and write through serde.
//! - [`prelude`]: the `alloc` names generated code uses unqualified.
//!
//! What only generated code and `rulesc`'s interpreter call (the language's checked
//! arithmetic, the rule-error checks, rolls of dice known at generation time, trace
//! text, serde helpers) is in `__private`: `#[doc(hidden)]`, not part of the API, free to
//! change between versions (as serde's `__private`). A game names only the items above;
//! `tests/tests/runtime_api.rs` holds that surface to a reviewed listing.
//!
//! Nothing in this crate knows any ruleset.
//!
//! The crate is `no_std` and needs only `core` and `alloc`, so a compiled ruleset runs
//! wherever an allocator does (a console, a wasm module, an embedded game). The default
//! `std` feature links `std`; build with `default-features = false` to go without it.

#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
pub mod decide;
pub mod dice;
pub mod enumerate;
pub mod env;
pub mod error;
pub mod fight;
pub mod policy;
#[cfg(feature = "serde")]
mod serial;
pub mod small_list;
pub mod sorted_map;
pub mod trace;
pub mod track;
pub mod turn_order;

/// The `serde` crate, for generated code built with `Builder::serde(true)`.
#[cfg(feature = "serde")]
pub use serde;

/// What generated code uses without a path: `String`, `Vec`, `Box`, `ToString` and the
/// `vec!` and `format!` macros, from `alloc`, so the same generated module compiles in a
/// `std` crate and in a `no_std` one. A generated module starts with
/// `use ::rulesc_runtime::prelude::*;`; a ruleset's names never shadow these (the code
/// generator reserves them).
pub mod prelude {
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec::Vec;
    pub use alloc::{format, vec};
}

/// Most numbers of a range `lo..hi` (a `for i in lo..hi` loop's turns, or the list)
/// whose bounds the rules do not fix: more is a rule error
/// ([`RuleErrorKind::RangeTooLong`]), in the interpreter and in generated code alike. A
/// range from a written number up to a list's length (`0..len(xs)`) is not held to it:
/// the list bounds it.
pub const MAX_LOOP: i64 = 10_000;

/// Most items of one list: appending past it is a rule error
/// ([`RuleErrorKind::ListTooLong`]), in the interpreter and in generated code alike.
pub const MAX_LIST: usize = 100_000;

pub use decide::{Decide, FirstOption, Scripted, ScriptedDecisions};
pub use dice::{
    roll, roll_faces, DiceSource, DiceSpec, Faces, Keep, Roll, ScriptedDice, SeededDice,
};
pub use enumerate::PathDice;
pub use env::Env;
pub use error::{RuleError, RuleErrorKind};
pub use fight::{
    Fight, FightEnd, FightRules, FightShape, Fighter, Hook, Moment, Period, Repeat, Side, Step,
    Ties,
};
pub use policy::{Answer, Policy};
pub use small_list::SmallList;
pub use sorted_map::SortedMap;
pub use trace::{NoTrace, Site, TraceEvent, TraceSink, VecTrace};
pub use track::Track;
pub use turn_order::TurnOrder;
