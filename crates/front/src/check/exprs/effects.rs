//! Expressions with an effect: `roll`, `decide`, `fill`.

use super::coerce::expect_ty;
use super::expr::{element_type, expr};
use super::place::place;
use super::{err_expr, mk, FnCtx};
use crate::check::{Checker, DefKind};
use crate::diag::{did_you_mean, suggest};
use crate::ir::{self, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

/// `E0324` for a roll or decision in a formula: a fight clause's own message (the writer
/// wrote a condition or a key there, not a formula, so it cannot become a procedure), or
/// a formula's.
fn formula_cannot(c: &mut Checker, fcx: &FnCtx, span: Span, verb: &str, what: &str) {
    match super::fight::clause_cannot(c, fcx.id, verb, what) {
        Some((msg, label, help)) => c.error("E0324", span, msg, label, help),
        None => c.error(
            "E0324",
            span,
            format!("a formula cannot {what}"),
            format!("{verb} in a formula"),
            "make it a `procedure`",
        ),
    }
}

/// `roll dice` or `roll table [among list]`.
pub(super) fn roll(
    c: &mut Checker,
    fcx: &mut FnCtx,
    target: &ast::Expr,
    among: Option<&ast::Expr>,
    span: Span,
) -> ir::Expr {
    if fcx.formula {
        formula_cannot(c, fcx, span, "roll", "roll dice");
    }
    if let A::Name(t) = &target.kind {
        if fcx.find(&t.name).is_none() {
            if let Some(DefKind::Table(tid)) = c.names.get(&t.name).map(|d| d.kind) {
                c.used_at(&t.name, t.span);
                if !matches!(c.prog.tables[tid].key, ir::TableKey::Die(_)) {
                    c.error(
                        "E0321",
                        t.span,
                        format!("table `{}` has no die to roll", t.name),
                        "not a die table",
                        format!("look it up with `{}[key]`, or give it a `die:`", t.name),
                    );
                }
                let vt = c.prog.tables[tid].value.clone();
                let among = among.as_ref().map(|a| {
                    let ax = expr(c, fcx, a, None);
                    expect_ty(c, &ax, &Ty::List(Box::new(vt.clone())));
                    Box::new(ax)
                });
                let site = c.site(span);
                return mk(
                    K::RollTable {
                        table: tid,
                        among,
                        site,
                    },
                    vt,
                    span,
                );
            }
        }
    }
    if let A::Name(t) = &target.kind {
        let unknown = fcx.find(&t.name).is_none()
            && !c.names.contains_key(&t.name)
            && !c.variants.contains_key(&t.name)
            && !c.tags.contains_key(&t.name);
        if unknown {
            // After `roll`, a name is a table or dice: look for the tables first.
            let tables: Vec<&str> = c.prog.tables.iter().map(|t| t.name.as_str()).collect();
            let mut values: Vec<&str> = fcx
                .scopes
                .iter()
                .flatten()
                .map(|(n, _)| n.as_str())
                .collect();
            values.extend(c.prog.constants.iter().map(|k| k.name.as_str()));
            let help = match (
                did_you_mean(&t.name, tables.iter().copied()),
                did_you_mean(&t.name, values.iter().copied()),
            ) {
                (Some(close), _) => format!("did you mean the table `{close}`?"),
                (None, Some(close)) => format!("did you mean `{close}`?"),
                (None, None) => suggest(&t.name, &tables, "tables"),
            };
            c.error(
                "E0306",
                t.span,
                format!("unknown table or dice `{}`", t.name),
                "not a table or dice",
                help,
            );
            return err_expr(span);
        }
    }
    if let Some(a) = among {
        c.error(
            "E0321",
            a.span,
            "`among` needs a die table",
            "here",
            "write `roll some_table among [..]`",
        );
    }
    let dx = expr(c, fcx, target, Some(&Ty::Dice));
    if dx.ty == Ty::Error {
        return err_expr(span);
    }
    expect_ty(c, &dx, &Ty::Dice);
    let site = c.site(span);
    mk(
        K::Roll {
            dice: Box::new(dx),
            site,
            faces: None,
        },
        Ty::Roll,
        span,
    )
}

/// `decide name: Type` or `decide name from list`.
pub(super) fn decide(
    c: &mut Checker,
    fcx: &mut FnCtx,
    name: &ast::Ident,
    from: &ast::DecideFrom,
    span: Span,
) -> ir::Expr {
    if fcx.formula {
        formula_cannot(c, fcx, span, "decide", "ask for a decision");
    }
    let (options, ty) = match from {
        ast::DecideFrom::Type(t) => match c.resolve_type(t) {
            Ty::Choice(ch) => (ir::DecideOptions::Choice(ch), Ty::Choice(ch)),
            Ty::Bool => (ir::DecideOptions::Bool, Ty::Bool),
            Ty::Error => return err_expr(span),
            other => {
                let n = c.ty_name(&other);
                c.error(
                    "E0321",
                    t.span,
                    format!("cannot decide a {n}"),
                    "here",
                    "decide a scale, an enum, `bool`, or `from` a list",
                );
                return err_expr(span);
            }
        },
        ast::DecideFrom::List(l) => {
            let lx = expr(c, fcx, l, None);
            let elem = element_type(c, &lx, l.span, "give a list");
            (ir::DecideOptions::List(Box::new(lx)), elem)
        }
    };
    let site = c.site(span);
    mk(
        K::Decide {
            name: name.name.clone(),
            options,
            site,
        },
        ty,
        span,
    )
}

/// `fill track level`.
pub(super) fn fill(
    c: &mut Checker,
    fcx: &mut FnCtx,
    track: &ast::Expr,
    level: &ast::Expr,
    span: Span,
) -> ir::Expr {
    let Some(p) = place(c, fcx, track) else {
        return err_expr(span);
    };
    let Ty::Track(t) = p.ty else {
        let n = c.ty_name(&p.ty);
        c.error(
            "E0321",
            track.span,
            format!("`fill` needs a track, this is {n}"),
            "not a track",
            "fill a track field such as `defender.wounds`",
        );
        return err_expr(span);
    };
    let scale = Ty::Choice(c.prog.tracks[t].scale);
    let lx = expr(c, fcx, level, Some(&scale));
    expect_ty(c, &lx, &scale);
    let site = c.site(span);
    mk(
        K::Fill {
            track: p,
            level: Box::new(lx),
            site,
        },
        Ty::Int,
        span,
    )
}
