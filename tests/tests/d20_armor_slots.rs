//! d20 Armor Slots (seed `003_534d8f37dd458f26.txt`, "PART 4: COMBAT"), rules D1..D9 and
//! the worked example D6x, driven through the compiled ruleset
//! (`rulesc_tests::d20_armor_slots`) with scripted dice and scripted decisions. Every
//! resolution also runs in the interpreter (`both`), which must return the same result,
//! emit the same trace and leave the combatants in the same state; the worked example is
//! also told to each backend on its own, and replayed from its scenario file.

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSpec, TurnOrder, VecTrace};
use rulesc_tests::d20_armor_slots as d20;
use rulesc_tests::support::{self, Answer, Run, ScriptEnv, Shown};
use std::path::Path;
use std::rc::Rc;

use d20::ArmorSlot::{Chest, Hands, Head, Legs, Shoulders};
use d20::AttackResult::{
    Absorbed, AutoMiss, Blocked, CriticalHit, FirstActionFailed, Hit, Miss, NotApproved,
    PerfectDefence,
};
use d20::Reaction::{Block, Dodge, NoReaction, Parry, TakeHit};

// ---------------------------------------------------------------------------------------
// The interpreter's program and argument values

thread_local! {
    static PROGRAM: Rc<Program> = Rc::new(compile("rules/d20-armor-slots"));
}

fn compile(dir: &str) -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("{} does not check: {:?}", dir.display(), diags.items))
}

fn program() -> Rc<Program> {
    PROGRAM.with(Rc::clone)
}

fn choice(i: u16) -> Value {
    Value::Choice(i)
}

fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn ints(items: &[i64]) -> Value {
    Value::Map(Rc::new(items.iter().map(|i| Value::Int(*i)).collect()))
}

