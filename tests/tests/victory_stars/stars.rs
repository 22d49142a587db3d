//! V4..V6: victory stars and tactical advantages, critical failures, the hit zone.

use super::*;

// ---------------------------------------------------------------------------------------
// V4 Victory Stars = success-level gap; winning by N >= 2 stars earns N-1 Tactical
// Advantages to the winner, of four kinds; Impact TAs add to Strength Trials.

#[test]
fn v4_victory_stars_count_the_gap_in_success_levels() {
    let levels = vs::SuccessLevel::ALL;
    for (i, a) in levels.iter().enumerate() {
        for (j, d) in levels.iter().enumerate() {
            let gap = (i as i64 - j as i64).abs();
            assert_eq!(vs::victory_stars(*a, *d), gap, "{a} against {d}");
            let winner = match i.cmp(&j) {
                std::cmp::Ordering::Greater => vs::Side::Attacker,
                std::cmp::Ordering::Less => vs::Side::Defender,
                std::cmp::Ordering::Equal => vs::Side::Neither,
            };
            assert_eq!(vs::exchange_winner(*a, *d), winner, "{a} against {d}");
        }
    }
    assert_eq!(vs::victory_stars(CriticalSuccess, CriticalFailure), 3);
}

#[test]
fn v4_two_or_more_stars_earn_one_advantage_fewer() {
    let earned: Vec<i64> = (0..=5).map(vs::tactical_advantages).collect();
    // "a two-star victory earns one TA, a three-star victory two, and so on ... An
    // exchange won by a single star earns none."
    assert_eq!(earned, [0, 0, 1, 2, 3, 4]);
    assert_eq!(vs::TacticalAdvantage::ALL.len(), 4, "four kinds");
}

#[test]
fn v4_a_winning_attacker_earns_and_names_its_advantages() {
    let mode = StrikeMode::BroadswordCut;
    // Two stars: Critical Success (15) against a failed dodge (62): one Tactical
    // Advantage, named Tempo.
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Dodge),
        advantage(TacticalAdvantage::Tempo),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[15, 62, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            CriticalSuccess,
            Dodge,
            Failure,
            2,
            vs::Side::Attacker,
            1,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    assert_eq!(a.advantages, [0, 1, 0, 0]);
    assert_eq!(d.advantages, [0; 4]);
    // Three stars: Critical Success (15) against a critically failed dodge (50, a
    // Stumble the brigand keeps with 20): two, Impact and Position. The Impact one is
    // kept for a Strength Trial rather than spent on the blow.
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Dodge),
        advantage(TacticalAdvantage::Impact),
        advantage(TacticalAdvantage::Position),
        no("spend_impact"),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[15, 50, 20, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            CriticalSuccess,
            Dodge,
            CriticalFailure,
            3,
            vs::Side::Attacker,
            2,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    assert_eq!(a.advantages, [1, 0, 1, 0]);
}

#[test]
fn v4_a_winning_defender_earns_them_too() {
    // A critically failed cut (70, a Stumble kept with 20) against a critically
    // successful block (55 against 55): three stars to the defender, two Tactical
    // Advantages, both named Impact.
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), brigand());
    let answers = [
        no("aim"),
        defence(&d, mode, Block),
        advantage(TacticalAdvantage::Impact),
        advantage(TacticalAdvantage::Impact),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[70, 55, 20], &answers);
    assert_eq!(
        r,
        contest(
            CriticalFailure,
            Block,
            CriticalSuccess,
            3,
            vs::Side::Defender,
            2,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
    assert_eq!(d.advantages, [2, 0, 0, 0]);
    assert_eq!(a.advantages, [0; 4]);
}

#[test]
fn v4_a_one_star_win_earns_nothing() {
    // Success (33) against a failed dodge (62): no `advantage_kind` is asked.
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [no("aim"), defence(&d, mode, Dodge)];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 62, 25, 3, 4], &answers);
    assert!(
        matches!(
            r,
            Exchange::Contest {
                stars: 1,
                advantages: 0,
                ..
            }
        ),
        "{r}"
    );
    assert_eq!(a.advantages, [0; 4]);
}

