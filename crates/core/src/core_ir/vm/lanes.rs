//! A piece run over many lanes at once: a fast segment that rolls once, run from one
//! state over every outcome of its roll (`analyze::engine::segment`), lane `i` taking
//! outcome `i`. The same instructions as [`super::Vm::exec`] runs, each rule the same
//! runtime function (`arith`, `error`, `op.apply`, `op.holds`).
//!
//! An `i64` register holds one value every lane shares, or one per lane: what does not
//! depend on the roll is computed once. Lanes standing at the same instruction wait there
//! together (a mask of lanes per instruction); the code of a segment only jumps forward
//! (it has no loop), so the instructions are taken in order, each run in the lanes
//! waiting at it, a conditional jump parting them and a jump's target joining them again
//! (a register written in some lanes only keeps its value in the others). Value registers are shared only. Whatever this does not take on
//! (an instruction not below, a second roll, a value register written in some lanes only,
//! a rule error in a lane) gives the state up (`None`): the engine then runs its paths one
//! by one ([`super::Rerun`]), which reports it exactly.

use super::regs::{field_scalar, level, scalar, scalar_value};
use super::{bind_entry, Frame, FRAME};
use crate::core_ir::code::{IReg, Inst, Part};
use crate::core_ir::Piece;
use crate::eval::expr::{field_of, map_entry};
use crate::eval::Value;
use rulesc_runtime::{__private::arith, __private::error, Roll};

/// An `i64` register over the lanes.
#[derive(Clone, Debug)]
enum Reg {
    /// The same in every lane.
    S(i64),
    /// One value per lane.
    V(Vec<i64>),
}

impl Reg {
    #[inline]
    fn at(&self, lane: usize) -> i64 {
        match self {
            Reg::S(v) => *v,
            Reg::V(v) => v[lane],
        }
    }
}

/// Where a lane left the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// After its last statement: what it leaves bound is read with [`Lanes::local`].
    Normal,
    /// By a `return` of the value `part` holds ([`Lanes::value`]).
    Returned(Part),
    /// By a `return` of outcome [`Lanes::outcome`]`(i)`, not made (its fields read from
    /// the lane's registers).
    Outcome(usize),
}

/// A piece run over every lane ([`Lanes::run`]).
pub struct Lanes<'p> {
    piece: &'p Piece,
    ints: Vec<Reg>,
    vals: Vec<Value>,
    /// Per lane, how it left.
    pub left: Vec<Left>,
    /// The outcomes returned: tag and the registers of their fields.
    outcomes: Vec<(u16, Vec<Part>)>,
    /// Lane vectors no register holds any more, for the next.
    spare: Vec<Vec<i64>>,
}

/// Lanes `lanes` (`count` of them) wait at instruction `pc`, with those already there.
fn wait(waiting: &mut Vec<(usize, Vec<bool>, usize)>, pc: usize, lanes: Vec<bool>, count: usize) {
    match waiting.iter_mut().find(|w| w.0 == pc) {
        Some(w) => {
            for (a, b) in w.1.iter_mut().zip(&lanes) {
                *a |= *b;
            }
            w.2 += count;
        }
        None => waiting.push((pc, lanes, count)),
    }
}

