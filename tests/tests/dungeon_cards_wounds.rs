//! Dungeon Cards (seed `004_13fe4f2794a78b61.txt`), afflictions, persistent wounds,
//! healing and the body map (C10..C21), driven through the compiled ruleset with scripted
//! d100 faces and decisions; the interpreter runs beside the generated code on the same
//! script and must agree (`dungeon_cards_support::both`).

mod dungeon_cards_support;

use dungeon_cards_support::*;
use rulesc_tests::dungeon_cards as dc;

use dc::AfflictionKind::{Burning, Poisoned};
use dc::Blow::{Blunt, Pierce, Slash};
use dc::BodyMapState::{Disabled, Injured, Intact, Missing, Replaced};
use dc::BodyPart::{Body, Head, LeftArm, LeftLeg, RightArm, RightLeg};
use dc::InjuryKind::{Bruise, DeepWound, EyeInjury, Fracture, MissingLimb, Scar};
use dc::Remedy::{
    Antiseptic, Bandage, HealingCare, MendingMagic, RestorativeSalve, ScarRemedy, Splint,
};
use dc::Stat::{Dodge, Melee, Ranged, Strength};

/// Supplies of one of each remedy.
fn one_of_each() -> [i64; 7] {
    [1; 7]
}

fn kinds(c: &dc::Combatant) -> Vec<(dc::InjuryKind, dc::BodyPart, i64)> {
    c.wounds
        .iter()
        .map(|w| (w.kind, w.part, w.severity))
        .collect()
}

/// A wound that is bandaged and cleaned: it heals one a turn and is never infected.
fn tended(id: i64, kind: dc::InjuryKind, part: dc::BodyPart, severity: i64) -> dc::Wound {
    dc::Wound {
        stabilized: true,
        disinfected: true,
        ..wound(id, kind, part, severity)
    }
}

fn bare(wounds: Vec<dc::Wound>) -> dc::Combatant {
    dc::Combatant {
        afflictions: vec![],
        ..wounded(wounds)
    }
}

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

// ---------------------------------------------------------------------------------------
// C14 Bleeding and periodic harm never create wounds; spells and survival damage stay
// outside the wound roll.

#[test]
fn c14_bleeding_and_periodic_harm_never_create_a_wound() {
    let mut hero = wounded(vec![wound(1, DeepWound, LeftLeg, 2)]);
    afflict(&mut hero, Burning, 3, 0);
    // No d100 but the second turn's infection check: no wound roll for any of this harm.
    world_turn(&mut hero, &[]);
    assert_eq!(hero.health, 16, "bleeding 1 and burning 3");
    let run = world_turn(&mut hero, &[99]);
    assert_eq!(run.totals(), [99], "only the infection check");
    assert_eq!(hero.health, 12);
    assert_eq!(kinds(&hero), [(DeepWound, LeftLeg, 2)]);
    assert_eq!(hero.next_wound_id, 2);
    // Harm of any source goes to Health alone.
    for source in [dc::HarmSource::BleedingHarm, dc::HarmSource::PeriodicHarm] {
        let run = take_harm(&mut hero, 11, source);
        assert_eq!(run.result, hero.health);
        assert_eq!(hero.wounds.len(), 1);
    }
}

#[test]
fn c14_spells_and_survival_damage_stay_outside_the_wound_roll() {
    use dc::Element::Dark;
    // A dark bolt of 8 and the caster's own dark 2, less the amulet's 3: 7. No roll.
    let caster = dc::Combatant {
        elemental_strength: elements(&[(Dark, 2)]),
        ..enemy(dc::Silhouette::Humanoid, &[])
    };
    let mut hero = dc::Combatant {
        worn: vec![dc::Wearable::holy_amulet()],
        ..player(&[])
    };
    let run = enemy_spell(&caster, &mut hero, Dark, 8);
    assert_eq!(run.result, 7);
    assert_eq!(hero.health, 13);
    assert!(hero.wounds.is_empty() && hero.afflictions.is_empty());
    // Hunger, thirst, smoke: survival damage, however large.
    let run = take_harm(&mut hero, 12, dc::HarmSource::SurvivalHarm);
    assert_eq!(run.result, 1);
    assert!(hero.wounds.is_empty());
}

