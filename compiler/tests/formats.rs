//! Issue 12 §3, "every command has `--format json`": each command of `rulesc --help`
//! prints JSON on standard output (one object per line; `export`, `analyze` and `diff`
//! one document each, with its schema) and JSON diagnostics on standard error, except
//! the three whose output is for a program that is not JSON's reader (`completions`,
//! `man`, `lsp`: their own errors are JSON lines).

mod run;

use run::{root, rulesc_in};
use serde_json::Value;

/// Every line of `text` is one JSON object.
fn objects(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            assert!(v.is_object(), "{l}");
            v
        })
        .collect()
}

/// The commands `rulesc --help` lists.
fn commands() -> Vec<String> {
    let (code, out, _) = rulesc_in(&root(), &["--help"], &[]);
    assert_eq!(code, 0);
    out.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_command_prints_json_with_format_json() {
    let out = tempfile::tempdir().unwrap();
    let o = |f: &str| out.path().join(f).display().to_string();
    let k = "rules/kingsmark";
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("check", vec!["check".into(), k.into()]),
        (
            "build",
            vec!["build".into(), k.into(), "-o".into(), o("k.rs")],
        ),
        (
            "all",
            vec!["all".into(), "rules".into(), "--out".into(), o("all")],
        ),
        (
            "explain",
            vec!["explain".into(), k.into(), "hit_locations".into()],
        ),
        ("export", vec!["export".into(), k.into()]),
        (
            "book",
            vec![
                "book".into(),
                "rules/hit-strength".into(),
                "-o".into(),
                o("book"),
            ],
        ),
        (
            "schema",
            vec!["schema".into(), "--out".into(), o("schemas")],
        ),
        (
            "trace",
            vec![
                "trace".into(),
                k.into(),
                "examples/kingsmark/aldren.yaml".into(),
            ],
        ),
        ("test", vec!["test".into(), "examples/kingsmark".into()]),
        ("fmt", vec!["fmt".into(), "--check".into(), k.into()]),
        (
            "analyze",
            vec![
                "analyze".into(),
                k.into(),
                "examples/kingsmark/mira_initiative.yaml".into(),
            ],
        ),
        (
            "diff",
            vec![
                "diff".into(),
                k.into(),
                "examples/variants/gritty_kingsmark".into(),
                "examples/kingsmark/mira_initiative.yaml".into(),
            ],
        ),
        (
            "simulate",
            vec![
                "simulate".into(),
                k.into(),
                "examples/kingsmark/fight.yaml".into(),
                "-n".into(),
                "20".into(),
            ],
        ),
    ];
    // Their output is a shell script, a manual page, JSON-RPC: see the reference. `studio`
    // serves until it is stopped: `compiler/tests/studio.rs` holds its JSON line.
    let exempt = ["completions", "man", "lsp", "help", "studio"];
    for command in commands() {
        assert!(
            exempt.contains(&command.as_str()) || cases.iter().any(|(c, _)| *c == command),
            "`rulesc {command}` is not held to `--format json` here"
        );
    }
    for (command, args) in &cases {
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--format", "json"]);
        let (code, stdout, stderr) = rulesc_in(&root(), &args, &[]);
        assert_eq!(code, 0, "{command}: {stderr}");
        if ["export", "analyze", "diff"].contains(command) {
            // One document with a schema, printed for people to read too.
            let v: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{command}: {e}\n{stdout}"));
            assert!(v.is_object(), "{command}");
        } else {
            assert!(!objects(&stdout).is_empty(), "{command}: nothing on stdout");
        }
        objects(&stderr);
    }
}

