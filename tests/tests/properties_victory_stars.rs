//! Property tests over Victory Stars' generated code: random combatants and states,
//! 100,000 resolutions of melee and missile attacks (with the Morale triggers between
//! them), no panic, and the invariants the rules state, checked after every resolution
//! against the d100s the resolution rolled.

mod common;
#[path = "common/victory_stars_draw.rs"]
mod victory_stars_draw;

use common::{Draw, LoggedDice, SeededDecide};
use proptest::prelude::*;
use rulesc_runtime::{Env, NoTrace, SeededDice};
use rulesc_tests::victory_stars as vs;
use victory_stars_draw::combatant;
use vs::SuccessLevel as L;

type TestEnv = Env<LoggedDice, SeededDecide, NoTrace>;

/// V1: the level a d100 roll gives against a Mastery Level kept within 5..95; a units
/// digit of 0 or 5 makes it critical.
fn level(rolled: i64, eml: i64) -> L {
    let mastery = eml.clamp(5, 95);
    let success = rolled <= mastery;
    match (success, rolled % 5 == 0) {
        (true, true) => L::CriticalSuccess,
        (true, false) => L::Success,
        (false, true) => L::CriticalFailure,
        (false, false) => L::Failure,
    }
}

/// V1: the Effective Mastery Level of a skill test.
fn eml(c: &vs::Combatant, skill: vs::Skill, modifier: i64) -> i64 {
    c.skills[skill as usize] + modifier - vs::condition_penalty(c, skill) + c.situational
}

fn attack_eml(c: &vs::Combatant, mode: vs::StrikeMode) -> i64 {
    let m = vs::mode_stats(mode);
    eml(c, m.skill, m.attack_modifier)
}

/// V10: the worst state in play, Steady with none.
fn worst_morale(c: &vs::Combatant) -> vs::MoraleState {
    c.morale_states
        .iter()
        .copied()
        .min()
        .unwrap_or(vs::MoraleState::Steady)
}

#[derive(Default, Debug)]
struct Seen {
    unopposed: u32,
    defences: [u32; 4],
    stars: [u32; 4],
    advantages_earned: u32,
    dodge_tiebreak_struck: u32,
    tied_block: u32,
    both_land: u32,
    wounded: u32,
    morale_worsened: u32,
    shock_worsened: u32,
}

/// The d100s of the resolution, in order (the attack first, then the defence).
fn d100s(log: &[(u32, u32)]) -> Vec<i64> {
    log.iter()
        .filter(|(s, _)| *s == 100)
        .map(|(_, f)| i64::from(*f))
        .collect()
}

/// V8, V6: what a blow may be.
fn check_blow(blow: &vs::Blow, victim: &vs::Combatant) -> Result<(), TestCaseError> {
    match *blow {
        vs::Blow::OffTheBody { zone } => {
            prop_assert!(zone > 10, "V6: zone {} is on the body", zone)
        }
        vs::Blow::NoInjury {
            effective_impact, ..
        } => {
            prop_assert!(effective_impact >= 0, "V7: effective impact below 0");
            prop_assert!(
                victim.thresholds.iter().all(|&t| effective_impact < t),
                "V8: impact {} reaches a threshold of {:?} and did not injure",
                effective_impact,
                victim.thresholds
            );
        }
        vs::Blow::Wounded {
            severity,
            injury_level,
            ..
        } => {
            prop_assert!(injury_level >= 1 && injury_level as usize <= victim.thresholds.len());
            let expected = match injury_level {
                1 => vs::Severity::Minor,
                2 | 3 => vs::Severity::Serious,
                _ => vs::Severity::Grievous,
            };
            prop_assert_eq!(
                severity,
                expected,
                "V9: severity of Injury Level {}",
                injury_level
            );
        }
        _ => {}
    }
    Ok(())
}

/// V4: the Tactical Advantages a side holds may only grow by what it earned; Impact may
/// be spent (zeroed) by a landed blow.
fn check_advantages(before: &[i64; 4], after: &[i64; 4], earned: i64) -> Result<(), TestCaseError> {
    let mut grown = 0;
    for k in 1..4 {
        prop_assert!(
            after[k] >= before[k],
            "V4: advantages lost {:?} -> {:?}",
            before,
            after
        );
        grown += after[k] - before[k];
    }
    if after[0] != 0 {
        prop_assert!(
            after[0] >= before[0],
            "V4: Impact {:?} -> {:?}",
            before,
            after
        );
        grown += after[0] - before[0];
        prop_assert_eq!(
            grown,
            earned,
            "V4: earned {} but {:?} -> {:?}",
            earned,
            before,
            after
        );
    } else {
        prop_assert!(
            grown <= earned,
            "V4: earned {} but {:?} -> {:?}",
            earned,
            before,
            after
        );
    }
    Ok(())
}

