//! Homebrew content packs: records (weapons, armor, creatures...) checked against the
//! record types a ruleset declares, with the same diagnostics as the ruleset's own.
//!
//! ```yaml
//! pack:
//!   name: black_forest_armory
//!   ruleset: kingsmark          # optional: the ruleset this pack is for (or a list)
//!   requires: [armory.yaml]     # optional: packs checked first (relative to this one)
//! records:
//!   Weapon:
//!     flamberge: { skill: ArmedCombat, base_damage: Moderate, damage_type: Cutting, critical_threshold: 12 }
//!     great_flamberge: { _copy: flamberge, base_damage: Severe }   # the rest copied
//! ```
//!
//! `requires:` and `_copy` follow 5etools' homebrew: a file declares the files it
//! depends on (`_meta.dependencies`), and a record may copy another, changing some fields
//! (`_copy`). A required pack is read as if it were given before the pack requiring it,
//! once however many require it; it must be inside the project folder of the pack named
//! on the command line (as `extends` must), with no cycle, at most
//! [`MAX_REQUIRES`] deep.

use crate::check;
use crate::check::packs::{Added, PackLayer, MOD};
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::{Const, Program, Ty};
use crate::load;
use crate::source::{Sources, Span};
use crate::yaml::{self, YNode};
use std::collections::HashMap;
use std::path::PathBuf;

mod copy;
mod read;

use copy::{copy, Copying};
use read::{read_all, to_layers, Read};

/// What a checked pack holds.
#[derive(Debug, Clone)]
pub struct Pack {
    pub name: String,
    /// The file it was read from (a required pack's path, as found from the pack
    /// requiring it).
    pub path: PathBuf,
    /// (record type, record name, value)
    pub records: Vec<(String, String, Const)>,
    /// What it added to and changed in the ruleset's data (`enums:`, `scales:`,
    /// `tables:`, `_mod`).
    pub added: Added,
    /// Where it does so: each of those sections' keys, and each record's `_mod`.
    pub data_at: Vec<(String, Span)>,
}

impl Pack {
    /// What it holds, as `rulesc check` reports it: `2 record(s), 1 variant(s)`.
    pub fn summary(&self) -> String {
        let a = &self.added;
        let mut parts = vec![format!("{} record(s)", self.records.len())];
        for (n, what) in [
            (a.variants, "variant(s)"),
            (a.levels, "level(s)"),
            (a.rows, "row(s)"),
            (a.new, "new definition(s)"),
            (a.changes, "change(s)"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        parts.join(", ")
    }
}

const KEYS: &[&str] = &["pack", "records", "enums", "scales", "tables"];
const PACK_KEYS: &[&str] = &[
    "name",
    "ruleset",
    "requires",
    "title",
    "author",
    "description",
];

/// Most packs in one chain of `requires` (a pack, the pack it requires, ...).
pub const MAX_REQUIRES: usize = 8;

/// The key of a pack record that copies another record.
pub(super) const COPY: &str = "_copy";

/// Checks packs against a checked ruleset. Diagnostics point into the pack files (and,
/// for a name clash with the ruleset, into the ruleset too).
pub fn check_packs(p: &Program, paths: &[PathBuf]) -> (Vec<Pack>, Diagnostics, Sources) {
    check_packs_with(p, paths, &load::Overlay::new())
}

/// [`check_packs`], reading a pack's text from `overlay` when it is there (the language
/// server's unsaved buffers).
pub fn check_packs_with(
    p: &Program,
    paths: &[PathBuf],
    overlay: &load::Overlay,
) -> (Vec<Pack>, Diagnostics, Sources) {
    let (_, packs, diags, sources) = check_into(p, paths, overlay);
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
    apply_with(p, paths, &load::Overlay::new())
}

/// [`apply`], reading a pack's text from `overlay` when it is there.
pub fn apply_with(
    p: &Program,
    paths: &[PathBuf],
    overlay: &load::Overlay,
) -> (Option<Program>, Diagnostics, Sources) {
    let (prog, _, diags, sources) = check_into(p, paths, overlay);
    if diags.has_errors() {
        return (None, diags, sources);
    }
    (Some(prog), diags, sources)
}

/// The packs at `paths` (and those they require) as read, in the order they apply, for
/// [`check::merged_with_packs`] (`rulesc explain`): their files follow the ruleset's in
/// the sources returned. Problems are ignored: explain runs on packs that check.
pub fn layers(p: &Program, paths: &[PathBuf]) -> (Vec<PackLayer>, Sources) {
    let mut ignored = Diagnostics::default();
    let (fits, sources) = read_all(p, paths, &load::Overlay::new(), &mut ignored);
    (to_layers(&fits), sources)
}

fn check_into(
    p: &Program,
    paths: &[PathBuf],
    overlay: &load::Overlay,
) -> (Program, Vec<Pack>, Diagnostics, Sources) {
    let mut diags = Diagnostics::default();
    let (fits, mut sources) = read_all(p, paths, overlay, &mut diags);
    let mut added = vec![Added::default(); fits.len()];
    let mut base = None;
    if fits.iter().any(|(r, _)| adds_to_data(&r.node)) {
        match recheck(p, &fits, &sources, &mut diags) {
            Some((prog, a)) => {
                sources = prog.sources.clone();
                added = a;
                base = Some(prog);
            }
            // The packs' additions do not check: their records, which may name them,
            // would only repeat that.
            None => return (p.clone(), Vec::new(), diags, sources),
        }
    }
    let base = base.as_ref().unwrap_or(p);
    // The ruleset plus every record read so far, so a pack's records may name earlier
    // ones (a creature wearing the pack's own armor).
    let mut reader = check::Reader::new(base, &sources);
    let mut known = Known {
        types: base
            .records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.clone(), i))
            .collect(),
        seen: base
            .instances
            .iter()
            .map(|i| (i.name.clone(), i.span))
            .collect(),
    };
    let mut packs = Vec::new();
    for ((r, name), added) in fits.into_iter().zip(added) {
        let records = records(base, &mut reader, &r.node, &mut known, &mut diags);
        packs.push(Pack {
            name,
            data_at: data_at(&r.node),
            path: r.path,
            records,
            added,
        });
    }
    let mut prog = reader.into_program();
    prog.sources = sources.clone();
    prog.folder = p.folder.clone();
    (prog, packs, diags, sources)
}

