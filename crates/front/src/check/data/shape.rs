//! The shape of record and outcome types: none holds itself, none is too large.
//!
//! A value of a record type holds a value of each field's type; an outcome's tag holds
//! its fields. A type that holds itself (directly, or through other records and
//! outcomes; not through a list, which may be empty) has no finite value: it is refused
//! (`E0361`), as the Rust struct would be. A type holding more than
//! [`MAX_RECORD_VALUES`] values is refused too (`E0362`): doubling a record at each
//! level would otherwise grow values, and generated structs, exponentially.
//!
//! The field closing a cycle, and the record fields of a type too large, become
//! `Ty::Error`, so every later stage sees finite, bounded values (and
//! `Program::zero` terminates). The walk is iterative: any number of types, any depth.

use super::lookup;
use crate::check::{Checker, DefKind, Entry};
use crate::ir::Ty;
use crate::source::Span;
use std::collections::HashMap;

/// Most values one record (or outcome tag) holds, counting those of the records it
/// holds: a list or a track counts as one, a map as one per key.
pub const MAX_RECORD_VALUES: u64 = 4_096;
/// Most records (or outcomes) nested in one another, as brackets are in a formula: every
/// stage that walks a value recurses this deep.
pub const MAX_TYPE_DEPTH: u64 = crate::syntax::MAX_NESTING as u64;

/// A record type (`Rec`) or an outcome type (`Out`): the nodes of the "holds" graph.
#[derive(Clone, Copy, PartialEq)]
enum Node {
    Rec(usize),
    Out(usize),
}

/// The type a field's type makes its value hold by value, if any.
fn held(ty: &Ty) -> Option<Node> {
    match ty {
        Ty::Record(r) => Some(Node::Rec(*r)),
        Ty::Outcome(o) => Some(Node::Out(*o)),
        _ => None,
    }
}

/// The fields of a node: a record's, or every tag's of an outcome, in order.
fn fields(c: &Checker, n: Node) -> Vec<(String, Ty)> {
    match n {
        Node::Rec(r) => c.prog.records[r]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone()))
            .collect(),
        Node::Out(o) => c.prog.outcomes[o]
            .tags
            .iter()
            .flat_map(|t| {
                t.fields
                    .iter()
                    .map(move |(f, ty)| (format!("{}.{f}", t.name), ty.clone()))
            })
            .collect(),
    }
}

fn set_error(c: &mut Checker, n: Node, field: usize) {
    match n {
        Node::Rec(r) => c.prog.records[r].fields[field].ty = Ty::Error,
        Node::Out(o) => {
            let mut i = field;
            for t in &mut c.prog.outcomes[o].tags {
                if i < t.fields.len() {
                    t.fields[i].1 = Ty::Error;
                    return;
                }
                i -= t.fields.len();
            }
        }
    }
}

fn name(c: &Checker, n: Node) -> String {
    match n {
        Node::Rec(r) => c.prog.records[r].name.clone(),
        Node::Out(o) => c.prog.outcomes[o].name.clone(),
    }
}

