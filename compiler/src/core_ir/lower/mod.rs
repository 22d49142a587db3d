//! Lowering: a checked function to the core IR, with the walker's semantics made
//! explicit. Steps are charged where `eval::expr`/`eval::stmt` charge them (a constant
//! one, a `let`'s or a field's copy one, a roll one plus a die past the first, a
//! statement one, a call one), trace points stand where the walker emits its events.
//! A node the core IR does not have yet makes the whole function `None` (see the module
//! docs of [`super`]).

mod cases;
mod fight;
mod lists;
mod stmt;

use super::code::{Func, IReg, Inst, Part, VReg};
use crate::eval::{dice_steps, weight, Value};
use crate::ir::{Body, Const, Expr, ExprKind as K, Program, Stmt, Ty};
use fight::param_of;
use rulesc_runtime::__private::rolls;

/// Not (yet) in the core IR.
struct Unsupported;

/// An operand of an instruction that takes a constant in place.
enum Operand {
    Reg(IReg),
    Imm(i64),
}

type Lowered<T> = Result<T, Unsupported>;

/// Lowers function `id` into `done` (`Some(None)`: it does not lower), its callees
/// first.
pub(super) fn lower_into(p: &Program, id: usize, done: &mut Vec<Option<Option<Func>>>) {
    if done[id].is_some() {
        return;
    }
    // Marked first: a call back into it (which the checker refuses) does not lower.
    done[id] = Some(None);
    let f = function(p, id, done);
    done[id] = Some(f);
}

/// Function `id` lowered, or `None` when it holds a node the core IR does not have yet.
/// The call's own step is the caller's (`Inst::Call`, or the VM's entry).
fn function(p: &Program, id: usize, done: &mut Vec<Option<Option<Func>>>) -> Option<Func> {
    let f = &p.functions[id];
    let traced = f.is_procedure();
    let (full, regs) = body(p, id, done, Form::Full)?;
    // A function's `i64` registers are indexed by a `u8`, into a fixed frame: the plain
    // form inlines small formulas when they fit in it.
    let fits = |r: &Registers| r.1 as usize <= super::code::FRAME;
    let (plain, plain_regs) = match body(p, id, done, Form::Inlined)? {
        (code, r) if fits(&r) => (code, r),
        _ => body(p, id, done, Form::Plain)?,
    };
    // The plain form may need fewer `i64` registers (a comparison jumping on its
    // operands makes no truth) and more value registers (its inlined formulas'); its
    // parameters are the same.
    debug_assert_eq!(regs.0, plain_regs.0);
    if !fits(&regs) || !fits(&plain_regs) {
        return None;
    }
    let (params, _, vals) = regs;
    Some(Func {
        params,
        vals: vals.max(plain_regs.2),
        traced,
        site: f.site,
        code: full,
        plain,
    })
}

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
const INLINE_MAX: usize = 40;

/// Function `id`'s body in `form`.
fn body(
    p: &Program,
    id: usize,
    done: &mut Vec<Option<Option<Func>>>,
    form: Form,
) -> Option<(Vec<Inst>, Registers)> {
    let f = &p.functions[id];
    let plain = form != Form::Full;
    let mut l = Lower {
        p,
        done,
        code: Vec::new(),
        ints: 0,
        vals: 0,
        slots: vec![None; f.locals.len()],
        locals: &f.locals,
        pending: 0,
        label: 0,
        traced: f.is_procedure() && !plain,
        plain,
        inline: form == Form::Inlined,
        site: f.site,
        formula: !f.is_procedure(),
    };
    let mut params = Vec::with_capacity(f.params.len());
    for (slot, param) in f.params.iter().enumerate() {
        let part = l.fresh(&param.ty).ok()?;
        l.slots[slot] = Some(part);
        params.push(part);
    }
    match &f.body {
        Body::Procedure(stmts) => {
            l.trace(Inst::TraceCall { site: f.site });
            l.block(stmts).ok()?;
            // Falling off the end returns nothing, traced with an empty value.
            l.flush();
            l.code.push(Inst::Return {
                value: Part::Unit,
                ty: Box::new(Ty::Unit),
                site: f.site,
            });
        }
        Body::Formula(e) => {
            let v = l.expr(e).ok()?;
            l.flush();
            l.code.push(Inst::Return {
                value: v,
                ty: Box::new(f.ret.clone()),
                site: f.site,
            });
        }
    }
    Some((l.code, (params, l.ints, l.vals)))
}

