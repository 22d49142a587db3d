//! d20 Armor Slots: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same outcome and leave both combatants in the
//! same state: 10,000 seeded resolutions of `attack` with each reaction (Dodge, Parry,
//! Block, Take Hit, and none), 10,000 of `combined_attack`, and the initiative,
//! assistance and equipment procedures. The arguments come from the ruleset's one
//! generator, `common/d20_armor_slots_draw.rs` (the property test draws from it too).

mod common;
#[path = "common/d20_armor_slots_draw.rs"]
mod d20_armor_slots_draw;

use common::Draw;
use d20_armor_slots_draw::{choice, combatant, combatant_value, list, suit, suit_value};
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSource, Env, NoTrace, RuleError, SeededDice};
use rulesc_tests::d20_armor_slots as d20;
use rulesc_tests::differential::{
    check, generated, interpret, plain_face, tag, untraced, untraced_env, RandomDecide, Seeded,
};
use rulesc_tests::support::Shown;
use std::collections::BTreeMap;
use std::path::Path;

const SEEDS: u64 = 10_000;

fn program() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/d20-armor-slots");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("d20-armor-slots does not check: {:?}", diags.items))
}

#[test]
fn site_tables_are_identical() {
    let p = program();
    assert_eq!(d20::SITES, p.sites.as_slice());
}

/// 10,000 seeded `attack`s with the defender always choosing `reaction`; returns how
/// often each outcome came up.
fn attacks_with(reaction: d20::Reaction) -> BTreeMap<String, u32> {
    let p = program();
    let mut outcomes = BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (attacker, mut defender) = (combatant(&mut d), combatant(&mut d));
        if reaction == d20::Reaction::Block {
            d20_armor_slots_draw::with_unbroken_shield(&mut d, &mut defender);
        }
        let offered = d20::reactions(&defender);
        let Some(at) = offered.iter().position(|r| *r == reaction) else {
            panic!("{reaction} is not offered to {defender:?}")
        };
        let forced = Seeded::steered(seed, "reaction", Some(at as u32));
        let args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
        ];
        let interp = interpret(&p, "attack", forced, args);
        let gen = generated(forced, |e| {
            let (mut a, mut t) = (attacker.clone(), defender.clone());
            let r = d20::attack(e, &mut a, &mut t);
            (
                r.shown(),
                vec![combatant_value(&p, &a), combatant_value(&p, &t)],
            )
        });
        let plain = untraced(forced, |e| {
            d20::attack(e, &mut attacker.clone(), &mut defender.clone())
        });
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "attack", seed, &interp, &gen, plain);
    }
    outcomes
}

/// The seeds reach every outcome `tags` names, so every branch was compared.
fn reached(outcomes: &BTreeMap<String, u32>, tags: &[&str]) {
    for tag in tags {
        assert!(
            outcomes.get(*tag).copied().unwrap_or(0) > 10,
            "{tag}: {outcomes:?}"
        );
    }
}

#[test]
fn attack_with_dodge_matches_the_interpreter() {
    let outcomes = attacks_with(d20::Reaction::Dodge);
    reached(
        &outcomes,
        &["AutoMiss", "Miss", "PerfectDefence", "Hit", "CriticalHit"],
    );
}

#[test]
fn attack_with_parry_matches_the_interpreter() {
    let outcomes = attacks_with(d20::Reaction::Parry);
    reached(
        &outcomes,
        &["AutoMiss", "Miss", "PerfectDefence", "Hit", "CriticalHit"],
    );
}

#[test]
fn attack_with_block_matches_the_interpreter() {
    let outcomes = attacks_with(d20::Reaction::Block);
    reached(&outcomes, &["AutoMiss", "Blocked", "Hit", "CriticalHit"]);
}

#[test]
fn attack_with_take_hit_matches_the_interpreter() {
    let outcomes = attacks_with(d20::Reaction::TakeHit);
    reached(
        &outcomes,
        &[
            "AutoMiss",
            "Absorbed",
            "PerfectDefence",
            "Hit",
            "CriticalHit",
        ],
    );
}

#[test]
fn attack_with_no_reaction_matches_the_interpreter() {
    let outcomes = attacks_with(d20::Reaction::NoReaction);
    reached(&outcomes, &["AutoMiss", "Miss", "Hit", "CriticalHit"]);
}

#[test]
fn combined_attack_matches_the_interpreter() {
    // The reaction is drawn too: every reaction the defender is offered.
    let p = program();
    let mut outcomes = BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (attacker, defender, dc) = (combatant(&mut d), combatant(&mut d), d.int(5, 25));
        let args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            Value::Int(dc),
        ];
        let interp = interpret(&p, "combined_attack", seed, args);
        let gen = generated(seed, |e| {
            let (mut a, mut t) = (attacker.clone(), defender.clone());
            let r = d20::combined_attack(e, &mut a, &mut t, dc);
            (
                r.shown(),
                vec![
                    combatant_value(&p, &a),
                    combatant_value(&p, &t),
                    Value::Int(dc),
                ],
            )
        });
        let plain = untraced(seed, |e| {
            d20::combined_attack(e, &mut attacker.clone(), &mut defender.clone(), dc)
        });
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "combined_attack", seed, &interp, &gen, plain);
    }
    reached(
        &outcomes,
        &[
            "NotApproved",
            "FirstActionFailed",
            "AutoMiss",
            "Miss",
            "PerfectDefence",
            "Blocked",
            "Absorbed",
            "Hit",
            "CriticalHit",
        ],
    );
}

