//! `cargo bench -p rulesc-tests --bench melee`: Kingsmark melee attacks per second, the
//! generated code (with `NoTrace`) against the interpreter, on the same seeded inputs.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{combatant_value, kingsmark, weapon_value, Draw, SeededDecide};
use rulesc::eval::{self, Value};
use rulesc_runtime::{Env, NoTrace, SeededDice};
use rulesc_tests::kingsmark as km;
use std::hint::black_box;
use std::time::{Duration, Instant};

const INPUTS: u64 = 1_000;
const RUN_FOR: Duration = Duration::from_secs(2);

/// Runs `round` (which resolves every input once) until `RUN_FOR` has passed; returns
/// resolutions per second.
fn rate(mut round: impl FnMut() -> u64) -> f64 {
    round(); // warm up
    let start = Instant::now();
    let mut done = 0u64;
    while start.elapsed() < RUN_FOR {
        done += round();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

fn main() {
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

    // Generated: the defender's wounds are restored after each attack (the only state
    // an attack changes), so the loop measures resolutions, not clones.
    let mut env = Env::new(SeededDice::new(1), SeededDecide::new(1), NoTrace);
    let mut defenders: Vec<km::Combatant> = inputs.iter().map(|(_, d, _)| d.clone()).collect();
    let generated = rate(|| {
        for ((a, d0, w), d) in inputs.iter().zip(defenders.iter_mut()) {
            black_box(km::melee_attack(&mut env, a, d, w));
            d.wounds = d0.wounds;
        }
        INPUTS
    });

    // Interpreter: each call gets a fresh copy of the defender (its records are shared
    // and changed in place).
    let mut env = Env::new(SeededDice::new(1), SeededDecide::new(1), NoTrace);
    let interpreted = rate(|| {
        for (a, d, w) in &values {
            black_box(eval::call(
                &p,
                &mut env,
                id,
                vec![a.clone(), d.deep_clone(), w.clone()],
            ));
        }
        INPUTS
    });

    println!("melee_attack, {INPUTS} seeded inputs, NoTrace:");
    println!("  generated   {:>12.0} resolutions/s", generated);
    println!("  interpreter {:>12.0} resolutions/s", interpreted);
    println!("  speed-up    {:>12.1}x", generated / interpreted);
}