fn rec(ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(&program(), ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn weapon_value(w: &d20::Weapon) -> Value {
    rec(
        "Weapon",
        &[
            ("ability", choice(w.ability as u16)),
            ("attack_bonus", Value::Int(w.attack_bonus)),
            ("damage", Value::Dice(w.damage)),
            ("range", Value::Int(w.range)),
        ],
    )
}

fn piece_value(a: &d20::ArmorPiece) -> Value {
    rec(
        "ArmorPiece",
        &[
            ("slot", choice(a.slot as u16)),
            ("ac", Value::Int(a.ac)),
            ("hp", Value::Int(a.hp)),
        ],
    )
}

fn suit_value(s: &d20::ArmorSet) -> Value {
    rec(
        "ArmorSet",
        &[("pieces", list(s.pieces.iter().map(piece_value)))],
    )
}

fn combatant_value(c: &d20::Combatant) -> Value {
    rec(
        "Combatant",
        &[
            ("abilities", ints(&c.abilities)),
            ("skills", ints(&c.skills)),
            ("hp", Value::Int(c.hp)),
            ("weapon", weapon_value(&c.weapon)),
            ("armor", list(c.armor.iter().map(piece_value))),
            ("shield", choice(c.shield as u16)),
            ("shield_hp", Value::Int(c.shield_hp)),
            ("initiative", Value::Int(c.initiative)),
            ("tie_break", Value::Int(c.tie_break)),
            (
                "conditions",
                list(c.conditions.iter().map(|x| choice(*x as u16))),
            ),
            ("assist_bonus", Value::Int(c.assist_bonus)),
            ("assistance_this_round", Value::Int(c.assistance_this_round)),
            ("gave_up_action", Value::Bool(c.gave_up_action)),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// Scripted decisions

/// The defender chooses reaction `r`. Scripted by variant here; `offered` turns it into
/// the position among the reactions open to the defender (Block only with a shield),
/// which is what `decide reaction from reactions(defender)` is answered with.
fn react(r: d20::Reaction) -> Answer {
    ("reaction", r as u32)
}

/// `answers` with every `react` answer turned into its position among the reactions
/// `defender` is offered.
fn offered(defender: &d20::Combatant, answers: &[Answer]) -> Vec<Answer> {
    let open = reactions(defender);
    answers
        .iter()
        .map(|&(name, i)| {
            if name != "reaction" {
                return (name, i);
            }
            let r = d20::Reaction::ALL[i as usize];
            let at = open
                .iter()
                .position(|x| *x == r)
                .unwrap_or_else(|| panic!("{r} is not offered: {open:?}"));
            (name, at as u32)
        })
        .collect()
}

fn slot(s: d20::ArmorSlot) -> Answer {
    ("hit_slot", s as u32)
}

fn reflected_slot(s: d20::ArmorSlot) -> Answer {
    ("reflected_slot", s as u32)
}

fn take_hit_on(d: d20::TakeHitDefence) -> Answer {
    ("take_hit_defence", d as u32)
}

fn effect(c: d20::Condition) -> Answer {
    ("take_hit_effect", c as u32)
}

fn ability_choice(a: d20::Ability) -> Answer {
    ("ability_choice", a as u32)
}

fn yes_no(name: &'static str, yes: bool) -> Answer {
    (name, u32::from(yes))
}

/// Runs `f` with the scripted faces and answers, and asserts the script fit exactly.
fn scripted<R>(
    faces: &[u32],
    answers: &[Answer],
    f: impl FnOnce(&mut ScriptEnv) -> R,
) -> (R, VecTrace) {
    support::scripted(d20::SITES, faces, answers, f)
}

/// Calls formula `name` in the interpreter.
fn formula(name: &str, args: Vec<Value>) -> Value {
    support::formula(&program(), name, args)
}

/// Runs `name` in both backends with the same script: `args` are the interpreter's
/// arguments (changed in place, for the caller to compare), `gen` the generated call.
fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), d20::SITES, name, faces, answers, args, gen)
}

/// Asserts the interpreter left a combatant in the state the generated code did.
fn same_state(name: &str, interpreted: &Value, generated: &d20::Combatant) {
    assert!(
        *interpreted == combatant_value(generated),
        "`{name}`: the backends leave the combatant in different states: {generated:?}"
    );
}

// ---------------------------------------------------------------------------------------
// The ruleset's procedures and formulas, each through both backends

fn attack(
    attacker: &mut d20::Combatant,
    defender: &mut d20::Combatant,
    faces: &[u32],
    answers: &[Answer],
) -> Run<d20::AttackResult> {
    let answers = &offered(defender, answers);
    let args = [combatant_value(attacker), combatant_value(defender)];
    let run = both("attack", faces, answers, &args, |e| {
        d20::attack(e, attacker, defender).unwrap()
    });
    same_state("attack", &args[0], attacker);
    same_state("attack", &args[1], defender);
    run
}

fn combined_attack(
    attacker: &mut d20::Combatant,
    defender: &mut d20::Combatant,
    dc: i64,
    faces: &[u32],
    answers: &[Answer],
) -> Run<d20::AttackResult> {
    let answers = &offered(defender, answers);
    let args = [
        combatant_value(attacker),
        combatant_value(defender),
        Value::Int(dc),
    ];
    let run = both("combined_attack", faces, answers, &args, |e| {
        d20::combined_attack(e, attacker, defender, dc).unwrap()
    });
    same_state("combined_attack", &args[0], attacker);
    same_state("combined_attack", &args[1], defender);
    run
}

fn assist(
    helper: &mut d20::Combatant,
    assisted: &mut d20::Combatant,
    answers: &[Answer],
) -> d20::Assistance {
    let args = [combatant_value(helper), combatant_value(assisted)];
    let run = both("assist", &[], answers, &args, |e| {
        d20::assist(e, helper, assisted)
    });
    same_state("assist", &args[0], helper);
    same_state("assist", &args[1], assisted);
    run.result
}

fn start_round(c: &mut d20::Combatant) {
    let args = [combatant_value(c)];
    both("start_round", &[], &[], &args, |e| d20::start_round(e, c));
    same_state("start_round", &args[0], c);
}

fn roll_initiative(c: &mut d20::Combatant, participants: i64, faces: &[u32]) -> Run<i64> {
    let args = [combatant_value(c), Value::Int(participants)];
    let run = both("roll_initiative", faces, &[], &args, |e| {
        d20::roll_initiative(e, c, participants)
    });
    same_state("roll_initiative", &args[0], c);
    run
}

fn break_tie(
    tied: &[d20::Combatant],
    participants: i64,
    faces: &[u32],
    answers: &[Answer],
) -> Run<Vec<i64>> {
    let args = [
        list(tied.iter().map(combatant_value)),
        Value::Int(participants),
    ];
    both("break_tie", faces, answers, &args, |e| {
        Vec::from(d20::break_tie(e, tied, participants).unwrap())
    })
}

fn don_armor(c: &mut d20::Combatant, suit: &d20::ArmorSet) {
    let args = [combatant_value(c), suit_value(suit)];
    both("don_armor", &[], &[], &args, |e| d20::don_armor(e, c, suit));
    same_state("don_armor", &args[0], c);
}

fn take_up_shield(c: &mut d20::Combatant, kind: d20::ShieldKind) {
    let args = [combatant_value(c), choice(kind as u16)];
    both("take_up_shield", &[], &[], &args, |e| {
        d20::take_up_shield(e, c, kind)
    });
    same_state("take_up_shield", &args[0], c);
}

fn total_ac(c: &d20::Combatant) -> i64 {
    let generated = d20::total_ac(c);
    assert_eq!(
        formula("total_ac", vec![combatant_value(c)]).int(),
        generated,
        "`total_ac`: the backends differ"
    );
    generated
}

fn suit_ac(s: &d20::ArmorSet) -> i64 {
    let generated = d20::suit_ac(s);
    assert_eq!(
        formula("suit_ac", vec![suit_value(s)]).int(),
        generated,
        "`suit_ac`: the backends differ"
    );
    generated
}

fn ability_modifier(score: i64) -> i64 {
    let generated = d20::ability_modifier(score);
    assert_eq!(
        formula("ability_modifier", vec![Value::Int(score)]).int(),
        generated,
        "`ability_modifier`: the backends differ"
    );
    generated
}

fn reactions(c: &d20::Combatant) -> Vec<d20::Reaction> {
    let generated = d20::reactions(c);
    let interpreted = formula("reactions", vec![combatant_value(c)]);
    assert_eq!(
        interpreted,
        list(generated.iter().map(|r| choice(*r as u16))),
        "`reactions`: the backends differ"
    );
    generated.to_vec()
}

// ---------------------------------------------------------------------------------------
// Building combatants

fn fighter(strength: i64, dexterity: i64, weapon: d20::Weapon) -> d20::Combatant {
    d20::Combatant {
        abilities: [strength, dexterity],
        skills: [0; 3],
        hp: 20,
        weapon,
        armor: Vec::new(),
        shield: d20::ShieldKind::NoShield,
        shield_hp: 0,
        initiative: 0,
        tie_break: 0,
        conditions: Vec::new(),
        assist_bonus: 0,
        assistance_this_round: 0,
        gave_up_action: false,
    }
}

/// The book's Longsword fighter: Strength 4 (+2), Longsword +2: 1D20 + 4.
fn swordsman() -> d20::Combatant {
    fighter(4, 0, d20::Weapon::longsword())
}

/// A defender with no modifiers, 20 HP, a dagger in hand and no armor.
fn target() -> d20::Combatant {
    fighter(0, 0, d20::Weapon::dagger())
}

fn with_skill(mut c: d20::Combatant, skill: d20::Skill, modifier: i64) -> d20::Combatant {
    c.skills[skill as usize] = modifier;
    c
}

fn wearing(mut c: d20::Combatant, suit: d20::ArmorSet) -> d20::Combatant {
    c.armor = suit.pieces;
    c
}

fn with_shield(mut c: d20::Combatant, kind: d20::ShieldKind, hp: i64) -> d20::Combatant {
    c.shield = kind;
    c.shield_hp = hp;
    c
}

/// The armor HP left on `slot` (every piece there).
fn armor_hp(c: &d20::Combatant, slot: d20::ArmorSlot) -> i64 {
    c.armor
        .iter()
        .filter(|p| p.slot == slot)
        .map(|p| p.hp)
        .sum()
}

fn hit(slot: d20::ArmorSlot, damage: i64, to_armor: i64, to_hp: i64) -> d20::AttackResult {
    Hit {
        slot,
        damage,
        to_armor,
        to_hp,
    }
}

fn critical(slot: d20::ArmorSlot, damage: i64, to_armor: i64, to_hp: i64) -> d20::AttackResult {
    CriticalHit {
        slot,
        damage,
        to_armor,
        to_hp,
    }
}

fn d(count: u32, sides: u32) -> DiceSpec {
    DiceSpec::new(count, sides)
}

// ---------------------------------------------------------------------------------------
// D1 Initiative 1D6 with 6 or fewer participants, 1D10 with more; ties decided by the DM
// or rerolled.

#[test]
fn d1_six_or_fewer_participants_roll_one_d6() {
    for participants in [2, 5, 6] {
        let mut c = target();
        let run = roll_initiative(&mut c, participants, &[6]);
        assert_eq!(run.result, 6, "{}", run.text());
        assert_eq!(run.rolls(), [("d6".to_string(), vec![6], 6)]);
        assert_eq!(c.initiative, 6);
    }
}

#[test]
fn d1_more_than_six_participants_roll_one_d10() {
    for participants in [7, 12] {
        let mut c = target();
        let run = roll_initiative(&mut c, participants, &[9]);
        assert_eq!(run.result, 9, "{}", run.text());
        assert_eq!(run.rolls(), [("d10".to_string(), vec![9], 9)]);
        assert_eq!(c.initiative, 9);
    }
}

#[test]
fn d1_highest_initiative_acts_first() {
    // "1 = slowest, 6 = fastest".
    let mut order = Vec::new();
    for face in [2, 6, 4] {
        let mut c = target();
        roll_initiative(&mut c, 3, &[face]);
        order.push(vec![c.initiative]);
    }
    let mut turns = TurnOrder::new(order);
    let taken: Vec<Vec<usize>> = std::iter::from_fn(|| turns.next_turn()).collect();
    assert_eq!(taken, [vec![1], vec![2], vec![0]]);
}

#[test]
fn d1_a_tie_is_rerolled_when_the_dm_says_so() {
    // Three participants: two roll 4, one rolls 3. The DM has them reroll: 2 and 5 (on the
    // d6 again). The rerolls order the tied two among themselves only: the one who rolled
    // 3 still acts last.
    let mut cs = [target(), target(), target()];
    for (c, face) in cs.iter_mut().zip([4, 4, 3]) {
        roll_initiative(c, 3, &[face]);
    }
    let run = break_tie(
        &cs[..2],
        3,
        &[2, 5],
        &[("tie_break", d20::TieBreak::Reroll as u32)],
    );
    assert_eq!(run.result, [2, 5], "{}", run.text());
    assert_eq!(run.decided(), ["reroll"]);
    assert_eq!(
        run.rolls(),
        [
            ("d6".to_string(), vec![2], 2),
            ("d6".to_string(), vec![5], 5)
        ]
    );
    let keys = vec![
        vec![cs[0].initiative, run.result[0]],
        vec![cs[1].initiative, run.result[1]],
        vec![cs[2].initiative],
    ];
    let mut turns = TurnOrder::new(keys);
    let taken: Vec<Vec<usize>> = std::iter::from_fn(|| turns.next_turn()).collect();
    assert_eq!(taken, [vec![1], vec![0], vec![2]]);
}

#[test]
fn d1_a_reroll_uses_the_d10_with_more_than_six_participants() {
    let tied = [target(), target()];
    let run = break_tie(
        &tied,
        8,
        &[9, 10],
        &[("tie_break", d20::TieBreak::Reroll as u32)],
    );
    assert_eq!(run.result, [9, 10]);
    assert!(run.rolls().iter().all(|(dice, _, _)| dice == "d10"));
}

#[test]
fn d1_a_tied_reroll_is_settled_the_same_way_again() {
    // The rerolls tie again (3 and 3): still tied, and a second break appends another
    // tie-break that decides.
    let tied = [target(), target()];
    let reroll = [("tie_break", d20::TieBreak::Reroll as u32)];
    let first = break_tie(&tied, 2, &[3, 3], &reroll);
    assert_eq!(first.result, [3, 3]);
    let second = break_tie(&tied, 2, &[1, 6], &reroll);
    let keys = vec![
        vec![4, first.result[0], second.result[0]],
        vec![4, first.result[1], second.result[1]],
    ];
    let mut turns = TurnOrder::new(keys);
    assert_eq!(turns.next_turn(), Some(vec![1]));
    assert_eq!(turns.next_turn(), Some(vec![0]));
}

#[test]
fn d1_the_dm_decides_a_tie_by_placing_the_tied() {
    // Three tied; the DM places them second, third and first (answers are positions in
    // the places offered, [1, 2, 3]). The tie-breaks rank them in that order; no die is
    // rolled.
    let tied = [target(), target(), target()];
    let run = break_tie(
        &tied,
        3,
        &[],
        &[
            ("tie_break", d20::TieBreak::DmDecides as u32),
            ("dm_tie_place", 1),
            ("dm_tie_place", 2),
            ("dm_tie_place", 0),
        ],
    );
    assert_eq!(run.decided(), ["DM decides", "2", "3", "1"]);
    assert_eq!(run.result, [2, 1, 3], "{}", run.text());
    let keys = run.result.iter().map(|t| vec![5, *t]).collect();
    let mut turns = TurnOrder::new(keys);
    let taken: Vec<Vec<usize>> = std::iter::from_fn(|| turns.next_turn()).collect();
    assert_eq!(taken, [vec![2], vec![0], vec![1]]);
}

// ---------------------------------------------------------------------------------------
// D2 Opposed 1D20 + attack bonus vs 1D20 + defense; attacker must win (tie misses);
// natural 20 critical; natural 1 auto-miss.

#[test]
fn d2_the_attacker_wins_with_a_higher_total() {
    // 1D20 + 4 = 11 + 4 = 15 against a Dodge of 14 + 0: a hit for full damage.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[11, 14, 6], &[react(Dodge), slot(Chest)]);
    assert_eq!(run.result, hit(Chest, 6, 0, 6), "{}", run.text());
    assert_eq!(run.assigned("let attack ="), ["15"]);
    assert_eq!(run.assigned("let defence_roll ="), ["14"]);
    assert_eq!(t.hp, 14);
}

#[test]
fn d2_a_tie_misses() {
    // 11 + 4 = 15 against a Dodge of 15: "Tie or Defender wins = Miss (no damage)".
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[11, 15], &[react(Dodge)]);
    assert_eq!(run.result, Miss, "{}", run.text());
    assert_eq!(t, target(), "no damage");
}

#[test]
fn d2_the_defender_winning_misses() {
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[11, 18], &[react(Parry)]);
    assert_eq!(run.result, Miss, "{}", run.text());
    assert_eq!(t, target());
}

