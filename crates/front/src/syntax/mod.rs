//! Parsing the DSL: text → [`ast`]. pest does the parsing; this module turns its pairs
//! into the syntax tree and its errors into diagnostics in the writer's words.
//!
//! Limits are checked before pest runs, so hostile input cannot make it (or anything after
//! it) recurse without bound: nesting ([`MAX_NESTING`]: brackets, `if` expressions,
//! prefix operators) and size ([`MAX_RULES_BYTES`]).

pub mod ast;
mod expr;
mod fight;
pub mod format;
pub use expr::parse_dice_text;
mod help;
pub mod recover;

pub use help::{BUILTINS, KEYWORDS};

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use ast::*;
use pest::iterators::Pair;
use pest::Parser as _;

/// Deepest nesting in one formula or procedure: of `(`, `[`, `{`, `if` expressions,
/// `roll`, `decide`, `fill` and prefix operators (see [`too_deep`]).
pub const MAX_NESTING: usize = 64;
/// Largest `.rules` file.
pub const MAX_RULES_BYTES: usize = 1 << 20;

#[derive(pest_derive::Parser)]
#[grammar = "syntax/rules.pest"]
struct RulesParser;

/// Where the text being parsed sits in its file, so spans point into the file.
#[derive(Clone, Copy)]
pub struct Origin {
    pub file: FileId,
    pub base: usize,
    /// When the text is not a verbatim slice of the file (an escaped YAML string), every
    /// span collapses to this one.
    pub fixed: Option<Span>,
}

impl Origin {
    /// A pair's span in the file, without the whitespace and comments pest leaves at its
    /// end (which a label would underline).
    fn span(&self, s: pest::Span) -> Span {
        match self.fixed {
            Some(f) => f,
            None => {
                let end = s.start() + code_len(s.as_str());
                Span::new(self.file, self.base + s.start(), self.base + end)
            }
        }
    }
    fn at(&self, pos: usize, len: usize) -> Span {
        match self.fixed {
            Some(f) => f,
            None => Span::new(self.file, self.base + pos, self.base + pos + len),
        }
    }
}

/// The length of `text` without the whitespace and comments (`# ..`, `// ..`, outside a
/// label's quotes) at its end.
fn code_len(text: &str) -> usize {
    let mut code = text.trim_end();
    loop {
        let line_start = code.rfind('\n').map_or(0, |i| i + 1);
        match comment_start(&code[line_start..]) {
            Some(at) => code = code[..line_start + at].trim_end(),
            None => return code.len(),
        }
    }
}

/// Where a comment starts in one line of code, outside quotes.
fn comment_start(line: &str) -> Option<usize> {
    let mut quoted = false;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'#' if !quoted => return Some(i),
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Parses a whole `.rules` file.
pub fn parse_file(text: &str, origin: Origin, diags: &mut Diagnostics) -> Vec<Item> {
    let Some(pair) = run(Rule::file, text, origin, diags) else {
        return Vec::new();
    };
    let mut b = Builder { origin, diags };
    pair.into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .filter_map(|p| b.item(p))
        .collect()
}

/// Parses an inline expression (a YAML formula).
pub fn parse_expr(text: &str, origin: Origin, diags: &mut Diagnostics) -> Option<Expr> {
    let pair = run(Rule::lone_expr, text, origin, diags)?;
    let mut b = Builder { origin, diags };
    b.expr(pair.into_inner().next()?)
}

/// Parses a signature `name(p: T, ...)` (the key of an inline YAML formula).
pub fn parse_signature(
    text: &str,
    origin: Origin,
    diags: &mut Diagnostics,
) -> Option<(Ident, Vec<Param>, Option<TypeExpr>)> {
    let pair = run(Rule::signature, text, origin, diags)?;
    let mut b = Builder { origin, diags };
    let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::EOI);
    let name = b.ident(inner.next()?);
    let params = b.params(inner.next()?)?;
    let ret = match inner.next() {
        Some(p) => Some(b.type_expr(p)?),
        None => None,
    };
    Some((name, params, ret))
}

/// Parses a field type (`int`, `map<Skill, int>`, `int(-3..4)`).
pub fn parse_type(text: &str, origin: Origin, diags: &mut Diagnostics) -> Option<TypeExpr> {
    let pair = run(Rule::lone_type, text, origin, diags)?;
    let mut b = Builder { origin, diags };
    b.type_expr(pair.into_inner().next()?)
}

