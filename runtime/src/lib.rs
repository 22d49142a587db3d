//! The runtime of `rulesc`: everything a compiled ruleset calls, and everything the
//! reference interpreter shares with it, so that both backends roll, trace and order
//! turns through one piece of code.
//!
//! - [`dice`]: the dice-source trait and its three kinds (seeded, scripted, enumerated),
//!   and [`dice::roll`], the one implementation of `NdM`, explosions and keep-highest.
//! - [`trace`]: trace events and sinks; [`trace::NoTrace`] compiles to nothing.
//! - [`decide`]: decisions the caller supplies ("the GM picks").
//! - [`turn_order`]: rounds, turns, acted markers, re-ordering on initiative changes.
//! - [`track`]: rows of boxes filled from the lowest (wound boxes).
//! - [`env`]: the dice, decider and trace sink a resolution runs with.
//! - [`show`]: how values print in traces (lists, maps, boxes).
//! - [`arith`]: the checked integer arithmetic of the language (saturating, never panics).
//!
//! Nothing in this crate knows any ruleset.

pub mod arith;
pub mod decide;
pub mod dice;
pub mod enumerate;
pub mod env;
pub mod show;
pub mod trace;
pub mod track;
pub mod turn_order;

/// Most iterations of one `for i in lo..hi` loop; the loop stops there.
pub const MAX_LOOP: i64 = 10_000;

pub use decide::{Decide, FirstOption, ScriptedDecisions};
pub use dice::{roll, DiceSource, DiceSpec, Keep, Roll, ScriptedDice, SeededDice};
pub use enumerate::{enumerate, Enumeration, PathDice, Prob};
pub use env::Env;
pub use trace::{NoTrace, Site, TraceEvent, TraceSink, VecTrace};
pub use track::Track;
pub use turn_order::TurnOrder;
