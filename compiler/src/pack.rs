//! Homebrew content packs: records (weapons, armor, creatures...) checked against the
//! record types a ruleset declares, with the same diagnostics as the ruleset's own.
//!
//! ```yaml
//! pack:
//!   name: black_forest_armory
//!   ruleset: kingsmark          # optional: the ruleset this pack is for
//! records:
//!   Weapon:
//!     flamberge: { skill: ArmedCombat, base_damage: Moderate, damage_type: Cutting, critical_threshold: 12 }
//! ```

use crate::check;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::{Const, Program, Ty};
use crate::load;
use crate::source::{Sources, Span};
use crate::yaml::{self, YNode};
use std::collections::HashMap;
use std::path::PathBuf;

/// What a checked pack holds.
#[derive(Debug, Clone)]
pub struct Pack {
    pub name: String,
    /// (record type, record name, value)
    pub records: Vec<(String, String, Const)>,
}

const KEYS: &[&str] = &["pack", "records"];
const PACK_KEYS: &[&str] = &["name", "ruleset", "title", "author", "description"];

/// Checks packs against a checked ruleset. Diagnostics point into the pack files (and,
/// for a name clash with the ruleset, into the ruleset too).
pub fn check_packs(p: &Program, paths: &[PathBuf]) -> (Vec<Pack>, Diagnostics, Sources) {
    let (_, packs, diags, sources) = check_into(p, paths);
    (packs, diags, sources)
}

/// Checks packs against a checked ruleset and adds their records to it, after the
/// ruleset's own, as if the ruleset had declared them: every backend (interpreter,
/// scenarios, Rust) then sees them. The CLI's `--pack` and `Builder::pack` call this.
///
/// Returns the extended program when no pack has an error (its `sources` then hold the
/// pack files too, so every span points into them), and the packs' diagnostics with the
/// sources they point into either way.
pub fn apply(p: &Program, paths: &[PathBuf]) -> (Option<Program>, Diagnostics, Sources) {
    let (prog, _, diags, sources) = check_into(p, paths);
    if diags.has_errors() {
        return (None, diags, sources);
    }
    (Some(prog), diags, sources)
}

fn check_into(p: &Program, paths: &[PathBuf]) -> (Program, Vec<Pack>, Diagnostics, Sources) {
    let mut diags = Diagnostics::default();
    let mut sources = p.sources.clone();
    let mut packs = Vec::new();
    // The ruleset plus every record read so far, so a pack's records may name earlier
    // ones (a creature wearing the pack's own armor).
    let mut reader = check::Reader::new(p, &sources);
    let mut known = Known {
        types: p
            .records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.clone(), i))
            .collect(),
        seen: p
            .instances
            .iter()
            .map(|i| (i.name.clone(), i.span))
            .collect(),
    };
    for path in paths {
        let name = path.display().to_string().replace('\\', "/");
        let Some((_, root)) = load::read_yaml(&mut sources, name, path, &mut diags) else {
            continue;
        };
        reader.set_sources(&sources);
        if let Some(pack) = check_one(p, &mut reader, &root, &mut known, &mut diags) {
            packs.push(pack);
        }
    }
    let mut prog = reader.into_program();
    prog.sources = sources.clone();
    (prog, packs, diags, sources)
}

/// What the packs checked so far know: record types by name, and every record name
/// defined (by the ruleset or a pack) with where.
struct Known {
    types: HashMap<String, usize>,
    seen: HashMap<String, Span>,
}

