//! The VM: runs a lowered function ([`super::Func`]) over typed registers. Each
//! instruction does what its doc in [`super::code`] says and nothing else: the rules
//! (steps, trace points, the order of effects) were placed by lowering. The host's dice,
//! decisions and trace are reached through the generic `Env`, not a trait object.

use super::code::{Func, Inst, Part};
use crate::eval::{show_traced_in, Value, MAX_STEPS};
use crate::ir::{CmpOp, IntOp, Program, Ty};
use rulesc_runtime::{
    arith, error, rolls, Decide, DiceSource, Env, NoTrace, Roll, RuleError, RuleErrorKind,
    TraceEvent, TraceSink,
};
use std::rc::Rc;

thread_local! {
    /// Register files kept for the next run on this thread: steady runs allocate none.
    static REGISTERS: std::cell::Cell<(Vec<i64>, Vec<Value>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
    /// One empty field list for every outcome tag without fields (never changed).
    static NO_FIELDS: Rc<[Value]> = Rc::new([]);
}

/// Runs `f` (function `id` of `p`) with `args`, one per parameter, as `eval::call` does.
pub(crate) fn run<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    f: &Func,
    env: &mut Env<D, X, T>,
    args: impl IntoIterator<Item = Value>,
    may_stop: bool,
) -> Result<Value, RuleError> {
    run_counted(p, f, env, args, may_stop).0
}

/// [`run`], also giving the steps the run took.
pub(crate) fn run_counted<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    f: &Func,
    env: &mut Env<D, X, T>,
    args: impl IntoIterator<Item = Value>,
    may_stop: bool,
) -> (Result<Value, RuleError>, u64) {
    let (mut ints, mut vals) = REGISTERS.with(|r| r.take());
    ints.clear();
    ints.resize(f.ints as usize, 0);
    vals.clear();
    vals.resize_with(f.vals as usize, || Value::Unit);
    for (part, v) in f.params.iter().zip(args) {
        bind(*part, v, &mut ints, &mut vals);
    }
    let mut vm = Vm {
        p,
        f,
        env,
        ints: &mut ints,
        vals: &mut vals,
        steps: 0,
        may_stop,
    };
    let result = vm.run();
    let steps = vm.steps;
    vals.clear();
    REGISTERS.with(|r| r.set((ints, vals)));
    (result, steps)
}

/// An argument put into the registers of its parameter.
fn bind(part: Part, v: Value, ints: &mut [i64], vals: &mut [Value]) {
    match (part, v) {
        (Part::Int(r), Value::Int(i)) => ints[r as usize] = i,
        (Part::Bool(r), Value::Bool(b)) => ints[r as usize] = i64::from(b),
        (Part::Level(r), Value::Choice(c)) => ints[r as usize] = i64::from(c),
        (Part::Roll { total, natural }, Value::Roll(roll)) => {
            ints[total as usize] = roll.total;
            ints[natural as usize] = roll.natural;
        }
        (Part::Val(r), v @ Value::Record(_)) => vals[r as usize] = v,
        (part, v) => unreachable!(
            "an argument of the wrong kind ({v:?} for {part:?}): `eval::call`'s callers pass values of the parameters' types"
        ),
    }
}

struct Vm<'a, D, X, T> {
    p: &'a Program,
    f: &'a Func,
    env: &'a mut Env<D, X, T>,
    ints: &'a mut [i64],
    vals: &'a mut [Value],
    steps: u64,
    may_stop: bool,
}

