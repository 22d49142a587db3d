//! Hit Strength (seed `001_6dc157ab019eb86c.txt`), rules H1..H7, driven through the
//! compiled ruleset (`rulesc_tests::hit_strength`) with scripted dice and decisions.
//! Every resolution also runs in the interpreter (`both`), which must agree on the
//! result, on every trace event and on the state it leaves; the scenarios under
//! `examples/hit-strength/` are replayed through the interpreter on their own as well.

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_tests::hit_strength as hs;
use rulesc_tests::support::{self, Answer, Run, ScriptEnv, Shown};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use hs::AttackResult::{Hit, Injured, Miss, NoEffect};
use hs::HitStrength::{CriticalHit, LightHit, MediumHit};
use hs::InjuryLocation::{Arm, Head, Internal, Leg};
use hs::InjurySeverity::{FatalInjury, SevereInjury};

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/hit_strength_draw.rs"]
mod hit_strength_draw;

mod attack;
mod effects;
mod injury;

// ---------------------------------------------------------------------------------------
// The ruleset in both backends

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/hit-strength")
}

thread_local! {
    static PROGRAM: Rc<Program> = {
        let (p, diags, _) = rulesc::compile_dir(&rules_dir());
        Rc::new(p.unwrap_or_else(|| panic!("hit-strength does not check: {:?}", diags.items)))
    };
}

fn program() -> Rc<Program> {
    PROGRAM.with(Rc::clone)
}

fn choice<T: Into<u16>>(i: T) -> Value {
    Value::Choice(i.into())
}

