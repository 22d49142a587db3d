//! The VM's work for the steps a run tracing formulas too traces (`--trace-formulas`):
//! a formula's arguments and the conditions of `if .. then .. else`.

use super::{peek, Vm, FRAME};
use crate::core_ir::code::Shown;
use crate::eval::Value;
use rulesc_runtime::{Decide, DiceSource, TraceEvent, TraceSink};

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    /// [`crate::core_ir::code::Inst::TraceStep`]: emitted only when formulas are traced
    /// and the function is.
    #[inline(never)]
    pub(super) fn trace_step(
        &mut self,
        (site, line, text): (u32, u32, &str),
        shown: &Shown,
        (ints, vals): (&[i64; FRAME], &[Value]),
        traced: bool,
    ) {
        if !(traced && self.formulas) {
            return;
        }
        let value = match shown {
            Shown::Value(part, ty) => self.shown(&peek(*part, ints, vals), ty),
            Shown::Text(text) => text.to_string(),
            Shown::Taken(c) => if ints[usize::from(*c)] != 0 {
                "yes"
            } else {
                "no"
            }
            .into(),
        };
        self.env.trace.event(TraceEvent::Step {
            site,
            line,
            text: text.to_string(),
            value,
        });
    }
}
