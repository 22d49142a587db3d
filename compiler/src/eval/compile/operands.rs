//! Integer operations and comparisons whose operands are read inside the operation's own
//! closure: a local, a local record's field, a roll's natural die of a local, a part of
//! a local track box, or a constant (its one step taken where the walker takes it), each a type the closure is
//! made for, so reading it is no call. Other operands stay closures of their own.

use super::expr::{box_part, int_const};
use super::{BoolFn, Cx, Got, IntFn, Interpreter};
use crate::eval::Value;
use crate::ir::{self, BoxPart, CmpOp, ExprKind as K, IntOp};
use rulesc_runtime::arith;

/// An integer operand, read as the walker's `int` of it reads it.
pub(super) trait Operand: Send + Sync + 'static {
    fn get(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<i64>;
}

/// A local.
pub(super) struct Slot(usize);
/// Field `.1` of the record in local `.0`.
pub(super) struct SlotField(usize, usize);
/// `natural(r)` of the roll in a local.
pub(super) struct Natural(usize);
/// `box.number` or `box.attr` of the track box in a local.
pub(super) struct BoxOf(pub(super) usize, pub(super) BoxPart);
/// A constant: one step.
pub(super) struct Num(i64);
/// Anything else, compiled.
pub(super) struct Dyn(IntFn);

impl Operand for Slot {
    #[inline(always)]
    fn get(&self, _: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<i64> {
        Ok(l[self.0].int())
    }
}

impl Operand for SlotField {
    #[inline(always)]
    fn get(&self, _: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<i64> {
        Ok(match &l[self.0] {
            Value::Record(r) => r.borrow().get(self.1).map_or(0, Value::int),
            _ => 0,
        })
    }
}

impl Operand for Natural {
    #[inline(always)]
    fn get(&self, _: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<i64> {
        Ok(match &l[self.0] {
            Value::Roll(r) => r.natural,
            _ => 0,
        })
    }
}

impl Operand for BoxOf {
    #[inline(always)]
    fn get(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<i64> {
        Ok(match l[self.0] {
            Value::TrackBox { track, number } => box_part(it.prog, track, number, self.1).int(),
            _ => 0,
        })
    }
}

impl Operand for Num {
    #[inline(always)]
    fn get(&self, it: &mut Interpreter<'_, '_>, _: &mut Vec<Value>) -> Got<i64> {
        it.step(1)?;
        Ok(self.0)
    }
}

impl Operand for Dyn {
    #[inline(always)]
    fn get(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<i64> {
        (self.0)(it, l)
    }
}

/// What is made of two operands, whatever their types.
pub(super) trait Make2 {
    type Out;
    fn make<A: Operand, B: Operand>(self, a: A, b: B) -> Self::Out;
}

/// An operand compiled, by kind.
enum Op {
    Slot(Slot),
    Field(SlotField),
    Natural(Natural),
    BoxOf(BoxOf),
    Num(Num),
    Dyn(Dyn),
}

impl Cx<'_> {
    fn operand(&self, e: &ir::Expr) -> Op {
        if let Some(i) = int_const(e) {
            return Op::Num(Num(i));
        }
        match &e.kind {
            K::Local(s) => Op::Slot(Slot(self.slot(*s))),
            K::Field(r, i) => match r.kind {
                K::Local(s) => Op::Field(SlotField(self.slot(s), *i)),
                _ => Op::Dyn(Dyn(self.int(e))),
            },
            K::Natural(a) => match a.kind {
                K::Local(s) => Op::Natural(Natural(self.slot(s))),
                _ => Op::Dyn(Dyn(self.int(e))),
            },
            K::BoxPart(b, part) => match b.kind {
                K::Local(s) => Op::BoxOf(BoxOf(self.slot(s), *part)),
                _ => Op::Dyn(Dyn(self.int(e))),
            },
            K::ToInt(a) => self.operand(a),
            _ => Op::Dyn(Dyn(self.int(e))),
        }
    }

    /// `m` made of `a` and `b` (compiled in that order), by their kinds.
    pub(super) fn operands<M: Make2>(&self, a: &ir::Expr, b: &ir::Expr, m: M) -> M::Out {
        let a = self.operand(a);
        let b = self.operand(b);
        macro_rules! with_b {
            ($a:expr) => {
                match b {
                    Op::Slot(b) => m.make($a, b),
                    Op::Field(b) => m.make($a, b),
                    Op::Natural(b) => m.make($a, b),
                    Op::BoxOf(b) => m.make($a, b),
                    Op::Num(b) => m.make($a, b),
                    Op::Dyn(b) => m.make($a, b),
                }
            };
        }
        match a {
            Op::Slot(a) => with_b!(a),
            Op::Field(a) => with_b!(a),
            Op::Natural(a) => with_b!(a),
            Op::BoxOf(a) => with_b!(a),
            Op::Num(a) => with_b!(a),
            Op::Dyn(a) => with_b!(a),
        }
    }
}

/// `a op b` of integers.
pub(super) struct Arith(pub(super) IntOp);

impl Make2 for Arith {
    type Out = IntFn;
    fn make<A: Operand, B: Operand>(self, a: A, b: B) -> IntFn {
        macro_rules! op {
            ($f:expr) => {
                Box::new(move |it, l| {
                    let x = a.get(it, l)?;
                    let y = b.get(it, l)?;
                    Ok($f(x, y))
                })
            };
        }
        match self.0 {
            IntOp::Add => op!(arith::add),
            IntOp::Sub => op!(arith::sub),
            IntOp::Mul => op!(arith::mul),
            IntOp::Div => op!(arith::div),
            IntOp::Rem => op!(arith::rem),
        }
    }
}

/// `a op b` compared.
pub(super) struct Compare(pub(super) CmpOp);

impl Make2 for Compare {
    type Out = BoolFn;
    fn make<A: Operand, B: Operand>(self, a: A, b: B) -> BoolFn {
        macro_rules! op {
            ($f:expr) => {
                Box::new(move |it, l| {
                    let x = a.get(it, l)?;
                    let y = b.get(it, l)?;
                    Ok($f(&x, &y))
                })
            };
        }
        match self.0 {
            CmpOp::Eq => op!(i64::eq),
            CmpOp::Ne => op!(i64::ne),
            CmpOp::Lt => op!(i64::lt),
            CmpOp::Le => op!(i64::le),
            CmpOp::Gt => op!(i64::gt),
            CmpOp::Ge => op!(i64::ge),
        }
    }
}
