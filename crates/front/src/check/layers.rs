//! Variant rulesets: a ruleset that `extends` a base is checked as one ruleset, its base's
//! definitions first. Replacing one of them must be said: in YAML under `override:`, in
//! the DSL with `override formula|procedure|outcome`. Redefining a base name without it
//! is an error showing both positions; overriding a name the base lacks is one too.
//!
//! YAML overrides merge: a table's `rows` row by row, a record's fields and a record
//! type's fields field by field; anything else is replaced whole. Every merged node keeps
//! its own span, so diagnostics and `rulesc explain` point at the file it came from.

use super::index::Key;
use super::Checker;
use crate::diag::{suggest, Diagnostic};
use crate::syntax::ast;
use crate::yaml::{YNode, YValue};

fn key_of(n: &YNode) -> String {
    n.scalar_text().unwrap_or_default()
}

fn entries_mut(n: &mut YNode) -> Option<&mut Vec<(YNode, YNode)>> {
    match &mut n.value {
        YValue::Map(m) => Some(m),
        _ => None,
    }
}

/// Merges `over` into `base`: mapping keys replaced or added one by one.
fn merge_keys(base: &mut YNode, over: YNode) {
    match (entries_mut(base), over.value) {
        (Some(b), YValue::Map(o)) => {
            for (k, v) in o {
                let key = key_of(&k);
                match b.iter_mut().find(|(bk, _)| key_of(bk) == key) {
                    Some(slot) => *slot = (k, v),
                    None => b.push((k, v)),
                }
            }
        }
        (_, value) => {
            *base = YNode {
                span: over.span,
                value,
            }
        }
    }
}

/// Applies one override entry to the base definition it names.
fn merge_definition(section: &str, base: &mut YNode, over: YNode) {
    match section {
        "tables" => {
            let YValue::Map(o) = over.value else {
                *base = over;
                return;
            };
            for (k, v) in o {
                let key = key_of(&k);
                let Some(b) = entries_mut(base) else { return };
                match b.iter_mut().find(|(bk, _)| key_of(bk) == key) {
                    Some((_, bv)) if key == "rows" => merge_keys(bv, v),
                    Some(slot) => *slot = (k, v),
                    None => b.push((k, v)),
                }
            }
        }
        "types" | "records" => merge_keys(base, over),
        _ => *base = over,
    }
}

/// Finds the base definition `section.name` (for records, `records.Type.name`) in the
/// roots of layers below `layer`, latest first.
fn find_base<'a>(
    roots: &'a mut [YNode],
    layers: &[u8],
    layer: u8,
    path: &[String],
) -> Option<&'a mut YNode> {
    fn lookup<'n>(node: &'n YNode, path: &[String]) -> Option<&'n YNode> {
        path.iter().try_fold(node, |n, step| {
            n.as_map()?
                .iter()
                .find(|(k, _)| key_of(k) == *step)
                .map(|(_, v)| v)
        })
    }
    let index = (0..roots.len()).rev().find(|&i| {
        layers.get(i).is_some_and(|l| *l < layer) && lookup(&roots[i], path).is_some()
    })?;
    path.iter().try_fold(&mut roots[index], |n, step| {
        entries_mut(n)?
            .iter_mut()
            .find(|(k, _)| key_of(k) == *step)
            .map(|(_, v)| v)
    })
}

/// The span of the key that names `path` in the nearest layer below `layer`.
fn base_key_span(
    roots: &[YNode],
    layers: &[u8],
    layer: u8,
    path: &[String],
) -> Option<crate::source::Span> {
    (0..roots.len()).rev().find_map(|i| {
        if layers.get(i).is_none_or(|l| *l >= layer) {
            return None;
        }
        let (parent, last) = path.split_last().map(|(l, p)| (p, l))?;
        let node = parent.iter().try_fold(&roots[i], |n, step| {
            n.as_map()?
                .iter()
                .find(|(k, _)| key_of(k) == *step)
                .map(|(_, v)| v)
        })?;
        node.as_map()?
            .iter()
            .find(|(k, _)| key_of(k) == *last)
            .map(|(k, _)| k.span)
    })
}

