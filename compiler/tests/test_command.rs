//! `rulesc test`: scenarios held to their `expect:` (issue 12 §1). The shipped examples
//! pass with the books' results; a wrong expectation fails with expected against actual
//! and the trace; `--update` rewrites only what differs; scripts are strict.

mod run;

use run::root;
use std::path::Path;

fn rulesc_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run::rulesc_in(dir, args, &[])
}

/// A scratch folder holding `scenario.yaml` with `text`, its `ruleset:` pointing at the
/// shipped kingsmark.
fn scratch(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let ruleset = root().join("rules/kingsmark");
    let text = format!("ruleset: {}\n{text}", ruleset.display());
    std::fs::write(dir.path().join("scenario.yaml"), text).unwrap();
    dir
}

const JOSEPH: &str = "\
# Joseph rolls 10 on 1d12.
run: roll_initiative
args:
  c: { reflexes: 2, speed: 2 }   # Reflexes +2, Speed +2
dice: [10]
";

/// CI runs this: every shipped scenario passes, and each one expects something.
#[test]
fn rulesc_test_examples_passes() {
    let (code, out, err) = rulesc_in(&root(), &["test", "examples"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("nothing expected"), "{out}");
    for scenario in [
        "examples/kingsmark/aldren.yaml",
        "examples/kingsmark/joseph_initiative.yaml",
        "examples/kingsmark/mira_initiative.yaml",
        "examples/d20-armor-slots/critical_longsword.yaml",
    ] {
        assert!(
            out.lines().any(|l| l == format!("ok      {scenario}")),
            "{scenario} did not pass:\n{out}"
        );
    }
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("test result: ok. "), "{out}");
    assert!(!last.starts_with("test result: ok. 0 passed"), "{out}");
}

