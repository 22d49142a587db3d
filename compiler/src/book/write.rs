//! Writing a book into its folder, and only there.
//!
//! The folder holds a marker file, [`MARKER`], listing the files of the book written
//! last. `-o` may name a folder that does not exist yet, an empty folder, or a folder
//! with that marker (a book written before, rewritten: files the new book no longer has
//! are removed, the others written through [`crate::output::write`], only when they
//! change). Anything else is refused before a byte is written (`E0010`): a file, a link,
//! a folder holding other things. No file is written through a link: a folder of the
//! book that has become a link is refused too.

use super::Book;
use crate::diag::{Diagnostic, Diagnostics};
use crate::output::{self, OutputError};
use crate::source::Sources;
use std::path::{Path, PathBuf};

/// The marker of a book's folder: its first line, then one line per file of the book.
pub const MARKER: &str = ".rulesc-book";
const FIRST_LINE: &str = "rulesc book: the files below were written by `rulesc book`";

fn refused(out: &Path, why: String, help: &str) -> (Diagnostics, Sources) {
    let mut sources = Sources::default();
    let at = output::file_span(out, &mut sources);
    let mut diags = Diagnostics::default();
    diags.push(
        Diagnostic::error(
            "E0010",
            at,
            format!("cannot write the book into {}: {why}", output::shown(out)),
        )
        .label("this output")
        .help(help),
    );
    (diags, sources)
}

fn failed(out: &Path, path: &Path, e: OutputError) -> (Diagnostics, Sources) {
    let mut sources = Sources::default();
    let d = e.diagnostic(path, &mut sources);
    let _ = out;
    let mut diags = Diagnostics::default();
    diags.push(d);
    (diags, sources)
}

/// Whether `name` is a file name the book itself makes: `/`-separated parts of ASCII
/// letters, digits, `_`, `-` and `.`, none empty or starting with a dot. A marker
/// listing anything else was not written by rulesc, and is not followed.
fn ours(name: &str) -> bool {
    !name.is_empty()
        && name.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
        })
}

/// The files the book in `out` listed, if `out` holds a book's marker.
fn previous(out: &Path) -> Option<Vec<String>> {
    let marker = out.join(MARKER);
    let meta = std::fs::symlink_metadata(&marker).ok()?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return None;
    }
    let text = std::fs::read_to_string(&marker).ok()?;
    let mut lines = text.lines();
    (lines.next()? == FIRST_LINE).then(|| lines.filter(|l| ours(l)).map(String::from).collect())
}

/// Every folder between `out` and `path` (exclusive of `out`) is a real folder or does
/// not exist yet: no write goes through a link.
fn no_link_between(out: &Path, rel: &str) -> Result<(), String> {
    let mut at = out.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(format!("{} is not a folder", output::shown(&at))),
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Writes `book` into the folder `out`; returns how many files changed.
pub fn write(book: &Book, out: &Path) -> Result<usize, (Diagnostics, Sources)> {
    let help = "give a new folder, an empty one, or one a previous `rulesc book` wrote";
    let old = match std::fs::symlink_metadata(out) {
        Err(_) => Vec::new(),
        Ok(m) if m.file_type().is_symlink() => {
            return Err(refused(out, "it is a link".into(), help))
        }
        Ok(m) if !m.is_dir() => {
            return Err(refused(out, "it is a file, not a folder".into(), help))
        }
        Ok(_) => match previous(out) {
            Some(files) => files,
            None => {
                let empty = std::fs::read_dir(out)
                    .map(|mut d| d.next().is_none())
                    .unwrap_or(false);
                if !empty {
                    return Err(refused(
                        out,
                        format!("the folder holds files and no {MARKER}: it is not a book rulesc wrote, and nothing in it is replaced"),
                        help,
                    ));
                }
                Vec::new()
            }
        },
    };
    let names: Vec<&str> = book.files.iter().map(|(n, _)| n.as_str()).collect();
    for name in &names {
        if !ours(name) {
            return Err(refused(
                out,
                format!("`{name}` is not a name the book writes"),
                help,
            ));
        }
        no_link_between(out, name).map_err(|why| refused(out, why, help))?;
    }
    let mut marker = String::from(FIRST_LINE);
    marker.push('\n');
    for name in &names {
        marker.push_str(name);
        marker.push('\n');
    }
    let inputs: &[PathBuf] = &book.inputs;
    let marker_path = out.join(MARKER);
    output::write(&marker_path, &marker, inputs).map_err(|e| failed(out, &marker_path, e))?;
    let mut changed = 0;
    for (name, text) in &book.files {
        let path = out.join(name);
        if output::write(&path, text, inputs).map_err(|e| failed(out, &path, e))? {
            changed += 1;
        }
    }
    // Files of the previous book this one no longer has (regular files only).
    for name in old.iter().filter(|n| !names.contains(&n.as_str())) {
        if no_link_between(out, name).is_err() {
            continue;
        }
        let path = out.join(name);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            let _ = std::fs::remove_file(&path);
            changed += 1;
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::ours;

    #[test]
    fn only_the_books_own_names_are_followed() {
        for good in [
            "index.html",
            "variants/gritty_kingsmark/odds.html",
            "pack-a.2Eb.html",
        ] {
            assert!(ours(good), "{good}");
        }
        for bad in [
            "",
            "../x",
            "/etc/passwd",
            "a//b",
            ".rulesc-book",
            "a/../b",
            "a b",
        ] {
            assert!(!ours(bad), "{bad}");
        }
    }
}
