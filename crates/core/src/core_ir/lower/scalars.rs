//! Numbers, truths and levels: constants, arithmetic, comparisons, `and`/`or`, `if`,
//! `min`/`max`/`clamp`/`abs`, a level's step and the checks a value may fail.

use super::{count, Lower, Lowered, Operand};
use crate::core_ir::code::{IReg, Inst, Part, Shown};
use crate::eval::{weight, Value};
use crate::ir::{Const, Expr, ExprKind as K, Ty};

impl Lower<'_, '_> {
    /// A number, truth or level expression, or a constant or `if` of any type.
    pub(super) fn scalar_expr(&mut self, e: &Expr) -> Lowered<Part> {
        Ok(match &e.kind {
            K::Const(c) => {
                let (value, part): (i64, fn(IReg) -> Part) = match c {
                    Const::Int(i) => (*i, Part::Int),
                    Const::Bool(b) => (i64::from(*b), Part::Bool),
                    Const::Choice(c) => (i64::from(*c), Part::Level),
                    // A constant with parts: made anew at each reading, charged its weight.
                    other => {
                        let Part::Val(dst) = self.fresh(&e.ty)? else {
                            unreachable!("a constant with parts is held in a value register")
                        };
                        self.pending += count(weight(&Value::from_const(other)));
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
            // `if c then a else b`
            K::If(c, a, b) => {
                let dst = self.fresh(&e.ty)?;
                let taken = self.truth(c)?;
                // With formulas traced, the condition.
                if self.traced {
                    let (_, line, _) = self.p.sources.position(c.span);
                    self.trace(Inst::TraceStep {
                        site: self.site,
                        line,
                        text: format!("if {}", self.p.sources.snippet(c.span)).into(),
                        shown: Shown::Taken(taken),
                    });
                }
                let c = taken;
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
            // `a + b - c ..` and `a / b / c ..` (a divisor that may be 0): the chain walked
            // down its left side, so a long one costs no recursion per term, and one
            // register holds its running total.
            K::Int(..) | K::CheckedDiv(..) => {
                let (left, terms) = crate::ir::walk::int_chain(e);
                let mut acc = self.scalar(left)?;
                let total = self.int();
                for (op, site, b) in terms.into_iter().rev() {
                    // A term's own temporaries are read by nothing after its step.
                    let from = self.taken.len();
                    if let Some(site) = site {
                        let b = self.scalar(b)?;
                        self.flush();
                        self.code.push(Inst::CheckedDiv {
                            op,
                            dst: total,
                            a: acc,
                            b,
                            site,
                        });
                    } else {
                        let b = self.operand(b)?;
                        self.code.push(match b {
                            Operand::Reg(b) => Inst::Arith {
                                op,
                                dst: total,
                                a: acc,
                                b,
                            },
                            Operand::Imm(b) => Inst::ArithImm {
                                op,
                                dst: total,
                                a: acc,
                                b,
                            },
                        });
                    }
                    self.give_back(from);
                    acc = total;
                }
                Part::Int(total)
            }
            K::ToInt(a) => Part::Int(self.scalar(a)?),
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
            // `a and b`, `a or b`: `b` (and its steps) only when `a` does not decide. A
            // chain of one of them (`a and b and c ..`) is walked down its left side, each
            // operand deciding the whole as soon as it can.
            K::And(..) | K::Or(..) => {
                let and = matches!(e.kind, K::And(..));
                let (left, rest) = crate::ir::walk::logic_chain(e, and);
                let dst = self.int();
                // Each operand's own temporaries are read by nothing once it is in `dst`.
                let from = self.taken.len();
                let a = self.truth(left)?;
                self.mov(dst, a);
                self.give_back(from);
                let mut skips = Vec::new();
                for b in rest.into_iter().rev() {
                    self.flush();
                    skips.push(self.code.len());
                    self.code.push(if and {
                        Inst::JumpIfNot { cond: dst, to: 0 }
                    } else {
                        Inst::JumpIf { cond: dst, to: 0 }
                    });
                    let b = self.truth(b)?;
                    self.mov(dst, b);
                    self.give_back(from);
                }
                let end = self.here();
                for skip in skips {
                    self.patch(skip, end);
                }
                Part::Bool(dst)
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
            // `min(a, b, ..)`, `max(a, b, ..)` of ints or levels: every operand in order.
            K::Min(xs) | K::Max(xs) => {
                let max = matches!(e.kind, K::Max(_));
                let regs = xs
                    .iter()
                    .map(|x| self.scalar(x))
                    .collect::<Lowered<Vec<_>>>()?;
                let Some((&first, rest)) = regs.split_first() else {
                    unreachable!("`min` and `max` take at least one operand (the checker's rule)")
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
            // `level ± n ± m ..`: the chain walked down its left side as a sum is, each
            // step from the level so far (saturating at the scale's ends at each step).
            K::LevelStep { .. } => {
                let (left, steps) = crate::ir::walk::level_steps(e);
                let (Part::Level(mut acc), Ty::Choice(c)) = (self.expr(left)?, &e.ty) else {
                    unreachable!("`level ± n` steps a level (the checker's type rule)")
                };
                let len = u8::try_from(self.p.choices[*c].variants.len())
                    .unwrap_or_else(|_| unreachable!("a scale has at most 255 levels (E0360)"));
                let dst = self.int();
                for (delta, negate) in steps.into_iter().rev() {
                    // A step's own temporaries are read by nothing after it.
                    let from = self.taken.len();
                    let delta = self.scalar(delta)?;
                    self.code.push(Inst::LevelStep {
                        dst,
                        level: acc,
                        delta,
                        negate,
                        len,
                    });
                    self.give_back(from);
                    acc = dst;
                }
                Part::Level(dst)
            }
            _ => unreachable!("`Lower::expr` sends only numbers, truths and levels here"),
        })
    }
}