impl<'p> Lanes<'p> {
    /// `piece`'s plain code from the frame `locals` binds, in one lane per roll of
    /// `rolls` (the outcomes of its one roll, which every lane makes before it branches);
    /// `None` for what this does not take on.
    pub fn run(piece: &'p Piece, locals: &[Value], rolls: &[Roll]) -> Option<Self> {
        let f = &piece.func;
        let n = rolls.len();
        let mut frame = Frame {
            ints: [0; FRAME],
            vals: vec![Value::Unit; f.vals as usize],
        };
        bind_entry(piece, locals, &mut frame);
        let mut l = Lanes {
            piece,
            ints: frame.ints[..piece.ints]
                .iter()
                .map(|&v| Reg::S(v))
                .collect(),
            vals: frame.vals,
            left: Vec::with_capacity(n),
            outcomes: Vec::new(),
            spare: Vec::new(),
        };
        let code = &f.plain;
        let mut left: Vec<Option<Left>> = vec![None; n];
        let mut rolled = false;
        // The outcome the next `return` gives, and the lanes that made it.
        let mut made: Option<(usize, Vec<bool>)> = None;
        // The lanes waiting at each instruction some lane stands at: (where, which, how
        // many).
        let mut waiting: Vec<(usize, Vec<bool>, usize)> = vec![(0, vec![true; n], n)];
        while let Some(w) = (0..waiting.len()).min_by_key(|&i| waiting[i].0) {
            let (pc, active, count) = waiting.swap_remove(w);
            let inst = code.get(pc)?;
            // Every lane stands here: a register written is the same in all of them.
            let all = count == n;
            let next = pc as u32 + 1;
            let mut jump: Option<(u32, Reg)> = None;
            {
                match inst {
                    Inst::Step(_) | Inst::Site(_) | Inst::Stop => {}
                    Inst::Const { dst, value } => l.set(*dst, Reg::S(*value), &active, all),
                    Inst::Move { dst, src } => {
                        let v = l.ints[usize::from(*src)].clone();
                        l.set(*dst, v, &active, all);
                    }
                    Inst::Field { dst, rec, field } => {
                        let v = field_scalar(&l.vals[*rec as usize], *field);
                        l.set(*dst, Reg::S(v), &active, all);
                    }
                    Inst::FieldVal { dst, rec, field } if all => {
                        l.vals[*dst as usize] = field_of(&l.vals[*rec as usize], *field as usize);
                    }
                    Inst::MapGet { dst, map, key } => {
                        let entry = |k: i64| map_entry(&l.vals[*map as usize], level(k));
                        match (dst, &l.ints[usize::from(*key)]) {
                            (Part::Val(d), Reg::S(k)) if all => {
                                l.vals[*d as usize] = entry(*k);
                            }
                            (Part::Int(d) | Part::Bool(d) | Part::Level(d), k) => {
                                let v = match k {
                                    Reg::S(k) => Reg::S(scalar(&entry(*k))),
                                    Reg::V(k) => Reg::V(
                                        k.iter()
                                            .zip(&active)
                                            .map(|(&k, &on)| if on { scalar(&entry(k)) } else { 0 })
                                            .collect(),
                                    ),
                                };
                                l.set(*d, v, &active, all);
                            }
                            _ => return None,
                        }
                    }
                    Inst::Neg { dst, a } => l.unary(*dst, *a, &active, all, arith::neg),
                    Inst::Not { dst, a } => {
                        l.unary(*dst, *a, &active, all, |a| i64::from(a == 0));
                    }
                    Inst::Abs { dst, a } => l.unary(*dst, *a, &active, all, super::abs),
                    Inst::Arith { op, dst, a, b } => {
                        l.binary(*dst, *a, *b, &active, all, |a, b| op.apply(a, b));
                    }
                    Inst::ArithImm { op, dst, a, b } => {
                        l.unary(*dst, *a, &active, all, |a| op.apply(a, *b));
                    }
                    Inst::Pick { max, dst, a, b } => {
                        l.binary(*dst, *a, *b, &active, all, |a, b| super::pick(*max, a, b));
                    }
                    Inst::Compare { op, dst, a, b } => {
                        l.binary(*dst, *a, *b, &active, all, |a, b| i64::from(op.holds(a, b)));
                    }
                    Inst::CompareImm { op, dst, a, b } => {
                        l.unary(*dst, *a, &active, all, |a| i64::from(op.holds(a, *b)));
                    }
                    Inst::LevelStep {
                        dst,
                        level: lv,
                        delta,
                        negate,
                        len,
                    } => l.binary(*dst, *lv, *delta, &active, all, |a, d| {
                        i64::from(arith::level_plus(a, d, *negate, *len))
                    }),
                    Inst::Clamp { dst, x, lo, hi } => {
                        let (x, lo, hi) = (
                            l.ints[usize::from(*x)].clone(),
                            l.ints[usize::from(*lo)].clone(),
                            l.ints[usize::from(*hi)].clone(),
                        );
                        let v = match (&x, &lo, &hi) {
                            (Reg::S(x), Reg::S(lo), Reg::S(hi)) => {
                                Reg::S(arith::clamp(*x, *lo, *hi))
                            }
                            _ => Reg::V(
                                (0..n)
                                    .map(|i| arith::clamp(x.at(i), lo.at(i), hi.at(i)))
                                    .collect(),
                            ),
                        };
                        l.set(*dst, v, &active, all);
                    }
                    Inst::CheckedDiv {
                        op,
                        dst,
                        a,
                        b,
                        site,
                    } => {
                        let (a, b) = (
                            l.ints[usize::from(*a)].clone(),
                            l.ints[usize::from(*b)].clone(),
                        );
                        let div = |a: i64, b: i64| op.checked(a, b, *site);
                        let v = match (&a, &b) {
                            (Reg::S(a), Reg::S(b)) => Reg::S(div(*a, *b).ok()?),
                            _ => {
                                let mut out = vec![0; n];
                                for (i, o) in out.iter_mut().enumerate().filter(|(i, _)| active[*i])
                                {
                                    *o = div(a.at(i), b.at(i)).ok()?;
                                }
                                Reg::V(out)
                            }
                        };
                        l.set(*dst, v, &active, all);
                    }
                    Inst::InRange { x, lo, hi, site } => {
                        let x = &l.ints[usize::from(*x)];
                        for i in (0..n).filter(|&i| active[i]) {
                            error::in_range(x.at(i), *lo, *hi, *site).ok()?;
                        }
                    }
                    Inst::Roll { total, natural, .. } if all && !rolled => {
                        rolled = true;
                        l.ints[usize::from(*total)] =
                            Reg::V(rolls.iter().map(|r| r.total).collect());
                        l.ints[usize::from(*natural)] =
                            Reg::V(rolls.iter().map(|r| r.natural).collect());
                    }
                    Inst::Outcome { dst, tag, fields } => {
                        // Read by the `return` right after it (only steps between), in the
                        // same lanes, before anything is written.
                        let returned = code[pc + 1..]
                            .iter()
                            .find(|i| !matches!(i, Inst::Step(_) | Inst::Site(_)));
                        match returned {
                            Some(Inst::Return {
                                value: Part::Val(r),
                                ..
                            }) if r == dst => {}
                            _ => return None,
                        }
                        l.outcomes.push((*tag, fields.to_vec()));
                        made = Some((l.outcomes.len() - 1, active.clone()));
                    }
                    Inst::Return { value, .. } => {
                        let done = piece.done[1].map(|r| &l.ints[usize::from(r)]);
                        let returned = match (value, made.take()) {
                            (Part::Val(_), Some((i, lanes))) if lanes == active => Left::Outcome(i),
                            (_, Some(_)) => return None,
                            (v, None) => Left::Returned(*v),
                        };
                        for i in (0..n).filter(|&i| active[i]) {
                            left[i] = Some(match done {
                                Some(d) if d.at(i) == 1 => Left::Normal,
                                _ => returned,
                            });
                        }
                        continue;
                    }
                    Inst::Jump(to) => jump = Some((*to, Reg::S(0))),
                    Inst::JumpIfNot { cond, to } => {
                        jump = Some((*to, l.map1(*cond, &active, |c| i64::from(c == 0))));
                    }
                    Inst::JumpIf { cond, to } => {
                        jump = Some((*to, l.map1(*cond, &active, |c| i64::from(c != 0))));
                    }
                    Inst::JumpUnless { op, a, b, to } => {
                        let t = l.map2(*a, *b, &active, |a, b| i64::from(!op.holds(a, b)));
                        jump = Some((*to, t));
                    }
                    Inst::JumpUnlessImm { op, a, b, to } => {
                        jump = Some((*to, l.map1(*a, &active, |a| i64::from(!op.holds(a, *b)))));
                    }
                    _ => return None,
                }
            }
            // A jump is taken in the lanes where its register holds 1 (`Jump`: all of them).
            // On: where a jump takes them (its register 1 in the lanes taking it; a
            // `Jump` always), or to the next instruction.
            let Some((to, taken)) = jump else {
                wait(&mut waiting, next as usize, active, count);
                continue;
            };
            if to as usize <= pc {
                return None;
            }
            match taken {
                _ if matches!(inst, Inst::Jump(_)) => {
                    wait(&mut waiting, to as usize, active, count)
                }
                Reg::S(t) => {
                    let at = if t == 1 { to } else { next };
                    wait(&mut waiting, at as usize, active, count);
                }
                Reg::V(t) => {
                    let mut there = active.clone();
                    let mut here = active;
                    let mut k = 0;
                    for i in 0..n {
                        let on = here[i] && t[i] == 1;
                        there[i] = on;
                        here[i] &= !on;
                        k += usize::from(on);
                    }
                    if k > 0 {
                        wait(&mut waiting, to as usize, there, k);
                    }
                    if k < count {
                        wait(&mut waiting, next as usize, here, count - k);
                    }
                    l.spare.push(t);
                }
            }
        }
        l.left = left.into_iter().collect::<Option<Vec<_>>>()?;
        Some(l)
    }

