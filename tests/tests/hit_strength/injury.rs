//! H4..H6: injury locations, a second severe injury, and penalties that do not stack.

use super::*;

// ---------------------------------------------------------------------------------------
// H4 Injury location 1d4: Arm, Leg, Internal, Head.

#[test]
fn h4_injury_location_is_rolled_on_1d4() {
    for (face, location) in [(1, Arm), (2, Leg), (3, Internal), (4, Head)] {
        let mut c = vulnerable_defender();
        // A Fatal Injury: a Head one also rolls the d100 (H7), here 100: no eye lost.
        let faces: &[u32] = if location == Head {
            &[face, 100]
        } else {
            &[face]
        };
        let run = injure(&mut c, CriticalHit, faces);
        assert_eq!(
            run.result,
            injured_result(CriticalHit, FatalInjury, location)
        );
        assert_eq!(
            run.rolls()[0],
            ("d4".to_string(), vec![face], i64::from(face))
        );
        assert_eq!(c.injuries[0].location, location);
    }
}

#[test]
fn h4_no_effect_rolls_no_location() {
    let mut c = vulnerable_defender();
    let run = injure(&mut c, LightHit, &[]);
    assert_eq!(run.result, NoEffect);
    assert!(run.rolls().is_empty() && c.injuries.is_empty());
}

// ---------------------------------------------------------------------------------------
// H5 A second Severe injury to the same place becomes Fatal.

#[test]
fn h5_a_second_severe_injury_to_the_same_place_is_fatal() {
    for (face, place) in [(1, Arm), (2, Leg), (3, Internal)] {
        let mut c = injured(&[(place, SevereInjury)]);
        let run = injure(&mut c, MediumHit, &[face]);
        assert_eq!(
            run.result,
            injured_result(MediumHit, FatalInjury, place),
            "{}",
            run.text()
        );
        assert_eq!(c.injuries[1].severity, FatalInjury);
        assert!(incapacitated(&c));
    }
}

#[test]
fn h5_a_second_severe_head_injury_is_fatal_with_its_d100() {
    let mut c = injured(&[(Head, SevereInjury)]);
    // The Fatal Head Injury rolls the 25% eye chance (d100 50: kept), not the Endurance check.
    let run = injure(&mut c, MediumHit, &[4, 50]);
    assert_eq!(run.result, injured_result(MediumHit, FatalInjury, Head));
    assert_eq!(run.rolls().len(), 2);
    assert!(unconscious(&c) && incapacitated(&c));
}

#[test]
fn h5_through_the_attack_procedure() {
    // examples/hit-strength/second_severe_arm.yaml: 13 + 4 = 17 against Defense 11.
    let mut d = hs::Combatant {
        defense: 11,
        ..injured(&[(Arm, SevereInjury)])
    };
    let run = attack(&attacker(), &mut d, &sword(), &[13, 1]);
    assert_eq!(run.result, injured_result(MediumHit, FatalInjury, Arm));
    assert_eq!(d.injuries[1].bleeding_out, 600, "dies in 10 minutes");
}

#[test]
fn h5_a_severe_injury_to_another_place_stays_severe() {
    let mut c = injured(&[(Arm, SevereInjury)]);
    let run = injure(&mut c, MediumHit, &[2]);
    assert_eq!(run.result, injured_result(MediumHit, SevereInjury, Leg));
    assert_eq!(c.injuries.len(), 2);
    assert!(!incapacitated(&c));
}

#[test]
fn h5_a_severe_injury_after_a_fatal_one_to_that_place_stays_severe() {
    // assumption (NOTES.md 8): only a previous Severe injury turns the next one Fatal.
    let mut c = injured(&[(Arm, FatalInjury)]);
    let run = injure(&mut c, MediumHit, &[1]);
    assert_eq!(run.result, injured_result(MediumHit, SevereInjury, Arm));
}

#[test]
fn h5_the_first_severe_injury_is_only_severe() {
    let mut c = vulnerable_defender();
    assert_eq!(
        injure(&mut c, MediumHit, &[1]).result,
        injured_result(MediumHit, SevereInjury, Arm)
    );
    // ... and the second to that place is Fatal.
    assert_eq!(
        injure(&mut c, MediumHit, &[1]).result,
        injured_result(MediumHit, FatalInjury, Arm)
    );
}

