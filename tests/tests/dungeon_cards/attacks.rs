//! C4..C6: stamina, the attack stat and defences, and elements.

use super::*;

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
