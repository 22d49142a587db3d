//! Traces: what happened during a resolution, event by event, each citing the rule's
//! source position through a site index.
//!
//! Tracing is generic over a [`TraceSink`]. With [`NoTrace`] (`ENABLED = false`) every
//! `if T::ENABLED { ... }` in the interpreter and in generated code is removed at compile
//! time, so a resolution with tracing off formats nothing and allocates nothing.

use crate::dice::DiceSpec;
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

/// A position in the rules: file, 1-based line and column, and the source text of the
/// statement or expression there. Generated code keeps them in a `static SITES` table
/// (borrowed strings); the interpreter builds the same table (owned strings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub file: Cow<'static, str>,
    pub line: u32,
    pub col: u32,
    pub text: Cow<'static, str>,
}

impl Site {
    /// A site whose strings live in the program (what generated `SITES` tables hold).
    pub const fn new(file: &'static str, line: u32, col: u32, text: &'static str) -> Site {
        Site {
            file: Cow::Borrowed(file),
            line,
            col,
            text: Cow::Borrowed(text),
        }
    }
}

/// One thing that happened. `site` indexes the program's site table. Values are rendered
/// as the rules language prints them (`11`, `Moderate`, `Hit(level: Moderate, ...)`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TraceEvent {
    /// Dice thrown: every face in order (explosions included) and the total.
    Roll {
        site: u32,
        dice: DiceSpec,
        faces: Vec<u32>,
        total: i64,
    },
    /// A table was consulted.
    Lookup {
        site: u32,
        key: String,
        value: String,
    },
    /// A name was bound (`let`) or assigned, or a combatant's state was set.
    Assign { site: u32, value: String },
    /// An `if` condition was evaluated.
    Branch { site: u32, taken: bool },
    /// A `match` picked an arm.
    Match { site: u32, arm: String },
    /// The caller decided.
    Decide { site: u32, choice: String },
    /// A box of a track was filled (`slot` is 1-based; 0 when the track was full).
    Fill { site: u32, level: String, slot: i64 },
    /// A procedure was entered.
    Call { site: u32 },
    /// A procedure returned.
    Return { site: u32, value: String },
    /// The fight engine: a round or turn began, a fighter is out, the fight ended
    /// (`cite` false: `what` alone), or a timer or trigger at `site` fired (`cite` true:
    /// the site's text, then `what`, e.g. the fighter it fired for).
    Fight { site: u32, what: String, cite: bool },
    /// A rule error stopped the resolution here (see [`crate::error`]).
    RuleError { site: u32, message: String },
    /// A step inside a formula: an argument's value or the condition of an
    /// `if .. then .. else`, with its own `line` and source `text` (the site is the
    /// formula's). Only the interpreter records these, and only when asked
    /// (`rulesc trace --trace-formulas`); generated code never does.
    Step {
        site: u32,
        line: u32,
        text: String,
        value: String,
    },
}

impl TraceEvent {
    pub fn site(&self) -> u32 {
        match self {
            TraceEvent::Roll { site, .. }
            | TraceEvent::Lookup { site, .. }
            | TraceEvent::Assign { site, .. }
            | TraceEvent::Branch { site, .. }
            | TraceEvent::Match { site, .. }
            | TraceEvent::Decide { site, .. }
            | TraceEvent::Fill { site, .. }
            | TraceEvent::Call { site }
            | TraceEvent::Return { site, .. }
            | TraceEvent::Fight { site, .. }
            | TraceEvent::RuleError { site, .. }
            | TraceEvent::Step { site, .. } => *site,
        }
    }
}

/// Receives trace events. `ENABLED` is a constant so that code generic over the sink can
/// skip building events entirely when it is false.
pub trait TraceSink {
    const ENABLED: bool;
    fn event(&mut self, event: TraceEvent);
}

/// Tracing off: costs nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoTrace;

impl TraceSink for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _event: TraceEvent) {}
}

/// Tracing on: keeps every event.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct VecTrace {
    pub events: Vec<TraceEvent>,
}

impl TraceSink for VecTrace {
    const ENABLED: bool = true;
    fn event(&mut self, event: TraceEvent) {
        self.events.push(event);
    }
}

impl VecTrace {
    /// Renders the trace as text a reader can follow against the rulebook: one line per
    /// event, `file:line` first, then the rule's own source text and what it produced.
    /// Procedure calls indent what happens inside them.
    pub fn render(&self, sites: &[Site]) -> String {
        let lines: Vec<(String, String)> = self.lines(sites);
        let width = lines.iter().map(|(at, _)| at.len()).max().unwrap_or(0);
        let mut out = String::new();
        for (at, what) in lines {
            let _ = writeln!(out, "{at:<width$}  {what}");
        }
        out
    }

    fn lines(&self, sites: &[Site]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        for event in &self.events {
            let site = sites.get(event.site() as usize);
            let text = site.map(|s| s.text.as_ref()).unwrap_or("?");
            let what = match event {
                TraceEvent::Roll {
                    dice, faces, total, ..
                } => {
                    let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
                    if faces.len() == 1 {
                        format!("roll {dice}: {total}")
                    } else if dice.keep != crate::dice::Keep::All {
                        // Keep-highest/lowest: the faces are not summed; say what was kept.
                        format!("roll {dice}: {}, keeps {total}", faces.join(", "))
                    } else {
                        format!("roll {dice}: {} = {total}", faces.join(" + "))
                    }
                }
                TraceEvent::Lookup { key, value, .. } => format!("{text}: look up {key}: {value}"),
                TraceEvent::Assign { value, .. } => format!("{text}  ->  {value}"),
                TraceEvent::Branch { taken, .. } => {
                    format!("if {text}: {}", if *taken { "yes" } else { "no" })
                }
                TraceEvent::Match { arm, .. } => format!("case {text}  ({arm})"),
                TraceEvent::Decide { choice, .. } => format!("{text}  ->  decided: {choice}"),
                TraceEvent::Fill { level, slot, .. } => {
                    if *slot > 0 {
                        format!("{text}  ->  box {slot} ({level})")
                    } else {
                        format!("{text}  ->  no empty {level} box")
                    }
                }
                TraceEvent::Call { .. } => text.to_string(),
                TraceEvent::Return { value, .. } if value.is_empty() => "done".to_string(),
                TraceEvent::Return { value, .. } => format!("result: {value}"),
                TraceEvent::Fight {
                    what, cite: true, ..
                } if what.is_empty() => text.to_string(),
                TraceEvent::Fight {
                    what, cite: true, ..
                } => format!("{text}: {what}"),
                TraceEvent::Fight { what, .. } => format!("-- {what}"),
                TraceEvent::RuleError { message, .. } => format!("{text}: rule error: {message}"),
                TraceEvent::Step { text, value, .. } => format!("{text}: {value}"),
            };
            let indent = "  ".repeat(depth);
            let line = match event {
                TraceEvent::Step { line, .. } => *line,
                _ => site.map_or(0, |s| s.line),
            };
            let at = site
                .map(|s| format!("{}:{line}", s.file))
                .unwrap_or_default();
            out.push((at, format!("{indent}{what}")));
            match event {
                TraceEvent::Call { .. } => depth += 1,
                TraceEvent::Return { .. } => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        out
    }
}
