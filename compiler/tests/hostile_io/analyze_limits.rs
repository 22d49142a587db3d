//! Issue 28, the `analyze` classes: memory bounded in bytes, not only in states (class
//! 4); `--max-seconds` a limit of the whole run in every mode (class 5); limits named
//! where they cut, and quoted odds read as unquoted ones (class 9).
//!
//! Each run is bounded as every hostile case is (512 MiB of address space, a watchdog):
//! a run asked for far more work than fits in its limit must end, and say so. Nothing is
//! timed beyond "it ended".

use super::*;
use num_rational::BigRational;
use serde_json::Value as Json;

/// A run of `rulesc --format json <args>` in a sandbox's project folder, with the
/// ruleset `big/` (`rules`) and the scenario `big.yaml` (`scenario`) written there.
struct Ran {
    exit: Option<i32>,
    /// Each diagnostic: code and message.
    diags: Vec<(String, String)>,
    /// `results` of the JSON report.
    results: Vec<Json>,
    stdout: String,
}

fn run_in(name: &str, rules: &str, scenario: &str, setup: fn(&Path), args: &[&str]) -> Ran {
    let root = sandbox(name);
    let proj = root.join("proj");
    write(&proj.join("big/ruleset.yaml"), "ruleset: { name: big }\n");
    write(&proj.join("big/a.rules"), rules);
    write(&proj.join("big.yaml"), scenario);
    setup(&proj);
    let before = snapshot(&root);
    let out = bounded::rulesc(args, Some(&proj));
    assert_eq!(
        before,
        snapshot(&root),
        "{name}: the run changed the sandbox"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let diags = stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .map(|v| {
            let code = v["code"]["code"].as_str().unwrap_or("").to_string();
            (code, v["message"].as_str().unwrap_or("").to_string())
        })
        .collect();
    let results = serde_json::from_str::<Json>(&stdout)
        .ok()
        .and_then(|d| d["results"].as_array().cloned())
        .unwrap_or_default();
    Ran {
        exit: out.status.code(),
        diags,
        results,
        stdout,
    }
}

fn analyze(name: &str, rules: &str, scenario: &str, args: &[&str]) -> Ran {
    let mut all = vec!["--format", "json", "analyze", "big", "big.yaml"];
    all.extend_from_slice(args);
    run_in(name, rules, scenario, nothing, &all)
}

impl Ran {
    /// The message of the one warning with `code`.
    fn warning(&self, code: &str) -> &str {
        let found: Vec<&str> = self
            .diags
            .iter()
            .filter(|(c, _)| c == code)
            .map(|(_, m)| m.as_str())
            .collect();
        assert_eq!(found.len(), 1, "one {code} expected: {:?}", self.diags);
        found[0]
    }
}

fn fraction(v: &Json) -> BigRational {
    v.as_str().unwrap().parse().unwrap()
}

/// Each result's groups and unexplored part add up to exactly one: the odds are those
/// of what was explored, the rest reported unexplored.
fn adds_up(r: &Json) {
    let groups = r["groups"].as_array().unwrap();
    let sum = groups
        .iter()
        .map(|g| fraction(&g["probability"]))
        .fold(fraction(&r["unexplored"]), |a, b| a + b);
    assert_eq!(sum, BigRational::from_integer(1.into()), "{r}");
}

/// Four rolls, a key of the map written after each: every state holds its own map.
const WRITES_AFTER_ROLLS: &str = "procedure p(m: map<int, int>) -> int {
  m[0] = roll d6
  m[1] = roll d6
  m[2] = roll d6
  m[3] = roll d6
  return m[0] + m[1] + m[2] + m[3]
}
";

#[test]
fn class_4_the_states_memory_is_bounded_in_bytes() {
    // 40,000 keys: the 1,296 maps would take about 3 GB (99,000 keys: 15 GB); the
    // run holds far less, under 512 MiB of address space.
    let keys: String = (10..40_010).map(|i| format!("{i}: {}, ", i % 7)).collect();
    let scenario = format!("run: p\nargs:\n  m: {{{keys}}}\n");
    let r = analyze("class 4 map", WRITES_AFTER_ROLLS, &scenario, &[]);
    assert_eq!(r.exit, Some(0), "{:?}", r.diags);
    let w = r.warning("W0104");
    assert!(
        w.contains(
            "needed more than 128 MiB for the states or outcomes held at once (--max-memory)"
        ),
        "{w}"
    );
    assert_eq!(r.results.len(), 1);
    assert_eq!(r.results[0]["stopped"], "W0104");
    adds_up(&r.results[0]);
    assert_ne!(r.results[0]["unexplored"], "0/1");
    // A budget of the run's own is kept too.
    let r = analyze(
        "class 4 map, 16 MiB",
        WRITES_AFTER_ROLLS,
        &scenario,
        &["--max-memory", "16"],
    );
    assert!(r.warning("W0104").contains("more than 16 MiB"));
    adds_up(&r.results[0]);
    // A small map is analyzed in full, exactly.
    let r = analyze(
        "class 4 small map",
        WRITES_AFTER_ROLLS,
        "run: p\nargs:\n  m: { 10: 1 }\n",
        &[],
    );
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    assert_eq!(r.results[0]["unexplored"], "0/1");
    adds_up(&r.results[0]);
}

