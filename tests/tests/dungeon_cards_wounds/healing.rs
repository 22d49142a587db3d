//! C17..C19: scars, healing over world turns, and scarring.

use super::*;

// ---------------------------------------------------------------------------------------
// C17 Scars: no bleeding or infection; ordinary remedies skip them; only a scar remedy
// removes one; open injuries treated first.

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