#[test]
fn d2_natural_1_misses_regardless_of_total() {
    // Strength 40 (+20) makes the total 1 + 22 = 23, yet a natural 1 misses; no reaction
    // is asked and no other die is rolled.
    let mut a = fighter(40, 0, d20::Weapon::longsword());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[1], &[]);
    assert_eq!(run.result, AutoMiss, "{}", run.text());
    assert_eq!(run.assigned("let attack ="), ["23"]);
    assert_eq!(t, target());
}

#[test]
fn d2_natural_20_is_a_critical_hit_with_double_damage_dice() {
    // A natural 20 with the Longsword: 2D10 instead of 1D10.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[20, 5, 3, 4], &[react(Dodge), slot(Legs)]);
    assert_eq!(run.rolls()[2], ("2d10".to_string(), vec![3, 4], 7));
    // No armor on the Legs: all 7 reach Character HP.
    assert_eq!(run.result, critical(Legs, 7, 0, 7), "{}", run.text());
}

#[test]
fn d2_natural_20_hits_even_below_the_defence_total() {
    // assumption: like the natural 1, a natural 20 holds regardless of the totals. A
    // Dagger (+1) in the hand of Dexterity 0: 20 + 1 = 21 against a Dodge of 19 + 5 = 24
    // still lands as a Critical Hit, 2D4 = 2 + 3.
    let mut a = fighter(0, 0, d20::Weapon::dagger());
    let mut t = with_skill(target(), d20::Skill::Acrobatics, 5);
    let run = attack(&mut a, &mut t, &[20, 19, 2, 3], &[react(Dodge), slot(Head)]);
    assert_eq!(run.assigned("let attack ="), ["21"]);
    assert_eq!(run.assigned("let defence_roll ="), ["24"]);
    assert_eq!(run.result, critical(Head, 5, 0, 5), "{}", run.text());
}

