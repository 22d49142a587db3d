//! D1..D3: initiative, the opposed attack roll, and the ability a weapon attacks with.

use super::*;

// ---------------------------------------------------------------------------------------
// D1 Initiative 1D6 with 6 or fewer participants, 1D10 with more; ties decided by the DM
// or rerolled.

#[test]
fn d1_six_or_fewer_participants_roll_one_d6() {
    for participants in [2, 5, 6] {
        let mut c = target();
        let run = roll_initiative(&mut c, participants, &[6]);
        assert_eq!(run.result, 6, "{}", run.text());
        assert_eq!(run.rolls(), [("d6".to_string(), vec![6], 6)]);
        assert_eq!(c.initiative, 6);
    }
}

#[test]
fn d1_more_than_six_participants_roll_one_d10() {
    for participants in [7, 12] {
        let mut c = target();
        let run = roll_initiative(&mut c, participants, &[9]);
        assert_eq!(run.result, 9, "{}", run.text());
        assert_eq!(run.rolls(), [("d10".to_string(), vec![9], 9)]);
        assert_eq!(c.initiative, 9);
    }
}

#[test]
fn d1_highest_initiative_acts_first() {
    // "1 = slowest, 6 = fastest".
    let mut order = Vec::new();
    for face in [2, 6, 4] {
        let mut c = target();
        roll_initiative(&mut c, 3, &[face]);
        order.push(vec![c.initiative]);
    }
    let mut turns = TurnOrder::new(order);
    let taken: Vec<Vec<usize>> = std::iter::from_fn(|| turns.next_turn()).collect();
    assert_eq!(taken, [vec![1], vec![2], vec![0]]);
}

#[test]
fn d1_a_tie_is_rerolled_when_the_dm_says_so() {
    // Three participants: two roll 4, one rolls 3. The DM has them reroll: 2 and 5 (on the
    // d6 again). The rerolls order the tied two among themselves only: the one who rolled
    // 3 still acts last.
    let mut cs = [target(), target(), target()];
    for (c, face) in cs.iter_mut().zip([4, 4, 3]) {
        roll_initiative(c, 3, &[face]);
    }
    let run = break_tie(
        &cs[..2],
        3,
        &[2, 5],
        &[("tie_break", d20::TieBreak::Reroll as u32)],
    );
    assert_eq!(run.result, [2, 5], "{}", run.text());
    assert_eq!(run.decided(), ["reroll"]);
    assert_eq!(
        run.rolls(),
        [
            ("d6".to_string(), vec![2], 2),
            ("d6".to_string(), vec![5], 5)
        ]
    );
    let keys = vec![
        vec![cs[0].initiative, run.result[0]],
        vec![cs[1].initiative, run.result[1]],
        vec![cs[2].initiative],
    ];
    let mut turns = TurnOrder::new(keys);
    let taken: Vec<Vec<usize>> = std::iter::from_fn(|| turns.next_turn()).collect();
    assert_eq!(taken, [vec![1], vec![0], vec![2]]);
}

#[test]
fn d1_a_reroll_uses_the_d10_with_more_than_six_participants() {
    let tied = [target(), target()];
    let run = break_tie(
        &tied,
        8,
        &[9, 10],
        &[("tie_break", d20::TieBreak::Reroll as u32)],
    );
    assert_eq!(run.result, [9, 10]);
    assert!(run.rolls().iter().all(|(dice, _, _)| dice == "d10"));
}

#[test]
fn d1_a_tied_reroll_is_settled_the_same_way_again() {
    // The rerolls tie again (3 and 3): still tied, and a second break appends another
    // tie-break that decides.
    let tied = [target(), target()];
    let reroll = [("tie_break", d20::TieBreak::Reroll as u32)];
    let first = break_tie(&tied, 2, &[3, 3], &reroll);
    assert_eq!(first.result, [3, 3]);
    let second = break_tie(&tied, 2, &[1, 6], &reroll);
    let keys = vec![
        vec![4, first.result[0], second.result[0]],
        vec![4, first.result[1], second.result[1]],
    ];
    let mut turns = TurnOrder::new(keys);
    assert_eq!(turns.next_turn(), Some(vec![1]));
    assert_eq!(turns.next_turn(), Some(vec![0]));
}

