//! Which write of a register each read reads: the printer's variables.

use rulesc_core::core_ir::shape;
use rulesc_core::core_ir::{Access, Func, Reg};

/// The versions of a function's variables: each write of a variable starts one, and
/// each read reads the one write that reaches it on every path (`None` when two do: a
/// value merged from branches, not in this slice, or when the code loops).
pub(super) struct Versions {
    /// Per instruction, the version of each `i64` register it names (unreachable ones:
    /// none).
    pub of: Vec<Vec<u32>>,
    /// Each version's variable.
    pub var: Vec<u32>,
    /// The parameters' versions, in the order of their registers.
    pub params: Vec<u32>,
    /// The version each of `Func::lets` names, where one reaches it.
    pub lets: Vec<Option<u32>>,
}

pub(super) fn versions(func: &Func, vars: &shape::Vars, reachable: &[bool]) -> Option<Versions> {
    const NONE: u32 = u32::MAX;
    const MANY: u32 = u32::MAX - 1;
    let code = &func.code;
    let n = vars.count;
    let mut var = Vec::new();
    let new_version = |v: u32, var: &mut Vec<u32>| {
        var.push(v);
        (var.len() - 1) as u32
    };
    // What reaches each instruction: per variable, its version, NONE or MANY.
    let mut into: Vec<Option<Vec<u32>>> = vec![None; code.len()];
    let mut entry = vec![NONE; n];
    let params: Vec<u32> = vars
        .params
        .iter()
        .map(|&v| {
            let ver = new_version(v, &mut var);
            entry[v as usize] = ver;
            ver
        })
        .collect();
    if !code.is_empty() {
        into[0] = Some(entry);
    }
    let merge = |a: &mut Vec<u32>, b: &[u32]| {
        for (x, &y) in a.iter_mut().zip(b) {
            *x = match (*x, y) {
                (x, y) if x == y => x,
                (NONE, y) => y,
                (x, NONE) => x,
                _ => MANY,
            };
        }
    };
    let mut of = vec![Vec::new(); code.len()];
    let mut lets = vec![None; func.lets.len()];
    for pc in 0..code.len() {
        if !reachable[pc] {
            continue;
        }
        let mut state = into[pc].take()?;
        for (i, l) in func.lets.iter().enumerate() {
            if l.pc as usize == pc {
                let v = shape::variable_at(func, l.pc, l.reg)? as usize;
                lets[i] = Some(state[v]).filter(|&x| x < MANY);
            }
        }
        let mut ops = Vec::new();
        let mut ok = true;
        let mut k = 0;
        code[pc].regs(&mut |r, access| {
            if let Reg::Int(_) = r {
                let v = vars.of[pc][k];
                k += 1;
                if access == Access::Write {
                    let ver = new_version(v, &mut var);
                    ops.push(ver);
                } else {
                    let ver = state[v as usize];
                    ok &= ver < MANY;
                    ops.push(ver);
                }
            }
        });
        if !ok {
            return None;
        }
        // Writes take effect after the reads.
        let mut k = 0;
        code[pc].regs(&mut |r, access| {
            if let Reg::Int(_) = r {
                if access == Access::Write {
                    state[vars.of[pc][k] as usize] = ops[k];
                }
                k += 1;
            }
        });
        of[pc] = ops;
        for succ in shape::successors(code, pc) {
            if succ <= pc {
                // A loop: not in this slice.
                return None;
            }
            match &mut into[succ] {
                Some(s) => merge(s, &state),
                slot @ None => *slot = Some(state.clone()),
            }
        }
    }
    Some(Versions {
        of,
        var,
        params,
        lets,
    })
}
