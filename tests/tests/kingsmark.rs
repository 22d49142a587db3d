//! Kingsmark (seed `000_270d5016b3b9e426.txt`), rules K1..K6 and the worked examples K1x
//! and K4x, driven through the compiled ruleset with scripted dice and decisions. Every
//! resolution runs in the generated code and in the interpreter (`script::both`); the
//! worked examples are also told to each backend on its own (`script::Backend`).
//!
//! Combat (K9..K16, K9x) is in `kingsmark_combat/`, Surprise (K7, K8) in
//! `kingsmark_surprise.rs`.

mod common;
#[path = "common/kingsmark_script.rs"]
mod script;

use rulesc_runtime::TurnOrder;
use rulesc_tests::kingsmark as km;
use script::*;
use std::path::Path;

use km::Action::{DoubleTime, Flair, Sprint, Starring, Swift, Walk};
use km::DamageLevel::{Moderate, Severe};
use km::HitLocation::{LowerTorso, UpperTorso};

fn combatant(reflexes: i64, speed: i64) -> km::Combatant {
    km::Combatant {
        reflexes,
        speed,
        ..Default::default()
    }
}

/// A combatant who rolled `die` for Initiative (through `roll_initiative`).
fn rolled(die: u32, reflexes: i64, speed: i64) -> km::Combatant {
    let mut c = combatant(reflexes, speed);
    roll_initiative(&mut c, &[die]);
    c
}

/// Takes every remaining turn of the round, in order.
fn rest_of_round(order: &mut TurnOrder) -> Vec<Vec<usize>> {
    std::iter::from_fn(|| order.next_turn()).collect()
}

fn sword() -> km::Weapon {
    km::Weapon::arming_sword()
}

// ---------------------------------------------------------------------------------------
// K1 Initiative = 1d12 + Reflexes + Speed, never below 1.

#[test]
fn k1_initiative_is_d12_plus_reflexes_plus_speed() {
    let mut c = combatant(2, 3);
    let run = roll_initiative(&mut c, &[4]);
    assert_eq!(run.result, 9, "4 + 2 + 3\n{}", run.text());
    assert_eq!(run.rolls(), [("d12".to_string(), vec![4], 4)]);
    // The unmodified d12 is kept for the K3 tie-break, and the score reads back from it.
    assert_eq!(c.initiative_roll, 4);
    assert_eq!(initiative(&c), 9);
}

#[test]
fn k1_negative_reflexes_and_speed_are_subtracted() {
    let mut c = combatant(-1, -2);
    assert_eq!(roll_initiative(&mut c, &[9]).result, 6, "9 - 1 - 2");
    let mut c = combatant(2, -3);
    assert_eq!(roll_initiative(&mut c, &[5]).result, 4, "5 + 2 - 3");
}

#[test]
fn k1_initiative_never_falls_below_one() {
    // Reflexes -2 and Speed -3 take 5 off: faces 1..6 would give -4..1, all floored at 1.
    for face in 1..=6 {
        let mut c = combatant(-2, -3);
        assert_eq!(roll_initiative(&mut c, &[face]).result, 1, "face {face}");
        assert_eq!(c.initiative_roll, i64::from(face));
    }
    let mut c = combatant(-2, -3);
    assert_eq!(
        roll_initiative(&mut c, &[7]).result,
        2,
        "7 - 5: above the floor"
    );
}

#[test]
fn k1_initiative_die_does_not_explode() {
    // assumption (NOTES.md 10): the Initiative d12 does not explode (K12 speaks of attack
    // and defence rolls only). A 12 is one die: 12 + 1 + 1, and no second face is read.
    let mut c = combatant(1, 1);
    let run = roll_initiative(&mut c, &[12]);
    assert_eq!(run.result, 14);
    assert_eq!(run.rolls(), [("d12".to_string(), vec![12], 12)]);
}

// ---------------------------------------------------------------------------------------
// K2 Action Points = 5 + Speed (table -3..+4 gives 2..9), never below 1.