fn run<'i>(
    rule: Rule,
    text: &'i str,
    origin: Origin,
    diags: &mut Diagnostics,
) -> Option<Pair<'i, Rule>> {
    if text.len() > MAX_RULES_BYTES {
        diags.push(
            Diagnostic::error(
                "E0203",
                origin.at(0, 0),
                format!("this rules text is too large ({} bytes)", text.len()),
            )
            .label("too large")
            .help(format!(
                "split it into files of at most {MAX_RULES_BYTES} bytes"
            )),
        );
        return None;
    }
    if let Some(pos) = too_deep(text) {
        diags.push(
            Diagnostic::error(
                "E0202",
                origin.at(pos, 1),
                format!("nesting deeper than {MAX_NESTING} levels"),
            )
            .label("too deep here")
            .help(
                "split the expression with `let` or a formula; a long `else if` chain \
                 reads better as a `match` or a table",
            ),
        );
        return None;
    }
    // Bounds pest's work on pathological input (backtracking), so parsing cannot hang.
    pest::set_call_limit(std::num::NonZeroUsize::new(10_000_000));
    match RulesParser::parse(rule, text) {
        Ok(mut pairs) => pairs.next(),
        Err(e) => {
            diags.push(syntax_error(e, origin, text));
            None
        }
    }
}

/// What the grammar parses recursively, open at a point of the text: each is a level of
/// nesting for [`too_deep`], innermost last.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// `(`, `[`, `{`.
    Bracket,
    /// An `if` expression before its `then`, in its `then`, and in its `else`, which runs
    /// on as far as the expression does (an `else if` chain nests one `if` in the next).
    IfCond,
    IfThen,
    IfElse,
    /// `match` before its `{`.
    Match,
    /// `roll`, `decide` and a prefix `-`: their operand is one postfix expression, which
    /// any binary operator ends.
    Tight,
    /// `fill .. at`: its level is a sum, which a comparison, `and` or `or` ends.
    Fill,
    /// `not`: its operand runs to the next `and` or `or`.
    Not,
}

