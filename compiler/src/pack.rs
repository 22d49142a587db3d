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
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::{Const, Program, Ty};
use crate::load;
use crate::output;
use crate::source::{Sources, Span};
use crate::yaml::{self, YNode};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a checked pack holds.
#[derive(Debug, Clone)]
pub struct Pack {
    pub name: String,
    /// The file it was read from (a required pack's path, as found from the pack
    /// requiring it).
    pub path: PathBuf,
    /// (record type, record name, value)
    pub records: Vec<(String, String, Const)>,
}

const KEYS: &[&str] = &["pack", "records"];
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
const COPY: &str = "_copy";

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

fn check_into(
    p: &Program,
    paths: &[PathBuf],
    overlay: &load::Overlay,
) -> (Program, Vec<Pack>, Diagnostics, Sources) {
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
    let mut run = Run {
        p,
        sources: &mut sources,
        reader: &mut reader,
        known: &mut known,
        diags: &mut diags,
        packs: &mut packs,
        done: HashMap::new(),
        chain: Vec::new(),
        overlay,
    };
    for path in paths {
        let root = load::project_root_of_file(path);
        run.visit(path, output::shown(path), &root);
    }
    let mut prog = reader.into_program();
    prog.sources = sources.clone();
    (prog, packs, diags, sources)
}

/// Checking packs in order, each after the packs it `requires`.
struct Run<'a> {
    p: &'a Program,
    sources: &'a mut Sources,
    reader: &'a mut check::Reader,
    known: &'a mut Known,
    diags: &'a mut Diagnostics,
    packs: &'a mut Vec<Pack>,
    /// Packs read (by canonical path), each once, and whether it was read with every
    /// pack it requires.
    done: HashMap<PathBuf, bool>,
    /// The packs being read, each requiring the next: one of them again is a cycle.
    chain: Vec<PathBuf>,
    /// Unsaved texts of packs (the language server's).
    overlay: &'a load::Overlay,
}

impl Run<'_> {
    /// Reads the pack at `path` (shown as `name`), the packs it requires (inside `root`),
    /// and checks it after them. Whether it was read, with every pack it requires: a
    /// pack whose required packs could not all be read is not checked, since its
    /// records may name theirs (each missing record would only repeat the first error).
    fn visit(&mut self, path: &Path, name: String, root: &Path) -> bool {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if let Some(&read) = self.done.get(&key) {
            return read;
        }
        self.done.insert(key.clone(), false);
        let Some((_, node)) =
            load::read_yaml_in(self.sources, name, path, self.overlay, self.diags)
        else {
            return false;
        };
        self.chain.push(key.clone());
        let folder = path.parent().unwrap_or(Path::new(""));
        let (required, mut complete) = self.required(&node, folder, root);
        for (target, shown) in required {
            complete &= self.visit(&target, shown, root);
        }
        self.chain.pop();
        self.done.insert(key, complete);
        if !complete {
            return false;
        }
        self.reader.set_sources(self.sources);
        if let Some(pack) = check_one(self.p, self.reader, &node, self.known, self.diags) {
            self.packs.push(Pack {
                path: path.to_path_buf(),
                ..pack
            });
        }
        true
    }

    /// The packs a pack's `requires:` names that can be read, each with the name its
    /// diagnostics give it, and whether that is all of them: every one that cannot be
    /// read is reported (`E0407` to `E0409`, `E0102`).
    fn required(
        &mut self,
        node: &YNode,
        folder: &Path,
        root: &Path,
    ) -> (Vec<(PathBuf, String)>, bool) {
        let Some(req) = node.get("pack").and_then(|m| m.get("requires")) else {
            return (Vec::new(), true);
        };
        let items: Vec<&YNode> = match req.as_seq() {
            Some(items) => items.iter().collect(),
            None => vec![req],
        };
        let mut out = Vec::new();
        let mut complete = true;
        for r in items {
            let Some(rel) = r.as_str() else {
                self.diags.push(
                    Diagnostic::error(
                        "E0102",
                        r.span,
                        format!("expected the path of a pack file, found {}", r.kind()),
                    )
                    .label("not a path")
                    .help("write `requires: [armory.yaml]` (relative to this pack's folder)"),
                );
                complete = false;
                continue;
            };
            let target = folder.join(rel);
            let Ok(abs) = std::fs::canonicalize(&target) else {
                self.diags.push(
                    Diagnostic::error("E0407", r.span, format!("there is no pack `{rel}`"))
                        .label("not found")
                        .help(format!(
                            "the path is relative to this pack's folder ({})",
                            output::shown(folder)
                        )),
                );
                complete = false;
                continue;
            };
            if !abs.starts_with(root) {
                self.diags.push(
                    Diagnostic::error(
                        "E0408",
                        r.span,
                        format!("`{rel}` is outside the project folder"),
                    )
                    .label("leaves the project")
                    .help(format!(
                        "a pack may require only packs inside its project folder, {}; give `rulesc --root <folder>` holding both, or put an empty `rulesc.toml` in a folder above both",
                        root.display()
                    )),
                );
                complete = false;
                continue;
            }
            if self.chain.contains(&abs) {
                let msg = if self.chain.last() == Some(&abs) {
                    format!("this pack requires itself (`{rel}`)")
                } else {
                    format!("`{rel}` requires this pack again: a cycle of `requires`")
                };
                self.diags.push(
                    Diagnostic::error("E0409", r.span, msg)
                    .label("cycle")
                    .help("a pack cannot require itself, directly or through others; move the records both need into a third pack that both require"),
                );
                complete = false;
                continue;
            }
            if self.chain.len() >= MAX_REQUIRES {
                self.diags.push(
                    Diagnostic::error(
                        "E0409",
                        r.span,
                        format!("more than {MAX_REQUIRES} packs require one another"),
                    )
                    .label("too deep")
                    .help("flatten the chain of `requires`: a pack may require several packs"),
                );
                complete = false;
                continue;
            }
            out.push((abs.clone(), shown_from_here(&abs)));
        }
        (out, complete)
    }
}