#[test]
fn k2_action_points_are_five_plus_speed_from_2_to_9() {
    // The book's table: Speed -3 = 2 ... Speed +4 = 9.
    let table = [
        (-3, 2),
        (-2, 3),
        (-1, 4),
        (0, 5),
        (1, 6),
        (2, 7),
        (3, 8),
        (4, 9),
    ];
    for (speed, points) in table {
        assert_eq!(action_points(&combatant(0, speed)), points, "Speed {speed}");
    }
    // Reflexes and wounds do not enter the Action Points.
    let hurt = km::Combatant {
        reflexes: 3,
        wounds: wounds(&[1, 7, 10]),
        ..combatant(0, 1)
    };
    assert_eq!(action_points(&hurt), 6);
}

#[test]
fn k2_action_points_never_below_one() {
    // "A character can never receive fewer than 1 Action Point ... regardless of
    // penalties." Speed is declared -3..4 (the table), where 5 + Speed is at least 2, so a
    // checked record never reaches the floor; the formula is driven here with a Speed
    // pushed below the table (as a penalty would) to pin the floor of 1.
    for speed in [-4, -5, -8] {
        assert_eq!(
            action_points(&combatant(0, speed)),
            (5 + speed).max(1),
            "Speed {speed}"
        );
    }
    assert_eq!(action_points(&combatant(0, -5)), 1);
    assert_eq!(action_points(&combatant(0, -8)), 1);
}

// ---------------------------------------------------------------------------------------
// K3 Turn order: highest initiative first; ties by raw d12, then Reflexes, then Speed,
// else simultaneous. The runtime's TurnOrder is keyed by the fight's `order(c) = turn_order(c)`.

#[test]
fn k3_highest_initiative_acts_first() {
    let a = rolled(3, 1, 0); // 4
    let b = rolled(9, 2, 1); // 12
    let c = rolled(6, 0, 1); // 7
    let mut order = TurnOrder::new(vec![key(&a), key(&b), key(&c)]);
    assert_eq!(rest_of_round(&mut order), [vec![1], vec![2], vec![0]]);
}

#[test]
fn k3_equal_initiative_higher_raw_d12_acts_first() {
    let a = rolled(9, 0, 0); // 9 from a die of 9
    let b = rolled(6, 2, 1); // 9 from a die of 6, better Reflexes and Speed
    assert_eq!((initiative(&a), initiative(&b)), (9, 9));
    let order = TurnOrder::new(vec![key(&b), key(&a)]);
    assert_eq!(
        order.remaining(),
        [vec![1], vec![0]],
        "the die of 9 goes first"
    );
}

#[test]
fn k3_equal_initiative_and_die_higher_reflexes_acts_first() {
    let a = rolled(6, 1, 2); // 9
    let b = rolled(6, 2, 1); // 9, same die, Reflexes 2 beats Reflexes 1 (Speed is lower)
    let order = TurnOrder::new(vec![key(&a), key(&b)]);
    assert_eq!(order.remaining(), [vec![1], vec![0]]);
}

#[test]
fn k3_equal_initiative_die_and_reflexes_higher_speed_acts_first() {
    // Same die and Reflexes but different Speed can still tie on Initiative at the floor.
    let slow = rolled(2, -2, -3); // 2 - 5 -> 1
    let quick = rolled(2, -2, -1); // 2 - 3 -> 1
    assert_eq!((initiative(&slow), initiative(&quick)), (1, 1));
    let order = TurnOrder::new(vec![key(&slow), key(&quick)]);
    assert_eq!(order.remaining(), [vec![1], vec![0]]);
}

#[test]
fn k3_all_tied_act_simultaneously() {
    let a = rolled(7, 1, 1);
    let b = rolled(7, 1, 1);
    let c = rolled(4, 1, 1);
    let mut order = TurnOrder::new(vec![key(&a), key(&b), key(&c)]);
    assert_eq!(rest_of_round(&mut order), [vec![0, 1], vec![2]]);
}

