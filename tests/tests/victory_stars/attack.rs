//! V1..V3: the attack test, the defences, and when a blow lands.

use super::*;

// ---------------------------------------------------------------------------------------
// V1 Attack test: Success Test against Effective Mastery Level = skill + strike mode
// modifier + condition penalties + situational modifiers; its success level is the
// attacker's side.

#[test]
fn v1_success_test_is_a_d100_at_or_under_the_effective_mastery_level() {
    for (face, level) in [(1, Success), (64, Success), (66, Failure), (99, Failure)] {
        let t = test_result(face, 65);
        assert_eq!(t.level, level, "{face} against 65");
        assert_eq!((t.rolled, t.mastery), (i64::from(face), 65));
    }
}

#[test]
fn v1_units_digit_0_or_5_makes_the_result_critical() {
    // assumption (NOTES.md): the seed gives no success-level scale; a units digit of 0
    // or 5 makes a success critical, and a failure critical.
    for (face, level) in [
        (5, CriticalSuccess),
        (10, CriticalSuccess),
        (65, CriticalSuccess),
        (63, Success),
        (70, CriticalFailure),
        (85, CriticalFailure),
        (100, CriticalFailure),
        (71, Failure),
    ] {
        assert_eq!(test_result(face, 65).level, level, "{face} against 65");
    }
}

#[test]
fn v1_effective_mastery_is_kept_between_5_and_95() {
    // assumption (NOTES.md): 01-05 always succeeds, 96-00 always fails.
    let high = test_result(96, 120);
    assert_eq!((high.mastery, high.level), (95, Failure));
    assert_eq!(test_result(95, 120).level, CriticalSuccess);
    assert_eq!(test_result(94, 120).level, Success);
    let low = test_result(4, -30);
    assert_eq!((low.mastery, low.level), (5, Success));
    assert_eq!(test_result(5, -30).level, CriticalSuccess);
    assert_eq!(test_result(6, -30).level, Failure);
}

#[test]
fn v1_attack_test_adds_mode_modifier_condition_penalties_and_situational_modifiers() {
    // Melee 60; a pommel strike is not a cut (-10); fatigue 1 and encumbrance 1 (5 each),
    // prone (20), a Serious wound to the upper arm (impairment 2: Melee uses the arms) but
    // not the thigh wound (Melee does not use the legs); the GM gives +10 for surprise.
    let c = Combatant {
        fatigue: 1,
        encumbrance: 1,
        prone: true,
        situational: 10,
        wounds: vec![
            vs::Wound {
                part: UpperArms,
                impairment: 2,
                ..Default::default()
            },
            vs::Wound {
                part: Thighs,
                impairment: 4,
                ..Default::default()
            },
        ],
        ..swordsman()
    };
    let (t, trace) = scripted(&[20], &[], |e| {
        vs::attack_test(e, &c, StrikeMode::PommelStrike)
    });
    assert_eq!(assigned(&trace, "let eml"), ["60"]);
    // + mode modifier, - condition penalties (5 x (1 + 1 + 2) + 20), + situational.
    assert_eq!(assigned(&trace, "eml = eml"), ["50", "10", "20"]);
    assert_eq!((t.mastery, t.level), (20, CriticalSuccess));
    let (t, _) = scripted(&[21], &[], |e| {
        vs::attack_test(e, &c, StrikeMode::PommelStrike)
    });
    assert_eq!(t.level, Failure);
    // The thigh wound does count against Dodge, the arm wound does not.
    assert_eq!(
        vs::condition_penalty(&c, Skill::Dodge),
        5 * (1 + 1 + 4) + 20
    );
    assert_eq!(
        vs::condition_penalty(&c, Skill::Melee),
        5 * (1 + 1 + 2) + 20
    );
}

