//! H7: the effects table by location and severity, and the fight with its timers.

use super::*;

// ---------------------------------------------------------------------------------------
// H7 Effects table per location and severity.

#[test]
fn h7_severe_arm_injury_disadvantage_on_attack_rolls_and_no_block() {
    let c = hs::Combatant {
        attack_bonus: 4,
        ..injured(&[(Arm, SevereInjury)])
    };
    let mut d = defender();
    let run = attack(&c, &mut d, &sword(), &[5, 14]);
    assert_eq!(run.rolls(), [("2d20kl1".to_string(), vec![5, 14], 5)]);
    assert_eq!(run.result, Miss, "5 + 4 = 9");
    let mut d = defender();
    let run = attack(&c, &mut d, &sword(), &[19, 9]);
    assert_eq!(run.result, hit(LightHit, 3, 17), "9 + 4 = 13");
    assert_eq!(
        reactions(&c),
        [hs::Reaction::Dodge, hs::Reaction::OtherReaction]
    );
    assert_eq!(current_speed(&hs::Combatant { speed: 30, ..c }), 30);
}

#[test]
fn h7_severe_leg_injury_halves_speed_and_no_dodge() {
    let c = hs::Combatant {
        speed: 25,
        ..injured(&[(Leg, SevereInjury)])
    };
    // assumption (NOTES.md 11): halved Speed rounds down.
    assert_eq!(current_speed(&c), 12);
    assert_eq!(
        reactions(&c),
        [hs::Reaction::Block, hs::Reaction::OtherReaction]
    );
    let mut d = defender();
    assert_eq!(
        attack(&c, &mut d, &sword(), &[8]).rolls().len(),
        1,
        "one d20"
    );
}

#[test]
fn h7_severe_internal_injury_no_reactions() {
    let c = injured(&[(Internal, SevereInjury)]);
    assert!(reactions(&c).is_empty());
    assert!(!incapacitated(&c) && !unconscious(&c));
}

#[test]
fn h7_severe_head_injury_endurance_dc_20_or_unconscious() {
    // 1d4 = 4, then the Endurance check: 1d20 + 2 against Difficulty Level 20.
    let mut c = hs::Combatant {
        endurance: 2,
        ..vulnerable_defender()
    };
    let run = injure(&mut c, MediumHit, &[4, 18]);
    assert_eq!(run.result, injured_result(MediumHit, SevereInjury, Head));
    assert!(!c.knocked_out && !unconscious(&c), "18 + 2 = 20 succeeds");
    assert!(reactions(&c).is_empty(), "Cannot use Reactions");

    let mut c = hs::Combatant {
        endurance: 2,
        ..vulnerable_defender()
    };
    injure(&mut c, MediumHit, &[4, 17]);
    assert!(
        c.knocked_out && unconscious(&c),
        "17 + 2 = 19 fails: unconscious"
    );
}

#[test]
fn h7_other_severe_injuries_roll_no_check() {
    for face in [1, 2, 3] {
        let mut c = vulnerable_defender();
        let run = injure(&mut c, MediumHit, &[face]);
        assert_eq!(run.rolls().len(), 1, "only the 1d4");
        assert_eq!(
            c.injuries[0].bleeding_out, 0,
            "Severe injuries do not bleed out"
        );
    }
}

#[test]
fn h7_every_fatal_injury_incapacitates() {
    for location in [Arm, Leg, Internal, Head] {
        let c = injured(&[(location, FatalInjury)]);
        assert!(incapacitated(&c), "{location}");
        assert!(reactions(&c).is_empty(), "{location}");
        assert_eq!(
            unconscious(&c),
            location == Head,
            "{location}: only the head"
        );
    }
}

