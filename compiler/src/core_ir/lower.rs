//! Lowering: a checked function to the core IR, with the walker's semantics made
//! explicit. Steps are charged where `eval::expr`/`eval::stmt` charge them (a constant
//! one, a `let`'s or a field's copy one, a roll one plus a die past the first, a
//! statement one, a call one), trace points stand where the walker emits its events.
//! A node the core IR does not have yet makes the whole function `None` (see the module
//! docs of [`super`]).

use super::code::{Func, IReg, Inst, Part, VReg};
use crate::eval::dice_steps;
use crate::ir::{Body, Const, Expr, ExprKind as K, Program, Stmt, Ty};

/// Not (yet) in the core IR.
struct Unsupported;

type Lowered<T> = Result<T, Unsupported>;

/// Function `id` lowered, or `None` when it holds a node the core IR does not have yet.
pub(super) fn function(p: &Program, id: usize) -> Option<Func> {
    let f = &p.functions[id];
    let Body::Procedure(stmts) = &f.body else {
        return None;
    };
    let mut l = Lower {
        p,
        code: Vec::new(),
        ints: 0,
        vals: 0,
        slots: vec![None; f.locals.len()],
        pending: 0,
        label: 0,
    };
    let mut params = Vec::with_capacity(f.params.len());
    for (slot, param) in f.params.iter().enumerate() {
        let part = l.fresh(&param.ty).ok()?;
        l.slots[slot] = Some(part);
        params.push(part);
    }
    // The call's step (`Interpreter::call_frame`), then the entry's trace point.
    l.pending += 1;
    l.flush();
    l.code.push(Inst::TraceCall { site: f.site });
    l.block(stmts).ok()?;
    // Falling off the end returns nothing, traced with an empty value.
    l.flush();
    l.code.push(Inst::Return {
        value: Part::Unit,
        ty: Box::new(Ty::Unit),
        site: f.site,
    });
    Some(Func {
        params,
        ints: l.ints,
        vals: l.vals,
        site: f.site,
        code: l.code,
    })
}

struct Lower<'p> {
    p: &'p Program,
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

