//! D4, D5: the reactions (dodge, parry, block) and a natural 20 on defence.

use super::*;

// ---------------------------------------------------------------------------------------
// D4 Reactions Dodge, Parry, Block (beat Shield Block AC: Small 10, Wooden 13, Spiked 14,
// Metal 15, Tower 20; shield HP absorbs), Take Hit (win: minimal damage; fail: full
// damage plus stun/knockback).

#[test]
fn d4_dodge_is_1d20_plus_acrobatics_and_a_win_avoids_the_attack() {
    let (mut a, mut t) = (swordsman(), with_skill(target(), d20::Skill::Acrobatics, 3));
    let t0 = t.clone();
    let run = attack(&mut a, &mut t, &[10, 12], &[react(Dodge)]);
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(run.result, Miss, "{}", run.text());
    assert_eq!(t, t0, "Avoid the attack completely");
}

#[test]
fn d4_a_failed_dodge_puts_full_damage_on_the_slot_the_dm_picks() {
    let (mut a, mut t) = (swordsman(), wearing(target(), d20::ArmorSet::full_plate()));
    let run = attack(
        &mut a,
        &mut t,
        &[10, 2, 9],
        &[react(Dodge), slot(Shoulders)],
    );
    // Plate pauldrons, 15 armor HP: all 9 go to them.
    assert_eq!(run.result, hit(Shoulders, 9, 9, 0), "{}", run.text());
    assert_eq!(armor_hp(&t, Shoulders), 6);
    assert_eq!(t.hp, 20);
}

#[test]
fn d4_a_parry_win_is_no_damage_and_a_failed_parry_is_full_damage() {
    let (mut a, mut t) = (swordsman(), swordsman());
    let run = attack(&mut a, &mut t, &[10, 11], &[react(Parry)]);
    assert_eq!(run.result, Miss, "14 against 15: {}", run.text());
    assert_eq!(t, swordsman());
    let run = attack(&mut a, &mut t, &[10, 9, 10], &[react(Parry), slot(Hands)]);
    assert_eq!(
        run.result,
        hit(Hands, 10, 0, 10),
        "14 against 13: {}",
        run.text()
    );
    assert_eq!(t.hp, 10);
}

#[test]
fn d4_block_is_offered_only_with_a_shield() {
    assert_eq!(reactions(&target()), [Dodge, Parry, TakeHit, NoReaction]);
    let shielded = with_shield(target(), d20::ShieldKind::Small, 6);
    assert_eq!(
        reactions(&shielded),
        [Dodge, Parry, Block, TakeHit, NoReaction]
    );
    // assumption: a broken shield (0 HP) cannot Block.
    let broken = with_shield(target(), d20::ShieldKind::Tower, 0);
    assert_eq!(reactions(&broken), [Dodge, Parry, TakeHit, NoReaction]);
}

#[test]
fn d4_the_attacker_must_beat_the_shield_block_ac() {
    // "Small 10, Wooden 13, Spiked 14, Metal 15, Tower 20". A 1D20 + 7 attacker (Strength
    // 10: +5, Longsword +2) equal to the AC is blocked; one more hits.
    use d20::ShieldKind::{Metal, Small, Spiked, Tower, Wooden};
    for (kind, ac) in [
        (Small, 10),
        (Wooden, 13),
        (Spiked, 14),
        (Metal, 15),
        (Tower, 20),
    ] {
        let mut a = fighter(10, 0, d20::Weapon::longsword());
        let face = ac as u32 - 7;
        let mut t = with_shield(target(), kind, 30);
        let run = attack(&mut a, &mut t, &[face, 3], &[react(Block)]);
        assert_eq!(run.assigned("defence = shield_block_ac"), [ac.to_string()]);
        assert_eq!(
            run.result,
            Blocked {
                damage: 3,
                to_shield: 3,
                to_hp: 0
            },
            "{kind}: {}",
            run.text()
        );
        let mut t = with_shield(target(), kind, 30);
        let answers = [react(Block), slot(Chest)];
        let run = attack(&mut a, &mut t, &[face + 1, 3], &answers);
        assert_eq!(run.result, hit(Chest, 3, 0, 3), "{kind}: {}", run.text());
        assert_eq!(t.shield_hp, 30, "a hit does not touch the shield");
    }
}

