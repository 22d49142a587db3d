//! The statements of a printed body, before they are Rust: `if`s made of the blocks
//! that jumps leave, and the lines they are rendered as.

/// A statement of a printed body.
#[derive(Debug, Clone)]
pub(super) enum S {
    Line(String),
    /// A `let` of a value computed without effect.
    Let(String),
    Return(Option<String>),
    If {
        cond: String,
        then: Vec<S>,
        els: Vec<S>,
    },
    /// A block the jumps to instruction `label` leave.
    Block {
        label: usize,
        body: Vec<S>,
    },
    Break(usize),
}

/// The most `let`s [`hoist_last_return`] computes ahead of an `if`.
const HOIST_MAX: usize = 4;

/// `if c { .. return a } let x = ..; return x`, where the `let`s compute without effect:
/// the `let`s are moved before the `if`, so both results are ready when the condition is
/// known and the optimizer can pick one without a branch (a hit or a miss is a coin toss
/// no predictor learns). Only trace events and the `let`s stand between, so the trace and
/// the result are the same.
pub(super) fn hoist_last_return(stmts: &mut Vec<S>) {
    let Some(at) = stmts.iter().rposition(|s| matches!(s, S::If { .. })) else {
        return;
    };
    let S::If { then, els, .. } = &stmts[at] else {
        unreachable!("found above")
    };
    let tail = &stmts[at + 1..];
    let lets = tail.iter().filter(|s| matches!(s, S::Let(_))).count();
    // Between the `if` and the `return`: the `let`s and trace events only.
    let plain = tail.split_last().is_some_and(|(_, between)| {
        between.iter().all(|s| match s {
            S::Let(_) => true,
            S::Line(l) => l.starts_with("if T::ENABLED {"),
            _ => false,
        })
    });
    if !els.is_empty()
        || !matches!(then.last(), Some(S::Return(Some(_))))
        || !matches!(tail.last(), Some(S::Return(Some(_))))
        || lets == 0
        || lets > HOIST_MAX
        || !plain
    {
        return;
    }
    let mut hoisted = Vec::new();
    let mut i = at + 1;
    while i < stmts.len() {
        if matches!(stmts[i], S::Let(_)) {
            hoisted.push(stmts.remove(i));
        } else {
            i += 1;
        }
    }
    stmts.splice(at..at, hoisted);
}

/// Whether `stmts` leave block `label` anywhere.
fn breaks(stmts: &[S], label: usize) -> bool {
    stmts.iter().any(|s| match s {
        S::Break(l) => *l == label,
        S::If { then, els, .. } => breaks(then, label) || breaks(els, label),
        S::Block { body, .. } => breaks(body, label),
        S::Line(_) | S::Let(_) | S::Return(_) => false,
    })
}

/// The blocks `if`s leave as `if`/`else`: `'l: { if c { break 'l } rest }` is
/// `if !c { rest }`, and `'l: { 'm: { if c { break 'm } a; break 'l } b }` is
/// `if !c { a } else { b }`; a block nothing leaves is its statements.
pub(super) fn simplify(stmts: Vec<S>) -> Vec<S> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            S::Block { label, body } => {
                let mut body = simplify(body);
                // Falling off the end of the block is leaving it.
                if matches!(body.last(), Some(S::Break(l)) if *l == label) {
                    body.pop();
                }
                out.extend(block(label, body));
            }
            S::If { cond, then, els } => out.push(S::If {
                cond,
                then: simplify(then),
                els: simplify(els),
            }),
            s => out.push(s),
        }
    }
    out
}

/// Block `label` of `body` (simplified), as `if`s where it has their shape.
fn block(label: usize, mut body: Vec<S>) -> Vec<S> {
    // `if c { break 'l } rest`.
    if let Some(S::If { then, els, .. }) = body.first() {
        if els.is_empty()
            && matches!(then.as_slice(), [S::Break(l)] if *l == label)
            && !breaks(&body[1..], label)
        {
            let S::If { cond, .. } = body.remove(0) else {
                unreachable!("matched above")
            };
            return vec![S::If {
                cond: not(&cond),
                then: body,
                els: Vec::new(),
            }];
        }
    }
    // `if c { a } else { b }`: a nested `if` whose arm ends by leaving this block.
    if let Some(S::If { then, els, .. }) = body.first() {
        if els.is_empty() && matches!(then.last(), Some(S::Break(l)) if *l == label) {
            let inner = &then[..then.len() - 1];
            if !breaks(inner, label) && !breaks(&body[1..], label) {
                let S::If { cond, mut then, .. } = body.remove(0) else {
                    unreachable!("matched above")
                };
                then.pop();
                return vec![S::If {
                    cond,
                    then,
                    els: body,
                }];
            }
        }
    }
    if breaks(&body, label) {
        vec![S::Block { label, body }]
    } else {
        body
    }
}

