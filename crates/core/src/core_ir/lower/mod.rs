//! Lowering: a checked function to the core IR, with the language's semantics made
//! explicit. Steps are charged here (a constant one, a `let`'s or a field's copy one, a
//! roll one plus a die past the first, a statement one, a call one), and trace points
//! stand where generated code emits the same events.
//! Every node lowers; a function needing more `i64` registers at once than a frame has
//! does not ([`NoRoom`], the checker's E0363: see the module docs of [`super`]).

mod calls;
mod cases;
mod fight;
mod lists;
pub mod piece;
mod records;
mod rolls;
mod scalars;
mod stmt;

use super::code::{Alloc, Func, IReg, Inst, Kind, Let, Part, Shown, VReg, FRAME};
use crate::eval::Value;
use crate::ir::{Body, Const, Expr, ExprKind as K, Program, Stmt, Ty};

/// Why a body does not lower: it calls a function that does not fit a frame (see
/// [`function`]). Every other node of a checked program lowers; a case the checker
/// excludes is `unreachable!` with the checker's rule.
struct NoRoom;

/// An operand of an instruction that takes a constant in place.
enum Operand {
    Reg(IReg),
    Imm(i64),
}

type Lowered<T> = Result<T, NoRoom>;

/// The functions lowered so far, by id: `Err(n)` when one does not lower, `n` the `i64`
/// registers it needs at once (more than a frame has), or 0 when a function it calls
/// does not lower.
pub(super) type Done = Vec<Option<Result<Func, u32>>>;

/// Lowers function `id` into `done`, its callees first.
pub(super) fn lower_into(p: &Program, id: usize, done: &mut Done) {
    if done[id].is_some() {
        return;
    }
    // Marked first: a call back into it (which the checker refuses) does not lower.
    done[id] = Some(Err(0));
    let f = function(p, id, done);
    done[id] = Some(f);
}

/// Function `id` lowered, or the registers it needs when they are more than a frame has
/// (0: a function it calls does not lower). The call's own step is the caller's
/// (`Inst::Call`, or the VM's entry).
fn function(p: &Program, id: usize, done: &mut Done) -> Result<Func, u32> {
    let f = &p.functions[id];
    let traced = f.is_procedure();
    let (full, regs, (allocs, lets)) = body(p, id, done, Form::Full).map_err(|NoRoom| 0u32)?;
    // A function's `i64` registers are indexed by a `u8`, into a fixed frame, which keeps
    // one for a piece of it run alone (`piece.rs`: the flag of its end): the plain form
    // inlines small formulas when they fit.
    let fits = |r: &Registers| r.1 as usize <= ROOM;
    let (plain, plain_regs) = match body(p, id, done, Form::Inlined).map_err(|NoRoom| 0u32)? {
        (code, r, _) if fits(&r) => (code, r),
        _ => {
            let (code, r, _) = body(p, id, done, Form::Plain).map_err(|NoRoom| 0u32)?;
            (code, r)
        }
    };
    // The plain form may need fewer `i64` registers (a comparison jumping on its
    // operands makes no truth) and more value registers (its inlined formulas'); its
    // parameters are the same.
    debug_assert_eq!(regs.0, plain_regs.0);
    if !fits(&regs) || !fits(&plain_regs) {
        return Err(regs.1.max(plain_regs.1));
    }
    let (params, _, vals) = regs;
    // The VM's pairs fused into the plain code, which no printer reads (same length,
    // same jump targets: what a caller reads of it to inline it is unchanged).
    let plain = super::vm::fuse(plain);
    Ok(Func {
        params,
        vals: vals.max(plain_regs.2),
        traced,
        site: f.site,
        code: full,
        allocs,
        lets,
        plain,
    })
}

/// `n`, a count of what a source file writes (items, keys, definitions, a constant's
/// values) or of a roll's dice, as a `u32`: a file's size budget (`load::MAX_FILE_BYTES`,
/// `load::MAX_FILES`) and a roll's most dice keep every such count far below it.
fn count<N: TryInto<u32> + Copy + std::fmt::Display>(n: N) -> u32 {
    n.try_into()
        .unwrap_or_else(|_| unreachable!("a file's size budget or a roll's most dice bounds {n}"))
}

