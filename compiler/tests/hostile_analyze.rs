//! Hostile input to `rulesc analyze` (issue 8, class 3): scenarios and flags from
//! strangers. Whatever they ask, `analyze` answers within its limits, with exact
//! fractions (never saturated or wrapped), a warning with its code in the scenario's file
//! when a limit stopped it, and a usage error (exit 2) for a flag out of its range; never
//! a panic (101) or a hang. Each case runs the binary under a 512 MiB address-space limit
//! and a 60 s watchdog (a hang guard, not a speed target: each takes about a second).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const MANIFEST: &str = "ruleset: { name: hostile }\n";

struct Case {
    name: &'static str,
    rules: String,
    scenario: String,
    args: Vec<&'static str>,
    exit: i32,
    /// The diagnostic code expected on stderr (in `scenario.yaml`), if any.
    code: Option<&'static str>,
    /// Text that must appear on stdout (an exact fraction, say).
    stdout: Vec<String>,
}

fn case(name: &'static str, rules: &str, scenario: &str) -> Case {
    Case {
        name,
        rules: rules.to_string(),
        scenario: scenario.to_string(),
        args: Vec::new(),
        exit: 0,
        code: None,
        stdout: Vec::new(),
    }
}

impl Case {
    fn args(mut self, args: &[&'static str]) -> Self {
        self.args = args.to_vec();
        self
    }
    fn warns(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
    /// Exit 1 with `code` in `scenario.yaml` and no odds.
    fn fails(mut self, code: &'static str) -> Self {
        self.exit = 1;
        self.code = Some(code);
        self
    }
    fn usage_error(mut self) -> Self {
        self.exit = 2;
        self
    }
    fn prints(mut self, text: impl Into<String>) -> Self {
        self.stdout.push(text.into());
        self
    }
}

const TWO_D6: &str = "procedure p() -> int { return roll 2d6 }\n";

/// A loop of 10^12 steps after the first roll: only stopping at once (or the step budget)
/// keeps a path from running it.
const ROLL_THEN_SPIN: &str = "procedure p() -> int {
  let x = roll 2d6
  for i in 0..10000 {
    for j in 0..10000 {
      for k in 0..10000 {
        x = x + 1
      }
    }
  }
  return x
}
";

/// A decision from a list of one item or two, by a d2.
const PICK: &str = "procedure p() -> int {
  let xs = [10]
  if roll d2 == 2 {
    xs = [10, 20]
  }
  return decide pick from xs
}
";

