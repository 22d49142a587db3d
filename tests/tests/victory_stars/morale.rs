//! V10 (morale), and the worked example of the seed as a scenario.

use super::*;

// ---------------------------------------------------------------------------------------
// V10 Morale test (Initiative skill) on the scale Catatonic .. Routed .. Withdrawing ..
// Steady .. Brave; the six triggers; only the worst state applies.

fn morale_test(c: &mut Combatant, trigger: vs::MoraleTrigger, face: u32) -> vs::MoraleState {
    scripted(&[face], &[], |e| vs::morale_test(e, c, trigger))
        .0
        .expect("no rule error")
}

#[test]
fn v10_a_morale_test_of_initiative_places_the_combatant_on_the_scale() {
    // Initiative 50. assumption: Critical Success Brave, Success Steady, Failure
    // Withdrawing, Critical Failure Routed, or Catatonic when it ends in 0.
    for (face, state) in [
        (45, Brave),
        (33, Steady),
        (66, Withdrawing),
        (75, Routed),
        (70, Catatonic),
    ] {
        let mut c = swordsman();
        assert_eq!(
            morale_test(&mut c, vs::MoraleTrigger::GameMaster, face),
            state
        );
        assert_eq!(c.morale_states, [state]);
    }
    assert_eq!(
        vs::MoraleState::ALL,
        [Catatonic, Routed, Withdrawing, Steady, Brave]
    );
}

#[test]
fn v10_only_the_worst_morale_state_in_play_applies() {
    let mut c = swordsman();
    assert_eq!(vs::morale(&c), Steady, "none in play");
    use vs::MoraleTrigger::GameMaster;
    assert_eq!(morale_test(&mut c, GameMaster, 66), Withdrawing);
    // A second failure does not stack into something worse.
    assert_eq!(morale_test(&mut c, GameMaster, 66), Withdrawing);
    // Nor does a Brave result lift it.
    assert_eq!(morale_test(&mut c, GameMaster, 45), Withdrawing);
    assert_eq!(morale_test(&mut c, GameMaster, 75), Routed);
    assert_eq!(c.morale_states, [Withdrawing, Withdrawing, Brave, Routed]);
    let mut brave = swordsman();
    assert_eq!(morale_test(&mut brave, GameMaster, 45), Brave);
}

#[test]
fn v10_the_six_triggers_and_what_each_costs() {
    use vs::MoraleTrigger::*;
    assert_eq!(
        vs::MoraleTrigger::ALL,
        [
            SeriousWound,
            HalfSideDown,
            LeaderFalls,
            Outnumbered,
            Disarmed,
            GameMaster
        ]
    );
    // assumption: the modifiers.
    let m: Vec<i64> = vs::MoraleTrigger::ALL
        .iter()
        .map(|t| vs::morale_modifier(*t))
        .collect();
    assert_eq!(m, [0, -10, -10, -5, -5, 0]);
    // A leader falls: 42 against 50 - 10 fails; the GM's own call reads it at 50.
    let mut c = swordsman();
    assert_eq!(morale_test(&mut c, LeaderFalls, 42), Withdrawing);
    let mut c = swordsman();
    assert_eq!(morale_test(&mut c, GameMaster, 42), Steady);
}

#[test]
fn v10_a_serious_wound_is_tested_once_the_shock_is_shaken_off() {
    // A Serious wound to the abdomen: Shock Index 3, 3d6 = 16 against 12: incapacitated.
    // No nerve is asked while in shock: no Morale die yet.
    let mut d = brigand();
    assert_eq!(
        wound(&mut d, Abdomen, 2, &[6, 6, 4]),
        Blow::Wounded {
            part: Abdomen,
            severity: vs::Severity::Serious,
            injury_level: 2,
            shock: Incapacitated
        }
    );
    assert!(d.morale_test_pending && d.morale_states.is_empty());
    // The GM rules it shaken off: the Morale Test now (66 against 40: Withdrawing).
    let state = scripted(&[66], &[], |e| vs::shake_off_shock(e, &mut d))
        .0
        .expect("no rule error");
    assert_eq!((state, d.shock), (Withdrawing, Unshaken));
    assert!(!d.morale_test_pending);
    // Shaking off again asks nothing.
    let state = scripted(&[], &[], |e| vs::shake_off_shock(e, &mut d))
        .0
        .expect("no rule error");
    assert_eq!(state, Withdrawing);
    // Unshaken, the test comes at once; a Minor wound asks none.
    let mut d = brigand();
    wound(&mut d, UpperArms, 2, &[1, 1, 33]);
    assert_eq!(d.morale_states, [Steady]);
    wound(&mut d, UpperArms, 1, &[]);
    assert_eq!(d.morale_states, [Steady]);
    // The dead are never asked: a Grievous wound to the head, Shock Index 6, 6d6 = 36.
    let mut d = brigand();
    wound(&mut d, Head, 4, &[6, 6, 6, 6, 6, 6]);
    assert_eq!(d.shock, Dead);
    assert!(!d.morale_test_pending);
    let state = scripted(&[], &[], |e| vs::shake_off_shock(e, &mut d))
        .0
        .expect("no rule error");
    assert_eq!((state, d.shock), (Steady, Dead));
}

