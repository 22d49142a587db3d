//! A content pack round-trips through check, build and trace: what `rulesc check
//! --ruleset`, `rulesc build --pack`, `rulesc trace --pack` and `Builder::pack` call
//! (`pack::check_packs`, `pack::apply`, then `codegen::generate` or `scenario::run_file`).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const PACK: &str = "examples/homebrew/black_forest_armory.yaml";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesc-pack-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const SCENARIO: &str = "run: melee_attack
args:
  attacker: { physical_performance: 1, skills: { ArmedCombat: 2 } }
  defender: forest_troll
  weapon: flamberge
dice: [8, 6, 8]
decisions:
  melee_defence: [DefendArmed]
  maneuver: [OrdinaryStrike]
";

#[test]
fn apply_adds_the_pack_records_after_the_rulesets_own() {
    let (program, diags, _) = rulesc::compile_dir(&root().join("rules/kingsmark"));
    let program = program.unwrap_or_else(|| panic!("{:?}", diags.items));
    let own = program.instances.len();
    let (extended, diags, sources) = rulesc::pack::apply(&program, &[root().join(PACK)]);
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    let extended = extended.expect("the pack applies");
    let names: Vec<&str> = extended.instances[own..]
        .iter()
        .map(|i| i.name.as_str())
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
    // Every span of the extended program points into its sources.
    assert_eq!(extended.sources.files.len(), sources.files.len());
    for i in &extended.instances {
        assert!((i.span.file as usize) < extended.sources.files.len());
    }
    let code = rulesc::codegen::generate(&extended).unwrap();
    assert!(code.contains("pub fn flamberge() -> Self"), "{code}");
    assert!(code.contains("\"forest_troll\" => Some(Self::forest_troll()),"));
}

#[test]
fn a_broken_pack_stops_apply_with_its_diagnostics() {
    let (program, _, _) = rulesc::compile_dir(&root().join("rules/kingsmark"));
    let (extended, diags, _) = rulesc::pack::apply(
        &program.unwrap(),
        &[root().join("examples/homebrew/broken_armory.yaml")],
    );
    assert!(extended.is_none());
    assert_eq!(diags.error_count(), 7);
}

#[test]
fn check_build_and_trace() {
    let (program, _, _) = rulesc::compile_dir(&root().join("rules/kingsmark"));
    let program = program.unwrap();
    // check (`rulesc check --ruleset rules/kingsmark <pack>`)
    let (packs, diags, _) = rulesc::pack::check_packs(&program, &[root().join(PACK)]);
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    assert_eq!(packs[0].records.len(), 4);
    // build (`rulesc build rules/kingsmark -o <file> --pack <pack>`, `Builder::pack`)
    let (extended, _, _) = rulesc::pack::apply(&program, &[root().join(PACK)]);
    let extended = extended.expect("the pack applies");
    let code = rulesc::codegen::generate(&extended).unwrap();
    assert!(code.contains("pub fn flamberge() -> Self"));
    assert!(code.contains("pub fn forest_troll() -> Self"));
    // trace (`rulesc trace rules/kingsmark <scenario> --pack <pack>`)
    let scenario = temp("flamberge.yaml");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let with = rulesc::scenario::run_file(&extended, &scenario, 0);
    let without = rulesc::scenario::run_file(&program, &scenario, 0);
    let _ = std::fs::remove_dir_all(scenario.parent().unwrap());
    let trace = with.unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    assert!(trace.contains("result: "), "{trace}");
    // Without the pack, the scenario names records that do not exist.
    let Err((diags, _)) = without else {
        panic!("the scenario runs without its pack")
    };
    let msgs: Vec<&str> = diags.items.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.contains(&"no Weapon record is named `flamberge`"),
        "{msgs:?}"
    );
}
