//! The printer of the core IR (issue 25, step 5; `docs/design/core-ir.md`, "Codegen
//! prints the core IR"): a function's body printed from its lowered code, the one the VM
//! runs, so what a step, a trace event or a roll means is lowering's, written once.
//!
//! It prints a function whose code branches but does not loop, over ints, truths, levels
//! and rolls, that reads fields of its record parameters, calls formulas and procedures
//! (not a fight's; their rule errors passed up with `?`), assigns fields of the records it
//! changes, reads one-key tables, returns a number, a truth, a level or an outcome, raises
//! no rule error of its own and is no fight's: [`body`] returns `None` for any other, which `body/` prints as
//! before. Each `i64` register lowering took is a Rust variable
//! (`core_ir::shape::variables`), one per write (`versions.rs`; writes that reach one read
//! together are one web, assigned at each), named after the local it holds where lowering
//! says so (`names.rs`); a value written once, without effects, and read once in the same
//! block is printed in place of its read (`inst.rs`). The jumps become the blocks and
//! loops of `core_ir::shape::structure`, the blocks that an `if` leaves `if`/`else`
//! (`tree.rs`), and the webs `and`/`or` chains, `if` values and variables declared where
//! their scope starts (`webs.rs`).

use super::{int_lit, types::roll_call, Gen, RT};
use crate::ir::{self, CmpOp, Ty};
use rulesc_core::core_ir::shape::{self, Node};
use rulesc_core::core_ir::{Access, Class, Func, Inst, Kind, Part, Reg};

mod inst;
mod names;
mod tree;
mod versions;
mod webs;

use tree::{hoist_last_return, not, paren, render, simplify, Refs, S};
use versions::versions;
use webs::{declare, values, Web};

/// The body of function `fid` printed from its core IR, as `body::function` takes it
/// (`locals`: the Rust names of its locals, its parameters first), or `None` when it is
/// not in this slice.
pub(super) fn body(
    g: &Gen,
    fid: usize,
    f: &ir::Function,
    locals: &[String],
) -> Option<Vec<String>> {
    if g.fight.get(fid).copied().unwrap_or(true) {
        return None;
    }
    let module = g.core?;
    let func = module.functions.get(fid)?.as_ref()?;
    let mut p = Printer::new(g, f, func, locals)?;
    let tree = shape::structure(&func.code).ok()?;
    if has_loop(&tree) {
        return None;
    }
    let mut stmts = simplify(p.nodes(&tree)?);
    values(&mut stmts);
    hoist_last_return(&mut stmts);
    declare(&mut stmts, &p.webs());
    let mut out = p.unread_params();
    render(&stmts, true, &mut out);
    #[cfg(test)]
    tests::PRINTED.with(|p| p.borrow_mut().push(f.name.clone()));
    Some(out)
}

fn has_loop(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::Inst(_) => false,
        Node::Block { body, .. } => has_loop(body),
        Node::Loop { .. } => true,
    })
}

/// What a variable holds, as Rust.
#[derive(Debug, Clone, PartialEq)]
enum VarTy {
    Int,
    Bool,
    /// A level of scale `choice` (its enum).
    Level(usize),
}

struct Printer<'a> {
    g: &'a Gen<'a>,
    f: &'a ir::Function,
    func: &'a Func,
    /// Per instruction, the version of each `i64` register it names: a value written
    /// once ([`versions`]), which the printer calls a variable.
    of: Vec<Vec<u32>>,
    /// Each version's variable of `core_ir::shape` (the register lowering took), and the
    /// version each of [`Func::lets`] names.
    var_of: Vec<u32>,
    let_versions: Vec<Option<u32>>,
    tys: Vec<Option<VarTy>>,
    /// The text of each variable: its name, or the expression printed in place of it.
    text: Vec<Option<String>>,
    /// Each variable's writes and reads among reachable instructions.
    writes: Vec<Vec<usize>>,
    reads: Vec<usize>,
    /// The value registers: a parameter (its name and record type) or an outcome made
    /// (its type).
    vals: Vec<Val>,
    reachable: Vec<bool>,
    /// Each variable's one read, where it has one.
    read_at: Vec<Option<usize>>,
    /// The parameters' Rust names, and the variables of those held in `i64` registers.
    params: Vec<String>,
    param_vars: Vec<u32>,
    /// How many instructions read each value register, and the text of an outcome's.
    val_reads: Vec<usize>,
    val_texts: Vec<Option<String>>,
    /// Each variable's name ([`Self::name_all`]), and the name of what a roll or an
    /// outcome made is bound to, by instruction.
    names: Vec<String>,
    roll_names: Vec<String>,
    /// The webs named by each variable's text printed in place, and by each outcome's.
    uses: Vec<Refs>,
    /// How deep each variable's text printed in place nests (0: a name).
    depth: Vec<u32>,
    val_uses: Vec<Refs>,
    /// The webs read by the instruction being printed, so far.
    refs: std::cell::RefCell<Refs>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Val {
    Unknown,
    Param(usize),
    Outcome(usize),
}

