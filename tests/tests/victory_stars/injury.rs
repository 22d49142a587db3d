//! V7..V9: impact, the injury level, and what a wound does.

use super::*;

// ---------------------------------------------------------------------------------------
// V7 Impact = strike mode dice + Strength Impact Modifier + range band + Impact TAs;
// aspect blunt/edged/piercing/fire; protection per aspect (natural toughness + worn)
// subtracted.

fn archer() -> Combatant {
    Combatant {
        strength: 16,
        skills: skills(&[(Skill::Archery, 60), (Skill::Initiative, 50)]),
        held: vec![Shortbow],
        ..Default::default()
    }
}

#[test]
fn v7_impact_is_dice_strength_range_band_and_impact_advantages() {
    // A shortbow shot (1d6: 4) with a broadhead (1d6: 5), Strength 16 (+2), at long
    // range (-2), and one Impact Tactical Advantage spent on it: 4, 9, 11, 9, 10.
    // Against a padded jack (edged 2): effective 8, Injury Level 2, a Serious wound to
    // the Chest; Shock Index 3 (3d6: 3, no shock); the Morale Test (33) holds Steady.
    let mut a = Combatant {
        advantages: [1, 0, 0, 0],
        ..archer()
    };
    let mut d = Combatant {
        unaware: true,
        armour: vec![vs::Armour::padded_jack()],
        ..brigand()
    };
    let (r, trace) = scripted(
        &[33, 25, 4, 5, 1, 1, 1, 33],
        &[no("aim"), yes("spend_impact")],
        |e| {
            vs::missile_attack(
                e,
                &mut a,
                &mut d,
                StrikeMode::BowShot,
                &[vs::Ammunition::Broadhead],
                vs::RangeBand::Long,
            )
            .unwrap()
        },
    );
    assert_eq!(assigned(&trace, "let impact"), ["4", "9"]);
    assert_eq!(
        assigned(&trace, "impact = impact +"),
        ["9", "11", "9", "10"]
    );
    assert_eq!(assigned(&trace, "let effective_impact"), ["8"]);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Success,
            blow: wounded(Chest, vs::Severity::Serious, 2)
        }
    );
    assert_eq!(a.advantages, [0; 4], "spent");
    assert_eq!(d.morale_states, [Steady]);
}

#[test]
fn v7_a_thrown_weapon_has_no_projectile_and_melee_no_range_band() {
    // A javelin (2d6) thrown at medium range (-1) by Strength 10: 3 + 4 - 1 = 6.
    let (impact, trace) = scripted(&[3, 4], &[], |e| {
        vs::roll_impact(
            e,
            &swordsman(),
            StrikeMode::JavelinThrow,
            &[],
            vs::RangeBand::Medium,
        )
        .unwrap()
    });
    assert_eq!(impact, 6);
    assert_eq!(rolls(&trace), [("2d6".to_string(), vec![3, 4])]);
    assert_eq!(vs::range_band_impact(vs::RangeBand::WithinReach), 0);
    let bands: Vec<i64> = vs::RangeBand::ALL
        .iter()
        .map(|b| vs::range_band_impact(*b))
        .collect();
    assert_eq!(bands, [0, 0, -1, -2, -4]);
}

#[test]
fn v7_strength_impact_modifier() {
    // assumption: 9-12 is average.
    let sim: Vec<i64> = [3, 5, 6, 8, 9, 12, 13, 15, 16, 18, 19, 25]
        .iter()
        .map(|s| vs::strength_impact_modifier(*s))
        .collect();
    assert_eq!(sim, [-2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 3]);
}

