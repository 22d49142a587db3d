//! Parsing expressions: postfix steps, operators by precedence, comprehensions, `in`
//! lists and dice text (also for YAML values).

use super::ast::*;
use super::{kids, Builder, Origin, Rule};
use crate::diag::Diagnostics;
use crate::source::Span;
use pest::iterators::Pair;
use rulesc_runtime::dice::{Keep, MAX_DICE, MAX_KEPT, MAX_SIDES};
use rulesc_runtime::DiceSpec;

impl Builder<'_> {
    pub(super) fn step(&mut self, base: Expr, step: Pair<Rule>) -> Option<Expr> {
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

    /// Climbs the precedence of a flat run `a op b op c ...` (an `expr`, a `not_expr`
    /// after its `not`s, a `sum`): every operator is left-associative, a tighter one
    /// applied first. Each operand is built in order, left to right.
    fn climb<'i>(&mut self, pairs: impl Iterator<Item = Pair<'i, Rule>>) -> Option<Expr> {
        let mut operands: Vec<Expr> = Vec::new();
        let mut ops: Vec<BinOp> = Vec::new();
        for p in pairs {
            let op = match p.as_rule() {
                Rule::or_op => BinOp::Or,
                Rule::and_op => BinOp::And,
                Rule::compare_op | Rule::add_op | Rule::mul_op => match p.as_str().trim() {
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
                },
                _ => {
                    operands.push(self.expr(p)?);
                    continue;
                }
            };
            while ops
                .last()
                .is_some_and(|&top| tightness(top) >= tightness(op))
            {
                reduce(&mut operands, &mut ops)?;
            }
            ops.push(op);
        }
        while !ops.is_empty() {
            reduce(&mut operands, &mut ops)?;
        }
        operands.pop()
    }

    pub(super) fn expr(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        match rule {
            Rule::paren => self.expr(p.into_inner().next()?),
            Rule::expr | Rule::sum => self.climb(p.into_inner()),
            Rule::not_expr | Rule::unary => {
                // The prefix operators, then the operand (a `not_expr`'s a run of
                // operands and operators).
                let mut k = p.into_inner().peekable();
                let mut prefix = 0usize;
                while k
                    .next_if(|c| matches!(c.as_rule(), Rule::not_op | Rule::neg_op))
                    .is_some()
                {
                    prefix += 1;
                }
                let mut e = if rule == Rule::unary {
                    self.expr(k.next()?)?
                } else {
                    self.climb(k)?
                };
                let uop = if rule == Rule::not_expr {
                    UnOp::Not
                } else {
                    UnOp::Neg
                };
                for _ in 0..prefix {
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
    pub(super) fn collect_tail(
        &mut self,
        t: Pair<Rule>,
    ) -> Option<(Ident, Box<Expr>, Option<Box<Expr>>)> {
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
    pub(super) fn in_list(&mut self, p: Pair<Rule>) -> Option<Expr> {
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
    pub(super) fn dice(&mut self, text: &str, span: Span) -> Option<DiceSpec> {
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

/// How tightly a binary operator binds: `or` loosest, then `and`, the comparisons,
/// `+ -`, `* / %`.
fn tightness(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::In => 3,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 5,
    }
}

/// The last operator applied to the last two operands.
fn reduce(operands: &mut Vec<Expr>, ops: &mut Vec<BinOp>) -> Option<()> {
    let op = ops.pop()?;
    let right = operands.pop()?;
    let left = operands.pop()?;
    let span = left.span.to(right.span);
    operands.push(Expr {
        kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
        span,
    });
    Some(())
}