/// The `i64` registers a function may hold at once: a frame's ([`FRAME`]) but one, which
/// a piece of it (a statement run alone by `rulesc analyze`, `piece.rs`) takes for the
/// flag of its end. A piece needs at most one register more than its function: its
/// entry binds locals the function held at that point, and its own temporaries are the
/// function's for the same code.
pub const ROOM: usize = FRAME - 1;

/// The registers a body allocates: its parameters' parts, its `i64` and value registers.
type Registers = (Vec<Part>, u32, u32);

/// The forms a function's body is lowered in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// With its trace points and stops.
    Full,
    /// Without them, for an untraced run no enumeration can stop, where the steps
    /// between two effects are charged as one.
    Plain,
    /// Plain, with the small formulas it calls lowered in place ([`INLINE_MAX`]).
    Inlined,
}

/// The longest formula (its plain code's instructions) lowered in place of its calls.
/// 64 (from 40, session 19): Dungeon Cards' `disabled(c, part)`, a loop over a
/// character's wounds that every stat reads for each of 11 parts, then inlines, and its
/// fight runs 13% fewer instructions (docs/perf.md).
const INLINE_MAX: usize = 64;

/// Function `id`'s body in `form`.
#[allow(clippy::type_complexity)]
fn body(
    p: &Program,
    id: usize,
    done: &mut Done,
    form: Form,
) -> Lowered<(Vec<Inst>, Registers, (Vec<Alloc>, Vec<Let>))> {
    let f = &p.functions[id];
    // A formula's trace points run only when formulas are traced too (the VM's
    // `formulas`); a procedure's whenever the run is traced.
    let traced = form == Form::Full;
    let mut l = Lower::new(p, Callees::Lowering(done), &f.locals, f, form, traced);
    let mut params = Vec::with_capacity(f.params.len());
    for (slot, param) in f.params.iter().enumerate() {
        let part = l.fresh(&param.ty)?;
        l.slots[slot] = Some(part);
        params.push(part);
    }
    match &f.body {
        Body::Procedure(stmts) => {
            l.trace(Inst::TraceCall { site: f.site });
            l.block(stmts)?;
            // Falling off the end returns nothing, traced with an empty value.
            l.flush();
            l.code.push(Inst::Return {
                value: Part::Unit,
                ty: Box::new(Ty::Unit),
                site: f.site,
            });
        }
        Body::Formula(e) => {
            // Entered: its declaration, then each argument.
            l.trace(Inst::TraceCall { site: f.site });
            let line = p.sites.get(f.site as usize).map_or(0, |s| s.line);
            for (param, part) in f.params.iter().zip(params.clone()) {
                let shown = match &param.ty {
                    Ty::Record(_)
                    | Ty::List(_)
                    | Ty::Map(..)
                    | Ty::SortedMap(..)
                    | Ty::Track(_) => Shown::Text(format!("a {}", p.ty_name(&param.ty)).into()),
                    ty => Shown::Value(part, Box::new(ty.clone())),
                };
                l.trace(Inst::TraceStep {
                    site: f.site,
                    line,
                    text: param.name.as_str().into(),
                    shown,
                });
            }
            let v = l.expr(e)?;
            l.flush();
            l.code.push(Inst::Return {
                value: v,
                ty: Box::new(f.ret.clone()),
                site: f.site,
            });
        }
    }
    Ok((l.code, (params, l.ints, l.vals), (l.allocs, l.lets)))
}

