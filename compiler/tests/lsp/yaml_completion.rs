//! Completion of YAML values by their type: a field's value offers only what its type's
//! values are, not every name of the ruleset.

use super::*;

const DATA: &str = "\
ruleset:
  name: typed
  title: Typed values
scales:
  DamageLevel: [NoWound, Minor, Moderate, Severe, Critical]
enums:
  HitLocation: [Head, Torso, Arm, Leg]
  Skill: [Blades, Bows]
types:
  Weapon:
    skill: Skill
    damage: DamageLevel
    reach: int
    silvered: { type: bool, default: false }
  Fighter:
    weapon: Weapon
    favoured: { type: list<HitLocation>, default: [] }
tables:
  hit_locations:
    die: d4
    value: HitLocation
    rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }
records:
  Weapon:
    sword: { skill: Blades, damage: Moderate, reach: 1 }
    bow: { skill: Bows, damage: Minor, reach: 9 }
  Fighter:
    mira: { weapon: sword }
";

#[test]
fn a_yaml_value_offers_only_its_types_values() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), DATA).unwrap();
    let data = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&data, DATA);
    c.diagnostics(&data);
    let mut version = 1;
    // The writer changes `old` to `typed` (it need not parse), and asks at its end.
    let mut offered = |c: &mut Client, old: &str, typed: &str| -> Vec<String> {
        let text = DATA.replace(old, typed);
        version += 1;
        c.change(&data, version, &text);
        let at = pos(&text, typed, 0, typed.len());
        let r = c.request("textDocument/completion", doc_pos(&data, at));
        labels(&r)
    };
    let sword = "sword: { skill: Blades, damage: Moderate, reach: 1 }";
    let cases: [(&str, &str, &[&str]); 10] = [
        // An enum's variants, a scale's levels (in order), a record type's records.
        (sword, "sword: { skill: ", &["Blades", "Bows"]),
        (
            sword,
            "sword: { skill: Blades, damage: Mo",
            &["NoWound", "Minor", "Moderate", "Severe", "Critical"],
        ),
        (
            "mira: { weapon: sword }",
            "mira: { weapon: ",
            &["sword", "bow"],
        ),
        // A list's items; a bool.
        (
            "mira: { weapon: sword }",
            "mira: { weapon: sword, favoured: [Head, ",
            &["Head", "Torso", "Arm", "Leg"],
        ),
        (sword, "sword: { silvered: ", &["true", "false"]),
        // A number: nothing to offer.
        (sword, "sword: { reach: ", &[]),
        // Block style.
        (
            sword,
            "sword:\n      damage: ",
            &["NoWound", "Minor", "Moderate", "Severe", "Critical"],
        ),
        // A table's row.
        (
            "{ 4: Head, 3: Torso, 2: Arm, 1: Leg }",
            "{ 4: Head, 3: ",
            &["Head", "Torso", "Arm", "Leg"],
        ),
        // A field's type in `types:`.
        (
            "    reach: int\n",
            "    reach: i",
            &[
                "DamageLevel",
                "HitLocation",
                "Skill",
                "Weapon",
                "Fighter",
                "int",
                "bool",
                "dice",
            ],
        ),
        (
            "    reach: int\n",
            "    reach: { type: ",
            &[
                "DamageLevel",
                "HitLocation",
                "Skill",
                "Weapon",
                "Fighter",
                "int",
                "bool",
                "dice",
            ],
        ),
    ];
    for (old, typed, expected) in cases {
        assert_eq!(offered(&mut c, old, typed), expected, "{typed}");
    }
    // A place whose type is not known (the manifest's `title`): every name, as before.
    let all = offered(&mut c, "  title: Typed values", "  title: T");
    for name in ["Blades", "sword", "hit_locations", "Weapon"] {
        assert!(all.iter().any(|n| n == name), "{name} missing from {all:?}");
    }
    c.shutdown();
}

const KIT: &str = "\
ruleset:
  name: kit
  title: Kit
scales:
  Harm: [Scratch, Wound, Down]
enums:
  Skill: [Blades, Bows]
  Stance: [Guard, Open]
