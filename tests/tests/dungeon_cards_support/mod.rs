//! Dungeon Cards (`rules/dungeon-cards`) driven the way the seed tells it: scripted d100
//! faces and scripted decisions (the player's and the board's choices), through the
//! generated code, with the interpreter run on the same script beside it. Every helper
//! asserts that the script fit exactly (every face used and on its die, every answer
//! used in order, no unexpected question) and that both backends agree on the result,
//! on every trace event and on the state they leave behind.
//!
//! Included by the `dungeon_cards*.rs` test files as `mod dungeon_cards_support;`.

#![allow(dead_code)]

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{RuleError, VecTrace};
use rulesc_tests::dungeon_cards as dc;
use rulesc_tests::support;
pub use rulesc_tests::support::{Answer, Run, Shown};
use std::path::Path;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------
// The interpreter's program

pub fn compile() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/dungeon-cards");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("dungeon-cards does not check: {:?}", diags.items))
}

thread_local! {
    static PROGRAM: Rc<Program> = Rc::new(compile());
}

/// `rules/dungeon-cards` compiled for the interpreter (once per test thread).
pub fn program() -> Rc<Program> {
    PROGRAM.with(Rc::clone)
}

// ---------------------------------------------------------------------------------------
// Generated values in the interpreter's shape (every field, in declaration order)

fn ch(i: usize) -> Value {
    Value::Choice(i as u16)
}

fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn ints(items: &[i64]) -> Value {
    Value::Map(Rc::new(items.iter().map(|i| Value::Int(*i)).collect()))
}

fn bools(items: &[bool]) -> Value {
    Value::Map(Rc::new(items.iter().map(|b| Value::Bool(*b)).collect()))
}

