//! `scales:` and `enums:` (choices with labels), and the tags of DSL `outcome`s.

use super::{lookup, wrong};
use crate::check::{is_ident, Checker, DefKind, Entry};
use crate::diag::Diagnostic;
use crate::ir;
use crate::source::Span;
use crate::syntax::ast;
use crate::yaml::YValue;
use std::collections::{HashMap, HashSet};

/// Most levels of a scale: the runtime steps and compares levels as `u8` (`Harm + 1`,
/// track levels).
pub const MAX_SCALE_LEVELS: usize = 255;
const _: () = assert!(
    MAX_SCALE_LEVELS <= u8::MAX as usize,
    "a level index and a scale's length are bytes"
);
/// Most variants of an enum, and tags of an outcome: their index is a `u16`.
pub const MAX_VARIANTS: usize = u16::MAX as usize;

/// The keys of a scale written as a mapping: its levels, and whether content packs may
/// add levels above its top (`crate::check::packs`).
pub const SCALE_KEYS: &[&str] = &["levels", "extensible"];

/// The levels or variants of a scale or enum: a list, or (a scale) a mapping with
/// `levels:` and `extensible:`.
fn choice_items<'y>(
    c: &mut Checker,
    value: &'y crate::yaml::YNode,
    ordered: bool,
) -> Option<&'y [crate::yaml::YNode]> {
    if let Some(items) = value.as_seq() {
        return Some(items);
    }
    // The mapping form is a scale's, with its own keys; any other mapping is a list
    // written wrong.
    let mapping_form = value.as_map().is_some_and(|m| {
        m.iter()
            .any(|(k, _)| k.as_str().is_some_and(|k| SCALE_KEYS.contains(&k)))
    });
    if !ordered || !mapping_form {
        wrong(c, value, "a list of levels or variants");
        return None;
    }
    super::check_keys(c, value, SCALE_KEYS, "a scale");
    if let Some(open) = value.get("extensible") {
        if !matches!(open.value, YValue::Bool(_)) {
            wrong(c, open, "`true` or `false`");
        }
    }
    match value.get("levels") {
        Some(levels) => match levels.as_seq() {
            Some(items) => Some(items),
            None => {
                wrong(c, levels, "a list of levels");
                None
            }
        },
        None => {
            c.error(
                "E0106",
                value.span,
                "this scale has no `levels`",
                "missing `levels`",
                "write `{ levels: [Low, High], extensible: true }`, or the levels as a list",
            );
            None
        }
    }
}

pub(super) fn build_choice(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Choice(id)) = lookup(c, name) else {
        return;
    };
    let ordered = c.prog.choices[id].ordered;
    let Some(items) = choice_items(c, e.value, ordered) else {
        return;
    };
    if items.is_empty() {
        c.error(
            "E0304",
            e.value.span,
            format!("`{name}` has no levels or variants"),
            "empty",
            "list at least one",
        );
    }
    let (max, what) = if ordered {
        (MAX_SCALE_LEVELS, "levels")
    } else {
        (MAX_VARIANTS, "variants")
    };
    if items.len() > max {
        c.error(
            "E0360",
            e.value.span,
            format!("`{name}` has {} {what}, more than {max}", items.len()),
            "too many",
            if ordered {
                "a scale has at most 255 levels (the runtime steps levels as bytes); use an enum, or records, for more"
            } else {
                "an enum has at most 65,535 variants; use records for more"
            },
        );
        // The program is not built, but its levels are still read (as many as an index
        // holds), so the rules naming them are checked without reporting each name as
        // unknown: one diagnostic for one cause.
    }
    let mut variants: Vec<ir::Variant> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    // Variant name → index, so a duplicate is found without scanning the list.
    let mut listed: HashMap<String, usize> = HashMap::new();
    for item in items.iter().take(MAX_VARIANTS) {
        let (vname, label, span) = match &item.value {
            YValue::Str(s) => (s.clone(), s.clone(), item.span),
            YValue::Map(m) if m.len() == 1 => {
                let (k, v) = &m[0];
                let Some(label) = v.as_str() else {
                    wrong(c, v, "a display label (text)");
                    continue;
                };
                (
                    k.scalar_text().unwrap_or_default(),
                    label.to_string(),
                    k.span,
                )
            }
            _ => {
                wrong(c, item, "a name, or `Name: \"Display label\"`");
                continue;
            }
        };
        if !is_ident(&vname) {
            c.error("E0302", span, format!("`{vname}` is not a valid name"), "not a name", "use letters, digits and `_`; put spaces and symbols in a label: `RightArm: \"Right Arm\"`");
            continue;
        }
        if let Some(&i) = listed.get(vname.as_str()) {
            let d = Diagnostic::error(
                "E0301",
                span,
                format!("`{vname}` is listed twice in `{name}`"),
            )
            .label("second time")
            .note(spans[i], "first time")
            .help("remove one of them");
            c.diags.push(d);
            continue;
        }
        c.variants
            .entry(vname.clone())
            .or_default()
            .push((id, variants.len() as u16));
        c.index.define(
            crate::check::index::Key::Level(name.to_string(), vname.clone()),
            crate::check::index::SymbolKind::Level,
            Some(name),
            span,
        );
        listed.insert(vname.clone(), variants.len());
        variants.push(ir::Variant {
            name: vname,
            label,
            span,
        });
        spans.push(span);
    }
    c.prog.choices[id].variants = variants;
}

/// Fills in outcome tags from the DSL items (called by the expression checker, which
/// has the syntax).
pub fn build_outcome_tags(c: &mut Checker, items: &[(usize, Vec<ast::TagDef>)]) {
    for (id, tags) in items {
        if tags.len() > MAX_VARIANTS {
            let o = &c.prog.outcomes[*id];
            let (name, span) = (o.name.clone(), o.span);
            c.error(
                "E0360",
                span,
                format!("`{name}` has {} tags, more than {MAX_VARIANTS}", tags.len()),
                "too many",
                "an outcome has at most 65,535 tags",
            );
            // As many tags as an index holds are still read (see `build_choice`).
        }
        let mut out = Vec::new();
        let mut listed = HashSet::new();
        for t in tags.iter().take(MAX_VARIANTS) {
            if !listed.insert(t.name.name.as_str()) {
                c.error(
                    "E0301",
                    t.name.span,
                    format!("tag `{}` is listed twice", t.name.name),
                    "second time",
                    "remove one of them",
                );
                continue;
            }
            let oname = c.prog.outcomes[*id].name.clone();
            c.index.define(
                crate::check::index::Key::Tag(oname.clone(), t.name.name.clone()),
                crate::check::index::SymbolKind::Tag,
                Some(&oname),
                t.name.span,
            );
            let mut fields = Vec::new();
            for f in &t.fields {
                let ty = c.resolve_type(&f.ty);
                fields.push((f.name.name.clone(), ty));
            }
            c.tags
                .entry(t.name.name.clone())
                .or_default()
                .push((*id, out.len() as u16));
            let label = match &t.label {
                Some((text, span))
                    if text.trim().is_empty() || text.chars().any(char::is_control) =>
                {
                    c.error(
                        "E0302",
                        *span,
                        "a label is text to print: not empty, without control characters",
                        "not a label",
                        "write the words traces should show: `NoBlow: \"no blow\"`",
                    );
                    t.name.name.clone()
                }
                Some((text, _)) => text.clone(),
                None => t.name.name.clone(),
            };
            out.push(ir::Tag {
                name: t.name.name.clone(),
                label,
                span: t.name.span,
                fields,
            });
        }
        c.prog.outcomes[*id].tags = out;
    }
}