/// Each case rolls 1,000 dice one by one: far more work than a second allows.
const SLOW: &str = "procedure p(n: int) -> int {
  let x = n
  let a = decide a: bool
  if a {
    x = x + 1
  }
  for i in 0..1000 {
    x = x + roll d6
  }
  return x
}
";

const SLOW_SCENARIO: &str = "run: p\nargs: { n: 0 }\n";

/// A run asked for far more than a second holds ended, with one `W0103` saying how many
/// of its cases were done in full; every case's odds add up (the rest unexplored).
fn stopped_in_time(r: &Ran, cases: usize) {
    assert_eq!(r.exit, Some(0), "{:?}", r.diags);
    let w = r.warning("W0103");
    assert!(
        w.contains("the time limit of 1 s for the whole run (--max-seconds)"),
        "{w}"
    );
    assert_eq!(r.results.len(), cases);
    let full = r.results.iter().filter(|c| c["stopped"].is_null()).count();
    assert!(full < cases, "every case ran in full");
    if cases > 1 {
        assert!(
            w.ends_with(&format!(": {full} of {cases} cases analyzed in full")),
            "{w}"
        );
    }
    for c in &r.results {
        assert!(c["stopped"].is_null() || c["stopped"] == "W0103", "{c}");
        adds_up(c);
    }
}

#[test]
fn class_5_max_seconds_bounds_a_sweep_as_a_whole() {
    let r = analyze(
        "class 5 sweep",
        SLOW,
        SLOW_SCENARIO,
        &["--sweep", "n=1..100", "--max-seconds", "1"],
    );
    stopped_in_time(&r, 100);
    // A case not begun says so in its header.
    assert!(r.results.iter().any(|c| c["work"]
        .as_str()
        .unwrap()
        .starts_with("not begun; stopped by the time limit")));
}

#[test]
fn class_5_max_seconds_bounds_the_path_walker_decisions_and_scenarios() {
    let r = analyze(
        "class 5 walker",
        SLOW,
        SLOW_SCENARIO,
        &[
            "--engine",
            "paths",
            "--sweep",
            "n=1..50",
            "--max-seconds",
            "1",
        ],
    );
    stopped_in_time(&r, 50);
    let r = analyze(
        "class 5 decide",
        SLOW,
        SLOW_SCENARIO,
        &["--decide", "a", "--sweep", "n=1..20", "--max-seconds", "1"],
    );
    stopped_in_time(&r, 40);
    let r = analyze(
        "class 5 best",
        SLOW,
        SLOW_SCENARIO,
        &["--best", "value >= 700", "--max-seconds", "1"],
    );
    stopped_in_time(&r, 2);
    // Several scenarios: one clock for all of them, a warning for each.
    let args = &[
        "--format",
        "json",
        "analyze",
        "big",
        "big.yaml",
        "b.yaml",
        "--max-seconds",
        "1",
    ];
    let r = run_in(
        "class 5 scenarios",
        SLOW,
        SLOW_SCENARIO,
        |p| write(&p.join("b.yaml"), SLOW_SCENARIO),
        args,
    );
    assert_eq!(r.exit, Some(0), "{:?}", r.diags);
    assert_eq!(r.diags.iter().filter(|(c, _)| c == "W0103").count(), 2);
    r.results.iter().for_each(adds_up);
}

#[test]
fn class_5_max_seconds_bounds_a_diff() {
    let args = &[
        "--format",
        "json",
        "diff",
        "big",
        "variant",
        "big.yaml",
        "--max-seconds",
        "1",
    ];
    let r = run_in(
        "class 5 diff",
        SLOW,
        SLOW_SCENARIO,
        |p| {
            write(
                &p.join("variant/ruleset.yaml"),
                "ruleset: { name: variant }\n",
            );
            write(&p.join("variant/a.rules"), &SLOW.replace("x + 1", "x + 2"));
        },
        args,
    );
    assert_eq!(r.exit, Some(0), "{:?}", r.diags);
    let times: Vec<&(String, String)> = r.diags.iter().filter(|(c, _)| c == "W0103").collect();
    assert!(!times.is_empty(), "{:?}", r.diags);
    assert!(r.stdout.contains("unexplored"), "{}", r.stdout);
}

#[test]
fn class_5_max_seconds_bounds_samples() {
    let r = analyze(
        "class 5 samples",
        SLOW,
        SLOW_SCENARIO,
        &["--samples", "3000000", "--max-seconds", "1"],
    );
    assert_eq!(r.exit, Some(0), "{:?}", r.diags);
    let w = r.warning("W0103");
    // "...(--max-seconds): K of 3000000 samples drawn", K fewer than asked.
    let tail = w.rsplit(": ").next().unwrap();
    let drawn: u64 = tail
        .strip_suffix(" of 3000000 samples drawn")
        .unwrap_or_else(|| panic!("{w}"))
        .parse()
        .unwrap();
    assert!(drawn < 3_000_000, "{w}");
    let c = &r.results[0];
    assert_eq!(c["stopped"], "W0103");
    let work = c["work"].as_str().unwrap();
    assert!(
        work.starts_with(&format!(
            "{drawn} of 3000000 samples from seed 0; stopped by the time limit"
        )),
        "{work}"
    );
    if drawn > 0 {
        // The figures are those of the samples drawn, each with its interval.
        for g in c["groups"].as_array().unwrap() {
            assert!(g["interval"].is_array(), "{g}");
        }
        adds_up(c);
    }
}

