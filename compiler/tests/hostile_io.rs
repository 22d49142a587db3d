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

mod bounded;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    let out = bounded::rulesc(&args, Some(&proj));
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

#[test]
fn class_1_reading_only_regular_files_inside_the_project_within_budget() {
    check_all(&[
        case(
            "the sandbox itself is fine",
            nothing,
            &["trace", "r", "s.yaml", "--pack", "pack.yaml"],
            0,
            "",
            "",
        ),
        case(
            "ruleset.yaml is a FIFO",
            |p| {
                std::fs::remove_file(p.join("r/ruleset.yaml")).unwrap();
                mkfifo(&p.join("r/ruleset.yaml"));
            },
            &["check", "r"],
            1,
            "E0009",
            "r/ruleset.yaml",
        ),
        case(
            "a FIFO found in the folder",
            |p| mkfifo(&p.join("r/extra.rules")),
            &["check", "r"],
            1,
            "E0009",
            "r/extra.rules",
        ),
        case(
            "a socket found in the folder",
            |p| socket(&p.join("r/sock.yaml")),
            &["check", "r"],
            1,
            "E0009",
            "r/sock.yaml",
        ),
        case(
            "a folder named like a YAML file",
            |p| std::fs::create_dir(p.join("r/sub.yaml")).unwrap(),
            &["check", "r"],
            1,
            "E0009",
            "r/sub.yaml",
        ),
        case(
            "a scenario that is a FIFO",
            |p| mkfifo(&p.join("fifo.yaml")),
            &["trace", "r", "fifo.yaml"],
            1,
            "E0009",
            "fifo.yaml",
        ),
        case(
            "a scenario that is /dev/zero",
            nothing,
            &["trace", "r", "/dev/zero"],
            1,
            "E0009",
            "/dev/zero",
        ),
        case(
            "a scenario linked to /dev/zero",
            |p| link("/dev/zero", &p.join("zero.yaml")),
            &["analyze", "r", "zero.yaml"],
            1,
            "E0009",
            "zero.yaml",
        ),
        case(
            "a pack that is a socket",
            |p| socket(&p.join("sock.yaml")),
            &["check", "--ruleset", "r", "sock.yaml"],
            1,
            "E0009",
            "sock.yaml",
        ),
        case(
            "a pack that is a FIFO, for build",
            |p| mkfifo(&p.join("fifo.yaml")),
            &["build", "r", "-o", "out.rs", "--pack", "fifo.yaml"],
            1,
            "E0009",
            "fifo.yaml",
        ),
        case(
            "a link in the folder to a secret outside the project",
            |p| link("../../outside/secret.yaml", &p.join("r/leak.yaml")),
            &["check", "r"],
            1,
            "E0008",
            "r/leak.yaml",
        ),
        case(
            "a link in the folder to /dev/zero",
            |p| link("/dev/zero", &p.join("r/zero.rules")),
            &["check", "r"],
            1,
            "E0008",
            "r/zero.rules",
        ),
        case(
            "a link in the folder that leads nowhere",
            |p| link("nowhere.yaml", &p.join("r/dangling.yaml")),
            &["check", "r"],
            1,
            "E0008",
            "r/dangling.yaml",
        ),
        case(
            "a link in the folder to a file inside the project is read",
            |p| {
                write(&p.join("shared/more.rules"), "formula two() = 2\n");
                link("../shared/more.rules", &p.join("r/more.rules"));
            },
            &["trace", "r", "s.yaml"],
            0,
            "",
            "",
        ),
        case(
            "many large files past the run's byte budget",
            |p| {
                let line = format!("# {}\n", "a".repeat(1000));
                let big = line.repeat(3900);
                for i in 0..9 {
                    write(&p.join(format!("r/big{i}.yaml")), &big);
                }
            },
            &["check", "r"],
            1,
            "E0003",
            "r/big8.yaml",
        ),
        case(
            "many alias-heavy files past the run's YAML node budget",
            |p| {
                let items = vec!["1"; 150].join(", ");
                let refs = vec!["*a"; 900].join(", ");
                let text = format!("a: &a [{items}]\nb: [{refs}]\n");
                for i in 0..8 {
                    write(&p.join(format!("r/nodes{i}.yaml")), &text);
                }
            },
            &["check", "r"],
            1,
            "E0105",
            "r/nodes7.yaml",
        ),
        case(
            "packs past the run's byte budget",
            |p| {
                let big = format!("pack: {{ name: big }}\n{}", "# pad\n".repeat(650_000));
                for i in 0..9 {
                    write(&p.join(format!("big{i}.yaml")), &big);
                }
            },
            &[
                "trace",
                "r",
                "s.yaml",
                "--pack",
                "big0.yaml",
                "big1.yaml",
                "big2.yaml",
                "big3.yaml",
                "big4.yaml",
                "big5.yaml",
                "big6.yaml",
                "big7.yaml",
                "big8.yaml",
            ],
            1,
            "E0003",
            "big8.yaml",
        ),
    ]);
}