    /// `dst` set to `v` in the lanes of `active` (in all of them: `all`).
    fn set(&mut self, dst: IReg, v: Reg, active: &[bool], all: bool) {
        let d = usize::from(dst);
        if all {
            if let Reg::V(old) = std::mem::replace(&mut self.ints[d], v) {
                self.spare.push(old);
            }
            return;
        }
        let mut out = match std::mem::replace(&mut self.ints[d], Reg::S(0)) {
            Reg::V(out) => out,
            Reg::S(x) => {
                let mut out = self.spare.pop().unwrap_or_default();
                out.clear();
                out.resize(active.len(), x);
                out
            }
        };
        match v {
            Reg::S(x) => {
                for (o, &on) in out.iter_mut().zip(active) {
                    if on {
                        *o = x;
                    }
                }
            }
            Reg::V(v) => {
                for ((o, &on), &x) in out.iter_mut().zip(active).zip(&v) {
                    if on {
                        *o = x;
                    }
                }
                self.spare.push(v);
            }
        }
        self.ints[d] = Reg::V(out);
    }

    /// `f` of register `a` in the lanes of `active` (others hold anything).
    fn map1(&mut self, a: IReg, active: &[bool], f: impl Fn(i64) -> i64) -> Reg {
        match &self.ints[usize::from(a)] {
            Reg::S(a) => Reg::S(f(*a)),
            Reg::V(v) => {
                let mut out = self.spare.pop().unwrap_or_default();
                out.clear();
                out.extend(
                    v.iter()
                        .zip(active)
                        .map(|(&x, &on)| if on { f(x) } else { 0 }),
                );
                Reg::V(out)
            }
        }
    }

