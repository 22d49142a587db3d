//! Kingsmark driven the way the seed tells it: scripted dice (the book's faces) and
//! scripted decisions (the GM's and players' choices), through the generated code and
//! the interpreter alike. Every helper asserts that the script fit exactly: every face
//! used and on its die, every answer used, no question asked that the script did not
//! expect, and the two backends agree on the result, the trace and the changed state.
//!
//! Included by the `kingsmark*.rs` test files as `#[path = ...] mod script;` next to
//! `mod common;`.

#![allow(dead_code)]

use crate::common::{combatant_value, kingsmark, weapon_value};
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{Track, VecTrace};
use rulesc_tests::kingsmark as km;
use rulesc_tests::support;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------
// Scripted decisions

pub use rulesc_tests::support::{Answer, Run, Shown};

pub const DEFEND_ARMED: Answer = ("melee_defence", km::MeleeDefence::DefendArmed as u32);
pub const DEFEND_UNARMED: Answer = ("melee_defence", km::MeleeDefence::DefendUnarmed as u32);
pub const DEFEND_WITH_SHIELD: Answer = ("melee_defence", km::MeleeDefence::DefendWithShield as u32);
pub const ORDINARY_STRIKE: Answer = ("maneuver", km::Maneuver::OrdinaryStrike as u32);
pub const EVADE: Answer = ("ranged_defence", km::RangedDefence::Evade as u32);
pub const BLOCK_WITH_SHIELD: Answer = ("ranged_defence", km::RangedDefence::BlockWithShield as u32);

pub fn yes_no(name: &'static str, yes: bool) -> Answer {
    (name, u32::from(yes))
}
pub fn shield_ready(yes: bool) -> Answer {
    yes_no("shield_ready", yes)
}
pub fn shield_intercepts(yes: bool) -> Answer {
    yes_no("shield_intercepts", yes)
}
pub fn ranged_defence_roll(yes: bool) -> Answer {
    yes_no("ranged_defence_roll", yes)
}
pub fn still_possible(yes: bool) -> Answer {
    yes_no("interruption_still_possible", yes)
}
pub fn aimed_at(location: km::HitLocation) -> Answer {
    ("aimed_location", location as u32)
}
pub fn surprise_formula(formula: km::SurpriseFormula) -> Answer {
    ("surprise_formula", formula as u32)
}

pub type ScriptEnv = support::ScriptEnv;

/// Runs `f` with the scripted faces and answers, and asserts the script fit exactly.
pub fn scripted<R>(
    faces: &[u32],
    answers: &[Answer],
    f: impl FnOnce(&mut ScriptEnv) -> R,
) -> (R, VecTrace) {
    support::scripted(km::SITES, faces, answers, f)
}

// ---------------------------------------------------------------------------------------
// The interpreter

thread_local! {
    static PROGRAM: Rc<Program> = Rc::new(kingsmark());
}

/// `rules/kingsmark` compiled for the interpreter (once per test thread).
pub fn program() -> Rc<Program> {
    PROGRAM.with(Rc::clone)
}

/// Calls formula `name` in the interpreter (no dice, no decisions).
pub fn formula(name: &str, args: Vec<Value>) -> Value {
    support::formula(&program(), name, args)
}

/// Calls procedure `name` in the interpreter with the script; records passed in `args`
/// are changed in place. Returns the result and its printed form.
pub fn interpret(
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: Vec<Value>,
) -> (Value, String, VecTrace) {
    support::interpret(&program(), km::SITES, name, faces, answers, args)
}

pub fn assigned(trace: &VecTrace, prefix: &str) -> Vec<String> {
    support::assigned(km::SITES, trace, prefix)
}

pub fn rolls(trace: &VecTrace) -> Vec<(String, Vec<u32>, i64)> {
    support::rolls(trace)
}

/// Runs `name` in both backends with the same script. `args` are the interpreter's
/// arguments (changed in place, for the caller to compare), `gen` the generated call.
/// Asserts both fit the script and agree on the printed result and on every trace event.
pub fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), km::SITES, name, faces, answers, args, gen)
}

/// Asserts the interpreter left a combatant in the state the generated code did.
fn same_state(name: &str, interpreted: &Value, generated: &km::Combatant) {
    let p = program();
    assert!(
        *interpreted == combatant_value(&p, generated),
        "`{name}`: the backends leave the combatant in different states: {generated:?}"
    );
}

// ---------------------------------------------------------------------------------------
// The ruleset's procedures, each through both backends