#[test]
fn class_2_writing_only_the_output_never_through_a_link() {
    check_all(&[
        case(
            "build into a new file in a missing folder",
            nothing,
            &["build", "r", "-o", "gen/deep/out.rs"],
            0,
            "",
            "",
        )
        .writes("gen"),
        case(
            "build over one of its inputs",
            nothing,
            &["build", "r", "-o", "r/attack.rules"],
            1,
            "E0010",
            "r/attack.rules",
        ),
        case(
            "build over a pack it reads",
            nothing,
            &["build", "r", "-o", "pack.yaml", "--pack", "pack.yaml"],
            1,
            "E0010",
            "pack.yaml",
        ),
        case(
            "build over a hard link to an input",
            |p| std::fs::hard_link(p.join("r/ruleset.yaml"), p.join("out.rs")).unwrap(),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build over a link to an input",
            |p| link("r/ruleset.yaml", &p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into a folder",
            |p| std::fs::create_dir(p.join("out.rs")).unwrap(),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into a FIFO",
            |p| mkfifo(&p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into a link to a FIFO",
            |p| {
                mkfifo(&p.join("fifo"));
                link("fifo", &p.join("out.rs"));
            },
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into /dev/null",
            nothing,
            &["build", "r", "-o", "/dev/null"],
            1,
            "E0010",
            "/dev/null",
        ),
        // The link is replaced by the output; the file it led to is untouched.
        case(
            "build into a planted link to a file outside",
            |p| link("../outside/victim.rs", &p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            0,
            "",
            "",
        )
        .writes("out.rs"),
        case(
            "build into a planted link to a folder outside",
            |p| link("../outside", &p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "all with --out a regular file",
            |p| write(&p.join("gen"), "not a folder\n"),
            &["all", ".", "--out", "gen"],
            1,
            "E0011",
            "gen/sandbox.rs",
        ),
        case(
            "all writing over a scenario it traces",
            |p| write(&p.join("gen/sandbox.rs"), SCENARIO),
            &["all", ".", "--out", "gen", "--trace", "gen/sandbox.rs"],
            1,
            "E0010",
            "gen/sandbox.rs",
        ),
        case(
            "schema into a folder with a link to /dev/null",
            |p| {
                std::fs::create_dir(p.join("sch")).unwrap();
                link("/dev/null", &p.join("sch/pack.schema.json"));
            },
            &["schema", "--out", "sch"],
            1,
            "E0010",
            "sch/pack.schema.json",
        )
        .writes("sch"),
    ]);
}

/// `all` needs a folder of rulesets: the sandbox's project is one (holding `r/`).
#[test]
fn class_2_concurrent_builds_each_leave_one_complete_file() {
    let root = sandbox("concurrent");
    let proj = root.join("proj");
    // A second ruleset with different generated code, so a mix would show.
    write(
        &proj.join("q/ruleset.yaml"),
        &RULESET.replace("sword", "mace"),
    );
    write(&proj.join("q/attack.rules"), RULES);
    let expected: Vec<Vec<u8>> = ["r", "q"]
        .iter()
        .map(|r| {
            let out = format!("{r}.rs");
            let o = bounded::rulesc(&["build", r, "-o", &out], Some(&proj));
            assert!(o.status.success());
            std::fs::read(proj.join(out)).unwrap()
        })
        .collect();
    assert_ne!(expected[0], expected[1]);
    for round in 0..4 {
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let proj = proj.clone();
                std::thread::spawn(move || {
                    let r = if i % 2 == 0 { "r" } else { "q" };
                    bounded::rulesc(&["build", r, "-o", "gen/out.rs"], Some(&proj))
                })
            })
            .collect();
        for h in handles {
            let o = h.join().unwrap();
            assert!(
                o.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        let got = std::fs::read(proj.join("gen/out.rs")).unwrap();
        assert!(expected.contains(&got), "round {round}: a mixed file");
        let left: Vec<_> = std::fs::read_dir(proj.join("gen"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["out.rs"], "round {round}: temporary files left");
    }
}

#[test]
fn class_6_scenarios_and_packs_are_strict() {
    fn scenario(p: &Path, text: &str) {
        write(&p.join("s.yaml"), text);
    }
    fn pack(p: &Path, text: &str) {
        write(&p.join("pack.yaml"), text);
    }
    let trace = &["trace", "r", "s.yaml"][..];
    let check_pack = &["check", "--ruleset", "r", "pack.yaml"][..];
    let fails = |name, setup, args, code, file| case(name, setup, args, 1, code, file);
    check_all(&[
        fails(
            "args is a list",
            |p| {
                scenario(
                    p,
                    &SCENARIO
                        .replace("args: {", "args: [")
                        .replace("[10, 20] }", "[10, 20] ]"),
                )
            },
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "args is a number",
            |p| scenario(p, "run: attack\nargs: 7\n"),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "decisions is a list",
            |p| {
                scenario(
                    p,
                    &SCENARIO
                        .replace("decisions: {", "decisions: [")
                        .replace("[1] }", "[1] ]"),
                )
            },
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "decisions is text",
            |p| {
                scenario(
                    p,
                    &SCENARIO.replace("decisions: { guard: [Low], pick: [1] }", "decisions: all"),
                )
            },
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "run is a list",
            |p| scenario(p, &SCENARIO.replace("run: attack", "run: [attack]")),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "run is a number",
            |p| scenario(p, &SCENARIO.replace("run: attack", "run: 7")),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "description is a mapping",
            |p| scenario(p, &format!("{SCENARIO}description: {{ a: 1 }}\n")),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "an enum answer past its options",
            |p| scenario(p, &SCENARIO.replace("guard: [Low]", "guard: [2]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "a negative answer",
            |p| scenario(p, &SCENARIO.replace("guard: [Low]", "guard: [-1]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "an answer past 32 bits",
            |p| scenario(p, &SCENARIO.replace("guard: [Low]", "guard: [4294967296]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "an answer past 64 bits",
            |p| {
                scenario(
                    p,
                    &SCENARIO.replace("pick: [1]", "pick: [99999999999999999999999]"),
                )
            },
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "a list answer past the list, found when it runs",
            |p| scenario(p, &SCENARIO.replace("pick: [1]", "pick: [2]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "a face the die does not have",
            |p| scenario(p, &SCENARIO.replace("dice: [4]", "dice: [7]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "records is a list",
            |p| pack(p, "pack: { name: extra }\nrecords: [a, b]\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "records of a type is a list",
            |p| pack(p, "pack: { name: extra }\nrecords:\n  Weapon: [axe]\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack: is a number",
            |p| pack(p, "pack: 3\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack without a name",
            |p| pack(p, "pack: { ruleset: sandbox }\n"),
            check_pack,
            "E0106",
            "pack.yaml",
        ),
        fails(
            "pack name is a list",
            |p| pack(p, "pack: { name: [a] }\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack name is not a name",
            |p| pack(p, "pack: { name: \"a b\" }\n"),
            check_pack,
            "E0302",
            "pack.yaml",
        ),
        fails(
            "pack ruleset is a number",
            |p| pack(p, "pack: { name: a, ruleset: 7 }\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack with no header, for trace",
            |p| pack(p, "records: {}\n"),
            &["trace", "r", "s.yaml", "--pack", "pack.yaml"],
            "E0106",
            "pack.yaml",
        ),
    ]);
}

#[test]
fn class_8_every_error_is_a_json_line() {
    let usage = |name, args| case(name, nothing, args, 2, "E0012", "");
    check_all(&[
        usage("no command", &[]),
        usage("an unknown command", &["frobnicate"]),
        usage("a missing argument", &["build", "r"]),
        usage("an unknown flag", &["check", "r", "--frob"]),
        usage("two ruleset folders", &["check", "r", "r"]),
        usage(
            "a flag value that is not a number",
            &["trace", "r", "s.yaml", "--seed", "x"],
        ),
        usage(
            "no runs to simulate",
            &["simulate", "r", "f.yaml", "--runs", "0"],
        ),
        usage(
            "more runs than simulate allows",
            &["simulate", "r", "f.yaml", "--runs", "10000001"],
        ),
        case(
            "a missing ruleset folder",
            nothing,
            &["check", "nowhere"],
            1,
            "E0001",
            "nowhere",
        ),
        case(
            "a missing rules folder for all",
            nothing,
            &["all", "nowhere", "--out", "gen"],
            1,
            "E0001",
            "nowhere",
        ),
        case(
            "a scenario for no ruleset in all",
            |p| write(&p.join("elsewhere/s.yaml"), SCENARIO),
            &["all", ".", "--out", "gen", "--trace", "elsewhere/s.yaml"],
            1,
            "E0401",
            "elsewhere/s.yaml",
        )
        .writes("gen"),
        case(
            "a missing scenario",
            nothing,
            &["trace", "r", "nowhere.yaml"],
            1,
            "E0001",
            "nowhere.yaml",
        ),
    ]);
}

/// Class 5: names and labels from a ruleset reach a terminal as text, never as control
/// sequences: in traces, in diagnostics (message and source snippet), in both formats.
#[test]
fn class_5_control_characters_are_shown_escaped() {
    let root = sandbox("control characters");
    let proj = root.join("proj");
    // ESC (clear screen), CR, and a right-to-left override, in a label and in a name a
    // scenario gives.
    let evil = "\\e[2J\\r\\u202Eevil";
    write(
        &proj.join("r/ruleset.yaml"),
        &RULESET.replace("[High, Low]", &format!("[High: \"Hi{evil}\", Low]")),
    );
    write(
        &proj.join("s.yaml"),
        &SCENARIO
            .replace("guard: [Low]", "guard: [High]")
            .replace("weapon: sword", &format!("weapon: \"y{evil}\"")),
    );
    let raw = |s: &str| {
        s.chars()
            .any(|c| c == '\u{1b}' || c == '\r' || c == '\u{202e}')
    };
    // An unknown record named with the sequence: the diagnostic quotes it, in the
    // scenario, and nothing changes.
    let before = snapshot(&root);
    for format in ["human", "json"] {
        let out = bounded::rulesc(&["--format", format, "trace", "r", "s.yaml"], Some(&proj));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("E0306"), "{err}");
        assert!(err.contains("s.yaml"), "{err}");
        assert_eq!(snapshot(&root), before, "trace changed the sandbox");
        assert!(
            !raw(&err),
            "{format}: a raw control character on stderr:\n{err:?}"
        );
        if format == "json" {
            for line in err.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let rendered = v["rendered"].as_str().unwrap_or_default();
                assert!(
                    !raw(rendered),
                    "raw control character in `rendered`: {rendered:?}"
                );
            }
        }
    }
    // The trace shows the label, escaped.
    write(
        &proj.join("s.yaml"),
        &SCENARIO.replace("guard: [Low]", "guard: [High]"),
    );
    let out = bounded::rulesc(&["trace", "r", "s.yaml"], Some(&proj));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Hi\\u{1b}[2J\\u{d}\\u{202e}evil"), "{text}");
    assert!(
        !raw(&text),
        "a raw control character in the trace:\n{text:?}"
    );
}
