//! A scenario from a stranger against a shipped ruleset, through `trace` and `analyze`.
//! The first byte picks the ruleset (`rules/<name>`, checked once); the rest is the
//! scenario's YAML, written to a scratch file, run by the interpreter with a fixed seed
//! and analyzed by both engines with small budgets (4 dice a path, 3 explosions, 2,000
//! paths or states, 200,000 steps, one second). Never panics, never hangs, never
//! exhausts memory.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rulesc::analyze::{self, EngineKind, Limits};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, yaml)) = data.split_first() else {
        return;
    };
    let Some((p, path)) = common::ruleset_and_file(pick, "scenario", yaml) else {
        return;
    };
    let _ = rulesc::scenario::run_file(p, &path, 7);
    // Both engines, on small budgets.
    for engine in [EngineKind::Merged, EngineKind::Paths] {
        let limits = Limits {
            engine,
            max_dice: Some(4),
            explode_depth: 3,
            max_paths: 2_000,
            max_steps: 200_000,
            max_seconds: 1,
            max_states: 2_000,
        };
        let _ = analyze::analyze(p, &path, &limits);
    }
});
