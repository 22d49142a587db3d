//! Dungeon Cards (seed `004_13fe4f2794a78b61.txt`), the combat rules C1..C9, driven
//! through the compiled ruleset with scripted d100 faces and scripted decisions. Every
//! resolution runs in the generated code and in the interpreter
//! (`dungeon_cards_support::both`), which must agree on result, trace and state.
//!
//! Wounds, healing and the body map (C10..C21) are in `dungeon_cards_wounds.rs`.

mod dungeon_cards_support;

use dungeon_cards_support::*;
use rulesc_tests::dungeon_cards as dc;

use dc::AttackResult::{Hit, Killed, Miss, NoRangedWeapon, TooTired};
use dc::BodyPart::{
    Body, Forelegs, Head, Hindlegs, LeftArm, LeftLeg, LeftWing, RightArm, RightLeg, RightWing, Tail,
};
use dc::Silhouette::{Bat, Beetle, Humanoid, Rat, Slime, Snake, Spider, Wolf};
use dc::Stat::{Dodge, Melee, Ranged, Strength};

/// A player with a sword (8 slashing, 2 stamina, critical on 5 or less) and Melee 50.
fn swordsman() -> dc::Combatant {
    dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..player(&[(Melee, 50)])
    }
}

/// A tough enemy (100 Health: no blow here reaches the sever threshold of 20).
fn tough(silhouette: dc::Silhouette) -> dc::Combatant {
    dc::Combatant {
        base_max_health: 100,
        health: 100,
        ..enemy(silhouette, &[])
    }
}

fn hit(part: dc::BodyPart, damage: i64) -> dc::AttackResult {
    Hit {
        part,
        damage,
        critical: false,
        stunned: false,
        severed: false,
        disarmed: false,
        wounded: false,
    }
}

// ---------------------------------------------------------------------------------------
// C1 Body parts per silhouette (humanoid, rat, wolf, bat, snake; others use humanoid);
// heads and bodies harder to hit and hit harder; head hits add 10 points of stun chance.

#[test]
fn c1_each_silhouette_has_its_own_parts() {
    let humanoid = vec![Head, Body, LeftArm, RightArm, LeftLeg, RightLeg];
    assert_eq!(targetable_parts(&enemy(Humanoid, &[])), humanoid);
    assert_eq!(
        targetable_parts(&enemy(Rat, &[])),
        [Head, Body, Forelegs, Hindlegs, Tail]
    );
    assert_eq!(
        targetable_parts(&enemy(Wolf, &[])),
        [Head, Body, Forelegs, Hindlegs, Tail]
    );
    assert_eq!(
        targetable_parts(&enemy(Bat, &[])),
        [Head, Body, LeftWing, RightWing]
    );
    assert_eq!(targetable_parts(&enemy(Snake, &[])), [Head, Body, Tail]);
}

#[test]
fn c1_creatures_without_a_silhouette_use_the_humanoid_parts() {
    for s in [Spider, Slime, Beetle] {
        assert_eq!(
            targetable_parts(&enemy(s, &[])),
            [Head, Body, LeftArm, RightArm, LeftLeg, RightLeg],
            "{s}"
        );
    }
}

#[test]
fn c1_heads_and_bodies_are_harder_to_hit_limbs_wings_and_tails_easier() {
    // Melee 50 against Dodge 0; a d100 of 100 misses everything and shows the chance.
    // assumption: heads -20, bodies -10, limbs, wings and tails +10.
    let cases = [
        (Humanoid, Head, 30),
        (Humanoid, Body, 40),
        (Humanoid, LeftArm, 60),
        (Humanoid, RightLeg, 60),
        (Rat, Tail, 60),
        (Rat, Forelegs, 60),
        (Bat, LeftWing, 60),
        (Snake, Body, 40),
        (Wolf, Head, 30),
    ];
    for (silhouette, part, chance) in cases {
        let mut defender = enemy(silhouette, &[]);
        let answer = target(&defender, part);
        let run = melee(
            &mut swordsman(),
            &mut defender,
            &mut board(0),
            &[100],
            &[answer],
        );
        assert_eq!(run.result, Miss { part, chance }, "{silhouette} {part}");
    }
    // The chance decides: a roll equal to it hits, one above misses.
    let mut defender = enemy(Humanoid, &[]);
    let answer = target(&defender, Head);
    let run = melee(
        &mut swordsman(),
        &mut defender,
        &mut board(0),
        &[30, 99],
        &[answer],
    );
    assert!(
        matches!(run.result, Hit { part: Head, .. }),
        "{}",
        run.text()
    );
}

