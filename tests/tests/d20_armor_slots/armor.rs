//! D6..D8: damage to the armor slots, armor class, and the weapon records.

use super::*;

// ---------------------------------------------------------------------------------------
// D6 Damage goes to the picked slot's armor HP (Head, Shoulders, Chest, Hands, Legs),
// overflow to character HP; no armor means all to HP; critical: double dice, half to
// armor, half to HP (Longsword 2D10 = 14 gives 7 and 7).

/// The D6x story, told to one backend: the Longsword fighter of 4.2 rolls a natural 20
/// against a defender in Full Chain who does not react; 2D10 = 8 + 6 = 14; the DM picks
/// the Chest. Returns the printed result, the defender's Chest armor HP and Character HP.
trait Backend {
    fn critical_longsword(&self) -> (String, i64, i64);
}

fn worked_example_defender() -> d20::Combatant {
    wearing(target(), d20::ArmorSet::full_chain())
}

const D6X_DICE: [u32; 3] = [20, 8, 6];

struct Generated;
impl Backend for Generated {
    fn critical_longsword(&self) -> (String, i64, i64) {
        let mut a = swordsman();
        let mut t = worked_example_defender();
        let answers = offered(&t, &[react(NoReaction), slot(Chest)]);
        let (r, _) = scripted(&D6X_DICE, &answers, |e| {
            d20::attack(e, &mut a, &mut t).unwrap()
        });
        (r.to_string(), armor_hp(&t, Chest), t.hp)
    }
}

struct Interpreted;
impl Backend for Interpreted {
    fn critical_longsword(&self) -> (String, i64, i64) {
        let t = worked_example_defender();
        let answers = offered(&t, &[react(NoReaction), slot(Chest)]);
        let defender = combatant_value(&t);
        let (_, shown, _) = support::interpret(
            &program(),
            d20::SITES,
            "attack",
            &D6X_DICE,
            &answers,
            vec![combatant_value(&swordsman()), defender.clone()],
        );
        let p = program();
        let hp = eval::field(&p, "Combatant", &defender, "hp").unwrap().int();
        let Some(Value::List(armor)) = eval::field(&p, "Combatant", &defender, "armor") else {
            panic!("armor")
        };
        let chest: i64 = armor
            .iter()
            .filter(|piece| {
                eval::field(&p, "ArmorPiece", piece, "slot") == Some(choice(Chest as u16))
            })
            .map(|piece| eval::field(&p, "ArmorPiece", piece, "hp").unwrap().int())
            .sum();
        (shown, chest, hp)
    }
}

#[test]
fn d6x_nat_20_longsword_2d10_14_gives_7_to_armor_and_7_to_hp() {
    // "Example: Nat 20 with Longsword = 2D10 = 14 dmg -> 7 to Armor HP, 7 to Character HP".
    // The chain hauberk's 15 armor HP fall to 8; Character HP from 20 to 13.
    for (name, backend) in [
        ("generated", &Generated as &dyn Backend),
        ("interpreter", &Interpreted),
    ] {
        assert_eq!(
            backend.critical_longsword(),
            (
                "CriticalHit(slot: Chest, damage: 14, to_armor: 7, to_hp: 7)".to_string(),
                8,
                13
            ),
            "{name}"
        );
    }
    // And through both at once, trace for trace.
    let (mut a, mut t) = (swordsman(), worked_example_defender());
    let answers = [react(NoReaction), slot(Chest)];
    let run = attack(&mut a, &mut t, &D6X_DICE, &answers);
    assert_eq!(run.rolls()[1], ("2d10".to_string(), vec![8, 6], 14));
    assert_eq!(run.assigned("let attack ="), ["24"]);
    assert_eq!(run.assigned("let armor_half ="), ["7"]);
    assert_eq!(run.assigned("let direct ="), ["7"]);
}

