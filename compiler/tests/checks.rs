//! Checks that need a whole small ruleset on disk: overrides in the DSL, constants that
//! look like dice, defaults and table values that name records.

use std::path::{Path, PathBuf};

fn write(dir: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("checks")
        .join(dir);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    for (name, text) in files {
        std::fs::write(root.join(name), text).unwrap();
    }
    root
}

fn codes(dir: &Path) -> (bool, Vec<&'static str>) {
    let (p, diags, _) = rulesc::compile_dir(dir);
    (p.is_some(), diags.sorted().iter().map(|d| d.code).collect())
}

const BASE: &str = "ruleset: { name: base }\nconstants: { bonus: 2 }\n";
const BASE_RULES: &str = "formula total(x: int) = x + bonus\n";

#[test]
fn a_dsl_override_replaces_the_base_definition() {
    let base = write(
        "override_base",
        &[("ruleset.yaml", BASE), ("a.rules", BASE_RULES)],
    );
    let variant = write(
        "override_variant",
        &[
            (
                "ruleset.yaml",
                "ruleset: { name: variant, extends: ../override_base }\n",
            ),
            ("a.rules", "override formula total(x: int) = x * 10\n"),
        ],
    );
    let _ = base;
    let (p, diags, _) = rulesc::compile_dir(&variant);
    let p = p.unwrap_or_else(|| panic!("{:?}", diags.items));
    let (id, f) = p.function("total").unwrap();
    assert_eq!(p.functions.iter().filter(|f| f.name == "total").count(), 1);
    let mut env = rulesc_runtime::Env::new(
        rulesc_runtime::ScriptedDice::new(&[]),
        rulesc_runtime::FirstOption,
        rulesc_runtime::NoTrace,
    );
    let v = rulesc::eval::call(&p, &mut env, id, vec![rulesc::eval::Value::Int(3)]);
    assert_eq!(
        v.map(|v| v.int()),
        Ok(30),
        "the variant's formula runs, not the base's ({})",
        f.name
    );
}

#[test]
fn overriding_what_the_base_lacks_is_an_error() {
    write(
        "lacks_base",
        &[("ruleset.yaml", BASE), ("a.rules", BASE_RULES)],
    );
    let variant = write(
        "lacks_variant",
        &[
            (
                "ruleset.yaml",
                "ruleset: { name: variant, extends: ../lacks_base }\n",
            ),
            ("a.rules", "override formula totl(x: int) = x * 10\n"),
        ],
    );
    assert_eq!(codes(&variant), (false, vec!["E0341"]));
}

#[test]
fn a_level_named_like_dice_is_a_level() {
    let dir = write(
        "dice_like",
        &[
            ("ruleset.yaml", "ruleset: { name: x }\nscales: { L: [Minor, Moderate] }\nconstants: { mid: Moderate, die: 2d6 }\n"),
            ("a.rules", "formula m() = mid\nprocedure r() -> int { return roll die }\n"),
        ],
    );
    let (ok, c) = codes(&dir);
    assert!(ok && c.is_empty(), "{c:?}");
}

#[test]
fn defaults_and_table_values_may_name_records() {
    let dir = write(
        "name_records",
        &[
            (
                "ruleset.yaml",
                "ruleset: { name: x }\n\
                 types:\n  Weapon: { damage: int }\n  Fighter: { weapon: { type: Weapon, default: dagger } }\n\
                 records:\n  Weapon: { dagger: { damage: 2 }, sword: { damage: 4 } }\n  Fighter: { hero: {} }\n\
                 tables:\n  loot: { die: d2, value: Weapon, rows: { 1: dagger, 2: sword } }\n",
            ),
            ("a.rules", "formula hit(f: Fighter) = f.weapon.damage\nprocedure find() -> Weapon { return roll loot }\n"),
        ],
    );
    let (p, diags, _) = rulesc::compile_dir(&dir);
    let p = p.unwrap_or_else(|| panic!("{:?}", diags.items));
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    // The hero took the default weapon, the dagger.
    let hero = p.instance("hero").unwrap();
    assert_eq!(
        hero.value,
        rulesc::ir::Const::Record(vec![rulesc::ir::Const::Record(vec![
            rulesc::ir::Const::Int(2)
        ])])
    );
}

#[test]
fn an_open_range_outside_a_die_reads_as_written() {
    let dir = write(
        "open_range",
        &[(
            "ruleset.yaml",
            "ruleset: { name: x }\ntables:\n  t: { die: 2d6, value: int, rows: { \"2-7\": 0, \"8..\": 1 } }\n",
        )],
    );
    let (p, diags, _) = rulesc::compile_dir(&dir);
    assert!(p.is_none());
    let msgs: Vec<&str> = diags
        .sorted()
        .iter()
        .filter(|d| d.code == "E0309")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(msgs, ["`8..` is not a face of 2d6"]);
}