#[test]
fn d4_a_won_block_puts_the_damage_into_the_shield_hp() {
    let (mut a, mut t) = (
        swordsman(),
        with_shield(target(), d20::ShieldKind::Wooden, 10),
    );
    let run = attack(&mut a, &mut t, &[9, 6], &[react(Block)]);
    assert_eq!(
        run.result,
        Blocked {
            damage: 6,
            to_shield: 6,
            to_hp: 0
        },
        "{}",
        run.text()
    );
    assert_eq!((t.shield_hp, t.hp), (4, 20));
    // assumption: what a breaking shield cannot take goes to Character HP.
    let run = attack(&mut a, &mut t, &[9, 7], &[react(Block)]);
    assert_eq!(
        run.result,
        Blocked {
            damage: 7,
            to_shield: 4,
            to_hp: 3
        }
    );
    assert_eq!((t.shield_hp, t.hp), (0, 17));
    // Broken, the shield is no longer offered.
    assert!(!reactions(&t).contains(&Block));
}

#[test]
fn d4_a_failed_block_puts_full_damage_on_the_picked_slot() {
    let mut a = swordsman();
    let mut t = wearing(
        with_shield(target(), d20::ShieldKind::Small, 6),
        d20::ArmorSet::full_leather(),
    );
    let run = attack(&mut a, &mut t, &[7, 5], &[react(Block), slot(Chest)]);
    assert_eq!(
        run.result,
        hit(Chest, 5, 5, 0),
        "11 beats 10: {}",
        run.text()
    );
    assert_eq!((t.shield_hp, armor_hp(&t, Chest)), (6, 3));
}

#[test]
fn d4_a_won_take_hit_costs_minimal_damage_to_the_armor() {
    // Take Hit on 1D20 + Toughness 2: 13 + 2 = 15 against 10 + 4 = 14: won. assumption:
    // minimal damage is 1 point, to the slot the DM picks; no damage is rolled.
    let mut a = swordsman();
    let mut t = wearing(
        with_skill(target(), d20::Skill::Toughness, 2),
        d20::ArmorSet::full_chain(),
    );
    let run = attack(
        &mut a,
        &mut t,
        &[10, 13],
        &[
            react(TakeHit),
            take_hit_on(d20::TakeHitDefence::ToughnessRoll),
            slot(Head),
        ],
    );
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(
        run.result,
        Absorbed {
            slot: Head,
            damage: 1,
            to_armor: 1,
            to_hp: 0
        },
        "{}",
        run.text()
    );
    assert_eq!((armor_hp(&t, Head), t.hp), (7, 20));
    assert!(t.conditions.is_empty());
    // Unarmored, the minimal damage reaches Character HP.
    let mut bare = with_skill(target(), d20::Skill::Toughness, 2);
    let run = attack(
        &mut a,
        &mut bare,
        &[10, 13],
        &[
            react(TakeHit),
            take_hit_on(d20::TakeHitDefence::ToughnessRoll),
            slot(Head),
        ],
    );
    assert_eq!(
        run.result,
        Absorbed {
            slot: Head,
            damage: 1,
            to_armor: 0,
            to_hp: 1
        }
    );
    assert_eq!(bare.hp, 19);
}

#[test]
fn d4_a_failed_take_hit_is_full_damage_plus_stun_or_knockback() {
    for condition in [d20::Condition::Stunned, d20::Condition::KnockedBack] {
        let mut a = swordsman();
        let mut t = wearing(target(), d20::ArmorSet::full_leather());
        let run = attack(
            &mut a,
            &mut t,
            &[10, 9, 8],
            &[
                react(TakeHit),
                take_hit_on(d20::TakeHitDefence::ToughnessRoll),
                effect(condition),
                slot(Legs),
            ],
        );
        // Leather leggings, 6 HP: 6 to armor, 2 to HP.
        assert_eq!(run.result, hit(Legs, 8, 6, 2), "{}", run.text());
        assert_eq!(t.conditions, [condition]);
    }
}

#[test]
fn d4_take_hit_on_armor_ac_stands_on_total_ac() {
    // assumption: "(or Armor AC)": no roll; the attacker must beat Total AC (Full Plate 17).
    let mut a = swordsman();
    let mut t = wearing(target(), d20::ArmorSet::full_plate());
    let answers = [
        react(TakeHit),
        take_hit_on(d20::TakeHitDefence::ArmorAc),
        slot(Chest),
    ];
    let run = attack(&mut a, &mut t, &[13], &answers);
    assert_eq!(run.assigned("defence = total_ac"), ["17"]);
    assert_eq!(
        run.result,
        Absorbed {
            slot: Chest,
            damage: 1,
            to_armor: 1,
            to_hp: 0
        },
        "17 against 17: {}",
        run.text()
    );
    let answers = [
        react(TakeHit),
        take_hit_on(d20::TakeHitDefence::ArmorAc),
        effect(d20::Condition::KnockedBack),
        slot(Chest),
    ];
    let run = attack(&mut a, &mut t, &[14, 4], &answers);
    assert_eq!(
        run.result,
        hit(Chest, 4, 4, 0),
        "18 against 17: {}",
        run.text()
    );
    assert_eq!(t.conditions, [d20::Condition::KnockedBack]);
}