/// `!c`, as simply as it reads: a comparison turned over, a negation dropped.
pub(super) fn not(c: &str) -> String {
    if let Some(inner) = c.strip_prefix('!') {
        if paren(inner) == inner {
            return inner.to_string();
        }
    }
    for (op, neg) in [
        (" == ", " != "),
        (" != ", " == "),
        (" <= ", " > "),
        (" >= ", " < "),
        (" < ", " >= "),
        (" > ", " <= "),
    ] {
        if let Some((a, b)) = c.split_once(op) {
            if !a.contains(' ') && !b.contains(' ') {
                return format!("{a}{neg}{b}");
            }
        }
    }
    format!("!{}", paren(c))
}

/// `stmts` as lines of Rust, the last statement the body's value when `tail`.
pub(super) fn render(stmts: &[S], tail: bool, out: &mut Vec<String>) {
    for (i, s) in stmts.iter().enumerate() {
        let last = tail && i + 1 == stmts.len();
        match s {
            S::Line(l) | S::Let(l) => out.push(l.clone()),
            S::Return(v) => match (v, last) {
                (Some(v), true) => out.push(v.clone()),
                (None, true) => {}
                (Some(v), false) => out.push(format!("return {v};")),
                (None, false) => out.push("return;".into()),
            },
            S::If { cond, then, els } => {
                out.push(format!("if {cond} {{"));
                render(then, last, out);
                if !els.is_empty() {
                    out.push("} else {".into());
                    render(els, last, out);
                }
                out.push("}".into());
            }
            S::Block { label, body } => {
                out.push(format!("'b{label}: {{"));
                render(body, false, out);
                out.push("}".into());
            }
            S::Break(l) => out.push(format!("break 'b{l};")),
        }
    }
}

/// `x` as an operand of a prefix or postfix operator: in parentheses unless it is a
/// name, a literal, a path, a field or a call.
pub(super) fn paren(x: &str) -> String {
    let path = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.'))
    };
    // `path(..)`: a call, its first parenthesis closed by its last.
    let call = x.ends_with(')')
        && x.find('(').is_some_and(|open| {
            path(&x[..open]) && {
                let mut depth = 0;
                x[open..].char_indices().all(|(i, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth > 0 || open + i == x.len() - 1
                })
            }
        });
    if path(x) || call {
        x.to_string()
    } else {
        format!("({x})")
    }
}

#[cfg(test)]
mod tests {
    use super::{not, simplify, S};

    /// A condition turned over reads as written: comparisons flipped, a negation dropped,
    /// anything else negated in parentheses when it needs them.
    #[test]
    fn a_condition_turned_over_reads_plainly() {
        for (c, turned) in [
            ("a < b", "a >= b"),
            ("a >= 1", "a < 1"),
            ("x.hp <= 0", "x.hp > 0"),
            ("a == Scale::Low", "a != Scale::Low"),
            ("taken", "!taken"),
            ("!taken", "taken"),
            ("f(a, b)", "!f(a, b)"),
            ("a + b < c", "!(a + b < c)"),
        ] {
            assert_eq!(not(c), turned, "{c}");
        }
    }

    /// `'l: { if c { break 'l } a }` is `if !c { a }`; `'l: { if c { a; break 'l } b }`
    /// is `if c { a } else { b }`; a block still left from inside stays a block.
    #[test]
    fn blocks_left_by_an_if_become_ifs() {
        let line = |s: &str| S::Line(s.into());
        let shown = |stmts: Vec<S>| {
            let mut out = Vec::new();
            super::render(&simplify(stmts), false, &mut out);
            out.join(" ")
        };
        let guard = vec![S::Block {
            label: 9,
            body: vec![
                S::If {
                    cond: "c".into(),
                    then: vec![S::Break(9)],
                    els: vec![],
                },
                line("a();"),
            ],
        }];
        assert_eq!(shown(guard), "if !c { a(); }");
        let both = vec![S::Block {
            label: 9,
            body: vec![
                S::If {
                    cond: "c".into(),
                    then: vec![line("a();"), S::Break(9)],
                    els: vec![],
                },
                line("b();"),
            ],
        }];
        assert_eq!(shown(both), "if c { a(); } else { b(); }");
        let left = vec![S::Block {
            label: 9,
            body: vec![
                line("a();"),
                S::If {
                    cond: "c".into(),
                    then: vec![S::Break(9)],
                    els: vec![],
                },
                line("b();"),
            ],
        }];
        assert_eq!(shown(left), "'b9: { a(); if c { break 'b9; } b(); }");
    }
}
