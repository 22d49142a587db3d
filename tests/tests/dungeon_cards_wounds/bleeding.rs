//! C14..C16: bleeding and periodic harm, linked bleeding, and infection.

use super::*;

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
