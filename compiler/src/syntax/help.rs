//! Hand-made help for the syntax errors writers make most, in their words instead of
//! the parser's: an unclosed bracket (reported at the bracket, not where the parser gave
//! up), `=` written for `==`, and a keyword used as a name.
//!
//! Each recogniser looks at the text and at what the parser expected where it stopped;
//! when none fits, the parser's own "expected ..., found ..." message stands.

use super::{Origin, Rule};
use crate::diag::Diagnostic;

/// The built-in functions a call may name (`min(a, b)`, `keys(m)`, `sum(..)`...): resolved
/// by `check::exprs::call`, offered by the language server, suggested for a misspelt call,
/// highlighted by the editor grammar (a test holds the grammar to this list).
pub const BUILTINS: &[&str] = &[
    "min", "max", "clamp", "abs", "len", "natural", "filled", "keys", "faces", "kept", "dropped",
    "sum", "count", "any", "all",
];

/// The words the DSL reserves (`keyword` in rules.pest).
pub const KEYWORDS: &[&str] = &[
    "outcome",
    "override",
    "formula",
    "procedure",
    "let",
    "if",
    "then",
    "else",
    "match",
    "for",
    "in",
    "return",
    "roll",
    "among",
    "decide",
    "from",
    "fill",
    "at",
    "and",
    "or",
    "not",
    "true",
    "false",
    "until",
    "after",
    "advance",
];

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The token at `pos` as a writer sees it: a word, a two-character operator, or one
/// character; empty at the end.
pub fn token_at(text: &str, pos: usize) -> &str {
    let rest = &text[pos.min(text.len())..];
    let Some(first) = rest.chars().next() else {
        return "";
    };
    if ident_char(first) {
        let end = rest.find(|c: char| !ident_char(c)).unwrap_or(rest.len());
        return &rest[..end];
    }
    for op in ["==", "!=", "<=", ">=", "+=", "-=", "=>", "->", ".."] {
        if rest.starts_with(op) {
            return &rest[..2];
        }
    }
    &rest[..first.len_utf8()]
}

/// A diagnostic for the mistake at `pos`, if it is one of those recognised.
pub fn hand_made(text: &str, pos: usize, expected: &[Rule], origin: Origin) -> Option<Diagnostic> {
    unbalanced(text, pos, origin)
        .or_else(|| assign_for_compare(text, pos, expected, origin))
        .or_else(|| keyword_as_name(text, pos, expected, origin))
}

fn closer_of(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// A bracket left open before the parser stopped, reported where it was opened; or a
/// closing bracket that closes nothing, where the parser stopped at it.
fn unbalanced(text: &str, pos: usize, origin: Origin) -> Option<Diagnostic> {
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let unclosed = loop {
        let Some((i, c)) = chars.next() else {
            // The end: the innermost bracket still open.
            break open.last().copied();
        };
        match c {
            '#' => while chars.next_if(|(_, c)| *c != '\n').is_some() {},
            '/' if text[i..].starts_with("//") => {
                while chars.next_if(|(_, c)| *c != '\n').is_some() {}
            }
            '(' | '[' | '{' => open.push((i, c)),
            ')' | ']' | '}' => match open.last() {
                Some(&(_, o)) if closer_of(o) == c => {
                    open.pop();
                }
                Some(&top) => break Some(top),
                None if i == pos => {
                    return Some(
                        Diagnostic::error(
                            "E0201",
                            origin.at(i, 1),
                            format!("syntax error: this `{c}` closes nothing"),
                        )
                        .label("no bracket is open here")
                        .help("remove it, or add the opening bracket it closes"),
                    );
                }
                None => return None,
            },
            _ => {}
        }
    };
    let (at, bracket) = unclosed?;
    if at >= pos {
        return None;
    }
    let close = closer_of(bracket);
    let token = token_at(text, pos);
    let (note, found) = if token.is_empty() {
        (
            "the text ends here".to_string(),
            "the end of the text".to_string(),
        )
    } else {
        (
            format!("expected `{close}` before this"),
            format!("`{token}`"),
        )
    };
    Some(
        Diagnostic::error(
            "E0201",
            origin.at(at, 1),
            format!("syntax error: this `{bracket}` is never closed"),
        )
        .label("opened here")
        .note(origin.at(pos, token.len()), note)
        .help(format!(
            "close it with `{close}`; the parser reached {found} while it was still open"
        )),
    )
}

/// `if location = Head`: a single `=` where an expression goes on.
fn assign_for_compare(
    text: &str,
    pos: usize,
    expected: &[Rule],
    origin: Origin,
) -> Option<Diagnostic> {
    if token_at(text, pos) != "=" {
        return None;
    }
    let in_expression = expected.iter().any(|r| {
        matches!(
            r,
            Rule::compare_op | Rule::add_op | Rule::mul_op | Rule::and_op | Rule::or_op
        )
    });
    if !in_expression {
        return None;
    }
    Some(
        Diagnostic::error(
            "E0201",
            origin.at(pos, 1),
            "syntax error: `=` does not compare; did you mean `==`?",
        )
        .label("did you mean `==`?")
        .help("compare with `==`; a single `=` gives a name its value (`let x = ...`)"),
    )
}

/// `procedure attack(from: int)`: a keyword where a name goes.
fn keyword_as_name(
    text: &str,
    pos: usize,
    expected: &[Rule],
    origin: Origin,
) -> Option<Diagnostic> {
    let word = token_at(text, pos);
    if !KEYWORDS.contains(&word) || !expected.contains(&Rule::ident) {
        return None;
    }
    Some(
        Diagnostic::error(
            "E0201",
            origin.at(pos, word.len()),
            format!("syntax error: `{word}` is a keyword, so it cannot be a name"),
        )
        .label("a keyword")
        .help(format!(
            "choose another name, such as `{word}_value`; the keywords are listed in docs/reference.md"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keywords_are_the_grammars() {
        let pest = include_str!("rules.pest");
        let rule = &pest[pest.find("keyword = @{").unwrap()..];
        let rule = &rule[..rule.find('}').unwrap()];
        let words: Vec<&str> = rule.split('"').skip(1).step_by(2).collect();
        assert_eq!(words, KEYWORDS);
    }

    #[test]
    fn tokens_are_words_operators_or_characters() {
        assert_eq!(token_at("from: int", 0), "from");
        assert_eq!(token_at("a == b", 2), "==");
        assert_eq!(token_at("a = b", 2), "=");
        assert_eq!(token_at("(x", 0), "(");
        assert_eq!(token_at("x", 1), "");
    }
}
