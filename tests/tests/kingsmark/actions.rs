//! K4, K5: pain and distress lowering initiative, and what actions cost.

use super::*;

// ---------------------------------------------------------------------------------------
// K4 Pain and Distress lower initiative immediately (floor 1); at most one turn per
// round; acted markers; next round uses the current order.

/// A Moderate wound for a defender with no armor and no bonuses: attack 10 against a
/// defence of 9 (margin 1), Hit Location 9 (Lower Torso).
fn moderate_wound(defender: &mut km::Combatant) -> km::AttackResult {
    let attacker = km::Combatant {
        physical_performance: 1,
        skills: skills(&[(km::Skill::ArmedCombat, 2)]),
        ..Default::default()
    };
    melee(
        &attacker,
        defender,
        &sword(),
        &[7, 9, 9],
        &[DEFEND_ARMED, ORDINARY_STRIKE],
    )
    .result
}

#[test]
fn k4_a_wound_lowers_initiative_at_once() {
    let mut johan = rolled(7, 1, 1);
    assert_eq!(initiative(&johan), 9);
    assert_eq!(
        moderate_wound(&mut johan),
        hit(Moderate, LowerTorso, 7),
        "the wound that gives the Pain"
    );
    // assumption (NOTES.md 1): a Moderate box gives +2 Pain.
    assert_eq!(pain(&johan), 2);
    assert_eq!(
        initiative(&johan),
        7,
        "9 - 2, read straight from the wound boxes"
    );
    assert_eq!(key(&johan)[0], 7);
}

#[test]
fn k4_distress_lowers_initiative_as_pain_does() {
    let calm = rolled(8, 1, 0);
    let shaken = km::Combatant {
        distress: 3,
        ..calm.clone()
    };
    assert_eq!(initiative(&calm), 9);
    assert_eq!(initiative(&shaken), 6);
    let both = km::Combatant {
        wounds: wounds(&[1]), // +1 Pain (assumption: a Minor box gives +1)
        ..shaken
    };
    assert_eq!(initiative(&both), 5);
}

#[test]
fn k4_pain_and_distress_never_take_initiative_below_one() {
    let c = km::Combatant {
        wounds: wounds(&[10, 11]), // two Severe boxes: +6 Pain
        distress: 2,
        ..rolled(3, 0, 1)
    };
    assert_eq!(pain(&c), 6);
    assert_eq!(initiative(&c), 1, "4 - 6 - 2 floors at 1");
}

#[test]
fn k4_pain_relief_lowers_the_effective_pain_modifier() {
    let c = km::Combatant {
        wounds: wounds(&[10]), // +3 Pain
        ..rolled(8, 1, 1)
    };
    assert_eq!(initiative(&c), 7);
    let relieved = km::Combatant {
        pain_relief: 2,
        ..c.clone()
    };
    assert_eq!(pain(&relieved), 1);
    assert_eq!(initiative(&relieved), 9);
    // Relief beyond the Pain leaves no Pain, never a bonus.
    let over = km::Combatant {
        pain_relief: 5,
        ..c
    };
    assert_eq!(pain(&over), 0);
    assert_eq!(initiative(&over), 10);
}

#[test]
fn k4_a_character_who_acted_gets_no_second_turn_in_the_round() {
    let (a, mut b, c) = (rolled(9, 1, 0), rolled(4, 1, 1), rolled(5, 0, 0));
    b.wounds = wounds(&[10]); // 6 - 3 = 3
    let mut order = TurnOrder::new(vec![key(&a), key(&b), key(&c)]);
    assert_eq!(order.next_turn(), Some(vec![0]));
    assert!(order.has_acted(0), "the acted marker");
    assert_eq!(order.next_turn(), Some(vec![2]));
    // The last to act is healed above everyone who already acted: no second turn for
    // them, and nobody acts twice.
    b.pain_relief = 3;
    assert_eq!(initiative(&b), 6);
    order.set_key(1, key(&b));
    assert_eq!(rest_of_round(&mut order), [vec![1]]);
    // A lowered Initiative after acting does not take the turn back either.
    let mut order = TurnOrder::new(vec![key(&a), key(&c)]);
    assert_eq!(order.next_turn(), Some(vec![0]));
    let mut a2 = a.clone();
    assert_eq!(moderate_wound(&mut a2), hit(Moderate, LowerTorso, 7));
    order.set_key(0, key(&a2));
    assert_eq!(rest_of_round(&mut order), [vec![1]]);
    assert!(order.has_acted(0));
}