#[test]
fn v4_impact_advantages_add_to_strength_trials() {
    // assumption: a Strength Trial is a Success Test against five times Strength, +10
    // per Impact Tactical Advantage, which the Trial spends.
    let with = || Combatant {
        advantages: [2, 0, 0, 0],
        ..swordsman()
    };
    let mut c = with();
    let (level, trace) = scripted(&[66], &[], |e| vs::strength_trial(e, &mut c));
    assert_eq!(level, Success, "66 against 50 + 20");
    assert_eq!(assigned(&trace, "let mastery"), ["70"]);
    assert_eq!(c.advantages, [0; 4], "spent");
    let mut c = with();
    assert_eq!(
        scripted(&[70], &[], |e| vs::strength_trial(e, &mut c)).0,
        CriticalSuccess
    );
    // Without them, or with other kinds only, the same faces fail.
    for advantages in [[0; 4], [0, 2, 2, 2]] {
        let mut c = Combatant {
            advantages,
            ..swordsman()
        };
        assert_eq!(
            scripted(&[66], &[], |e| vs::strength_trial(e, &mut c)).0,
            Failure
        );
        assert_eq!(c.advantages, advantages);
    }
}

// ---------------------------------------------------------------------------------------
// V5 Critical Failure is a Mishap chosen by the roll's units digit (fumble or stumble
// test).

#[test]
fn v5_the_units_digit_of_a_critical_failure_chooses_the_mishap() {
    // assumption: only 0 and 5 make a critical; 0 is a Stumble, 5 a Fumble.
    assert_eq!(vs::mishap_by_units_digit(0), vs::Mishap::Stumble);
    assert_eq!(vs::mishap_by_units_digit(5), vs::Mishap::Fumble);
}

#[test]
fn v5_a_critical_failure_ending_in_5_is_a_fumble_test() {
    // An ignored cut fails critically (85 against 65): a Fumble. The Fumble Test is a
    // Success Test against five times Dexterity (assumption): 61 against 50 fails and
    // the broadsword drops; the brigand is armed, so the disarmed swordsman tests Morale
    // (Initiative 50 - 5: 33, Steady).
    let mode = StrikeMode::BroadswordCut;
    let unaware = Combatant {
        unaware: true,
        ..brigand()
    };
    let mut a = Combatant {
        held: vec![Broadsword, RoundShield],
        ..swordsman()
    };
    let mut d = unaware.clone();
    let (r, trace) = melee(&mut a, &mut d, mode, &[85, 61, 33], &[no("aim")]);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: CriticalFailure,
            blow: Blow::NoBlow
        }
    );
    assert_eq!(
        assigned(&trace, "let accident"),
        ["Fumble (keep hold of the weapon)"]
    );
    assert_eq!(a.held, [RoundShield]);
    assert_eq!(a.morale_states, [Steady]);
    assert!(!a.prone);
    // Passed (40): the weapon stays in hand, and no Morale Test follows.
    let mut a = swordsman();
    let mut d = unaware;
    melee(&mut a, &mut d, mode, &[85, 40], &[no("aim")]);
    assert_eq!(a.held, [Broadsword]);
    assert!(a.morale_states.is_empty());
}

#[test]
fn v5_a_critical_failure_ending_in_0_is_a_stumble_test() {
    // 90 against 65: a Stumble. The Stumble Test is against five times Agility
    // (assumption): 51 against 50 fails, a fall to prone; 50 keeps the feet.
    let mode = StrikeMode::BroadswordCut;
    let unaware = Combatant {
        unaware: true,
        ..brigand()
    };
    for (face, prone) in [(51, true), (50, false)] {
        let mut a = swordsman();
        let mut d = unaware.clone();
        let (_, trace) = melee(&mut a, &mut d, mode, &[90, face], &[no("aim")]);
        assert_eq!(
            assigned(&trace, "let accident"),
            ["Stumble (keep your feet)"]
        );
        assert_eq!(a.prone, prone, "stumble test {face}");
        assert_eq!(a.held, [Broadsword]);
    }
}

#[test]
fn v5_a_defences_critical_failure_is_a_mishap_too() {
    // The brigand's block fails critically (65 against 55): a Fumble, failed (61), the
    // sword drops, and he tests Morale for being disarmed (Initiative 40 - 5: 33, Steady).
    // The cut (33, Success) wins by two stars: one Tactical Advantage (Precision), and
    // the blow lands on the Chest.
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Block),
        advantage(TacticalAdvantage::Precision),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 65, 61, 33, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            CriticalFailure,
            2,
            vs::Side::Attacker,
            1,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    assert!(d.held.is_empty());
    assert_eq!(d.morale_states, [Steady]);
    assert_eq!(a.advantages, [0, 0, 0, 1]);
}

