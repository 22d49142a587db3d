//! The melee bench's game: generated code (`bench-rules`) against hand-written Rust
//! (`bench-hand`), each from its own crate, timed here as `tests/benches/melee.rs` times
//! them in its own binary (`race.rs`), on the same seeded inputs
//! (`tests/tests/common/kingsmark_draw.rs`). `tests/benches/melee.rs` builds this twice,
//! with cargo's default release profile and with thin LTO, and runs both; each run prints
//! its cases and a line `ratio <case> <generated / hand-written>` for it to read.

mod race;

#[path = "../../../../tests/common/kingsmark_draw.rs"]
mod draw;

use bench_hand::hand::{hand_exchange, hand_melee};
use bench_rules::{exchange as ex, kingsmark as km};
use draw::{Draw, SeededDecide};
use race::{best, paired_ratio, race, Rates, Side, INPUTS};
use rulesc_runtime::{Env, NoTrace, SeededDice};
use std::hint::black_box;

fn env(seed: u64) -> Env<SeededDice, SeededDecide, NoTrace> {
    Env::new(SeededDice::new(seed), SeededDecide::new(seed), NoTrace)
}

fn exchange_case() -> Rates {
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
    let (mut env_g, mut env_h) = (env(9), env(9));
    for (a, d) in &inputs {
        assert_eq!(
            ex::exchange(&mut env_g, a, d),
            hand_exchange(&mut env_h.dice, a, d)
        );
    }
    let (mut env_h, mut env_g) = (env(1), env(1));
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
    ];
    race("exchange", &mut sides)
}

fn melee_case() -> Rates {
    let mut inputs = Vec::new();
    for seed in 0..INPUTS {
        let mut d = Draw::new(seed);
        inputs.push((d.combatant(), d.combatant(), d.weapon()));
    }
    let (mut env_g, mut env_h) = (env(9), env(9));
    for (a, d, w) in &inputs {
        let (mut dg, mut dh) = (d.clone(), d.clone());
        assert_eq!(
            km::melee_attack(&mut env_g, a, &mut dg, w),
            hand_melee(&mut env_h, a, &mut dh, w)
        );
        assert_eq!(dg, dh);
    }
    // The defender's wounds are restored after each attack, as in melee.rs.
    let (mut env_h, mut env_g) = (env(1), env(1));
    let mut defenders_h: Vec<km::Combatant> = inputs.iter().map(|(_, d, _)| d.clone()).collect();
    let mut defenders_g = defenders_h.clone();
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
    ];
    race("melee_attack", &mut sides)
}

fn report(case: &str, rates: &Rates) {
    let (hand, generated) = (&rates[0], &rates[1]);
    if hand.is_empty() || generated.is_empty() {
        return;
    }
    println!(
        "  {case}: hand-written {:.0}/s, generated {:.0}/s (best slices); generated / hand-written {:.2} (median of the rounds)",
        best(hand),
        best(generated),
        paired_ratio(generated, hand),
    );
    println!("ratio {case} {:.4}", paired_ratio(generated, hand));
}

fn main() {
    let exchange = exchange_case();
    let melee = melee_case();
    report("exchange", &exchange);
    report("melee_attack", &melee);
}
