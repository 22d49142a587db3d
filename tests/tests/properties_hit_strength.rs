//! Property tests over Hit Strength's generated code: random combatants and states,
//! 100,000 resolutions of the attack (with time passing now and then), no panic, and the
//! invariants the rules state, checked after every resolution against an oracle that
//! reads the dice and decisions the resolution used.

mod common;
#[path = "common/hit_strength_draw.rs"]
mod hit_strength_draw;

use common::{Draw, LoggedDice, SeededDecide};
use hit_strength_draw::{combatant, seconds, weapon};
use proptest::prelude::*;
use rulesc_runtime::{Env, NoTrace, SeededDice};
use rulesc_tests::hit_strength as hs;

type TestEnv = Env<LoggedDice, SeededDecide, NoTrace>;

/// Reads the logged faces in order.
struct Faces<'a>(&'a [(u32, u32)], usize);

impl Faces<'_> {
    fn next(&mut self, sides: u32) -> Result<i64, TestCaseError> {
        let Some(&(s, f)) = self.0.get(self.1) else {
            return Err(TestCaseError::fail(format!(
                "expected a d{sides}, no die was rolled (faces {:?})",
                self.0
            )));
        };
        prop_assert_eq!(
            s,
            sides,
            "expected a d{}, got a d{} ({:?})",
            sides,
            s,
            self.0
        );
        self.1 += 1;
        Ok(i64::from(f))
    }

    /// A d20, or 2d20 keeping the lower under Disadvantage.
    fn d20(&mut self, disadvantage: bool) -> Result<i64, TestCaseError> {
        let a = self.next(20)?;
        if disadvantage {
            Ok(a.min(self.next(20)?))
        } else {
            Ok(a)
        }
    }
}

/// The test's own reading of the effects table's rows (H7): which condition an injury is.
fn condition_of(i: &hs::Injury) -> hs::Condition {
    use hs::{Condition as C, InjuryLocation as L, InjurySeverity as S};
    match (i.severity, i.location) {
        (S::NoInjury, _) => C::Unhurt,
        (S::SevereInjury, L::Arm) => C::SevereArm,
        (S::SevereInjury, L::Leg) => C::SevereLeg,
        (S::SevereInjury, L::Internal) => C::SevereInternal,
        (S::SevereInjury, L::Head) => C::SevereHead,
        (S::FatalInjury, L::Arm) => C::FatalArm,
        (S::FatalInjury, L::Leg) => C::FatalLeg,
        (S::FatalInjury, L::Internal) => C::FatalInternal,
        (S::FatalInjury, L::Head) => C::FatalHead,
    }
}

/// H6: the highest of Exhausted and every injury (the `Condition` ranking).
fn highest_condition(c: &hs::Combatant) -> hs::Condition {
    let exhausted = if c.exhausted {
        hs::Condition::Exhausted
    } else {
        hs::Condition::Unhurt
    };
    c.injuries
        .iter()
        .map(condition_of)
        .fold(exhausted, Ord::max)
}

/// H6, H7 after every resolution: only the highest penalty applies.
fn check_penalties(c: &hs::Combatant) -> Result<(), TestCaseError> {
    let worst = highest_condition(c);
    prop_assert_eq!(hs::worst_condition(c), worst, "H6: worst condition");
    let effects = hs::condition_effects(worst);
    prop_assert_eq!(hs::penalties(c), effects, "H6: penalties of {:?}", worst);
    // H6: penalties do not stack: e.g. Exhausted under a Severe Arm Injury gives no
    // Disadvantage on Attribute Checks, and a lower injury's effect is not added.
    let fatal = c
        .injuries
        .iter()
        .any(|i| i.severity == hs::InjurySeverity::FatalInjury);
    prop_assert_eq!(
        hs::incapacitated(c),
        fatal || c.knocked_out || c.dead || worst == hs::Condition::FatalHead,
        "H7: incapacitated"
    );
    let speed = if worst == hs::Condition::SevereLeg {
        c.speed / 2
    } else {
        c.speed
    };
    prop_assert_eq!(
        hs::current_speed(c),
        speed,
        "H6/H7: speed under {:?}",
        worst
    );
    let block_ok = !hs::incapacitated(c)
        && !matches!(
            worst,
            hs::Condition::SevereArm | hs::Condition::SevereInternal | hs::Condition::SevereHead
        );
    prop_assert_eq!(
        hs::may_use_reaction(c, hs::Reaction::Block),
        block_ok,
        "H6/H7: Block under {:?}",
        worst
    );
    Ok(())
}