types:
  Weapon:
    skill: Skill
    harm: Harm
  Fighter:
    hp: { type: int, default: 3 }
    skills: { type: \"map<Skill, int>\", default: {} }
    stances: { type: \"map<Skill, Stance>\", default: {} }
    weapon: { type: Weapon, default: fist }
records:
  Weapon:
    fist: { skill: Blades, harm: Scratch }
    bow: { skill: Bows, harm: Wound }
  Fighter:
    mira: { hp: 4, skills: { Bows: 2 }, weapon: { skill: Bows, harm: Wound } }
";

const KIT_RULES: &str = "\
outcome Blow { Miss, Hit }

procedure strike(f: Fighter, w: Weapon, stance: Stance) -> Blow {
  let r = roll d6 + f.hp
  if r < 5 or stance == Open or w.harm > Wound { return Miss }
  return Hit
}

procedure go(c: fighter) {
  c.hp -= 1
}

fight of Fighter {
  order(c) = [c.hp]
  out(c) = c.hp <= 0
  on turn = go
}
";

const KIT_SCENARIO: &str = "\
ruleset: ../rules/kit
run: strike
args:
  f: mira
  w: bow
  stance: Guard
dice: [6]
";

const KIT_FIGHT: &str = "\
ruleset: ../rules/kit
sides:
  Red:
    Ann: { hp: 2 }
  Blue:
    Bob: mira
";

/// Issue 29 §4: a map's keys offer its key type and its values their type, a record
/// written inside a record offers its own fields' types, a scenario's `args:` the
/// procedure's parameters and their types, a fight file's `sides:` the combatants'
/// type; each through the client, in the file being typed (it need not parse).
#[test]
fn maps_nested_records_args_and_sides_offer_their_types() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("rulesc.toml"), "").unwrap();
    for (file, text) in [
        ("rules/kit/ruleset.yaml", KIT),
        ("rules/kit/combat.rules", KIT_RULES),
        ("scenarios/strike.yaml", KIT_SCENARIO),
        ("fights/duel.yaml", KIT_FIGHT),
    ] {
        let path = p.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut c = Client::start();
    initialize(&mut c, p);
    let files = [
        uri(&p.join("rules/kit/ruleset.yaml")),
        uri(&p.join("scenarios/strike.yaml")),
        uri(&p.join("fights/duel.yaml")),
    ];
    for (file, text) in files.iter().zip([KIT, KIT_SCENARIO, KIT_FIGHT]) {
        c.open(file, text);
        assert_eq!(c.diagnostics(file), Vec::<Value>::new(), "{file}");
    }
    let mut version = 1;
    // In file `f` (holding `text`), `old` changed to `typed`, asked at its end.
    let mut offered = |c: &mut Client, f: usize, text: &str, old: &str, typed: &str| {
        assert!(text.contains(old), "{old}");
        let text = text.replace(old, typed);
        version += 1;
        c.change(&files[f], version, &text);
        let at = pos(&text, typed, 0, typed.len());
        labels(&c.request("textDocument/completion", doc_pos(&files[f], at)))
    };
    let mira = "mira: { hp: 4, skills: { Bows: 2 }, weapon: { skill: Bows, harm: Wound } }";
    let harms: &[&str] = &["Scratch", "Wound", "Down"];
    let fighter_fields: &[&str] = &["hp", "skills", "stances", "weapon"];
    let texts = [KIT, KIT_SCENARIO, KIT_FIGHT];
    let cases: [(usize, &str, &str, &[&str]); 15] = [
        // A map's key: its key type; its value: the value's type (an int: nothing).
        (0, mira, "mira: { skills: { ", &["Blades", "Bows"]),
        (0, mira, "mira: { skills: { Bows: 2, B", &["Blades", "Bows"]),
        (0, mira, "mira: { stances: { Bows: ", &["Guard", "Open"]),
        (0, mira, "mira: { skills: { Bows: ", &[]),
        (
            0,
            mira,
            "mira:\n      skills:\n        B",
            &["Blades", "Bows"],
        ),
        // A record written in a record: its fields, and each field's type.
        (0, mira, "mira: { weapon: { harm: ", harms),
        (
            0,
            mira,
            "mira:\n      weapon:\n        skill: ",
            &["Blades", "Bows"],
        ),
        (
            0,
            mira,
            "mira: { weapon: { skill: Bows, h",
            &["skill", "harm"],
        ),
        (0, mira, "mira: { ", fighter_fields),
        // A scenario's arguments: the parameters, then each one's type.
        (1, "  f: mira", "  f: mira\n  ", &["f", "w", "stance"]),
        (1, "  w: bow", "  w: ", &["fist", "bow"]),
        // A fight file's fighter: a combatant, and a combatant's fields' types.
        (2, "Bob: mira", "Bob: ", &["mira"]),
        (1, "  stance: Guard", "  stance: ", &["Guard", "Open"]),
        (
            2,
            "Ann: { hp: 2 }",
            "Ann: { skills: { ",
            &["Blades", "Bows"],
        ),
        (2, "Ann: { hp: 2 }", "Ann: { weapon: ", &["fist", "bow"]),
    ];
    for (f, old, typed, expected) in cases {
        let got = offered(&mut c, f, texts[f], old, typed);
        assert_eq!(got, expected, "{typed:?}");
    }
    c.shutdown();
}

const KEYED: &str = "\
ruleset:
  name: keyed
  title: Keyed
scales:
  Harm: [Scratch, Wound, Down]
enums:
  Skill: [Blades, Bows]
  Stance: [Guard, Open]
types:
  Weapon:
    harm: Harm
  Fighter:
    resist: { type: \"map<Harm, int>\", default: {} }
    favourite: { type: \"map<Weapon, Stance>\", default: {} }
    by_hp: { type: \"map<int, Stance>\", default: {} }
    drills: { type: \"map<Skill, map<Stance, Harm>>\", default: {} }
tables:
  skill_bonus:
    key: Skill
    value: int
    rows: { Blades: 1, Bows: 2 }
  harm_step:
    key: Harm
    value: Harm
    rows: { Scratch: Wound, Wound: Down, Down: Down }
  by_roll:
    die: d4
    value: Stance
    rows: { \"1-2\": Guard, \"3-4\": Open }
records:
  Weapon:
    fist: { harm: Scratch }
    axe: { harm: Wound }
  Fighter:
    mira: { resist: { Wound: 1 } }
";

/// Issue 29 §4, the gaps: a table's row keys offer the table's key type; a map keyed by
/// a scale offers its levels (in order), one keyed by records the records, one keyed by
/// numbers nothing (and its values their type); a map in a map, the inner map's keys and
/// values. Each through the client, in the file being typed.
#[test]
fn table_rows_and_maps_by_any_key_and_maps_in_maps_offer_their_keys() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), KEYED).unwrap();
    let data = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&data, KEYED);
    // No error (the tables are unused: warnings).
    let errors: Vec<Value> = c
        .diagnostics(&data)
        .into_iter()
        .filter(|d| d["severity"] == 1)
        .collect();
    assert_eq!(errors, Vec::<Value>::new());
    let mut version = 1;
    let mut offered = |c: &mut Client, old: &str, typed: &str| -> Vec<String> {
        assert!(KEYED.contains(old), "{old}");
        let text = KEYED.replace(old, typed);
        version += 1;
        c.change(&data, version, &text);
        let at = pos(&text, typed, 0, typed.len());
        labels(&c.request("textDocument/completion", doc_pos(&data, at)))
    };
    let harms: &[&str] = &["Scratch", "Wound", "Down"];
    let stances: &[&str] = &["Guard", "Open"];
    let skills: &[&str] = &["Blades", "Bows"];
    let mira = "mira: { resist: { Wound: 1 } }";
    let bonus = "rows: { Blades: 1, Bows: 2 }";
    let step = "rows: { Scratch: Wound, Wound: Down, Down: Down }";
    let rolled = "rows: { \"1-2\": Guard, \"3-4\": Open }";
    let cases: [(&str, &str, &[&str]); 16] = [
        // A table's row keys: its key type's variants or levels; numbers: nothing.
        (bonus, "rows: { Blades: 1, ", skills),
        (bonus, "rows:\n      B", skills),
        (step, "rows: { Scratch: Wound, ", harms),
        (rolled, "rows: { \"1-2\": Guard, ", &[]),
        // ... and a row's value, its values' type, as before.
        (step, "rows: { Scratch: ", harms),
        (bonus, "rows: { Blades: ", &[]),
        // A map keyed by a scale, by records, by numbers.
        (mira, "mira: { resist: { ", harms),
        (mira, "mira: { resist: { Wound: ", &[]),
        (mira, "mira: { favourite: { ", &["fist", "axe"]),
        (mira, "mira: { favourite: { axe: ", stances),
        (mira, "mira: { by_hp: { ", &[]),
        (mira, "mira: { by_hp: { 3: ", stances),
        // A map in a map: the outer keys, the inner keys, the inner values.
        (mira, "mira: { drills: { ", skills),
        (mira, "mira: { drills: { Bows: { ", stances),
        (mira, "mira: { drills: { Bows: { Open: ", harms),
        (
            mira,
            "mira:\n      drills:\n        Bows:\n          Open: ",
            harms,
        ),
    ];
    for (old, typed, expected) in cases {
        assert_eq!(offered(&mut c, old, typed), expected, "{typed:?}");
    }
    c.shutdown();
}

const GRID: &str = "\
ruleset:
  name: grid
  title: Grid
scales:
  Harm: [Scratch, Wound, Down]
enums:
  Armor: [Cloth, Mail, Plate]
  Stance: [Guard, Open]
tables:
  to_wound:
    key: [int, Armor]
    value: int
    columns: [Cloth, Mail, Plate]
    rows: { \"..2\": [4, 5, 6], \"3..\": [3, 4, 5] }
  stance_for:
    key: [Stance, Harm]
    value: Stance
    columns: [Scratch, Wound, Down]
    rows: { Guard: [Guard, Guard, Open], Open: [Open, Open, Guard] }
  in_reach:
    key: [int, int]
    value: bool
    default: false
    columns: [0, 1]
    rows: { 1: [true, false] }
";

/// A two-key table's `columns:` offer its column key's variants, or a scale's levels in
/// order; numbers, nothing (not every name). A grid's row keys and cells offer the row
/// key's and the value's types, as a one-key table's do. Through the client.
#[test]
fn a_two_key_tables_columns_offer_the_column_keys_type() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), GRID).unwrap();
    let data = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&data, GRID);
    // No error (the tables are unused: warnings).
    let errors: Vec<Value> = c
        .diagnostics(&data)
        .into_iter()
        .filter(|d| d["severity"] == 1)
        .collect();
    assert_eq!(errors, Vec::<Value>::new());
    let mut version = 1;
    let mut offered = |c: &mut Client, old: &str, typed: &str| -> Vec<String> {
        assert!(GRID.contains(old), "{old}");
        let text = GRID.replace(old, typed);
        version += 1;
        c.change(&data, version, &text);
        let at = pos(&text, typed, 0, typed.len());
        labels(&c.request("textDocument/completion", doc_pos(&data, at)))
    };
    let armors: &[&str] = &["Cloth", "Mail", "Plate"];
    let harms: &[&str] = &["Scratch", "Wound", "Down"];
    let stances: &[&str] = &["Guard", "Open"];
    let wound = "columns: [Cloth, Mail, Plate]";
    let stance = "columns: [Scratch, Wound, Down]";
    let stance_rows = "rows: { Guard: [Guard, Guard, Open], Open: [Open, Open, Guard] }";
    let reach = "columns: [0, 1]";
    let cases: [(&str, &str, &[&str]); 7] = [
        // The columns: an enum's variants, a scale's levels in order, numbers nothing.
        (wound, "columns: [", armors),
        (wound, "columns: [Cloth, M", armors),
        (stance, "columns: [Scratch, ", harms),
        (reach, "columns: [0, ", &[]),
        // The rows' keys and a row's cells.
        (
            stance_rows,
            "rows: { Guard: [Guard, Guard, Open], ",
            stances,
        ),
        (stance_rows, "rows: { Guard: [Guard, ", stances),
        (
            stance_rows,
            "rows: { Guard: [Guard, Guard, Open], Open: [",
            stances,
        ),
    ];
    for (old, typed, expected) in cases {
        assert_eq!(offered(&mut c, old, typed), expected, "{typed:?}");
    }
    c.shutdown();
}
