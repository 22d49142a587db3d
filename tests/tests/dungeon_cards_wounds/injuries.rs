//! C10..C13: afflictions and persistent wounds, critical hits, armoured and unarmoured parts.

use super::*;

// ---------------------------------------------------------------------------------------
// C10 Afflictions (Bleeding...) and persistent wounds each with location, treatment,
// recovery.

#[test]
fn c10_each_wound_keeps_its_own_location_treatment_and_recovery() {
    let mut hero = wounded(vec![
        wound(1, DeepWound, LeftArm, 2),
        wound(2, DeepWound, RightLeg, 1),
    ]);
    hero.supplies[Bandage as usize] = 1;
    let run = apply_remedy(&mut hero, Bandage, &[], &[("treated_wound", 1)]);
    assert_eq!(
        run.result,
        dc::RemedyResult::Treated {
            kind: DeepWound,
            part: RightLeg
        }
    );
    assert!(!hero.wounds[0].stabilized && hero.wounds[1].stabilized);
    world_turn(&mut hero, &[]);
    assert_eq!(hero.wounds[0].progress, 0, "the left arm is not bandaged");
    assert_eq!(hero.wounds[1].progress, 1, "the right leg heals");
    assert_eq!(
        (hero.wounds[0].part, hero.wounds[1].part),
        (LeftArm, RightLeg)
    );
    // The left arm's Bleeding, an affliction, is in its own list.
    assert_eq!(hero.afflictions, [bleeding(1)]);
    assert_eq!(hero.health, 19);
}

#[test]
fn c10_afflictions_are_kept_apart_from_wounds_and_recover() {
    let mut hero = player(&[]);
    afflict(&mut hero, Poisoned, 2, 2);
    assert!(hero.wounds.is_empty());
    assert_eq!(hero.afflictions.len(), 1);
    world_turn(&mut hero, &[]);
    assert_eq!(hero.health, 18);
    assert_eq!(hero.afflictions[0].turns_left, 1);
    world_turn(&mut hero, &[]);
    assert_eq!(hero.health, 16);
    assert!(hero.afflictions.is_empty(), "recovered after its two turns");
    world_turn(&mut hero, &[]);
    assert_eq!(hero.health, 16);
    // An affliction with no set duration lasts until treated.
    afflict(&mut hero, Burning, 1, 0);
    for _ in 0..5 {
        world_turn(&mut hero, &[]);
    }
    assert_eq!(hero.afflictions.len(), 1);
    assert_eq!(hero.health, 11);
    assert!(hero.wounds.is_empty());
}

// ---------------------------------------------------------------------------------------
// C11 A critical hit raises severity by one, max 3, before the injury chance.

#[test]
fn c11_a_critical_hit_raises_the_severity_before_the_injury_chance() {
    // 2 of 20 Health is 10%: severity 1, a 10% injury chance; a 25 fails it.
    let mut hero = player(&[]);
    let run = injury_roll(&mut hero, LeftArm, 2, false, Pierce, &[25]);
    assert!(!run.result);
    assert!(hero.wounds.is_empty());
    // Critical: severity 2, whose chance is 25%: the same 25 wounds, at severity 2.
    let run = injury_roll(&mut hero, LeftArm, 2, true, Pierce, &[25]);
    assert_eq!(run.assigned("severity ="), ["2"]);
    assert_eq!(run.assigned("let chance"), ["25"]);
    assert!(run.result);
    assert_eq!(kinds(&hero), [(DeepWound, LeftArm, 2)]);
}

#[test]
fn c11_severity_is_raised_to_three_at_most() {
    // 6 of 20 is 30%: severity 3 already; a critical keeps it at 3 (chance 50%).
    let mut hero = player(&[]);
    let run = injury_roll(&mut hero, Body, 6, true, Pierce, &[50]);
    assert_eq!(run.assigned("severity ="), ["3"]);
    assert_eq!(kinds(&hero), [(DeepWound, Body, 3)]);
    let mut hero = player(&[]);
    assert!(!injury_roll(&mut hero, Body, 6, true, Pierce, &[51]).result);
}

