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
    "min", "max", "clamp", "abs", "div_up", "len", "natural", "filled", "keys", "faces", "kept",
    "dropped", "sum", "count", "any", "all",
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
        .or_else(|| chained_compare(text, pos, expected, origin))
        .or_else(|| bare_return(text, pos, origin))
}

const COMPARISONS: &[&str] = &["<", ">", "<=", ">=", "==", "!="];

/// `1 < x < 3`: a second comparison where none may follow the first.
fn chained_compare(
    text: &str,
    pos: usize,
    expected: &[Rule],
    origin: Origin,
) -> Option<Diagnostic> {
    let op = token_at(text, pos);
    if !COMPARISONS.contains(&op) || expected.contains(&Rule::compare_op) {
        return None;
    }
    Some(
        Diagnostic::error(
            "E0201",
            origin.at(pos, op.len()),
            "syntax error: comparisons do not chain",
        )
        .label("a second comparison")
        .help(format!(
            "compare twice and join with `and`: `a < b and b {op} c`"
        )),
    )
}

/// `Miss => return` on a line of its own, then the next arm: the bare `return` took the
/// next arm's pattern as its value, and the parser stopped at that arm's `=>`.
fn bare_return(text: &str, pos: usize, origin: Origin) -> Option<Diagnostic> {
    if token_at(text, pos) != "=>" {
        return None;
    }
    let line_start = text[..pos].rfind('\n')?;
    let before = text[..line_start].trim_end();
    // (`ends_with` first: only then is `at` a character boundary.)
    if !before.ends_with("return") {
        return None;
    }
    let at = before.len() - "return".len();
    if before[..at].ends_with(|c: char| ident_char(c)) {
        return None;
    }
    Some(
        Diagnostic::error(
            "E0201",
            origin.at(at, "return".len()),
            "syntax error: a bare `return` at the end of a match arm takes the next line as its value",
        )
        .label("this `return` reads on into the next arm")
        .note(origin.at(pos, 2), "so this arm's `=>` is out of place")
        .help("put the arm's body in braces, `=> { return }`, or give `return` a value"),
    )
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
///
/// When a `}` is missing inside a block, the brackets still pair up, one level off: the
/// outer block's `}` closes the inner block, and the outermost `{` is left open. The
/// indentation tells which one lacks its `}`: a `}` that begins its line, indented less
/// than the line of the `{` it pairs with, belongs to an outer block, so that `{` is the
/// one never closed.
fn unbalanced(text: &str, pos: usize, origin: Origin) -> Option<Diagnostic> {
    let mut open: Vec<(usize, char)> = Vec::new();
    // The first `{` closed by a `}` indented as an outer block's, and that `}`.
    let mut misfit: Option<((usize, char), usize)> = None;
    let mut chars = text.char_indices().peekable();
    let unclosed = loop {
        let Some((i, c)) = chars.next() else {
            // The end: the bracket whose `}` went missing, or the innermost still open.
            break match (misfit, open.last()) {
                (Some((o, _)), Some(_)) => Some(o),
                (_, last) => last.copied(),
            };
        };
        match c {
            '#' => while chars.next_if(|(_, c)| *c != '\n').is_some() {},
            '/' if text[i..].starts_with("//") => {
                while chars.next_if(|(_, c)| *c != '\n').is_some() {}
            }
            '(' | '[' | '{' => open.push((i, c)),
            ')' | ']' | '}' => match open.last() {
                Some(&(o, b)) if closer_of(b) == c => {
                    if misfit.is_none() && starts_line(text, i) && indent(text, i) < indent(text, o)
                    {
                        misfit = Some(((o, b), i));
                    }
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
    let d = Diagnostic::error(
        "E0201",
        origin.at(at, 1),
        format!("syntax error: this `{bracket}` is never closed"),
    )
    .label("opened here");
    Some(match misfit {
        Some((o, closer)) if o.0 == at => d
            .note(
                origin.at(closer, 1),
                "this `}` is indented as an outer block's end",
            )
            .help(format!(
                "add the `{close}` of the block opened here, indented as its first line is"
            )),
        // At the end there is nothing to show but the end: no second snippet.
        _ if token.is_empty() => d.help(format!(
            "close it with `{close}`; the definition ends while it is still open"
        )),
        _ => d
            .note(
                origin.at(pos, token.len()),
                format!("expected `{close}` before this"),
            )
            .help(format!(
                "close it with `{close}`; the parser reached `{token}` while it was still open"
            )),
    })
}

/// Whether only spaces and tabs stand before `i` on its line.
fn starts_line(text: &str, i: usize) -> bool {
    text[..i]
        .rsplit('\n')
        .next()
        .is_some_and(|l| l.chars().all(|c| c == ' ' || c == '\t'))
}

/// The indentation of the line holding `i`, in characters.
fn indent(text: &str, i: usize) -> usize {
    let start = text[..i].rfind('\n').map_or(0, |n| n + 1);
    text[start..]
        .chars()
        .take_while(|&c| c == ' ' || c == '\t')
        .count()
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
        // One line per first letter: `"o" ~ ("utcome" | "verride" | "r")`.
        let mut words: Vec<String> = Vec::new();
        for line in rule.lines().filter(|l| l.contains(" ~ ")) {
            let quoted: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
            if let [first, rest @ ..] = quoted.as_slice() {
                words.extend(rest.iter().map(|r| format!("{first}{r}")));
            }
        }
        let mut keywords: Vec<String> = KEYWORDS.iter().map(|k| k.to_string()).collect();
        words.sort();
        keywords.sort();
        assert_eq!(words, keywords);
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
