//! Runs the `rulesc` binary as hostile-input tests need it: at most 512 MiB of address
//! space (`ulimit -v`: an allocation past it fails and the process aborts instead of
//! exiting 1) and a watchdog that kills it after 20 s (a hang guard, not a speed
//! target: every case takes well under a second). Two threads in rayon's pool whatever
//! the machine, so that the address space they take (their stacks, 32 MiB each:
//! `rulesc::analyze::THREAD_STACK`) is the same everywhere.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Where a run's standard output goes (only `hostile_io` sends it anywhere but a pipe).
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sink {
    /// A pipe read whole (what [`Output::stdout`] holds).
    Pipe,
    /// `/dev/full`: every write fails with "no space left on device".
    Full,
    /// Closed before rulesc starts (`>&-`).
    Closed,
    /// A pipe whose reader has gone (`| head` after its lines): writes fail with EPIPE.
    ClosedPipe,
}

/// `rulesc <args>` in `cwd` (the current folder when `None`), bounded as above. Panics
/// if it hangs.
pub fn rulesc(args: &[&str], cwd: Option<&Path>) -> Output {
    rulesc_to(args, cwd, Sink::Pipe)
}

/// [`rulesc`] in 1 GiB of address space, for a run on rayon's threads with a program
/// that is large as well as deep: each thread takes 32 MiB of stack and (glibc's) 64 MiB
/// allocator arena of address space, however little of them it uses, and beside the CLI
/// worker's 256 MiB that passes 512 MiB.
#[allow(dead_code)]
pub fn rulesc_in_1_gib(args: &[&str], cwd: Option<&Path>) -> Output {
    run(args, cwd, Sink::Pipe, 1 << 20)
}

/// [`rulesc`], with standard output going to `sink` (its output is empty unless it is
/// [`Sink::Pipe`]).
pub fn rulesc_to(args: &[&str], cwd: Option<&Path>, sink: Sink) -> Output {
    run(args, cwd, sink, 524_288)
}

/// `rulesc <args>` in at most `kib` KiB of address space.
fn run(args: &[&str], cwd: Option<&Path>, sink: Sink, kib: u64) -> Output {
    let script = match sink {
        Sink::Closed => format!("ulimit -v {kib} && exec \"$0\" \"$@\" >&-"),
        _ => format!("ulimit -v {kib} && exec \"$0\" \"$@\""),
    };
    let stdout = match sink {
        Sink::Full => Stdio::from(std::fs::File::create("/dev/full").unwrap()),
        _ => Stdio::piped(),
    };
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_rulesc"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("RAYON_NUM_THREADS", "2")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().unwrap();
    // Drain the pipes while waiting, so a long report cannot block the child.
    let drain = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = match child.stdout.take() {
        // The reader goes before rulesc writes anything.
        Some(pipe) if sink == Sink::ClosedPipe => {
            drop(pipe);
            std::thread::spawn(Vec::new)
        }
        Some(pipe) => drain(Box::new(pipe)),
        None => std::thread::spawn(Vec::new),
    };
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("rulesc {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}
