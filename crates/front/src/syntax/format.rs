//! `rulesc fmt`: the layout of a `.rules` file, changed only in its whitespace.
//!
//! The formatter never joins or splits a line, so a tidy file keeps its line numbers
//! (traces cite them), and it touches only whitespace, so the file means what it meant:
//! comments and labels stay exactly as written. It works from the pest parse:
//!
//! - a line that starts a definition, an outcome tag, a fight clause, a statement or a
//!   match arm is indented two spaces past the line that starts the construct owning
//!   the enclosing `{` (the statement, definition or arm; a `match` expression itself); a
//!   line that starts with the `}` lines up with that line; a definition starts at the
//!   margin;
//! - any other line of code (a continuation, often aligned by hand under an opening
//!   bracket) moves by as much as the line that started its construct did, so its
//!   alignment holds;
//! - a comment alone on its line takes the indent of the code that follows it (inside
//!   the block when what follows is the block's `}`);
//! - binary operators (`+`, `-`, `*`, `/`, `%`, comparisons, `and`, `or`), the `=` of
//!   a definition, `let`, assignment, fight clause or time unit, `+=`, `-=`, `=>` and
//!   `->` have one space either side within a line;
//! - trailing whitespace goes, runs of blank lines become one, blank lines at the start
//!   and the end go, and the file ends with one newline.
//!
//! A file that does not parse is refused with the parser's diagnostic. YAML files are
//! left alone.

use super::{parse_file, run, Origin, Rule};
use crate::diag::Diagnostics;
use pest::iterators::Pair;

/// Spaces per level.
const INDENT: usize = 2;

/// The whitespace the formatter touches (the grammar's, but for the newline): other
/// characters, even Unicode spaces in a comment, stay.
const SPACE: [char; 3] = [' ', '\t', '\r'];

/// `text` formatted, or `None` (with the parser's diagnostics in `diags`) when it does
/// not parse.
pub fn format_rules(text: &str, origin: Origin, diags: &mut Diagnostics) -> Option<String> {
    let mut own = Diagnostics::default();
    parse_file(text, origin, &mut own);
    if own.has_errors() {
        diags.extend(own);
        return None;
    }
    let pair = run(Rule::file, text, origin, &mut own)?;
    let mut marks = Marks::default();
    marks.walk(pair, text);
    Some(layout(text, &marks))
}

/// What the parse says about positions in the text.
#[derive(Default)]
struct Marks {
    /// Starts of constructs that begin a line of their own: definitions, tags, clauses,
    /// statements, arms; with the base of the `{` enclosing them (none at the top).
    anchors: Vec<(usize, Option<usize>)>,
    /// Each tracked brace pair: (`}`, base), where the base is the start of the
    /// construct that owns the `{` (the statement, definition or arm; a `match`
    /// expression itself): what is inside indents from that line, and the `}` lines up
    /// with it.
    braces: Vec<(usize, usize)>,
    /// Spans of binary operators.
    ops: Vec<(usize, usize)>,
}

impl Marks {
    fn walk(&mut self, pair: Pair<Rule>, text: &str) {
        self.visit(pair, text, None, None);
        self.anchors.sort_unstable();
        self.braces.sort_unstable();
        self.ops.sort_unstable();
        self.ops.dedup();
    }

