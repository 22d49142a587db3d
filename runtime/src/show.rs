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

/// Most bytes of one value shown in a trace; a longer one is cut there (at a character
/// boundary) and ends with `…`. Both backends cut alike, so traces stay equal; a large
/// list is never reprinted whole at every step.
pub const MAX_SHOWN: usize = 1024;

/// `text` as a trace shows it: cut after [`MAX_SHOWN`] bytes.
pub fn cut(mut text: String) -> String {
    if text.len() > MAX_SHOWN {
        let mut end = MAX_SHOWN;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
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

    #[test]
    fn long_values_are_cut_at_a_character_boundary() {
        use alloc::string::String;
        let short = String::from("x").repeat(super::MAX_SHOWN);
        assert_eq!(super::cut(short.clone()), short);
        let long = super::cut(String::from("é").repeat(super::MAX_SHOWN));
        assert_eq!(long, String::from("é").repeat(super::MAX_SHOWN / 2) + "…");
        let odd = super::cut(String::from("x") + &String::from("é").repeat(super::MAX_SHOWN));
        assert_eq!(odd.len(), super::MAX_SHOWN - 1 + "…".len());
    }
}