#[test]
fn v1_the_attack_tests_success_level_is_the_attackers_side_of_the_contest() {
    // The same face read against each side's own Effective Mastery Level: 62 is a
    // Success for the swordsman's cut (60 + 5 = 65) and a Failure for the brigand's dodge
    // (45). The attack wins by one star and lands (unaimed: 25 is the Chest).
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let mode = StrikeMode::BroadswordCut;
    let answers = [no("aim"), defence(&d, mode, Dodge)];
    let (r, trace) = melee(&mut a, &mut d, mode, &[62, 62, 25, 3, 4], &answers);
    assert_eq!(assigned(&trace, "let mastery"), ["65", "45"]);
    assert_eq!(
        r,
        contest(
            Success,
            Dodge,
            Failure,
            1,
            vs::Side::Attacker,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
}

// ---------------------------------------------------------------------------------------
// V2 Defences Block, Dodge, Counterstrike, Ignore; availability limited by strike mode,
// empty hands (limb block), pinned/stunned (Ignore only), missiles.

#[test]
fn v2_four_defences_answer_a_close_attack() {
    let d = brigand();
    assert_eq!(
        vs::available_defences(&d, StrikeMode::BroadswordCut),
        [Block, Dodge, Counterstrike, Ignore]
    );
    // A prone defender is worse off (V1) but may still choose any of them.
    let prone = Combatant {
        prone: true,
        ..brigand()
    };
    assert_eq!(
        vs::available_defences(&prone, StrikeMode::MaceBlow).len(),
        4
    );
}

#[test]
fn v2_a_strike_mode_may_be_barred_from_blocking_or_from_counterstriking() {
    let d = brigand();
    // assumption: a flail wraps round a parry; a longspear keeps the defender out of reach.
    assert_eq!(
        vs::available_defences(&d, StrikeMode::FlailSwing),
        [Dodge, Counterstrike, Ignore]
    );
    assert_eq!(
        vs::available_defences(&d, StrikeMode::SpearThrust),
        [Block, Dodge, Ignore]
    );
}

#[test]
fn v2_a_defender_with_nothing_in_hand_blocks_with_a_limb() {
    let empty = Combatant {
        held: vec![],
        ..brigand()
    };
    assert!(vs::available_defences(&empty, StrikeMode::BroadswordCut).contains(&Block));
    assert_eq!(
        vs::block_options(&empty, StrikeMode::BroadswordCut),
        [BareArm]
    );
    // With something in hand the defender blocks with it, and chooses which.
    let armed = Combatant {
        held: vec![Broadsword, RoundShield],
        ..brigand()
    };
    assert_eq!(
        vs::block_options(&armed, StrikeMode::BroadswordCut),
        [Broadsword, RoundShield]
    );
}

#[test]
fn v2_pinned_stunned_or_unaware_defenders_can_only_ignore() {
    let cases = [
        Combatant {
            pinned: true,
            ..brigand()
        },
        Combatant {
            unaware: true,
            ..brigand()
        },
        Combatant {
            shock: Stunned,
            ..brigand()
        },
        Combatant {
            shock: Incapacitated,
            ..brigand()
        },
        Combatant {
            shock: Unconscious,
            ..brigand()
        },
    ];
    for d in &cases {
        assert_eq!(
            vs::available_defences(d, StrikeMode::BroadswordCut),
            [Ignore]
        );
    }
    // With Ignore the only defence left, nothing is asked of the defender: the script
    // has no `defence` answer. The failed attack (66 against 65) is simply a miss.
    let (mut a, mut d) = (swordsman(), cases[0].clone());
    let (r, _) = melee(
        &mut a,
        &mut d,
        StrikeMode::BroadswordCut,
        &[66],
        &[no("aim")],
    );
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Failure,
            blow: Blow::NoBlow
        }
    );
}

#[test]
fn v2_missile_attacks_admit_only_a_shield_block_a_dodge_or_ignore() {
    // assumption: the seed's Missile Attacks chapter is not given; a shield is the only
    // block against a missile, and no one counterstrikes one.
    let sword = brigand();
    assert_eq!(
        vs::available_defences(&sword, StrikeMode::BowShot),
        [Dodge, Ignore]
    );
    let shield = Combatant {
        held: vec![Broadsword, RoundShield],
        ..brigand()
    };
    assert_eq!(
        vs::available_defences(&shield, StrikeMode::JavelinThrow),
        [Block, Dodge, Ignore]
    );
    assert_eq!(
        vs::block_options(&shield, StrikeMode::SlingShot),
        [RoundShield]
    );
}

#[test]
fn v2_a_counterstrike_is_made_with_a_close_strike_mode_in_hand_or_unarmed() {
    use StrikeMode::*;
    assert_eq!(
        vs::counterstrike_modes(&brigand()),
        [BroadswordCut, BroadswordThrust, PommelStrike, Punch, Kick]
    );
    // assumption: a fighter can always punch or kick; a bow in hand adds no close mode.
    let archer = Combatant {
        held: vec![Shortbow],
        ..brigand()
    };
    assert_eq!(vs::counterstrike_modes(&archer), [Punch, Kick]);
}

// ---------------------------------------------------------------------------------------
// V3 A blow lands only if the attack succeeded and beat the defence by its required
// margin: Block needs a tie (tied block checks breakage), Dodge must win outright (tie
// goes to the tiebreak), Counterstrike lands independently on its own success, Ignore
// lands on any success.

