//! Parsing the DSL: text → [`ast`]. pest does the parsing; this module turns its pairs
//! into the syntax tree and its errors into diagnostics in the writer's words.
//!
//! Limits are checked before pest runs, so hostile input cannot make it recurse without
//! bound: bracket nesting ([`MAX_NESTING`]) and size ([`MAX_RULES_BYTES`]).

pub mod ast;
mod fight;
mod help;

pub use help::KEYWORDS;

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use ast::*;
use pest::iterators::Pair;
use pest::Parser as _;
use rulesc_runtime::dice::{Keep, MAX_DICE, MAX_KEPT, MAX_SIDES};
use rulesc_runtime::DiceSpec;

/// Deepest nesting of `(`, `[`, `{` (and prefix operators) in one formula or procedure.
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
    fn span(&self, s: pest::Span) -> Span {
        match self.fixed {
            Some(f) => f,
            None => Span::new(self.file, self.base + s.start(), self.base + s.end()),
        }
    }
    fn at(&self, pos: usize, len: usize) -> Span {
        match self.fixed {
            Some(f) => f,
            None => Span::new(self.file, self.base + pos, self.base + pos + len),
        }
    }
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
            .help("split the expression with `let` or a formula"),
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

/// The byte position where nesting first goes past the limit, if it does. Counts
/// brackets, the angle brackets of `list<..>` and `map<..>` types, and runs of prefix
/// operators: everything the grammar parses recursively.
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut depth = 0usize;
    // Open `list<` / `map<` brackets (a `<` after another word is a comparison).
    let mut types = 0usize;
    let mut prefix_run = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'#' || (c == b'/' && bytes.get(i + 1) == Some(&b'/')) {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'<' => {
                let before = text[..i].trim_end();
                let start = before
                    .rfind(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .map_or(0, |k| k + 1);
                if matches!(&before[start..], "list" | "map") {
                    types += 1;
                }
            }
            b'>' if types > 0 && i > 0 && bytes[i - 1] != b'-' => types -= 1,
            _ => {}
        }
        let word_start = i == 0 || !ident(bytes[i - 1]);
        if c == b'-' {
            prefix_run += 1;
        } else if word_start
            && bytes[i..].starts_with(b"not")
            && !bytes.get(i + 3).is_some_and(|&b| ident(b))
        {
            prefix_run += 1;
            i += 3;
            continue;
        } else if !c.is_ascii_whitespace() {
            prefix_run = 0;
        }
        if depth + types > MAX_NESTING || prefix_run > MAX_NESTING {
            return Some(i);
        }
        i += 1;
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
        Rule::integer | Rule::signed_int => "a number",
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
        .help("see docs/language.md for the forms of formulas, procedures and statements")
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
            Rule::schedule_stmt | Rule::advance_stmt => self.fight_stmt(rule, k)?,
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

    fn step(&mut self, base: Expr, step: Pair<Rule>) -> Option<Expr> {
        let span = base.span.to(self.span(&step));
        let kind = match step.as_rule() {
            Rule::field_step => {
                ExprKind::Field(Box::new(base), self.ident(step.into_inner().next()?))
            }
            Rule::index_step => {
                let mut keys = step.into_inner();
                let key = Box::new(self.expr(keys.next()?)?);
                match keys.next() {
                    Some(column) => {
                        ExprKind::Cell(Box::new(base), key, Box::new(self.expr(column)?))
                    }
                    None => ExprKind::Index(Box::new(base), key),
                }
            }
            Rule::call_step => {
                let mut args = Vec::new();
                for a in step.into_inner() {
                    let mut k: Vec<Pair<Rule>> = a.into_inner().collect();
                    let value = self.expr(k.pop()?)?;
                    let name = k.pop().map(|n| self.ident(n));
                    args.push(Arg { name, value });
                }
                ExprKind::Call(Box::new(base), args)
            }
            _ => return None,
        };
        Some(Expr { kind, span })
    }

    /// Builds a left-associative chain `a op b op c`.
    fn chain(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let mut k = p.into_inner();
        let mut left = self.expr(k.next()?)?;
        while let Some(op) = k.next() {
            let right = self.expr(k.next()?)?;
            let op = match op.as_str().trim() {
                "or" => BinOp::Or,
                "and" => BinOp::And,
                "==" => BinOp::Eq,
                "!=" => BinOp::Ne,
                "<" => BinOp::Lt,
                "<=" => BinOp::Le,
                ">" => BinOp::Gt,
                ">=" => BinOp::Ge,
                "in" => BinOp::In,
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                _ => BinOp::Rem,
            };
            let span = left.span.to(right.span);
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                span,
            };
        }
        Some(left)
    }

    fn expr(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        match rule {
            Rule::expr | Rule::paren => self.expr(kids(p).into_iter().next()?),
            Rule::or_expr | Rule::and_expr | Rule::compare | Rule::sum | Rule::product => {
                self.chain(p)
            }
            Rule::not_expr | Rule::unary => {
                let k: Vec<Pair<Rule>> = p.into_inner().collect();
                let (ops, last) = k.split_at(k.len().checked_sub(1)?);
                let mut e = self.expr(last[0].clone())?;
                for op in ops.iter().rev() {
                    let uop = if op.as_rule() == Rule::not_op {
                        UnOp::Not
                    } else {
                        UnOp::Neg
                    };
                    // A negated literal is a literal, so `-3` is a constant.
                    e = match (uop, &e.kind) {
                        (UnOp::Neg, ExprKind::Int(v)) => Expr {
                            kind: ExprKind::Int(v.saturating_neg()),
                            span,
                        },
                        _ => Expr {
                            kind: ExprKind::Unary(uop, Box::new(e)),
                            span,
                        },
                    };
                }
                Some(e)
            }
            Rule::postfix => {
                let mut k = p.into_inner();
                let mut e = self.expr(k.next()?)?;
                for step in k {
                    e = self.step(e, step)?;
                }
                Some(e)
            }
            Rule::integer => {
                let v = self.int_text(p)?;
                Some(Expr {
                    kind: ExprKind::Int(v),
                    span,
                })
            }
            Rule::boolean => Some(Expr {
                kind: ExprKind::Bool(p.as_str() == "true"),
                span,
            }),
            Rule::dice => {
                let d = self.dice(p.as_str(), span)?;
                Some(Expr {
                    kind: ExprKind::Dice(d),
                    span,
                })
            }
            Rule::ident => Some(Expr {
                kind: ExprKind::Name(self.ident(p)),
                span,
            }),
            Rule::list_expr => {
                let mut items = Vec::new();
                let mut tail = None;
                for c in p.into_inner() {
                    if c.as_rule() == Rule::collect_tail {
                        tail = Some(c);
                    } else {
                        items.push(self.expr(c)?);
                    }
                }
                match tail {
                    Some(t) => {
                        let body = Box::new(items.into_iter().next()?);
                        let (var, list, cond) = self.collect_tail(t)?;
                        Some(Expr {
                            kind: ExprKind::Collect {
                                body,
                                var,
                                list,
                                cond,
                            },
                            span,
                        })
                    }
                    None => Some(Expr {
                        kind: ExprKind::List(items),
                        span,
                    }),
                }
            }
            Rule::if_expr => {
                let mut k = kids(p).into_iter();
                let c = self.expr(k.next()?)?;
                let t = self.expr(k.next()?)?;
                let e = self.expr(k.next()?)?;
                Some(Expr {
                    kind: ExprKind::If(Box::new(c), Box::new(t), Box::new(e)),
                    span,
                })
            }
            Rule::match_expr => {
                let mut k = kids(p).into_iter();
                let scrutinee = self.expr(k.next()?)?;
                let mut arms = Vec::new();
                for a in k {
                    let aspan = self.span(&a);
                    let mut ak = a.into_inner();
                    let pattern = self.pattern(ak.next()?)?;
                    let body = self.expr(ak.next()?)?;
                    arms.push(Arm {
                        pattern,
                        body,
                        span: aspan,
                    });
                }
                Some(Expr {
                    kind: ExprKind::Match(Box::new(scrutinee), arms),
                    span,
                })
            }
            Rule::roll_expr => {
                let mut k = kids(p).into_iter();
                let target = Box::new(self.expr(k.next()?)?);
                let among = match k.next() {
                    Some(a) => Some(Box::new(self.expr(a)?)),
                    None => None,
                };
                Some(Expr {
                    kind: ExprKind::Roll { target, among },
                    span,
                })
            }
            Rule::decide_expr => {
                let mut k = kids(p).into_iter();
                let name = self.ident(k.next()?);
                let n = k.next()?;
                let from = if n.as_rule() == Rule::type_expr {
                    DecideFrom::Type(self.type_expr(n)?)
                } else {
                    DecideFrom::List(Box::new(self.expr(n)?))
                };
                Some(Expr {
                    kind: ExprKind::Decide { name, from },
                    span,
                })
            }
            Rule::fill_expr => {
                let mut k = kids(p).into_iter();
                let track = Box::new(self.expr(k.next()?)?);
                let level = Box::new(self.expr(k.next()?)?);
                Some(Expr {
                    kind: ExprKind::Fill { track, level },
                    span,
                })
            }
            Rule::aggregate => {
                let mut k = kids(p).into_iter();
                let op = k.next()?;
                let rest: Vec<Pair<Rule>> = k.collect();
                if op.as_rule() == Rule::list_op {
                    let var = self.ident(rest.first()?.clone());
                    let list = Box::new(self.in_list(rest.get(1)?.clone())?);
                    let mut cond = None;
                    let mut keys = Vec::new();
                    let mut by = false;
                    for r in rest.iter().skip(2) {
                        if r.as_rule() == Rule::k_by {
                            by = true;
                        } else if by {
                            keys.push(self.expr(r.clone())?);
                        } else {
                            cond = Some(Box::new(self.expr(r.clone())?));
                        }
                    }
                    let list_op = match op.as_str() {
                        "first" => Some(ListOp::First),
                        "index_of" => Some(ListOp::IndexOf),
                        "sort" => Some(ListOp::Sort),
                        "min_by" => Some(ListOp::MinBy),
                        "max_by" => Some(ListOp::MaxBy),
                        _ => None,
                    };
                    if let Some(op) = list_op {
                        return Some(Expr {
                            kind: ExprKind::ListOp {
                                op,
                                var,
                                list,
                                cond,
                                keys,
                            },
                            span,
                        });
                    }
                    let body = Box::new(Expr {
                        kind: ExprKind::Bool(true),
                        span,
                    });
                    return Some(Expr {
                        kind: ExprKind::Aggregate {
                            kind: AggKind::Count,
                            body,
                            var,
                            list,
                            cond,
                        },
                        span,
                    });
                }
                let kind = match op.as_str() {
                    "sum" => AggKind::Sum,
                    "max" => AggKind::Max,
                    "min" => AggKind::Min,
                    "any" => AggKind::Any,
                    _ => AggKind::All,
                };
                if let Some(t) = rest.iter().find(|r| r.as_rule() == Rule::collect_tail) {
                    let body = Box::new(self.expr(rest.first()?.clone())?);
                    let (var, list, cond) = self.collect_tail(t.clone())?;
                    return Some(Expr {
                        kind: ExprKind::Aggregate {
                            kind,
                            body,
                            var,
                            list,
                            cond,
                        },
                        span,
                    });
                }
                // No `for`: a call of the built-in (`max(a, b)`).
                let name = Ident {
                    name: op.as_str().to_string(),
                    span: self.span(&op),
                };
                let callee = Box::new(Expr {
                    kind: ExprKind::Name(name),
                    span: self.span(&op),
                });
                let mut args = Vec::new();
                for r in rest {
                    args.push(Arg {
                        name: None,
                        value: self.expr(r)?,
                    });
                }
                Some(Expr {
                    kind: ExprKind::Call(callee, args),
                    span,
                })
            }
            _ => None,
        }
    }

    /// `for x in list if cond` after a comprehension's or aggregate's body.
    fn collect_tail(&mut self, t: Pair<Rule>) -> Option<(Ident, Box<Expr>, Option<Box<Expr>>)> {
        let mut k = kids(t).into_iter();
        let var = self.ident(k.next()?);
        let list = Box::new(self.in_list(k.next()?)?);
        let cond = match k.next() {
            Some(c) => Some(Box::new(self.expr(c)?)),
            None => None,
        };
        Some((var, list, cond))
    }

    /// A list expression, or `lo..hi`.
    fn in_list(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let span = self.span(&p);
        let mut k = kids(p)
            .into_iter()
            .filter(|c| c.as_rule() != Rule::range_op);
        let first = self.expr(k.next()?)?;
        match k.next() {
            None => Some(first),
            Some(hi) => Some(Expr {
                kind: ExprKind::Range(Box::new(first), Box::new(self.expr(hi)?)),
                span,
            }),
        }
    }

    /// `NdM`, `dM`, with optional `khK`/`klK` and `!`.
    fn dice(&mut self, text: &str, span: Span) -> Option<DiceSpec> {
        let (text, explode) = match text.strip_suffix('!') {
            Some(t) => (t, true),
            None => (text, false),
        };
        let (count, rest) = text.split_once('d')?;
        let (sides, keep) = if let Some((s, k)) = rest.split_once("kh") {
            (s, Some((true, k)))
        } else if let Some((s, k)) = rest.split_once("kl") {
            (s, Some((false, k)))
        } else {
            (rest, None)
        };
        let count: i64 = if count.is_empty() {
            1
        } else {
            count.parse().unwrap_or(i64::MAX)
        };
        let sides: i64 = sides.parse().unwrap_or(i64::MAX);
        if !(1..=MAX_DICE).contains(&count) {
            self.error(
                span,
                "E0205",
                format!("{count} dice in one roll"),
                &format!("a roll throws 1 to {MAX_DICE} dice"),
            );
        }
        if !(2..=MAX_SIDES).contains(&sides) {
            self.error(
                span,
                "E0205",
                format!("a die with {sides} faces"),
                &format!("a die has 2 to {MAX_SIDES} faces"),
            );
        }
        let keep = match keep {
            None => Keep::All,
            Some((high, k)) => {
                let k: i64 = k.parse().unwrap_or(i64::MAX);
                if k < 1 || k > count || k > i64::from(MAX_KEPT) {
                    self.error(
                        span,
                        "E0205",
                        format!("cannot keep {k} of {count} dice"),
                        &format!("keep between 1 and the number of dice (at most {MAX_KEPT})"),
                    );
                }
                let k = k.clamp(1, i64::from(MAX_KEPT)) as u32;
                if high {
                    Keep::Highest(k)
                } else {
                    Keep::Lowest(k)
                }
            }
        };
        // Invalid dice were reported; a clamped spec lets checking go on without a
        // cascade of errors about the names this statement defines.
        let count = count.clamp(1, MAX_DICE) as u32;
        let sides = sides.clamp(2, MAX_SIDES) as u32;
        Some(DiceSpec {
            count,
            sides,
            explode,
            keep,
        })
    }
}

