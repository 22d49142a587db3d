//! Classes 8 and 5: every error a JSON line, control characters shown escaped.

use super::*;

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