impl Lower<'_> {
    fn int(&mut self) -> IReg {
        self.ints += 1;
        self.ints - 1
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
            Ty::Roll => Part::Roll {
                total: self.int(),
                natural: self.int(),
            },
            Ty::Record(_) => Part::Val(self.val()),
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
            self.flush();
            self.code.push(Inst::Stop);
            // The statement's step (`Interpreter::block`).
            self.pending += 1;
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Lowered<()> {
        match s {
            // `let slot = value`
            Stmt::Let { slot, value, site } => {
                let v = self.expr(value)?;
                if matches!(v, Part::Val(_)) {
                    // A record bound anew is a copy, or a parameter's alias: not yet.
                    return Err(Unsupported);
                }
                if !matches!(value.kind, K::Local(_)) {
                    // The copy of a plain value (`Interpreter::copied`).
                    self.pending += 1;
                }
                let at = match self.slots[*slot] {
                    Some(at) => at,
                    None => {
                        let at = self.fresh(&value.ty)?;
                        self.slots[*slot] = Some(at);
                        at
                    }
                };
                self.move_part(at, v)?;
                self.flush();
                self.code.push(Inst::TraceAssign {
                    site: *site,
                    value: at,
                    ty: Box::new(value.ty.clone()),
                });
            }
            // `if c { .. } else if c { .. } else { .. }`
            Stmt::If {
                branches,
                otherwise,
            } => {
                let mut ends = Vec::new();
                for (cond, body, site) in branches {
                    let c = self.truth(cond)?;
                    self.flush();
                    self.code.push(Inst::TraceBranch {
                        site: *site,
                        cond: c,
                    });
                    let skip = self.code.len();
                    self.code.push(Inst::JumpIfNot { cond: c, to: 0 });
                    self.block(body)?;
                    self.flush();
                    ends.push(self.code.len());
                    self.code.push(Inst::Jump(0));
                    let next = self.here();
                    self.patch(skip, next);
                }
                if let Some(o) = otherwise {
                    self.block(o)?;
                }
                let end = self.here();
                for j in ends {
                    self.patch(j, end);
                }
            }
            // `return value`
            Stmt::Return { value, site } => {
                let (v, ty) = match value {
                    Some(e) => (self.expr(e)?, e.ty.clone()),
                    None => (Part::Unit, Ty::Unit),
                };
                self.flush();
                self.code.push(Inst::Return {
                    value: v,
                    ty: Box::new(ty),
                    site: *site,
                });
            }
            // `local = value`, `local += value`, `local -= value`
            Stmt::Assign {
                place,
                op,
                value,
                site,
            } if place.path.is_empty() && place.range.is_none() => {
                let v = self.expr(value)?;
                if matches!(v, Part::Val(_) | Part::Unit) {
                    return Err(Unsupported);
                }
                // The copy of a plain value (`Interpreter::copied`).
                self.pending += 1;
                let at = self.slots[place.root].ok_or(Unsupported)?;
                match (op, at) {
                    (crate::ir::AssignOp::Set, _) => self.move_part(at, v)?,
                    (crate::ir::AssignOp::Add | crate::ir::AssignOp::Sub, Part::Int(dst)) => {
                        let b = self.scalar_of(v)?;
                        let op = if *op == crate::ir::AssignOp::Add {
                            crate::ir::IntOp::Add
                        } else {
                            crate::ir::IntOp::Sub
                        };
                        self.code.push(Inst::Arith { op, dst, a: dst, b });
                    }
                    _ => return Err(Unsupported),
                }
                self.flush();
                self.code.push(Inst::TraceAssign {
                    site: *site,
                    value: at,
                    ty: Box::new(place.ty.clone()),
                });
            }
            Stmt::Expr(e) => {
                self.expr(e)?;
            }
            _ => return Err(Unsupported),
        }
        Ok(())
    }

    fn patch(&mut self, at: usize, to: u32) {
        match &mut self.code[at] {
            Inst::Jump(t) | Inst::JumpIfNot { to: t, .. } | Inst::JumpIf { to: t, .. } => *t = to,
            other => unreachable!("only jumps are patched, not {other:?}"),
        }
    }

    /// Copies `from` into the registers of `to` (parts of one type).
    fn move_part(&mut self, to: Part, from: Part) -> Lowered<()> {
        match (to, from) {
            (Part::Int(d), Part::Int(s))
            | (Part::Bool(d), Part::Bool(s))
            | (Part::Level(d), Part::Level(s)) => self.mov(d, s),
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
            Part::Int(r) | Part::Bool(r) | Part::Level(r) => Ok(r),
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

    fn expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            K::Const(c) => {
                let (value, part): (i64, fn(IReg) -> Part) = match c {
                    Const::Int(i) => (*i, Part::Int),
                    Const::Bool(b) => (i64::from(*b), Part::Bool),
                    Const::Choice(c) => (i64::from(*c), Part::Level),
                    _ => return Err(Unsupported),
                };
                self.pending += 1;
                let dst = self.int();
                self.code.push(Inst::Const { dst, value });
                part(dst)
            }
            K::Local(s) => self.slots[*s].ok_or(Unsupported)?,
            // `record.field` of a local record, read in place
            K::Field(r, i) => {
                let K::Local(s) = r.kind else {
                    return Err(Unsupported);
                };
                let Some(Part::Val(rec)) = self.slots[s] else {
                    return Err(Unsupported);
                };
                let dst = self.int();
                let part = match e.ty {
                    Ty::Int => Part::Int(dst),
                    Ty::Bool => Part::Bool(dst),
                    Ty::Choice(_) => Part::Level(dst),
                    _ => return Err(Unsupported),
                };
                self.code.push(Inst::Field {
                    dst,
                    rec,
                    field: *i as u32,
                });
                part
            }
            K::Neg(a) => {
                let a = self.scalar(a)?;
                let dst = self.int();
                self.code.push(Inst::Neg { dst, a });
                Part::Int(dst)
            }
            K::Int(op, a, b) => {
                let a = self.scalar(a)?;
                let b = self.scalar(b)?;
                let dst = self.int();
                self.code.push(Inst::Arith { op: *op, dst, a, b });
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
                let b = self.scalar(b)?;
                let dst = self.int();
                self.code.push(Inst::Compare { op: *op, dst, a, b });
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
                    return Err(Unsupported);
                };
                self.pending += 1 + u32::try_from(dice_steps(spec)).map_err(|_| Unsupported)?;
                self.flush();
                let (total, natural) = (self.int(), self.int());
                self.code.push(Inst::Roll {
                    total,
                    natural,
                    spec,
                    site: *site,
                });
                Part::Roll { total, natural }
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
                    crate::ir::DecideOptions::List(_) => return Err(Unsupported),
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
            K::MakeOutcome { tag, fields, .. } => {
                let mut parts = Vec::with_capacity(fields.len());
                for x in fields {
                    let v = self.expr(x)?;
                    if matches!(v, Part::Val(_) | Part::Unit) {
                        return Err(Unsupported);
                    }
                    self.pending += 1;
                    parts.push(v);
                }
                let dst = self.val();
                self.code.push(Inst::Outcome {
                    dst,
                    tag: *tag,
                    fields: parts.into(),
                });
                Part::Val(dst)
            }
            _ => return Err(Unsupported),
        })
    }
}

/// True when `part` is held (in part) in register `r`.
fn holds(part: Part, r: IReg) -> bool {
    match part {
        Part::Int(x) | Part::Bool(x) | Part::Level(x) => x == r,
        Part::Roll { total, natural } => total == r || natural == r,
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
        | Inst::Pick { dst, .. }
        | Inst::Clamp { dst, .. }
        | Inst::Abs { dst, .. }
        | Inst::LevelStep { dst, .. }
        | Inst::Compare { dst, .. } => Some(dst),
        _ => None,
    }
}