/// The byte position where nesting first goes past [`MAX_NESTING`], if it does: every
/// construct the grammar (and after it the AST builder, the checker and every pass over
/// the program) parses recursively, so that none of them can recurse without bound.
/// Counts brackets, the angle brackets of `list<..>` and `map<..>` types, `if`
/// expressions (each `if` of an `else if` chain too), `match` up to its `{`, `roll`,
/// `decide`, `fill` and the prefix `-` and `not`. A chain of binary operators
/// (`a + b + c ..`) is not nesting: it is walked iteratively.
///
/// It reads tokens, not the grammar, so it never closes a construct before the parser
/// would in a text that parses (that would let nesting through; a text that does not
/// parse goes no further than pest, which stops short of its stack's end); it may keep
/// one open longer, which only counts more.
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut open: Vec<Open> = Vec::new();
    // Open `list<` / `map<` brackets (a `<` after another word is a comparison).
    let mut types = 0usize;
    // Whether the last token ended an operand (so a `-` after it is binary).
    let mut operand = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        // Where the innermost bracket's contents start: what a token closes is inside it.
        let level = open
            .iter()
            .rposition(|&o| o == Open::Bracket)
            .map_or(0, |b| b + 1);
        // Closes the constructs open at the top of this level that `ends` ends.
        let close = |open: &mut Vec<Open>, ends: &[Open]| {
            while open.len() > level && open.last().is_some_and(|o| ends.contains(o)) {
                open.pop();
            }
        };
        if c == b'#' || (c == b'/' && next == Some(b'/')) {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'"' {
            // A label: to its closing quote, on its line.
            i += 1;
            while i < bytes.len() && !matches!(bytes[i], b'"' | b'\n') {
                i += 1;
            }
            i += 1;
            operand = true;
            continue;
        }
        if ident(c) && (i == 0 || !ident(bytes[i - 1])) {
            let end = i + bytes[i..]
                .iter()
                .position(|&b| !ident(b))
                .unwrap_or(bytes.len() - i);
            let word = &text[i..end];
            // A word right after an operand, and not one that goes on an expression
            // (`then`, `and`, `at` ..), starts a statement: no expression holds two
            // operands side by side, so whatever this level had open has ended (a
            // statement `fill t at Severe` leaves its `fill` open, and the next one is
            // not inside it).
            let goes_on = matches!(
                word,
                "then"
                    | "else"
                    | "and"
                    | "or"
                    | "in"
                    | "at"
                    | "among"
                    | "from"
                    | "for"
                    | "by"
                    | "until"
            );
            if operand && !goes_on {
                open.truncate(level);
            }
            let keyword = KEYWORDS.contains(&word);
            operand = !keyword || matches!(word, "true" | "false");
            match word {
                "if" => open.push(Open::IfCond),
                "match" => open.push(Open::Match),
                "roll" | "decide" => open.push(Open::Tight),
                "fill" => open.push(Open::Fill),
                "not" => open.push(Open::Not),
                // The `then` of the innermost `if` waiting for one: what its condition
                // opened is closed; likewise for `else` and the `then` it ends.
                "then" | "else" => {
                    let want = if word == "then" {
                        Open::IfCond
                    } else {
                        Open::IfThen
                    };
                    if let Some(k) = open[level..].iter().rposition(|&o| o == want) {
                        open.truncate(level + k + 1);
                        open[level + k] = if word == "then" {
                            Open::IfThen
                        } else {
                            Open::IfElse
                        };
                    }
                }
                "and" | "or" => close(&mut open, &[Open::Tight, Open::Fill, Open::Not]),
                "in" => close(&mut open, &[Open::Tight, Open::Fill]),
                // Words no expression holds: whatever this level had open has ended.
                "let" | "return" | "for" | "formula" | "procedure" | "outcome" | "override" => {
                    open.truncate(level)
                }
                _ => {}
            }
            if word == "list" || word == "map" {
                let after = text[end..].trim_start();
                if after.starts_with('<') {
                    types += 1;
                    i = end + (text[end..].len() - after.len()) + 1;
                    operand = false;
                    if open.len() + types > MAX_NESTING {
                        return Some(i - 1);
                    }
                    continue;
                }
            }
            if open.len() + types > MAX_NESTING {
                return Some(i);
            }
            i = end;
            continue;
        }
        let mut len = 1;
        match (c, next) {
            (b'(' | b'[', _) => open.push(Open::Bracket),
            // A block or a match's arms: what the `if` (a statement's condition) or the
            // `match` before it opened has ended, then the bracket.
            (b'{', _) => {
                if let Some(k) = open[level..]
                    .iter()
                    .rposition(|&o| matches!(o, Open::IfCond | Open::Match))
                {
                    open.truncate(level + k);
                }
                open.push(Open::Bracket);
            }
            (b')' | b']' | b'}', _) => {
                open.truncate(open.iter().rposition(|&o| o == Open::Bracket).unwrap_or(0));
            }
            (b'>', _) if types > 0 && i > 0 && bytes[i - 1] != b'-' => types -= 1,
            // `=>`, and `=`, `+=`, `-=` of a definition or an assignment: no expression
            // holds them.
            (b'=', Some(b'>')) | (b'+' | b'-', Some(b'=')) => {
                open.truncate(level);
                len = 2;
            }
            (b'=', Some(b'=')) | (b'!' | b'<' | b'>', Some(b'=')) => {
                close(&mut open, &[Open::Tight, Open::Fill]);
                len = 2;
            }
            (b'=', _) => open.truncate(level),
            (b'<' | b'>', _) => close(&mut open, &[Open::Tight, Open::Fill]),
            (b'-', _) if !operand => open.push(Open::Tight),
            (b'+' | b'-' | b'*' | b'/' | b'%' | b':', _) => close(&mut open, &[Open::Tight]),
            (b',', _) if types == 0 => open.truncate(level),
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            operand = matches!(c, b')' | b']' | b'}');
        }
        if open.len() + types > MAX_NESTING {
            return Some(i);
        }
        i += len;
    }
    None
}