#[test]
fn v3_a_block_need_only_tie_and_a_tied_block_checks_breakage() {
    // Cut 33 against 65 and block 33 against 55 (broadsword +5): both Successes. The
    // attacker's margin is the larger, yet a block holds on a tie: no blow. The blocking
    // sword takes the full force of the strike, 2d6 (3 + 4) + 1 = 8, against its quality
    // 12 (assumption): it holds.
    let (mut a, mut d) = (swordsman(), brigand());
    let mode = StrikeMode::BroadswordCut;
    let answers = [no("aim"), defence(&d, mode, Block)];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 33, 3, 4], &answers);
    let check = Blow::Breakage {
        item: Broadsword,
        impact: 8,
        broken: false,
    };
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            Success,
            0,
            vs::Side::Neither,
            0,
            check,
            Blow::NoBlow
        )
    );
    assert_eq!(d.held, [Broadsword]);
    assert!(d.wounds.is_empty());
}

#[test]
fn v3_a_tied_block_breaks_what_the_strike_overpowers() {
    // A mace blow (60) against a round shield block (50 + 15 = 65), both Successes (33).
    // The shield's quality is 14 (assumption): 2d6 (6 + 6) + 2 holds it at Strength 10,
    // and breaks it with Strength 13's +1 (15 > 14); the broken shield leaves the hand.
    let mode = StrikeMode::MaceBlow;
    for (strength, broken) in [(10, false), (13, true)] {
        let mut a = Combatant {
            strength,
            held: vec![vs::Item::Mace],
            ..swordsman()
        };
        let mut d = Combatant {
            held: vec![Broadsword, RoundShield],
            ..brigand()
        };
        let answers = [
            no("aim"),
            defence(&d, mode, Block),
            block_with(&d, mode, RoundShield),
        ];
        let (r, trace) = melee(&mut a, &mut d, mode, &[33, 33, 6, 6], &answers);
        let Exchange::Contest { blow, .. } = r else {
            panic!("{r}")
        };
        assert_eq!(
            blow,
            Blow::Breakage {
                item: RoundShield,
                impact: 14 + i64::from(broken),
                broken
            }
        );
        assert_eq!(assigned(&trace, "let eml"), ["60", "50"]);
        assert_eq!(assigned(&trace, "eml = eml + modifier"), ["60", "65"]);
        let held: &[vs::Item] = if broken {
            &[Broadsword]
        } else {
            &[Broadsword, RoundShield]
        };
        assert_eq!(d.held, held);
    }
}

#[test]
fn v3_a_block_beaten_by_a_successful_attack_lets_the_blow_land() {
    // Cut 33 (Success) against block 62 (Failure): one star; the blow lands where aimed
    // (the Chest, zone die 1).
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let mode = StrikeMode::BroadswordCut;
    let answers = [yes("aim"), aim_at(Chest), defence(&d, mode, Block)];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 62, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            Failure,
            1,
            vs::Side::Attacker,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
}