/// Where a pack adds to or changes the ruleset's data: its `enums:`, `scales:` and
/// `tables:` keys, and its records' `_mod` keys.
fn data_at(node: &YNode) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = node
        .as_map()
        .unwrap_or(&[])
        .iter()
        .filter_map(|(k, _)| {
            let key = k.scalar_text()?;
            check::packs::SECTIONS
                .contains(&key.as_str())
                .then_some((key, k.span))
        })
        .collect();
    for (_, by_name) in node.get("records").and_then(|r| r.as_map()).unwrap_or(&[]) {
        for (_, v) in by_name.as_map().unwrap_or(&[]) {
            for (k, _) in v.as_map().unwrap_or(&[]) {
                if k.as_str() == Some(MOD) {
                    out.push((MOD.to_string(), k.span));
                }
            }
        }
    }
    out
}

/// `rulesc check --compiled`: the packs are for a game already compiled from `p` without
/// them. Records are data such a game reads (through serde); anything else a pack adds
/// or changes (a variant of a closed enum, a level, a row, a table, a record changed in
/// place) is in the generated code, so a game built without the pack would meet a
/// variant its enum lacks, or run the ruleset's rows: `E0416` at each.
pub fn for_compiled(p: &Program, packs: &[Pack]) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for pack in packs {
        for (section, span) in &pack.data_at {
            let what = match section.as_str() {
                "enums" => "adds enum variants or enums",
                "scales" => "adds scale levels or scales",
                "tables" => "adds or changes tables",
                _ => "changes a record in place",
            };
            diags.push(
                Diagnostic::error(
                    "E0416",
                    *span,
                    format!(
                        "the pack `{}` {what}, which a game compiled from `{}` holds in its code",
                        pack.name, p.name
                    ),
                )
                .label("not data a compiled game reads")
                .help("build the game with the pack (`rulesc build --pack`, `Builder::pack`); a pack for a game already compiled holds only records"),
            );
        }
    }
    diags
}

/// Whether a pack adds to or changes the ruleset's data (more than records).
fn adds_to_data(node: &YNode) -> bool {
    !data_at(node).is_empty()
}