/// How often each branch was seen (to show the properties are not vacuous).
#[derive(Default, Debug)]
struct Seen {
    miss: u32,
    hit: [u32; 3],
    dropped_to_zero: u32,
    no_effect: u32,
    severe: u32,
    second_severe_fatal: u32,
    fatal: u32,
    knocked_out: u32,
    eye_at_risk: u32,
    died: u32,
}

/// H1..H5, H7: one attack, checked against the dice it rolled.
fn check_attack(
    env: &mut TestEnv,
    attacker: &hs::Combatant,
    defender: &mut hs::Combatant,
    weapon: &hs::Weapon,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let before = defender.clone();
    env.dice.faces.clear();
    let result = hs::attack(env, attacker, defender, weapon).expect("no rule error");
    let log = std::mem::take(&mut env.dice.faces);
    let mut faces = Faces(&log, 0);

    // H1 (and H7: a Severe Arm Injury, when it is the highest penalty, gives Disadvantage).
    let disadvantage = highest_condition(attacker) == hs::Condition::SevereArm;
    let total = faces.d20(disadvantage)? + attacker.attack_bonus;
    prop_assert!(
        defender.hit_points >= 0,
        "H3: hit points {} below 0",
        defender.hit_points
    );
    if total < before.defense {
        prop_assert_eq!(
            result,
            hs::AttackResult::Miss,
            "H1: {} < {}",
            total,
            before.defense
        );
        prop_assert_eq!(&*defender, &before, "H1: a miss changed the defender");
        seen.miss += 1;
        return Ok(());
    }
    // H1: Hit Strength 1, +1 per full 6 points above the Defense, at most 3.
    let strength = hs::HitStrength::ALL[((total - before.defense) / 6).min(2) as usize];
    match result {
        hs::AttackResult::Miss => {
            prop_assert!(false, "H1: {} >= {} missed", total, before.defense)
        }
        hs::AttackResult::Hit {
            hit_strength,
            damage,
            hit_points,
        } => {
            prop_assert!(
                before.hit_points > 0,
                "H3: a hit at 0 hit points dealt damage"
            );
            prop_assert_eq!(
                hit_strength,
                strength,
                "H1: margin {}",
                total - before.defense
            );
            // H2: the weapon's damage at this Hit Strength.
            prop_assert_eq!(damage, weapon.damage[strength as usize], "H2: damage");
            let left = (before.hit_points - damage).max(0);
            prop_assert_eq!(hit_points, left, "H2/H3: hit points left");
            prop_assert_eq!(defender.hit_points, left, "H2/H3: hit points left");
            prop_assert_eq!(
                &defender.injuries,
                &before.injuries,
                "H3: a hit above 0 injured"
            );
            if left == 0 {
                // H3: exhausted, and no healing for an hour.
                prop_assert!(defender.exhausted, "H3: at 0 hit points and not exhausted");
                prop_assert_eq!(
                    defender.healing_blocked,
                    3600,
                    "H3: the hour without healing"
                );
                prop_assert!(hs::vulnerable(defender), "H3: at 0 and not vulnerable");
                seen.dropped_to_zero += 1;
            }
            seen.hit[strength as usize] += 1;
        }
        hs::AttackResult::NoEffect => {
            prop_assert_eq!(before.hit_points, 0, "H3: no effect above 0 hit points");
            prop_assert_eq!(
                strength,
                hs::HitStrength::LightHit,
                "H3: Hit Strength 1 only"
            );
            prop_assert_eq!(&*defender, &before, "H3: no effect changed the defender");
            seen.no_effect += 1;
        }
        hs::AttackResult::Injured {
            hit_strength,
            severity,
            location,
        } => {
            prop_assert_eq!(before.hit_points, 0, "H3: injured above 0 hit points");
            prop_assert_eq!(defender.hit_points, 0, "H3: hit points at 0 stay at 0");
            prop_assert_eq!(
                hit_strength,
                strength,
                "H1: margin {}",
                total - before.defense
            );
            prop_assert!(
                strength != hs::HitStrength::LightHit,
                "H3: Hit Strength 1 injured"
            );
            // H4: the d4.
            let place = hs::InjuryLocation::ALL[(faces.next(4)? - 1) as usize];
            prop_assert_eq!(location, place, "H4: injury location");
            // H3, H5: Severe at 2, Fatal at 3; a second Severe to the same place is Fatal.
            let second_severe = before
                .injuries
                .iter()
                .any(|i| i.location == place && i.severity == hs::InjurySeverity::SevereInjury);
            let expected = if strength == hs::HitStrength::CriticalHit || second_severe {
                hs::InjurySeverity::FatalInjury
            } else {
                hs::InjurySeverity::SevereInjury
            };
            prop_assert_eq!(severity, expected, "H3/H5: severity at {:?}", place);
            // H7: the injury joins the list (earlier ones stay); a Fatal one bleeds out in
            // 10 minutes (arm) or 1 minute (elsewhere).
            prop_assert_eq!(defender.injuries.len(), before.injuries.len() + 1);
            prop_assert_eq!(
                &defender.injuries[..before.injuries.len()],
                &before.injuries[..]
            );
            let bleeding = match (severity, place) {
                (hs::InjurySeverity::FatalInjury, hs::InjuryLocation::Arm) => 600,
                (hs::InjurySeverity::FatalInjury, _) => 60,
                _ => 0,
            };
            let added = defender.injuries[before.injuries.len()].clone();
            prop_assert_eq!(
                &added,
                &hs::Injury {
                    location: place,
                    severity,
                    bleeding_out: bleeding
                },
                "H7: the injury received"
            );
            let condition = condition_of(&added);
            // H7: Severe Head: Endurance DC 20 or unconscious, rolled under the injury's
            // own penalties (H6), so with Disadvantage only if Exhausted is still highest.
            if condition == hs::Condition::SevereHead {
                let dis = highest_condition(defender) == hs::Condition::Exhausted;
                let check = faces.d20(dis)? + defender.endurance;
                prop_assert_eq!(
                    defender.knocked_out,
                    before.knocked_out || check < 20,
                    "H7: Endurance check {} against 20",
                    check
                );
                if defender.knocked_out && !before.knocked_out {
                    seen.knocked_out += 1;
                }
            } else {
                prop_assert_eq!(defender.knocked_out, before.knocked_out);
            }
            // H7: Fatal Head: 25% to put an eye at risk (saved by a Heal check DC 20).
            if condition == hs::Condition::FatalHead {
                let eye = faces.next(100)?;
                let at_risk = if eye <= 25 { 20 } else { before.eye_at_risk };
                prop_assert_eq!(
                    defender.eye_at_risk,
                    at_risk,
                    "H7: d100 {} for the eye",
                    eye
                );
                if eye <= 25 {
                    seen.eye_at_risk += 1;
                }
            } else {
                prop_assert_eq!(defender.eye_at_risk, before.eye_at_risk);
            }
            match severity {
                hs::InjurySeverity::FatalInjury
                    if second_severe && hit_strength != hs::HitStrength::CriticalHit =>
                {
                    seen.second_severe_fatal += 1
                }
                hs::InjurySeverity::FatalInjury => seen.fatal += 1,
                _ => seen.severe += 1,
            }
        }
    }
    prop_assert_eq!(
        faces.1,
        log.len(),
        "dice rolled that no rule asked for: {:?}",
        log
    );
    Ok(())
}

