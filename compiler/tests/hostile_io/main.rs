//! Hostile input, every way in and out (issue 8): reading (only regular files, never
//! blocking, never leaving the project, within the run's budget), writing outputs
//! (`build -o`, `all --out`, `schema --out`), scenarios and packs as strict as ruleset
//! files, and `--format json` for every error.
//!
//! Each case builds a sandbox: a project folder (`proj/`, marked by `rulesc.toml`) with a
//! small valid ruleset `r/`, a scenario and a pack, and a folder outside the project
//! (`outside/`) with a secret. It runs `rulesc --format json ...` in `proj/`, bounded in
//! memory and time, and asserts the exit code, the diagnostic's code, the file it names,
//! that every line on stderr is JSON, that the secret never shows, and that nothing in
//! the sandbox changed but the case's output.

#[path = "../bounded/mod.rs"]
mod bounded;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod analyze_limits;
mod fight_files;
mod fight_nesting;
mod fmt;
mod lost_output;
mod overwrite;
mod reading;
mod reporting;
mod shapes;
mod strict;
mod test_links;
mod writing;

const RULESET: &str = "ruleset: { name: sandbox }
enums:
  Guard: [High, Low]
types:
  Weapon:
    damage: int
records:
  Weapon:
    sword: { damage: 2 }
";

const RULES: &str = "procedure attack(bonus: int, weapon: Weapon, picks: list<int>) -> int {
  let guard = decide guard: Guard
  let p = decide pick from picks
  let total = roll d6 + bonus + weapon.damage + p
  if guard == High {
    return total + 1
  }
  return total
}
";

const SCENARIO: &str = "run: attack
args: { bonus: 1, weapon: sword, picks: [10, 20] }
dice: [4]
decisions: { guard: [Low], pick: [1] }
";

const PACK: &str = "pack: { name: extra, ruleset: sandbox }
records:
  Weapon:
    axe: { damage: 3 }
";

const SECRET: &str = "TOP-SECRET-7f3a";

/// What one case sets up, runs and expects.
struct Case {
    name: &'static str,
    /// Changes to the sandbox's project folder before the run.
    setup: fn(&Path),
    /// The arguments after `--format json`, run in `proj/`.
    args: &'static [&'static str],
    exit: i32,
    /// The diagnostic's code, and the file it names (relative to `proj/`; "" for none).
    code: &'static str,
    file: &'static str,
    /// The one path (relative to `proj/`) the run may change, with what is under it.
    output: Option<&'static str>,
    /// Where its standard output goes.
    stdout: bounded::Sink,
}

fn case(
    name: &'static str,
    setup: fn(&Path),
    args: &'static [&'static str],
    exit: i32,
    code: &'static str,
    file: &'static str,
) -> Case {
    Case {
        name,
        setup,
        args,
        exit,
        code,
        file,
        output: None,
        stdout: bounded::Sink::Pipe,
    }
}

impl Case {
    /// The run may change `path` (and what is under it).
    fn writes(self, path: &'static str) -> Case {
        Case {
            output: Some(path),
            ..self
        }
    }

    /// Its standard output goes to `sink` instead of a pipe read whole.
    fn stdout(self, sink: bounded::Sink) -> Case {
        Case {
            stdout: sink,
            ..self
        }
    }
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

fn link(target: impl AsRef<Path>, at: &Path) {
    std::os::unix::fs::symlink(target, at).unwrap();
}

fn socket(path: &Path) {
    // The listener is dropped, the socket file stays.
    std::os::unix::net::UnixListener::bind(path).unwrap();
}

/// A fresh sandbox: `proj/` (the project) and `outside/` (with the secret).
fn sandbox(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile_io")
        .join(name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
    let _ = std::fs::remove_dir_all(&root);
    let proj = root.join("proj");
    write(&proj.join("rulesc.toml"), "");
    write(&proj.join("r/ruleset.yaml"), RULESET);
    write(&proj.join("r/attack.rules"), RULES);
    write(&proj.join("s.yaml"), SCENARIO);
    write(&proj.join("pack.yaml"), PACK);
    write(
        &root.join("outside/secret.yaml"),
        &format!("secret: {SECRET}\n"),
    );
    write(&root.join("outside/victim.rs"), "// not yours\n");
    root
}

/// Every entry under `root`, not following links: its kind and content (a link's
/// target, a file's bytes).
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let t = meta.file_type();
            let what = if t.is_symlink() {
                format!("link {}", std::fs::read_link(&path).unwrap().display())
            } else if t.is_dir() {
                todo.push(path.clone());
                "dir".to_string()
            } else if t.is_file() {
                format!("file {:?}", std::fs::read(&path).unwrap())
            } else {
                format!("special {:?}", t)
            };
            out.insert(path, what);
        }
    }
    out
}

/// Runs one case; the problems found, if any.
fn run(c: &Case) -> Option<String> {
    let root = sandbox(c.name);
    let proj = root.join("proj");
    (c.setup)(&proj);
    let before = snapshot(&root);
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(c.args);
    let out = bounded::rulesc_to(&args, Some(&proj), c.stdout);
    let after = snapshot(&root);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut problems = Vec::new();
    let code = out.status.code();
    if code != Some(c.exit) {
        problems.push(format!("exit {code:?}, expected {}", c.exit));
    }
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .filter_map(|l| match serde_json::from_str(l) {
            Ok(v) => Some(v),
            Err(_) => {
                problems.push(format!("not a JSON line: {l}"));
                None
            }
        })
        .collect();
    if !c.code.is_empty() {
        let named = |v: &serde_json::Value| {
            let spans = v["spans"].as_array().cloned().unwrap_or_default();
            if c.file.is_empty() {
                spans.is_empty()
            } else {
                spans.iter().any(|s| s["file_name"] == c.file)
            }
        };
        if !lines
            .iter()
            .any(|v| v["code"]["code"] == c.code && named(v))
        {
            problems.push(format!("no {} naming {:?}", c.code, c.file));
        }
    }
    if stderr.contains(SECRET) || stdout.contains(SECRET) {
        problems.push("the secret leaked".into());
    }
    let allowed = c.output.map(|o| proj.join(o));
    let changed: Vec<_> = before
        .keys()
        .chain(after.keys())
        .filter(|p| before.get(*p) != after.get(*p))
        .filter(|p| !allowed.as_ref().is_some_and(|a| p.starts_with(a)))
        .collect();
    if !changed.is_empty() {
        problems.push(format!("changed outside the output: {changed:?}"));
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!(
            "{}: {}\n{}",
            c.name,
            problems.join("; "),
            stderr.chars().take(800).collect::<String>()
        ))
    }
}

fn check_all(cases: &[Case]) {
    let failures: Vec<String> = cases.iter().filter_map(run).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn nothing(_: &Path) {}