#[test]
fn v10_half_the_side_down_is_judged_afresh_against_the_survivors() {
    // A side of 10: the test comes at 5 standing; then half of those 5 (3 more down, 2
    // standing); then half of those 2 (1 standing). Each test is at 40 - 10: 33 Success.
    let mut c = Combatant {
        side_strength: 10,
        ..brigand()
    };
    for (standing, tests) in [
        (9, false),
        (6, false),
        (5, true),
        (4, false),
        (3, false),
        (2, true),
        (1, true),
    ] {
        let before = c.morale_states.len();
        // A test rolls one d100 (33); no test rolls nothing (the script must fit).
        let faces: &[u32] = if tests { &[33] } else { &[] };
        let (state, _) = scripted(faces, &[], |e| vs::side_losses(e, &mut c, standing));
        state.expect("no rule error");
        assert_eq!(
            c.morale_states.len() - before,
            usize::from(tests),
            "{standing}"
        );
    }
    assert_eq!(c.side_strength, 1);
}

#[test]
fn v10_suddenly_badly_outnumbered_tests_when_the_odds_turn() {
    // assumption: three enemies to each ally (the combatant counted among the allies).
    let mut c = brigand();
    let mut tested = Vec::new();
    for (enemies, faces) in [
        (5, &[][..]),
        (6, &[33][..]),
        (7, &[][..]),
        (3, &[][..]),
        (6, &[33][..]),
    ] {
        let before = c.morale_states.len();
        let (state, _) = scripted(faces, &[], |e| vs::numbers_change(e, &mut c, 2, enemies));
        state.expect("no rule error");
        if c.morale_states.len() > before {
            tested.push(enemies);
        }
    }
    assert_eq!(tested, [6, 6]);
}

#[test]
fn v10_disarmed_while_the_enemy_remains_armed() {
    // A failed Fumble Test (61) against an armed opponent: a Morale Test (33); against an
    // unarmed one, none.
    let mut c = brigand();
    scripted(&[61, 33], &[], |e| {
        vs::fumble_test(e, &mut c, &swordsman()).unwrap()
    });
    assert_eq!(c.morale_states, [Steady]);
    let mut c = brigand();
    let unarmed = Combatant {
        held: vec![],
        ..swordsman()
    };
    scripted(&[61], &[], |e| {
        vs::fumble_test(e, &mut c, &unarmed).unwrap()
    });
    assert!(c.held.is_empty() && c.morale_states.is_empty());
}

// ---------------------------------------------------------------------------------------
// The scenario `examples/victory-stars/decisive_cut.yaml`, told to the generated code.

#[test]
fn v4_the_decisive_cut_earns_an_impact_advantage_spent_on_the_blow() {
    let mut a = Combatant::man_at_arms();
    let mut d = Combatant {
        skills: skills(&[
            (Skill::Melee, 50),
            (Skill::Dodge, 45),
            (Skill::Initiative, 40),
        ]),
        held: vec![Dagger],
        armour: vec![vs::Armour::padded_jack()],
        ..Default::default()
    };
    let mode = StrikeMode::BroadswordCut;
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Dodge),
        advantage(TacticalAdvantage::Impact),
        yes("spend_impact"),
    ];
    let (r, trace) = melee(&mut a, &mut d, mode, &[15, 62, 2, 4, 5, 3, 4, 47], &answers);
    assert_eq!(
        r,
        contest(
            CriticalSuccess,
            Dodge,
            Failure,
            2,
            vs::Side::Attacker,
            1,
            wounded(UpperArms, vs::Severity::Serious, 2),
            Blow::NoBlow
        )
    );
    assert_eq!(assigned(&trace, "impact = impact + spend"), ["12"]);
    assert_eq!(assigned(&trace, "let effective_impact"), ["10"]);
    assert_eq!(d.wounds.len(), 1);
    assert!(d.wounds[0].bleeding);
    assert_eq!(d.morale_states, [Withdrawing]);
    assert_eq!(a.advantages, [0; 4]);
}

#[test]
fn v3_trading_blows_both_land_in_one_exchange() {
    // `examples/victory-stars/trading_blows.yaml`: the man-at-arms cuts (33: Success),
    // the brigand counterstrikes with his dagger at the neck (35 against 55: a Critical
    // Success). One star to the defender, and both blows land: a Serious cut to the
    // brigand's arm (and his Morale fails, 52: Withdrawing), a Minor thrust to the
    // man-at-arms's neck whose Shock Index 3 (3d6 = 13 against 12) stuns him.
    let mut a = Combatant::man_at_arms();
    let mut d = Combatant {
        skills: skills(&[
            (Skill::Melee, 50),
            (Skill::Dodge, 45),
            (Skill::Initiative, 40),
        ]),
        held: vec![Dagger],
        ..Default::default()
    };
    let mode = StrikeMode::BroadswordCut;
    let answers = [
        no("aim"),
        defence(&d, mode, Counterstrike),
        counter_mode(&d, StrikeMode::DaggerThrust),
        yes("counter_aim"),
        ("counter_aim_at", Neck as u32),
    ];
    let faces = [33, 35, 40, 5, 6, 2, 3, 52, 1, 6, 4, 4, 5];
    let (r, _) = melee(&mut a, &mut d, mode, &faces, &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Counterstrike,
            CriticalSuccess,
            1,
            vs::Side::Defender,
            0,
            wounded(UpperArms, vs::Severity::Serious, 3),
            Blow::Wounded {
                part: Neck,
                severity: vs::Severity::Minor,
                injury_level: 1,
                shock: Stunned
            }
        )
    );
    assert_eq!((a.shock, d.shock), (Stunned, Unshaken));
    assert_eq!(d.morale_states, [Withdrawing]);
    // Stunned, the man-at-arms can only Ignore the next attack.
    assert_eq!(
        vs::available_defences(&a, StrikeMode::DaggerThrust),
        [Ignore]
    );
}
