//! Check-time errors of the language's newer constructs, table-driven: each case is a
//! small ruleset (a YAML file and a rules file) and the exact codes it reports.

use std::path::{Path, PathBuf};

fn write(dir: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("lang")
        .join(dir);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    for (name, text) in files {
        std::fs::write(root.join(name), text).unwrap();
    }
    root
}

/// Compiles `yaml` (after a common header) and `rules`; the error codes, sorted.
fn codes(case: &str, yaml: &str, rules: &str) -> Vec<&'static str> {
    let head = "ruleset: { name: lang }\nenums:\n  Armor: [Cloth, Mail, Plate]\n";
    let dir = write(
        case,
        &[
            ("ruleset.yaml", &format!("{head}{yaml}")),
            ("a.rules", rules),
        ],
    );
    let (_, diags, _) = rulesc::compile_dir(&dir);
    let mut codes: Vec<&'static str> = diags
        .sorted()
        .iter()
        .map(|d| d.code)
        .filter(|c| c.starts_with('E'))
        .collect();
    codes.sort_unstable();
    codes
}

/// A grid used by the rules cases: rows by number, columns by armor.
const GRID: &str = "tables:
  to_wound:
    key: [int, Armor]
    value: int
    columns: [Cloth, Mail, Plate]
    rows: { \"..2\": [4, 5, 6], \"3..\": [3, 4, 5] }
";

#[test]
fn tables_with_two_keys_refuse_what_the_book_cannot_mean() {
    let table = |body: &str| format!("tables:\n  t:\n{body}");
    let uses = "formula f(x: int) = t[x, 1]\n";
    let cases: &[(&str, String, &str, &[&str])] = &[
        // Well formed: int rows and columns, gaps filled by the default.
        (
            "grid_ok",
            table("    key: [int, int]\n    value: int\n    default: 0\n    columns: [1, \"2-3\"]\n    rows: { 1: [5, 6] }\n"),
            uses,
            &[],
        ),
        (
            "grid_three_keys",
            table("    key: [int, int, int]\n    value: int\n    columns: [1]\n    rows: { 1: [5] }\n"),
            "",
            &["E0307"],
        ),
        (
            "grid_no_columns",
            table("    key: [int, int]\n    value: int\n    rows: { \"..\": [5] }\n"),
            "",
            &["E0106"],
        ),
        (
            "grid_columns_one_key",
            table("    key: int\n    value: int\n    columns: [1]\n    rows: { \"..\": [5] }\n"),
            "",
            &["E0307"],
        ),
        (
            "grid_short_row",
            table("    key: [int, Armor]\n    value: int\n    columns: [Cloth, Mail, Plate]\n    rows: { \"..\": [5, 6] }\n"),
            "formula f(x: int) = t[x, Mail]\n",
            &["E0307"],
        ),
        (
            "grid_column_gap",
            table("    key: [int, Armor]\n    value: int\n    columns: [Cloth, Plate]\n    rows: { \"..\": [5, 6] }\n"),
            "formula f(x: int) = t[x, Mail]\n",
            &["E0310"],
        ),
        (
            "grid_column_overlap",
            table("    key: [int, int]\n    value: int\n    columns: [\"..3\", \"3..\"]\n    rows: { \"..\": [5, 6] }\n"),
            uses,
            &["E0309"],
        ),
        (
            "grid_bad_column_key",
            table("    key: [int, Armor]\n    value: int\n    columns: [Cloth, Mial, Plate]\n    rows: { \"..\": [5, 6, 7] }\n"),
            "formula f(x: int) = t[x, Mail]\n",
            &["E0306"],
        ),
        (
            "grid_one_key_given",
            GRID.into(),
            "formula f(x: int) = to_wound[x]\n",
            &["E0327"],
        ),
        (
            "grid_column_of_the_wrong_type",
            GRID.into(),
            "formula f(x: int) = to_wound[x, 2]\n",
            &["E0321"],
        ),
        (
            "one_key_table_two_keys_given",
            table("    key: int\n    value: int\n    rows: { \"..\": 1 }\n"),
            uses,
            &["E0327"],
        ),
        (
            "two_keys_on_a_list",
            String::new(),
            "formula f(xs: list<int>) = xs[0, 1]\n",
            &["E0321"],
        ),
    ];
    for (case, yaml, rules, want) in cases {
        assert_eq!(&codes(case, yaml, rules), want, "{case}");
    }
}

#[test]
fn maps_hold_any_field_type_but_an_outcome() {
    let types = |v: &str| {
        format!("types:\n  Kit:\n    n: int\n  Bag:\n    m: {{ type: \"map<Armor, {v}>\", default: {{}} }}\n")
    };
    let outcome = "outcome Res { Done }\n";
    for v in [
        "int",
        "bool",
        "dice",
        "Armor",
        "Kit",
        "list<Kit>",
        "int?",
        "map<Armor, int>",
    ] {
        assert_eq!(
            codes(
                &format!("map_of_{}", v.replace(['<', '>', ',', ' ', '?'], "_")),
                &types(v),
                ""
            ),
            Vec::<&str>::new(),
            "map<Armor, {v}>"
        );
    }
    assert_eq!(codes("map_of_outcome", &types("Res"), outcome), ["E0311"]);
    // Keyed by a number, a flag or a record of such: accepted; by dice or a list: E0311.
    for (k, want) in [
        ("int", Vec::<&str>::new()),
        ("bool", vec![]),
        ("Kit", vec![]),
        ("dice", vec!["E0311"]),
        ("list<int>", vec!["E0311"]),
    ] {
        assert_eq!(
            codes(
                &format!("map_by_{}", k.replace(['<', '>'], "_")),
                &types("int").replace("map<Armor,", &format!("map<{k},")),
                ""
            ),
            want,
            "map<{k}, int>"
        );
    }
}

#[test]
fn outcome_tags_print_their_labels() {
    let rules = "outcome Res { Miss: \"no blow\", Hit(by: int): \"struck\", Plain }\n\
                 formula f(x: int) -> Res = if x > 1 then Hit(by: x) else if x > 0 then Miss else Plain\n";
    let dir = write(
        "labels",
        &[
            ("ruleset.yaml", "ruleset: { name: labels }\n"),
            ("a.rules", rules),
        ],
    );
    let (p, diags, _) = rulesc::compile_dir(&dir);
    let p = p.unwrap_or_else(|| panic!("{:?}", diags.items));
    let (id, f) = p.function("f").unwrap();
    let shown: Vec<String> = [2, 1, 0]
        .iter()
        .map(|&x| {
            let mut env = rulesc_runtime::Env::new(
                rulesc_runtime::ScriptedDice::new(&[]),
                rulesc_runtime::FirstOption,
                rulesc_runtime::NoTrace,
            );
            let v =
                rulesc::eval::call(&p, &mut env, id, vec![rulesc::eval::Value::Int(x)]).unwrap();
            rulesc::eval::show(&p, &v, &f.ret)
        })
        .collect();
    assert_eq!(shown, ["struck(by: 2)", "no blow", "Plain"]);
    // A label is words to print.
    let empty = "outcome Res { Miss: \" \" }\n";
    assert_eq!(codes("label_empty", "", empty), ["E0302"]);
}

#[test]
fn keys_and_indices_known_to_fall_outside_are_refused_before_running() {
    let yaml = "types:\n  W:\n    speed: int(-2..2)\ntables:\n  hit:\n    die: d6\n    value: int\n    rows: { \"1-3\": 1, \"4-6\": 2 }\n";
    let cases: &[(&str, &str, &[&str])] = &[
        ("d6_on_d6", "hit[roll d6]", &[]),
        ("d8_on_d6", "hit[roll d8]", &["E0332"]),
        ("d6_plus_1", "hit[roll d6 + 1]", &["E0332"]),
        ("2d6_on_d6", "hit[roll 2d6]", &["E0332"]),
        ("natural_d20", "hit[natural(roll d20)]", &["E0332"]),
        ("clamped", "hit[clamp(roll d8, 1, 6)]", &[]),
        ("constant_off", "hit[7]", &["E0332"]),
        ("constant_on", "hit[6]", &[]),
        // Two varying terms: bounds, not every value, so a rule error when it happens.
        ("sum_of_two", "hit[roll d6 + roll d6 - 6]", &[]),
        ("field_inside", "hit[w.speed + 4]", &[]),
        ("field_outside", "hit[w.speed + 5]", &["E0332"]),
        ("faces_inside", "faces(roll 2d6)[1]", &[]),
        ("faces_past", "faces(roll 2d6)[2]", &["E0332"]),
        ("kept_past", "kept(roll 4d6kh3)[3]", &["E0332"]),
        ("dropped_inside", "dropped(roll 4d6kh3)[0]", &[]),
        ("dropped_past", "dropped(roll 4d6kh3)[1]", &["E0332"]),
        ("literal_d4", "[1, 2, 3][roll d4 - 1]", &["E0332"]),
        ("literal_d3", "[1, 2, 3][roll d3 - 1]", &[]),
        ("literal_negative", "[1, 2][-1]", &["E0332"]),
        // Exploding dice have no last face: not judged.
        ("exploding", "hit[roll d6!]", &[]),
    ];
    for (case, e, want) in cases {
        let rules = format!("procedure p(w: W) -> int {{\n  return {e}\n}}\n");
        assert_eq!(&codes(case, yaml, &rules), want, "{case}: {e}");
    }
}

/// `len`, `keys`, `natural` and `filled` given the wrong kind of value: `E0321` at the
/// operand, naming the built-in, the kind it needs and the type given.
#[test]
fn one_operand_built_ins_name_the_kind_they_need() {
    let cases = [
        ("len", "len(3)", "`len` needs a list, this is int"),
        ("keys", "len(keys(3))", "`keys` needs a map, this is int"),
        (
            "natural",
            "natural(3)",
            "`natural` needs a roll, this is int",
        ),
        (
            "filled",
            "len(filled(3))",
            "`filled` needs a track, this is int",
        ),
    ];
    for (name, call, message) in cases {
        let rules = format!("formula f(x: int) -> int = {call}\n");
        let dir = write(
            &format!("needs_{name}"),
            &[
                ("ruleset.yaml", "ruleset: { name: lang }\n"),
                ("a.rules", &rules),
            ],
        );
        let (_, diags, _) = rulesc::compile_dir(&dir);
        let found: Vec<String> = diags
            .sorted()
            .iter()
            .filter(|d| d.code == "E0321")
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(found, [message], "{call}");
    }
}