pub fn melee(
    attacker: &km::Combatant,
    defender: &mut km::Combatant,
    weapon: &km::Weapon,
    faces: &[u32],
    answers: &[Answer],
) -> Run<km::AttackResult> {
    let p = program();
    let args = [
        combatant_value(&p, attacker),
        combatant_value(&p, defender),
        weapon_value(&p, weapon),
    ];
    let run = both("melee_attack", faces, answers, &args, |e| {
        km::melee_attack(e, attacker, defender, weapon)
    });
    same_state("melee_attack", &args[1], defender);
    run
}

pub fn ranged(
    attacker: &km::Combatant,
    defender: &mut km::Combatant,
    weapon: &km::Weapon,
    realism_modifiers: i64,
    faces: &[u32],
    answers: &[Answer],
) -> Run<km::AttackResult> {
    let p = program();
    let args = [
        combatant_value(&p, attacker),
        combatant_value(&p, defender),
        weapon_value(&p, weapon),
        Value::Int(realism_modifiers),
    ];
    let run = both("ranged_attack", faces, answers, &args, |e| {
        km::ranged_attack(e, attacker, defender, weapon, realism_modifiers)
    });
    same_state("ranged_attack", &args[1], defender);
    run
}

pub fn land_blow(
    attacker: &km::Combatant,
    defender: &mut km::Combatant,
    weapon: &km::Weapon,
    level: km::DamageLevel,
    shield_in_play: bool,
    faces: &[u32],
    answers: &[Answer],
) -> Run<km::AttackResult> {
    let p = program();
    let args = [
        combatant_value(&p, attacker),
        combatant_value(&p, defender),
        weapon_value(&p, weapon),
        Value::Choice(level as u16),
        Value::Bool(shield_in_play),
    ];
    let run = both("land_blow", faces, answers, &args, |e| {
        km::land_blow(e, attacker, defender, weapon, level, shield_in_play)
    });
    same_state("land_blow", &args[1], defender);
    run
}

pub fn hit_location(
    attacker: &km::Combatant,
    defender: &km::Combatant,
    faces: &[u32],
    answers: &[Answer],
) -> Run<km::HitLocation> {
    let p = program();
    let args = [combatant_value(&p, attacker), combatant_value(&p, defender)];
    both("hit_location", faces, answers, &args, |e| {
        km::hit_location(e, attacker, defender)
    })
}

pub fn roll_initiative(c: &mut km::Combatant, faces: &[u32]) -> Run<i64> {
    let p = program();
    let args = [combatant_value(&p, c)];
    let run = both("roll_initiative", faces, &[], &args, |e| {
        km::roll_initiative(e, c)
    });
    same_state("roll_initiative", &args[0], c);
    run
}

pub fn surprise_test(
    c: &mut km::Combatant,
    betrayal_victim: bool,
    faces: &[u32],
    answers: &[Answer],
) -> Run<i64> {
    let p = program();
    let args = [combatant_value(&p, c), Value::Bool(betrayal_victim)];
    let run = both("surprise_test", faces, answers, &args, |e| {
        km::surprise_test(e, c, betrayal_victim)
    });
    same_state("surprise_test", &args[0], c);
    run
}

pub fn resolve_surprise(c: &mut km::Combatant, opponents: &[km::Combatant]) -> bool {
    let p = program();
    let args = [combatant_value(&p, c), combatants_value(opponents)];
    let run = both("resolve_surprise", &[], &[], &args, |e| {
        km::resolve_surprise(e, c, opponents)
    });
    same_state("resolve_surprise", &args[0], c);
    run.result
}

pub fn end_surprise(c: &mut km::Combatant) {
    let p = program();
    let args = [combatant_value(&p, c)];
    both("end_surprise", &[], &[], &args, |e| km::end_surprise(e, c));
    same_state("end_surprise", &args[0], c);
}

pub fn declare_turn(c: &km::Combatant, actions: &[km::Action]) -> km::TurnDeclaration {
    let args = [combatant_value(&program(), c), actions_value(actions)];
    both("declare_turn", &[], &[], &args, |e| {
        km::declare_turn(e, c, actions)
    })
    .result
}

pub fn lay_in_wait(c: &mut km::Combatant) {
    let args = [combatant_value(&program(), c)];
    both("lay_in_wait", &[], &[], &args, |e| km::lay_in_wait(e, c));
    same_state("lay_in_wait", &args[0], c);
}

pub fn stop_waiting(c: &mut km::Combatant) {
    let args = [combatant_value(&program(), c)];
    both("stop_waiting", &[], &[], &args, |e| km::stop_waiting(e, c));
    same_state("stop_waiting", &args[0], c);
}