// ---------------------------------------------------------------------------------------
// D3 Ability by weapon (Strength / Dexterity / player's choice); modifier from score
// (Strength 4 gives +2).

#[test]
fn d3_strength_4_and_a_longsword_roll_1d20_plus_4() {
    // "Strength 4 = +2 modifier, Longsword Attack Bonus +2, Roll: 1D20 + 4".
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(&mut a, &mut t, &[7, 19], &[react(Dodge)]);
    assert_eq!(run.assigned("let ability ="), ["Strength"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["4"]);
    assert_eq!(run.assigned("let attack ="), ["11"]);
    assert_eq!(run.result, Miss, "11 against 19");
}

#[test]
fn d3_the_modifier_is_half_the_score() {
    // assumption: only "Strength 4 = +2" is given; half the score, rounded toward zero.
    for (score, modifier) in [
        (0, 0),
        (1, 0),
        (2, 1),
        (3, 1),
        (4, 2),
        (5, 2),
        (6, 3),
        (10, 5),
    ] {
        assert_eq!(ability_modifier(score), modifier, "score {score}");
    }
}

#[test]
fn d3_strength_weapons_use_strength() {
    // Greatsword (Strength, +1): Strength 6 (+3), Dexterity 10 ignored: 1D20 + 4.
    for w in [
        d20::Weapon::longsword(),
        d20::Weapon::greatsword(),
        d20::Weapon::spear(),
        d20::Weapon::heavy_crossbow(),
    ] {
        assert_eq!(w.ability, d20::WeaponAbility::StrengthWeapon);
    }
    let mut a = fighter(6, 10, d20::Weapon::greatsword());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[10, 19], &[react(Dodge)]);
    assert_eq!(run.assigned("let ability ="), ["Strength"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["4"]);
}

#[test]
fn d3_dexterity_weapons_use_dexterity() {
    // Rapier (Dexterity, +2): Dexterity 6 (+3), Strength 10 ignored: 1D20 + 5.
    for w in [
        d20::Weapon::dagger(),
        d20::Weapon::rapier(),
        d20::Weapon::shortbow(),
    ] {
        assert_eq!(w.ability, d20::WeaponAbility::DexterityWeapon);
    }
    let mut a = fighter(10, 6, d20::Weapon::rapier());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[10, 19], &[react(Dodge)]);
    assert_eq!(run.assigned("let ability ="), ["Dexterity"]);
    assert_eq!(run.assigned("let attack_bonus ="), ["5"]);
}

#[test]
fn d3_the_katana_is_the_players_choice() {
    // Katana (+2), Strength 8 (+4), Dexterity 2 (+1): the player picks.
    for (pick, bonus) in [
        (d20::Ability::Strength, "6"),
        (d20::Ability::Dexterity, "3"),
    ] {
        let mut a = fighter(8, 2, d20::Weapon::katana());
        let mut t = target();
        let run = attack(
            &mut a,
            &mut t,
            &[10, 19],
            &[ability_choice(pick), react(Dodge)],
        );
        assert_eq!(
            run.assigned("let attack_bonus ="),
            [bonus],
            "{}",
            run.text()
        );
    }
}

#[test]
fn d3_parry_uses_the_defenders_weapon_and_its_ability() {
    // Parry: "1D20 + Weapon Attack Bonus + Attribute modifier": a Rapier (+2) in the hand
    // of a Dexterity 6 (+3), Strength 10 defender: 10 + 5 = 15.
    let (mut a, mut t) = (swordsman(), fighter(10, 6, d20::Weapon::rapier()));
    let run = attack(&mut a, &mut t, &[10, 10], &[react(Parry)]);
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(run.result, Miss, "14 against 15");
}

// ---------------------------------------------------------------------------------------
// D4 Reactions Dodge, Parry, Block (beat Shield Block AC: Small 10, Wooden 13, Spiked 14,
// Metal 15, Tower 20; shield HP absorbs), Take Hit (win: minimal damage; fail: full
// damage plus stun/knockback).

#[test]
fn d4_dodge_is_1d20_plus_acrobatics_and_a_win_avoids_the_attack() {
    let (mut a, mut t) = (swordsman(), with_skill(target(), d20::Skill::Acrobatics, 3));
    let t0 = t.clone();
    let run = attack(&mut a, &mut t, &[10, 12], &[react(Dodge)]);
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(run.result, Miss, "{}", run.text());
    assert_eq!(t, t0, "Avoid the attack completely");
}