/// One attack, checked.
fn check_attack(
    env: &mut TestEnv,
    a: &mut vs::Combatant,
    b: &mut vs::Combatant,
    mode: vs::StrikeMode,
    ammunition: &[vs::Ammunition],
    range: vs::RangeBand,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let (a0, b0) = (a.clone(), b.clone());
    env.dice.faces.clear();
    let result = if vs::mode_stats(mode).missile {
        vs::missile_attack(env, a, b, mode, ammunition, range).unwrap()
    } else {
        vs::melee_attack(env, a, b, mode).unwrap()
    };
    let log = std::mem::take(&mut env.dice.faces);
    let rolls = d100s(&log);
    prop_assert!(!rolls.is_empty(), "V1: no attack test rolled");
    // V1: the attack test.
    let attack_level = level(rolls[0], attack_eml(&a0, mode));
    match result {
        vs::Exchange::Unopposed { attack, blow } => {
            // V2: only Ignore leaves the exchange unopposed; it is always there, and it is
            // all there is for one who cannot respond.
            prop_assert_eq!(attack, attack_level, "V1: attack d100 {}", rolls[0]);
            // V3: an ignored attack lands on any success.
            prop_assert_eq!(
                blow != vs::Blow::NoBlow,
                attack >= L::Success,
                "V3: Ignore: {:?}",
                blow
            );
            check_blow(&blow, &b0)?;
            // V4: no contest, no Victory Stars, no Tactical Advantages earned.
            check_advantages(&a0.advantages, &a.advantages, 0)?;
            check_advantages(&b0.advantages, &b.advantages, 0)?;
            seen.unopposed += 1;
        }
        vs::Exchange::Contest {
            attack,
            defence,
            defence_level,
            stars,
            winner,
            advantages,
            blow,
            counterblow,
        } => {
            prop_assert!(
                vs::can_respond(&b0),
                "V2: {:?} by one who cannot respond",
                defence
            );
            prop_assert!(
                vs::available_defences(&b0, mode).contains(&defence),
                "V2: {:?} not available against {:?}",
                defence,
                mode
            );
            prop_assert!(
                defence != vs::Defence::Ignore,
                "V3: Ignore is never a contest"
            );
            let m = vs::mode_stats(mode);
            match defence {
                vs::Defence::Block => prop_assert!(!m.no_block, "V2: {:?} cannot be blocked", mode),
                vs::Defence::Counterstrike => prop_assert!(
                    !m.no_counterstrike && !m.missile,
                    "V2: {:?} cannot be counterstruck",
                    mode
                ),
                _ => {}
            }
            prop_assert!(rolls.len() >= 2, "V1: no defence test rolled");
            prop_assert_eq!(attack, attack_level, "V1: attack d100 {}", rolls[0]);
            // V1: the defence test's level agrees with its roll wherever the Mastery Level
            // cannot matter (5..95): 01-05 succeeds, 96-00 fails, 0 and 5 are critical.
            let r = rolls[1];
            prop_assert_eq!(
                matches!(defence_level, L::CriticalSuccess | L::CriticalFailure),
                r % 5 == 0,
                "V1: defence d100 {} gave {:?}",
                r,
                defence_level
            );
            if r <= 5 {
                prop_assert!(defence_level >= L::Success, "V1: {} always succeeds", r);
            }
            if r >= 96 {
                prop_assert!(defence_level <= L::Failure, "V1: {} always fails", r);
            }
            // V4: Victory Stars are the gap in success levels; N >= 2 stars earn N - 1.
            let gap = (attack as i64 - defence_level as i64).abs();
            prop_assert_eq!(
                stars,
                gap,
                "V4: stars for {:?} against {:?}",
                attack,
                defence_level
            );
            prop_assert!(stars >= 0);
            let expected_winner = match attack.cmp(&defence_level) {
                std::cmp::Ordering::Greater => vs::Side::Attacker,
                std::cmp::Ordering::Less => vs::Side::Defender,
                std::cmp::Ordering::Equal => vs::Side::Neither,
            };
            prop_assert_eq!(winner, expected_winner, "V4: winner");
            prop_assert_eq!(
                advantages,
                if stars >= 2 { stars - 1 } else { 0 },
                "V4: advantages"
            );
            let (earned_a, earned_b) = match winner {
                vs::Side::Attacker => (advantages, 0),
                vs::Side::Defender => (0, advantages),
                vs::Side::Neither => (0, 0),
            };
            check_advantages(&a0.advantages, &a.advantages, earned_a)?;
            check_advantages(&b0.advantages, &b.advantages, earned_b)?;
            // V3: whether the blow lands.
            let struck = !matches!(blow, vs::Blow::NoBlow | vs::Blow::Breakage { .. });
            match defence {
                vs::Defence::Block => {
                    // A block need only tie; a tie of successes costs the blocker.
                    let tie = attack >= L::Success && attack == defence_level;
                    prop_assert_eq!(
                        blow != vs::Blow::NoBlow,
                        attack >= L::Success && attack >= defence_level,
                        "V3: Block {:?} against {:?}: {:?}",
                        attack,
                        defence_level,
                        blow
                    );
                    if matches!(blow, vs::Blow::Breakage { .. }) {
                        prop_assert!(tie, "V3: breakage without a tie");
                    }
                    if tie {
                        seen.tied_block += 1;
                    }
                    prop_assert_eq!(counterblow, vs::Blow::NoBlow);
                }
                vs::Defence::Dodge => {
                    // A dodge must win outright; a tie goes to the larger margin.
                    let lands = if attack >= L::Success && attack == defence_level {
                        let attack_margin = attack_eml(&a0, mode).clamp(5, 95) - rolls[0];
                        let dodge_margin = eml(&b0, vs::Skill::Dodge, 0).clamp(5, 95) - rolls[1];
                        if attack_margin > dodge_margin {
                            seen.dodge_tiebreak_struck += 1;
                        }
                        attack_margin > dodge_margin
                    } else {
                        attack >= L::Success && attack > defence_level
                    };
                    prop_assert_eq!(
                        struck,
                        lands,
                        "V3: Dodge {:?} against {:?}",
                        attack,
                        defence_level
                    );
                    prop_assert_eq!(counterblow, vs::Blow::NoBlow);
                }
                vs::Defence::Counterstrike => {
                    // Each lands on its own success.
                    prop_assert_eq!(struck, attack >= L::Success, "V3: attacker's blow");
                    prop_assert_eq!(
                        counterblow != vs::Blow::NoBlow,
                        defence_level >= L::Success,
                        "V3: counterblow"
                    );
                    check_blow(&counterblow, &a0)?;
                    if struck && counterblow != vs::Blow::NoBlow {
                        seen.both_land += 1;
                    }
                }
                vs::Defence::Ignore => {}
            }
            check_blow(&blow, &b0)?;
            seen.defences[defence as usize] += 1;
            seen.stars[stars as usize] += 1;
            if advantages > 0 {
                seen.advantages_earned += 1;
            }
        }
    }
    if !vs::can_respond(&b0) {
        prop_assert!(
            matches!(result, vs::Exchange::Unopposed { .. }),
            "V2: one who cannot respond may only Ignore"
        );
    }
    for (now, was) in [(&*a, &a0), (&*b, &b0)] {
        check_state(now, was, seen)?;
    }
    if matches!(
        result,
        vs::Exchange::Unopposed {
            blow: vs::Blow::Wounded { .. },
            ..
        }
    ) || matches!(
        result,
        vs::Exchange::Contest {
            blow: vs::Blow::Wounded { .. },
            ..
        }
    ) {
        seen.wounded += 1;
    }
    Ok(())
}