/// The writer's words for grammar rules in "expected ..." messages.
pub fn describe_rule(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::file | Rule::outcome_def | Rule::formula_def | Rule::procedure_def => {
            "`outcome`, `formula` or `procedure`"
        }
        Rule::ident => "a name",
        Rule::type_expr | Rule::list_type | Rule::map_type | Rule::int_range => "a type",
        Rule::params => "a parameter list `(name: Type, ...)`",
        Rule::field_decl => "`name: Type`",
        Rule::tag_def => "an outcome tag",
        Rule::label => "a display label `\"...\"`",
        Rule::block => "`{`",
        Rule::let_stmt
        | Rule::if_stmt
        | Rule::match_stmt
        | Rule::for_stmt
        | Rule::return_stmt
        | Rule::assign_stmt
        | Rule::expr_stmt => "a statement",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::stmt_arm | Rule::expr_arm | Rule::pattern | Rule::pattern_alt | Rule::wildcard => {
            "a match arm `Pattern => ...`"
        }
        Rule::compare_op => "a comparison",
        Rule::add_op | Rule::mul_op => "an operator",
        Rule::or_op => "`or`",
        Rule::and_op => "`and`",
        Rule::not_op => "`not`",
        Rule::call_step | Rule::arg => "arguments `(...)`",
        Rule::field_step => "`.field`",
        Rule::index_step => "`[key]` or `[row, column]`",
        Rule::dice => "dice such as `2d6`",
        Rule::integer | Rule::signed_int | Rule::period => "a number",
        Rule::boolean => "`true` or `false`",
        Rule::aggregate_op | Rule::list_op | Rule::aggregate => "an aggregate such as `sum(...)`",
        Rule::k_by => "`by`",
        Rule::opt_mark => "`?`",
        Rule::in_list => "a list or a range `lo..hi`",
        Rule::range_op => "`..`",
        Rule::list_expr | Rule::collect_tail => "a list `[...]`",
        Rule::k_outcome => "`outcome`",
        Rule::k_override => "`override`",
        Rule::k_formula => "`formula`",
        Rule::k_procedure => "`procedure`",
        Rule::k_let => "`let`",
        Rule::k_if => "`if`",
        Rule::k_then => "`then`",
        Rule::k_else => "`else`",
        Rule::k_match => "`match`",
        Rule::k_for => "`for`",
        Rule::k_in => "`in`",
        Rule::k_return => "`return`",
        Rule::k_roll => "`roll`",
        Rule::k_among => "`among`",
        Rule::k_decide => "`decide`",
        Rule::k_from => "`from`",
        Rule::k_fill => "`fill`",
        Rule::k_at => "`at`",
        r => fight::describe(r).unwrap_or("an expression"),
    }
}

fn syntax_error(e: pest::error::Error<Rule>, origin: Origin, text: &str) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let len = text[pos.min(text.len())..]
        .chars()
        .next()
        .map(|c| c.len_utf8())
        .unwrap_or(0);
    let span = origin.at(pos, len);
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        if let Some(d) = help::hand_made(text, pos, positives, origin) {
            return d;
        }
    }
    let (message, label) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().map(|r| describe_rule(*r)).collect();
            words.sort();
            words.dedup();
            let found = match help::token_at(text, pos) {
                "" => "the end".to_string(),
                w => format!("`{}`", w.chars().take(20).collect::<String>()),
            };
            if words.is_empty() {
                (
                    format!("unexpected {found}"),
                    "not expected here".to_string(),
                )
            } else {
                (
                    format!("expected {}, found {found}", words.join(" or ")),
                    format!("expected {}", words.join(" or ")),
                )
            }
        }
        ErrorVariant::CustomError { message } => (message.clone(), "here".to_string()),
    };
    let message = if message.contains("call limit") {
        "this rules text is too complex to parse".to_string()
    } else {
        message
    };
    Diagnostic::error("E0201", span, format!("syntax error: {message}"))
        .label(label)
        .help("see the forms of definitions and statements in docs/reference.md#declarations-outcome-formula-procedure")
}

struct Builder<'d> {
    origin: Origin,
    diags: &'d mut Diagnostics,
}

fn is_kw(r: Rule) -> bool {
    matches!(
        r,
        Rule::k_outcome
            | Rule::k_override
            | Rule::k_formula
            | Rule::k_procedure
            | Rule::k_let
            | Rule::k_if
            | Rule::k_then
            | Rule::k_else
            | Rule::k_match
            | Rule::k_for
            | Rule::k_in
            | Rule::k_return
            | Rule::k_roll
            | Rule::k_among
            | Rule::k_decide
            | Rule::k_from
            | Rule::k_fill
            | Rule::k_at
            | Rule::k_until
            | Rule::k_after
            | Rule::k_advance
            | Rule::k_fight
            | Rule::k_of
    )
}

/// The pair's children without keyword tokens.
pub(super) fn kids<'i>(p: Pair<'i, Rule>) -> Vec<Pair<'i, Rule>> {
    p.into_inner().filter(|c| !is_kw(c.as_rule())).collect()
}