/// The most instructions a function printed here has: [`versions`] holds a state per
/// instruction of every variable.
const MAX_CODE: usize = 4_000;

/// The deepest a value printed in place nests, and the most operands of one `and` or `or`
/// chain: past them a value is bound to a variable, so that a chain of thousands of terms
/// is neither text that grows with the square of its length nor an expression too deep
/// for the parser and printer of the Rust (as `body/` binds every 32 operators).
const MAX_NEST: u32 = 32;

/// An instruction that writes one variable and does nothing else.
fn pure(i: &Inst) -> bool {
    matches!(
        i,
        Inst::Const { .. }
            | Inst::Move { .. }
            | Inst::Field { .. }
            | Inst::Arith { .. }
            | Inst::ArithImm { .. }
            | Inst::Compare { .. }
            | Inst::CompareImm { .. }
            | Inst::Not { .. }
            | Inst::Neg { .. }
            | Inst::Abs { .. }
            | Inst::Pick { .. }
            | Inst::LevelStep { .. }
    )
}

/// The instructions this slice prints.
fn in_slice(i: &Inst) -> bool {
    pure(i)
        || matches!(
            i,
            Inst::Step(_)
                | Inst::Site(_)
                | Inst::Stop
                | Inst::TraceCall { .. }
                | Inst::TraceStep { .. }
                | Inst::TraceAssign { .. }
                | Inst::TraceBranch { .. }
                | Inst::Return { .. }
                | Inst::Roll { .. }
                | Inst::Outcome { .. }
                | Inst::Jump(_)
                | Inst::JumpIfNot { .. }
                | Inst::JumpIf { .. }
                | Inst::JumpUnless { .. }
                | Inst::JumpUnlessImm { .. }
                | Inst::Call { .. }
                | Inst::Assign { .. }
                | Inst::Lookup { .. }
        )
}

/// A one-key table read whose row always exists (not a die table without a default), of
/// a number, truth or level by a number or a level: the table's function called, and (in
/// a traced function) the read traced.
fn table_read<'a>(g: &'a Gen<'a>, inst: &Inst) -> Option<&'a ir::Table> {
    let Inst::Lookup {
        dst, key, table, ..
    } = inst
    else {
        return None;
    };
    let t = g.p.tables.get(*table as usize)?;
    let scalar = |p: &Part| matches!(p, Part::Int(_) | Part::Bool(_) | Part::Level(_));
    (!t.partial()
        && t.columns.is_none()
        && scalar(dst)
        && scalar(key)
        && var_ty(&t.value).is_some())
    .then_some(t)
}

/// The type of a table's key.
fn key_ty(t: &ir::Table) -> Ty {
    match t.key {
        ir::TableKey::Choice(c) => Ty::Choice(c),
        _ => Ty::Int,
    }
}

/// The function a `Call` calls, when this slice prints the call: not a fight's, raising no
/// rule error, lowered, its parameters numbers, truths, levels or records it does not
/// change (each passed a register of the caller), and returning one of those or nothing.
fn callee<'a>(g: &'a Gen<'a>, inst: &Inst) -> Option<(usize, &'a ir::Function, &'a Func)> {
    let Inst::Call {
        func,
        ints,
        vals,
        ret,
        ..
    } = inst
    else {
        return None;
    };
    let fid = *func as usize;
    let f = g.p.functions.get(fid)?;
    let lowered = g.core?.functions.get(fid)?.as_ref()?;
    if g.fight.get(fid).copied().unwrap_or(true) {
        return None;
    }
    for (part, param) in lowered.params.iter().zip(&f.params) {
        let passed = match (part, &param.ty) {
            (Part::Int(r), Ty::Int)
            | (Part::Bool(r), Ty::Bool)
            | (Part::Level(r), Ty::Choice(_)) => ints.iter().any(|(c, _)| c == r),
            (Part::Val(v), Ty::Record(_)) => vals.iter().any(|(c, _, _)| c == v),
            _ => false,
        };
        if !passed {
            return None;
        }
    }
    match (ret, &f.ret) {
        (Part::Int(_), Ty::Int) | (Part::Bool(_), Ty::Bool) | (Part::Level(_), Ty::Choice(_)) => {}
        (Part::Unit, Ty::Unit) if f.is_procedure() => {}
        (Part::Val(_), Ty::Outcome(_)) => {}
        _ => return None,
    }
    Some((fid, f, lowered))
}

