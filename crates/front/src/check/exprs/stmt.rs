//! Statements and blocks: `let`, assignments, `if`, `match`, `for`, `return`.

use super::coerce::{as_int, coerce, compatible, expect_ty};
use super::expr::{element_type, expr};
use super::narrow;
use super::pattern::{exhaustive, pattern, pattern_span};
use super::place::place;
use super::FnCtx;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::ir::walk::always_returns;
use crate::ir::{self, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast;

pub(super) fn block(c: &mut Checker, fcx: &mut FnCtx, b: &ast::Block) -> Vec<ir::Stmt> {
    fcx.scopes.push(Vec::new());
    let known_before = fcx.known_some.len();
    let mut out = Vec::new();
    let mut returned: Option<Span> = None;
    for s in &b.stmts {
        if let Some(r) = returned {
            let d = Diagnostic::warning("W0003", s.span, "this statement can never run")
                .label("unreachable")
                .note(r, "the procedure has already returned here")
                .help("remove it, or move it before the `return`");
            c.diags.push(d);
            returned = None;
        }
        if let Some(st) = stmt(c, fcx, s) {
            if always_returns(std::slice::from_ref(&st)) {
                returned = Some(s.span);
            }
            // `if x == none { return .. }`: the rest of the block knows `x`.
            if let ir::Stmt::If {
                branches,
                otherwise: None,
            } = &st
            {
                if branches.iter().all(|(_, b, _)| always_returns(b)) {
                    for (cx, _, _) in branches {
                        fcx.known_some.extend(narrow::known(cx, false));
                    }
                }
            }
            out.push(st);
            out.append(&mut fcx.then);
        }
    }
    fcx.known_some.truncate(known_before);
    fcx.scopes.pop();
    out
}

/// The name assigned by `name = ...` when nothing of that name exists: no local, no
/// top-level definition, no level or tag.
fn undeclared<'a>(
    c: &Checker,
    fcx: &FnCtx,
    target: &'a ast::Expr,
    op: &ast::AssignOp,
) -> Option<&'a ast::Ident> {
    let ast::ExprKind::Name(n) = &target.kind else {
        return None;
    };
    let unknown = fcx.find(&n.name).is_none()
        && !c.names.contains_key(&n.name)
        && !c.variants.contains_key(&n.name)
        && !c.tags.contains_key(&n.name);
    (unknown && matches!(op, ast::AssignOp::Set)).then_some(n)
}

