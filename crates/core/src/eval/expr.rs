//! The rules of expressions the VM reads values by: a record's field, a box's part, a
//! roll's faces, a track's filled boxes, a map's entry, a list searched, a sorted map
//! read and its keys. Each is the one rule, for every run of the interpreter.

use super::Value;
use crate::ir::{self, BoxPart, FacesPart, Ty};
use std::rc::Rc;

thread_local! {
    /// The fields of an outcome tag that has none.
    pub static NO_FIELDS: Rc<[Value]> = Rc::new([]);
}

/// Field `i` of a record.
#[inline]
pub fn field_of(v: &Value, i: usize) -> Value {
    let Value::Record(r) = v else {
        unreachable!("`.field` of a value that is no record, {v:?}: the checker reads fields only of records")
    };
    let fields = r.borrow();
    let Some(f) = fields.get(i) else {
        unreachable!("field {i} of a record of {} fields: the checker numbers a field within its record type", fields.len())
    };
    f.clone()
}

/// `box.number`, `box.level` or `box.attr` of the track box `b`.
pub fn box_part(prog: &ir::Program, b: &Value, part: BoxPart) -> Value {
    let Value::TrackBox { track, number } = b else {
        unreachable!("a box's part of {b:?}: the checker reads parts only of a track's boxes")
    };
    let def = &prog.tracks[*track];
    // Boxes are numbered from 1 (`filled` makes them from the track's own boxes).
    let Some(bx) = usize::from(*number)
        .checked_sub(1)
        .and_then(|i| def.boxes.get(i))
    else {
        unreachable!(
            "box {number} of a track of {} boxes: `filled` gives only the track's own boxes",
            def.boxes.len()
        )
    };
    match part {
        BoxPart::Number => Value::Int(i64::from(*number)),
        BoxPart::Level => Value::Choice(bx.level),
        BoxPart::Attr(a) => match bx.attrs.get(a) {
            Some(x) => Value::Int(*x),
            None => unreachable!(
                "attribute {a} of a box with {}: the checker resolves `box.attr` to one every box of the track declares",
                bx.attrs.len()
            ),
        },
    }
}

/// `faces(r)`, `kept(r)` or `dropped(r)` of the faces `v` a roll left.
pub fn faces_of(v: &Value, part: FacesPart) -> Value {
    let Value::Faces(f) = v else {
        unreachable!("`faces` of {v:?}: the checker takes faces only of a local roll, whose faces its hidden local holds")
    };
    let dice = match part {
        FacesPart::All => f.all(),
        FacesPart::Kept => f.kept(),
        FacesPart::Dropped => f.dropped(),
    };
    Value::List(Rc::new(dice.into_iter().map(Value::Int).collect()))
}

/// `filled(track)`: the filled boxes of the track `v` of type `ty`, in order.
pub fn filled(prog: &ir::Program, v: &Value, ty: &Ty) -> Value {
    let (Value::Track(track), Ty::Track(tid)) = (v, ty) else {
        unreachable!("`filled` of {v:?} ({ty:?}): the checker takes `filled` only of a track")
    };
    let n = prog.tracks[*tid].boxes.len();
    let boxes = track
        .boxes()
        .filter(|&b| b <= n)
        .map(|b| Value::TrackBox {
            track: *tid,
            number: b as u16,
        })
        .collect();
    Value::List(Rc::new(boxes))
}

/// Entry `k` of a map keyed by a scale or enum (every key has one).
pub fn map_entry(m: &Value, k: u16) -> Value {
    let Value::Map(items) = m else {
        unreachable!(
            "`map[key]` by level of {m:?}: the checker reads so only maps keyed by a scale or enum"
        )
    };
    match items.get(usize::from(k)) {
        Some(v) => v.clone(),
        None => unreachable!(
            "entry {k} of a map of {} entries: such a map holds one per level or variant, and a level register holds one of them",
            items.len()
        ),
    }
}

/// `x in items`: whether `items` holds `x`, and how many items were compared, the steps
/// it costs (a long list costs its length, as walking it would).
pub fn scan(items: &[Value], x: &Value) -> (bool, u64) {
    scan_by(items, |i| values_equal(i, x))
}

/// Whether an item of `items` is the one sought, and the steps the search takes: one
/// per item compared (`x in list`'s rule, for a list of values or of numbers alike).
#[inline]
pub fn scan_by<T>(items: &[T], hit: impl Fn(&T) -> bool) -> (bool, u64) {
    match items.iter().position(hit) {
        Some(at) => (true, at as u64 + 1),
        None => (false, items.len() as u64),
    }
}

pub(super) fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Record(x), Value::Record(y)) => Rc::ptr_eq(x, y) || *x.borrow() == *y.borrow(),
        (Value::Roll(_) | Value::Int(_), Value::Roll(_) | Value::Int(_)) => a.int() == b.int(),
        (Value::Choice(x), Value::Choice(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;

/// `map[key]` of a sorted map: a key not held reads the zero. A copy (it may be changed in
/// place), paid for by the values it holds past the first, as a copy is: the value and
/// its steps (the one rule).
pub fn sorted_get(m: &super::SortedMap, k: &Value) -> (Value, u64) {
    let v = m.get(k);
    (v.deep_clone(), super::weight(v) - 1)
}

/// `keys(map)`, ascending, and its steps: one per value of the keys listed (a record key
/// one per field too); every level or variant of a map keyed by a scale or enum.
pub fn keys_of(m: &Value) -> (Value, u64) {
    match m {
        Value::Map(items) => (
            Value::List(Rc::new(
                (0..items.len()).map(|i| Value::Choice(i as u16)).collect(),
            )),
            items.len() as u64,
        ),
        Value::SortedMap(m) => {
            let n = m
                .iter()
                .fold(0u64, |n, (k, _)| n.saturating_add(super::weight(k)));
            let keys = m.iter().map(|(k, _)| k.deep_clone()).collect();
            (Value::List(Rc::new(keys)), n)
        }
        other => unreachable!("`keys` of {other:?}: the checker takes `keys` only of a map"),
    }
}