fn rec(ty: &str, fields: &[(&str, Value)]) -> Value {
    let p = program();
    let t = p
        .records
        .iter()
        .find(|r| r.name == ty)
        .unwrap_or_else(|| panic!("no record type {ty}"));
    assert_eq!(
        t.fields.len(),
        fields.len(),
        "{ty}: every field must be given"
    );
    eval::record(&p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

pub fn item_value(i: &dc::Item) -> Value {
    rec(
        "Item",
        &[
            ("kind", ch(i.kind as usize)),
            ("slot", ch(i.slot as usize)),
            ("two_handed", Value::Bool(i.two_handed)),
            ("damage", Value::Int(i.damage)),
            ("blow", ch(i.blow as usize)),
            ("elements", ints(&i.elements)),
            ("stamina_cost", Value::Int(i.stamina_cost)),
            ("crit_chance", Value::Int(i.crit_chance)),
            ("stun_chance", Value::Int(i.stun_chance)),
            ("defense", Value::Int(i.defense)),
        ],
    )
}

pub fn wearable_value(w: &dc::Wearable) -> Value {
    rec(
        "Wearable",
        &[
            ("kind", ch(w.kind as usize)),
            ("covers", list(w.covers.iter().map(|p| ch(*p as usize)))),
            ("defense", Value::Int(w.defense)),
            ("elemental_defense", ints(&w.elemental_defense)),
            ("broken", Value::Bool(w.broken)),
        ],
    )
}

pub fn wound_value(w: &dc::Wound) -> Value {
    rec(
        "Wound",
        &[
            ("id", Value::Int(w.id)),
            ("kind", ch(w.kind as usize)),
            ("part", ch(w.part as usize)),
            ("severity", Value::Int(w.severity)),
            ("progress", Value::Int(w.progress)),
            ("age", Value::Int(w.age)),
            ("stabilized", Value::Bool(w.stabilized)),
            ("disinfected", Value::Bool(w.disinfected)),
            ("infected", Value::Bool(w.infected)),
            ("closed", Value::Bool(w.closed)),
            ("replaced", Value::Bool(w.replaced)),
        ],
    )
}

pub fn affliction_value(a: &dc::Affliction) -> Value {
    rec(
        "Affliction",
        &[
            ("kind", ch(a.kind as usize)),
            ("wound_id", Value::Int(a.wound_id)),
            ("harm", Value::Int(a.harm)),
            ("turns_left", Value::Int(a.turns_left)),
        ],
    )
}

pub fn board_value(b: &dc::Board) -> Value {
    let slots = b.slots.iter().map(|s| {
        rec(
            "BoardSlot",
            &[
                ("position", Value::Int(s.position)),
                ("occupied", Value::Bool(s.occupied)),
                ("item", item_value(&s.item)),
            ],
        )
    });
    rec("Board", &[("slots", list(slots))])
}

pub fn combatant_value(c: &dc::Combatant) -> Value {
    rec(
        "Combatant",
        &[
            ("is_player", Value::Bool(c.is_player)),
            ("silhouette", ch(c.silhouette as usize)),
            ("undead", Value::Bool(c.undead)),
            ("base_max_health", Value::Int(c.base_max_health)),
            ("health", Value::Int(c.health)),
            ("base_max_stamina", Value::Int(c.base_max_stamina)),
            ("stamina", Value::Int(c.stamina)),
            ("mana", Value::Int(c.mana)),
            ("charisma", Value::Int(c.charisma)),
            ("stats", ints(&c.stats)),
            ("defense", Value::Int(c.defense)),
            ("elemental_strength", ints(&c.elemental_strength)),
            ("elemental_defense", ints(&c.elemental_defense)),
            ("equipped", list(c.equipped.iter().map(item_value))),
            ("worn", list(c.worn.iter().map(wearable_value))),
            ("severed", bools(&c.severed)),
            ("stunned", Value::Bool(c.stunned)),
            ("knocked_down", Value::Bool(c.knocked_down)),
            ("alerted", Value::Bool(c.alerted)),
            ("hasted", Value::Bool(c.hasted)),
            ("guarding", Value::Bool(c.guarding)),
            ("guard", ch(c.guard as usize)),
            ("action_points", Value::Int(c.action_points)),
            (
                "action_points_per_turn",
                Value::Int(c.action_points_per_turn),
            ),
            ("open_to_counter", Value::Bool(c.open_to_counter)),
            ("taunted", Value::Bool(c.taunted)),
            ("stance", ch(c.stance as usize)),
            ("wounds", list(c.wounds.iter().map(wound_value))),
            (
                "afflictions",
                list(c.afflictions.iter().map(affliction_value)),
            ),
            ("next_wound_id", Value::Int(c.next_wound_id)),
            ("supplies", ints(&c.supplies)),
        ],
    )
}

/// How the interpreter prints a value of record type `ty` (the generated `Display`
/// prints the same), to check the conversions above field by field.
pub fn shown_record(ty: &str, v: &Value) -> String {
    let p = program();
    let rid = p.records.iter().position(|r| r.name == ty).unwrap();
    eval::show(&p, v, &rulesc::ir::Ty::Record(rid))
}

// ---------------------------------------------------------------------------------------
// Scripted decisions

/// Aims the attack at `part`, given as its position among the target's targetable parts.
pub fn target(defender: &dc::Combatant, part: dc::BodyPart) -> Answer {
    let parts = dc::targetable_parts(defender);
    let i = parts
        .iter()
        .position(|p| *p == part)
        .unwrap_or_else(|| panic!("{part} cannot be targeted: {parts:?}"));
    ("target_part", i as u32)
}

pub type ScriptEnv = support::ScriptEnv;

/// Runs `f` with the scripted faces and answers, and asserts the script fit exactly.
pub fn scripted<R>(
    faces: &[u32],
    answers: &[Answer],
    f: impl FnOnce(&mut ScriptEnv) -> R,
) -> (R, VecTrace) {
    support::scripted(dc::SITES, faces, answers, f)
}

// ---------------------------------------------------------------------------------------
// Both backends

/// Runs procedure `name` in both backends on the same script. `args` are the
/// interpreter's arguments (records are changed in place); `gen` is the generated call.
/// Asserts both fit the script and agree on the printed result and every trace event.
pub fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), dc::SITES, name, faces, answers, args, gen)
}