#[test]
fn d1_the_dm_decides_a_tie_by_placing_the_tied() {
    // Three tied; the DM places them second, third and first (answers are positions in
    // the places offered, [1, 2, 3]). The tie-breaks rank them in that order; no die is
    // rolled.
    let tied = [target(), target(), target()];
    let run = break_tie(
        &tied,
        3,
        &[],
        &[
            ("tie_break", d20::TieBreak::DmDecides as u32),
            ("dm_tie_place", 1),
            ("dm_tie_place", 2),
            ("dm_tie_place", 0),
        ],
    );
    assert_eq!(run.decided(), ["DM decides", "2", "3", "1"]);
    assert_eq!(run.result, [2, 1, 3], "{}", run.text());
    let keys = run.result.iter().map(|t| vec![5, *t]).collect();
    let mut turns = TurnOrder::new(keys);
    let taken: Vec<Vec<usize>> = std::iter::from_fn(|| turns.next_turn()).collect();
    assert_eq!(taken, [vec![2], vec![0], vec![1]]);
}

// ---------------------------------------------------------------------------------------
// D2 Opposed 1D20 + attack bonus vs 1D20 + defense; attacker must win (tie misses);
// natural 20 critical; natural 1 auto-miss.

#[test]
fn d2_the_attacker_wins_with_a_higher_total() {
    // 1D20 + 4 = 11 + 4 = 15 against a Dodge of 14 + 0: a hit for full damage.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[11, 14, 6], &[react(Dodge), slot(Chest)]);
    assert_eq!(run.result, hit(Chest, 6, 0, 6), "{}", run.text());
    assert_eq!(run.assigned("let attack ="), ["15"]);
    assert_eq!(run.assigned("let defence_roll ="), ["14"]);
    assert_eq!(t.hp, 14);
}

#[test]
fn d2_a_tie_misses() {
    // 11 + 4 = 15 against a Dodge of 15: "Tie or Defender wins = Miss (no damage)".
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[11, 15], &[react(Dodge)]);
    assert_eq!(run.result, Miss, "{}", run.text());
    assert_eq!(t, target(), "no damage");
}

#[test]
fn d2_the_defender_winning_misses() {
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[11, 18], &[react(Parry)]);
    assert_eq!(run.result, Miss, "{}", run.text());
    assert_eq!(t, target());
}

#[test]
fn d2_natural_1_misses_regardless_of_total() {
    // Strength 40 (+20) makes the total 1 + 22 = 23, yet a natural 1 misses; no reaction
    // is asked and no other die is rolled.
    let mut a = fighter(40, 0, d20::Weapon::longsword());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[1], &[]);
    assert_eq!(run.result, AutoMiss, "{}", run.text());
    assert_eq!(run.assigned("let attack ="), ["23"]);
    assert_eq!(t, target());
}

#[test]
fn d2_natural_20_is_a_critical_hit_with_double_damage_dice() {
    // A natural 20 with the Longsword: 2D10 instead of 1D10.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[20, 5, 3, 4], &[react(Dodge), slot(Legs)]);
    assert_eq!(run.rolls()[2], ("2d10".to_string(), vec![3, 4], 7));
    // No armor on the Legs: all 7 reach Character HP.
    assert_eq!(run.result, critical(Legs, 7, 0, 7), "{}", run.text());
}

#[test]
fn d2_natural_20_hits_even_below_the_defence_total() {
    // assumption: like the natural 1, a natural 20 holds regardless of the totals. A
    // Dagger (+1) in the hand of Dexterity 0: 20 + 1 = 21 against a Dodge of 19 + 5 = 24
    // still lands as a Critical Hit, 2D4 = 2 + 3.
    let mut a = fighter(0, 0, d20::Weapon::dagger());
    let mut t = with_skill(target(), d20::Skill::Acrobatics, 5);
    let run = attack(&mut a, &mut t, &[20, 19, 2, 3], &[react(Dodge), slot(Head)]);
    assert_eq!(run.assigned("let attack ="), ["21"]);
    assert_eq!(run.assigned("let defence_roll ="), ["24"]);
    assert_eq!(run.result, critical(Head, 5, 0, 5), "{}", run.text());
}