#[test]
fn k3_the_same_order_repeats_every_round() {
    // "play returns to the character with the highest Initiative Score ... Initiative is
    // not re-rolled": the keys come from the kept die, no new dice.
    let cs = [rolled(5, 0, 0), rolled(11, 1, 0), rolled(8, 0, 2)];
    let mut order = TurnOrder::new(cs.iter().map(key).collect());
    let first = rest_of_round(&mut order);
    assert_eq!(first, [vec![1], vec![2], vec![0]]);
    for _ in 0..3 {
        order.start_round();
        assert_eq!(rest_of_round(&mut order), first);
    }
}

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

// ---------------------------------------------------------------------------------------
// K1x "Example — Calculating Initiative": Mira 6 + 1 + 1 = 8 with 6 AP; Joseph
// 10 + 2 + 2 = 14 with 7 AP; Speed -2 gives 3 AP, Speed 0 the standard 5.

fn k1x_story<B: Backend>(b: &B) {
    let who = B::NAME;
    let mut mira = b.combatant(&combatant(1, 1));
    assert_eq!(
        b.roll_initiative(&mut mira, &[6]),
        8,
        "{who}: Mira 6 + 1 + 1"
    );
    assert_eq!(b.initiative(&mira), 8, "{who}");
    assert_eq!(b.action_points(&mira), 6, "{who}: Mira's Speed +1");
    let mut joseph = b.combatant(&combatant(2, 2));
    assert_eq!(
        b.roll_initiative(&mut joseph, &[10]),
        14,
        "{who}: Joseph 10 + 2 + 2"
    );
    assert_eq!(b.action_points(&joseph), 7, "{who}: Joseph's Speed +2");
    // "Joseph therefore acts before Mira."
    let mut order = TurnOrder::new(vec![b.key(&mira), b.key(&joseph)]);
    assert_eq!(rest_of_round(&mut order), [vec![1], vec![0]], "{who}");
    // "A character with Speed -2 receives only 3 Action Points ... Speed 0 ... 5."
    assert_eq!(b.action_points(&b.combatant(&combatant(0, -2))), 3, "{who}");
    assert_eq!(b.action_points(&b.combatant(&combatant(0, 0))), 5, "{who}");
}

#[test]
fn k1x_mira_8_with_6_ap_and_joseph_14_with_7_ap_in_the_generated_code() {
    k1x_story(&Generated);
}

#[test]
fn k1x_mira_8_with_6_ap_and_joseph_14_with_7_ap_in_the_interpreter() {
    k1x_story(&Interpreted);
}

#[test]
fn k1x_the_scenarios_replay_with_the_generated_trace() {
    // `examples/kingsmark/{mira,joseph}_initiative.yaml` run by the interpreter print the
    // very trace the generated code gives for the same faces.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kingsmark");
    let p = program();
    for (file, reflexes, speed, face, score) in [
        ("mira_initiative.yaml", 1, 1, 6, 8),
        ("joseph_initiative.yaml", 2, 2, 10, 14),
    ] {
        let text = rulesc::scenario::run_file(&p, &root.join(file), 0)
            .unwrap_or_else(|(d, _)| panic!("{file}: {:?}", d.items));
        let mut c = combatant(reflexes, speed);
        let run = roll_initiative(&mut c, &[face]);
        assert_eq!(run.result, score);
        assert_eq!(text, format!("{}result: {score}\n", run.text()), "{file}");
    }
}

// ---------------------------------------------------------------------------------------
// K4x "Example — Initiative Changes During Combat" and Johan's example.
// assumption (NOTES.md 1): the seed gives no Pain per box; a Moderate box gives +2 (Johan's
// "+2 Pain") and a Severe box +3 (Mira's "+3 Pain Modifier"). The wounds are dealt by real
// melee attacks with scripted dice.

/// An attacker with +3 (Physical Performance 1, Armed Combat 2) and a sword.
fn bravo<B: Backend>(b: &B) -> B::C {
    b.combatant(&km::Combatant {
        physical_performance: 1,
        skills: skills(&[(km::Skill::ArmedCombat, 2)]),
        ..Default::default()
    })
}

