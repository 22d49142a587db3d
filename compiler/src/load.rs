//! Stage 1, load: a ruleset folder → its files, their YAML trees and DSL items.
//!
//! Reads `ruleset.yaml` and every other `*.yaml` and `*.rules` file directly in the
//! folder, in file-name order (so output does not depend on the file system). YAML is
//! parsed into spanned trees ([`crate::yaml`]); `.rules` files into syntax items. Nothing
//! is resolved here.

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{SourceFile, Sources, Span};
use crate::syntax::{self, ast, Origin};
use crate::yaml::{self, YNode};
use std::path::{Path, PathBuf};

/// Largest file rulesc reads.
pub const MAX_FILE_BYTES: u64 = 4 << 20;
/// Most files in one ruleset folder.
pub const MAX_FILES: usize = 256;

/// A loaded but unchecked ruleset.
#[derive(Debug, Default)]
pub struct Loaded {
    pub sources: Sources,
    /// Each YAML file's root node, base rulesets' files first.
    pub yaml: Vec<YNode>,
    pub items: Vec<ast::Item>,
    /// The layer of each YAML root and each item: 0 for the deepest base, one more for
    /// each ruleset that `extends` it. A later layer may override an earlier one.
    pub yaml_layer: Vec<u8>,
    pub item_layer: Vec<u8>,
    /// The manifest of the ruleset being compiled (the top layer).
    pub manifest: Option<Span>,
}

/// Most rulesets in one chain of `extends`.
pub const MAX_LAYERS: usize = 8;

/// Reads one file as text, within the size limit. Problems become diagnostics at `at`
/// (the file's own place in the sources); `shown` is the name they use.
pub fn read_text(path: &Path, shown: &str, at: Span, diags: &mut Diagnostics) -> Option<String> {
    let fail = |diags: &mut Diagnostics, code, msg: String, help: String| {
        diags.push(
            Diagnostic::error(code, at, msg)
                .label("this file")
                .help(help),
        );
    };
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_FILE_BYTES => {
            fail(
                diags,
                "E0003",
                format!("{shown} is too large ({} bytes)", m.len()),
                format!("files may be at most {MAX_FILE_BYTES} bytes"),
            );
            return None;
        }
        Ok(_) => {}
        Err(e) => {
            fail(
                diags,
                "E0001",
                format!("cannot read {shown}: {e}"),
                "check that the path exists and is readable".into(),
            );
            return None;
        }
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            fail(
                diags,
                "E0001",
                format!("cannot read {shown}: {e}"),
                "check that the path exists and is readable".into(),
            );
            return None;
        }
    };
    match String::from_utf8(bytes) {
        Ok(s) => Some(s),
        Err(e) => {
            let at_byte = e.utf8_error().valid_up_to();
            fail(
                diags,
                "E0002",
                format!("{shown} is not UTF-8 text (invalid byte at offset {at_byte})"),
                "save the file as UTF-8".into(),
            );
            None
        }
    }
}

/// The name a file gets in diagnostics: `<folder name>/<file name>`.
fn display_name(dir: &Path, file: &Path) -> String {
    let folder = dir
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = file
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    if folder.is_empty() {
        name
    } else {
        format!("{folder}/{name}")
    }
}

/// Text that replaces files' contents on disk, by canonical path: the language server's
/// unsaved editor buffers.
pub type Overlay = std::collections::HashMap<PathBuf, String>;

/// Loads a ruleset folder, and the rulesets it `extends` beneath it.
pub fn load_dir(dir: &Path, diags: &mut Diagnostics) -> Loaded {
    load_dir_with(dir, &Overlay::new(), diags)
}

/// [`load_dir`], reading a file's text from `overlay` when it is there.
pub fn load_dir_with(dir: &Path, overlay: &Overlay, diags: &mut Diagnostics) -> Loaded {
    let mut loaded = Loaded::default();
    let root = project_root(dir);
    let mut chain = Vec::new();
    load_layer(dir, &root, overlay, &mut chain, &mut loaded, diags, None);
    // Layers were numbered from the top; number them from the base instead.
    let top = chain.len().saturating_sub(1) as u8;
    for l in loaded
        .yaml_layer
        .iter_mut()
        .chain(loaded.item_layer.iter_mut())
    {
        *l = top - (*l).min(top);
    }
    loaded
}

/// The folder `extends` paths must stay inside: the nearest ancestor of `dir` (itself
/// included) that holds `Cargo.toml`, `.git` or `rulesc.toml`; else `dir`'s parent.
pub fn project_root(dir: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    for a in abs.ancestors() {
        if ["Cargo.toml", ".git", "rulesc.toml"]
            .iter()
            .any(|m| a.join(m).exists())
        {
            return a.to_path_buf();
        }
    }
    abs.parent().map(Path::to_path_buf).unwrap_or(abs)
}

