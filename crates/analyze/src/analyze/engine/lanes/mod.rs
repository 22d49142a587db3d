//! A fast segment that rolls once ([`crate::analyze::fast::one_roll`]), run from a state
//! over every outcome of its roll at once on the VM (`core_ir::Lanes`: one lane per
//! outcome, what does not depend on the roll computed once). Lanes are grouped by what
//! they lead to (the state after the segment, or the value returned), as
//! [`super::segment`]'s path-by-path gathering groups paths, in the order of their first
//! lane and with the same weights. A state the lanes do not take on is gathered path by
//! path.

use super::segment::Exit;
use super::Engine;
use crate::analyze::exact::W;
use crate::analyze::plan::Segment;
use crate::analyze::state::{State, WordsBuild};
use crate::core_ir::{self, Lanes, Left, PieceOf};
use crate::eval::Value;
use crate::ir::{Id, Stmt};
use std::collections::HashMap;
use std::rc::Rc;

#[cfg(test)]
mod tests;

impl Engine<'_> {
    /// The exits of the one-roll segment `seg` (the statements `stmts` of function `f`)
    /// from state `st`, as [`Engine::gather`] would give them; `None` leaves the state to
    /// it.
    pub(super) fn lanes(
        &self,
        f: Id,
        seg: &Segment,
        stmts: &[Stmt],
        st: &State,
    ) -> Option<Vec<(Exit, W, W)>> {
        let base = st.frames.last()?;
        let piece = core_ir::piece_for(self.p, f, PieceOf::block(stmts), base);
        let (spec, site) = piece.the_roll()?;
        let roll = self.roll_at(spec, site, st.used).ok()?;
        let n = roll.entries.len();
        // Every path, the cut one included, is a step of the analysis.
        let paths = (n + usize::from(!roll.cut.is_zero())) as u64;
        let steps = self.steps.get();
        if n == 0 || steps + paths > self.opts.max_steps {
            return None;
        }
        if let Some(d) = self.opts.deadline {
            if (steps + paths) / 1024 > steps / 1024 && std::time::Instant::now() >= d {
                return None;
            }
        }
        let rolls: Vec<rulesc_runtime::Roll> = roll.entries.iter().map(|e| e.0).collect();
        let lanes = Lanes::run(&piece, base, &rolls)?;
        // Lanes grouped by what tells their exits apart: how they left (and by which
        // `return`), the dice drawn, and the numbers in the registers of what they leave
        // or return (the same registers for every lane leaving one way).
        let kept = lanes.parts_of(&seg.kept);
        let mut index: HashMap<Vec<u64>, usize, WordsBuild> = HashMap::default();
        let mut groups: Vec<(usize, W)> = Vec::new();
        let mut key = Vec::new();
        for (lane, left) in lanes.left.iter().enumerate() {
            let used = u64::from(st.used + roll.entries[lane].1);
            key.clear();
            match left {
                Left::Normal => {
                    key.extend([0, used]);
                    lanes.words(&kept, lane, &mut key);
                }
                Left::Returned(part) => {
                    key.extend([1, used, part_id(*part)]);
                    lanes.words(std::slice::from_ref(part), lane, &mut key);
                }
                Left::Outcome(i) => {
                    key.extend([2, used, *i as u64]);
                    lanes.words(lanes.outcome(*i).1, lane, &mut key);
                }
            }
            let w = &roll.entries[lane].2;
            match index.get(key.as_slice()) {
                Some(&g) => groups[g].1.add(w),
                None => {
                    if groups.len() as u64 >= self.opts.max_states {
                        return None;
                    }
                    index.insert(key.clone(), groups.len());
                    groups.push((lane, w.clone()));
                }
            }
        }
        let mut out: Vec<(Exit, W, W)> = groups
            .into_iter()
            .map(|(lane, w)| {
                let used = st.used + roll.entries[lane].1;
                let exit = match lanes.left[lane] {
                    Left::Normal => {
                        Exit::Normal(kept.iter().map(|&p| lanes.value(p, lane)).collect(), used)
                    }
                    Left::Returned(part) => Exit::Return(lanes.value(part, lane), used),
                    Left::Outcome(i) => {
                        let (tag, fields) = lanes.outcome(i);
                        let fields: Rc<[Value]> =
                            fields.iter().map(|p| lanes.value(*p, lane)).collect();
                        Exit::Return(Value::Outcome { tag, fields }, used)
                    }
                };
                (exit, roll.den.clone(), w)
            })
            .collect();
        if !roll.cut.is_zero() {
            out.push((Exit::Cut, roll.den.clone(), roll.cut.clone()));
        }
        self.steps.set(steps + paths);
        self.column_states.set(self.column_states.get() + 1);
        Some(out)
    }
}

/// Which registers `part` names, as a word (the returns of one piece are told apart by
/// them).
fn part_id(part: core_ir::Part) -> u64 {
    use core_ir::Part as P;
    match part {
        P::Int(r) | P::Bool(r) | P::Level(r) | P::Fighter(r) | P::Side(r) => u64::from(r),
        P::Roll { total, .. } => (1 << 8) | u64::from(total),
        P::Val(r) => (2 << 32) | u64::from(r),
        P::Unit => 3 << 32,
    }
}
