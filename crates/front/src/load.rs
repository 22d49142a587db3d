//! Stage 1, load: a ruleset folder → its files, their YAML trees and DSL items.
//!
//! Reads `ruleset.yaml` and every other `*.yaml` and `*.rules` file directly in the
//! folder, in file-name order (so output does not depend on the file system). YAML is
//! parsed into spanned trees ([`crate::yaml`]); `.rules` files into syntax items. Nothing
//! is resolved here.

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{FileId, SourceFile, Sources, Span};
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
    /// The names that definitions broken by a syntax error would have defined (see
    /// [`syntax::recover`]): the checker runs without them, and a problem reported at a
    /// use of one is not reported.
    pub lost: Vec<ast::Ident>,
    /// How many of the load's errors were syntax errors recovered from: when they are all
    /// its errors, the checker runs on the rest.
    pub recovered: usize,
}

/// Most rulesets in one chain of `extends`.
pub const MAX_LAYERS: usize = 8;

/// Most bytes one run reads, across every file (the ruleset, its bases, packs and a
/// scenario). Memory stays within a small multiple of it (see also
/// [`yaml::MAX_RUN_YAML_NODES`]).
pub const MAX_RUN_BYTES: u64 = 32 << 20;

/// Reads one file into `sources` under the name `name`, within the file size limit and
/// what is left of the run's byte budget. The file is added before it is read, so a
/// problem reading it points at the file itself; its id is returned when it was read.
pub fn read_file(
    sources: &mut Sources,
    name: String,
    path: &Path,
    diags: &mut Diagnostics,
) -> Option<FileId> {
    read_file_with(sources, name, path, None, diags)
}

/// [`read_file`], taking the text from `unsaved` (an editor's buffer) when given: it
/// is held to the same limits as the file's.
fn read_file_with(
    sources: &mut Sources,
    name: String,
    path: &Path,
    unsaved: Option<&str>,
    diags: &mut Diagnostics,
) -> Option<FileId> {
    let left = MAX_RUN_BYTES.saturating_sub(sources.bytes());
    let id = sources.add(SourceFile::new(
        name.clone(),
        path.to_path_buf(),
        String::new(),
    ));
    let at = Span::new(id, 0, 0);
    let text = match unsaved {
        Some(text) => {
            let len = text.len() as u64;
            if len > MAX_FILE_BYTES.min(left) {
                too_large(diags, at, &name, Some(len), left);
                return None;
            }
            text.to_string()
        }
        None => read_text(path, &name, at, left, diags)?,
    };
    sources.files[id as usize] = SourceFile::new(name, path.to_path_buf(), text);
    Some(id)
}

/// Reads and parses one YAML file into `sources`, within the run's budgets.
pub fn read_yaml(
    sources: &mut Sources,
    name: String,
    path: &Path,
    diags: &mut Diagnostics,
) -> Option<(FileId, YNode)> {
    let id = read_file(sources, name, path, diags)?;
    Some((id, parse_yaml(sources, id, diags)?))
}

/// [`read_yaml`], taking the text from `overlay` (an editor's unsaved buffer, by
/// canonical path) when it holds the file.
pub fn read_yaml_in(
    sources: &mut Sources,
    name: String,
    path: &Path,
    overlay: &Overlay,
    diags: &mut Diagnostics,
) -> Option<(FileId, YNode)> {
    let unsaved = if overlay.is_empty() {
        None
    } else {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        overlay.get(&key).map(String::as_str)
    };
    let id = read_file_with(sources, name, path, unsaved, diags)?;
    Some((id, parse_yaml(sources, id, diags)?))
}

/// Parses a file of `sources` as YAML, within what is left of the run's node budget.
fn parse_yaml(sources: &mut Sources, id: FileId, diags: &mut Diagnostics) -> Option<YNode> {
    let left = yaml::MAX_RUN_YAML_NODES.saturating_sub(sources.yaml_nodes);
    let (node, nodes) = yaml::parse_within(id, sources.file(id), left, diags)?;
    sources.yaml_nodes += nodes;
    Some(node)
}

/// `E0003` for a file past the size limit, or past the `left` bytes of the run's
/// budget; `len` is its size when known.
fn too_large(diags: &mut Diagnostics, at: Span, shown: &str, len: Option<u64>, left: u64) {
    let (msg, help) = if MAX_FILE_BYTES <= left {
        let size = match len {
            Some(len) if len > MAX_FILE_BYTES => format!("{len} bytes"),
            _ => format!("over {MAX_FILE_BYTES} bytes"),
        };
        (
            format!("{shown} is too large ({size})"),
            format!("files may be at most {MAX_FILE_BYTES} bytes"),
        )
    } else {
        (
            format!("{shown} goes past the bytes one run may read"),
            format!(
                "one run reads at most {MAX_RUN_BYTES} bytes across all its files; \
                 the files before this one left {left}"
            ),
        )
    };
    diags.push(
        Diagnostic::error("E0003", at, msg)
            .label("this file")
            .help(help),
    );
}

