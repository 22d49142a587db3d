//! C7..C9: guards, knock-down, and techniques that reveal their user.

use super::*;

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