#[test]
fn v7_the_aspect_decides_which_protection_answers() {
    // The same bow shot (4 + 5 = 9 at short range, Strength 10) against mail: a
    // broadhead (edged, mail 6) leaves 3, no injury; a bodkin (piercing, mail 3) leaves 6:
    // a Minor wound (Shock Index 1 + 1 for the Chest: 2d6 1 + 1, no shock).
    let shoot = |arrow: vs::Ammunition, faces: &[u32]| {
        let mut a = Combatant {
            strength: 10,
            ..archer()
        };
        let mut d = Combatant {
            armour: vec![vs::Armour::mail_hauberk()],
            ..brigand()
        };
        scripted(faces, &[], |e| {
            vs::blow_to(
                e,
                &mut a,
                &mut d,
                StrikeMode::BowShot,
                &[arrow],
                vs::RangeBand::Short,
                Chest,
            )
            .unwrap()
        })
        .0
    };
    assert_eq!(
        shoot(vs::Ammunition::Broadhead, &[4, 5]),
        Blow::NoInjury {
            part: Chest,
            effective_impact: 3
        }
    );
    assert_eq!(
        shoot(vs::Ammunition::Bodkin, &[4, 5, 1, 1]),
        wounded(Chest, vs::Severity::Minor, 1)
    );
    // A strike mode has exactly one aspect; a launched projectile brings its own.
    use vs::Ammunition::{Bodkin, Broadhead, SlingStone};
    assert_eq!(
        vs::blow_aspect(StrikeMode::BroadswordCut, &[]).unwrap(),
        Edged
    );
    assert_eq!(
        vs::blow_aspect(StrikeMode::BroadswordThrust, &[]).unwrap(),
        Piercing
    );
    assert_eq!(vs::blow_aspect(StrikeMode::MaceBlow, &[]).unwrap(), Blunt);
    assert_eq!(vs::blow_aspect(StrikeMode::TorchBlow, &[]).unwrap(), Fire);
    assert_eq!(
        vs::blow_aspect(StrikeMode::BowShot, &[Broadhead]).unwrap(),
        Edged
    );
    assert_eq!(
        vs::blow_aspect(StrikeMode::BowShot, &[Bodkin]).unwrap(),
        Piercing
    );
    assert_eq!(
        vs::blow_aspect(StrikeMode::SlingShot, &[SlingStone]).unwrap(),
        Blunt
    );
}

#[test]
fn v7_protection_is_natural_toughness_plus_what_is_worn_there_for_that_aspect() {
    let bull = Combatant {
        armour: vec![vs::Armour::mail_hauberk(), vs::Armour::padded_jack()],
        ..Combatant::bull()
    };
    // Toughness (blunt 2, edged 1, piercing 1, fire 0) + mail + padded jack.
    assert_eq!(vs::protection(&bull, Chest, Edged), 1 + 6 + 2);
    assert_eq!(vs::protection(&bull, Chest, Blunt), 2 + 2 + 4);
    assert_eq!(vs::protection(&bull, Chest, Fire), 1 + 1);
    // The mail covers the thighs, the jack does not; nothing covers the head.
    assert_eq!(vs::protection(&bull, Thighs, Piercing), 1 + 3);
    assert_eq!(vs::protection(&bull, Head, Edged), 1);
}

#[test]
fn v7_impact_advantages_are_spent_on_the_blow_or_kept() {
    // A cut (3 + 4 + 1 = 8) on a proof-armoured victim, with two Impact advantages held.
    for spend in [true, false] {
        let mut a = Combatant {
            advantages: [2, 1, 0, 0],
            ..swordsman()
        };
        let mut d = armoured(brigand());
        let answer = if spend {
            yes("spend_impact")
        } else {
            no("spend_impact")
        };
        let (_, trace) = scripted(&[3, 4], &[answer], |e| {
            vs::blow_to(
                e,
                &mut a,
                &mut d,
                StrikeMode::BroadswordCut,
                &[],
                vs::RangeBand::WithinReach,
                Chest,
            )
            .unwrap()
        });
        let impact = if spend { "10" } else { "8" };
        assert_eq!(assigned(&trace, "impact = impact + spend"), [impact]);
        assert_eq!(
            a.advantages,
            if spend { [0, 1, 0, 0] } else { [2, 1, 0, 0] }
        );
    }
}

// ---------------------------------------------------------------------------------------
// V8 Effective impact to Injury Level by the victim's thresholds; light edged/piercing
// against rigid armour glances (no wound, jarring).

#[test]
fn v8_the_injury_level_reads_the_victims_own_thresholds() {
    let (cat, man, bull) = (
        Combatant::cat(),
        Combatant::man_at_arms(),
        Combatant::bull(),
    );
    for (effective, levels) in [
        (0, [0, 0, 0]),
        (3, [3, 0, 0]),
        (9, [5, 2, 1]),
        (40, [5, 5, 5]),
    ] {
        assert_eq!(
            [
                vs::injury_level(&cat, effective),
                vs::injury_level(&man, effective),
                vs::injury_level(&bull, effective)
            ],
            levels,
            "effective impact {effective}"
        );
    }
}

