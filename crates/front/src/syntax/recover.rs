//! Recovery from syntax errors in a `.rules` file, so one run reports every problem.
//!
//! A file that parses whole is parsed once. One that does not is cut at the start of
//! each top-level definition (a line that begins, unindented, with `outcome`,
//! `override`, `formula`, `procedure` or `fight`), and each piece is parsed alone: a
//! piece that parses gives its items as usual, a broken one gives its syntax error (one
//! `E0201` per broken definition, at most [`MAX_SYNTAX_ERRORS`] per file) and the names
//! it would have defined, read from its text. Those names are *lost*: the checker runs on
//! everything else, and a problem reported exactly at a use of a lost name is a cascade
//! of the syntax error, not a second problem (see [`crate::check_dir`]).

use super::ast::{Ident, Item};
use super::{parse_file, Origin, MAX_RULES_BYTES};
use crate::diag::Diagnostics;

/// Most syntax errors reported for one file; later broken definitions are still skipped
/// (and their names lost), silently.
pub const MAX_SYNTAX_ERRORS: usize = 32;

/// A `.rules` file parsed with recovery.
#[derive(Debug, Default)]
pub struct Parsed {
    pub items: Vec<Item>,
    /// The names broken definitions would have defined (a function, an outcome type and
    /// its tags), at their place in the text.
    pub lost: Vec<Ident>,
    /// Errors this parse reported that the checker can run past: every error, unless
    /// `whole` is set.
    pub errors: usize,
    /// The whole file was refused (too large): nothing of it is known, so checking the
    /// ruleset would only cascade.
    pub whole: bool,
}

/// The words that open a top-level definition.
const OPENERS: &[&str] = &["outcome", "override", "formula", "procedure", "fight"];

/// Parses a whole `.rules` file, recovering at each top-level definition.
pub fn parse_file_recovering(text: &str, origin: Origin, diags: &mut Diagnostics) -> Parsed {
    let mut first = Diagnostics::default();
    let items = parse_file(text, origin, &mut first);
    let errors = first.error_count();
    if errors == 0 || text.len() > MAX_RULES_BYTES || origin.fixed.is_some() {
        let whole = errors > 0 && text.len() > MAX_RULES_BYTES;
        diags.extend(first);
        return Parsed {
            items,
            lost: Vec::new(),
            errors,
            whole,
        };
    }
    let mut out = Parsed::default();
    let mut bounds = starts(text);
    if bounds.first() != Some(&0) {
        bounds.insert(0, 0);
    }
    bounds.push(text.len());
    let mut reported = 0;
    for w in bounds.windows(2) {
        let (a, b) = (w[0], w[1]);
        let piece = &text[a..b];
        let at = Origin {
            base: origin.base + a,
            ..origin
        };
        let mut own = Diagnostics::default();
        let got = parse_file(piece, at, &mut own);
        if own.has_errors() {
            let names = names(piece, at);
            // Names the piece still defined (an error past its parse, such as an empty
            // range, may leave its item standing) are not lost.
            let defined: Vec<&str> = got.iter().filter_map(item_name).collect();
            out.lost.extend(
                names
                    .into_iter()
                    .filter(|n| !defined.contains(&n.name.as_str())),
            );
            if reported < MAX_SYNTAX_ERRORS {
                reported += 1;
                out.errors += own.error_count();
                if b < text.len() {
                    // The piece's end is the next definition's start, not the file's end.
                    let next = super::help::token_at(text, b);
                    for d in &mut own.items {
                        d.message = d
                            .message
                            .replace("found the end", &format!("found `{next}`"));
                    }
                }
                diags.extend(own);
            }
        } else {
            diags.extend(own);
        }
        out.items.extend(got);
    }
    out
}

fn item_name(item: &Item) -> Option<&str> {
    match item {
        Item::Outcome { name, .. } | Item::Function { name, .. } => Some(&name.name),
        _ => None,
    }
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Byte offsets of the lines that open a top-level definition.
fn starts(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let word = line
            .as_bytes()
            .iter()
            .position(|&c| !ident_char(c))
            .map_or(line, |e| &line[..e]);
        if OPENERS.contains(&word) {
            out.push(at);
        }
        at += line.len();
    }
    out
}