pub(super) fn stmt(c: &mut Checker, fcx: &mut FnCtx, s: &ast::Stmt) -> Option<ir::Stmt> {
    Some(match &s.kind {
        ast::StmtKind::TimedAssign(target, value, until) => {
            let (assign, timer) = super::timed::timed_assign(c, fcx, s, target, value, until)?;
            fcx.then.push(timer);
            assign
        }
        ast::StmtKind::Schedule(until, target) => super::timed::schedule(c, fcx, s, until, target)?,
        ast::StmtKind::Advance(amount, unit) => super::timed::advance(c, fcx, s, amount, unit)?,
        ast::StmtKind::Repeat(r) => super::repeat::repeat(c, fcx, s, r)?,
        ast::StmtKind::Let(name, ty, e) => {
            let declared = ty.as_ref().map(|t| c.resolve_type(t));
            let value = expr(c, fcx, e, declared.as_ref());
            let (value, ty) = match declared {
                Some(want) => {
                    expect_ty(c, &value, &want);
                    (coerce(value, &want), want)
                }
                None => {
                    let ty = value.ty.clone();
                    (value, ty)
                }
            };
            let site = c.site(s.span);
            let slot = fcx.bind(name, ty);
            fcx.unread.push((slot, name.span));
            ir::Stmt::Let { slot, value, site }
        }
        ast::StmtKind::Assign(target, op, e) => {
            if let Some(n) = undeclared(c, fcx, target, op) {
                // `total = ...` where no `total` is in scope: a `let` left out. Said once;
                // the name is bound as if the `let` were there, so its uses are not errors.
                let value = expr(c, fcx, e, None);
                c.error(
                    "E0306",
                    n.span,
                    format!("`{}` is not declared", n.name),
                    "no `let` gives it a value",
                    format!("declare it with `let {} = ...`", n.name),
                );
                let site = c.site(s.span);
                let slot = fcx.bind(n, value.ty.clone());
                return Some(ir::Stmt::Let { slot, value, site });
            }
            let mut place = place(c, fcx, target)?;
            let value = expr(c, fcx, e, Some(&place.ty));
            let value = match op {
                ast::AssignOp::Set => {
                    expect_ty(c, &value, &place.ty);
                    coerce(value, &place.ty)
                }
                // `list += [x]` appends.
                ast::AssignOp::Add if matches!(place.ty, Ty::List(_)) => {
                    expect_ty(c, &value, &place.ty);
                    value
                }
                _ => {
                    if !compatible(&place.ty, &Ty::Int) {
                        let n = c.ty_name(&place.ty);
                        c.error(
                            "E0321",
                            target.span,
                            format!("`+=` and `-=` need an int, this is {n}"),
                            "not an int",
                            "write `x = x + n` for levels; `list += [x]` appends to a list",
                        );
                    }
                    as_int(c, value)
                }
            };
            let site = c.site(s.span);
            let op = match op {
                ast::AssignOp::Set => ir::AssignOp::Set,
                ast::AssignOp::Add => ir::AssignOp::Add,
                ast::AssignOp::Sub => ir::AssignOp::Sub,
            };
            super::bounds::known_outside(c, place.range, op, &value);
            place.range = super::bounds::unproven(c, place.range, op, &value);
            ir::Stmt::Assign {
                place,
                op,
                value,
                site,
            }
        }
        ast::StmtKind::If(branches, otherwise) => {
            let mut out = Vec::new();
            // What the earlier conditions being false tells about optional locals.
            let mut before = Vec::new();
            for (cond, body) in branches {
                let (cx, b, site) = narrow::with_known(fcx, before.clone(), |fcx| {
                    let cx = expr(c, fcx, cond, Some(&Ty::Bool));
                    expect_ty(c, &cx, &Ty::Bool);
                    let site = c.site(
                        Span {
                            end: body.span.start,
                            ..cond.span.to(cond.span)
                        }
                        .to(cond.span),
                    );
                    let then = narrow::known(&cx, true);
                    let b = narrow::with_known(fcx, then, |fcx| block(c, fcx, body));
                    (cx, b, site)
                });
                before.extend(narrow::known(&cx, false));
                out.push((cx, b, site));
            }
            let otherwise = otherwise
                .as_ref()
                .map(|b| narrow::with_known(fcx, before, |fcx| block(c, fcx, b)));
            ir::Stmt::If {
                branches: out,
                otherwise,
            }
        }
        ast::StmtKind::Match(scrutinee, arms) => {
            let sx = expr(c, fcx, scrutinee, None);
            let mut out = Vec::new();
            let sty = sx.ty.clone();
            let mut seen = std::collections::HashSet::new();
            let mut wildcard = false;
            for arm in arms {
                fcx.scopes.push(Vec::new());
                let (alts, binds) = pattern(c, fcx, &arm.pattern, &sty, &mut seen, &mut wildcard);
                let site = c.site(pattern_span(c, arm.span));
                let body = block(c, fcx, &arm.body);
                fcx.scopes.pop();
                out.push(ir::MatchArm {
                    alts,
                    binds,
                    body,
                    site,
                });
            }
            exhaustive(c, &sty, &seen, wildcard, scrutinee.span);
            ir::Stmt::Match {
                scrutinee: sx,
                arms: out,
            }
        }
        ast::StmtKind::For(var, lo, Some(hi), body) => {
            let lo = expr(c, fcx, lo, Some(&Ty::Int));
            let lo = as_int(c, lo);
            let hi = expr(c, fcx, hi, Some(&Ty::Int));
            let hi = as_int(c, hi);
            let site = (!ir::walk::range_bounded(&lo, &hi)).then(|| c.site(s.span));
            fcx.scopes.push(Vec::new());
            let slot = fcx.bind(var, Ty::Int);
            let b = block(c, fcx, body);
            fcx.scopes.pop();
            ir::Stmt::ForRange {
                var: slot,
                lo,
                hi,
                body: b,
                site,
            }
        }
        ast::StmtKind::For(var, list, None, body) => {
            let lx = expr(c, fcx, list, None);
            let elem = element_type(
                c,
                &lx,
                list.span,
                "loop over a list field or `filled(track)`",
            );
            fcx.scopes.push(Vec::new());
            let slot = fcx.bind(var, elem);
            let b = block(c, fcx, body);
            fcx.scopes.pop();
            ir::Stmt::For {
                var: slot,
                list: lx,
                body: b,
            }
        }
        ast::StmtKind::Return(value) => {
            let site = c.site(s.span);
            if fcx.formula {
                return None;
            }
            let want = fcx.ret.clone().unwrap_or(Ty::Unit);
            let value = match value {
                Some(e) => {
                    let x = expr(c, fcx, e, Some(&want));
                    if want == Ty::Unit {
                        c.error(
                            "E0321",
                            e.span,
                            "this procedure declares no result",
                            "value returned",
                            "add `-> Type` to the procedure, or write `return` alone",
                        );
                    } else {
                        expect_ty(c, &x, &want);
                    }
                    Some(coerce(x, &want))
                }
                None => {
                    if want != Ty::Unit && want != Ty::Error {
                        let n = c.ty_name(&want);
                        c.error(
                            "E0321",
                            s.span,
                            format!("this procedure returns a {n}"),
                            "no value",
                            format!("write `return <{n}>`"),
                        );
                    }
                    None
                }
            };
            ir::Stmt::Return { value, site }
        }
        ast::StmtKind::Expr(e) => {
            let x = expr(c, fcx, e, None);
            let effectful = matches!(
                x.kind,
                K::Fill { .. }
                    | K::Roll { .. }
                    | K::RollTable { .. }
                    | K::Decide { .. }
                    | K::Fight(ir::FightQuery::MarkActed, _)
            ) || matches!(&x.kind, K::Call(f, _) if c.prog.functions[*f].is_procedure());
            if !effectful && x.ty != Ty::Error {
                c.diags.push(
                    Diagnostic::warning("W0004", e.span, "this value is computed and thrown away")
                        .label("unused value")
                        .help("bind it with `let`, or remove it"),
                );
            }
            ir::Stmt::Expr(x)
        }
    })
}
