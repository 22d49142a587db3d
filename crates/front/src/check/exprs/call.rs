//! Calls: built-ins, formulas and procedures, outcome tags with fields, new records.

use super::coerce::{as_int, coerce, expect_ty};
use super::expr::expr;
use super::{cycle_error, ensure_checked, err_expr, mk, FnCtx, MAX_CALL_DEPTH};
use crate::check::{Checker, DefKind};
use crate::diag::suggest;
use crate::ir::{self, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

pub(super) fn call(
    c: &mut Checker,
    fcx: &mut FnCtx,
    callee: &ast::Expr,
    args: &[ast::Arg],
    span: Span,
    expect: Option<&Ty>,
) -> ir::Expr {
    let A::Name(fname) = &callee.kind else {
        c.error(
            "E0321",
            callee.span,
            "only a named formula, procedure, tag or built-in can be called",
            "not callable",
            "call a formula by its name: `initiative(c)`",
        );
        return err_expr(span);
    };
    let positional = |c: &mut Checker, args: &[ast::Arg]| {
        if let Some(a) = args.iter().find(|a| a.name.is_some()) {
            let n = a.name.as_ref().map(|n| n.span).unwrap_or(span);
            c.error(
                "E0327",
                n,
                "this call takes its arguments in order, without names",
                "named argument",
                "remove `name:`",
            );
        }
    };
    let arity = |c: &mut Checker, want: std::ops::RangeInclusive<usize>, what: &str| -> bool {
        if want.contains(&args.len()) {
            return true;
        }
        let w = if want.start() == want.end() {
            want.start().to_string()
        } else if *want.end() == usize::MAX {
            format!("at least {}", want.start())
        } else {
            format!("{} to {}", want.start(), want.end())
        };
        c.error(
            "E0327",
            span,
            format!(
                "`{what}` takes {w} argument{}, {} given",
                if w == "1" { "" } else { "s" },
                args.len()
            ),
            "wrong number of arguments",
            format!(
                "give `{what}` {w} argument{}",
                if w == "1" { "" } else { "s" }
            ),
        );
        false
    };
    if fcx.find(&fname.name).is_none() {
        match fname.name.as_str() {
            "sum" | "any" | "all" => {
                positional(c, args);
                if !arity(c, 1..=1, &fname.name) {
                    return err_expr(span);
                }
                let lx = expr(c, fcx, &args[0].value, None);
                let kind = match fname.name.as_str() {
                    "sum" => ast::AggKind::Sum,
                    "any" => ast::AggKind::Any,
                    _ => ast::AggKind::All,
                };
                return super::each::aggregate_list(c, fcx, kind, lx, span);
            }
            "min" | "max" if args.len() == 1 => {
                positional(c, args);
                let lx = expr(c, fcx, &args[0].value, None);
                if matches!(lx.ty, Ty::List(_)) {
                    let kind = if fname.name == "min" {
                        ast::AggKind::Min
                    } else {
                        ast::AggKind::Max
                    };
                    return super::each::aggregate_list(c, fcx, kind, lx, span);
                }
                let ty = match &lx.ty {
                    Ty::Choice(ch) if c.prog.choices[*ch].ordered => lx.ty.clone(),
                    _ => Ty::Int,
                };
                expect_ty(c, &lx, &ty);
                let x = coerce(lx, &ty);
                let kind = if fname.name == "min" {
                    K::Min(vec![x])
                } else {
                    K::Max(vec![x])
                };
                return mk(kind, ty, span);
            }
            "min" | "max" | "clamp" => {
                positional(c, args);
                let is_clamp = fname.name == "clamp";
                if !arity(
                    c,
                    if is_clamp { 3..=3 } else { 1..=usize::MAX },
                    &fname.name,
                ) {
                    return err_expr(span);
                }
                let mut xs: Vec<ir::Expr> = Vec::new();
                for a in args {
                    let hint = xs.first().map(|x| x.ty.clone()).or_else(|| expect.cloned());
                    xs.push(expr(c, fcx, &a.value, hint.as_ref()));
                }
                let level = xs.iter().find_map(|x| match x.ty {
                    Ty::Choice(ch) if c.prog.choices[ch].ordered => Some(x.ty.clone()),
                    _ => None,
                });
                let ty = level.unwrap_or(Ty::Int);
                let xs: Vec<ir::Expr> = xs
                    .into_iter()
                    .map(|x| {
                        expect_ty(c, &x, &ty);
                        coerce(x, &ty)
                    })
                    .collect();
                let kind = match fname.name.as_str() {
                    "min" => K::Min(xs),
                    "max" => K::Max(xs),
                    _ => {
                        let mut it = xs.into_iter();
                        let (a, b, d) = (it.next(), it.next(), it.next());
                        match (a, b, d) {
                            (Some(a), Some(b), Some(d)) => {
                                K::Clamp(Box::new(a), Box::new(b), Box::new(d))
                            }
                            _ => return err_expr(span),
                        }
                    }
                };
                return mk(kind, ty, span);
            }
            // `div_up(a, b)`: "half, rounded up" (`div_up(x, 2)`), a division as `/` is.
            "div_up" => {
                positional(c, args);
                if !arity(c, 2..=2, &fname.name) {
                    return err_expr(span);
                }
                let a = expr(c, fcx, &args[0].value, Some(&Ty::Int));
                let b = expr(c, fcx, &args[1].value, Some(&Ty::Int));
                if a.ty == Ty::Error || b.ty == Ty::Error {
                    return err_expr(span);
                }
                let (a, b) = (as_int(c, a), as_int(c, b));
                return super::ops::int_op(c, ir::IntOp::DivUp, a, b, span);
            }
            "faces" | "kept" | "dropped" => {
                positional(c, args);
                if !arity(c, 1..=1, &fname.name) {
                    return err_expr(span);
                }
                let part = match fname.name.as_str() {
                    "faces" => ir::FacesPart::All,
                    "kept" => ir::FacesPart::Kept,
                    _ => ir::FacesPart::Dropped,
                };
                return super::faces::faces(c, fcx, part, &fname.name, &args[0].value, span);
            }
            "abs" | "len" | "natural" | "filled" | "keys" => {
                positional(c, args);
                if !arity(c, 1..=1, &fname.name) {
                    return err_expr(span);
                }
                let x = expr(c, fcx, &args[0].value, None);
                return match fname.name.as_str() {
                    "abs" => {
                        let x = as_int(c, x);
                        mk(K::Abs(Box::new(x)), Ty::Int, span)
                    }
                    "len" => {
                        if !matches!(x.ty, Ty::List(_) | Ty::Error) {
                            needs(c, &x, "len", "list", "give a list");
                        }
                        mk(K::Len(Box::new(x)), Ty::Int, span)
                    }
                    // The keys a map holds, ascending.
                    "keys" => match x.ty.clone() {
                        Ty::Map(k, _) => mk(
                            K::Keys(Box::new(x)),
                            Ty::List(Box::new(Ty::Choice(k))),
                            span,
                        ),
                        Ty::SortedMap(k, _) => mk(K::Keys(Box::new(x)), Ty::List(k), span),
                        Ty::Error => err_expr(span),
                        _ => {
                            needs(c, &x, "keys", "map", "give a map field such as `c.skills`");
                            err_expr(span)
                        }
                    },
                    "natural" => {
                        if !matches!(x.ty, Ty::Roll | Ty::Error) {
                            needs(
                                c,
                                &x,
                                "natural",
                                "roll",
                                "bind a roll with `let r = roll d20 + bonus`, then `natural(r)`",
                            );
                        }
                        mk(K::Natural(Box::new(x)), Ty::Int, span)
                    }
                    _ => match x.ty.clone() {
                        Ty::Track(t) => mk(
                            K::Filled(Box::new(x)),
                            Ty::List(Box::new(Ty::TrackBox(t))),
                            span,
                        ),
                        Ty::Error => err_expr(span),
                        _ => {
                            needs(
                                c,
                                &x,
                                "filled",
                                "track",
                                "give a track field such as `c.wounds`",
                            );
                            err_expr(span)
                        }
                    },
                };
            }
            _ => {}
        }
    }
    if fcx.find(&fname.name).is_none() {
        if let Some(x) = super::fight::builtin(c, fcx, fname, args, span) {
            return x;
        }
    }
    match c.names.get(&fname.name).map(|d| d.kind) {
        Some(DefKind::Function(f)) => {
            c.used_at(&fname.name, fname.span);
            positional(c, args);
            if c.fn_state[f] == 0 && c.fn_stack.len() >= MAX_CALL_DEPTH {
                if !c.call_depth_reported {
                    c.call_depth_reported = true;
                    c.error(
                        "E0331",
                        fname.span,
                        format!(
                            "calls nest more than {MAX_CALL_DEPTH} formulas and procedures deep"
                        ),
                        "too deep",
                        "flatten the chain: compute steps in one formula or procedure",
                    );
                }
                return err_expr(span);
            }
            if !ensure_checked(c, f) {
                cycle_error(c, f, fname);
                return err_expr(span);
            }
            // What a call needs of the callee, not its body: copying that at each call
            // made 3,000 calls of a 3,000-term formula take 20 s to check.
            let callee = &c.prog.functions[f];
            let (params, ret) = (callee.params.clone(), callee.ret.clone());
            if fcx.formula && callee.is_procedure() {
                c.error(
                    "E0324",
                    span,
                    format!("a formula cannot call procedure `{}`", fname.name),
                    "procedure call",
                    "make the caller a `procedure`",
                );
            }
            if !arity(c, params.len()..=params.len(), &fname.name) {
                return err_expr(span);
            }
            let mut xs = Vec::new();
            for (a, p) in args.iter().zip(&params) {
                let x = expr(c, fcx, &a.value, Some(&p.ty));
                let x = super::fight::combatants_of(c, fcx, x, &p.ty);
                expect_ty(c, &x, &p.ty);
                xs.push(coerce(x, &p.ty));
            }
            mk(K::Call(f, xs), ret, span)
        }
        Some(DefKind::Record(r)) => make_record(c, fcx, r, fname, args, span),
        _ => {
            // An outcome tag with fields.
            if let Some(tags) = c.tags.get(&fname.name).cloned() {
                let pick = match (tags.as_slice(), expect) {
                    ([one], _) => Some(*one),
                    (many, Some(Ty::Outcome(want))) => {
                        many.iter().find(|(o, _)| o == want).copied()
                    }
                    _ => None,
                };
                let Some((o, t)) = pick else {
                    c.error(
                        "E0325",
                        fname.span,
                        format!("`{}` is a tag of several outcomes", fname.name),
                        "ambiguous",
                        "return it where the outcome type is known",
                    );
                    return err_expr(span);
                };
                let oname = c.prog.outcomes[o].name.clone();
                c.used(&oname);
                let tname = c.prog.outcomes[o].tags[t as usize].name.clone();
                c.refer(fname.span, crate::check::index::Key::Tag(oname, tname));
                let fields = c.prog.outcomes[o].tags[t as usize].fields.clone();
                let mut values: Vec<Option<ir::Expr>> = vec![None; fields.len()];
                for (i, a) in args.iter().enumerate() {
                    let idx = match &a.name {
                        Some(n) => match fields.iter().position(|(f, _)| *f == n.name) {
                            Some(i) => i,
                            None => {
                                let cands: Vec<&str> =
                                    fields.iter().map(|(f, _)| f.as_str()).collect();
                                let help = suggest(&n.name, &cands, "fields");
                                c.error(
                                    "E0306",
                                    n.span,
                                    format!("`{}` has no field `{}`", fname.name, n.name),
                                    "unknown field",
                                    help,
                                );
                                continue;
                            }
                        },
                        None if i < fields.len() => i,
                        None => {
                            c.error(
                                "E0327",
                                a.value.span,
                                format!("`{}` has only {} field(s)", fname.name, fields.len()),
                                "extra value",
                                "remove it",
                            );
                            continue;
                        }
                    };
                    let x = expr(c, fcx, &a.value, Some(&fields[idx].1));
                    expect_ty(c, &x, &fields[idx].1);
                    values[idx] = Some(coerce(x, &fields[idx].1));
                }
                let missing: Vec<String> = fields
                    .iter()
                    .zip(&values)
                    .filter(|(_, v)| v.is_none())
                    .map(|((f, _), _)| format!("`{f}`"))
                    .collect();
                if !missing.is_empty() {
                    c.error(
                        "E0326",
                        span,
                        format!("`{}` is missing {}", fname.name, missing.join(", ")),
                        "missing fields",
                        format!("give {}", missing.join(", ")),
                    );
                    return err_expr(span);
                }
                let values = values.into_iter().flatten().collect();
                return mk(
                    K::MakeOutcome {
                        outcome: o,
                        tag: t,
                        fields: values,
                    },
                    Ty::Outcome(o),
                    span,
                );
            }
            let mut cands: Vec<String> = c.prog.functions.iter().map(|f| f.name.clone()).collect();
            cands.extend(crate::syntax::BUILTINS.iter().map(|b| b.to_string()));
            cands.extend(c.tags.keys().cloned());
            let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
            let mut help = suggest(&fname.name, &cands, "formulas, procedures and built-ins");
            if crate::diag::did_you_mean(&fname.name, cands.iter().copied()).is_none() {
                if let Some(other) = super::expr::elsewhere(c, &fname.name) {
                    help = other;
                }
            }
            c.error(
                "E0306",
                fname.span,
                format!("unknown formula or procedure `{}`", fname.name),
                "not defined",
                help,
            );
            err_expr(span)
        }
    }
}

/// `E0321` at `x`: the built-in `f` needs a `kind` (a list, a map, ...), and `x` is not one.
fn needs(c: &mut Checker, x: &ir::Expr, f: &str, kind: &str, help: &str) {
    let n = c.ty_name(&x.ty);
    c.error(
        "E0321",
        x.span,
        format!("`{f}` needs a {kind}, this is {n}"),
        format!("not a {kind}"),
        help,
    );
}

/// `Type(field: value, ...)`: a new record; omitted fields take their defaults (or the
/// zero of their type when they have none and are lists, maps or tracks).
pub(super) fn make_record(
    c: &mut Checker,
    fcx: &mut FnCtx,
    r: usize,
    fname: &ast::Ident,
    args: &[ast::Arg],
    span: Span,
) -> ir::Expr {
    c.used_at(&fname.name, fname.span);
    let fields = c.prog.records[r].fields.clone();
    let mut values: Vec<Option<ir::Expr>> = vec![None; fields.len()];
    for a in args {
        let Some(n) = &a.name else {
            c.error(
                "E0327",
                a.value.span,
                format!("the fields of a new `{}` are given by name", fname.name),
                "unnamed value",
                "write `field: value`",
            );
            continue;
        };
        let Some(i) = fields.iter().position(|f| f.name == n.name) else {
            let cands: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            let help = suggest(&n.name, &cands, "fields");
            c.error(
                "E0306",
                n.span,
                format!("`{}` has no field `{}`", fname.name, n.name),
                "unknown field",
                help,
            );
            continue;
        };
        let x = expr(c, fcx, &a.value, Some(&fields[i].ty));
        expect_ty(c, &x, &fields[i].ty);
        let x = coerce(x, &fields[i].ty);
        super::bounds::known_outside(c, fields[i].range, ir::AssignOp::Set, &x);
        // An `int(lo..hi)` field: a number the checker cannot prove inside is checked
        // where it is given (`zone: z + 1`).
        values[i] = Some(
            match super::bounds::unproven(c, fields[i].range, ir::AssignOp::Set, &x) {
                Some((lo, hi)) => {
                    let site = c.site(n.span.to(a.value.span));
                    let span = x.span;
                    mk(
                        K::InRange {
                            value: Box::new(x),
                            lo,
                            hi,
                            site,
                        },
                        Ty::Int,
                        span,
                    )
                }
                None => x,
            },
        );
    }
    let mut missing = Vec::new();
    let mut out = Vec::new();
    for (f, v) in fields.iter().zip(values) {
        match v {
            Some(x) => out.push(x),
            None => {
                let value = match &f.default {
                    Some(d) => d.clone(),
                    None if matches!(
                        f.ty,
                        Ty::List(_) | Ty::Map(..) | Ty::SortedMap(..) | Ty::Track(_)
                    ) =>
                    {
                        c.prog.zero(&f.ty)
                    }
                    None => {
                        missing.push(format!("`{}`", f.name));
                        c.prog.zero(&f.ty)
                    }
                };
                out.push(mk(K::Const(value), f.ty.clone(), span));
            }
        }
    }
    if !missing.is_empty() {
        c.error(
            "E0326",
            span,
            format!(
                "this new `{}` is missing {}",
                fname.name,
                missing.join(", ")
            ),
            "missing fields",
            format!("give {}, or a default in `types:`", missing.join(", ")),
        );
        return err_expr(span);
    }
    mk(
        K::MakeRecord {
            record: r,
            fields: out,
        },
        Ty::Record(r),
        span,
    )
}