/// Checks every record and outcome type; `types` (the `types:` section) gives the
/// place of each record field for diagnostics.
pub(super) fn check_shapes(c: &mut Checker, types: &[Entry]) {
    let records = c.prog.records.len();
    let nodes = records + c.prog.outcomes.len();
    let node = |i: usize| {
        if i < records {
            Node::Rec(i)
        } else {
            Node::Out(i - records)
        }
    };
    let index = |n: Node| match n {
        Node::Rec(r) => r,
        Node::Out(o) => records + o,
    };
    let mut spans: Vec<HashMap<String, Span>> = vec![HashMap::new(); records];
    for e in types {
        if let (Some(name), Some(map)) = (e.key.as_str(), e.value.as_map()) {
            if let Some(DefKind::Record(id)) = lookup(c, name) {
                for (k, _) in map {
                    spans[id].insert(k.scalar_text().unwrap_or_default(), k.span);
                }
            }
        }
    }
    let span_of = |c: &Checker, n: Node, field: &str| match n {
        Node::Rec(r) => spans[r]
            .get(field)
            .copied()
            .unwrap_or(c.prog.records[r].span),
        Node::Out(o) => c.prog.outcomes[o].span,
    };
    // Depth first: a field leading back to a type on the stack closes a cycle.
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let all: Vec<Vec<(String, Ty)>> = (0..nodes).map(|i| fields(c, node(i))).collect();
    let mut state = vec![NEW; nodes];
    let mut next = vec![0usize; nodes];
    let mut finished = Vec::with_capacity(nodes);
    for root in 0..nodes {
        if state[root] != NEW {
            continue;
        }
        state[root] = OPEN;
        let mut stack = vec![root];
        while let Some(&at) = stack.last() {
            let fi = next[at];
            let Some((fname, ty)) = all[at].get(fi) else {
                state[at] = DONE;
                finished.push(at);
                stack.pop();
                continue;
            };
            next[at] += 1;
            let Some(to) = held(ty).map(index) else {
                continue;
            };
            match state[to] {
                NEW => {
                    state[to] = OPEN;
                    stack.push(to);
                }
                OPEN => {
                    // The path from `to` round to `to`: the field each type on the
                    // stack is being walked through, then this one.
                    let from = stack.iter().position(|&s| s == to).unwrap_or(0);
                    let mut path: Vec<String> = stack[from..stack.len() - 1]
                        .iter()
                        .map(|&s| format!("{}.{}", name(c, node(s)), all[s][next[s] - 1].0))
                        .collect();
                    path.push(format!("{}.{fname}", name(c, node(at))));
                    path.push(name(c, node(to)));
                    let tname = name(c, node(to));
                    let span = span_of(c, node(at), fname);
                    c.error(
                        "E0361",
                        span,
                        format!("type `{tname}` holds itself: {}", path.join(" → ")),
                        "holds itself",
                        format!(
                            "a value cannot hold one of its own type, even through other records or outcomes (it would never end); hold a list instead (`list<{tname}>`), which may be empty"
                        ),
                    );
                    set_error(c, node(at), fi);
                }
                _ => {}
            }
        }
    }
    // Sizes, each type after the types it holds (the order they were finished in).
    let mut size = vec![1u64; nodes];
    let mut depth = vec![1u64; nodes];
    // Refused for its size, or holding one refused: reported once, at the first.
    let mut refused = vec![false; nodes];
    for i in finished {
        let n = node(i);
        let holds_refused: Vec<usize> = all[i]
            .iter()
            .enumerate()
            .filter(|(_, (_, ty))| held(ty).is_some_and(|h| refused[index(h)]))
            .map(|(fi, _)| fi)
            .collect();
        if !holds_refused.is_empty() {
            for fi in holds_refused {
                set_error(c, n, fi);
            }
            refused[i] = true;
            continue;
        }
        let of = |ty: &Ty, size: &[u64], c: &Checker| match ty {
            Ty::Map(k, _) => c.prog.choices[*k].variants.len().max(1) as u64,
            ty => held(ty).map_or(1, |h| size[index(h)]),
        };
        // A record holds all its fields; an outcome the fields of its largest tag.
        let measure = |c: &Checker, size: &[u64]| -> u64 {
            let sum = |fs: &mut dyn Iterator<Item = &Ty>| {
                fs.fold(0u64, |t, ty| t.saturating_add(of(ty, size, c)))
            };
            match n {
                Node::Rec(r) => sum(&mut c.prog.records[r].fields.iter().map(|f| &f.ty)),
                Node::Out(o) => c.prog.outcomes[o]
                    .tags
                    .iter()
                    .map(|t| sum(&mut t.fields.iter().map(|(_, ty)| ty)))
                    .max()
                    .unwrap_or(0),
            }
        };
        let deepest = |c: &Checker, depth: &[u64]| {
            fields(c, n)
                .iter()
                .filter_map(|(_, ty)| held(ty))
                .map(|h| depth[index(h)] + 1)
                .max()
                .unwrap_or(1)
        };
        let total = measure(c, &size);
        let deep = deepest(c, &depth);
        if total > MAX_RECORD_VALUES || deep > MAX_TYPE_DEPTH {
            let span = match n {
                Node::Rec(r) => c.prog.records[r].span,
                Node::Out(o) => c.prog.outcomes[o].span,
            };
            let tname = name(c, n);
            let msg = if total > MAX_RECORD_VALUES {
                format!("type `{tname}` holds {total} values, with the records it holds")
            } else {
                format!("type `{tname}` holds records nested {deep} deep")
            };
            c.error(
                "E0362",
                span,
                msg,
                "too large",
                format!(
                    "a record or outcome holds at most {MAX_RECORD_VALUES} values, nested at most {MAX_TYPE_DEPTH} deep; hold a list of records, or split the type"
                ),
            );
            for (fi, (_, ty)) in all[i].iter().enumerate() {
                if held(ty).is_some() {
                    set_error(c, n, fi);
                }
            }
            refused[i] = true;
        }
        size[i] = measure(c, &size).max(1);
        depth[i] = deepest(c, &depth);
    }
}