#[test]
fn v8_the_same_blow_reads_differently_on_a_cat_a_person_and_a_bull() {
    // One cut to the upper arm: 2d6 (4 + 4) + 1 = 9.
    // The cat (thresholds 1..5): Injury Level 5, Grievous; Shock Index 4 (4d6: 4, no
    // shock against Endurance 5); Morale 33 against Initiative 30: Withdrawing.
    // The person (4, 8, 12...): Injury Level 2, Serious; Shock Index 2 (2d6: 2); Morale
    // 33 against 40: Steady. The bull (toughness 1 edged, thresholds 8, 16...): 8, Injury
    // Level 1, Minor, no Shock test and no Morale Test.
    let cases = [
        (
            Combatant::cat(),
            vec![4, 4, 1, 1, 1, 1, 33],
            vs::Severity::Grievous,
            5,
            Some(Withdrawing),
        ),
        (
            brigand(),
            vec![4, 4, 1, 1, 33],
            vs::Severity::Serious,
            2,
            Some(Steady),
        ),
        (Combatant::bull(), vec![4, 4], vs::Severity::Minor, 1, None),
    ];
    for (victim, faces, severity, level, morale) in cases {
        let mut a = swordsman();
        let mut d = victim;
        let (blow, _) = scripted(&faces, &[], |e| {
            vs::blow_to(
                e,
                &mut a,
                &mut d,
                StrikeMode::BroadswordCut,
                &[],
                vs::RangeBand::WithinReach,
                UpperArms,
            )
            .unwrap()
        });
        assert_eq!(blow, wounded(UpperArms, severity, level));
        assert_eq!(d.morale_states, morale.into_iter().collect::<Vec<_>>());
    }
}

#[test]
fn v8_a_light_edged_blow_glances_off_rigid_armour_and_jars() {
    // A cut of 6 + 6 + 1 = 13 on a steel breastplate (edged 8): 5, Injury Level 1, a
    // light edged blow on rigid armour: no wound, one level of fatigue (assumption).
    let mut a = swordsman();
    let mut d = Combatant {
        armour: vec![vs::Armour::steel_breastplate()],
        ..brigand()
    };
    let (blow, _) = scripted(&[6, 6], &[], |e| {
        vs::blow_to(
            e,
            &mut a,
            &mut d,
            StrikeMode::BroadswordCut,
            &[],
            vs::RangeBand::WithinReach,
            Chest,
        )
        .unwrap()
    });
    assert_eq!(blow, Blow::Glance { part: Chest });
    assert!(d.wounds.is_empty());
    assert_eq!(d.fatigue, 1);
}

#[test]
fn v8_only_light_edged_or_piercing_blows_on_rigid_armour_glance() {
    let plate = Combatant {
        armour: vec![vs::Armour::steel_breastplate(), vs::Armour::padded_jack()],
        ..brigand()
    };
    assert!(vs::glances(&plate, Chest, Edged, 1));
    assert!(vs::glances(&plate, Abdomen, Piercing, 1));
    assert!(!vs::glances(&plate, Chest, Edged, 2), "not light");
    assert!(!vs::glances(&plate, Chest, Blunt, 1), "blunt");
    assert!(!vs::glances(&plate, Chest, Fire, 1), "fire");
    assert!(
        !vs::glances(&plate, Hips, Edged, 1),
        "the jack covers the hips, not rigid"
    );
    // A light blunt blow on the breastplate wounds: a mace, 3 + 3 + 2 = 8, less 4 + 4:
    // nothing; 6 + 6 + 2 = 14 less 8: 6, a Minor wound (Shock Index 2: 2d6 1 + 1).
    let mut a = swordsman();
    let mut d = plate.clone();
    let (blow, _) = scripted(&[6, 6, 1, 1], &[], |e| {
        vs::blow_to(
            e,
            &mut a,
            &mut d,
            StrikeMode::MaceBlow,
            &[],
            vs::RangeBand::WithinReach,
            Chest,
        )
        .unwrap()
    });
    assert_eq!(blow, wounded(Chest, vs::Severity::Minor, 1));
    assert_eq!(d.fatigue, 0);
}

#[test]
fn v8_an_effective_impact_below_the_first_threshold_does_no_injury() {
    let mut a = swordsman();
    let mut d = brigand();
    let (blow, _) = scripted(&[1, 1], &[], |e| {
        vs::blow_to(
            e,
            &mut a,
            &mut d,
            StrikeMode::BroadswordCut,
            &[],
            vs::RangeBand::WithinReach,
            Chest,
        )
        .unwrap()
    });
    assert_eq!(
        blow,
        Blow::NoInjury {
            part: Chest,
            effective_impact: 3
        }
    );
    assert!(d.wounds.is_empty());
}

// ---------------------------------------------------------------------------------------
// V9 Wound severity gives impairment, bleeding, healing time; Shock Index from severity
// and location; Shock test to stunned/incapacitated/unconscious/dead.

