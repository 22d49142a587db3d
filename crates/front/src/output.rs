//! Writing outputs (`build -o`, `all --out`, `schema --out`, [`crate::Builder`]): the one
//! place rulesc writes to the file system.
//!
//! An output is written only when its content changes, and never in place: the text
//! goes to a fresh temporary file next to the output (unique name, created new, never
//! through an existing path), which is then renamed over it. So a reader, or another
//! build writing the same output at once, sees either the old file or one complete new
//! one, and a link planted at the output's path is replaced, never followed. An output
//! that is one of the run's inputs, a folder, or not a regular file (a FIFO, a device, a
//! link to one of these) is refused before anything is written. A missing parent folder
//! is created.

use crate::diag::Diagnostic;
use crate::source::{SourceFile, Sources, Span};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Why an output was not written.
#[derive(Debug)]
pub enum OutputError {
    /// The path is not something rulesc overwrites (`E0010`); the text says what it is.
    Refused(String),
    /// The file system said no (`E0011`).
    Io(std::io::Error),
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::Refused(why) => write!(f, "it is {why}"),
            OutputError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl OutputError {
    pub fn code(&self) -> &'static str {
        match self {
            OutputError::Refused(_) => "E0010",
            OutputError::Io(_) => "E0011",
        }
    }

    /// The error as a diagnostic pointing at the output (added to `sources` as an empty
    /// file, so both renderings name it).
    pub fn diagnostic(&self, path: &Path, sources: &mut Sources) -> Diagnostic {
        let at = file_span(path, sources);
        let help = match self {
            OutputError::Refused(_) => {
                "give the path of a new file, or of a regular file rulesc may replace"
            }
            OutputError::Io(_) => "check that the folder exists and is writable",
        };
        Diagnostic::error(
            self.code(),
            at,
            format!("cannot write {}: {self}", shown(path)),
        )
        .label("this output")
        .help(help)
    }
}

/// A path as diagnostics show it (forward slashes, as for inputs).
pub fn shown(path: &Path) -> String {
    path.display().to_string().replace('\\', "/")
}

/// The one rule for a path the command line prints: from the current folder when the
/// path is inside it (`rules/kingsmark/melee.rules`), else as given (a relative path
/// leading out, `../rules/..`, or the full path); `a/../b` written as `b`, a leading
/// `./` kept (`rulesc test .` names `./scenario.yaml`).
pub fn from_here(path: &Path) -> PathBuf {
    let here = std::env::current_dir().ok();
    let real = here.as_ref().and_then(|h| std::fs::canonicalize(h).ok());
    let inside = [here, real]
        .into_iter()
        .flatten()
        .find_map(|h| path.strip_prefix(h).ok().map(Path::to_path_buf));
    let path = inside.unwrap_or_else(|| path.to_path_buf());
    // Lexically: a name followed by `..` cancels out (a link is not followed: the path
    // is for reading, not for opening again); a leading `..` stays.
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir
                if matches!(
                    out.components().next_back(),
                    Some(std::path::Component::Normal(_))
                ) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// An empty file named after `path` in `sources`, for a diagnostic about the path itself.
pub fn file_span(path: &Path, sources: &mut Sources) -> Span {
    let id = sources.add(SourceFile::new(
        shown(path),
        path.to_path_buf(),
        String::new(),
    ));
    Span::new(id, 0, 0)
}

/// The paths of every file a run read, to refuse writing over one of them.
pub fn inputs(sources: &Sources) -> Vec<PathBuf> {
    sources
        .files
        .iter()
        .map(|f| f.path.clone())
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

/// Writes `text` to `path` unless it already holds exactly that; `Ok(true)` when it
/// wrote. `inputs` are the files the run read: none of them is ever overwritten.
pub fn write(path: &Path, text: &str, inputs: &[PathBuf]) -> Result<bool, OutputError> {
    let link = std::fs::symlink_metadata(path).ok();
    let is_link = link.as_ref().is_some_and(|m| m.file_type().is_symlink());
    // What is there, through a link: a dangling link counts as nothing (it is replaced).
    if let Ok(meta) = std::fs::metadata(path) {
        if let Some(kind) = what(&meta) {
            let why = if is_link {
                format!("a link to {kind}")
            } else {
                kind.to_string()
            };
            return Err(OutputError::Refused(why));
        }
        if inputs.iter().any(|i| same_file(path, &meta, i)) {
            return Err(OutputError::Refused(
                "one of this run's inputs (rulesc never overwrites what it reads)".into(),
            ));
        }
        // Unchanged: nothing to do. A link is always replaced, so it is not read.
        if !is_link && meta.len() == text.len() as u64 && holds(path, text) {
            return Ok(false);
        }
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(OutputError::Io)?;
    let name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "out".into());
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(&name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".rulesc-tmp");
    #[cfg(unix)]
    {
        // As a plain `create` would: read-write for all, less the process's umask.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(OutputError::Io)?;
    tmp.write_all(text.as_bytes()).map_err(OutputError::Io)?;
    // On the disk before it replaces the output: a file system that reports a full disk
    // or a quota only when the data is written back (NFS, for one) reports it here, so
    // the output is never replaced by a truncated file.
    tmp.as_file().sync_all().map_err(OutputError::Io)?;
    // The rename replaces whatever is at `path` now (a file, a link), atomically; a
    // folder put there since the checks makes it fail, and the temporary file goes.
    tmp.persist(path).map_err(|e| OutputError::Io(e.error))?;
    Ok(true)
}

/// What a path is, when it is not something an output may replace.
fn what(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a folder")
    } else {
        Some("not a regular file (a FIFO, a device or a socket)")
    }
}

/// True when `input` is the file at `path` (described by `meta`): the same inode, so
/// hard links and links count too.
fn same_file(path: &Path, meta: &std::fs::Metadata, input: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        std::fs::metadata(input).is_ok_and(|o| meta.dev() == o.dev() && meta.ino() == o.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        std::fs::canonicalize(input)
            .is_ok_and(|i| std::fs::canonicalize(path).is_ok_and(|p| p == i))
    }
}

/// True when the regular file at `path` holds exactly `text` (read only as far as its
/// length, and only if it is still a regular file when opened).
fn holds(path: &Path, text: &str) -> bool {
    let Ok((file, _)) = crate::load::open_regular(path) else {
        return false;
    };
    let mut old = Vec::with_capacity(text.len());
    file.take(text.len() as u64 + 1)
        .read_to_end(&mut old)
        .is_ok_and(|_| old == text.as_bytes())
}
