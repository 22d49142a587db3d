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
//! else under test (`game/hand/src/hand.rs`). Each is checked equal to the generated code
//! on every input first.
//!
//! Then the same two cases as a game builds them (`game/`, a workspace of its own): the
//! generated modules in one crate, the hand-written baseline in another, the harness that
//! times them in a third, built with cargo's default release profile (no LTO, 16 codegen
//! units) and again with thin LTO and one codegen unit, each run after the other; the
//! last lines put the two ratios side by side. (This binary itself is built with the
//! workspace's release profile, thin LTO and one codegen unit, and its hand-written side
//! is in its own crate, where nothing stands between it and the caller.) The first run
//! builds the game's two profiles (a few seconds each, into `target/bench-game/`).
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

/// The timing, shared with the game-like harness.
#[path = "game/harness/src/race.rs"]
mod race;

/// The hand-written baseline, shared with the game-like harness's `bench-hand` crate
/// (it names `crate::ex` and `crate::km`, the generated modules, here `rulesc_tests`').
#[path = "game/hand/src/hand.rs"]
mod hand;

use common::{combatant_value, kingsmark, weapon_value, Draw, SeededDecide};
use hand::{hand_exchange, hand_melee};
use race::{best, paired_ratio, race, Rates, Side, INPUTS, SLICE, SLICES};
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{Answer, Env, NoTrace, Policy, SeededDice};
use rulesc_tests::exchange as ex;
use rulesc_tests::kingsmark as km;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// The two builds of the game (`game/`), in the order they run: cargo's profile name and
/// what it is.
const GAME_BUILDS: [(&str, &str); 2] = [
    (
        "release",
        "cargo's default release profile: no LTO, 16 codegen units",
    ),
    ("lto", "thin LTO, one codegen unit"),
];

/// The generated code against the hand-written baseline as a game builds them: the
/// generated modules written into `target/bench-game/gen` (what a game's `build.rs`
/// writes), then `game/` (the rules, the baseline and the harness, three crates) built
/// with each of `GAME_BUILDS` and run, one after the other. Each run's ratios are paired
/// within it (`race`), so the two ratios compare, however the machine's load moves
/// between the runs. Returns each build's `(case, ratio)` lines; nothing when the
/// command line names only the interpreter or the fight, or `rounds=N`.
fn game_builds() -> Vec<Vec<(String, f64)>> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let skip = args.iter().any(|a| a.starts_with("rounds="))
        || (!args.is_empty()
            && args
                .iter()
                .all(|a| ["interpreter", "fight"].contains(&a.as_str())));
    if skip {
        return Vec::new();
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target: PathBuf = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| here.join("../target"))
        .join("bench-game");
    let gen = target.join("gen");
    std::fs::create_dir_all(&gen).expect("the game's folder");
    for (name, dir) in [
        ("exchange", here.join("fixtures/bench/exchange")),
        ("kingsmark", here.join("../rules/kingsmark")),
    ] {
        let p = rulesc::compile_dir(&dir).0.expect("the ruleset checks");
        let code = rulesc::codegen::generate(&p).expect("the ruleset generates");
        let file = gen.join(format!("{name}.rs"));
        // Written only when changed, so cargo rebuilds only then.
        if std::fs::read_to_string(&file).ok().as_deref() != Some(&code) {
            std::fs::write(&file, code).expect("the generated module");
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = here.join("benches/game/Cargo.toml");
    let mut all = Vec::new();
    for (profile, what) in GAME_BUILDS {
        let built = Command::new(&cargo)
            .args([
                "build",
                "--quiet",
                "--profile",
                profile,
                "-p",
                "bench-harness",
            ])
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target)
            .env("RULESC_BENCH_GEN", &gen)
            .status()
            .expect("cargo runs");
        assert!(built.success(), "the game's {profile} build failed");
        println!("as a game builds it ({what}; rules, baseline and harness three crates):");
        let out = Command::new(target.join(profile).join("bench-harness"))
            .args(&args)
            .output()
            .expect("the game's harness runs");
        assert!(out.status.success(), "the game's {profile} harness failed");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut ratios = Vec::new();
        for line in text.lines() {
            match line.strip_prefix("ratio ") {
                Some(rest) => {
                    let (case, ratio) = rest.split_once(' ').expect("ratio <case> <x>");
                    ratios.push((case.to_string(), ratio.parse().expect("a ratio")));
                }
                None => println!("{line}"),
            }
        }
        all.push(ratios);
    }
    all
}

fn main() {
    let exchange = exchange_case();
    let melee = melee_case();
    let fight = fight_case();
    report("exchange", &exchange);
    report("melee_attack", &melee);
    report_fight(&fight);
    let games = game_builds();
    if let [no_lto, lto] = &games[..] {
        println!("generated / hand-written as a game builds it, without LTO and with:");
        for ((case, a), (_, b)) in no_lto.iter().zip(lto) {
            println!("  {case:<13} {a:.2} without LTO, {b:.2} with thin LTO");
        }
    }
}
