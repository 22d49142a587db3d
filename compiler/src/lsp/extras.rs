//! Diagnostics for the YAML files no ruleset reads: content packs, scenarios and fight
//! files. Each open one is checked against its ruleset's program with the functions the
//! command line uses (`rulesc check --pack`: [`crate::pack::check_packs_with`];
//! `rulesc test`, `trace`, `analyze`: [`crate::scenario::read_with`], with the
//! scenario's `packs:` applied first by [`crate::pack::apply_with`]; `rulesc simulate`
//! and `test`: [`crate::simulate::read_with`]), its unsaved text read from the overlay.
//!
//! Which ruleset: a scenario's or fight file's `ruleset:` (a folder, relative to the
//! file); a pack's `pack: { ruleset: name }` (a ruleset's name, or a list of them): the
//! ruleset of that name the server checks, else the first folder of the project, in
//! name order, whose manifest has that name; with neither, the one ruleset the server
//! checks, when it checks one. Otherwise the file is told so, in one diagnostic.

use super::convert::{self, canonical, Encoding};
use super::Analysis;
use crate::diag::Diagnostics;
use crate::ir::Program;
use crate::load::Overlay;
use crate::source::{SourceFile, Sources, Span};
use crate::yaml::YNode;
use lsp_types as lsp;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Most folders looked at when finding a pack's ruleset by name in the project.
const MAX_FOLDERS_SEARCHED: usize = 2000;
/// How deep under the project folder a pack's ruleset is looked for.
const MAX_DEPTH: usize = 4;
/// Most of a pack's ruleset names looked for.
const MAX_NAMES: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Pack,
    Scenario,
    Fight,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Pack => "content pack",
            Kind::Scenario => "scenario",
            Kind::Fight => "fight file",
        }
    }
}

/// What an open YAML document outside a ruleset folder is, by its top-level keys
/// (read line by line, so a file that does not parse yet is still known): `pack:` a
/// content pack, `run:` a scenario, `sides:` a fight file.
pub(crate) fn kind_of(text: &str) -> Option<Kind> {
    let top = |key: &str| {
        text.lines().any(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.starts_with(':'))
        })
    };
    if top("pack") {
        Some(Kind::Pack)
    } else if top("run") {
        Some(Kind::Scenario)
    } else if top("sides") {
        Some(Kind::Fight)
    } else {
        None
    }
}

/// The YAML of an open document, parsed on its own (`None` while it does not parse:
/// the reader reports why).
fn parse(path: &Path, text: &str) -> Option<YNode> {
    let file = SourceFile::new(String::new(), path.to_path_buf(), text.to_string());
    crate::yaml::parse(0, &file, &mut Diagnostics::default())
}

/// The name a ruleset folder's manifest gives (`ruleset: { name: .. }`), read from the
/// overlay or the disk.
fn manifest_name(dir: &Path, overlay: &Overlay) -> Option<String> {
    let manifest = canonical(&dir.join("ruleset.yaml"));
    let text = match overlay.get(&manifest) {
        Some(t) => t.clone(),
        None => {
            let mut diags = Diagnostics::default();
            let at = Span::new(0, 0, 0);
            crate::load::read_text(&manifest, "", at, 1 << 20, &mut diags)?
        }
    };
    let root = parse(&manifest, &text)?;
    Some(root.get("ruleset")?.get("name")?.as_str()?.to_string())
}

/// The folders under `root` (itself included, at most [`MAX_DEPTH`] deep, hidden ones
/// and `target` skipped) holding a `ruleset.yaml`, in name order.
fn ruleset_folders(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut queue = vec![(root.to_path_buf(), 0)];
    let mut seen = 0;
    while let Some((dir, depth)) = queue.pop() {
        seen += 1;
        if seen > MAX_FOLDERS_SEARCHED {
            break;
        }
        if dir.join("ruleset.yaml").is_file() {
            out.push(dir.clone());
        }
        if depth >= MAX_DEPTH {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut subs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                !name.starts_with('.') && name != "target" && name != "node_modules"
            })
            .map(|e| e.path())
            .collect();
        subs.sort();
        queue.extend(subs.into_iter().rev().map(|d| (d, depth + 1)));
    }
    out.sort();
    out
}

