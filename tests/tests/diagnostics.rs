//! Every broken ruleset under `tests/fixtures/broken/` fails to check with the
//! diagnostic its folder is named after (`e0310_die_table_gap` → code E0310), rendered as
//! a writer sees it (no colour, 100 columns) and kept as a snapshot. Rulesets under
//! `tests/fixtures/warnings/` check with warnings only.

use std::path::Path;

fn render(dir: &Path) -> (bool, Vec<&'static str>, String) {
    let (program, diags, sources) = rulesc::compile_dir(dir);
    let mut text = String::new();
    let mut codes = Vec::new();
    for d in diags.sorted() {
        codes.push(d.code);
        text.push_str(&rulesc::diag::render(d, &sources, false, 100));
        text.push('\n');
    }
    (program.is_some(), codes, text)
}

/// The code a fixture folder is named after: `e0310_die_table_gap` → `E0310`.
fn expected_code(dir: &Path) -> String {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    name.split('_').next().unwrap().to_uppercase()
}

#[test]
fn broken_rulesets_report_their_diagnostic() {
    insta::glob!("../fixtures", "broken/*/ruleset.yaml", |manifest| {
        let dir = manifest.parent().unwrap();
        let (ok, codes, text) = render(dir);
        assert!(!ok, "{} should not check clean", dir.display());
        let want = expected_code(dir);
        assert!(
            codes.contains(&want.as_str()),
            "{}: expected {want}, got {codes:?}\n{text}",
            dir.display()
        );
        insta::assert_snapshot!(text);
    });
}

#[test]
fn at_least_fifteen_broken_rulesets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/broken");
    let n = std::fs::read_dir(dir).unwrap().count();
    assert!(n >= 15, "only {n} broken fixtures");
}

#[test]
fn warnings_do_not_fail_the_check() {
    insta::glob!("../fixtures", "warnings/*/ruleset.yaml", |manifest| {
        let dir = manifest.parent().unwrap();
        let (ok, codes, text) = render(dir);
        assert!(
            ok,
            "{} should check with warnings only:\n{text}",
            dir.display()
        );
        let want = expected_code(dir);
        assert!(
            codes.contains(&want.as_str()),
            "{}: expected {want}, got {codes:?}",
            dir.display()
        );
        insta::assert_snapshot!(text);
    });
}

#[test]
fn shipped_rulesets_check_without_any_diagnostic() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
    let mut seen = 0;
    for entry in std::fs::read_dir(&rules).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.join("ruleset.yaml").exists() {
            continue;
        }
        seen += 1;
        let (ok, codes, text) = render(&dir);
        assert!(ok && codes.is_empty(), "{}:\n{text}", dir.display());
    }
    assert!(seen >= 1);
}

/// A fixture named `..._no_cascade` makes one mistake that other definitions depend on:
/// the writer hears of the mistake once, not again at each place that uses it.
#[test]
fn one_mistake_is_reported_once() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/broken");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.to_string_lossy().ends_with("_no_cascade") {
            continue;
        }
        seen += 1;
        let (_, codes, text) = render(&dir);
        assert_eq!(codes.len(), 1, "{}:\n{text}", dir.display());
        assert!(
            !text.contains("? "),
            "an error type leaked into a message:\n{text}"
        );
    }
    assert!(seen >= 2);
}