#[test]
fn d6x_the_scenario_replays_the_book() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let trace = rulesc::scenario::run_file(
        &program(),
        &root.join("examples/d20-armor-slots/critical_longsword.yaml"),
        0,
    )
    .unwrap_or_else(|_| panic!("the scenario does not load"));
    assert!(!trace.contains("note:"), "{trace}");
    assert!(trace.contains("roll d20: 20\n"), "{trace}");
    assert!(trace.contains("roll 2d10: 8 + 6 = 14\n"), "{trace}");
    assert!(
        trace.ends_with("result: CriticalHit(slot: Chest, damage: 14, to_armor: 7, to_hp: 7)\n"),
        "{trace}"
    );
}

#[test]
fn d6_all_damage_goes_to_the_slot_armor_first() {
    let (mut a, mut t) = (swordsman(), wearing(target(), d20::ArmorSet::full_chain()));
    let run = attack(&mut a, &mut t, &[15, 1, 10], &[react(Dodge), slot(Legs)]);
    assert_eq!(run.result, hit(Legs, 10, 10, 0), "{}", run.text());
    assert_eq!(armor_hp(&t, Legs), 2);
    // Only the picked slot's piece changed.
    let mut expected = d20::ArmorSet::full_chain().pieces;
    expected[4].hp = 2;
    assert_eq!(t.armor, expected);
    assert_eq!(t.hp, 20);
}

#[test]
fn d6_armor_reaching_0_breaks_and_the_excess_goes_to_character_hp() {
    // The longsword_attack scenario: 11 + 4 = 15 against a Dodge of 9 + 1; 1D10 = 7 on the
    // leather pauldrons (5 HP): 5 to armor (broken), 2 to Character HP.
    let mut a = swordsman();
    let mut t = wearing(
        with_skill(target(), d20::Skill::Acrobatics, 1),
        d20::ArmorSet::full_leather(),
    );
    t.hp = 12;
    let run = attack(
        &mut a,
        &mut t,
        &[11, 9, 7],
        &[react(Dodge), slot(Shoulders)],
    );
    assert_eq!(run.result, hit(Shoulders, 7, 5, 2), "{}", run.text());
    assert_eq!((armor_hp(&t, Shoulders), t.hp), (0, 10));
    // A broken piece takes nothing more: the next blow goes straight to Character HP.
    let run = attack(
        &mut a,
        &mut t,
        &[11, 9, 3],
        &[react(Dodge), slot(Shoulders)],
    );
    assert_eq!(run.result, hit(Shoulders, 3, 0, 3));
    assert_eq!(t.hp, 7);
}

#[test]
fn d6_no_armor_on_the_slot_means_all_damage_to_character_hp() {
    // Only a leather jerkin: the Head is bare.
    let mut t = target();
    t.armor = vec![d20::ArmorPiece::leather_jerkin()];
    let mut a = swordsman();
    let run = attack(&mut a, &mut t, &[15, 1, 6], &[react(Dodge), slot(Head)]);
    assert_eq!(run.result, hit(Head, 6, 0, 6), "{}", run.text());
    assert_eq!((t.hp, t.armor[0].hp), (14, 8));
}

#[test]
fn d6_a_critical_sends_half_to_armor_and_half_to_character_hp() {
    // assumption: an odd total gives the extra point to Character HP: 2D10 = 9 + 6 = 15:
    // 7 to the plate cuirass, 8 to HP.
    let (mut a, mut t) = (swordsman(), wearing(target(), d20::ArmorSet::full_plate()));
    let run = attack(
        &mut a,
        &mut t,
        &[20, 9, 6],
        &[react(NoReaction), slot(Chest)],
    );
    assert_eq!(run.result, critical(Chest, 15, 7, 8), "{}", run.text());
    assert_eq!((armor_hp(&t, Chest), t.hp), (13, 12));
}

#[test]
fn d6_a_critical_half_that_breaks_the_armor_flows_on_to_hp() {
    // 2D10 = 10 + 10 = 20: 10 meant for the leather gloves (3 HP): 3 there, 7 more to HP,
    // with the direct 10: 17 to Character HP.
    let (mut a, mut t) = (
        swordsman(),
        wearing(target(), d20::ArmorSet::full_leather()),
    );
    let run = attack(
        &mut a,
        &mut t,
        &[20, 10, 10],
        &[react(NoReaction), slot(Hands)],
    );
    assert_eq!(run.result, critical(Hands, 20, 3, 17), "{}", run.text());
    assert_eq!((armor_hp(&t, Hands), t.hp), (0, 3));
    // Unarmored: the whole critical reaches Character HP.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(
        &mut a,
        &mut t,
        &[20, 5, 5],
        &[react(NoReaction), slot(Hands)],
    );
    assert_eq!(run.result, critical(Hands, 10, 0, 10));
    assert_eq!(t.hp, 10);
}

