//! Victory Stars: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same exchange and leave both combatants in the
//! same state: 10,000 seeded resolutions of each attack procedure with each defence it
//! admits (the defender's `defence` decision is steered to it; every other decision is
//! answered from the seed, sometimes out of range, which both backends clamp alike).

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSource, SeededDice};
use rulesc_tests::differential::{check, env, finish, interpret, untraced, Seeded};
use rulesc_tests::support::Shown;
use rulesc_tests::victory_stars as vs;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

const SEEDS: u64 = 10_000;

fn victory_stars() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/victory-stars");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("victory-stars does not check: {:?}", diags.items))
}

// ---------------------------------------------------------------------------------------
// Arguments drawn from a seed

struct Draw(SeededDice);

impl Draw {
    fn new(seed: u64) -> Self {
        Draw(SeededDice::new(seed))
    }

    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.0.face((hi - lo + 1) as u32)) - 1
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.0.face(100) <= percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.int(0, items.len() as i64 - 1) as usize]
    }

    fn wound(&mut self) -> vs::Wound {
        vs::Wound {
            part: self.pick(&vs::BodyPart::ALL),
            severity: self.pick(&vs::Severity::ALL),
            injury_level: self.int(0, 5),
            impairment: self.int(0, 4),
            bleeding: self.chance(50),
            healing_days: self.int(0, 60),
            shock_index: self.int(0, 6),
        }
    }

    fn combatant(&mut self) -> vs::Combatant {
        let mut skills = [0i64; 6];
        for s in skills.iter_mut() {
            if self.chance(85) {
                *s = self.int(20, 95);
            }
        }
        let items: Vec<vs::Item> = vs::Item::ALL
            .iter()
            .copied()
            .filter(|i| *i != vs::Item::BareArm)
            .collect();
        let held = (0..self.int(0, 2)).map(|_| self.pick(&items)).collect();
        let thresholds = match self.int(0, 3) {
            0 => vs::Combatant::cat().thresholds,
            1 => vs::Combatant::bull().thresholds,
            2 => {
                let mut t = Vec::new();
                let mut at = 0;
                for _ in 0..self.int(1, 6) {
                    at += self.int(1, 6);
                    t.push(at);
                }
                t
            }
            _ => vec![4, 8, 12, 16, 20],
        };
        let mut toughness = [0i64; 4];
        for t in toughness.iter_mut() {
            if self.chance(30) {
                *t = self.int(0, 3);
            }
        }
        let mut armour = Vec::new();
        for (piece, percent) in [
            (vs::Armour::padded_jack(), 40),
            (vs::Armour::mail_hauberk(), 25),
            (vs::Armour::steel_breastplate(), 50),
            (vs::Armour::kettle_helm(), 50),
        ] {
            if self.chance(percent) {
                armour.push(piece);
            }
        }
        let wounds = (0..self.int(0, 2)).map(|_| self.wound()).collect();
        let shock = if self.chance(80) {
            vs::ShockState::Unshaken
        } else {
            self.pick(&vs::ShockState::ALL)
        };
        let mut advantages = [0i64; 4];
        for a in advantages.iter_mut() {
            if self.chance(20) {
                *a = self.int(1, 2);
            }
        }
        let morale_states = (0..self.int(0, 2))
            .map(|_| self.pick(&vs::MoraleState::ALL))
            .collect();
        vs::Combatant {
            strength: self.int(3, 20),
            dexterity: self.int(3, 18),
            agility: self.int(3, 18),
            endurance: self.int(4, 20),
            skills,
            fatigue: self.int(0, 2),
            encumbrance: self.int(0, 2),
            prone: self.chance(15),
            situational: self.int(-4, 4) * 5,
            pinned: self.chance(10),
            unaware: self.chance(10),
            held,
            thresholds,
            toughness,
            armour,
            wounds,
            shock,
            advantages,
            morale_states,
            morale_test_pending: self.chance(10),
            side_strength: self.int(0, 10),
            badly_outnumbered: self.chance(20),
            leader: false,
        }
    }

    fn melee_mode(&mut self) -> vs::StrikeMode {
        let modes: Vec<vs::StrikeMode> = vs::StrikeMode::ALL
            .iter()
            .copied()
            .filter(|m| !vs::strike_modes(*m).missile)
            .collect();
        self.pick(&modes)
    }

    fn missile_mode(&mut self) -> vs::StrikeMode {
        let modes: Vec<vs::StrikeMode> = vs::StrikeMode::ALL
            .iter()
            .copied()
            .filter(|m| vs::strike_modes(*m).missile)
            .collect();
        self.pick(&modes)
    }

    /// Makes `d` available to `defender` against `mode` (drawing another mode when the
    /// mode bars it); `Ignore` always is.
    fn allow(&mut self, d: vs::Defence, defender: &mut vs::Combatant, mode: &mut vs::StrikeMode) {
        if d == vs::Defence::Ignore {
            return;
        }
        defender.pinned = false;
        defender.unaware = false;
        defender.shock = vs::ShockState::Unshaken;
        let missile = vs::strike_modes(*mode).missile;
        while !vs::available_defences(defender, *mode).contains(&d) {
            if missile && d == vs::Defence::Block {
                defender.held.push(vs::Item::RoundShield);
            } else {
                *mode = if missile {
                    self.missile_mode()
                } else {
                    self.melee_mode()
                };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The interpreter's values

fn choice(i: u16) -> Value {
    Value::Choice(i)
}

fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn ints(items: &[i64]) -> Vec<Value> {
    items.iter().map(|i| Value::Int(*i)).collect()
}

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn armour_value(p: &Program, a: &vs::Armour) -> Value {
    rec(
        p,
        "Armour",
        &[
            ("covers", list(a.covers.iter().map(|x| choice(*x as u16)))),
            ("protection", Value::Map(Rc::new(ints(&a.protection)))),
            ("rigid", Value::Bool(a.rigid)),
        ],
    )
}

fn wound_value(p: &Program, w: &vs::Wound) -> Value {
    rec(
        p,
        "Wound",
        &[
            ("part", choice(w.part as u16)),
            ("severity", choice(w.severity as u16)),
            ("injury_level", Value::Int(w.injury_level)),
            ("impairment", Value::Int(w.impairment)),
            ("bleeding", Value::Bool(w.bleeding)),
            ("healing_days", Value::Int(w.healing_days)),
            ("shock_index", Value::Int(w.shock_index)),
        ],
    )
}

fn combatant_value(p: &Program, c: &vs::Combatant) -> Value {
    rec(
        p,
        "Combatant",
        &[
            ("strength", Value::Int(c.strength)),
            ("dexterity", Value::Int(c.dexterity)),
            ("agility", Value::Int(c.agility)),
            ("endurance", Value::Int(c.endurance)),
            ("skills", Value::Map(Rc::new(ints(&c.skills)))),
            ("fatigue", Value::Int(c.fatigue)),
            ("encumbrance", Value::Int(c.encumbrance)),
            ("prone", Value::Bool(c.prone)),
            ("situational", Value::Int(c.situational)),
            ("pinned", Value::Bool(c.pinned)),
            ("unaware", Value::Bool(c.unaware)),
            ("held", list(c.held.iter().map(|i| choice(*i as u16)))),
            ("thresholds", list(ints(&c.thresholds))),
            ("toughness", Value::Map(Rc::new(ints(&c.toughness)))),
            ("armour", list(c.armour.iter().map(|a| armour_value(p, a)))),
            ("wounds", list(c.wounds.iter().map(|w| wound_value(p, w)))),
            ("shock", choice(c.shock as u16)),
            ("advantages", Value::Map(Rc::new(ints(&c.advantages)))),
            (
                "morale_states",
                list(c.morale_states.iter().map(|s| choice(*s as u16))),
            ),
            ("morale_test_pending", Value::Bool(c.morale_test_pending)),
            ("side_strength", Value::Int(c.side_strength)),
            ("badly_outnumbered", Value::Bool(c.badly_outnumbered)),
            ("leader", Value::Bool(c.leader)),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// Running both backends

/// The shape of a blow in a printed exchange (`Wounded`, `NoBlow`, ...), for coverage.
fn blow_kinds(outcome: &str) -> Vec<String> {
    ["blow: ", "counterblow: "]
        .iter()
        .filter_map(|field| {
            let at = outcome.find(field)?;
            let rest = &outcome[at + field.len()..];
            let end = rest.find(['(', ',', ')']).unwrap_or(rest.len());
            Some(format!("{field}{}", &rest[..end]))
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Procedure {
    Melee,
    Missile,
}

/// `SEEDS` resolutions of one attack procedure with defence `d`; returns how often each
/// kind of blow came out.
fn compare(procedure: Procedure, d: vs::Defence) -> BTreeMap<String, u32> {
    let p = victory_stars();
    let name = match procedure {
        Procedure::Melee => "melee_attack",
        Procedure::Missile => "missile_attack",
    };
    let what = format!("`{name}` with {d}");
    let mut seen = BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut draw = Draw::new(seed);
        let attacker = draw.combatant();
        let mut defender = draw.combatant();
        let mut mode = match procedure {
            Procedure::Melee => draw.melee_mode(),
            Procedure::Missile => draw.missile_mode(),
        };
        draw.allow(d, &mut defender, &mut mode);
        let ammunition: Vec<vs::Ammunition> = if draw.chance(80) {
            vec![draw.pick(&vs::Ammunition::ALL)]
        } else {
            vec![]
        };
        let range = draw.pick(&vs::RangeBand::ALL);
        let options = vs::available_defences(&defender, mode);
        let steer = options.iter().position(|o| *o == d).map(|i| i as u32);
        assert!(steer.is_some(), "{what}, seed {seed}: {d} is not available");
        let steered = Seeded::steered(seed, "defence", steer);

        let mut args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            choice(mode as u16),
        ];
        if procedure == Procedure::Missile {
            args.push(list(ammunition.iter().map(|a| choice(*a as u16))));
            args.push(choice(range as u16));
        }
        let interp = interpret(&p, name, steered, args);

        let (mut a, mut b) = (attacker.clone(), defender.clone());
        let mut e = env(steered);
        let r = match procedure {
            Procedure::Melee => vs::melee_attack(&mut e, &mut a, &mut b, mode),
            Procedure::Missile => {
                vs::missile_attack(&mut e, &mut a, &mut b, mode, &ammunition, range)
            }
        };
        let mut after = vec![
            combatant_value(&p, &a),
            combatant_value(&p, &b),
            choice(mode as u16),
        ];
        if procedure == Procedure::Missile {
            after.push(list(ammunition.iter().map(|a| choice(*a as u16))));
            after.push(choice(range as u16));
        }
        let gen = finish(e, r.shown(), after);

        let plain = untraced(steered, |e| {
            let (mut a, mut b) = (attacker.clone(), defender.clone());
            match procedure {
                Procedure::Melee => vs::melee_attack(e, &mut a, &mut b, mode),
                Procedure::Missile => {
                    vs::missile_attack(e, &mut a, &mut b, mode, &ammunition, range)
                }
            }
        });
        check(&p, &what, seed, &interp, &gen, plain);
        for kind in blow_kinds(&gen.outcome) {
            *seen.entry(kind).or_default() += 1;
        }
        let tag = gen
            .outcome
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        *seen.entry(tag).or_default() += 1;
    }
    seen
}

/// Each listed kind came out often enough that its branch was compared.
fn assert_reached(seen: &BTreeMap<String, u32>, kinds: &[&str]) {
    for kind in kinds {
        assert!(
            seen.get(*kind).copied().unwrap_or(0) > 10,
            "`{kind}` too rare: {seen:?}"
        );
    }
}

#[test]
fn site_tables_are_identical() {
    let p = victory_stars();
    assert_eq!(vs::SITES, p.sites.as_slice());
}

#[test]
fn melee_attack_with_block_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Block);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: NoBlow",
            "blow: Breakage",
            "blow: Wounded",
            "blow: NoInjury",
        ],
    );
}

#[test]
fn melee_attack_with_dodge_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Dodge);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: NoBlow",
            "blow: Wounded",
            "blow: NoInjury",
            "blow: OffTheBody",
        ],
    );
}