#[test]
fn a_wrong_expectation_fails_with_expected_actual_and_the_trace() {
    let dir = scratch(&format!(
        "{JOSEPH}expect:\n  result: 15\n  state:\n    c: {{ initiative_roll: 9 }}\n"
    ));
    let (code, out, _) = rulesc_in(dir.path(), &["test", "."]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAILED  ./scenario.yaml"), "{out}");
    assert!(out.contains("    result: expected 15, got 14"), "{out}");
    assert!(
        out.contains("    state.c.initiative_roll: expected 9, got 10"),
        "{out}"
    );
    // The trace around the first difference (the result): the roll that made it.
    assert!(out.contains("    the trace around `result`:"), "{out}");
    assert!(out.contains("roll d12: 10"), "{out}");
    assert!(
        out.ends_with("test result: FAILED. 0 passed, 1 failed, 0 error(s)\n"),
        "{out}"
    );
}

#[test]
fn update_rewrites_what_differs_and_keeps_the_rest_of_the_file() {
    let text = format!(
        "{JOSEPH}expect:\n  result: 15          # 10 + 2 + 2\n  state:\n    c: {{ initiative_roll: 10, speed: 2 }}\n"
    );
    let dir = scratch(&text);
    let file = dir.path().join("scenario.yaml");
    let before = std::fs::read_to_string(&file).unwrap();
    let (code, out, err) = rulesc_in(dir.path(), &["test", ".", "--update"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("updated ./scenario.yaml (1 expectation(s) rewritten)"),
        "{out}"
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert_eq!(after, before.replace("result: 15 ", "result: 14 "));
    let (code, out, _) = rulesc_in(dir.path(), &["test", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok      ./scenario.yaml"), "{out}");
}

#[test]
fn update_records_the_result_and_the_changed_state_where_nothing_is_expected() {
    let dir = scratch(JOSEPH);
    let (code, out, _) = rulesc_in(dir.path(), &["test", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("ok      ./scenario.yaml (nothing expected)"),
        "{out}"
    );
    let (code, out, _) = rulesc_in(dir.path(), &["test", ".", "--update"]);
    assert_eq!(code, 0, "{out}");
    let after = std::fs::read_to_string(dir.path().join("scenario.yaml")).unwrap();
    assert!(
        after.ends_with(&format!(
            "{JOSEPH}expect:\n  result: 14\n  state:\n    c: {{ initiative_roll: 10 }}\n"
        )),
        "{after}"
    );
    let (code, out, _) = rulesc_in(dir.path(), &["test", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok      ./scenario.yaml\n"), "{out}");
}

#[test]
fn an_outcome_is_held_by_tag_and_by_the_fields_it_names() {
    for (expect, code, line) in [
        ("result: Hit", 0, "ok      ./scenario.yaml"),
        (
            "result: Miss",
            1,
            "    result: expected Miss, got Hit(level: Moderate",
        ),
        ("result: { Hit: { box: 7 } }", 0, "ok      ./scenario.yaml"),
        (
            "result: { Hit: { box: 6 } }",
            1,
            "    result.box: expected 6, got 7",
        ),
        (
            "result: { Hit: { level: Severe } }",
            1,
            "    result.level: expected Severe, got Moderate",
        ),
        (
            "state: { defender: { wounds: [7] } }",
            0,
            "ok      ./scenario.yaml",
        ),
        (
            "state: { defender: { wounds: [6] } }",
            1,
            "    state.defender.wounds: expected [6], got [7]",
        ),
    ] {
        let text = aldren_with(&format!("expect:\n  {expect}\n"));
        let dir = scratch(&text);
        let (got, out, err) = rulesc_in(dir.path(), &["test", "."]);
        assert_eq!(got, code, "{expect}:\n{out}\n{err}");
        assert!(out.contains(line), "{expect}:\n{out}");
    }
}

/// Sir Aldren's attack (K9x) with `tail` in place of its expectations.
fn aldren_with(tail: &str) -> String {
    let aldren = std::fs::read_to_string(root().join("examples/kingsmark/aldren.yaml")).unwrap();
    let mut out = String::new();
    for l in aldren.lines() {
        if l.starts_with("ruleset:") {
            continue;
        }
        if l.starts_with("expect:") {
            break;
        }
        out.push_str(l);
        out.push('\n');
    }
    out + tail
}

#[test]
fn a_mistaken_expectation_is_an_error_with_a_suggestion() {
    for (expect, code, help) in [
        ("result: Hitt", "E0406", "did you mean `Hit`?"),
        ("result: { Hit: { bx: 7 } }", "E0406", "did you mean `box`?"),
        (
            "state: { defnder: {} }",
            "E0406",
            "did you mean `defender`?",
        ),
        ("reslt: Hit", "E0406", "did you mean `result`?"),
        (
            "result: { Hit: { level: Moderat } }",
            "E0306",
            "did you mean `Moderate`?",
        ),
    ] {
        let dir = scratch(&aldren_with(&format!("expect:\n  {expect}\n")));
        let (got, out, err) = rulesc_in(dir.path(), &["test", "."]);
        assert_eq!(got, 1, "{expect}:\n{out}\n{err}");
        assert!(err.contains(code) && err.contains(help), "{expect}:\n{err}");
        assert!(
            out.contains("error   ./scenario.yaml (1 error(s))"),
            "{expect}:\n{out}"
        );
    }
}

#[test]
fn scripts_are_strict() {
    for (script, message) in [
        ("dice: [10, 4]", "1 scripted face(s) were never rolled"),
        ("dice: []", "the run rolled 1 more die than the 0 scripted"),
        (
            "dice: [10]\ndecisions: { maneuver: [OrdinaryStrike] }",
            "1 scripted answer(s) to `maneuver` were never asked for",
        ),
    ] {
        let text = format!(
            "run: roll_initiative\nargs:\n  c: {{ reflexes: 2, speed: 2 }}\n{script}\nexpect: {{ result: 14 }}\n"
        );
        let dir = scratch(&text);
        let (code, out, err) = rulesc_in(dir.path(), &["test", "."]);
        assert_eq!(code, 1, "{script}:\n{out}");
        assert!(
            err.contains("E0405") && err.contains(message),
            "{script}:\n{err}"
        );
    }
}

#[test]
fn json_gives_one_object_per_scenario_and_a_summary() {
    let dir = scratch(&format!("{JOSEPH}expect: {{ result: 15 }}\n"));
    let (code, out, _) = rulesc_in(dir.path(), &["test", ".", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["status"], "fail");
    assert_eq!(lines[0]["failures"][0]["expected"], "15");
    assert_eq!(lines[0]["failures"][0]["actual"], "14");
    assert_eq!(lines[1]["summary"]["failed"], 1);
    assert_eq!(lines[1]["summary"]["ok"], false);
}

#[test]
fn a_scenario_without_a_ruleset_says_how_to_give_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.yaml"), JOSEPH).unwrap();
    let (code, out, err) = rulesc_in(dir.path(), &["test", "."]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("does not say which ruleset"), "{err}");
    let kingsmark = root().join("rules/kingsmark");
    let (code, out, err) = rulesc_in(
        dir.path(),
        &["test", ".", "--ruleset", kingsmark.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}\n{err}");
}

/// The trace shown on a failure holds the line that made the difference (issue 29 §5):
/// the line that gave the field the value it ended with, even when it is a local of
/// another name (`let wound = level + armor..` before `Hit(level: wound, ..)`), with
/// the line after it. (`testing::tests` holds the other cases: a later assignment, a
/// record's field.)
#[test]
fn a_failures_trace_holds_the_line_that_made_the_difference() {
    {
        let (expect, line, after) = (
            "result: { Hit: { level: Severe } }",
            "let wound = level + armor_rating(",
            "if wound < Minor: no",
        );
        let text = aldren_with(&format!("expect:\n  {expect}\n"));
        let dir = scratch(&text);
        let (code, out, err) = rulesc_in(dir.path(), &["test", "."]);
        assert_eq!(code, 1, "{expect}:\n{out}\n{err}");
        let window: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.contains("the trace around"))
            .skip(1)
            .take_while(|l| l.starts_with("      "))
            .collect();
        let at = window.iter().position(|l| l.contains(line));
        assert!(
            at.is_some(),
            "{expect}: no `{line}` in\n{}",
            window.join("\n")
        );
        assert!(
            window[at.unwrap() + 1].contains(after),
            "{expect}:\n{}",
            window.join("\n")
        );
    }
}
