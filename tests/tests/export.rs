//! `rulesc export`: every shipped ruleset, variant and content pack exports JSON that
//! validates against `schemas/export.schema.json`, merged as the checker merges it
//! (`extends`, `override`, packs).

use rulesc::ir::Program;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn program(dir: &Path) -> Program {
    let (p, diags, _) = rulesc::compile_dir(dir);
    p.unwrap_or_else(|| panic!("{}: {:?}", dir.display(), diags.items))
}

/// The folders under `dir` that hold a `ruleset.yaml` and check.
fn rulesets(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|d| d.join("ruleset.yaml").is_file() && !d.ends_with("broken_variant"))
        .collect();
    out.sort();
    out
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas/export.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft7::new(&schema).expect("a valid draft-07 schema")
}

fn assert_valid(v: &jsonschema::Validator, what: &str, value: &Value) {
    let errors: Vec<String> = v
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn every_shipped_ruleset_exports_json_its_schema_accepts() {
    let v = validator();
    let mut dirs = rulesets(&root().join("rules"));
    assert_eq!(dirs.len(), 5, "{dirs:?}");
    dirs.extend(rulesets(&root().join("examples/variants")));
    for dir in &dirs {
        let p = program(dir);
        let value = rulesc::export::export(&p);
        assert_valid(&v, &dir.display().to_string(), &value);
        assert_eq!(value["ruleset"]["name"], json!(p.name));
        // Every definition is there, once.
        for (section, n) in [
            ("types", p.records.len()),
            ("tables", p.tables.len()),
            ("constants", p.constants.len()),
            ("outcomes", p.outcomes.len()),
            ("tracks", p.tracks.len()),
        ] {
            assert_eq!(
                value[section].as_object().unwrap().len(),
                n,
                "{section} of {}",
                p.name
            );
        }
        let choices =
            value["scales"].as_object().unwrap().len() + value["enums"].as_object().unwrap().len();
        assert_eq!(choices, p.choices.len(), "{}", p.name);
        let functions = value["formulas"].as_object().unwrap().len()
            + value["procedures"].as_object().unwrap().len();
        assert_eq!(functions, p.functions.len(), "{}", p.name);
        // The schema does reject what is not an export.
        let mut wrong = value.clone();
        wrong["ruleset"]["edition"] = json!(2);
        assert!(!v.is_valid(&wrong));
        let records: usize = value["records"]
            .as_object()
            .unwrap()
            .values()
            .map(|r| r.as_object().unwrap().len())
            .sum();
        assert_eq!(records, p.instances.len(), "{}", p.name);
    }
}

#[test]
fn the_export_is_the_merged_ruleset() {
    let base = rulesc::export::export(&program(&root().join("rules/kingsmark")));
    let gritty =
        rulesc::export::export(&program(&root().join("examples/variants/gritty_kingsmark")));
    // `override` changed one field of a record and one row of a table; the rest is the base's.
    let sword = |v: &Value| v["records"]["Weapon"]["arming_sword"].clone();
    assert_eq!(sword(&base)["critical_threshold"], json!(13));
    assert_eq!(sword(&gritty)["critical_threshold"], json!(11));
    assert_eq!(sword(&gritty)["base_damage"], sword(&base)["base_damage"]);
    let sprint = |v: &Value| {
        v["tables"]["action_costs"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"] == json!("Sprint"))
            .map(|r| r["value"].clone())
    };
    assert_eq!(sprint(&base), Some(json!(4)));
    assert_eq!(sprint(&gritty), Some(json!(3)));
    // The types are the base's, but for a default that names an overridden record: the
    // default weapon is the variant's arming sword, as generated code's
    // `Weapon::arming_sword()` is in the variant's crate.
    let default_weapon = |v: &Value| {
        v["types"]["Combatant"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == json!("weapon"))
            .map(|f| f["default"].clone())
            .unwrap()
    };
    assert_eq!(default_weapon(&base), sword(&base));
    assert_eq!(default_weapon(&gritty), sword(&gritty));
    let mut types = gritty["types"].clone();
    let weapon = types["Combatant"]["fields"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f["name"] == json!("weapon"))
        .unwrap();
    weapon["default"] = sword(&base);
    assert_eq!(types, base["types"]);

    // A content pack's records are exported as the ruleset's own.
    let p = program(&root().join("rules/kingsmark"));
    let (with_pack, diags, _) = rulesc::pack::apply(
        &p,
        &[root().join("examples/homebrew/black_forest_armory.yaml")],
    );
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    let packed = rulesc::export::export(&with_pack.unwrap());
    assert_valid(&validator(), "kingsmark + black_forest_armory", &packed);
    assert_eq!(
        packed["records"]["Weapon"]["flamberge"],
        json!({ "skill": "ArmedCombat", "base_damage": "Moderate", "damage_type": "Cutting", "critical_threshold": 12 })
    );
    assert!(base["records"]["Weapon"].get("flamberge").is_none());
}

#[test]
fn values_read_as_the_ruleset_writes_them() {
    let v = rulesc::export::export(&program(&root().join("rules/kingsmark")));
    // A die table: its die in dice notation, rows by face.
    let locations = &v["tables"]["hit_locations"];
    assert_eq!(locations["die"], json!("d12"));
    assert_eq!(
        locations["rows"][0],
        json!({ "from": 1, "to": 1, "value": "LeftFoot" })
    );
    assert_eq!(
        locations["rows"][11],
        json!({ "from": 12, "to": 12, "value": "Head" })
    );
    // A scale in order, with labels.
    assert_eq!(
        v["scales"]["DamageLevel"]["values"][0],
        json!({ "name": "BelowMinor", "label": "below Minor" })
    );
    // A track's boxes with their level and attributes.
    assert_eq!(
        v["tracks"]["WoundBoxes"]["boxes"][0]["level"],
        json!("Minor")
    );
    assert_eq!(v["tracks"]["WoundBoxes"]["boxes"][0]["box"], json!(1));
    // A record type's fields in order, with range, default and doc; a map by key name.
    let fields = v["types"]["Combatant"]["fields"].as_array().unwrap();
    assert_eq!(fields[0]["name"], json!("physical_performance"));
    let speed = fields.iter().find(|f| f["name"] == json!("speed")).unwrap();
    assert_eq!(speed["range"], json!([-3, 4]));
    let armor = &v["records"]["ArmorPiece"]["padded_coif"]["ratings"];
    assert!(armor.is_object(), "{armor}");
    assert!(v["procedures"]["melee_attack"]["defined_at"]
        .as_str()
        .unwrap()
        .starts_with("kingsmark/melee.rules:"));
}

/// A table with two keys: its column key, its columns in the order written, and each
/// row's values in that order; the export validates.
#[test]
fn a_grid_exports_its_columns_and_rows() {
    let v = rulesc::export::export(&program(&root().join("tests/fixtures/codegen/coverage")));
    assert_valid(&validator(), "coverage", &v);
    let grid = &v["tables"]["grid"];
    assert_eq!(grid["key"], json!("int"));
    assert_eq!(grid["column_key"], json!("Color"));
    assert_eq!(
        grid["columns"],
        json!([{ "key": "Blue" }, { "key": "Red" }, { "key": "Green" }])
    );
    assert_eq!(
        grid["rows"][0],
        json!({ "to": 0, "value": ["Zero", "One", "Two"] })
    );
    let near = &v["tables"]["near"];
    assert_eq!(
        near["columns"],
        json!([{ "to": -1 }, { "from": 2, "to": 3 }, { "from": 5, "to": 5 }])
    );
    assert_eq!(near["default"], json!(true));
}