/// Parses dice text such as `2d10` outside the DSL (YAML values); `None` if it is not dice.
pub fn parse_dice_text(text: &str, span: Span, diags: &mut Diagnostics) -> Option<DiceSpec> {
    let t = text.trim();
    if !looks_like_dice(t) {
        return None;
    }
    let origin = Origin {
        file: span.file,
        base: span.start as usize,
        fixed: Some(span),
    };
    let mut b = Builder { origin, diags };
    b.dice(t, span)
}

/// True for text of the form `NdM`, `dM`, with optional `khK`/`klK` and `!` (and
/// nothing else: a level named `Moderate` is not dice).
fn looks_like_dice(t: &str) -> bool {
    let t = t.strip_suffix('!').unwrap_or(t);
    let Some((count, rest)) = t.split_once('d') else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(count.is_empty() || digits(count)) {
        return false;
    }
    let sides = match rest.find('k') {
        Some(i) => {
            let keep = &rest[i + 1..];
            if !(keep.starts_with('h') || keep.starts_with('l')) || !digits(&keep[1..]) {
                return false;
            }
            &rest[..i]
        }
        None => rest,
    };
    digits(sides)
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

    #[test]
    fn parses_a_procedure() {
        let mut d = Diagnostics::default();
        let items = parse_file(
            "procedure p(a: Combatant) -> Result {\n let x = roll d12! + a.b\n if natural(x) == 1 { return Fail }\n letter = 3\n return Hit(level: Minor)\n}",
            origin(),
            &mut d,
        );
        assert!(d.items.is_empty(), "{:?}", d.items);
        assert_eq!(items.len(), 1);
        let Item::Function {
            body: Body::Block(b),
            ..
        } = &items[0]
        else {
            panic!()
        };
        assert_eq!(b.stmts.len(), 4);
        assert!(
            matches!(b.stmts[2].kind, StmtKind::Assign(..)),
            "`letter = 3` is an assignment"
        );
    }

    #[test]
    fn syntax_errors_speak_the_writers_words() {
        let mut d = Diagnostics::default();
        parse_file("procedure p( { }", origin(), &mut d);
        assert_eq!(d.items.len(), 1);
        assert!(
            d.items[0].message.contains("this `(` is never closed"),
            "{}",
            d.items[0].message
        );
        let mut d = Diagnostics::default();
        parse_file("procedure p() -> { }", origin(), &mut d);
        assert_eq!(d.items.len(), 1);
        assert!(
            d.items[0].message.contains("expected"),
            "{}",
            d.items[0].message
        );
        assert!(
            !d.items[0].message.contains("Rule"),
            "{}",
            d.items[0].message
        );
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let mut d = Diagnostics::default();
        let text = format!(
            "formula f() = {}1{}",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        parse_file(&text, origin(), &mut d);
        assert_eq!(d.items[0].code, "E0202");
    }

    #[test]
    fn dice_literals() {
        let mut d = Diagnostics::default();
        let e = parse_expr("2d20kh1 + d12!", origin(), &mut d).unwrap();
        assert!(d.items.is_empty());
        let ExprKind::Binary(_, a, b) = e.kind else {
            panic!()
        };
        assert_eq!(
            a.kind,
            ExprKind::Dice(DiceSpec {
                keep: Keep::Highest(1),
                ..DiceSpec::new(2, 20)
            })
        );
        assert_eq!(
            b.kind,
            ExprKind::Dice(DiceSpec {
                explode: true,
                ..DiceSpec::new(1, 12)
            })
        );
        parse_expr("99999d99999", origin(), &mut d);
        assert_eq!(d.items.len(), 1);
    }
}
