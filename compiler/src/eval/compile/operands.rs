//! Integer operations and comparisons whose operands are read inside the operation's own
//! closure: a local, a local record's field, a roll's natural die of a local, a part of
//! a local track box, or a constant (its one step taken where the walker takes it), each a type the closure is
//! made for, so reading it is no call. Other operands stay closures of their own.

use super::expr::{box_part, int_const};
use super::held::InPlace;
use super::{BoolFn, Cx, Got, IntFn, Interpreter, StmtFn, ValueFn};
use crate::eval::effects::dice_steps;
use crate::eval::{Flow, Value};
use crate::ir::{self, BoxPart, CmpOp, ExprKind as K, IntOp};
use rulesc_runtime::{__private::arith, DiceSpec, Roll, TraceEvent};

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

/// No operand: a roll chain of one delta adds nothing after it (no step, no read).
pub(super) struct Nothing;

impl Operand for Nothing {
    #[inline(always)]
    fn get(&self, _: &mut Interpreter<'_, '_>, _: &mut Vec<Value>) -> Got<i64> {
        Ok(0)
    }
}

/// `roll dice ± a ± b` of constant dice (at most two deltas): the walker's nested
/// `RollAdd` nodes over a `Roll`, in one closure. The dice's step, the roll, then each
/// delta read and added in turn, as the nested nodes do.
#[derive(Clone, Copy)]
pub(super) struct RollChain {
    pub(super) dice: DiceSpec,
    /// The constant's step and the dice's past the first (`dice_steps`), in one.
    pub(super) steps: u64,
    pub(super) site: u32,
    pub(super) negate: (bool, bool),
}

impl RollChain {
    #[inline(always)]
    fn roll<A: Operand, B: Operand>(
        self,
        it: &mut Interpreter<'_, '_>,
        l: &mut Vec<Value>,
        a: &A,
        b: &B,
    ) -> Got<Roll> {
        it.step(self.steps)?;
        let traced = it.on();
        let r = it.env.roll_known(self.dice, self.site, traced);
        let x = a.get(it, l)?;
        let r = r.shifted(x, self.negate.0);
        let y = b.get(it, l)?;
        Ok(r.shifted(y, self.negate.1))
    }
}

impl Make2 for RollChain {
    type Out = ValueFn;
    fn make<A: Operand, B: Operand>(self, a: A, b: B) -> ValueFn {
        Box::new(move |it, l| Ok(Value::Roll(self.roll(it, l, &a, &b)?)))
    }
}

/// `let slot = roll dice ± a ± b` (a [`RollChain`]): the walker's `let` of a scalar (one
/// step for the copy, the Assign event) with the chain in the same closure.
pub(super) struct LetRoll {
    pub(super) chain: RollChain,
    pub(super) slot: usize,
    pub(super) let_site: u32,
}

impl Make2 for LetRoll {
    type Out = StmtFn;
    fn make<A: Operand, B: Operand>(self, a: A, b: B) -> StmtFn {
        let LetRoll {
            chain,
            slot,
            let_site,
        } = self;
        Box::new(move |it, l| {
            let v = Value::Roll(chain.roll(it, l, &a, &b)?);
            // A copy of a value holding no other: one step.
            it.step(1)?;
            if it.on() {
                let shown = it.show(&v, &ir::Ty::Roll);
                it.event(TraceEvent::Assign {
                    site: let_site,
                    value: shown,
                });
            }
            l[slot] = v;
            Ok(Flow::Normal)
        })
    }
}