/// A call of a formula that raises no rule error: a value computed without effect
/// (formulas take no dice).
fn pure_call(g: &Gen, inst: &Inst) -> bool {
    let scalar = matches!(inst, Inst::Call { ret, .. } if !matches!(ret, Part::Val(_)));
    scalar && callee(g, inst).is_some_and(|(_, f, _)| !f.is_procedure() && !f.fallible)
}

impl<'a> Printer<'a> {
    fn new(g: &'a Gen<'a>, f: &'a ir::Function, func: &'a Func, locals: &[String]) -> Option<Self> {
        let params = &locals[..f.params.len()];
        if !func.code.iter().all(in_slice) {
            return None;
        }
        for inst in &func.code {
            if matches!(inst, Inst::Call { .. }) && callee(g, inst).is_none()
                || matches!(inst, Inst::Lookup { .. }) && table_read(g, inst).is_none()
            {
                return None;
            }
        }
        if func.code.len() > MAX_CODE {
            return None;
        }
        let vars = shape::variables(func).ok()?;
        let classes = shape::classes(func, &vars).ok()?;
        if !shape::unwritten_reads(func, &vars).is_empty() {
            return None;
        }
        let reachable = reachable(&func.code);
        let vers = versions(func, &vars, &reachable)?;
        let n = vers.var.len();
        // The value registers: parameters, then outcomes made and returned.
        let mut vals = vec![Val::Unknown; func.vals as usize];
        let mut text: Vec<Option<String>> = vec![None; n];
        let mut tys: Vec<Option<VarTy>> = vec![None; n];
        let mut k = 0;
        for (i, (part, param)) in func.params.iter().zip(&f.params).enumerate() {
            match (part, &param.ty) {
                (Part::Val(v), Ty::Record(_)) => vals[*v as usize] = Val::Param(i),
                (Part::Int(_), Ty::Int)
                | (Part::Bool(_), Ty::Bool)
                | (Part::Level(_), Ty::Choice(_)) => {
                    let v = vers.params[k] as usize;
                    k += 1;
                    text[v] = Some(params[i].clone());
                    tys[v] = Some(var_ty(&param.ty)?);
                }
                _ => return None,
            }
        }
        for inst in &func.code {
            if let Inst::Return {
                value: Part::Val(v),
                ty,
                ..
            } = inst
            {
                let Ty::Outcome(o) = **ty else { return None };
                vals[*v as usize] = Val::Outcome(o);
            }
        }
        // An outcome a call gives back.
        for inst in &func.code {
            if let Inst::Call {
                ret: Part::Val(v), ..
            } = inst
            {
                let Ty::Outcome(o) = callee(g, inst)?.1.ret else {
                    return None;
                };
                match &mut vals[*v as usize] {
                    x @ Val::Unknown => *x = Val::Outcome(o),
                    Val::Outcome(p) if *p == o => {}
                    _ => return None,
                }
            }
        }
        // Every value register is a parameter or an outcome returned.
        for (pc, inst) in func.code.iter().enumerate() {
            let mut ok = true;
            inst.regs(&mut |r, _| {
                if let Reg::Val(v) = r {
                    ok &= vals.get(v as usize).is_some_and(|x| *x != Val::Unknown);
                }
            });
            if !ok && reachable[pc] {
                return None;
            }
        }
        let mut writes = vec![Vec::new(); n];
        let mut reads = vec![0; n];
        let mut read_at = vec![None; n];
        let mut val_reads = vec![0; func.vals as usize];
        for (pc, inst) in func.code.iter().enumerate() {
            // A formula's trace steps are the interpreter's (`--trace-formulas`): printed
            // as nothing, they read nothing here.
            if !reachable[pc] || matches!(inst, Inst::TraceStep { .. }) {
                continue;
            }
            let mut j = 0;
            inst.regs(&mut |r, access| match r {
                Reg::Int(_) => {
                    let v = vers.of[pc][j] as usize;
                    match access {
                        Access::Write => writes[v].push(pc),
                        _ => {
                            reads[v] += 1;
                            read_at[v] = Some(pc);
                        }
                    }
                    j += 1;
                }
                Reg::Val(v) => {
                    if access != Access::Write {
                        val_reads[v as usize] += 1;
                    }
                }
            });
        }
        // A value nothing reads is not printed, nor what only it reads.
        loop {
            let mut dropped = false;
            for (pc, inst) in func.code.iter().enumerate() {
                // A table read is traced in a procedure: an effect there.
                let read = matches!(inst, Inst::Lookup { .. }) && !f.is_procedure();
                if !reachable[pc] || !(pure(inst) || pure_call(g, inst) || read) {
                    continue;
                }
                let o = &vers.of[pc];
                let Some(&d) = o.last() else { continue };
                if reads[d as usize] == 0 && writes[d as usize].contains(&pc) {
                    writes[d as usize].retain(|&w| w != pc);
                    for &u in &o[..o.len() - 1] {
                        reads[u as usize] -= 1;
                    }
                    dropped = true;
                }
            }
            if !dropped {
                break;
            }
        }
        // A parameter is not assigned (its binding is the signature's).
        if vers.params.iter().any(|&v| !writes[v as usize].is_empty()) {
            return None;
        }
        let mut p = Printer {
            g,
            f,
            func,
            of: vers.of,
            var_of: vers.var,
            let_versions: vers.lets,
            tys,
            text,
            writes,
            reads,
            vals,
            reachable,
            read_at,
            params: params.to_vec(),
            param_vars: vers.params.clone(),
            val_texts: vec![None; val_reads.len()],
            val_reads,
            names: vec![String::new(); n],
            roll_names: Vec::new(),
            uses: vec![Vec::new(); n],
            depth: vec![0; n],
            val_uses: vec![Vec::new(); func.vals as usize],
            refs: Default::default(),
        };
        p.name_all(locals);
        p.infer_types(&classes)?;
        Some(p)
    }

