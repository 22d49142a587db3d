//! `cargo bench -p rulesc-tests --bench melee`: generated code (with `NoTrace`) against
//! hand-written Rust, and the interpreter for scale, in one run, on three cases:
//!
//! - `exchange`: a bare melee exchange (`fixtures/bench/exchange`, Kingsmark K9 and K12):
//!   two exploding d12 rolls and a comparison;
//! - `melee_attack`: Kingsmark's whole melee attack: attack and defence rolls, decisions,
//!   the hit-location table, armor layers and a wound box;
//! - `fight`: Kingsmark's whole fight (`examples/kingsmark/fight.yaml`), 50 seeded fights
//!   set up and played to the end, generated code against the interpreter only (no
//!   hand-written fight), each checked to end alike on both first.
//!
//! The hand-written versions are what a game programmer would write: plain Rust over the
//! runtime's raw face source (`SeededDice::face`), with no call into `roll` or anything
//! else under test. Each is checked equal to the generated code on every input first.
//!
//! Timing: the sides of a case run in alternating slices, a round being one slice of
//! each back to back. A ratio is the median over the rounds of the two sides' rates in
//! the same round: load from elsewhere on the machine hits both slices of a round alike
//! and drops out, where each side's best slice (printed as the rates, and the ratio of
//! the two beside it) may come from a quieter moment for one side than for the other. (Wall-clock time: this thread's CPU time, tried, read up to 20% above
//! the true rate on this virtual machine, so a "best" of it flattered whichever side.) `cargo bench --bench melee -- generated` (or `hand`, `interpreter`,
//! `exchange`, `melee_attack`, `fight`) runs only what it names, for profiling; `rounds=N` runs each
//! side named N rounds of its 1,000 inputs (50 fights), untimed, so that instructions can be counted
//! (`valgrind --tool=callgrind`, the difference of `rounds=3` and `rounds=1` over 2,000).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{combatant_value, kingsmark, weapon_value, Draw, SeededDecide};
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{Answer, Decide, DiceSource, Env, NoTrace, Policy, SeededDice};
use rulesc_tests::exchange as ex;
use rulesc_tests::kingsmark as km;
use std::hint::black_box;
use std::time::{Duration, Instant};

const INPUTS: u64 = 1_000;
const SLICE: Duration = Duration::from_millis(20);
const SLICES: usize = 100;

/// A side of a race: its name and a round that resolves every input once.
type Side<'a> = (&'static str, Box<dyn FnMut() -> u64 + 'a>);

/// Each side's rate (resolutions per second) in every round of slices, in side order;
/// empty for a side the command line left out.
type Rates = Vec<Vec<f64>>;

/// Runs the sides in alternating slices (a round runs one slice of each, back to back)
/// and returns every slice's rate.
fn race(case: &str, sides: &mut [Side<'_>]) -> Rates {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let wanted = |name: &str| {
        let named: Vec<&String> = args.iter().filter(|a| *a == name || *a == case).collect();
        let any_side = args
            .iter()
            .any(|a| ["hand", "generated", "interpreter"].contains(&a.as_str()));
        let any_case = args
            .iter()
            .any(|a| ["exchange", "melee_attack", "fight"].contains(&a.as_str()));
        let side_ok = !any_side || named.iter().any(|a| *a == name);
        let case_ok = !any_case || named.iter().any(|a| *a == case);
        side_ok && case_ok
    };
    let mut rates: Rates = vec![Vec::new(); sides.len()];
    // `rounds=N`: each side named runs N rounds and no slice is timed (for counting
    // instructions: the same work on every run).
    let counted = args
        .iter()
        .find_map(|a| a.strip_prefix("rounds=")?.parse::<usize>().ok());
    if let Some(n) = counted {
        for (name, round) in sides.iter_mut() {
            if wanted(name) {
                for _ in 0..n {
                    black_box(round());
                }
            }
        }
        return rates;
    }
    for (name, round) in sides.iter_mut() {
        if wanted(name) {
            round(); // warm up
        }
    }
    for _ in 0..SLICES {
        for (i, (name, round)) in sides.iter_mut().enumerate() {
            if !wanted(name) {
                continue;
            }
            let start = Instant::now();
            let mut done = 0u64;
            while start.elapsed() < SLICE {
                done += round();
            }
            rates[i].push(done as f64 / start.elapsed().as_secs_f64());
        }
    }
    rates
}

