//! d20 Armor Slots' combat as a whole fight (`rules/d20-armor-slots/fight.rules`,
//! `examples/d20-armor-slots/fight.yaml`), stepped through the generated code: initiative
//! rolled once at the start on the die the number of participants gives, ties settled
//! then, turns in initiative order every round (D1); assistance counted per round (D9).
//! The interpreter agrees on 1,000 whole fights (`d20_armor_slots_differential.rs`).

use rulesc_runtime::{Answer, Fight, Fighter, Step};
use rulesc_tests::d20_armor_slots as d20;
use rulesc_tests::differential::{assert_simulation_repeats, fight_file, step_fights};

fn key(c: &d20::Combatant) -> Vec<i64> {
    d20::turn_order(c).to_vec()
}

fn standing(f: &Fight<d20::Combatant>) -> Vec<Fighter> {
    f.fighters().filter(|&x| !d20::down(&f[x])).collect()
}

/// The file's first two of each side: four participants.
fn four() -> Fight<d20::Combatant> {
    let seven = rulesc_tests::fights::d20();
    let mut f = Fight::new();
    for x in [0, 1, 3, 4].map(Fighter) {
        f.join(
            seven.side_name(seven.side(x)),
            seven.name(x),
            seven[x].clone(),
        );
    }
    f
}

/// Runs `make` on 300 seeds and checks D1 at every step: returns the highest initiative
/// rolled.
fn d1_in(make: fn() -> Fight<d20::Combatant>) -> i64 {
    let mut highest = 0;
    step_fights(
        300,
        make,
        || d20::Rules,
        |p| p,
        30,
        |before, step, after| {
            match step {
                Step::Started => {
                    // Rolled once, on the die for this many participants.
                    let die = if after.len() <= 6 { 6 } else { 10 };
                    for x in after.fighters() {
                        assert!((1..=die).contains(&after[x].initiative));
                        highest = highest.max(after[x].initiative);
                    }
                }
                Step::Turn(group) => {
                    // The highest initiative of those who have not acted goes next (a tie
                    // the settling left acts together).
                    for &me in group {
                        assert_eq!(key(&before[me]), key(&before[group[0]]));
                        for x in standing(before) {
                            if !before.acted(x) {
                                assert!(key(&before[me]) >= key(&before[x]));
                            }
                        }
                    }
                    // Initiative is not rolled again.
                    for x in after.fighters() {
                        assert_eq!(key(&after[x]), key(&before[x]));
                    }
                }
                _ => {}
            }
        },
    );
    highest
}

#[test]
fn d1_initiative_is_rolled_once_on_1d6_with_six_or_fewer_and_turns_follow_it() {
    assert_eq!(d1_in(four), 6);
}

#[test]
fn d1_more_than_six_participants_roll_1d10() {
    assert_eq!(d1_in(rulesc_tests::fights::d20), 10);
}

/// How many of 300 fights start with a tie left, when ties are broken by `method`.
fn ties_left(method: d20::TieBreak) -> usize {
    let mut left = 0;
    let steer = move |p: rulesc_runtime::Policy| p.with("tie_break", Answer::Index(method as u32));
    step_fights(
        300,
        rulesc_tests::fights::d20,
        || d20::Rules,
        steer,
        1,
        |_, step, after| {
            if *step == Step::Started {
                let mut keys: Vec<_> = after.fighters().map(|x| key(&after[x])).collect();
                keys.sort();
                keys.dedup();
                left += usize::from(keys.len() < after.len());
            }
        },
    );
    left
}

#[test]
fn d1_a_reroll_settles_every_tie_at_the_start() {
    assert_eq!(ties_left(d20::TieBreak::Reroll), 0);
}

#[test]
fn d1_a_dm_who_gives_the_same_place_leaves_a_tie() {
    // assumption (NOTES.md 18): the DM places each tied participant; one answering at
    // random gives two the same place eight times running now and then, and they act
    // together. Seven participants on a d10 tie in most fights.
    let left = ties_left(d20::TieBreak::DmDecides);
    assert!(0 < left && left < 30, "{left}");
}

#[test]
fn d9_one_assistance_per_round_and_a_new_round_allows_it_again() {
    let (mut assisted, mut helped_twice) = (0, 0);
    step_fights(
        300,
        rulesc_tests::fights::d20,
        || d20::Rules,
        |p| p,
        30,
        |before, step, after| {
            for x in after.fighters() {
                assert!(
                    after[x].assistance_this_round <= 1,
                    "more than one assistance"
                );
                if after[x].assistance_this_round > before[x].assistance_this_round {
                    assisted += 1;
                }
            }
            if let Step::RoundStarted(_) = step {
                // `on round start` runs for those still in the fight.
                for x in standing(after) {
                    helped_twice += usize::from(before[x].assistance_this_round == 1);
                    assert_eq!(after[x].assistance_this_round, 0);
                    assert!(!after[x].gave_up_action);
                }
            }
        },
    );
    assert!(
        assisted > 50 && helped_twice > 10,
        "{assisted} {helped_twice}"
    );
}

#[test]
fn the_d20_simulation_repeats_for_its_seed_and_changes_with_another() {
    let p = rulesc_tests::differential::program_of("rules/d20-armor-slots");
    assert_simulation_repeats(
        &p,
        &fight_file(&p, "examples/d20-armor-slots/fight.yaml"),
        300,
    );
}
