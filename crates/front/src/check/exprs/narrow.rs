//! Optional values (`T?`) and what a test learns about them: inside `if x != none`,
//! after `x != none and`, in the `else` of `if x == none`, and after
//! `if x == none { return .. }`, the local `x` reads as its value (`Unwrap`). A local
//! known this way cannot be given a new value there, so it never turns out none.

use super::FnCtx;
use crate::ir::{self, ExprKind as K};

/// The optional locals known not to be none where `cond` is true (`then`) or false.
/// Walks `and`/`or` with a stack of its own, not by recursion: a condition may be a chain
/// of thousands of them.
pub(super) fn known(cond: &ir::Expr, then: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut todo = vec![(cond, then)];
    while let Some((cond, then)) = todo.pop() {
        match (&cond.kind, then) {
            (K::IsSome(x), true) => {
                if let K::Local(s) = x.kind {
                    out.push(s);
                }
            }
            (K::Not(x), _) => todo.push((x, !then)),
            // `a` first, then `b`.
            (K::And(a, b), true) | (K::Or(a, b), false) => {
                todo.push((b, then));
                todo.push((a, then));
            }
            _ => {}
        }
    }
    out
}

/// Runs `f` with `slots` known not to be none, then forgets them.
pub(super) fn with_known<T>(
    fcx: &mut FnCtx,
    slots: Vec<usize>,
    f: impl FnOnce(&mut FnCtx) -> T,
) -> T {
    let mark = fcx.known_some.len();
    fcx.known_some.extend(slots);
    let out = f(fcx);
    fcx.known_some.truncate(mark);
    out
}
