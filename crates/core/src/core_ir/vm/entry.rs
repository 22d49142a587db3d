//! The VM's frames and entry points: a function run with its arguments (`eval::call`,
//! a fight's rules), and a piece of one run from the frame it binds (the merged
//! engine's).

use super::regs::{bind, peek, value};
use super::Vm;
use crate::core_ir::code::{Func, FRAME};
use crate::core_ir::Module;
use crate::eval::Value;
use crate::ir::Program;
use rulesc_runtime::{Decide, DiceSource, Env, Fight, RuleError, TraceSink};

/// The registers of one call: its `i64` registers, indexed by a `u8` (so no bounds
/// check), and its value registers.
pub(super) struct Frame {
    pub(super) ints: [i64; FRAME],
    pub(super) vals: Vec<Value>,
}

impl Frame {
    /// A frame for `f` from `pool` (a new one when the pool is empty). Its registers
    /// hold what the last call left, `i64` and value registers alike: lowering writes a
    /// register before reading it, so a frame is neither cleared when given back nor
    /// filled when taken, only grown to `f`'s value registers (a value left behind is
    /// dropped when the register is next written: nothing sees when). Debug builds (every
    /// test) fill every register with [`POISON`] instead, so a lowering that read a
    /// register it never wrote gives a value no rule makes, and the differential tests
    /// see it, rather than whatever the previous call left.
    pub(super) fn take(pool: &mut Pool, f: &Func) -> Box<Frame> {
        let mut frame = pool.pop().unwrap_or_else(|| {
            Box::new(Frame {
                ints: [POISON; FRAME],
                vals: Vec::new(),
            })
        });
        let n = f.vals as usize;
        if cfg!(debug_assertions) {
            frame.ints = [POISON; FRAME];
            frame.vals.clear();
            frame.vals.resize_with(n, || Value::Int(POISON));
        } else if frame.vals.len() < n {
            // Each slot made, not cloned from one (`resize` clones).
            frame.vals.resize_with(n, || Value::Unit);
        }
        frame
    }

    /// Back to `pool`, as it is.
    pub(super) fn give_back(self: Box<Self>, pool: &mut Pool) {
        pool.push(self);
    }
}

/// What a debug build's fresh frame holds in every `i64` register: far from any total,
/// level or flag a rule makes.
const POISON: i64 = i64::MIN + 0x5a5a;

/// Frames kept between calls. Boxed: a frame moves in and out of the pool at each call,
/// and a box moves in one word where the frame would copy its 2 KiB.
#[allow(clippy::vec_box)]
pub(super) type Pool = Vec<Box<Frame>>;

thread_local! {
    /// Frames kept for the next run on this thread: steady runs allocate none.
    pub(super) static FRAMES: std::cell::Cell<Pool> = const { std::cell::Cell::new(Vec::new()) };
}

/// Runs function `id` of `p` (which lowered into `module`) with `args`, one per
/// parameter, as `eval::call` does, in `fight` when it runs in one; its result, and the
/// steps the run took.
pub fn run<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    module: &Module,
    id: usize,
    env: &mut Env<D, X, T>,
    fight: Option<&mut Fight<Value>>,
    args: impl IntoIterator<Item = Value>,
    how: (bool, bool),
) -> (Result<Value, RuleError>, u64) {
    // The call's own step, which cannot be past the budget.
    run_from(p, module, id, env, fight, args, how, 1)
}

/// [`run`] `steps` into a run (the call's own step taken): the run's result, and its
/// steps after the call.
#[allow(clippy::too_many_arguments)]
pub fn run_from<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    module: &Module,
    id: usize,
    env: &mut Env<D, X, T>,
    fight: Option<&mut Fight<Value>>,
    args: impl IntoIterator<Item = Value>,
    (may_stop, formulas): (bool, bool),
    steps: u64,
) -> (Result<Value, RuleError>, u64) {
    let f = module.functions[id].as_ref().unwrap_or_else(|| {
        unreachable!(
            "every function of a checked program lowers (one too big for a frame is E0363)"
        )
    });
    let mut pool = FRAMES.with(std::cell::Cell::take);
    let mut frame = Frame::take(&mut pool, f);
    for (part, v) in f.params.iter().zip(args) {
        bind(*part, v, &mut frame);
    }
    let mut vm = Vm::new(p, module, env, fight, pool, steps, (may_stop, formulas));
    let result = vm
        .exec(f, &mut frame)
        .map(|ret| value(ret, &frame.ints, &mut frame.vals));
    let (steps, mut pool) = (vm.steps, vm.pool);
    frame.give_back(&mut pool);
    FRAMES.with(|r| r.set(pool));
    (result, steps)
}

/// Runs `piece` in the frame `locals` (`super::run_piece`), untraced and outside any
/// fight, with a step budget of its own, as `eval::exec_in` runs a statement.
pub fn run_piece<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    module: &Module,
    piece: &crate::core_ir::Piece,
    env: &mut Env<D, X, T>,
    locals: &mut [Value],
) -> Result<Option<Value>, RuleError> {
    let f = &piece.func;
    let mut pool = FRAMES.with(std::cell::Cell::take);
    let mut frame = Frame::take(&mut pool, f);
    bind_entry(piece, locals, &mut frame);
    let may_stop = env.dice.may_stop();
    let mut vm = Vm::new(p, module, env, None, pool, 0, (may_stop, false));
    let form = usize::from(vm.plain);
    let result = vm.exec(f, &mut frame);
    let (stopped, mut pool) = (vm.stopped, vm.pool);
    let result = result.map(|ret| {
        // A path cut off leaves nothing anyone reads.
        if stopped {
            return None;
        }
        let Frame { ints, vals } = &mut *frame;
        match piece.done[form] {
            // After a normal end, what it leaves bound is read back (after a `return`,
            // its frame is left: a `let` the return skipped holds nothing).
            Some(done) if ints[usize::from(done)] == 1 => {
                for (slot, part) in &piece.out[form] {
                    locals[*slot] = peek(*part, ints, vals);
                }
                None
            }
            _ => Some(value(ret, ints, vals)),
        }
    });
    frame.give_back(&mut pool);
    FRAMES.with(|r| r.set(pool));
    result
}

/// `piece`'s parameters bound in `frame` to the locals of `locals` it starts from.
pub(super) fn bind_entry(piece: &crate::core_ir::Piece, locals: &[Value], frame: &mut Frame) {
    for (slot, part) in piece.entry.iter().zip(&piece.func.params) {
        bind(*part, locals[*slot].clone(), frame);
    }
}
