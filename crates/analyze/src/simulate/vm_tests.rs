//! Whole fights on the VM: the shipped rulesets' and the test fixtures' (ties at once,
//! repeating timers), every function lowered, each fight the same traced (each
//! function's full code) and untraced (its plain code). What a fight means is held
//! against generated code by the fight differentials (`tests/tests/*_fight.rs`,
//! `tests/tests/fights.rs`). And what `out` says while a fight is calm is remembered
//! (`rulesc_core::fight`'s `is_out`): the same answers and steps as asking every time.

use crate::eval::Options;
use crate::fight::{self, hooks};
use crate::simulate::{self, Run};
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (p, _, _) = crate::compile_dir(&root.join(ruleset));
    // Checked for running: every function lowered (else E0363).
    let p = p.unwrap_or_else(|| panic!("{ruleset} checks"));
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
        (run, fight::FIGHT_STEPS.get())
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

/// Each shipped fight, run with `out` remembered in calms and with it asked every time:
/// the same ends, rounds and groups, the same trace (the fight's events, rolls,
/// decisions, procedures' steps; and with formulas traced, each formula's), and the same
/// steps taken from the fight's budget.
#[test]
fn remembering_out_changes_no_result_no_trace_and_no_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for ruleset in [
        "kingsmark",
        "hit-strength",
        "d20-armor-slots",
        "dungeon-cards",
        "victory-stars",
    ] {
        let (p, diags, _) = crate::compile_dir(&root.join("rules").join(ruleset));
        let p = p.unwrap_or_else(|| panic!("{ruleset}: {:?}", diags.items));
        let path = root.join("examples").join(ruleset).join("fight.yaml");
        let Ok((file, _)) = simulate::read(&p, &path) else {
            panic!("{ruleset}: fight.yaml does not read");
        };
        let run = |k: u64, ask: bool, trace_formulas: bool| -> (Run, String, u64) {
            hooks::ASK_EVERY_TIME.with(|a| a.set(ask));
            let options = Options { trace_formulas };
            let (run, trace) = simulate::run_once(&p, &file, 7, k, VecTrace::default(), options);
            hooks::ASK_EVERY_TIME.with(|a| a.set(false));
            (run, trace.render(&p.sites), fight::FIGHT_STEPS.get())
        };
        // Formulas traced (`--trace-formulas`), `out` runs every time, each call in the
        // trace.
        for (k, trace_formulas) in (0..25).map(|k| (k, false)).chain([(0, true), (1, true)]) {
            let (run_r, trace_r, steps_r) = run(k, false, trace_formulas);
            let (run_a, trace_a, steps_a) = run(k, true, trace_formulas);
            assert_eq!(run_r, run_a, "{ruleset} run {k}");
            assert_eq!(steps_r, steps_a, "{ruleset} run {k}: steps");
            assert!(trace_r == trace_a, "{ruleset} run {k}: the traces differ");
        }
    }
}