/// 7 + 3 = 10 against the defender's bare 9: margin 1, Moderate, Upper Torso, box 7.
fn johans_wound<B: Backend>(b: &B, attacker: &B::C, johan: &mut B::C) {
    let (result, _) = b.melee(
        attacker,
        johan,
        &sword(),
        &[7, 9, 10],
        &[DEFEND_ARMED, ORDINARY_STRIKE],
    );
    assert_eq!(
        result,
        "Hit(level: Moderate, location: Upper Torso, box: 7)",
        "{}",
        B::NAME
    );
}

/// 8 + 3 = 11 against the defender's bare 9: margin 2, Severe, Upper Torso, box 10.
fn miras_wound<B: Backend>(b: &B, attacker: &B::C, mira: &mut B::C) {
    let (result, _) = b.melee(
        attacker,
        mira,
        &sword(),
        &[8, 9, 10],
        &[DEFEND_ARMED, ORDINARY_STRIKE],
    );
    assert_eq!(
        result,
        "Hit(level: Severe, location: Upper Torso, box: 10)",
        "{}",
        B::NAME
    );
}

fn k4x_johan<B: Backend>(b: &B) {
    let who = B::NAME;
    const ENEMY: usize = 0;
    const JOHAN: usize = 1;
    const OTHER: usize = 2;
    let scene = |b: &B| {
        let mut enemy = bravo(b);
        assert_eq!(b.roll_initiative(&mut enemy, &[11]), 11, "{who}");
        let mut johan = b.combatant(&combatant(1, 1));
        assert_eq!(b.roll_initiative(&mut johan, &[7]), 9, "{who}: Johan 9");
        let mut other = bravo(b);
        assert_eq!(b.roll_initiative(&mut other, &[8]), 8, "{who}");
        let order = TurnOrder::new(vec![b.key(&enemy), b.key(&johan), b.key(&other)]);
        (enemy, johan, other, order)
    };

    // "An enemy acting on Initiative 11 wounds him and gives him +2 Pain, reducing Johan
    // to Initiative 7. Another character on Initiative 8 now acts before Johan. Johan
    // still receives his Turn on Initiative 7."
    let (enemy, mut johan, _other, mut order) = scene(b);
    assert_eq!(order.next_turn(), Some(vec![ENEMY]), "{who}");
    johans_wound(b, &enemy, &mut johan);
    assert_eq!(b.pain(&johan), 2, "{who}: +2 Pain");
    assert_eq!(b.initiative(&johan), 7, "{who}: 9 -> 7");
    order.set_key(JOHAN, b.key(&johan));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![OTHER], vec![JOHAN]],
        "{who}: the 8 acts before Johan's 7, and Johan still acts"
    );

    // "If Johan had already acted before receiving the wound, he would not act again
    // during that Round. He would begin the next Round at Initiative 7."
    let (_enemy, mut johan, other, mut order) = scene(b);
    assert_eq!(order.next_turn(), Some(vec![ENEMY]), "{who}");
    assert_eq!(
        order.next_turn(),
        Some(vec![JOHAN]),
        "{who}: Johan acts at 9"
    );
    johans_wound(b, &other, &mut johan);
    assert_eq!(b.initiative(&johan), 7, "{who}");
    order.set_key(JOHAN, b.key(&johan));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![OTHER]],
        "{who}: no second turn"
    );
    order.start_round();
    assert_eq!(
        rest_of_round(&mut order),
        [vec![ENEMY], vec![OTHER], vec![JOHAN]],
        "{who}: next Round at Initiative 7"
    );
}

