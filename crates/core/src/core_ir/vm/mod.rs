//! The VM: runs a lowered function ([`super::Func`]) over typed registers. Each
//! instruction does what its doc in [`super::code`] says and nothing else: the rules
//! (steps, trace points, the order of effects) were placed by lowering. The host's dice,
//! decisions and trace are reached through the generic `Env`, not a trait object.

// The work of the later instructions, each a function kept out of `Vm::exec`
// (`#[inline(never)]`): the dispatch's code and register allocation stay as they were
// for the instructions a melee attack runs (docs/design/core-ir.md, session 17).
mod effects;
mod entry;
mod formulas;
use entry::{bind_entry, Frame, Pool, FRAMES};
pub use entry::{run, run_from, run_piece};
mod fuse;
pub(in crate::core_ir) use fuse::fuse;
mod lanes;
mod rerun;
pub use lanes::{Lanes, Left};
pub use rerun::Rerun;
mod lists;
mod maps;
mod regs;
mod tables;

pub(super) use regs::scalar_of;
use regs::{
    bind, dice_of, field_scalar, level, list_of, moved, peek, scalar, store, transfer, value,
};

use super::code::{Func, IReg, Inst, Part, FRAME};
use super::Module;
use crate::eval::expr::{
    box_part, faces_of, field_of, filled, map_entry, scan, scan_by, NO_FIELDS,
};
use crate::eval::{
    assign_value, dice_steps, privatize, show_traced_in, update, weight, Value, MAX_STEPS,
};
use crate::ir::{Program, Ty};
use rulesc_runtime::track::Boxes;
use rulesc_runtime::{
    __private::arith, __private::error, __private::rolls, Decide, DiceSource, Env, Fight, NoTrace,
    Roll, RuleError, RuleErrorKind, TraceEvent, TraceSink,
};
use std::rc::Rc;

mod fight;

/// `max(a, b)` (`max`) or `min(a, b)` of two numbers or levels.
#[inline]
fn pick(max: bool, a: i64, b: i64) -> i64 {
    if max {
        a.max(b)
    } else {
        a.min(b)
    }
}

/// `abs(a)`, saturating (`abs` of the least `i64` is the greatest).
#[inline]
fn abs(a: i64) -> i64 {
    a.saturating_abs()
}

/// The lowest box of the set of bits in `bits` (not empty: lowering takes a box only
/// from a set it found not empty), taken out of it: a box of track `track`.
#[inline(always)]
fn next_box(bits: &mut i64, track: u32) -> Value {
    let mut left = Boxes::from_bits(*bits as u64);
    let number = left
        .next()
        .unwrap_or_else(|| unreachable!("lowering takes a box only from a set it found not empty"));
    *bits = left.bits() as i64;
    Value::TrackBox {
        track: track as usize,
        number: number as u16,
    }
}

struct Vm<'a, D, X, T> {
    p: &'a Program,
    module: &'a Module,
    env: &'a mut Env<D, X, T>,
    /// The fight the run is in: its fighters' combatants, timers and built-ins.
    fight: Option<&'a mut Fight<Value>>,
    /// Frames for calls, kept between them.
    pool: Pool,
    steps: u64,
    may_stop: bool,
    /// Formulas are traced too (`--trace-formulas`): their trace points run, and each
    /// `if .. then .. else` traces its condition ([`Inst::TraceStep`]).
    formulas: bool,
    /// An enumeration cut this path off (a `Stop` met it): the run ends, giving nothing.
    stopped: bool,
    /// Nothing is traced and nothing stops the run: each function's plain code runs.
    plain: bool,
    /// The faces a die table's roll `among` a list may give, found again at each roll
    /// in this one list.
    faces: Vec<(i64, i64)>,
}

