//! Every problem in one go (issue 29): a syntax error in a `.rules` file stops neither
//! the other definitions of its file, nor the other files, nor the checks of the YAML;
//! and a name a broken definition would have defined is not reported again where it is
//! used.

#[allow(dead_code)]
mod run;

use std::path::{Path, PathBuf};

/// Kingsmark copied into a fresh folder with `edits` made: (file, text, replacement),
/// each text found exactly once.
fn kingsmark_with(name: &str, edits: &[(&str, &str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesc-recovery-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let from = run::root().join("rules/kingsmark");
    for e in std::fs::read_dir(&from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    for (file, text, with) in edits {
        let path = dir.join(file);
        let old = std::fs::read_to_string(&path).unwrap();
        assert_eq!(old.matches(text).count(), 1, "{file}: {text}");
        std::fs::write(&path, old.replace(text, with)).unwrap();
    }
    dir
}

/// (file name, code, message) of each error, in output order.
fn errors(dir: &Path) -> Vec<(String, String, String)> {
    let (program, diags, sources) = rulesc::compile_dir(dir);
    assert!(program.is_none() || !diags.has_errors());
    diags
        .sorted()
        .into_iter()
        .filter(|d| d.severity == rulesc::diag::Severity::Error)
        .map(|d| {
            let name = &sources.file(d.span.file).name;
            let file = name.rsplit('/').next().unwrap_or(name).to_string();
            (file, d.code.to_string(), d.message.clone())
        })
        .collect()
}

#[test]
fn five_planted_errors_in_five_files_are_five_diagnostics_in_one_run() {
    let dir = kingsmark_with(
        "five",
        &[
            // YAML: a misspelt field of a record.
            (
                "equipment.yaml",
                "Minor, damage_type: Cutting, critical_threshold: 13",
                "Minor, damage_type: Cutting, critical_treshold: 13",
            ),
            // DSL syntax: `=` for `==`, in the procedure fight.rules calls.
            (
                "melee.rules",
                "if natural(attack) == epic_failure_face",
                "if natural(attack) = epic_failure_face",
            ),
            // YAML: a table value of the wrong type.
            ("tables.yaml", "Flair: 1", "Flair: one"),
            // DSL types: an unknown field.
            (
                "damage.rules",
                "pain(c) + c.distress",
                "pain(c) + c.distres",
            ),
            // DSL names: an unknown name in a procedure.
            (
                "surprise.rules",
                "roll d12 + surprise_bonus(c, method)",
                "roll d12 + surprise_bonus(c, methd)",
            ),
        ],
    );
    let got = errors(&dir);
    let files: Vec<&str> = got.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        files,
        [
            "damage.rules",
            "equipment.yaml",
            "melee.rules",
            "surprise.rules",
            "tables.yaml"
        ],
        "{got:#?}"
    );
    let melee = &got[2];
    assert_eq!(melee.1, "E0201", "{got:#?}");
    assert!(melee.2.contains("did you mean `==`"), "{got:#?}");
    assert!(got[1].2.contains("critical_treshold"), "{got:#?}");
    assert!(got[3].2.contains("methd"), "{got:#?}");
    assert!(got[0].2.contains("distres"), "{got:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The issue's reproduction, through the command line: both errors, in one run.
#[test]
fn the_issues_reproduction_gives_both_errors() {
    let dir = kingsmark_with(
        "repro",
        &[
            (
                "equipment.yaml",
                "Minor, damage_type: Cutting, critical_threshold: 13",
                "Minor, damage_type: Cutting, critical_treshold: 13",
            ),
            (
                "melee.rules",
                "if natural(attack) == epic_failure_face",
                "if natural(attack) = epic_failure_face",
            ),
        ],
    );
    let (code, _, err) = run::rulesc_in(
        &dir,
        &["--format", "json", "check", "."],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(code, 1, "{err}");
    let codes: Vec<String> = err
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["code"]["code"].as_str().map(str::to_string))
        .collect();
    assert_eq!(codes, ["E0103", "E0201"], "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A broken definition is one diagnostic: its uses elsewhere (a call in fight.rules, a
/// tag of a broken outcome) are not reported as unknown names, and every broken
/// definition of a file is reported, not only the first.
#[test]
fn a_broken_definition_does_not_cascade_and_each_is_reported() {
    let dir = kingsmark_with(
        "cascade",
        &[
            // melee_attack, called by fight.rules, loses its body's `{`.
            (
                "melee.rules",
                "weapon: Weapon) -> AttackResult {",
                "weapon: Weapon) -> AttackResult",
            ),
            // AttackResult, the outcome every attack returns, is broken too.
            ("damage.rules", "  Miss,\n", "  Miss\n"),
            // And two formulas of one file.
            (
                "initiative.rules",
                "formula action_points(c: Combatant) = max(",
                "formula action_points(c: Combatant) = max((",
            ),
            (
                "initiative.rules",
                "formula turn_order_key(c: Combatant) =",
                "formula turn_order_key(c: Combatant) = =",
            ),
        ],
    );
    let got = errors(&dir);
    let codes: Vec<(&str, &str)> = got.iter().map(|e| (e.0.as_str(), e.1.as_str())).collect();
    assert_eq!(
        codes,
        [
            ("damage.rules", "E0201"),
            ("initiative.rules", "E0201"),
            ("initiative.rules", "E0201"),
            ("melee.rules", "E0201"),
        ],
        "{got:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A YAML error alone still reports what it did, and a clean ruleset stays clean: the
/// recovery changes nothing when nothing is broken.
#[test]
fn without_a_syntax_error_nothing_changes() {
    assert_eq!(errors(&run::root().join("rules/kingsmark")), vec![]);
}

/// A fresh folder holding `files` (name, text).
fn ruleset(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesc-recovery-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

/// One root cause, one diagnostic: a misspelt level in the record a field's `default:`
/// names is reported there, and a record leaving that field out is not also "missing"
/// it. A field with no default at all still is (the boundary).
#[test]
fn a_refused_default_is_not_reported_again_as_a_missing_field() {
    let types = "ruleset: { name: cascade }\nscales:\n  Harm: [Graze, Wound]\n\
                 types:\n  Weapon:\n    damage: Harm\n  Fighter:\n    weapon: { type: Weapon, default: sword }\n    \
                 skill: { type: int, default: 1 }\n    rank: int\n";
    for (sword, veteran, want) in [
        (
            "Grase",
            "{ skill: 3, rank: 1 }",
            vec![("ruleset.yaml", "E0306", "`Grase` is not a Harm")],
        ),
        ("Graze", "{ skill: 3, rank: 1 }", vec![]),
        (
            "Graze",
            "{ skill: 3 }",
            vec![("ruleset.yaml", "E0106", "this Fighter is missing `rank`")],
        ),
    ] {
        let text = format!(
            "{types}records:\n  Weapon:\n    sword: {{ damage: {sword} }}\n  Fighter:\n    veteran: {veteran}\n"
        );
        let dir = ruleset("default", &[("ruleset.yaml", &text)]);
        let got = errors(&dir);
        let got: Vec<(&str, &str, &str)> = got
            .iter()
            .map(|e| (e.0.as_str(), e.1.as_str(), e.2.as_str()))
            .collect();
        assert_eq!(got, want, "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

const MINI: &str = "ruleset: { name: mini }\nscales:\n  Harm: [Graze, Wound, Down]\n\
    enums:\n  Location: [Legs, Body, Arms, Head]\n\
    types:\n  Weapon:\n    damage: Harm\n    bonus: int\n\
    records:\n  Weapon:\n    sword: { damage: Wound, bonus: 1 }\n";

const MINI_RULES: &str = "outcome Attack { Miss, Hit(harm: Harm) }\n\
    procedure attack(w: Weapon) -> Attack {\n  if roll d6 + w.bonus < 4 { return Miss }\n  return Hit(harm: w.damage)\n}\n";

/// The one error a mistake gives, as (message, label, help), `yaml` added to `MINI`'s
/// manifest and `rules` to its rules.
fn one_error(name: &str, yaml: &str, rules: &str) -> (String, String, String) {
    let manifest = format!("{MINI}{yaml}");
    let rules = format!("{MINI_RULES}{rules}");
    let dir = ruleset(name, &[("ruleset.yaml", &manifest), ("a.rules", &rules)]);
    let (_, diags, _) = rulesc::compile_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(diags.items.len(), 1, "{name}: {:#?}", diags.items);
    let d = &diags.items[0];
    (
        d.message.clone(),
        d.label.clone(),
        d.help.clone().unwrap_or_default(),
    )
}

/// Sharper messages (issue 29): each mistake gives one error, in the writer's words.
#[test]
fn mistakes_are_named_in_the_writers_words() {
    // (name, yaml, rules, message, help), each a part of the text it must hold.
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        // A value of the wrong kind names the field and its declared type, and the help
        // leads to how values are written, in the reference (not the language index).
        (
            "wrong_type",
            "    club: { damage: Graze, bonus: one }\n",
            "",
            "`bonus` is declared `int`: expected an integer, found text",
            "docs/reference.md#values-in-yaml",
        ),
        (
            "wrong_type_list",
            "    club: { damage: Graze, bonus: [1] }\n",
            "",
            "`bonus` is declared `int`: expected an integer, found a list",
            "docs/reference.md#values-in-yaml",
        ),
        // Levels are listed in the scale's order, lowest first; an enum's as declared.
        (
            "scale_order",
            "    club: { damage: Bruised, bonus: 0 }\n",
            "",
            "`Bruised` is not a Harm",
            "expected one of the levels, lowest first: `Graze`, `Wound`, `Down`",
        ),
        (
            "enum_order",
            "",
            "formula f() -> Location = Location.Chest\n",
            "`Chest` is not a Location",
            "expected one of the variants: `Legs`, `Body`, `Arms`, `Head`",
        ),
        // A bare `return` ending a match arm is blamed, not the next arm's `=>`.
        (
            "bare_return",
            "",
            "procedure p(w: Weapon) -> int {\n  match attack(w) {\n    Miss => return\n    Hit(harm) => { return 2 }\n  }\n  return 1\n}\n",
            "a bare `return` at the end of a match arm",
            "`=> { return }`",
        ),
        // A chained comparison: one short message, not every rule that could follow.
        (
            "chained",
            "",
            "formula f(x: int) = 1 < x < 3\n",
            "comparisons do not chain",
            "`a < b and b < c`",
        ),
    ];
    for (name, yaml, rules, message, help) in cases {
        // `yaml` is another record of `Weapon`: the manifest ends inside `Weapon:`.
        let (m, _, h) = one_error(name, yaml, rules);
        assert!(m.contains(message), "{name}: {m}");
        assert!(h.contains(help), "{name}: {h}");
        assert!(!m.contains(" or "), "{name}: a short message: {m}");
    }
}