fn cases() -> Vec<Case> {
    let run_p = "run: p\n";
    // 2^130: thirteen d1024s. Every path's probability is 1/2^130, past u128; the
    // unexplored mass is everything but the three paths visited.
    let two_130: num_bigint::BigUint = num_bigint::BigUint::from(2u32).pow(130);
    let rest = &two_130 - 3u32;
    let big_list: String = (0..50_000).map(|i| format!("{}, ", i % 7)).collect();
    let big_script: String = "false, ".repeat(50_000);
    let mut cases = vec![];
    for (flag, value) in [
        ("--max-dice", "0"),
        ("--max-dice", "1001"),
        ("--max-dice=-1", ""),
        ("--max-paths", "0"),
        ("--max-paths", "99999999999999999999999"),
        ("--max-steps", "0"),
        ("--max-seconds", "0"),
        ("--max-seconds", "86401"),
        ("--max-memory", "0"),
        ("--max-memory", "1048577"),
    ] {
        let name: &'static str = Box::leak(format!("{flag} {value}").into_boxed_str());
        let args: Vec<&'static str> = [flag, value]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let args: &'static [&'static str] = Box::leak(args.into_boxed_slice());
        cases.push(case(name, TWO_D6, run_p).args(args).usage_error());
    }
    // Issue 8 class 6: an answer out of range is an error, never clamped. The list the
    // decision picks from holds one item or two, by a d2: answer 1 fits only one path.
    for (engine, args) in [
        ("merged", &[][..]),
        ("walker", &["--engine", "paths"][..]),
        ("samples", &["--samples", "1000", "--seed", "7"][..]),
    ] {
        let name = |what: &str| -> &'static str {
            Box::leak(format!("{what} ({engine})").into_boxed_str())
        };
        cases.push(
            case(
                name("an answer past a list's options on some path is E0403"),
                PICK,
                "run: p\ndecisions:\n  pick: [1]\n",
            )
            .args(args)
            .fails("E0403"),
        );
        if engine != "samples" {
            cases.push(
                case(
                    name("an answer within every path's options is analyzed"),
                    PICK,
                    "run: p\ndecisions:\n  pick: [0]\n",
                )
                .args(args)
                .prints("1/1  10\n"),
            );
        }
    }
    cases.extend([
        // The path walker (`--engine paths`, the reference engine).
        case("fractions past 128 bits are exact (walker)", "procedure p() -> int { return roll 13d1024 }\n", run_p)
            .args(&["--engine", "paths", "--max-dice", "13", "--max-paths", "3"])
            .warns("W0101")
            .prints(format!("1/{two_130}  13\n"))
            .prints(format!("1/{two_130}  15\n"))
            .prints(format!("{rest}/{two_130}  (unexplored")),
        case("a path cut at --max-dice stops at once (walker)", ROLL_THEN_SPIN, run_p)
            .args(&["--engine", "paths", "--max-dice", "1"])
            .prints("1/1  (unexplored"),
        case("total steps are bounded (walker)", ROLL_THEN_SPIN, run_p)
            .args(&["--engine", "paths", "--max-steps", "100000"])
            .warns("W0102"),
        case("wall-clock is bounded (walker)", "procedure p() -> int { return roll 5d1000 }\n", run_p)
            .args(&["--engine", "paths", "--max-dice", "5", "--max-paths", "1000000000000", "--max-steps", "1000000000000", "--max-seconds", "1"])
            .warns("W0103"),
        case("200,000 distinct outcomes merge in linear time (walker)", "procedure p() -> int { return roll d200000 }\n", run_p)
            .args(&["--engine", "paths"])
            .prints("1/200000  199999\n"),
        case(
            "arguments and decision scripts are not copied per path (walker)",
            "procedure p(xs: list<int>) -> int {\n  let _keep = decide keep: bool\n  return roll 2d500 + len(xs)\n}\n",
            &format!("run: p\nargs:\n  xs: [{big_list}]\ndecisions:\n  keep: [{big_script}]\n"),
        )
        .args(&["--engine", "paths"])
        .prints("1/250000  50002\n"),
        // The merged engine (the default).
        case("fractions past 128 bits are exact", "procedure p() -> int { return roll 40d12 % 7 }\n", run_p)
            // 40d12 mod 7 = 0, computed independently (Python's fractions); 144 bits.
            .prints("2099673668527266357975365078592921040542889/14697715679690864505827555550150426126974976  0\n")
            .prints("524918417131816589493841269648230716425235/3674428919922716126456888887537606531743744  1\n"),
        case("a path cut at --max-dice stops at once", ROLL_THEN_SPIN, run_p)
            .args(&["--max-dice", "1"])
            .prints("1/1  (unexplored"),
        case("total steps are bounded", ROLL_THEN_SPIN, run_p)
            .args(&["--max-steps", "100000"])
            .warns("W0102"),
        case(
            "wall-clock is bounded",
            "procedure p() -> int {\n  let x = 0\n  for i in 0..10000 {\n    x = x + roll d6\n  }\n  return x\n}\n",
            run_p,
        )
        .args(&["--max-seconds", "1", "--max-steps", "1000000000000"])
        .warns("W0103"),
        case("the states held at once are bounded", "procedure p() -> int { return roll 3d1000 * 1000 + roll d1000 }\n", run_p)
            .args(&["--max-states", "10000"])
            .warns("W0104"),
        case("a roll with too many totals is refused", "procedure p() -> int { return roll 1000d1000000 }\n", run_p)
            .warns("W0104")
            .prints("1/1  (unexplored"),
        case(
            "arguments and decision scripts are not copied per state",
            "procedure p(xs: list<int>) -> int {\n  let _keep = decide keep: bool\n  return roll 2d500 + len(xs)\n}\n",
            &format!("run: p\nargs:\n  xs: [{big_list}]\ndecisions:\n  keep: [{big_script}]\n"),
        )
        .prints("1/250000  50002\n"),
    ]);
    cases
}

