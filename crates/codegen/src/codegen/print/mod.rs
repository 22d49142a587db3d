//! The printer of the core IR (issue 25, step 5; `docs/design/core-ir.md`, "Codegen
//! prints the core IR"): a function's body printed from its lowered code, the one the VM
//! runs, so what a step, a trace event or a roll means is lowering's, written once.
//!
//! This is the first slice. It prints a function whose code is straight-line or
//! branching (no loop, no call), over ints, truths, levels and rolls, reading fields of
//! its record parameters and returning a number, a truth, a level or an outcome, that
//! raises no rule error and is no fight's: [`body`] returns `None` for any other, which
//! `body/` prints as before. Each `i64` register lowering took is a Rust variable
//! (`core_ir::shape::variables`), named after the local it holds where lowering says so;
//! a value written once, by an instruction without effects, and read once in the same
//! block is printed in place of its read. The jumps become the blocks and loops of
//! `core_ir::shape::structure`, and the blocks that an `if` leaves become `if`/`else`.

use super::{Gen, RT};
use crate::ir::{self, CmpOp, Ty};
use rulesc_core::core_ir::shape::{self, Node};
use rulesc_core::core_ir::{Access, Class, Func, Inst, Kind, Part, Reg};

mod tree;
mod versions;

use tree::{hoist_last_return, not, paren, render, simplify, S};
use versions::versions;

