//! Hit Strength: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same outcome and leave every combatant in the
//! same state: 10,000 seeded resolutions each of the attack (`attack`) and of the injury
//! at 0 hit points (`injure`), and fewer of the timers and Heal checks.

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{DiceSource, SeededDice};
use rulesc_tests::differential::{
    check, fight_differential, fight_env, fight_file, generated, interpret, join_file, tag,
    untraced,
};
use rulesc_tests::hit_strength as hs;
use rulesc_tests::support::Shown;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

const SEEDS: u64 = 10_000;

fn hit_strength() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/hit-strength");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("hit-strength does not check: {:?}", diags.items))
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

    fn injury(&mut self) -> hs::Injury {
        let severity = if self.chance(5) {
            hs::InjurySeverity::NoInjury
        } else {
            self.pick(&[
                hs::InjurySeverity::SevereInjury,
                hs::InjurySeverity::FatalInjury,
            ])
        };
        hs::Injury {
            location: self.pick(&hs::InjuryLocation::ALL),
            severity,
            bleeding_out: if severity == hs::InjurySeverity::FatalInjury && self.chance(70) {
                self.int(1, 600)
            } else {
                0
            },
        }
    }

    fn combatant(&mut self) -> hs::Combatant {
        let at_zero = self.chance(50);
        let injuries = if at_zero {
            (0..self.int(0, 3)).map(|_| self.injury()).collect()
        } else {
            Vec::new()
        };
        hs::Combatant {
            hit_points: if at_zero { 0 } else { self.int(1, 25) },
            max_hit_points: self.int(10, 30),
            defense: self.int(6, 20),
            attack_bonus: self.int(-2, 10),
            endurance: self.int(-1, 8),
            heal: self.int(-1, 8),
            speed: self.int(0, 40),
            exhausted: if at_zero {
                self.chance(90)
            } else {
                self.chance(5)
            },
            healing_blocked: if self.chance(50) {
                self.int(0, 3600)
            } else {
                0
            },
            injuries,
            knocked_out: self.chance(10),
            eye_at_risk: if self.chance(15) { 20 } else { 0 },
            eyes_lost: self.int(0, 2),
            dead: self.chance(5),
            weapon: hs::Weapon::standard_sword(),
        }
    }

    fn weapon(&mut self) -> hs::Weapon {
        if self.chance(50) {
            hs::Weapon::standard_sword()
        } else {
            hs::Weapon {
                damage: [self.int(0, 5), self.int(3, 9), self.int(6, 15)],
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The interpreter's values

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn weapon_value(p: &Program, w: &hs::Weapon) -> Value {
    let damage = Value::Map(Rc::new(w.damage.iter().map(|d| Value::Int(*d)).collect()));
    rec(p, "Weapon", &[("damage", damage)])
}

fn injury_value(p: &Program, i: &hs::Injury) -> Value {
    rec(
        p,
        "Injury",
        &[
            ("location", Value::Choice(i.location as u16)),
            ("severity", Value::Choice(i.severity as u16)),
            ("bleeding_out", Value::Int(i.bleeding_out)),
        ],
    )
}

fn combatant_value(p: &Program, c: &hs::Combatant) -> Value {
    let injuries = Value::List(Rc::new(
        c.injuries.iter().map(|i| injury_value(p, i)).collect(),
    ));
    rec(
        p,
        "Combatant",
        &[
            ("hit_points", Value::Int(c.hit_points)),
            ("max_hit_points", Value::Int(c.max_hit_points)),
            ("defense", Value::Int(c.defense)),
            ("attack_bonus", Value::Int(c.attack_bonus)),
            ("endurance", Value::Int(c.endurance)),
            ("heal", Value::Int(c.heal)),
            ("speed", Value::Int(c.speed)),
            ("exhausted", Value::Bool(c.exhausted)),
            ("healing_blocked", Value::Int(c.healing_blocked)),
            ("injuries", injuries),
            ("knocked_out", Value::Bool(c.knocked_out)),
            ("eye_at_risk", Value::Int(c.eye_at_risk)),
            ("eyes_lost", Value::Int(c.eyes_lost)),
            ("dead", Value::Bool(c.dead)),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// Running both backends

// ---------------------------------------------------------------------------------------

#[test]
fn site_tables_are_identical() {
    let p = hit_strength();
    assert_eq!(hs::SITES, p.sites.as_slice());
}

#[test]
fn attack_matches_the_interpreter() {
    let p = hit_strength();
    let mut outcomes = BTreeMap::<String, u32>::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (attacker, defender, weapon) = (d.combatant(), d.combatant(), d.weapon());
        let args = vec![
            combatant_value(&p, &attacker),
            combatant_value(&p, &defender),
            weapon_value(&p, &weapon),
        ];
        let interp = interpret(&p, "attack", seed, args);
        let gen = generated(seed, |e| {
            let mut def = defender.clone();
            let r = hs::attack(e, &attacker, &mut def, &weapon);
            (
                r.shown(),
                vec![
                    combatant_value(&p, &attacker),
                    combatant_value(&p, &def),
                    weapon_value(&p, &weapon),
                ],
            )
        });
        let plain = untraced(seed, |e| {
            hs::attack(e, &attacker, &mut defender.clone(), &weapon)
        });
        *outcomes.entry(tag(&gen.outcome)).or_default() += 1;
        check(&p, "attack", seed, &interp, &gen, plain);
    }
    // The seeds reach every outcome, so every branch was compared.
    for t in ["Miss", "Hit", "NoEffect", "Injured"] {
        assert!(outcomes.get(t).copied().unwrap_or(0) > 100, "{outcomes:?}");
    }
}

#[test]
fn injure_matches_the_interpreter() {
    let p = hit_strength();
    let mut outcomes = BTreeMap::<String, u32>::new();
    let mut knocked_out = 0;
    let mut eyes_at_risk = 0;
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let mut c = d.combatant();
        c.hit_points = 0;
        let strength = d.pick(&hs::HitStrength::ALL);
        let args = vec![combatant_value(&p, &c), Value::Choice(strength as u16)];
        let interp = interpret(&p, "injure", seed, args);
        let gen = generated(seed, |e| {
            let mut x = c.clone();
            let r = hs::injure(e, &mut x, strength);
            knocked_out += u32::from(!c.knocked_out && x.knocked_out);
            eyes_at_risk += u32::from(c.eye_at_risk == 0 && x.eye_at_risk > 0);
            (
                r.shown(),
                vec![combatant_value(&p, &x), Value::Choice(strength as u16)],
            )
        });
        let plain = untraced(seed, |e| hs::injure(e, &mut c.clone(), strength));
        *outcomes.entry(gen.outcome.clone()).or_default() += 1;
        check(&p, "injure", seed, &interp, &gen, plain);
    }
    assert!(
        outcomes.get("NoEffect").copied().unwrap_or(0) > 100,
        "{outcomes:?}"
    );
    // Every severity at every place, the H5 escalation included.
    for severity in ["Severe Injury", "Fatal Injury"] {
        for place in ["Arm", "Leg", "Internal", "Head"] {
            let n: u32 = outcomes
                .iter()
                .filter(|(o, _)| o.contains(severity) && o.contains(&format!("{place} Injury")))
                .map(|(_, n)| n)
                .sum();
            assert!(n > 50, "{severity} {place}: {outcomes:?}");
        }
    }
    let escalated: u32 = outcomes
        .iter()
        .filter(|(o, _)| o.contains("Medium Hit") && o.contains("Fatal Injury"))
        .map(|(_, n)| n)
        .sum();
    assert!(escalated > 50, "H5: {outcomes:?}");
    assert!(
        knocked_out > 50 && eyes_at_risk > 50,
        "{knocked_out} {eyes_at_risk}"
    );
}

#[test]
fn timers_and_heal_checks_match_the_interpreter() {
    let p = hit_strength();
    for seed in 0..SEEDS / 5 {
        let mut d = Draw::new(seed);
        let (a, b) = (d.combatant(), d.combatant());
        let any = d.int(-10, 4000);
        let seconds = d.pick(&[0, 1, 6, 59, 60, 600, 3600, any]);
        let amount = d.int(0, 30);

        let interp = interpret(
            &p,
            "time_passes",
            seed,
            vec![combatant_value(&p, &b), Value::Int(seconds)],
        );
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::time_passes(e, &mut x, seconds);
            (
                r.shown(),
                vec![combatant_value(&p, &x), Value::Int(seconds)],
            )
        });
        let plain = untraced(seed, |e| hs::time_passes(e, &mut b.clone(), seconds));
        check(&p, "time_passes", seed, &interp, &gen, plain);

        let interp = interpret(
            &p,
            "heal",
            seed,
            vec![combatant_value(&p, &b), Value::Int(amount)],
        );
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::heal(e, &mut x, amount);
            (
                r.to_string(),
                vec![combatant_value(&p, &x), Value::Int(amount)],
            )
        });
        let plain = untraced(seed, |e| hs::heal(e, &mut b.clone(), amount));
        check(&p, "heal", seed, &interp, &gen, plain);

        let pair = || vec![combatant_value(&p, &a), combatant_value(&p, &b)];
        let interp = interpret(&p, "stop_bleeding", seed, pair());
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::stop_bleeding(e, &a, &mut x);
            (
                r.shown(),
                vec![combatant_value(&p, &a), combatant_value(&p, &x)],
            )
        });
        let plain = untraced(seed, |e| hs::stop_bleeding(e, &a, &mut b.clone()));
        check(&p, "stop_bleeding", seed, &interp, &gen, plain);

        let interp = interpret(&p, "save_eye", seed, pair());
        let gen = generated(seed, |e| {
            let mut x = b.clone();
            let r = hs::save_eye(e, &a, &mut x);
            (
                r.to_string(),
                vec![combatant_value(&p, &a), combatant_value(&p, &x)],
            )
        });
        let plain = untraced(seed, |e| hs::save_eye(e, &a, &mut b.clone()));
        check(&p, "save_eye", seed, &interp, &gen, plain);
    }
}