/// A path by its name from the current folder when it is inside it, else in full: how a
/// required pack is named in diagnostics.
fn shown_from_here(abs: &Path) -> String {
    let here = std::env::current_dir()
        .ok()
        .and_then(|h| std::fs::canonicalize(h).ok());
    match here.as_ref().and_then(|h| abs.strip_prefix(h).ok()) {
        Some(rel) => output::shown(rel),
        None => output::shown(abs),
    }
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
    Some(Pack {
        name,
        path: PathBuf::new(),
        records,
    })
}

/// Where a `_copy` is read: the record being written (its name's span), and where its
/// pack defines each of its records.
struct Copying<'a> {
    name: &'a str,
    span: Span,
    defined: &'a HashMap<String, Span>,
}

/// A record written with `_copy: <record>`: the named record of the same type (the
/// ruleset's, or one read before, as from a required pack), with the fields given
/// beside `_copy` in place of its own. A record copies only records read before it, so
/// copies never form a cycle: one that names itself, or a record further down its pack,
/// is `E0411`.
fn copy(
    p: &Program,
    reader: &mut check::Reader,
    value: &YNode,
    from: &YNode,
    rid: usize,
    at: Copying,
    diags: &mut Diagnostics,
) -> Option<Const> {
    let tname = &p.records[rid].name;
    let Some(base) = from.as_str() else {
        diags.push(
            Diagnostic::error(
                "E0102",
                from.span,
                format!("`_copy` names a record, not {}", from.kind()),
            )
            .label("expected a record's name")
            .help(format!("write `_copy: <a {tname} record>`")),
        );
        return None;
    };
    if base == at.name {
        diags.push(
            Diagnostic::error(
                "E0411",
                from.span,
                format!("the record `{base}` copies itself"),
            )
            .label("this record")
            .help(format!(
                "`_copy` names another {tname} record, read before this one (the ruleset's, a required pack's, or one above in this pack); to change one of the ruleset's records, give the changed copy a name of its own"
            )),
        );
        return None;
    }
    if let Some(&later) = at.defined.get(base).filter(|d| d.start > at.span.start) {
        diags.push(
            Diagnostic::error(
                "E0411",
                from.span,
                format!("`{base}` is defined further down this pack, after the record copying it"),
            )
            .label("not read yet")
            .note(later, format!("`{base}` is defined here"))
            .help(format!(
                "a record copies only records read before it: move `{base}` above `{}`",
                at.name
            )),
        );
        return None;
    }
    let copied = match reader.instance(base) {
        Some(i) if i.record == rid => i.value.clone(),
        Some(i) => {
            let other = &p.records[i.record].name;
            diags.push(
                Diagnostic::error(
                    "E0411",
                    from.span,
                    format!("`{base}` is a {other}, and this record is a {tname}"),
                )
                .label(format!("a {other}"))
                .note(i.span, format!("`{base}` is defined here"))
                .help(format!(
                    "copy a {tname} record, or write this record under `{other}:`"
                )),
            );
            return None;
        }
        // Declared, but invalid: its own error says why.
        None if reader.declares_record(base) => return None,
        None => {
            let cands = reader.names_of_type(rid);
            let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
            diags.push(
                Diagnostic::error(
                    "E0411",
                    from.span,
                    format!("there is no {tname} record `{base}` to copy"),
                )
                .label("unknown record")
                .help(suggest(base, &cands, "records of this type")),
            );
            return None;
        }
    };
    let map = value.as_map().unwrap_or(&[]);
    let fields: Vec<(YNode, YNode)> = map
        .iter()
        .filter(|(k, _)| k.scalar_text().as_deref() != Some(COPY))
        .cloned()
        .collect();
    reader.read_copy(value, &fields, rid, &copied, diags)
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