impl Cx<'_> {
    /// `roll dice ± a ± b` with constant dice, no kept faces and one or two deltas: the
    /// chain and its deltas (innermost first).
    pub(super) fn roll_chain<'e>(
        &self,
        e: &'e ir::Expr,
    ) -> Option<(RollChain, &'e ir::Expr, Option<&'e ir::Expr>)> {
        let K::RollAdd {
            roll,
            delta,
            negate,
        } = &e.kind
        else {
            return None;
        };
        let base = |r: &ir::Expr| match &r.kind {
            K::Roll {
                dice,
                site,
                faces: None,
            } => match dice.kind {
                K::Const(ir::Const::Dice(d)) => Some((d, *site)),
                _ => None,
            },
            _ => None,
        };
        if let Some((dice, site)) = base(roll) {
            let chain = RollChain {
                dice,
                steps: 1 + dice_steps(dice),
                site,
                negate: (*negate, false),
            };
            return Some((chain, delta, None));
        }
        let K::RollAdd {
            roll: inner,
            delta: first,
            negate: first_negate,
        } = &roll.kind
        else {
            return None;
        };
        let (dice, site) = base(inner)?;
        let chain = RollChain {
            dice,
            steps: 1 + dice_steps(dice),
            site,
            negate: (*first_negate, *negate),
        };
        Some((chain, first, Some(delta)))
    }

    /// `m` made of a roll chain's deltas (see [`Self::roll_chain`]).
    pub(super) fn chain_operands<M: Make2>(
        &self,
        a: &ir::Expr,
        b: Option<&ir::Expr>,
        m: M,
    ) -> M::Out {
        match b {
            Some(b) => self.operands(a, b, m),
            None => {
                macro_rules! one {
                    ($($kind:ident),*) => {
                        match self.operand(a) {
                            $(Op::$kind(a) => m.make(a, Nothing),)*
                        }
                    };
                }
                one!(Slot, Field, Natural, BoxOf, Num, Dyn)
            }
        }
    }
}

/// A condition operand of `and`/`or`, read as the walker's `truth` of it reads it.
pub(super) trait Cond: Send + Sync + 'static {
    fn get(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<bool>;
}

/// A boolean local, or a local record's boolean field, read in place.
pub(super) struct Flag(InPlace);
/// `not` of a [`Flag`].
pub(super) struct NotFlag(InPlace);
/// Any other condition, compiled.
pub(super) struct DynCond(BoolFn);

impl Cond for Flag {
    #[inline(always)]
    fn get(&self, _: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<bool> {
        Ok(self.0.read(l, Value::bool))
    }
}

impl Cond for NotFlag {
    #[inline(always)]
    fn get(&self, _: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<bool> {
        Ok(!self.0.read(l, Value::bool))
    }
}

impl Cond for DynCond {
    #[inline(always)]
    fn get(&self, it: &mut Interpreter<'_, '_>, l: &mut Vec<Value>) -> Got<bool> {
        (self.0)(it, l)
    }
}

/// A condition operand compiled, by kind.
enum CondOp {
    Flag(Flag),
    NotFlag(NotFlag),
    Dyn(DynCond),
}

/// `a and b` (`or`: `b` read only when `a` is false), both conditions read in the closure.
fn both<A: Cond, B: Cond>(or: bool, a: A, b: B) -> BoolFn {
    if or {
        Box::new(move |it, l| Ok(a.get(it, l)? || b.get(it, l)?))
    } else {
        Box::new(move |it, l| Ok(a.get(it, l)? && b.get(it, l)?))
    }
}

impl Cx<'_> {
    fn cond(&self, e: &ir::Expr) -> CondOp {
        if let Some(at) = self.in_place(e) {
            return CondOp::Flag(Flag(at));
        }
        if let K::Not(a) = &e.kind {
            if let Some(at) = self.in_place(a) {
                return CondOp::NotFlag(NotFlag(at));
            }
        }
        CondOp::Dyn(DynCond(self.truth(e)))
    }

    /// `not x` of a flag read in place: one closure.
    pub(super) fn not_flag(&self, a: &ir::Expr) -> Option<BoolFn> {
        let at = self.in_place(a)?;
        Some(Box::new(move |_, l| Ok(!at.read(l, Value::bool))))
    }

    /// `a and b`, `a or b`: flags and their negations read in the closure itself.
    pub(super) fn and_or(&self, or: bool, a: &ir::Expr, b: &ir::Expr) -> BoolFn {
        let (a, b) = (self.cond(a), self.cond(b));
        macro_rules! with_b {
            ($a:expr) => {
                match b {
                    CondOp::Flag(b) => both(or, $a, b),
                    CondOp::NotFlag(b) => both(or, $a, b),
                    CondOp::Dyn(b) => both(or, $a, b),
                }
            };
        }
        match a {
            CondOp::Flag(a) => with_b!(a),
            CondOp::NotFlag(a) => with_b!(a),
            CondOp::Dyn(a) => with_b!(a),
        }
    }
}
