//! A piece run again and again from one start: the roll paths of a fast segment from one
//! state (`analyze::engine::segment`), its frame bound once.

use super::regs::peek;
use super::{bind_entry, Frame, Vm, FRAMES};
use crate::core_ir::code::Part;
use crate::core_ir::{Module, Piece};
use crate::eval::Value;
use crate::ir::Program;
use rulesc_runtime::{Decide, DiceSource, Env, RuleError, TraceSink};

/// A piece run again and again from one start: the roll paths of a fast segment from one
/// state (`analyze::engine::segment`). Its frame is bound once; each run starts from the
/// registers as they were bound.
pub struct Rerun<'p> {
    piece: &'p Piece,
    /// Its frame (given back to the thread's pool when dropped).
    frame: Option<Box<Frame>>,
    /// The `i64` registers it uses, as bound.
    ints: Vec<i64>,
    /// The value registers of the parameters, as bound.
    vals: Vec<(u32, Value)>,
    /// Which form ran last (full or plain: by whether the dice may stop a run).
    form: usize,
}

impl<'p> Rerun<'p> {
    /// `piece` bound to the locals of `locals` it starts from.
    pub fn new(piece: &'p Piece, locals: &[Value]) -> Self {
        let f = &piece.func;
        let mut frame = FRAMES.with(|r| {
            let mut pool = r.take();
            let frame = Frame::take(&mut pool, f);
            r.set(pool);
            frame
        });
        bind_entry(piece, locals, &mut frame);
        let vals = (piece.entry.iter().zip(&f.params))
            .filter_map(|(slot, part)| match part {
                Part::Val(r) => Some((*r, locals[*slot].clone())),
                _ => None,
            })
            .collect();
        Rerun {
            piece,
            ints: frame.ints[..piece.ints].to_vec(),
            frame: Some(frame),
            vals,
            form: 0,
        }
    }

    /// One run from the start: `Some` of the registers holding what a `return` gave
    /// ([`Self::value`] reads it), `None` after a normal end (read what it left with
    /// [`Self::local`]) or a path the dice cut off.
    pub fn run<D: DiceSource, X: Decide, T: TraceSink>(
        &mut self,
        p: &Program,
        module: &Module,
        env: &mut Env<D, X, T>,
    ) -> Result<Option<Part>, RuleError> {
        let frame = self
            .frame
            .as_deref_mut()
            .expect("a rerun holds its frame until dropped");
        frame.ints[..self.ints.len()].copy_from_slice(&self.ints);
        for (r, v) in &self.vals {
            frame.vals[*r as usize] = v.clone();
        }
        let may_stop = env.dice.may_stop();
        let mut vm = Vm::new(p, module, env, None, Vec::new(), 0, (may_stop, false));
        let form = usize::from(vm.plain);
        let ret = vm.exec(&self.piece.func, frame)?;
        let stopped = vm.stopped;
        self.form = form;
        if stopped {
            return Ok(None);
        }
        Ok(match self.piece.done[form] {
            Some(done) if frame.ints[usize::from(done)] == 1 => None,
            _ => Some(ret),
        })
    }

    /// The value `part` of the last run holds.
    pub fn value(&self, part: Part) -> Value {
        let frame = self
            .frame
            .as_deref()
            .expect("a rerun holds its frame until dropped");
        peek(part, &frame.ints, &frame.vals)
    }

    /// The value local `slot` holds after the last run's normal end: one it was bound to
    /// or one a `let` of its own statements bound.
    pub fn local(&self, slot: usize) -> Value {
        self.value(self.piece.out_part(self.form, slot))
    }
}

impl Drop for Rerun<'_> {
    fn drop(&mut self) {
        if let Some(frame) = self.frame.take() {
            FRAMES.with(|r| {
                let mut pool = r.take();
                frame.give_back(&mut pool);
                r.set(pool);
            });
        }
    }
}