#[test]
fn c1_heads_and_bodies_hit_harder_limbs_wings_and_tails_less() {
    // The sword's 8 through no defense. assumption: heads 150%, bodies 125%, limbs, wings
    // and tails 75%, rounded down: 12, 10, 6.
    let cases = [
        (Humanoid, Head, 12, vec![20, 99]), // a head hit also rolls for stun (10%)
        (Humanoid, Body, 10, vec![20]),
        (Humanoid, LeftArm, 6, vec![20]),
        (Rat, Tail, 6, vec![20]),
        (Bat, RightWing, 6, vec![20]),
        (Wolf, Hindlegs, 6, vec![20]),
    ];
    for (silhouette, part, damage, faces) in cases {
        let mut defender = tough(silhouette);
        let answer = target(&defender, part);
        let run = melee(
            &mut swordsman(),
            &mut defender,
            &mut board(0),
            &faces,
            &[answer],
        );
        assert_eq!(run.result, hit(part, damage), "{silhouette} {part}");
        assert_eq!(defender.health, 100 - damage);
    }
}

#[test]
fn c1_a_head_hit_adds_ten_points_to_the_stun_chance() {
    let mace_bearer = || dc::Combatant {
        equipped: vec![dc::Item::mace()],
        ..player(&[(Melee, 50)])
    };
    // The mace stuns 10% of the time; on the head 20%.
    for (part, roll, stunned) in [
        (Head, 20, true),
        (Head, 21, false),
        (Body, 10, true),
        (Body, 11, false),
    ] {
        let mut defender = tough(Humanoid);
        let answer = target(&defender, part);
        let run = melee(
            &mut mace_bearer(),
            &mut defender,
            &mut board(0),
            &[20, roll],
            &[answer],
        );
        let chance = if part == Head { "20" } else { "10" };
        assert_eq!(run.assigned("let stun_chance"), [chance]);
        assert!(
            matches!(run.result, Hit { stunned: s, .. } if s == stunned),
            "{part} {roll}: {}",
            run.text()
        );
        assert_eq!(defender.stunned, stunned);
    }
    // A sword has no stun chance: only the head's 10 points, for every silhouette.
    for silhouette in [Humanoid, Rat, Wolf, Bat, Snake, Spider] {
        let mut defender = tough(silhouette);
        let answer = target(&defender, Head);
        let run = melee(
            &mut swordsman(),
            &mut defender,
            &mut board(0),
            &[20, 10],
            &[answer],
        );
        assert_eq!(run.assigned("let stun_chance"), ["10"]);
        assert!(defender.stunned, "{silhouette}");
        let mut defender = tough(silhouette);
        melee(
            &mut swordsman(),
            &mut defender,
            &mut board(0),
            &[20, 11],
            &[answer],
        );
        assert!(!defender.stunned, "{silhouette}");
    }
}

// ---------------------------------------------------------------------------------------
// C2 Sever: a targeted limb hit over 20% of max Health has a 5% chance; heads and bodies
// never; severed parts can't be targeted; stat penalties add up, capped at 90%.

#[test]
fn c2_a_limb_hit_over_a_fifth_of_max_health_severs_on_five_percent() {
    // A rat of 20 Health: the sword's 6 on a limb is over 4.
    for (roll, severed) in [(5, true), (1, true), (6, false), (100, false)] {
        let mut rat = enemy(Rat, &[]);
        let answer = target(&rat, Forelegs);
        let run = melee(
            &mut swordsman(),
            &mut rat,
            &mut board(0),
            &[30, roll],
            &[answer],
        );
        assert!(
            matches!(run.result, Hit { damage: 6, severed: s, .. } if s == severed),
            "{roll}: {}",
            run.text()
        );
        assert_eq!(rat.severed[Forelegs as usize], severed);
        // C2: "cannot be targeted again".
        assert_eq!(targetable_parts(&rat).contains(&Forelegs), !severed);
    }
}

#[test]
fn c2_exactly_a_fifth_of_max_health_does_not_sever() {
    // 6 is exactly 20% of 30: no sever roll at all. Of 29 it is more: rolled.
    let mut rat = dc::Combatant {
        base_max_health: 30,
        health: 30,
        ..enemy(Rat, &[])
    };
    let answer = target(&rat, Tail);
    let run = melee(&mut swordsman(), &mut rat, &mut board(0), &[30], &[answer]);
    assert_eq!(run.result, hit(Tail, 6));
    let mut rat = dc::Combatant {
        base_max_health: 29,
        health: 29,
        ..enemy(Rat, &[])
    };
    let run = melee(
        &mut swordsman(),
        &mut rat,
        &mut board(0),
        &[30, 5],
        &[answer],
    );
    assert!(matches!(run.result, Hit { severed: true, .. }));
    assert!(rat.severed[Tail as usize]);
}

#[test]
fn c2_heads_and_bodies_are_never_severed() {
    // 12 and 10 damage against 20 Health: far over 20%, but nothing is rolled for sever
    // (the head's only extra roll is its stun chance).
    for (part, faces) in [(Head, vec![30, 99]), (Body, vec![30])] {
        let mut wolf = enemy(Wolf, &[]);
        let answer = target(&wolf, part);
        let run = melee(
            &mut swordsman(),
            &mut wolf,
            &mut board(0),
            &faces,
            &[answer],
        );
        assert!(
            matches!(run.result, Hit { severed: false, .. }),
            "{}",
            run.text()
        );
        assert!(wolf.severed.iter().all(|s| !s));
    }
}