#[test]
fn c11_a_hit_roll_within_the_weapons_critical_chance_is_a_critical_hit() {
    // assumption: the sword is critical on a hit roll of 5 or less. A body blow of 10
    // against 100 Health: severity 1, raised to 2 by the critical: 25% wounds on 25.
    let goblin = || dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..enemy(dc::Silhouette::Humanoid, &[(Melee, 50)])
    };
    let hero = || dc::Combatant {
        base_max_health: 100,
        health: 100,
        ..player(&[])
    };
    let answer = target(&hero(), Body);
    let mut h = hero();
    let run = melee(&mut goblin(), &mut h, &mut board(0), &[5, 25], &[answer]);
    assert!(
        matches!(
            run.result,
            dc::AttackResult::Hit {
                critical: true,
                wounded: true,
                ..
            }
        ),
        "{}",
        run.text()
    );
    assert_eq!(kinds(&h), [(DeepWound, Body, 2)]);
    let mut h = hero();
    let run = melee(&mut goblin(), &mut h, &mut board(0), &[6, 25], &[answer]);
    assert!(matches!(
        run.result,
        dc::AttackResult::Hit {
            critical: false,
            wounded: false,
            ..
        }
    ));
    assert!(h.wounds.is_empty());
}

// ---------------------------------------------------------------------------------------
// C12 Armoured part: always a Bruise; one Bruise per part, deepened to the higher
// severity, its 12 turns restarted; injury penalties never take max Health below 1.

fn armoured() -> dc::Combatant {
    dc::Combatant {
        worn: vec![
            dc::Wearable::leather_cap(),
            dc::Wearable::chain_shirt(),
            dc::Wearable::greaves(),
        ],
        ..player(&[])
    }
}

#[test]
fn c12_an_armoured_part_always_takes_a_bruise() {
    // Blows that would amputate, fracture or take an eye.
    for (part, blow) in [
        (RightArm, Slash),
        (LeftLeg, Blunt),
        (Head, Pierce),
        (Body, Slash),
    ] {
        let mut hero = armoured();
        injury_roll(&mut hero, part, 6, false, blow, &[1]);
        assert_eq!(kinds(&hero), [(Bruise, part, 3)], "{part} {blow}");
        assert!(hero.afflictions.is_empty(), "a Bruise does not bleed");
    }
}

#[test]
fn c12_rings_amulets_and_broken_armour_are_no_armour() {
    let mut jeweled = dc::Combatant {
        worn: vec![dc::Wearable::ring_of_warding(), dc::Wearable::holy_amulet()],
        ..player(&[])
    };
    injury_roll(&mut jeweled, Body, 6, false, Slash, &[1]);
    assert_eq!(kinds(&jeweled), [(DeepWound, Body, 3)]);
    let mut battered = armoured();
    battered.worn[1].broken = true;
    injury_roll(&mut battered, Body, 6, false, Slash, &[1]);
    assert_eq!(kinds(&battered), [(DeepWound, Body, 3)]);
}

#[test]
fn c12_a_part_holds_one_bruise_deepened_and_restarted() {
    let mut hero = dc::Combatant {
        wounds: vec![dc::Wound {
            progress: 7,
            ..wound(1, Bruise, Body, 1)
        }],
        next_wound_id: 2,
        ..armoured()
    };
    // A severity 2 blow (4 of 20): the Bruise deepens to 2 and starts its 12 turns again.
    injury_roll(&mut hero, Body, 4, false, Slash, &[1]);
    assert_eq!(kinds(&hero), [(Bruise, Body, 2)]);
    assert_eq!(hero.wounds[0].progress, 0);
    assert_eq!(hero.wounds[0].id, 1, "the same Bruise");
    // A lighter one (severity 1) keeps the higher severity and still restarts it.
    hero.wounds[0].progress = 5;
    injury_roll(&mut hero, Body, 2, false, Blunt, &[10]);
    assert_eq!(kinds(&hero), [(Bruise, Body, 2)]);
    assert_eq!(hero.wounds[0].progress, 0);
    // Another part takes a Bruise of its own.
    injury_roll(&mut hero, LeftArm, 2, false, Blunt, &[10]);
    assert_eq!(kinds(&hero), [(Bruise, Body, 2), (Bruise, LeftArm, 1)]);
    // A failed injury roll changes nothing.
    hero.wounds[0].progress = 5;
    injury_roll(&mut hero, Body, 6, false, Blunt, &[51]);
    assert_eq!(hero.wounds[0].progress, 5);
}

