//! `rulesc fmt`: lays out `.rules` files (see `rulesc::syntax::format`), or with
//! `--check` lists those that would change. YAML files are left alone.

use crate::cli::Format;
use crate::report::{report, report_error, report_output_error, usage_error};
use rulesc::diag::{escape_controls, Diagnostics};
use rulesc::source::Sources;
use rulesc::syntax::{format::format_rules, Origin};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Deepest folder `fmt` searches below one it was given.
const MAX_DEPTH: usize = 32;

/// `rulesc fmt [--check] <paths>...`. With `--format json`: one object per file that
/// changed (or would), then `{"ok", "files", "changed", "check"}`.
pub fn fmt(paths: &[PathBuf], check: bool, format: Format) -> ExitCode {
    let mut files = Vec::new();
    let mut failed = false;
    for path in paths {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if !collect(path, 0, &mut files) {
                    failed = true;
                    report_error(
                        format,
                        "E0001",
                        Some(path),
                        format!("cannot search {} for .rules files", path.display()),
                        "check that the folder is readable and at most 32 folders deep",
                    );
                }
            }
            // A file given by name (a missing one is reported when it is read).
            _ if path.extension().is_some_and(|e| e == "rules") => files.push(path.clone()),
            Ok(_) => {
                return usage_error(
                    format,
                    format!(
                        "`rulesc fmt` formats `.rules` files, and {} is not one",
                        path.display()
                    ),
                    "give `.rules` files or folders holding them (YAML files are left alone)",
                )
            }
            Err(_) => files.push(path.clone()),
        }
    }
    let mut changed = 0usize;
    for path in &files {
        match fmt_file(path, check, format) {
            Ok(true) => changed += 1,
            Ok(false) => {}
            Err(()) => failed = true,
        }
    }
    // `--check` fails when anything would change.
    let fails = failed || (check && changed > 0);
    if matches!(format, Format::Json) {
        let summary = serde_json::json!({
            "ok": !fails,
            "files": files.len(),
            "changed": changed,
            "check": check,
        });
        outln!("{summary}");
    } else if check && changed > 0 {
        outln!(
            "{} would be reformatted: run `rulesc fmt` on {}",
            rulesc::diag::count(changed, "file", "files"),
            if changed == 1 { "it" } else { "them" }
        );
    }
    if fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The `.rules` files under `dir`, in name order; links and hidden folders are not
/// followed. False when a folder could not be read or is too deep.
fn collect(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    let mut ok = true;
    for e in entries {
        let Ok(kind) = e.file_type() else { continue };
        // Hidden folders (`.git`) are not searched.
        if kind.is_dir() && e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = e.path();
        if kind.is_dir() {
            ok &= collect(&path, depth + 1, files);
        } else if kind.is_file() && path.extension().is_some_and(|x| x == "rules") {
            files.push(path);
        }
    }
    ok
}

/// Formats one file: `Ok(true)` when it changed (or would, with `check`).
fn fmt_file(path: &Path, check: bool, format: Format) -> Result<bool, ()> {
    let shown = rulesc::output::shown(path);
    // A link is neither read nor replaced (it may lead out of the project): format the
    // file it points to. A folder's links are not even listed.
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        report_error(
            format,
            "E0009",
            Some(path),
            format!("{shown} is a link, not a regular file"),
            "give the path of the file the link points to",
        );
        return Err(());
    }
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    let Some(id) = rulesc::load::read_file(&mut sources, shown.clone(), path, &mut diags) else {
        report(&diags, &sources, format);
        return Err(());
    };
    let text = sources.file(id).text.clone();
    let origin = Origin {
        file: id,
        base: 0,
        fixed: None,
    };
    let Some(new) = format_rules(&text, origin, &mut diags) else {
        report(&diags, &sources, format);
        return Err(());
    };
    if *new == *text {
        return Ok(false);
    }
    if check {
        let (n, old_line, new_line) = first_difference(&text, &new);
        if matches!(format, Format::Json) {
            let line = serde_json::json!({
                "file": shown, "would_change": true, "line": n, "old": old_line, "new": new_line,
            });
            outln!("{line}");
        } else {
            // The file's text, so that it cannot drive the terminal.
            let (shown, old_line, new_line) = (
                escape_controls(&shown),
                escape_controls(old_line),
                escape_controls(new_line),
            );
            outln!("{shown}:{n}: would change");
            outln!("  - {old_line}");
            outln!("  + {new_line}");
        }
        return Ok(true);
    }
    match rulesc::output::write(path, &new, &[]) {
        Ok(_) => {
            if matches!(format, Format::Json) {
                outln!(
                    "{}",
                    serde_json::json!({ "file": shown, "formatted": true })
                );
            } else {
                outln!("formatted {shown}");
            }
            Ok(true)
        }
        Err(e) => {
            report_output_error(&e, path, format);
            Err(())
        }
    }
}

/// The first line (1-based) where `old` and `new` differ, and that line in each.
fn first_difference<'a>(old: &'a str, new: &'a str) -> (usize, &'a str, &'a str) {
    let mut a = old.split('\n');
    let mut b = new.split('\n');
    let mut n = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (x, y) => return (n, x.unwrap_or(""), y.unwrap_or("")),
        }
    }
}