#[test]
fn initiative_assistance_and_equipment_match_the_interpreter() {
    let p = program();
    for seed in 0..SEEDS / 10 {
        let mut d = Draw::new(seed);
        let (c, other) = (combatant(&mut d), combatant(&mut d));
        let cv = |c: &d20::Combatant| combatant_value(&p, c);

        let participants = d.int(1, 12);
        let interp = interpret(
            &p,
            "roll_initiative",
            seed,
            vec![cv(&c), Value::Int(participants)],
        );
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = d20::roll_initiative(e, &mut x, participants);
            (r.to_string(), vec![cv(&x), Value::Int(participants)])
        });
        let plain = untraced(seed, |e| {
            d20::roll_initiative(e, &mut c.clone(), participants)
        });
        check(&p, "roll_initiative", seed, &interp, &gen, plain);

        let tied: Vec<d20::Combatant> = (0..d.int(0, 4)).map(|_| combatant(&mut d)).collect();
        let tv = || list(tied.iter().map(cv));
        let show = |v: Result<rulesc_runtime::SmallList<i64, 16>, RuleError>| match v {
            Ok(v) => {
                let items: Vec<String> = v.iter().map(i64::to_string).collect();
                format!("[{}]", items.join(", "))
            }
            Err(e) => rulesc_tests::support::shown_error(&e),
        };
        let interp = interpret(&p, "break_tie", seed, vec![tv(), Value::Int(participants)]);
        let gen = generated(seed, |e| {
            let r = d20::break_tie(e, &tied, participants);
            (show(r), vec![tv(), Value::Int(participants)])
        });
        let mut e = untraced_env(seed);
        let plain = (
            show(d20::break_tie(&mut e, &tied, participants)),
            e.dice.face(1_000_000),
        );
        check(&p, "break_tie", seed, &interp, &gen, plain);

        let interp = interpret(&p, "assist", seed, vec![cv(&c), cv(&other)]);
        let gen = generated(seed, |e| {
            let (mut h, mut a) = (c.clone(), other.clone());
            let r = d20::assist(e, &mut h, &mut a);
            (r.to_string(), vec![cv(&h), cv(&a)])
        });
        let plain = untraced(seed, |e| d20::assist(e, &mut c.clone(), &mut other.clone()));
        check(&p, "assist", seed, &interp, &gen, plain);

        let interp = interpret(&p, "start_round", seed, vec![cv(&c)]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            d20::start_round(e, &mut x);
            (String::new(), vec![cv(&x)])
        });
        check(
            &p,
            "start_round",
            seed,
            &interp,
            &gen,
            (String::new(), plain_face(seed)),
        );

        // A preset suit or a custom one (any slots, AC and HP).
        let suit = &suit(&mut d);
        let interp = interpret(&p, "don_armor", seed, vec![cv(&c), suit_value(&p, suit)]);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            d20::don_armor(e, &mut x, suit);
            (String::new(), vec![cv(&x), suit_value(&p, suit)])
        });
        check(
            &p,
            "don_armor",
            seed,
            &interp,
            &gen,
            (String::new(), plain_face(seed)),
        );

        let kind = d.pick(&d20::ShieldKind::ALL);
        let interp = interpret(
            &p,
            "take_up_shield",
            seed,
            vec![cv(&c), choice(kind as u16)],
        );
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            d20::take_up_shield(e, &mut x, kind);
            (String::new(), vec![cv(&x), choice(kind as u16)])
        });
        check(
            &p,
            "take_up_shield",
            seed,
            &interp,
            &gen,
            (String::new(), plain_face(seed)),
        );

        // The formulas the procedures are built from.
        let f = |name: &str, args: Vec<Value>| {
            let (id, _) = p.function(name).unwrap();
            let mut e = Env::new(SeededDice::new(seed), RandomDecide::new(seed), NoTrace);
            eval::call(&p, &mut e, id, args)
                .unwrap_or_else(|e| panic!("`{name}` met a rule error: {e}"))
        };
        assert_eq!(f("total_ac", vec![cv(&c)]).int(), d20::total_ac(&c));
        assert_eq!(f("can_block", vec![cv(&c)]).bool(), d20::can_block(&c));
        assert_eq!(
            f("reactions", vec![cv(&c)]),
            list(d20::reactions(&c).iter().map(|r| choice(*r as u16)))
        );
        assert_eq!(
            f("suit_ac", vec![suit_value(&p, suit)]).int(),
            d20::suit_ac(suit)
        );
        let score = d.int(-5, 20);
        assert_eq!(
            f("ability_modifier", vec![Value::Int(score)]).int(),
            d20::ability_modifier(score)
        );
    }
}

#[test]
fn whole_d20_fights_match_the_interpreter() {
    // `examples/d20-armor-slots/fight.yaml`, 1,000 seeds, decisions at random.
    let p = program();
    let file = rulesc_tests::differential::fight_file(&p, "examples/d20-armor-slots/fight.yaml");
    let ends = rulesc_tests::differential::fight_differential(
        &p,
        "d20-armor-slots",
        &file,
        &rulesc_tests::fights::d20().combatants,
        |c| combatant_value(&p, c),
        || d20::Rules,
        1_000,
    );
    assert!(
        ends.contains_key("Won(Side(0))") && ends.contains_key("Won(Side(1))"),
        "{ends:?}"
    );
}