    /// Each variable's Rust type: from what lowering took its register for, what its
    /// instruction says it holds, and (a level's scale) what it is compared with, moved
    /// from, stepped from or traced as.
    fn infer_types(&mut self, classes: &[Class]) -> Option<()> {
        for v in 0..self.tys.len() {
            let var = self.var_of[v] as usize;
            if self.tys[v].is_none() {
                self.tys[v] = match self.func.allocs[var].kind {
                    Some(Kind::Int) => Some(VarTy::Int),
                    Some(Kind::Bool) => Some(VarTy::Bool),
                    Some(Kind::Level(c)) => Some(VarTy::Level(c)),
                    _ => None,
                };
            }
        }
        for v in 0..self.tys.len() {
            let c = classes[self.var_of[v] as usize];
            if self.tys[v].is_none() {
                self.tys[v] = match c {
                    Class::Int => Some(VarTy::Int),
                    Class::Bool => Some(VarTy::Bool),
                    _ => None,
                };
            }
        }
        // Levels' scales, and what a field read or a constant holds, to a fixed point.
        loop {
            let mut changed = false;
            for (pc, inst) in self.func.code.iter().enumerate() {
                if !self.reachable[pc] {
                    continue;
                }
                let o = &self.of[pc];
                let mut same = |a: usize, b: usize, tys: &mut Vec<Option<VarTy>>| {
                    let (x, y) = (o[a] as usize, o[b] as usize);
                    match (&tys[x], &tys[y]) {
                        (Some(t), None) => {
                            tys[y] = Some(t.clone());
                            changed = true;
                        }
                        (None, Some(t)) => {
                            tys[x] = Some(t.clone());
                            changed = true;
                        }
                        _ => {}
                    }
                };
                match inst {
                    Inst::Move { .. } => same(0, 1, &mut self.tys),
                    Inst::Compare { .. } => same(0, 1, &mut self.tys),
                    Inst::Pick { .. } => {
                        same(0, 1, &mut self.tys);
                        same(0, 2, &mut self.tys);
                    }
                    Inst::LevelStep { .. } => same(0, 2, &mut self.tys),
                    Inst::Field { rec, field, .. } => {
                        let v = o[0] as usize;
                        if self.tys[v].is_none() {
                            let ty = self.field_ty(*rec, *field)?;
                            self.tys[v] = Some(var_ty(ty)?);
                            changed = true;
                        }
                    }
                    Inst::Assign {
                        place, keys, value, ..
                    } if keys.is_empty() => {
                        if let (Part::Int(_) | Part::Bool(_) | Part::Level(_), Some(t)) =
                            (value, var_ty(&place.ty))
                        {
                            let v = o[0] as usize;
                            if self.tys[v].is_none() {
                                self.tys[v] = Some(t);
                                changed = true;
                            }
                        }
                    }
                    Inst::Lookup { .. } => {
                        let t = table_read(self.g, inst)?;
                        for (k, ty) in [(0, key_ty(t)), (1, t.value.clone())] {
                            let v = o[k] as usize;
                            if self.tys[v].is_none() {
                                self.tys[v] = Some(var_ty(&ty)?);
                                changed = true;
                            }
                        }
                    }
                    Inst::Call { ints, ret, .. } => {
                        let (_, f, lowered) = callee(self.g, inst)?;
                        let mut found = Vec::new();
                        for (k, (c, _)) in ints.iter().enumerate() {
                            let i = lowered.params.iter().position(|part| {
                                matches!(part, Part::Int(r) | Part::Bool(r) | Part::Level(r) if r == c)
                            })?;
                            found.push((o[k] as usize, var_ty(&f.params[i].ty)?));
                        }
                        if let Part::Int(_) | Part::Bool(_) | Part::Level(_) = ret {
                            found.push((o[ints.len()] as usize, var_ty(&f.ret)?));
                        }
                        for (v, t) in found {
                            if self.tys[v].is_none() {
                                self.tys[v] = Some(t);
                                changed = true;
                            }
                        }
                    }
                    Inst::TraceAssign { value, ty, .. } | Inst::Return { value, ty, .. } => {
                        if let (Part::Int(_) | Part::Bool(_) | Part::Level(_), Some(t)) =
                            (value, var_ty(ty))
                        {
                            let v = o[0] as usize;
                            if self.tys[v].is_none() {
                                self.tys[v] = Some(t);
                                changed = true;
                            }
                        }
                    }
                    Inst::Outcome { tag, fields, .. } => {
                        let Some(Val::Outcome(oc)) = self.out_of(pc) else {
                            continue;
                        };
                        let tagdef = &self.g.p.outcomes[oc].tags[*tag as usize];
                        let mut j = 0;
                        for (fi, part) in fields.iter().enumerate() {
                            let t = var_ty(&tagdef.fields[fi].1);
                            let mut regs = Vec::new();
                            part.regs(&mut |r, _| regs.push(r));
                            for r in regs {
                                if let (Reg::Int(_), Some(t)) = (r, t.clone()) {
                                    let v = o[j] as usize;
                                    if self.tys[v].is_none() {
                                        self.tys[v] = Some(t);
                                        changed = true;
                                    }
                                    j += 1;
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            if !changed {
                break;
            }
        }
        // Every variable read or written where it is reached has a type.
        (0..self.tys.len())
            .filter(|&v| self.reads[v] > 0 || !self.writes[v].is_empty())
            .all(|v| self.tys[v].is_some())
            .then_some(())
    }

    /// The outcome an `Outcome` instruction at `pc` makes (the type of its register).
    fn out_of(&self, pc: usize) -> Option<Val> {
        match &self.func.code[pc] {
            Inst::Outcome { dst, .. } => self.vals.get(*dst as usize).copied(),
            _ => None,
        }
    }

    fn field_ty(&self, rec: u32, field: u32) -> Option<&'a Ty> {
        let Val::Param(i) = *self.vals.get(rec as usize)? else {
            return None;
        };
        let Ty::Record(r) = &self.f.params[i].ty else {
            return None;
        };
        Some(&self.g.p.records[*r].fields.get(field as usize)?.ty)
    }
}

fn var_ty(ty: &Ty) -> Option<VarTy> {
    match ty {
        Ty::Int => Some(VarTy::Int),
        Ty::Bool => Some(VarTy::Bool),
        Ty::Choice(c) => Some(VarTy::Level(*c)),
        _ => None,
    }
}

/// `name: value` in a struct literal, `name` alone where the value is a variable of that
/// name.
fn init(name: &str, value: &str) -> String {
    if name == value {
        name.to_string()
    } else {
        format!("{name}: {value}")
    }
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

/// Which instructions control reaches from the entry.
fn reachable(code: &[Inst]) -> Vec<bool> {
    let mut seen = vec![false; code.len()];
    let mut work = vec![0];
    while let Some(pc) = work.pop() {
        if pc >= code.len() || seen[pc] {
            continue;
        }
        seen[pc] = true;
        work.extend(shape::successors(code, pc));
    }
    seen
}

#[cfg(test)]
mod tests;
