//! Property tests over d20 Armor Slots' generated code: random combatants, weapons and
//! armor, 100,000 resolutions of the attack, no panic, and the invariants the rules
//! state, checked after every resolution against the dice and decisions it used. The
//! combatants come from the ruleset's one generator, `common/d20_armor_slots_draw.rs`
//! (the differential test draws from it too).

mod common;
#[path = "common/d20_armor_slots_draw.rs"]
mod d20_armor_slots_draw;

use common::{Draw, LoggedDice, SeededDecide};
use d20_armor_slots_draw::combatant;
use proptest::prelude::*;
use rulesc_runtime::{Decide, Env, NoTrace, SeededDice};
use rulesc_tests::d20_armor_slots as d20;

/// A seeded decider that remembers each answer.
struct LoggedDecide {
    inner: SeededDecide,
    answers: Vec<(&'static str, u32)>,
}

impl Decide for LoggedDecide {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        let a = self.inner.decide(name, options);
        self.answers.push((name, a));
        a
    }
}

type TestEnv = Env<LoggedDice, LoggedDecide, NoTrace>;

/// The decisions of one resolution, taken in order by name.
struct Answers(Vec<(&'static str, u32)>);

impl Answers {
    fn take(&mut self, name: &str) -> Result<usize, TestCaseError> {
        match self.0.iter().position(|(n, _)| *n == name) {
            Some(i) => Ok(self.0.remove(i).1 as usize),
            None => Err(TestCaseError::fail(format!("{name} was not decided"))),
        }
    }
}

/// D3: the ability a weapon uses (the wielder picks for "either").
fn ability(w: &d20::Weapon, answers: &mut Answers) -> Result<usize, TestCaseError> {
    Ok(match w.ability {
        d20::WeaponAbility::StrengthWeapon => 0,
        d20::WeaponAbility::DexterityWeapon => 1,
        _ => answers.take("ability_choice")?,
    })
}

/// D6, D7: armor HP per slot, and the floors (never negative).
fn slot_hp(c: &d20::Combatant, slot: d20::ArmorSlot) -> i64 {
    c.armor
        .iter()
        .filter(|p| p.slot == slot)
        .map(|p| p.hp)
        .sum()
}

fn check_floors(c: &d20::Combatant) -> Result<(), TestCaseError> {
    prop_assert!(c.hp >= 0, "D6: character HP {} below 0", c.hp);
    prop_assert!(c.shield_hp >= 0, "D4: shield HP {} below 0", c.shield_hp);
    for p in &c.armor {
        prop_assert!(p.hp >= 0, "D6: armor-slot HP {} below 0", p.hp);
    }
    // D7: Total AC = 10 + the worn (unbroken) pieces.
    let worn: i64 = c.armor.iter().filter(|p| p.hp > 0).map(|p| p.ac).sum();
    prop_assert_eq!(d20::total_ac(c), 10 + worn, "D7: Total AC");
    Ok(())
}

/// D6: `to_hp` reached the character (floored at 0) and `to_armor` the slot's pieces;
/// nothing else changed.
fn check_landed(
    before: &d20::Combatant,
    after: &d20::Combatant,
    slot: d20::ArmorSlot,
    to_armor: i64,
    to_hp: i64,
    direct: i64,
) -> Result<(), TestCaseError> {
    prop_assert!(
        to_armor >= 0 && to_hp >= 0,
        "D6: split {}/{}",
        to_armor,
        to_hp
    );
    prop_assert_eq!(after.hp, (before.hp - to_hp).max(0), "D6: character HP");
    prop_assert_eq!(
        slot_hp(after, slot),
        slot_hp(before, slot) - to_armor,
        "D6: {:?} armor HP",
        slot
    );
    for other in d20::ArmorSlot::ALL {
        if other != slot {
            prop_assert_eq!(
                slot_hp(after, other),
                slot_hp(before, other),
                "D6: {:?} hit",
                other
            );
        }
    }
    // D6: overflow only (besides a critical's direct half): HP takes damage past the armor only once the slot's armor is
    // spent (no armor there means all of it to HP).
    if to_hp > direct && slot_hp(before, slot) > to_armor {
        return Err(TestCaseError::fail(
            "D6: HP took damage the slot's armor could absorb",
        ));
    }
    Ok(())
}

#[derive(Default, Debug)]
struct Seen {
    auto_miss: u32,
    ties: u32,
    miss: u32,
    hit: u32,
    critical: u32,
    critical_odd: u32,
    overflow: u32,
    perfect: u32,
    blocked: u32,
    absorbed: u32,
}

fn check_attack(
    env: &mut TestEnv,
    a: &mut d20::Combatant,
    b: &mut d20::Combatant,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let (a0, b0) = (a.clone(), b.clone());
    env.dice.faces.clear();
    env.decide.answers.clear();
    let result = d20::attack(env, a, b).unwrap();
    let faces: Vec<i64> = env.dice.faces.iter().map(|(_, f)| i64::from(*f)).collect();
    let mut answers = Answers(std::mem::take(&mut env.decide.answers));
    check_floors(a)?;
    check_floors(b)?;
    prop_assert_eq!(a.assist_bonus, 0, "D9: the assistance is spent on the roll");

    // D2, D3: 1D20 + ability modifier + weapon's attack bonus (+ assistance).
    let ab = ability(&a0.weapon, &mut answers)?;
    let natural = faces[0];
    let attack = natural + a0.abilities[ab] / 2 + a0.weapon.attack_bonus + a0.assist_bonus;
    if natural == 1 {
        // D2: a natural 1 never hits, whatever the total.
        prop_assert_eq!(result, d20::AttackResult::AutoMiss, "D2: natural 1");
        prop_assert_eq!(&*b, &b0, "D2: a natural 1 changed the defender");
        seen.auto_miss += 1;
        return Ok(());
    }
    let critical = natural == 20;
    // D4: the reaction chosen from those available (Block needs a shield with HP).
    let can_block = b0.shield != d20::ShieldKind::NoShield && b0.shield_hp > 0;
    let reactions: Vec<d20::Reaction> = d20::Reaction::ALL
        .into_iter()
        .filter(|r| *r != d20::Reaction::Block || can_block)
        .collect();
    let reaction = reactions[answers.take("reaction")?];
    let rolled = match reaction {
        d20::Reaction::Dodge | d20::Reaction::Parry => true,
        d20::Reaction::TakeHit => answers.take("take_hit_defence")? == 0,
        _ => false,
    };
    let mut next = 1;
    let defence = if rolled {
        let modifier = match reaction {
            d20::Reaction::Dodge => b0.skills[0],
            d20::Reaction::Parry => {
                let dab = ability(&b0.weapon, &mut answers)?;
                b0.weapon.attack_bonus + b0.abilities[dab] / 2
            }
            _ => b0.skills[2],
        };
        let face = faces[1];
        next = 2;
        if face == 20 {
            // D5: a natural 20 on the defence reflects half the attacker's damage.
            let damage: i64 = faces[2..].iter().sum();
            let d20::AttackResult::PerfectDefence {
                reflected,
                slot,
                to_armor,
                to_hp,
            } = result
            else {
                return Err(TestCaseError::fail(format!(
                    "D5: natural 20 defence gave {result:?}"
                )));
            };
            prop_assert_eq!(reflected, damage / 2, "D5: 50% of {}", damage);
            prop_assert_eq!(to_armor + to_hp, reflected, "D5/D6: split");
            check_landed(&a0, a, slot, to_armor, to_hp, 0)?;
            seen.perfect += 1;
            return Ok(());
        }
        face + modifier + b0.assist_bonus
    } else if reaction == d20::Reaction::Block {
        // D4: Shield Block AC.
        [0, 10, 13, 14, 15, 20][b0.shield as usize]
    } else {
        // D4, D7: passive Total AC.
        d20::total_ac(&b0)
    };
    if rolled {
        prop_assert_eq!(b.assist_bonus, 0, "D9: the defender's assistance is spent");
    }
    let damage: i64 = faces[next..].iter().sum();
    let dice = faces.len() - next;
    if attack == defence && !critical {
        seen.ties += 1;
    }
    match result {
        d20::AttackResult::Hit {
            slot,
            damage: dealt,
            to_armor,
            to_hp,
        } => {
            // D2: the attacker must win: a tie misses.
            prop_assert!(!critical, "D2: a natural 20 is a critical");
            prop_assert!(attack > defence, "D2: {} against {} hit", attack, defence);
            prop_assert_eq!(dice as u32, a0.weapon.damage.count, "D8: the weapon's dice");
            prop_assert_eq!(dealt, damage);
            prop_assert_eq!(to_armor + to_hp, damage, "D6: split");
            check_landed(&b0, b, slot, to_armor, to_hp, 0)?;
            if to_hp > 0 && to_armor > 0 {
                seen.overflow += 1;
            }
            seen.hit += 1;
        }
        d20::AttackResult::CriticalHit {
            slot,
            damage: dealt,
            to_armor,
            to_hp,
        } => {
            prop_assert!(critical, "D2: a critical without a natural 20");
            // D6: double dice; half to armor, half (and the odd point) to HP.
            prop_assert_eq!(dice as u32, 2 * a0.weapon.damage.count, "D6: double dice");
            prop_assert_eq!(dealt, damage);
            prop_assert_eq!(to_armor + to_hp, damage, "D6: split");
            prop_assert!(
                to_armor <= damage / 2,
                "D6: {} of {} to armor",
                to_armor,
                damage
            );
            prop_assert!(
                to_hp >= damage - damage / 2,
                "D6: {} of {} to HP",
                to_hp,
                damage
            );
            check_landed(&b0, b, slot, to_armor, to_hp, damage - damage / 2)?;
            if damage % 2 == 1 && to_armor == damage / 2 {
                seen.critical_odd += 1;
            }
            seen.critical += 1;
        }
        d20::AttackResult::Blocked {
            damage: dealt,
            to_shield,
            to_hp,
        } => {
            prop_assert_eq!(reaction, d20::Reaction::Block);
            prop_assert!(
                !critical && attack <= defence,
                "D4: {} beat {} and was blocked",
                attack,
                defence
            );
            // D4: shield HP absorbs first.
            prop_assert_eq!(dealt, damage);
            prop_assert_eq!(to_shield, damage.min(b0.shield_hp), "D4: shield absorbs");
            prop_assert_eq!(to_shield + to_hp, damage);
            prop_assert_eq!(b.shield_hp, b0.shield_hp - to_shield);
            prop_assert_eq!(b.hp, (b0.hp - to_hp).max(0));
            seen.blocked += 1;
        }
        d20::AttackResult::Absorbed {
            slot,
            damage: dealt,
            to_armor,
            to_hp,
        } => {
            // D4: Take Hit won: minimal damage.
            prop_assert_eq!(reaction, d20::Reaction::TakeHit);
            prop_assert!(!critical && attack <= defence);
            prop_assert_eq!(dealt, 1, "D4: minimal damage");
            prop_assert_eq!(to_armor + to_hp, 1);
            check_landed(&b0, b, slot, to_armor, to_hp, 0)?;
            seen.absorbed += 1;
        }
        d20::AttackResult::Miss => {
            prop_assert!(
                !critical && attack <= defence,
                "D2: {} beat {} and missed",
                attack,
                defence
            );
            prop_assert!(matches!(
                reaction,
                d20::Reaction::Dodge | d20::Reaction::Parry | d20::Reaction::NoReaction
            ));
            prop_assert_eq!(b.hp, b0.hp);
            prop_assert_eq!(&b.armor, &b0.armor);
            seen.miss += 1;
        }
        other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
    }
    // D4: a Take Hit that lost adds its stun or knockback.
    let lost = matches!(
        result,
        d20::AttackResult::Hit { .. } | d20::AttackResult::CriticalHit { .. }
    ) && reaction == d20::Reaction::TakeHit;
    prop_assert_eq!(
        b.conditions.len(),
        b0.conditions.len() + usize::from(lost),
        "D4: conditions"
    );
    Ok(())
}

/// One fight: 1,000 attacks, both ways, fresh combatants every 50. `bonus` and `hp` are
/// proptest-drawn extremes given to a fifth of the combatants.
fn fight(seed: u64, bonus: i64, hp: i64, seen: &mut Seen) -> Result<(), TestCaseError> {
    let mut d = Draw::new(seed);
    let mut env = Env::new(
        LoggedDice {
            dice: SeededDice::new(seed ^ 0xd20d_20d2),
            faces: Vec::new(),
        },
        LoggedDecide {
            inner: SeededDecide::new(seed),
            answers: Vec::new(),
        },
        NoTrace,
    );
    let (mut a, mut b) = (combatant(&mut d), combatant(&mut d));
    for i in 0..1000 {
        if i % 50 == 0 {
            a = combatant(&mut d);
            b = combatant(&mut d);
            if i % 250 == 0 {
                a.weapon.attack_bonus = bonus;
                b.hp = hp;
                for p in b.armor.iter_mut() {
                    p.hp = hp;
                }
            }
        }
        if i % 2 == 0 {
            check_attack(&mut env, &mut a, &mut b, seen)?;
        } else {
            check_attack(&mut env, &mut b, &mut a, seen)?;
        }
        if i % 7 == 0 {
            // Assistance for the next roll now and then (D9).
            a.assist_bonus = 2;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// 100 random fights × 1,000 attacks = 100,000 resolutions.
    #[test]
    fn d2_d6_attacks_keep_the_rules_invariants(
        seed in any::<u64>(),
        bonus in prop_oneof![-100i64..-10, -3i64..8, 20i64..100],
        hp in prop_oneof![Just(0i64), 0i64..3, 100i64..10_000],
    ) {
        fight(seed, bonus, hp, &mut Seen::default())?;
    }
}

/// The properties above are not vacuous: on fixed seeds every branch they check is taken.
#[test]
fn d2_d6_every_checked_branch_is_reached() {
    let mut seen = Seen::default();
    for seed in 0..10 {
        fight(seed, 2, 10, &mut seen).unwrap();
    }
    let Seen {
        auto_miss,
        ties,
        miss,
        hit,
        critical,
        critical_odd,
        overflow,
        perfect,
        blocked,
        absorbed,
    } = seen;
    for (what, n) in [
        ("natural 1", auto_miss),
        ("tie", ties),
        ("miss", miss),
        ("hit", hit),
        ("critical", critical),
        (
            "critical with an odd total, armor absorbing its half",
            critical_odd,
        ),
        ("overflow to HP", overflow),
        ("perfect defence", perfect),
        ("blocked", blocked),
        ("take hit won", absorbed),
    ] {
        assert!(n > 0, "{what} never happened");
    }
}