#[test]
fn v3_a_failed_attack_never_lands() {
    let mode = StrikeMode::BroadswordCut;
    // Block: a tie of two Failures (66, 62) is no contact: no blow, no breakage check.
    let (mut a, mut d) = (swordsman(), brigand());
    let answers = [no("aim"), defence(&d, mode, Block)];
    let (r, _) = melee(&mut a, &mut d, mode, &[66, 62], &answers);
    assert_eq!(
        r,
        contest(
            Failure,
            Block,
            Failure,
            0,
            vs::Side::Neither,
            0,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
    // Dodge: "However badly the defender blundered": the dodge fails critically (50:
    // a Stumble, kept with 20), the attacker wins a star, and still does not arrive.
    let answers = [no("aim"), defence(&d, mode, Dodge)];
    let (r, _) = melee(&mut a, &mut d, mode, &[66, 50, 20], &answers);
    assert_eq!(
        r,
        contest(
            Failure,
            Dodge,
            CriticalFailure,
            1,
            vs::Side::Attacker,
            0,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
    // Ignore: nothing to beat, and still a miss.
    let answers = [no("aim"), defence(&d, mode, Ignore)];
    let (r, _) = melee(&mut a, &mut d, mode, &[66], &answers);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Failure,
            blow: Blow::NoBlow
        }
    );
    assert!(d.wounds.is_empty());
}

#[test]
fn v3_a_tied_limb_block_takes_the_blow_on_the_forearm() {
    // Nothing in hand: a limb block (Melee 50, no modifier). Both succeed (33): the arm
    // takes the strike, 2d6 (3 + 4) + 1 = 8, less toughness 3: a Minor wound to the
    // Forearms & Hands (assumption: the blocking forearm), no zone die rolled.
    let mut a = swordsman();
    let mut d = Combatant {
        held: vec![],
        toughness: [0, 3, 0, 0],
        ..brigand()
    };
    let mode = StrikeMode::BroadswordCut;
    let answers = [no("aim"), defence(&d, mode, Block)];
    let (r, trace) = melee(&mut a, &mut d, mode, &[33, 33, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            Success,
            0,
            vs::Side::Neither,
            0,
            wounded(Forearms, vs::Severity::Minor, 1),
            Blow::NoBlow
        )
    );
    assert_eq!(assigned(&trace, "let mastery"), ["65", "50"]);
    assert_eq!(d.wounds.len(), 1);
    assert_eq!(d.wounds[0].part, Forearms);
}

#[test]
fn v3_a_dodge_must_win_outright_and_a_tie_goes_to_the_tiebreak() {
    // Cut 33 against 65 (margin 32); both sides succeed, so the tiebreak decides.
    // assumption: the larger margin under the Mastery Level wins; equal margins leave the
    // dodger clear.
    let mode = StrikeMode::BroadswordCut;
    let d0 = armoured(brigand());
    let answers = [yes("aim"), aim_at(Chest), defence(&d0, mode, Dodge)];
    // Dodge 14 against 45 (margin 31): the dodger loses the tiebreak and is struck.
    let (mut a, mut d) = (swordsman(), d0.clone());
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 14, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Dodge,
            Success,
            0,
            vs::Side::Neither,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    // Dodge 13 (margin 32, equal) and 12 (margin 33): clear.
    for face in [13, 12] {
        let (r, _) = melee(&mut a, &mut d, mode, &[33, face], &answers);
        assert_eq!(
            r,
            contest(
                Success,
                Dodge,
                Success,
                0,
                vs::Side::Neither,
                0,
                Blow::NoBlow,
                Blow::NoBlow
            ),
            "dodge {face}"
        );
    }
    // A dodge that wins outright (40: a Critical Success) is never struck.
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 40], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Dodge,
            CriticalSuccess,
            1,
            vs::Side::Defender,
            0,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
}

#[test]
fn v3_a_counterstrike_lands_on_its_own_success_and_so_does_the_attack() {
    // The brigand counterstrikes with a broadsword thrust (50), unaimed. Cut 33: Success;
    // thrust 45: a Critical Success. The defender wins the star, and both blows land:
    // the cut (zone 25: Chest, 2d6 3 + 4) and the thrust (zone 25: Chest, 1d6 2).
    let mode = StrikeMode::BroadswordCut;
    let mut a = armoured(swordsman());
    let mut d = armoured(brigand());
    let answers = [
        no("aim"),
        defence(&d, mode, Counterstrike),
        counter_mode(&d, StrikeMode::BroadswordThrust),
        no("counter_aim"),
    ];
    let (r, trace) = melee(&mut a, &mut d, mode, &[33, 45, 25, 3, 4, 25, 2], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Counterstrike,
            CriticalSuccess,
            1,
            vs::Side::Defender,
            0,
            no_injury(Chest),
            no_injury(Chest)
        )
    );
    assert_eq!(assigned(&trace, "let mastery"), ["65", "50"]);
    // A failed attack (66) and a successful counterstrike (33): only the counterblow.
    let (r, _) = melee(&mut a, &mut d, mode, &[66, 33, 25, 2], &answers);
    assert_eq!(
        r,
        contest(
            Failure,
            Counterstrike,
            Success,
            1,
            vs::Side::Defender,
            0,
            Blow::NoBlow,
            no_injury(Chest)
        )
    );
    // A successful attack (33) and a failed counterstrike (62): only the blow.
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 62, 25, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Counterstrike,
            Failure,
            1,
            vs::Side::Attacker,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
}

#[test]
fn v3_an_ignored_attack_lands_on_any_success_with_no_contest() {
    // A Critical Success (15) against Ignore: it lands, and with no contest there are no
    // Victory Stars and no Tactical Advantage to name (no `advantage_kind` is asked).
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [no("aim"), defence(&d, mode, Ignore)];
    let (r, _) = melee(&mut a, &mut d, mode, &[15, 25, 3, 4], &answers);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: CriticalSuccess,
            blow: no_injury(Chest)
        }
    );
    assert_eq!(a.advantages, [0; 4]);
    // A bare Success lands the same way.
    let (r, _) = melee(&mut a, &mut d, mode, &[64, 25, 3, 4], &answers);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Success,
            blow: no_injury(Chest)
        }
    );
}
