//! K6: laying in wait and interrupting.

use super::*;

// ---------------------------------------------------------------------------------------
// K6 Laying in Wait and Interrupting.

#[test]
fn k6_laying_in_wait_dissolves_the_turn_and_allows_only_flair() {
    let mut waiting = rolled(9, 1, 0);
    let other = rolled(7, 0, 0);
    let mut order = TurnOrder::new(vec![key(&waiting), key(&other)]);
    assert_eq!(order.next_turn(), Some(vec![0]));
    lay_in_wait(&mut waiting); // "I'm going to wait": the turn is gone
    assert!(waiting.laying_in_wait);
    assert_eq!(rest_of_round(&mut order), [vec![1]], "no turn comes back");
    // Until the trigger: Flair only (speech, looks), no moving, no attacking.
    for actions in [&[Swift][..], &[Walk], &[Flair, Starring], &[DoubleTime]] {
        assert_eq!(
            declare_turn(&waiting, actions),
            km::TurnDeclaration::FlairOnly,
            "{actions:?}"
        );
    }
    assert_eq!(
        declare_turn(&waiting, &[Flair, Flair]),
        km::TurnDeclaration::Declared {
            spent: 2,
            unspent_lost: 3
        }
    );
}

#[test]
fn k6_the_trigger_lets_the_waiting_character_take_a_full_turn() {
    let mut waiting = rolled(9, 1, 0);
    lay_in_wait(&mut waiting);
    // The trigger happened and nothing made the interruption impossible.
    assert_eq!(
        interrupt(&mut waiting, &[still_possible(true)]),
        km::Interruption::Interrupts
    );
    assert!(!waiting.laying_in_wait);
    assert_eq!(
        declare_turn(&waiting, &[Starring, Walk]),
        km::TurnDeclaration::Declared {
            spent: 4,
            unspent_lost: 1
        },
        "resolved as if its Initiative had arrived"
    );
}

#[test]
fn k6_an_interruption_resolves_before_the_triggering_roll() {
    // A scoundrel declares he stabs the healer; the guard, Laying in Wait, interrupts
    // before the attack roll. The guard's blow lands first, and its Pain already counts
    // when the scoundrel's stab is rolled.
    let scoundrel = km::Combatant {
        physical_performance: 1,
        skills: skills(&[(km::Skill::ArmedCombat, 2)]),
        ..Default::default()
    };
    let healer = km::Combatant::default();
    let stab = ([6, 8, 9], [DEFEND_ARMED, ORDINARY_STRIKE]); // 9 against 8
                                                             // Without the interruption the stab hits.
    let mut untouched = healer.clone();
    assert_eq!(
        melee(&scoundrel, &mut untouched, &sword(), &stab.0, &stab.1).result,
        hit(Moderate, LowerTorso, 7)
    );

    let mut guard = km::Combatant {
        physical_performance: 2,
        skills: skills(&[(km::Skill::ArmedCombat, 2)]),
        ..rolled(6, 1, 0)
    };
    lay_in_wait(&mut guard);
    assert_eq!(
        interrupt(&mut guard, &[still_possible(true)]),
        km::Interruption::Interrupts
    );
    let mut wounded = scoundrel.clone();
    // 8 + 4 = 12 against 6 + 3 = 9: margin 3, capped at Severe (12 < 13), Upper Torso.
    assert_eq!(
        melee(
            &guard,
            &mut wounded,
            &sword(),
            &[8, 6, 10],
            &[DEFEND_ARMED, ORDINARY_STRIKE]
        )
        .result,
        hit(Severe, UpperTorso, 10)
    );
    // The stab did not make the interruption impossible, so it resolves afterwards, with
    // the same dice, against TN 8 + 3 Pain: it misses (no Hit Location is rolled).
    let mut healer = healer;
    let run = melee(
        &wounded,
        &mut healer,
        &sword(),
        &stab.0[..2],
        &[DEFEND_ARMED],
    );
    assert_eq!(run.result, km::AttackResult::Miss, "{}", run.text());
    assert_eq!(run.assigned("let tn ="), ["11"]);
    assert!(filled(&healer).is_empty());
}

#[test]
fn k6_interruptions_go_from_highest_initiative_and_a_prevented_one_does_not_happen() {
    let mut high = rolled(10, 2, 0); // 12
    let mut low = rolled(5, 1, 1); // 7
    lay_in_wait(&mut high);
    lay_in_wait(&mut low);
    // Both interrupt the same event; the runtime ranks them with the rules' key.
    let order = TurnOrder::new(vec![key(&low), key(&high)]);
    assert_eq!(
        order.rank(&[0, 1]),
        [vec![1], vec![0]],
        "Initiative 12 first"
    );
    assert_eq!(
        interrupt(&mut high, &[still_possible(true)]),
        km::Interruption::Interrupts
    );
    // The first interruption made the second one's intended action impossible.
    assert_eq!(
        interrupt(&mut low, &[still_possible(false)]),
        km::Interruption::Prevented
    );
    assert!(!high.laying_in_wait);
    assert!(
        low.laying_in_wait,
        "a prevented interruption does not happen"
    );
    assert_eq!(declare_turn(&low, &[Swift]), km::TurnDeclaration::FlairOnly);
}

#[test]
fn k6_only_a_character_laying_in_wait_can_interrupt() {
    let mut c = rolled(8, 0, 0);
    // Not waiting: no decision is asked and nothing changes.
    assert_eq!(interrupt(&mut c, &[]), km::Interruption::NotWaiting);
    assert!(!c.laying_in_wait);
}

#[test]
fn k6_a_character_may_stop_laying_in_wait_at_any_time() {
    let mut c = rolled(8, 0, 0);
    lay_in_wait(&mut c);
    assert_eq!(declare_turn(&c, &[Swift]), km::TurnDeclaration::FlairOnly);
    stop_waiting(&mut c);
    assert!(!c.laying_in_wait);
    assert_eq!(
        declare_turn(&c, &[Swift]),
        km::TurnDeclaration::Declared {
            spent: 2,
            unspent_lost: 3
        }
    );
}
