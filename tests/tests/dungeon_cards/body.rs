//! C1..C3: body parts per silhouette, severing, and disarming.

use super::*;

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