pub fn interrupt(c: &mut km::Combatant, answers: &[Answer]) -> km::Interruption {
    let args = [combatant_value(&program(), c)];
    let run = both("interrupt", &[], answers, &args, |e| km::interrupt(e, c));
    same_state("interrupt", &args[0], c);
    run.result
}

// ---------------------------------------------------------------------------------------
// Formulas: the generated value, asserted equal to the interpreter's

pub fn combatants_value(cs: &[km::Combatant]) -> Value {
    let p = program();
    Value::List(Rc::new(cs.iter().map(|c| combatant_value(&p, c)).collect()))
}

pub fn actions_value(actions: &[km::Action]) -> Value {
    Value::List(Rc::new(
        actions.iter().map(|a| Value::Choice(*a as u16)).collect(),
    ))
}

fn agree_int(name: &str, generated: i64, args: Vec<Value>) -> i64 {
    let v = formula(name, args);
    assert_eq!(v.int(), generated, "`{name}`: the backends differ");
    generated
}

fn agree_bool(name: &str, generated: bool, args: Vec<Value>) -> bool {
    let v = formula(name, args);
    assert_eq!(v, Value::Bool(generated), "`{name}`: the backends differ");
    generated
}

pub fn initiative(c: &km::Combatant) -> i64 {
    agree_int(
        "initiative",
        km::initiative(c),
        vec![combatant_value(&program(), c)],
    )
}

pub fn pain(c: &km::Combatant) -> i64 {
    agree_int("pain", km::pain(c), vec![combatant_value(&program(), c)])
}

pub fn action_points(c: &km::Combatant) -> i64 {
    agree_int(
        "action_points",
        km::action_points(c),
        vec![combatant_value(&program(), c)],
    )
}

pub fn turn_cost(actions: &[km::Action]) -> i64 {
    agree_int(
        "turn_cost",
        km::turn_cost(actions),
        vec![actions_value(actions)],
    )
}

pub fn ambush_tn(ambusher: &km::Combatant, observer: &km::Combatant) -> i64 {
    let p = program();
    agree_int(
        "ambush_tn",
        km::ambush_tn(ambusher, observer),
        vec![combatant_value(&p, ambusher), combatant_value(&p, observer)],
    )
}

pub fn may_act_against(c: &km::Combatant, opponent: &km::Combatant) -> bool {
    let p = program();
    agree_bool(
        "may_act_against",
        km::may_act_against(c, opponent),
        vec![combatant_value(&p, c), combatant_value(&p, opponent)],
    )
}

pub fn armor_rating(
    c: &km::Combatant,
    location: km::HitLocation,
    damage_type: km::DamageType,
    shield_in_play: bool,
) -> i64 {
    agree_int(
        "armor_rating",
        km::armor_rating(c, location, damage_type, shield_in_play),
        vec![
            combatant_value(&program(), c),
            Value::Choice(location as u16),
            Value::Choice(damage_type as u16),
            Value::Bool(shield_in_play),
        ],
    )
}

pub fn shield_counts(used_shield_combat: bool, ready: bool, intercepts: bool) -> bool {
    agree_bool(
        "shield_counts",
        km::shield_counts(used_shield_combat, ready, intercepts),
        vec![
            Value::Bool(used_shield_combat),
            Value::Bool(ready),
            Value::Bool(intercepts),
        ],
    )
}

/// The fight's turn-order key (`order(c) = turn_order(c)`: Initiative, raw d12, Reflexes,
/// Speed), as the engine compares it, checked against the interpreter's.
pub fn key(c: &km::Combatant) -> Vec<i64> {
    let generated = km::turn_order(c);
    assert_eq!(
        interpreted_key(&combatant_value(&program(), c)),
        generated,
        "`turn_order`: the backends differ"
    );
    generated.to_vec()
}