#[test]
fn d4_a_failed_dodge_puts_full_damage_on_the_slot_the_dm_picks() {
    let (mut a, mut t) = (swordsman(), wearing(target(), d20::ArmorSet::full_plate()));
    let run = attack(
        &mut a,
        &mut t,
        &[10, 2, 9],
        &[react(Dodge), slot(Shoulders)],
    );
    // Plate pauldrons, 15 armor HP: all 9 go to them.
    assert_eq!(run.result, hit(Shoulders, 9, 9, 0), "{}", run.text());
    assert_eq!(armor_hp(&t, Shoulders), 6);
    assert_eq!(t.hp, 20);
}

#[test]
fn d4_a_parry_win_is_no_damage_and_a_failed_parry_is_full_damage() {
    let (mut a, mut t) = (swordsman(), swordsman());
    let run = attack(&mut a, &mut t, &[10, 11], &[react(Parry)]);
    assert_eq!(run.result, Miss, "14 against 15: {}", run.text());
    assert_eq!(t, swordsman());
    let run = attack(&mut a, &mut t, &[10, 9, 10], &[react(Parry), slot(Hands)]);
    assert_eq!(
        run.result,
        hit(Hands, 10, 0, 10),
        "14 against 13: {}",
        run.text()
    );
    assert_eq!(t.hp, 10);
}

#[test]
fn d4_block_is_offered_only_with_a_shield() {
    assert_eq!(reactions(&target()), [Dodge, Parry, TakeHit, NoReaction]);
    let shielded = with_shield(target(), d20::ShieldKind::Small, 6);
    assert_eq!(
        reactions(&shielded),
        [Dodge, Parry, Block, TakeHit, NoReaction]
    );
    // assumption: a broken shield (0 HP) cannot Block.
    let broken = with_shield(target(), d20::ShieldKind::Tower, 0);
    assert_eq!(reactions(&broken), [Dodge, Parry, TakeHit, NoReaction]);
}

#[test]
fn d4_the_attacker_must_beat_the_shield_block_ac() {
    // "Small 10, Wooden 13, Spiked 14, Metal 15, Tower 20". A 1D20 + 7 attacker (Strength
    // 10: +5, Longsword +2) equal to the AC is blocked; one more hits.
    use d20::ShieldKind::{Metal, Small, Spiked, Tower, Wooden};
    for (kind, ac) in [
        (Small, 10),
        (Wooden, 13),
        (Spiked, 14),
        (Metal, 15),
        (Tower, 20),
    ] {
        let mut a = fighter(10, 0, d20::Weapon::longsword());
        let face = ac as u32 - 7;
        let mut t = with_shield(target(), kind, 30);
        let run = attack(&mut a, &mut t, &[face, 3], &[react(Block)]);
        assert_eq!(run.assigned("defence = shield_block_ac"), [ac.to_string()]);
        assert_eq!(
            run.result,
            Blocked {
                damage: 3,
                to_shield: 3,
                to_hp: 0
            },
            "{kind}: {}",
            run.text()
        );
        let mut t = with_shield(target(), kind, 30);
        let answers = [react(Block), slot(Chest)];
        let run = attack(&mut a, &mut t, &[face + 1, 3], &answers);
        assert_eq!(run.result, hit(Chest, 3, 0, 3), "{kind}: {}", run.text());
        assert_eq!(t.shield_hp, 30, "a hit does not touch the shield");
    }
}

#[test]
fn d4_a_won_block_puts_the_damage_into_the_shield_hp() {
    let (mut a, mut t) = (
        swordsman(),
        with_shield(target(), d20::ShieldKind::Wooden, 10),
    );
    let run = attack(&mut a, &mut t, &[9, 6], &[react(Block)]);
    assert_eq!(
        run.result,
        Blocked {
            damage: 6,
            to_shield: 6,
            to_hp: 0
        },
        "{}",
        run.text()
    );
    assert_eq!((t.shield_hp, t.hp), (4, 20));
    // assumption: what a breaking shield cannot take goes to Character HP.
    let run = attack(&mut a, &mut t, &[9, 7], &[react(Block)]);
    assert_eq!(
        run.result,
        Blocked {
            damage: 7,
            to_shield: 4,
            to_hp: 3
        }
    );
    assert_eq!((t.shield_hp, t.hp), (0, 17));
    // Broken, the shield is no longer offered.
    assert!(!reactions(&t).contains(&Block));
}

#[test]
fn d4_a_failed_block_puts_full_damage_on_the_picked_slot() {
    let mut a = swordsman();
    let mut t = wearing(
        with_shield(target(), d20::ShieldKind::Small, 6),
        d20::ArmorSet::full_leather(),
    );
    let run = attack(&mut a, &mut t, &[7, 5], &[react(Block), slot(Chest)]);
    assert_eq!(
        run.result,
        hit(Chest, 5, 5, 0),
        "11 beats 10: {}",
        run.text()
    );
    assert_eq!((t.shield_hp, armor_hp(&t, Chest)), (6, 3));
}

#[test]
fn d4_a_won_take_hit_costs_minimal_damage_to_the_armor() {
    // Take Hit on 1D20 + Toughness 2: 13 + 2 = 15 against 10 + 4 = 14: won. assumption:
    // minimal damage is 1 point, to the slot the DM picks; no damage is rolled.
    let mut a = swordsman();
    let mut t = wearing(
        with_skill(target(), d20::Skill::Toughness, 2),
        d20::ArmorSet::full_chain(),
    );
    let run = attack(
        &mut a,
        &mut t,
        &[10, 13],
        &[
            react(TakeHit),
            take_hit_on(d20::TakeHitDefence::ToughnessRoll),
            slot(Head),
        ],
    );
    assert_eq!(run.assigned("let defence_roll ="), ["15"]);
    assert_eq!(
        run.result,
        Absorbed {
            slot: Head,
            damage: 1,
            to_armor: 1,
            to_hp: 0
        },
        "{}",
        run.text()
    );
    assert_eq!((armor_hp(&t, Head), t.hp), (7, 20));
    assert!(t.conditions.is_empty());
    // Unarmored, the minimal damage reaches Character HP.
    let mut bare = with_skill(target(), d20::Skill::Toughness, 2);
    let run = attack(
        &mut a,
        &mut bare,
        &[10, 13],
        &[
            react(TakeHit),
            take_hit_on(d20::TakeHitDefence::ToughnessRoll),
            slot(Head),
        ],
    );
    assert_eq!(
        run.result,
        Absorbed {
            slot: Head,
            damage: 1,
            to_armor: 0,
            to_hp: 1
        }
    );
    assert_eq!(bare.hp, 19);
}