// ---------------------------------------------------------------------------------------
// D3 Ability by weapon (Strength / Dexterity / player's choice); modifier from score
// (Strength 4 gives +2).

#[test]
fn d3_strength_4_and_a_longsword_roll_1d20_plus_4() {
    // "Strength 4 = +2 modifier, Longsword Attack Bonus +2, Roll: 1D20 + 4".
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[7, 19], &[react(Dodge)]);
    assert_eq!(run.assigned("let ability ="), ["Strength"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["4"]);
    assert_eq!(run.assigned("let attack ="), ["11"]);
    assert_eq!(run.result, Miss, "11 against 19");
}

#[test]
fn d3_the_modifier_is_half_the_score() {
    // assumption: only "Strength 4 = +2" is given; half the score, rounded toward zero.
    for (score, modifier) in [
        (0, 0),
        (1, 0),
        (2, 1),
        (3, 1),
        (4, 2),
        (5, 2),
        (6, 3),
        (10, 5),
    ] {
        assert_eq!(ability_modifier(score), modifier, "score {score}");
    }
}

#[test]
fn d3_strength_weapons_use_strength() {
    // Greatsword (Strength, +1): Strength 6 (+3), Dexterity 10 ignored: 1D20 + 4.
    for w in [
        d20::Weapon::longsword(),
        d20::Weapon::greatsword(),
        d20::Weapon::spear(),
        d20::Weapon::heavy_crossbow(),
    ] {
        assert_eq!(w.ability, d20::WeaponAbility::StrengthWeapon);
    }
    let mut a = fighter(6, 10, d20::Weapon::greatsword());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[10, 19], &[react(Dodge)]);
    assert_eq!(run.assigned("let ability ="), ["Strength"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["4"]);
}

#[test]
fn d3_dexterity_weapons_use_dexterity() {
    // Rapier (Dexterity, +2): Dexterity 6 (+3), Strength 10 ignored: 1D20 + 5.
    for w in [
        d20::Weapon::dagger(),
        d20::Weapon::rapier(),
        d20::Weapon::shortbow(),
    ] {
        assert_eq!(w.ability, d20::WeaponAbility::DexterityWeapon);
    }
    let mut a = fighter(10, 6, d20::Weapon::rapier());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[10, 19], &[react(Dodge)]);
    assert_eq!(run.assigned("let ability ="), ["Dexterity"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["5"]);
}

#[test]
fn d3_the_katana_is_the_players_choice() {
    // Katana (+2), Strength 8 (+4), Dexterity 2 (+1): the player picks.
    for (pick, bonus) in [
        (d20::Ability::Strength, "6"),
        (d20::Ability::Dexterity, "3"),
    ] {
        let mut a = fighter(8, 2, d20::Weapon::katana());
        let mut t = target();
        let run = attack(
            &mut a,
            &mut t,
            &[10, 19],
            &[ability_choice(pick), react(Dodge)],
        );
        assert_eq!(
            run.assigned("let attack_bonus ="),
            [bonus],
            "{}",
            run.text()
        );
    }
}

#[test]
fn d3_parry_uses_the_defenders_weapon_and_its_ability() {
    // Parry: "1D20 + Weapon Attack Bonus + Attribute modifier": a Rapier (+2) in the hand
    // of a Dexterity 6 (+3), Strength 10 defender: 10 + 5 = 15.
    let (mut a, mut t) = (swordsman(), fighter(10, 6, d20::Weapon::rapier()));
    let run = attack(&mut a, &mut t, &[10, 10], &[react(Parry)]);
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(run.result, Miss, "14 against 15");
}