// ---------------------------------------------------------------------------------------
// C15 Deep Wounds and amputations bleed, linked to the wound; a bandage stops only its
// wound's bleeding; fractures need a splint or magic.

#[test]
fn c15_deep_wounds_and_amputations_bleed_linked_to_their_wound() {
    let mut hero = player(&[]);
    injury_roll(&mut hero, RightArm, 6, false, Slash, &[1]); // 1: Missing Limb
    injury_roll(&mut hero, LeftLeg, 4, false, Pierce, &[1]); // 2: Deep Wound
    injury_roll(&mut hero, LeftArm, 4, false, Blunt, &[1]); // 3: Fracture
                                                            // Each open injury lowers maximum Health (C12), so 2 is now 15% of 13: severity 2.
    injury_roll(&mut hero, Head, 2, false, Pierce, &[1]); // 4: Eye Injury
    assert_eq!(
        kinds(&hero),
        [
            (MissingLimb, RightArm, 3),
            (DeepWound, LeftLeg, 2),
            (Fracture, LeftArm, 2),
            (EyeInjury, Head, 2)
        ]
    );
    let ids: Vec<i64> = hero.wounds.iter().map(|w| w.id).collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    assert_eq!(hero.afflictions, [bleeding(1), bleeding(2)]);
}

#[test]
fn c15_a_bandage_stops_only_the_bleeding_of_its_own_wound() {
    let mut hero = wounded(vec![
        wound(1, DeepWound, LeftArm, 2),
        wound(2, DeepWound, RightLeg, 2),
        wound(3, MissingLimb, LeftLeg, 3),
    ]);
    hero.supplies[Bandage as usize] = 2;
    assert_eq!(hero.afflictions.len(), 3);
    apply_remedy(&mut hero, Bandage, &[], &[("treated_wound", 1)]);
    assert_eq!(hero.afflictions, [bleeding(1), bleeding(3)]);
    assert_eq!(hero.supplies[Bandage as usize], 1);
    world_turn(&mut hero, &[]);
    assert_eq!(hero.health, 18, "two wounds still bleed");
    // The amputation is the second of the two still unbandaged.
    apply_remedy(&mut hero, Bandage, &[], &[("treated_wound", 1)]);
    assert_eq!(hero.afflictions, [bleeding(1)]);
}

#[test]
fn c15_a_fracture_needs_a_splint_or_magic() {
    let mut hero = bare(vec![
        wound(1, Fracture, LeftLeg, 1),
        wound(2, Fracture, RightArm, 1),
    ]);
    hero.supplies = one_of_each();
    // A bandage does nothing for a fracture, and is not spent.
    let run = apply_remedy(&mut hero, Bandage, &[], &[]);
    assert_eq!(run.result, dc::RemedyResult::NothingToTreat);
    assert_eq!(hero.supplies[Bandage as usize], 1);
    for _ in 0..3 {
        world_turn(&mut hero, &[]);
    }
    assert_eq!(hero.wounds[0].progress, 0, "unsecured, it does not heal");
    apply_remedy(&mut hero, Splint, &[], &[("treated_wound", 0)]);
    apply_remedy(&mut hero, MendingMagic, &[], &[("treated_wound", 0)]);
    assert!(hero.wounds.iter().all(|w| w.stabilized));
    world_turn(&mut hero, &[]);
    assert_eq!(hero.wounds[0].progress, 1);
    assert_eq!(hero.wounds[1].progress, 1);
}

// ---------------------------------------------------------------------------------------
// C16 Infection: no check on the first turn, possible from the next world turn;
// infected = max Health minus severity and no natural healing.

#[test]
fn c16_no_infection_check_on_the_wounds_first_world_turn() {
    let mut hero = wounded(vec![wound(1, DeepWound, LeftArm, 2)]);
    let run = world_turn(&mut hero, &[]);
    assert!(run.totals().is_empty());
    assert_eq!(hero.wounds[0].age, 1);
    // From the next world turn: assumption 10% each turn.
    let run = world_turn(&mut hero, &[11]);
    assert_eq!(run.totals(), [11]);
    assert!(!hero.wounds[0].infected);
    world_turn(&mut hero, &[10]);
    assert!(hero.wounds[0].infected);
    // Infected: no more checks.
    let run = world_turn(&mut hero, &[]);
    assert!(run.totals().is_empty());
}