    fn visit(&mut self, pair: Pair<Rule>, text: &str, open: Option<usize>, owner: Option<usize>) {
        let rule = pair.as_rule();
        let (start, end) = (pair.as_span().start(), pair.as_span().end());
        let mut owner = owner;
        if is_anchor(rule) {
            self.anchors.push((start, open));
            owner = Some(start);
        }
        if matches!(
            rule,
            Rule::or_op | Rule::and_op | Rule::compare_op | Rule::add_op | Rule::mul_op
        ) || rule == Rule::assign_op
        {
            // Without the whitespace pest takes in (`=` before a `!"="`).
            self.ops
                .push((start, start + text[start..end].trim_end().len()));
            return;
        }
        // The `=`, `=>` and `->` written as plain tokens of the grammar: each follows
        // one of the node's children.
        let tokens: &[&str] = match rule {
            Rule::let_stmt
            | Rule::order_clause
            | Rule::out_clause
            | Rule::when_clause
            | Rule::hook_clause
            | Rule::time_unit => &["="],
            Rule::formula_def => &["=", "->"],
            Rule::procedure_def => &["->"],
            Rule::stmt_arm | Rule::expr_arm => &["=>"],
            _ => &[],
        };
        if !tokens.is_empty() {
            for child in pair.clone().into_inner() {
                let Some(mut at) = next_code(text, child.as_span().end()) else {
                    continue;
                };
                // `order(c) = ...`: past the parameter's `)`.
                if matches!(rule, Rule::order_clause | Rule::out_clause)
                    && text[at..].starts_with(')')
                {
                    match next_code(text, at + 1) {
                        Some(next) => at = next,
                        None => continue,
                    }
                }
                if let Some(t) = tokens.iter().find(|t| text[at..].starts_with(**t)) {
                    // Not the first character of `==` or `=>` (inside the child).
                    let longer = text[at..].starts_with("==") || text[at..].starts_with("=>");
                    if *t != "=" || !longer {
                        self.ops.push((at, at + t.len()));
                    }
                }
            }
        }
        // The `{` of this node, when it has a tracked pair.
        let brace = match rule {
            Rule::block => Some(start),
            Rule::outcome_def | Rule::fight_def => {
                // After the name (the first identifier child).
                let name = pair
                    .clone()
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::ident);
                name.and_then(|n| next_code(text, n.as_span().end()))
            }
            Rule::match_stmt | Rule::match_expr => {
                let scrutinee = pair
                    .clone()
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::expr);
                scrutinee.and_then(|n| next_code(text, n.as_span().end()))
            }
            _ => None,
        }
        .filter(|&b| text.as_bytes().get(b) == Some(&b'{'));
        let base = if rule == Rule::match_expr {
            Some(start)
        } else {
            owner
        };
        let mut inner_open = open;
        if let (Some(_), Some(base)) = (brace, base) {
            self.braces.push((end - 1, base));
            inner_open = Some(base);
        }
        for child in pair.into_inner() {
            // A block's `{` encloses its statements; the header of an `if` (its
            // condition) is still outside.
            self.visit(child, text, inner_open, owner);
        }
    }
}

fn is_anchor(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::outcome_def
            | Rule::formula_def
            | Rule::procedure_def
            | Rule::fight_def
            | Rule::tag_def
            | Rule::order_clause
            | Rule::ties_clause
            | Rule::out_clause
            | Rule::time_clause
            | Rule::lasts_clause
            | Rule::hook_clause
            | Rule::when_clause
            | Rule::let_stmt
            | Rule::if_stmt
            | Rule::match_stmt
            | Rule::for_stmt
            | Rule::return_stmt
            | Rule::schedule_stmt
            | Rule::repeat_stmt
            | Rule::advance_stmt
            | Rule::assign_stmt
            | Rule::expr_stmt
            | Rule::stmt_arm
            | Rule::expr_arm
    )
}

/// The position of the next character at or after `from` that is neither whitespace
/// nor in a comment.
fn next_code(text: &str, mut from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    while from < bytes.len() {
        match bytes[from] {
            b' ' | b'\t' | b'\r' | b'\n' => from += 1,
            b'#' => from = skip_line(bytes, from),
            b'/' if bytes.get(from + 1) == Some(&b'/') => from = skip_line(bytes, from),
            _ => return Some(from),
        }
    }
    None
}

fn skip_line(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' {
        i += 1;
    }
    i
}