/// Asserts the interpreter left a record in the state the generated code did.
fn same(name: &str, ty: &str, interpreted: &Value, generated: Value) {
    assert_eq!(
        shown_record(ty, interpreted),
        shown_record(ty, &generated),
        "`{name}`: the backends leave a {ty} in different states"
    );
}

fn same_combatant(name: &str, interpreted: &Value, generated: &dc::Combatant) {
    same(name, "Combatant", interpreted, combatant_value(generated));
}

// ---------------------------------------------------------------------------------------
// The ruleset's procedures, each through both backends

/// An empty board of `n` slots, positions 1..=n.
pub fn board(n: i64) -> dc::Board {
    dc::Board {
        slots: (1..=n)
            .map(|position| dc::BoardSlot {
                position,
                ..Default::default()
            })
            .collect(),
    }
}

fn attack_run(
    name: &str,
    attacker: &mut dc::Combatant,
    defender: &mut dc::Combatant,
    board: &mut dc::Board,
    faces: &[u32],
    answers: &[Answer],
) -> Run<dc::AttackResult> {
    let args = [
        combatant_value(attacker),
        combatant_value(defender),
        board_value(board),
    ];
    let run = both(name, faces, answers, &args, |e| {
        if name == "melee_attack" {
            dc::melee_attack(e, attacker, defender, board).unwrap()
        } else {
            dc::ranged_attack(e, attacker, defender, board).unwrap()
        }
    });
    same_combatant(name, &args[0], attacker);
    same_combatant(name, &args[1], defender);
    same(name, "Board", &args[2], board_value(board));
    run
}

pub fn melee(
    attacker: &mut dc::Combatant,
    defender: &mut dc::Combatant,
    board: &mut dc::Board,
    faces: &[u32],
    answers: &[Answer],
) -> Run<dc::AttackResult> {
    attack_run("melee_attack", attacker, defender, board, faces, answers)
}

pub fn ranged(
    attacker: &mut dc::Combatant,
    defender: &mut dc::Combatant,
    board: &mut dc::Board,
    faces: &[u32],
    answers: &[Answer],
) -> Run<dc::AttackResult> {
    attack_run("ranged_attack", attacker, defender, board, faces, answers)
}

pub fn injury_roll(
    victim: &mut dc::Combatant,
    part: dc::BodyPart,
    damage: i64,
    critical: bool,
    blow: dc::Blow,
    faces: &[u32],
) -> Run<bool> {
    let args = [
        combatant_value(victim),
        ch(part as usize),
        Value::Int(damage),
        Value::Bool(critical),
        ch(blow as usize),
    ];
    let run = both("injury_roll", faces, &[], &args, |e| {
        dc::injury_roll(e, victim, part, damage, critical, blow).unwrap()
    });
    same_combatant("injury_roll", &args[0], victim);
    run
}

/// A procedure of one combatant and no other argument.
fn on_one<R: Shown>(
    name: &str,
    c: &mut dc::Combatant,
    extra: Vec<Value>,
    faces: &[u32],
    answers: &[Answer],
    gen: impl FnOnce(&mut ScriptEnv, &mut dc::Combatant) -> R,
) -> Run<R> {
    let mut args = vec![combatant_value(c)];
    args.extend(extra);
    let run = both(name, faces, answers, &args, |e| gen(e, c));
    same_combatant(name, &args[0], c);
    run
}

pub fn world_turn(c: &mut dc::Combatant, faces: &[u32]) -> Run<Result<(), RuleError>> {
    on_one("world_turn", c, vec![], faces, &[], dc::world_turn)
}

pub fn apply_remedy(
    c: &mut dc::Combatant,
    remedy: dc::Remedy,
    faces: &[u32],
    answers: &[Answer],
) -> Run<dc::RemedyResult> {
    on_one(
        "apply_remedy",
        c,
        vec![ch(remedy as usize)],
        faces,
        answers,
        |e, c| dc::apply_remedy(e, c, remedy).unwrap(),
    )
}

