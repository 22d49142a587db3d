//! `faces(r)`, `kept(r)`, `dropped(r)`: every die of a roll. The roll keeps its dice in
//! a hidden local (`Ty::Faces`) only when they are read: `faces(roll 3d6)` directly, or
//! `faces(r)` of a local `r` bound to a roll, whose every `let` and assignment then
//! keeps them ([`keep_faces`], once the body is checked).

use super::expr::expr;
use super::{err_expr, mk, FnCtx};
use crate::check::Checker;
use crate::ir::{self, ExprKind as K, FacesPart, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

/// `faces(x)`, `kept(x)` or `dropped(x)`.
pub(super) fn faces(
    c: &mut Checker,
    fcx: &mut FnCtx,
    part: FacesPart,
    what: &str,
    arg: &ast::Expr,
    span: Span,
) -> ir::Expr {
    let x = expr(c, fcx, arg, None);
    let list = Ty::List(Box::new(Ty::Int));
    let slot = match (&x.kind, &x.ty) {
        (_, Ty::Error) => return err_expr(span),
        (K::Local(s), Ty::Roll) if matches!(arg.kind, A::Name(_)) => {
            let s = *s;
            match fcx.faces_of.iter().find(|(r, _)| *r == s) {
                Some((_, h)) => *h,
                None => {
                    let name = format!("{}_faces", fcx.locals[s].name);
                    let h = fcx.hidden(&name, Ty::Faces);
                    fcx.faces_of.push((s, h));
                    h
                }
            }
        }
        (_, Ty::Roll) if producers_are_rolls(&x) => fcx.hidden("faces", Ty::Faces),
        _ => {
            let n = c.ty_name(&x.ty);
            c.error(
                "E0321",
                x.span,
                format!("`{what}` needs a roll, this is {n}"),
                "not a roll",
                format!("bind a roll with `let r = roll 3d6`, then `{what}(r)`"),
            );
            return err_expr(span);
        }
    };
    let mut of = x;
    if !matches!(of.kind, K::Local(_)) {
        keep_in(&mut of, slot);
    }
    mk(
        K::Faces {
            part,
            of: Box::new(of),
            slot,
        },
        list,
        span,
    )
}

/// Whether every value `e` may give comes straight from a roll (`roll d`, `roll d + n`,
/// `if c then roll a else roll b`), so the roll can keep its dice.
fn producers_are_rolls(e: &ir::Expr) -> bool {
    match &e.kind {
        K::Roll { .. } => true,
        K::RollAdd { roll, .. } => producers_are_rolls(roll),
        K::If(_, a, b) => producers_are_rolls(a) && producers_are_rolls(b),
        _ => false,
    }
}

/// Makes every roll producing `e`'s value keep its dice in local `slot`.
fn keep_in(e: &mut ir::Expr, slot: usize) {
    match &mut e.kind {
        K::Roll { faces, .. } => *faces = Some(slot),
        K::RollAdd { roll, .. } => keep_in(roll, slot),
        K::If(_, a, b) => {
            keep_in(a, slot);
            keep_in(b, slot);
        }
        _ => {}
    }
}

/// After a body is checked: every `let` of, and assignment to, a local whose faces are
/// read makes its roll keep them; a value that is not a roll there is reported.
pub(super) fn keep_faces(c: &mut Checker, fcx: &FnCtx, stmts: &mut [ir::Stmt]) {
    if fcx.faces_of.is_empty() {
        return;
    }
    for s in stmts {
        let target = match s {
            ir::Stmt::Let { slot, value, .. } => Some((*slot, value)),
            ir::Stmt::Assign { place, value, .. } if place.path.is_empty() => {
                Some((place.root, value))
            }
            _ => None,
        };
        if let Some((root, value)) = target {
            if let Some(&(_, h)) = fcx.faces_of.iter().find(|(r, _)| *r == root) {
                if producers_are_rolls(value) {
                    keep_in(value, h);
                } else {
                    let name = fcx.locals[root].name.clone();
                    c.error(
                        "E0321",
                        value.span,
                        format!("the dice of `{name}` are read by `faces`, but this is not a roll"),
                        "not a roll",
                        format!("give `{name}` a roll here (`roll 2d6`), or read the dice of another local"),
                    );
                }
            }
        }
        match s {
            ir::Stmt::If {
                branches,
                otherwise,
            } => {
                for (_, b, _) in branches {
                    keep_faces(c, fcx, b);
                }
                if let Some(o) = otherwise {
                    keep_faces(c, fcx, o);
                }
            }
            ir::Stmt::Match { arms, .. } => {
                for a in arms {
                    keep_faces(c, fcx, &mut a.body);
                }
            }
            ir::Stmt::For { body, .. } | ir::Stmt::ForRange { body, .. } => {
                keep_faces(c, fcx, body)
            }
            _ => {}
        }
    }
}
