//! `rulesc check --watch` and `rulesc test --watch`: a run, then a run again after a file
//! it read is saved. The waits are bounded (a healthy watcher answers in well under a
//! second); nothing is asserted about speed.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Long enough for a loaded CI machine.
const PATIENCE: Duration = Duration::from_secs(60);

const RULESET: &str = "\
ruleset:
  name: watched
  title: Watched
enums:
  Loc: [Head, Leg]
tables:
  hits:
    die: d2
    value: Loc
    rows: { 2: Head, 1: Leg }
";

const RULES: &str = "procedure p() -> Loc {\n  return roll hits\n}\n";

const SCENARIO: &str = "\
ruleset: ../r
run: p
dice: [2]
expect:
  result: Head
";

/// A `rulesc` run in the background, its standard output and error read line by line
/// (both into one channel) until it is killed on drop.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Watching {
    fn start(dir: &Path, args: &[&str]) -> Watching {
        Watching::start_program(dir, env!("CARGO_BIN_EXE_rulesc"), args)
    }

    fn start_program(dir: &Path, program: &str, args: &[&str]) -> Watching {
        let mut child = Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start rulesc");
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx2.send(l);
            }
        });
        Watching {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits until a line holding each of `needles` has come (after those already
    /// waited for), giving the lines read until then. Standard output and error are two
    /// pipes, read apart: their lines may come in either order.
    fn until(&mut self, needles: &[&str]) -> Vec<String> {
        let started = Instant::now();
        let mut got: Vec<String> = Vec::new();
        while !needles.iter().all(|n| got.iter().any(|l| l.contains(n))) {
            let left = PATIENCE.saturating_sub(started.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    got.push(l);
                }
                Err(_) => panic!("no lines with {needles:?} in time; saw {:#?}", self.seen),
            }
        }
        got
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("r")).unwrap();
    std::fs::create_dir(dir.path().join("tests")).unwrap();
    std::fs::write(dir.path().join("r/ruleset.yaml"), RULESET).unwrap();
    std::fs::write(dir.path().join("r/a.rules"), RULES).unwrap();
    std::fs::write(dir.path().join("tests/s.yaml"), SCENARIO).unwrap();
    dir
}

#[test]
fn check_watch_checks_again_when_a_file_is_saved() {
    let dir = project();
    let mut w = Watching::start(dir.path(), &["check", "r", "--watch"]);
    w.until(&["[watching for changes", "ok: watched (r)"]);
    // The writer saves a typo: the run again names the file and reports it.
    std::fs::write(dir.path().join("r/a.rules"), RULES.replace("hits", "hitz")).unwrap();
    let again = w.until(&[
        "[watching for changes",
        "[r/a.rules changed: running again]",
        "error(s)",
    ]);
    assert!(again.iter().any(|l| l.contains("E0306")), "{again:?}");
    assert!(!again.iter().any(|l| l.starts_with("ok:")), "{again:?}");
    // Fixed: ok again.
    std::fs::write(dir.path().join("r/a.rules"), RULES).unwrap();
    w.until(&["[watching for changes", "running again", "ok: watched (r)"]);
    // A file that is not a ruleset's, scenario's or pack's does not run it again.
    std::fs::write(dir.path().join("r/notes.txt"), "x").unwrap();
    std::fs::write(dir.path().join("r/a.rules"), RULES.replace("hits", "hitz")).unwrap();
    let next = w.until(&["running again]"]);
    assert_eq!(next, ["[r/a.rules changed: running again]"]);
}

#[test]
fn test_watch_runs_the_scenarios_again_when_their_ruleset_changes() {
    let dir = project();
    let mut w = Watching::start(dir.path(), &["test", "tests", "--watch"]);
    w.until(&["[watching for changes", "1 passed"]);
    // The ruleset is not under the folder named, but the scenario read it.
    let swapped = RULESET.replace("{ 2: Head, 1: Leg }", "{ 2: Leg, 1: Head }");
    std::fs::write(dir.path().join("r/ruleset.yaml"), swapped).unwrap();
    w.until(&[
        "[watching for changes",
        "[r/ruleset.yaml changed: running again]",
        "1 failed",
    ]);
}

#[test]
fn test_watch_does_not_take_update() {
    let dir = project();
    let out = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(["test", "tests", "--watch", "--update"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A path named that does not exist cannot be watched: the run says why, then the watch
/// ends with exit code 1 (it waited for nothing, forever).
#[test]
fn watching_a_path_that_does_not_exist_ends() {
    let dir = project();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(["check", "nowhere", "--watch"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("still watching a path that does not exist");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("cannot watch for changes"), "{err}");
}

/// A burst of saves (an editor writing a file several times, or several files at once)
/// is one run again: the next run after it is the one a later, single save makes.
#[test]
fn a_burst_of_saves_is_one_run_again() {
    let dir = project();
    let mut w = Watching::start(dir.path(), &["check", "r", "--watch"]);
    w.until(&["[watching for changes", "ok: watched (r)"]);
    for i in 0..5 {
        let text = format!("{RULES}// save {i}\n");
        std::fs::write(dir.path().join("r/a.rules"), text).unwrap();
    }
    let burst = w.until(&["running again]", "[watching for changes"]);
    assert_eq!(
        burst.iter().filter(|l| l.contains("running again")).count(),
        1,
        "{burst:?}"
    );
    // Past the debounce, a save of another file: the next run is that one's.
    std::thread::sleep(Duration::from_millis(600));
    std::fs::write(
        dir.path().join("r/ruleset.yaml"),
        format!("{RULESET}# saved\n"),
    )
    .unwrap();
    let next = w.until(&["running again]"]);
    let runs: Vec<&String> = next
        .iter()
        .filter(|l| l.contains("running again"))
        .collect();
    assert_eq!(
        runs,
        ["[r/ruleset.yaml changed: running again]"],
        "{:#?}",
        w.seen
    );
    // A pipe is not a terminal: nothing cleared.
    assert!(!w.seen.iter().any(|l| l.contains('\x1b')), "{:#?}", w.seen);
}

/// On a terminal the screen is cleared before each run again, as `cargo watch -c` does
/// (a pipe gets no escape codes). The terminal is `script`'s; skipped without it.
#[test]
fn a_terminal_is_cleared_before_each_run_again() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to give rulesc a terminal");
        return;
    }
    let dir = project();
    let command = format!("{} check r --watch", env!("CARGO_BIN_EXE_rulesc"));
    let mut w = Watching::start_program(dir.path(), "script", &["-qfec", &command, "/dev/null"]);
    let first = w.until(&["ok: watched (r)", "[watching for changes"]);
    assert!(!first.iter().any(|l| l.contains("\x1b[2J")), "{first:?}");
    std::fs::write(dir.path().join("r/a.rules"), format!("{RULES}// saved\n")).unwrap();
    let again = w.until(&["running again]", "ok: watched (r)"]);
    assert!(
        again.iter().any(|l| l.contains("\x1b[2J\x1b[3J\x1b[H")),
        "{again:?}"
    );
}
