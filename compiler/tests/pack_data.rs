//! Homebrew beyond records (issue 29 §6): packs that add enum variants, scale levels
//! (where the scale is `extensible`), table rows and tables, and change the ruleset's
//! records and rows in place (`_mod`); conflicts between two packs; a table missing the
//! row of a pack's variant. Each through `rulesc::pack::apply`, as every command does.

use rulesc::ir::Program;
use serde_json::Value;
use std::path::Path;

/// The ruleset every case starts from: an extensible scale, a closed one, an enum keying
/// a table, records with a list field, and a procedure matching the enum.
const RULESET: &str = "ruleset: { name: seas }
scales:
  Harm:
    levels: [Scratch, Wound, Down]
    extensible: true
  Rank: [Deckhand, Mate]
enums:
  DamageType: [Cut, Blunt]
types:
  Weapon:
    damage: Harm
    kind: DamageType
  Crew:
    arms: \"list<Weapon>\"
tables:
  soak:
    key: DamageType
    value: int
    rows: { Cut: 1, Blunt: 0 }
  fumble:
    die: d4
    value: Harm
    rows: { \"1-3\": Scratch, 4: Wound }
records:
  Weapon:
    sword: { damage: Wound, kind: Cut }
    club: { damage: Scratch, kind: Blunt }
  Crew:
    deckhands: { arms: [club, sword, club] }
";

const RULES: &str = "procedure hit(w: Weapon, r: Rank) -> Harm {
  let worse = roll fumble
  return if w.damage > worse then w.damage - soak[w.kind] else worse
}
";

/// A project with the ruleset in `seas/` and the packs given (`packs/<name>.yaml`).
fn project(packs: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    write(p, "rulesc.toml", "");
    write(p, "seas/ruleset.yaml", RULESET);
    write(p, "seas/hit.rules", RULES);
    for (name, text) in packs {
        write(p, &format!("packs/{name}.yaml"), text);
    }
    dir
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// What applying the packs (named in order) gave: the program, and each diagnostic as
/// `(code, file name, line)`, sorted.
struct Applied {
    program: Option<Program>,
    diags: Vec<(String, String, u32)>,
    rendered: String,
}

fn apply(dir: &Path, packs: &[&str]) -> Applied {
    let (program, diags, sources) = rulesc::compile_dir(&dir.join("seas"));
    let p = program.unwrap_or_else(|| panic!("the ruleset checks: {:?}", diags.items));
    drop(sources);
    let paths: Vec<_> = packs
        .iter()
        .map(|n| dir.join(format!("packs/{n}.yaml")))
        .collect();
    let (program, diags, sources2) = rulesc::pack::apply(&p, &paths);
    let mut out: Vec<(String, String, u32)> = diags
        .items
        .iter()
        .map(|d| {
            let (file, line, _) = sources2.position(d.span);
            let name = file.rsplit('/').next().unwrap_or("").to_string();
            (d.code.to_string(), name, line)
        })
        .collect();
    out.sort();
    let rendered = diags
        .items
        .iter()
        .map(|d| rulesc::diag::render(d, &sources2, false, 100))
        .collect();
    Applied {
        program,
        diags: out,
        rendered,
    }
}

fn export(p: &Program) -> Value {
    rulesc::export::export(p)
}

fn names(v: &Value) -> Vec<String> {
    v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap().to_string())
        .collect()
}

fn rows(v: &Value, table: &str) -> Vec<(String, Value)> {
    v["tables"][table]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["key"].to_string().replace('"', ""), r["value"].clone()))
        .collect()
}

const RAIDERS: &str = "pack: { name: raiders, ruleset: seas }
enums:
  DamageType: [Brine]
  Tide: [Ebb, Flood]
scales:
  Harm: [Drowned]
tables:
  soak:
    rows: { Brine: 0 }
  tide_reach: { key: Tide, value: int, rows: { Ebb: 0, Flood: 2 } }
records:
  Weapon:
    harpoon: { damage: Drowned, kind: Brine }
";

