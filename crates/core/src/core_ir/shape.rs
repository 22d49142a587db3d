//! What a printer of the core IR needs of a function's code that the VM does not
//! (issue 25, step 5; `docs/design/core-ir.md`, "Codegen prints the core IR").
//!
//! The VM takes an `i64` register again once a statement is done with it, so over a
//! function one register holds many values, of different kinds (a roll's total, then a
//! truth, then a local). A printed function holds each in a Rust variable of its own:
//! one per register lowering took ([`Func::allocs`]). [`variables`] names each register
//! operand of each instruction by the variable it holds there, and [`unwritten_reads`]
//! finds a read of a variable on a path where nothing wrote it, which a printed `let x;`
//! could not compile (Rust asks that every path write a variable before reading it).
//! `tests/shape.rs` holds every function of every shipped ruleset to both.

use super::code::{Access, Class, Func, Inst, Reg, FRAME};

/// The variables of a function's code ([`variables`]).
#[derive(Debug)]
pub struct Vars {
    /// Per instruction, the variable of each `i64` register it names, in the order
    /// [`Inst::regs`] gives them.
    pub of: Vec<Vec<u32>>,
    /// The parameters' variables, in the order of their registers.
    pub params: Vec<u32>,
    /// How many variables: one per [`Func::allocs`].
    pub count: usize,
}

/// Each `i64` register operand of `f.code` named by the variable it holds: for a read,
/// the register as last taken before the instruction; for a write, as last taken at or
/// before it ([`super::code::Alloc::pc`]). `Err` names an instruction naming a register
/// lowering never took.
pub fn variables(f: &Func) -> Result<Vars, String> {
    let mut current: Vec<Option<u32>> = vec![None; FRAME];
    let mut next = 0;
    let mut take = |pc: usize, current: &mut Vec<Option<u32>>| {
        while let Some(a) = f.allocs.get(next).filter(|a| a.pc as usize <= pc) {
            current[a.reg as usize] = Some(next as u32);
            next += 1;
        }
    };
    take(0, &mut current);
    let mut params = Vec::new();
    for p in &f.params {
        let mut missing = None;
        p.regs(&mut |r, _| {
            if let Reg::Int(r) = r {
                match current[r as usize] {
                    Some(v) => params.push(v),
                    None => missing = Some(r),
                }
            }
        });
        if let Some(r) = missing {
            return Err(format!("parameter register {r} was never taken"));
        }
    }
    let mut of = Vec::with_capacity(f.code.len());
    for (pc, inst) in f.code.iter().enumerate() {
        // What it reads was written before it: by a register taken before it. Lowering
        // may give back an operand's register and take it again for the instruction's
        // result, which it writes after reading.
        if pc > 0 {
            take(pc - 1, &mut current);
        }
        let mut reads = Vec::new();
        let mut missing = None;
        inst.regs(&mut |r, access| {
            if let (Reg::Int(r), Access::Read | Access::Change) = (r, access) {
                match current[r as usize] {
                    Some(v) => reads.push(v),
                    None => missing = Some(r),
                }
            }
        });
        take(pc, &mut current);
        let mut vars = reads.into_iter();
        let mut all = Vec::new();
        inst.regs(&mut |r, access| {
            if let Reg::Int(r) = r {
                match access {
                    Access::Read | Access::Change => all.extend(vars.next()),
                    Access::Write => match current[r as usize] {
                        Some(v) => all.push(v),
                        None => missing = Some(r),
                    },
                }
            }
        });
        let vars = all;
        if let Some(r) = missing {
            return Err(format!("{pc}: {inst:?} names register {r}, never taken"));
        }
        of.push(vars);
    }
    Ok(Vars {
        of,
        params,
        count: f.allocs.len(),
    })
}

/// The variable register `reg` holds from instruction `pc` on: the register as last
/// taken at or before `pc` (what a [`Let`](super::code::Let) names).
pub fn variable_at(f: &Func, pc: u32, reg: u8) -> Option<u32> {
    let v = f.allocs.iter().rposition(|a| a.pc <= pc && a.reg == reg)?;
    Some(v as u32)
}