/// V9, V10: within a fight, only the worst morale state applies and it never improves;
/// a shock state only worsens.
fn check_state(
    now: &vs::Combatant,
    was: &vs::Combatant,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        vs::morale(now),
        worst_morale(now),
        "V10: the worst state applies"
    );
    // States in play stay in play; once one is, the state in effect never improves (the
    // Steady of one never tested is no state in play: a first test may make them Brave).
    prop_assert!(
        now.morale_states.starts_with(&was.morale_states),
        "V10: a state left play: {:?} -> {:?}",
        was.morale_states,
        now.morale_states
    );
    if !was.morale_states.is_empty() {
        prop_assert!(
            vs::morale(now) <= vs::morale(was),
            "V10: morale improved from {:?} to {:?}",
            vs::morale(was),
            vs::morale(now)
        );
    }
    prop_assert!(
        now.shock >= was.shock,
        "V9: shock improved from {:?} to {:?}",
        was.shock,
        now.shock
    );
    prop_assert!(now.fatigue >= was.fatigue, "V8: fatigue fell");
    prop_assert!(now.wounds.len() >= was.wounds.len(), "V9: a wound vanished");
    if vs::morale(now) < vs::morale(was) {
        seen.morale_worsened += 1;
    }
    if now.shock > was.shock {
        seen.shock_worsened += 1;
    }
    Ok(())
}