#[test]
fn c16_a_wound_taken_in_a_fight_is_checked_from_its_second_world_turn() {
    let mut hero = player(&[]);
    injury_roll(&mut hero, LeftLeg, 4, false, Pierce, &[1]);
    world_turn(&mut hero, &[]);
    world_turn(&mut hero, &[1]);
    assert!(hero.wounds[0].infected);
}

#[test]
fn c16_infection_costs_max_health_and_stops_natural_healing() {
    let mut hero = bare(vec![dc::Wound {
        stabilized: true,
        infected: true,
        age: 3,
        ..wound(1, DeepWound, Body, 2)
    }]);
    // 20, less the injury's 2, less the infection's 2.
    assert_eq!(max_health(&hero), 16);
    world_turn(&mut hero, &[]);
    assert_eq!(hero.wounds[0].progress, 0);
    // Cleaned: the infection goes, the Health comes back, healing resumes.
    hero.supplies[Antiseptic as usize] = 1;
    apply_remedy(&mut hero, Antiseptic, &[], &[("treated_wound", 0)]);
    assert!(!hero.wounds[0].infected);
    assert_eq!(max_health(&hero), 18);
    world_turn(&mut hero, &[]);
    assert_eq!(hero.wounds[0].progress, 1);
}

#[test]
fn c16_a_cleaned_wound_is_never_checked() {
    // assumption: "untreated" means not cleaned with an antiseptic.
    let mut hero = bare(vec![dc::Wound {
        disinfected: true,
        age: 5,
        ..wound(1, DeepWound, Body, 2)
    }]);
    for _ in 0..4 {
        assert!(world_turn(&mut hero, &[]).totals().is_empty());
    }
    // Nor is a closed injury (a Fracture or a Bruise).
    let mut hero = bare(vec![
        dc::Wound {
            age: 5,
            ..wound(1, Fracture, LeftLeg, 2)
        },
        dc::Wound {
            age: 5,
            ..wound(2, Bruise, Body, 2)
        },
    ]);
    assert!(world_turn(&mut hero, &[]).totals().is_empty());
}

// ---------------------------------------------------------------------------------------
// C17 Scars: no bleeding or infection; ordinary remedies skip them; only a scar remedy
// removes one; open injuries treated first.

fn scar(id: i64, part: dc::BodyPart) -> dc::Wound {
    dc::Wound {
        closed: true,
        ..wound(id, Scar, part, 2)
    }
}

#[test]
fn c17_a_scar_cannot_bleed_or_become_infected() {
    // Healing care closes a bleeding Deep Wound, which scars (15 on the d100): the
    // Bleeding goes with it.
    let mut hero = wounded(vec![dc::Wound {
        progress: 4,
        age: 2,
        ..wound(1, DeepWound, LeftArm, 2)
    }]);
    hero.supplies[HealingCare as usize] = 1;
    apply_remedy(&mut hero, HealingCare, &[15], &[("treated_wound", 0)]);
    assert_eq!(kinds(&hero), [(Scar, LeftArm, 2)]);
    assert!(hero.afflictions.is_empty());
    for _ in 0..3 {
        let run = world_turn(&mut hero, &[]);
        assert!(run.totals().is_empty(), "no infection check for a scar");
    }
    assert_eq!(hero.health, 20);
    assert!(!hero.wounds[0].infected);
}

