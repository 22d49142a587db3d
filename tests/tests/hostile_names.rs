//! Hostile input: a content pack whose record names (and a ruleset whose enum labels)
//! hold quotes, a string breakout, comment markers, Rust keywords, leading digits,
//! non-ASCII letters, emoji and names that collide after case conversion. `build.rs`
//! compiles `fixtures/codegen/hostile_names` with its pack through `Builder::pack`, into
//! `rulesc_tests::hostile_names`; this crate building (under `clippy -D warnings` in CI)
//! is the first test, these are the rest.

use rulesc_runtime::{Env, NoTrace, ScriptedDecisions, ScriptedDice};
use rulesc_tests::hostile_names::{self as h, Mark, Weapon};
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codegen/hostile_names")
}

/// Every record, in order: the ruleset's two, then the pack's, with its constructor.
#[allow(clippy::type_complexity)]
const RECORDS: &[(&str, fn() -> Weapon)] = &[
    ("plain sword", Weapon::plain_u0020_sword),
    ("type", Weapon::r#type),
    ("\"quoted\"", Weapon::u0022_quoted_u0022),
    (
        "\"); std::process::exit(1); //",
        Weapon::u0022_u0029_u003b_u0020_std_u003a_u003a_process_u003a_u003a_exit_u0028_1_u0029_u003b_u0020_u002f_u002f,
    ),
    ("*/ evil /*", Weapon::u002a_u002f_u0020_evil_u0020_u002f_u002a),
    ("Self", Weapon::self_),
    ("self", Weapon::self_2),
    ("1st", Weapon::n1st),
    ("Zweihänder", Weapon::zweih_u00e4_nder),
    ("🗡\u{fe0f} dagger", Weapon::u1f5e1_ufe0f_u0020_dagger),
    ("foo_bar", Weapon::foo_bar),
    ("fooBar", Weapon::foo_bar_2),
    ("named", Weapon::named_2),
    ("default", Weapon::default_2),
    ("NAMES", Weapon::names),
    ("r#raw", Weapon::r_u0023_raw),
    ("\\u{0}", Weapon::u005c_u_u007b_0_u007d),
];

/// The labels of `Mark`, in order.
const LABELS: &[&str] = &[
    "Plain",
    "\"quoted\"",
    "\"); std::process::exit(1); //",
    "*/ evil /*",
    "Zweihänder",
    "🗡\u{fe0f} dagger",
    "// not a comment \\ and a backslash",
    "left \u{202e} right",
];

#[test]
fn every_name_round_trips_through_names_and_named() {
    let names: Vec<&str> = RECORDS.iter().map(|(n, _)| *n).collect();
    assert_eq!(Weapon::NAMES, names.as_slice());
    for (name, ctor) in RECORDS {
        assert_eq!(Weapon::named(name), Some(ctor()), "{name:?}");
    }
    for other in [
        "",
        "Plain Sword",
        "plain_sword",
        "self_",
        "\"quoted",
        "r#type",
    ] {
        assert_eq!(Weapon::named(other), None, "{other:?}");
    }
}

#[test]
fn constructors_are_distinct_values() {
    for (i, (a, fa)) in RECORDS.iter().enumerate() {
        for (b, fb) in &RECORDS[i + 1..] {
            assert_ne!(fa(), fb(), "{a:?} and {b:?}");
        }
    }
}

#[test]
fn variants_named_as_keywords_are_distinct_and_print_as_written() {
    let shown: Vec<String> = h::Keyword::ALL.iter().map(|k| k.to_string()).collect();
    assert_eq!(
        shown,
        ["self", "Self", "super", "crate", "Default", "Some", "None", "Ok", "r", "type"]
    );
    // The field's default is the variant named `Self`, not the first one.
    assert_eq!(Weapon::default().keyword.to_string(), "Self");
}

#[test]
fn labels_are_kept_as_text() {
    let labels: Vec<&str> = Mark::ALL.iter().map(|m| m.label()).collect();
    assert_eq!(labels, LABELS);
    assert_eq!(Mark::Comment.to_string(), "*/ evil /*");
    assert_eq!(
        Weapon::named("*/ evil /*").map(|w| w.to_string()),
        Some("Weapon(damage: 5, mark: */ evil /*, keyword: Self)".to_string())
    );
}

/// The text of a Rust file with the contents of its string literals blanked out (the
/// generated code has plain `"..."` literals only, no raw strings or `'"'` chars).
fn outside_literals(code: &str) -> String {
    let mut out = String::new();
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            out.push(c);
            continue;
        }
        out.push_str("\"\"");
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => break,
                _ => {}
            }
        }
    }
    out
}