/// The body of function `fid` printed from its core IR, as `body::function` takes it
/// (`locals`: the Rust names of its locals, its parameters first), or `None` when it is
/// not in this slice.
pub(super) fn body(
    g: &Gen,
    fid: usize,
    f: &ir::Function,
    locals: &[String],
) -> Option<Vec<String>> {
    if g.fight.get(fid).copied().unwrap_or(true) || f.fallible {
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
    hoist_last_return(&mut stmts);
    let mut out = p.unread_params();
    render(&stmts, true, &mut out);
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
    matches!(
        i,
        Inst::Step(_)
            | Inst::Site(_)
            | Inst::Stop
            | Inst::TraceCall { .. }
            | Inst::TraceStep { .. }
            | Inst::TraceAssign { .. }
            | Inst::TraceBranch { .. }
            | Inst::Return { .. }
            | Inst::Const { .. }
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
            | Inst::Roll { .. }
            | Inst::Outcome { .. }
            | Inst::Jump(_)
            | Inst::JumpIfNot { .. }
            | Inst::JumpIf { .. }
            | Inst::JumpUnless { .. }
            | Inst::JumpUnlessImm { .. }
    )
}

impl<'a> Printer<'a> {
    fn new(g: &'a Gen<'a>, f: &'a ir::Function, func: &'a Func, locals: &[String]) -> Option<Self> {
        let params = &locals[..f.params.len()];
        if !func.code.iter().all(in_slice) {
            return None;
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
            if !reachable[pc] {
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
                if !reachable[pc] || !pure(inst) {
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

    /// The name of variable `v`.
    fn name(&self, v: usize) -> String {
        self.names[v].clone()
    }

    /// Names for the variables: a local's where a `let` binds it (`_natural` after the
    /// natural face of a roll), `taken` for a branch's truth, `v<n>` for the others; each
    /// one no local, no module item and no other variable has.
    fn name_all(&mut self, locals: &[String]) {
        let mut used: std::collections::BTreeSet<String> = locals.iter().cloned().collect();
        used.extend(self.g.id.module_values.iter().cloned());
        used.extend(["env".to_string(), "fight".to_string()]);
        let fresh = |base: String, used: &mut std::collections::BTreeSet<String>| {
            let mut name = base.clone();
            let mut n = 2;
            while used.contains(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            used.insert(name.clone());
            name
        };
        let mut names: Vec<Option<String>> = vec![None; self.names.len()];
        let mut seen: Vec<(u32, u32)> = Vec::new();
        for (l, v) in self.func.lets.iter().zip(&self.let_versions) {
            let Some(v) = *v else {
                continue;
            };
            let local = &locals[l.slot as usize];
            let name = if seen.contains(&(l.pc, l.slot)) {
                fresh(format!("{local}_natural"), &mut used)
            } else {
                seen.push((l.pc, l.slot));
                // The local's own name is its own: not taken again.
                local.clone()
            };
            names[v as usize].get_or_insert(name);
        }
        for (pc, inst) in self.func.code.iter().enumerate() {
            if let Inst::TraceBranch { .. } = inst {
                let v = self.of[pc][0] as usize;
                if names[v].is_none() {
                    names[v] = Some(fresh("taken".into(), &mut used));
                }
            }
        }
        for (v, name) in names.into_iter().enumerate() {
            self.names[v] = name.unwrap_or_else(|| fresh(format!("v{v}"), &mut used));
        }
        self.roll_names = (0..self.func.code.len())
            .map(|pc| match &self.func.code[pc] {
                Inst::Roll { .. } => fresh("roll".into(), &mut used),
                Inst::Outcome { dst, fields, .. } if !self.in_place(*dst, fields) => {
                    fresh("outcome".into(), &mut used)
                }
                _ => String::new(),
            })
            .collect();
    }

    /// Variable `v` read: its name, or the expression printed in its place.
    fn read(&self, v: u32) -> String {
        self.text[v as usize]
            .clone()
            .unwrap_or_else(|| self.name(v as usize))
    }

    /// A constant held by variable `v` as Rust.
    fn constant(&self, v: u32, value: i64) -> Option<String> {
        Some(match self.tys[v as usize].as_ref()? {
            VarTy::Int => super::int_lit(value),
            VarTy::Bool => (value != 0).to_string(),
            VarTy::Level(c) => format!(
                "{}::{}",
                self.g.id.choice[*c],
                self.g.id.variant[*c].get(usize::try_from(value).ok()?)?
            ),
        })
    }

    /// The value written by instruction `pc` (one `i64` result, no effect) as an
    /// expression, its operands read.
    fn value(&self, pc: usize) -> Option<String> {
        let o = &self.of[pc];
        let r = |i: usize| self.read(o[i]);
        let rt = RT;
        Some(match &self.func.code[pc] {
            Inst::Const { value, .. } => self.constant(o[0], *value)?,
            Inst::Move { .. } => r(0),
            Inst::Field { rec, field, .. } => {
                let Val::Param(i) = self.vals[*rec as usize] else {
                    return None;
                };
                let Ty::Record(rid) = &self.f.params[i].ty else {
                    return None;
                };
                format!(
                    "{}.{}",
                    self.param_name(i),
                    self.g.id.field[*rid][*field as usize]
                )
            }
            Inst::Arith { op, .. } => {
                format!(
                    "{rt}::__private::arith::{}({}, {})",
                    op.runtime_name(),
                    r(0),
                    r(1)
                )
            }
            Inst::ArithImm { op, b, .. } => format!(
                "{rt}::__private::arith::{}({}, {})",
                op.runtime_name(),
                r(0),
                super::int_lit(*b)
            ),
            Inst::Compare { op, .. } => format!("{} {} {}", r(0), cmp(*op), r(1)),
            Inst::CompareImm { op, b, .. } => {
                format!("{} {} {}", r(0), cmp(*op), self.constant(o[0], *b)?)
            }
            Inst::Not { .. } => format!("!{}", paren(&r(0))),
            Inst::Neg { .. } => format!("{rt}::__private::arith::neg({})", r(0)),
            Inst::Abs { .. } => format!("i64::saturating_abs({})", r(0)),
            Inst::Pick { max, .. } => {
                let ty = match self.tys[o[0] as usize].as_ref()? {
                    VarTy::Level(_) => "Ord",
                    _ => "i64",
                };
                format!(
                    "{ty}::{}({}, {})",
                    if *max { "max" } else { "min" },
                    r(0),
                    r(1)
                )
            }
            Inst::LevelStep { negate, len, .. } => {
                let Some(VarTy::Level(c)) = self.tys[o[2] as usize] else {
                    return None;
                };
                let d = if *negate {
                    format!("{rt}::__private::arith::neg({})", r(1))
                } else {
                    r(1)
                };
                format!(
                    "{}::ALL[usize::from({rt}::__private::arith::step_level({} as u8, {d}, {len}))]",
                    self.g.id.choice[c],
                    paren(&r(0))
                )
            }
            _ => return None,
        })
    }

    fn param_name(&self, i: usize) -> String {
        self.params[i].clone()
    }

    /// `let _ = p;` for each parameter `p` nothing reads (a value computed from it and
    /// thrown away lowers to nothing), so it is not an unused variable.
    fn unread_params(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut k = 0;
        for (i, part) in self.func.params.iter().enumerate() {
            let read = match part {
                Part::Val(v) => self.val_reads[*v as usize] > 0,
                _ => {
                    let v = self.param_vars[k];
                    k += 1;
                    self.reads[v as usize] > 0
                }
            };
            if !read && !self.params[i].starts_with('_') {
                out.push(format!("let _ = {};", self.params[i]));
            }
        }
        out
    }

    /// An outcome made into `dst` of `fields` is printed where it is read: it is read
    /// once, and not also shown in a trace event (unless it is a tag alone).
    fn in_place(&self, dst: u32, fields: &[Part]) -> bool {
        self.val_reads[dst as usize] == 1 && (fields.is_empty() || !self.traced())
    }

    fn traced(&self) -> bool {
        self.f.is_procedure()
    }

    fn event(&self, e: &str) -> S {
        S::Line(format!(
            "if T::ENABLED {{ env.trace.event({RT}::TraceEvent::{e}); }}"
        ))
    }

    /// A value shown in a trace event, as the interpreter shows it.
    fn shown(&self, pc: usize, value: Part, ty: &Ty) -> Option<String> {
        let o = &self.of[pc];
        Some(match value {
            Part::Int(_) | Part::Bool(_) | Part::Level(_) => self.g.traced(ty, &self.read(o[0])),
            Part::Roll { .. } => self.g.traced(&Ty::Int, &self.read(o[0])),
            Part::Val(v) => self.g.traced(ty, &self.val_text(v)?),
            Part::Unit => "String::new()".into(),
            Part::Fighter(_) | Part::Side(_) => return None,
        })
    }

    /// A value register read: an outcome's name or its text printed in place, or a
    /// parameter.
    fn val_text(&self, v: u32) -> Option<String> {
        match self.vals.get(v as usize)? {
            Val::Param(i) => Some(self.param_name(*i)),
            Val::Outcome(_) => self.val_texts.get(v as usize)?.clone(),
            Val::Unknown => None,
        }
    }

    /// The reads of variable `v`'s single write at `pc` are all in the statements after
    /// it, up to its block's end, and none of the variables it reads is written again
    /// before the read: the value can be printed in place of its one read.
    fn foldable(&self, v: usize, pc: usize) -> bool {
        let Some(read) = self.read_at[v] else {
            return false;
        };
        self.reads[v] == 1
            && self.writes[v] == [pc]
            && read > pc
            && self.of[pc][..self.of[pc].len() - 1].iter().all(|&u| {
                self.writes[u as usize]
                    .iter()
                    .all(|&w| w <= pc || w >= read)
            })
    }

    /// The statements of `nodes`.
    fn nodes(&mut self, nodes: &[Node]) -> Option<Vec<S>> {
        let mut out = Vec::new();
        for n in nodes {
            match n {
                Node::Inst(pc) => {
                    if self.reachable[*pc] {
                        self.inst(*pc, &mut out)?;
                    }
                }
                Node::Block { end, body } => out.push(S::Block {
                    label: *end,
                    body: self.nodes(body)?,
                }),
                Node::Loop { .. } => return None,
            }
        }
        Some(out)
    }

    fn inst(&mut self, pc: usize, out: &mut Vec<S>) -> Option<()> {
        let code = &self.func.code;
        let o = self.of[pc].clone();
        let next = |to: &u32| *to as usize == pc + 1;
        match &code[pc] {
            Inst::Step(_) | Inst::Site(_) | Inst::Stop | Inst::TraceStep { .. } => {}
            Inst::TraceCall { site } => {
                if self.traced() {
                    out.push(self.event(&format!("Call {{ site: {site} }}")));
                }
            }
            Inst::TraceAssign { site, value, ty } => {
                if self.traced() {
                    let shown = self.shown(pc, *value, ty)?;
                    out.push(self.event(&format!("Assign {{ site: {site}, value: {shown} }}")));
                }
            }
            Inst::TraceBranch { site, .. } => {
                if self.traced() {
                    let taken = init("taken", &self.read(o[0]));
                    out.push(self.event(&format!("Branch {{ site: {site}, {taken} }}")));
                }
            }
            Inst::Return { value, ty, site } => {
                let v = match value {
                    Part::Unit => None,
                    Part::Val(v) => Some(self.val_text(*v)?),
                    Part::Int(_) | Part::Bool(_) | Part::Level(_) => Some(self.read(o[0])),
                    _ => return None,
                };
                if self.traced() {
                    let shown = self.shown(pc, *value, ty)?;
                    out.push(self.event(&format!("Return {{ site: {site}, value: {shown} }}")));
                }
                out.push(S::Return(v));
            }
            Inst::Roll { spec, site, .. } => {
                let call = super::types::roll_call(*spec, *site);
                let (t, n) = (o[0] as usize, o[1] as usize);
                if self.reads[t] == 0 && self.reads[n] == 0 {
                    out.push(S::Line(format!("let _ = {call};")));
                    return Some(());
                }
                let r = self.roll_names[pc].clone();
                out.push(S::Line(format!("let {r} = {call};")));
                for (v, part) in [(t, "total"), (n, "natural")] {
                    if self.reads[v] > 0 {
                        self.text[v] = Some(format!("{r}.{part}"));
                    }
                }
            }
            Inst::Outcome { dst, tag, fields } => {
                let Val::Outcome(oc) = self.vals[*dst as usize] else {
                    return None;
                };
                let path = format!(
                    "{}::{}",
                    self.g.id.outcome[oc], self.g.id.tag[oc][*tag as usize]
                );
                let text = if fields.is_empty() {
                    path
                } else {
                    let mut inits = Vec::new();
                    for (fi, (part, &v)) in fields.iter().zip(&o).enumerate() {
                        if !matches!(part, Part::Int(_) | Part::Bool(_) | Part::Level(_)) {
                            return None;
                        }
                        let name = &self.g.id.tag_field[oc][*tag as usize][fi];
                        inits.push(init(name, &self.read(v)));
                    }
                    format!("{path} {{ {} }}", inits.join(", "))
                };
                if self.in_place(*dst, fields) {
                    self.val_texts[*dst as usize] = Some(text);
                } else {
                    let name = self.roll_names[pc].clone();
                    out.push(S::Let(format!("let {name} = {text};")));
                    self.val_texts[*dst as usize] = Some(name);
                }
            }
            Inst::Jump(to) => {
                if !next(to) {
                    out.push(S::Break(*to as usize));
                }
            }
            Inst::JumpIfNot { to, .. } | Inst::JumpIf { to, .. } => {
                if !next(to) {
                    let jump_if = matches!(code[pc], Inst::JumpIf { .. });
                    let c = self.read(o[0]);
                    out.push(S::If {
                        cond: if jump_if { c } else { not(&c) },
                        then: vec![S::Break(*to as usize)],
                        els: Vec::new(),
                    });
                }
            }
            Inst::JumpUnless { op, to, .. } | Inst::JumpUnlessImm { op, to, .. } => {
                if !next(to) {
                    let b = match &code[pc] {
                        Inst::JumpUnlessImm { b, .. } => self.constant(o[0], *b)?,
                        _ => self.read(o[1]),
                    };
                    out.push(S::If {
                        cond: format!("{} {} {}", self.read(o[0]), cmp(negate(*op)), b),
                        then: vec![S::Break(*to as usize)],
                        els: Vec::new(),
                    });
                }
            }
            _ => {
                // A value, written to one variable.
                let d = *o.last()? as usize;
                if self.reads[d] == 0 || !self.writes[d].contains(&pc) {
                    return Some(());
                }
                let text = self.value(pc)?;
                if self.foldable(d, pc) {
                    self.text[d] = Some(text);
                } else {
                    // An integer literal alone would not fix the variable's type.
                    let annot = match self.tys[d].as_ref()? {
                        VarTy::Int => ": i64",
                        _ => "",
                    };
                    out.push(S::Let(format!("let {}{annot} = {text};", self.name(d))));
                }
            }
        }
        Some(())
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

/// The comparison that holds where `op` does not.
fn negate(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
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
mod tests {
    /// The Rust of a ruleset of one `.rules` file holding `rules`.
    fn generated(rules: &str) -> String {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(
            dir.path().join("ruleset.yaml"),
            "ruleset: { name: printed }\ntypes:\n  Fighter: { physical_performance: int, skill: int }\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("a.rules"), rules).unwrap();
        let p = crate::compile_dir(dir.path())
            .0
            .expect("the ruleset checks");
        crate::codegen::generate(&p).expect("it generates")
    }

    /// The function `name` of `code`, from its signature to the next item, on one line
    /// per statement as prettyplease lays them out, blank-stripped.
    fn function<'c>(code: &'c str, name: &str) -> &'c str {
        let start = code.find(&format!("pub fn {name}")).expect("the function");
        let rest = &code[start..];
        &rest[..rest.find("\n}\n").map_or(rest.len(), |e| e + 2)]
    }

    const EXCHANGE: &str = "outcome Exchange { EpicFailure, Miss, Hit(margin: int) }
procedure exchange(attacker: Fighter, defender: Fighter) -> Exchange {
  let attack = roll d12! + attacker.physical_performance + attacker.skill
  if natural(attack) == 1 {
    return EpicFailure
  }
  let defence = roll d12! + defender.physical_performance + defender.skill
  if attack < defence {
    return Miss
  }
  return Hit(margin: attack - defence)
}
";

    /// A procedure of rolls, sums, comparisons and outcomes is printed from its core IR:
    /// each roll bound, each `let` a variable of its name, each branch's truth `taken`
    /// (traced, then tested), each early `return` an `if` of its own, the last result
    /// made before the last test, and returned as the body's value.
    #[test]
    fn a_procedure_of_rolls_and_outcomes_is_printed_from_its_core_ir() {
        let code = generated(EXCHANGE);
        let f = function(&code, "exchange");
        let lines: Vec<&str> = f.lines().map(str::trim).collect();
        let order = [
            "let roll = ::rulesc_runtime::__private::rolls::exploding(",
            "let attack: i64 = ::rulesc_runtime::__private::arith::add(",
            "roll.total,",
            "attacker.physical_performance,",
            "attacker.skill,",
            "value: attack.to_string(),",
            "let taken = roll.natural == 1;",
            "if taken {",
            "return Exchange::EpicFailure;",
            "let roll_2 = ::rulesc_runtime::__private::rolls::exploding(",
            "let taken_2 = attack < defence;",
            // The last result made before the last test, so that the two results are
            // picked between without a branch (`hoist_last_return`).
            "let outcome = Exchange::Hit {",
            "margin: ::rulesc_runtime::__private::arith::sub(attack, defence),",
            "if taken_2 {",
            "return Exchange::Miss;",
            "outcome",
        ];
        let mut at = 0;
        for want in order {
            match lines[at..].iter().position(|l| *l == want) {
                Some(i) => at += i + 1,
                None => panic!("no `{want}` after line {at} in:\n{f}"),
            }
        }
        assert_eq!(
            lines[lines.len() - 2],
            "outcome",
            "the last value is the body's:\n{f}"
        );
    }

    /// A function outside the slice (here a truth of `and`, a local changed) is printed
    /// by `body/` as before.
    #[test]
    fn a_function_outside_the_slice_is_printed_as_before() {
        let code = generated(
            "formula both(a: bool, b: bool) -> bool = a and b\nformula twice(x: int) -> int = x * 2\n",
        );
        assert!(function(&code, "both").contains("a && b"), "{code}");
        assert!(
            function(&code, "twice").contains("::rulesc_runtime::__private::arith::mul(x, 2)"),
            "{code}"
        );
    }
}
