//! The core IR (issue 25; the plan is `docs/design/core-ir.md`): a function lowered once
//! from the checked program into typed registers and explicit steps, trace points and
//! rule errors, which one VM ([`vm`]) runs. What every backend used to restate (when a
//! step is charged, which trace event fires, how a roll's total is shifted) is decided
//! here, in [`lower`], once.
//!
//! This is step 2 of the plan's transition: lowering takes a function only when every
//! node it holds is one the core IR has so far (not yet: `Fighter` values and the
//! fight's queries, hooks and triggers; `find`, `sort`, `best`, `keys` and ranges as
//! values; maps keyed by records); any other function runs on the closures of
//! `eval::compile`, which stay the reference until the VM
//! takes everything. `eval::call` runs a procedure on the VM when it lowered (outside
//! fights, with formulas untraced), so the interpreter's differential and walker tests
//! run the VM for those procedures against generated code and the walker.

mod code;
#[cfg(test)]
mod fights;
mod lower;
#[cfg(test)]
mod tests;
pub(crate) mod vm;

pub(crate) use code::Func;

use crate::ir::Program;

/// Every function of a program that lowers, by id (`None`: not yet, the closures run it).
pub(crate) struct Module {
    pub(crate) functions: Vec<Option<Func>>,
}

/// Lowers what lowers of `p`: a function lowers when its body does and every function
/// it calls lowered (callees first; no function calls itself, the checker's invariant).
pub(crate) fn lower(p: &Program) -> Module {
    let mut functions: Vec<Option<Option<Func>>> = (0..p.functions.len()).map(|_| None).collect();
    for id in 0..p.functions.len() {
        lower::lower_into(p, id, &mut functions);
    }
    Module {
        functions: functions.into_iter().map(Option::flatten).collect(),
    }
}