#[test]
fn d4_a_failed_take_hit_is_full_damage_plus_stun_or_knockback() {
    for condition in [d20::Condition::Stunned, d20::Condition::KnockedBack] {
        let mut a = swordsman();
        let mut t = wearing(target(), d20::ArmorSet::full_leather());
        let run = attack(
            &mut a,
            &mut t,
            &[10, 9, 8],
            &[
                react(TakeHit),
                take_hit_on(d20::TakeHitDefence::ToughnessRoll),
                effect(condition),
                slot(Legs),
            ],
        );
        // Leather leggings, 6 HP: 6 to armor, 2 to HP.
        assert_eq!(run.result, hit(Legs, 8, 6, 2), "{}", run.text());
        assert_eq!(t.conditions, [condition]);
    }
}

#[test]
fn d4_take_hit_on_armor_ac_stands_on_total_ac() {
    // assumption: "(or Armor AC)": no roll; the attacker must beat Total AC (Full Plate 17).
    let mut a = swordsman();
    let mut t = wearing(target(), d20::ArmorSet::full_plate());
    let answers = [
        react(TakeHit),
        take_hit_on(d20::TakeHitDefence::ArmorAc),
        slot(Chest),
    ];
    let run = attack(&mut a, &mut t, &[13], &answers);
    assert_eq!(run.assigned("defence = total_ac"), ["17"]);
    assert_eq!(
        run.result,
        Absorbed {
            slot: Chest,
            damage: 1,
            to_armor: 1,
            to_hp: 0
        },
        "17 against 17: {}",
        run.text()
    );
    let answers = [
        react(TakeHit),
        take_hit_on(d20::TakeHitDefence::ArmorAc),
        effect(d20::Condition::KnockedBack),
        slot(Chest),
    ];
    let run = attack(&mut a, &mut t, &[14, 4], &answers);
    assert_eq!(
        run.result,
        hit(Chest, 4, 4, 0),
        "18 against 17: {}",
        run.text()
    );
    assert_eq!(t.conditions, [d20::Condition::KnockedBack]);
}

#[test]
fn d4_no_reaction_means_beating_total_ac() {
    // assumption: "you may choose": with none, the passive Total AC (Full Leather 13).
    let mut a = swordsman();
    let mut t = wearing(target(), d20::ArmorSet::full_leather());
    let run = attack(&mut a, &mut t, &[9], &[react(NoReaction)]);
    assert_eq!(run.result, Miss, "13 against 13: {}", run.text());
    let run = attack(&mut a, &mut t, &[10, 2], &[react(NoReaction), slot(Hands)]);
    assert_eq!(
        run.result,
        hit(Hands, 2, 2, 0),
        "14 against 13: {}",
        run.text()
    );
}

#[test]
fn d4_a_shield_taken_up_starts_at_its_hp() {
    // assumption: shield HP Small 6, Wooden 10, Spiked 12, Metal 16, Tower 24.
    use d20::ShieldKind::{Metal, Small, Spiked, Tower, Wooden};
    for (kind, hp) in [
        (Small, 6),
        (Wooden, 10),
        (Spiked, 12),
        (Metal, 16),
        (Tower, 24),
    ] {
        let mut c = target();
        take_up_shield(&mut c, kind);
        assert_eq!((c.shield, c.shield_hp), (kind, hp));
    }
}

// ---------------------------------------------------------------------------------------
// D5 Natural 20 on defence reflects 50% of the attacker's damage.

#[test]
fn d5_a_natural_20_defence_reflects_half_the_damage() {
    // The perfect_defence scenario: Rapier 14 + 5 = 19 against a natural 20 Parry; the
    // Rapier's 1D8 = 7, halved to 3 (rounded down), lands on the attacker's Hands, where
    // the leather gloves' 3 armor HP take it. The defender takes nothing.
    let mut a = wearing(
        fighter(0, 6, d20::Weapon::rapier()),
        d20::ArmorSet::full_leather(),
    );
    a.hp = 14;
    let mut t = fighter(4, 0, d20::Weapon::longsword());
    t.hp = 18;
    let t0 = t.clone();
    let run = attack(
        &mut a,
        &mut t,
        &[14, 20, 7],
        &[react(Parry), reflected_slot(Hands)],
    );
    assert_eq!(
        run.result,
        PerfectDefence {
            reflected: 3,
            slot: Hands,
            to_armor: 3,
            to_hp: 0
        },
        "{}",
        run.text()
    );
    assert_eq!(armor_hp(&a, Hands), 0);
    assert_eq!(a.hp, 14);
    assert_eq!(t, t0);
}

#[test]
fn d5_a_perfect_defence_wins_against_a_higher_total() {
    // 18 + 4 = 22 against a natural 20 Dodge with Acrobatics -3 (17): still perfect. The
    // unarmored attacker takes half of 1D10 = 9, rounded down: 4.
    let (mut a, mut t) = (
        swordsman(),
        with_skill(target(), d20::Skill::Acrobatics, -3),
    );
    let t0 = t.clone();
    let run = attack(
        &mut a,
        &mut t,
        &[18, 20, 9],
        &[react(Dodge), reflected_slot(Chest)],
    );
    assert_eq!(
        run.result,
        PerfectDefence {
            reflected: 4,
            slot: Chest,
            to_armor: 0,
            to_hp: 4
        },
        "{}",
        run.text()
    );
    assert_eq!(a.hp, 16);
    assert_eq!(t, t0);
}

#[test]
fn d5_a_natural_20_against_a_critical_reflects_half_the_doubled_dice() {
    // Both natural 20: a tie, which misses; the attacker's doubled 2D10 = 10 + 7 = 17
    // would have landed: 8 come back.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(
        &mut a,
        &mut t,
        &[20, 20, 10, 7],
        &[
            react(TakeHit),
            take_hit_on(d20::TakeHitDefence::ToughnessRoll),
            reflected_slot(Legs),
        ],
    );
    assert_eq!(run.rolls()[2].0, "2d10");
    assert_eq!(
        run.result,
        PerfectDefence {
            reflected: 8,
            slot: Legs,
            to_armor: 0,
            to_hp: 8
        },
        "{}",
        run.text()
    );
    assert_eq!(t.hp, 20);
}