fn k4x_mira_tomas_brakka<B: Backend>(b: &B) {
    let who = B::NAME;
    const MIRA: usize = 0;
    const TOMAS: usize = 1;
    const BRAKKA: usize = 2;
    let scene = |b: &B| {
        let mut mira = b.combatant(&combatant(1, 1));
        assert_eq!(b.roll_initiative(&mut mira, &[8]), 10, "{who}: Mira 10");
        let mut tomas = b.combatant(&combatant(1, 0));
        assert_eq!(b.roll_initiative(&mut tomas, &[7]), 8, "{who}: Tomas 8");
        let mut brakka = b.combatant(&combatant(0, 0));
        assert_eq!(b.roll_initiative(&mut brakka, &[6]), 6, "{who}: Brakka 6");
        let order = TurnOrder::new(vec![b.key(&mira), b.key(&tomas), b.key(&brakka)]);
        (mira, order)
    };
    let attacker = bravo(b);

    // "The Turn Order is therefore Mira, Tomas, and Brakka." Then, "before Mira acts
    // during a later Round, an interrupting attack fills one of her Physical Wound boxes
    // and gives her a +3 Pain Modifier. Her Initiative immediately falls from 10 to 7. The
    // Turn Order becomes Tomas at 8, Mira at 7, and Brakka at 6."
    let (mut mira, mut order) = scene(b);
    assert_eq!(
        rest_of_round(&mut order),
        [vec![MIRA], vec![TOMAS], vec![BRAKKA]],
        "{who}"
    );
    order.start_round();
    miras_wound(b, &attacker, &mut mira);
    assert_eq!(b.pain(&mira), 3, "{who}: +3 Pain");
    assert_eq!(b.initiative(&mira), 7, "{who}: 10 -> 7");
    order.set_key(MIRA, b.key(&mira));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![TOMAS], vec![MIRA], vec![BRAKKA]],
        "{who}: she waits until Initiative 7"
    );

    // "During a different Round, suppose Mira acts at Initiative 10 and then receives the
    // same wound later in that Round. Her Initiative still falls to 7 immediately, but she
    // does not receive another Turn when Initiative 7 is reached. Her new position applies
    // normally during the following Round."
    let (mut mira, mut order) = scene(b);
    assert_eq!(
        order.next_turn(),
        Some(vec![MIRA]),
        "{who}: Mira acts at 10"
    );
    assert_eq!(order.next_turn(), Some(vec![TOMAS]), "{who}");
    miras_wound(b, &attacker, &mut mira);
    assert_eq!(b.initiative(&mira), 7, "{who}");
    order.set_key(MIRA, b.key(&mira));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![BRAKKA]],
        "{who}: no turn at 7"
    );
    order.start_round();
    assert_eq!(order.next_turn(), Some(vec![TOMAS]), "{who}");
    assert_eq!(order.next_turn(), Some(vec![MIRA]), "{who}: Mira at 7");

    // "Later, a healer gives Mira 2 points of Pain Relief. Her effective Pain Modifier
    // falls from +3 to +1, so her Initiative rises from 7 to 9. If Mira has already acted
    // during that Round, she does not act again. Beginning with the following Round, she
    // acts at Initiative 9."
    b.set_pain_relief(&mut mira, 2);
    assert_eq!(b.pain(&mira), 1, "{who}: +3 -> +1");
    assert_eq!(b.initiative(&mira), 9, "{who}: 7 -> 9");
    order.set_key(MIRA, b.key(&mira));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![BRAKKA]],
        "{who}: no second turn"
    );
    for _ in 0..2 {
        order.start_round();
        assert_eq!(
            rest_of_round(&mut order),
            [vec![MIRA], vec![TOMAS], vec![BRAKKA]],
            "{who}: Mira at 9, ahead of Tomas's 8, while the relief lasts"
        );
    }
}

#[test]
fn k4x_johan_9_takes_2_pain_and_acts_at_7_after_the_8_in_the_generated_code() {
    k4x_johan(&Generated);
}

#[test]
fn k4x_johan_9_takes_2_pain_and_acts_at_7_after_the_8_in_the_interpreter() {
    k4x_johan(&Interpreted);
}

#[test]
fn k4x_mira_tomas_brakka_reorder_and_pain_relief_in_the_generated_code() {
    k4x_mira_tomas_brakka(&Generated);
}

#[test]
fn k4x_mira_tomas_brakka_reorder_and_pain_relief_in_the_interpreter() {
    k4x_mira_tomas_brakka(&Interpreted);
}
