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
    use rulesc::ir::{Const, RecordOrigin};
    let dagger = Const::record(vec![Const::Int(2)], RecordOrigin::Written);
    assert_eq!(
        hero.value,
        Const::record(vec![dagger], RecordOrigin::Written)
    );
    // The hero's weapon is the dagger itself, not a copy: generated code names it.
    let Const::Record(hero) = &hero.value else {
        panic!("not a record")
    };
    let Const::Record(weapon) = &hero.fields[0] else {
        panic!("not a record")
    };
    let dagger = p.instances.iter().position(|i| i.name == "dagger");
    assert_eq!(Some(weapon.origin), dagger.map(RecordOrigin::Instance));
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

/// Records naming records doubled at each of 12 levels: 4,096 numbers in the last one.
/// The constants share the named records (no copies), and the generated code names them
/// (`T11::r11()`), so it grows with the text, not with the values.
#[test]
fn records_naming_records_are_named_in_generated_code_not_copied() {
    let mut yaml = String::from("ruleset: { name: doubling }\ntypes:\n  T0: { n: int }\n");
    let mut records = String::from("records:\n  T0:\n    r0: { n: 7 }\n");
    for i in 1..=12 {
        yaml.push_str(&format!("  T{i}: {{ x: T{}, y: T{} }}\n", i - 1, i - 1));
        records.push_str(&format!(
            "  T{i}:\n    r{i}: {{ x: r{}, y: r{} }}\n",
            i - 1,
            i - 1
        ));
    }
    let dir = write("doubling", &[("ruleset.yaml", &(yaml + &records))]);
    let (p, diags, _) = rulesc::compile_dir(&dir);
    let p = p.unwrap_or_else(|| panic!("{:?}", diags.items));
    let code = rulesc::codegen::generate(&p).unwrap();
    assert!(code.contains("x: T11::r11()"), "{code}");
    assert!(code.contains("y: T11::r11()"), "{code}");
    // Inlined, `r12()` alone would spell out 4,096 `n: 7`.
    assert_eq!(code.matches("n: 7").count(), 1, "{code}");
    // The 13th doubling is past the size limit.
    let mut yaml = std::fs::read_to_string(dir.join("ruleset.yaml")).unwrap();
    yaml = yaml.replace("records:", "  T13: { x: T12, y: T12 }\nrecords:");
    let dir = write("doubling_13", &[("ruleset.yaml", &yaml)]);
    assert_eq!(codes(&dir), (false, vec!["E0362"]));
}

/// `int(lo..hi)` is held to its range only as a record's field: everywhere else nothing
/// would check it, so it is `E0313` (one per place), never a range quietly ignored.
#[test]
fn a_range_type_outside_a_record_field_is_refused() {
    let yaml = "ruleset: { name: ranges }\nenums:\n  Slot: [Hand, Back]\ntypes:\n  Bag:\n    load: int(0..9)\n";
    let cases: &[(&str, &str, &str)] = &[
        ("field", "", "formula f(b: Bag) = b.load\n"),
        ("param", "", "formula f(x: int(1..3)) = x\n"),
        ("result", "", "formula f(x: int) -> int(1..3) = x\n"),
        (
            "let",
            "",
            "procedure p() -> int {\n  let x: int(1..3) = 2\n  return x\n}\n",
        ),
        (
            "list",
            "    marks: list<int(1..3)>\n",
            "formula f(b: Bag) = len(b.marks)\n",
        ),
        (
            "optional",
            "    mark: int(1..3)?\n",
            "formula f(b: Bag) = b.mark != none\n",
        ),
        (
            "map",
            "    held: \"map<Slot, int(0..5)>\"\n",
            "formula f(b: Bag) = b.held[Hand]\n",
        ),
        (
            "table",
            "tables:\n  t:\n    key: Slot\n    value: int(0..3)\n    rows: { Hand: 1, Back: 2 }\n",
            "formula f(s: Slot) = t[s]\n",
        ),
    ];
    for (name, extra, rules) in cases {
        let (yaml, extra) = match extra.starts_with("tables") {
            true => (format!("{yaml}{extra}"), ""),
            false => (yaml.to_string(), *extra),
        };
        let dir = write(
            &format!("range_{name}"),
            &[
                ("ruleset.yaml", &format!("{yaml}{extra}")),
                ("a.rules", rules),
            ],
        );
        let (ok, codes) = codes(&dir);
        if *name == "field" {
            assert!(ok, "{name}: {codes:?}");
        } else {
            assert_eq!(codes, ["E0313"], "{name}");
        }
    }
}

