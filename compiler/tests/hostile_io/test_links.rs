//! Issue 28, class 7: no false green in `rulesc test`. A link in a folder of scenarios is
//! followed when it leads inside the project and refused (`E0008`, as `check` refuses a
//! ruleset's) when it leads out or nowhere; a path named that gives no scenario at all
//! is an error (`E0412`), never "ok. 0 passed".

use super::*;

/// A scenario against `r/`, from a folder one level down, that fails: its run gives 27.
const FAILING: &str = "ruleset: ../r
run: attack
args: { bonus: 1, weapon: sword, picks: [10, 20] }
dice: [4]
decisions: { guard: [Low], pick: [1] }
expect: { result: 99 }
";

/// The same scenario, expecting what it gives.
const PASSING: &str = "ruleset: ../r
run: attack
args: { bonus: 1, weapon: sword, picks: [10, 20] }
dice: [4]
decisions: { guard: [Low], pick: [1] }
expect: { result: 27 }
";

/// `real/fail.yaml`, and `t/` whose only scenario is a link to it.
fn only_a_link_to_a_failure(p: &Path) {
    write(&p.join("real/fail.yaml"), FAILING);
    std::fs::create_dir_all(p.join("t")).unwrap();
    link("../real/fail.yaml", &p.join("t/fail.yaml"));
}

#[test]
fn class_7_links_and_empty_folders_are_never_a_pass() {
    check_all(&[
        case(
            "a folder whose only scenario is a link to a failing one",
            only_a_link_to_a_failure,
            &["test", "t"],
            1,
            "",
            "",
        ),
        case(
            "a link to a folder of failing scenarios",
            |p| {
                write(&p.join("real/fail.yaml"), FAILING);
                std::fs::create_dir_all(p.join("t")).unwrap();
                link("../real", &p.join("t/more"));
            },
            &["test", "t"],
            1,
            "",
            "",
        ),
        case(
            "a scenario link leading outside the project",
            |p| {
                std::fs::create_dir_all(p.join("t")).unwrap();
                link("../../outside/secret.yaml", &p.join("t/s.yaml"));
            },
            &["test", "t"],
            1,
            "E0008",
            "t/s.yaml",
        ),
        case(
            "a folder link leading outside the project",
            |p| {
                write(&p.join("t/ok.yaml"), PASSING);
                link("../../outside", &p.join("t/ext"));
            },
            &["test", "t"],
            1,
            "E0008",
            "t/ext",
        ),
        case(
            "a scenario link leading nowhere",
            |p| {
                write(&p.join("t/ok.yaml"), PASSING);
                link("gone.yaml", &p.join("t/lost.yaml"));
            },
            &["test", "t"],
            1,
            "E0008",
            "t/lost.yaml",
        ),
        case(
            "an empty folder",
            |p| std::fs::create_dir_all(p.join("t")).unwrap(),
            &["test", "t"],
            1,
            "E0412",
            "t",
        ),
        case(
            "a folder of YAML that holds no scenario",
            |p| write(&p.join("t/notes.yaml"), "notes: [a, b]\n"),
            &["test", "t"],
            1,
            "E0412",
            "t",
        ),
        case(
            "a second folder with no scenario beside one with",
            |p| {
                write(&p.join("t/ok.yaml"), PASSING);
                std::fs::create_dir_all(p.join("u/deeper")).unwrap();
            },
            &["test", "t", "u"],
            1,
            "E0412",
            "u",
        ),
        case(
            "a file named that is not a scenario",
            nothing,
            &["test", "pack.yaml"],
            1,
            "E0412",
            "pack.yaml",
        ),
        case(
            "a loop of folder links ends",
            |p| {
                write(&p.join("t/ok.yaml"), PASSING);
                link(".", &p.join("t/here"));
                link("../t", &p.join("t/again"));
            },
            &["test", "t"],
            0,
            "",
            "",
        ),
        case(
            "a scenario deeper than the search goes",
            |p| {
                write(&p.join("t/ok.yaml"), PASSING);
                let deep: PathBuf = (0..33).map(|_| "d").collect();
                write(&p.join("t").join(deep).join("s.yaml"), PASSING);
            },
            &["test", "t"],
            1,
            "E0003",
            "t/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d",
        ),
        case(
            "a link to a passing scenario",
            |p| {
                write(&p.join("real/ok.yaml"), PASSING);
                std::fs::create_dir_all(p.join("t")).unwrap();
                link("../real/ok.yaml", &p.join("t/ok.yaml"));
            },
            &["test", "t"],
            0,
            "",
            "",
        ),
    ]);
}

/// The link's scenario runs, and its failure is shown under the link's name; in JSON,
/// the summary counts it.
#[test]
fn class_7_a_linked_scenario_runs_and_fails() {
    let root = sandbox("linked scenario shown");
    let proj = root.join("proj");
    only_a_link_to_a_failure(&proj);
    let out = bounded::rulesc(&["test", "t"], Some(&proj));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAILED  t/fail.yaml"), "{text}");
    assert!(text.contains("result: expected 99, got 27"), "{text}");
    assert!(
        text.contains("test result: FAILED. 0 passed, 1 failed"),
        "{text}"
    );
    let out = bounded::rulesc(&["--format", "json", "test", "t"], Some(&proj));
    let text = String::from_utf8_lossy(&out.stdout);
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap_or_default()).unwrap();
    assert_eq!(last["summary"]["failed"], 1, "{text}");
    assert_eq!(last["summary"]["ok"], false, "{text}");
}

/// `--update` through a link rewrites the scenario it leads to and leaves the link a
/// link (an output's link is replaced, never followed: the target is the file written).
#[test]
fn class_7_update_through_a_link_rewrites_its_target() {
    let root = sandbox("update through a link");
    let proj = root.join("proj");
    only_a_link_to_a_failure(&proj);
    let out = bounded::rulesc(&["test", "--update", "t"], Some(&proj));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("updated t/fail.yaml"), "{text}");
    let meta = std::fs::symlink_metadata(proj.join("t/fail.yaml")).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    let target = std::fs::read_to_string(proj.join("real/fail.yaml")).unwrap();
    assert!(target.contains("result: 27"), "{target}");
}
