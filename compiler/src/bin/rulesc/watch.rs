//! `--watch` for `check` and `test`: run, then run again after each change to the
//! files the run read and the paths named, as `cargo watch` does. A burst of changes
//! (an editor's save writes and renames several files) is one change: the run waits
//! until [`DEBOUNCE`] passes with no event. Before each run again the screen is cleared
//! when standard output is a terminal, and a line names what changed. It runs until
//! interrupted (Ctrl-C).

use crate::cli::Format;
use notify::{RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

/// How long the files must stay unchanged before the run again.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// What one run read: its files (each one's folder is watched).
pub type Read = Vec<PathBuf>;

/// Runs `run` now and after every change under `named` (folders watched recursively)
/// or to the files the last run read (their folders watched); returns only when the
/// watcher cannot go on (exit code 1, after saying why).
pub fn watch(
    named: &[PathBuf],
    format: Format,
    mut run: impl FnMut() -> (ExitCode, Read),
) -> ExitCode {
    let (tx, rx) = mpsc::channel();
    let mut watcher = match notify::recommended_watcher(tx) {
        Ok(w) => w,
        Err(e) => return failed(format, &e),
    };
    let mut watched: BTreeSet<(PathBuf, bool)> = BTreeSet::new();
    loop {
        let (_, read) = run();
        // Paths named, and the folder of each file read.
        let mut now: BTreeSet<(PathBuf, bool)> =
            named.iter().map(|p| (absolute(p), p.is_dir())).collect();
        for f in read {
            let folder = if f.is_dir() {
                f
            } else {
                f.parent().map(Path::to_path_buf).unwrap_or(f)
            };
            if !folder.as_os_str().is_empty() {
                now.insert((absolute(&folder), false));
            }
        }
        // A path watched before stays watched; a new one is watched now. A path named
        // that cannot be watched (it does not exist) ends the watch; a folder read that
        // cannot be is tried again after the next run.
        let mut ok = BTreeSet::new();
        for entry @ (p, recursive) in &now {
            if watched.contains(entry) {
                ok.insert(entry.clone());
                continue;
            }
            let mode = if *recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match watcher.watch(p, mode) {
                Ok(()) => {
                    ok.insert(entry.clone());
                }
                Err(e) if named.iter().any(|n| absolute(n) == *p) => {
                    return failed(format, &e.add_path(p.clone()));
                }
                Err(_) => {}
            }
        }
        for (p, _) in watched.difference(&ok) {
            let _ = watcher.unwatch(p);
        }
        watched = ok;
        // Said once the watches are in place: a change after this line is seen.
        eprintln!("[watching for changes; Ctrl-C to stop]");
        // Wait for a change to a ruleset's, scenario's or pack's file, then for quiet.
        let changed = loop {
            match rx.recv() {
                Ok(Ok(event)) => {
                    if let Some(p) = relevant(&event) {
                        break p;
                    }
                }
                Ok(Err(e)) => return failed(format, &e),
                Err(_) => return ExitCode::from(1),
            }
        };
        while rx.recv_timeout(DEBOUNCE).is_ok() {}
        if std::io::stdout().is_terminal() {
            // Clear the screen and scroll-back, cursor home (as `cargo watch -c`).
            out!("\x1b[2J\x1b[3J\x1b[H");
        }
        eprintln!(
            "[{} changed: running again]",
            rulesc::output::shown(&rulesc::output::from_here(&changed))
        );
    }
}

/// The file an event is about, when it changes what a run reads: a `.yaml` or
/// `.rules` file written, made, renamed or removed.
fn relevant(event: &notify::Event) -> Option<PathBuf> {
    use notify::EventKind;
    if !matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
    ) {
        return None;
    }
    // Reading a file's metadata is not a change.
    if let EventKind::Modify(notify::event::ModifyKind::Metadata(_)) = event.kind {
        return None;
    }
    event
        .paths
        .iter()
        .find(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("yaml" | "rules")
            )
        })
        .cloned()
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `E0001`: the platform's file events failed (too many watches, a folder gone).
fn failed(format: Format, e: &notify::Error) -> ExitCode {
    crate::report::report_error(
        format,
        "E0001",
        e.paths.first().map(PathBuf::as_path),
        format!("cannot watch for changes: {e}"),
        "give paths that exist (on Linux, watches past fs.inotify.max_user_watches fail too)",
    );
    ExitCode::from(1)
}