/// The functions a body being lowered may call.
enum Callees<'d> {
    /// Lowering a program: the functions lowered so far, a callee lowered on demand
    /// (first, so its parameters are known).
    Lowering(&'d mut Done),
    /// A piece of a lowered program ([`piece`]): every function lowered already.
    Lowered(&'d [Option<Func>]),
}

struct Lower<'p, 'd> {
    p: &'p Program,
    /// The function's locals (their types).
    locals: &'p [crate::ir::Local],
    /// The functions it may call: lowered on demand, or already (a piece's).
    done: Callees<'d>,
    /// The full form: its trace points are lowered (a formula's run only when formulas
    /// are traced too; the plain form has none).
    traced: bool,
    /// The plain form: no trace points and no stops, so steps gather up to the next
    /// effect.
    plain: bool,
    /// A formula's body: nothing can change a record in it, so a loop's items are
    /// shared rather than copied.
    formula: bool,
    /// Small formulas called are lowered in place ([`Form::Inlined`]).
    inline: bool,
    /// The declaration's site of the function being lowered (of the inlined formula,
    /// inside one): where a spent step budget is reported.
    site: u32,
    code: Vec<Inst>,
    /// How many `i64` registers the body uses (the highest taken, plus one).
    ints: u32,
    vals: u32,
    /// `i64` registers a finished statement took and no local holds: taken again first.
    free: Vec<IReg>,
    /// `i64` registers taken by the statements under way, innermost last.
    taken: Vec<IReg>,
    /// Where each local of the function is held, once bound.
    slots: Vec<Option<Part>>,
    /// Steps charged by what was lowered since the last observable instruction.
    pending: u32,
    /// Where the last jump target is: an instruction before it is not on every path to
    /// what follows, so [`Self::mov`] never folds into it.
    label: usize,
    /// Each `i64` register taken, where and for what ([`Func::allocs`]).
    allocs: Vec<Alloc>,
    /// Each local a `let` binds to registers ([`Func::lets`]).
    lets: Vec<Let>,
}

impl<'p, 'd> Lower<'p, 'd> {
    /// A lowering of a body of function `f` (its locals `locals`) in `form`, its trace
    /// points lowered when `traced`.
    fn new(
        p: &'p Program,
        done: Callees<'d>,
        locals: &'p [crate::ir::Local],
        f: &crate::ir::Function,
        form: Form,
        traced: bool,
    ) -> Self {
        Lower {
            p,
            done,
            code: Vec::new(),
            ints: 0,
            vals: 0,
            free: Vec::new(),
            taken: Vec::new(),
            slots: vec![None; locals.len()],
            locals,
            pending: 0,
            label: 0,
            allocs: Vec::new(),
            lets: Vec::new(),
            traced,
            plain: form != Form::Full,
            inline: form == Form::Inlined,
            site: f.site,
            formula: !f.is_procedure(),
        }
    }
}

impl<'p> Lower<'p, '_> {
    /// Function `id`, lowered (on demand while lowering a program), or `None` when it
    /// does not lower.
    fn callee(&mut self, id: usize) -> Option<&Func> {
        match &mut self.done {
            Callees::Lowering(done) => {
                lower_into(self.p, id, done);
                done[id].as_ref()?.as_ref().ok()
            }
            Callees::Lowered(funcs) => funcs.get(id)?.as_ref(),
        }
    }

    /// A fresh `i64` register: one a finished statement gave back, or the next (past the
    /// frame's last, the function does not lower: [`function`] checks the count).
    fn int(&mut self) -> IReg {
        self.int_of(None)
    }

    /// Records that local `slot` is held in the `i64` registers of `part` from the next
    /// instruction on ([`Func::lets`]).
    fn named(&mut self, slot: usize, part: Part) {
        let pc = count(self.code.len());
        for reg in ints_of(part).into_iter().flatten() {
            self.lets.push(Let {
                pc,
                reg,
                slot: count(slot),
            });
        }
    }

    /// [`Self::int`] for a value of `kind`, when it is known.
    fn int_of(&mut self, kind: Option<Kind>) -> IReg {
        let r = self.free.pop().unwrap_or_else(|| {
            self.ints += 1;
            IReg::try_from(self.ints - 1).unwrap_or(IReg::MAX)
        });
        self.taken.push(r);
        self.allocs.push(Alloc {
            pc: count(self.code.len()),
            reg: r,
            kind,
        });
        r
    }

    /// Gives back the `i64` registers taken since `from` (a statement's start) that no
    /// local holds: a statement's temporaries are read by nothing after it, so the next
    /// statements reuse them and a long body fits in a frame.
    fn give_back(&mut self, from: usize) {
        for r in self.taken.split_off(from) {
            self.free_if_unheld(r);
        }
    }

    /// `r` to be taken again, unless a local holds it or it is free already (a local put
    /// out of scope gave it back before its statement ended).
    fn free_if_unheld(&mut self, r: IReg) {
        if !self.slots.iter().flatten().any(|p| holds(*p, r)) && !self.free.contains(&r) {
            self.free.push(r);
        }
    }

    /// Which locals are bound: taken before a scope, for [`Self::close`].
    fn bound(&self) -> Vec<bool> {
        self.slots.iter().map(Option::is_some).collect()
    }

    /// Closes a scope (a branch, an arm, a loop) that `before` was taken at the start of:
    /// the locals it bound are read by nothing after it (the checker scopes a local to
    /// the block it is declared in, a loop's to the loop, an arm's fields to the arm), so
    /// their `i64` registers are given back, and a frame holds only what is live at once.
    fn close(&mut self, before: &[bool]) {
        for (slot, was) in before.iter().enumerate() {
            let Some(part) = self.slots[slot].take_if(|_| !was) else {
                continue;
            };
            for r in ints_of(part).into_iter().flatten() {
                self.free_if_unheld(r);
            }
        }
    }

    /// `stmts`, a block of their own: its locals out of scope after it ([`Self::close`]).
    fn scope(&mut self, stmts: &[Stmt]) -> Lowered<()> {
        let before = self.bound();
        self.block(stmts)?;
        self.close(&before);
        Ok(())
    }

    fn val(&mut self) -> VReg {
        self.vals += 1;
        self.vals - 1
    }

    /// Fresh registers for a value of type `ty`.
    fn fresh(&mut self, ty: &Ty) -> Lowered<Part> {
        Ok(match ty {
            Ty::Int => Part::Int(self.int_of(Some(Kind::Int))),
            Ty::Bool => Part::Bool(self.int_of(Some(Kind::Bool))),
            Ty::Choice(c) => Part::Level(self.int_of(Some(Kind::Level(*c)))),
            Ty::Fighter => Part::Fighter(self.int_of(Some(Kind::Fighter))),
            Ty::Side => Part::Side(self.int_of(Some(Kind::Side))),
            Ty::Roll => Part::Roll {
                total: self.int_of(Some(Kind::Int)),
                natural: self.int_of(Some(Kind::Int)),
            },
            // Dice are held whole, as a value: read, copied and multiplied, never taken
            // apart by a rule.
            Ty::Record(_)
            | Ty::Map(..)
            | Ty::SortedMap(..)
            | Ty::List(_)
            | Ty::Outcome(_)
            | Ty::Dice
            | Ty::Track(_)
            | Ty::TrackBox(_)
            | Ty::Faces
            | Ty::Option(_) => Part::Val(self.val()),
            Ty::Unit => Part::Unit,
            Ty::Error => unreachable!("a checked program has no expression that failed to check"),
        })
    }

    /// The steps gathered so far, charged before what comes next.
    fn flush(&mut self) {
        if self.pending > 0 {
            self.code.push(Inst::Step(self.pending));
            self.pending = 0;
        }
    }

    /// Where the next instruction goes: a jump's target. Steps before it are charged on
    /// the path that reached them.
    fn here(&mut self) -> u32 {
        self.flush();
        self.label = self.code.len();
        self.code.len() as u32
    }

    fn block(&mut self, stmts: &[Stmt]) -> Lowered<()> {
        for s in stmts {
            if !self.plain {
                self.flush();
                self.code.push(Inst::Stop);
            }
            // The statement's step.
            self.pending += 1;
            let from = self.taken.len();
            self.stmt(s)?;
            self.give_back(from);
        }
        Ok(())
    }

    /// An `if`'s condition, traced at `site`, and the jump past its branch when it does
    /// not hold (to be patched). Untraced, a comparison jumps on its operands (the truth
    /// it would make is read by nothing else).
    fn unless(&mut self, cond: &Expr, site: u32) -> Lowered<usize> {
        if let (false, K::Compare(op, a, b)) = (self.traced, &cond.kind) {
            let a = self.scalar(a)?;
            let b = self.operand(b)?;
            self.flush();
            let at = self.code.len();
            self.code.push(match b {
                Operand::Reg(b) => Inst::JumpUnless {
                    op: *op,
                    a,
                    b,
                    to: 0,
                },
                Operand::Imm(b) => Inst::JumpUnlessImm {
                    op: *op,
                    a,
                    b,
                    to: 0,
                },
            });
            return Ok(at);
        }
        let c = self.truth(cond)?;
        self.flush();
        self.trace(Inst::TraceBranch { site, cond: c });
        let at = self.code.len();
        self.code.push(Inst::JumpIfNot { cond: c, to: 0 });
        Ok(at)
    }

    /// An int, truth or level operand: a constant as it is (its step charged, as
    /// [`Self::expr`] charges it), anything else in its register.
    fn operand(&mut self, e: &Expr) -> Lowered<Operand> {
        if let K::Const(c @ (Const::Int(_) | Const::Bool(_) | Const::Choice(_))) = &e.kind {
            self.pending += 1;
            return Ok(Operand::Imm(match c {
                Const::Int(i) => *i,
                Const::Bool(b) => i64::from(*b),
                Const::Choice(c) => i64::from(*c),
                _ => unreachable!("matched above"),
            }));
        }
        Ok(Operand::Reg(self.scalar(e)?))
    }

    /// A trace point, in a procedure (a formula has none), after the steps before it.
    fn trace(&mut self, inst: Inst) {
        if self.traced {
            self.flush();
            self.code.push(inst);
        }
    }

    /// True when `r` is a value register no local holds: a temporary, read once.
    fn temporary(&self, r: VReg) -> bool {
        !self.slots.iter().flatten().any(|p| *p == Part::Val(r))
    }

    /// `to = copy of from`: one step for a plain value, the value's weight for one with
    /// parts.
    fn copy_into(&mut self, to: Part, from: Part) -> Lowered<()> {
        match (to, from) {
            (Part::Val(dst), Part::Val(src)) => {
                self.flush();
                let take = self.temporary(src);
                self.code.push(Inst::CopyVal { dst, src, take });
                Ok(())
            }
            (_, Part::Unit) => {
                unreachable!("nothing is copied: the checker refuses a value of no type")
            }
            _ => {
                self.pending += 1;
                self.move_part(to, from)
            }
        }
    }

    /// Formula `fid`'s `body` lowered in place of a call to it ([`Form::Inlined`]): its
    /// parameters are held in the arguments' registers (a formula changes none), and its
    /// steps are the call's one, charged before it, and its body's, charged at its own
    /// site, as when it is called.
    fn inlined(&mut self, fid: usize, body: &'p Expr, args: &[(Part, bool)]) -> Lowered<Part> {
        let f = &self.p.functions[fid];
        self.pending += 1;
        self.flush();
        self.code.push(Inst::Site(f.site));
        let mut slots = vec![None; f.locals.len()];
        for (slot, (part, _)) in slots.iter_mut().zip(args) {
            *slot = Some(*part);
        }
        let caller = (
            std::mem::replace(&mut self.slots, slots),
            std::mem::replace(&mut self.locals, &f.locals),
            std::mem::replace(&mut self.site, f.site),
            std::mem::replace(&mut self.formula, true),
        );
        let got = self.expr(body);
        self.flush();
        (self.slots, self.locals, self.site, self.formula) = caller;
        self.code.push(Inst::Site(self.site));
        got
    }

    /// The end of a counted loop's turn: `counter += 1`, back to `top`; where the loop
    /// ends (after it), for its exits to jump to.
    fn loop_back(&mut self, counter: IReg, top: u32) -> u32 {
        self.code.push(Inst::ArithImm {
            op: crate::ir::IntOp::Add,
            dst: counter,
            a: counter,
            b: 1,
        });
        self.code.push(Inst::Jump(top));
        self.here()
    }

    fn patch(&mut self, at: usize, to: u32) {
        match &mut self.code[at] {
            Inst::Jump(t)
            | Inst::JumpIfNot { to: t, .. }
            | Inst::JumpIf { to: t, .. }
            | Inst::JumpUnless { to: t, .. }
            | Inst::JumpUnlessImm { to: t, .. } => *t = to,
            other => unreachable!("only jumps are patched, not {other:?}"),
        }
    }

    /// Copies `from` into the registers of `to` (parts of one type).
    fn move_part(&mut self, to: Part, from: Part) -> Lowered<()> {
        match (to, from) {
            (Part::Int(d), Part::Int(s))
            | (Part::Bool(d), Part::Bool(s))
            | (Part::Level(d), Part::Level(s))
            | (Part::Fighter(d), Part::Fighter(s))
            | (Part::Side(d), Part::Side(s)) => self.mov(d, s),
            (
                Part::Roll { total, natural },
                Part::Roll {
                    total: t,
                    natural: n,
                },
            ) => {
                self.mov(total, t);
                self.mov(natural, n);
            }
            (Part::Val(dst), Part::Val(src)) => {
                if dst != src {
                    let take = self.temporary(src);
                    self.code.push(Inst::MoveVal { dst, src, take });
                }
            }
            (Part::Unit, Part::Unit) => {}
            (to, from) => {
                unreachable!("a value moves between parts of its one type, not {from:?} to {to:?}")
            }
        }
        Ok(())
    }

    /// `dst = src`, folded into the instruction that just wrote `src` when `src` is a
    /// temporary nothing else reads.
    fn mov(&mut self, dst: IReg, src: IReg) {
        if dst == src {
            return;
        }
        let temporary = self.slots.iter().flatten().all(|p| !holds(*p, src));
        if temporary && self.code.len() > self.label {
            if let Some(last) = self.code.last_mut() {
                if let Some(d) = written(last) {
                    if *d == src {
                        *d = dst;
                        // `dst` now holds its value from that instruction on, if it was
                        // taken for it just after (`Func::allocs`).
                        let at = count(self.code.len());
                        if let Some(a) = self.allocs.iter_mut().rev().find(|a| a.reg == dst) {
                            if a.pc == at {
                                a.pc = at - 1;
                            }
                        }
                        return;
                    }
                }
            }
        }
        self.code.push(Inst::Move { dst, src });
    }

    /// An int, truth or level expression's register (a roll's total).
    fn scalar(&mut self, e: &Expr) -> Lowered<IReg> {
        let part = self.expr(e)?;
        self.scalar_of(part)
    }

    /// The value register `e` is held in: a value of a type with parts (a record, list,
    /// map, outcome, track, dice, faces or optional value) is held in one (`fresh`).
    fn val_of(&mut self, e: &Expr) -> Lowered<VReg> {
        match self.expr(e)? {
            Part::Val(r) => Ok(r),
            part => unreachable!(
                "a value of type {} is held in a value register (`fresh`), not {part:?}",
                self.p.ty_name(&e.ty)
            ),
        }
    }

    /// The register of an int, truth or level (a roll's total), as `Value::int` reads it.
    fn scalar_of(&mut self, part: Part) -> Lowered<IReg> {
        match part {
            Part::Int(r) | Part::Bool(r) | Part::Level(r) | Part::Fighter(r) | Part::Side(r) => {
                Ok(r)
            }
            Part::Roll { total, .. } => Ok(total),
            Part::Val(_) | Part::Unit => {
                unreachable!("the checker gives a number, truth or level here, not {part:?}")
            }
        }
    }

    /// A fresh register for an int or level result of type `ty`.
    fn number(&mut self, ty: &Ty) -> Lowered<(IReg, Part)> {
        let dst = self.int();
        Ok(match ty {
            Ty::Int => (dst, Part::Int(dst)),
            Ty::Choice(_) => (dst, Part::Level(dst)),
            ty => unreachable!("the checker types this an int or a level, not {ty:?}"),
        })
    }

    fn truth(&mut self, e: &Expr) -> Lowered<IReg> {
        self.scalar(e)
    }

    /// A copy of `v` of type `ty` to be taken by what stores it: a plain value is itself,
    /// its step charged; a value with parts goes into a register of its own, charged its
    /// weight.
    fn copied(&mut self, v: Part, ty: &Ty) -> Lowered<Part> {
        match v {
            Part::Val(_) => {
                let to = self.fresh(ty)?;
                self.copy_into(to, v)?;
                Ok(to)
            }
            Part::Unit => unreachable!("nothing is copied: the checker refuses a value of no type"),
            scalar => {
                self.pending += 1;
                Ok(scalar)
            }
        }
    }

    /// A copy of `v` appended to the list in `list`.
    fn push_copy(&mut self, list: VReg, v: Part, ty: &Ty) -> Lowered<()> {
        let value = self.copied(v, ty)?;
        self.code.push(Inst::Push { list, value });
        Ok(())
    }

    fn expr(&mut self, e: &Expr) -> Lowered<Part> {
        match &e.kind {
            K::Local(s) => Ok(self.slots[*s].unwrap_or_else(|| {
                unreachable!("a local is bound before it is read (the checker's rule; a piece binds each it reads)")
            })),
            K::Const(_)
            | K::If(..)
            | K::Neg(_)
            | K::Int(..)
            | K::ToInt(_)
            | K::Not(_)
            | K::Compare(..)
            | K::And(..)
            | K::Or(..)
            | K::InRange { .. }
            | K::CheckedDiv(..)
            | K::Min(_)
            | K::Max(_)
            | K::Clamp(..)
            | K::Abs(_)
            | K::LevelStep { .. } => self.scalar_expr(e),
            K::Roll { .. }
            | K::RollTable { .. }
            | K::Faces { .. }
            | K::DiceTimes(..)
            | K::RollAdd { .. }
            | K::Natural(_)
            | K::Lookup { .. }
            | K::Decide { .. } => self.roll_expr(e),
            K::Field(..)
            | K::MapGet(..)
            | K::MakeRecord { .. }
            | K::MakeOutcome { .. }
            | K::Some(_)
            | K::Unwrap(_)
            | K::IsSome(_)
            | K::Filled(_)
            | K::BoxPart(..)
            | K::Fill { .. }
            | K::Keys(_) => self.record_expr(e),
            K::Call(..) => self.call_expr(e),
            K::Match { .. } => self.match_expr(e),
            K::List(_)
            | K::Collect { .. }
            | K::ListGet(..)
            | K::In(..)
            | K::Len(_)
            | K::Aggregate { .. }
            | K::Find { .. }
            | K::Sort { .. }
            | K::Best { .. }
            | K::Range(..) => self.list_expr(e),
            K::Combatant(who) => self.combatant(who),
            K::Fight(q, args) => self.fight_query(*q, args, &e.ty),
        }
    }
}