/// Loads one folder (layer `chain.len()` counted from the top) after its base.
fn load_layer(
    dir: &Path,
    root: &Path,
    overlay: &Overlay,
    chain: &mut Vec<PathBuf>,
    loaded: &mut Loaded,
    diags: &mut Diagnostics,
    from: Option<Span>,
) {
    let depth = chain.len() as u8;
    chain.push(std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()));
    // A file for folder-level problems, so they too have a place to point at.
    let folder_file = loaded.sources.add(SourceFile::new(
        display_name(dir, Path::new(""))
            .trim_end_matches('/')
            .to_string(),
        dir.to_path_buf(),
        String::new(),
    ));
    let at_folder = from.unwrap_or(Span::new(folder_file, 0, 0));
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .filter(|p| {
                matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("yaml") | Some("rules")
                )
            })
            .collect(),
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "E0001",
                    at_folder,
                    format!("cannot read the ruleset folder {}: {e}", dir.display()),
                )
                .help("give the path of a folder that holds ruleset.yaml"),
            );
            return;
        }
    };
    paths.sort();
    if !paths
        .iter()
        .any(|p| p.file_name().is_some_and(|n| n == "ruleset.yaml"))
    {
        diags.push(
            Diagnostic::error(
                "E0004",
                at_folder,
                format!("{} has no ruleset.yaml", dir.display()),
            )
            .help("a ruleset folder holds a manifest `ruleset.yaml` with `ruleset: { name: ... }`"),
        );
    }
    if paths.len() > MAX_FILES {
        diags.push(
            Diagnostic::error(
                "E0003",
                at_folder,
                format!("{} files in one ruleset", paths.len()),
            )
            .help(format!("a ruleset has at most {MAX_FILES} files")),
        );
        paths.truncate(MAX_FILES);
    }
    // The manifest first, so its definitions are the "first" ones in diagnostics.
    paths.sort_by_key(|p| (p.file_name().is_none_or(|n| n != "ruleset.yaml"), p.clone()));
    let mut yaml = Vec::new();
    let mut items = Vec::new();
    let mut manifest = None;
    for path in paths {
        let name = display_name(dir, &path);
        let is_manifest = path.file_name().is_some_and(|n| n == "ruleset.yaml");
        // The file is in the sources before it is read, so a problem reading it points
        // at the file itself.
        let id = loaded
            .sources
            .add(SourceFile::new(name.clone(), path.clone(), String::new()));
        let at = Span::new(id, 0, 0);
        let unsaved = overlay.get(&std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone()));
        let text = match unsaved {
            Some(text) if text.len() as u64 > MAX_FILE_BYTES => {
                diags.push(
                    Diagnostic::error(
                        "E0003",
                        at,
                        format!("{name} is too large ({} bytes)", text.len()),
                    )
                    .label("this file")
                    .help(format!("files may be at most {MAX_FILE_BYTES} bytes")),
                );
                continue;
            }
            Some(text) => text.clone(),
            None => match read_text(&path, &name, at, diags) {
                Some(text) => text,
                None => continue,
            },
        };
        loaded.sources.files[id as usize] = SourceFile::new(name, path.clone(), text);
        let src = loaded.sources.file(id).clone();
        if path.extension().is_some_and(|e| e == "rules") {
            let origin = Origin {
                file: id,
                base: 0,
                fixed: None,
            };
            items.extend(syntax::parse_file(&src.text, origin, diags));
        } else if let Some(node) = yaml::parse(id, &src, diags) {
            if is_manifest {
                manifest = Some((Span::new(id, 0, 0), node.clone()));
            }
            yaml.push(node);
        }
    }
    // The base goes beneath: load it first, so its definitions come first.
    if let Some((_, m)) = &manifest {
        if let Some(ext) = m.get("ruleset").and_then(|r| r.get("extends")) {
            extend(dir, root, overlay, ext, chain, loaded, diags);
        }
    }
    if depth == 0 {
        loaded.manifest = manifest.map(|(s, _)| s);
    }
    loaded
        .yaml_layer
        .extend(std::iter::repeat_n(depth, yaml.len()));
    loaded.yaml.extend(yaml);
    loaded
        .item_layer
        .extend(std::iter::repeat_n(depth, items.len()));
    loaded.items.extend(items);
}

/// Follows an `extends:` path: relative to the folder, inside the project, no cycle.
fn extend(
    dir: &Path,
    root: &Path,
    overlay: &Overlay,
    ext: &YNode,
    chain: &mut Vec<PathBuf>,
    loaded: &mut Loaded,
    diags: &mut Diagnostics,
) {
    let Some(rel) = ext.as_str() else {
        diags.push(
            Diagnostic::error(
                "E0102",
                ext.span,
                format!("expected a folder path, found {}", ext.kind()),
            )
            .label("here")
            .help("write `extends: ../base_ruleset` (relative to this folder)"),
        );
        return;
    };
    let target = dir.join(rel);
    let Ok(abs) = std::fs::canonicalize(&target) else {
        diags.push(
            Diagnostic::error(
                "E0005",
                ext.span,
                format!("there is no folder `{rel}` to extend"),
            )
            .label("not found")
            .help("the path is relative to the folder of this ruleset.yaml"),
        );
        return;
    };
    if !abs.starts_with(root) {
        diags.push(
            Diagnostic::error(
                "E0006",
                ext.span,
                format!("`{rel}` is outside the project folder"),
            )
            .label("leaves the project")
            .help(format!(
                "a ruleset may extend only rulesets inside {}",
                root.display()
            )),
        );
        return;
    }
    if chain.contains(&abs) {
        diags.push(
            Diagnostic::error(
                "E0007",
                ext.span,
                format!("`{rel}` extends this ruleset again: a cycle of `extends`"),
            )
            .label("cycle")
            .help("a ruleset cannot be its own base, directly or through others"),
        );
        return;
    }
    if chain.len() >= MAX_LAYERS {
        diags.push(
            Diagnostic::error(
                "E0007",
                ext.span,
                format!("more than {MAX_LAYERS} rulesets extend one another"),
            )
            .label("too deep")
            .help("flatten the chain of `extends`"),
        );
        return;
    }
    load_layer(&abs, root, overlay, chain, loaded, diags, Some(ext.span));
}
