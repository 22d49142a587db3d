//! K9..K11: melee, melee with no defence roll, and ranged attacks.

use super::*;

// ---------------------------------------------------------------------------------------
// K9 Melee: both roll 1d12 + Physical Performance + skill; the defender's result is the
// base TN; attacker Pain/Distress/Disadvantage add, attacker Advantage subtracts, defender
// Disadvantage subtracts, defender Advantage adds, maneuver difficulty adds; hit on >= TN;
// maneuver picked after the roll.

#[test]
fn k9_the_defence_result_is_the_base_tn_and_meeting_it_hits() {
    let attacker = fighter(1, 2);
    let defender = fighter(1, 1);
    // 5 + 3 = 8 against 6 + 2 = 8: equal meets the TN, margin 0, Minor.
    let run = melee(&attacker, &mut defender.clone(), &sword(), &[5, 6, 1], &HIT);
    assert_eq!(run.result, hit(Minor, LeftFoot, 1), "{}", run.text());
    assert_eq!(run.assigned("let attack ="), ["8"]);
    assert_eq!(run.assigned("base_tn = defence"), ["8"]);
    assert_eq!(run.assigned("let tn ="), ["8"]);
    // 8 against 7 + 2 = 9: a miss, and the defender made his one Defense Roll.
    let run = melee(
        &attacker,
        &mut defender.clone(),
        &sword(),
        &[5, 7],
        &HIT[..1],
    );
    assert_eq!(run.result, Miss);
}

#[test]
fn k9_attacker_pain_distress_and_disadvantage_raise_the_tn() {
    let attacker = km::Combatant {
        wounds: wounds(&[1]), // Pain +1 (assumption: a Minor box gives +1)
        distress: 1,
        disadvantage: 1,
        ..fighter(1, 2)
    };
    let defender = fighter(1, 1);
    // Defence 6 + 2 = 8, TN 8 + 3 = 11.
    let run = melee(&attacker, &mut defender.clone(), &sword(), &[8, 6, 1], &HIT);
    assert_eq!(run.assigned("let tn ="), ["11"]);
    assert_eq!(run.result, hit(Minor, LeftFoot, 1), "11 meets 11");
    let run = melee(
        &attacker,
        &mut defender.clone(),
        &sword(),
        &[7, 6],
        &HIT[..1],
    );
    assert_eq!(run.result, Miss, "10 misses 11");
}

#[test]
fn k9_attacker_advantage_lowers_the_tn() {
    let attacker = km::Combatant {
        advantage: 2,
        ..fighter(1, 2)
    };
    let defender = fighter(1, 1);
    // TN 8 - 2 = 6; 3 + 3 = 6 hits.
    let run = melee(&attacker, &mut defender.clone(), &sword(), &[3, 6, 1], &HIT);
    assert_eq!(run.assigned("let tn ="), ["6"]);
    assert_eq!(run.result, hit(Minor, LeftFoot, 1));
}

#[test]
fn k9_defender_pain_distress_and_disadvantage_lower_the_tn() {
    let attacker = fighter(1, 2);
    let defender = km::Combatant {
        wounds: wounds(&[7]), // Pain +2 (assumption: a Moderate box gives +2)
        distress: 1,
        disadvantage: 1,
        ..fighter(1, 1)
    };
    // Base TN 8, minus 4: the attacker's 2 + 3 = 5 beats TN 4 by 1.
    let mut d = defender.clone();
    let run = melee(&attacker, &mut d, &sword(), &[2, 6, 1], &HIT);
    assert_eq!(run.assigned("let tn ="), ["8"]);
    assert_eq!(run.assigned("tn = tn -"), ["4"]);
    assert_eq!(run.result, hit(Moderate, LeftFoot, 8), "5 over 4: margin 1");
    assert_eq!(filled(&d), [7, 8]);
}

