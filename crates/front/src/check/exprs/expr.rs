//! Expressions: the dispatch, names, and the forms that read lists.

use super::access::{cell, field, index};
use super::call::call;
use super::coerce::{as_int, coerce, expect_ty};
use super::each::{aggregate, collect};
use super::effects::{decide, fill, roll};
use super::narrow;
use super::ops::binary;
use super::pattern::{exhaustive, pattern, pattern_span};
use super::{err_expr, mk, FnCtx, MAX_DEPTH};
use crate::check::index::Key;
use crate::check::{Checker, DefKind};
use crate::diag::{did_you_mean, suggest};
use crate::ir::{self, Const, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A, UnOp};

/// Checks an expression. `expect` is a hint (resolves a variant name that several
/// scales or enums share); the caller still checks the type.
pub(super) fn expr(
    c: &mut Checker,
    fcx: &mut FnCtx,
    e: &ast::Expr,
    expect: Option<&Ty>,
) -> ir::Expr {
    fcx.depth += 1;
    let x = if fcx.depth > MAX_DEPTH {
        too_deep(c, e.span)
    } else {
        expr_kind(c, fcx, e, expect)
    };
    fcx.depth -= 1;
    x
}

/// `E0206`: an expression deeper than [`MAX_DEPTH`], left unchecked (nothing after the
/// checker sees it).
pub(super) fn too_deep(c: &mut Checker, span: Span) -> ir::Expr {
    c.error(
        "E0206",
        span,
        format!("this expression is more than {MAX_DEPTH} levels deep"),
        "too deep",
        "a chain of operators is a level per operator: split it with `let` (`let a = ..` then `a + ..`)",
    );
    err_expr(span)
}

/// [`expr`] by its kind.
fn expr_kind(c: &mut Checker, fcx: &mut FnCtx, e: &ast::Expr, expect: Option<&Ty>) -> ir::Expr {
    let span = e.span;
    match &e.kind {
        A::Int(v) => mk(K::Const(Const::Int(*v)), Ty::Int, span),
        A::Bool(b) => mk(K::Const(Const::Bool(*b)), Ty::Bool, span),
        A::Dice(d) => mk(K::Const(Const::Dice(*d)), Ty::Dice, span),
        A::Name(n) => name(c, fcx, n, expect),
        A::Field(base, f) => field(c, fcx, base, f, span),
        A::Index(base, key) => index(c, fcx, base, key, span),
        A::Cell(base, row, column) => cell(c, fcx, base, row, column, span),
        A::Call(callee, args) => call(c, fcx, callee, args, span, expect),
        A::Unary(UnOp::Neg, x) => {
            let x = expr(c, fcx, x, None);
            let x = as_int(c, x);
            mk(K::Neg(Box::new(x)), Ty::Int, span)
        }
        A::Unary(UnOp::Not, x) => {
            let x = expr(c, fcx, x, Some(&Ty::Bool));
            expect_ty(c, &x, &Ty::Bool);
            mk(K::Not(Box::new(x)), Ty::Bool, span)
        }
        A::Binary(op, l, r) => binary(c, fcx, *op, l, r, span),
        A::Roll { target, among } => roll(c, fcx, target, among.as_deref(), span),
        A::Decide { name, from } => decide(c, fcx, name, from, span),
        A::Fill { track, level } => fill(c, fcx, track, level, span),
        A::Aggregate {
            kind,
            body,
            var,
            list,
            cond,
        } => aggregate(c, fcx, *kind, (var, list, cond.as_deref(), body), span),
        A::If(cond, a, b) => if_else(c, fcx, cond, a, b, span, expect),
        A::List(items) => list(c, fcx, items, span, expect),
        A::Collect {
            body,
            var,
            list,
            cond,
        } => collect(c, fcx, (var, list, cond.as_deref(), body), span, expect),
        A::Match(scrutinee, arms) => match_expr(c, fcx, scrutinee, arms, span, expect),
        A::Range(lo, hi) => super::lists::range(c, fcx, lo, hi, span),
        A::ListOp {
            op,
            var,
            list,
            cond,
            keys,
        } => super::lists::list_op(c, fcx, *op, (var, list, cond.as_deref(), keys), span),
    }
}