#[test]
fn the_generated_file_holds_hostile_text_only_inside_string_literals() {
    let code = std::fs::read_to_string(concat!(env!("OUT_DIR"), "/hostile_names.rs"))
        .expect("build script output");
    let outside = outside_literals(&code);
    assert!(outside.is_ascii(), "non-ASCII text outside literals");
    // A label and a comment turn text around (U+202E, U+2067): rustc refuses that raw
    // in a doc comment, so the docs show it escaped, and nowhere is it raw.
    assert!(outside.contains("left \\u{202e} right"), "the label's doc");
    assert!(outside.contains("holding a direction isolate (U+2067): \\u{2067} turned."));
    assert!(
        !code.contains(['\u{202e}', '\u{2067}']),
        "a raw direction codepoint"
    );
    for marker in ["*/", "/*", "std::process", "\\u{0}", "r#raw", "\"quoted"] {
        assert!(!outside.contains(marker), "{marker:?} outside literals");
    }
    for text in RECORDS
        .iter()
        .map(|(n, _)| *n)
        .chain(LABELS.iter().copied())
    {
        // Plain words may appear in doc comments (`Record `plain sword`.`).
        let special = text
            .chars()
            .any(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == ' '));
        if special {
            assert!(!outside.contains(text), "{text:?} outside literals");
        }
        // Inside, every name is an escaped literal.
        assert!(
            code.contains(&format!("{text:?}")) || !text.is_ascii(),
            "{text:?}"
        );
    }
}

#[test]
fn builder_pack_is_pack_apply_then_generate() {
    let (program, diags, _) = rulesc::compile_dir(&fixture().join("ruleset"));
    let program = program.unwrap_or_else(|| panic!("{:?}", diags.items));
    let (extended, diags, _) = rulesc::pack::apply(&program, &[fixture().join("pack.yaml")]);
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    let code = rulesc::codegen::generate(&extended.expect("the pack applies")).unwrap();
    let built = std::fs::read_to_string(concat!(env!("OUT_DIR"), "/hostile_names.rs")).unwrap();
    assert_eq!(code, built);
}

#[test]
fn a_scenario_names_a_hostile_record_and_both_backends_agree() {
    let (program, _, _) = rulesc::compile_dir(&fixture().join("ruleset"));
    let (extended, diags, _) =
        rulesc::pack::apply(&program.unwrap(), &[fixture().join("pack.yaml")]);
    assert!(diags.items.is_empty(), "{:?}", diags.items);
    let extended = extended.unwrap();
    let dir = std::env::temp_dir().join(format!("rulesc-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("breakout.yaml");
    std::fs::write(
        &scenario,
        "run: strike\nargs:\n  w: '\"); std::process::exit(1); //'\ndice: [3]\n",
    )
    .unwrap();
    let trace = rulesc::scenario::run_file(&extended, &scenario, 0);
    let _ = std::fs::remove_dir_all(&dir);
    let trace = trace.unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    // d6 = 3, damage 4, not Plain: +1.
    assert!(trace.ends_with("result: 8\n"), "{trace}");

    let w = Weapon::named("\"); std::process::exit(1); //").unwrap();
    let mut env = Env::new(ScriptedDice::new(&[3]), ScriptedDecisions::new(), NoTrace);
    assert_eq!(h::strike(&mut env, &w), 8);
}

#[test]
fn record_names_are_text_but_not_control_characters_or_too_long() {
    let dir = std::env::temp_dir().join(format!("rulesc-hostile-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pack = dir.join("bad.yaml");
    let long = "x".repeat(101);
    std::fs::write(
        &pack,
        format!(
            "pack: {{ name: bad }}\nrecords:\n  Weapon:\n    \"tab\\there\": {{ damage: 1 }}\n    {long}: {{ damage: 1 }}\n    \"\": {{ damage: 1 }}\n    \"{}\": {{ damage: 1 }}\n",
            "y".repeat(100)
        ),
    )
    .unwrap();
    let (program, _, _) = rulesc::compile_dir(&fixture().join("ruleset"));
    let (extended, diags, _) = rulesc::pack::apply(&program.unwrap(), &[pack]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(extended.is_none());
    let codes: Vec<&str> = diags.sorted().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0302", "E0302", "E0302"]);
}