#[test]
fn h7_death_timers_10_minutes_for_an_arm_1_minute_for_the_rest() {
    for (face, location, seconds) in [
        (1, Arm, 600),
        (2, Leg, 60),
        (3, Internal, 60),
        (4, Head, 60),
    ] {
        let mut c = vulnerable_defender();
        let faces: &[u32] = if location == Head {
            &[face, 99]
        } else {
            &[face]
        };
        injure(&mut c, CriticalHit, faces);
        assert_eq!(c.injuries[0].bleeding_out, seconds, "{location}");
        time_passes(&mut c, seconds - 1);
        assert!(!c.dead, "{location}: one second left");
        assert_eq!(c.injuries[0].bleeding_out, 1);
        time_passes(&mut c, 1);
        assert!(c.dead, "{location}: bled out");
        assert!(incapacitated(&c));
    }
}

#[test]
fn h7_every_fatal_injury_bleeds_on_its_own_timer() {
    // assumption (NOTES.md 9): blood loss is not a penalty that H6 keeps to the highest:
    // a Fatal Arm Injury (10 minutes) then a Fatal Leg Injury (1 minute) both bleed.
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[1]);
    time_passes(&mut c, 30);
    injure(&mut c, CriticalHit, &[2]);
    let timers: Vec<i64> = c.injuries.iter().map(|i| i.bleeding_out).collect();
    assert_eq!(timers, [570, 60]);
    // The leg is helped (Heal check DL 15: 15 + 0); the arm still kills at 10 minutes.
    let run = stop_bleeding(&healer(0), &mut c, &[15], &[("treated_wound", 1)]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Leg });
    time_passes(&mut c, 569);
    assert!(!c.dead);
    time_passes(&mut c, 1);
    assert!(c.dead, "ten minutes after the arm injury");
}

#[test]
fn h7_heal_check_dc_15_stops_arm_and_leg_blood_loss() {
    for location in [Arm, Leg] {
        let mut c = injured(&[(location, FatalInjury)]);
        c.injuries[0].bleeding_out = 60;
        // 1d20 + 3: 11 + 3 = 14 fails, 12 + 3 = 15 succeeds.
        let run = stop_bleeding(&healer(3), &mut c, &[11], &[]);
        assert_eq!(run.result, hs::AidResult::Failed { location });
        assert_eq!(c.injuries[0].bleeding_out, 60, "still bleeding");
        let run = stop_bleeding(&healer(3), &mut c, &[12], &[]);
        assert_eq!(
            run.result,
            hs::AidResult::Stopped { location },
            "{}",
            run.text()
        );
        assert_eq!(c.injuries[0].bleeding_out, 0);
        time_passes(&mut c, 3600);
        assert!(!c.dead, "helped in time");
        assert!(incapacitated(&c), "still incapacitated by the Fatal injury");
    }
}

#[test]
fn h7_heal_check_dc_20_for_internal_and_head() {
    for location in [Internal, Head] {
        let mut c = injured(&[(location, FatalInjury)]);
        c.injuries[0].bleeding_out = 60;
        let run = stop_bleeding(&healer(3), &mut c, &[16], &[]);
        assert_eq!(
            run.result,
            hs::AidResult::Failed { location },
            "16 + 3 = 19"
        );
        let run = stop_bleeding(&healer(3), &mut c, &[17], &[]);
        assert_eq!(
            run.result,
            hs::AidResult::Stopped { location },
            "17 + 3 = 20"
        );
    }
}

#[test]
fn h7_the_healer_picks_which_bleeding_injury_to_treat() {
    let mut c = injured(&[(Arm, FatalInjury), (Internal, FatalInjury)]);
    c.injuries[0].bleeding_out = 500;
    c.injuries[1].bleeding_out = 40;
    // Option 1 of [Arm, Internal]: the internal bleeding, DL 20: 20 + 0.
    let run = stop_bleeding(&healer(0), &mut c, &[20], &[("treated_wound", 1)]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Internal });
    assert_eq!(
        (c.injuries[0].bleeding_out, c.injuries[1].bleeding_out),
        (500, 0)
    );
    // Only the arm bleeds now: no question asked, DL 15.
    let run = stop_bleeding(&healer(0), &mut c, &[15], &[]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Arm });
    assert_eq!(
        stop_bleeding(&healer(0), &mut c, &[], &[]).result,
        hs::AidResult::NothingToTreat
    );
}