#[test]
fn k4_the_next_round_removes_the_markers_and_uses_the_current_order() {
    let (mut a, b) = (rolled(9, 1, 0), rolled(8, 1, 0)); // 10 and 9
    let mut order = TurnOrder::new(vec![key(&a), key(&b)]);
    assert_eq!(rest_of_round(&mut order), [vec![0], vec![1]]);
    assert!(order.has_acted(0) && order.has_acted(1));
    assert_eq!(moderate_wound(&mut a), hit(Moderate, LowerTorso, 7)); // 10 -> 8
    order.set_key(0, key(&a));
    assert_eq!(order.next_turn(), None, "the round is over");
    order.start_round();
    assert!(
        !order.has_acted(0) && !order.has_acted(1),
        "markers removed"
    );
    assert_eq!(
        rest_of_round(&mut order),
        [vec![1], vec![0]],
        "9 now before 8"
    );
}

// ---------------------------------------------------------------------------------------
// K5 Action costs.

#[test]
fn k5_flair_costs_1_swift_2_starring_4_sprint_4() {
    assert_eq!(turn_cost(&[Flair]), 1);
    assert_eq!(turn_cost(&[Swift]), 2);
    assert_eq!(turn_cost(&[Starring]), 4);
    assert_eq!(turn_cost(&[Sprint]), 4);
    assert_eq!(turn_cost(&[Flair, Swift, Starring]), 7, "costs add up");
    let c = combatant(0, 4); // 9 Action Points
    assert_eq!(
        declare_turn(&c, &[Starring, Swift, Flair]),
        km::TurnDeclaration::Declared {
            spent: 7,
            unspent_lost: 2
        }
    );
}

#[test]
fn k5_walk_and_double_time_are_free() {
    assert_eq!(turn_cost(&[Walk]), 0);
    assert_eq!(turn_cost(&[DoubleTime]), 0);
    let c = combatant(0, 0); // 5 Action Points
    assert_eq!(
        declare_turn(&c, &[Walk, Starring, DoubleTime, Flair, Walk]),
        km::TurnDeclaration::Declared {
            spent: 5,
            unspent_lost: 0
        }
    );
}

#[test]
fn k5_sprint_only_once_per_turn() {
    let c = combatant(0, 4); // 9 Action Points: two Sprints (8) would be affordable
    assert_eq!(
        declare_turn(&c, &[Sprint, Sprint]),
        km::TurnDeclaration::SprintTwice
    );
    assert_eq!(
        declare_turn(&c, &[Sprint, Starring]),
        km::TurnDeclaration::Declared {
            spent: 8,
            unspent_lost: 1
        }
    );
}

#[test]
fn k5_unspent_action_points_are_lost() {
    let c = combatant(0, 1); // 6 Action Points
    assert_eq!(
        declare_turn(&c, &[Swift]),
        km::TurnDeclaration::Declared {
            spent: 2,
            unspent_lost: 4
        }
    );
    assert_eq!(
        declare_turn(&c, &[]),
        km::TurnDeclaration::Declared {
            spent: 0,
            unspent_lost: 6
        }
    );
}

#[test]
fn k5_total_cost_never_above_the_turns_points() {
    let slow = combatant(0, -2); // 3 Action Points
    assert_eq!(
        declare_turn(&slow, &[Starring]),
        km::TurnDeclaration::TooCostly {
            cost: 4,
            available: 3
        }
    );
    assert_eq!(
        declare_turn(&slow, &[Swift, Flair]),
        km::TurnDeclaration::Declared {
            spent: 3,
            unspent_lost: 0
        },
        "exactly the points is allowed"
    );
    let c = combatant(0, 0);
    assert_eq!(
        declare_turn(&c, &[Swift, Swift, Swift]),
        km::TurnDeclaration::TooCostly {
            cost: 6,
            available: 5
        }
    );
}