#[test]
fn simulate_in_json_gives_the_figures_of_the_text_report() {
    let args = [
        "simulate",
        "rules/kingsmark",
        "examples/kingsmark/fight.yaml",
        "-n",
        "200",
        "--seed",
        "3",
    ];
    let (code, text, err) = rulesc_in(&root(), &args, &[]);
    assert_eq!(code, 0, "{err}");
    let (code, json, err) = rulesc_in(&root(), &[&args[..], &["--format", "json"]].concat(), &[]);
    assert_eq!(code, 0, "{err}");
    let v = &objects(&json)[0];
    assert_eq!(v["runs"], 200);
    assert_eq!(v["seed"], 3);
    assert_eq!(v["ruleset"], "kingsmark");
    assert_eq!(v["fight"], "the watch against two brigands");
    // Every run ends one way.
    let wins: u64 = v["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["runs"].as_u64().unwrap())
        .sum();
    let errors: u64 = v["rule_errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["runs"].as_u64().unwrap())
        .sum();
    let ends = wins
        + v["draw"]["runs"].as_u64().unwrap()
        + v["undecided"]["runs"].as_u64().unwrap()
        + errors;
    assert_eq!(ends, 200);
    let counted: u64 = v["rounds"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["runs"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 200);
    // The text shows the same shares, intervals and rounds.
    let pct = |x: &Value| format!("{:.2}%", 100.0 * x.as_f64().unwrap());
    for w in v["wins"].as_array().unwrap() {
        let line = format!(
            "{}  95% [{}, {}]",
            pct(&w["share"]),
            pct(&w["low"]),
            pct(&w["high"])
        );
        let side = w["side"].as_str().unwrap();
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(side) && l.ends_with(&line)),
            "{side}: {line}\n{text}"
        );
    }
    for g in v["report"].as_array().unwrap() {
        let name = g["group"].as_str().unwrap();
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(name) && l.contains(&pct(&g["share"]))),
            "{name}\n{text}"
        );
    }
    let st = &v["rounds"]["stats"];
    let line = format!(
        "rounds: mean {:.2}, median {}, 90th percentile {}, most {}",
        st["mean"].as_f64().unwrap(),
        st["median"],
        st["p90"],
        st["most"]
    );
    assert!(text.contains(&line), "{line}\n{text}");

    // One run traced: the same lines as the text, and how it ended apart.
    let traced = [&args[..], &["--trace", "5"]].concat();
    let (code, text, err) = rulesc_in(&root(), &traced, &[]);
    assert_eq!(code, 0, "{err}");
    let (code, json, err) = rulesc_in(&root(), &[&traced[..], &["--format", "json"]].concat(), &[]);
    assert_eq!(code, 0, "{err}");
    let v = &objects(&json)[0];
    let lines: Vec<&str> = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let text_lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, text_lines[..text_lines.len() - 1]);
    let last = text_lines[text_lines.len() - 1];
    let end = match v["end"].as_str().unwrap() {
        "won" => format!("{} wins", v["winner"].as_str().unwrap()),
        "draw" => "a draw".into(),
        "undecided" => "undecided".into(),
        other => panic!("{other}"),
    };
    assert_eq!(
        last,
        format!("run 5 of seed 3: {end} after {} round(s)", v["rounds"])
    );
}

#[test]
fn usage_mistakes_clap_cannot_see_are_json_lines_too() {
    let k = "rules/kingsmark";
    let s = "examples/kingsmark/mira_initiative.yaml";
    for args in [
        vec!["check", k, "--format", "csv"],
        vec!["analyze", k, s, "--samples", "10", "--best", "tag == Hit"],
        vec!["analyze", k, s, s, "--svg", "x.svg"],
    ] {
        // As text: exit 2, the E0012 diagnostic.
        let (code, out, err) = rulesc_in(&root(), &args, &[]);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains("E0012"), "{args:?}: {err}");
        if args.contains(&"csv") {
            continue;
        }
        let json = [&args[..], &["--format", "json"]].concat();
        let (code, out, err) = rulesc_in(&root(), &json, &[]);
        assert_eq!((code, out.as_str()), (2, ""), "{json:?}: {err}");
        let lines = objects(&err);
        assert_eq!(lines.len(), 1, "{err}");
        assert_eq!(lines[0]["code"]["code"], "E0012", "{err}");
    }
    assert!(
        !root().join("x.svg").exists(),
        "a refused --svg wrote its chart"
    );
}

