//! `match` patterns: tags and variants, bindings, exhaustiveness.

use super::FnCtx;
use crate::check::index::Key;
use crate::check::Checker;
use crate::diag::{suggest, Diagnostic};
use crate::ir::Ty;
use crate::source::Span;
use crate::syntax::ast;
use std::collections::{HashMap, HashSet};

/// The index of case `name` of choice or outcome `owner`, from a name → (owner, index)
/// map ([`Checker::variants`], [`Checker::tags`]).
fn case_index(map: &HashMap<String, Vec<(usize, u16)>>, owner: usize, name: &str) -> Option<u16> {
    map.get(name)?
        .iter()
        .find(|&&(o, _)| o == owner)
        .map(|&(_, i)| i)
}

pub(super) fn pattern(
    c: &mut Checker,
    fcx: &mut FnCtx,
    p: &ast::Pattern,
    sty: &Ty,
    seen: &mut HashSet<u16>,
    wildcard: &mut bool,
) -> (Vec<u16>, Vec<Option<usize>>) {
    let alts = match p {
        ast::Pattern::Wildcard(_) => {
            *wildcard = true;
            return (Vec::new(), Vec::new());
        }
        ast::Pattern::Alts(a) => a,
    };
    let mut out = Vec::new();
    let mut binds = Vec::new();
    for (name, names) in alts {
        // By the name maps, not a scan of the cases: a match of n arms over n cases
        // stays linear.
        let found: Option<(u16, Vec<(String, Ty)>)> = match sty {
            Ty::Choice(ch) => case_index(&c.variants, *ch, &name.name).map(|i| (i, Vec::new())),
            Ty::Outcome(o) => case_index(&c.tags, *o, &name.name)
                .map(|i| (i, c.prog.outcomes[*o].tags[usize::from(i)].fields.clone())),
            Ty::Error => return (Vec::new(), Vec::new()),
            other => {
                let n = c.ty_name(other);
                c.error(
                    "E0321",
                    name.span,
                    format!("cannot match on {n}"),
                    "here",
                    "match on a scale, an enum or an outcome; use `if` for numbers",
                );
                return (Vec::new(), Vec::new());
            }
        };
        let key = match sty {
            Ty::Choice(ch) => Some(Key::Level(
                c.prog.choices[*ch].name.clone(),
                name.name.clone(),
            )),
            Ty::Outcome(o) => Some(Key::Tag(
                c.prog.outcomes[*o].name.clone(),
                name.name.clone(),
            )),
            _ => None,
        };
        if let (Some(key), Some(_)) = (key, &found) {
            c.refer(name.span, key);
        }
        let Some((i, fields)) = found else {
            let cands = case_names(c, sty).unwrap_or_default();
            let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
            let help = match sty {
                Ty::Choice(ch) => c.prog.choices[*ch].suggest(&name.name),
                _ => crate::diag::suggest_ordered(&name.name, &cands, "tags"),
            };
            let n = c.ty_name(sty);
            c.error(
                "E0306",
                name.span,
                format!("`{}` is not a {n}", name.name),
                "unknown",
                help,
            );
            continue;
        };
        if !seen.insert(i) {
            c.diags.push(
                Diagnostic::warning(
                    "W0003",
                    name.span,
                    format!("`{}` is already matched above", name.name),
                )
                .label("unreachable")
                .help("remove this alternative"),
            );
        }
        out.push(i);
        if !names.is_empty() {
            if alts.len() > 1 {
                c.error(
                    "E0322",
                    name.span,
                    "bindings need a single tag",
                    "here",
                    "split the alternatives into separate arms",
                );
                continue;
            }
            binds = vec![None; fields.len()];
            for n in names {
                match fields.iter().position(|(f, _)| *f == n.name) {
                    Some(fi) => {
                        let slot = fcx.bind(n, fields[fi].1.clone());
                        binds[fi] = Some(slot);
                    }
                    None => {
                        let cands: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
                        let help = suggest(&n.name, &cands, "fields");
                        c.error(
                            "E0306",
                            n.span,
                            format!("`{}` has no field `{}`", name.name, n.name),
                            "unknown field",
                            help,
                        );
                    }
                }
            }
        }
    }
    (out, binds)
}

pub(super) fn exhaustive(
    c: &mut Checker,
    sty: &Ty,
    seen: &HashSet<u16>,
    wildcard: bool,
    span: Span,
) {
    if wildcard {
        return;
    }
    let Some(all) = case_names(c, sty) else {
        return;
    };
    let missing: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !seen.contains(&(*i as u16)))
        .map(|(_, n)| format!("`{n}`"))
        .collect();
    if missing.is_empty() {
        return;
    }
    let mut d = crate::diag::Diagnostic::error(
        "E0323",
        span,
        format!("this match does not cover {}", missing.join(", ")),
    )
    .label("not every case is covered")
    .help("add an arm for each, or `_ => ...`");
    // A variant or level a content pack added: where, and which pack.
    if let Ty::Choice(ch) = sty {
        for (i, v) in c.prog.choices[*ch].variants.iter().enumerate() {
            if let (false, Some(pack)) =
                (seen.contains(&(i as u16)), c.pack_files.get(&v.span.file))
            {
                d = d.note(
                    v.span,
                    format!("`{}` is added by the pack `{pack}`", v.name),
                );
            }
        }
    }
    c.diags.push(d);
}

/// The span of a match arm's pattern (`Hit(level)`, `A | B`, `_`): the arm up to its
/// `=>`, for its trace site.
pub(super) fn pattern_span(c: &Checker, arm_span: Span) -> Span {
    let text = c.prog.sources.slice(arm_span);
    match text.find("=>") {
        Some(i) => Span {
            end: arm_span.start + text[..i].trim_end().len() as u32,
            ..arm_span
        },
        None => arm_span,
    }
}

/// The cases a `match` on `sty` can name: a scale's levels, an enum's variants or an
/// outcome's tags, in order; `None` for other types.
pub(super) fn case_names(c: &Checker, sty: &Ty) -> Option<Vec<String>> {
    match sty {
        Ty::Choice(ch) => Some(
            c.prog.choices[*ch]
                .variants
                .iter()
                .map(|v| v.name.clone())
                .collect(),
        ),
        Ty::Outcome(o) => Some(
            c.prog.outcomes[*o]
                .tags
                .iter()
                .map(|t| t.name.clone())
                .collect(),
        ),
        _ => None,
    }
}
