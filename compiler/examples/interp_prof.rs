//! The interpreter's profiling harness: `n` runs of the bare exchange
//! (`tests/fixtures/bench/exchange`) or `n / 5` of Kingsmark's melee attack on Sir
//! Aldren's scenario (`examples/kingsmark/aldren.yaml`), through `eval::call`, as the
//! melee bench's interpreter side runs them. The instruction counts of `docs/perf.md` are the
//! difference of two runs under callgrind, so the setup (compiling the ruleset) cancels:
//!
//! ```text
//! cargo build --release -p rulesc --example interp_prof
//! valgrind --tool=callgrind target/release/examples/interp_prof exchange 5000
//! valgrind --tool=callgrind target/release/examples/interp_prof exchange 25000
//! ```
//!
//! (total instructions of the second minus the first, over 20,000; `melee` the same,
//! over 4,000). It prints a rate too, but wall time on a shared machine is noise: the
//! bench (`cargo bench -p rulesc-tests --bench melee`) is the one to quote for speed.

use rulesc::eval::{self, Value};
use rulesc_runtime::{Decide, DiceSource, Env, NoTrace, SeededDice};
use std::time::Instant;

/// Decisions drawn from seeded dice.
struct SD(SeededDice);

impl Decide for SD {
    fn decide(&mut self, _name: &'static str, options: u32) -> u32 {
        self.0.face(options) - 1
    }
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or("both".into());
    let n: usize = std::env::args()
        .nth(2)
        .map_or(200_000, |s| s.parse().unwrap());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut env = Env::new(SeededDice::new(1), SD(SeededDice::new(2)), NoTrace);
    if which != "melee" {
        let p = rulesc::compile_dir(&root.join("tests/fixtures/bench/exchange"))
            .0
            .unwrap();
        let (id, _) = p.function("exchange").unwrap();
        let a = eval::record(
            &p,
            "Fighter",
            &[
                ("physical_performance", Value::Int(2)),
                ("skill", Value::Int(3)),
            ],
        )
        .unwrap();
        let d = eval::record(
            &p,
            "Fighter",
            &[
                ("physical_performance", Value::Int(1)),
                ("skill", Value::Int(4)),
            ],
        )
        .unwrap();
        let t = Instant::now();
        for _ in 0..n {
            let _ = std::hint::black_box(eval::call(&p, &mut env, id, [a.clone(), d.clone()]));
        }
        eprintln!("exchange {:.0}/s", n as f64 / t.elapsed().as_secs_f64());
    }
    if which != "exchange" {
        let p = rulesc::compile_dir(&root.join("rules/kingsmark"))
            .0
            .unwrap();
        let (s, _) = rulesc::scenario::read(&p, &root.join("examples/kingsmark/aldren.yaml"))
            .ok()
            .unwrap();
        let (id, _) = p.function("melee_attack").unwrap();
        let field = eval::FieldRef::new(&p, "Combatant", "wounds").unwrap();
        let wounds = field.get(&s.args[1]).unwrap();
        let t = Instant::now();
        for _ in 0..n / 5 {
            let args = [s.args[0].clone(), s.args[1].clone(), s.args[2].clone()];
            let _ = std::hint::black_box(eval::call(&p, &mut env, id, args));
            field.set(&s.args[1], wounds.clone());
        }
        eprintln!("melee {:.0}/s", (n / 5) as f64 / t.elapsed().as_secs_f64());
    }
}