fn check_one(
    p: &Program,
    reader: &mut check::Reader,
    root: &YNode,
    known: &mut Known,
    diags: &mut Diagnostics,
) -> Option<Pack> {
    let Some(map) = root.as_map() else {
        diags.push(
            Diagnostic::error(
                "E0102",
                root.span,
                format!("expected a content pack (a mapping), found {}", root.kind()),
            )
            .label("here")
            .help("a pack has `pack: { name: ... }` and `records:`"),
        );
        return None;
    };
    for (k, _) in map {
        let key = k.scalar_text().unwrap_or_default();
        if !KEYS.contains(&key.as_str()) {
            diags.push(
                Diagnostic::error(
                    "E0103",
                    k.span,
                    format!("unknown key `{key}` in a content pack"),
                )
                .label("unknown key")
                .help(suggest(&key, KEYS, "keys")),
            );
        }
    }
    let mut name = String::new();
    match root.get("pack") {
        Some(meta) if meta.as_map().is_none() => diags.push(
            Diagnostic::error(
                "E0102",
                meta.span,
                format!("`pack:` is a mapping, not {}", meta.kind()),
            )
            .label("expected a mapping")
            .help("write `pack: { name: my_pack, ruleset: <ruleset name> }`"),
        ),
        Some(meta) => {
            for (k, v) in meta.as_map().unwrap_or(&[]) {
                let key = k.scalar_text().unwrap_or_default();
                if !PACK_KEYS.contains(&key.as_str()) {
                    diags.push(
                        Diagnostic::error(
                            "E0103",
                            k.span,
                            format!("unknown key `{key}` in `pack:`"),
                        )
                        .label("unknown key")
                        .help(suggest(&key, PACK_KEYS, "keys")),
                    );
                } else if v.as_str().is_none() && !(key == "ruleset" && v.as_seq().is_some()) {
                    diags.push(
                        Diagnostic::error(
                            "E0102",
                            v.span,
                            format!("`{key}` is text, not {}", v.kind()),
                        )
                        .label("expected text")
                        .help(format!("write `{key}: <text>`")),
                    );
                }
            }
            match meta.get("name").and_then(|n| n.as_str()) {
                Some(n) if check::is_ident(n) => name = n.to_string(),
                Some(n) => diags.push(
                    Diagnostic::error(
                        "E0302",
                        meta.get("name").map_or(meta.span, |n| n.span),
                        format!("{n:?} is not a valid pack name"),
                    )
                    .label("not a name")
                    .help("a pack's name is letters, digits and `_`, not starting with a digit"),
                ),
                // Not text: reported above.
                None if meta.get("name").is_some() => {}
                None => diags.push(
                    Diagnostic::error("E0106", meta.span, "`pack:` has no `name`")
                        .label("missing `name`")
                        .help("add `name: my_pack`"),
                ),
            }
            if let Some(r) = meta.get("ruleset") {
                if !for_ruleset(p, r, diags) {
                    // Its records are written for another ruleset's types: checking
                    // them here would only repeat that.
                    return None;
                }
            }
        }
        None => diags.push(
            Diagnostic::error(
                "E0106",
                root.span,
                "this content pack has no `pack:` header",
            )
            .label("missing `pack:`")
            .help("add `pack: { name: my_pack, ruleset: <ruleset name> }`"),
        ),
    }
    let mut records = Vec::new();
    let empty: &[(YNode, YNode)] = &[];
    let sections = match root.get("records") {
        Some(r) => yaml::mapping(
            r,
            "records",
            "write `records: { <record type>: { <name>: <record> } }`",
            diags,
        ),
        None => empty,
    };
    for (tkey, by_name) in sections {
        let tname = tkey.scalar_text().unwrap_or_default();
        let Some(&rid) = known.types.get(&tname) else {
            let cands: Vec<&str> = p.records.iter().map(|r| r.name.as_str()).collect();
            diags.push(
                Diagnostic::error(
                    "E0303",
                    tkey.span,
                    format!("`{}` declares no record type `{tname}`", p.name),
                )
                .label("unknown record type")
                .help(suggest(&tname, &cands, "record types")),
            );
            continue;
        };
        let what = format!("records.{tname}");
        let help = format!("write `{tname}: {{ <name>: <record> }}`");
        for (rkey, value) in yaml::mapping(by_name, &what, &help, diags) {
            let rname = rkey.scalar_text().unwrap_or_default();
            if !check::is_record_name(&rname) {
                diags.push(
                    Diagnostic::error(
                        "E0302",
                        rkey.span,
                        format!("{rname:?} is not a valid record name"),
                    )
                    .label("not a name")
                    .help(check::RECORD_NAME_HELP),
                );
                continue;
            }
            if let Some(first) = known.seen.get(&rname) {
                diags.push(
                    Diagnostic::error(
                        "E0301",
                        rkey.span,
                        format!("a record named `{rname}` already exists"),
                    )
                    .label("second definition")
                    .note(*first, "first defined here")
                    .help(
                        "rename one of them; record names are shared by the ruleset and every pack",
                    ),
                );
                continue;
            }
            known.seen.insert(rname.clone(), rkey.span);
            if let Some(v) = reader.read(value, &Ty::Record(rid), diags) {
                let v = reader.add_instance(rname.clone(), rid, v, rkey.span);
                records.push((tname.clone(), rname, v));
            }
        }
    }
    Some(Pack { name, records })
}

/// `ruleset:` of a pack header: the name of one ruleset, or a list of them. The pack
/// applies to a ruleset it names, and to every variant that extends one (`E0402`
/// otherwise).
fn for_ruleset(p: &Program, r: &YNode, diags: &mut Diagnostics) -> bool {
    let names: Vec<&YNode> = match r.as_seq() {
        Some(items) => items.iter().collect(),
        None => vec![r],
    };
    let mut texts = Vec::new();
    for n in &names {
        match n.as_str() {
            Some(t) => texts.push(t),
            None => diags.push(
                Diagnostic::error(
                    "E0102",
                    n.span,
                    format!("expected the name of a ruleset, found {}", n.kind()),
                )
                .label("not a name")
                .help("write `ruleset: kingsmark`, or `ruleset: [kingsmark, d20_armor_slots]`"),
            ),
        }
    }
    let fits = |t: &str| t == p.name || p.bases.iter().any(|b| b == t);
    if texts.is_empty() || texts.iter().any(|t| fits(t)) {
        return true;
    }
    let named = texts
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let this = if p.bases.is_empty() {
        format!("`{}`", p.name)
    } else {
        format!(
            "`{}` (which extends {})",
            p.name,
            p.bases
                .iter()
                .map(|b| format!("`{b}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    diags.push(
        Diagnostic::error(
            "E0402",
            r.span,
            format!("this pack is for {named}, not {this}"),
        )
        .label("other ruleset")
        .help("check it with a ruleset it names (or a variant of one), or add this ruleset to `ruleset:`"),
    );
    false
}