#[test]
fn k9_defender_advantage_raises_the_tn() {
    let attacker = fighter(1, 2);
    let defender = km::Combatant {
        advantage: 2,
        ..fighter(1, 1)
    };
    // TN 8 + 2 = 10: 9 misses, 10 hits.
    let run = melee(
        &attacker,
        &mut defender.clone(),
        &sword(),
        &[6, 6],
        &HIT[..1],
    );
    assert_eq!(run.assigned("tn = tn -"), ["10"]);
    assert_eq!(run.result, Miss);
    let run = melee(&attacker, &mut defender.clone(), &sword(), &[7, 6, 1], &HIT);
    assert_eq!(run.result, hit(Minor, LeftFoot, 1));
}

#[test]
fn k9_modifiers_change_only_the_tn_never_the_rolls() {
    // Every modifier on both sides: the attack and defence results are still die +
    // bonuses, and no die is added or taken away (the script fits exactly).
    let attacker = km::Combatant {
        wounds: wounds(&[1]),
        distress: 2,
        disadvantage: 1,
        advantage: 3,
        ..fighter(1, 2)
    };
    let defender = km::Combatant {
        wounds: wounds(&[1, 2]),
        distress: 1,
        disadvantage: 1,
        advantage: 5,
        ..fighter(1, 1)
    };
    let run = melee(&attacker, &mut defender.clone(), &sword(), &[9, 6, 1], &HIT);
    assert_eq!(run.assigned("let attack ="), ["12"]);
    assert_eq!(run.assigned("let defence ="), ["8"]);
    // 8 + (1 + 2 + 1 - 3) - (2 + 1 + 1 - 5) = 10.
    assert_eq!(run.assigned("tn = tn -"), ["10"]);
    assert_eq!(run.result, hit(Severe, LeftFoot, 10));
    assert_eq!(
        run.rolls()
            .iter()
            .map(|(d, f, _)| (d.as_str(), f.len()))
            .collect::<Vec<_>>(),
        [("d12!", 1), ("d12!", 1), ("d12", 1)]
    );
}

#[test]
fn k9_the_defender_rolls_with_the_skill_of_the_chosen_defence() {
    let attacker = fighter(0, 0);
    let defender = km::Combatant {
        physical_performance: 1,
        skills: skills(&[(ArmedCombat, 1), (UnarmedCombat, 3), (ShieldCombat, 5)]),
        ..Default::default()
    };
    for (defence, total) in [
        (DEFEND_ARMED, 4 + 1 + 1),
        (DEFEND_UNARMED, 4 + 1 + 3),
        (DEFEND_WITH_SHIELD, 4 + 1 + 5),
    ] {
        // The attacker's 2 misses whatever the defence: no shield questions follow.
        let run = melee(
            &attacker,
            &mut defender.clone(),
            &sword(),
            &[2, 4],
            &[defence],
        );
        assert_eq!(run.result, Miss);
        assert_eq!(
            run.assigned("let defence ="),
            [total.to_string()],
            "{defence:?}"
        );
    }
}

#[test]
fn k9_the_maneuver_is_chosen_after_both_results_are_known() {
    let attacker = fighter(1, 2);
    let run = melee(&attacker, &mut fighter(1, 1), &sword(), &[9, 6, 1], &HIT);
    let events = &run.trace.events;
    let maneuver = events
        .iter()
        .position(|e| matches!(e, TraceEvent::Decide { choice, .. } if choice == "ordinary strike"))
        .expect("the maneuver decision");
    let second_roll = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, TraceEvent::Roll { .. }))
        .nth(1)
        .map(|(i, _)| i)
        .unwrap();
    assert!(second_roll < maneuver, "{}", run.text());
    // assumption (NOTES.md 13): the seed lists no specialized maneuver; the ordinary
    // strike adds no difficulty, so the final TN is the TN.
    assert_eq!(run.assigned("let final_tn ="), run.assigned("tn = tn -"));
    // A miss asks for no maneuver (the script holds only the defence).
    let run = melee(&attacker, &mut fighter(1, 1), &sword(), &[2, 6], &HIT[..1]);
    assert_eq!(run.result, Miss);
}

