//! The command line's contract: exit 0 when clean, 1 with diagnostics, 2 on usage errors;
//! never 101 (a panic).

// The shared runner (`run::rulesc_in`); its `root` is this file's own, below.
#[allow(dead_code)]
mod run;

use std::path::{Path, PathBuf};
use std::process::Command;

fn rulesc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn check_of_kingsmark_prints_only_a_success_line() {
    let dir = root().join("rules/kingsmark");
    let (code, out, err) = rulesc(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("ok: kingsmark"), "{out}");
}

#[test]
fn every_broken_fixture_exits_1_with_its_code() {
    let broken = root().join("tests/fixtures/broken");
    let mut n = 0;
    for entry in std::fs::read_dir(broken).unwrap() {
        let dir = entry.unwrap().path();
        let code_name = dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .split('_')
            .next()
            .unwrap()
            .to_uppercase();
        let (code, _, err) = rulesc(&["check", dir.to_str().unwrap()]);
        assert_eq!(code, 1, "{}: {err}", dir.display());
        assert!(
            err.contains(&code_name),
            "{}: no {code_name} in\n{err}",
            dir.display()
        );
        n += 1;
    }
    assert!(n >= 15);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(rulesc(&[]).0, 2);
    assert_eq!(rulesc(&["check"]).0, 2);
    assert_eq!(rulesc(&["frobnicate"]).0, 2);
}