#[test]
fn v5_with_nothing_in_hand_there_is_nothing_to_fumble() {
    // assumption: no weapon, no Fumble Test (no die is rolled).
    let mut c = Combatant {
        held: vec![],
        ..swordsman()
    };
    let (kept, _) = scripted(&[], &[], |e| {
        vs::fumble_test(e, &mut c, &brigand()).unwrap()
    });
    assert!(kept);
}

// ---------------------------------------------------------------------------------------
// V6 Hit Zone = (Target Zone - 1) + zone die (strike mode spread); scatter only
// downward; off the body misses; unaimed blows draw a weighted zone.

#[test]
fn v6_hit_zone_is_target_zone_minus_one_plus_the_zone_die() {
    // A cut's spread is a d3 (assumption). Aimed at the Chest (zone 4): 4, 5 or 6.
    for (face, zone, part) in [(1, 4, Chest), (2, 5, UpperArms), (3, 6, Abdomen)] {
        let (z, trace) = scripted(&[face], &[], |e| {
            vs::hit_zone(e, StrikeMode::BroadswordCut, &[Chest]).unwrap()
        });
        assert_eq!(z, zone);
        assert_eq!(vs::part_in_zone(z).unwrap(), part);
        assert_eq!(rolls(&trace), [("d3".to_string(), vec![face])]);
    }
}

#[test]
fn v6_scatter_is_only_downward() {
    for part in vs::BodyPart::ALL {
        for face in 1..=3 {
            let (z, _) = scripted(&[face], &[], |e| {
                vs::hit_zone(e, StrikeMode::BroadswordCut, &[part]).unwrap()
            });
            assert!(z >= vs::zone_number(part), "{part}, face {face}");
            assert_eq!(z - vs::zone_number(part), i64::from(face) - 1);
        }
    }
}

#[test]
fn v6_the_spread_belongs_to_the_strike_mode() {
    // "a thrusting point places far better than a swung flail".
    let (z, trace) = scripted(&[2], &[], |e| {
        vs::hit_zone(e, StrikeMode::BroadswordThrust, &[Head]).unwrap()
    });
    assert_eq!((z, vs::part_in_zone(z).unwrap()), (2, Neck));
    assert_eq!(rolls(&trace)[0].0, "d2");
    let (z, trace) = scripted(&[6], &[], |e| {
        vs::hit_zone(e, StrikeMode::FlailSwing, &[Head]).unwrap()
    });
    assert_eq!((z, vs::part_in_zone(z).unwrap()), (6, Abdomen));
    assert_eq!(rolls(&trace)[0].0, "d6");
}

#[test]
fn v6_a_blow_that_scatters_off_the_body_misses_after_all() {
    // A flail swing (55) aimed at the Calves & Feet (zone 10) against an unaware
    // brigand: it succeeds (33), but the zone die's 3 makes hit zone 12, below the body.
    // No impact is rolled.
    let mut a = Combatant {
        held: vec![vs::Item::Flail],
        ..swordsman()
    };
    let mut d = Combatant {
        unaware: true,
        ..brigand()
    };
    let (r, _) = melee(
        &mut a,
        &mut d,
        StrikeMode::FlailSwing,
        &[33, 3],
        &[yes("aim"), aim_at(Calves)],
    );
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Success,
            blow: Blow::OffTheBody { zone: 12 }
        }
    );
    assert!(d.wounds.is_empty());
}

#[test]
fn v6_an_unaimed_blow_draws_its_zone_weighted_by_size() {
    // assumption: a humanoid's weights in percent, on a d100.
    let mut weights = [0u32; 10];
    for face in 1..=100 {
        weights[vs::unaimed_zone(face).expect("a face of the d100") as usize] += 1;
    }
    assert_eq!(weights, [8, 3, 8, 15, 10, 12, 10, 10, 14, 10]);
    for (face, zone) in [(8, 1), (9, 2), (34, 4), (35, 5), (100, 10)] {
        let (z, trace) = scripted(&[face], &[], |e| {
            vs::hit_zone(e, StrikeMode::BroadswordCut, &[]).unwrap()
        });
        assert_eq!(z, zone, "d100 {face}");
        assert_eq!(rolls(&trace)[0].0, "d100");
    }
}
