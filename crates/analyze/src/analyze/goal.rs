//! Goals (`--best "level >= Severe and location == Head"`): a condition on a result,
//! checked against the result's type, whose chance `rulesc analyze` compares between
//! the answers to decisions.
//!
//! ```text
//! goal  := all ("or" all)*
//! all   := one ("and" one)*
//! one   := "not" one | "(" goal ")" | path (op literal)?
//! op    := == | != | < | <= | > | >=
//! ```
//!
//! A path alone must be a yes/no field; `tag == Hit` compares an outcome's tag. Order
//! comparisons need numbers or a scale's levels. An outcome without the path's field (a
//! `Miss` has no `level`) and a rule error satisfy no comparison.

// A mistake in a flag is one diagnostic, built once per command line: returned as is.
#![allow(clippy::result_large_err)]

use super::engine::Outcome;
use super::view::{self, Path, Reached};
use crate::diag::{suggest, Diagnostic};
use crate::eval::Value;
use crate::ir::{Program, Ty};
use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A checked goal.
#[derive(Debug, Clone)]
pub enum Goal {
    Or(Box<Goal>, Box<Goal>),
    And(Box<Goal>, Box<Goal>),
    Not(Box<Goal>),
    /// The value at the path's end compared with a constant (a yes/no field alone is
    /// `== true`). Levels, enum values and tags compare by their index.
    Cmp(Path, Op, i64),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Int(i64),
    Op(Op),
    Open,
    Close,
}

fn lex(text: &str, file: u32) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = if c == '(' {
            i += 1;
            Tok::Open
        } else if c == ')' {
            i += 1;
            Tok::Close
        } else if c.is_ascii_digit() || (c == '-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            match text[start..i].parse() {
                Ok(n) => Tok::Int(n),
                Err(_) => {
                    return Err(Diagnostic::error(
                        "E0504",
                        Span::new(file, start, i),
                        "this number is too large",
                    )
                    .label("past a 64-bit integer")
                    .help("numbers in goals are 64-bit integers"))
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            while i < b.len() {
                let ch = text[i..].chars().next().unwrap_or(' ');
                if !(ch.is_alphanumeric() || ch == '_' || ch == '.') {
                    break;
                }
                i += ch.len_utf8();
            }
            Tok::Word(text[start..i].to_string())
        } else {
            let two = text.get(i..i + 2).unwrap_or("");
            let (op, len) = match (two, c) {
                ("==", _) => (Op::Eq, 2),
                ("!=", _) => (Op::Ne, 2),
                ("<=", _) => (Op::Le, 2),
                (">=", _) => (Op::Ge, 2),
                (_, '<') => (Op::Lt, 1),
                (_, '>') => (Op::Gt, 1),
                _ => {
                    let len = c.len_utf8();
                    let help = if c == '=' {
                        "compare with `==`"
                    } else {
                        "a goal compares fields with ==, !=, <, <=, > or >=, joined by `and`, `or`, `not` and parentheses"
                    };
                    return Err(Diagnostic::error(
                        "E0504",
                        Span::new(file, i, i + len),
                        format!("unexpected `{c}` in a goal"),
                    )
                    .label("here")
                    .help(help));
                }
            };
            i += len;
            Tok::Op(op)
        };
        out.push((tok, Span::new(file, start, i)));
    }
    Ok(out)
}

struct Parser<'a> {
    p: &'a Program,
    ret: &'a Ty,
    text: &'a str,
    file: u32,
    toks: Vec<(Tok, Span)>,
    at: usize,
}

/// Checks `text` as a goal on results of type `ret`; `file` is the flag's source.
pub fn parse(p: &Program, ret: &Ty, text: &str, file: u32) -> Result<Goal, Diagnostic> {
    let toks = lex(text, file)?;
    let mut parser = Parser {
        p,
        ret,
        text,
        file,
        toks,
        at: 0,
    };
    let g = parser.goal()?;
    if let Some((t, span)) = parser.toks.get(parser.at) {
        let what = match t {
            Tok::Close => "an unmatched `)`".to_string(),
            _ => format!("`{}`", &text[span.start as usize..span.end as usize]),
        };
        return Err(
            Diagnostic::error("E0504", *span, format!("{what} after a complete goal"))
                .label("unexpected")
                .help("join conditions with `and` or `or`"),
        );
    }
    Ok(g)
}