#[test]
fn analyze_and_diff_take_packs() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("flamberge.yaml");
    // Sir Aldren's stroke, with the homebrew flamberge.
    let aldren = std::fs::read_to_string(root().join("examples/kingsmark/aldren.yaml")).unwrap();
    let text: String = aldren
        .lines()
        .filter(|l| !l.starts_with("ruleset:"))
        .take_while(|l| !l.starts_with("expect:"))
        .map(|l| l.replace("weapon: arming_sword", "weapon: flamberge") + "\n")
        .collect();
    assert!(text.contains("weapon: flamberge"));
    std::fs::write(&scenario, text).unwrap();
    let scenario = scenario.display().to_string();
    let pack = "examples/homebrew/black_forest_armory.yaml";
    let k = "rules/kingsmark";
    let gritty = "examples/variants/gritty_kingsmark";
    // Without the pack, the flamberge is unknown.
    let (code, _, err) = rulesc_in(&root(), &["analyze", k, &scenario], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("flamberge"), "{err}");
    let (code, out, err) = rulesc_in(
        &root(),
        &["analyze", k, &scenario, "--pack", pack, "--by", "tag"],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("EpicFailure"), "{out}");
    // A pack for a ruleset fits its variant: diff applies it to both.
    let (code, _, err) = rulesc_in(&root(), &["diff", k, gritty, &scenario], &[]);
    assert_eq!(code, 1, "{err}");
    let (code, out, err) = rulesc_in(
        &root(),
        &["diff", k, gritty, &scenario, "--pack", pack, "--by", "tag"],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("EpicFailure"), "{out}");
}

/// Issue 29 §5: `trace` and `analyze` in JSON give values as values, not as the text a
/// trace prints: a number as a number, a tag by its name, an outcome's fields as an
/// object (names as a scenario writes them: `RightArm`, where the text says `Right
/// Shoulder & Arm`); the text stays beside them (`result`, `group`).
#[test]
fn trace_and_analyze_json_give_values_as_values() {
    let aldren = "examples/kingsmark/aldren.yaml";
    let hit = |level: &str, location: &str, b: i64| serde_json::json!({ "Hit": { "level": level, "location": location, "box": b } });
    let traces: [(&str, Value, &str); 2] = [
        (
            aldren,
            hit("Moderate", "RightArm", 7),
            "Hit(level: Moderate, location: Right Shoulder & Arm, box: 7)",
        ),
        (
            "examples/kingsmark/joseph_initiative.yaml",
            serde_json::json!(14),
            "14",
        ),
    ];
    for (scenario, value, result) in traces {
        let args = ["--format", "json", "trace", "rules/kingsmark", scenario];
        let (code, out, err) = rulesc_in(&root(), &args, &[]);
        assert_eq!(code, 0, "{err}");
        let doc = &objects(&out)[0];
        assert_eq!(doc["value"], value, "{scenario}");
        assert_eq!(doc["result"], result, "{scenario}");
    }
    // analyze: each group's value, without `--by` and with it (a scale's level by name,
    // a number as a number, a tag that lacks the field by its name).
    let groups = |by: &[&str]| -> Vec<(String, Value)> {
        let mut args = vec!["analyze", "rules/kingsmark", aldren, "--format", "json"];
        args.extend(by);
        let (code, out, err) = rulesc_in(&root(), &args, &[]);
        assert_eq!(code, 0, "{err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        doc["results"][0]["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["group"].as_str().unwrap().to_string(), g["value"].clone()))
            .collect()
    };
    let cases: [(&[&str], &str, Value); 5] = [
        (&[], "Miss", serde_json::json!("Miss")),
        (
            &[],
            "Hit(level: Severe, location: Head, box: 10)",
            hit("Severe", "Head", 10),
        ),
        (
            &["--by", "level"],
            "Moderate",
            serde_json::json!("Moderate"),
        ),
        (&["--by", "box"], "7", serde_json::json!(7)),
        (&["--by", "box"], "Miss", serde_json::json!("Miss")),
    ];
    for (by, group, value) in cases {
        let all = groups(by);
        let found = all.iter().find(|(g, _)| g == group);
        assert_eq!(
            found.map(|(_, v)| v),
            Some(&value),
            "{by:?} {group}: {all:?}"
        );
    }
}
