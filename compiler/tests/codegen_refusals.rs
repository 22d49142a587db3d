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

/// What the Rust backend cannot pass is refused by `check` (`E0333`), naming the
/// procedure and the parameter, so that every program that checks also builds.
fn refused(name: &str, rules: &str) -> String {
    let dir = ruleset(name, rules);
    let (p, diags, _) = rulesc::compile_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(p.is_none(), "{name} checks");
    let found: Vec<String> = diags
        .items
        .iter()
        .filter(|d| d.code == "E0333")
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(found.len(), 1, "{name}: {:?}", diags.items);
    found[0].clone()
}

#[test]
fn a_list_parameter_of_records_is_not_changed_in_place() {
    // The interpreter's list is the callee's own, its records the caller's: no Rust
    // reference has that shape.
    let err = refused(
        "records",
        "procedure tick(ws: list<Wound>) { ws[0].progress += 1 }\n",
    );
    assert!(err.contains("`tick`") && err.contains("`ws`"), "{err}");
    let err = refused(
        "passed",
        "procedure heal(w: Wound) { w.progress = 0 }\nprocedure tick(ws: list<Wound>) { heal(ws[0]) }\n",
    );
    assert!(err.contains("`tick`") && err.contains("`ws`"), "{err}");
}

#[test]
fn a_changed_record_is_a_parameter_passed_once_and_not_read_beside() {
    let heal = "procedure heal(w: Wound) { w.progress = 0 }\n";
    let pair = "procedure pair(a: Wound, b: Wound) { a.progress = b.progress }\n";
    let cases = [
        ("fresh", format!("{heal}procedure p() {{ heal(Wound(progress: 1)) }}\n"), "not a parameter of `p`"),
        ("twice", "procedure both(a: Wound, b: Wound) { a.progress = 1\n b.progress = 2 }\nprocedure p(w: Wound) { both(w, w) }\n".to_string(), "passed twice"),
        ("beside", format!("{pair}procedure p(w: Wound) {{ pair(w, w) }}\n"), "read in another argument"),
    ];
    for (name, rules, want) in cases {
        let err = refused(name, &rules);
        assert!(err.contains(want), "{name}: {err}");
    }
    // A parameter, a record inside one, and a local naming one may be changed.
    let ok = format!("{heal}procedure p(x: Wound) {{\n  let me = x\n  heal(me)\n}}\n");
    generate("alias", &ok).expect("generates");
    // So may a record a `let` holds of its own: it is changed in place, as the
    // interpreter changes it (`fixtures/codegen/coverage`: `p_local_changed`).
    let local =
        format!("{heal}procedure p(x: Wound) {{\n  let w = Wound(progress: 2)\n  heal(w)\n}}\n");
    let code = generate("local", &local).expect("generates");
    assert!(
        code.contains("let mut w = ") && code.contains("&mut w"),
        "{code}"
    );
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