#[test]
fn c17_ordinary_remedies_pass_a_scar_over_without_being_spent() {
    let mut hero = bare(vec![scar(1, Head)]);
    hero.supplies = one_of_each();
    for remedy in [Bandage, Antiseptic, Splint, MendingMagic, HealingCare] {
        let run = apply_remedy(&mut hero, remedy, &[], &[]);
        assert_eq!(run.result, dc::RemedyResult::NothingToTreat, "{remedy}");
        assert_eq!(hero.supplies[remedy as usize], 1, "{remedy} not spent");
        let run = apply_remedy_to_scar(&mut hero, remedy, &[]);
        assert_eq!(run.result, dc::RemedyResult::NotAScarRemedy, "{remedy}");
        assert_eq!(hero.supplies[remedy as usize], 1);
    }
    assert_eq!(kinds(&hero), [(Scar, Head, 2)]);
}

#[test]
fn c17_only_a_scar_remedy_removes_a_scar() {
    let mut hero = bare(vec![scar(1, Head), scar(2, LeftArm)]);
    hero.supplies = one_of_each();
    let run = apply_remedy(&mut hero, ScarRemedy, &[], &[("removed_scar", 1)]);
    assert_eq!(run.result, dc::RemedyResult::ScarRemoved { part: LeftArm });
    assert_eq!(kinds(&hero), [(Scar, Head, 2)]);
    assert_eq!(hero.supplies[ScarRemedy as usize], 0);
    let run = apply_remedy(&mut hero, ScarRemedy, &[], &[]);
    assert_eq!(run.result, dc::RemedyResult::NoneLeft);
}

#[test]
fn c17_a_remedy_that_also_treats_open_injuries_treats_the_open_injury_first() {
    let mut hero = bare(vec![scar(1, Head), wound(2, DeepWound, Body, 1)]);
    hero.supplies[RestorativeSalve as usize] = 2;
    // The only open injury is the one offered.
    let run = apply_remedy(&mut hero, RestorativeSalve, &[], &[("treated_wound", 0)]);
    assert_eq!(
        run.result,
        dc::RemedyResult::Treated {
            kind: DeepWound,
            part: Body
        }
    );
    assert_eq!(hero.wounds[1].progress, 2);
    assert_eq!(hero.wounds[0].kind, Scar, "the scar is still there");
    // Selecting the scar directly targets it, open injury or not.
    let run = apply_remedy_to_scar(&mut hero, RestorativeSalve, &[("removed_scar", 0)]);
    assert_eq!(run.result, dc::RemedyResult::ScarRemoved { part: Head });
    assert_eq!(kinds(&hero), [(DeepWound, Body, 1)]);
    // With no open injury left, the salve goes to a scar.
    let mut hero = bare(vec![scar(1, Head)]);
    hero.supplies[RestorativeSalve as usize] = 1;
    let run = apply_remedy(&mut hero, RestorativeSalve, &[], &[("removed_scar", 0)]);
    assert_eq!(run.result, dc::RemedyResult::ScarRemoved { part: Head });
}

// ---------------------------------------------------------------------------------------
// C18 Healing: stabilized and uninfected +1 per world turn; care +2 at once; Deep Wound
// 6, Fracture and Eye Injury 10, Bruise 12 (no stabilization needed).

#[test]
fn c18_a_stabilized_uninfected_injury_heals_one_each_world_turn() {
    let mut hero = bare(vec![tended(1, DeepWound, Body, 1)]);
    for turn in 1..=5 {
        world_turn(&mut hero, &[]);
        assert_eq!(hero.wounds[0].progress, turn);
    }
    world_turn(&mut hero, &[]);
    assert!(hero.wounds.is_empty(), "a Deep Wound needs 6");
    // Not stabilized: no progress.
    let mut hero = bare(vec![dc::Wound {
        disinfected: true,
        ..wound(1, DeepWound, Body, 1)
    }]);
    for _ in 0..8 {
        world_turn(&mut hero, &[]);
    }
    assert_eq!(hero.wounds[0].progress, 0);
}

#[test]
fn c18_healing_care_adds_two_progress_at_once() {
    let mut hero = bare(vec![wound(1, DeepWound, Body, 1)]);
    hero.supplies[HealingCare as usize] = 3;
    apply_remedy(&mut hero, HealingCare, &[], &[("treated_wound", 0)]);
    assert_eq!(hero.wounds[0].progress, 2);
    apply_remedy(&mut hero, HealingCare, &[], &[("treated_wound", 0)]);
    assert_eq!(hero.wounds[0].progress, 4);
    // The third brings it to 6: healed at once.
    apply_remedy(&mut hero, HealingCare, &[], &[("treated_wound", 0)]);
    assert!(hero.wounds.is_empty());
}