/// The ruleset checked again from its folder with the packs' additions merged in
/// ([`check::packs`]): the program, its sources (the ruleset's, then the packs' files as
/// `sources` holds them), and what each pack added. Its errors are reported; of its
/// warnings, those in the packs (the ruleset's own were reported by its first check).
fn recheck(
    p: &Program,
    fits: &[(Read, String)],
    sources: &Sources,
    diags: &mut Diagnostics,
) -> Option<(Program, Vec<Added>)> {
    let first = fits
        .iter()
        .find(|(r, _)| adds_to_data(&r.node))
        .map_or(Span::default(), |(r, _)| r.node.span);
    let Some(folder) = p.folder.clone() else {
        diags.push(
            Diagnostic::error(
                "E0414",
                first,
                "this pack adds to the ruleset's data, but the ruleset was not read from a folder",
            )
            .label("adds to the ruleset")
            .help("check the ruleset with `rulesc::compile_dir` (or the command line) before applying packs that add enums, scales, tables or `_mod`"),
        );
        return None;
    };
    let mut found = Diagnostics::default();
    let mut loaded = load::load_dir(&folder, &mut found);
    let ruleset_files = p.sources.files.len();
    let same = loaded.sources.files.len() == ruleset_files
        && loaded
            .sources
            .files
            .iter()
            .zip(&p.sources.files)
            .all(|(a, b)| a.path == b.path && a.text == b.text);
    if found.has_errors() || !same {
        diags.push(
            Diagnostic::error(
                "E0414",
                first,
                format!(
                    "the ruleset in {} changed while its packs were read",
                    folder.display()
                ),
            )
            .label("adds to the ruleset")
            .help("run the command again"),
        );
        return None;
    }
    // The packs' files after the ruleset's, with the ids the packs were read with.
    loaded.sources = sources.clone();
    let layers = to_layers(fits);
    let mut checked = Diagnostics::default();
    let (prog, _, added) = check::check_all(loaded, &layers, &mut checked, false);
    let pack_files: Vec<u32> = fits.iter().map(|(r, _)| r.node.span.file).collect();
    for d in checked.items {
        if d.severity == crate::diag::Severity::Error || pack_files.contains(&d.span.file) {
            diags.push(d);
        }
    }
    let mut prog = prog?;
    prog.folder = Some(folder);
    Some((prog, added))
}

/// What the packs checked so far know: record types by name, and every record name
/// defined (by the ruleset or a pack) with where.
struct Known {
    types: HashMap<String, usize>,
    seen: HashMap<String, Span>,
}

/// A pack's header (`pack:`, and the keys beside it): its name, or `None` when it is not
/// a pack, or is for another ruleset.
pub(super) fn header(p: &Program, root: &YNode, diags: &mut Diagnostics) -> Option<String> {
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
    crate::yaml::unknown_keys(map, KEYS, "a content pack", diags);
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
                } else if v.as_str().is_none()
                    && !(matches!(key.as_str(), "ruleset" | "requires") && v.as_seq().is_some())
                {
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
    Some(name)
}

/// A pack's records, checked and added to `reader` (those with `_mod` change the
/// ruleset's, and were merged before it was checked).
fn records(
    p: &Program,
    reader: &mut check::Reader,
    root: &YNode,
    known: &mut Known,
    diags: &mut Diagnostics,
) -> Vec<(String, String, Const)> {
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
    // Where this pack defines each record (first): a `_copy` of one further down than
    // the record copying it names a record not read yet (`E0411`).
    let mut defined: HashMap<String, Span> = HashMap::new();
    for (_, by_name) in sections {
        for (rkey, _) in by_name.as_map().unwrap_or(&[]) {
            let rname = rkey.scalar_text().unwrap_or_default();
            defined.entry(rname).or_insert(rkey.span);
        }
    }
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
            if value.get(MOD).is_some() {
                continue;
            }
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
            reader.declare_record(&rname, &tname, rkey.span);
            let read = match value.get(COPY) {
                Some(from) => {
                    let at = Copying {
                        name: &rname,
                        span: rkey.span,
                        defined: &defined,
                    };
                    copy(p, reader, value, from, rid, at, diags)
                }
                None => reader.read(value, &Ty::Record(rid), diags),
            };
            if let Some(v) = read {
                let v = reader.add_instance(rname.clone(), rid, v, rkey.span);
                records.push((tname.clone(), rname, v));
            }
        }
    }
    records
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
    let quoted: Vec<String> = texts.iter().map(|t| format!("`{t}`")).collect();
    let named = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    };
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