// ---------------------------------------------------------------------------------------
// D6 Damage goes to the picked slot's armor HP (Head, Shoulders, Chest, Hands, Legs),
// overflow to character HP; no armor means all to HP; critical: double dice, half to
// armor, half to HP (Longsword 2D10 = 14 gives 7 and 7).

/// The D6x story, told to one backend: the Longsword fighter of 4.2 rolls a natural 20
/// against a defender in Full Chain who does not react; 2D10 = 8 + 6 = 14; the DM picks
/// the Chest. Returns the printed result, the defender's Chest armor HP and Character HP.
trait Backend {
    fn critical_longsword(&self) -> (String, i64, i64);
}

fn worked_example_defender() -> d20::Combatant {
    wearing(target(), d20::ArmorSet::full_chain())
}

const D6X_DICE: [u32; 3] = [20, 8, 6];

struct Generated;
impl Backend for Generated {
    fn critical_longsword(&self) -> (String, i64, i64) {
        let mut a = swordsman();
        let mut t = worked_example_defender();
        let answers = offered(&t, &[react(NoReaction), slot(Chest)]);
        let (r, _) = scripted(&D6X_DICE, &answers, |e| {
            d20::attack(e, &mut a, &mut t).unwrap()
        });
        (r.to_string(), armor_hp(&t, Chest), t.hp)
    }
}

struct Interpreted;
impl Backend for Interpreted {
    fn critical_longsword(&self) -> (String, i64, i64) {
        let t = worked_example_defender();
        let answers = offered(&t, &[react(NoReaction), slot(Chest)]);
        let defender = combatant_value(&t);
        let (_, shown, _) = support::interpret(
            &program(),
            d20::SITES,
            "attack",
            &D6X_DICE,
            &answers,
            vec![combatant_value(&swordsman()), defender.clone()],
        );
        let p = program();
        let hp = eval::field(&p, "Combatant", &defender, "hp").unwrap().int();
        let Some(Value::List(armor)) = eval::field(&p, "Combatant", &defender, "armor") else {
            panic!("armor")
        };
        let chest: i64 = armor
            .iter()
            .filter(|piece| {
                eval::field(&p, "ArmorPiece", piece, "slot") == Some(choice(Chest as u16))
            })
            .map(|piece| eval::field(&p, "ArmorPiece", piece, "hp").unwrap().int())
            .sum();
        (shown, chest, hp)
    }
}

#[test]
fn d6x_nat_20_longsword_2d10_14_gives_7_to_armor_and_7_to_hp() {
    // "Example: Nat 20 with Longsword = 2D10 = 14 dmg -> 7 to Armor HP, 7 to Character HP".
    // The chain hauberk's 15 armor HP fall to 8; Character HP from 20 to 13.
    for (name, backend) in [
        ("generated", &Generated as &dyn Backend),
        ("interpreter", &Interpreted),
    ] {
        assert_eq!(
            backend.critical_longsword(),
            (
                "CriticalHit(slot: Chest, damage: 14, to_armor: 7, to_hp: 7)".to_string(),
                8,
                13
            ),
            "{name}"
        );
    }
    // And through both at once, trace for trace.
    let (mut a, mut t) = (swordsman(), worked_example_defender());
    let answers = [react(NoReaction), slot(Chest)];
    let run = attack(&mut a, &mut t, &D6X_DICE, &answers);
    assert_eq!(run.rolls()[1], ("2d10".to_string(), vec![8, 6], 14));
    assert_eq!(run.assigned("let attack ="), ["24"]);
    assert_eq!(run.assigned("let armor_half ="), ["7"]);
    assert_eq!(run.assigned("let direct ="), ["7"]);
}

#[test]
fn d6x_the_scenario_replays_the_book() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let trace = rulesc::scenario::run_file(
        &program(),
        &root.join("examples/d20-armor-slots/critical_longsword.yaml"),
        0,
    )
    .unwrap_or_else(|_| panic!("the scenario does not load"));
    assert!(!trace.contains("note:"), "{trace}");
    assert!(trace.contains("roll d20: 20\n"), "{trace}");
    assert!(trace.contains("roll 2d10: 8 + 6 = 14\n"), "{trace}");
    assert!(
        trace.ends_with("result: CriticalHit(slot: Chest, damage: 14, to_armor: 7, to_hp: 7)\n"),
        "{trace}"
    );
}

#[test]
fn d6_all_damage_goes_to_the_slot_armor_first() {
    let (mut a, mut t) = (swordsman(), wearing(target(), d20::ArmorSet::full_chain()));
    let run = attack(&mut a, &mut t, &[15, 1, 10], &[react(Dodge), slot(Legs)]);
    assert_eq!(run.result, hit(Legs, 10, 10, 0), "{}", run.text());
    assert_eq!(armor_hp(&t, Legs), 2);
    // Only the picked slot's piece changed.
    let mut expected = d20::ArmorSet::full_chain().pieces;
    expected[4].hp = 2;
    assert_eq!(t.armor, expected);
    assert_eq!(t.hp, 20);
}

#[test]
fn d6_armor_reaching_0_breaks_and_the_excess_goes_to_character_hp() {
    // The longsword_attack scenario: 11 + 4 = 15 against a Dodge of 9 + 1; 1D10 = 7 on the
    // leather pauldrons (5 HP): 5 to armor (broken), 2 to Character HP.
    let mut a = swordsman();
    let mut t = wearing(
        with_skill(target(), d20::Skill::Acrobatics, 1),
        d20::ArmorSet::full_leather(),
    );
    t.hp = 12;
    let run = attack(
        &mut a,
        &mut t,
        &[11, 9, 7],
        &[react(Dodge), slot(Shoulders)],
    );
    assert_eq!(run.result, hit(Shoulders, 7, 5, 2), "{}", run.text());
    assert_eq!((armor_hp(&t, Shoulders), t.hp), (0, 10));
    // A broken piece takes nothing more: the next blow goes straight to Character HP.
    let run = attack(
        &mut a,
        &mut t,
        &[11, 9, 3],
        &[react(Dodge), slot(Shoulders)],
    );
    assert_eq!(run.result, hit(Shoulders, 3, 0, 3));
    assert_eq!(t.hp, 7);
}

