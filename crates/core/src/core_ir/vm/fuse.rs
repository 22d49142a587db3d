//! The VM's own pass over a function's plain code, once it is lowered: fewer
//! instructions dispatched for the same work, each rule unchanged.
//!
//! - A jump to a `Jump` goes where that one goes.
//! - A pair of instructions the VM runs often back to back is run as one: the first is
//!   replaced by an instruction doing both (`FieldArith`, `Step*`, `NextBoxPart`, `Move*`: see
//!   [`Inst`]), which then goes on after the second. The second stays where it is, for a
//!   jump landing on it, so the code keeps its length and every jump its target; and a
//!   step is charged where it was, before the same effect, at the same site.
//!
//! Plain code only: no printer reads it, and the full code (traced, or stopped by an
//! enumeration) is what lowering wrote.

use crate::core_ir::code::Inst;

/// `code` (a function's plain code) with its jumps threaded and its pairs fused.
pub(in crate::core_ir) fn fuse(mut code: Vec<Inst>) -> Vec<Inst> {
    thread(&mut code);
    for pc in 0..code.len().saturating_sub(1) {
        if let Some(both) = pair(&code[pc], &code[pc + 1]) {
            code[pc] = both;
        }
    }
    code
}

/// Each jump to a `Jump` retargeted where the chain of jumps ends.
fn thread(code: &mut [Inst]) {
    for pc in 0..code.len() {
        let Some(mut to) = target(&code[pc]) else {
            continue;
        };
        // A chain is short; a loop of bare jumps (which lowering never makes) is left.
        for _ in 0..8 {
            match code.get(to as usize) {
                Some(Inst::Jump(next)) if *next != to => to = *next,
                _ => break,
            }
        }
        if let Some(t) = target_mut(&mut code[pc]) {
            *t = to;
        }
    }
}

/// Where a jump goes.
fn target(i: &Inst) -> Option<u32> {
    match i {
        Inst::Jump(to)
        | Inst::JumpIfNot { to, .. }
        | Inst::JumpIf { to, .. }
        | Inst::JumpUnless { to, .. }
        | Inst::JumpUnlessImm { to, .. } => Some(*to),
        _ => None,
    }
}

fn target_mut(i: &mut Inst) -> Option<&mut u32> {
    match i {
        Inst::Jump(to)
        | Inst::JumpIfNot { to, .. }
        | Inst::JumpIf { to, .. }
        | Inst::JumpUnless { to, .. }
        | Inst::JumpUnlessImm { to, .. } => Some(to),
        _ => None,
    }
}

/// The one instruction doing `first` then `second`, when there is one.
fn pair(first: &Inst, second: &Inst) -> Option<Inst> {
    Some(match (first, second) {
        (
            Inst::Field {
                dst: tmp,
                rec,
                field,
            },
            Inst::Arith { op, dst, a, b },
        ) if b == tmp && a != tmp => Inst::FieldArith {
            op: *op,
            dst: *dst,
            a: *a,
            rec: *rec,
            field: *field,
            tmp: *tmp,
        },
        (Inst::Step(n), Inst::JumpUnless { op, a, b, to }) => Inst::StepJumpUnless {
            n: *n,
            op: *op,
            a: *a,
            b: *b,
            to: *to,
        },
        (Inst::Step(n), Inst::JumpUnlessImm { op, a, b, to }) => Inst::StepJumpUnlessImm {
            n: *n,
            op: *op,
            a: *a,
            b: *b,
            to: *to,
        },
        (Inst::Step(n), Inst::JumpIfNot { cond, to }) => Inst::StepJumpIfNot {
            n: *n,
            cond: *cond,
            to: *to,
        },
        (
            Inst::Step(n),
            Inst::Roll {
                total,
                natural,
                shape,
                spec,
                site,
            },
        ) => Inst::StepRoll {
            n: *n,
            total: *total,
            natural: *natural,
            shape: *shape,
            spec: *spec,
            site: *site,
        },
        (Inst::Step(n), Inst::Site(at)) => Inst::StepSite { n: *n, at: *at },
        (Inst::Step(n), Inst::Return { value, .. }) => Inst::StepReturn {
            n: *n,
            value: *value,
        },
        (
            Inst::NextBox { bits, dst, track },
            Inst::BoxPart {
                dst: part_dst,
                src,
                part,
            },
        ) if src == dst => Inst::NextBoxPart {
            bits: *bits,
            dst: *dst,
            track: *track,
            part_dst: *part_dst,
            part: *part,
        },
        (Inst::Move { dst, src }, Inst::JumpIfNot { cond, to }) if cond == dst => {
            Inst::MoveJumpIfNot {
                dst: *dst,
                src: *src,
                to: *to,
            }
        }
        (Inst::Move { dst, src }, Inst::JumpIf { cond, to }) if cond == dst => Inst::MoveJumpIf {
            dst: *dst,
            src: *src,
            to: *to,
        },
        _ => return None,
    })
}