    /// `f` of registers `a` and `b` in the lanes of `active` (others hold anything).
    fn map2(&mut self, a: IReg, b: IReg, active: &[bool], f: impl Fn(i64, i64) -> i64) -> Reg {
        let (x, y) = (&self.ints[usize::from(a)], &self.ints[usize::from(b)]);
        if let (Reg::S(x), Reg::S(y)) = (x, y) {
            return Reg::S(f(*x, *y));
        }
        let mut out = self.spare.pop().unwrap_or_default();
        out.clear();
        let on = active.iter();
        match (x, y) {
            (Reg::V(x), Reg::S(y)) => {
                out.extend(
                    x.iter()
                        .zip(on)
                        .map(|(&x, &on)| if on { f(x, *y) } else { 0 }),
                );
            }
            (Reg::S(x), Reg::V(y)) => {
                out.extend(
                    y.iter()
                        .zip(on)
                        .map(|(&y, &on)| if on { f(*x, y) } else { 0 }),
                );
            }
            (x, y) => {
                out.extend(
                    on.enumerate()
                        .map(|(i, &on)| if on { f(x.at(i), y.at(i)) } else { 0 }),
                );
            }
        }
        Reg::V(out)
    }

    fn unary(&mut self, dst: IReg, a: IReg, active: &[bool], all: bool, f: impl Fn(i64) -> i64) {
        let v = self.map1(a, active, f);
        self.set(dst, v, active, all);
    }

    fn binary(
        &mut self,
        dst: IReg,
        a: IReg,
        b: IReg,
        active: &[bool],
        all: bool,
        f: impl Fn(i64, i64) -> i64,
    ) {
        let v = self.map2(a, b, active, f);
        self.set(dst, v, active, all);
    }

    /// The value `part` holds in `lane` (a value register: the one all lanes share).
    pub fn value(&self, part: Part, lane: usize) -> Value {
        match part {
            Part::Val(r) => self.vals[r as usize].clone(),
            scalar => scalar_value(scalar, |r| self.ints[usize::from(r)].at(lane)),
        }
    }

    /// The registers holding locals `slots` after a normal end (a local it bound or was
    /// given).
    pub fn parts_of(&self, slots: &[usize]) -> Vec<Part> {
        slots.iter().map(|&s| self.piece.out_part(1, s)).collect()
    }

    /// Words that tell what `parts` hold in `lane` from what they hold in another lane
    /// (the numbers in their `i64` registers: a value register is the same in all).
    pub fn words(&self, parts: &[Part], lane: usize, out: &mut Vec<u64>) {
        let mut reg = |r: IReg| out.push(self.ints[usize::from(r)].at(lane) as u64);
        for part in parts {
            match *part {
                Part::Int(r)
                | Part::Bool(r)
                | Part::Level(r)
                | Part::Fighter(r)
                | Part::Side(r) => reg(r),
                Part::Roll { total, natural } => {
                    reg(total);
                    reg(natural);
                }
                Part::Val(_) | Part::Unit => {}
            }
        }
    }

    /// Outcome `i`'s tag and the registers of its fields.
    pub fn outcome(&self, i: usize) -> (u16, &[Part]) {
        let (tag, fields) = &self.outcomes[i];
        (*tag, fields)
    }
}
