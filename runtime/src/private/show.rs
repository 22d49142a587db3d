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

/// Most bytes of a rule's source text a trace line cites (the first line of the
/// statement or expression); a longer one is cut as a value is, with `…`.
pub const MAX_CITED: usize = 100;

/// `text` as a trace shows it: cut after [`MAX_SHOWN`] bytes.
pub fn cut(text: String) -> String {
    cut_to(text, MAX_SHOWN)
}

/// `text` cut after `max` bytes, at a character boundary (never inside one), and
/// ended with `…` to say so; text of at most `max` bytes is left whole. Every cut a
/// trace shows (values, the rules' source text) is made here.
pub fn cut_to(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
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

    #[test]
    fn a_cut_is_one_byte_past_the_limit_and_never_splits_a_character() {
        use super::cut_to;
        use alloc::string::String;
        // At the limit: whole. One byte over: cut there, with `…`.
        assert_eq!(cut_to(String::from("abcde"), 5), "abcde");
        assert_eq!(cut_to(String::from("abcdef"), 5), "abcde…");
        // `é` is two bytes: a limit inside it cuts before it.
        assert_eq!(cut_to(String::from("abcdé"), 5), "abcd…");
        assert_eq!(cut_to(String::from("abcdé"), 6), "abcdé");
        // A four-byte character across the limit, at every offset.
        for max in 1..4 {
            assert_eq!(cut_to(String::from("🎲x"), max), "…");
        }
        assert_eq!(cut_to(String::from("🎲x"), 4), "🎲…");
        assert_eq!(cut_to(String::new(), 0), "");
    }
}