impl<'a, D: DiceSource, X: Decide, T: TraceSink> Vm<'a, D, X, T> {
    /// A run `steps` into its budget, in `fight` when it runs in one (each function's
    /// plain code when nothing is traced and nothing stops it).
    fn new(
        p: &'a Program,
        module: &'a Module,
        env: &'a mut Env<D, X, T>,
        fight: Option<&'a mut Fight<Value>>,
        pool: Pool,
        steps: u64,
        (may_stop, formulas): (bool, bool),
    ) -> Self {
        Vm {
            p,
            module,
            env,
            fight,
            pool,
            steps,
            may_stop,
            formulas,
            stopped: false,
            plain: !T::ENABLED && !may_stop,
            faces: Vec::new(),
        }
    }
}

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    /// Runs `f` in `frame`; the registers holding its result.
    fn exec(&mut self, f: &Func, frame: &mut Frame) -> Result<Part, RuleError> {
        let Frame {
            ints: regs,
            vals: vregs,
        } = frame;
        let traced = T::ENABLED && (f.traced || self.formulas);
        let code = if self.plain { &f.plain } else { &f.code };
        let mut pc = 0usize;
        // Where a spent budget is reported: `Inst::Site` moves it into an inlined formula.
        let mut budget = f.site;
        loop {
            let inst = &code[pc];
            pc += 1;
            match inst {
                Inst::Step(n) => self.charge(u64::from(*n), budget, traced)?,
                Inst::Site(at) => budget = *at,
                Inst::CombatantField { dst, who, field } => {
                    let c = crate::fight::combatant_ref(self.fight.as_deref(), regs[*who as usize]);
                    regs[*dst as usize] = field_scalar(c, *field);
                }
                Inst::Combatant { .. }
                | Inst::FightCount { .. }
                | Inst::FightQuery { .. }
                | Inst::Schedule { .. }
                | Inst::Advance { .. }
                | Inst::Detach { .. } => {
                    self.fight_op(inst, regs, vregs, budget, traced)?;
                    if self.stopped {
                        return Ok(Part::Unit);
                    }
                }
                Inst::Stop => {
                    if self.may_stop && self.env.dice.stopped() {
                        self.stopped = true;
                        return Ok(Part::Unit);
                    }
                }
                Inst::Const { dst, value } => regs[*dst as usize] = *value,
                Inst::Move { dst, src } => regs[*dst as usize] = regs[*src as usize],
                Inst::Field { dst, rec, field } => {
                    regs[*dst as usize] = field_scalar(&vregs[*rec as usize], *field);
                }
                Inst::FieldVal { dst, rec, field } => {
                    let v = field_of(&vregs[*rec as usize], *field as usize);
                    vregs[*dst as usize] = v;
                }
                Inst::Assign {
                    place,
                    keys,
                    op,
                    value: from,
                    out,
                    site,
                } => {
                    let v = value(*from, regs, vregs);
                    let keys: Vec<Value> = keys.iter().map(|k| peek(*k, regs, vregs)).collect();
                    let new = update(vregs, None, place, &keys, |old| {
                        assign_value(*op, old, v, place.range, *site)
                    });
                    match new {
                        Ok(new) => {
                            if let Some(out) = out {
                                store(*out, new, regs, vregs);
                            }
                        }
                        Err(kind) => return Err(self.fail(*site, kind, traced)),
                    }
                }
                Inst::Len { dst, list } => {
                    regs[*dst as usize] = list_of(&vregs[*list as usize]).len() as i64;
                }
                Inst::Item {
                    dst,
                    list,
                    idx,
                    shared,
                } => {
                    let items = list_of(&vregs[*list as usize]);
                    let item = &items[regs[*idx as usize] as usize];
                    self.charge(weight(item), budget, traced)?;
                    let v = if *shared {
                        item.clone()
                    } else {
                        item.deep_clone()
                    };
                    store(*dst, v, regs, vregs);
                }
                Inst::ConstVal { dst, value: c } => {
                    vregs[*dst as usize] = Value::from_const(c);
                }
                Inst::Record { dst, fields } => {
                    let fields = fields.iter().map(|p| value(*p, regs, vregs)).collect();
                    vregs[*dst as usize] = Value::Record(Rc::new(std::cell::RefCell::new(fields)));
                }
                Inst::Filled { dst, track, ty } => {
                    vregs[*dst as usize] = filled(self.p, &vregs[*track as usize], ty);
                }
                Inst::ItemImm { dst, items, idx } => {
                    regs[*dst as usize] = items[regs[*idx as usize] as usize];
                }
                Inst::FilledBits { dst, track, boxes } => {
                    let Value::Track(t) = &vregs[*track as usize] else {
                        unreachable!("a track register holds a track (lowering checks types)")
                    };
                    // The set's bits, kept whole in the register (box 64 is its sign).
                    regs[*dst as usize] = t.boxes_to(*boxes as usize).bits() as i64;
                }
                Inst::NextBox { bits, dst, track } => {
                    let b = next_box(&mut regs[*bits as usize], *track);
                    self.charge(weight(&b), budget, traced)?;
                    vregs[*dst as usize] = b;
                }
                Inst::BoxPart { dst, src, part } => {
                    let v = box_part(self.p, &vregs[*src as usize], *part);
                    store(*dst, v, regs, vregs);
                }
                Inst::Wrap { dst, src } => {
                    vregs[*dst as usize] = peek(*src, regs, vregs);
                }
                Inst::Unwrap { dst, src } => {
                    let v = vregs[*src as usize].clone();
                    if matches!(v, Value::None) {
                        unreachable!(
                            "an optional value is read only where the checker proved it present"
                        );
                    }
                    store(*dst, v, regs, vregs);
                }
                Inst::IsSome { dst, src } => {
                    regs[*dst as usize] = i64::from(!matches!(vregs[*src as usize], Value::None));
                }
                Inst::Tag { dst, src } => {
                    let Value::Outcome { tag, .. } = &vregs[*src as usize] else {
                        unreachable!("an outcome register holds an outcome (lowering checks types)")
                    };
                    regs[*dst as usize] = i64::from(*tag);
                }
                Inst::OutcomeField { dst, src, field } => {
                    let Value::Outcome { fields, .. } = &vregs[*src as usize] else {
                        unreachable!("an outcome register holds an outcome (lowering checks types)")
                    };
                    let v = fields[*field as usize].clone();
                    store(*dst, v, regs, vregs);
                }
                Inst::NewList { dst, cap } => {
                    vregs[*dst as usize] = Value::List(Rc::new(Vec::with_capacity(*cap as usize)));
                }
                Inst::Push { list, value: from } => {
                    let v = value(*from, regs, vregs);
                    let Value::List(items) = &mut vregs[*list as usize] else {
                        unreachable!("a list register holds a list (lowering made it)")
                    };
                    Rc::make_mut(items).push(v);
                }
                Inst::ListGet {
                    dst,
                    list,
                    idx,
                    site,
                } => {
                    let items = list_of(&vregs[*list as usize]);
                    // Without a site the index is proven inside, so 0 is never read.
                    match error::index(items, regs[*idx as usize], site.unwrap_or(0)) {
                        Ok(v) => {
                            let v = v.clone();
                            store(*dst, v, regs, vregs);
                        }
                        Err(e) => match site {
                            Some(at) => return Err(self.fail(*at, e.kind, traced)),
                            None => unreachable!(
                                "the checker proved this index inside the list (check::exprs::bounds)"
                            ),
                        },
                    }
                }
                Inst::In { dst, x, list } => {
                    let x = peek(*x, regs, vregs);
                    let (found, compared) = scan(list_of(&vregs[*list as usize]), &x);
                    self.charge(compared, budget, traced)?;
                    regs[*dst as usize] = i64::from(found);
                }
                Inst::InImm { dst, x, items } => {
                    let x = regs[*x as usize];
                    let (found, compared) = scan_by(items, |i| *i == x);
                    self.charge(compared, budget, traced)?;
                    regs[*dst as usize] = i64::from(found);
                }
                Inst::RangeRoom { lo, hi, site } => {
                    let (lo, hi) = (regs[*lo as usize], regs[*hi as usize]);
                    if let Err(e) = error::range_room(lo, hi, *site) {
                        return Err(self.fail(*site, e.kind, traced));
                    }
                }
                Inst::MapGet { dst, map, key } => {
                    let k = level(regs[*key as usize]);
                    let v = map_entry(&vregs[*map as usize], k);
                    store(*dst, v, regs, vregs);
                }
                Inst::MoveVal { dst, src, take } => {
                    vregs[*dst as usize] = moved(vregs, *src, *take);
                }
                Inst::CopyVal { dst, src, take } => {
                    let mut v = moved(vregs, *src, *take);
                    self.charge(weight(&v), budget, traced)?;
                    privatize(&mut v);
                    vregs[*dst as usize] = v;
                }
                Inst::LookupDense {
                    dst,
                    key,
                    lo,
                    rows,
                    outside,
                    table,
                    site,
                } => {
                    let (Part::Int(k) | Part::Level(k)) = *key else {
                        unreachable!("lowering looks up only int and level keys")
                    };
                    let k = regs[usize::from(k)];
                    let i = k.checked_sub(*lo).and_then(|i| usize::try_from(i).ok());
                    let v = match i.and_then(|i| rows.get(i)) {
                        Some(v) => *v,
                        None => *outside,
                    };
                    match v {
                        Some(v) => regs[*dst as usize] = v,
                        // No row: the rule's own answer (`eval::look_up`), its error.
                        None => {
                            let read = (Part::Int(*dst), *table, *key, None, *site);
                            self.cell(read, (regs, vregs), traced)?;
                        }
                    }
                }
                Inst::Lookup {
                    dst,
                    table,
                    key,
                    site,
                } => self.cell((*dst, *table, *key, None, *site), (regs, vregs), traced)?,
                Inst::RowRead {
                    dst,
                    table,
                    key,
                    path,
                    site,
                } => self.row_read((*dst, *table, *key, path, *site), (regs, vregs), traced)?,
                Inst::Call {
                    func,
                    ints,
                    vals,
                    ret,
                } => {
                    let callee = self.module.functions[*func as usize]
                        .as_ref()
                        .unwrap_or_else(|| {
                            unreachable!("a function calls only functions that lowered")
                        });
                    let mut inner = Frame::take(&mut self.pool, callee);
                    for &(to, from) in ints.iter() {
                        inner.ints[usize::from(to)] = regs[usize::from(from)];
                    }
                    for &(to, from, take) in vals.iter() {
                        inner.vals[to as usize] = moved(vregs, from, take);
                    }
                    let got = self.exec(callee, &mut inner);
                    let got = match got {
                        // A path cut off in the callee ends the whole run: its result is
                        // discarded, and the caller's registers would hold no value.
                        Ok(_) if self.stopped => Ok(None),
                        Ok(got) => {
                            let from = (&inner.ints, &mut inner.vals[..]);
                            transfer(*ret, got, true, (regs, vregs), from);
                            Ok(Some(()))
                        }
                        Err(e) => Err(e),
                    };
                    inner.give_back(&mut self.pool);
                    match got {
                        Ok(Some(())) => {}
                        Ok(None) => return Ok(Part::Unit),
                        // A formula's rule error is recorded by the procedure calling it.
                        Err(e) if traced && !callee.traced => {
                            return Err(error::fail(&mut self.env.trace, e))
                        }
                        Err(e) => return Err(e),
                    }
                }
                Inst::Neg { dst, a } => regs[*dst as usize] = arith::neg(regs[*a as usize]),
                Inst::Not { dst, a } => regs[*dst as usize] = i64::from(regs[*a as usize] == 0),
                Inst::Arith { op, dst, a, b } => {
                    let (a, b) = (regs[*a as usize], regs[*b as usize]);
                    regs[*dst as usize] = op.apply(a, b);
                }
                Inst::ArithImm { op, dst, a, b } => {
                    regs[*dst as usize] = op.apply(regs[*a as usize], *b);
                }
                Inst::Pick { max, dst, a, b } => {
                    regs[*dst as usize] = pick(*max, regs[*a as usize], regs[*b as usize]);
                }
                Inst::Clamp { dst, x, lo, hi } => {
                    let r = |i: &IReg| regs[usize::from(*i)];
                    regs[*dst as usize] = arith::clamp(r(x), r(lo), r(hi));
                }
                Inst::Abs { dst, a } => regs[*dst as usize] = abs(regs[*a as usize]),
                Inst::LevelStep {
                    dst,
                    level,
                    delta,
                    negate,
                    len,
                } => {
                    let (l, d) = (regs[*level as usize], regs[*delta as usize]);
                    regs[*dst as usize] = i64::from(arith::level_plus(l, d, *negate, *len));
                }
                Inst::Decide {
                    dst,
                    name,
                    options,
                    ty,
                    site,
                } => {
                    let i = rulesc_runtime::decide::answer(&mut self.env.decide, name, *options);
                    regs[*dst as usize] = i64::from(i);
                    if traced {
                        let v = match **ty {
                            Ty::Bool => Value::Bool(i == 1),
                            Ty::Choice(_) => Value::Choice(i as u16),
                            ref other => unreachable!(
                                "`decide` of {other:?}: lowering's Decide chooses a truth or a level"
                            ),
                        };
                        let choice = self.shown(&v, ty);
                        self.env.trace.event(TraceEvent::Decide {
                            site: *site,
                            choice,
                        });
                    }
                }
                Inst::Compare { op, dst, a, b } => {
                    let (a, b) = (regs[*a as usize], regs[*b as usize]);
                    regs[*dst as usize] = i64::from(op.holds(a, b));
                }
                Inst::CompareImm { op, dst, a, b } => {
                    regs[*dst as usize] = i64::from(op.holds(regs[*a as usize], *b));
                }
                Inst::Roll {
                    total,
                    natural,
                    shape,
                    spec,
                    site,
                } => {
                    let env = &mut *self.env;
                    let r = if traced {
                        rolls::by_shape(*shape, &mut env.dice, *spec, &mut env.trace, *site)
                    } else {
                        rolls::by_shape(*shape, &mut env.dice, *spec, &mut NoTrace, *site)
                    };
                    regs[*total as usize] = r.total;
                    regs[*natural as usize] = r.natural;
                }
                Inst::InRange { x, lo, hi, site } => {
                    if let Err(e) = error::in_range(regs[*x as usize], *lo, *hi, *site) {
                        return Err(self.fail(e.site, e.kind, traced));
                    }
                }
                Inst::CheckedDiv {
                    op,
                    dst,
                    a,
                    b,
                    site,
                } => match op.checked(regs[*a as usize], regs[*b as usize], *site) {
                    Ok(q) => regs[*dst as usize] = q,
                    Err(e) => return Err(self.fail(e.site, e.kind, traced)),
                },
                Inst::Fill { .. } | Inst::DecideFrom { .. } | Inst::RollTable { .. } => {
                    self.effect(inst, regs, vregs, budget, traced)?;
                    if self.stopped {
                        return Ok(Part::Unit);
                    }
                }
                Inst::RollFaces {
                    total,
                    natural,
                    faces,
                    held,
                    spec,
                    site,
                } => {
                    let spec = held.map_or(*spec, |d| dice_of(&vregs[d as usize]));
                    self.charge(dice_steps(spec), budget, traced)?;
                    let env = &mut *self.env;
                    let (r, shown) = if traced {
                        rulesc_runtime::dice::roll_faces(&mut env.dice, spec, &mut env.trace, *site)
                    } else {
                        rulesc_runtime::dice::roll_faces(&mut env.dice, spec, &mut NoTrace, *site)
                    };
                    regs[*total as usize] = r.total;
                    regs[*natural as usize] = r.natural;
                    vregs[*faces as usize] = Value::Faces(Rc::new(shown));
                }
                Inst::FacesOf { dst, faces, part } => {
                    vregs[*dst as usize] = faces_of(&vregs[*faces as usize], *part);
                }
                Inst::RollHeld {
                    total,
                    natural,
                    dice,
                    site,
                } => {
                    let spec = dice_of(&vregs[*dice as usize]);
                    self.charge(dice_steps(spec), budget, traced)?;
                    let r = self.roll_known(spec, *site, traced);
                    regs[*total as usize] = r.total;
                    regs[*natural as usize] = r.natural;
                }
                Inst::DiceTimes { dst, dice, n, site } => {
                    let spec = dice_of(&vregs[*dice as usize]);
                    // Without a site the count is proven inside, so 0 is never read.
                    match spec.times(regs[*n as usize], site.unwrap_or(0)) {
                        Ok(times) => vregs[*dst as usize] = Value::Dice(times),
                        Err(e) => match site {
                            Some(_) => return Err(self.fail(e.site, e.kind, traced)),
                            None => unreachable!(
                                "the checker proved this dice count inside (check::exprs::bounds)"
                            ),
                        },
                    }
                }
                Inst::Outcome { dst, tag, fields } => {
                    let fields = if fields.is_empty() {
                        NO_FIELDS.with(Rc::clone)
                    } else {
                        fields.iter().map(|part| peek(*part, regs, vregs)).collect()
                    };
                    vregs[*dst as usize] = Value::Outcome { tag: *tag, fields };
                }
                Inst::Jump(to) => pc = *to as usize,
                Inst::JumpIfNot { cond, to } => {
                    if regs[*cond as usize] == 0 {
                        pc = *to as usize;
                    }
                }
                Inst::JumpIf { cond, to } => {
                    if regs[*cond as usize] != 0 {
                        pc = *to as usize;
                    }
                }
                Inst::JumpUnless { op, a, b, to } => {
                    if !op.holds(regs[*a as usize], regs[*b as usize]) {
                        pc = *to as usize;
                    }
                }
                Inst::JumpUnlessImm { op, a, b, to } => {
                    if !op.holds(regs[*a as usize], *b) {
                        pc = *to as usize;
                    }
                }
                Inst::TraceCall { site } => {
                    if traced {
                        self.env.trace.event(TraceEvent::Call { site: *site });
                    }
                }
                Inst::TraceAssign { site, value, ty } => {
                    if traced {
                        let value = self.shown(&peek(*value, regs, vregs), ty);
                        self.env
                            .trace
                            .event(TraceEvent::Assign { site: *site, value });
                    }
                }
                Inst::TraceMatch { site, value, ty } => {
                    if traced {
                        let arm = self.shown(&peek(*value, regs, vregs), ty);
                        self.env.trace.event(TraceEvent::Match { site: *site, arm });
                    }
                }
                Inst::TraceBranch { site, cond } => {
                    if traced {
                        let taken = regs[*cond as usize] != 0;
                        self.env
                            .trace
                            .event(TraceEvent::Branch { site: *site, taken });
                    }
                }
                Inst::Return { value, ty, site } => {
                    if traced {
                        // A procedure falling off its end traces an empty value.
                        let value = match value {
                            Part::Unit => String::new(),
                            _ => self.shown(&peek(*value, regs, vregs), ty),
                        };
                        self.env
                            .trace
                            .event(TraceEvent::Return { site: *site, value });
                    }
                    return Ok(*value);
                }
                // The VM's own pairs (`fuse.rs`): each then goes on after its second.
                Inst::FieldArith {
                    op,
                    dst,
                    a,
                    rec,
                    field,
                    tmp,
                } => {
                    let v = field_scalar(&vregs[*rec as usize], *field);
                    regs[*tmp as usize] = v;
                    regs[*dst as usize] = op.apply(regs[*a as usize], v);
                    pc += 1;
                }
                Inst::StepJumpUnless { n, op, a, b, to } => {
                    self.charge(u64::from(*n), budget, traced)?;
                    pc = if op.holds(regs[*a as usize], regs[*b as usize]) {
                        pc + 1
                    } else {
                        *to as usize
                    };
                }
                Inst::StepJumpUnlessImm { n, op, a, b, to } => {
                    self.charge(u64::from(*n), budget, traced)?;
                    pc = if op.holds(regs[*a as usize], *b) {
                        pc + 1
                    } else {
                        *to as usize
                    };
                }
                Inst::StepJumpIfNot { n, cond, to } => {
                    self.charge(u64::from(*n), budget, traced)?;
                    pc = if regs[*cond as usize] == 0 {
                        *to as usize
                    } else {
                        pc + 1
                    };
                }
                Inst::StepRoll {
                    n,
                    total,
                    natural,
                    shape,
                    spec,
                    site,
                } => {
                    self.charge(u64::from(*n), budget, traced)?;
                    let r = rolls::by_shape(*shape, &mut self.env.dice, *spec, &mut NoTrace, *site);
                    regs[*total as usize] = r.total;
                    regs[*natural as usize] = r.natural;
                    pc += 1;
                }
                Inst::NextBoxPart {
                    bits,
                    dst,
                    track,
                    part_dst,
                    part,
                } => {
                    let b = next_box(&mut regs[*bits as usize], *track);
                    self.charge(weight(&b), budget, traced)?;
                    vregs[*dst as usize] = b;
                    let v = box_part(self.p, &vregs[*dst as usize], *part);
                    store(*part_dst, v, regs, vregs);
                    pc += 1;
                }
                Inst::StepSite { n, at } => {
                    self.charge(u64::from(*n), budget, traced)?;
                    budget = *at;
                    pc += 1;
                }
                Inst::StepReturn { n, value } => {
                    self.charge(u64::from(*n), budget, traced)?;
                    return Ok(*value);
                }
                Inst::MoveJumpIfNot { dst, src, to } => {
                    let v = regs[*src as usize];
                    regs[*dst as usize] = v;
                    pc = if v == 0 { *to as usize } else { pc + 1 };
                }
                Inst::MoveJumpIf { dst, src, to } => {
                    let v = regs[*src as usize];
                    regs[*dst as usize] = v;
                    pc = if v != 0 { *to as usize } else { pc + 1 };
                }
                Inst::Nth { dst, list, idx } => lists::nth(*dst, *list, *idx, regs, vregs),
                Inst::Order {
                    dst,
                    items,
                    keys,
                    n,
                    best,
                } => lists::order(*dst, (*items, *keys, *n), *best, vregs),
                Inst::LookupCell {
                    dst,
                    table,
                    key,
                    column,
                    site,
                } => self.cell((*dst, *table, *key, *column, *site), (regs, vregs), traced)?,
                Inst::MapOf { dst, map, key } => {
                    self.map_of((*dst, *map, *key), (regs, vregs), (budget, traced))?
                }
                Inst::TraceStep {
                    site,
                    line,
                    text,
                    shown,
                } => self.trace_step((*site, *line, text), shown, (regs, vregs), traced),
            }
        }
    }

    /// A rule error at `site`, recorded in the trace when the function is traced (a
    /// formula's by the procedure that called it, as generated code records it).
    /// Charges `n` steps known only as the run goes (a copy's weight, items compared,
    /// dice past a roll's first): past the budget, the run ends with the rule error at
    /// `site`.
    #[inline]
    fn charge(&mut self, n: u64, site: u32, traced: bool) -> Result<(), RuleError> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > MAX_STEPS {
            let kind = RuleErrorKind::TooManySteps { max: MAX_STEPS };
            return Err(self.fail(site, kind, traced));
        }
        Ok(())
    }

    /// `rolls::known` of `spec` (dice the run came to), traced at `site` when it is.
    #[inline]
    fn roll_known(&mut self, spec: rulesc_runtime::DiceSpec, site: u32, traced: bool) -> Roll {
        let env = &mut *self.env;
        if traced {
            rolls::known(&mut env.dice, spec, &mut env.trace, site)
        } else {
            rolls::known(&mut env.dice, spec, &mut NoTrace, site)
        }
    }

    /// How `v` of type `ty` reads in this run's trace (fighters and sides by name).
    fn shown(&self, v: &Value, ty: &Ty) -> String {
        show_traced_in(self.p, self.fight.as_deref(), v, ty)
    }

    /// A rule error at `site`, traced when the run is: off the hot path (a run ends with
    /// at most one).
    #[cold]
    #[inline(never)]
    fn fail(&mut self, site: u32, kind: RuleErrorKind, traced: bool) -> RuleError {
        let e = RuleError::new(site, kind);
        if traced {
            error::fail(&mut self.env.trace, e)
        } else {
            e
        }
    }
}