/// One line of the input.
struct Line<'t> {
    /// Byte position of its first character.
    start: usize,
    /// Its text without the newline.
    text: &'t str,
    /// Width of its leading whitespace (a tab counts as [`INDENT`], a carriage return as
    /// nothing).
    indent: usize,
    /// Byte position of its first character that is not whitespace.
    first: usize,
}

impl Line<'_> {
    fn is_blank(&self) -> bool {
        self.text.trim_matches(SPACE).is_empty()
    }
    fn is_comment(&self) -> bool {
        let t = self.text.trim_start_matches(SPACE);
        t.starts_with("//") || t.starts_with('#')
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for raw in text.split('\n') {
        let lead = raw.len() - raw.trim_start_matches(SPACE).len();
        let indent = raw[..lead]
            .bytes()
            .map(|b| match b {
                b'\t' => INDENT,
                b'\r' => 0,
                _ => 1,
            })
            .sum();
        out.push(Line {
            start,
            text: raw,
            indent,
            first: start + lead,
        });
        start += raw.len() + 1;
    }
    out
}

fn layout(text: &str, marks: &Marks) -> String {
    let lines = lines(text);
    // The new indent of each line of code, top to bottom.
    let mut indent: Vec<Option<usize>> = vec![None; lines.len()];
    let line_of = |pos: usize| lines.partition_point(|l| l.start <= pos) - 1;
    let anchor = |pos: usize| {
        marks
            .anchors
            .binary_search_by_key(&pos, |a| a.0)
            .ok()
            .map(|i| marks.anchors[i].1)
    };
    let closes = &marks.braces;
    let closer = |pos: usize| {
        closes
            .binary_search_by_key(&pos, |c| c.0)
            .ok()
            .map(|i| closes[i].1)
    };
    let mut delta: isize = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.is_blank() || line.is_comment() {
            continue;
        }
        let new = if let Some(open) = closer(line.first) {
            indent[line_of(open)].unwrap_or(0)
        } else if let Some(open) = anchor(line.first) {
            open.map_or(0, |o| indent[line_of(o)].unwrap_or(0) + INDENT)
        } else {
            line.indent.saturating_add_signed(delta)
        };
        if closer(line.first).is_some() || anchor(line.first).is_some() {
            delta = new as isize - line.indent as isize;
        }
        indent[i] = Some(new);
    }
    // Comments alone on their line: as the code after them.
    let mut next: Option<usize> = None;
    for i in (0..lines.len()).rev() {
        let line = &lines[i];
        if line.is_blank() {
            continue;
        }
        if line.is_comment() {
            indent[i] = Some(next.unwrap_or(line.indent));
            continue;
        }
        let own = indent[i].unwrap_or(0);
        next = Some(if closer(line.first).is_some() {
            own + INDENT
        } else {
            own
        });
    }

    let mut out = String::with_capacity(text.len());
    let mut blank_run = false;
    let mut ops = marks.ops.iter().peekable();
    for (i, line) in lines.iter().enumerate() {
        if line.is_blank() {
            blank_run = !out.is_empty();
            continue;
        }
        if blank_run {
            out.push('\n');
            blank_run = false;
        }
        let body_end = line.start + line.text.trim_end_matches(SPACE).len();
        out.push_str(&" ".repeat(indent[i].unwrap_or(line.indent)));
        // The line's code and comment, with one space around each operator in it.
        let mut at = line.first;
        while let Some(&&(s, e)) = ops.peek() {
            if s >= body_end {
                break;
            }
            ops.next();
            if s < line.first {
                continue;
            }
            let before = text[..s].trim_end_matches(SPACE).len().max(line.first);
            out.push_str(&text[at..before]);
            if before > line.first {
                out.push(' ');
            }
            out.push_str(&text[s..e]);
            let after = body_end - text[e..body_end].trim_start_matches(SPACE).len();
            if after < body_end {
                out.push(' ');
            }
            at = after;
        }
        out.push_str(&text[at..body_end]);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
