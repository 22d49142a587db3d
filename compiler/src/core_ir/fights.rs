//! Whole fights on the VM: the shipped rulesets' and the test fixtures' (ties at once,
//! repeating timers), every function lowered, each fight the same traced (each
//! function's full code) and untraced (its plain code). What a fight means is held
//! against generated code by the fight differentials (`tests/tests/*_fight.rs`,
//! `tests/tests/fights.rs`).

use crate::eval::Options;
use crate::simulate;
use rulesc_runtime::{NoTrace, VecTrace};
use std::path::Path;

/// Each ruleset with a whole fight, from the repository's root: the shipped ones
/// (`examples/<ruleset>/fight.yaml`) and the fixtures whose fights tie at once and repeat
/// timers (`skirmish`) or run on speed and triggers (`arena`).
const FIGHTS: [(&str, &str); 7] = [
    ("rules/kingsmark", "examples/kingsmark/fight.yaml"),
    (
        "rules/d20-armor-slots",
        "examples/d20-armor-slots/fight.yaml",
    ),
    ("rules/dungeon-cards", "examples/dungeon-cards/fight.yaml"),
    ("rules/hit-strength", "examples/hit-strength/fight.yaml"),
    ("rules/victory-stars", "examples/victory-stars/fight.yaml"),
    (
        "tests/fixtures/codegen/skirmish",
        "tests/fixtures/fights/skirmish.yaml",
    ),
    (
        "tests/fixtures/codegen/arena",
        "tests/fixtures/fights/arena.yaml",
    ),
];

/// The functions of program `p` that do not lower.
fn unlowered(p: &crate::ir::Program) -> Vec<String> {
    let code = crate::core_ir::module(p);
    (0..p.functions.len())
        .filter(|id| code.func(*id).is_none())
        .map(|id| p.functions[id].name.clone())
        .collect()
}

/// Each fight run traced and untraced, and with formulas traced (a run of `skirmish`'s
/// advances into its repeating timer's stop formula, traced as the run is): the same
/// ends, rounds and standing, and the same steps taken from the fight's budget.
#[test]
fn every_fight_runs_alike_in_the_full_and_the_plain_code() {
    for (ruleset, fight) in FIGHTS {
        compare(ruleset, fight, 30);
    }
}

/// Fight `fight` of `ruleset`, runs `0..runs` untraced, traced and (the first three)
/// with formulas traced.
fn compare(ruleset: &str, fight: &str, runs: u64) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (p, _, _) = crate::compile_dir(&root.join(ruleset));
    let p = p.unwrap_or_else(|| panic!("{ruleset} checks"));
    assert_eq!(
        unlowered(&p),
        Vec::<String>::new(),
        "{ruleset}: every function lowers"
    );
    let Ok((file, _)) = simulate::read(&p, &root.join(fight)) else {
        panic!("{ruleset}: {fight} does not read");
    };
    let run = |k: u64, (traced, trace_formulas): (bool, bool)| {
        let options = Options { trace_formulas };
        let run = if traced {
            let (run, trace) = simulate::run_once(&p, &file, 7, k, VecTrace::default(), options);
            assert!(!trace.events.is_empty(), "{ruleset} run {k}: traced");
            run
        } else {
            simulate::run_once(&p, &file, 7, k, NoTrace, options).0
        };
        (run, crate::fight::FIGHT_STEPS.get())
    };
    for k in 0..runs {
        let plain = run(k, (false, false));
        assert_eq!(run(k, (true, false)), plain, "{ruleset} run {k}: traced");
        if k < 3 {
            assert_eq!(
                run(k, (true, true)),
                plain,
                "{ruleset} run {k}: formulas traced"
            );
        }
    }
}
