//! D9: combined actions and assists.

use super::*;

// ---------------------------------------------------------------------------------------
// D9 Combined actions (beat a DC by 5+ for +2); Assistance (+2 on the next roll, at most
// one per round).

fn approve(yes: bool) -> Answer {
    yes_no("dm_approves_combination", yes)
}

fn first_skill(s: d20::Skill) -> Answer {
    ("first_action_skill", s as u32)
}

fn grant(yes: bool) -> Answer {
    yes_no("dm_grants_combined_bonus", yes)
}

#[test]
fn d9_beating_the_dc_by_5_may_give_plus_2_to_the_attack() {
    // Jumping Arrow Shot: Athletics +2, DC 12: 15 + 2 = 17 beats it by 5; the DM grants
    // the +2. Shortbow (+1), Dexterity 4 (+2): the attack is 1D20 + 3 + 2.
    let mut a = with_skill(
        fighter(0, 4, d20::Weapon::shortbow()),
        d20::Skill::Athletics,
        2,
    );
    let mut t = target();
    let answers = [
        approve(true),
        first_skill(d20::Skill::Athletics),
        grant(true),
        react(Dodge),
        slot(Chest),
    ];
    let run = combined_attack(&mut a, &mut t, 12, &[15, 12, 16, 4], &answers);
    assert_eq!(run.assigned("let first_action ="), ["17"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["5"]);
    // 12 + 3 = 15 against 16 would miss; with the +2 it is 17: a hit.
    assert_eq!(run.assigned("let attack ="), ["17"]);
    assert_eq!(run.result, hit(Chest, 4, 0, 4), "{}", run.text());
}

#[test]
fn d9_the_dm_may_withhold_the_combined_bonus() {
    let mut a = with_skill(
        fighter(0, 4, d20::Weapon::shortbow()),
        d20::Skill::Athletics,
        2,
    );
    let mut t = target();
    let answers = [
        approve(true),
        first_skill(d20::Skill::Athletics),
        grant(false),
        react(Dodge),
    ];
    let run = combined_attack(&mut a, &mut t, 12, &[15, 12, 16], &answers);
    assert_eq!(run.assigned("let attack ="), ["15"]);
    assert_eq!(run.result, Miss);
}

#[test]
fn d9_beating_the_dc_by_4_gives_no_bonus() {
    // 14 + 2 = 16 against DC 12: a success by 4; the DM is not asked.
    let mut a = with_skill(
        fighter(0, 4, d20::Weapon::shortbow()),
        d20::Skill::Acrobatics,
        2,
    );
    let mut t = target();
    let answers = [
        approve(true),
        first_skill(d20::Skill::Acrobatics),
        react(Dodge),
    ];
    let run = combined_attack(&mut a, &mut t, 12, &[14, 10, 16], &answers);
    assert_eq!(run.assigned("let attack_bonus ="), ["3"]);
    assert_eq!(run.result, Miss, "{}", run.text());
}

#[test]
fn d9_a_failed_first_action_means_no_attack() {
    // assumption: the DC must be met: 9 + 2 = 11 against 12 fails; 10 + 2 = 12 succeeds.
    let mut a = with_skill(
        fighter(0, 4, d20::Weapon::shortbow()),
        d20::Skill::Athletics,
        2,
    );
    let mut t = target();
    let run = combined_attack(
        &mut a,
        &mut t,
        12,
        &[9],
        &[approve(true), first_skill(d20::Skill::Athletics)],
    );
    assert_eq!(run.result, FirstActionFailed);
    let run = combined_attack(
        &mut a,
        &mut t,
        12,
        &[10, 1],
        &[approve(true), first_skill(d20::Skill::Athletics)],
    );
    assert_eq!(
        run.result,
        AutoMiss,
        "the attack was rolled: {}",
        run.text()
    );
}

#[test]
fn d9_a_combined_action_needs_the_dms_approval() {
    let (mut a, mut t) = (swordsman(), target());
    let run = combined_attack(&mut a, &mut t, 10, &[], &[approve(false)]);
    assert_eq!(run.result, NotApproved);
    assert!(run.rolls().is_empty());
}

fn justified(yes: bool) -> Answer {
    yes_no("narratively_justified", yes)
}

#[test]
fn d9_assistance_gives_plus_2_on_the_next_roll_only() {
    let (mut helper, mut a, mut t) = (target(), swordsman(), target());
    assert_eq!(
        assist(&mut helper, &mut a, &[justified(true)]),
        d20::Assistance::Assisted { bonus: 2 }
    );
    assert!(helper.gave_up_action);
    assert_eq!(a.assist_bonus, 2);
    // 10 + 4 + 2 = 16 beats a Dodge of 15; without the help it would have tied.
    let run = attack(&mut a, &mut t, &[10, 15, 3], &[react(Dodge), slot(Chest)]);
    assert_eq!(run.assigned("let attack ="), ["16"]);
    assert_eq!(run.result, hit(Chest, 3, 0, 3), "{}", run.text());
    assert_eq!(a.assist_bonus, 0, "spent");
    let run = attack(&mut a, &mut t, &[10, 15], &[react(Dodge)]);
    assert_eq!(run.assigned("let attack ="), ["14"]);
    assert_eq!(run.result, Miss);
}

#[test]
fn d9_an_assisted_defender_adds_it_to_his_reaction_roll() {
    let (mut helper, mut a, mut t) = (target(), swordsman(), target());
    assist(&mut helper, &mut t, &[justified(true)]);
    let run = attack(&mut a, &mut t, &[10, 13], &[react(Dodge)]);
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(run.result, Miss, "14 against 15");
    assert_eq!(t.assist_bonus, 0);
}

#[test]
fn d9_at_most_one_assistance_per_round() {
    let (mut h1, mut h2, mut a) = (target(), target(), swordsman());
    assert_eq!(
        assist(&mut h1, &mut a, &[justified(true)]),
        d20::Assistance::Assisted { bonus: 2 }
    );
    // A second helper in the same round: refused before the DM is asked; nothing stacks.
    assert_eq!(
        assist(&mut h2, &mut a, &[]),
        d20::Assistance::AlreadyAssisted
    );
    assert!(!h2.gave_up_action);
    assert_eq!(a.assist_bonus, 2);
    // The next round, help may be given again.
    start_round(&mut a);
    start_round(&mut h1);
    assert!(!h1.gave_up_action);
    assert_eq!(
        assist(&mut h2, &mut a, &[justified(true)]),
        d20::Assistance::Assisted { bonus: 2 }
    );
    assert_eq!(
        a.assist_bonus, 2,
        "an unspent +2 does not stack (assumption)"
    );
}

#[test]
fn d9_assistance_must_be_narratively_justified() {
    let (mut helper, mut a) = (target(), swordsman());
    assert_eq!(
        assist(&mut helper, &mut a, &[justified(false)]),
        d20::Assistance::NotJustified
    );
    assert_eq!((a.assist_bonus, a.assistance_this_round), (0, 0));
    assert!(!helper.gave_up_action);
}
