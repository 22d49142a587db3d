//! The whole check of a ruleset folder. The input is split at NUL bytes into up to four
//! files (ruleset.yaml, data.yaml, a.rules, b.rules), written to a scratch folder, and
//! checked; if it checks, the Rust backend runs too (and must not refuse it), and a ruleset declaring a fight runs
//! one by the interpreter: two sides of two combatants at their defaults, three rounds,
//! traced. Never panics, never hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesc::eval::Value;
use rulesc::fight::EvalRules;
use rulesc::ir::Ty;
use rulesc_runtime::{Answer, Env, Fight, Policy, SeededDice, VecTrace};

const NAMES: [&str; 4] = ["ruleset.yaml", "data.yaml", "a.rules", "b.rules"];

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("rulesc-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    for (name, part) in NAMES.iter().zip(data.split(|&b| b == 0)) {
        let _ = std::fs::write(dir.join(name), part);
    }
    let (program, _, _) = rulesc::compile_dir(&dir);
    let Some(p) = program else {
        return;
    };
    // Every program that checks builds (what the Rust backend cannot say, `check`
    // refuses): a refusal here is the "a bug in rulesc" a writer would meet.
    if let Err(e) = rulesc::codegen::generate(&p) {
        panic!("a checked ruleset does not build: {e}");
    }
    let (Some(def), Some(mut rules)) = (p.fight.as_ref(), EvalRules::new(&p)) else {
        return;
    };
    let zero = p.zero(&Ty::Record(def.combatant));
    let mut fight: Fight<Value> = Fight::new();
    for (side, name) in [("a", "a1"), ("a", "a2"), ("b", "b1"), ("b", "b2")] {
        fight.join(side, name, Value::from_const(&zero));
    }
    let mut env = Env::new(
        SeededDice::new(7),
        Policy::new(Answer::Random, 7),
        VecTrace::default(),
    );
    fight.run(&mut rules, &mut env, 3);
    let _ = env.trace.render(&p.sites);
});
