//! What the Rust backend refuses, with a message naming the procedure and the parameter,
//! rather than generating Rust that would not build or would differ from the
//! interpreter.

use std::path::PathBuf;

fn ruleset(name: &str, rules: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesc-refusals-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let yaml = "ruleset:\n  name: scratch\n  title: Scratch\ntypes:\n  Wound:\n    progress: int\n";
    std::fs::write(dir.join("ruleset.yaml"), yaml).expect("manifest");
    std::fs::write(dir.join("rules.rules"), rules).expect("rules");
    dir
}

fn generate(name: &str, rules: &str) -> Result<String, String> {
    let dir = ruleset(name, rules);
    let (p, diags, _) = rulesc::compile_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let p = p.unwrap_or_else(|| panic!("{name} does not check: {:?}", diags.items));
    rulesc::codegen::generate(&p)
}

#[test]
fn a_list_parameter_of_records_is_not_changed_in_place() {
    // The interpreter's list is the callee's own, its records the caller's: no Rust
    // reference has that shape.
    let err = generate(
        "records",
        "procedure tick(ws: list<Wound>) { ws[0].progress += 1 }\n",
    )
    .expect_err("refused");
    assert!(err.contains("`tick`") && err.contains("`ws`"), "{err}");
    let err = generate(
        "passed",
        "procedure heal(w: Wound) { w.progress = 0 }\nprocedure tick(ws: list<Wound>) { heal(ws[0]) }\n",
    )
    .expect_err("refused");
    assert!(err.contains("`tick`") && err.contains("`ws`"), "{err}");
}

#[test]
fn a_list_parameter_of_values_is_the_procedures_own_copy() {
    let code = generate(
        "ints",
        "procedure bump(xs: list<int>) -> int {\n  xs[0] = 5\n  return xs[0]\n}\n",
    )
    .expect("generates");
    assert!(code.contains("let mut xs = xs.to_vec();"), "{code}");
}