#[test]
fn d4_no_reaction_means_beating_total_ac() {
    // assumption: "you may choose": with none, the passive Total AC (Full Leather 13).
    let mut a = swordsman();
    let mut t = wearing(target(), d20::ArmorSet::full_leather());
    let run = attack(&mut a, &mut t, &[9], &[react(NoReaction)]);
    assert_eq!(run.result, Miss, "13 against 13: {}", run.text());
    let run = attack(&mut a, &mut t, &[10, 2], &[react(NoReaction), slot(Hands)]);
    assert_eq!(
        run.result,
        hit(Hands, 2, 2, 0),
        "14 against 13: {}",
        run.text()
    );
}

#[test]
fn d4_a_shield_taken_up_starts_at_its_hp() {
    // assumption: shield HP Small 6, Wooden 10, Spiked 12, Metal 16, Tower 24.
    use d20::ShieldKind::{Metal, Small, Spiked, Tower, Wooden};
    for (kind, hp) in [
        (Small, 6),
        (Wooden, 10),
        (Spiked, 12),
        (Metal, 16),
        (Tower, 24),
    ] {
        let mut c = target();
        take_up_shield(&mut c, kind);
        assert_eq!((c.shield, c.shield_hp), (kind, hp));
    }
}

// ---------------------------------------------------------------------------------------
// D5 Natural 20 on defence reflects 50% of the attacker's damage.

#[test]
fn d5_a_natural_20_defence_reflects_half_the_damage() {
    // The perfect_defence scenario: Rapier 14 + 5 = 19 against a natural 20 Parry; the
    // Rapier's 1D8 = 7, halved to 3 (rounded down), lands on the attacker's Hands, where
    // the leather gloves' 3 armor HP take it. The defender takes nothing.
    let mut a = wearing(
        fighter(0, 6, d20::Weapon::rapier()),
        d20::ArmorSet::full_leather(),
    );
    a.hp = 14;
    let mut t = fighter(4, 0, d20::Weapon::longsword());
    t.hp = 18;
    let t0 = t.clone();
    let run = attack(
        &mut a,
        &mut t,
        &[14, 20, 7],
        &[react(Parry), reflected_slot(Hands)],
    );
    assert_eq!(
        run.result,
        PerfectDefence {
            reflected: 3,
            slot: Hands,
            to_armor: 3,
            to_hp: 0
        },
        "{}",
        run.text()
    );
    assert_eq!(armor_hp(&a, Hands), 0);
    assert_eq!(a.hp, 14);
    assert_eq!(t, t0);
}

#[test]
fn d5_a_perfect_defence_wins_against_a_higher_total() {
    // 18 + 4 = 22 against a natural 20 Dodge with Acrobatics -3 (17): still perfect. The
    // unarmored attacker takes half of 1D10 = 9, rounded down: 4.
    let (mut a, mut t) = (
        swordsman(),
        with_skill(target(), d20::Skill::Acrobatics, -3),
    );
    let t0 = t.clone();
    let run = attack(
        &mut a,
        &mut t,
        &[18, 20, 9],
        &[react(Dodge), reflected_slot(Chest)],
    );
    assert_eq!(
        run.result,
        PerfectDefence {
            reflected: 4,
            slot: Chest,
            to_armor: 0,
            to_hp: 4
        },
        "{}",
        run.text()
    );
    assert_eq!(a.hp, 16);
    assert_eq!(t, t0);
}

#[test]
fn d5_a_natural_20_against_a_critical_reflects_half_the_doubled_dice() {
    // Both natural 20: a tie, which misses; the attacker's doubled 2D10 = 10 + 7 = 17
    // would have landed: 8 come back.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(
        &mut a,
        &mut t,
        &[20, 20, 10, 7],
        &[
            react(TakeHit),
            take_hit_on(d20::TakeHitDefence::ToughnessRoll),
            reflected_slot(Legs),
        ],
    );
    assert_eq!(run.rolls()[2].0, "2d10");
    assert_eq!(
        run.result,
        PerfectDefence {
            reflected: 8,
            slot: Legs,
            to_armor: 0,
            to_hp: 8
        },
        "{}",
        run.text()
    );
    assert_eq!(t.hp, 20);
}