fn rec(ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(&program(), ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn weapon_value(w: &hs::Weapon) -> Value {
    hit_strength_draw::weapon_value(&program(), w)
}

fn combatant_value(c: &hs::Combatant) -> Value {
    hit_strength_draw::combatant_value(&program(), c)
}

fn effects_value(e: &hs::Effects) -> Value {
    rec(
        "Effects",
        &[
            (
                "attribute_check_disadvantage",
                Value::Bool(e.attribute_check_disadvantage),
            ),
            (
                "attack_roll_disadvantage",
                Value::Bool(e.attack_roll_disadvantage),
            ),
            ("no_block", Value::Bool(e.no_block)),
            ("no_dodge", Value::Bool(e.no_dodge)),
            ("no_reactions", Value::Bool(e.no_reactions)),
            ("speed_halved", Value::Bool(e.speed_halved)),
            ("endurance_dc", Value::Int(e.endurance_dc)),
            ("incapacitated", Value::Bool(e.incapacitated)),
            ("unconscious", Value::Bool(e.unconscious)),
            ("dies_in_minutes", Value::Int(e.dies_in_minutes)),
            ("stop_bleeding_dc", Value::Int(e.stop_bleeding_dc)),
            ("eye_loss_percent", Value::Int(e.eye_loss_percent)),
            ("save_eye_dc", Value::Int(e.save_eye_dc)),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// Both backends on one script (the harness is `rulesc_tests::support`)

/// Runs procedure `name` in the generated code (`gen`) and in the interpreter (`args`,
/// changed in place) with the same script; both must fit it and agree.
fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), hs::SITES, name, faces, answers, args, gen)
}

fn same_state(name: &str, interpreted: &Value, generated: &hs::Combatant) {
    assert!(
        *interpreted == combatant_value(generated),
        "`{name}`: the backends leave the combatant in different states: {generated:?}"
    );
}

// ---------------------------------------------------------------------------------------
// The procedures, each through both backends

fn attack(
    attacker: &hs::Combatant,
    defender: &mut hs::Combatant,
    weapon: &hs::Weapon,
    faces: &[u32],
) -> Run<hs::AttackResult> {
    let args = [
        combatant_value(attacker),
        combatant_value(defender),
        weapon_value(weapon),
    ];
    let run = both("attack", faces, &[], &args, |e| {
        hs::attack(e, attacker, defender, weapon).expect("no rule error")
    });
    same_state("attack", &args[1], defender);
    run
}

fn injure(
    c: &mut hs::Combatant,
    hit_strength: hs::HitStrength,
    faces: &[u32],
) -> Run<hs::AttackResult> {
    let args = [combatant_value(c), choice(hit_strength as u16)];
    let run = both("injure", faces, &[], &args, |e| {
        hs::injure(e, c, hit_strength).expect("no rule error")
    });
    same_state("injure", &args[0], c);
    run
}

fn attribute_check(c: &hs::Combatant, bonus: i64, difficulty: i64, faces: &[u32]) -> Run<bool> {
    let args = [
        combatant_value(c),
        Value::Int(bonus),
        Value::Int(difficulty),
    ];
    both("attribute_check", faces, &[], &args, |e| {
        hs::attribute_check(e, c, bonus, difficulty)
    })
}

fn heal(c: &mut hs::Combatant, hit_points: i64) -> hs::HealResult {
    let args = [combatant_value(c), Value::Int(hit_points)];
    let run = both("heal", &[], &[], &args, |e| hs::heal(e, c, hit_points));
    same_state("heal", &args[0], c);
    run.result
}

fn time_passes(c: &mut hs::Combatant, seconds: i64) {
    let args = [combatant_value(c), Value::Int(seconds)];
    both("time_passes", &[], &[], &args, |e| {
        hs::time_passes(e, c, seconds).unwrap()
    });
    same_state("time_passes", &args[0], c);
}

fn stop_bleeding(
    healer: &hs::Combatant,
    patient: &mut hs::Combatant,
    faces: &[u32],
    answers: &[Answer],
) -> Run<hs::AidResult> {
    let args = [combatant_value(healer), combatant_value(patient)];
    let run = both("stop_bleeding", faces, answers, &args, |e| {
        hs::stop_bleeding(e, healer, patient).unwrap()
    });
    same_state("stop_bleeding", &args[1], patient);
    run
}

fn save_eye(healer: &hs::Combatant, patient: &mut hs::Combatant, faces: &[u32]) -> hs::EyeResult {
    let args = [combatant_value(healer), combatant_value(patient)];
    let run = both("save_eye", faces, &[], &args, |e| {
        hs::save_eye(e, healer, patient)
    });
    same_state("save_eye", &args[1], patient);
    run.result
}

// Formulas: the generated value, asserted equal to the interpreter's.

fn formula(name: &str, args: Vec<Value>) -> Value {
    support::formula(&program(), name, args)
}

fn penalties(c: &hs::Combatant) -> hs::Effects {
    let generated = hs::penalties(c);
    assert!(
        formula("penalties", vec![combatant_value(c)]) == effects_value(&generated),
        "`penalties`: the backends differ"
    );
    generated
}

fn worst_condition(c: &hs::Combatant) -> hs::Condition {
    let generated = hs::worst_condition(c);
    assert_eq!(
        formula("worst_condition", vec![combatant_value(c)]),
        choice(generated as u16),
        "`worst_condition`: the backends differ"
    );
    generated
}

fn may_use_reaction(c: &hs::Combatant, reaction: hs::Reaction) -> bool {
    let generated = hs::may_use_reaction(c, reaction);
    assert_eq!(
        formula(
            "may_use_reaction",
            vec![combatant_value(c), choice(reaction as u16)]
        ),
        Value::Bool(generated),
        "`may_use_reaction`: the backends differ"
    );
    generated
}

/// Every Reaction a character may still use.
fn reactions(c: &hs::Combatant) -> Vec<hs::Reaction> {
    hs::Reaction::ALL
        .into_iter()
        .filter(|r| may_use_reaction(c, *r))
        .collect()
}

fn current_speed(c: &hs::Combatant) -> i64 {
    let generated = hs::current_speed(c);
    assert_eq!(
        formula("current_speed", vec![combatant_value(c)]).int(),
        generated,
        "`current_speed`: the backends differ"
    );
    generated
}

fn incapacitated(c: &hs::Combatant) -> bool {
    let generated = hs::incapacitated(c);
    assert_eq!(
        formula("incapacitated", vec![combatant_value(c)]),
        Value::Bool(generated)
    );
    generated
}

fn unconscious(c: &hs::Combatant) -> bool {
    let generated = hs::unconscious(c);
    assert_eq!(
        formula("unconscious", vec![combatant_value(c)]),
        Value::Bool(generated)
    );
    generated
}

// ---------------------------------------------------------------------------------------
// Characters

/// An attacker with attack bonus +4.
fn attacker() -> hs::Combatant {
    hs::Combatant {
        hit_points: 12,
        max_hit_points: 12,
        defense: 12,
        attack_bonus: 4,
        ..Default::default()
    }
}

/// A defender with Defense 12 and 20 hit points.
fn defender() -> hs::Combatant {
    hs::Combatant {
        hit_points: 20,
        max_hit_points: 20,
        defense: 12,
        ..Default::default()
    }
}

/// A defender at 0 hit points, as the hit that took them there left them.
fn vulnerable_defender() -> hs::Combatant {
    hs::Combatant {
        hit_points: 0,
        exhausted: true,
        healing_blocked: 3600,
        ..defender()
    }
}

fn injury(location: hs::InjuryLocation, severity: hs::InjurySeverity) -> hs::Injury {
    hs::Injury {
        location,
        severity,
        bleeding_out: 0,
    }
}

fn injured(injuries: &[(hs::InjuryLocation, hs::InjurySeverity)]) -> hs::Combatant {
    hs::Combatant {
        injuries: injuries.iter().map(|(l, s)| injury(*l, *s)).collect(),
        ..vulnerable_defender()
    }
}

fn healer(heal: i64) -> hs::Combatant {
    hs::Combatant { heal, ..attacker() }
}

fn sword() -> hs::Weapon {
    hs::Weapon::standard_sword()
}

fn hit(hit_strength: hs::HitStrength, damage: i64, hit_points: i64) -> hs::AttackResult {
    Hit {
        hit_strength,
        damage,
        hit_points,
    }
}

fn injured_result(
    hit_strength: hs::HitStrength,
    severity: hs::InjurySeverity,
    location: hs::InjuryLocation,
) -> hs::AttackResult {
    Injured {
        hit_strength,
        severity,
        location,
    }
}

/// The d20 face that gives an Attack Roll `margin` points above Defense 12 (bonus +4).
fn face_for_margin(margin: i64) -> u32 {
    u32::try_from(12 + margin - 4).expect("a face")
}