#[test]
fn c18_each_kind_needs_its_own_progress() {
    // assumption: a Missing Limb's stump closes at 10 (it then stays, C21).
    for (kind, part, required) in [
        (DeepWound, Body, 6),
        (Fracture, LeftLeg, 10),
        (EyeInjury, Head, 10),
        (Bruise, Body, 12),
    ] {
        let mut hero = bare(vec![dc::Wound {
            progress: required - 2,
            ..tended(1, kind, part, 1)
        }]);
        world_turn(&mut hero, &[]);
        assert_eq!(hero.wounds.len(), 1, "{kind}: one short");
        world_turn(&mut hero, &[]);
        assert!(hero.wounds.is_empty(), "{kind} heals at {required}");
    }
}

#[test]
fn c18_a_bruise_needs_no_stabilization() {
    let mut hero = bare(vec![
        wound(1, Bruise, Body, 2),
        dc::Wound {
            disinfected: true,
            ..wound(2, DeepWound, LeftArm, 1)
        },
    ]);
    for _ in 0..3 {
        world_turn(&mut hero, &[]);
    }
    assert_eq!(hero.wounds[0].progress, 3, "the Bruise heals untended");
    assert_eq!(hero.wounds[1].progress, 0, "the Deep Wound does not");
}

// ---------------------------------------------------------------------------------------
// C19 Severity 2-3 non-Bruise injuries scar with 15% when healed; scar -1 max Health,
// face scar also -1 Charisma; floors at 1; scars stack.

#[test]
fn c19_a_healed_severity_two_or_three_injury_scars_on_fifteen_percent() {
    for (kind, part, severity, roll, scars) in [
        (DeepWound, LeftArm, 2, 15, true),
        (DeepWound, LeftArm, 2, 16, false),
        (Fracture, RightLeg, 3, 1, true),
        (EyeInjury, Head, 3, 100, false),
    ] {
        let required = if kind == DeepWound { 6 } else { 10 };
        let mut hero = bare(vec![dc::Wound {
            progress: required - 1,
            ..tended(1, kind, part, severity)
        }]);
        let run = world_turn(&mut hero, &[roll]);
        assert_eq!(run.totals(), [i64::from(roll)]);
        if scars {
            assert_eq!(kinds(&hero), [(Scar, part, severity)]);
        } else {
            assert!(hero.wounds.is_empty());
        }
    }
}

#[test]
fn c19_bruises_and_severity_one_injuries_never_scar() {
    let mut hero = bare(vec![
        dc::Wound {
            progress: 11,
            ..wound(1, Bruise, Body, 3)
        },
        dc::Wound {
            progress: 5,
            ..tended(2, DeepWound, LeftArm, 1)
        },
    ]);
    let run = world_turn(&mut hero, &[]);
    assert!(run.totals().is_empty(), "no scar roll");
    assert!(hero.wounds.is_empty());
}

#[test]
fn c19_a_scar_costs_max_health_and_on_the_face_charisma() {
    let arm = bare(vec![scar(1, LeftArm)]);
    assert_eq!((max_health(&arm), charisma(&arm)), (19, 5));
    // assumption: the face is the head region.
    let face = bare(vec![scar(1, Head)]);
    assert_eq!((max_health(&face), charisma(&face)), (19, 4));
    // "The scar keeps none of the wound's combat penalties": a scarred leg runs.
    let leg = dc::Combatant {
        stats: stats(&[(Dodge, 30)]),
        ..bare(vec![dc::Wound {
            closed: true,
            ..wound(1, Scar, LeftLeg, 3)
        }])
    };
    assert_eq!(stat(&leg, Dodge), 30);
    assert!(dc::can_run(&leg));
    assert_eq!(part_state(&leg, LeftLeg), Intact);
}