pub(super) fn name(
    c: &mut Checker,
    fcx: &mut FnCtx,
    n: &ast::Ident,
    expect: Option<&Ty>,
) -> ir::Expr {
    let span = n.span;
    if let Some(slot) = fcx.find(&n.name) {
        fcx.unread.retain(|(s, _)| *s != slot);
        c.refer(span, Key::Local(fcx.id, slot));
        let ty = fcx.locals[slot].ty.clone();
        let local = mk(K::Local(slot), ty.clone(), span);
        return match ty {
            Ty::Option(inner) if fcx.known_some.contains(&slot) => {
                mk(K::Unwrap(Box::new(local)), *inner, span)
            }
            _ => local,
        };
    }
    if n.name == "none" {
        return match expect {
            Some(t @ Ty::Option(_)) => mk(K::Const(Const::Opt(None)), t.clone(), span),
            _ => {
                c.error(
                    "E0321",
                    span,
                    "the type of this `none` is not known here",
                    "none of what?",
                    "use it where an optional type is expected: `let target: Combatant? = none`, a `T?` field or parameter, or `x == none`",
                );
                err_expr(span)
            }
        };
    }
    if let Some(def) = c.names.get(&n.name).copied() {
        if let DefKind::Constant(k) = def.kind {
            c.used_at(&n.name, span);
            let k = &c.prog.constants[k];
            return mk(K::Const(k.value.clone()), k.ty.clone(), span);
        }
    }
    // A named record (`records:`, or a content pack's): that record's value.
    if let Some(r) = c.instance_named(&n.name) {
        let x = mk(K::Const(r.value.clone()), Ty::Record(r.record), span);
        c.refer(span, crate::check::index::Key::Record(n.name.clone()));
        return x;
    }
    // A level or variant: by the expected type when several share the name.
    if let Some(cands) = c.variants.get(&n.name).cloned() {
        let pick = match (cands.as_slice(), expect) {
            ([one], _) => Some(*one),
            (many, Some(Ty::Choice(want))) => many.iter().find(|(ch, _)| ch == want).copied(),
            _ => None,
        };
        match pick {
            Some((ch, i)) => {
                let cname = c.prog.choices[ch].name.clone();
                c.used(&cname);
                c.refer(span, Key::Level(cname, n.name.clone()));
                return mk(K::Const(Const::Choice(i)), Ty::Choice(ch), span);
            }
            None => {
                let opts: Vec<String> = cands
                    .iter()
                    .map(|(ch, _)| format!("`{}.{}`", c.prog.choices[*ch].name, n.name))
                    .collect();
                c.error(
                    "E0325",
                    span,
                    format!("`{}` is a value of several scales or enums", n.name),
                    "ambiguous",
                    format!("write {}", opts.join(" or ")),
                );
                return err_expr(span);
            }
        }
    }
    // A scale or enum's name, used as a value, is the list of all its levels or variants
    // in order (`max(penalty(c, part) for part in BodyPart)`).
    if let Some(DefKind::Choice(ch)) = c.names.get(&n.name).map(|d| d.kind) {
        c.used_at(&n.name, span);
        let all = (0..c.prog.choices[ch].variants.len())
            .map(|i| Const::Choice(i as u16))
            .collect();
        return mk(
            K::Const(Const::List(all)),
            Ty::List(Box::new(Ty::Choice(ch))),
            span,
        );
    }
    if let Some(tags) = c.tags.get(&n.name).cloned() {
        let pick = match (tags.as_slice(), expect) {
            ([one], _) => Some(*one),
            (many, Some(Ty::Outcome(want))) => many.iter().find(|(o, _)| o == want).copied(),
            _ => None,
        };
        if let Some((o, t)) = pick {
            if !c.prog.outcomes[o].tags[t as usize].fields.is_empty() {
                c.error(
                    "E0326",
                    span,
                    format!("`{}` needs its fields", n.name),
                    "fields missing",
                    format!("write `{}(field: value, ...)`", n.name),
                );
                return err_expr(span);
            }
            let oname = c.prog.outcomes[o].name.clone();
            c.used(&oname);
            let tname = c.prog.outcomes[o].tags[t as usize].name.clone();
            c.refer(span, Key::Tag(oname, tname));
            return mk(
                K::MakeOutcome {
                    outcome: o,
                    tag: t,
                    fields: Vec::new(),
                },
                Ty::Outcome(o),
                span,
            );
        }
    }
    let mut cands: Vec<String> = fcx
        .scopes
        .iter()
        .flatten()
        .map(|(n, _)| n.clone())
        .collect();
    cands.extend(c.prog.constants.iter().map(|k| k.name.clone()));
    // Records whose names are identifiers are values in rules too (`sword.bonus`).
    cands.extend(
        c.prog
            .instances
            .iter()
            .filter(|i| crate::check::is_ident(&i.name))
            .map(|i| i.name.clone()),
    );
    cands.extend(c.variants.keys().cloned());
    cands.extend(c.tags.keys().cloned());
    let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
    let mut help = suggest(&n.name, &cands, "names");
    if did_you_mean(&n.name, cands.iter().copied()).is_none() {
        // Not a value misspelt: perhaps another kind of definition is (`roll hit_locaton`).
        if let Some(other) = elsewhere(c, &n.name) {
            help = other;
        }
    }
    if let Some(d) = c.names.get(&n.name) {
        help = format!(
            "`{}` is a {}, which cannot be used as a value here",
            n.name,
            d.kind.describe()
        );
    }
    c.error(
        "E0306",
        span,
        format!("unknown name `{}`", n.name),
        "not defined",
        help,
    );
    err_expr(span)
}

