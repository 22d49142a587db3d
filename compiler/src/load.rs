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
    /// Each YAML file's root node, with its file id.
    pub yaml: Vec<YNode>,
    pub items: Vec<ast::Item>,
    /// The span of the manifest file's start (for ruleset-wide diagnostics).
    pub manifest: Option<Span>,
}

/// Reads one file as text, within the size limit. Problems become diagnostics at `at`
/// (the file's own place in the sources); `shown` is the name they use.
pub fn read_text(path: &Path, shown: &str, at: Span, diags: &mut Diagnostics) -> Option<String> {
    let fail = |diags: &mut Diagnostics, code, msg: String, help: String| {
        diags.push(Diagnostic::error(code, at, msg).label("this file").help(help));
    };
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_FILE_BYTES => {
            fail(diags, "E0003", format!("{shown} is too large ({} bytes)", m.len()), format!("files may be at most {MAX_FILE_BYTES} bytes"));
            return None;
        }
        Ok(_) => {}
        Err(e) => {
            fail(diags, "E0001", format!("cannot read {shown}: {e}"), "check that the path exists and is readable".into());
            return None;
        }
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            fail(diags, "E0001", format!("cannot read {shown}: {e}"), "check that the path exists and is readable".into());
            return None;
        }
    };
    match String::from_utf8(bytes) {
        Ok(s) => Some(s),
        Err(e) => {
            let at_byte = e.utf8_error().valid_up_to();
            fail(diags, "E0002", format!("{shown} is not UTF-8 text (invalid byte at offset {at_byte})"), "save the file as UTF-8".into());
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

/// Loads a ruleset folder.
pub fn load_dir(dir: &Path, diags: &mut Diagnostics) -> Loaded {
    let mut loaded = Loaded::default();
    // A file for folder-level problems, so they too have a place to point at.
    let folder_file = loaded.sources.add(SourceFile::new(
        display_name(dir, Path::new(""))
            .trim_end_matches('/')
            .to_string(),
        dir.to_path_buf(),
        String::new(),
    ));
    let at_folder = Span::new(folder_file, 0, 0);
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
            return loaded;
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
    for path in paths {
        let name = display_name(dir, &path);
        let is_manifest = path.file_name().is_some_and(|n| n == "ruleset.yaml");
        // The file is in the sources before it is read, so a problem reading it points
        // at the file itself.
        let id = loaded.sources.add(SourceFile::new(name.clone(), path.clone(), String::new()));
        let Some(text) = read_text(&path, &name, Span::new(id, 0, 0), diags) else {
            continue;
        };
        loaded.sources.files[id as usize] = SourceFile::new(name, path.clone(), text);
        let src = loaded.sources.file(id).clone();
        if path.extension().is_some_and(|e| e == "rules") {
            let origin = Origin {
                file: id,
                base: 0,
                fixed: None,
            };
            loaded
                .items
                .extend(syntax::parse_file(&src.text, origin, diags));
        } else if let Some(node) = yaml::parse(id, &src, diags) {
            if is_manifest {
                loaded.manifest = Some(Span::new(id, 0, 0));
            }
            loaded.yaml.push(node);
        }
    }
    loaded
}
