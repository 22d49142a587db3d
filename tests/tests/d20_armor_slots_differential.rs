//! d20 Armor Slots: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same outcome and leave both combatants in the
//! same state: 10,000 seeded resolutions of `attack` with each reaction (Dodge, Parry,
//! Block, Take Hit, and none), 10,000 of `combined_attack`, and the initiative,
//! assistance and equipment procedures.

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSource, DiceSpec, Env, NoTrace, RuleError, SeededDice};
use rulesc_tests::d20_armor_slots as d20;
use rulesc_tests::differential::{
    check, generated, interpret, plain_face, tag, untraced, untraced_env, RandomDecide, Seeded,
};
use rulesc_tests::support::Shown;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

const SEEDS: u64 = 10_000;

fn program() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/d20-armor-slots");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("d20-armor-slots does not check: {:?}", diags.items))
}

// ---------------------------------------------------------------------------------------
// Argument values for the interpreter

fn choice(i: u16) -> Value {
    Value::Choice(i)
}

fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn ints(items: &[i64]) -> Value {
    Value::Map(Rc::new(items.iter().map(|i| Value::Int(*i)).collect()))
}

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn weapon_value(p: &Program, w: &d20::Weapon) -> Value {
    rec(
        p,
        "Weapon",
        &[
            ("ability", choice(w.ability as u16)),
            ("attack_bonus", Value::Int(w.attack_bonus)),
            ("damage", Value::Dice(w.damage)),
            ("range", Value::Int(w.range)),
        ],
    )
}

fn piece_value(p: &Program, a: &d20::ArmorPiece) -> Value {
    rec(
        p,
        "ArmorPiece",
        &[
            ("slot", choice(a.slot as u16)),
            ("ac", Value::Int(a.ac)),
            ("hp", Value::Int(a.hp)),
        ],
    )
}

fn suit_value(p: &Program, s: &d20::ArmorSet) -> Value {
    rec(
        p,
        "ArmorSet",
        &[("pieces", list(s.pieces.iter().map(|a| piece_value(p, a))))],
    )
}

fn combatant_value(p: &Program, c: &d20::Combatant) -> Value {
    rec(
        p,
        "Combatant",
        &[
            ("abilities", ints(&c.abilities)),
            ("skills", ints(&c.skills)),
            ("hp", Value::Int(c.hp)),
            ("weapon", weapon_value(p, &c.weapon)),
            ("armor", list(c.armor.iter().map(|a| piece_value(p, a)))),
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
// Seeded arguments

/// Draws argument values from a seed.
struct Draw(SeededDice);

impl Draw {
    fn new(seed: u64) -> Self {
        Draw(SeededDice::new(seed))
    }

    /// An integer in `lo..=hi`.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.0.face((hi - lo + 1) as u32)) - 1
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u32) -> bool {
        self.0.face(100) <= percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.int(0, items.len() as i64 - 1) as usize]
    }

    fn weapon(&mut self) -> d20::Weapon {
        match self.int(0, 8) {
            0 => d20::Weapon::longsword(),
            1 => d20::Weapon::greatsword(),
            2 => d20::Weapon::spear(),
            3 => d20::Weapon::heavy_crossbow(),
            4 => d20::Weapon::dagger(),
            5 => d20::Weapon::rapier(),
            6 => d20::Weapon::shortbow(),
            7 => d20::Weapon::katana(),
            _ => d20::Weapon {
                ability: self.pick(&d20::WeaponAbility::ALL),
                attack_bonus: self.int(-2, 4),
                damage: DiceSpec::new(self.int(1, 3) as u32, self.pick(&[4, 6, 8, 10, 12])),
                range: self.int(1, 100),
            },
        }
    }

    fn armor(&mut self) -> Vec<d20::ArmorPiece> {
        let suit = match self.int(0, 4) {
            0 => d20::ArmorSet::unarmored(),
            1 => d20::ArmorSet::full_leather(),
            2 => d20::ArmorSet::full_chain(),
            3 => d20::ArmorSet::full_plate(),
            _ => d20::ArmorSet {
                pieces: (0..self.int(0, 7))
                    .map(|_| d20::ArmorPiece {
                        slot: self.pick(&d20::ArmorSlot::ALL),
                        ac: self.int(0, 3),
                        hp: self.int(0, 20),
                    })
                    .collect(),
            },
        };
        let mut pieces = suit.pieces;
        // Worn armor: some of it damaged, some broken.
        for piece in pieces.iter_mut() {
            if self.chance(30) {
                piece.hp = self.int(0, piece.hp);
            }
        }
        pieces
    }

    fn combatant(&mut self) -> d20::Combatant {
        let shield = if self.chance(50) {
            self.pick(&d20::ShieldKind::ALL)
        } else {
            d20::ShieldKind::NoShield
        };
        d20::Combatant {
            abilities: [self.int(-2, 12), self.int(-2, 12)],
            skills: [self.int(-3, 5), self.int(-3, 5), self.int(-3, 5)],
            hp: self.int(0, 30),
            weapon: self.weapon(),
            armor: self.armor(),
            shield,
            shield_hp: self.int(0, 25),
            initiative: self.int(0, 10),
            tie_break: 0,
            conditions: (0..self.int(0, 2))
                .map(|_| self.pick(&d20::Condition::ALL))
                .collect(),
            assist_bonus: if self.chance(25) { 2 } else { 0 },
            assistance_this_round: self.int(0, 1),
            gave_up_action: self.chance(20),
        }
    }
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
        let (attacker, mut defender) = (d.combatant(), d.combatant());
        if reaction == d20::Reaction::Block {
            // Block requires a shield with HP left.
            defender.shield = d.pick(&d20::ShieldKind::ALL[1..]);
            defender.shield_hp = d.int(1, 25);
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
        let (attacker, defender, dc) = (d.combatant(), d.combatant(), d.int(5, 25));
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
    let suits = [
        d20::ArmorSet::unarmored(),
        d20::ArmorSet::full_leather(),
        d20::ArmorSet::full_chain(),
        d20::ArmorSet::full_plate(),
    ];
    for seed in 0..SEEDS / 10 {
        let mut d = Draw::new(seed);
        let (c, other) = (d.combatant(), d.combatant());
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

        let tied: Vec<d20::Combatant> = (0..d.int(0, 4)).map(|_| d.combatant()).collect();
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

        let suit = &suits[d.int(0, 3) as usize];
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
