//! Fast segments over columns: a segment that rolls once, where every path rolls
//! ([`fast::one_roll`]), is evaluated from a state over all the outcomes of its roll at
//! once. Each lane of a column is one outcome of the roll; a local or an expression is a
//! column of `i64`, `bool`, level or roll values, or one value shared by every lane (what
//! does not depend on the roll is computed once). Branches narrow a mask of lanes; a
//! `return` takes its lanes out. Lanes are then grouped by what they lead to (the state
//! after the segment, or the value returned), as [`super::segment`]'s path-by-path
//! gathering groups paths, in the same order and with the same weights.
//!
//! Every operation is the interpreter's own (`arith`, the same conversions as the VM).
//! Whatever this module does not take on gives up for the state (`None`) and the engine
//! gathers it path by path on the VM (`super::segment`), which reports it exactly:
//! a division by zero in a lane that evaluates it, an interpreted expression that fails
//! or reads a column, a local whose lanes would hold values of different kinds, and any
//! limit (steps, states, time) the segment would reach.
mod col;
mod group;
#[cfg(test)]
mod tests;

use super::segment::Exit;
use super::{Engine, Truncation};
use crate::analyze::dice::{Bound, RollDist};
use crate::analyze::exact::W;
use crate::analyze::fast::{FStmt, F};
use crate::analyze::plan::Segment;
use crate::analyze::state::{encode_value, State};
use crate::eval::Value;
use crate::ir::Id;
use crate::ir::{AssignOp, ExprKind as K, IntOp};
use col::{any, bools_buf, bools_col, narrow, rewrap_int, spare_bools, Bools, Col, Ints};
use group::{Groups, Local};
use rulesc_runtime::{__private::arith, Roll};
use std::collections::HashMap;
use std::rc::Rc;

/// One state's lanes being evaluated.
struct Lanes<'r> {
    p: &'r crate::ir::Program,
    /// How an [`F::Interp`] runs.
    interp: super::Interp<'r>,
    n: usize,
    /// The roll's outcomes.
    roll: &'r RollDist,
    /// Dice drawn before the segment.
    used: u32,
    /// Per slot: its column, when a lane may differ from the frame's value.
    cols: Vec<Option<Col>>,
    /// The frame: the state's values, with the shared values the segment wrote.
    locals: Vec<Value>,
    alive: Vec<bool>,
    /// How many lanes have returned.
    returned: usize,
    groups: Groups,
    key: Vec<u64>,
}