#[test]
fn c2_severed_parts_cannot_be_targeted() {
    let mut bat = enemy(Bat, &[]);
    bat.severed[LeftWing as usize] = true;
    assert_eq!(targetable_parts(&bat), [Head, Body, RightWing]);
    bat.severed[RightWing as usize] = true;
    assert_eq!(targetable_parts(&bat), [Head, Body]);
    // The attacker's pick is among what is left: the second option is now the body.
    let run = melee(
        &mut swordsman(),
        &mut bat,
        &mut board(0),
        &[30],
        &[("target_part", 1)],
    );
    assert_eq!(run.result, hit(Body, 10));
}

#[test]
fn c2_sever_penalties_add_up_to_at_most_ninety_percent() {
    // assumption: a wing takes 50% off Dodge, forelegs 30% Melee and 20% Dodge, hind legs
    // 40% Dodge.
    let mut bat = enemy(Bat, &[(Dodge, 50), (Melee, 40)]);
    assert_eq!(stat(&bat, Dodge), 50);
    bat.severed[LeftWing as usize] = true;
    assert_eq!(sever_reduction(&bat, Dodge), 50);
    assert_eq!(stat(&bat, Dodge), 25);
    bat.severed[RightWing as usize] = true;
    // 50 + 50 = 100, capped at 90: a tenth of the Dodge is left.
    assert_eq!(sever_reduction(&bat, Dodge), 90);
    assert_eq!(stat(&bat, Dodge), 5);
    assert_eq!(stat(&bat, Melee), 40, "wings take nothing off Melee");

    let mut rat = enemy(Rat, &[(Dodge, 50), (Melee, 60)]);
    rat.severed[Forelegs as usize] = true;
    rat.severed[Hindlegs as usize] = true;
    assert_eq!(sever_reduction(&rat, Dodge), 60, "20 + 40 add together");
    assert_eq!(stat(&rat, Dodge), 20);
    assert_eq!(stat(&rat, Melee), 42, "60 less 30%");
    rat.severed[Tail as usize] = true;
    assert_eq!(sever_reduction(&rat, Dodge), 80);
}

#[test]
fn c2_a_severed_limb_weakens_the_enemy_in_the_fight() {
    // The rat loses its forelegs (30% Melee): its bite's chance to hit falls.
    let mut rat = dc::Combatant {
        equipped: vec![dc::Item::rat_bite()],
        ..enemy(Rat, &[(Melee, 50)])
    };
    let mut hero = player(&[]);
    let answer = target(&hero, Body);
    let run = melee(&mut rat, &mut hero, &mut board(0), &[100], &[answer]);
    assert_eq!(
        run.result,
        Miss {
            part: Body,
            chance: 40
        }
    );
    rat.severed[Forelegs as usize] = true;
    let run = melee(&mut rat, &mut hero, &mut board(0), &[100], &[answer]);
    assert_eq!(
        run.result,
        Miss {
            part: Body,
            chance: 25
        },
        "35 - 10"
    );
}

#[test]
fn c2_characters_are_not_severed_but_wounded() {
    // assumption: severing is the enemies'; a character's arm hit over 20% goes to the
    // persistent-wound roll instead (here it fails on 99).
    let mut goblin = dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..enemy(Humanoid, &[(Melee, 50)])
    };
    let mut hero = player(&[]);
    let answer = target(&hero, LeftArm);
    let run = melee(&mut goblin, &mut hero, &mut board(0), &[30, 99], &[answer]);
    assert_eq!(run.result, hit(LeftArm, 6));
    assert!(hero.severed.iter().all(|s| !s));
    assert_eq!(run.assigned("let severity"), ["3"], "6 of 20 is 30%");
}

// ---------------------------------------------------------------------------------------
// C3 Disarm: a non-lethal hit on a humanoid's arm, 5%; the item drops to an empty board
// slot.

fn armed_goblin() -> dc::Combatant {
    dc::Combatant {
        equipped: vec![dc::Item::sword(), dc::Item::buckler()],
        ..tough(Humanoid)
    }
}

