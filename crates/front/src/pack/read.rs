//! Reading packs: each after the packs it `requires` (once each, inside the project
//! folder, without cycles, at most [`MAX_REQUIRES`] deep), in the order they
//! apply.

use super::{header, MAX_REQUIRES};
use crate::check::packs::PackLayer;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Program;
use crate::load;
use crate::output;
use crate::source::Sources;
use crate::yaml::YNode;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub(super) fn to_layers(fits: &[(Read, String)]) -> Vec<PackLayer> {
    fits.iter()
        .map(|(r, name)| PackLayer {
            name: name.clone(),
            root: r.node.clone(),
            requires: required_names(fits, r),
        })
        .collect()
}

/// Reads the packs at `paths` (each after those it requires) into a copy of the
/// ruleset's sources: each with its name, but those that are not packs or are for
/// another ruleset (reported).
pub(super) fn read_all(
    p: &Program,
    paths: &[PathBuf],
    overlay: &load::Overlay,
    diags: &mut Diagnostics,
) -> (Vec<(Read, String)>, Sources) {
    let mut run = Run {
        sources: p.sources.clone(),
        diags,
        read: Vec::new(),
        done: HashMap::new(),
        chain: Vec::new(),
        overlay,
    };
    for path in paths {
        let root = load::project_root_of_file(path);
        run.visit(path, output::shown(path), &root);
    }
    let (read, sources) = (run.read, run.sources);
    // Each pack's header, once; a pack for another ruleset goes no further.
    let mut fits: Vec<(Read, String)> = Vec::new();
    for r in read {
        if let Some(name) = header(p, &r.node, diags) {
            fits.push((r, name));
        }
    }
    (fits, sources)
}

/// The names of the packs `r` requires, directly or through others.
fn required_names(fits: &[(Read, String)], r: &Read) -> Vec<String> {
    let mut seen: Vec<&PathBuf> = Vec::new();
    let mut todo: Vec<&PathBuf> = r.requires.iter().collect();
    while let Some(k) = todo.pop() {
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        if let Some((q, _)) = fits.iter().find(|(q, _)| &q.key == k) {
            todo.extend(q.requires.iter());
        }
    }
    fits.iter()
        .filter(|(q, _)| seen.contains(&&q.key))
        .map(|(_, n)| n.clone())
        .collect()
}

/// A pack file read, with the packs it requires (by canonical path).
pub(super) struct Read {
    pub(super) path: PathBuf,
    pub(super) key: PathBuf,
    pub(super) node: YNode,
    pub(super) requires: Vec<PathBuf>,
}

/// Reading packs in order, each after the packs it `requires`.
struct Run<'a> {
    /// Unsaved texts of packs (the language server's).
    overlay: &'a load::Overlay,
    sources: Sources,
    diags: &'a mut Diagnostics,
    /// The packs read, in the order they apply.
    read: Vec<Read>,
    /// Packs read (by canonical path), each once, and whether it was read with every
    /// pack it requires.
    done: HashMap<PathBuf, bool>,
    /// The packs being read, each requiring the next: one of them again is a cycle.
    chain: Vec<PathBuf>,
}

impl Run<'_> {
    /// Reads the pack at `path` (shown as `name`), and before it the packs it requires
    /// (inside `root`). Whether it was read, with every pack it requires: a pack whose
    /// required packs could not all be read is not checked, since its records may name
    /// theirs (each missing record would only repeat the first error).
    fn visit(&mut self, path: &Path, name: String, root: &Path) -> bool {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if let Some(&read) = self.done.get(&key) {
            return read;
        }
        self.done.insert(key.clone(), false);
        let Some((_, node)) =
            load::read_yaml_in(&mut self.sources, name, path, self.overlay, self.diags)
        else {
            return false;
        };
        self.chain.push(key.clone());
        let folder = path.parent().unwrap_or(Path::new(""));
        let (required, mut complete) = self.required(&node, folder, root);
        let requires = required.iter().map(|(t, _)| t.clone()).collect();
        for (target, shown) in required {
            complete &= self.visit(&target, shown, root);
        }
        self.chain.pop();
        self.done.insert(key.clone(), complete);
        if !complete {
            return false;
        }
        self.read.push(Read {
            path: path.to_path_buf(),
            key,
            node,
            requires,
        });
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
            out.push((abs.clone(), output::shown(&output::from_here(&abs))));
        }
        (out, complete)
    }
}
