//! Issue 28, class 2: output silently lost. What a command prints on standard output
//! either gets there or is an error: a full disk (`/dev/full`) or a standard output
//! closed before the run (`>&-`) is `E0011` (exit 1) for every command that prints, and
//! a pipe closed by its reader (`| head`) stays quiet, with the exit code the command
//! has anyway.

use super::*;
use bounded::Sink;

/// Each command that prints on standard output, with its arguments in the sandbox, and
/// the one path it may write besides.
const PRINTERS: &[(&str, &[&str], Option<&str>)] = &[
    ("man", &["man"], None),
    ("completions", &["completions", "bash"], None),
    ("help", &["--help"], None),
    ("export", &["export", "r"], None),
    (
        "export with a pack",
        &["export", "r", "--pack", "pack.yaml"],
        None,
    ),
    ("trace", &["trace", "r", "s.yaml"], None),
    ("analyze", &["analyze", "r", "s.yaml"], None),
    ("check", &["check", "r"], None),
    (
        "check a pack",
        &["check", "--ruleset", "r", "pack.yaml"],
        None,
    ),
    ("explain", &["explain", "r", "sword"], None),
    ("test", &["test", "--ruleset", "r", "s.yaml"], None),
    ("diff", &["diff", "r", "r", "s.yaml"], None),
    ("schema", &["schema", "--out", "gen"], Some("gen")),
    ("build", &["build", "r", "-o", "out.rs"], Some("out.rs")),
    ("all", &["all", ".", "--out", "gen"], Some("gen")),
];

fn cases(sink: Sink, exit: i32, code: &'static str) -> Vec<Case> {
    PRINTERS
        .iter()
        .map(|&(name, args, writes)| {
            // Each sink its own sandboxes (the tests run at once).
            let name: &'static str = Box::leak(format!("{sink:?} {name}").into_boxed_str());
            let c = case(name, nothing, args, exit, code, "").stdout(sink);
            match writes {
                Some(path) => c.writes(path),
                None => c,
            }
        })
        .collect()
}

#[test]
fn class_2_a_full_disk_is_an_error_for_every_command_that_prints() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    check_all(&cases(Sink::Full, 1, "E0011"));
}

#[test]
fn class_2_a_closed_standard_output_is_an_error() {
    // Linux only: elsewhere the Rust runtime's /dev/null in its place cannot be told
    // from one given on purpose.
    if !Path::new("/proc/self/fd").is_dir() {
        eprintln!("skipped: no /proc/self/fd to see a closed standard output by");
        return;
    }
    check_all(&cases(Sink::Closed, 1, "E0011"));
}

/// `rulesc ... | head`: the reader had what it wanted. Nothing on stderr, the exit code
/// of the command, nothing changed.
#[test]
fn class_2_a_pipe_closed_by_its_reader_stays_quiet() {
    for &(name, args, writes) in PRINTERS {
        let root = sandbox(&format!("closed pipe {name}"));
        let proj = root.join("proj");
        let before = snapshot(&root);
        let out = bounded::rulesc_to(args, Some(&proj), Sink::ClosedPipe);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name}: {err}");
        assert!(err.is_empty(), "{name}: said something on stderr:\n{err}");
        let after = snapshot(&root);
        let allowed = writes.map(|w| proj.join(w));
        let changed: Vec<_> = before
            .keys()
            .chain(after.keys())
            .filter(|p| before.get(*p) != after.get(*p))
            .filter(|p| !allowed.as_ref().is_some_and(|a| p.starts_with(a)))
            .collect();
        assert!(changed.is_empty(), "{name}: changed {changed:?}");
    }
}

/// What the commands print reaches a pipe whole, and a command that fails for its own
/// reason keeps its own diagnostic with no `E0011` added (it printed nothing).
#[test]
fn class_2_output_that_gets_there_is_no_error() {
    check_all(&[
        case("man to a pipe", nothing, &["man"], 0, "", ""),
        case(
            "a check that fails prints nothing to lose",
            |p| write(&p.join("r/attack.rules"), "procedure ("),
            &["check", "r"],
            1,
            "E0201",
            "r/attack.rules",
        )
        .stdout(Sink::Full),
    ]);
    let root = sandbox("no E0011 beside E0201");
    let proj = root.join("proj");
    write(&proj.join("r/attack.rules"), "procedure (");
    let out = bounded::rulesc_to(&["--format", "json", "check", "r"], Some(&proj), Sink::Full);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("E0011"), "{err}");
}
