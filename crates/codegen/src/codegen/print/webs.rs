//! Webs (variables written at more than one place) made Rust: `and`/`or` chains and
//! `if` values read back from the jumps, and each web declared where its scope starts.

use super::tree::{not, render, Refs, S};

/// Values merged from branches made expressions, until none is left to make:
/// `x = a; if x { x = b }` is `x = a && b` (and `if !x`, `||`), a block of such tests
/// leaving it (`a && b && c`) likewise, and a value made only to be given to another
/// (`x = ..; y = x`, or an `if` giving `x` a value in each arm, then `y = x`) given to it
/// directly.
pub(super) fn values(stmts: &mut Vec<S>) {
    loop {
        let mut counts = std::collections::HashMap::new();
        count(stmts, &mut counts);
        if !step(stmts, &counts) {
            return;
        }
    }
}

/// How many times each web is named, by every statement.
fn count(list: &[S], counts: &mut std::collections::HashMap<u32, usize>) {
    for s in list {
        for &v in s.own_refs() {
            *counts.entry(v).or_default() += 1;
        }
        match s {
            S::If { then, els, .. } => {
                count(then, counts);
                count(els, counts);
            }
            S::Block { body, .. } => count(body, counts),
            _ => {}
        }
    }
}

/// One value made an expression, inner lists first; whether one was.
fn step(list: &mut Vec<S>, counts: &std::collections::HashMap<u32, usize>) -> bool {
    for s in list.iter_mut() {
        let inner = match s {
            S::If { then, els, .. } => step(then, counts) || step(els, counts),
            S::Block { body, .. } => step(body, counts),
            _ => false,
        };
        if inner {
            return true;
        }
    }
    for i in 0..list.len().saturating_sub(1) {
        // `x = a` and then the rest of an `and` or `or` chain.
        if let S::Set { var, name, .. } = &list[i] {
            let (x, name) = (*var, name.clone());
            let rest = match &list[i + 1] {
                S::Block { label, body } => chain(*label, x, &name, body),
                S::If {
                    cond,
                    refs,
                    then,
                    els,
                } if els.is_empty() && refs.as_slice() == [x] => {
                    // `if x { .. }` goes on while `x` holds: `and`.
                    let op = if *cond == name {
                        Some(" && ")
                    } else if *cond == format!("!{name}") {
                        Some(" || ")
                    } else {
                        None
                    };
                    op.and_then(|op| link(op, x, then).map(|(t, r)| (op, vec![t], r)))
                }
                _ => None,
            };
            if let Some((op, more, more_refs)) = rest {
                list.remove(i + 1);
                let S::Set {
                    var: x,
                    name,
                    text,
                    mut refs,
                } = list.remove(i)
                else {
                    unreachable!("matched above")
                };
                // `true && b` is `b`, `false || b` is `b`.
                let neutral = if op == " && " { "true" } else { "false" };
                let mut all = vec![operand(op, &text)];
                all.extend(more);
                all.retain(|o| o != neutral);
                if all.is_empty() {
                    all.push(neutral.to_string());
                }
                refs.extend(more_refs);
                // A long chain in links of at most `MAX_NEST` operands, each after the
                // first going on from the value so far: `x = a && ..; x = x && ..`.
                let links: Vec<S> = all
                    .chunks(super::MAX_NEST as usize)
                    .enumerate()
                    .map(|(k, part)| {
                        let mut refs = refs.clone();
                        let text = if k == 0 {
                            part.join(op)
                        } else {
                            refs.push(x);
                            format!("{name}{op}{}", part.join(op))
                        };
                        S::Set {
                            var: x,
                            name: name.clone(),
                            text,
                            refs,
                        }
                    })
                    .collect();
                list.splice(i..i, links);
                return true;
            }
        }
        // `x = a; if x { .. }`: `if a { .. }`, where nothing else reads `x`.
        if let (
            S::Set {
                var: x,
                name,
                text,
                refs: set_refs,
            },
            S::If { cond, refs, .. },
        ) = (&list[i], &list[i + 1])
        {
            let x = *x;
            let tested = if *cond == *name {
                Some(text.clone())
            } else if *cond == format!("!{name}") {
                Some(not(text))
            } else {
                None
            };
            if let Some(tested) = tested.filter(|_| {
                refs.iter().filter(|&&r| r == x).count() == 1 && counts.get(&x) == Some(&2)
            }) {
                let more: Refs = set_refs.iter().copied().filter(|&r| r != x).collect();
                list.remove(i);
                let S::If { cond, refs, .. } = &mut list[i] else {
                    unreachable!("matched above")
                };
                *cond = tested;
                refs.retain(|&r| r != x);
                refs.extend(more);
                return true;
            }
        }
        // `x = ..; y = x` (or an `if` giving `x` its value in each arm): `y = ..`.
        let S::Set {
            var: y,
            name: y_name,
            text,
            refs,
        } = &list[i + 1]
        else {
            continue;
        };
        let x = match &list[i] {
            S::Set { var, .. } => *var,
            s @ S::If { .. } => match last_set(s) {
                Some(x) if assigns(s, x) => x,
                _ => continue,
            },
            _ => continue,
        };
        let named = |s: &S| {
            let mut c = std::collections::HashMap::new();
            count(std::slice::from_ref(s), &mut c);
            c.get(&x).copied().unwrap_or(0)
        };
        let x_name = match &list[i] {
            S::Set { name, .. } => name.clone(),
            s => set_name(s),
        };
        if *text != x_name
            || refs.iter().filter(|&&r| r == x).count() != 1
            || counts.get(&x).copied() != Some(named(&list[i]) + 1)
        {
            continue;
        }
        let (y, y_name) = (*y, y_name.clone());
        list.remove(i + 1);
        retarget(&mut list[i], x, y, &y_name);
        return true;
    }
    false
}

