//! The one writer of standard output: every command prints through [`print`] (the
//! `out!` and `outln!` macros), and [`finish`] says at the end whether all of it got
//! there.
//!
//! A write that fails is remembered (the first failure; nothing more is written after
//! it), so that `rulesc man > /dev/full` is an error (`E0011`, exit 1) rather than a
//! success with nothing written. A pipe closed by its reader (`rulesc ... | head`) is not
//! an error: the reader has what it wanted.
//!
//! A standard output closed before rulesc started (`rulesc man >&-`) cannot be seen by
//! a write: the Rust runtime opens `/dev/null` in its place before `main`. On Linux a
//! constructor that runs before the runtime looks at it first, and a command that then
//! prints anything reports it.

use std::io::Write;
use std::sync::Mutex;

/// The first write to standard output that failed, if any.
static FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Writes `args` to standard output, unless a write failed before.
pub fn print(args: std::fmt::Arguments<'_>) {
    write_with(|out| out.write_fmt(args));
}

/// Writes `bytes` (a manual page, a completion script) to standard output, as [`print`].
pub fn print_bytes(bytes: &[u8]) {
    write_with(|out| out.write_all(bytes));
}

/// Runs one write on standard output, remembering its failure; skipped after one.
fn write_with(write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>) {
    let mut failed = FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_some() {
        return;
    }
    if closed_at_start() {
        *failed = Some(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "it was closed when rulesc started",
        ));
        return;
    }
    if let Err(e) = write(&mut std::io::stdout().lock()) {
        *failed = Some(e);
    }
}

/// Flushes standard output: the error that kept some of what was printed from getting
/// there, if any; `None` when all of it did, or when its reader closed the pipe.
pub fn finish() -> Option<std::io::Error> {
    let mut failed = FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_none() {
        if let Err(e) = std::io::stdout().lock().flush() {
            *failed = Some(e);
        }
    }
    failed
        .take()
        .filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe)
}

/// True when standard output was closed before the Rust runtime started (Linux only).
fn closed_at_start() -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        closed::CLOSED.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        false
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod closed {
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Whether file descriptor 1 was closed when the process started.
    pub static CLOSED: AtomicBool = AtomicBool::new(false);

    /// Runs before `main` and before the Rust runtime replaces a closed standard output
    /// with `/dev/null` (it does so in `main`, after the ELF constructors have run).
    /// Reads `/proc/self/fd`: when `/proc` is not there, nothing is concluded.
    extern "C" fn look() {
        let proc_fd = std::path::Path::new("/proc/self/fd");
        if proc_fd.is_dir() && std::fs::symlink_metadata(proc_fd.join("1")).is_err() {
            CLOSED.store(true, Ordering::Relaxed);
        }
    }

    #[used]
    #[link_section = ".init_array"]
    static LOOK: extern "C" fn() = look;
}
