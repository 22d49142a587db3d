//! Victory Stars as a whole fight (`rules/victory-stars/fight.rules`,
//! `examples/victory-stars/fight.yaml`), stepped through the generated code: the Morale
//! Tests a fight calls for as it turns (V10): half the side put out of action, judged
//! afresh against the survivors; a leader falling; being suddenly badly outnumbered.
//! The interpreter agrees on 1,000 whole fights (`victory_stars_differential.rs`).

use rulesc_runtime::{Fight, Fighter, Side};
use rulesc_tests::differential::{assert_simulation_repeats, fight_file, program_of, step_fights};
use rulesc_tests::victory_stars as vs;

type F = Fight<vs::Combatant>;

fn in_action(f: &F, s: Side) -> Vec<Fighter> {
    f.members(s)
        .filter(|&x| !vs::out_of_action(&f[x]))
        .collect()
}

/// Whether `x` is out of action by a wound's shock (then it tests no more).
fn struck_down(f: &F, x: Fighter) -> bool {
    f[x].shock as u8 >= vs::ShockState::Incapacitated as u8
}

/// Morale Tests taken by `x` in this step.
fn tests_taken(before: &F, after: &F, x: Fighter) -> usize {
    after[x].morale_states.len() - before[x].morale_states.len()
}

#[test]
fn v10_half_the_side_put_out_of_action_calls_a_morale_test_judged_afresh_each_time() {
    let mut fired = 0;
    step_fights(
        300,
        rulesc_tests::fights::victory_stars,
        || vs::Rules,
        |p| p,
        30,
        |before, _, after| {
            for s in after.sides() {
                for x in in_action(after, s) {
                    let strength = before[x].side_strength;
                    let (was, now) = (
                        in_action(before, s).len() as i64,
                        in_action(after, s).len() as i64,
                    );
                    let half_down = |standing: i64| 2 * (strength - standing) >= strength;
                    if strength > 0 && !half_down(was) && half_down(now) {
                        // The test was taken, and the losses are judged against the survivors
                        // from now on.
                        assert!(tests_taken(before, after, x) >= 1, "no Morale Test");
                        assert!(after[x].side_strength < strength);
                        fired += 1;
                    }
                    // Before half of them are down, nobody tests for the side's losses.
                    if after.round() > 0 {
                        assert!(after[x].side_strength >= 1);
                    }
                }
            }
        },
    );
    assert!(fired > 100, "{fired}");
}

#[test]
fn v10_the_side_is_mustered_when_the_fight_starts() {
    step_fights(
        20,
        rulesc_tests::fights::victory_stars,
        || vs::Rules,
        |p| p,
        1,
        |_, step, after| {
            if *step == rulesc_runtime::Step::Started {
                for x in after.fighters() {
                    assert_eq!(
                        after[x].side_strength,
                        after.members(after.side(x)).count() as i64
                    );
                }
            }
        },
    );
}

#[test]
fn v10_watching_a_leader_fall_calls_a_morale_test() {
    let mut fired = 0;
    step_fights(
        300,
        rulesc_tests::fights::victory_stars,
        || vs::Rules,
        |p| p,
        30,
        |before, _, after| {
            for x in after.fighters() {
                let s = after.side(x);
                let leader_fell = after.members(s).any(|l| {
                    l != x
                        && after[l].leader
                        && !vs::out_of_action(&before[l])
                        && vs::out_of_action(&after[l])
                });
                if leader_fell && !vs::out_of_action(&before[x]) && !struck_down(after, x) {
                    assert!(
                        tests_taken(before, after, x) >= 1,
                        "{} saw the leader fall",
                        after.name(x)
                    );
                    fired += 1;
                }
            }
        },
    );
    assert!(fired > 50, "{fired}");
}

#[test]
fn v10_being_suddenly_badly_outnumbered_calls_a_morale_test_once() {
    let mut fired = 0;
    step_fights(
        300,
        rulesc_tests::fights::victory_stars,
        || vs::Rules,
        |p| p,
        30,
        |before, _, after| {
            for x in after.fighters() {
                if vs::out_of_action(&before[x]) {
                    continue;
                }
                let s = after.side(x);
                let odds = |f: &F| {
                    let allies = in_action(f, s).len();
                    let enemies: usize = f
                        .sides()
                        .filter(|&o| o != s)
                        .map(|o| in_action(f, o).len())
                        .sum();
                    enemies >= 3 * allies
                };
                if !odds(before) && odds(after) && in_action(after, s).contains(&x) {
                    assert!(tests_taken(before, after, x) >= 1);
                    fired += 1;
                }
            }
        },
    );
    assert!(fired > 5, "{fired}");
}

#[test]
fn the_victory_stars_simulation_repeats_for_its_seed_and_changes_with_another() {
    let p = program_of("rules/victory-stars");
    assert_simulation_repeats(
        &p,
        &fight_file(&p, "examples/victory-stars/fight.yaml"),
        200,
    );
}
