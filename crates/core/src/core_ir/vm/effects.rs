//! The VM's work for the rarer instructions with effects: a track's boxes filled
//! ([`Inst::Fill`], `eval::fill_track`), a decision among a list's items
//! ([`Inst::DecideFrom`]) and a die table rolled ([`Inst::RollTable`]), each the rule in `eval`
//! own rule. Kept out of the dispatch loop, which stays small.

use super::{list_of, peek, store, Vm, FRAME};
use crate::core_ir::code::Inst;
use crate::eval::{
    among_faces, dice_steps, fill_event, fill_track, lookup, option_label, update, Value,
};
use crate::ir::TableKey;
use rulesc_runtime::{Decide, DiceSource, RuleError, RuleErrorKind, TraceEvent, TraceSink};

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    /// Runs [`Inst::Fill`], [`Inst::DecideFrom`] or [`Inst::RollTable`] in `regs` and
    /// `vregs`, a spent budget reported at `budget`.
    #[inline(never)]
    pub(super) fn effect(
        &mut self,
        inst: &Inst,
        regs: &mut [i64; FRAME],
        vregs: &mut [Value],
        budget: u32,
        traced: bool,
    ) -> Result<(), RuleError> {
        match inst {
            Inst::Fill {
                dst,
                place,
                keys,
                track,
                levels,
                level: lvl,
                site,
            } => {
                let keys: Vec<Value> = keys.iter().map(|k| peek(*k, regs, vregs)).collect();
                let lvl = super::level(regs[*lvl as usize]);
                let def = &self.p.tracks[*track as usize];
                let mut filled = (0, lvl);
                let changed = update(vregs, None, place, &keys, |old| {
                    filled = fill_track(def, levels, lvl, old);
                    Ok(())
                });
                if let Err(kind) = changed {
                    return Err(self.fail(*site, kind, traced));
                }
                if traced {
                    let event = fill_event(self.p, *track as usize, filled, *site);
                    self.env.trace.event(event);
                }
                regs[*dst as usize] = filled.0;
            }
            Inst::DecideFrom {
                dst,
                name,
                list,
                elem,
                site,
            } => {
                let items = list_of(&vregs[*list as usize]);
                if items.is_empty() {
                    let kind = RuleErrorKind::NoOptions { decision: name };
                    return Err(self.fail(*site, kind, traced));
                }
                let n = items.len() as u32;
                let decide = &mut self.env.decide;
                let i = if decide.wants_labels(name) {
                    let labels: Vec<String> = items
                        .iter()
                        .map(|v| option_label(self.p, self.fight.as_deref(), v, elem))
                        .collect();
                    // `Decide::decide_among` names options `0..n`; an index past them (a
                    // decider's own mistake, not the rules') has no name: empty.
                    let label = |i: u32| labels.get(i as usize).cloned().unwrap_or_default();
                    rulesc_runtime::decide::answer_among(decide, name, n, &label)
                } else {
                    rulesc_runtime::decide::answer(decide, name, n)
                };
                let v = items[i as usize].clone();
                if traced {
                    let choice = self.shown(&v, elem);
                    self.env.trace.event(TraceEvent::Decide {
                        site: *site,
                        choice,
                    });
                }
                store(*dst, v, regs, vregs);
            }
            Inst::RollTable {
                dst,
                table,
                among,
                site,
            } => {
                let t = &self.p.tables[*table as usize];
                let TableKey::Die(die) = t.key else {
                    unreachable!("lowering rolls only tables keyed by a die")
                };
                // The faces allowed, into the VM's own list (none: the whole die).
                let mut faces = std::mem::take(&mut self.faces);
                let spec = match among {
                    Some((l, segments)) => {
                        let segments = segments.iter().map(|(a, b, v)| (*a, *b, v.as_ref()));
                        among_faces(die, segments, list_of(&vregs[*l as usize]), &mut faces)
                    }
                    None => {
                        faces.clear();
                        die
                    }
                };
                let rolled = self
                    .charge(dice_steps(spec), budget, traced)
                    .map(|()| self.roll_known(spec, *site, traced));
                let face = rolled.map(|r| match faces.is_empty() {
                    true => r.total,
                    false => rulesc_runtime::__private::rolls::nth_total(
                        faces.iter().copied(),
                        r.total.max(1),
                    ),
                });
                self.faces = faces;
                let face = face?;
                let Some(v) = lookup(t, face) else {
                    // An enumeration that cut the path off at this roll gave no face: the
                    // run ends there, giving nothing (as at `Inst::Stop`).
                    if self.may_stop && self.env.dice.stopped() {
                        self.stopped = true;
                        return Ok(());
                    }
                    unreachable!(
                        "{} (table `{}`, face {face})",
                        crate::eval::DIE_ROWS,
                        t.name
                    )
                };
                if traced {
                    let value = self.shown(&v, &t.value);
                    self.env.trace.event(TraceEvent::Lookup {
                        site: *site,
                        key: face.to_string(),
                        value,
                    });
                }
                store(*dst, v, regs, vregs);
            }
            other => unreachable!("not one of the effects' instructions: {other:?}"),
        }
        Ok(())
    }
}
