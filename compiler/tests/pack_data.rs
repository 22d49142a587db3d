//! Homebrew beyond records (issue 29 §6): packs that add enum variants, scale levels
//! (where the scale is `extensible`), table rows and tables, and change the ruleset's
//! records and rows in place (`_mod`); conflicts between two packs; a table missing the
//! row of a pack's variant. Each through `rulesc::pack::apply`, as every command does.

use rulesc::diag::Severity;
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
    let paths: Vec<_> = packs
        .iter()
        .map(|n| dir.join(format!("packs/{n}.yaml")))
        .collect();
    let (program, diags, sources2) = rulesc::pack::apply(&p, &paths);
    let _ = sources;
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
const MISTAKES: &[(&str, &str, &[(&str, &str, u32)])] = &[
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
    assert!(
        codes.iter().any(|(_, f)| *f == "kind.rules") && a.program.is_none(),
        "{}",
        a.rendered
    );
}
