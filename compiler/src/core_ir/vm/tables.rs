//! The VM's work for a table read by key (and column): the walker's own rule,
//! `eval::look_up`.

use super::{peek, store, Vm, FRAME};
use crate::core_ir::code::Part;
use crate::eval::{look_up, show_traced_in, Value};
use rulesc_runtime::{Decide, DiceSource, RuleError, TraceEvent, TraceSink};

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    /// [`crate::core_ir::code::Inst::LookupCell`], [`crate::core_ir::code::Inst::Lookup`]
    /// (no column), and the key [`crate::core_ir::code::Inst::LookupDense`] holds no row
    /// for.
    #[inline(never)]
    pub(super) fn cell(
        &mut self,
        (dst, table, key, column, site): (Part, u32, Part, Option<Part>, u32),
        (ints, vals): (&mut [i64; FRAME], &mut [Value]),
        traced: bool,
    ) -> Result<(), RuleError> {
        let t = &self.p.tables[table as usize];
        let k = peek(key, ints, vals);
        let col = column.map(|c| peek(c, ints, vals));
        let (p, fight) = (self.p, self.fight.as_deref());
        // Values as the walker's trace shows them: fighters by name.
        let show = |v: &Value, ty: &crate::ir::Ty| show_traced_in(p, fight, v, ty);
        match look_up(t, &k, col.as_ref(), traced, &show) {
            Ok((v, shown)) => {
                if let Some((key, value)) = shown {
                    self.env
                        .trace
                        .event(TraceEvent::Lookup { site, key, value });
                }
                store(dst, v, ints, vals);
                Ok(())
            }
            Err(kind) => Err(self.fail(site, kind, traced)),
        }
    }
}