#[test]
fn a_pack_adds_a_variant_a_level_a_row_and_a_table() {
    let dir = project(&[("raiders", RAIDERS)]);
    let a = apply(dir.path(), &["raiders"]);
    assert_eq!(a.diags, vec![], "{}", a.rendered);
    let p = a.program.unwrap();
    let v = export(&p);
    assert_eq!(names(&v["enums"]["DamageType"]), ["Cut", "Blunt", "Brine"]);
    assert_eq!(names(&v["enums"]["Tide"]), ["Ebb", "Flood"]);
    // The level goes above the top, so it compares above it.
    assert_eq!(
        names(&v["scales"]["Harm"]),
        ["Scratch", "Wound", "Down", "Drowned"]
    );
    assert_eq!(
        rows(&v, "soak"),
        [
            ("Cut".into(), 1.into()),
            ("Blunt".into(), 0.into()),
            ("Brine".into(), 0.into())
        ]
    );
    assert_eq!(rows(&v, "tide_reach").len(), 2);
    assert_eq!(v["records"]["Weapon"]["harpoon"]["kind"], "Brine");
    assert_eq!(v["records"]["Weapon"]["harpoon"]["damage"], "Drowned");
}

#[test]
fn without_the_pack_the_ruleset_is_unchanged() {
    let dir = project(&[]);
    let (p, _, _) = rulesc::compile_dir(&dir.path().join("seas"));
    let v = export(&p.unwrap());
    assert_eq!(names(&v["enums"]["DamageType"]), ["Cut", "Blunt"]);
    assert_eq!(names(&v["scales"]["Harm"]), ["Scratch", "Wound", "Down"]);
}

/// `(case, pack text, expected diagnostics (code, file, line))`: each mistake a pack
/// writer makes, and where rulesc points.
/// A diagnostic as `(code, file name, line)`.
type At = (&'static str, &'static str, u32);

const MISTAKES: &[(&str, &str, &[At])] = &[
    (
        "a level added to a closed scale",
        "pack: { name: p, ruleset: seas }\nscales:\n  Rank: [Captain]\n",
        &[("E0413", "p.yaml", 3)],
    ),
    (
        "a variant with no row in a table keyed by its enum",
        "pack: { name: p, ruleset: seas }\nenums:\n  DamageType: [Fire]\n",
        &[("E0310", "p.yaml", 3)],
    ),
    (
        "a row of the ruleset's table added again",
        "pack: { name: p, ruleset: seas }\ntables:\n  soak:\n    rows: { Cut: 3 }\n",
        &[("E0309", "p.yaml", 4)],
    ),
    (
        "a key other than rows and _mod in a ruleset's table",
        "pack: { name: p, ruleset: seas }\ntables:\n  soak:\n    value: bool\n",
        &[("E0103", "p.yaml", 4)],
    ),
    (
        "_mod of a row the table does not have",
        "pack: { name: p, ruleset: seas }\ntables:\n  soak:\n    _mod: { replace: { Fire: 2 } }\n",
        &[("E0414", "p.yaml", 4)],
    ),
    (
        "_mod of a record the ruleset does not have",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Weapon:\n    axe: { _mod: { replace: { damage: Down } } }\n",
        &[("E0414", "p.yaml", 4)],
    ),
    (
        "append to a field that is not a list",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Weapon:\n    sword: { _mod: { append: { damage: [Down] } } }\n",
        &[("E0414", "p.yaml", 4)],
    ),
    (
        "remove an item the list does not hold",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Crew:\n    deckhands: { _mod: { remove: { arms: [harpoon] } } }\n",
        &[("E0414", "p.yaml", 4)],
    ),
    (
        "an unknown _mod mode",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Weapon:\n    sword: { _mod: { replaec: { damage: Down } } }\n",
        &[("E0103", "p.yaml", 4)],
    ),
    (
        "a field beside _mod",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Weapon:\n    sword: { damage: Down, _mod: { replace: { kind: Blunt } } }\n",
        &[("E0103", "p.yaml", 4)],
    ),
    (
        "a replaced field of the wrong type: the ruleset's check",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Weapon:\n    sword: { _mod: { replace: { damage: Mortal } } }\n",
        &[("E0306", "p.yaml", 4)],
    ),
    (
        "a removed row leaves a gap in a die table",
        "pack: { name: p, ruleset: seas }\ntables:\n  fumble:\n    _mod: { remove: [4] }\n",
        &[("E0310", "ruleset.yaml", 20)],
    ),
    (
        "a new variant names a level that does not exist",
        "pack: { name: p, ruleset: seas }\nrecords:\n  Weapon:\n    trident: { damage: Drowned, kind: Cut }\n",
        &[("E0306", "p.yaml", 4)],
    ),
];

