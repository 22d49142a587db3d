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

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/d20_armor_slots_draw.rs"]
mod d20_armor_slots_draw;

use d20_armor_slots_draw::{choice, list};

mod actions;
mod armor;
mod attack;
mod reactions;

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

fn suit_value(s: &d20::ArmorSet) -> Value {
    d20_armor_slots_draw::suit_value(&program(), s)
}

fn combatant_value(c: &d20::Combatant) -> Value {
    d20_armor_slots_draw::combatant_value(&program(), c)
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