#[test]
fn c19_scars_stack_and_never_take_max_health_or_charisma_below_one() {
    let scars = |n: i64, part| bare((1..=n).map(|i| scar(i, part)).collect());
    assert_eq!(max_health(&scars(3, Body)), 17);
    assert_eq!(charisma(&scars(3, Head)), 2);
    assert_eq!(max_health(&scars(25, Body)), 1);
    assert_eq!(charisma(&scars(6, Head)), 1);
    assert_eq!(max_health(&scars(6, Head)), 14);
}

// ---------------------------------------------------------------------------------------
// C20 Disabled arm -20 Melee -25 Ranged -1 Strength, no two-handed, one item with one
// arm; disabled leg -20 Dodge -2 max Stamina, no Run.

fn fighter(wounds: Vec<dc::Wound>) -> dc::Combatant {
    dc::Combatant {
        stats: stats(&[(Melee, 50), (Ranged, 50), (Dodge, 30), (Strength, 3)]),
        ..bare(wounds)
    }
}

#[test]
fn c20_a_disabled_arm_takes_melee_ranged_and_strength() {
    let one = fighter(vec![wound(1, Fracture, LeftArm, 2)]);
    assert_eq!(part_state(&one, LeftArm), Disabled);
    assert_eq!(
        [stat(&one, Melee), stat(&one, Ranged), stat(&one, Strength)],
        [30, 25, 2]
    );
    assert_eq!(stat(&one, Dodge), 30);
    // assumption: two disabled arms, twice the penalties.
    let two = fighter(vec![
        wound(1, Fracture, LeftArm, 2),
        wound(2, MissingLimb, RightArm, 3),
    ]);
    assert_eq!(
        [stat(&two, Melee), stat(&two, Ranged), stat(&two, Strength)],
        [10, 0, 1]
    );
    // A Deep Wound does not disable (assumption): no penalty.
    let cut = fighter(vec![wound(1, DeepWound, LeftArm, 3)]);
    assert_eq!(stat(&cut, Melee), 50);
}

#[test]
fn c20_two_handed_weapons_are_disabled() {
    let mut hero = fighter(vec![wound(1, Fracture, LeftArm, 2)]);
    assert_eq!(
        equip(&mut hero, &dc::Item::greatsword()),
        dc::EquipResult::TwoHandedDisabled
    );
    assert!(hero.equipped.is_empty());
    // Already in hand when the arm broke: it cannot be swung, and nothing is spent.
    hero.equipped = vec![dc::Item::greatsword(), dc::Item::shortbow()];
    let mut goblin = enemy(dc::Silhouette::Humanoid, &[]);
    let run = melee(&mut hero, &mut goblin, &mut board(0), &[], &[]);
    assert_eq!(run.result, dc::AttackResult::CannotWield);
    let run = ranged(&mut hero, &mut goblin, &mut board(0), &[], &[]);
    assert_eq!(run.result, dc::AttackResult::CannotWield);
    assert_eq!(hero.stamina, 10);
    // With both arms the greatsword is fine.
    let mut whole = fighter(vec![]);
    assert_eq!(
        equip(&mut whole, &dc::Item::greatsword()),
        dc::EquipResult::Equipped {
            item: dc::ItemKind::Greatsword
        }
    );
}

#[test]
fn c20_with_one_functional_arm_only_one_item_is_equipped() {
    use dc::EquipResult::{Equipped, NoFunctionalArm, OneItemOnly};
    let mut hero = fighter(vec![wound(1, Fracture, RightArm, 2)]);
    assert_eq!(
        equip(&mut hero, &dc::Item::sword()),
        Equipped {
            item: dc::ItemKind::Sword
        }
    );
    assert_eq!(equip(&mut hero, &dc::Item::buckler()), OneItemOnly);
    // Swapping the one item is allowed.
    equip(&mut hero, &dc::Item::dagger());
    assert_eq!(hero.equipped, [dc::Item::dagger()]);
    // Two arms: weapon, ranged weapon and shield together.
    let mut whole = fighter(vec![]);
    for item in [dc::Item::sword(), dc::Item::buckler(), dc::Item::shortbow()] {
        assert!(matches!(equip(&mut whole, &item), Equipped { .. }));
    }
    assert_eq!(whole.equipped.len(), 3);
    // No arm at all: nothing.
    let mut armless = fighter(vec![
        wound(1, MissingLimb, LeftArm, 3),
        wound(2, MissingLimb, RightArm, 3),
    ]);
    assert_eq!(equip(&mut armless, &dc::Item::dagger()), NoFunctionalArm);
}

