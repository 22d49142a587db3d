//! The generated crate fits a game's types: Kingsmark built with `Builder::serde(true)`,
//! `.derive("Hash")`, `.type_attribute("Weapon", "#[derive(Eq)]")` and
//! `.field_attribute("Combatant.initiative_roll", "#[serde(rename = \"rolled\")]")`
//! (`tests/build.rs`, module `kingsmark_fit`).

use rulesc_runtime::Track;
use rulesc_tests::kingsmark_fit as km;
use serde_json::{json, Value};
use std::collections::HashSet;

fn sir_aldren() -> km::Combatant {
    let mut skills = [0; 9];
    skills[km::Skill::ArmedCombat as usize] = 3;
    skills[km::Skill::ShieldCombat as usize] = 1;
    km::Combatant {
        physical_performance: 2,
        skills,
        armor: vec![
            km::ArmorPiece::leather_jerkin(),
            km::ArmorPiece::round_shield(),
        ],
        wounds: Track::with_filled(&[1, 7]),
        exposed_locations: vec![km::HitLocation::Head, km::HitLocation::LeftArm],
        initiative_roll: 9,
        ..Default::default()
    }
}

#[test]
fn a_combatant_round_trips_through_json() {
    let c = sir_aldren();
    let text = serde_json::to_string(&c).unwrap();
    let back: km::Combatant = serde_json::from_str(&text).unwrap();
    assert_eq!(back, c);

    // The JSON reads as the ruleset does: maps by key name, a track as its filled boxes,
    // enum values by name, the field attribute's rename.
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["skills"]["ArmedCombat"], json!(3));
    assert_eq!(v["skills"]["ShieldCombat"], json!(1));
    assert_eq!(v["skills"]["Underworld"], json!(0));
    assert_eq!(v["wounds"], json!([1, 7]));
    assert_eq!(v["exposed_locations"], json!(["Head", "LeftArm"]));
    assert_eq!(v["rolled"], json!(9));
    assert!(v.get("initiative_roll").is_none());
}

#[test]
fn outcomes_and_scales_use_the_rulesets_names() {
    let hit = km::AttackResult::Hit {
        level: km::DamageLevel::BelowMinor,
        location: km::HitLocation::Neck,
        r#box: 4,
    };
    let v = serde_json::to_value(hit).unwrap();
    // `box` is a Rust keyword (`r#box`), `BelowMinor` the scale's own name.
    assert_eq!(
        v,
        json!({ "Hit": { "level": "BelowMinor", "location": "Neck", "box": 4 } })
    );
    assert_eq!(serde_json::from_value::<km::AttackResult>(v).unwrap(), hit);
    assert_eq!(
        serde_json::to_value(km::AttackResult::Miss).unwrap(),
        json!("Miss")
    );
}

#[test]
fn fields_with_defaults_may_be_left_out() {
    // Only the fields a writer would give; the rest take the record type's defaults.
    let c: km::Combatant = serde_json::from_value(
        json!({ "physical_performance": 1, "skills": { "ArmedCombat": 2 } }),
    )
    .unwrap();
    let mut expected = km::Combatant {
        physical_performance: 1,
        ..Default::default()
    };
    expected.skills[km::Skill::ArmedCombat as usize] = 2;
    assert_eq!(c, expected);
}

#[test]
fn bad_json_is_an_error_that_says_what_is_wrong() {
    let cases = [
        (
            json!({ "physical_performanse": 1 }),
            "unknown field `physical_performanse`",
        ),
        (
            json!({ "wounds": [13] }),
            "box 13 is not on a track of 12 boxes",
        ),
        (json!({ "wounds": [2, 2] }), "box 2 is listed twice"),
        (json!({ "wounds": [0] }), "box 0 is not on a track"),
        (
            json!({ "skills": { "Juggling": 1 } }),
            "unknown variant `Juggling`",
        ),
        (
            json!({ "exposed_locations": ["Tail"] }),
            "unknown variant `Tail`",
        ),
    ];
    for (v, says) in cases {
        let e = serde_json::from_value::<km::Combatant>(v.clone()).unwrap_err();
        assert!(e.to_string().contains(says), "{v}: {e}");
    }
    let e = serde_json::from_str::<km::Combatant>(
        r#"{ "skills": { "ArmedCombat": 1, "ArmedCombat": 2 } }"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("given twice"), "{e}");
}

#[test]
fn weapons_take_the_attributes_the_build_script_asked_for() {
    // `.derive("Hash")` on every type and `#[derive(Eq)]` on `Weapon`: a weapon goes in
    // a `HashSet`, which needs both.
    let set: HashSet<km::Weapon> = [km::Weapon::arming_sword(), km::Weapon::longbow()]
        .into_iter()
        .collect();
    assert_eq!(set.len(), 2);
    let c: HashSet<km::Combatant> = HashSet::new();
    assert!(c.is_empty());
}

#[test]
fn dice_read_and_write_in_the_rules_notation() {
    use rulesc_runtime::{DiceSpec, Keep};
    let d: DiceSpec = serde_json::from_value(json!("4d6kh3")).unwrap();
    assert_eq!(
        d,
        DiceSpec {
            keep: Keep::Highest(3),
            ..DiceSpec::new(4, 6)
        }
    );
    assert_eq!(serde_json::to_value(d).unwrap(), json!("4d6kh3"));
    let e = serde_json::from_value::<DiceSpec>(json!("2d0")).unwrap_err();
    assert!(e.to_string().contains("2d0"), "{e}");
}