#[test]
fn c12_injury_penalties_never_take_max_health_below_one() {
    // assumption: an open injury costs maximum Health equal to its severity.
    let mut hero = bare(vec![wound(1, Bruise, Body, 2)]);
    assert_eq!(max_health(&hero), 18);
    // Six parts each battered to severity 3: 18 off 10 would be -8; it stays 1.
    hero.base_max_health = 10;
    hero.wounds = [Head, Body, LeftArm, RightArm, LeftLeg, RightLeg]
        .iter()
        .enumerate()
        .map(|(i, p)| wound(i as i64 + 1, Bruise, *p, 3))
        .collect();
    assert_eq!(max_health(&hero), 1);
    // Through the armour, blow after blow: never below 1.
    let mut hero = dc::Combatant {
        base_max_health: 4,
        health: 100,
        ..armoured()
    };
    for part in [Head, Body, LeftArm, RightArm] {
        injury_roll(&mut hero, part, 1, true, Blunt, &[1]);
    }
    assert_eq!(hero.wounds.len(), 4);
    assert_eq!(max_health(&hero), 1);
}

// ---------------------------------------------------------------------------------------
// C13 Unarmoured part: Deep Wound, or Fracture / Eye Injury / Missing Limb by part and
// blow.

#[test]
fn c13_an_unarmoured_part_normally_takes_a_deep_wound() {
    for (part, blow, damage) in [
        (LeftArm, Slash, 2),
        (Body, Pierce, 6),
        (RightLeg, Blunt, 2),
        (Head, Slash, 6),
    ] {
        let mut hero = player(&[]);
        injury_roll(&mut hero, part, damage, false, blow, &[1]);
        assert_eq!(hero.wounds.len(), 1);
        assert_eq!(hero.wounds[0].kind, DeepWound, "{part} {blow} {damage}");
    }
}

#[test]
fn c13_by_part_and_blow_a_fracture_eye_injury_or_missing_limb() {
    // Against 20 Health: 2 is severity 1, 4 severity 2, 6 severity 3.
    // assumption: piercing the head takes an eye; a blunt blow of severity 2+ fractures a
    // head, body, arm or leg; a slashing blow of severity 3 takes an arm or leg off.
    let cases = [
        (Head, Pierce, 2, EyeInjury),
        (Head, Blunt, 4, Fracture),
        (Head, Blunt, 2, DeepWound),
        (Body, Blunt, 4, Fracture),
        (Body, Slash, 6, DeepWound),
        (LeftArm, Blunt, 4, Fracture),
        (RightArm, Slash, 6, MissingLimb),
        (RightArm, Slash, 4, DeepWound),
        (LeftLeg, Slash, 6, MissingLimb),
        (RightLeg, Blunt, 6, Fracture),
        (LeftLeg, Pierce, 6, DeepWound),
    ];
    for (part, blow, damage, kind) in cases {
        let mut hero = player(&[]);
        injury_roll(&mut hero, part, damage, false, blow, &[1]);
        assert_eq!(hero.wounds[0].kind, kind, "{part} {blow} {damage}");
        assert_eq!(hero.wounds[0].part, part);
    }
}

#[test]
fn c13_a_goblins_mace_breaks_an_unarmoured_arm() {
    // The whole blow: hit 30 (arm chance 60), 9 at 75% = 6 of 20 Health, severity 3;
    // the mace's 10% stun chance fails on 99; injury 50% on 40: a blunt severity 3 blow
    // to an unarmoured arm, a Fracture.
    let mut goblin = dc::Combatant {
        equipped: vec![dc::Item::mace()],
        ..enemy(dc::Silhouette::Humanoid, &[(Melee, 50)])
    };
    let mut hero = player(&[]);
    let answer = target(&hero, LeftArm);
    let run = melee(
        &mut goblin,
        &mut hero,
        &mut board(0),
        &[30, 99, 40],
        &[answer],
    );
    assert!(matches!(
        run.result,
        dc::AttackResult::Hit {
            damage: 6,
            wounded: true,
            ..
        }
    ));
    assert_eq!(kinds(&hero), [(Fracture, LeftArm, 3)]);
    assert_eq!(part_state(&hero, LeftArm), Disabled);
}