// ---------------------------------------------------------------------------------------
// K10 Melee with no defence roll: base TN 4 plus modifiers.

#[test]
fn k10_a_defender_who_cannot_defend_gives_base_tn_4() {
    let attacker = fighter(0, 0);
    // A skilled defender, but helpless: his skill does not matter, and no defence is
    // chosen or rolled.
    let helpless = km::Combatant {
        defenceless: true,
        ..fighter(5, 5)
    };
    let run = melee(
        &attacker,
        &mut helpless.clone(),
        &sword(),
        &[4, 3],
        &[ORDINARY_STRIKE],
    );
    assert_eq!(run.assigned("let tn ="), ["4"]);
    assert_eq!(run.result, hit(Minor, LeftLeg, 1), "4 meets TN 4");
    let run = melee(&attacker, &mut helpless.clone(), &sword(), &[3], &[]);
    assert_eq!(run.result, Miss, "3 misses TN 4");
}

#[test]
fn k10_pain_and_the_targets_condition_still_modify_base_tn_4() {
    let attacker = km::Combatant {
        wounds: wounds(&[1]), // Pain +1
        ..fighter(0, 0)
    };
    let helpless = km::Combatant {
        defenceless: true,
        ..Default::default()
    };
    let run = melee(&attacker, &mut helpless.clone(), &sword(), &[4], &[]);
    assert_eq!(run.assigned("let tn ="), ["5"]);
    assert_eq!(run.result, Miss);
    // assumption (NOTES.md 15): "the target's condition" is the target's own Pain,
    // Distress, Disadvantage and Advantage, applied as in K9.
    let restrained = km::Combatant {
        disadvantage: 2,
        ..helpless
    };
    let run = melee(
        &attacker,
        &mut restrained.clone(),
        &sword(),
        &[3, 3],
        &[ORDINARY_STRIKE],
    );
    assert_eq!(run.assigned("tn = tn -"), ["3"]);
    assert_eq!(run.result, hit(Minor, LeftLeg, 1));
}

// ---------------------------------------------------------------------------------------
// K11 Ranged: base TN 4 plus modifiers; attack 1d12 + Reflexes + ranged skill; on a hit
// the defender may roll (evade or ready shield) against the attack result; equal reduces
// one Damage Level, each point above one more; below Minor means no wound.

#[test]
fn k11_base_tn_4_plus_realism_modifiers_against_d12_plus_reflexes_plus_ranged_skill() {
    // assumption (NOTES.md 7): one Ranged Combat skill stands for "appropriate
    // ranged-combat Skill".
    let shooter = km::Combatant {
        physical_performance: 5, // not part of a ranged attack
        ..archer(1, 2)
    };
    let target = km::Combatant::default();
    let no_defence = [ranged_defence_roll(false)];
    // Long range and cover: +3, TN 7. 4 + 3 = 7 hits, 3 + 3 misses.
    let run = ranged(
        &shooter,
        &mut target.clone(),
        &longbow(),
        3,
        &[4, 1],
        &no_defence,
    );
    assert_eq!(run.assigned("let tn ="), ["7"]);
    assert_eq!(run.assigned("let attack ="), ["7"]);
    assert_eq!(run.result, hit(Moderate, LeftFoot, 7));
    let run = ranged(&shooter, &mut target.clone(), &longbow(), 3, &[3], &[]);
    assert_eq!(run.result, Miss);
    // An easy shot (-2): TN 2. The shooter's own Pain adds (+1: TN 3).
    let run = ranged(
        &shooter,
        &mut target.clone(),
        &longbow(),
        -2,
        &[2, 1],
        &no_defence,
    );
    assert_eq!(run.assigned("let tn ="), ["2"]);
    let hurt = km::Combatant {
        wounds: wounds(&[1]),
        ..shooter
    };
    let run = ranged(
        &hurt,
        &mut target.clone(),
        &longbow(),
        -2,
        &[2, 1],
        &no_defence,
    );
    assert_eq!(run.assigned("let tn ="), ["3"]);
}

