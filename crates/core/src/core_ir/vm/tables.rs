//! The VM's work for a table read by key (and column): the rule in `eval`,
//! `eval::look_up`.

use super::{level, peek, store, Vm, FRAME};
use crate::core_ir::code::{Part, Proj};
use crate::eval::{look_up, row_value, show_traced_in, Value};
use crate::ir::Const;
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
        // Values as a trace shows them: fighters by name.
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

    /// [`crate::core_ir::code::Inst::RowRead`]: the row's constant read along `path`.
    #[inline(never)]
    pub(super) fn row_read(
        &mut self,
        (dst, table, key, path, site): (Part, u32, Part, &[Proj], u32),
        (ints, vals): (&mut [i64; FRAME], &mut [Value]),
        traced: bool,
    ) -> Result<(), RuleError> {
        let (Part::Int(k) | Part::Level(k)) = key else {
            unreachable!("lowering reads a row along a path only by an int or level key")
        };
        let Some(mut at) = row_value(&self.p.tables[table as usize], ints[usize::from(k)]) else {
            // No row: the rule's own answer (`eval::look_up`), its error.
            return self.cell((dst, table, key, None, site), (ints, vals), traced);
        };
        for step in path {
            at = match (step, at) {
                (Proj::Field(i), Const::Record(r)) => &r.fields[*i as usize],
                (Proj::Entry(r), Const::Map(entries)) => {
                    &entries[usize::from(level(ints[usize::from(*r)]))]
                }
                (step, c) => unreachable!(
                    "lowering reads a row's path of its type's fields and entries ({step:?} of {c:?})"
                ),
            };
        }
        match (dst, at) {
            (Part::Int(r), Const::Int(i)) => ints[usize::from(r)] = *i,
            (Part::Bool(r), Const::Bool(b)) => ints[usize::from(r)] = i64::from(*b),
            (Part::Level(r), Const::Choice(c)) => ints[usize::from(r)] = i64::from(*c),
            (Part::Val(r), c) => vals[r as usize] = Value::from_const(c),
            (dst, c) => {
                unreachable!("lowering reads a row's value of its type ({c:?} into {dst:?})")
            }
        }
        Ok(())
    }
}