/// A side's best slice (0 for a side left out).
fn best(rates: &[f64]) -> f64 {
    rates.iter().copied().fold(0.0, f64::max)
}

/// The median over the rounds of `a`'s rate over `b`'s in the same round: slices run
/// back to back see the same load, so a burst of load elsewhere moves both sides of a
/// round and drops out of the ratio, where the ratio of two best slices taken at
/// different moments carries it. `NaN` for a side left out.
fn paired_ratio(a: &[f64], b: &[f64]) -> f64 {
    let mut ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    if ratios.is_empty() {
        return f64::NAN;
    }
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    if n % 2 == 1 {
        ratios[n / 2]
    } else {
        (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
    }
}

fn report(case: &str, rates: &Rates) {
    if rates.iter().all(Vec::is_empty) {
        // Nothing timed (`rounds=N`, or the case left out).
        return;
    }
    let (hand, generated, interpreted) = (&rates[0], &rates[1], &rates[2]);
    println!(
        "{case}, {INPUTS} seeded inputs, NoTrace ({SLICES} rounds of {} ms slices):",
        SLICE.as_millis()
    );
    println!(
        "  hand-written {:>12.0} resolutions/s (best slice)",
        best(hand)
    );
    println!(
        "  generated    {:>12.0} resolutions/s (best slice)",
        best(generated)
    );
    println!(
        "  interpreter  {:>12.0} resolutions/s (best slice)",
        best(interpreted)
    );
    println!(
        "  generated / hand-written: {:.2} (median of the rounds; {:.2} from the best slices)",
        paired_ratio(generated, hand),
        best(generated) / best(hand)
    );
    println!(
        "  generated / interpreter:  {:.1}x (median of the rounds; {:.1}x from the best slices)",
        paired_ratio(generated, interpreted),
        best(generated) / best(interpreted)
    );
}

/// One exploding d12 written by hand: (total, natural face).
#[inline(always)]
fn d12_exploding(dice: &mut SeededDice) -> (i64, i64) {
    let first = dice.face(12);
    let mut total = i64::from(first);
    let mut last = first;
    while last == 12 {
        last = dice.face(12);
        total += i64::from(last);
    }
    (total, i64::from(first))
}

/// The bare exchange by hand.
fn hand_exchange(dice: &mut SeededDice, a: &ex::Fighter, d: &ex::Fighter) -> ex::Exchange {
    let (roll, natural) = d12_exploding(dice);
    let attack = roll + a.physical_performance + a.skill;
    if natural == 1 {
        return ex::Exchange::EpicFailure;
    }
    let (roll, _) = d12_exploding(dice);
    let defence = roll + d.physical_performance + d.skill;
    if attack < defence {
        ex::Exchange::Miss
    } else {
        ex::Exchange::Hit {
            margin: attack - defence,
        }
    }
}

/// The hit-location table as a programmer would write it: face 1 is index 0.
const LOCATIONS: [km::HitLocation; 12] = {
    use km::HitLocation::*;
    [
        LeftFoot, RightFoot, LeftLeg, RightLeg, LeftHand, RightHand, LeftArm, RightArm, LowerTorso,
        UpperTorso, Neck, Head,
    ]
};

/// The melee attack by hand, against the generated types: same dice and decisions in the
/// same order.
fn hand_melee<X: Decide>(
    env: &mut Env<SeededDice, X, NoTrace>,
    attacker: &km::Combatant,
    defender: &mut km::Combatant,
    weapon: &km::Weapon,
) -> km::AttackResult {
    use km::{AttackResult, DamageLevel, Maneuver, MeleeDefence};
    let pain = |c: &km::Combatant| {
        let p: i64 = c.wounds.boxes().map(|b| km::WOUND_BOXES_PAIN[b - 1]).sum();
        (p - c.pain_relief).max(0)
    };
    let net = |c: &km::Combatant| pain(c) + c.distress + c.disadvantage - c.advantage;
    let (roll, natural) = d12_exploding(&mut env.dice);
    let attack = roll + attacker.physical_performance + attacker.skills[weapon.skill as usize];
    if natural == 1 {
        return AttackResult::EpicFailure;
    }
    let mut base_tn = 4;
    let mut shield = false;
    if !defender.surprised && !defender.defenceless {
        let choice = MeleeDefence::ALL[env.decide.decide("melee_defence", 3) as usize];
        shield = choice == MeleeDefence::DefendWithShield;
        let (roll, natural) = d12_exploding(&mut env.dice);
        let defence = roll
            + defender.physical_performance
            + defender.skills[km::melee_defence_skill(choice) as usize];
        base_tn = if natural == 1 {
            defence.min(4)
        } else {
            defence
        };
    }
    let tn = base_tn + net(attacker) - net(defender);
    if attack < tn {
        return AttackResult::Miss;
    }
    let mut maneuver =
        Maneuver::ALL[env.decide.decide("maneuver", Maneuver::ALL.len() as u32) as usize];
    let mut final_tn = tn + km::maneuver_difficulty(maneuver);
    if attack < final_tn {
        maneuver = Maneuver::OrdinaryStrike;
        final_tn = tn + km::maneuver_difficulty(maneuver);
    }
    let top = DamageLevel::ALL.len() as i64 - 1;
    let mut level = (weapon.base_damage as i64 + attack - final_tn).clamp(0, top);
    if attack < weapon.critical_threshold {
        level = level.min(DamageLevel::Severe as i64);
    }
    let mut in_play = false;
    if shield {
        let ready = env.decide.decide("shield_ready", 2) == 1;
        let intercepts = env.decide.decide("shield_intercepts", 2) == 1;
        in_play = ready && intercepts;
    }
    let location = if attacker.aiming {
        km::HitLocation::ALL[env.decide.decide("aimed_location", 12) as usize]
    } else if defender.exposed_locations.is_empty() {
        LOCATIONS[env.dice.face(12) as usize - 1]
    } else {
        let exposed = |l: &&km::HitLocation| defender.exposed_locations.contains(l);
        let n = LOCATIONS.iter().filter(exposed).count();
        let face = env.dice.face(n as u32) as usize;
        *LOCATIONS.iter().filter(exposed).nth(face - 1).unwrap()
    };
    let armor: i64 = defender
        .armor
        .iter()
        .filter(|p| p.covers.contains(&location) && (in_play || !p.shield))
        .map(|p| p.ratings[weapon.damage_type as usize])
        .sum();
    let wound = (level + armor).clamp(0, top);
    if wound < DamageLevel::Minor as i64 {
        return AttackResult::NoWound;
    }
    let (number, filled) = defender
        .wounds
        .fill(&km::WOUND_BOXES_LEVELS, wound as u8, true)
        .map_or((0, wound as u8), |(n, l)| (n as i64, l));
    let level = DamageLevel::ALL[usize::from(filled).max(wound as usize)];
    AttackResult::Hit {
        level,
        location,
        r#box: number,
    }
}

fn env(seed: u64) -> Env<SeededDice, SeededDecide, NoTrace> {
    Env::new(SeededDice::new(seed), SeededDecide::new(seed), NoTrace)
}

fn exchange_case() -> Rates {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench/exchange");
    let p: Program = rulesc::compile_dir(&dir)
        .0
        .expect("the exchange fixture checks");
    let (id, _) = p.function("exchange").expect("exchange");
    let inputs: Vec<(ex::Fighter, ex::Fighter)> = (0..INPUTS)
        .map(|seed| {
            let mut d = Draw::new(seed);
            let mut fighter = || ex::Fighter {
                physical_performance: d.int(-2, 5),
                skill: d.int(0, 6),
            };
            (fighter(), fighter())
        })
        .collect();
    let values: Vec<Vec<Value>> = inputs
        .iter()
        .map(|(a, d)| {
            [a, d]
                .iter()
                .map(|f| {
                    let fields = [
                        ("physical_performance", Value::Int(f.physical_performance)),
                        ("skill", Value::Int(f.skill)),
                    ];
                    eval::record(&p, "Fighter", &fields).expect("Fighter")
                })
                .collect()
        })
        .collect();

    let (mut env_g, mut env_h) = (env(9), env(9));
    for (a, d) in &inputs {
        assert_eq!(
            ex::exchange(&mut env_g, a, d),
            hand_exchange(&mut env_h.dice, a, d)
        );
    }

    let (mut env_h, mut env_g, mut env_i) = (env(1), env(1), env(1));
    let inputs = &inputs;
    let mut sides: Vec<Side> = vec![
        (
            "hand",
            Box::new(move || {
                for (a, d) in inputs {
                    black_box(hand_exchange(&mut env_h.dice, a, d));
                }
                INPUTS
            }),
        ),
        (
            "generated",
            Box::new(move || {
                for (a, d) in inputs {
                    black_box(ex::exchange(&mut env_g, a, d));
                }
                INPUTS
            }),
        ),
        (
            "interpreter",
            Box::new(|| {
                for args in &values {
                    let _ = black_box(eval::call(&p, &mut env_i, id, args.iter().cloned()));
                }
                INPUTS
            }),
        ),
    ];
    race("exchange", &mut sides)
}

fn melee_case() -> Rates {
    let p = kingsmark();
    let (id, _) = p.function("melee_attack").expect("melee_attack");
    let mut inputs = Vec::new();
    for seed in 0..INPUTS {
        let mut d = Draw::new(seed);
        inputs.push((d.combatant(), d.combatant(), d.weapon()));
    }
    let values: Vec<(Value, Value, Value)> = inputs
        .iter()
        .map(|(a, d, w)| {
            (
                combatant_value(&p, a),
                combatant_value(&p, d),
                weapon_value(&p, w),
            )
        })
        .collect();

    let (mut env_g, mut env_h) = (env(9), env(9));
    for (a, d, w) in &inputs {
        let (mut dg, mut dh) = (d.clone(), d.clone());
        assert_eq!(
            km::melee_attack(&mut env_g, a, &mut dg, w),
            hand_melee(&mut env_h, a, &mut dh, w)
        );
        assert_eq!(dg, dh);
    }

    // The defender's wounds are restored after each attack (the only state an attack
    // changes), so the loops measure resolutions, not clones. The interpreter's records
    // are shared and changed in place: its defender's wounds are set back the same way.
    let (mut env_h, mut env_g, mut env_i) = (env(1), env(1), env(1));
    let mut defenders_h: Vec<km::Combatant> = inputs.iter().map(|(_, d, _)| d.clone()).collect();
    let mut defenders_g = defenders_h.clone();
    let wounds = eval::FieldRef::new(&p, "Combatant", "wounds").expect("wounds");
    let wounds_i: Vec<Value> = values
        .iter()
        .map(|(_, d, _)| wounds.get(d).expect("wounds"))
        .collect();
    let inputs = &inputs;
    let mut sides: Vec<Side> = vec![
        (
            "hand",
            Box::new(move || {
                for ((a, d0, w), d) in inputs.iter().zip(defenders_h.iter_mut()) {
                    black_box(hand_melee(&mut env_h, a, d, w));
                    d.wounds = d0.wounds;
                }
                INPUTS
            }),
        ),
        (
            "generated",
            Box::new(move || {
                for ((a, d0, w), d) in inputs.iter().zip(defenders_g.iter_mut()) {
                    black_box(km::melee_attack(&mut env_g, a, d, w));
                    d.wounds = d0.wounds;
                }
                INPUTS
            }),
        ),
        (
            "interpreter",
            Box::new(|| {
                for ((a, d, w), wound_boxes) in values.iter().zip(&wounds_i) {
                    let args = [a.clone(), d.clone(), w.clone()];
                    let _ = black_box(eval::call(&p, &mut env_i, id, args));
                    wounds.set(d, wound_boxes.clone());
                }
                INPUTS
            }),
        ),
    ];
    race("melee_attack", &mut sides)
}

/// The fights a round of the `fight` case plays (seeds 0 to 49).
const FIGHTS: u64 = 50;

/// The environment of fight `seed`: seeded dice, decisions at random, untraced.
fn fight_env(seed: u64) -> Env<SeededDice, Policy, NoTrace> {
    Env::new(
        SeededDice::new(seed),
        Policy::new(Answer::Random, seed ^ 0x5eed),
        NoTrace,
    )
}

/// Whole fights: Kingsmark's `examples/kingsmark/fight.yaml` set up and played to its end
/// (or its round limit), by generated code (the fight `tests/src/fights.rs` builds, with
/// the generated `Rules`) and by the interpreter (the file read as `rulesc simulate`
/// reads it). No hand-written side: a whole fight by hand is a game, not a baseline.
fn fight_case() -> Rates {
    let p = kingsmark();
    let file = rulesc_tests::differential::fight_file(&p, "examples/kingsmark/fight.yaml");
    let rounds = file.rounds;
    let generated = |seed: u64| {
        let mut fight = rulesc_tests::fights::kingsmark();
        let end = fight.run(&mut km::Rules, &mut fight_env(seed), rounds);
        (end, fight.round())
    };
    let interpreted = |seed: u64| {
        let mut fight = file.fight();
        let mut rules = rulesc::fight::EvalRules::new(&p).expect("Kingsmark's fight");
        let end = fight.run(&mut rules, &mut fight_env(seed), rounds);
        (end, fight.round())
    };
    // The same fights on both sides: each ends the same way after as many rounds.
    for seed in 0..FIGHTS {
        assert_eq!(generated(seed), interpreted(seed), "fight {seed}");
    }
    let mut sides: Vec<Side> = vec![
        (
            "generated",
            Box::new(|| {
                (0..FIGHTS).for_each(|seed| {
                    black_box(generated(seed));
                });
                FIGHTS
            }),
        ),
        (
            "interpreter",
            Box::new(|| {
                (0..FIGHTS).for_each(|seed| {
                    black_box(interpreted(seed));
                });
                FIGHTS
            }),
        ),
    ];
    // In `report`'s order, with no hand-written rates.
    let mut rates = race("fight", &mut sides);
    rates.insert(0, Vec::new());
    rates
}

/// The `fight` case: generated code against the interpreter.
fn report_fight(rates: &Rates) {
    let (generated, interpreted) = (&rates[1], &rates[2]);
    if generated.is_empty() && interpreted.is_empty() {
        return;
    }
    println!(
        "fight (examples/kingsmark/fight.yaml), {FIGHTS} seeded fights, NoTrace ({SLICES} rounds of {} ms slices):",
        SLICE.as_millis()
    );
    println!(
        "  generated    {:>12.0} fights/s (best slice)",
        best(generated)
    );
    println!(
        "  interpreter  {:>12.0} fights/s (best slice)",
        best(interpreted)
    );
    println!(
        "  generated / interpreter:  {:.1}x (median of the rounds; {:.1}x from the best slices)",
        paired_ratio(generated, interpreted),
        best(generated) / best(interpreted)
    );
}

fn main() {
    let exchange = exchange_case();
    let melee = melee_case();
    let fight = fight_case();
    report("exchange", &exchange);
    report("melee_attack", &melee);
    report_fight(&fight);
}