pub fn apply_remedy_to_scar(
    c: &mut dc::Combatant,
    remedy: dc::Remedy,
    answers: &[Answer],
) -> Run<dc::RemedyResult> {
    on_one(
        "apply_remedy_to_scar",
        c,
        vec![ch(remedy as usize)],
        &[],
        answers,
        |e, c| dc::apply_remedy_to_scar(e, c, remedy).unwrap(),
    )
}

pub fn fit_replacement(c: &mut dc::Combatant, part: dc::BodyPart) -> dc::ReplacementResult {
    on_one(
        "fit_replacement",
        c,
        vec![ch(part as usize)],
        &[],
        &[],
        |e, c| dc::fit_replacement(e, c, part).unwrap(),
    )
    .result
}

pub fn take_harm(c: &mut dc::Combatant, amount: i64, source: dc::HarmSource) -> Run<i64> {
    on_one(
        "take_harm",
        c,
        vec![Value::Int(amount), ch(source as usize)],
        &[],
        &[],
        |e, c| dc::take_harm(e, c, amount, source),
    )
}

pub fn afflict(c: &mut dc::Combatant, kind: dc::AfflictionKind, harm: i64, turns: i64) {
    on_one(
        "afflict",
        c,
        vec![ch(kind as usize), Value::Int(harm), Value::Int(turns)],
        &[],
        &[],
        |e, c| dc::afflict(e, c, kind, harm, turns),
    );
}

pub fn start_turn(c: &mut dc::Combatant) -> dc::TurnStart {
    on_one("start_turn", c, vec![], &[], &[], dc::start_turn).result
}

pub fn knock_down(c: &mut dc::Combatant) -> dc::KnockDownResult {
    on_one("knock_down", c, vec![], &[], &[], dc::knock_down).result
}

pub fn raise_guard(c: &mut dc::Combatant, guard: dc::Guard) -> dc::GuardResult {
    on_one(
        "raise_guard",
        c,
        vec![ch(guard as usize)],
        &[],
        &[],
        |e, c| dc::raise_guard(e, c, guard),
    )
    .result
}

pub fn equip(c: &mut dc::Combatant, item: &dc::Item) -> dc::EquipResult {
    on_one("equip", c, vec![item_value(item)], &[], &[], |e, c| {
        dc::equip(e, c, item).expect("no rule error")
    })
    .result
}

pub fn take_stance(c: &mut dc::Combatant, stance: dc::Stance) -> dc::StanceResult {
    on_one(
        "take_stance",
        c,
        vec![ch(stance as usize)],
        &[],
        &[],
        |e, c| dc::take_stance(e, c, stance),
    )
    .result
}

pub fn use_technique(
    user: &mut dc::Combatant,
    target: &mut dc::Combatant,
    technique: dc::Technique,
    faces: &[u32],
) -> Run<dc::TechniqueResult> {
    let args = [
        combatant_value(user),
        combatant_value(target),
        ch(technique as usize),
    ];
    let run = both("use_technique", faces, &[], &args, |e| {
        dc::use_technique(e, user, target, technique)
    });
    same_combatant("use_technique", &args[0], user);
    same_combatant("use_technique", &args[1], target);
    run
}

pub fn enemy_spell(
    caster: &dc::Combatant,
    target: &mut dc::Combatant,
    element: dc::Element,
    power: i64,
) -> Run<i64> {
    let args = [
        combatant_value(caster),
        combatant_value(target),
        ch(element as usize),
        Value::Int(power),
    ];
    let run = both("enemy_spell", &[], &[], &args, |e| {
        dc::enemy_spell(e, caster, target, element, power)
    });
    same_combatant("enemy_spell", &args[1], target);
    run
}

// ---------------------------------------------------------------------------------------
// Building cards

/// A stat map from `(stat, value)` pairs; the rest read 0.
pub fn stats(values: &[(dc::Stat, i64)]) -> [i64; 4] {
    let mut s = [0; 4];
    for (stat, v) in values {
        s[*stat as usize] = *v;
    }
    s
}

