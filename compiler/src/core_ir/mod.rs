//! The core IR (issue 25; the plan is `docs/design/core-ir.md`): a function lowered once
//! from the checked program into typed registers and explicit steps, trace points and
//! rule errors, which one VM ([`vm`]) runs. What every backend used to restate (when a
//! step is charged, which trace event fires, how a roll's total is shifted) is decided
//! here, in [`lower`], once.
//!
//! This is step 3 of the plan's transition: lowering takes a function when every node it
//! holds is one the core IR has, which is every node, the fights' included
//! (`tests/coverage.rs` asserts it of every function outside a fight of every ruleset
//! shipped or loaded by the tests, `fights.rs` of every function of the shipped
//! rulesets), but, for good, a function needing more `i64` registers than a frame holds
//! (`code::FRAME`). A function that does not lower runs on the walker (`eval`), which is
//! the VM's oracle in the tests until the VM takes everything.
//! `eval::call` and `eval::call_in` run a function on the VM when it lowered (in a fight
//! too; formulas traced too with `--trace-formulas`), so the interpreter's differential,
//! fight and walker tests run the VM against generated code and the walker. In a fight
//! the VM asks the fight's own rules (`crate::fight`'s
//! [`InFight`](crate::fight::InFight): `out` remembered in a calm, allies and enemies,
//! `in_order`, timers set), the same code the walker asks ([`vm`]'s `fight` module;
//! `fights.rs` holds each shipped fight on the VM to the walker).

mod code;
#[cfg(test)]
mod fights;
mod lower;
#[cfg(test)]
mod tests;
pub(crate) mod vm;

pub(crate) use code::Func;

use crate::ir::Program;

/// Every function of a program that lowers, by id (`None`: not yet, the walker runs it).
pub(crate) struct Module {
    pub(crate) functions: Vec<Option<Func>>,
}

impl Module {
    /// Function `id` lowered, if it lowered.
    pub(crate) fn func(&self, id: usize) -> Option<&Func> {
        self.functions.get(id)?.as_ref()
    }
}

/// `p` lowered, on its first run (kept with the program: [`Program::compiled`]).
pub(crate) fn module(p: &Program) -> &Module {
    p.compiled
        .get_or_init(|| lower(p))
        .expect("a program keeps only its lowered module")
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