impl Builder<'_> {
    fn span(&self, p: &Pair<Rule>) -> Span {
        self.origin.span(p.as_span())
    }

    fn ident(&self, p: Pair<Rule>) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: self.span(&p),
        }
    }

    fn error(&mut self, span: Span, code: &'static str, msg: String, help: &str) {
        self.diags.push(
            Diagnostic::error(code, span, msg)
                .label("here")
                .help(help.to_string()),
        );
    }

    fn item(&mut self, p: Pair<Rule>) -> Option<Item> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let overrides = p
            .clone()
            .into_inner()
            .next()
            .is_some_and(|c| c.as_rule() == Rule::k_override);
        let mut k = kids(p).into_iter();
        match rule {
            Rule::outcome_def => {
                let name = self.ident(k.next()?);
                let mut tags = Vec::new();
                for t in k {
                    let mut tk = t.into_inner();
                    let tname = self.ident(tk.next()?);
                    let mut fields = Vec::new();
                    let mut label = None;
                    for f in tk {
                        if f.as_rule() == Rule::label {
                            let text = f.as_str();
                            label = Some((text[1..text.len() - 1].to_string(), self.span(&f)));
                        } else {
                            fields.push(self.param(f)?);
                        }
                    }
                    tags.push(TagDef {
                        name: tname,
                        fields,
                        label,
                    });
                }
                Some(Item::Outcome {
                    name,
                    tags,
                    span,
                    overrides,
                })
            }
            Rule::formula_def | Rule::procedure_def => {
                let name = self.ident(k.next()?);
                let params = self.params(k.next()?)?;
                let mut ret = None;
                let mut body = None;
                for c in k {
                    match c.as_rule() {
                        Rule::type_expr => ret = Some(self.type_expr(c)?),
                        Rule::block => body = Some(Body::Block(self.block(c)?)),
                        _ => body = Some(Body::Expr(self.expr(c)?)),
                    }
                }
                let body = body?;
                // The item ends with its body, not with the comments after it.
                let end = match &body {
                    Body::Expr(e) => e.span.end,
                    Body::Block(b) => b.span.end,
                };
                let span = Span {
                    end: end.max(span.start),
                    ..span
                };
                Some(Item::Function {
                    name,
                    params,
                    ret,
                    body,
                    span,
                    overrides,
                })
            }
            Rule::fight_def => self.fight(k, span).map(Item::Fight),
            _ => None,
        }
    }

    fn param(&mut self, p: Pair<Rule>) -> Option<Param> {
        let mut k = p.into_inner();
        let name = self.ident(k.next()?);
        let ty = self.type_expr(k.next()?)?;
        Some(Param { name, ty })
    }

    fn params(&mut self, p: Pair<Rule>) -> Option<Vec<Param>> {
        p.into_inner().map(|f| self.param(f)).collect()
    }

    fn type_expr(&mut self, p: Pair<Rule>) -> Option<TypeExpr> {
        let span = self.span(&p);
        let inner = if p.as_rule() == Rule::type_expr {
            let mut k = p.into_inner();
            let inner = k.next()?;
            if k.next().is_some() {
                // `T?`
                let t = self.type_expr(inner)?;
                return Some(TypeExpr {
                    kind: TypeKind::Optional(Box::new(t)),
                    span,
                });
            }
            inner
        } else {
            p
        };
        let kind = match inner.as_rule() {
            Rule::ident => TypeKind::Named(self.ident(inner)),
            Rule::list_type => {
                TypeKind::List(Box::new(self.type_expr(inner.into_inner().next()?)?))
            }
            Rule::map_type => {
                let mut k = inner.into_inner();
                let key = self.type_expr(k.next()?)?;
                let value = self.type_expr(k.next()?)?;
                TypeKind::Map(Box::new(key), Box::new(value))
            }
            Rule::int_range => {
                let mut k = inner.into_inner();
                let lo = self.int_text(k.next()?)?;
                let hi = self.int_text(k.next()?)?;
                if lo > hi {
                    self.error(
                        span,
                        "E0310",
                        format!("the range {lo}..{hi} is empty"),
                        "write the lower bound first",
                    );
                }
                TypeKind::IntRange(lo, hi)
            }
            _ => return None,
        };
        Some(TypeExpr { kind, span })
    }

    fn int_text(&mut self, p: Pair<Rule>) -> Option<i64> {
        let span = self.span(&p);
        match p.as_str().parse::<i64>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.error(
                    span,
                    "E0204",
                    format!("the number {} is too large", p.as_str()),
                    "numbers must fit in 64 bits (at most 9223372036854775807)",
                );
                None
            }
        }
    }

    fn block(&mut self, p: Pair<Rule>) -> Option<Block> {
        let span = self.span(&p);
        let mut stmts = Vec::new();
        for s in p.into_inner() {
            if let Some(s) = self.stmt(s) {
                stmts.push(s);
            }
        }
        Some(Block { stmts, span })
    }

    fn stmt(&mut self, p: Pair<Rule>) -> Option<Stmt> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let k = kids(p);
        let kind = match rule {
            Rule::let_stmt => {
                let mut k = k.into_iter();
                let name = self.ident(k.next()?);
                let mut next = k.next()?;
                let ty = if next.as_rule() == Rule::type_expr {
                    let t = self.type_expr(next)?;
                    next = k.next()?;
                    Some(t)
                } else {
                    None
                };
                StmtKind::Let(name, ty, self.expr(next)?)
            }
            Rule::assign_stmt => {
                let mut k = k.into_iter();
                let place = self.place(k.next()?)?;
                let op = match k.next()?.as_str().trim() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.expr(k.next()?)?;
                match k.next() {
                    Some(d) => self.timed_assign(place, op, value, d)?,
                    None => StmtKind::Assign(place, op, value),
                }
            }
            Rule::schedule_stmt | Rule::repeat_stmt | Rule::advance_stmt => {
                self.fight_stmt(rule, k)?
            }
            Rule::if_stmt => {
                let mut branches = Vec::new();
                let mut otherwise = None;
                let mut k = k.into_iter().peekable();
                while let Some(c) = k.next() {
                    if c.as_rule() == Rule::block {
                        otherwise = Some(self.block(c)?);
                    } else {
                        let cond = self.expr(c)?;
                        let body = self.block(k.next()?)?;
                        branches.push((cond, body));
                    }
                }
                StmtKind::If(branches, otherwise)
            }
            Rule::match_stmt => {
                let mut k = k.into_iter();
                let scrutinee = self.expr(k.next()?)?;
                let mut arms = Vec::new();
                for a in k {
                    let aspan = self.span(&a);
                    let mut ak = a.into_inner();
                    let pattern = self.pattern(ak.next()?)?;
                    let b = ak.next()?;
                    let body = if b.as_rule() == Rule::block {
                        self.block(b)?
                    } else {
                        let bspan = self.span(&b);
                        Block {
                            stmts: vec![self.stmt(b)?],
                            span: bspan,
                        }
                    };
                    arms.push(Arm {
                        pattern,
                        body,
                        span: aspan,
                    });
                }
                StmtKind::Match(scrutinee, arms)
            }
            Rule::for_stmt => {
                let mut k = k.into_iter();
                let var = self.ident(k.next()?);
                let list = self.expr(k.next()?)?;
                let mut next = k.next()?;
                let mut upper = None;
                if next.as_rule() == Rule::range_op {
                    upper = Some(self.expr(k.next()?)?);
                    next = k.next()?;
                }
                StmtKind::For(var, list, upper, self.block(next)?)
            }
            Rule::return_stmt => match k.into_iter().next() {
                Some(e) => StmtKind::Return(Some(self.expr(e)?)),
                None => StmtKind::Return(None),
            },
            Rule::expr_stmt => StmtKind::Expr(self.expr(k.into_iter().next()?)?),
            _ => return None,
        };
        Some(Stmt { kind, span })
    }

    fn place(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let mut k = p.into_inner();
        let first = k.next()?;
        let mut e = Expr {
            span: self.span(&first),
            kind: ExprKind::Name(self.ident(first)),
        };
        for step in k {
            e = self.step(e, step)?;
        }
        Some(e)
    }

    fn pattern(&mut self, p: Pair<Rule>) -> Option<Pattern> {
        let span = self.span(&p);
        let mut alts = Vec::new();
        for a in p.into_inner() {
            if a.as_rule() == Rule::wildcard {
                return Some(Pattern::Wildcard(span));
            }
            let mut k = a.into_inner();
            let name = self.ident(k.next()?);
            let binds = k.map(|b| self.ident(b)).collect();
            alts.push((name, binds));
        }
        Some(Pattern::Alts(alts))
    }
}

#[cfg(test)]
mod tests;