#[test]
fn h7_help_after_death_is_too_late() {
    let mut c = injured(&[(Leg, FatalInjury)]);
    c.injuries[0].bleeding_out = 60;
    time_passes(&mut c, 60);
    assert!(c.dead);
    assert_eq!(
        stop_bleeding(&healer(10), &mut c, &[], &[]).result,
        hs::AidResult::TooLate
    );
}

#[test]
fn h7_the_heal_check_is_an_attribute_check_under_the_healers_penalties() {
    // An exhausted healer rolls with Disadvantage: the lower of 19 and 12, + 3 = 15.
    let tired = hs::Combatant {
        exhausted: true,
        ..healer(3)
    };
    let mut c = injured(&[(Arm, FatalInjury)]);
    c.injuries[0].bleeding_out = 600;
    let run = stop_bleeding(&tired, &mut c, &[19, 12], &[]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Arm });
    let run = stop_bleeding(&tired, &mut c, &[], &[]);
    assert_eq!(run.result, hs::AidResult::NothingToTreat);
}

#[test]
fn h7_fatal_head_injury_25_percent_chance_to_lose_an_eye() {
    // d100 25: within the 25% chance; 26: not.
    let mut c = vulnerable_defender();
    let run = injure(&mut c, CriticalHit, &[4, 25]);
    assert_eq!(run.rolls()[1], ("d100".to_string(), vec![25], 25));
    assert_eq!(
        c.eye_at_risk, 20,
        "an immediate Heal check of DL 20 saves it"
    );
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 26]);
    assert_eq!(c.eye_at_risk, 0);
    time_passes(&mut c, 60);
    assert_eq!(c.eyes_lost, 0);
}

#[test]
fn h7_an_immediate_heal_check_dc_20_saves_the_eye() {
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 1]);
    assert_eq!(
        save_eye(&healer(5), &mut c, &[15]),
        hs::EyeResult::EyeSaved,
        "15 + 5"
    );
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 0));
    time_passes(&mut c, 10);
    assert_eq!(c.eyes_lost, 0);
    assert_eq!(
        save_eye(&healer(5), &mut c, &[]),
        hs::EyeResult::NoEyeAtRisk
    );
}

#[test]
fn h7_a_failed_heal_check_loses_the_eye() {
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 10]);
    assert_eq!(
        save_eye(&healer(5), &mut c, &[14]),
        hs::EyeResult::EyeLost,
        "14 + 5"
    );
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 1));
}

#[test]
fn h7_without_an_immediate_heal_check_the_eye_is_lost() {
    // assumption (NOTES.md 13): "immediate" means before any time passes.
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 20]);
    time_passes(&mut c, 6);
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 1));
    assert_eq!(
        save_eye(&healer(20), &mut c, &[]),
        hs::EyeResult::NoEyeAtRisk
    );
}

#[test]
fn h7_the_fatal_head_example_replays_in_the_interpreter() {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hit-strength/fatal_head.yaml");
    let trace = rulesc::scenario::run_file(&program(), &scenario, 0)
        .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    assert!(!trace.contains("note:"), "{trace}");
    assert!(trace.ends_with(
        "result: Injured(hit_strength: Hit Strength 3 (Critical Hit), severity: Fatal Injury, location: Head Injury)\n"
    ), "{trace}");
    assert!(
        trace.contains("c.eye_at_risk = effects.save_eye_dc  ->  20"),
        "{trace}"
    );
    let mut d = hs::Combatant {
        defense: 11,
        ..vulnerable_defender()
    };
    let run = attack(&attacker(), &mut d, &sword(), &[20, 4, 17]);
    assert_eq!(run.result, injured_result(CriticalHit, FatalInjury, Head));
    assert_eq!((d.eye_at_risk, d.injuries[0].bleeding_out), (20, 60));
}