/// Applies every `override:` section to the base, drops base manifests, and returns the
/// merged YAML roots.
pub fn merge_yaml(c: &mut Checker, mut roots: Vec<YNode>, layers: &[u8]) -> Vec<YNode> {
    let top = layers.iter().copied().max().unwrap_or(0);
    // Take the override sections out of their roots first.
    let mut overrides: Vec<(u8, YNode)> = Vec::new();
    let mut bases: Vec<(u8, String)> = Vec::new();
    for (root, &layer) in roots.iter_mut().zip(layers) {
        if let Some(entries) = entries_mut(root) {
            let mut i = 0;
            while i < entries.len() {
                let k = key_of(&entries[i].0);
                if k == "override" {
                    let (key, value) = entries.remove(i);
                    if layer == 0 {
                        c.error("E0341", key.span, "nothing to override: this ruleset extends no other", "`override:` without a base", "add `extends: <base folder>` to `ruleset:` in ruleset.yaml, or move these definitions out of `override:`");
                        continue;
                    }
                    overrides.push((layer, value));
                } else if k == "ruleset" && layer < top {
                    // A base's manifest: its name and title are not this ruleset's; its
                    // name is one a content pack may be written for.
                    let (_, manifest) = entries.remove(i);
                    if let Some(name) = manifest.get("name").and_then(|n| n.as_str()) {
                        bases.push((layer, name.to_string()));
                    }
                } else {
                    i += 1;
                }
            }
        }
    }
    // Nearest base first (layers are numbered from the bottom).
    bases.sort_by_key(|(layer, _)| std::cmp::Reverse(*layer));
    c.prog.bases = bases.into_iter().map(|(_, n)| n).collect();
    for (layer, block) in overrides {
        let YValue::Map(sections) = block.value else {
            super::data::wrong(c, &block, "a mapping of sections to override");
            continue;
        };
        for (sk, sv) in sections {
            let section = key_of(&sk);
            if !super::data::SECTIONS.contains(&section.as_str()) || section == "ruleset" {
                let help = suggest(&section, &super::data::SECTIONS[1..], "sections");
                c.error(
                    "E0103",
                    sk.span,
                    format!("unknown section `{section}` in `override:`"),
                    "unknown section",
                    help,
                );
                continue;
            }
            let YValue::Map(defs) = sv.value else {
                continue;
            };
            // Records are two levels deep: type, then record name.
            let mut targets: Vec<(Vec<String>, YNode, YNode)> = Vec::new();
            for (name, value) in defs {
                if section == "records" {
                    if let YValue::Map(inner) = value.value {
                        for (rname, rvalue) in inner {
                            targets.push((
                                vec![section.clone(), key_of(&name), key_of(&rname)],
                                rname,
                                rvalue,
                            ));
                        }
                    }
                } else {
                    targets.push((vec![section.clone(), key_of(&name)], name, value));
                }
            }
            for (path, name, value) in targets {
                // The base's name for this definition, for the index's record of overrides.
                let base_key = base_key_span(&roots, layers, layer, &path);
                match find_base(&mut roots, layers, layer, &path) {
                    Some(base) => {
                        merge_definition(&section, base, value);
                        if let Some(base_span) = base_key {
                            let key = if section == "records" {
                                Key::Record(path[2].clone())
                            } else {
                                Key::Top(path[1].clone())
                            };
                            c.index.overridden(key, base_span, name.span);
                        }
                    }
                    None => {
                        let what = path[1..].join(".");
                        // The names the base does have at this place.
                        let parent = &path[..path.len() - 1];
                        let mut names: Vec<String> = Vec::new();
                        for (root, _) in roots.iter().zip(layers).filter(|(_, l)| **l < layer) {
                            let node = parent.iter().try_fold(root, |n, step| {
                                n.as_map()?
                                    .iter()
                                    .find(|(k, _)| key_of(k) == *step)
                                    .map(|(_, v)| v)
                            });
                            names.extend(
                                node.and_then(|n| n.as_map())
                                    .unwrap_or(&[])
                                    .iter()
                                    .map(|(k, _)| key_of(k)),
                            );
                        }
                        let cands: Vec<&str> = names.iter().map(String::as_str).collect();
                        let help = match crate::diag::did_you_mean(path.last().map(String::as_str).unwrap_or(""), cands.iter().copied()) {
                            Some(s) => format!("did you mean `{s}`? To add a new one, define it outside `override:`"),
                            None => "define it outside `override:` to add it, or check the name".to_string(),
                        };
                        c.error(
                            "E0341",
                            name.span,
                            format!(
                                "the base ruleset has no {} `{what}` to override",
                                section.trim_end_matches('s')
                            ),
                            "nothing to override",
                            help,
                        );
                    }
                }
            }
        }
    }
    roots
}

/// Applies `override` DSL items: each replaces the base item of the same name in place.
pub fn merge_items(c: &mut Checker, items: Vec<ast::Item>, layers: &[u8]) -> Vec<ast::Item> {
    let mut out: Vec<(ast::Item, u8)> = Vec::new();
    for (item, &layer) in items.into_iter().zip(layers) {
        let (name, overrides) = match &item {
            ast::Item::Outcome {
                name, overrides, ..
            }
            | ast::Item::Function {
                name, overrides, ..
            } => (name.clone(), *overrides),
            ast::Item::Fight(_) => {
                out.push((item, layer));
                continue;
            }
        };
        if !overrides {
            out.push((item, layer));
            continue;
        }
        let pos = out.iter().position(|(i, l)| {
            *l < layer
                && match i {
                    ast::Item::Outcome { name: n, .. } | ast::Item::Function { name: n, .. } => {
                        n.name == name.name
                    }
                    ast::Item::Fight(_) => false,
                }
        });
        match pos {
            Some(p) => {
                if let ast::Item::Outcome { name: base, .. }
                | ast::Item::Function { name: base, .. } = &out[p].0
                {
                    c.index
                        .overridden(Key::Top(name.name.clone()), base.span, name.span);
                }
                out[p] = (item, layer);
            }
            None => {
                let d = Diagnostic::error(
                    "E0341",
                    name.span,
                    format!("the base ruleset has no `{}` to override", name.name),
                )
                .label("nothing to override")
                .help("remove `override` to add it as a new definition, or check the name");
                c.diags.push(d);
            }
        }
    }
    out.into_iter().map(|(i, _)| i).collect()
}