#[test]
fn v9_the_severity_fixes_impairment_bleeding_and_healing_time() {
    // assumption: Injury Level 1 Minor, 2-3 Serious, 4-5 Grievous; the table of effects.
    let mut d = Combatant {
        endurance: 99,
        ..brigand()
    };
    wound(&mut d, UpperArms, 1, &[]);
    wound(&mut d, UpperArms, 3, &[1, 1, 33]);
    wound(&mut d, UpperArms, 4, &[1, 1, 1, 1, 33]);
    let got: Vec<(vs::Severity, i64, bool, i64, i64)> = d
        .wounds
        .iter()
        .map(|w| {
            (
                w.severity,
                w.impairment,
                w.bleeding,
                w.healing_days,
                w.shock_index,
            )
        })
        .collect();
    use vs::Severity::{Grievous, Minor, Serious};
    assert_eq!(
        got,
        [
            (Minor, 1, false, 7, 1),
            (Serious, 2, true, 21, 2),
            (Grievous, 4, true, 60, 4)
        ]
    );
    // Impairment lowers the skills that use the part: Melee, not Dodge.
    assert_eq!(vs::condition_penalty(&d, Skill::Melee), 5 * (1 + 2 + 4));
    assert_eq!(vs::condition_penalty(&d, Skill::Dodge), 0);
}

#[test]
fn v9_the_shock_index_is_severity_and_location_together() {
    // assumption: head and neck +2, trunk +1, limbs 0. A Minor wound to a limb (index 1)
    // is of no consequence: no Shock test, no die.
    let mut d = brigand();
    assert_eq!(
        wound(&mut d, Calves, 1, &[]),
        wounded(Calves, vs::Severity::Minor, 1)
    );
    // A Minor wound to the head is index 3: 3d6.
    let striker = swordsman();
    let (_, trace) = scripted(&[1, 1, 1], &[], |e| {
        vs::wound(e, &striker, &mut d, Head, 1).unwrap()
    });
    assert_eq!(rolls(&trace), [("3d6".to_string(), vec![1, 1, 1])]);
    assert_eq!(d.wounds[1].shock_index, 3);
    let index: Vec<i64> = vs::BodyPart::ALL
        .iter()
        .map(|p| vs::shock_by_part(*p))
        .collect();
    assert_eq!(index, [2, 2, 0, 1, 0, 1, 0, 1, 0, 0]);
}

#[test]
fn v9_the_shock_test_can_stun_incapacitate_knock_out_or_kill() {
    // assumption: one d6 per point of Shock Index; the excess over Endurance (12): 0 no
    // shock, 1-3 stunned, 4-7 incapacitated, 8-12 unconscious, 13+ dead.
    // (The Shock Index is any number, so the procedure is fallible: fewer than 0 or
    // more than 1,000 dice is a rule error.)
    let cases: [(i64, &[u32], vs::ShockState); 5] = [
        (3, &[6, 5, 1], Unshaken),
        (3, &[6, 6, 1], Stunned),
        (3, &[6, 6, 4], Incapacitated),
        (4, &[6, 6, 6, 2], Unconscious),
        (5, &[6, 6, 6, 6, 1], Dead),
    ];
    for (index, faces, state) in cases {
        let mut d = brigand();
        let (s, _) = scripted(faces, &[], |e| vs::shock_test(e, &mut d, index));
        assert_eq!((s, d.shock), (Ok(state), state), "{faces:?}");
    }
    // A shocked defender can only Ignore (V2).
    let stunned = Combatant {
        shock: Stunned,
        ..brigand()
    };
    assert_eq!(vs::available_defences(&stunned, StrikeMode::Kick), [Ignore]);
}

#[test]
fn v9_a_shock_state_only_worsens() {
    let mut d = Combatant {
        shock: Unconscious,
        ..brigand()
    };
    let (s, _) = scripted(&[6, 6, 1], &[], |e| vs::shock_test(e, &mut d, 3));
    assert_eq!((s, d.shock), (Ok(Stunned), Unconscious));
}

#[test]
fn v9_a_wound_to_the_hand_or_leg_provokes_the_keep_control_tests() {
    // assumption: Serious or worse. The hand: a Fumble Test (61 fails, the sword drops,
    // Morale for being disarmed 33), Shock Index 2 (2d6), Morale for the wound (33).
    let mut d = brigand();
    wound(&mut d, Forearms, 2, &[61, 33, 1, 1, 33]);
    assert!(d.held.is_empty());
    assert_eq!(d.morale_states, [Steady, Steady]);
    // The leg: a Stumble Test (51 fails, prone).
    let mut d = brigand();
    wound(&mut d, Thighs, 2, &[51, 1, 1, 33]);
    assert!(d.prone);
    // A Minor wound to the hand provokes nothing.
    let mut d = brigand();
    wound(&mut d, Forearms, 1, &[]);
    assert_eq!(d.held, [Broadsword]);
}
