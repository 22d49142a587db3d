//! The VM in a fight: its built-ins, timers and `advance` run by the fight's own rules
//! (`crate::fight`), with the VM as the evaluator they
//! ask ([`InFight`]) for the `out` and `order` formulas.

use super::{bind, peek, store, value, Frame, Vm, FRAME};
use crate::core_ir::code::{Inst, Part};
use crate::eval::Value;
use crate::fight::{self as rules, EvalRules, InFight};
use crate::ir::Program;
use rulesc_runtime::fight::Res;
use rulesc_runtime::{__private::error, Decide, DiceSource, Fight, TraceEvent, TraceSink};

/// The VM running at `site` (where a spent budget is reported), traced or not: what the
/// fight's rules ask of the evaluator running them.
struct Here<'v, 'a, D, X, T> {
    vm: &'v mut Vm<'a, D, X, T>,
    site: u32,
    traced: bool,
}

impl<D: DiceSource, X: Decide, T: TraceSink> InFight for Here<'_, '_, D, X, T> {
    fn prog(&self) -> &Program {
        self.vm.p
    }

    fn fight(&self) -> Option<&Fight<Value>> {
        self.vm.fight.as_deref()
    }

    fn fight_mut(&mut self) -> Option<&mut Fight<Value>> {
        self.vm.fight.as_deref_mut()
    }

    fn steps(&mut self) -> &mut u64 {
        &mut self.vm.steps
    }

    fn formulas_traced(&self) -> bool {
        self.vm.formulas
    }

    fn formula(&mut self, id: usize, arg: Value) -> Res<Value> {
        self.vm.call_values(id, [arg], self.site, self.traced)
    }

    fn on(&self) -> bool {
        self.traced
    }

    fn event(&mut self, e: TraceEvent) {
        self.vm.env.trace.event(e);
    }
}

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    /// Function `id` called with `args` by a rule of the fight (its `out` or `order`
    /// formula): one step charged at `site`, then its body, as any call; a formula's rule
    /// error recorded when the caller is traced.
    fn call_values<const N: usize>(
        &mut self,
        id: usize,
        args: [Value; N],
        site: u32,
        traced: bool,
    ) -> Res<Value> {
        self.charge(1, site, traced)?;
        let f = self.module.functions[id].as_ref().unwrap_or_else(|| {
            unreachable!("a function lowers only when the fight's formulas it asks lowered")
        });
        let mut frame = Frame::take(&mut self.pool, f);
        for (part, v) in f.params.iter().zip(args) {
            bind(*part, v, &mut frame);
        }
        let got = self.exec(f, &mut frame);
        let got = got.map(|ret| value(ret, &frame.ints, &mut frame.vals));
        frame.give_back(&mut self.pool);
        match got {
            Err(e) if traced && !f.traced => Err(error::fail(&mut self.env.trace, e)),
            other => other,
        }
    }

    /// Runs one of the fight's instructions ([`Inst::Combatant`], [`Inst::FightQuery`],
    /// [`Inst::Schedule`], [`Inst::Advance`], [`Inst::Detach`]) in `regs` and `vregs`.
    #[inline(never)]
    pub(super) fn fight_op(
        &mut self,
        inst: &Inst,
        regs: &mut [i64; FRAME],
        vregs: &mut [Value],
        site: u32,
        traced: bool,
    ) -> Res<()> {
        match inst {
            Inst::Combatant { dst, who } => {
                vregs[*dst as usize] = rules::combatant(self.fight.as_deref(), regs[*who as usize]);
            }
            Inst::FightCount { q, arg, dst } => {
                let arg = peek(*arg, regs, vregs);
                let mut here = Here {
                    vm: self,
                    site,
                    traced,
                };
                regs[*dst as usize] = rules::count(&mut here, *q, Some(arg))?;
            }
            Inst::FightQuery { q, arg, dst } => {
                let arg = arg.map(|a| peek(a, regs, vregs));
                let mut here = Here {
                    vm: self,
                    site,
                    traced,
                };
                let v = rules::query(&mut here, *q, arg)?;
                if *dst != Part::Unit {
                    store(*dst, v, regs, vregs);
                }
            }
            Inst::Schedule {
                at,
                operand,
                action,
                args,
                site,
            } => {
                let operand = operand.map_or(0, |r| regs[r as usize]);
                let values = args.iter().map(|r| regs[*r as usize]).collect();
                let mut here = Here {
                    vm: self,
                    site: *site,
                    traced,
                };
                rules::set_timer(&mut here, at, operand, *action as usize, values, *site);
            }
            Inst::Advance { amount } => {
                let amount = regs[*amount as usize];
                let (Some(fight), Some(rules)) =
                    (self.fight.as_deref_mut(), EvalRules::within(self.p))
                else {
                    unreachable!("`advance` outside a fight: {}", rules::IN_A_FIGHT)
                };
                // What falls due is traced as this run is (`--trace-formulas` too).
                let options = crate::eval::Options {
                    trace_formulas: self.formulas,
                };
                fight.advance(&mut rules.with(options), &mut *self.env, amount)?;
            }
            Inst::Detach { dst, src } => {
                vregs[*dst as usize] = vregs[*src as usize].deep_clone();
            }
            other => unreachable!("not one of the fight's instructions: {other:?}"),
        }
        Ok(())
    }
}