#[test]
fn c3_a_hit_on_a_humanoid_arm_disarms_on_five_percent() {
    // Right arm: the weapon. The sword's 8 less the buckler's 2, 75%: 4.
    let mut goblin = armed_goblin();
    let mut b = board(3);
    let answer = target(&goblin, RightArm);
    let run = melee(
        &mut swordsman(),
        &mut goblin,
        &mut b,
        &[30, 5],
        &[answer, ("drop_slot", 2)],
    );
    assert_eq!(
        run.result,
        Hit {
            part: RightArm,
            damage: 4,
            critical: false,
            stunned: false,
            severed: false,
            disarmed: true,
            wounded: false,
        }
    );
    assert_eq!(goblin.equipped, [dc::Item::buckler()]);
    // "falls onto an empty slot on the board": the third, as the board decided.
    assert!(b.slots[2].occupied);
    assert_eq!(b.slots[2].item, dc::Item::sword());
    assert!(!b.slots[0].occupied && !b.slots[1].occupied);

    // Left arm: the shield.
    let mut goblin = armed_goblin();
    let mut b = board(3);
    let answer = target(&goblin, LeftArm);
    melee(
        &mut swordsman(),
        &mut goblin,
        &mut b,
        &[30, 1],
        &[answer, ("drop_slot", 0)],
    );
    assert_eq!(goblin.equipped, [dc::Item::sword()]);
    assert_eq!(b.slots[0].item, dc::Item::buckler());
}

#[test]
fn c3_above_five_percent_the_weapon_stays() {
    let mut goblin = armed_goblin();
    let mut b = board(3);
    let answer = target(&goblin, RightArm);
    let run = melee(&mut swordsman(), &mut goblin, &mut b, &[30, 6], &[answer]);
    assert_eq!(run.result, hit(RightArm, 4));
    assert_eq!(goblin.equipped.len(), 2);
    assert!(b.slots.iter().all(|s| !s.occupied));
}

#[test]
fn c3_a_killing_blow_does_not_disarm() {
    let mut goblin = dc::Combatant {
        health: 4,
        ..armed_goblin()
    };
    let answer = target(&goblin, RightArm);
    let run = melee(
        &mut swordsman(),
        &mut goblin,
        &mut board(3),
        &[30],
        &[answer],
    );
    assert_eq!(
        run.result,
        Killed {
            part: RightArm,
            damage: 4
        }
    );
    assert_eq!(goblin.equipped.len(), 2);
}

#[test]
fn c3_only_a_humanoids_arm_is_disarmed() {
    // A leg hit, and a spider (humanoid parts, not a humanoid) holding a sword: no roll.
    let mut goblin = armed_goblin();
    let answer = target(&goblin, LeftLeg);
    melee(
        &mut swordsman(),
        &mut goblin,
        &mut board(3),
        &[30],
        &[answer],
    );
    assert_eq!(goblin.equipped.len(), 2);
    let mut spider = dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..tough(Spider)
    };
    let answer = target(&spider, RightArm);
    let run = melee(
        &mut swordsman(),
        &mut spider,
        &mut board(3),
        &[30],
        &[answer],
    );
    assert_eq!(run.result, hit(RightArm, 6));
    assert_eq!(spider.equipped.len(), 1);
}

#[test]
fn c3_the_item_falls_only_onto_an_empty_slot() {
    // Slot 1 is taken: the only choice is slot 2 (the first and only option).
    let mut goblin = armed_goblin();
    let mut b = board(2);
    b.slots[0].occupied = true;
    let answer = target(&goblin, RightArm);
    melee(
        &mut swordsman(),
        &mut goblin,
        &mut b,
        &[30, 5],
        &[answer, ("drop_slot", 0)],
    );
    assert_eq!(b.slots[1].item, dc::Item::sword());
    assert_eq!(
        b.slots[0].item,
        dc::Item::default(),
        "the taken slot is untouched"
    );
    // assumption: with no empty slot the weapon has nowhere to fall: no disarm roll.
    let mut goblin = armed_goblin();
    let mut b = board(2);
    b.slots.iter_mut().for_each(|s| s.occupied = true);
    melee(&mut swordsman(), &mut goblin, &mut b, &[30], &[answer]);
    assert_eq!(goblin.equipped.len(), 2);
}

// ---------------------------------------------------------------------------------------
// C4 Every player attack costs stamina.

#[test]
fn c4_every_player_attack_draws_stamina_hit_or_miss() {
    let mut hero = swordsman();
    let mut goblin = tough(Humanoid);
    let answer = target(&goblin, Body);
    melee(&mut hero, &mut goblin, &mut board(0), &[100], &[answer]);
    assert_eq!(hero.stamina, 8, "the sword costs 2");
    melee(&mut hero, &mut goblin, &mut board(0), &[20], &[answer]);
    assert_eq!(hero.stamina, 6);
    // A ranged attack too (the shortbow costs 2).
    let mut archer = dc::Combatant {
        equipped: vec![dc::Item::shortbow()],
        ..player(&[(Ranged, 50)])
    };
    ranged(&mut archer, &mut goblin, &mut board(0), &[100], &[answer]);
    assert_eq!(archer.stamina, 8);
    // assumption: bare hands still draw 1.
    let mut brawler = player(&[(Melee, 50)]);
    melee(&mut brawler, &mut goblin, &mut board(0), &[100], &[answer]);
    assert_eq!(brawler.stamina, 9);
}

