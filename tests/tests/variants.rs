//! Variant rulesets: `extends` a base, `override` what changes, and nothing else moves.

use rulesc::eval::{self, Value};
use rulesc_runtime::{Env, FirstOption, NoTrace, ScriptedDice};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn compile(dir: &str) -> rulesc::ir::Program {
    let (p, diags, _) = rulesc::compile_dir(&root().join(dir));
    p.unwrap_or_else(|| panic!("{dir}: {:?}", diags.items))
}

fn call(p: &rulesc::ir::Program, f: &str, args: Vec<Value>) -> Value {
    let (id, _) = p.function(f).unwrap();
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, NoTrace);
    eval::call(p, &mut env, id, args).unwrap_or_else(|e| panic!("`{f}`: {e}"))
}

fn actions(p: &rulesc::ir::Program, names: &[&str]) -> Value {
    Value::List(std::rc::Rc::new(
        names
            .iter()
            .map(|n| eval::choice(p, "Action", n).unwrap())
            .collect(),
    ))
}

#[test]
fn gritty_sprint_costs_three_and_the_rest_is_unchanged() {
    let base = compile("rules/kingsmark");
    let gritty = compile("examples/variants/gritty_kingsmark");
    let turn = ["Sprint", "Swift"];
    assert_eq!(
        call(&base, "turn_cost", vec![actions(&base, &turn)]).int(),
        6
    );
    assert_eq!(
        call(&gritty, "turn_cost", vec![actions(&gritty, &turn)]).int(),
        5
    );
    // Not overridden: Starring still costs 4.
    assert_eq!(
        call(&gritty, "turn_cost", vec![actions(&gritty, &["Starring"])]).int(),
        4
    );
}

#[test]
fn gritty_concealment_is_one_harsher_in_every_row() {
    let base = compile("rules/kingsmark");
    let gritty = compile("examples/variants/gritty_kingsmark");
    let (b, g) = (
        &base
            .tables
            .iter()
            .find(|t| t.name == "concealment_modifiers")
            .unwrap()
            .rows,
        &gritty
            .tables
            .iter()
            .find(|t| t.name == "concealment_modifiers")
            .unwrap()
            .rows,
    );
    assert_eq!(b.len(), 7);
    for (rb, rg) in b.iter().zip(g.iter()) {
        let (rulesc::ir::Const::Int(x), rulesc::ir::Const::Int(y)) = (&rb.value, &rg.value) else {
            panic!()
        };
        assert_eq!(*y, x + 1);
    }
}

#[test]
fn gritty_sir_aldren_meets_the_lower_critical_threshold() {
    // The book's example in the gritty variant: 11 now meets the sword's Critical
    // Threshold (11), so Minor + 3 stays Critical; the jerkin's -1 leaves a Severe wound.
    let gritty = compile("examples/variants/gritty_kingsmark");
    let trace =
        rulesc::scenario::run_file(&gritty, &root().join("examples/kingsmark/aldren.yaml"), 0)
            .unwrap();
    assert!(
        trace.ends_with("result: Hit(level: Severe, location: Right Shoulder & Arm, box: 10)\n"),
        "{trace}"
    );
    let base = compile("rules/kingsmark");
    let trace =
        rulesc::scenario::run_file(&base, &root().join("examples/kingsmark/aldren.yaml"), 0)
            .unwrap();
    assert!(
        trace.ends_with("result: Hit(level: Moderate, location: Right Shoulder & Arm, box: 7)\n"),
        "{trace}"
    );
}

#[test]
fn explain_shows_where_each_part_came_from() {
    let text = rulesc::explain::explain(
        &root().join("examples/variants/gritty_kingsmark"),
        "arming_sword",
    )
    .unwrap_or_else(|_| panic!());
    assert!(
        text.contains("record arming_sword    defined at kingsmark/equipment.yaml:"),
        "{text}"
    );
    let threshold = text
        .lines()
        .find(|l| l.contains("critical_threshold"))
        .unwrap();
    assert!(
        threshold.contains("critical_threshold: 11")
            && threshold.ends_with("gritty_kingsmark/ruleset.yaml:13"),
        "{text}"
    );
    let skill = text.lines().find(|l| l.contains("skill:")).unwrap();
    assert!(skill.contains("kingsmark/equipment.yaml:"), "{text}");
}

#[test]
fn the_broken_variant_shows_both_positions() {
    let (p, diags, sources) = rulesc::compile_dir(&root().join("examples/variants/broken_variant"));
    assert!(p.is_none());
    let codes: Vec<&str> = diags.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0340", "E0341", "E0306", "E0340"]);
    let mut text = String::new();
    for d in diags.sorted() {
        text.push_str(&rulesc::diag::render(d, &sources, false, 100));
        text.push('\n');
    }
    insta::assert_snapshot!(text);
}

#[test]
fn the_gritty_variant_builds_to_rust_with_its_changes() {
    use rulesc_tests::{gritty_kingsmark as gritty, kingsmark as base};
    assert_eq!(gritty::Weapon::arming_sword().critical_threshold, 11);
    assert_eq!(base::Weapon::arming_sword().critical_threshold, 13);
    assert_eq!(gritty::action_costs(gritty::Action::Sprint), 3);
    assert_eq!(base::action_costs(base::Action::Sprint), 4);
    assert_eq!(
        gritty::concealment_modifiers(gritty::Concealment::Neutral),
        1
    );
    // What the variant does not override is the base's.
    assert_eq!(gritty::action_costs(gritty::Action::Starring), 4);
}