/// One fight: 1,000 attacks between two combatants (fresh ones every 50), with side
/// losses and changing numbers now and then. `situational` and `skill` are extremes drawn
/// by proptest, given to the pair for a fifth of the fight.
fn fight(seed: u64, situational: i64, skill: i64, seen: &mut Seen) -> Result<(), TestCaseError> {
    let mut d = Draw::new(seed);
    let mut env = Env::new(
        LoggedDice {
            dice: SeededDice::new(seed ^ 0x57a2_5eed),
            faces: Vec::new(),
        },
        SeededDecide::new(seed),
        NoTrace,
    );
    let (mut a, mut b) = (combatant(&mut d), combatant(&mut d));
    for i in 0..1000 {
        if i % 50 == 0 {
            a = combatant(&mut d);
            b = combatant(&mut d);
            if i % 250 == 0 {
                a.situational = situational;
                b.skills = [skill; 6];
            }
        }
        let mode = victory_stars_draw::mode(&mut d);
        let ammunition = victory_stars_draw::ammunition(&mut d);
        let range = victory_stars_draw::range(&mut d);
        if i % 2 == 0 {
            check_attack(&mut env, &mut a, &mut b, mode, &ammunition, range, seen)?;
        } else {
            check_attack(&mut env, &mut b, &mut a, mode, &ammunition, range, seen)?;
        }
        if i % 10 == 5 {
            // V10: the other triggers: the worst state still applies, and never improves.
            let was = b.clone();
            let state = if d.chance(50) {
                let standing = victory_stars_draw::standing(&mut d, &b);
                vs::side_losses(&mut env, &mut b, standing)
            } else {
                let (allies, enemies) = victory_stars_draw::numbers(&mut d);
                vs::numbers_change(&mut env, &mut b, allies, enemies)
            };
            prop_assert_eq!(state, Ok(worst_morale(&b)), "V10: the state in effect");
            check_state(&b, &was, seen)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// 100 random fights × 1,000 attacks = 100,000 resolutions.
    #[test]
    fn v1_v4_v9_v10_attacks_keep_the_rules_invariants(
        seed in any::<u64>(),
        situational in prop_oneof![-500i64..-50, -20i64..20, 50i64..500],
        skill in prop_oneof![Just(0i64), 0i64..100, 100i64..1000],
    ) {
        fight(seed, situational, skill, &mut Seen::default())?;
    }
}

/// The properties above are not vacuous: on fixed seeds every branch they check is taken.
#[test]
fn v1_v10_every_checked_branch_is_reached() {
    let mut seen = Seen::default();
    for seed in 0..10 {
        fight(seed, 0, 60, &mut seen).unwrap();
    }
    let Seen {
        unopposed,
        defences,
        stars,
        advantages_earned,
        dodge_tiebreak_struck,
        tied_block,
        both_land,
        wounded,
        morale_worsened,
        shock_worsened,
    } = seen;
    for (what, n) in [
        ("unopposed", unopposed),
        ("block", defences[0]),
        ("dodge", defences[1]),
        ("counterstrike", defences[2]),
        ("0 stars", stars[0]),
        ("1 star", stars[1]),
        ("2 stars", stars[2]),
        ("3 stars", stars[3]),
        ("advantages earned", advantages_earned),
        ("dodge tiebreak lost", dodge_tiebreak_struck),
        ("tied block", tied_block),
        ("both land", both_land),
        ("wounded", wounded),
        ("morale worsened", morale_worsened),
        ("shock worsened", shock_worsened),
    ] {
        assert!(n > 0, "{what} never happened");
    }
}
