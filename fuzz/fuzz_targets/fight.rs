//! A fight file from a stranger against a shipped ruleset, through `simulate` and
//! `simulate --trace`. The first byte picks the ruleset (`rules/<name>`, checked once);
//! the rest is the fight's YAML, written to a scratch file, read, run 8 times (at most
//! one second) and run 0 traced with its formulas. Never panics, never hangs, never
//! exhausts memory.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rulesc::eval::Options;
use rulesc::simulate;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, yaml)) = data.split_first() else {
        return;
    };
    let Some((p, path)) = common::ruleset_and_file(pick, "fight", yaml) else {
        return;
    };
    let Ok((file, _)) = simulate::read(p, &path) else {
        return;
    };
    let summary = simulate::simulate_within(p, &file, 8, 7, Some(Duration::from_secs(1)));
    let _ = summary.render(p, &file, 7);
    let options = Options {
        trace_formulas: true,
    };
    let _ = simulate::trace_run(p, &file, 7, 0, options);
});
