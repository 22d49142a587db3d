//! Whole-program, after `mutated`: records a procedure changes are passed so that both
//! backends run them alike. The generated Rust changes a caller's record through a
//! `&mut` borrow, so what a procedure changes must be a record of the caller's own
//! parameters (or inside one), passed once and not read beside it in the same call; and
//! a procedure cannot change the records inside a list it was given (the list is its
//! own copy, its records the caller's). Anything else is refused here (`E0333`), at
//! check time, rather than by `build`.

use super::Checker;
use crate::ir::places::{changed_roots, record_aliases, resolve, root_local};
use crate::ir::walk::{for_each_child, for_each_stmt_child, Child};
use crate::ir::{self, ExprKind as K, Program, Ty};
use crate::source::Span;

/// A refusal: where, what, and how to fix it.
type Found = (Span, String, &'static str);

pub fn check_passing(c: &mut Checker) {
    let mut found: Vec<Found> = Vec::new();
    let p = &c.prog;
    for f in &p.functions {
        let ir::Body::Procedure(stmts) = &f.body else {
            continue;
        };
        let mut alias = vec![None; f.locals.len()];
        record_aliases(stmts, &mut alias);
        // `let` locals holding a record of their own (not naming another local's).
        let mut owned = vec![false; f.locals.len()];
        crate::ir::walk::for_each_stmt(stmts, &mut |s| {
            if let ir::Stmt::Let { slot, value, .. } = s {
                owned[*slot] = root_local(value).is_none();
            }
        });
        let cx = Cx {
            p,
            f,
            alias: &alias,
            owned: &owned,
        };
        for s in stmts {
            cx.stmt(s, &mut found);
        }
        // A list parameter whose records this procedure changes.
        let mut changed = vec![false; f.params.len()];
        changed_roots(stmts, &p.functions, &mut changed);
        for (param, &ch) in f.params.iter().zip(&changed) {
            if let (true, Ty::List(elem)) = (ch, &param.ty) {
                if p.holds_record(elem) {
                    found.push((
                        f.span,
                        format!(
                            "`{}` changes the records inside its list parameter `{}`",
                            f.name, param.name
                        ),
                        "pass the record that holds the list: a procedure's list parameter is its own copy",
                    ));
                }
            }
        }
    }
    for (span, message, help) in found {
        c.error("E0333", span, message, "here", help);
    }
}

struct Cx<'a> {
    p: &'a Program,
    f: &'a ir::Function,
    alias: &'a [Option<usize>],
    /// `let` locals holding a record of their own (`let board = Board(..)`): the
    /// generated Rust owns them, so a procedure may change them in place.
    owned: &'a [bool],
}

impl Cx<'_> {
    fn stmt(&self, s: &ir::Stmt, out: &mut Vec<Found>) {
        for_each_stmt_child(s, &mut |ch| match ch {
            Child::Expr(e) => self.expr(e, out),
            Child::Block(b) => b.iter().for_each(|s| self.stmt(s, out)),
        });
    }

    fn expr(&self, e: &ir::Expr, out: &mut Vec<Found>) {
        if let K::Call(fid, args) = &e.kind {
            self.call(&self.p.functions[*fid], args, out);
        }
        for_each_child(e, &mut |x| self.expr(x, out));
    }

    fn call(&self, callee: &ir::Function, args: &[ir::Expr], out: &mut Vec<Found>) {
        let changes = |i: usize| {
            let p = &callee.params[i];
            p.mutated && matches!(p.ty, Ty::Record(_))
        };
        let mut roots: Vec<usize> = Vec::new();
        for (i, a) in args.iter().enumerate() {
            // A fighter's state is changed in the fight itself.
            if !changes(i) || ir::expr_touches_fight(a) {
                continue;
            }
            match root_local(a).map(|r| resolve(self.alias, r)) {
                Some(r) if r < self.f.params.len() => {
                    if roots.contains(&r) {
                        out.push((
                            a.span,
                            format!(
                                "`{}` is passed twice to `{}`, which changes it",
                                self.f.locals[r].name, callee.name
                            ),
                            "pass it once",
                        ));
                    }
                    roots.push(r);
                }
                // A record the caller's own `let` holds, passed whole.
                Some(r) if matches!(a.kind, K::Local(_)) && self.owned.get(r) == Some(&true) => {
                    if roots.contains(&r) {
                        out.push((
                            a.span,
                            format!(
                                "`{}` is passed twice to `{}`, which changes it",
                                self.f.locals[r].name, callee.name
                            ),
                            "pass it once",
                        ));
                    }
                    roots.push(r);
                }
                _ => out.push((
                    a.span,
                    format!(
                        "`{}` changes its `{}`, and this record is not a parameter of `{}` (or inside one)",
                        callee.name, callee.params[i].name, self.f.name
                    ),
                    "a procedure changes records that outlive it: pass a parameter of the caller, or a record inside one",
                )),
            }
        }
        // A record passed to be changed cannot also be read in another argument.
        for (i, a) in args.iter().enumerate() {
            if changes(i) || self.p.is_copy(&callee.params[i].ty) {
                continue;
            }
            if let Some(s) = root_local(a).filter(|s| roots.contains(s)) {
                out.push((
                    a.span,
                    format!(
                        "`{}` is passed to `{}`, which changes it, and read in another argument",
                        self.f.locals[s].name, callee.name
                    ),
                    "read what the call needs into a `let` before it",
                ));
            }
        }
    }
}