#[test]
fn d6_character_hp_does_not_fall_below_0() {
    // assumption: what 0 HP means is not in this chapter; HP stop at 0.
    let (mut a, mut t) = (swordsman(), target());
    t.hp = 3;
    let run = attack(&mut a, &mut t, &[15, 1, 9], &[react(Dodge), slot(Chest)]);
    assert_eq!(run.result, hit(Chest, 9, 0, 9));
    assert_eq!(t.hp, 0);
}

// ---------------------------------------------------------------------------------------
// D7 Total AC = 10 + sum of worn pieces; Shield Block AC separate (presets: unarmored 10,
// full leather 13, chain 16, plate 17).

#[test]
fn d7_the_presets_give_10_13_16_17() {
    for (suit, ac) in [
        (d20::ArmorSet::unarmored(), 10),
        (d20::ArmorSet::full_leather(), 13),
        (d20::ArmorSet::full_chain(), 16),
        (d20::ArmorSet::full_plate(), 17),
    ] {
        assert_eq!(suit_ac(&suit), ac);
        let mut c = target();
        don_armor(&mut c, &suit);
        assert_eq!(c.armor, suit.pieces);
        assert_eq!(total_ac(&c), ac);
    }
}

#[test]
fn d7_total_ac_is_10_plus_the_pieces_worn() {
    let mut c = target();
    assert_eq!(total_ac(&c), 10);
    c.armor = vec![
        d20::ArmorPiece::plate_cuirass(),
        d20::ArmorPiece::chain_coif(),
    ];
    assert_eq!(total_ac(&c), 13, "10 + 2 + 1");
}

#[test]
fn d7_the_shield_block_ac_is_not_added_to_total_ac() {
    let c = with_shield(
        wearing(target(), d20::ArmorSet::full_chain()),
        d20::ShieldKind::Tower,
        24,
    );
    assert_eq!(total_ac(&c), 16);
}

#[test]
fn d7_a_broken_piece_adds_no_ac() {
    // assumption: a piece at 0 armor HP is broken and no longer counts.
    let mut c = wearing(target(), d20::ArmorSet::full_plate());
    c.armor[2].hp = 0; // the cuirass, +2
    assert_eq!(total_ac(&c), 15);
}

// ---------------------------------------------------------------------------------------
// D8 Weapon records: ability, attack bonus, damage dice, range.

#[test]
fn d8_weapon_records_carry_ability_attack_bonus_damage_and_range() {
    // The book's Longsword: Strength, +2, 1D10; Greatsword 2D6. assumption: the ranges.
    let w = d20::Weapon::longsword();
    assert_eq!(
        (w.ability, w.attack_bonus, w.damage, w.range),
        (d20::WeaponAbility::StrengthWeapon, 2, d(1, 10), 1)
    );
    let w = d20::Weapon::greatsword();
    assert_eq!(
        (w.ability, w.damage),
        (d20::WeaponAbility::StrengthWeapon, d(2, 6))
    );
    assert_eq!(d20::Weapon::shortbow().range, 60);
    assert_eq!(
        d20::Weapon::katana().ability,
        d20::WeaponAbility::EitherAbility
    );
}

#[test]
fn d8_a_hit_rolls_the_weapons_damage_dice_and_adds_its_attack_bonus() {
    // Greatsword: 2D6 and +1; Strength 2 (+1): 1D20 + 2.
    let mut a = fighter(2, 0, d20::Weapon::greatsword());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[12, 3, 4, 5], &[react(Dodge), slot(Legs)]);
    assert_eq!(run.assigned("let attack ="), ["14"]);
    assert_eq!(run.rolls()[2], ("2d6".to_string(), vec![4, 5], 9));
    assert_eq!(run.result, hit(Legs, 9, 0, 9));
}