/// A type left empty, or written as a list or a mapping, where a table's key or value or a
/// record field's type goes: an error at that spot. (An empty table value once checked
/// clean, and `build` then stopped on "a bug in rulesc": the table had no type.)
#[test]
fn a_type_that_is_not_text_is_an_error_where_it_is_written() {
    let head = "ruleset: { name: empty_types }\nscales:\n  Severity: [Minor, Grave]\n";
    let cases: &[(&str, &str, &str)] = &[
        (
            "table_value_empty",
            "tables:\n  t:\n    key: Severity\n    value:\n",
            "nothing",
        ),
        (
            "table_value_list",
            "tables:\n  t:\n    key: Severity\n    value: []\n",
            "a list",
        ),
        (
            "table_value_mapping",
            "tables:\n  t:\n    key: Severity\n    value: {}\n",
            "a mapping",
        ),
        (
            "table_key_empty",
            "tables:\n  t:\n    value: int\n    key:\n",
            "nothing",
        ),
        (
            "table_key_mapping",
            "tables:\n  t:\n    value: int\n    key: {}\n",
            "a mapping",
        ),
        (
            "field_type_empty",
            "types:\n  R:\n    hp: int\n    x: { type: }\n",
            "nothing",
        ),
        (
            "field_type_list",
            "types:\n  R:\n    hp: int\n    x: { type: [int] }\n",
            "a list",
        ),
    ];
    for (case, yaml, found) in cases {
        let text = format!("{head}{yaml}");
        let dir = write(case, &[("ruleset.yaml", &text)]);
        let (p, diags, sources) = rulesc::compile_dir(&dir);
        assert!(p.is_none(), "{case}: checked clean");
        let errors: Vec<_> = diags
            .sorted()
            .into_iter()
            .filter(|d| d.code.starts_with('E'))
            .collect();
        assert_eq!(errors.len(), 1, "{case}: {errors:?}");
        let d = &errors[0];
        assert_eq!(d.code, "E0102", "{case}: {d:?}");
        // A table's key wants one of fewer types, and says which.
        let wanted = if case.starts_with("table_key") {
            "expected a key type (`int`, a scale or an enum)"
        } else {
            "expected a type (such as `int` or `map<Skill, int>`)"
        };
        assert!(
            d.message.starts_with(wanted) && d.message.ends_with(&format!("found {found}")),
            "{case}: {}",
            d.message
        );
        // The last line of the case is the one holding the type.
        let (_, line, _) = sources.position(d.span);
        assert_eq!(
            line as usize,
            text.lines().count(),
            "{case}: reported on line {line}"
        );
    }
}

