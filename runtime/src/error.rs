//! Rule errors: a value the rules do not define, met while a resolution runs (an index
//! outside a list, a key no table row holds, a decision with nothing to choose from).
//!
//! Both backends stop there and return the same [`RuleError`]: generated code as the
//! `Err` of a fallible formula or procedure, the interpreter as the `Err` of
//! `rulesc::eval::call`. The first traced procedure that meets one records a
//! [`TraceEvent::RuleError`](crate::TraceEvent::RuleError). Nothing is ever made up in
//! its place.
//!
//! [`RuleErrorKind`] is `#[non_exhaustive]`: a rule the language gains may bring a kind
//! of undefined value with it, and a game's `match` keeps compiling through that.

use alloc::string::String;
use core::fmt;

/// A rule error, and where in the rules it happened (`site` indexes the program's sites:
/// `SITES` in generated code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub site: u32,
    pub kind: RuleErrorKind,
}

/// What was undefined.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

/// The rule-error checks generated code and the interpreter call (`fail`, `index`, `div`,
/// ...) live in the hidden `__private::error`; the engine here names `fail` as it did.
pub(crate) use crate::__private::error::fail;
