//! Lists walked item by item: aggregates (`sum`, `count`, `any`, ...), comprehensions,
//! `first`/`index_of`, the keys of `sort` and `min_by`/`max_by`, list literals' copies.

use super::Value;
use std::rc::Rc;

/// The elements of `sort` (`best` `None`), stably ordered by their keys, lowest first
/// (equal keys keep the list's order); or of `min_by` (`Some(false)`) / `max_by`
/// (`Some(true)`), the first element with the lowest (highest) keys, none for no element.
/// The VM orders by this.
pub fn ordered(mut keyed: Vec<(Vec<i64>, Value)>, best: Option<bool>) -> Value {
    let Some(max) = best else {
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        return Value::List(Rc::new(keyed.into_iter().map(|(_, v)| v).collect()));
    };
    let mut best: Option<(Vec<i64>, Value)> = None;
    for (k, v) in keyed {
        let better = match &best {
            None => true,
            Some((b, _)) if max => k > *b,
            Some((b, _)) => k < *b,
        };
        if better {
            best = Some((k, v));
        }
    }
    best.map_or(Value::None, |(_, v)| v)
}