#[test]
fn c4_without_the_stamina_there_is_no_attack() {
    // assumption: the attack is not made; nothing is spent or rolled.
    let mut hero = dc::Combatant {
        stamina: 1,
        ..swordsman()
    };
    let mut goblin = tough(Humanoid);
    let run = melee(&mut hero, &mut goblin, &mut board(0), &[], &[]);
    assert_eq!(
        run.result,
        TooTired {
            cost: 2,
            stamina: 1
        }
    );
    assert_eq!(hero.stamina, 1);
    assert!(!goblin.alerted);
    // Exactly enough is enough.
    let mut hero = dc::Combatant {
        stamina: 2,
        ..swordsman()
    };
    let answer = target(&goblin, Body);
    melee(&mut hero, &mut goblin, &mut board(0), &[100], &[answer]);
    assert_eq!(hero.stamina, 0);
}

#[test]
fn c4_enemy_attacks_draw_no_stamina() {
    let mut goblin = dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..enemy(Humanoid, &[(Melee, 50)])
    };
    let mut hero = player(&[]);
    let answer = target(&hero, Body);
    melee(&mut goblin, &mut hero, &mut board(0), &[100], &[answer]);
    assert_eq!(goblin.stamina, 10);
}

// ---------------------------------------------------------------------------------------
// C5 Attack stat decides the hit; defenses reduce damage.

#[test]
fn c5_the_attack_stat_decides_whether_the_hit_lands() {
    // Melee 40, body -10, the target's Dodge 10: 20.
    let attacker = || dc::Combatant {
        equipped: vec![dc::Item::sword(), dc::Item::shortbow()],
        ..player(&[(Melee, 40), (Ranged, 70)])
    };
    let defender = || dc::Combatant {
        stats: stats(&[(Dodge, 10)]),
        ..tough(Humanoid)
    };
    let answer = target(&defender(), Body);
    let run = melee(
        &mut attacker(),
        &mut defender(),
        &mut board(0),
        &[20],
        &[answer],
    );
    assert!(matches!(run.result, Hit { .. }));
    let run = melee(
        &mut attacker(),
        &mut defender(),
        &mut board(0),
        &[21],
        &[answer],
    );
    assert_eq!(
        run.result,
        Miss {
            part: Body,
            chance: 20
        }
    );
    // A ranged attack uses Ranged: 70 - 10 - 10.
    let run = ranged(
        &mut attacker(),
        &mut defender(),
        &mut board(0),
        &[51],
        &[answer],
    );
    assert_eq!(
        run.result,
        Miss {
            part: Body,
            chance: 50
        }
    );
    // No ranged weapon, no ranged attack (and no stamina spent).
    let mut unarmed = player(&[(Ranged, 70)]);
    let run = ranged(&mut unarmed, &mut defender(), &mut board(0), &[], &[]);
    assert_eq!(run.result, NoRangedWeapon);
    assert_eq!(unarmed.stamina, 10);
}

#[test]
fn c5_the_targets_defenses_reduce_the_damage() {
    // Sword 8 + Strength 3 = 11. Natural defense 2, the chain shirt 3 (body and arms only),
    // the ring 1 (everywhere), the buckler 2.
    let attacker = || dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..player(&[(Melee, 50), (Strength, 3)])
    };
    let defender = || dc::Combatant {
        defense: 2,
        worn: vec![dc::Wearable::chain_shirt(), dc::Wearable::ring_of_warding()],
        equipped: vec![dc::Item::buckler()],
        ..tough(Humanoid)
    };
    let answer = target(&defender(), Body);
    let run = melee(
        &mut attacker(),
        &mut defender(),
        &mut board(0),
        &[20],
        &[answer],
    );
    assert_eq!(run.assigned("physical ="), ["3"], "11 - 8");
    assert_eq!(run.result, hit(Body, 3), "3 at 125%, rounded down");
    // The legs are not under the chain shirt: 11 - 5 = 6, at 75%: 4.
    let answer = target(&defender(), LeftLeg);
    let run = melee(
        &mut attacker(),
        &mut defender(),
        &mut board(0),
        &[20],
        &[answer],
    );
    assert_eq!(run.assigned("physical ="), ["6"]);
    assert_eq!(run.result, hit(LeftLeg, 4));
    // Defenses never heal: a blow below them deals 0.
    let mut fortress = dc::Combatant {
        defense: 30,
        ..tough(Humanoid)
    };
    let run = melee(
        &mut attacker(),
        &mut fortress,
        &mut board(0),
        &[20],
        &[answer],
    );
    assert_eq!(run.result, hit(LeftLeg, 0));
    assert_eq!(fortress.health, 100);
}

// ---------------------------------------------------------------------------------------
// C6 Elements fire, ice, acid, holy, dark; melee weapon elements only in melee; ranged
// uses the ranged weapon plus own elemental strength; each element mitigated by its own
// defense.