/// The web an `if`'s then-arm gives its last value to, following nested `if`s.
fn last_set(s: &S) -> Option<u32> {
    match s {
        S::If { then, .. } => match then.last()? {
            S::Set { var, .. } => Some(*var),
            inner => last_set(inner),
        },
        _ => None,
    }
}

/// The name of the web an `if` that [`assigns`] one writes, or a `Set` names.
fn set_name(s: &S) -> String {
    match s {
        S::Set { name, .. } => name.clone(),
        S::If { then, .. } => then.last().map_or_else(String::new, set_name),
        _ => String::new(),
    }
}

/// The values `s` gives web `x` given to `y` instead.
fn retarget(s: &mut S, x: u32, y: u32, y_name: &str) {
    match s {
        S::Set {
            var, name, refs, ..
        } if *var == x => {
            *var = y;
            *name = y_name.to_string();
            for r in refs.iter_mut().filter(|r| **r == x) {
                *r = y;
            }
        }
        S::If { then, els, .. } => {
            if let Some(l) = then.last_mut() {
                retarget(l, x, y, y_name);
            }
            if let Some(l) = els.last_mut() {
                retarget(l, x, y, y_name);
            }
        }
        _ => {}
    }
}

/// The rest of an `and` or `or` chain: block `label`'s `body` of tests of web `x` that
/// leave the block (`if !x { break }`: `and`; `if x { break }`: `or`), each followed by the
/// statements that give `x` its next operand: the operator, the operands (`b`, `{ ..; c }`)
/// and the webs they name, or `None` when the block has another shape.
pub(super) fn chain(
    label: usize,
    x: u32,
    name: &str,
    body: &[S],
) -> Option<(&'static str, Vec<String>, Refs)> {
    let is_guard = |s: &S| {
        matches!(s, S::If { then, els, .. }
            if els.is_empty() && matches!(then.as_slice(), [S::Break(l)] if *l == label))
    };
    let (mut op, mut operands, mut refs) = (None, Vec::new(), Refs::new());
    let mut i = 0;
    while i < body.len() {
        let S::If { cond, refs: r, .. } = &body[i] else {
            return None;
        };
        let this = if !is_guard(&body[i]) || r.as_slice() != [x] {
            return None;
        } else if cond == name {
            " || "
        } else if *cond == format!("!{name}") {
            " && "
        } else {
            return None;
        };
        if op.is_some_and(|o| o != this) {
            return None;
        }
        op = Some(this);
        i += 1;
        let start = i;
        while i < body.len() && !is_guard(&body[i]) {
            i += 1;
        }
        let (t, r) = link(this, x, &body[start..i])?;
        operands.push(t);
        refs.extend(r);
    }
    Some((op?, operands, refs))
}