/// Where control goes after instruction `pc`.
pub fn successors(code: &[Inst], pc: usize) -> impl Iterator<Item = usize> {
    let next = pc + 1;
    let (a, b) = match &code[pc] {
        Inst::Jump(to) => (Some(*to as usize), None),
        Inst::JumpIfNot { to, .. }
        | Inst::JumpIf { to, .. }
        | Inst::JumpUnless { to, .. }
        | Inst::JumpUnlessImm { to, .. } => (Some(next), Some(*to as usize)),
        Inst::Return { .. } => (None, None),
        _ => (Some(next), None),
    };
    let len = code.len();
    a.into_iter().chain(b).filter(move |&s| s < len)
}

/// The reads of a variable on a path where nothing wrote it before: `(pc, variable)`,
/// in order. A bit set per instruction of the variables written on every path to it
/// (the parameters at the entry), to a fixed point.
pub fn unwritten_reads(f: &Func, vars: &Vars) -> Vec<(usize, u32)> {
    let words = vars.count.div_ceil(64).max(1);
    let n = f.code.len();
    let set = |bits: &mut [u64], v: u32| bits[v as usize / 64] |= 1 << (v % 64);
    let has = |bits: &[u64], v: u32| bits[v as usize / 64] & (1 << (v % 64)) != 0;
    // Written on every path into each instruction: all, until a path says otherwise.
    let mut into: Vec<Vec<u64>> = vec![vec![u64::MAX; words]; n];
    let mut entry = vec![0u64; words];
    vars.params.iter().for_each(|&v| set(&mut entry, v));
    if n == 0 {
        return Vec::new();
    }
    into[0] = entry;
    let mut work: Vec<usize> = (0..n).rev().collect();
    let mut queued = vec![true; n];
    while let Some(pc) = work.pop() {
        queued[pc] = false;
        let mut out = into[pc].clone();
        let mut k = 0;
        f.code[pc].regs(&mut |r, access| {
            if let Reg::Int(_) = r {
                if access != Access::Read {
                    set(&mut out, vars.of[pc][k]);
                }
                k += 1;
            }
        });
        for s in successors(&f.code, pc) {
            let before = into[s].clone();
            into[s].iter_mut().zip(&out).for_each(|(a, b)| *a &= b);
            if into[s] != before && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    let mut bad = Vec::new();
    for (pc, inst) in f.code.iter().enumerate() {
        let mut k = 0;
        inst.regs(&mut |r, access| {
            if let Reg::Int(_) = r {
                let v = vars.of[pc][k];
                if access != Access::Write && !has(&into[pc], v) {
                    bad.push((pc, v));
                }
                k += 1;
            }
        });
    }
    bad
}

/// What each variable holds: the one [`Class`] its instructions and lowering say it
/// holds ([`Class::Any`] when none says), or `Err` naming a variable two say differently
/// of (a printed variable has one type).
pub fn classes(f: &Func, vars: &Vars) -> Result<Vec<Class>, String> {
    let mut of = vec![Class::Any; vars.count];
    let mut say = |v: u32, c: Class, at: &dyn Fn() -> String| -> Result<(), String> {
        let held = &mut of[v as usize];
        match (*held, c) {
            (_, Class::Any) => Ok(()),
            (Class::Any, c) => {
                *held = c;
                Ok(())
            }
            (h, c) if h == c => Ok(()),
            (h, c) => Err(format!("variable {v} holds {h:?} and {c:?}: {}", at())),
        }
    };
    for (v, a) in f.allocs.iter().enumerate() {
        if let Some(k) = a.kind {
            say(v as u32, k.class(), &|| format!("taken as {k:?}"))?;
        }
    }
    for (pc, inst) in f.code.iter().enumerate() {
        let mut k = 0;
        let mut err = Ok(());
        inst.operands(&mut |r, _, c| {
            if let Reg::Int(_) = r {
                if err.is_ok() {
                    err = say(vars.of[pc][k], c, &|| format!("{pc}: {inst:?}"));
                }
                k += 1;
            }
        });
        err?;
    }
    Ok(of)
}

/// A function's code as nested regions, the shape a printer gives it: its instructions
/// in order, inside labeled blocks (a forward jump leaves one: `break 'b`) and loops (a
/// backward jump goes round one again: `continue 'l`). Lowering writes structured code
/// (`if`, `match`, loops with their exits), so every jump is one of those ([`structure`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// The instruction at `pc`.
    Inst(usize),
    /// A block that instruction `end` follows: the target of the forward jumps inside it
    /// that leave it.
    Block { end: usize, body: Vec<Node> },
    /// A loop whose first instruction, `head`, is the target of the backward jumps inside
    /// it; its last is the jump back, and instruction `end` follows it (a forward jump to
    /// `end` from inside leaves it).
    Loop {
        head: usize,
        end: usize,
        body: Vec<Node>,
    },
}

/// The most blocks and loops [`structure`] nests.
pub const MAX_REGIONS: usize = 1_000;

/// Where a jump goes.
fn target(inst: &Inst) -> Option<usize> {
    match inst {
        Inst::Jump(to)
        | Inst::JumpIfNot { to, .. }
        | Inst::JumpIf { to, .. }
        | Inst::JumpUnless { to, .. }
        | Inst::JumpUnlessImm { to, .. } => Some(*to as usize),
        _ => None,
    }
}

/// `code` as nested [`Node`]s: a loop for each instruction some later one jumps back to
/// (up to the last such jump), a block for each instruction a forward jump goes to that
/// is not the next one or the end of a loop the jump is in (from the first such jump,
/// moved out until blocks and loops nest). `Err` names a jump no region explains (into
/// the middle of a loop, say), which structured lowering never writes.
pub fn structure(code: &[Inst]) -> Result<Vec<Node>, String> {
    // Loops: (head, end).
    let mut loops: Vec<(usize, usize)> = Vec::new();
    for (pc, inst) in code.iter().enumerate() {
        if let Some(t) = target(inst).filter(|&t| t <= pc) {
            match loops.iter_mut().find(|l| l.0 == t) {
                Some(l) => l.1 = l.1.max(pc + 1),
                None => loops.push((t, pc + 1)),
            }
        }
    }
    for (i, a) in loops.iter().enumerate() {
        for b in &loops[i + 1..] {
            let (x, y) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if y.0 < x.1 && y.1 > x.1 {
                return Err(format!("loops {x:?} and {y:?} overlap"));
            }
        }
    }
    // Blocks: (start, end), from the first jump needing one.
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    for (pc, inst) in code.iter().enumerate() {
        let Some(t) = target(inst).filter(|&t| t > pc + 1) else {
            continue;
        };
        if loops.iter().any(|&(h, e)| e == t && h <= pc) {
            continue;
        }
        match blocks.iter_mut().find(|b| b.1 == t) {
            Some(b) => b.0 = b.0.min(pc),
            None => blocks.push((pc, t)),
        }
    }
    // Moved out until every block nests with every other region: a pass per region
    // over the others, so a bound keeps a stranger's function of thousands of branches
    // from costing more than printing it another way.
    if blocks.len() + loops.len() > MAX_REGIONS {
        return Err(format!(
            "{} blocks and loops, more than {MAX_REGIONS}",
            blocks.len() + loops.len()
        ));
    }
    loop {
        let mut moved = false;
        for i in 0..blocks.len() {
            let (s, t) = blocks[i];
            let others = loops.iter().chain(blocks.iter()).copied();
            let start = others
                .filter(|&(a, b)| a < s && s < b && b < t)
                .map(|(a, _)| a)
                .min();
            if let Some(a) = start {
                blocks[i].0 = a;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    for &(s, t) in &blocks {
        if let Some(l) = loops.iter().find(|&&(h, e)| s < h && h < t && t < e) {
            return Err(format!("a forward jump to {t} enters loop {l:?}"));
        }
    }
    // Outer regions first: by start, then the longer; a block before a loop of the same
    // span.
    let mut regions: Vec<(usize, usize, bool)> = (blocks.iter().map(|&(s, t)| (s, t, false)))
        .chain(loops.iter().map(|&(h, e)| (h, e, true)))
        .collect();
    regions.sort_by_key(|&(s, t, is_loop)| (s, std::cmp::Reverse(t), is_loop));
    let mut next = 0;
    let mut pc = 0;
    let tree = nest(code.len(), &regions, &mut next, &mut pc);
    check_jumps(code, &tree, &mut Vec::new())?;
    Ok(tree)
}

/// The nodes from `pc` up to `end`, opening the regions (in `regions` from `next` on)
/// that start on the way.
fn nest(
    end: usize,
    regions: &[(usize, usize, bool)],
    next: &mut usize,
    pc: &mut usize,
) -> Vec<Node> {
    let mut out = Vec::new();
    while *pc < end {
        match regions.get(*next) {
            Some(&(s, e, is_loop)) if s == *pc && e <= end => {
                *next += 1;
                let body = nest(e, regions, next, pc);
                out.push(if is_loop {
                    Node::Loop {
                        head: s,
                        end: e,
                        body,
                    }
                } else {
                    Node::Block { end: e, body }
                });
            }
            _ => {
                out.push(Node::Inst(*pc));
                *pc += 1;
            }
        }
    }
    out
}

/// Every jump in `nodes` leaves a region around it (`outer`: innermost last, each
/// `(end, loop head)`), goes round one, or falls through to the next instruction.
fn check_jumps(
    code: &[Inst],
    nodes: &[Node],
    outer: &mut Vec<(usize, Option<usize>)>,
) -> Result<(), String> {
    for n in nodes {
        match n {
            Node::Inst(pc) => {
                let Some(t) = target(&code[*pc]) else {
                    continue;
                };
                let ok =
                    t == pc + 1 || outer.iter().any(|&(end, head)| end == t || head == Some(t));
                if !ok {
                    return Err(format!(
                        "{pc}: {:?} goes to {t}, out of no region",
                        code[*pc]
                    ));
                }
            }
            Node::Block { end, body } => {
                outer.push((*end, None));
                check_jumps(code, body, outer)?;
                outer.pop();
            }
            Node::Loop { head, end, body } => {
                outer.push((*end, Some(*head)));
                check_jumps(code, body, outer)?;
                outer.pop();
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_ir::code::{Alloc, Kind, Part};
    use crate::ir::{CmpOp, IntOp, Ty};

    /// A function of `code`, with no parameters, its registers taken as `allocs` says
    /// (`(pc, register, kind)`).
    fn func(code: Vec<Inst>, allocs: &[(u32, u8, Option<Kind>)]) -> Func {
        Func {
            params: Vec::new(),
            vals: 0,
            traced: false,
            site: 0,
            lets: Vec::new(),
            code,
            allocs: allocs
                .iter()
                .map(|&(pc, reg, kind)| Alloc { pc, reg, kind })
                .collect(),
            plain: Vec::new(),
        }
    }

    fn ret(r: u8) -> Inst {
        Inst::Return {
            value: Part::Int(r),
            ty: Box::new(Ty::Int),
            site: 0,
        }
    }

    /// `x` is written on one branch only, then read: the read is reported. Written on
    /// both, it is not.
    #[test]
    fn a_read_is_reported_where_one_path_wrote_nothing() {
        let one_branch = vec![
            Inst::Const { dst: 1, value: 1 },
            Inst::JumpIfNot { cond: 1, to: 3 },
            Inst::Const { dst: 0, value: 5 },
            ret(0),
        ];
        let f = func(
            one_branch,
            &[(0, 0, Some(Kind::Int)), (0, 1, Some(Kind::Bool))],
        );
        let vars = variables(&f).unwrap();
        assert_eq!(vars.of[3], [0]);
        assert_eq!(unwritten_reads(&f, &vars), [(3, 0)]);

        let both = vec![
            Inst::Const { dst: 1, value: 1 },
            Inst::JumpIfNot { cond: 1, to: 4 },
            Inst::Const { dst: 0, value: 5 },
            Inst::Jump(5),
            Inst::Const { dst: 0, value: 6 },
            ret(0),
        ];
        let f = func(both, &[(0, 0, Some(Kind::Int)), (0, 1, Some(Kind::Bool))]);
        let vars = variables(&f).unwrap();
        assert_eq!(unwritten_reads(&f, &vars), []);
        assert_eq!(classes(&f, &vars).unwrap(), [Class::Int, Class::Bool]);
    }

    /// A register taken again holds a new variable; the instruction that reads the old
    /// value and writes the new one (its operand given back for its result) reads the
    /// old one.
    #[test]
    fn a_register_taken_again_is_a_new_variable_from_what_writes_it() {
        let code = vec![
            Inst::Const { dst: 0, value: 2 },
            Inst::Arith {
                op: IntOp::Add,
                dst: 0,
                a: 0,
                b: 0,
            },
            Inst::Compare {
                op: CmpOp::Lt,
                dst: 0,
                a: 0,
                b: 0,
            },
            Inst::JumpIfNot { cond: 0, to: 4 },
            ret(0),
        ];
        let f = func(code, &[(0, 0, None), (1, 0, None), (2, 0, None)]);
        let vars = variables(&f).unwrap();
        assert_eq!(vars.of[1], [0, 0, 1]);
        assert_eq!(vars.of[2], [1, 1, 2]);
        assert_eq!(unwritten_reads(&f, &vars), []);
        // The comparison's truth returned as an int: two classes for one variable.
        let err = classes(&f, &vars).unwrap_err();
        assert!(err.contains("variable 2 holds Bool and Int"), "{err}");
    }

    /// A register no one took is an error, not a guess.
    #[test]
    fn a_register_never_taken_is_an_error() {
        let f = func(vec![ret(3)], &[]);
        let err = variables(&f).unwrap_err();
        assert!(err.contains("register 3, never taken"), "{err}");
    }

    fn jump_if_not(cond: u8, to: u32) -> Inst {
        Inst::JumpIfNot { cond, to }
    }

    fn nop(dst: u8) -> Inst {
        Inst::Const { dst, value: 0 }
    }

    /// `if c { a } else { b }` as lowering writes it: the test's jump leaves the block of
    /// the `then` arm, whose last jump leaves the block of both.
    #[test]
    fn an_if_else_is_two_nested_blocks() {
        let code = vec![
            nop(0),            // 0: c
            jump_if_not(0, 4), // 1
            nop(1),            // 2: then
            Inst::Jump(5),     // 3
            nop(1),            // 4: else
            ret(1),            // 5
        ];
        use Node::{Block, Inst as I};
        assert_eq!(
            structure(&code).unwrap(),
            [
                I(0),
                Block {
                    end: 5,
                    body: vec![
                        Block {
                            end: 4,
                            body: vec![I(1), I(2), I(3)]
                        },
                        I(4)
                    ]
                },
                I(5)
            ]
        );
    }

    /// A counted loop with an early exit and a skipped turn: its test and the exit
    /// leave it, the skip leaves the block up to the count, the jump back goes round.
    #[test]
    fn a_loop_with_a_break_and_a_continue() {
        let code = vec![
            nop(0),            // 0: i = 0
            jump_if_not(0, 7), // 1: head: i < len, or out
            jump_if_not(1, 5), // 2: skip this one
            jump_if_not(2, 7), // 3: found: out
            nop(3),            // 4
            nop(0),            // 5: i += 1
            Inst::Jump(1),     // 6: round again
            ret(3),            // 7
        ];
        use Node::{Block, Inst as I, Loop};
        assert_eq!(
            structure(&code).unwrap(),
            [
                I(0),
                Loop {
                    head: 1,
                    end: 7,
                    body: vec![
                        I(1),
                        Block {
                            end: 5,
                            body: vec![I(2), I(3), I(4)]
                        },
                        I(5),
                        I(6)
                    ]
                },
                I(7)
            ]
        );
    }

    /// A jump into the middle of a loop from before it has no region: an error, not a
    /// guess.
    #[test]
    fn a_jump_into_a_loop_is_an_error() {
        let code = vec![
            jump_if_not(0, 3), // 0: into the loop's body
            nop(1),            // 1: head
            nop(1),            // 2
            nop(1),            // 3
            Inst::Jump(1),     // 4
            ret(1),            // 5
        ];
        let err = structure(&code).unwrap_err();
        assert!(err.contains("enters loop"), "{err}");
    }
}
