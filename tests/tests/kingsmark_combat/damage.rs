//! K12..K14: natural results, the damage level, and the hit-location table.

use super::*;

// ---------------------------------------------------------------------------------------
// K12 Natural results: an unmodified 1 on an attack is an Epic Failure; a natural 12
// explodes repeatedly; defence rolls follow the same rules.

#[test]
fn k12_natural_one_on_a_melee_attack_is_an_epic_failure() {
    // 1 + 12 would hit a helpless target's TN 4; the natural 1 decides. No more dice.
    let strong = fighter(6, 6);
    let helpless = km::Combatant {
        defenceless: true,
        ..Default::default()
    };
    let run = melee(&strong, &mut helpless.clone(), &sword(), &[1], &[]);
    assert_eq!(run.result, EpicFailure);
    assert_eq!(run.assigned("let attack ="), ["13"]);
}

#[test]
fn k12_natural_one_on_a_ranged_attack_is_an_epic_failure() {
    let run = ranged(
        &archer(6, 6),
        &mut km::Combatant::default(),
        &longbow(),
        0,
        &[1],
        &[],
    );
    assert_eq!(run.result, EpicFailure);
}

#[test]
fn k12_natural_twelve_explodes_repeatedly_on_attack_and_defence() {
    // Attack 12 + 12 + 3 = 27; defence 12 + 12 + 2 = 26; margin 1: Moderate (27 meets the
    // Critical Threshold, no cap). Hit Location 1.
    let run = melee(
        &fighter(0, 0),
        &mut fighter(0, 0),
        &sword(),
        &[12, 12, 3, 12, 12, 2, 1],
        &HIT,
    );
    assert_eq!(run.result, hit(Moderate, LeftFoot, 7));
    assert_eq!(
        run.rolls(),
        [
            ("d12!".to_string(), vec![12, 12, 3], 27),
            ("d12!".to_string(), vec![12, 12, 2], 26),
            ("d12".to_string(), vec![1], 1),
        ]
    );
}

#[test]
fn k12_a_ranged_defence_roll_explodes_too() {
    // Evade 12 + 3 + 3 = 18 against the arrow's 10: nine levels off, no wound.
    let mut d = evader();
    assert_eq!(arrow(&mut d, &[6, 12, 3], &DODGE), NoWound);
    // A natural 12 on the arrow explodes as well: 12 + 5 + 4 = 21 against TN 4.
    let run = ranged(
        &archer(2, 2),
        &mut km::Combatant::default(),
        &longbow(),
        0,
        &[12, 5, 3],
        &[ranged_defence_roll(false)],
    );
    assert_eq!(run.assigned("let attack ="), ["21"]);
    assert_eq!(
        run.result,
        hit(Critical, LeftLeg, 12),
        "21 meets the threshold 15"
    );
}

#[test]
fn k12_a_defenders_natural_one() {
    // assumption (NOTES.md 9): the seed does not say what a defender's Epic Failure does.
    // Melee: he is no better off than one who made no Defense Roll, Base TN min(result, 4).
    let run = melee(
        &fighter(0, 0),
        &mut fighter(3, 3),
        &sword(),
        &[5, 1, 1],
        &HIT,
    );
    assert_eq!(run.assigned("let defence ="), ["7"]);
    assert_eq!(run.assigned("base_tn = min"), ["4"]);
    assert_eq!(run.result, hit(Moderate, LeftFoot, 7), "5 over 4");
    // Ranged: no reduction, though 1 + 9 would equal the arrow's 10.
    let mut d = km::Combatant {
        physical_performance: 4,
        skills: skills(&[(InfantryAthletics, 5)]),
        ..Default::default()
    };
    assert_eq!(
        arrow(&mut d, &[6, 1, 9], &DODGE),
        hit(Severe, LowerTorso, 10)
    );
}

// ---------------------------------------------------------------------------------------
// K13 Damage Level = weapon base + margin, minus the defence reduction; Critical only if
// the modified attack meets the Critical Threshold, otherwise capped at Severe.