/// One text run of `rulesc analyze big big.yaml <args>`: its stdout.
fn text(name: &str, rules: &str, args: &[&str]) -> String {
    let mut all = vec!["analyze", "big", "big.yaml"];
    all.extend_from_slice(args);
    run_in(name, rules, "run: p\n", nothing, &all).stdout
}

#[test]
fn class_9_the_unexplored_line_names_the_limit_reached() {
    // Nothing explodes: a step limit is what cut it.
    let spin = "procedure p() -> int {
  let x = roll 2d6
  for i in 0..10000 {
    for j in 0..10000 {
      x = x + 1
    }
  }
  return x
}
";
    let out = text("class 9 steps", spin, &["--max-steps", "100000"]);
    assert!(
        out.contains("(unexplored: not reached before the limit of 100000 steps (--max-steps))"),
        "{out}"
    );
    assert!(!out.contains("exploding"), "{out}");
    let out = text(
        "class 9 steps, walker",
        spin,
        &["--engine", "paths", "--max-steps", "100000"],
    );
    assert!(
        out.contains("(unexplored: not reached before the limit of 100000 steps (--max-steps))"),
        "{out}"
    );
    // Exploding dice cut at the depth, and nothing else: the depth is named.
    let out = text(
        "class 9 depth",
        "procedure p() -> int { return roll d6! }\n",
        &["--explode-depth", "2"],
    );
    assert!(
        out.contains("(unexplored: exploding dice past 2 explosions)"),
        "{out}"
    );
}

#[test]
fn class_9_the_header_and_the_warning_agree_on_states() {
    let rules = "procedure p() -> int { return roll 3d1000 * 1000 + roll d1000 }\n";
    let r = analyze(
        "class 9 states",
        rules,
        "run: p\n",
        &["--max-states", "10000"],
    );
    let w = r.warning("W0104");
    assert_eq!(
        w,
        "the analysis needed more than 10000 states or outcomes held at once (--max-states)"
    );
    let work = r.results[0]["work"].as_str().unwrap();
    assert!(
        work.ends_with(
            " between statements; stopped by the limit of 10000 states or outcomes held at once (--max-states)"
        ),
        "{work}"
    );
    // A roll with too many totals says so, not "states".
    let r = analyze(
        "class 9 totals",
        "procedure p() -> int { return roll 1000d1000000 }\n",
        "run: p\n",
        &[],
    );
    assert_eq!(
        r.warning("W0104"),
        "the analysis needed more than 250000 distinct totals of one roll (--max-states)"
    );
}

#[test]
fn class_9_quoted_odds_are_read_as_unquoted_ones() {
    let rules = "procedure p() -> int { return roll 2d6 }\n";
    let test = |name: &str, odds: &str| {
        let scenario = format!("run: p\nexpect:\n  odds:\n    7: {odds}\n");
        let args = &["--format", "json", "test", "big.yaml", "--ruleset", "big"];
        run_in(name, rules, &scenario, nothing, args)
    };
    // 7 on 2d6 is 1/6, 16.67%.
    for odds in [
        "16.7% ± 0.1%",
        "\"16.7% ± 0.1%\"",
        "'16.7% ± 0.1%'",
        "\"1/6\"",
        "1/6",
    ] {
        let r = test("class 9 quoted odds", odds);
        assert_eq!(r.exit, Some(0), "{odds}: {:?} {}", r.diags, r.stdout);
        assert!(
            r.stdout.contains("\"status\":\"pass\""),
            "{odds}: {}",
            r.stdout
        );
    }
    // Quoted or not, a wrong figure is a failure, expected against actual, never
    // "not a probability".
    for odds in ["\"8.3% ± 0.1%\"", "8.3% ± 0.1%"] {
        let r = test("class 9 quoted wrong odds", odds);
        assert_eq!(r.exit, Some(1), "{odds}");
        assert!(r.diags.is_empty(), "{odds}: {:?}", r.diags);
        assert!(
            r.stdout.contains(
                "\"actual\":\"1/6 (16.6667%)\",\"at\":\"odds.7\",\"expected\":\"8.3% ± 0.1%\""
            ),
            "{odds}: {}",
            r.stdout
        );
    }
    // Text that is no probability is an error, named without its quotes.
    let r = test("class 9 not odds", "\"often\"");
    assert_eq!(r.exit, Some(1));
    assert_eq!(
        r.diags,
        [(
            "E0406".to_string(),
            "`often` is not a probability".to_string()
        )]
    );
}