impl<D: DiceSource, X: Decide, T: TraceSink> Vm<'_, D, X, T> {
    fn run(&mut self) -> Result<Value, RuleError> {
        let code = &self.f.code;
        let mut pc = 0usize;
        loop {
            let inst = &code[pc];
            pc += 1;
            match inst {
                Inst::Step(n) => {
                    self.steps += u64::from(*n);
                    if self.steps > MAX_STEPS {
                        return Err(self.fail(RuleErrorKind::TooManySteps { max: MAX_STEPS }));
                    }
                }
                Inst::Stop => {
                    if self.may_stop && self.env.dice.stopped() {
                        return Ok(Value::Unit);
                    }
                }
                Inst::Const { dst, value } => self.ints[*dst as usize] = *value,
                Inst::Move { dst, src } => self.ints[*dst as usize] = self.ints[*src as usize],
                Inst::Field { dst, rec, field } => {
                    let Value::Record(r) = &self.vals[*rec as usize] else {
                        unreachable!(
                            "a record register holds a record (lowering binds only records there)"
                        )
                    };
                    self.ints[*dst as usize] = scalar(&r.borrow()[*field as usize]);
                }
                Inst::Neg { dst, a } => {
                    self.ints[*dst as usize] = arith::neg(self.ints[*a as usize])
                }
                Inst::Not { dst, a } => {
                    self.ints[*dst as usize] = i64::from(self.ints[*a as usize] == 0)
                }
                Inst::Arith { op, dst, a, b } => {
                    let (a, b) = (self.ints[*a as usize], self.ints[*b as usize]);
                    self.ints[*dst as usize] = match op {
                        IntOp::Add => arith::add(a, b),
                        IntOp::Sub => arith::sub(a, b),
                        IntOp::Mul => arith::mul(a, b),
                        IntOp::Div => arith::div(a, b),
                        IntOp::Rem => arith::rem(a, b),
                    };
                }
                Inst::Pick { max, dst, a, b } => {
                    let (a, b) = (self.ints[*a as usize], self.ints[*b as usize]);
                    self.ints[*dst as usize] = if *max { a.max(b) } else { a.min(b) };
                }
                Inst::Clamp { dst, x, lo, hi } => {
                    let r = |i: &u32| self.ints[*i as usize];
                    self.ints[*dst as usize] = arith::clamp(r(x), r(lo), r(hi));
                }
                Inst::Abs { dst, a } => {
                    self.ints[*dst as usize] = self.ints[*a as usize].saturating_abs()
                }
                Inst::LevelStep {
                    dst,
                    level,
                    delta,
                    negate,
                    len,
                } => {
                    let d = self.ints[*delta as usize];
                    let d = if *negate { arith::neg(d) } else { d };
                    let l = self.ints[*level as usize].clamp(0, i64::from(u8::MAX)) as u8;
                    self.ints[*dst as usize] = i64::from(arith::step_level(l, d, *len));
                }
                Inst::Decide {
                    dst,
                    name,
                    options,
                    ty,
                    site,
                } => {
                    let i = self
                        .env
                        .decide
                        .decide(name, *options)
                        .min(options.saturating_sub(1));
                    self.ints[*dst as usize] = i64::from(i);
                    if T::ENABLED {
                        let v = match **ty {
                            Ty::Bool => Value::Bool(i == 1),
                            _ => Value::Choice(i as u16),
                        };
                        let choice = show_traced_in(self.p, None, &v, ty);
                        self.env.trace.event(TraceEvent::Decide {
                            site: *site,
                            choice,
                        });
                    }
                }
                Inst::Compare { op, dst, a, b } => {
                    let (a, b) = (self.ints[*a as usize], self.ints[*b as usize]);
                    self.ints[*dst as usize] = i64::from(match op {
                        CmpOp::Eq => a == b,
                        CmpOp::Ne => a != b,
                        CmpOp::Lt => a < b,
                        CmpOp::Le => a <= b,
                        CmpOp::Gt => a > b,
                        CmpOp::Ge => a >= b,
                    });
                }
                Inst::Roll {
                    total,
                    natural,
                    spec,
                    site,
                } => {
                    let env = &mut *self.env;
                    let r = if T::ENABLED {
                        rolls::known(&mut env.dice, *spec, &mut env.trace, *site)
                    } else {
                        rolls::known(&mut env.dice, *spec, &mut NoTrace, *site)
                    };
                    self.ints[*total as usize] = r.total;
                    self.ints[*natural as usize] = r.natural;
                }
                Inst::Outcome { dst, tag, fields } => {
                    let fields = if fields.is_empty() {
                        NO_FIELDS.with(Rc::clone)
                    } else {
                        fields.iter().map(|part| self.value(*part)).collect()
                    };
                    self.vals[*dst as usize] = Value::Outcome { tag: *tag, fields };
                }
                Inst::Jump(to) => pc = *to as usize,
                Inst::JumpIfNot { cond, to } => {
                    if self.ints[*cond as usize] == 0 {
                        pc = *to as usize;
                    }
                }
                Inst::JumpIf { cond, to } => {
                    if self.ints[*cond as usize] != 0 {
                        pc = *to as usize;
                    }
                }
                Inst::TraceCall { site } => {
                    if T::ENABLED {
                        self.env.trace.event(TraceEvent::Call { site: *site });
                    }
                }
                Inst::TraceAssign { site, value, ty } => {
                    if T::ENABLED {
                        let value = self.shown(*value, ty);
                        self.env
                            .trace
                            .event(TraceEvent::Assign { site: *site, value });
                    }
                }
                Inst::TraceBranch { site, cond } => {
                    if T::ENABLED {
                        let taken = self.ints[*cond as usize] != 0;
                        self.env
                            .trace
                            .event(TraceEvent::Branch { site: *site, taken });
                    }
                }
                Inst::Return { value, ty, site } => {
                    let v = self.value(*value);
                    if T::ENABLED {
                        // A procedure falling off its end traces an empty value.
                        let value = match value {
                            Part::Unit => String::new(),
                            _ => show_traced_in(self.p, None, &v, ty),
                        };
                        self.env
                            .trace
                            .event(TraceEvent::Return { site: *site, value });
                    }
                    return Ok(v);
                }
            }
        }
    }

    /// A rule error at the function's site, recorded in the trace as `Interpreter::fail`
    /// records it.
    fn fail(&mut self, kind: RuleErrorKind) -> RuleError {
        let e = RuleError::new(self.f.site, kind);
        if T::ENABLED {
            error::fail(&mut self.env.trace, e)
        } else {
            e
        }
    }

    /// The value held in `part`'s registers.
    fn value(&self, part: Part) -> Value {
        let int = |r: u32| self.ints[r as usize];
        match part {
            Part::Int(r) => Value::Int(int(r)),
            Part::Bool(r) => Value::Bool(int(r) != 0),
            Part::Level(r) => Value::Choice(u16::try_from(int(r)).unwrap_or_else(|_| {
                unreachable!("a level register holds a level's index (levels are u16)")
            })),
            Part::Roll { total, natural } => Value::Roll(Roll {
                total: int(total),
                natural: int(natural),
            }),
            Part::Val(r) => self.vals[r as usize].clone(),
            Part::Unit => Value::Unit,
        }
    }

    /// How `part` reads in a trace event.
    fn shown(&self, part: Part, ty: &Ty) -> String {
        show_traced_in(self.p, None, &self.value(part), ty)
    }
}

/// An int, truth or level field as its register holds it.
fn scalar(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::Bool(b) => i64::from(*b),
        Value::Choice(c) => i64::from(*c),
        other => unreachable!(
            "lowering reads only int, bool and level fields into registers, not {other:?}"
        ),
    }
}
