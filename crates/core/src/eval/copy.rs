//! What copying a value costs and makes: its [`weight`] (the steps a copy takes) and
//! [`privatize`], which makes an owned value share nothing mutable as
//! [`Value::deep_clone`] would, copying only the parts held elsewhere.

use super::Value;
use std::rc::Rc;

/// How many values `v` holds (itself included): what copying it costs.
#[inline]
pub fn weight(v: &Value) -> u64 {
    match v {
        Value::List(_)
        | Value::Map(_)
        | Value::SortedMap(_)
        | Value::Record(_)
        | Value::Outcome { .. } => weight_holding(v),
        _ => 1,
    }
}

/// [`weight`] of a value that may hold others.
fn weight_holding(v: &Value) -> u64 {
    /// One for the value holding `items`, and theirs.
    fn holding(items: &[Value]) -> u64 {
        items.iter().fold(1u64, |n, i| n.saturating_add(weight(i)))
    }
    match v {
        Value::List(items) | Value::Map(items) => holding(items),
        Value::Record(fields) => holding(&fields.borrow()),
        Value::Outcome { fields, .. } => holding(fields),
        // Its keys and values (a record key holds its fields).
        Value::SortedMap(m) => m.iter().fold(1u64, |n, (k, v)| {
            n.saturating_add(weight(k)).saturating_add(weight(v))
        }),
        _ => 1,
    }
}

/// Makes owned `v` share nothing mutable, as [`Value::deep_clone`] would: a record, list
/// or map that only `v` holds is kept (nothing else can see it change) and its parts made
/// private in turn; one held elsewhere too is copied whole. A value just made (a new
/// record, a list literal, a call's result) is then kept as it is, with no allocation.
pub fn privatize(v: &mut Value) {
    let kept = match v {
        Value::Record(r) => Rc::get_mut(r).map(|r| r.get_mut().iter_mut().for_each(privatize)),
        Value::List(items) | Value::Map(items) => {
            Rc::get_mut(items).map(|items| items.iter_mut().for_each(privatize))
        }
        Value::SortedMap(m) => Rc::get_mut(m)
            .filter(|m| m.entries.keys().all(|k| private(&k.0)))
            .map(|m| {
                m.entries.values_mut().for_each(privatize);
                privatize(&mut m.zero);
            }),
        // What `deep_clone` shares, shared.
        _ => Some(()),
    };
    if kept.is_none() {
        *v = v.deep_clone();
    }
}

/// No record, list or map inside `v` is held anywhere else.
fn private(v: &Value) -> bool {
    match v {
        Value::Record(r) => Rc::strong_count(r) == 1 && r.borrow().iter().all(private),
        Value::List(items) | Value::Map(items) => {
            Rc::strong_count(items) == 1 && items.iter().all(private)
        }
        Value::SortedMap(m) => {
            Rc::strong_count(m) == 1
                && m.iter().all(|(k, v)| private(k) && private(v))
                && private(&m.zero)
        }
        _ => true,
    }
}