#[test]
fn k13_each_point_over_the_final_tn_adds_one_level_to_the_weapon_base() {
    for (face, level, r#box) in [(5, Minor, 1), (6, Moderate, 7), (7, Severe, 10)] {
        // 5/6/7 + 3 against 8: margins 0, 1, 2 on a Minor sword.
        let run = melee(
            &fighter(1, 2),
            &mut fighter(1, 1),
            &sword(),
            &[face, 6, 1],
            &HIT,
        );
        assert_eq!(run.result, hit(level, LeftFoot, r#box), "face {face}");
    }
    // A Moderate base: the same margin 1 gives Severe.
    let spear = km::Weapon {
        base_damage: Moderate,
        ..sword()
    };
    let run = melee(&fighter(1, 2), &mut fighter(1, 1), &spear, &[6, 6, 1], &HIT);
    assert_eq!(run.result, hit(Severe, LeftFoot, 10));
}

#[test]
fn k13_critical_only_when_the_attack_meets_the_critical_threshold() {
    // assumption (NOTES.md 3): the seed gives the sword no Critical Threshold, only that
    // Aldren's 11 does not meet it; the ruleset assumes 13, pinned here.
    // 10 + 3 = 13 meets the sword's threshold 13: margin 3 over 10 reaches Critical.
    let run = melee(
        &fighter(1, 2),
        &mut fighter(0, 0),
        &sword(),
        &[10, 10, 1],
        &HIT,
    );
    assert_eq!(run.result, hit(Critical, LeftFoot, 12));
    assert!(run.assigned("level = min").is_empty(), "no cap");
    // 9 + 3 = 12 with the same margin 3 over 9: capped at Severe.
    let run = melee(
        &fighter(1, 2),
        &mut fighter(0, 0),
        &sword(),
        &[9, 9, 1],
        &HIT,
    );
    assert_eq!(run.assigned("let level ="), ["Critical"]);
    assert_eq!(run.assigned("level = min"), ["Severe"]);
    assert_eq!(run.result, hit(Severe, LeftFoot, 10));
}

#[test]
fn k13_meeting_the_threshold_does_not_create_a_critical_by_itself() {
    // 13 meets the threshold but beats TN 12 by 1: Minor + 1 = Moderate.
    let run = melee(
        &fighter(1, 2),
        &mut fighter(1, 1),
        &sword(),
        &[10, 10, 1],
        &HIT,
    );
    assert_eq!(run.result, hit(Moderate, LeftFoot, 7));
}

#[test]
fn k13_below_the_threshold_the_cap_holds_whatever_the_margin() {
    // 12 against a helpless target's TN 4: margin 8, still Severe.
    let helpless = km::Combatant {
        defenceless: true,
        ..Default::default()
    };
    let run = melee(
        &fighter(0, 0),
        &mut helpless.clone(),
        &km::Weapon {
            critical_threshold: 20,
            ..sword()
        },
        &[12, 6, 1],
        &[ORDINARY_STRIKE],
    );
    assert_eq!(run.assigned("let attack ="), ["18"], "12 + 6, exploded");
    assert_eq!(run.result, hit(Severe, LeftFoot, 10));
}

#[test]
fn k13_ranged_margin_over_the_realism_tn_then_the_defence_reduction() {
    // 9 + 6 = 15 against TN 4 + 8 = 12: Moderate + 3 = Critical, and 15 meets the bow's
    // threshold 15. The evasion (9 + 6) equals it: one level off, Severe.
    let mut d = nimble();
    let run = ranged(&archer(3, 3), &mut d, &longbow(), 8, &[9, 9, 9], &DODGE);
    assert_eq!(run.assigned("let level ="), ["Critical"]);
    assert!(run.assigned("level = min").is_empty());
    assert_eq!(run.result, hit(Severe, LowerTorso, 10), "{}", run.text());
}

#[test]
fn k13_ranged_severe_cap_applies_before_the_defence_reduction() {
    // assumption (NOTES.md 8): the cap applies to the initial Damage Level. 8 + 6 = 14
    // beats TN 12 by 2 (Moderate + 2 = Critical), capped at Severe (14 < 15), then the
    // equal evasion (8 + 6 = 14) takes one level: Moderate. Capping after the reduction
    // would have left Severe.
    let mut d = nimble();
    let run = ranged(&archer(3, 3), &mut d, &longbow(), 8, &[8, 8, 9], &DODGE);
    assert_eq!(run.assigned("level = min"), ["Severe"]);
    assert_eq!(run.result, hit(Moderate, LowerTorso, 7));
}

// ---------------------------------------------------------------------------------------
// K14 Hit location 1d12 table (12 Head .. 1 Left Foot); aimed attacks choose a location;
// impossible locations rerolled among the available ones.

#[test]
fn k14_the_hit_location_table_runs_from_12_head_to_1_left_foot() {
    let book = [
        (12, "Head"),
        (11, "Neck"),
        (10, "Upper Torso"),
        (9, "Lower Torso, Buttocks & Groin"),
        (8, "Right Shoulder & Arm"),
        (7, "Left Shoulder & Arm"),
        (6, "Right Hand"),
        (5, "Left Hand"),
        (4, "Right Leg"),
        (3, "Left Leg"),
        (2, "Right Foot"),
        (1, "Left Foot"),
    ];
    let anyone = km::Combatant::default();
    for (face, name) in book {
        let run = hit_location(&anyone, &anyone, &[face], &[]);
        assert_eq!(run.result.label(), name, "face {face}");
        assert_eq!(run.rolls()[0].0, "d12");
    }
}

#[test]
fn k14_an_aimed_attack_chooses_the_location() {
    let aiming = km::Combatant {
        aiming: true,
        ..fighter(1, 2)
    };
    let anyone = km::Combatant::default();
    for location in km::HitLocation::ALL {
        let run = hit_location(&aiming, &anyone, &[], &[aimed_at(location)]);
        assert_eq!(run.result, location);
        assert!(run.rolls().is_empty(), "no location die");
    }
    // In a melee exchange: the aimed Head, no Hit Location die.
    let run = melee(
        &aiming,
        &mut fighter(1, 1),
        &sword(),
        &[5, 6],
        &[DEFEND_ARMED, ORDINARY_STRIKE, aimed_at(Head)],
    );
    assert_eq!(run.result, hit(Minor, Head, 1));
    // Without an aiming action the attacker is never asked: the die decides.
    let run = hit_location(&fighter(1, 2), &anyone, &[11], &[]);
    assert_eq!(run.result, Neck);
}

#[test]
fn k14_impossible_locations_are_rerolled_among_the_available_ones() {
    // Over a stone wall only the head and shoulders show. The roll is among those three
    // (a d3 over the table's faces 7, 8, 12 in face order; NOTES.md language gap 8): a
    // foot cannot be struck, and the attacker does not choose.
    let behind_wall = km::Combatant {
        exposed_locations: vec![Head, RightArm, LeftArm],
        ..Default::default()
    };
    let attacker = fighter(1, 2);
    let mut struck = Vec::new();
    for face in 1..=3 {
        let run = hit_location(&attacker, &behind_wall, &[face], &[]);
        assert_eq!(run.rolls()[0].0, "d3");
        struck.push(run.result);
    }
    assert_eq!(struck, [LeftArm, RightArm, Head]);
    // A melee hit on him: the third location among the three is the Head.
    // 5 + 3 = 8 against his bare 7: margin 1, Moderate.
    let run = melee(
        &attacker,
        &mut behind_wall.clone(),
        &sword(),
        &[5, 7, 3],
        &HIT,
    );
    assert_eq!(run.result, hit(Moderate, Head, 7));
}
