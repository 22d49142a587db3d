//! Hostile input for the interpreter (issue 8, class 4): `rulesc trace` and `analyze` on
//! rules written to run forever or to fill memory. Each case writes a project (a ruleset
//! `r/` and a scenario `s.yaml`), runs `rulesc --format json` in it (bounded in memory
//! and time, see `bounded`), and asserts the exit code, the diagnostic's code and file
//! (or, for a rule error, the result line naming the rule), and that the project did not
//! change.

mod bounded;

use std::path::{Path, PathBuf};

struct Case {
    name: &'static str,
    rules: String,
    scenario: &'static str,
    command: &'static str,
    exit: i32,
    /// A diagnostic's code and the file it names, or "" for none.
    code: &'static str,
    file: &'static str,
    /// Text stdout holds.
    stdout: &'static str,
}

const MANIFEST: &str = "ruleset: { name: run }\nscales:\n  Side: [Left, Right]\n";

fn project(c: &Case) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile_run")
        .join(c.name.replace(|ch: char| !ch.is_ascii_alphanumeric(), "_"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("r")).unwrap();
    std::fs::write(root.join("rulesc.toml"), "").unwrap();
    let (yaml, rules) = c.rules.split_once("\n---\n").unwrap_or(("", &c.rules));
    std::fs::write(root.join("r/ruleset.yaml"), format!("{MANIFEST}{yaml}")).unwrap();
    std::fs::write(root.join("r/a.rules"), rules).unwrap();
    std::fs::write(root.join("s.yaml"), c.scenario).unwrap();
    root
}