#[test]
fn c6_each_element_is_mitigated_by_its_own_defense() {
    use dc::Element::{Acid, Dark, Holy, Ice};
    // The flame sword's fire 4 and the hero's own holy 3 against the ring's fire 2 and a
    // holy defense of 5: fire 2, holy 0 (never below 0). The ring's physical 1: 8 - 1.
    let mut hero = dc::Combatant {
        equipped: vec![dc::Item::flame_sword()],
        elemental_strength: elements(&[(Holy, 3)]),
        ..player(&[(Melee, 50)])
    };
    let mut foe = dc::Combatant {
        worn: vec![dc::Wearable::ring_of_warding()],
        elemental_defense: elements(&[(Holy, 5), (Ice, 9)]),
        ..tough(Humanoid)
    };
    let answer = target(&foe, Body);
    let run = melee(&mut hero, &mut foe, &mut board(0), &[20], &[answer]);
    assert_eq!(run.assigned("physical ="), ["7"]);
    assert_eq!(run.assigned("let elemental"), ["2"]);
    assert_eq!(run.result, hit(Body, 11), "(7 + 2) at 125%");
    // Physical defense does not touch the elements: behind 30 defense the fire still
    // gets through.
    let mut wall = dc::Combatant {
        defense: 30,
        ..tough(Humanoid)
    };
    let run = melee(&mut hero, &mut wall, &mut board(0), &[20], &[answer]);
    assert_eq!(run.assigned("let elemental"), ["7"], "fire 4 + holy 3");
    assert_eq!(run.result, hit(Body, 8));
    // Acid and dark are elements of their own.
    let mut caustic = dc::Combatant {
        elemental_strength: elements(&[(Acid, 2), (Dark, 2)]),
        ..player(&[(Melee, 50)])
    };
    let mut amulet = dc::Combatant {
        worn: vec![dc::Wearable::holy_amulet()],
        ..tough(Humanoid)
    };
    let run = melee(&mut caustic, &mut amulet, &mut board(0), &[20], &[answer]);
    assert_eq!(run.assigned("let elemental"), ["2"], "acid 2, dark 2 - 3");
}

#[test]
fn c6_a_melee_weapons_element_applies_only_in_melee() {
    use dc::Element::Ice;
    // The flame sword is equipped, but the shortbow shoots: its 7, and the hero's own
    // ice 2; no fire.
    let mut hero = dc::Combatant {
        equipped: vec![dc::Item::flame_sword(), dc::Item::shortbow()],
        elemental_strength: elements(&[(Ice, 2)]),
        ..player(&[(Melee, 50), (Ranged, 50), (Strength, 5)])
    };
    let mut foe = tough(Humanoid);
    let answer = target(&foe, Body);
    let run = ranged(&mut hero, &mut foe, &mut board(0), &[20], &[answer]);
    assert_eq!(
        run.assigned("physical ="),
        ["7"],
        "assumption: no Strength on a ranged attack"
    );
    assert_eq!(run.assigned("let elemental"), ["2"]);
    assert_eq!(run.result, hit(Body, 11));
    // In melee the same hero's fire 4 and ice 2 both count (8 + 5 Strength).
    let run = melee(&mut hero, &mut foe, &mut board(0), &[20], &[answer]);
    assert_eq!(run.assigned("let elemental"), ["6"]);
    assert_eq!(run.result, hit(Body, 23), "(13 + 6) at 125%");
}

#[test]
fn c6_a_ranged_attack_uses_the_ranged_weapon_and_own_elemental_strength() {
    use dc::Element::Ice;
    // The frost crossbow's ice 3 and the hero's own ice 2, less an ice defense of 1.
    let mut hero = dc::Combatant {
        equipped: vec![dc::Item::frost_crossbow()],
        elemental_strength: elements(&[(Ice, 2)]),
        ..player(&[(Ranged, 50)])
    };
    let mut foe = dc::Combatant {
        elemental_defense: elements(&[(Ice, 1)]),
        ..tough(Humanoid)
    };
    let answer = target(&foe, LeftLeg);
    let run = ranged(&mut hero, &mut foe, &mut board(0), &[20], &[answer]);
    assert_eq!(run.assigned("let elemental"), ["4"]);
    assert_eq!(run.result, hit(LeftLeg, 9), "(9 + 4) at 75%");
}

// ---------------------------------------------------------------------------------------
// C7 Guards Parry/Sidestep/Brace on the last Action Point until the next turn; one at a
// time; none while hasted; cost stamina or mana; a failed Trip or Dirty Trick opens a
// counter-attack.

fn on_last_point() -> dc::Combatant {
    dc::Combatant {
        action_points: 1,
        mana: 5,
        ..player(&[])
    }
}

#[test]
fn c7_a_guard_is_raised_only_on_the_last_action_point() {
    use dc::GuardResult::{GuardRaised, NotLastActionPoint};
    let mut hero = dc::Combatant {
        action_points: 2,
        ..on_last_point()
    };
    assert_eq!(
        raise_guard(&mut hero, dc::Guard::Parry),
        NotLastActionPoint { left: 2 }
    );
    assert!(!hero.guarding);
    assert_eq!(hero.stamina, 10);
    hero.action_points = 1;
    assert_eq!(
        raise_guard(&mut hero, dc::Guard::Parry),
        GuardRaised {
            guard: dc::Guard::Parry
        }
    );
    assert!(hero.guarding);
    assert_eq!(hero.action_points, 0, "the last point is spent on it");
    // With no point left there is no last point to use.
    let mut spent = dc::Combatant {
        action_points: 0,
        ..on_last_point()
    };
    assert_eq!(
        raise_guard(&mut spent, dc::Guard::Brace),
        NotLastActionPoint { left: 0 }
    );
}