impl Parser<'_> {
    fn peek_word(&self, w: &str) -> bool {
        matches!(self.toks.get(self.at), Some((Tok::Word(x), _)) if x == w)
    }

    fn end(&self) -> Span {
        Span::new(self.file, self.text.len(), self.text.len())
    }

    fn goal(&mut self) -> Result<Goal, Diagnostic> {
        let mut g = self.all()?;
        while self.peek_word("or") {
            self.at += 1;
            g = Goal::Or(Box::new(g), Box::new(self.all()?));
        }
        Ok(g)
    }

    fn all(&mut self) -> Result<Goal, Diagnostic> {
        let mut g = self.one()?;
        while self.peek_word("and") {
            self.at += 1;
            g = Goal::And(Box::new(g), Box::new(self.one()?));
        }
        Ok(g)
    }

    fn one(&mut self) -> Result<Goal, Diagnostic> {
        let Some((tok, span)) = self.toks.get(self.at).cloned() else {
            return Err(
                Diagnostic::error("E0504", self.end(), "the goal ends too soon")
                    .label("a condition is missing here")
                    .help("write a condition such as `level >= Severe` or `tag == Hit`"),
            );
        };
        self.at += 1;
        match tok {
            Tok::Word(w) if w == "not" => Ok(Goal::Not(Box::new(self.one()?))),
            Tok::Open => {
                let g = self.goal()?;
                match self.toks.get(self.at) {
                    Some((Tok::Close, _)) => {
                        self.at += 1;
                        Ok(g)
                    }
                    _ => Err(Diagnostic::error("E0504", span, "this `(` is never closed")
                        .label("unclosed")
                        .help("add `)` after the condition")),
                }
            }
            Tok::Word(w) => {
                let path = view::path(self.p, self.ret, &w, self.file)
                    .map_err(|d| shift(d, span.start))?;
                self.comparison(path, span)
            }
            _ => Err(Diagnostic::error(
                "E0504",
                span,
                format!(
                    "expected a condition, found `{}`",
                    &self.text[span.start as usize..span.end as usize]
                ),
            )
            .label("here")
            .help("a condition starts with a field of the result (`level`), `tag`, `not` or `(`")),
        }
    }

    fn comparison(&mut self, path: Path, at: Span) -> Result<Goal, Diagnostic> {
        let op = match self.toks.get(self.at) {
            Some((Tok::Op(op), _)) => *op,
            _ => {
                if matches!(path.end, Ty::Bool) {
                    return Ok(Goal::Cmp(path, Op::Eq, 1));
                }
                return Err(Diagnostic::error(
                    "E0505",
                    at,
                    format!("`{}` is not a yes/no field", path.text),
                )
                .label("compare it with something")
                .help(format!("write e.g. `{} == ...`", path.text)));
            }
        };
        self.at += 1;
        let Some((lit, lspan)) = self.toks.get(self.at).cloned() else {
            return Err(
                Diagnostic::error("E0504", self.end(), "the goal ends too soon")
                    .label("a value is missing here")
                    .help("compare with a number, a level, an enum value, a tag, true or false"),
            );
        };
        self.at += 1;
        let p = self.p;
        let end = match &path.end {
            Ty::Option(inner) => inner.as_ref(),
            t => t,
        };
        let (value, ordered, names): (Option<i64>, bool, Vec<&str>) = match (end, &lit) {
            (Ty::Int, Tok::Int(n)) => (Some(*n), true, Vec::new()),
            (Ty::Bool, Tok::Word(w)) if w == "true" || w == "false" => {
                (Some(i64::from(w == "true")), false, Vec::new())
            }
            (Ty::Choice(c), Tok::Word(w)) => {
                let ch = &p.choices[*c];
                let names = ch.variants.iter().map(|v| v.name.as_str()).collect();
                let i = ch.variants.iter().position(|v| &v.name == w);
                (i.map(|i| i as i64), ch.ordered, names)
            }
            (Ty::Outcome(o), Tok::Word(w)) => {
                let tags = &p.outcomes[*o].tags;
                let names = tags.iter().map(|t| t.name.as_str()).collect();
                let i = tags.iter().position(|t| &t.name == w);
                (i.map(|i| i as i64), false, names)
            }
            _ => (None, false, Vec::new()),
        };
        let Some(value) = value else {
            let shown = &self.text[lspan.start as usize..lspan.end as usize];
            let (what, help) = match end {
                Ty::Int => (
                    "a number".to_string(),
                    "compare with a whole number".to_string(),
                ),
                Ty::Bool => (
                    "true or false".to_string(),
                    "compare with true or false".to_string(),
                ),
                Ty::Choice(c) => (
                    format!("a value of {}", p.choices[*c].name),
                    suggest(shown, &names, "values"),
                ),
                Ty::Outcome(o) => (
                    format!("a tag of {}", p.outcomes[*o].name),
                    suggest(shown, &names, "tags"),
                ),
                _ => ("a value".to_string(), String::new()),
            };
            return Err(Diagnostic::error(
                "E0506",
                lspan,
                format!("`{}` is compared with {what}, not `{shown}`", path.text),
            )
            .label(format!("not {what}"))
            .help(help));
        };
        if !ordered && !matches!(op, Op::Eq | Op::Ne) {
            return Err(Diagnostic::error(
                "E0507",
                at.to(lspan),
                format!("`{}` has no order", path.text),
            )
            .label("only == and != compare these")
            .help("order comparisons need numbers or the levels of a scale"));
        }
        Ok(Goal::Cmp(path, op, value))
    }
}

/// A path's error, moved to where the path starts in the goal.
fn shift(mut d: Diagnostic, by: u32) -> Diagnostic {
    d.span.start += by;
    d.span.end += by;
    d
}

impl Goal {
    /// Whether a result meets the goal.
    pub fn holds(&self, p: &Program, ret: &Ty, o: &Outcome) -> bool {
        match self {
            Goal::Or(a, b) => a.holds(p, ret, o) || b.holds(p, ret, o),
            Goal::And(a, b) => a.holds(p, ret, o) && b.holds(p, ret, o),
            Goal::Not(g) => !g.holds(p, ret, o),
            Goal::Cmp(path, op, want) => {
                let Ok(v) = o else { return false };
                let have = match path.follow(p, v, ret, &mut Vec::new()) {
                    Reached::Value(Value::Int(n)) => n,
                    Reached::Value(Value::Bool(b)) => i64::from(b),
                    Reached::Value(Value::Choice(i)) => i64::from(i),
                    Reached::Value(Value::Outcome { tag, .. }) => i64::from(tag),
                    _ => return false,
                };
                match op {
                    Op::Eq => have == *want,
                    Op::Ne => have != *want,
                    Op::Lt => have < *want,
                    Op::Le => have <= *want,
                    Op::Gt => have > *want,
                    Op::Ge => have >= *want,
                }
            }
        }
    }
}
