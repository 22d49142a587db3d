//! The VM's work for a sorted map read and a map's keys: the rules in `eval`,
//! `eval::expr::sorted_get` and `eval::expr::keys_of`.

use super::{peek, store, Vm, FRAME};
use crate::core_ir::code::{Part, VReg};
use crate::eval::expr::{keys_of, sorted_get};
use crate::eval::Value;
use rulesc_runtime::{Decide, DiceSource, RuleError, TraceSink};

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    /// [`crate::core_ir::code::Inst::MapOf`]: charged at `budget`'s site.
    #[inline(never)]
    pub(super) fn map_of(
        &mut self,
        (dst, map, key): (Part, VReg, Option<Part>),
        (ints, vals): (&mut [i64; FRAME], &mut [Value]),
        (budget, traced): (u32, bool),
    ) -> Result<(), RuleError> {
        let m = &vals[map as usize];
        let (v, steps) = match (key, m) {
            (Some(k), Value::SortedMap(m)) => sorted_get(m, &peek(k, ints, vals)),
            (None, m) => keys_of(m),
            (Some(_), other) => {
                unreachable!("lowering reads by key with MapOf only sorted maps, not {other:?}")
            }
        };
        self.charge(steps, budget, traced)?;
        store(dst, v, ints, vals);
        Ok(())
    }
}