// ---------------------------------------------------------------------------------------
// H6 Injury penalties do not stack: the highest applies (Exhausted included).

#[test]
fn h6_exhausted_alone_is_the_penalty() {
    let c = hs::Combatant {
        exhausted: true,
        ..defender()
    };
    assert_eq!(worst_condition(&c), hs::Condition::Exhausted);
    assert!(penalties(&c).attribute_check_disadvantage);
    // Disadvantage: 2d20, the lower counts. 15 and 6 + 2 = 8 fails DL 10.
    let run = attribute_check(&c, 2, 10, &[15, 6]);
    assert!(!run.result, "{}", run.text());
    assert_eq!(run.rolls(), [("2d20kl1".to_string(), vec![15, 6], 6)]);
}

#[test]
fn h6_an_injury_replaces_exhausted() {
    // Exhausted and a Severe Arm Injury: only the arm's penalties apply. Attribute Checks
    // roll one d20 again; Attack Rolls are at Disadvantage.
    let c = hs::Combatant {
        attack_bonus: 4,
        ..injured(&[(Arm, SevereInjury)])
    };
    assert!(c.exhausted);
    assert_eq!(worst_condition(&c), hs::Condition::SevereArm);
    assert!(!penalties(&c).attribute_check_disadvantage);
    let run = attribute_check(&c, 2, 10, &[8]);
    assert!(run.result, "8 + 2 = 10, one die");
    assert_eq!(run.rolls(), [("d20".to_string(), vec![8], 8)]);
    let mut target = defender();
    let run = attack(&c, &mut target, &sword(), &[18, 7]);
    assert_eq!(
        run.result,
        Miss,
        "the lower of 18 and 7, + 4 = 11\n{}",
        run.text()
    );
}

#[test]
fn h6_of_two_severe_injuries_only_the_higher_applies() {
    // Severe Arm and Severe Leg: assumption (NOTES.md 7): places rank as the 1d4 table
    // orders them, so the leg's penalties apply and the arm's do not.
    let c = hs::Combatant {
        speed: 30,
        ..injured(&[(Arm, SevereInjury), (Leg, SevereInjury)])
    };
    assert_eq!(worst_condition(&c), hs::Condition::SevereLeg);
    let p = penalties(&c);
    assert!(p.speed_halved && p.no_dodge);
    assert!(
        !p.attack_roll_disadvantage && !p.no_block,
        "the arm's do not stack"
    );
    assert_eq!(current_speed(&c), 15);
    assert_eq!(
        reactions(&c),
        [hs::Reaction::Block, hs::Reaction::OtherReaction]
    );
    // The order the injuries came in does not matter.
    let c = injured(&[(Leg, SevereInjury), (Arm, SevereInjury)]);
    assert_eq!(worst_condition(&c), hs::Condition::SevereLeg);
}

#[test]
fn h6_a_fatal_injury_outranks_every_severe_one() {
    let c = injured(&[(Head, SevereInjury), (Arm, FatalInjury)]);
    assert_eq!(worst_condition(&c), hs::Condition::FatalArm);
    let p = penalties(&c);
    assert!(p.incapacitated && !p.no_reactions && p.endurance_dc == 0);
    let c = injured(&[(Arm, FatalInjury), (Internal, FatalInjury)]);
    assert_eq!(worst_condition(&c), hs::Condition::FatalInternal);
}

#[test]
fn h6_the_endurance_check_is_made_under_the_head_injury_not_exhausted() {
    // An exhausted character takes a Severe Head Injury: the check rolls one d20, since the
    // injury (already received) is the highest penalty.
    let mut c = hs::Combatant {
        endurance: 3,
        ..vulnerable_defender()
    };
    let run = injure(&mut c, MediumHit, &[4, 17]);
    assert_eq!(run.rolls()[1], ("d20".to_string(), vec![17], 17));
    assert!(!c.knocked_out, "17 + 3 = 20");
}

#[test]
fn h6_exhausted_gives_no_disadvantage_on_attack_rolls() {
    let tired = hs::Combatant {
        exhausted: true,
        ..attacker()
    };
    let mut d = defender();
    let run = attack(&tired, &mut d, &sword(), &[8]);
    assert_eq!(run.rolls(), [("d20".to_string(), vec![8], 8)]);
    assert_eq!(run.result, hit(LightHit, 3, 17));
}