#[test]
fn k11_a_defence_equal_to_the_attack_reduces_one_level() {
    // Evade: 7 + 1 + 2 = 10, equal to the attack's 10: Severe -> Moderate.
    let mut d = evader();
    assert_eq!(
        arrow(&mut d, &[6, 7, 9], &DODGE),
        hit(Moderate, LowerTorso, 7)
    );
}

#[test]
fn k11_each_point_above_reduces_one_more_level_and_below_minor_is_no_wound() {
    let mut d = evader();
    assert_eq!(
        arrow(&mut d, &[6, 8, 9], &DODGE),
        hit(Minor, LowerTorso, 1),
        "11: two levels"
    );
    let mut d = evader();
    // 12: three levels off Severe, below Minor: no wound, no Hit Location rolled.
    assert_eq!(arrow(&mut d, &[6, 9], &DODGE), NoWound);
    assert!(filled(&d).is_empty());
}

#[test]
fn k11_a_defence_below_the_attack_reduces_nothing() {
    let mut d = evader();
    assert_eq!(
        arrow(&mut d, &[6, 6, 9], &DODGE),
        hit(Severe, LowerTorso, 10)
    );
}

#[test]
fn k11_defender_pain_raises_and_advantage_lowers_the_defence_tn() {
    // Pain +1: the Defense TN is 11, so the evasion of 11 only takes one level.
    let mut hurt = km::Combatant {
        wounds: wounds(&[1]),
        ..evader()
    };
    assert_eq!(
        arrow(&mut hurt, &[6, 8, 9], &DODGE),
        hit(Moderate, LowerTorso, 7)
    );
    // Advantage 1: TN 9, so an evasion of 10 takes two levels.
    let mut ready = km::Combatant {
        advantage: 1,
        ..evader()
    };
    assert_eq!(
        arrow(&mut ready, &[6, 7, 9], &DODGE),
        hit(Minor, LowerTorso, 1)
    );
}

#[test]
fn k11_a_defender_who_declines_or_cannot_react_gets_no_defence_roll() {
    let mut d = evader();
    assert_eq!(
        arrow(&mut d, &[6, 9], &[ranged_defence_roll(false)]),
        hit(Severe, LowerTorso, 10)
    );
    // Cannot perceive or react: not even asked.
    let mut blind = km::Combatant {
        defenceless: true,
        ..evader()
    };
    assert_eq!(arrow(&mut blind, &[6, 9], &[]), hit(Severe, LowerTorso, 10));
}

#[test]
fn k11_a_ready_shield_blocks_with_shield_combat() {
    // Block: 4 + 1 + 6 = 11 against 10: two levels off Severe. Right Leg: the shield
    // does not cover it, so only the roll matters here (the armor side is K15).
    let mut d = km::Combatant {
        armor: vec![km::ArmorPiece::round_shield()],
        ..evader()
    };
    let answers = [
        ranged_defence_roll(true),
        BLOCK_WITH_SHIELD,
        shield_ready(true),
        shield_intercepts(true),
    ];
    assert_eq!(arrow(&mut d, &[6, 4, 4], &answers), hit(Minor, RightLeg, 1));
}

#[test]
fn k11_a_shield_that_cannot_be_placed_is_not_used_and_the_defender_evades() {
    // assumption (NOTES.md 14): a shield on the back (not ready) or bypassed by the
    // attack's direction cannot be used; the defender evades instead (Infantry
    // Athletics, +3 not +7): 4 + 3 = 7 reduces nothing.
    for (ready, intercepts) in [(false, true), (true, false)] {
        let mut d = km::Combatant {
            armor: vec![km::ArmorPiece::round_shield()],
            ..evader()
        };
        let answers = [
            ranged_defence_roll(true),
            BLOCK_WITH_SHIELD,
            shield_ready(ready),
            shield_intercepts(intercepts),
        ];
        assert_eq!(
            arrow(&mut d, &[6, 4, 4], &answers),
            hit(Severe, RightLeg, 10)
        );
    }
}