/// One operand of a chain of web `x`: `seg`'s effect-free `let`s and trace events (none
/// naming `x`) and then the value it gives `x` (not reading `x`), as one expression with
/// the webs it names.
fn link(op: &str, x: u32, seg: &[S]) -> Option<(String, Refs)> {
    let (
        S::Set {
            var,
            text: value,
            refs: r,
            ..
        },
        before,
    ) = seg.split_last()?
    else {
        return None;
    };
    let plain = before
        .iter()
        .all(|s| matches!(s, S::Line(..) | S::Let(..)) && !s.mentions(x));
    if *var != x || !plain || r.iter().filter(|&&v| v == x).count() > 1 {
        return None;
    }
    let mut refs: Refs = before
        .iter()
        .flat_map(|s| s.own_refs().iter().copied())
        .collect();
    refs.extend(r.iter().copied().filter(|&v| v != x));
    Some((expr_block(op, before, value), refs))
}

/// `value` after `before` as one operand of `op`: itself, or a block ending in it.
fn expr_block(op: &str, before: &[S], value: &str) -> String {
    if before.is_empty() {
        return operand(op, value);
    }
    let mut lines = Vec::new();
    render(before, false, &mut lines);
    format!("{{ {} {value} }}", lines.join(" "))
}

/// `x` as an operand of `op` (` && ` or ` || `): in parentheses when it is an `if`, or a
/// chain of `||` under `&&`.
fn operand(op: &str, x: &str) -> String {
    if x.starts_with("if ") || (op == " && " && x.contains(" || ")) {
        format!("({x})")
    } else {
        x.to_string()
    }
}

/// A web to declare: its variable, name and type as a `let` writes it (`None`: inferred).
pub(super) struct Web {
    pub var: u32,
    pub name: String,
    pub ty: Option<&'static str>,
}

/// Each web declared where its scope starts: before the first statement naming it, in
/// the innermost list holding every statement that names it, then the declarations given
/// their first values ([`fuse`]), a value declared and returned at once returned, and
/// `mut` where a path writes a web twice.
pub(super) fn declare(stmts: &mut Vec<S>, webs: &[Web]) {
    for w in webs {
        place(stmts, w);
    }
    fuse(stmts);
    let mut need = std::collections::BTreeSet::new();
    let mut init = std::collections::BTreeSet::new();
    let mut left = std::collections::BTreeMap::new();
    mutability(stmts, &mut init, &mut need, &mut left);
    mark(stmts, &need);
}

fn place(list: &mut Vec<S>, w: &Web) {
    let holders: Vec<usize> = (0..list.len())
        .filter(|&i| list[i].mentions(w.var))
        .collect();
    let Some(&first) = holders.first() else {
        return;
    };
    if holders.len() == 1 {
        match &mut list[first] {
            S::If {
                refs, then, els, ..
            } if !refs.contains(&w.var) => {
                let in_then = then.iter().any(|s| s.mentions(w.var));
                let in_els = els.iter().any(|s| s.mentions(w.var));
                if in_then != in_els {
                    place(if in_then { then } else { els }, w);
                    return;
                }
            }
            S::Block { body, .. } => {
                place(body, w);
                return;
            }
            _ => {}
        }
    }
    list.insert(
        first,
        S::Decl {
            var: w.var,
            name: w.name.clone(),
            ty: w.ty,
            init: None,
            mutable: false,
            refs: vec![w.var],
        },
    );
}

/// In every list, a declaration followed by its web's first value takes it as its
/// initializer: `let x; x = a;` is `let x = a;`, and `let x; if c { x = a } else { x = b }`
/// (each arm ending in a value of `x`, nothing else naming it) is
/// `let x = if c { a } else { b };`. A value so declared and returned at once is returned.
fn fuse(list: &mut Vec<S>) {
    for s in list.iter_mut() {
        match s {
            S::If { then, els, .. } => {
                fuse(then);
                fuse(els);
            }
            S::Block { body, .. } => fuse(body),
            _ => {}
        }
    }
    let mut i = 0;
    while i + 1 < list.len() {
        let S::Decl {
            var, init: None, ..
        } = list[i]
        else {
            i += 1;
            continue;
        };
        let value = match &list[i + 1] {
            S::Set {
                var: v, text, refs, ..
            } if *v == var => Some((text.clone(), refs.clone())),
            s @ S::If { .. } if assigns(s, var) => {
                let mut refs = Refs::new();
                Some((if_expr(s, &mut refs), refs))
            }
            _ => None,
        };
        if let Some((text, refs)) = value {
            list.remove(i + 1);
            if let S::Decl { init, refs: r, .. } = &mut list[i] {
                *init = Some(text);
                r.extend(refs);
            }
        }
        // `let x = a; return x` is `return a`.
        if let (
            S::Decl {
                var,
                name,
                init: Some(text),
                refs,
                ..
            },
            Some(S::Return(Some(ret), r)),
        ) = (&list[i], list.get(i + 1))
        {
            if ret == name && r.as_slice() == [*var] {
                let ret = S::Return(Some(text.clone()), refs.clone());
                list.splice(i..i + 2, [ret]);
            }
        }
        i += 1;
    }
}

