//! Kingsmark's Action Scene as a whole fight (`rules/kingsmark/fight.rules`,
//! `examples/kingsmark/fight.yaml`): the turn order the fight's key gives (K3, K4), one
//! Turn per Round (K4), interruptions (K6) and Surprise (K7) in whole fights run by the
//! generated code; the interpreter and the generated code agree on 1,000 whole fights;
//! `rulesc simulate` repeats for a seed.

mod common;

use common::{combatant_value, kingsmark};
use rulesc_runtime::{Answer, Fight, Fighter, Policy, Step};
use rulesc_tests::differential::{
    assert_simulation_repeats, fight_differential, fight_file, step_fights,
};
use rulesc_tests::kingsmark as km;

const FILE: &str = "examples/kingsmark/fight.yaml";

#[test]
fn kingsmark_fights_match_the_interpreter() {
    let p = kingsmark();
    let file = fight_file(&p, FILE);
    let ends = fight_differential(
        &p,
        "kingsmark",
        &file,
        &rulesc_tests::fights::kingsmark().combatants,
        |c| combatant_value(&p, c),
        || km::Rules,
        1_000,
    );
    // Both sides win: every path of a Turn was compared.
    assert!(ends.contains_key("Won(Side(0))"), "{ends:?}");
    assert!(ends.contains_key("Won(Side(1))"), "{ends:?}");
}

#[test]
fn the_kingsmark_simulation_repeats_for_its_seed_and_changes_with_another() {
    let p = kingsmark();
    assert_simulation_repeats(&p, &fight_file(&p, FILE), 300);
}

/// The fight file's fight, stepped on 200 or 300 seeds (`step_fights`).
fn step_the_file(
    seeds: u64,
    policy: impl Fn(Policy) -> Policy,
    watch: impl FnMut(&km::Fight, &Step, &km::Fight),
) {
    step_fights(
        seeds,
        rulesc_tests::fights::kingsmark,
        || km::Rules,
        policy,
        40,
        watch,
    );
}

/// Four combatants alike (the file's Aldren): equal Reflexes and Speed, so an equal
/// d12 ties.
fn four_alike() -> km::Fight {
    let file = rulesc_tests::fights::kingsmark();
    let mut f = Fight::new();
    for (i, side) in ["Watch", "Watch", "Brigands", "Brigands"]
        .iter()
        .enumerate()
    {
        f.join(side, &format!("f{i}"), file[Fighter(0)].clone());
    }
    f
}

fn standing(f: &km::Fight) -> Vec<Fighter> {
    f.fighters()
        .filter(|&x| !km::incapacitated(&f[x]))
        .collect()
}

#[test]
fn k3_k4_each_turn_goes_to_the_highest_key_not_yet_acted_and_ties_act_together() {
    let (mut turns, mut together) = (0, 0);
    // The file's four, and four alike.
    let makers: [fn() -> km::Fight; 2] = [rulesc_tests::fights::kingsmark, four_alike];
    for make in makers {
        step_fights(
            200,
            make,
            || km::Rules,
            |p| p,
            40,
            |before, step, _| {
                let Step::Turn(group) = step else { return };
                // The keys as they are when the Turn comes (a wound taken earlier in the Round
                // has already lowered its bearer's Initiative).
                let waiting: Vec<Fighter> = standing(before)
                    .into_iter()
                    .filter(|&x| !before.acted(x))
                    .collect();
                let best = waiting.iter().map(|&x| km::turn_order(&before[x])).max();
                let expected: Vec<Fighter> = waiting
                    .iter()
                    .copied()
                    .filter(|&x| Some(km::turn_order(&before[x])) == best)
                    .collect();
                assert_eq!(*group, expected, "round {}", before.round());
                turns += 1;
                together += usize::from(group.len() > 1);
            },
        );
    }
    assert!(turns > 1_000, "{turns}");
    // Equal keys act simultaneously (K3).
    assert!(together > 0);
}

#[test]
fn k4_no_one_takes_a_second_turn_in_a_round_and_wounds_reorder_the_turns() {
    let mut reordered = 0;
    step_the_file(
        200,
        |p| p,
        |before, step, after| {
            if let Step::Turn(group) = step {
                for &x in group {
                    assert!(!before.acted(x), "a second Turn for {}", before.name(x));
                    assert!(after.acted(x));
                }
            }
            // The order of the Turns still to come changed within a Round: a wound's Pain
            // moved someone (K4).
            if let Step::Turn(_) = step {
                let order = |f: &km::Fight| {
                    let mut w: Vec<Fighter> = standing(f)
                        .into_iter()
                        .filter(|&x| !after.acted(x))
                        .collect();
                    w.sort_by_key(|&x| std::cmp::Reverse(km::turn_order(&f[x])));
                    w
                };
                if order(before) != order(after) {
                    reordered += 1;
                }
            }
        },
    );
    assert!(
        reordered > 0,
        "some wound moves someone among the Turns not yet taken"
    );
}

#[test]
fn k6_an_interrupting_character_takes_its_turn_at_once_and_no_other_that_round() {
    // Everyone who may lies in wait half the time and always interrupts.
    let mut interruptions = 0;
    let mut interrupted_this_round: Vec<Fighter> = Vec::new();
    let mut round = 0;
    step_the_file(
        300,
        |p| {
            p.with("interrupting", Answer::Index(1))
                .with("interruption_still_possible", Answer::Index(1))
        },
        |before, step, after| {
            if after.round() != round {
                round = after.round();
                interrupted_this_round.clear();
            }
            if let Step::Turn(group) = step {
                for x in &interrupted_this_round {
                    assert!(
                        !group.contains(x),
                        "{} interrupted, then had a Turn",
                        before.name(*x)
                    );
                }
                for x in before.fighters() {
                    let stopped = before[x].laying_in_wait && !after[x].laying_in_wait;
                    if stopped && !group.contains(&x) {
                        // It interrupted someone else's attack: its Turn is taken.
                        assert!(after.acted(x));
                        interrupted_this_round.push(x);
                        interruptions += 1;
                    }
                }
            }
        },
    );
    assert!(interruptions > 20, "{interruptions}");
}

#[test]
fn k7_a_character_surprised_by_all_loses_its_first_turn_and_then_surprise_ends() {
    let mut surprised = 0;
    step_the_file(
        300,
        |p| p.with("surprise_test_required", Answer::Index(1)),
        |before, step, after| {
            if let Step::Turn(group) = step {
                for &x in group {
                    if before[x].surprised {
                        surprised += 1;
                        // No attack: nobody's wounds changed on a Turn it took alone.
                        if group.len() == 1 {
                            for y in before.fighters() {
                                assert_eq!(before[y].wounds, after[y].wounds);
                            }
                        }
                        assert!(!after[x].surprised, "Surprise lasts one Turn");
                        assert_eq!(before.round(), 1, "surprised only in the first Round");
                    }
                }
            }
        },
    );
    assert!(surprised > 10, "{surprised}");
}