#[test]
fn c7_only_one_guard_at_a_time() {
    use dc::GuardResult::AlreadyGuarding;
    let mut hero = on_last_point();
    raise_guard(&mut hero, dc::Guard::Sidestep);
    hero.action_points = 1;
    assert_eq!(
        raise_guard(&mut hero, dc::Guard::Brace),
        AlreadyGuarding {
            guard: dc::Guard::Sidestep
        }
    );
    assert_eq!(hero.guard, dc::Guard::Sidestep);
    assert_eq!(hero.mana, 5, "the refused Brace costs nothing");
}

#[test]
fn c7_no_guard_while_hasted() {
    let mut hero = dc::Combatant {
        hasted: true,
        ..on_last_point()
    };
    assert_eq!(
        raise_guard(&mut hero, dc::Guard::Parry),
        dc::GuardResult::Hasted
    );
    assert!(!hero.guarding);
    assert_eq!(hero.action_points, 1);
}

#[test]
fn c7_each_guard_costs_stamina_or_mana() {
    use dc::GuardResult::{CannotPay, GuardRaised};
    // assumption: Parry and Sidestep 2 stamina, Brace 2 mana.
    for (guard, stamina, mana) in [
        (dc::Guard::Parry, 8, 5),
        (dc::Guard::Sidestep, 8, 5),
        (dc::Guard::Brace, 10, 3),
    ] {
        let mut hero = on_last_point();
        assert_eq!(raise_guard(&mut hero, guard), GuardRaised { guard });
        assert_eq!((hero.stamina, hero.mana), (stamina, mana), "{guard}");
    }
    let mut drained = dc::Combatant {
        mana: 1,
        ..on_last_point()
    };
    assert_eq!(
        raise_guard(&mut drained, dc::Guard::Brace),
        CannotPay {
            stamina: 0,
            mana: 2
        }
    );
    let mut tired = dc::Combatant {
        stamina: 1,
        ..on_last_point()
    };
    assert_eq!(
        raise_guard(&mut tired, dc::Guard::Parry),
        CannotPay {
            stamina: 2,
            mana: 0
        }
    );
    assert!(!drained.guarding && !tired.guarding);
}

#[test]
fn c7_a_guard_holds_against_attacks_until_the_next_turn() {
    // assumption: Sidestep +20 Dodge; Parry +4 defense against melee only; Brace +6.
    let goblin = || dc::Combatant {
        equipped: vec![dc::Item::sword(), dc::Item::shortbow()],
        ..enemy(Humanoid, &[(Melee, 50), (Ranged, 50)])
    };
    let guarded = |guard| dc::Combatant {
        guarding: true,
        guard,
        base_max_health: 100,
        health: 100,
        ..player(&[])
    };
    let answer = target(&player(&[]), Body);
    let mut hero = guarded(dc::Guard::Sidestep);
    let run = melee(&mut goblin(), &mut hero, &mut board(0), &[100], &[answer]);
    assert_eq!(
        run.result,
        Miss {
            part: Body,
            chance: 20
        },
        "40 - 20"
    );
    // Parry: the sword's 8 - 4 at 125% is 5; the arrow's 7 is not parried: 8.
    let mut hero = guarded(dc::Guard::Parry);
    let run = melee(
        &mut goblin(),
        &mut hero,
        &mut board(0),
        &[20, 99],
        &[answer],
    );
    assert_eq!(run.result, hit(Body, 5));
    let run = ranged(
        &mut goblin(),
        &mut hero,
        &mut board(0),
        &[20, 99],
        &[answer],
    );
    assert_eq!(run.result, hit(Body, 8));
    // Brace turns both: 8 - 6 = 2 and 7 - 6 = 1 (at 125%: 2 and 1).
    let mut hero = guarded(dc::Guard::Brace);
    let run = melee(
        &mut goblin(),
        &mut hero,
        &mut board(0),
        &[20, 99],
        &[answer],
    );
    assert_eq!(run.result, hit(Body, 2));
    let run = ranged(
        &mut goblin(),
        &mut hero,
        &mut board(0),
        &[20, 99],
        &[answer],
    );
    assert_eq!(run.result, hit(Body, 1));
    // The guard's own turn comes: it drops.
    assert_eq!(
        start_turn(&mut hero),
        dc::TurnStart::Acts { action_points: 3 }
    );
    assert!(!hero.guarding);
    let run = melee(
        &mut goblin(),
        &mut hero,
        &mut board(0),
        &[20, 99],
        &[answer],
    );
    assert_eq!(run.result, hit(Body, 10));
}