#[test]
fn melee_attack_with_counterstrike_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Counterstrike);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: Wounded",
            "counterblow: Wounded",
            "counterblow: NoBlow",
            "counterblow: NoInjury",
        ],
    );
}

#[test]
fn melee_attack_with_ignore_matches_the_interpreter() {
    let seen = compare(Procedure::Melee, vs::Defence::Ignore);
    assert_reached(
        &seen,
        &[
            "Unopposed",
            "blow: NoBlow",
            "blow: Wounded",
            "blow: NoInjury",
            "blow: Glance",
            "blow: OffTheBody",
        ],
    );
}

#[test]
fn missile_attack_with_block_matches_the_interpreter() {
    let seen = compare(Procedure::Missile, vs::Defence::Block);
    assert_reached(
        &seen,
        &["Contest", "blow: Breakage", "blow: Wounded", "blow: NoBlow"],
    );
}

#[test]
fn missile_attack_with_dodge_matches_the_interpreter() {
    let seen = compare(Procedure::Missile, vs::Defence::Dodge);
    assert_reached(
        &seen,
        &[
            "Contest",
            "blow: Wounded",
            "blow: NoBlow",
            "blow: OffTheBody",
        ],
    );
}

#[test]
fn missile_attack_with_ignore_matches_the_interpreter() {
    let seen = compare(Procedure::Missile, vs::Defence::Ignore);
    assert_reached(&seen, &["Unopposed", "blow: Wounded", "blow: NoInjury"]);
}

/// Counterstrike is never available against a missile (V2): no seed can steer to it.
#[test]
fn missile_attack_admits_no_counterstrike() {
    let mut draw = Draw::new(1);
    for _ in 0..1_000 {
        let defender = draw.combatant();
        let mode = draw.missile_mode();
        assert!(!vs::available_defences(&defender, mode).contains(&vs::Defence::Counterstrike));
    }
}

#[test]
fn whole_victory_stars_fights_match_the_interpreter() {
    // `examples/victory-stars/fight.yaml`, 1,000 seeds, decisions at random: exchanges,
    // wounds, shock and the Morale triggers of a whole fight.
    let p = victory_stars();
    let file = rulesc_tests::differential::fight_file(&p, "examples/victory-stars/fight.yaml");
    let ends = rulesc_tests::differential::fight_differential(
        &p,
        "victory-stars",
        &file,
        &rulesc_tests::fights::victory_stars().combatants,
        |c| combatant_value(&p, c),
        || vs::Rules,
        1_000,
    );
    assert!(
        ends.contains_key("Won(Side(0))") && ends.contains_key("Won(Side(1))"),
        "{ends:?}"
    );
}