// ---------------------------------------------------------------------------------------
// Whole fights

const FIGHT: &str = "examples/hit-strength/fight.yaml";

/// The combatants of `examples/hit-strength/fight.yaml`, in its order, as the generated
/// code's records (`fight_differential` checks they are the file's).
fn example_combatants() -> Vec<hs::Combatant> {
    let fighter = |hp, defense, attack_bonus, endurance, heal, speed| hs::Combatant {
        hit_points: hp,
        max_hit_points: hp,
        defense,
        attack_bonus,
        endurance,
        heal,
        speed,
        ..Default::default()
    };
    vec![
        fighter(14, 13, 5, 3, 6, 30),
        fighter(16, 12, 4, 4, 0, 25),
        fighter(12, 12, 4, 2, 2, 30),
        fighter(12, 11, 3, 2, 0, 20),
    ]
}

#[test]
fn whole_fights_match_the_interpreter() {
    let p = hit_strength();
    let file = fight_file(&p, FIGHT);
    let combatants = example_combatants();
    let ends = fight_differential(
        &p,
        "hit-strength fight",
        &file,
        &combatants,
        |c| combatant_value(&p, c),
        || hs::Rules,
        1_000,
    );
    assert_eq!(
        ends.keys().filter(|k| k.starts_with("Won")).count(),
        2,
        "both sides win some: {ends:?}"
    );
    // The fights compared took every path: injuries at 0 hit points (H3), blood loss
    // stopped by an ally (H7); and world time is 6 seconds a round (fight.rules).
    let (mut injured, mut helped) = (0, 0);
    for seed in 0..1_000 {
        let mut env = fight_env(seed);
        let mut fight = join_file(&file, &combatants);
        fight.run(&mut hs::Rules, &mut env, file.rounds);
        let round = i64::from(fight.round());
        assert!(
            [6 * round - 6, 6 * round].contains(&fight.time()),
            "seed {seed}: world time passes at each round's end"
        );
        injured += fight
            .combatants
            .iter()
            .filter(|c| !c.injuries.is_empty())
            .count();
        helped += fight
            .combatants
            .iter()
            .filter(|c| {
                !c.dead
                    && c.injuries.iter().any(|i| {
                        i.severity == hs::InjurySeverity::FatalInjury && i.bleeding_out == 0
                    })
            })
            .count();
    }
    assert!(injured > 200 && helped > 50, "{injured} {helped}");
}