/// The odds `--format json` prints, as lines `FRACTION  OUTCOME` (and `FRACTION
/// (unexplored` for what was cut off), the text listing's own shape.
fn listing(stdout: &str) -> String {
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(stdout) else {
        return stdout.to_string();
    };
    let mut out = String::new();
    for r in doc["results"].as_array().into_iter().flatten() {
        for g in r["groups"].as_array().into_iter().flatten() {
            let (p, g) = (g["probability"].as_str(), g["group"].as_str());
            out.push_str(&format!("{}  {}\n", p.unwrap_or(""), g.unwrap_or("")));
        }
        if r["unexplored"] != "0/1" {
            let u = r["unexplored"].as_str().unwrap_or("");
            out.push_str(&format!("{u}  (unexplored\n"));
        }
    }
    out
}

/// Runs `rulesc --format json analyze <dir>/rules <dir>/scenario.yaml <args>` under a 512 MiB
/// address-space limit, killed after 60 s. Two threads in rayon's pool whatever the
/// machine (`RAYON_NUM_THREADS`, as `bounded` sets it): each takes 32 MiB of stack
/// (`rulesc::analyze::THREAD_STACK`) and an allocator arena of address space, so on a
/// CI runner of many cores one per core would spend the 512 MiB before the analysis does.
fn run_bounded(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 524288 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_rulesc"))
        .args(["--format", "json", "analyze"])
        .arg(dir.join("rules"))
        .arg(dir.join("scenario.yaml"))
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{}: rulesc analyze hung", dir.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn write_case(root: &Path, i: usize, c: &Case) -> PathBuf {
    let dir = root.join(format!("case{i:02}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("rules/ruleset.yaml"), MANIFEST).unwrap();
    std::fs::write(dir.join("rules/a.rules"), &c.rules).unwrap();
    std::fs::write(dir.join("scenario.yaml"), &c.scenario).unwrap();
    dir
}

/// Every file of a case's project (`rules/` and the scenario) with its bytes, to show
/// `analyze` changed nothing.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for d in [dir.to_path_buf(), dir.join("rules")] {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hostile_analyses_stay_exact_and_bounded() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile_analyze");
    let mut failures = Vec::new();
    for (i, c) in cases().iter().enumerate() {
        let dir = write_case(&root, i, c);
        let before = contents(&dir);
        let out = run_bounded(&dir, &c.args);
        let stdout = listing(&String::from_utf8_lossy(&out.stdout));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut problems = Vec::new();
        if out.status.code() != Some(c.exit) {
            problems.push(format!("exit {:?}, expected {}", out.status.code(), c.exit));
        }
        if c.exit == 1 && !stdout.is_empty() {
            problems.push("odds printed beside the error".into());
        }
        if c.exit == 2 {
            // A usage error names the flag and its range, and prints no odds.
            let flag = c.args[0].split('=').next().unwrap_or_default();
            if !stderr.contains(flag) || !stdout.is_empty() {
                problems.push(format!("the usage error does not name {flag}"));
            }
        }
        match c.code {
            Some(code) => {
                let file = format!("\"file_name\":\"{}\"", dir.join("scenario.yaml").display());
                if !stderr.contains(&format!("\"code\":{{\"code\":\"{code}\"}}"))
                    || !stderr.contains(&file)
                {
                    problems.push(format!("no {code} in scenario.yaml"));
                }
            }
            None if c.exit == 0 && !stderr.is_empty() => {
                problems.push("unexpected diagnostics".into())
            }
            None => {}
        }
        for want in &c.stdout {
            if !stdout.contains(want.as_str()) {
                problems.push(format!("stdout lacks {want:?}"));
            }
        }
        if contents(&dir) != before {
            problems.push("the project changed".into());
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{} (case{i:02}): {}\nstdout: {}\nstderr: {}",
                c.name,
                problems.join("; "),
                stdout.chars().take(400).collect::<String>(),
                stderr.chars().take(400).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