#[test]
fn each_mistake_in_a_pack_is_reported_where_it_is() {
    let mut failed = Vec::new();
    for (case, text, want) in MISTAKES {
        let dir = project(&[("p", text)]);
        let a = apply(dir.path(), &["p"]);
        let want: Vec<(String, String, u32)> = want
            .iter()
            .map(|(c, f, l)| (c.to_string(), f.to_string(), *l))
            .collect();
        if a.diags != want || a.program.is_some() {
            failed.push(format!("{case}: got {:?}\n{}", a.diags, a.rendered));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn a_closed_scale_names_the_key_that_opens_it() {
    let dir = project(&[("p", MISTAKES[0].1)]);
    let a = apply(dir.path(), &["p"]);
    assert!(
        a.rendered.contains("the scale `Rank` is closed"),
        "{}",
        a.rendered
    );
    assert!(a.rendered.contains("extensible: true"), "{}", a.rendered);
}

#[test]
fn a_scale_written_as_a_mapping_is_checked() {
    let cases: &[(&str, &str)] = &[
        ("levels: [A, B]\n    extensible: maybe", "E0102"),
        ("levels: [A, B]\n    open: true", "E0103"),
        ("extensible: true", "E0106"),
    ];
    for (body, code) in cases {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "r/ruleset.yaml",
            &format!("ruleset: {{ name: r }}\nscales:\n  S:\n    {body}\n"),
        );
        let (p, diags, _) = rulesc::compile_dir(&dir.path().join("r"));
        let codes: Vec<&str> = diags.items.iter().map(|d| d.code).collect();
        assert!(p.is_none() && codes == [*code], "{body}: {codes:?}");
    }
}

const MODS: &str = "pack: { name: worn, ruleset: seas }
tables:
  soak:
    _mod:
      replace: { Cut: 0 }
  fumble:
    _mod:
      replace: { 4: Down }
records:
  Weapon:
    sword:
      _mod:
        replace: { damage: Down }
  Crew:
    deckhands:
      _mod:
        remove: { arms: [club] }
        append: { arms: [sword, { damage: Scratch, kind: Blunt }] }
";

#[test]
fn mod_replaces_rows_and_fields_appends_and_removes_items() {
    let dir = project(&[("worn", MODS)]);
    let a = apply(dir.path(), &["worn"]);
    assert_eq!(a.diags, vec![], "{}", a.rendered);
    let v = export(&a.program.unwrap());
    assert_eq!(rows(&v, "soak")[0], ("Cut".into(), 0.into()));
    assert_eq!(rows(&v, "fumble")[1].1, "Down");
    assert_eq!(v["records"]["Weapon"]["sword"]["damage"], "Down");
    // Both clubs go; the sword (changed by this pack) and an inline weapon come after.
    let arms = v["records"]["Crew"]["deckhands"]["arms"]
        .as_array()
        .unwrap();
    let kinds: Vec<&str> = arms.iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["Cut", "Cut", "Blunt"]);
    assert_eq!(arms[0]["damage"], "Down");
}

#[test]
fn a_new_variant_that_a_match_does_not_cover_is_the_rulesets_error() {
    let dir = project(&[(
        "p",
        "pack: { name: p, ruleset: seas }\nenums:\n  DamageType: [Fire]\ntables:\n  soak: { rows: { Fire: 2 } }\n",
    )]);
    write(
        dir.path(),
        "seas/kind.rules",
        "procedure cuts(k: DamageType) -> bool {\n  match k {\n    Cut => return true\n    Blunt => return false\n  }\n}\n",
    );
    let a = apply(dir.path(), &["p"]);
    let codes: Vec<(&str, &str)> = a
        .diags
        .iter()
        .map(|(c, f, _)| (c.as_str(), f.as_str()))
        .collect();
    assert_eq!(codes, [("E0323", "kind.rules")], "{}", a.rendered);
    assert!(a.program.is_none());
    // The note points at the pack's variant.
    assert!(
        a.rendered.contains("`Fire` is added by the pack `p`"),
        "{}",
        a.rendered
    );
}

/// A pack named `name`, requiring the packs `requires` (by name), with `body`.
fn pack(name: &str, requires: &[&str], body: &str) -> String {
    let req: Vec<String> = requires.iter().map(|r| format!("{r}.yaml")).collect();
    format!(
        "pack: {{ name: {name}, ruleset: seas, requires: [{}] }}\n{body}",
        req.join(", ")
    )
}

/// `(case, body of pack a, body of pack b, whether b requires a, expected codes)`:
/// packs `a` then `b` applied. Two packs touching one thing conflict unless the later
/// requires the earlier.
const TWO_PACKS: &[(&str, &str, &str, bool, &[&str])] = &[
    (
        "the same variant, neither requiring the other",
        "enums: { DamageType: [Fire] }\ntables: { soak: { rows: { Fire: 1 } } }\n",
        "enums: { DamageType: [Fire] }\n",
        false,
        &["E0415"],
    ),
    (
        "the same variant, b requiring a: listed twice, as in one ruleset",
        "enums: { DamageType: [Fire] }\ntables: { soak: { rows: { Fire: 1 } } }\n",
        "enums: { DamageType: [Fire] }\n",
        true,
        &["E0301"],
    ),
    (
        "the same row replaced",
        "tables: { soak: { _mod: { replace: { Cut: 2 } } } }\n",
        "tables: { soak: { _mod: { replace: { Cut: 3 } } } }\n",
        false,
        &["E0415"],
    ),
    (
        "the same row replaced, b requiring a",
        "tables: { soak: { _mod: { replace: { Cut: 2 } } } }\n",
        "tables: { soak: { _mod: { replace: { Cut: 3 } } } }\n",
        true,
        &[],
    ),
    (
        "the same record field changed",
        "records: { Weapon: { sword: { _mod: { replace: { damage: Down } } } } }\n",
        "records: { Weapon: { sword: { _mod: { replace: { damage: Scratch } } } } }\n",
        false,
        &["E0415"],
    ),
    (
        "different fields of one record",
        "records: { Weapon: { sword: { _mod: { replace: { damage: Down } } } } }\n",
        "records: { Weapon: { sword: { _mod: { replace: { kind: Blunt } } } } }\n",
        false,
        &[],
    ),
    (
        "the same new enum",
        "enums: { Tide: [Ebb] }\n",
        "enums: { Tide: [Flood] }\n",
        false,
        &["E0415"],
    ),
    (
        "rows added to the other pack's new table",
        "enums: { Tide: [Ebb, Flood] }\ntables: { reach: { key: Tide, value: int, default: 0, rows: { Ebb: 1 } } }\n",
        "tables: { reach: { rows: { Flood: 2 } } }\n",
        false,
        &["E0415"],
    ),
    (
        "rows added to the other pack's new table, b requiring a",
        "enums: { Tide: [Ebb, Flood] }\ntables: { reach: { key: Tide, value: int, default: 0, rows: { Ebb: 1 } } }\n",
        "tables: { reach: { rows: { Flood: 2 } } }\n",
        true,
        &[],
    ),
    (
        "a row the other pack's variant needs, from the other pack",
        "enums: { DamageType: [Fire] }\n",
        "tables: { soak: { rows: { Fire: 4 } } }\n",
        true,
        &[],
    ),
];

#[test]
fn two_packs_touching_one_thing_conflict_unless_the_later_requires_the_earlier() {
    let mut failed = Vec::new();
    for (case, a, b, requires, want) in TWO_PACKS {
        let req: &[&str] = if *requires { &["a"] } else { &[] };
        let dir = project(&[("a", &pack("a", &[], a)), ("b", &pack("b", req, b))]);
        let got = apply(dir.path(), &["a", "b"]);
        let codes: Vec<&str> = got.diags.iter().map(|(c, ..)| c.as_str()).collect();
        if codes != *want || got.program.is_some() != want.is_empty() {
            failed.push(format!("{case}: got {codes:?}\n{}", got.rendered));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn a_conflict_is_shown_at_both_packs_and_names_both() {
    let dir = project(&[
        ("a", &pack("a", &[], TWO_PACKS[2].1)),
        ("b", &pack("b", &[], TWO_PACKS[2].2)),
    ]);
    let (p, _, _) = rulesc::compile_dir(&dir.path().join("seas"));
    let paths = [
        dir.path().join("packs/a.yaml"),
        dir.path().join("packs/b.yaml"),
    ];
    let (_, diags, sources) = rulesc::pack::apply(&p.unwrap(), &paths);
    let d = &diags.items[0];
    assert_eq!(d.code, "E0415");
    assert!(d.message.contains("`a` and `b`"), "{}", d.message);
    assert!(sources.position(d.span).0.ends_with("b.yaml"));
    assert_eq!(d.notes.len(), 1);
    assert!(sources.position(d.notes[0].span).0.ends_with("a.yaml"));
}

#[test]
fn the_later_pack_wins_when_it_requires_the_earlier() {
    for order in [["a", "b"], ["b", "a"]] {
        let dir = project(&[
            ("a", &pack("a", &[], TWO_PACKS[3].1)),
            ("b", &pack("b", &["a"], TWO_PACKS[3].2)),
        ]);
        // Given in either order, `a` is read first: `b` requires it.
        let got = apply(dir.path(), &order);
        let v = export(&got.program.expect("applies"));
        assert_eq!(rows(&v, "soak")[0], ("Cut".into(), 3.into()), "{order:?}");
    }
}

/// A pack's variant that a table of the ruleset lacks is `E0310` at the variant, saying
/// what is missing and why: a row of a table keyed by the enum (the pack may add it), a
/// column of a grid (a pack cannot add one). (pack body, a ruleset file added, the line
/// of the pack blamed, what the message says.)
#[test]
fn a_packs_variant_a_table_lacks_is_blamed_at_the_variant() {
    let grid = "tables:\n  bite:\n    key: [int, DamageType]\n    value: int\n    columns: [Cut, Blunt]\n    rows: { \"..0\": [0, 0], \"1..\": [1, 2] }\n";
    let cases: [(&str, Option<&str>, u32, &[&str]); 2] = [
        (
            "enums:\n  DamageType: [Fire, Ice]\n",
            None,
            3,
            &[
                "`Fire` is added by the pack `a`",
                "no row for Fire-Ice",
                "`soak` is keyed by `DamageType`",
            ],
        ),
        (
            "enums: { DamageType: [Fire] }\ntables: { soak: { rows: { Fire: 2 } } }\n",
            Some(grid),
            2,
            &["no column for Fire", "a pack cannot add a column"],
        ),
    ];
    for (body, added, at, says) in cases {
        let dir = project(&[("a", &pack("a", &[], body))]);
        if let Some(text) = added {
            write(dir.path(), "seas/grid.yaml", text);
        }
        let got = apply(dir.path(), &["a"]);
        assert_eq!(
            got.diags,
            [("E0310".into(), "a.yaml".into(), at)],
            "{}",
            got.rendered
        );
        for part in says {
            assert!(got.rendered.contains(part), "{part}: {}", got.rendered);
        }
    }
}

#[test]
fn a_table_with_a_default_needs_no_row_for_a_packs_variant() {
    let dir = project(&[(
        "a",
        &pack(
            "a",
            &[],
            "enums: { Tide: [Ebb, Flood] }\ntables: { reach: { key: Tide, value: int, default: 0, rows: { Ebb: 1 } } }\n",
        ),
    )]);
    let got = apply(dir.path(), &["a"]);
    assert_eq!(got.diags, vec![], "{}", got.rendered);
}

/// `rulesc args...` in `dir`: exit code, standard output, standard error.
fn rulesc(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The line of `text` that starts (after its indent) with `start`.
fn line<'t>(text: &'t str, start: &str) -> &'t str {
    text.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line `{start}` in\n{text}"))
}

#[test]
fn explain_shows_which_pack_added_or_changed_what() {
    let dir = project(&[
        ("raiders", RAIDERS),
        (
            "worn",
            &MODS.replace(
                "ruleset: seas }",
                "ruleset: seas, requires: [raiders.yaml] }",
            ),
        ),
    ]);
    let p = dir.path();
    let packs = ["--pack", "packs/worn.yaml"];
    let explain = |name: &str| {
        let (code, out, err) = rulesc(p, &[&["explain", "seas", name][..], &packs].concat());
        assert_eq!(code, 0, "{err}");
        out
    };
    // (definition, its line, where that line comes from): a table's row from the
    // ruleset, one changed by `worn`, one added by `raiders`; a new table; a record
    // changed in place; a list with items appended (both places).
    let cases = [
        ("soak", "table soak", "seas/ruleset.yaml:16"),
        ("soak", "Cut: 0", "packs/worn.yaml:5 (pack worn)"),
        ("soak", "Blunt: 0", "seas/ruleset.yaml:19"),
        ("soak", "Brine: 0", "packs/raiders.yaml:9 (pack raiders)"),
        (
            "tide_reach",
            "table tide_reach",
            "packs/raiders.yaml:10 (pack raiders)",
        ),
        ("sword", "damage: Down", "packs/worn.yaml:13 (pack worn)"),
        ("sword", "kind: Cut", "seas/ruleset.yaml:26"),
        (
            "deckhands",
            "arms:",
            "seas/ruleset.yaml:29, packs/worn.yaml:18 (pack worn)",
        ),
    ];
    for (name, start, origin) in cases {
        let text = explain(name);
        assert!(line(&text, start).ends_with(origin), "{name}: {text}");
    }
    // An enum with a variant added.
    let kinds = explain("DamageType");
    assert!(
        kinds.contains("packs/raiders.yaml:3 (pack raiders)"),
        "{kinds}"
    );
    // Without the packs, the ruleset's own.
    let (_, plain, _) = rulesc(p, &["explain", "seas", "soak"]);
    assert!(!plain.contains("pack"), "{plain}");
    assert!(
        line(&plain, "Cut: 1").ends_with("seas/ruleset.yaml:19"),
        "{plain}"
    );
}

#[test]
fn a_pack_that_changes_the_code_is_refused_for_a_game_compiled_without_it() {
    let records_only = "pack: { name: armory, ruleset: seas }\nrecords:\n  Weapon:\n    axe: { damage: Down, kind: Cut }\n";
    let dir = project(&[
        ("raiders", RAIDERS),
        ("worn", MODS),
        ("armory", records_only),
    ]);
    let p = dir.path();
    let check = |pack: &str, compiled: bool| {
        let path = format!("packs/{pack}.yaml");
        let mut args = vec!["check", "--ruleset", "seas"];
        if compiled {
            args.push("--compiled");
        }
        args.push(&path);
        rulesc(p, &args)
    };
    // Records only: data a compiled game reads.
    assert_eq!(check("armory", true).0, 0);
    // Variants, levels, rows, a table: each section refused, with or without records.
    for (pack, sections) in [("raiders", 3), ("worn", 3)] {
        let (code, _, err) = check(pack, true);
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.matches("E0416").count(), sections, "{pack}: {err}");
        // Without `--compiled`, the same pack checks.
        assert_eq!(check(pack, false).0, 0, "{pack}");
    }
    // Built with the pack, the game holds its variant.
    let (code, _, err) = rulesc(
        p,
        &[
            "build",
            "seas",
            "-o",
            "seas.rs",
            "--pack",
            "packs/raiders.yaml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let rust = std::fs::read_to_string(p.join("seas.rs")).unwrap();
    assert!(
        rust.contains("Brine"),
        "the generated enum has the pack's variant"
    );
    let (_, _, _) = rulesc(p, &["build", "seas", "-o", "plain.rs"]);
    let plain = std::fs::read_to_string(p.join("plain.rs")).unwrap();
    assert!(!plain.contains("Brine"));
}

/// The repository's root folder.
fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

#[test]
fn the_shipped_pack_adds_a_variant_a_level_a_row_and_a_table() {
    let (code, out, err) = rulesc(
        &repo(),
        &[
            "check",
            "--ruleset",
            "examples/homebrew/salt_coast",
            "examples/homebrew/sea_raiders.yaml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "ok: pack sea_raiders for salt_coast: 2 record(s), 1 variant(s), 1 level(s), 1 row(s), 2 new definition(s)\n"
    );
    let (code, out, err) = rulesc(
        &repo(),
        &[
            "--format",
            "json",
            "check",
            "--ruleset",
            "examples/homebrew/salt_coast",
            "examples/homebrew/sea_raiders.yaml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        [
            &v["records"],
            &v["variants"],
            &v["levels"],
            &v["rows"],
            &v["new"],
            &v["changes"]
        ],
        [2, 1, 1, 1, 2, 0].map(Value::from).each_ref()
    );
    // Its scenario: the harpoon (a record of the pack's damage type) reaches the pack's
    // level, past the ruleset's top.
    let (code, out, err) = rulesc(&repo(), &["test", "examples/salt-coast"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    let (code, out, err) = rulesc(
        &repo(),
        &[
            "trace",
            "examples/homebrew/salt_coast",
            "examples/salt-coast/harpoon_strike.yaml",
            "--pack",
            "examples/homebrew/sea_raiders.yaml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("look up Brine: 0"), "{out}");
    assert!(out.ends_with("result: Drowned\n"), "{out}");
}

/// `(pack body, codes)`: packs of odd shapes (a stranger's, or a fuzzer's) each get their
/// diagnostics, never a panic, and nothing cascades into the ruleset's rules.
const ODD_SHAPES: &[(&str, &[&str])] = &[
    ("tables: { soak: [1] }", &["E0102"]),
    ("tables: { soak: { _mod: 7 } }", &["E0102"]),
    (
        "tables: { soak: { _mod: { replace: 7, remove: { a: 1 } } } }",
        &["E0102", "E0102"],
    ),
    ("tables: { soak: { rows: 5 } }", &["E0102"]),
    ("records: { Weapon: { sword: { _mod: 7 } } }", &["E0102"]),
    (
        "records: { Weapon: { sword: { _mod: { replace: [1], append: { damage: 3 } } } } }",
        &["E0102", "E0102"],
    ),
    (
        "enums: { DamageType: 7, Nope: { a: 1 } }",
        &["E0102", "E0102"],
    ),
    ("scales: { Harm: { levels: [X] } }", &["E0102"]),
    ("enums: { soak: [X] }", &["E0301"]),
    ("enums: { Harm: [X] }", &["E0301"]),
    (
        "records: { Nope: { sword: { _mod: { replace: { a: 1 } } } } }",
        &["E0414"],
    ),
    ("enums: ~\ntables: ~\nscales: ~", &[]),
    ("records: 7\nenums: { Tide: [Ebb] }", &["E0102"]),
];

#[test]
fn packs_of_odd_shapes_get_their_diagnostics() {
    let mut failed = Vec::new();
    for (body, want) in ODD_SHAPES {
        let dir = project(&[("odd", &pack("odd", &[], &format!("{body}\n")))]);
        let got = apply(dir.path(), &["odd"]);
        let codes: Vec<&str> = got.diags.iter().map(|(c, ..)| c.as_str()).collect();
        if codes != *want {
            failed.push(format!("{body}: got {codes:?}\n{}", got.rendered));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn a_pack_that_adds_data_needs_the_ruleset_as_it_was_checked() {
    let dir = project(&[("raiders", RAIDERS)]);
    let seas = dir.path().join("seas");
    let pack = [dir.path().join("packs/raiders.yaml")];
    // The ruleset changed on disk after it was checked.
    let (p, _, _) = rulesc::compile_dir(&seas);
    let p = p.unwrap();
    write(dir.path(), "seas/hit.rules", &format!("{RULES}// edited\n"));
    let (program, diags, _) = rulesc::pack::apply(&p, &pack);
    let codes: Vec<&str> = diags.items.iter().map(|d| d.code).collect();
    assert!(program.is_none() && codes == ["E0414"], "{codes:?}");
    assert!(diags.items[0].message.contains("changed"));
    // A program not checked from a folder (the library's `check::check`).
    let mut found = rulesc::diag::Diagnostics::default();
    let loaded = rulesc::load::load_dir(&seas, &mut found);
    let p = rulesc::check::check(loaded, &mut found).unwrap();
    let (program, diags, _) = rulesc::pack::apply(&p, &pack);
    let codes: Vec<&str> = diags.items.iter().map(|d| d.code).collect();
    assert!(program.is_none() && codes == ["E0414"], "{codes:?}");
    // A pack of records only needs neither.
    let armory = dir.path().join("packs/armory.yaml");
    std::fs::write(
        &armory,
        "pack: { name: armory }\nrecords:\n  Weapon:\n    axe: { damage: Down, kind: Cut }\n",
    )
    .unwrap();
    let (program, diags, _) = rulesc::pack::apply(&p, &[armory]);
    assert!(program.is_some(), "{:?}", diags.items);
}