/// "did you mean the table `x`?" for a name close to a definition that is not a value:
/// a table, a scale or enum, a formula or procedure, a record type.
pub(super) fn elsewhere(c: &Checker, name: &str) -> Option<String> {
    let close = did_you_mean(name, c.names.keys().map(String::as_str))?;
    let what = c.names.get(&close)?.kind;
    Some(match what {
        DefKind::Table(_) => {
            format!("did you mean the table `{close}`? (`roll {close}`, or `{close}[key]`)")
        }
        DefKind::Function(_) => format!("did you mean `{close}(...)`? (a formula or procedure)"),
        _ => format!("did you mean the {} `{close}`?", what.describe()),
    })
}

/// The element type of a list-typed expression; anything else is reported (with `help`
/// saying what the construct iterates over) and gives `Ty::Error`.
pub(super) fn element_type(c: &mut Checker, list: &ir::Expr, span: Span, help: &str) -> Ty {
    match &list.ty {
        Ty::List(t) => (**t).clone(),
        Ty::Error => Ty::Error,
        other => {
            let n = c.ty_name(other);
            c.error(
                "E0321",
                span,
                format!("this needs a list, found {n}"),
                "not a list",
                help,
            );
            Ty::Error
        }
    }
}

/// `if cond then a else b`.
fn if_else(
    c: &mut Checker,
    fcx: &mut FnCtx,
    cond: &ast::Expr,
    a: &ast::Expr,
    b: &ast::Expr,
    span: Span,
    expect: Option<&Ty>,
) -> ir::Expr {
    let cx = expr(c, fcx, cond, Some(&Ty::Bool));
    expect_ty(c, &cx, &Ty::Bool);
    let ax = narrow::with_known(fcx, narrow::known(&cx, true), |fcx| expr(c, fcx, a, expect));
    let bx = narrow::with_known(fcx, narrow::known(&cx, false), |fcx| {
        expr(c, fcx, b, Some(&ax.ty))
    });
    let ty = if ax.ty == Ty::Roll && bx.ty == Ty::Roll {
        Ty::Roll
    } else if ax.ty == Ty::Roll {
        Ty::Int
    } else {
        ax.ty.clone()
    };
    expect_ty(c, &bx, &ty);
    let (ax, bx) = (coerce(ax, &ty), coerce(bx, &ty));
    mk(K::If(Box::new(cx), Box::new(ax), Box::new(bx)), ty, span)
}

/// `[a, b, ...]`: the element type from the first item, or from the expected type.
fn list(
    c: &mut Checker,
    fcx: &mut FnCtx,
    items: &[ast::Expr],
    span: Span,
    expect: Option<&Ty>,
) -> ir::Expr {
    let want = match expect {
        Some(Ty::List(t)) => Some((**t).clone()),
        _ => None,
    };
    let mut xs: Vec<ir::Expr> = Vec::new();
    for item in items {
        let hint = xs.first().map(|x| x.ty.clone()).or_else(|| want.clone());
        xs.push(expr(c, fcx, item, hint.as_ref()));
    }
    let elem = match xs.first() {
        Some(x) if x.ty == Ty::Roll => Ty::Int,
        Some(x) => x.ty.clone(),
        None => match want {
            Some(t) => t,
            None => {
                c.error(
                    "E0321",
                    span,
                    "the type of this empty list is not known here",
                    "empty list",
                    "give the list an element, or use it where a list type is expected",
                );
                return err_expr(span);
            }
        },
    };
    let xs: Vec<ir::Expr> = xs
        .into_iter()
        .map(|x| {
            expect_ty(c, &x, &elem);
            coerce(x, &elem)
        })
        .collect();
    mk(K::List(xs), Ty::List(Box::new(elem)), span)
}

/// `match scrutinee { Pattern => value, ... }`.
fn match_expr(
    c: &mut Checker,
    fcx: &mut FnCtx,
    scrutinee: &ast::Expr,
    arms: &[ast::Arm<ast::Expr>],
    span: Span,
    expect: Option<&Ty>,
) -> ir::Expr {
    let sx = expr(c, fcx, scrutinee, None);
    let sty = sx.ty.clone();
    let mut seen = std::collections::HashSet::new();
    let mut wildcard = false;
    let mut out: Vec<ir::MatchArm<ir::Expr>> = Vec::new();
    let mut ty: Option<Ty> = None;
    for arm in arms {
        fcx.scopes.push(Vec::new());
        let (alts, binds) = pattern(c, fcx, &arm.pattern, &sty, &mut seen, &mut wildcard);
        let bx = expr(c, fcx, &arm.body, ty.as_ref().or(expect));
        fcx.scopes.pop();
        let bx = match &ty {
            None => {
                ty = Some(if bx.ty == Ty::Roll {
                    Ty::Int
                } else {
                    bx.ty.clone()
                });
                coerce(bx, ty.as_ref().unwrap_or(&Ty::Error))
            }
            Some(t) => {
                expect_ty(c, &bx, t);
                coerce(bx, t)
            }
        };
        let site = c.site(pattern_span(c, arm.span));
        out.push(ir::MatchArm {
            alts,
            binds,
            body: bx,
            site,
        });
    }
    exhaustive(c, &sty, &seen, wildcard, scrutinee.span);
    mk(
        K::Match {
            scrutinee: Box::new(sx),
            arms: out,
        },
        ty.unwrap_or(Ty::Error),
        span,
    )
}
