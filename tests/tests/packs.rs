//! Homebrew content packs checked against the record types of their ruleset.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn check(
    pack: &str,
) -> (
    Vec<rulesc::pack::Pack>,
    rulesc::diag::Diagnostics,
    rulesc::source::Sources,
) {
    let (program, diags, _) = rulesc::compile_dir(&root().join("rules/kingsmark"));
    let program = program.unwrap_or_else(|| panic!("{:?}", diags.items));
    rulesc::pack::check_packs(
        &program,
        &[PathBuf::from(format!("../examples/homebrew/{pack}"))],
    )
}

#[test]
fn the_good_pack_checks_clean_and_keeps_every_record() {
    let (packs, diags, _) = check("black_forest_armory.yaml");
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    let names: Vec<&str> = packs[0]
        .records
        .iter()
        .map(|(_, n, _)| n.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "flamberge",
            "boar_spear",
            "boiled_leather_greaves",
            "forest_troll"
        ]
    );
}

#[test]
fn the_broken_pack_reports_every_mistake_at_its_line() {
    let (_, diags, sources) = check("broken_armory.yaml");
    let codes: Vec<(&str, u32)> = diags
        .sorted()
        .iter()
        .map(|d| (d.code, sources.position(d.span).1))
        .collect();
    // typo'd field, unknown level, unknown damage type, missing field, clash with the
    // ruleset's own record, out-of-range Speed, unknown record type.
    assert_eq!(
        codes,
        [
            ("E0103", 11),
            ("E0306", 13),
            ("E0306", 15),
            ("E0106", 17),
            ("E0301", 19),
            ("E0312", 22),
            ("E0303", 23)
        ]
    );
    let mut text = String::new();
    for d in diags.sorted() {
        text.push_str(&rulesc::diag::render(d, &sources, false, 100));
        text.push('\n');
    }
    insta::assert_snapshot!(text);
}