/// An `if` each of whose arms ends in a value of web `v` (or in such an `if`), with
/// nothing else in it naming `v`.
fn assigns(s: &S, v: u32) -> bool {
    let S::If {
        refs, then, els, ..
    } = s
    else {
        return false;
    };
    let arm = |arm: &[S]| match arm.split_last() {
        Some((S::Set { var, refs, .. }, before)) => {
            *var == v
                && refs.iter().filter(|&&r| r == v).count() == 1
                && !before.iter().any(|s| s.mentions(v))
                && before.iter().all(|s| matches!(s, S::Line(..) | S::Let(..)))
        }
        Some((last @ S::If { .. }, before)) => {
            assigns(last, v)
                && !before.iter().any(|s| s.mentions(v))
                && before.iter().all(|s| matches!(s, S::Line(..) | S::Let(..)))
        }
        _ => false,
    };
    !refs.contains(&v) && arm(then) && arm(els)
}

/// An `if` that [`assigns`] a web, as the expression of the value it gives it.
fn if_expr(s: &S, all: &mut Refs) -> String {
    let S::If {
        cond,
        refs,
        then,
        els,
    } = s
    else {
        unreachable!("`assigns` holds of it")
    };
    all.extend(refs);
    let mut arm = |arm: &[S]| {
        let (last, before) = arm.split_last().expect("`assigns` holds of it");
        all.extend(before.iter().flat_map(|s| s.own_refs().iter().copied()));
        let value = match last {
            S::Set { text, refs, .. } => {
                all.extend(refs);
                text.clone()
            }
            s => if_expr(s, all),
        };
        let mut lines = Vec::new();
        render(before, false, &mut lines);
        lines.push(value);
        lines.join(" ")
    };
    let then = arm(then);
    // `else if`, not `else { if .. }`.
    match els.as_slice() {
        [inner @ S::If { .. }] => format!("if {cond} {{ {then} }} else {}", if_expr(inner, all)),
        els => format!("if {cond} {{ {then} }} else {{ {} }}", arm(els)),
    }
}

/// Which webs some path writes twice: `init` the webs that may hold a value where the
/// walk is, `left` what may hold one where each block is left. Whether the end of `list`
/// is reached.
fn mutability(
    list: &[S],
    init: &mut std::collections::BTreeSet<u32>,
    need: &mut std::collections::BTreeSet<u32>,
    left: &mut std::collections::BTreeMap<usize, std::collections::BTreeSet<u32>>,
) -> bool {
    for s in list {
        match s {
            S::Decl { var, init: i, .. } => {
                if i.is_some() {
                    init.insert(*var);
                } else {
                    init.remove(var);
                }
            }
            S::Set { var, .. } => {
                if !init.insert(*var) {
                    need.insert(*var);
                }
            }
            S::Return(..) => return false,
            S::Break(l) => {
                left.entry(*l).or_default().extend(init.iter().copied());
                return false;
            }
            S::If { then, els, .. } => {
                let (mut a, mut b) = (init.clone(), init.clone());
                let on_a = mutability(then, &mut a, need, left);
                let on_b = mutability(els, &mut b, need, left);
                *init = match (on_a, on_b) {
                    (true, true) => a.union(&b).copied().collect(),
                    (true, false) => a,
                    (false, true) => b,
                    (false, false) => return false,
                };
            }
            S::Block { label, body } => {
                let mut a = init.clone();
                let on = mutability(body, &mut a, need, left);
                let out = left.remove(label);
                *init = match (on, out) {
                    (true, Some(o)) => a.union(&o).copied().collect(),
                    (true, None) => a,
                    (false, Some(o)) => o,
                    (false, None) => return false,
                };
            }
            S::Line(..) | S::Let(..) => {}
        }
    }
    true
}

fn mark(list: &mut [S], need: &std::collections::BTreeSet<u32>) {
    for s in list {
        match s {
            S::Decl { var, mutable, .. } => *mutable = need.contains(var),
            S::If { then, els, .. } => {
                mark(then, need);
                mark(els, need);
            }
            S::Block { body, .. } => mark(body, need),
            _ => {}
        }
    }
}