#[test]
fn c20_a_disabled_leg_takes_dodge_and_stamina_and_the_run_stance() {
    use dc::Stance::{Run, Sneak};
    use dc::StanceResult::{RunDisabled, StanceTaken};
    let mut hero = fighter(vec![tended(1, Fracture, LeftLeg, 1)]);
    assert_eq!(stat(&hero, Dodge), 10);
    assert_eq!(max_stamina(&hero), 8);
    assert_eq!(stat(&hero, Melee), 50);
    assert_eq!(take_stance(&mut hero, Run), RunDisabled);
    assert_eq!(hero.stance, dc::Stance::Walk);
    assert_eq!(take_stance(&mut hero, Sneak), StanceTaken { stance: Sneak });
    // "until function is restored": the fracture heals.
    hero.wounds[0].progress = 9;
    world_turn(&mut hero, &[]);
    assert!(hero.wounds.is_empty());
    assert_eq!(stat(&hero, Dodge), 30);
    assert_eq!(max_stamina(&hero), 10);
    assert_eq!(take_stance(&mut hero, Run), StanceTaken { stance: Run });
    // Both legs: -40 Dodge, -4 maximum Stamina.
    let lame = fighter(vec![
        wound(1, Fracture, LeftLeg, 1),
        wound(2, Fracture, RightLeg, 1),
    ]);
    assert_eq!((stat(&lame, Dodge), max_stamina(&lame)), (-10, 6));
}

// ---------------------------------------------------------------------------------------
// C21 Body map states intact/injured/disabled/missing/replaced; a replacement limb
// restores function and keeps the amputation in history.

#[test]
fn c21_the_body_map_marks_each_region() {
    let hero = bare(vec![
        wound(1, DeepWound, Head, 1),
        wound(2, Fracture, LeftArm, 2),
        wound(3, MissingLimb, RightArm, 3),
        dc::Wound {
            replaced: true,
            closed: true,
            ..wound(4, MissingLimb, LeftLeg, 3)
        },
        scar(5, RightLeg),
    ]);
    let map: Vec<dc::BodyMapState> = [Head, Body, LeftArm, RightArm, LeftLeg, RightLeg]
        .iter()
        .map(|p| part_state(&hero, *p))
        .collect();
    assert_eq!(map, [Injured, Intact, Disabled, Missing, Replaced, Intact]);
    // Selecting a region filters its wounds; active and permanent wounds are listed apart.
    assert_eq!(dc::wounds_at(&hero, LeftArm).len(), 1);
    let active: Vec<i64> = dc::active_wounds(&hero).iter().map(|w| w.id).collect();
    let permanent: Vec<i64> = dc::permanent_wounds(&hero).iter().map(|w| w.id).collect();
    assert_eq!(active, [1, 2, 3]);
    assert_eq!(permanent, [4, 5]);
    // A missing limb cannot be struck (assumption), a replaced one can.
    assert_eq!(
        targetable_parts(&hero),
        [Head, Body, LeftArm, LeftLeg, RightLeg]
    );
}

#[test]
fn c21_a_replacement_limb_restores_function_and_keeps_the_amputation() {
    let mut hero = fighter(vec![dc::Wound {
        closed: true,
        ..wound(1, MissingLimb, RightArm, 3)
    }]);
    assert_eq!(part_state(&hero, RightArm), Missing);
    assert_eq!(dc::functional_arms(&hero), 1);
    assert_eq!(stat(&hero, Melee), 30);
    // A replacement for the left arm is not for this amputation.
    assert_eq!(
        fit_replacement(&mut hero, LeftArm),
        dc::ReplacementResult::NoAmputation
    );
    assert_eq!(
        fit_replacement(&mut hero, RightArm),
        dc::ReplacementResult::Fitted { part: RightArm }
    );
    assert_eq!(part_state(&hero, RightArm), Replaced);
    assert_eq!(dc::functional_arms(&hero), 2);
    assert_eq!(stat(&hero, Melee), 50);
    assert!(matches!(
        equip(&mut hero, &dc::Item::greatsword()),
        dc::EquipResult::Equipped { .. }
    ));
    // The amputation is still in the history.
    assert_eq!(kinds(&hero), [(MissingLimb, RightArm, 3)]);
    assert!(hero.wounds[0].replaced);
    assert_eq!(
        fit_replacement(&mut hero, RightArm),
        dc::ReplacementResult::NoAmputation,
        "already replaced"
    );
}