#[test]
fn a_missing_folder_is_a_diagnostic_not_a_panic() {
    let (code, _, err) = rulesc(&["check", "/nonexistent/ruleset"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0001"), "{err}");
}

#[test]
fn json_diagnostics_are_one_object_per_line() {
    let dir = root().join("tests/fixtures/broken/e0310_die_table_gap");
    let (code, _, err) = rulesc(&["--format", "json", "check", dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("{\"message\":") && lines[0].ends_with('}'),
        "{err}"
    );
    assert!(lines[0].contains("\"code\":{\"code\":\"E0310\"}"), "{err}");
    assert!(lines[0].contains("\"line_start\":9"), "{err}");
}

#[test]
fn trace_replays_sir_aldren() {
    let (code, out, err) = rulesc(&[
        "trace",
        root().join("rules/kingsmark").to_str().unwrap(),
        root()
            .join("examples/kingsmark/aldren.yaml")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result: Hit(level: Moderate"), "{out}");
}

#[test]
fn a_failed_build_leaves_the_previous_output_as_it_was() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("atomic-build.rs");
    let _ = std::fs::remove_file(&out);
    let good = root().join("rules/kingsmark");
    let (code, _, err) = rulesc(&["build", good.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(&out).unwrap();
    assert!(String::from_utf8_lossy(&before).contains("@generated"));
    let broken = root().join("tests/fixtures/broken/e0310_die_table_gap");
    let (code, _, _) = rulesc(&[
        "build",
        broken.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "the failed build changed the output"
    );
    // No temporary file is left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .contains("atomic-build.rs.rulesc-tmp")
        })
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn analyze_gives_exact_odds_and_reports_the_unexplored_mass() {
    let ruleset = root().join("rules/kingsmark");
    let scenario = root().join("examples/kingsmark/aldren.yaml");
    let (code, out, err) = rulesc(&[
        "analyze",
        ruleset.to_str().unwrap(),
        scenario.to_str().unwrap(),
        "--max-dice",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    // K12: a natural 1 on the attack die is an Epic Failure: exactly one chance in twelve.
    assert!(
        out.lines()
            .any(|l| l.contains(" 1/12 ") && l.ends_with("EpicFailure")),
        "{out}"
    );
    // Exploding d12s are cut at four dice: the rest is reported, not dropped.
    assert!(out.contains("(unexplored:"), "{out}");
    assert_eq!(err, "");
    // Reaching the path limit is a warning, not an error.
    let (code, _, err) = rulesc(&[
        "analyze",
        ruleset.to_str().unwrap(),
        scenario.to_str().unwrap(),
        "--engine",
        "paths",
        "--max-paths",
        "100",
    ]);
    assert_eq!(code, 0);
    assert!(err.contains("W0101"), "{err}");
}

#[test]
fn export_prints_the_merged_ruleset_as_json() {
    let dir = root().join("examples/variants/gritty_kingsmark");
    let (code, out, err) = rulesc(&["export", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["format"], "rulesc-export");
    assert_eq!(v["ruleset"]["name"], "gritty_kingsmark");
    assert_eq!(
        v["records"]["Weapon"]["arming_sword"]["critical_threshold"],
        11
    );

    // A ruleset with errors exports nothing: exit 1, the diagnostics as JSON lines.
    let broken = root().join("tests/fixtures/broken/e0306_unknown_name");
    let (code, out, err) = rulesc(&["export", broken.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(
        err.lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()),
        "{err}"
    );
    assert!(err.contains("E0306"), "{err}");
}

/// `--trace-formulas` only adds lines: every line of the plain trace is there, in order,
/// and between them the formulas the run calls, with their arguments (a record by its
/// type, a fighter by its name), their `if` conditions and their results; for `trace`
/// and for one run of `simulate`. (Lines are compared with their spaces collapsed: the
/// location column is as wide as the widest location; files are named from the current
/// folder, `compiler/`.)
#[test]
fn trace_formulas_adds_the_formulas_steps_to_the_trace() {
    let dir = root().join("rules/kingsmark");
    let dir = dir.to_str().unwrap();
    let scenario = root().join("examples/kingsmark/aldren.yaml");
    let fight = root().join("examples/kingsmark/fight.yaml");
    let lines = |text: &str| -> Vec<String> {
        let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        text.lines().map(words).collect()
    };
    let cases: [(&[&str], &[&str]); 2] = [
        (
            &["trace", dir, scenario.to_str().unwrap()],
            &[
                "../rules/kingsmark/damage.rules:14 net_disadvantage(c: Combatant) =",
                "../rules/kingsmark/damage.rules:14 c: a Combatant",
                "../rules/kingsmark/damage.rules:14 result: 1",
                "../rules/kingsmark/initiative.rules:5 pain(c: Combatant) =",
            ],
        ),
        (
            &["simulate", dir, fight.to_str().unwrap(), "--trace", "0"],
            &[
                "../rules/kingsmark/fight.rules:97 out(c) = incapacitated(c)",
                "../rules/kingsmark/fight.rules:97 c: Aldren",
                "../rules/kingsmark/fight.rules:13 incapacitated(c: Combatant) =",
                "../rules/kingsmark/fight.rules:13 c: a Combatant",
                "../rules/kingsmark/fight.rules:9 turn_order(c: Combatant) =",
            ],
        ),
    ];
    for (args, wants) in cases {
        let (code, plain, err) = rulesc(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let (code, full, err) = rulesc(&[args, &["--trace-formulas"]].concat());
        assert_eq!(code, 0, "{args:?}: {err}");
        let (plain, full) = (lines(&plain), lines(&full));
        let mut rest = full.iter();
        for line in &plain {
            assert!(
                rest.any(|l| l == line),
                "{args:?}: `{line}` is missing or out of order:\n{full:#?}"
            );
        }
        let added: Vec<&String> = full.iter().filter(|l| !plain.contains(l)).collect();
        for want in wants {
            assert!(
                added.iter().any(|l| l == want),
                "{args:?}: no `{want}` among the added lines:\n{added:#?}"
            );
        }
        assert!(full.len() > plain.len() + 10, "{args:?}: {full:#?}");
    }
}

/// `simulate --trace-formulas` traces one run: without `--trace` it is a usage error.
#[test]
fn simulate_trace_formulas_needs_a_run_to_trace() {
    let dir = root().join("rules/kingsmark");
    let fight = root().join("examples/kingsmark/fight.yaml");
    let args = ["simulate", dir.to_str().unwrap(), fight.to_str().unwrap()];
    let (code, _, err) = rulesc(&[&args[..], &["--trace-formulas"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--trace <N>"), "{err}");
}

/// A misspelled top-level key of a scenario, a fight file or a content pack is `E0103` at
/// its line, naming the file's kind, with the key it was meant to be; nothing runs.
#[test]
fn a_misspelled_top_level_key_is_e0103_with_the_key_meant() {
    let dir = tempfile::tempdir().unwrap();
    let km = root().join("rules/kingsmark");
    let km = km.to_str().unwrap();
    let edit = |from: &str, name: &str, good: &str, bad: &str| {
        let text = std::fs::read_to_string(root().join(from)).unwrap();
        assert!(text.contains(good), "{from} has no `{good}`");
        let path = dir.path().join(name);
        std::fs::write(&path, text.replacen(good, bad, 1)).unwrap();
        path.to_str().unwrap().to_string()
    };
    let scenario = edit(
        "examples/kingsmark/aldren.yaml",
        "s.yaml",
        "\nargs:",
        "\nargz:",
    );
    let fight = edit(
        "examples/kingsmark/fight.yaml",
        "f.yaml",
        "\nrounds:",
        "\nrouns:",
    );
    let pack = edit(
        "examples/homebrew/black_forest_armory.yaml",
        "p.yaml",
        "\nrecords:",
        "\nrecord:",
    );
    let cases: [(Vec<&str>, &str, &str); 3] = [
        (
            vec!["trace", km, &scenario],
            "`argz` in a scenario",
            "`args`",
        ),
        (
            vec!["simulate", km, &fight, "-n", "10"],
            "`rouns` in a fight file",
            "`rounds`",
        ),
        (
            vec!["check", "--ruleset", km, &pack],
            "`record` in a content pack",
            "`records`",
        ),
    ];
    for (args, what, meant) in cases {
        let (code, out, err) = rulesc(&args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(err.contains("E0103"), "{args:?}: {err}");
        assert!(
            err.contains(&format!("unknown key {what}")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&format!("did you mean {meant}?")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn format_text_is_the_default_output() {
    for (dir, exit) in [
        ("rules/kingsmark", 0),
        ("tests/fixtures/broken/e0101_yaml_syntax", 1),
    ] {
        let dir = root().join(dir);
        let dir = dir.to_str().unwrap();
        let default = rulesc(&["check", dir]);
        assert_eq!(default.0, exit, "{dir}: {}", default.2);
        let text = rulesc(&["check", dir, "--format", "text"]);
        let human = rulesc(&["check", dir, "--format", "human"]);
        assert_eq!(text, default, "{dir}");
        assert_eq!(human, default, "{dir}");
    }
}

/// Every page `rulesc man` refers to (`rulesc-check(1)`, ...) is one `rulesc man --out`
/// writes, and the page on standard output is the one it writes as `rulesc.1`.
#[test]
fn man_out_writes_every_page_the_manual_refers_to() {
    let dir = std::env::temp_dir().join(format!("rulesc-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = rulesc(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    let main = std::fs::read_to_string(dir.join("rulesc.1")).unwrap();
    let (code, stdout, _) = rulesc(&["man"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, main);
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(out.lines().count(), pages.len(), "{out}");
    // Each `rulesc-<command>(1)` the pages name (roff may escape the `-` as `\-`).
    let mut named = 0;
    for page in &pages {
        let text = std::fs::read_to_string(dir.join(page))
            .unwrap()
            .replace("\\-", "-");
        for (i, _) in text.match_indices("(1)") {
            let start = text[..i]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |s| s + 1);
            let name = &text[start..i];
            if name.starts_with("rulesc") {
                assert!(
                    pages.contains(&format!("{name}.1")),
                    "{page} names {name}(1)"
                );
                named += 1;
            }
        }
    }
    assert!(named >= 10, "{named}");
    assert!(pages.contains(&"rulesc-check.1".to_string()), "{pages:?}");
    let check = std::fs::read_to_string(dir.join("rulesc-check.1")).unwrap();
    assert!(check.contains("rulesc\\-check") || check.contains("rulesc-check"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rulesc` run in `dir` (the current folder the paths it prints are relative to).
fn rulesc_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run::rulesc_in(dir, args, &[("NO_COLOR", "1")])
}

/// One rule for the paths the command line prints: from the current folder, in JSON
/// diagnostics as in text, in `explain` and in `export`.
#[test]
fn every_printed_path_is_from_the_current_folder() {
    let here = root().join("tests");
    let dir = "fixtures/broken/e0101_yaml_syntax";
    let (code, _, text) = rulesc_in(&here, &["check", dir]);
    assert_eq!(code, 1, "{text}");
    let (code, _, json) = rulesc_in(&here, &["--format", "json", "check", dir]);
    assert_eq!(code, 1, "{json}");
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let file = first["spans"][0]["file_name"].as_str().unwrap();
    assert_eq!(file, format!("{dir}/ruleset.yaml"));
    assert!(text.contains(&format!("[{file}:")), "{text}");

    let (code, out, err) = rulesc_in(&root(), &["explain", "rules/kingsmark", "hit_locations"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("defined at rules/kingsmark/"), "{out}");
    let (code, out, err) = rulesc_in(&root(), &["export", "rules/kingsmark", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let export: serde_json::Value = serde_json::from_str(&out).unwrap();
    let at = export["tables"]["hit_locations"]["defined_at"]
        .as_str()
        .unwrap();
    assert!(at.starts_with("rules/kingsmark/"), "{at}");
}

/// Traces cite files as every path the command line prints, from the current folder
/// (issue 29 §5): `trace` (text and JSON), `simulate --trace`, `diff`'s origins and the
/// trace `test` shows on a failure, run from the repository's root and from `rules/`.
/// The code `build` generates keeps the check's names (`kingsmark/melee.rules`), the
/// same wherever it is built.
#[test]
fn traces_name_files_from_the_current_folder() {
    let root = root().canonicalize().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let failing = scratch.path().join("joseph.yaml");
    std::fs::write(
        &failing,
        format!(
            "ruleset: {}\nrun: roll_initiative\nargs:\n  c: {{ reflexes: 2, speed: 2 }}\ndice: [10]\nexpect:\n  result: 15\n",
            root.join("rules/kingsmark").display()
        ),
    )
    .unwrap();
    let failing = failing.to_str().unwrap();
    let aldren = ["examples/kingsmark/aldren.yaml"];
    let gritty = "examples/variants/gritty_kingsmark";
    let cases: &[(&str, &[&str], &str)] = &[
        (".", &["trace", "rules/kingsmark", aldren[0]], "rules/"),
        (
            "rules",
            &["trace", "kingsmark", "../examples/kingsmark/aldren.yaml"],
            "",
        ),
        (
            "examples",
            &["trace", "../rules/kingsmark", "kingsmark/aldren.yaml"],
            "../rules/",
        ),
        (
            ".",
            &["--format", "json", "trace", "rules/kingsmark", aldren[0]],
            "rules/",
        ),
        (
            ".",
            &[
                "simulate",
                "rules/kingsmark",
                "examples/kingsmark/fight.yaml",
                "--trace",
                "0",
            ],
            "rules/",
        ),
        (
            "rules",
            &[
                "simulate",
                "kingsmark",
                "../examples/kingsmark/fight.yaml",
                "--trace",
                "0",
            ],
            "",
        ),
        (
            ".",
            &["diff", "rules/kingsmark", gritty, aldren[0]],
            "rules/",
        ),
        (".", &["test", failing], "rules/"),
    ];
    for (dir, args, want) in cases {
        let (_, out, err) = run::rulesc_in(&root.join(dir), args, &[]);
        // Every file of kingsmark cited with a line (`<path>/kingsmark/x.rules:12`) is
        // cited by its path from `dir`.
        let cites: Vec<&str> = out
            .split(|c: char| c.is_whitespace() || "\"(,".contains(c))
            .filter(|w| w.contains(".rules:") || w.contains(".yaml:"))
            .filter(|w| w.starts_with("kingsmark/") || w.contains("/kingsmark/"))
            .collect();
        assert!(
            cites.len() > 1,
            "{dir}: {args:?}: no file cited:\n{out}\n{err}"
        );
        for at in &cites {
            assert!(
                at.strip_prefix(want)
                    .is_some_and(|rest| rest.starts_with("kingsmark/")),
                "{dir}: {args:?}: `{at}` is not `{want}kingsmark/..`:\n{out}"
            );
        }
    }
    let (code, out, err) =
        run::rulesc_in(&root, &["diff", "rules/kingsmark", gritty, aldren[0]], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("(was 13)    {gritty}/ruleset.yaml:13")),
        "{out}"
    );
    let built = scratch.path().join("kingsmark.rs");
    let (code, _, err) = run::rulesc_in(
        &root,
        &["build", "rules/kingsmark", "-o", built.to_str().unwrap()],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let code = std::fs::read_to_string(&built).unwrap();
    assert!(
        code.contains("\"kingsmark/melee.rules\""),
        "no site of melee.rules"
    );
    assert!(
        !code.contains("rules/kingsmark/"),
        "a site named from the current folder"
    );
}

/// A scale of `levels` levels `L0..`, a track of its top three levels that escalates, and
/// a procedure filling the track three times at the second level from the top and
/// stepping levels past both ends; a scenario running it. Returns the ruleset folder
/// and the scenario.
fn wide_scale(levels: usize) -> (PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(format!("scale_{levels}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("r")).unwrap();
    let names: Vec<String> = (0..levels).map(|i| format!("L{i}")).collect();
    let (top, below) = (levels - 1, levels - 2);
    let yaml = format!(
        "ruleset: {{ name: wide }}
scales:
  S: [{}]
types:
  F:
    wounds: {{ type: Wounds, default: [] }}
tracks:
  Wounds:
    scale: S
    boxes:
      - {{ level: L{} }}
      - {{ level: L{below} }}
      - {{ level: L{top} }}
    when_full: escalate
records:
  F:
    mira: {{}}
",
        names.join(", "),
        levels - 3,
    );
    let rules = format!(
        "procedure hit(f: F) -> int {{
  let a = fill f.wounds at L{below}
  let b = fill f.wounds at L{below}
  let c = fill f.wounds at L{below}
  if L{below} + 5 == L{top} and L0 - 1 == L0 and L{top} - 1 == L{below} {{
    return a * 100 + b * 10 + c
  }}
  return -1
}}
"
    );
    std::fs::write(root.join("r/ruleset.yaml"), yaml).unwrap();
    std::fs::write(root.join("r/wide.rules"), rules).unwrap();
    std::fs::write(root.join("s.yaml"), "run: hit\nargs: { f: mira }\n").unwrap();
    (root.join("r"), root.join("s.yaml"))
}

/// The runtime keeps a level as a byte (track boxes, `level ± n`), so a scale holds at
/// most 255 levels: one of exactly 255 checks and runs at its top (the box at the
/// second level from the top, then the top one by escalation, then none; a step past
/// either end stays at it), and one of 256 is `E0360` at check time, exit 1, no panic.
#[test]
fn a_scale_holds_at_most_255_levels_and_works_at_its_top() {
    let (dir, scenario) = wide_scale(255);
    let (code, out, err) = rulesc(&["trace", dir.to_str().unwrap(), scenario.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("fill f.wounds at L253  ->  box 3 (L254)"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("result: 230"), "{out}");

    let (dir, scenario) = wide_scale(256);
    for args in [
        vec!["check", dir.to_str().unwrap()],
        vec!["trace", dir.to_str().unwrap(), scenario.to_str().unwrap()],
    ] {
        let (code, _, err) = rulesc(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("E0360"), "{err}");
        assert!(err.contains("`S` has 256 levels, more than 255"), "{err}");
    }
}
