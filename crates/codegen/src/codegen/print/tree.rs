//! The statements of a printed body, before they are Rust: `if`s made of the blocks
//! that jumps leave, and the lines they are rendered as.

/// The webs (variables written at more than one place) a statement reads or writes.
pub(super) type Refs = Vec<u32>;

/// A statement of a printed body.
#[derive(Debug, Clone)]
pub(super) enum S {
    Line(String, Refs),
    /// A `let` of a value computed without effect.
    Let(String, Refs),
    /// A value given to web `var` (named `name`), one of its writes.
    Set {
        var: u32,
        name: String,
        text: String,
        refs: Refs,
    },
    /// Web `var` declared (by [`declare`]), with its first value where [`fuse`] found it.
    Decl {
        var: u32,
        name: String,
        ty: Option<&'static str>,
        init: Option<String>,
        mutable: bool,
        refs: Refs,
    },
    Return(Option<String>, Refs),
    If {
        cond: String,
        refs: Refs,
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

impl S {
    /// The webs the statement itself names (not those of the statements inside it).
    pub(super) fn own_refs(&self) -> &[u32] {
        match self {
            S::Line(_, r) | S::Let(_, r) | S::Return(_, r) => r,
            S::Set { refs, .. } | S::Decl { refs, .. } | S::If { refs, .. } => refs,
            S::Block { .. } | S::Break(_) => &[],
        }
    }

    /// Whether the statement, or one inside it, names web `v`.
    pub(super) fn mentions(&self, v: u32) -> bool {
        self.own_refs().contains(&v)
            || match self {
                S::If { then, els, .. } => {
                    then.iter().any(|s| s.mentions(v)) || els.iter().any(|s| s.mentions(v))
                }
                S::Block { body, .. } => body.iter().any(|s| s.mentions(v)),
                _ => false,
            }
    }
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
    let lets = tail.iter().filter(|s| matches!(s, S::Let(..))).count();
    // Between the `if` and the `return`: the `let`s and trace events only.
    let plain = tail.split_last().is_some_and(|(_, between)| {
        between.iter().all(|s| match s {
            S::Let(..) => true,
            S::Line(l, _) => l.starts_with("if T::ENABLED {"),
            _ => false,
        })
    });
    if !els.is_empty()
        || !matches!(then.last(), Some(S::Return(Some(_), _)))
        || !matches!(tail.last(), Some(S::Return(Some(_), _)))
        || lets == 0
        || lets > HOIST_MAX
        || !plain
    {
        return;
    }
    let mut hoisted = Vec::new();
    let mut i = at + 1;
    while i < stmts.len() {
        if matches!(stmts[i], S::Let(..)) {
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
        _ => false,
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
            S::If {
                cond,
                refs,
                then,
                els,
            } => out.push(S::If {
                cond,
                refs,
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
    // An `and` or `or` chain stays a block, for `webs::values` to read back.
    if let Some(S::If { cond, refs, .. }) = body.first() {
        let name = cond.strip_prefix('!').unwrap_or(cond);
        if let [x] = refs.as_slice() {
            if super::webs::chain(label, *x, name, &body).is_some() {
                return vec![S::Block { label, body }];
            }
        }
    }
    // The first statement that leaves the block, after statements that do not.
    let Some(k) = body
        .iter()
        .position(|s| breaks(std::slice::from_ref(s), label))
    else {
        return body;
    };
    let leaves = |then: &[S]| {
        matches!(then.last(), Some(S::Break(l)) if *l == label)
            && !breaks(&then[..then.len() - 1], label)
    };
    match &body[k] {
        // `if c { a; break 'l } rest` is `if c { a } else { rest }`, and `if c { break 'l }
        // rest` is `if !c { rest }`: the rest's own leaving of the block is its end (the
        // end of the `if` is the block's).
        S::If { then, els, .. } if els.is_empty() && leaves(then) => {
            let rest = body.split_off(k + 1);
            let Some(S::If {
                cond,
                refs,
                mut then,
                ..
            }) = body.pop()
            else {
                unreachable!("matched above")
            };
            then.pop();
            body.push(if then.is_empty() {
                S::If {
                    cond: not(&cond),
                    refs,
                    then: block(label, rest),
                    els: Vec::new(),
                }
            } else {
                S::If {
                    cond,
                    refs,
                    then,
                    els: block(label, rest),
                }
            });
            body
        }
        _ => vec![S::Block { label, body }],
    }
}

/// `!c`, as simply as it reads: a comparison turned over, a negation dropped.
pub(super) fn not(c: &str) -> String {
    match c {
        "true" => return "false".into(),
        "false" => return "true".into(),
        _ => {}
    }
    if let Some(inner) = c.strip_prefix('!') {
        if paren(inner) == inner {
            return inner.to_string();
        }
    }
    // One comparison outside any brackets, and no `&&` or `||` there: turned over.
    let mut depth = 0i32;
    let mut found = Vec::new();
    let bytes = c.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b' ' if depth == 0 => {
                for op in ["== ", "!= ", "<= ", ">= ", "< ", "> ", "&& ", "|| "] {
                    if c[i + 1..].starts_with(op) {
                        found.push((i, op.trim_end()));
                    }
                }
            }
            _ => {}
        }
    }
    if let [(at, op)] = found.as_slice() {
        let neg = match *op {
            "==" => Some("!="),
            "!=" => Some("=="),
            "<=" => Some(">"),
            ">=" => Some("<"),
            "<" => Some(">="),
            ">" => Some("<="),
            _ => None,
        };
        if let Some(neg) = neg {
            let (a, b) = (&c[..*at], &c[at + 1 + op.len() + 1..]);
            return format!("{a} {neg} {b}");
        }
    }
    format!("!{}", paren(c))
}

/// `stmts` as lines of Rust, the last statement the body's value when `tail`.
pub(super) fn render(stmts: &[S], tail: bool, out: &mut Vec<String>) {
    for (i, s) in stmts.iter().enumerate() {
        let last = tail && i + 1 == stmts.len();
        match s {
            S::Line(l, _) | S::Let(l, _) => out.push(l.clone()),
            S::Set { name, text, .. } => out.push(format!("{name} = {text};")),
            S::Decl {
                name,
                ty,
                init,
                mutable,
                ..
            } => {
                let m = if *mutable { "mut " } else { "" };
                let ty = ty.map(|t| format!(": {t}")).unwrap_or_default();
                out.push(match init {
                    Some(init) => format!("let {m}{name}{ty} = {init};"),
                    None => format!("let {m}{name}{ty};"),
                });
            }
            S::Return(v, _) => match (v, last) {
                (Some(v), true) => out.push(v.clone()),
                (None, true) => {}
                (Some(v), false) => out.push(format!("return {v};")),
                (None, false) => out.push("return;".into()),
            },
            S::If {
                cond, then, els, ..
            } => {
                out.push(format!("if {cond} {{"));
                render(then, last, out);
                // `else if`, not `else { if .. }`.
                let mut els = els;
                while let [S::If {
                    cond, then, els: e, ..
                }] = els.as_slice()
                {
                    out.push(format!("}} else if {cond} {{"));
                    render(then, last, out);
                    els = e;
                }
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
            ("a + b < c", "a + b >= c"),
            ("f(a < b)", "!f(a < b)"),
            ("f(a, b) == x.y", "f(a, b) != x.y"),
            ("a && b < c", "!(a && b < c)"),
            ("true", "false"),
        ] {
            assert_eq!(not(c), turned, "{c}");
        }
    }

    /// `'l: { if c { break 'l } a }` is `if !c { a }`; `'l: { if c { a; break 'l } b }`
    /// is `if c { a } else { b }`, with what comes before the `if` kept before it; a block
    /// left from an `else` stays a block.
    #[test]
    fn blocks_left_by_an_if_become_ifs() {
        let line = |s: &str| S::Line(s.into(), Vec::new());
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
                    refs: Vec::new(),
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
                    refs: Vec::new(),
                    then: vec![line("a();"), S::Break(9)],
                    els: vec![],
                },
                line("b();"),
            ],
        }];
        assert_eq!(shown(both), "if c { a(); } else { b(); }");
        // Statements before the `if` stay before it.
        let after = vec![S::Block {
            label: 9,
            body: vec![
                line("a();"),
                S::If {
                    cond: "c".into(),
                    refs: Vec::new(),
                    then: vec![S::Break(9)],
                    els: vec![],
                },
                line("b();"),
            ],
        }];
        assert_eq!(shown(after), "a(); if !c { b(); }");
        let left = vec![S::Block {
            label: 9,
            body: vec![
                S::If {
                    cond: "c".into(),
                    refs: Vec::new(),
                    then: vec![line("a();")],
                    els: vec![S::Break(9)],
                },
                line("b();"),
            ],
        }];
        assert_eq!(
            shown(left),
            "'b9: { if c { a(); } else { break 'b9; } b(); }"
        );
    }
}
