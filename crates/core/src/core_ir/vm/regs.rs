//! How values sit in the VM's registers: an argument bound, a result read, a value
//! stored, moved or copied between frames, and what a register of each kind holds.

use super::{Frame, FRAME};
use crate::core_ir::code::{IReg, Part};
use crate::eval::Value;
use rulesc_runtime::Roll;

/// An argument put into the registers of its parameter.
#[inline]
pub(super) fn bind(part: Part, v: Value, frame: &mut Frame) {
    let (ints, vals) = (&mut frame.ints, &mut frame.vals);
    // A value register holds any value: a record, a list, dice, an optional value (the
    // commonest argument, stored without a second look at it).
    if let Part::Val(r) = part {
        vals[r as usize] = v;
        return;
    }
    match (part, v) {
        (Part::Int(r), Value::Int(i)) => ints[usize::from(r)] = i,
        (Part::Bool(r), Value::Bool(b)) => ints[usize::from(r)] = i64::from(b),
        (Part::Level(r), Value::Choice(c)) => ints[usize::from(r)] = i64::from(c),
        (Part::Fighter(r), Value::Fighter(f)) => ints[usize::from(r)] = i64::from(f),
        (Part::Side(r), Value::Side(s)) => ints[usize::from(r)] = i64::from(s),
        (Part::Roll { total, natural }, Value::Roll(roll)) => {
            ints[usize::from(total)] = roll.total;
            ints[usize::from(natural)] = roll.natural;
        }
        (Part::Val(_), _) => unreachable!("stored above"),
        (part, v) => unreachable!(
            "an argument of the wrong kind ({v:?} for {part:?}): `eval::call`'s callers pass values of the parameters' types"
        ),
    }
}

/// The value held in `part`'s registers (a value register's taken).
#[inline]
pub(super) fn value(part: Part, ints: &[i64; FRAME], vals: &mut [Value]) -> Value {
    match part {
        Part::Val(r) => std::mem::replace(&mut vals[r as usize], Value::Unit),
        scalar => scalar_value(scalar, |r| ints[usize::from(r)]),
    }
}

/// The value of a part held in `i64` registers (or of nothing), each register read by
/// `int`.
#[inline]
pub(super) fn scalar_value(part: Part, int: impl Fn(IReg) -> i64) -> Value {
    match part {
        Part::Int(r) => Value::Int(int(r)),
        Part::Bool(r) => Value::Bool(int(r) != 0),
        Part::Level(r) => Value::Choice(level(int(r))),
        Part::Fighter(r) => {
            Value::Fighter(u32::try_from(int(r)).unwrap_or_else(|_| {
                unreachable!("a fighter register holds a fighter's number (u32)")
            }))
        }
        Part::Side(r) => Value::Side(
            u16::try_from(int(r))
                .unwrap_or_else(|_| unreachable!("a side register holds a side's number (u16)")),
        ),
        Part::Roll { total, natural } => Value::Roll(Roll {
            total: int(total),
            natural: int(natural),
        }),
        Part::Unit => Value::Unit,
        Part::Val(_) => unreachable!("a value register is read by the caller (`value`, `peek`)"),
    }
}

/// The value held in `part`'s registers, left there.
#[inline]
pub(super) fn peek(part: Part, ints: &[i64; FRAME], vals: &[Value]) -> Value {
    match part {
        Part::Val(r) => vals[r as usize].clone(),
        scalar => scalar_value(scalar, |r| ints[usize::from(r)]),
    }
}

/// A level's index, as its register holds it.
#[inline]
pub(super) fn level(i: i64) -> u16 {
    u16::try_from(i)
        .unwrap_or_else(|_| unreachable!("a level register holds a level's index (levels are u16)"))
}

/// `v` put into `part`'s registers (the value of a field, an entry, a row).
#[inline(always)]
pub(super) fn store(part: Part, v: Value, ints: &mut [i64; FRAME], vals: &mut [Value]) {
    match part {
        Part::Val(r) => vals[r as usize] = v,
        Part::Int(r) | Part::Bool(r) | Part::Level(r) | Part::Fighter(r) | Part::Side(r) => {
            ints[usize::from(r)] = scalar(&v);
        }
        Part::Roll { .. } | Part::Unit => unreachable!(
            "a stored value is a field, entry, item, row or answer: never a roll (a list of rolls holds their totals; E0311) nor nothing ({v:?})"
        ),
    }
}

/// Copies `from` (in `src`'s registers) into `to` (in `dst`'s): a call's argument or its
/// result. A value is moved when `take`.
#[inline]
pub(super) fn transfer(
    to: Part,
    from: Part,
    take: bool,
    (dst_i, dst_v): (&mut [i64; FRAME], &mut [Value]),
    (src_i, src_v): (&[i64; FRAME], &mut [Value]),
) {
    match (to, from) {
        (Part::Int(d), Part::Int(s))
        | (Part::Bool(d), Part::Bool(s))
        | (Part::Level(d), Part::Level(s))
        | (Part::Fighter(d), Part::Fighter(s))
        | (Part::Side(d), Part::Side(s)) => dst_i[usize::from(d)] = src_i[usize::from(s)],
        (
            Part::Roll { total, natural },
            Part::Roll {
                total: t,
                natural: n,
            },
        ) => {
            dst_i[usize::from(total)] = src_i[usize::from(t)];
            dst_i[usize::from(natural)] = src_i[usize::from(n)];
        }
        (Part::Val(d), Part::Val(s)) => dst_v[d as usize] = moved(src_v, s, take),
        (Part::Unit, _) | (_, Part::Unit) => {}
        (to, from) => unreachable!("lowering passes parts of one type ({from:?} into {to:?})"),
    }
}

/// The dice a dice register holds.
#[inline]
pub(super) fn dice_of(v: &Value) -> rulesc_runtime::DiceSpec {
    match v {
        Value::Dice(d) => *d,
        other => unreachable!("a dice register holds dice (lowering checks types), not {other:?}"),
    }
}

/// The items of a list register.
#[inline]
pub(super) fn list_of(v: &Value) -> &[Value] {
    match v {
        Value::List(items) => items,
        other => {
            unreachable!("a list register holds a list (lowering checks types), not {other:?}")
        }
    }
}

/// The value in register `r` of `vals`: moved out when `take` (a temporary), else
/// shared.
#[inline]
pub(super) fn moved(vals: &mut [Value], r: u32, take: bool) -> Value {
    if take {
        std::mem::replace(&mut vals[r as usize], Value::Unit)
    } else {
        vals[r as usize].clone()
    }
}

/// Int, truth or level field `field` of the record `rec`, as its register holds it.
#[inline(always)]
pub(super) fn field_scalar(rec: &Value, field: u32) -> i64 {
    let Value::Record(r) = rec else {
        unreachable!("a record register holds a record (lowering binds only records there)")
    };
    scalar(&r.borrow()[field as usize])
}

/// An int, truth or level field as its register holds it.
#[inline(always)]
pub(super) fn scalar(v: &Value) -> i64 {
    scalar_of(v).unwrap_or_else(|| {
        unreachable!("lowering reads only int, bool and level fields into registers, not {v:?}")
    })
}

/// An int, truth or level as an `i64` register holds it (`None`: a value with parts).
#[inline(always)]
pub(in crate::core_ir) fn scalar_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(i64::from(*b)),
        Value::Choice(c) => Some(i64::from(*c)),
        Value::Fighter(f) => Some(i64::from(*f)),
        Value::Side(x) => Some(i64::from(*x)),
        _ => None,
    }
}