struct Lower<'p, 'd> {
    p: &'p Program,
    /// The function's locals (their types).
    locals: &'p [crate::ir::Local],
    /// The functions lowered so far (callees are lowered on demand).
    done: &'d mut Vec<Option<Option<Func>>>,
    /// A procedure's full form: its trace points are lowered (a formula has none, nor
    /// has the plain form).
    traced: bool,
    /// The plain form: no trace points and no stops, so steps gather up to the next
    /// effect.
    plain: bool,
    /// A formula's body: nothing can change a record in it, so a loop's items are
    /// shared rather than copied (`Interpreter::pure`).
    formula: bool,
    /// Small formulas called are lowered in place ([`Form::Inlined`]).
    inline: bool,
    /// The declaration's site of the function being lowered (of the inlined formula,
    /// inside one): where a spent step budget is reported.
    site: u32,
    code: Vec<Inst>,
    ints: u32,
    vals: u32,
    /// Where each local of the function is held, once bound.
    slots: Vec<Option<Part>>,
    /// Steps charged by what was lowered since the last observable instruction.
    pending: u32,
    /// Where the last jump target is: an instruction before it is not on every path to
    /// what follows, so [`Self::mov`] never folds into it.
    label: usize,
}

impl<'p> Lower<'p, '_> {
    /// A fresh `i64` register (past the frame's last, the function does not lower:
    /// [`function`] checks the count).
    fn int(&mut self) -> IReg {
        self.ints += 1;
        IReg::try_from(self.ints - 1).unwrap_or(IReg::MAX)
    }

    fn val(&mut self) -> VReg {
        self.vals += 1;
        self.vals - 1
    }

    /// Fresh registers for a value of type `ty`.
    fn fresh(&mut self, ty: &Ty) -> Lowered<Part> {
        Ok(match ty {
            Ty::Int => Part::Int(self.int()),
            Ty::Bool => Part::Bool(self.int()),
            Ty::Choice(_) => Part::Level(self.int()),
            Ty::Fighter => Part::Fighter(self.int()),
            Ty::Side => Part::Side(self.int()),
            Ty::Roll => Part::Roll {
                total: self.int(),
                natural: self.int(),
            },
            // Dice are held whole, as a value: read, copied and multiplied, never taken
            // apart by a rule.
            Ty::Record(_)
            | Ty::Map(..)
            | Ty::List(_)
            | Ty::Outcome(_)
            | Ty::Dice
            | Ty::Track(_)
            | Ty::TrackBox(_)
            | Ty::Faces
            | Ty::Option(_) => Part::Val(self.val()),
            _ => return Err(Unsupported),
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
            // The statement's step (`Interpreter::block`).
            self.pending += 1;
            self.stmt(s)?;
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

    /// `to = copy of from` (`Interpreter::copied`): one step for a plain value, the
    /// value's weight for one with parts.
    fn copy_into(&mut self, to: Part, from: Part) -> Lowered<()> {
        match (to, from) {
            (Part::Val(dst), Part::Val(src)) => {
                self.flush();
                let take = self.temporary(src);
                self.code.push(Inst::CopyVal { dst, src, take });
                Ok(())
            }
            (_, Part::Unit) => Err(Unsupported),
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
            _ => return Err(Unsupported),
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

    /// The register of an int, truth or level (a roll's total), as `Value::int` reads it.
    fn scalar_of(&mut self, part: Part) -> Lowered<IReg> {
        match part {
            Part::Int(r) | Part::Bool(r) | Part::Level(r) | Part::Fighter(r) | Part::Side(r) => {
                Ok(r)
            }
            Part::Roll { total, .. } => Ok(total),
            _ => Err(Unsupported),
        }
    }

    /// A fresh register for an int or level result of type `ty`.
    fn number(&mut self, ty: &Ty) -> Lowered<(IReg, Part)> {
        let dst = self.int();
        Ok(match ty {
            Ty::Int => (dst, Part::Int(dst)),
            Ty::Choice(_) => (dst, Part::Level(dst)),
            _ => return Err(Unsupported),
        })
    }

    fn truth(&mut self, e: &Expr) -> Lowered<IReg> {
        self.scalar(e)
    }

    /// A copy of `v` of type `ty` to be taken by what stores it (`Interpreter::copied`):
    /// a plain value is itself, its step charged; a value with parts goes into a register
    /// of its own, charged its weight.
    fn copied(&mut self, v: Part, ty: &Ty) -> Lowered<Part> {
        match v {
            Part::Val(_) => {
                let to = self.fresh(ty)?;
                self.copy_into(to, v)?;
                Ok(to)
            }
            Part::Unit => Err(Unsupported),
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
        Ok(match &e.kind {
            K::Const(c) => {
                let (value, part): (i64, fn(IReg) -> Part) = match c {
                    Const::Int(i) => (*i, Part::Int),
                    Const::Bool(b) => (i64::from(*b), Part::Bool),
                    Const::Choice(c) => (i64::from(*c), Part::Level),
                    // A constant with parts: made anew at each reading, charged its weight.
                    other => {
                        let Part::Val(dst) = self.fresh(&e.ty)? else {
                            return Err(Unsupported);
                        };
                        self.pending += u32::try_from(weight(&Value::from_const(other)))
                            .map_err(|_| Unsupported)?;
                        self.code.push(Inst::ConstVal {
                            dst,
                            value: Box::new(other.clone()),
                        });
                        return Ok(Part::Val(dst));
                    }
                };
                self.pending += 1;
                let dst = self.int();
                self.code.push(Inst::Const { dst, value });
                part(dst)
            }
            K::Local(s) => self.slots[*s].ok_or(Unsupported)?,
            // `record.field`: of a local record read in place; a field with parts shared,
            // as `eval::expr::field_of` reads it
            K::Field(r, i) => {
                let Part::Val(rec) = self.expr(r)? else {
                    return Err(Unsupported);
                };
                let field = *i as u32;
                match self.fresh(&e.ty)? {
                    Part::Val(dst) => {
                        self.code.push(Inst::FieldVal { dst, rec, field });
                        Part::Val(dst)
                    }
                    part @ (Part::Int(dst) | Part::Bool(dst) | Part::Level(dst)) => {
                        self.code.push(Inst::Field { dst, rec, field });
                        part
                    }
                    _ => return Err(Unsupported),
                }
            }
            // `map[key]` of a map keyed by a scale or enum
            K::MapGet(m, k) if matches!(m.ty, Ty::Map(..)) => {
                let Part::Val(map) = self.expr(m)? else {
                    return Err(Unsupported);
                };
                let Part::Level(key) = self.expr(k)? else {
                    return Err(Unsupported);
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. }) {
                    return Err(Unsupported);
                }
                self.code.push(Inst::MapGet { dst, map, key });
                dst
            }
            // `table[key]` of a one-key table
            K::Lookup {
                table,
                key,
                column: None,
                site,
                ..
            } if self.p.tables[*table].columns.is_none() => {
                let key = match self.expr(key)? {
                    k @ (Part::Int(_) | Part::Level(_)) => k,
                    _ => return Err(Unsupported),
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. }) {
                    return Err(Unsupported);
                }
                self.flush();
                if let (true, Some(dense)) = (self.plain, dense(&self.p.tables[*table], dst)) {
                    let (lo, rows, outside, reg) = dense;
                    self.code.push(Inst::LookupDense {
                        dst: reg,
                        key,
                        lo,
                        rows,
                        outside,
                        table: *table as u32,
                        site: *site,
                    });
                    return Ok(dst);
                }
                self.code.push(Inst::Lookup {
                    dst,
                    table: *table as u32,
                    key,
                    site: *site,
                });
                dst
            }
            // A call: the arguments in order, the call's step, then the callee.
            K::Call(fid, args) => {
                lower_into(self.p, *fid, self.done);
                let Some(Some(callee)) = &self.done[*fid] else {
                    return Err(Unsupported);
                };
                let (small, params) = (callee.plain.len() <= INLINE_MAX, callee.params.clone());
                let mut parts = Vec::with_capacity(args.len());
                for a in args {
                    let part = self.argument(a, param_of(self.p, *fid, parts.len()))?;
                    let take = matches!(part, Part::Val(r) if self.temporary(r));
                    parts.push((part, take));
                }
                if let (true, true, Body::Formula(body)) =
                    (self.inline, small, &self.p.functions[*fid].body)
                {
                    return self.inlined(*fid, body, &parts);
                }
                let ret = match self.p.functions[*fid].ret {
                    Ty::Unit => Part::Unit,
                    ref ty => self.fresh(ty)?,
                };
                // Each argument into its parameter's registers, by register file.
                let (mut ints, mut vals) = (Vec::new(), Vec::new());
                for (param, (arg, take)) in params.iter().zip(&parts) {
                    match (*param, *arg) {
                        (Part::Int(d), Part::Int(s))
                        | (Part::Bool(d), Part::Bool(s))
                        | (Part::Level(d), Part::Level(s))
                        | (Part::Fighter(d), Part::Fighter(s))
                        | (Part::Side(d), Part::Side(s)) => ints.push((d, s)),
                        (
                            Part::Roll { total, natural },
                            Part::Roll {
                                total: t,
                                natural: n,
                            },
                        ) => ints.extend([(total, t), (natural, n)]),
                        (Part::Val(d), Part::Val(s)) => vals.push((d, s, *take)),
                        _ => return Err(Unsupported),
                    }
                }
                self.pending += 1;
                self.flush();
                self.code.push(Inst::Call {
                    func: *fid as u32,
                    ints: ints.into(),
                    vals: vals.into(),
                    ret,
                });
                ret
            }
            // `if c then a else b`
            K::If(c, a, b) => {
                let dst = self.fresh(&e.ty)?;
                let c = self.truth(c)?;
                self.flush();
                let skip = self.code.len();
                self.code.push(Inst::JumpIfNot { cond: c, to: 0 });
                let a = self.expr(a)?;
                self.move_part(dst, a)?;
                self.flush();
                let end = self.code.len();
                self.code.push(Inst::Jump(0));
                let other = self.here();
                self.patch(skip, other);
                let b = self.expr(b)?;
                self.move_part(dst, b)?;
                let done = self.here();
                self.patch(end, done);
                dst
            }
            K::Neg(a) => {
                let a = self.scalar(a)?;
                let dst = self.int();
                self.code.push(Inst::Neg { dst, a });
                Part::Int(dst)
            }
            K::Int(op, a, b) => {
                let a = self.scalar(a)?;
                let b = self.operand(b)?;
                let dst = self.int();
                self.code.push(match b {
                    Operand::Reg(b) => Inst::Arith { op: *op, dst, a, b },
                    Operand::Imm(b) => Inst::ArithImm { op: *op, dst, a, b },
                });
                Part::Int(dst)
            }
            K::ToInt(a) => Part::Int(self.scalar(a)?),
            K::Natural(a) => match self.expr(a)? {
                Part::Roll { natural, .. } => Part::Int(natural),
                _ => return Err(Unsupported),
            },
            K::Not(a) => {
                let a = self.truth(a)?;
                let dst = self.int();
                self.code.push(Inst::Not { dst, a });
                Part::Bool(dst)
            }
            K::Compare(op, a, b) => {
                let a = self.scalar(a)?;
                let b = self.operand(b)?;
                let dst = self.int();
                self.code.push(match b {
                    Operand::Reg(b) => Inst::Compare { op: *op, dst, a, b },
                    Operand::Imm(b) => Inst::CompareImm { op: *op, dst, a, b },
                });
                Part::Bool(dst)
            }
            // `a and b`, `a or b`: `b` (and its steps) only when `a` does not decide.
            K::And(a, b) | K::Or(a, b) => {
                let and = matches!(e.kind, K::And(..));
                let dst = self.int();
                let a = self.truth(a)?;
                self.mov(dst, a);
                self.flush();
                let skip = self.code.len();
                self.code.push(if and {
                    Inst::JumpIfNot { cond: dst, to: 0 }
                } else {
                    Inst::JumpIf { cond: dst, to: 0 }
                });
                let b = self.truth(b)?;
                self.mov(dst, b);
                let end = self.here();
                self.patch(skip, end);
                Part::Bool(dst)
            }
            // `roll dice` of dice known here: the constant's step and one per die past the
            // first, then the roll.
            K::Roll {
                dice,
                site,
                faces: None,
            } => {
                let K::Const(Const::Dice(spec)) = dice.kind else {
                    // Dice known only when the run comes to them: their steps are charged
                    // by the roll.
                    let Part::Val(held) = self.expr(dice)? else {
                        return Err(Unsupported);
                    };
                    self.flush();
                    let (total, natural) = (self.int(), self.int());
                    self.code.push(Inst::RollHeld {
                        total,
                        natural,
                        dice: held,
                        site: *site,
                    });
                    return Ok(Part::Roll { total, natural });
                };
                self.pending += 1 + u32::try_from(dice_steps(spec)).map_err(|_| Unsupported)?;
                self.flush();
                let (total, natural) = (self.int(), self.int());
                self.code.push(Inst::Roll {
                    total,
                    natural,
                    shape: rolls::shape(spec),
                    spec,
                    site: *site,
                });
                Part::Roll { total, natural }
            }
            // `roll Table`, `roll Table among list`
            K::RollTable { table, among, site } => {
                if !matches!(self.p.tables[*table].key, crate::ir::TableKey::Die(_)) {
                    return Err(Unsupported);
                }
                let t = &self.p.tables[*table];
                let among = match (among, &t.key) {
                    (Some(a), &crate::ir::TableKey::Die(die)) => match self.expr(a)? {
                        Part::Val(l) if matches!(a.ty, Ty::List(_)) => {
                            let segments = crate::eval::die_segments(t, die)
                                .into_iter()
                                .map(|(lo, hi, v)| (lo, hi, v.cloned()))
                                .collect();
                            Some((l, segments))
                        }
                        _ => return Err(Unsupported),
                    },
                    _ => None,
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. } | Part::Unit) {
                    return Err(Unsupported);
                }
                self.flush();
                self.code.push(Inst::RollTable {
                    dst,
                    table: u32::try_from(*table).map_err(|_| Unsupported)?,
                    among,
                    site: *site,
                });
                dst
            }
            // `roll dice` whose faces are read later
            K::Roll {
                dice,
                site,
                faces: Some(slot),
            } => {
                let (held, spec) = match dice.kind {
                    K::Const(Const::Dice(spec)) => {
                        self.pending += 1;
                        (None, spec)
                    }
                    _ => match self.expr(dice)? {
                        Part::Val(held) => (Some(held), rulesc_runtime::DiceSpec::new(0, 1)),
                        _ => return Err(Unsupported),
                    },
                };
                let faces = match self.slots[*slot] {
                    Some(Part::Val(v)) => v,
                    Some(_) => return Err(Unsupported),
                    None => {
                        let v = self.val();
                        self.slots[*slot] = Some(Part::Val(v));
                        v
                    }
                };
                self.flush();
                let (total, natural) = (self.int(), self.int());
                self.code.push(Inst::RollFaces {
                    total,
                    natural,
                    faces,
                    held,
                    spec,
                    site: *site,
                });
                Part::Roll { total, natural }
            }
            // `faces(r)`, `kept(r)`, `dropped(r)`: of the faces its roll left
            K::Faces { part, of, slot } => {
                self.expr(of)?;
                let Some(Part::Val(faces)) = self.slots[*slot] else {
                    return Err(Unsupported);
                };
                let dst = self.val();
                self.code.push(Inst::FacesOf {
                    dst,
                    faces,
                    part: *part,
                });
                Part::Val(dst)
            }
            // `fill place at level`: the level, then the keys on the place's path
            K::Fill { track, level, site } => {
                let Ty::Track(tid) = track.ty else {
                    return Err(Unsupported);
                };
                let root = self.slots[track.root];
                let level = self.scalar(level)?;
                let keys = self.place_keys(track)?;
                let root = self.place_root(root)?;
                self.flush();
                let mut place = track.clone();
                place.root = root as usize;
                let dst = self.int();
                self.code.push(Inst::Fill {
                    dst,
                    place: Box::new(place),
                    keys,
                    track: u32::try_from(tid).map_err(|_| Unsupported)?,
                    levels: crate::eval::track_levels(&self.p.tracks[tid]).into(),
                    level,
                    site: *site,
                });
                Part::Int(dst)
            }
            // `e` where a `T?` is wanted: a present value is the value itself
            K::Some(x) => match self.expr(x)? {
                Part::Val(v) => Part::Val(v),
                Part::Unit | Part::Roll { .. } => return Err(Unsupported),
                scalar => {
                    let dst = self.val();
                    self.code.push(Inst::Wrap { dst, src: scalar });
                    Part::Val(dst)
                }
            },
            // an optional value where the checker proved it present
            K::Unwrap(x) => {
                let Part::Val(src) = self.expr(x)? else {
                    return Err(Unsupported);
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. } | Part::Unit) {
                    return Err(Unsupported);
                }
                self.code.push(Inst::Unwrap { dst, src });
                dst
            }
            // `x != none`
            K::IsSome(x) => {
                let Part::Val(src) = self.expr(x)? else {
                    return Err(Unsupported);
                };
                let dst = self.int();
                self.code.push(Inst::IsSome { dst, src });
                Part::Bool(dst)
            }
            // `filled(track)`
            K::Filled(t) => {
                let Part::Val(track) = self.expr(t)? else {
                    return Err(Unsupported);
                };
                let dst = self.val();
                self.code.push(Inst::Filled {
                    dst,
                    track,
                    ty: Box::new(t.ty.clone()),
                });
                Part::Val(dst)
            }
            // `box.number`, `box.level`, `box.attr`
            K::BoxPart(b, part) => {
                let Part::Val(src) = self.expr(b)? else {
                    return Err(Unsupported);
                };
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Roll { .. } | Part::Val(_)) {
                    return Err(Unsupported);
                }
                self.code.push(Inst::BoxPart {
                    dst,
                    src,
                    part: *part,
                });
                dst
            }
            // a new record's `int(lo..hi)` field not proven inside
            K::InRange {
                value,
                lo,
                hi,
                site,
            } => {
                let x = self.scalar(value)?;
                self.flush();
                self.code.push(Inst::InRange {
                    x,
                    lo: *lo,
                    hi: *hi,
                    site: *site,
                });
                Part::Int(x)
            }
            // `a / b`, `a % b` whose divisor may be zero
            K::CheckedDiv(op, a, b, site) => {
                let (a, b) = (self.scalar(a)?, self.scalar(b)?);
                self.flush();
                let dst = self.int();
                self.code.push(Inst::CheckedDiv {
                    rem: *op == crate::ir::IntOp::Rem,
                    dst,
                    a,
                    b,
                    site: *site,
                });
                Part::Int(dst)
            }
            // `dice * n`: `DiceSpec::times`, a rule error past the dice a roll may have
            K::DiceTimes(d, n, site) => {
                let Part::Val(held) = self.expr(d)? else {
                    return Err(Unsupported);
                };
                let n = self.scalar(n)?;
                self.flush();
                let dst = self.val();
                self.code.push(Inst::DiceTimes {
                    dst,
                    dice: held,
                    n,
                    site: site.unwrap_or(0),
                });
                Part::Val(dst)
            }
            // `roll ± n`: the total shifted, the natural face kept.
            K::RollAdd {
                roll,
                delta,
                negate,
            } => {
                let Part::Roll { total, natural } = self.expr(roll)? else {
                    return Err(Unsupported);
                };
                let d = self.scalar(delta)?;
                let dst = self.int();
                let op = if *negate {
                    crate::ir::IntOp::Sub
                } else {
                    crate::ir::IntOp::Add
                };
                self.code.push(Inst::Arith {
                    op,
                    dst,
                    a: total,
                    b: d,
                });
                Part::Roll {
                    total: dst,
                    natural,
                }
            }
            // `min(a, b, ..)`, `max(a, b, ..)` of ints or levels: every operand in order.
            K::List(_)
            | K::Collect { .. }
            | K::ListGet(..)
            | K::In(..)
            | K::Len(_)
            | K::Aggregate { .. } => self.list_expr(e)?,
            K::Min(xs) | K::Max(xs) => {
                let max = matches!(e.kind, K::Max(_));
                let regs = xs
                    .iter()
                    .map(|x| self.scalar(x))
                    .collect::<Lowered<Vec<_>>>()?;
                let Some((&first, rest)) = regs.split_first() else {
                    return Err(Unsupported);
                };
                let (dst, part) = self.number(&e.ty)?;
                self.code.push(Inst::Move { dst, src: first });
                for &b in rest {
                    self.code.push(Inst::Pick {
                        max,
                        dst,
                        a: dst,
                        b,
                    });
                }
                part
            }
            K::Clamp(x, lo, hi) => {
                let x = self.scalar(x)?;
                let lo = self.scalar(lo)?;
                let hi = self.scalar(hi)?;
                let (dst, part) = self.number(&e.ty)?;
                self.code.push(Inst::Clamp { dst, x, lo, hi });
                part
            }
            K::Abs(a) => {
                let a = self.scalar(a)?;
                let dst = self.int();
                self.code.push(Inst::Abs { dst, a });
                Part::Int(dst)
            }
            // `level ± n`
            K::LevelStep {
                level,
                delta,
                negate,
            } => {
                let Part::Level(level) = self.expr(level)? else {
                    return Err(Unsupported);
                };
                let delta = self.scalar(delta)?;
                let Ty::Choice(c) = e.ty else {
                    return Err(Unsupported);
                };
                let len = self.p.choices[c].variants.len().min(255) as u8;
                let dst = self.int();
                self.code.push(Inst::LevelStep {
                    dst,
                    level,
                    delta,
                    negate: *negate,
                    len,
                });
                Part::Level(dst)
            }
            // `decide name: Type` of an enum, a scale or a truth
            K::Decide {
                name,
                options,
                site,
            } => {
                let (options, ty, part): (u32, Ty, fn(IReg) -> Part) = match options {
                    crate::ir::DecideOptions::Choice(c) => (
                        self.p.choices[*c].variants.len() as u32,
                        Ty::Choice(*c),
                        Part::Level,
                    ),
                    crate::ir::DecideOptions::Bool => (2, Ty::Bool, Part::Bool),
                    crate::ir::DecideOptions::List(l) => {
                        let (Part::Val(list), Ty::List(elem)) = (self.expr(l)?, &l.ty) else {
                            return Err(Unsupported);
                        };
                        let dst = self.fresh(elem)?;
                        if matches!(dst, Part::Roll { .. } | Part::Unit) {
                            return Err(Unsupported);
                        }
                        self.flush();
                        self.code.push(Inst::DecideFrom {
                            dst,
                            name: crate::eval::leak_name(name),
                            list,
                            elem: elem.clone(),
                            site: *site,
                        });
                        return Ok(dst);
                    }
                };
                self.flush();
                let dst = self.int();
                self.code.push(Inst::Decide {
                    dst,
                    name: crate::eval::leak_name(name),
                    options,
                    ty: Box::new(ty),
                    site: *site,
                });
                part(dst)
            }
            // `Tag(field: value, ..)`: each field a copy (one step for a plain value).
            // `match e { A => a, Tag(x) => b, _ => c }`: every case is covered (the checker's
            // E0323), so the last arm takes what the others did not
            K::Match { scrutinee, arms } => {
                let dst = self.fresh(&e.ty)?;
                if matches!(dst, Part::Unit) {
                    return Err(Unsupported);
                }
                self.cases(scrutinee, arms, true, |l, body| {
                    let v = l.expr(body)?;
                    l.move_part(dst, v)
                })?;
                dst
            }
            // `Type(field: value, ..)`: a copy of each field
            K::MakeRecord { fields, .. } => {
                let parts = fields
                    .iter()
                    .map(|x| {
                        let v = self.expr(x)?;
                        self.copied(v, &x.ty)
                    })
                    .collect::<Lowered<Vec<_>>>()?;
                let dst = self.val();
                self.code.push(Inst::Record {
                    dst,
                    fields: parts.into(),
                });
                Part::Val(dst)
            }
            K::MakeOutcome { tag, fields, .. } => {
                let mut parts = Vec::with_capacity(fields.len());
                for x in fields {
                    let v = self.expr(x)?;
                    let field = self.fresh(&x.ty)?;
                    self.copy_into(field, v)?;
                    parts.push(field);
                }
                let dst = self.val();
                self.code.push(Inst::Outcome {
                    dst,
                    tag: *tag,
                    fields: parts.into(),
                });
                Part::Val(dst)
            }
            K::Combatant(who) => self.combatant(who)?,
            K::Fight(q, args) => self.fight_query(*q, args, &e.ty)?,
            _ => return Err(Unsupported),
        })
    }
}

/// True when `part` is held (in part) in register `r`.
fn holds(part: Part, r: IReg) -> bool {
    match part {
        Part::Int(x) | Part::Bool(x) | Part::Level(x) | Part::Fighter(x) | Part::Side(x) => x == r,
        Part::Roll { total, natural } => total == r || natural == r,
        Part::Val(_) | Part::Unit => false,
    }
}

/// Whether `a` and `b` hold an `i64` register in common.
pub(super) fn shares(a: Part, b: Part) -> bool {
    match b {
        Part::Int(x) | Part::Bool(x) | Part::Level(x) | Part::Fighter(x) | Part::Side(x) => {
            holds(a, x)
        }
        Part::Roll { total, natural } => holds(a, total) || holds(a, natural),
        Part::Val(_) | Part::Unit => false,
    }
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
        | Inst::Compare { dst, .. } => Some(dst),
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
