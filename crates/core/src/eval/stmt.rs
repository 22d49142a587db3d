//! Statements: blocks, `let`, assignment to a place, `if`, `match`, loops, `return`, and
//! the fight's `schedule` and `advance`.

use super::Value;
use crate::ir::{self, AssignOp, PlaceStep};
use rulesc_runtime::{__private::arith, __private::error, Fight, RuleErrorKind};
use std::rc::Rc;

/// `old op= v` at a place: `=` stores `v`, `+=`/`-=` add to or take from a number, `+=`
/// appends to a list (a rule error past a list's room); at an `int(lo..hi)` field
/// (`range`) a number outside is a rule error and the field keeps its value. The one
/// statement of assignment's rule.
pub fn assign_value(
    op: AssignOp,
    old: &mut Value,
    v: Value,
    range: Option<(i64, i64)>,
    site: u32,
) -> Result<(), RuleErrorKind> {
    let new = match (op, &mut *old) {
        (AssignOp::Set, _) => v,
        (AssignOp::Add, Value::List(items)) => {
            let Value::List(more) = v else {
                unreachable!(
                    "`list += {v:?}`: the checker's `+=` on a list takes a list (`list += [x]`)"
                )
            };
            error::room(items.len(), more.len(), site).map_err(|e| e.kind)?;
            Rc::make_mut(items).extend(more.iter().cloned());
            return Ok(());
        }
        // `r += n` on a local roll is lowered on its registers (its total moved, its
        // natural face kept); no place reached through a path holds one.
        (AssignOp::Add | AssignOp::Sub, Value::Roll(_)) => unreachable!(
            "a roll at a place's path: no record field, map value or list item is a roll (a list of rolls holds their totals; E0311)"
        ),
        (AssignOp::Add, _) => Value::Int(arith::add(old.int(), v.int())),
        (AssignOp::Sub, _) => Value::Int(arith::sub(old.int(), v.int())),
    };
    if let Some((lo, hi)) = range {
        error::in_range(new.int(), lo, hi, site).map_err(|e| e.kind)?;
    }
    *old = new;
    Ok(())
}

/// Applies `f` to the value at `place` (keys already evaluated: one per step, fields
/// giving `Unit`, or none for a path of fields only) and returns the new value, or the
/// rule error of a list index outside its list.
pub fn update(
    locals: &mut [Value],
    fight: Option<&Fight<Value>>,
    place: &ir::Place,
    keys: &[Value],
    f: impl FnOnce(&mut Value) -> Result<(), RuleErrorKind>,
) -> Result<Value, RuleErrorKind> {
    fn go(
        v: &mut Value,
        steps: &[PlaceStep],
        keys: &[Value],
        f: impl FnOnce(&mut Value) -> Result<(), RuleErrorKind>,
    ) -> Result<Value, RuleErrorKind> {
        let Some((first, rest)) = steps.split_first() else {
            // Changed in place: appending to a list not shared costs the items appended.
            f(v)?;
            return Ok(v.clone());
        };
        match (first, v) {
            (PlaceStep::Field(i), Value::Record(r)) => {
                let mut r = r.borrow_mut();
                let n = r.len();
                match r.get_mut(*i) {
                    Some(slot) => go(slot, rest, keys.get(1..).unwrap_or_default(), f),
                    None => unreachable!(
                        "field {i} of a record of {n} fields: the checker numbers a field within its record type"
                    ),
                }
            }
            (PlaceStep::Key(_), Value::SortedMap(m)) => {
                let m = Rc::make_mut(m);
                go(
                    m.entry(&keys[0]),
                    rest,
                    keys.get(1..).unwrap_or_default(),
                    f,
                )
            }
            (PlaceStep::Key(_), Value::Map(m)) => {
                let k = keys[0].choice() as usize;
                let m = Rc::make_mut(m);
                let n = m.len();
                match m.get_mut(k) {
                    Some(slot) => go(slot, rest, keys.get(1..).unwrap_or_default(), f),
                    None => unreachable!(
                        "key {k} of a map of {n} entries: a map keyed by a scale or enum holds one per level or variant"
                    ),
                }
            }
            (PlaceStep::Index(_), Value::List(l)) => {
                let i = keys[0].int();
                let l = Rc::make_mut(l);
                let len = l.len();
                match usize::try_from(i).ok().and_then(|i| l.get_mut(i)) {
                    Some(slot) => go(slot, rest, keys.get(1..).unwrap_or_default(), f),
                    None => Err(RuleErrorKind::Index { index: i, len }),
                }
            }
            (step, v) => unreachable!(
                "{step:?} of {v:?}: the checker types each step of a place (a field of a record, a key of a map, an index of a list)"
            ),
        }
    }
    // A path under a fighter changes its combatant in the fight.
    if let (Value::Fighter(i), false) = (&locals[place.root], place.path.is_empty()) {
        let mut combatant = crate::fight::combatant(fight, i64::from(*i));
        return go(&mut combatant, &place.path, keys, f);
    }
    go(&mut locals[place.root], &place.path, keys, f)
}