/// H3, H7: time passes: the hour runs down, timers run down, death when one runs out.
fn check_time(
    env: &mut TestEnv,
    c: &mut hs::Combatant,
    seconds: i64,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let before = c.clone();
    hs::time_passes(env, c, seconds).unwrap();
    // No time passing (0 or a negative count) changes nothing.
    let seconds = seconds.max(0);
    // H7: an eye at risk that no immediate Heal check saved is lost once time passes.
    let lost = seconds > 0 && before.eye_at_risk > 0;
    prop_assert_eq!(
        c.eye_at_risk,
        if seconds > 0 { 0 } else { before.eye_at_risk },
        "H7: eye"
    );
    prop_assert_eq!(
        c.eyes_lost,
        (before.eyes_lost + i64::from(lost)).min(2),
        "H7: eyes lost"
    );
    prop_assert_eq!(
        c.healing_blocked,
        (before.healing_blocked - seconds).max(0),
        "H3: the hour"
    );
    let runs_out = before
        .injuries
        .iter()
        .any(|i| i.bleeding_out > 0 && i.bleeding_out <= seconds);
    prop_assert_eq!(
        c.dead,
        before.dead || runs_out,
        "H7: death when a timer runs out"
    );
    for (now, was) in c.injuries.iter().zip(&before.injuries) {
        prop_assert!(now.bleeding_out >= 0, "H7: timer below 0");
        let expected = if was.bleeding_out > 0 {
            (was.bleeding_out - seconds).max(0)
        } else {
            0
        };
        prop_assert_eq!(now.bleeding_out, expected, "H7: timer");
    }
    // H3: no healing while the hour runs.
    let hp = c.hit_points;
    let healed = hs::heal(env, c, 5);
    if c.healing_blocked > 0 {
        prop_assert_eq!(
            healed,
            hs::HealResult::CannotHeal,
            "H3: healed within the hour"
        );
        prop_assert_eq!(c.hit_points, hp);
    } else {
        prop_assert!(
            c.hit_points <= c.max_hit_points.max(hp),
            "healing above the maximum"
        );
    }
    if runs_out && !before.dead {
        seen.died += 1;
    }
    Ok(())
}