impl Lanes<'_> {
    fn used(&self, lane: usize) -> u64 {
        u64::from(self.used + self.roll.entries[lane].1)
    }

    fn local(&self, s: usize) -> Col {
        match &self.cols[s] {
            Some(c) => c.clone(),
            None => Col::S(self.locals[s].clone()),
        }
    }

    /// Runs `stmts` in the lanes of `mask` (all alive).
    fn block(&mut self, stmts: &[FStmt], mask: &[bool]) -> Option<()> {
        let mut m = std::borrow::Cow::Borrowed(mask);
        for s in stmts {
            let before = self.returned;
            self.stmt(s, &m)?;
            if self.returned != before {
                // Some lanes returned: the others go on.
                let mut left = bools_buf(m.len());
                left.extend(m.iter().zip(&self.alive).map(|(&a, &b)| a && b));
                if let std::borrow::Cow::Owned(old) = std::mem::replace(&mut m, left.into()) {
                    spare_bools(old);
                }
                if !any(&m) {
                    break;
                }
            }
        }
        if let std::borrow::Cow::Owned(old) = m {
            spare_bools(old);
        }
        Some(())
    }

    fn stmt(&mut self, s: &FStmt, m: &[bool]) -> Option<()> {
        match s {
            FStmt::Set(slot, op, e) => {
                let v = match op {
                    AssignOp::Set => self.value(e, m)?,
                    AssignOp::Add | AssignOp::Sub => {
                        let old = self.local(*slot).ints();
                        let d = self.ints(e, m)?;
                        let f = if *op == AssignOp::Add {
                            arith::add
                        } else {
                            arith::sub
                        };
                        old.zip(d, f).col()
                    }
                };
                self.write(*slot, v, m)
            }
            FStmt::If(branches, otherwise) => {
                let mut rest = bools_buf(m.len());
                rest.extend_from_slice(m);
                for (c, b) in branches {
                    match self.truth(c, &rest)? {
                        Bools::S(true) => {
                            self.block(b, &rest)?;
                            spare_bools(rest);
                            return Some(());
                        }
                        Bools::S(false) => {}
                        Bools::V(cv) => {
                            let taken = narrow(&rest, &cv, true);
                            if any(&taken) {
                                self.block(b, &taken)?;
                            }
                            let next = narrow(&rest, &cv, false);
                            spare_bools(taken);
                            spare_bools(cv);
                            spare_bools(std::mem::replace(&mut rest, next));
                        }
                    }
                    if !any(&rest) {
                        spare_bools(rest);
                        return Some(());
                    }
                }
                if let Some(o) = otherwise {
                    self.block(o, &rest)?;
                }
                spare_bools(rest);
                Some(())
            }
            FStmt::Return(Some(F::Outcome(tag, fields))) => {
                let cols = fields
                    .iter()
                    .map(|f| self.value(f, m))
                    .collect::<Option<Vec<_>>>()?;
                let head = [2, 0, 10, u64::from(*tag), cols.len() as u64];
                let tag = *tag;
                self.settle(&head, &cols, m, |cols, lane, used| {
                    let fields: Rc<[Value]> = cols.iter().map(|c| c.at(lane)).collect();
                    Exit::Return(Value::Outcome { tag, fields }, used)
                });
                Some(())
            }
            FStmt::Return(v) => {
                let col = match v {
                    Some(e) => self.value(e, m)?,
                    None => Col::S(Value::Unit),
                };
                self.settle(&[2, 0], &[col], m, |cols, lane, used| {
                    Exit::Return(cols[0].at(lane), used)
                });
                Some(())
            }
        }
    }

    /// Takes the lanes of `m` out (`ret`) or leaves them to run on, each to the result
    /// whose key is `head` (its second word the dice drawn) followed by the words of its
    /// values `cols`, as [`Engine::gather`] keys paths; `exit` makes a new result from a
    /// lane.
    fn settle(
        &mut self,
        head: &[u64],
        cols: &[Col],
        m: &[bool],
        exit: impl Fn(&[Col], usize, u32) -> Exit,
    ) {
        // The words of shared values (one `seen` for all, as `encode_value` is called).
        let mut seen = Vec::new();
        let mut fixed = Vec::with_capacity(cols.len() * 4);
        let spans: Vec<(usize, usize)> = cols
            .iter()
            .map(|c| {
                let at = fixed.len();
                if let Col::S(v) = c {
                    encode_value(v, &mut fixed, &mut seen);
                }
                (at, fixed.len())
            })
            .collect();
        let varying: Vec<&Col> = cols.iter().filter(|c| !matches!(c, Col::S(_))).collect();
        let mut local = Local {
            stride: 1 + varying.iter().map(|c| c.width()).sum::<usize>(),
            keys: Vec::with_capacity(64),
            groups: Vec::with_capacity(16),
            index: HashMap::default(),
            last: 0,
        };
        let mut key = std::mem::take(&mut self.key);
        for lane in (0..self.n).filter(|&l| m[l]) {
            key.clear();
            key.push(self.used(lane));
            for c in &varying {
                c.encode(lane, &mut key, &mut seen);
            }
            local.add(&key, lane, &self.roll.entries[lane].2);
            self.alive[lane] = false;
            self.returned += 1;
        }
        for (lane, w) in local.groups {
            let used = self.used(lane);
            key.clear();
            key.extend_from_slice(head);
            key[1] = used;
            for (c, &(a, b)) in cols.iter().zip(&spans) {
                match c {
                    Col::S(_) => key.extend_from_slice(&fixed[a..b]),
                    c => c.encode(lane, &mut key, &mut seen),
                }
            }
            self.groups
                .add(&key, lane, w, || exit(cols, lane, used as u32));
        }
        self.key = key;
    }

    /// Sets local `slot` to `v` in the lanes of `m`.
    fn write(&mut self, slot: usize, v: Col, m: &[bool]) -> Option<()> {
        // Lanes out of `m` that are still alive keep the old value.
        let whole = m.iter().zip(&self.alive).all(|(&a, &b)| a || !b);
        let v = if whole {
            v
        } else {
            v.select(m, self.local(slot))?
        };
        match v {
            Col::S(v) => {
                self.locals[slot] = v;
                self.cols[slot] = None;
            }
            c => {
                if let Some(old) = self.cols[slot].replace(c) {
                    old.spare();
                }
            }
        }
        Some(())
    }

    /// As the interpreter evaluates an expression, in the lanes of `m` (others hold anything).
    fn value(&mut self, e: &F, m: &[bool]) -> Option<Col> {
        Some(match e {
            F::Val(v) => Col::S(v.clone()),
            F::Local(s) => self.local(*s),
            F::Field(s, path) => match &self.cols[*s] {
                // A local held in a column is plain, and has no fields: not taken on here.
                Some(_) => return None,
                None => {
                    let mut v = self.locals[*s].clone();
                    for &i in path {
                        v = match &v {
                            Value::Record(r) => r.borrow().get(i).cloned()?,
                            _ => return None,
                        };
                    }
                    Col::S(v)
                }
            },
            F::Neg(_) | F::Int(..) | F::CheckedDiv(..) | F::ToInt(_) | F::Natural(_) => {
                self.ints(e, m)?.col()
            }
            F::Compare(..) | F::And(..) | F::Or(..) | F::Not(_) => bools_col(self.truth(e, m)?),
            F::If(c, a, b) => match self.truth(c, m)? {
                Bools::S(t) => self.value(if t { a } else { b }, m)?,
                Bools::V(cv) => {
                    let (ma, mb) = (narrow(m, &cv, true), narrow(m, &cv, false));
                    if !any(&ma) {
                        self.value(b, m)?
                    } else if !any(&mb) {
                        self.value(a, m)?
                    } else {
                        let va = self.value(a, &ma)?;
                        let vb = self.value(b, &mb)?;
                        va.select(&cv, vb)?
                    }
                }
            },
            F::MinMax(..) | F::Clamp(..) => {
                let ty = match e {
                    F::MinMax(_, _, ty) | F::Clamp(_, _, _, ty) => ty,
                    _ => unreachable!(),
                };
                self.ints(e, m)?.rewrap(ty)
            }
            F::Abs(a) => self.ints(a, m)?.map(i64::saturating_abs).col(),
            F::Roll(..) => Col::R(
                self.roll.entries.iter().map(|e| e.0.total).collect(),
                self.roll.entries.iter().map(|e| e.0.natural).collect(),
            ),
            F::RollAdd(roll, delta, negate) => {
                let r = self.value(roll, m)?;
                let d = self.ints(delta, m)?;
                let shift = |t: Ints, d: Ints| {
                    if *negate {
                        t.zip(d, arith::sub)
                    } else {
                        t.zip(d, arith::add)
                    }
                };
                let totals = |t: Ints| match t {
                    Ints::V(v) => v,
                    Ints::S(x) => vec![x; self.n],
                };
                match (r, d) {
                    (Col::S(Value::Roll(r)), Ints::S(d)) => {
                        Col::S(Value::Roll(r.shifted(d, *negate)))
                    }
                    (Col::S(v), Ints::S(d)) => Col::S(Value::Roll(
                        Roll {
                            total: v.int(),
                            natural: 0,
                        }
                        .shifted(d, *negate),
                    )),
                    (Col::R(t, nat), d) => Col::R(totals(shift(Ints::V(t), d)), nat),
                    (Col::S(Value::Roll(r)), d) => Col::R(
                        totals(shift(Ints::S(r.total), d)),
                        vec![r.natural; self.n].into(),
                    ),
                    (other, d) => Col::R(totals(shift(other.ints(), d)), vec![0; self.n].into()),
                }
            }
            F::LevelStep(level, delta, negate, len) => {
                let l = match self.value(level, m)? {
                    Col::S(Value::Choice(c)) => Ints::S(i64::from(c)),
                    Col::L(v) => Ints::V(v.iter().map(|&c| i64::from(c)).collect()),
                    // Not a level: not taken on here (the path-by-path run says what).
                    _ => return None,
                };
                let d = self.ints(delta, m)?;
                let step = |l: i64, d: i64| i64::from(arith::level_plus(l, d, *negate, *len));
                match l.zip(d, step) {
                    Ints::S(x) => Col::S(Value::Choice(x as u16)),
                    Ints::V(v) => Col::L(v.iter().map(|&x| x as u16).collect()),
                }
            }
            // Made only where returned (`fast::one_roll`).
            F::Outcome(..) => return None,
            F::Interp(x, at) => {
                if !any(m) {
                    return Some(Col::S(Value::Unit));
                }
                let mut reads_column = false;
                crate::analyze::plan::walk_all(x, &mut |y| {
                    if let K::Local(s) = y.kind {
                        reads_column |= self.cols.get(s).is_some_and(Option::is_some);
                    }
                });
                if reads_column {
                    return None;
                }
                Col::S(
                    self.interp
                        .eval_copy(self.p, x, *at, &mut self.locals)
                        .ok()?,
                )
            }
        })
    }

    /// As the interpreter reads an int.
    fn ints(&mut self, e: &F, m: &[bool]) -> Option<Ints> {
        Some(match e {
            F::Val(v) => Ints::S(v.int()),
            F::Local(s) => match &self.cols[*s] {
                Some(c) => c.ints(),
                None => Ints::S(self.locals[*s].int()),
            },
            F::Neg(a) => self.ints(a, m)?.map(arith::neg),
            F::Int(op, a, b) => {
                let (a, b) = (self.ints(a, m)?, self.ints(b, m)?);
                // One arm per operation, so that each loop is compiled with its own.
                match op {
                    IntOp::Add => a.zip(b, arith::add),
                    IntOp::Sub => a.zip(b, arith::sub),
                    IntOp::Mul => a.zip(b, arith::mul),
                    IntOp::Div => a.zip(b, arith::div),
                    IntOp::Rem => a.zip(b, arith::rem),
                }
            }
            F::CheckedDiv(op, a, b) => {
                let (a, b) = (self.ints(a, m)?, self.ints(b, m)?);
                // A division by zero where a lane evaluates it is a rule error: the
                // path-by-path gathering reports it.
                let zero = match &b {
                    Ints::S(x) => *x == 0 && any(m),
                    Ints::V(v) => v.iter().zip(m).any(|(&x, &on)| on && x == 0),
                };
                if zero {
                    return None;
                }
                if *op == IntOp::Rem {
                    a.zip(b, arith::rem)
                } else {
                    a.zip(b, arith::div)
                }
            }
            F::ToInt(a) => self.ints(a, m)?,
            F::MinMax(max, xs, ty) => {
                let mut best: Option<Ints> = None;
                for x in xs {
                    let v = self.ints(x, m)?;
                    best = Some(match best {
                        Some(b) if *max => b.zip(v, i64::max),
                        Some(b) => b.zip(v, i64::min),
                        None => v,
                    });
                }
                best.unwrap_or(Ints::S(0)).map(|v| rewrap_int(v, ty))
            }
            F::Clamp(x, lo, hi, ty) => {
                let x = self.ints(x, m)?;
                let lo = self.ints(lo, m)?;
                let hi = self.ints(hi, m)?;
                x.zip(lo, i64::max)
                    .zip(hi, i64::min)
                    .map(|v| rewrap_int(v, ty))
            }
            F::Abs(a) => self.ints(a, m)?.map(i64::saturating_abs),
            F::RollAdd(roll, delta, negate) => {
                let total = self.value(roll, m)?.ints();
                let d = self.ints(delta, m)?;
                if *negate {
                    total.zip(d, arith::sub)
                } else {
                    total.zip(d, arith::add)
                }
            }
            F::Natural(a) => match self.value(a, m)? {
                Col::S(Value::Roll(r)) => Ints::S(r.natural),
                Col::R(_, nat) => Ints::V(nat.to_vec()),
                // Not a roll: not taken on here (the path-by-path run says what).
                _ => return None,
            },
            F::Compare(..) | F::And(..) | F::Or(..) | F::Not(_) => match self.truth(e, m)? {
                Bools::S(b) => Ints::S(i64::from(b)),
                Bools::V(v) => Ints::V(v.iter().map(|&b| i64::from(b)).collect()),
            },
            _ => self.value(e, m)?.ints(),
        })
    }

    /// As the interpreter reads a truth.
    fn truth(&mut self, e: &F, m: &[bool]) -> Option<Bools> {
        Some(match e {
            F::Val(v) => Bools::S(v.bool()),
            F::Local(s) => match &self.cols[*s] {
                Some(c) => c.bools(),
                None => Bools::S(self.locals[*s].bool()),
            },
            F::Not(a) => match self.truth(a, m)? {
                Bools::S(b) => Bools::S(!b),
                Bools::V(mut v) => {
                    v.iter_mut().for_each(|b| *b = !*b);
                    Bools::V(v)
                }
            },
            F::Compare(op, a, b) => {
                let (a, b) = (self.ints(a, m)?, self.ints(b, m)?);
                a.compare(b, *op)
            }
            F::And(a, b) | F::Or(a, b) => {
                let and = matches!(e, F::And(..));
                match self.truth(a, m)? {
                    // `false and ..`, `true or ..`: the right is not evaluated.
                    Bools::S(x) if x != and => Bools::S(x),
                    Bools::S(_) => self.truth(b, m)?,
                    Bools::V(mut av) => {
                        let mb = narrow(m, &av, and);
                        if any(&mb) {
                            let bv = self.truth(b, &mb)?;
                            for (l, x) in av.iter_mut().enumerate() {
                                if *x == and {
                                    *x = bv.at(l);
                                }
                            }
                            bv.spare();
                        }
                        spare_bools(mb);
                        Bools::V(av)
                    }
                }
            }
            _ => self.value(e, m)?.bools(),
        })
    }
}