/// The names a definition's text declares, read without the parser: the word after
/// `formula`, `procedure` or `outcome`, and for an outcome the tags in its braces (the
/// words inside its braces, outside parentheses and labels).
fn names(piece: &str, origin: Origin) -> Vec<Ident> {
    let bytes = piece.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    // Every word outside comments and labels, with its depth in `{` and `(`.
    let (mut braces, mut parens) = (0usize, 0usize);
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'#' || (c == b'/' && bytes.get(i + 1) == Some(&b'/')) {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        match c {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => braces += 1,
            b'}' => braces = braces.saturating_sub(1),
            b'(' => parens += 1,
            b')' => parens = parens.saturating_sub(1),
            _ if ident_char(c) && !c.is_ascii_digit() => {
                let start = i;
                while i < bytes.len() && ident_char(bytes[i]) {
                    i += 1;
                }
                words.push((start, &piece[start..i], braces, parens));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let ident = |&(start, w, ..): &(usize, &str, usize, usize)| Ident {
        name: w.to_string(),
        span: origin.at(start, w.len()),
    };
    let mut it = words.iter().skip_while(|w| w.1 == "override");
    let Some(&(_, kind, ..)) = it.next() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match kind {
        "formula" | "procedure" => out.extend(it.next().map(ident)),
        "outcome" => {
            out.extend(it.next().map(ident));
            out.extend(it.filter(|w| w.2 >= 1 && w.3 == 0).map(ident));
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin {
            file: 0,
            base: 0,
            fixed: None,
        }
    }

    fn lost(text: &str) -> (Vec<String>, Vec<String>, usize) {
        let mut d = Diagnostics::default();
        let p = parse_file_recovering(text, origin(), &mut d);
        let names = |v: Vec<&str>| v.into_iter().map(str::to_string).collect();
        (
            names(p.items.iter().filter_map(item_name).collect()),
            p.lost.iter().map(|n| n.name.clone()).collect(),
            d.items.iter().filter(|d| d.code == "E0201").count(),
        )
    }

    #[test]
    fn each_broken_definition_is_one_error_and_the_others_parse() {
        let text = "// head\nformula a() = 1\nprocedure b() {\n  if x = 2 { return }\n}\n\
                    formula c() = 1 +\noutcome R { Hit(level: int), Miss: \"no\" }\nformula d() = 2\n";
        let (items, lost, errors) = lost(text);
        assert_eq!(items, ["a", "R", "d"]);
        assert_eq!(lost, ["b", "c"]);
        assert_eq!(errors, 2);
    }

    #[test]
    fn a_broken_outcome_loses_its_tags_but_not_their_fields() {
        let text = "outcome R { Hit(level: int) Miss: \"a, b\" }\nformula f() = 1\n";
        let (items, lost, errors) = lost(text);
        assert_eq!((items, errors), (vec!["f".to_string()], 1));
        assert_eq!(lost, ["R", "Hit", "Miss"]);
    }

    #[test]
    fn syntax_errors_are_capped_per_file() {
        let text: String = (0..MAX_SYNTAX_ERRORS + 5)
            .map(|i| format!("formula f{i}() = (\n"))
            .collect();
        let (_, lost, errors) = lost(&text);
        assert_eq!(errors, MAX_SYNTAX_ERRORS);
        assert_eq!(lost.len(), MAX_SYNTAX_ERRORS + 5);
    }

    #[test]
    fn spans_point_into_the_file() {
        let text = "formula a() = 1\nformula b() = = 2\n";
        let mut d = Diagnostics::default();
        let p = parse_file_recovering(text, origin(), &mut d);
        assert_eq!(d.items.len(), 1);
        let at = d.items[0].span.start as usize;
        assert_eq!(&text[at..at + 1], "=");
        assert!(at > text.find('\n').unwrap());
        assert_eq!(p.lost[0].span.start as usize, text.find("b()").unwrap());
    }
}
