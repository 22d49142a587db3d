//! How the rules language prints values in traces, for the shapes that have no
//! `Display` of their own. The interpreter (`eval::show`) and generated code print alike.

use alloc::format;
use alloc::string::String;
use core::fmt::{self, Write as _};

/// `[a, b, c]`: a list, or the filled boxes of a track.
pub fn list<I>(items: I) -> String
where
    I: IntoIterator,
    I::Item: fmt::Display,
{
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{item}");
    }
    out.push(']');
    out
}

/// `{key: value, ...}`: a map, every key in variant order.
pub fn map<I, K, V>(entries: I) -> String
where
    I: IntoIterator<Item = (K, V)>,
    K: fmt::Display,
    V: fmt::Display,
{
    let mut out = String::from("{");
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{k}: {v}");
    }
    out.push('}');
    out
}

/// `box 7`: one box of a track.
pub fn track_box(number: impl fmt::Display) -> String {
    format!("box {number}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn shapes() {
        assert_eq!(super::list([1, 7]), "[1, 7]");
        assert_eq!(super::list(alloc::vec::Vec::<i64>::new()), "[]");
        assert_eq!(
            super::map([("Cutting", -1), ("Piercing", 0)]),
            "{Cutting: -1, Piercing: 0}"
        );
        assert_eq!(super::track_box(3), "box 3");
    }
}