/// The `i64` registers `part` is held in: one, a roll's two, or none.
fn ints_of(part: Part) -> [Option<IReg>; 2] {
    match part {
        Part::Int(x) | Part::Bool(x) | Part::Level(x) | Part::Fighter(x) | Part::Side(x) => {
            [Some(x), None]
        }
        Part::Roll { total, natural } => [Some(total), Some(natural)],
        Part::Val(_) | Part::Unit => [None, None],
    }
}

/// True when `part` is held (in part) in register `r`.
fn holds(part: Part, r: IReg) -> bool {
    ints_of(part).contains(&Some(r))
}

/// Whether `a` and `b` hold an `i64` register in common.
pub(super) fn shares(a: Part, b: Part) -> bool {
    ints_of(b).into_iter().flatten().any(|x| holds(a, x))
}

/// The `i64` register an instruction writes, when it writes exactly one.
fn written(i: &mut Inst) -> Option<&mut IReg> {
    match i {
        Inst::Const { dst, .. }
        | Inst::Move { dst, .. }
        | Inst::Field { dst, .. }
        | Inst::Neg { dst, .. }
        | Inst::Not { dst, .. }
        | Inst::Arith { dst, .. }
        | Inst::ArithImm { dst, .. }
        | Inst::CompareImm { dst, .. }
        | Inst::Pick { dst, .. }
        | Inst::Clamp { dst, .. }
        | Inst::Abs { dst, .. }
        | Inst::LevelStep { dst, .. }
        | Inst::Compare { dst, .. }
        | Inst::InImm { dst, .. } => Some(dst),
        _ => None,
    }
}

