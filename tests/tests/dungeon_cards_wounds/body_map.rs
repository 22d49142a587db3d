//! C20, C21: disabled limbs and the body map, and the fight over world turns.

use super::*;

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
