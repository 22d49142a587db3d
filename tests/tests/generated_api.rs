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

/// A map keyed by numbers, flags or records (`rulesc_runtime::SortedMap`) is a list of
/// `{ "key": .., "value": .. }`, ascending by key, as `rulesc export` writes it; keys may
/// come in any order, a key given twice is an error.
#[test]
fn maps_over_any_key_are_lists_of_entries_in_json() {
    use rulesc_tests::coverage_fit as cv;
    let b = cv::Board::default();
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(
        v["tallies"],
        json!([{ "key": -2, "value": 5 }, { "key": 3, "value": 1 }])
    );
    assert_eq!(
        v["marks"],
        json!([{ "key": { "file": 1, "rank": 2 }, "value": [4] }])
    );
    assert_eq!(serde_json::from_value::<cv::Board>(v).unwrap(), b);
    let m: rulesc_runtime::SortedMap<bool, i64> =
        serde_json::from_value(json!([{ "key": true, "value": 1 }, { "key": false, "value": 2 }]))
            .unwrap();
    assert_eq!(m.keys().copied().collect::<Vec<_>>(), [false, true]);
    let twice = json!([{ "key": 1, "value": 1 }, { "key": 1, "value": 2 }]);
    let e = serde_json::from_value::<rulesc_runtime::SortedMap<i64, i64>>(twice).unwrap_err();
    assert!(e.to_string().contains("given twice"), "{e}");
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

/// Lists the rules compute or keep in tables, as a game reads them (Victory Stars and
/// d20-armor-slots, built without options).
mod lists {
    use rulesc_runtime::SmallList;
    use rulesc_tests::d20_armor_slots as d20;
    use rulesc_tests::victory_stars as vs;

    #[test]
    fn a_tables_list_is_a_static_slice_read_in_place() {
        let parts: &'static [vs::BodyPart] = vs::skill_parts(vs::Skill::Dodge);
        assert_eq!(
            parts,
            [
                vs::BodyPart::Hips,
                vs::BodyPart::Thighs,
                vs::BodyPart::Calves
            ]
        );
        // The same constant on every lookup, never a list built per call.
        assert!(std::ptr::eq(parts, vs::skill_parts(vs::Skill::Dodge)));
    }

    #[test]
    fn each_field_of_a_record_table_reads_as_its_record_does() {
        for &item in &vs::Item::ALL {
            let stats = vs::items(item);
            assert_eq!(vs::items_modes(item), stats.modes.as_slice(), "{item}");
            assert_eq!(vs::items_shield(item), stats.shield, "{item}");
            assert_eq!(vs::items_quality(item), stats.quality, "{item}");
            assert_eq!(
                vs::items_block_modifier(item),
                stats.block_modifier,
                "{item}"
            );
        }
    }

    #[test]
    fn a_computed_list_is_a_small_list_that_reads_as_a_slice() {
        let mut c = d20::Combatant::default();
        let open: SmallList<d20::Reaction, 16> = d20::reactions(&c);
        assert!(!open.contains(&d20::Reaction::Block));
        assert!(!open.spilled());
        c.shield = d20::ShieldKind::Wooden;
        c.shield_hp = 5;
        let all = d20::reactions(&c);
        assert_eq!(all, d20::Reaction::ALL.to_vec());
        assert_eq!(Vec::from(all).len(), d20::Reaction::ALL.len());
    }
}