#[test]
fn h7_the_effects_table_is_the_seeds() {
    use hs::Condition::*;
    let e = hs::condition_effects;
    assert!(e(Exhausted).attribute_check_disadvantage);
    assert!(e(SevereArm).attack_roll_disadvantage && e(SevereArm).no_block);
    assert!(e(SevereLeg).speed_halved && e(SevereLeg).no_dodge);
    assert!(e(SevereInternal).no_reactions);
    assert!(e(SevereHead).no_reactions && e(SevereHead).endurance_dc == 20);
    let fatal = [
        (FatalArm, 10, 15),
        (FatalLeg, 1, 15),
        (FatalInternal, 1, 20),
        (FatalHead, 1, 20),
    ];
    for (c, minutes, dc) in fatal {
        assert!(e(c).incapacitated);
        assert_eq!(
            (e(c).dies_in_minutes, e(c).stop_bleeding_dc),
            (minutes, dc),
            "{c}"
        );
    }
    assert!(e(FatalHead).unconscious);
    assert_eq!(
        (e(FatalHead).eye_loss_percent, e(FatalHead).save_eye_dc),
        (25, 20)
    );
    assert_eq!(e(Unhurt), hs::Effects::default());
}

// ---------------------------------------------------------------------------------------
// The fight (`fight.rules`): world time runs the timers of H3 and H7. `c` stands in a fight
// against a foe and `seconds` of world time pass (`Fight::advance`, as after the fight or
// between its rounds), in both backends, which must leave the same state.

fn after_in_a_fight(c: &hs::Combatant, seconds: i64) -> hs::Combatant {
    let sides = [("Us", "C", c.clone()), ("Them", "Foe", attacker())];
    let fight = rulesc_tests::differential::advance_both(
        &program(),
        &sides,
        combatant_value,
        hs::Rules,
        seconds,
        0,
    );
    fight.combatants[0].clone()
}

#[test]
fn h7_in_a_fight_blood_loss_kills_at_its_minute_of_world_time() {
    // Fatal Arm: 10 minutes; Fatal Leg: 1 minute (H7), counted by the fight's clock.
    for (location, seconds) in [(Arm, 600), (Leg, 60)] {
        let mut c = vulnerable_defender();
        injure(&mut c, CriticalHit, &[if location == Arm { 1 } else { 2 }]);
        let c1 = after_in_a_fight(&c, seconds - 1);
        assert!(!c1.dead, "{location}: one second left");
        assert_eq!(c1.injuries[0].bleeding_out, 1);
        let c2 = after_in_a_fight(&c, seconds);
        assert!(c2.dead, "{location}: bled out at {seconds} seconds");
        // Stopped in time, it never kills.
        let mut helped = c.clone();
        helped.injuries[0].bleeding_out = 0;
        assert!(!after_in_a_fight(&helped, 3 * seconds).dead);
    }
}

#[test]
fn h3_in_a_fight_healing_returns_after_an_hour_of_world_time() {
    let c = vulnerable_defender();
    assert_eq!(after_in_a_fight(&c, 3599).healing_blocked, 1);
    let mut later = after_in_a_fight(&c, 3600);
    assert_eq!(later.healing_blocked, 0);
    assert_eq!(
        heal(&mut later, 5),
        hs::HealResult::Healed { hit_points: 5 }
    );
}

#[test]
fn h7_in_a_fight_an_eye_at_risk_is_lost_once_a_second_passes() {
    let mut c = vulnerable_defender();
    c.eye_at_risk = 20;
    let c = after_in_a_fight(&c, 1);
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 1));
}

#[test]
fn the_example_fight_simulates_the_same_for_a_seed_and_otherwise_for_another() {
    let p = program();
    let file = rulesc_tests::differential::fight_file(&p, "examples/hit-strength/fight.yaml");
    rulesc_tests::differential::assert_simulation_repeats(&p, &file, 300);
    // Every fight ends: one side is down (Fatal injuries, lost consciousness: H7).
    let once = rulesc::simulate::simulate(&p, &file, 300, 7);
    assert_eq!(once.wins.iter().sum::<u64>() + once.draws, 300);
    assert!(once.wins.iter().all(|&w| w > 0));
}