/// The interpreter's `turn_order` of a combatant value.
pub fn interpreted_key(c: &Value) -> Vec<i64> {
    match formula("turn_order", vec![c.clone()]) {
        Value::List(items) => items.iter().map(Value::int).collect(),
        other => panic!("turn_order gave {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Building combatants

/// A skills map from `(skill, points)` pairs; the rest read 0.
pub fn skills(points: &[(km::Skill, i64)]) -> [i64; 9] {
    let mut s = [0; 9];
    for (skill, n) in points {
        s[*skill as usize] = *n;
    }
    s
}

/// A wound track with the given boxes filled.
pub fn wounds(boxes: &[i64]) -> Track {
    Track::with_filled(boxes)
}

/// The filled boxes of a combatant's wound track.
pub fn filled(c: &km::Combatant) -> Vec<usize> {
    c.wounds.boxes().collect()
}

pub fn hit(level: km::DamageLevel, location: km::HitLocation, r#box: i64) -> km::AttackResult {
    km::AttackResult::Hit {
        level,
        location,
        r#box,
    }
}

// ---------------------------------------------------------------------------------------
// One backend at a time, for the worked examples (K1x, K4x, K9x): the same story is told
// to the generated code and to the interpreter separately, each asserting the book's
// numbers on its own.

pub trait Backend {
    /// A combatant in this backend's shape.
    type C;
    const NAME: &'static str;
    fn combatant(&self, c: &km::Combatant) -> Self::C;
    fn roll_initiative(&self, c: &mut Self::C, faces: &[u32]) -> i64;
    /// The printed result and the trace.
    fn melee(
        &self,
        attacker: &Self::C,
        defender: &mut Self::C,
        weapon: &km::Weapon,
        faces: &[u32],
        answers: &[Answer],
    ) -> (String, VecTrace);
    fn initiative(&self, c: &Self::C) -> i64;
    fn pain(&self, c: &Self::C) -> i64;
    fn action_points(&self, c: &Self::C) -> i64;
    fn key(&self, c: &Self::C) -> Vec<i64>;
    fn set_pain_relief(&self, c: &mut Self::C, relief: i64);
}

/// The code `rulesc_codegen::Builder` generated (`rulesc_tests::kingsmark`).
pub struct Generated;

impl Backend for Generated {
    type C = km::Combatant;
    const NAME: &'static str = "generated";
    fn combatant(&self, c: &km::Combatant) -> km::Combatant {
        c.clone()
    }
    fn roll_initiative(&self, c: &mut km::Combatant, faces: &[u32]) -> i64 {
        scripted(faces, &[], |e| km::roll_initiative(e, c)).0
    }
    fn melee(
        &self,
        attacker: &km::Combatant,
        defender: &mut km::Combatant,
        weapon: &km::Weapon,
        faces: &[u32],
        answers: &[Answer],
    ) -> (String, VecTrace) {
        let (r, trace) = scripted(faces, answers, |e| {
            km::melee_attack(e, attacker, defender, weapon)
        });
        (r.to_string(), trace)
    }
    fn initiative(&self, c: &km::Combatant) -> i64 {
        km::initiative(c)
    }
    fn pain(&self, c: &km::Combatant) -> i64 {
        km::pain(c)
    }
    fn action_points(&self, c: &km::Combatant) -> i64 {
        km::action_points(c)
    }
    fn key(&self, c: &km::Combatant) -> Vec<i64> {
        km::turn_order(c).to_vec()
    }
    fn set_pain_relief(&self, c: &mut km::Combatant, relief: i64) {
        c.pain_relief = relief;
    }
}

/// The reference interpreter (`rulesc::eval`) running `rules/kingsmark`.
pub struct Interpreted;

impl Backend for Interpreted {
    type C = Value;
    const NAME: &'static str = "interpreter";
    fn combatant(&self, c: &km::Combatant) -> Value {
        combatant_value(&program(), c)
    }
    fn roll_initiative(&self, c: &mut Value, faces: &[u32]) -> i64 {
        interpret("roll_initiative", faces, &[], vec![c.clone()])
            .0
            .int()
    }
    fn melee(
        &self,
        attacker: &Value,
        defender: &mut Value,
        weapon: &km::Weapon,
        faces: &[u32],
        answers: &[Answer],
    ) -> (String, VecTrace) {
        let w = weapon_value(&program(), weapon);
        let (_, shown, trace) = interpret(
            "melee_attack",
            faces,
            answers,
            vec![attacker.clone(), defender.clone(), w],
        );
        (shown, trace)
    }
    fn initiative(&self, c: &Value) -> i64 {
        formula("initiative", vec![c.clone()]).int()
    }
    fn pain(&self, c: &Value) -> i64 {
        formula("pain", vec![c.clone()]).int()
    }
    fn action_points(&self, c: &Value) -> i64 {
        formula("action_points", vec![c.clone()]).int()
    }
    fn key(&self, c: &Value) -> Vec<i64> {
        interpreted_key(c)
    }
    fn set_pain_relief(&self, c: &mut Value, relief: i64) {
        eval::set_field(
            &program(),
            "Combatant",
            c,
            "pain_relief",
            Value::Int(relief),
        )
        .expect("Combatant.pain_relief");
    }
}
