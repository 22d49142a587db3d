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
