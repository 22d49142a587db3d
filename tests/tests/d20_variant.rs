//! `examples/variants/d20_house_rules`: a variant that `extends` d20 Armor Slots, adds its
//! own weapons and overrides the Greatsword's damage dice. It checks clean, its new
//! weapons fight in the interpreter, and only what it overrides differs from the base.

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSpec, Env, ScriptedDecisions, ScriptedDice, VecTrace};
use rulesc_tests::d20_armor_slots as d20;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn compile(dir: &str) -> Program {
    let (p, diags, _) = rulesc::compile_dir(&root().join(dir));
    p.unwrap_or_else(|| panic!("{dir}: {:?}", diags.items))
}

fn base() -> Program {
    compile("rules/d20-armor-slots")
}

fn house() -> Program {
    compile("examples/variants/d20_house_rules")
}

/// A weapon record of `p`, as the interpreter holds it.
fn weapon(p: &Program, name: &str) -> Value {
    let record = p
        .instance(name)
        .unwrap_or_else(|| panic!("no record `{name}`"));
    Value::from_const(&record.value)
}

fn field(p: &Program, ty: &str, v: &Value, name: &str) -> Value {
    eval::field(p, ty, v, name).unwrap_or_else(|| panic!("{ty}.{name}"))
}

fn fighter(p: &Program, strength: i64, weapon: Value) -> Value {
    let abilities = Value::Map(std::rc::Rc::new(vec![Value::Int(strength), Value::Int(0)]));
    eval::record(
        p,
        "Combatant",
        &[
            ("abilities", abilities),
            ("hp", Value::Int(20)),
            ("weapon", weapon),
        ],
    )
    .expect("Combatant fields")
}

/// `attack` in `p`'s interpreter: the defender Dodges, the DM picks the Chest.
fn attack(p: &Program, attacker: Value, faces: &[u32]) -> (String, String, ScriptedDice) {
    let defender = fighter(p, 0, weapon(p, "dagger"));
    let decisions = ScriptedDecisions::new()
        .answer("reaction", d20::Reaction::Dodge as u32)
        .answer("hit_slot", d20::ArmorSlot::Chest as u32);
    let mut env = Env::new(ScriptedDice::new(faces), decisions, VecTrace::default());
    let (id, f) = p.function("attack").expect("attack");
    let v = eval::call(p, &mut env, id, vec![attacker, defender]);
    assert!(
        env.decide.unanswered.is_empty(),
        "{:?}",
        env.decide.unanswered
    );
    (
        eval::show_result(p, &v, &f.ret),
        env.trace.render(&p.sites),
        env.dice,
    )
}

#[test]
fn d20_house_rules_checks_clean() {
    let (p, diags, _) = rulesc::compile_dir(&root().join("examples/variants/d20_house_rules"));
    assert!(p.is_some());
    assert!(
        diags.items.is_empty(),
        "not a single warning: {:?}",
        diags.items
    );
}

#[test]
fn d20_house_rules_battle_axe_fights_in_the_interpreter() {
    let (house, base) = (house(), base());
    assert!(base.instance("battle_axe").is_none(), "a new record");
    let axe = weapon(&house, "battle_axe");
    assert_eq!(
        field(&house, "Weapon", &axe, "damage"),
        Value::Dice(DiceSpec::new(1, 12))
    );
    // Strength 4 (+2) and the axe's +1: 12 + 3 = 15 against a Dodge of 5; the axe's
    // 1D12 = 11 lands on the bare Chest.
    let (result, trace, dice) = attack(&house, fighter(&house, 4, axe), &[12, 5, 11]);
    assert!(dice.fits_exactly(), "{:?}\n{trace}", dice.problems);
    assert_eq!(
        result, "Hit(slot: Chest, damage: 11, to_armor: 0, to_hp: 11)",
        "{trace}"
    );
    assert!(trace.contains("roll d12: 11\n"), "{trace}");
    assert!(
        trace.contains("let attack_bonus = ability_modifier(attacker.abilities[ability]) + weapon.attack_bonus + bonus  ->  3\n"),
        "{trace}"
    );
    // The other new weapons are there too, of the base's record type.
    for name in ["war_hammer", "throwing_knife", "light_crossbow"] {
        assert!(house.instance(name).is_some(), "{name}");
        assert!(base.instance(name).is_none(), "{name}");
    }
}

#[test]
fn d20_house_rules_greatsword_rolls_2d8_and_nothing_else_changed() {
    let (house, base) = (house(), base());
    let (h, b) = (weapon(&house, "greatsword"), weapon(&base, "greatsword"));
    assert_eq!(
        field(&base, "Weapon", &b, "damage"),
        Value::Dice(DiceSpec::new(2, 6))
    );
    assert_eq!(
        field(&house, "Weapon", &h, "damage"),
        Value::Dice(DiceSpec::new(2, 8))
    );
    // The generated base module keeps the book's 2D6.
    assert_eq!(d20::Weapon::greatsword().damage, DiceSpec::new(2, 6));
    for f in ["ability", "attack_bonus", "range"] {
        assert_eq!(
            field(&house, "Weapon", &h, f),
            field(&base, "Weapon", &b, f),
            "{f}"
        );
    }
    assert_eq!(weapon(&house, "longsword"), weapon(&base, "longsword"));

    // In play: faces 7 and 8 are a 2D8 = 15 in the variant; the base's 2D6 cannot show
    // an 8 (the script does not fit its dice).
    let faces = [12, 5, 7, 8];
    let (result, trace, dice) = attack(&house, fighter(&house, 2, h), &faces);
    assert!(dice.fits_exactly(), "{:?}\n{trace}", dice.problems);
    assert!(trace.contains("roll 2d8: 7 + 8 = 15\n"), "{trace}");
    assert_eq!(
        result,
        "Hit(slot: Chest, damage: 15, to_armor: 0, to_hp: 15)"
    );
    let (result, trace, dice) = attack(&base, fighter(&base, 2, b), &faces);
    assert!(!dice.fits_exactly(), "{trace}");
    assert!(trace.contains("roll 2d6: 6 + 6 = 12\n"), "{trace}");
    assert_eq!(
        result,
        "Hit(slot: Chest, damage: 12, to_armor: 0, to_hp: 12)"
    );
}

#[test]
fn d20_house_rules_explain_shows_the_override() {
    let text = rulesc::explain::explain(
        &root().join("examples/variants/d20_house_rules"),
        "greatsword",
    )
    .unwrap_or_else(|_| panic!("explain greatsword"));
    let damage = text.lines().find(|l| l.contains("damage:")).unwrap();
    assert!(
        damage.contains("damage: 2d8") && damage.contains("d20_house_rules/ruleset.yaml:"),
        "{text}"
    );
    let range = text.lines().find(|l| l.contains("range:")).unwrap();
    assert!(range.contains("d20-armor-slots/weapons.yaml:"), "{text}");
}