/// The ruleset folder (canonical) a pack, scenario or fight file is checked against, or
/// why there is none. While the file does not parse, the one it was checked against
/// before (`previous`), so that its syntax error is what it hears.
pub(crate) fn ruleset_of(
    kind: Kind,
    path: &Path,
    text: &str,
    previous: Option<&Path>,
    analyses: &BTreeMap<PathBuf, Analysis>,
    overlay: &Overlay,
) -> Result<PathBuf, String> {
    let root = parse(path, text);
    let dir = path.parent().unwrap_or(Path::new(""));
    let named = |name: &str| -> Option<PathBuf> {
        let checked = analyses
            .keys()
            .find(|d| manifest_name(d, overlay).as_deref() == Some(name));
        if let Some(d) = checked {
            return Some(d.clone());
        }
        let project = crate::load::project_root_of_file(path);
        ruleset_folders(&project)
            .into_iter()
            .find(|d| manifest_name(d, overlay).as_deref() == Some(name))
            .map(|d| canonical(&d))
    };
    let explicit = match (kind, &root) {
        (Kind::Pack, Some(root)) => match root.get("pack").and_then(|p| p.get("ruleset")) {
            Some(r) => {
                let names: Vec<&str> = match r.as_seq() {
                    Some(list) => list.iter().filter_map(YNode::as_str).collect(),
                    None => r.as_str().into_iter().collect(),
                };
                // (A hostile list is not searched for past its first few names.)
                let found = names.iter().take(MAX_NAMES).find_map(|n| named(n));
                match found {
                    Some(d) => return Ok(d),
                    None => {
                        return Err(format!(
                            "no ruleset named {} in this project: open the ruleset, or check the pack with `rulesc check --ruleset <folder> {}`",
                            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or "),
                            path.file_name().map_or(String::new(), |f| f.to_string_lossy().to_string())
                        ))
                    }
                }
            }
            None => None,
        },
        (_, Some(root)) => root
            .get("ruleset")
            .and_then(YNode::as_str)
            .map(|rel| resolved(&dir.join(rel))),
        (_, None) => previous.map(Path::to_path_buf),
    };
    if let Some(d) = explicit {
        let project = crate::load::project_root_of_file(path);
        if !d.starts_with(&project) {
            return Err(format!(
                "`ruleset:` names {}, outside the project {}: rulesc lsp reads only inside it (`rulesc test` checks it)",
                d.display(),
                project.display()
            ));
        }
        return if d.join("ruleset.yaml").is_file() {
            Ok(d)
        } else {
            Err(format!(
                "`ruleset:` names {}, which holds no `ruleset.yaml`",
                d.display()
            ))
        };
    }
    let mut checked = analyses.keys();
    match (checked.next(), checked.next()) {
        (Some(only), None) => Ok(only.clone()),
        _ => Err(match kind {
            Kind::Pack => "this pack does not say which ruleset it is for: add `ruleset: <name>` under `pack:`, or open the ruleset".to_string(),
            _ => format!(
                "this {} does not say which ruleset it runs against: add `ruleset: <folder>` (relative to this file), or open the ruleset",
                kind.word()
            ),
        }),
    }
}

/// The `packs:` of a scenario, relative to its folder (those it names as text).
fn scenario_packs(path: &Path, text: &str) -> Vec<PathBuf> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let Some(node) = parse(path, text).and_then(|r| r.get("packs").cloned()) else {
        return Vec::new();
    };
    let items: Vec<&YNode> = match node.as_seq() {
        Some(s) => s.iter().collect(),
        None => vec![&node],
    };
    items
        .into_iter()
        .filter_map(YNode::as_str)
        .map(|rel| dir.join(rel))
        .collect()
}