#[test]
fn c21_a_healed_amputation_stays_as_a_permanent_wound() {
    // A bandaged stump closes (assumption: at 10) without a scar roll and stays.
    let mut hero = bare(vec![dc::Wound {
        progress: 9,
        ..tended(1, MissingLimb, LeftArm, 3)
    }]);
    let run = world_turn(&mut hero, &[]);
    assert!(run.totals().is_empty());
    assert_eq!(kinds(&hero), [(MissingLimb, LeftArm, 3)]);
    assert!(hero.wounds[0].closed);
    assert_eq!(part_state(&hero, LeftArm), Missing);
    assert_eq!(max_health(&hero), 20, "a closed stump costs no Health");
    // It never changes again.
    world_turn(&mut hero, &[]);
    assert_eq!(hero.wounds[0].progress, 10);
}

// ---------------------------------------------------------------------------------------
// The fight (`fight.rules`): world turns pass in the fight's world time (a round is one;
// `Fight::advance` lets more pass, as after a fight). `c` stands against a wolf while `n`
// world turns pass, in both backends, which must leave the same state and trace.

fn after_world_turns(c: &dc::Combatant, n: i64) -> dc::Combatant {
    let wolf = dc::Combatant {
        silhouette: dc::Silhouette::Wolf,
        ..Default::default()
    };
    let sides = [("Adventurers", "Hero", c.clone()), ("Wolves", "Wolf", wolf)];
    let fight = rulesc_tests::differential::advance_both(
        &program(),
        &sides,
        combatant_value,
        dc::Rules,
        n,
        3,
    );
    fight.combatants[0].clone()
}

#[test]
fn c18_in_a_fight_a_tended_deep_wound_heals_after_six_world_turns() {
    let hero = bare(vec![tended(1, DeepWound, Body, 1)]);
    assert_eq!(after_world_turns(&hero, 5).wounds[0].progress, 5);
    assert!(
        after_world_turns(&hero, 6).wounds.is_empty(),
        "a Deep Wound needs 6"
    );
    // A Bruise needs 12 and no stabilization.
    let bruised = bare(vec![wound(1, Bruise, Body, 1)]);
    assert_eq!(after_world_turns(&bruised, 11).wounds.len(), 1);
    assert!(after_world_turns(&bruised, 12).wounds.is_empty());
}

#[test]
fn c15_in_a_fight_an_unbound_wound_bleeds_one_health_each_world_turn() {
    // assumption (NOTES.md 17): 1 Health per world turn per bleeding wound.
    let hero = wounded(vec![wound(1, DeepWound, LeftArm, 1)]);
    assert_eq!(hero.afflictions.len(), 1, "its Bleeding");
    let health = hero.health;
    for n in [1, 3] {
        let later = after_world_turns(&hero, n);
        assert_eq!(later.health, health - n, "{n} world turns");
        assert_eq!(later.wounds[0].progress, 0, "not stabilized: no healing");
    }
}

#[test]
fn the_example_fight_simulates_the_same_for_a_seed_and_otherwise_for_another() {
    let p = program();
    let file = rulesc_tests::differential::fight_file(&p, "examples/dungeon-cards/fight.yaml");
    rulesc_tests::differential::assert_simulation_repeats(&p, &file, 300);
    let once = rulesc::simulate::simulate(&p, &file, 300, 7);
    assert!(once.wins.iter().all(|&w| w > 0), "both sides win some");
}