#[test]
fn c7_a_failed_trip_or_dirty_trick_opens_a_counter_attack() {
    use dc::Technique::{DirtyTrick, Taunt, Trip};
    use dc::TechniqueResult::{Failed, OpenToCounter};
    // assumption: Trip succeeds on 60 or less, Dirty Trick 50, Taunt 70.
    for (technique, roll) in [(Trip, 61), (DirtyTrick, 51)] {
        let mut hero = player(&[]);
        let mut goblin = tough(Humanoid);
        let run = use_technique(&mut hero, &mut goblin, technique, &[roll]);
        assert_eq!(run.result, OpenToCounter { technique });
        assert!(hero.open_to_counter);
        assert_eq!(hero.stamina, 8, "{technique} costs 2 stamina");
        // The counter-attack is the goblin's melee attack, given by the caller; the opening
        // closes when the hero's next turn starts.
        start_turn(&mut hero);
        assert!(!hero.open_to_counter);
    }
    // Another technique failing opens nothing.
    let mut hero = player(&[]);
    let run = use_technique(&mut hero, &mut tough(Humanoid), Taunt, &[71]);
    assert_eq!(run.result, Failed { technique: Taunt });
    assert!(!hero.open_to_counter);
    // Succeeding opens nothing either.
    let mut hero = player(&[]);
    let run = use_technique(&mut hero, &mut tough(Humanoid), Trip, &[60]);
    assert_eq!(run.result, dc::TechniqueResult::Worked { technique: Trip });
    assert!(!hero.open_to_counter);
}

// ---------------------------------------------------------------------------------------
// C8 Knocked down loses its next turn; no stacking; undead immune.

#[test]
fn c8_a_knocked_down_enemy_loses_its_next_turn() {
    use dc::TurnStart::{Acts, LosesTurn};
    let mut goblin = enemy(Humanoid, &[]);
    let run = use_technique(&mut player(&[]), &mut goblin, dc::Technique::Trip, &[1]);
    assert!(matches!(run.result, dc::TechniqueResult::Worked { .. }));
    assert!(goblin.knocked_down);
    assert_eq!(start_turn(&mut goblin), LosesTurn);
    assert_eq!(goblin.action_points, 0);
    assert_eq!(start_turn(&mut goblin), Acts { action_points: 3 });
}

#[test]
fn c8_knocking_down_again_does_not_keep_it_down_longer() {
    use dc::KnockDownResult::{AlreadyDown, KnockedDown};
    use dc::TurnStart::{Acts, LosesTurn};
    let mut goblin = enemy(Humanoid, &[]);
    assert_eq!(knock_down(&mut goblin), KnockedDown);
    assert_eq!(knock_down(&mut goblin), AlreadyDown);
    let run = use_technique(&mut player(&[]), &mut goblin, dc::Technique::Trip, &[1]);
    assert!(matches!(run.result, dc::TechniqueResult::Worked { .. }));
    assert_eq!(start_turn(&mut goblin), LosesTurn);
    assert_eq!(
        start_turn(&mut goblin),
        Acts { action_points: 3 },
        "one turn only"
    );
}

#[test]
fn c8_the_undead_cannot_be_knocked_down() {
    let mut skeleton = dc::Combatant {
        undead: true,
        ..enemy(Humanoid, &[])
    };
    assert_eq!(knock_down(&mut skeleton), dc::KnockDownResult::Immune);
    use_technique(&mut player(&[]), &mut skeleton, dc::Technique::Trip, &[1]);
    assert!(!skeleton.knocked_down);
    assert_eq!(
        start_turn(&mut skeleton),
        dc::TurnStart::Acts { action_points: 3 }
    );
}

// ---------------------------------------------------------------------------------------
// C9 Techniques reveal the user like an attack.

#[test]
fn c9_a_technique_reveals_the_user_just_as_an_attack_would() {
    // A technique, even a failed one, alerts its target.
    let mut goblin = tough(Humanoid);
    use_technique(&mut player(&[]), &mut goblin, dc::Technique::Taunt, &[99]);
    assert!(goblin.alerted);
    let mut goblin = tough(Humanoid);
    use_technique(&mut player(&[]), &mut goblin, dc::Technique::Trip, &[1]);
    assert!(goblin.alerted);
    // So does an attack, even a miss.
    let mut goblin = tough(Humanoid);
    let answer = target(&goblin, Body);
    melee(
        &mut swordsman(),
        &mut goblin,
        &mut board(0),
        &[100],
        &[answer],
    );
    assert!(goblin.alerted);
    // Nothing else does: a refused attack reveals nothing.
    let mut goblin = tough(Humanoid);
    let mut tired = dc::Combatant {
        stamina: 0,
        ..swordsman()
    };
    melee(&mut tired, &mut goblin, &mut board(0), &[], &[]);
    assert!(!goblin.alerted);
}