/// A small fight ruleset: `Unit` fights, with `clauses` inside its declaration (after
/// `order(c) = [c.hp]` unless they start with their own `order`) and
/// `rules` beside it. The diagnostics' codes and messages, sorted.
fn fight_diagnostics(dir: &str, rules: &str, clauses: &str) -> Vec<(&'static str, String)> {
    let root = write(
        dir,
        &[
            (
                "ruleset.yaml",
                "ruleset: { name: f }\ntypes:\n  Unit:\n    hp: { type: int, default: 3 }\n  Gear:\n    weight: int\n",
            ),
            (
                "fight.rules",
                &format!(
                    "procedure take_turn(me: fighter) {{\n  me.hp -= 1\n}}\n{rules}\nfight of Unit {{\n{}{clauses}\n}}\n",
                    if clauses.starts_with("  order") { "" } else { "  order(c) = [c.hp]\n" }
                ),
            ),
        ],
    );
    let (p, diags, _) = rulesc::compile_dir(&root);
    assert!(p.is_none(), "{dir} should not check");
    diags
        .sorted()
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

#[test]
fn a_second_out_clause_is_named_as_written_not_as_its_hidden_formula() {
    let d = fight_diagnostics(
        "fight_out_twice",
        "",
        "  out(c) = c.hp <= 0\n  out(x) = x.hp < 0\n  on turn = take_turn",
    );
    assert_eq!(
        d,
        [(
            "E0350",
            "the fight's `out(x)` is declared twice".to_string()
        )]
    );
    let d = fight_diagnostics(
        "fight_order_twice",
        "",
        "  order(c) = [c.hp]\n  order(c) = [0]\n  on turn = take_turn",
    );
    assert_eq!(
        d,
        [(
            "E0350",
            "the fight's `order(c)` is declared twice".to_string()
        )]
    );
}

#[test]
fn an_on_turn_procedure_taking_a_record_is_one_diagnostic() {
    let d = fight_diagnostics(
        "fight_turn_record",
        "procedure act(g: Gear) {\n  g.weight += 1\n}\n",
        "  on turn = act",
    );
    assert_eq!(
        d,
        [(
            "E0327",
            "`act` must take nothing or one fighter".to_string()
        )]
    );
    // With no `on turn` clause at all, the fight is told so.
    let d = fight_diagnostics("fight_no_turn", "", "");
    assert_eq!(
        d,
        [(
            "E0351",
            "the fight says nothing of what a turn is".to_string()
        )]
    );
}

#[test]
fn a_fight_rule_asking_itself_through_a_built_in_is_a_cycle() {
    // `enemies` asks `out` of every fighter: `out` asking `enemies` never ends.
    let d = fight_diagnostics(
        "fight_out_cycle",
        "formula alone(c: fighter) = len(enemies(c)) == 0\n",
        "  out(c) = c.hp <= 0 or alone(c)\n  on turn = take_turn",
    );
    assert_eq!(
        d,
        [(
            "E0330",
            "a cycle of calls: `alone` asks the fight's `out(c)`, which calls `alone`".to_string()
        )]
    );
    // `in_order` reads the turn-order key.
    let d = fight_diagnostics(
        "fight_order_cycle",
        "",
        "  order(c) = [len(in_order(fighters()))]\n  on turn = take_turn",
    );
    assert_eq!(
        d,
        [(
            "E0330",
            "a cycle of calls: `order(c)` calls `in_order`, which asks the fight's `order(c)`"
                .to_string()
        )]
    );
}

/// Issue 28: a type of the rules' own named like a built-in type was accepted, then
/// shadowed by the built-in one ("expected bool, found bool"). Now one `E0302` at the
/// name, and nothing written with the name is reported again.
#[test]
fn a_type_named_like_a_built_in_type_is_refused_at_its_name() {
    let cases = [
        (
            "enum_bool",
            "enums:\n  bool: [Yes, No]\ntypes:\n  W:\n    g: bool\nrecords:\n  W:\n    a: { g: Yes }\n",
            "formula f(w: W, x: bool) = w.g == Yes\n",
        ),
        (
            "scale_int",
            "scales:\n  int: [Low, High]\n",
            "formula f(x: int) = x == High\n",
        ),
        (
            "record_dice",
            "types:\n  dice:\n    n: int\n",
            "formula f(d: dice) = d.n\n",
        ),
        (
            "track_map",
            "scales:\n  Harm: [Light, Grave]\ntracks:\n  map: { scale: Harm, boxes: [{ level: Light }] }\n",
            "",
        ),
        ("enum_side", "enums:\n  side: [Left, Right]\n", ""),
        ("outcome_list", "", "outcome list { Hit, Miss }\n"),
    ];
    for (name, yaml, rules) in cases {
        let dir = write(
            &format!("builtin_{name}"),
            &[
                ("ruleset.yaml", &format!("ruleset: {{ name: n }}\n{yaml}")),
                ("a.rules", rules),
            ],
        );
        let (p, diags, _) = rulesc::compile_dir(&dir);
        let found: Vec<_> = diags
            .sorted()
            .iter()
            .map(|d| (d.code, d.message.clone()))
            .collect();
        assert!(p.is_none(), "{name}");
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert_eq!(found[0].0, "E0302", "{name}: {found:?}");
        assert!(
            found[0].1.contains("is a built-in type"),
            "{name}: {found:?}"
        );
    }
}

/// Issue 28: a scale past 255 levels (`E0360`) was followed by an `E0306` for every
/// level the rules named ("there are no names"): one cause, one diagnostic.
#[test]
fn a_scale_past_255_levels_is_one_diagnostic() {
    let levels: Vec<String> = (0..300).map(|i| format!("L{i}")).collect();
    let yaml = format!(
        "ruleset: {{ name: big }}\nscales:\n  Harm: [{}]\ntypes:\n  W:\n    h: Harm\nrecords:\n  W:\n    a: {{ h: L3 }}\n",
        levels.join(", ")
    );
    let dir = write(
        "scale_300",
        &[
            ("ruleset.yaml", &yaml),
            (
                "a.rules",
                "formula f(w: W) = w.h >= L2\nformula g() = L299\n",
            ),
        ],
    );
    assert_eq!(codes(&dir), (false, vec!["E0360"]));
}

/// A table keyed by an enum (its rows placed through one map from name to variant):
/// an unknown key and the variants no row gives, as before, in order. (A key given
/// twice is the YAML's E0104 before the table sees it.)
#[test]
fn an_enum_table_reports_unknown_and_missing_keys() {
    let dir = write(
        "enum_table_keys",
        &[(
            "ruleset.yaml",
            "ruleset: { name: keys }\nenums:\n  Big: [A, B, C, D, E]\ntables:\n  t:\n    key: Big\n    value: int\n    rows: { D: 1, A: 2, Q: 3, B: 5 }\n",
        )],
    );
    let (p, diags, _) = rulesc::compile_dir(&dir);
    assert!(p.is_none());
    // Sorted by position: the gap is reported at the table's name.
    let got: Vec<(&str, String)> = diags
        .sorted()
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect();
    let want = |code, m: &str| (code, m.to_string());
    assert_eq!(
        got,
        [
            want("E0310", "table `t` has a gap: no row for C, E"),
            want("E0306", "`Q` is not a variant of `Big`"),
        ]
    );
    // Clean, each row sits at its variant's index.
    let dir = write(
        "enum_table_rows",
        &[(
            "ruleset.yaml",
            "ruleset: { name: rows }\nenums:\n  Abc: [A, B, C]\ntables:\n  t:\n    key: Abc\n    value: int\n    rows: { C: 30, A: 10, B: 20 }\n",
        )],
    );
    let (p, diags, _) = rulesc::compile_dir(&dir);
    let p = p.unwrap_or_else(|| panic!("{:?}", diags.items));
    let rows: Vec<(i64, i64, String)> = p.tables[0]
        .rows
        .iter()
        .map(|r| (r.lo, r.hi, format!("{:?}", r.value)))
        .collect();
    assert_eq!(
        rows,
        [
            (0, 0, "Int(10)".to_string()),
            (1, 1, "Int(20)".to_string()),
            (2, 2, "Int(30)".to_string())
        ]
    );
}