/// A dice source for interpreted expressions, which never roll.
/// The roll a one-roll segment makes (`fast::one_roll`).
fn the_roll(stmts: &[FStmt]) -> Option<(rulesc_runtime::DiceSpec, u32)> {
    fn find(e: &F) -> Option<(rulesc_runtime::DiceSpec, u32)> {
        let mut found = None;
        visit(e, &mut |x| {
            if let F::Roll(spec, site) = x {
                found = Some((*spec, *site));
            }
        });
        found
    }
    match stmts.first()? {
        FStmt::Set(_, _, e) | FStmt::Return(Some(e)) => find(e),
        FStmt::If(branches, _) => find(&branches.first()?.0),
        FStmt::Return(None) => None,
    }
}

/// Calls `f` on `e` and every expression inside it.
fn visit(e: &F, f: &mut dyn FnMut(&F)) {
    f(e);
    e.all_children(|x| {
        visit(x, f);
        true
    });
}

/// Where a segment's paths end: each exit with its path denominator and weight.
pub(super) type Exits = Vec<(Exit, W, W)>;

impl Engine<'_> {
    /// The exits of a one-roll segment from state `st`, as [`Engine::gather`] would
    /// give them; `None` leaves the state to it.
    pub(super) fn columns(&self, f: Id, seg: &Segment, st: &State) -> Option<Exits> {
        let base = st.frames.last()?;
        let (spec, site) = the_roll(&seg.stmts)?;
        let bound = match self.opts.truncation {
            Truncation::Depth(d) => Bound::Depth(d),
            Truncation::PathDice(max) => Bound::Dice(max.saturating_sub(st.used)),
        };
        let natural = self.plan.natural_sites.contains(&site);
        let roll = self.roll_dist(spec, bound, natural).ok()?;
        let n = roll.entries.len();
        // Every path, the cut one included, is a step of the analysis.
        let paths = (n + usize::from(!roll.cut.is_zero())) as u64;
        let steps = self.steps.get();
        if n == 0 || steps + paths > self.opts.max_steps {
            return None;
        }
        if let Some(d) = self.opts.deadline {
            if (steps + paths) / 1024 > steps / 1024 && std::time::Instant::now() >= d {
                return None;
            }
        }
        let mut lanes = Lanes {
            p: self.p,
            interp: self.interp(f),
            n,
            roll: &roll,
            used: st.used,
            cols: vec![None; base.len()],
            locals: base.clone(),
            alive: vec![true; n],
            returned: 0,
            groups: Groups::default(),
            key: Vec::new(),
        };
        let all = vec![true; n];
        lanes.block(&seg.stmts, &all)?;
        // The lanes left run on after the segment: grouped by the locals kept.
        let kept: Vec<Col> = seg.kept.iter().map(|&s| lanes.local(s)).collect();
        let left = lanes.alive.clone();
        lanes.settle(&[1, 0], &kept, &left, |kept, lane, used| {
            Exit::Normal(kept.iter().map(|c| c.at(lane)).collect(), used)
        });
        kept.into_iter().for_each(Col::spare);
        lanes.cols.into_iter().flatten().for_each(Col::spare);
        let mut groups = lanes.groups.exits;
        if groups.len() as u64 + u64::from(!roll.cut.is_zero()) > self.opts.max_states {
            return None;
        }
        groups.sort_by_key(|g| g.0);
        let mut out: Exits = groups
            .into_iter()
            .map(|(_, x, w)| (x, roll.den.clone(), w))
            .collect();
        if !roll.cut.is_zero() {
            out.push((Exit::Cut, roll.den.clone(), roll.cut.clone()));
        }
        self.steps.set(steps + paths);
        self.column_states.set(self.column_states.get() + 1);
        Some(out)
    }
}