fn files(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in [root.to_path_buf(), root.join("r")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn run(c: &Case) -> Option<String> {
    let root = project(c);
    let before = files(&root);
    let out = bounded::rulesc(&["--format", "json", c.command, "r", "s.yaml"], Some(&root));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if out.status.code() != Some(c.exit) {
        problems.push(format!("exit {:?}, expected {}", out.status.code(), c.exit));
    }
    let diags: Vec<serde_json::Value> = stderr
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if diags.len() != stderr.lines().count() {
        problems.push("a line on stderr is not JSON".into());
    }
    if !c.code.is_empty()
        && !diags.iter().any(|d| {
            d["code"]["code"] == c.code
                && d["spans"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|s| s["file_name"] == c.file))
        })
    {
        problems.push(format!("no {} naming {}", c.code, c.file));
    }
    if !stdout.contains(c.stdout) {
        problems.push(format!("stdout lacks {:?}", c.stdout));
    }
    if files(&root) != before {
        problems.push("the project changed".into());
    }
    (!problems.is_empty()).then(|| {
        format!(
            "{}: {}\nstdout: {}\nstderr: {}",
            c.name,
            problems.join("; "),
            stdout
                .chars()
                .rev()
                .take(300)
                .collect::<String>()
                .chars()
                .rev()
                .collect::<String>(),
            stderr.chars().take(500).collect::<String>()
        )
    })
}

/// A record type with maps (the YAML part of a case), and a procedure making a list of
/// 65,536 ones.
const BOARD: &str = "types:\n  Board:\n    tallies: { type: \"map<int, int>\", default: {} }\n    lists: { type: \"map<int, list<int>>\", default: {} }\n---\n";
const BIG: &str = "procedure big() -> list<int> {\n  let xs = [1]\n  for i in 0..16 {\n    xs += xs\n  }\n  return xs\n}\n";

fn loops(depth: usize, body: &str) -> String {
    let mut s = String::from("procedure p() -> int {\n  let n = 0\n");
    for d in 0..depth {
        s.push_str(&format!("{}for i{d} in 0..10000 {{\n", "  ".repeat(d + 1)));
    }
    s.push_str(&format!("{}{body}\n", "  ".repeat(depth + 1)));
    for d in (0..depth).rev() {
        s.push_str(&format!("{}}}\n", "  ".repeat(d + 1)));
    }
    s.push_str("  return n\n}\n");
    s
}

/// `body` in a loop of `thousands` thousand turns.
fn turns(thousands: usize, body: &str) -> String {
    format!("procedure p() -> int {{\n  let n = 0\n  for i in 0..{thousands} {{\n    for j in 0..1000 {{\n      {body}\n    }}\n  }}\n  return n\n}}\n")
}

/// A die table of 1,000 dice (the YAML part of a case).
const WIDE: &str = "tables:\n  wide:\n    die: 1000d1000\n    value: Side\n    rows: { \"1000-500000\": Left, \"500001-1000000\": Right }\n---\n";

/// `f0` calls `f1` 10,000 times, which calls `f2` 10,000 times, and so on.
fn fan_out(levels: usize) -> String {
    let mut s = String::new();
    for l in 0..levels {
        s.push_str(&format!(
            "procedure f{l}() -> int {{\n  let n = 0\n  for i in 0..10000 {{\n    n += f{}()\n  }}\n  return n\n}}\n",
            l + 1
        ));
    }
    s.push_str(&format!(
        "procedure f{levels}() -> int {{\n  return 1\n}}\n"
    ));
    s
}

#[test]
fn the_interpreter_is_bounded_in_steps_memory_and_trace() {
    let case = |name, rules: String, scenario, command, exit, code, file, stdout| Case {
        name,
        rules,
        scenario,
        command,
        exit,
        code,
        file,
        stdout,
    };
    let cases = [
        case("three nested loops of 10,000", loops(3, "n += 1"), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        case("eight nested loops of 10,000", loops(8, "n += 1"), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        case("fan-out through calls", fan_out(6), "run: f0\n", "trace", 1, "E0410", "s.yaml", ""),
        case("nested loops after a roll, analyzed", loops(4, "n += 1").replace("let n = 0", "let n = roll d2"), "run: p\n", "analyze", 0, "", "", "the run took more than 1000000 steps"),
        case("a list doubled past the limit", "procedure p() -> int {\n  let xs = [1]\n  for i in 0..100 {\n    xs += xs\n  }\n  return len(xs)\n}\n".into(), "run: p\n", "trace", 0, "", "", "result: rule error at r/a.rules:4: the list would hold 131072 items, more than 100000"),
        // A range whose end the scenario sets: refused before its first turn, in a loop
        // and as a list, not cut short at 10,000 turns.
        case("a loop of a billion turns", "procedure p(n: int) -> int {\n  let k = 0\n  for i in 0..n {\n    k += 1\n  }\n  return k\n}\n".into(), "run: p\nargs: { n: 1000000000 }\n", "trace", 0, "", "", "result: rule error at r/a.rules:3: the range holds 1000000000 numbers, more than 10000"),
        case("a list of a billion numbers", "procedure p(n: int) -> int {\n  return len([i for i in 0..n])\n}\n".into(), "run: p\nargs: { n: 1000000000 }\n", "trace", 0, "", "", "result: rule error at r/a.rules:2: the range holds 1000000000 numbers, more than 10000"),
        // Each copy costs the values copied: the budget is spent before the list is long.
        case("a list of lists doubled", "procedure p() -> int {\n  let xs = [[1, 2, 3, 4, 5, 6, 7, 8]]\n  for i in 0..100 {\n    xs += xs\n  }\n  return len(xs)\n}\n".into(), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        // 200,000 cheap steps, each traced: about 30 MB of trace.
        case("a trace past its byte budget", loops(2, &format!("let {} = n", "long".repeat(500))).replace("0..10000 {\n    for", "0..20 {\n    for"), "run: p\n", "trace", 0, "", "", "note: the trace stopped after 16777216 bytes"),
        // Keys written downward, each below every key held: with the map a sorted array
        // each write moved every entry (a third of a million, quadratic: a minute); a
        // tree takes the budget's worth of writes in well under a second.
        case("a map written downward key by key", format!("{BOARD}procedure p(b: Board) -> int {{\n  for i in 0..1000 {{\n    for j in 0..1000 {{\n      b.tallies[0 - i * 1000 - j] = 1\n    }}\n  }}\n  return len(keys(b.tallies))\n}}\n"), "run: p\nargs: { b: {} }\n", "trace", 1, "E0410", "s.yaml", ""),
        // Work on a long list or map costs a step per item: `x in xs` per item compared,
        // `keys(m)` per key, a map's value read per value copied. Each was one step, so
        // a million of them over 65,536 items ran for minutes within the budget.
        case("`in` over a long list, a million times", format!("{BIG}procedure p() -> int {{\n  let xs = big()\n  let n = 0\n  for i in 0..1000 {{\n    for j in 0..1000 {{\n      if 2 in xs {{\n        n += 1\n      }}\n    }}\n  }}\n  return n\n}}\n"), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        case("the keys of a long map, a million times", format!("{BOARD}procedure p(b: Board) -> int {{\n  for i in 0..100 {{\n    for j in 0..1000 {{\n      b.tallies[i * 1000 + j] = 1\n    }}\n  }}\n  let n = 0\n  for i in 0..1000 {{\n    for j in 0..1000 {{\n      n += len(keys(b.tallies))\n    }}\n  }}\n  return n\n}}\n"), "run: p\nargs: { b: {} }\n", "trace", 1, "E0410", "s.yaml", ""),
        case("a long list read from a map, a million times", format!("{BOARD}{BIG}procedure p(b: Board) -> int {{\n  b.lists[1] = big()\n  let n = 0\n  for i in 0..1000 {{\n    for j in 0..1000 {{\n      n += len(b.lists[1])\n    }}\n  }}\n  return n\n}}\n"), "run: p\nargs: { b: {} }\n", "trace", 1, "E0410", "s.yaml", ""),
        // A roll pays a step per die past the first: a roll of 1,000 dice in a loop of a
        // million turns was a few steps a turn, so the run drew hundreds of millions of
        // faces within the budget (seconds in a release build, past the watchdog here);
        // now the budget stops it after a thousand rolls.
        case("a roll of 1,000 dice, a million times", turns(1000, "n += roll 1000d1000"), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        // A hundred thousand turns fitted the budget: the run gave its result after a
        // hundred million faces (seconds here; keeping the faces, past the watchdog).
        case("a roll of 1,000 dice kept for faces(r), 100,000 times", turns(100, "let r = roll 1000d1000\n      n += len(faces(r))"), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        case("a roll of a computed 1,000 dice, 100,000 times", turns(100, "n += roll (d1000 * k)").replace("procedure p()", "procedure p(k: int)"), "run: p\nargs: { k: 1000 }\n", "trace", 1, "E0410", "s.yaml", ""),
        case("a table of 1,000 dice rolled 100,000 times", WIDE.to_string() + &turns(100, "if roll wide == Right {\n        n += 1\n      }"), "run: p\n", "trace", 1, "E0410", "s.yaml", ""),
        // `among` rolls one die over the allowed totals: no step past the statement's.
        case("a table of a million totals rolled among a level, 10,000 times", WIDE.to_string() + &loops(1, "if roll wide among [Right] == Right {\n      n += 1\n    }"), "run: p\n", "trace", 0, "", "", "result: 10000"),
    ];
    let failures: Vec<String> = cases.iter().filter_map(run).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A fight whose every turn runs close to a call's step budget, for up to 10,000 rounds:
/// the fight's calls share one budget (`MAX_FIGHT_STEPS`), so each run stops with the
/// rule error after ten million steps instead of running for minutes; and a simulation
/// of many such runs stops at its time limit.
#[test]
fn a_fight_is_bounded_in_steps_over_all_its_calls() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile_run/long_fight");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("r")).unwrap();
    std::fs::write(root.join("rulesc.toml"), "").unwrap();
    std::fs::write(
        root.join("r/ruleset.yaml"),
        "ruleset: { name: run }\ntypes:\n  Brute:\n    hp: { type: int, default: 10 }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("r/a.rules"),
        "procedure take_turn(me: fighter) {\n  let n = 0\n  for i in 0..200 {\n    for j in 0..1000 {\n      n += 1\n    }\n  }\n}\n\nfight of Brute {\n  order(c) = [c.hp]\n  out(c) = c.hp <= 0\n  on turn = take_turn\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("f.yaml"),
        "title: forever\nrounds: 10000\nsides:\n  A:\n    Ann: {}\n  B:\n    Bob: {}\n",
    )
    .unwrap();
    let out = bounded::rulesc(&["simulate", "r", "f.yaml", "-n", "2"], Some(&root));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("100.00%  r/a.rules:1: the run took more than 10000000 steps"),
        "{stdout}"
    );
    // Many such runs: `--max-seconds` (60 by default) stops starting new ones, and what
    // was made is reported with a warning.
    let out = bounded::rulesc(
        &[
            "simulate",
            "r",
            "f.yaml",
            "-n",
            "100000",
            "--max-seconds",
            "1",
        ],
        Some(&root),
    );
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(" of 100000 runs (stopped by the time limit)"),
        "{stdout}"
    );
    assert!(stderr.contains("W0105"), "{stderr}");
    assert!(
        stderr.contains("the simulation stopped after 1 seconds"),
        "{stderr}"
    );
}