/// What a path is when it is not a regular file, for the diagnostic.
fn not_regular(t: std::fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Opens a file for reading only if it is a regular file, without ever blocking: the
/// type is checked before opening, and again on the handle (the path may have changed
/// in between); on Unix the open itself is non-blocking, so a FIFO cannot stall it.
/// `Err(Ok(kind))` names what the path is instead.
pub fn open_regular(
    path: &Path,
) -> Result<(std::fs::File, u64), Result<&'static str, std::io::Error>> {
    let meta = std::fs::metadata(path).map_err(Err)?;
    if let Some(kind) = not_regular(meta.file_type()) {
        return Err(Ok(kind));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(Err)?;
    let meta = file.metadata().map_err(Err)?;
    match not_regular(meta.file_type()) {
        Some(kind) => Err(Ok(kind)),
        None => Ok((file, meta.len())),
    }
}

/// Reads one file as text, within the size limit and `left` bytes of the run's budget,
/// counted as it reads (a length in the metadata is not trusted: `/dev/zero` reports 0).
/// Only regular files are read. Problems become diagnostics at `at` (the file's own
/// place in the sources); `shown` is the name they use.
pub fn read_text(
    path: &Path,
    shown: &str,
    at: Span,
    left: u64,
    diags: &mut Diagnostics,
) -> Option<String> {
    use std::io::Read;
    let fail = |diags: &mut Diagnostics, code, msg: String, help: String| {
        diags.push(
            Diagnostic::error(code, at, msg)
                .label("this file")
                .help(help),
        );
    };
    let cannot_read = |diags: &mut Diagnostics, e: std::io::Error| {
        fail(
            diags,
            "E0001",
            format!("cannot read {shown}: {e}"),
            "check that the path exists and is readable".into(),
        )
    };
    let (file, len) = match open_regular(path) {
        Ok(f) => f,
        Err(Ok(kind)) => {
            fail(
                diags,
                "E0009",
                format!("{shown} is {kind}, not a regular file"),
                "rulesc reads only regular files; give the path of a file".into(),
            );
            return None;
        }
        Err(Err(e)) => {
            cannot_read(diags, e);
            return None;
        }
    };
    let limit = MAX_FILE_BYTES.min(left);
    let mut bytes = Vec::new();
    if let Err(e) = file.take(limit + 1).read_to_end(&mut bytes) {
        cannot_read(diags, e);
        return None;
    }
    if bytes.len() as u64 > limit {
        too_large(diags, at, shown, Some(len), left);
        return None;
    }
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

/// The project folder given on the command line (`rulesc --root`), if any.
static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Sets the project folder of every ruleset this process loads (`rulesc --root`): what
/// `extends` and links in ruleset folders may reach. Once per process; `false` if it was
/// already set.
pub fn set_project_root(root: &Path) -> bool {
    let abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    ROOT.set(abs).is_ok()
}

/// The folder `extends` paths must stay inside: the one given with `rulesc --root`;
/// else the nearest ancestor of `dir` (itself included) that holds `Cargo.toml`, `.git`
/// or `rulesc.toml`; else `dir`'s parent.
pub fn project_root(dir: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    marked_root(&abs).unwrap_or_else(|| abs.parent().map(Path::to_path_buf).unwrap_or(abs))
}

/// The folder a content pack's `requires:` paths must stay inside: the one given with
/// `rulesc --root`; else the nearest ancestor of the pack's folder that holds
/// `Cargo.toml`, `.git` or `rulesc.toml`; else the pack's folder itself.
pub fn project_root_of_file(file: &Path) -> PathBuf {
    let folder = match file.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    let abs = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    marked_root(&abs).unwrap_or(abs)
}

/// `rulesc --root` if given, else the nearest ancestor of `abs` (itself included) with
/// a project marker.
fn marked_root(abs: &Path) -> Option<PathBuf> {
    if let Some(root) = ROOT.get() {
        return Some(root.clone());
    }
    abs.ancestors()
        .find(|a| {
            ["Cargo.toml", ".git", "rulesc.toml"]
                .iter()
                .any(|m| a.join(m).exists())
        })
        .map(Path::to_path_buf)
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
        // Every `*.yaml` and `*.rules` entry, whatever it is: one that is not a regular
        // file (a FIFO, a device, a folder) is reported when it is read, never skipped.
        Ok(rd) => {
            let entries: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            for (path, msg, help) in skipped(&entries) {
                let name = display_name(dir, &path);
                let id = loaded
                    .sources
                    .add(SourceFile::new(name, path, String::new()));
                diags.push(
                    Diagnostic::warning("W0005", Span::new(id, 0, 0), msg)
                        .label("skipped")
                        .help(help),
                );
            }
            entries
                .into_iter()
                .filter(|p| {
                    matches!(
                        p.extension().and_then(|e| e.to_str()),
                        Some("yaml") | Some("rules")
                    )
                })
                .collect()
        }
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
        let target = match resolve_entry(&path, root) {
            Ok(t) => t,
            Err(why) => {
                let id =
                    loaded
                        .sources
                        .add(SourceFile::new(name.clone(), path.clone(), String::new()));
                diags.push(
                    Diagnostic::error("E0008", Span::new(id, 0, 0), format!("{name} is {why}"))
                        .label("this file")
                        .help(format!(
                            "a ruleset reads only files inside {}; put the file itself in the folder",
                            root.display()
                        )),
                );
                continue;
            }
        };
        // An editor's unsaved text stands for the file's (same limits and budget).
        let unsaved = overlay
            .get(&std::fs::canonicalize(&target).unwrap_or_else(|_| target.clone()))
            .map(String::as_str);
        let Some(id) = read_file_with(&mut loaded.sources, name, &target, unsaved, diags) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rules") {
            let origin = Origin {
                file: id,
                base: 0,
                fixed: None,
            };
            let parsed = syntax::recover::parse_file_recovering(
                &loaded.sources.file(id).text,
                origin,
                diags,
            );
            if !parsed.whole {
                loaded.recovered += parsed.errors;
            }
            loaded.lost.extend(parsed.lost);
            items.extend(parsed.items);
        } else if let Some(node) = parse_yaml(&mut loaded.sources, id, diags) {
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

/// The entries of a ruleset folder that look like rules but are not read (`W0005`):
/// `.yml` and `.rule` files, and subfolders holding `.yaml` or `.rules` files (a ruleset
/// is the files directly in its folder).
fn skipped(entries: &[PathBuf]) -> Vec<(PathBuf, String, String)> {
    let mut out = Vec::new();
    let ext = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_string);
    let mut sorted: Vec<&PathBuf> = entries.iter().collect();
    sorted.sort();
    for p in sorted {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let is_dir = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
        let (msg, help) = match ext(p).as_deref() {
            _ if is_dir => {
                let holds_rules = std::fs::read_dir(p).is_ok_and(|rd| {
                    rd.filter_map(|e| e.ok())
                        .take(1_000)
                        .any(|e| matches!(ext(&e.path()).as_deref(), Some("yaml" | "rules")))
                });
                if !holds_rules || name.starts_with('.') {
                    continue;
                }
                (
                    format!("the folder `{name}/` is skipped: a ruleset is the files directly in its folder"),
                    "move its `.yaml` and `.rules` files up into the ruleset's folder; keep scenarios and packs outside the ruleset".to_string(),
                )
            }
            Some("yml") => (
                format!("`{name}` is skipped: a ruleset reads `.yaml` and `.rules` files"),
                format!("rename it to `{}.yaml`", name.trim_end_matches(".yml")),
            ),
            Some("rule") => (
                format!("`{name}` is skipped: a ruleset reads `.yaml` and `.rules` files"),
                format!("rename it to `{name}s`"),
            ),
            _ => continue,
        };
        out.push((p.clone(), msg, help));
    }
    out
}

/// The path to read for an entry of a ruleset folder: the entry itself, or for a
/// symbolic link its resolved target, which must be inside `root`. The error says why
/// a link is refused (its target is never opened, so its text cannot reach a
/// diagnostic).
pub fn resolve_entry(path: &Path, root: &Path) -> Result<PathBuf, &'static str> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(path.to_path_buf());
    }
    match std::fs::canonicalize(path) {
        Ok(target) if target.starts_with(root) => Ok(target),
        Ok(_) => Err("a link that leads outside the project folder"),
        Err(_) => Err("a link that leads nowhere (its target does not exist)"),
    }
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
                "a ruleset may extend only rulesets inside its project folder, {}; give `rulesc --root <folder>` holding both, or put an empty `rulesc.toml` in a folder above both",
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