/// One encounter: 1,000 attacks on a defender refreshed every 50, time passing now and
/// then. `bonus` and `defense` are extremes drawn by proptest, used for a fifth of it.
fn encounter(seed: u64, bonus: i64, defense: i64, seen: &mut Seen) -> Result<(), TestCaseError> {
    let mut d = Draw::new(seed);
    let mut env = Env::new(
        LoggedDice {
            dice: SeededDice::new(seed ^ 0x0a77_ac4e),
            faces: Vec::new(),
        },
        SeededDecide::new(seed),
        NoTrace,
    );
    let mut attacker = combatant(&mut d);
    let weapon = weapon(&mut d);
    let mut defender = combatant(&mut d);
    for i in 0..1000 {
        if i % 50 == 0 {
            attacker = combatant(&mut d);
            defender = combatant(&mut d);
            if i % 250 == 0 {
                attacker.attack_bonus = bonus;
                defender.defense = defense;
            }
        }
        check_attack(&mut env, &attacker, &mut defender, &weapon, seen)?;
        check_penalties(&defender)?;
        check_penalties(&attacker)?;
        if i % 10 == 9 {
            check_time(&mut env, &mut defender, seconds(&mut d), seen)?;
            check_penalties(&defender)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// 100 random encounters × 1,000 attacks = 100,000 resolutions (and 10,000 of time).
    #[test]
    fn h1_h7_attacks_keep_the_rules_invariants(
        seed in any::<u64>(),
        bonus in prop_oneof![-40i64..-10, 0i64..20, 30i64..200],
        defense in prop_oneof![-50i64..0, 0i64..40, 60i64..300],
    ) {
        encounter(seed, bonus, defense, &mut Seen::default())?;
    }
}

/// The properties above are not vacuous: on fixed seeds every branch they check is taken.
#[test]
fn h1_h7_every_checked_branch_is_reached() {
    let mut seen = Seen::default();
    for seed in 0..10 {
        encounter(seed, 4, 12, &mut seen).unwrap();
    }
    let Seen {
        miss,
        hit,
        dropped_to_zero,
        no_effect,
        severe,
        second_severe_fatal,
        fatal,
        knocked_out,
        eye_at_risk,
        died,
    } = seen;
    for (what, n) in [
        ("miss", miss),
        ("hit strength 1", hit[0]),
        ("hit strength 2", hit[1]),
        ("hit strength 3", hit[2]),
        ("dropped to 0", dropped_to_zero),
        ("no effect", no_effect),
        ("severe", severe),
        ("second severe made fatal", second_severe_fatal),
        ("fatal", fatal),
        ("knocked out", knocked_out),
        ("eye at risk", eye_at_risk),
        ("died", died),
    ] {
        assert!(n > 0, "{what} never happened");
    }
}
