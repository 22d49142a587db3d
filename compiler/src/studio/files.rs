//! The files a studio serves, and the only way it reads and writes them.
//!
//! The list is made afresh for every request from what is on disk: the ruleset folder's
//! `*.yaml` and `*.rules` files (as `rulesc check` reads them) and the `.yaml` files of
//! its examples folder (as `rulesc book` finds it: `examples/<ruleset folder>` in the
//! nearest folder above), each named by its path in the project folder. An entry that
//! is a link is followed only when it leads inside the project folder
//! ([`crate::load::resolve_entry`], as the CLI does); anything that is not a regular
//! file is left out. A request names a file by one of those names, or is refused: no
//! path from a request is ever joined or opened, so `..`, absolute paths and links out
//! cannot reach anything.

use crate::diag::Diagnostics;
use crate::source::Sources;
use std::path::{Path, PathBuf};

/// What a file is to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file of the ruleset (YAML data or `.rules`).
    Ruleset,
    /// A YAML file of the examples folder (a scenario, a fight file, a pack).
    Example,
}

/// One file the studio serves.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its path in the project folder, `/`-separated: how requests name it.
    pub name: String,
    /// The file to read and write (a link's target, inside the project folder).
    pub path: PathBuf,
    pub kind: Kind,
}

/// The ruleset folder, its project folder and its examples folder.
#[derive(Debug, Clone)]
pub struct Project {
    /// Canonical.
    pub dir: PathBuf,
    /// What reads and writes must stay inside ([`crate::load::project_root`]).
    pub root: PathBuf,
    pub examples: Option<PathBuf>,
    /// Variant rulesets to compare with (`--variant`): each one's name in the project
    /// and its canonical folder.
    pub variants: Vec<(String, PathBuf)>,
}

/// A file's version: its length and a 64-bit FNV-1a hash of its bytes, as hex. The page
/// sends back the version it loaded; a save is refused if the file's is not that.
pub fn version(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}-{h:016x}", text.len())
}

impl Project {
    /// The project of the ruleset folder `dir`; its examples in `examples`, or by
    /// default where `rulesc book` finds them.
    pub fn new(
        dir: &Path,
        examples: Option<&Path>,
        variants: &[PathBuf],
    ) -> Result<Project, super::StartError> {
        use super::StartError::{Examples, Folder};
        let shown = crate::output::shown(dir);
        let dir = std::fs::canonicalize(dir)
            .map_err(|e| Folder(format!("cannot open the ruleset folder {shown}: {e}")))?;
        if !dir.is_dir() {
            return Err(Folder(format!("{shown} is not a folder")));
        }
        let root = crate::load::project_root(&dir);
        let examples = match examples {
            Some(e) => {
                let shown = crate::output::shown(e);
                let abs = std::fs::canonicalize(e).map_err(|err| {
                    Examples(format!("cannot open the examples folder {shown}: {err}"))
                })?;
                if !abs.starts_with(&root) {
                    return Err(Examples(format!(
                        "the examples folder {shown} is outside the project folder {}",
                        root.display()
                    )));
                }
                Some(abs)
            }
            None => crate::book::examples_near(&dir)
                .and_then(|e| std::fs::canonicalize(e).ok())
                .filter(|e| e.starts_with(&root)),
        };
        let mut vs = Vec::new();
        for v in variants {
            let shown = crate::output::shown(v);
            let abs = std::fs::canonicalize(v)
                .ok()
                .filter(|a| a.is_dir())
                .ok_or_else(|| Examples(format!("cannot open the variant folder {shown}")))?;
            let name = super::relative(&root, &abs).ok_or_else(|| {
                Examples(format!(
                    "the variant folder {shown} is outside the project folder {}",
                    root.display()
                ))
            })?;
            vs.push((name, abs));
        }
        Ok(Project {
            dir,
            root,
            examples,
            variants: vs,
        })
    }

    /// The name the page shows: the ruleset folder's name.
    pub fn title(&self) -> String {
        self.dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    }

    /// The files served, ruleset files first, each group in file-name order.
    pub fn list(&self) -> Vec<Entry> {
        let mut out = self.folder(&self.dir, Kind::Ruleset, &["yaml", "rules"]);
        if let Some(e) = &self.examples {
            out.extend(self.folder(e, Kind::Example, &["yaml"]));
        }
        out
    }

    fn folder(&self, dir: &Path, kind: Kind, exts: &[&str]) -> Vec<Entry> {
        let Ok(read) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut paths: Vec<PathBuf> = read
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)))
            .collect();
        paths.sort();
        paths.truncate(crate::load::MAX_FILES);
        paths
            .into_iter()
            .filter_map(|p| {
                let target = crate::load::resolve_entry(&p, &self.root).ok()?;
                let meta = std::fs::metadata(&target).ok()?;
                if !meta.is_file() {
                    return None;
                }
                let name = super::relative(&self.root, &p)?;
                Some(Entry {
                    name,
                    path: target,
                    kind,
                })
            })
            .collect()
    }

    /// The file a request names, if it is one served.
    pub fn find(&self, name: &str) -> Option<Entry> {
        self.list().into_iter().find(|e| e.name == name)
    }

    /// A file's text, read as the CLI reads inputs (a regular file, within the size
    /// limit, UTF-8), or the problem as one line.
    pub fn read(&self, e: &Entry) -> Result<String, String> {
        let mut sources = Sources::default();
        let mut diags = Diagnostics::default();
        let at = crate::output::file_span(&e.path, &mut sources);
        crate::load::read_text(
            &e.path,
            &e.name,
            at,
            crate::load::MAX_FILE_BYTES,
            &mut diags,
        )
        .ok_or_else(|| {
            diags
                .items
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_else(|| format!("cannot read {}", e.name))
        })
    }

    /// Saves `text` into a file the page loaded at version `loaded`: refused (the disk
    /// untouched) if the file's version is not `loaded` any more; else written as
    /// `rulesc fmt` writes, a temporary file renamed over it. The new version.
    pub fn save(&self, e: &Entry, text: &str, loaded: &str) -> Result<String, Refusal> {
        if text.len() as u64 > crate::load::MAX_FILE_BYTES {
            return Err(Refusal::Invalid(format!(
                "{} would be larger than {} bytes, the most rulesc reads",
                e.name,
                crate::load::MAX_FILE_BYTES
            )));
        }
        let now = self.read(e).map_err(Refusal::Invalid)?;
        if version(&now) != loaded {
            return Err(Refusal::Conflict(format!(
                "{} changed on disk since you opened it (another tab or editor saved it): nothing was written, and your text is still here; copy it, then reload the file to see what is on disk",
                e.name
            )));
        }
        match crate::output::write(&e.path, text, &[]) {
            Ok(_) => Ok(version(text)),
            Err(err) => Err(Refusal::Invalid(format!("cannot write {}: {err}", e.name))),
        }
    }
}

/// Why a save did not happen.
#[derive(Debug)]
pub enum Refusal {
    /// The file changed on disk since the page loaded it.
    Conflict(String),
    /// Anything else (too large, unreadable, not writable).
    Invalid(String),
}