/// Most keys a [`Inst::LookupDense`] holds rows for.
const DENSE_MAX: i64 = 256;

/// A table of numbers, truths or levels over a few keys, as [`Inst::LookupDense`] holds
/// it: the keys from the lowest row's to the highest row's, each key's value as
/// `eval::lookup` reads it (its row's or the default), and the default for the keys
/// outside; `None` when the table holds other values, more keys, or `dst` is no scalar.
#[allow(clippy::type_complexity)]
fn dense(t: &crate::ir::Table, dst: Part) -> Option<(i64, Box<[Option<i64>]>, Option<i64>, IReg)> {
    let (Part::Int(r) | Part::Bool(r) | Part::Level(r)) = dst else {
        return None;
    };
    let lo = t.rows.first()?.lo;
    let hi = t.rows.iter().map(|row| row.hi).max()?;
    if hi.checked_sub(lo)? >= DENSE_MAX {
        return None;
    }
    // A value with parts: the table is not one of scalars.
    let read = |v: Option<Value>| match v {
        Some(v) => super::vm::scalar_of(&v).map(Some),
        None => Some(None),
    };
    let rows = (lo..=hi)
        .map(|k| read(crate::eval::lookup(t, k)))
        .collect::<Option<Box<[_]>>>()?;
    let outside = read(t.default.as_ref().map(Value::from_const))?;
    Some((lo, rows, outside, r))
}