#[test]
fn d6_no_armor_on_the_slot_means_all_damage_to_character_hp() {
    // Only a leather jerkin: the Head is bare.
    let mut t = target();
    t.armor = vec![d20::ArmorPiece::leather_jerkin()];
    let mut a = swordsman();
    let run = attack(&mut a, &mut t, &[15, 1, 6], &[react(Dodge), slot(Head)]);
    assert_eq!(run.result, hit(Head, 6, 0, 6), "{}", run.text());
    assert_eq!((t.hp, t.armor[0].hp), (14, 8));
}

#[test]
fn d6_a_critical_sends_half_to_armor_and_half_to_character_hp() {
    // assumption: an odd total gives the extra point to Character HP: 2D10 = 9 + 6 = 15:
    // 7 to the plate cuirass, 8 to HP.
    let (mut a, mut t) = (swordsman(), wearing(target(), d20::ArmorSet::full_plate()));
    let run = attack(
        &mut a,
        &mut t,
        &[20, 9, 6],
        &[react(NoReaction), slot(Chest)],
    );
    assert_eq!(run.result, critical(Chest, 15, 7, 8), "{}", run.text());
    assert_eq!((armor_hp(&t, Chest), t.hp), (13, 12));
}

#[test]
fn d6_a_critical_half_that_breaks_the_armor_flows_on_to_hp() {
    // 2D10 = 10 + 10 = 20: 10 meant for the leather gloves (3 HP): 3 there, 7 more to HP,
    // with the direct 10: 17 to Character HP.
    let (mut a, mut t) = (
        swordsman(),
        wearing(target(), d20::ArmorSet::full_leather()),
    );
    let run = attack(
        &mut a,
        &mut t,
        &[20, 10, 10],
        &[react(NoReaction), slot(Hands)],
    );
    assert_eq!(run.result, critical(Hands, 20, 3, 17), "{}", run.text());
    assert_eq!((armor_hp(&t, Hands), t.hp), (0, 3));
    // Unarmored: the whole critical reaches Character HP.
    let (mut a, mut t) = (swordsman(), target());
    let run = attack(
        &mut a,
        &mut t,
        &[20, 5, 5],
        &[react(NoReaction), slot(Hands)],
    );
    assert_eq!(run.result, critical(Hands, 10, 0, 10));
    assert_eq!(t.hp, 10);
}

#[test]
fn d6_character_hp_does_not_fall_below_0() {
    // assumption: what 0 HP means is not in this chapter; HP stop at 0.
    let (mut a, mut t) = (swordsman(), target());
    t.hp = 3;
    let run = attack(&mut a, &mut t, &[15, 1, 9], &[react(Dodge), slot(Chest)]);
    assert_eq!(run.result, hit(Chest, 9, 0, 9));
    assert_eq!(t.hp, 0);
}

// ---------------------------------------------------------------------------------------
// D7 Total AC = 10 + sum of worn pieces; Shield Block AC separate (presets: unarmored 10,
// full leather 13, chain 16, plate 17).

#[test]
fn d7_the_presets_give_10_13_16_17() {
    for (suit, ac) in [
        (d20::ArmorSet::unarmored(), 10),
        (d20::ArmorSet::full_leather(), 13),
        (d20::ArmorSet::full_chain(), 16),
        (d20::ArmorSet::full_plate(), 17),
    ] {
        assert_eq!(suit_ac(&suit), ac);
        let mut c = target();
        don_armor(&mut c, &suit);
        assert_eq!(c.armor, suit.pieces);
        assert_eq!(total_ac(&c), ac);
    }
}

#[test]
fn d7_total_ac_is_10_plus_the_pieces_worn() {
    let mut c = target();
    assert_eq!(total_ac(&c), 10);
    c.armor = vec![
        d20::ArmorPiece::plate_cuirass(),
        d20::ArmorPiece::chain_coif(),
    ];
    assert_eq!(total_ac(&c), 13, "10 + 2 + 1");
}

#[test]
fn d7_the_shield_block_ac_is_not_added_to_total_ac() {
    let c = with_shield(
        wearing(target(), d20::ArmorSet::full_chain()),
        d20::ShieldKind::Tower,
        24,
    );
    assert_eq!(total_ac(&c), 16);
}

#[test]
fn d7_a_broken_piece_adds_no_ac() {
    // assumption: a piece at 0 armor HP is broken and no longer counts.
    let mut c = wearing(target(), d20::ArmorSet::full_plate());
    c.armor[2].hp = 0; // the cuirass, +2
    assert_eq!(total_ac(&c), 15);
}

// ---------------------------------------------------------------------------------------
// D8 Weapon records: ability, attack bonus, damage dice, range.

#[test]
fn d8_weapon_records_carry_ability_attack_bonus_damage_and_range() {
    // The book's Longsword: Strength, +2, 1D10; Greatsword 2D6. assumption: the ranges.
    let w = d20::Weapon::longsword();
    assert_eq!(
        (w.ability, w.attack_bonus, w.damage, w.range),
        (d20::WeaponAbility::StrengthWeapon, 2, d(1, 10), 1)
    );
    let w = d20::Weapon::greatsword();
    assert_eq!(
        (w.ability, w.damage),
        (d20::WeaponAbility::StrengthWeapon, d(2, 6))
    );
    assert_eq!(d20::Weapon::shortbow().range, 60);
    assert_eq!(
        d20::Weapon::katana().ability,
        d20::WeaponAbility::EitherAbility
    );
}

#[test]
fn d8_a_hit_rolls_the_weapons_damage_dice_and_adds_its_attack_bonus() {
    // Greatsword: 2D6 and +1; Strength 2 (+1): 1D20 + 2.
    let mut a = fighter(2, 0, d20::Weapon::greatsword());
    let mut t = target();
    let run = attack(&mut a, &mut t, &[12, 3, 4, 5], &[react(Dodge), slot(Legs)]);
    assert_eq!(run.assigned("let attack ="), ["14"]);
    assert_eq!(run.rolls()[2], ("2d6".to_string(), vec![4, 5], 9));
    assert_eq!(run.result, hit(Legs, 9, 0, 9));
}

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