/// Why a scenario cannot be checked here: a pack it names is outside its project (the
/// server reads only inside it; the command line, given the paths, reads them).
pub(crate) fn outside_project(kind: Kind, path: &Path, text: &str) -> Option<String> {
    if kind != Kind::Scenario {
        return None;
    }
    let project = crate::load::project_root_of_file(path);
    let out = scenario_packs(path, text)
        .into_iter()
        .map(|p| resolved(&p))
        .find(|p| !p.starts_with(&project))?;
    Some(format!(
        "`packs:` names {}, outside the project {}: rulesc lsp reads only inside it (`rulesc test` checks it)",
        out.display(),
        project.display()
    ))
}

/// A path made canonical when it exists, else with its `..` taken lexically (so that a
/// path to nothing still says where it leads).
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    let mut out = PathBuf::new();
    for part in p.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// One diagnostic at the start of a file, from the language server itself.
pub(crate) fn note_at_start(message: String, severity: lsp::DiagnosticSeverity) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(severity),
        source: Some("rulesc".into()),
        message,
        ..Default::default()
    }
}

/// Checks an open pack, scenario or fight file against its ruleset's program: what the
/// reader found, with the sources it points into.
pub(crate) fn check(
    kind: Kind,
    path: &Path,
    text: &str,
    program: &Program,
    overlay: &Overlay,
) -> (Diagnostics, Sources) {
    match kind {
        Kind::Pack => {
            let (_, d, s) = crate::pack::check_packs_with(program, &[path.to_path_buf()], overlay);
            (d, s)
        }
        Kind::Scenario => {
            let packs = scenario_packs(path, text);
            let with_packs;
            let p = if packs.is_empty() {
                program
            } else {
                match crate::pack::apply_with(program, &packs, overlay) {
                    (Some(extended), _, _) => {
                        with_packs = extended;
                        &with_packs
                    }
                    // Its packs' errors are theirs: the scenario is told of them.
                    (None, d, s) => return (d, s),
                }
            };
            match crate::scenario::read_with(p, path, overlay) {
                Ok((_, sources)) => (Diagnostics::default(), sources),
                Err(found) => found,
            }
        }
        Kind::Fight => match crate::simulate::read_with(program, path, overlay) {
            Ok((_, sources)) => (Diagnostics::default(), sources),
            Err(found) => found,
        },
    }
}

/// The diagnostics of a check in the file itself, as the protocol's; errors in the
/// files it reads (a scenario's packs) counted in one diagnostic at its start.
pub(crate) fn in_file(
    diags: &Diagnostics,
    sources: &Sources,
    path: &Path,
    enc: Encoding,
) -> Vec<lsp::Diagnostic> {
    let mut out = Vec::new();
    let mut elsewhere = 0;
    for d in diags.sorted() {
        let in_file = sources
            .files
            .get(d.span.file as usize)
            .is_some_and(|f| canonical(&f.path) == path);
        if in_file {
            out.push(convert::diagnostic(d, sources, enc));
        } else if d.severity == crate::diag::Severity::Error {
            elsewhere += 1;
        }
    }
    if elsewhere > 0 {
        let message =
            format!("{elsewhere} error(s) in the packs this file reads: open them to see them");
        out.insert(0, note_at_start(message, lsp::DiagnosticSeverity::ERROR));
    }
    out
}

/// The diagnostic of a file whose ruleset does not check (as `rulesc test` says it).
pub(crate) fn ruleset_broken(dir: &Path) -> lsp::Diagnostic {
    lsp::Diagnostic {
        code: Some(lsp::NumberOrString::String("E0401".into())),
        ..note_at_start(
            format!(
                "the ruleset {} does not check: fix its errors first (open one of its files to see them)",
                dir.display()
            ),
            lsp::DiagnosticSeverity::ERROR,
        )
    }
}