/// An element map from `(element, value)` pairs.
pub fn elements(values: &[(dc::Element, i64)]) -> [i64; 5] {
    let mut s = [0; 5];
    for (e, v) in values {
        s[*e as usize] = *v;
    }
    s
}

/// A player character: 20 Health, 10 stamina, the given stats, no gear.
pub fn player(stat_values: &[(dc::Stat, i64)]) -> dc::Combatant {
    dc::Combatant {
        is_player: true,
        stats: stats(stat_values),
        ..Default::default()
    }
}

/// An enemy card of the given silhouette.
pub fn enemy(silhouette: dc::Silhouette, stat_values: &[(dc::Stat, i64)]) -> dc::Combatant {
    dc::Combatant {
        silhouette,
        stats: stats(stat_values),
        ..Default::default()
    }
}

/// An open wound record.
pub fn wound(id: i64, kind: dc::InjuryKind, part: dc::BodyPart, severity: i64) -> dc::Wound {
    dc::Wound {
        id,
        kind,
        part,
        severity,
        progress: 0,
        age: 0,
        stabilized: false,
        disinfected: false,
        infected: false,
        closed: false,
        replaced: false,
    }
}

/// The Bleeding linked to wound `id`.
pub fn bleeding(id: i64) -> dc::Affliction {
    dc::Affliction {
        kind: dc::AfflictionKind::Bleeding,
        wound_id: id,
        harm: 1,
        turns_left: 0,
    }
}

/// A character carrying `wounds` (ids must be unique), with the Bleeding of those that
/// bleed, and the next id after them.
pub fn wounded(wounds: Vec<dc::Wound>) -> dc::Combatant {
    let afflictions = wounds
        .iter()
        .filter(|w| {
            matches!(
                w.kind,
                dc::InjuryKind::DeepWound | dc::InjuryKind::MissingLimb
            )
        })
        .map(|w| bleeding(w.id))
        .collect();
    let next_wound_id = wounds.iter().map(|w| w.id).max().unwrap_or(0) + 1;
    dc::Combatant {
        is_player: true,
        wounds,
        afflictions,
        next_wound_id,
        ..Default::default()
    }
}

/// Formulas, checked against the interpreter.
pub fn formula(name: &str, args: Vec<Value>) -> Value {
    support::formula(&program(), name, args)
}

pub fn max_health(c: &dc::Combatant) -> i64 {
    let g = dc::max_health(c);
    assert_eq!(formula("max_health", vec![combatant_value(c)]).int(), g);
    g
}

pub fn charisma(c: &dc::Combatant) -> i64 {
    let g = dc::charisma(c);
    assert_eq!(formula("charisma", vec![combatant_value(c)]).int(), g);
    g
}

pub fn stat(c: &dc::Combatant, s: dc::Stat) -> i64 {
    let g = dc::stat(c, s);
    assert_eq!(
        formula("stat", vec![combatant_value(c), ch(s as usize)]).int(),
        g
    );
    g
}

pub fn max_stamina(c: &dc::Combatant) -> i64 {
    let g = dc::max_stamina(c);
    assert_eq!(formula("max_stamina", vec![combatant_value(c)]).int(), g);
    g
}

pub fn part_state(c: &dc::Combatant, part: dc::BodyPart) -> dc::BodyMapState {
    let g = dc::part_state(c, part);
    assert_eq!(
        formula("part_state", vec![combatant_value(c), ch(part as usize)]),
        ch(g as usize)
    );
    g
}

pub fn targetable_parts(c: &dc::Combatant) -> Vec<dc::BodyPart> {
    let g = dc::targetable_parts(c);
    assert_eq!(
        formula("targetable_parts", vec![combatant_value(c)]),
        list(g.iter().map(|p| ch(*p as usize)))
    );
    g.to_vec()
}

pub fn sever_reduction(c: &dc::Combatant, s: dc::Stat) -> i64 {
    let g = dc::sever_reduction(c, s);
    assert_eq!(
        formula("sever_reduction", vec![combatant_value(c), ch(s as usize)]).int(),
        g
    );
    g
}
