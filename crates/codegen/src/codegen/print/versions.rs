//! Which write of a register each read reads: the printer's variables.
//!
//! Each write of a register-taking (`core_ir::shape::variables`) starts a version of it.
//! A read that one write reaches on every path reads that version; a read that several
//! reach (the value of an `if`, of `and`/`or`, a local changed in a branch) joins them
//! into one web, which the printer declares once and assigns at each of its writes.
//! Versions meeting where nothing reads them are not joined, so a web holds no write
//! that a later one overwrites unread on every path.

use rulesc_core::core_ir::shape;
use rulesc_core::core_ir::{Access, Func, Reg};
use std::collections::HashMap;

/// The versions of a function's variables, each named by its web's first version.
pub(super) struct Versions {
    /// Per instruction, the web of each `i64` register it names (unreachable ones:
    /// none).
    pub of: Vec<Vec<u32>>,
    /// Each version's variable.
    pub var: Vec<u32>,
    /// The parameters' webs, in the order of their registers.
    pub params: Vec<u32>,
    /// The web each of `Func::lets` names, where one reaches it.
    pub lets: Vec<Option<u32>>,
}

/// What reaches an instruction of one variable: no write, one version, or (at and past a
/// join) a set of them, interned.
#[derive(Clone, Copy, PartialEq)]
enum Reach {
    None,
    One(u32),
    Set(u32),
}

/// The versions of `func`'s variables, or `None` where the code loops (not in this
/// slice) or a read may see no write.
pub(super) fn versions(func: &Func, vars: &shape::Vars, reachable: &[bool]) -> Option<Versions> {
    let code = &func.code;
    let mut var: Vec<u32> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let new_version = |v: u32, var: &mut Vec<u32>, parent: &mut Vec<u32>| {
        var.push(v);
        parent.push(parent.len() as u32);
        (var.len() - 1) as u32
    };
    let mut sets: Vec<Vec<u32>> = Vec::new();
    let mut interned: HashMap<Vec<u32>, u32> = HashMap::new();
    let members = |r: Reach, sets: &Vec<Vec<u32>>| -> Vec<u32> {
        match r {
            Reach::None => Vec::new(),
            Reach::One(v) => vec![v],
            Reach::Set(s) => sets[s as usize].clone(),
        }
    };
    let mut into: Vec<Option<Vec<Reach>>> = vec![None; code.len()];
    let mut entry = vec![Reach::None; vars.count];
    let params: Vec<u32> = vars
        .params
        .iter()
        .map(|&v| {
            let ver = new_version(v, &mut var, &mut parent);
            entry[v as usize] = Reach::One(ver);
            ver
        })
        .collect();
    if !code.is_empty() {
        into[0] = Some(entry);
    }
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
                if let Reach::One(x) = state[v] {
                    lets[i] = Some(x);
                }
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
                    ops.push(new_version(v, &mut var, &mut parent));
                } else {
                    let seen = members(state[v as usize], &sets);
                    // A read where no write may have reached: not printable as Rust.
                    ok &= !seen.is_empty() && !matches!(state[v as usize], Reach::None);
                    let Some((&first, rest)) = seen.split_first() else {
                        ops.push(u32::MAX);
                        return;
                    };
                    for &other in rest {
                        union(&mut parent, first, other);
                    }
                    ops.push(first);
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
                    state[vars.of[pc][k] as usize] = Reach::One(ops[k]);
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
                Some(s) => {
                    for (x, &y) in s.iter_mut().zip(&state) {
                        if *x == y {
                            continue;
                        }
                        // A join: a read past it may see either (a path that wrote
                        // nothing makes such a read unprintable, as above).
                        let mut all = members(*x, &sets);
                        if matches!(*x, Reach::None) || matches!(y, Reach::None) {
                            *x = Reach::None;
                            continue;
                        }
                        all.extend(members(y, &sets));
                        all.sort_unstable();
                        all.dedup();
                        *x = if all.len() == 1 {
                            Reach::One(all[0])
                        } else {
                            let id = *interned.entry(all.clone()).or_insert_with(|| {
                                sets.push(all);
                                (sets.len() - 1) as u32
                            });
                            Reach::Set(id)
                        };
                    }
                }
                slot @ None => *slot = Some(state.clone()),
            }
        }
    }
    // Each version named by its web's root.
    for ops in &mut of {
        for x in ops.iter_mut() {
            *x = find(&mut parent, *x);
        }
    }
    let params = params.into_iter().map(|p| find(&mut parent, p)).collect();
    let lets = lets
        .into_iter()
        .map(|l| l.map(|x| find(&mut parent, x)))
        .collect();
    Some(Versions {
        of,
        var,
        params,
        lets,
    })
}

fn find(parent: &mut [u32], x: u32) -> u32 {
    let mut root = x;
    while parent[root as usize] != root {
        root = parent[root as usize];
    }
    let mut x = x;
    while parent[x as usize] != root {
        let next = parent[x as usize];
        parent[x as usize] = root;
        x = next;
    }
    root
}

/// `a` and `b` one web, rooted at the smaller (the earlier version).
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (a, b) = (find(parent, a), find(parent, b));
    if a != b {
        let (root, child) = (a.min(b), a.max(b));
        parent[child as usize] = root;
    }
}
