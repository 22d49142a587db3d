//! Whole fights on the VM: the shipped rulesets' and the test fixtures' (ties at once,
//! repeating timers), every function lowered, each fight as on the walker.

use crate::eval::{self, Options};
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

/// Each fight run on the VM and on the walker (the VM's oracle): the same ends,
/// rounds and standing, the same trace event by event (the fight's events, rolls,
/// decisions, each procedure's steps), and the same steps taken from the fight's budget;
/// untraced as well (each function's plain code), and with formulas traced (a run of
/// `skirmish`'s advances into its repeating timer's stop formula, traced as the run is).
#[test]
fn every_fight_runs_on_the_vm_as_on_the_walker() {
    for (ruleset, fight) in FIGHTS {
        let ways = (0..30).flat_map(|k| [(k, (true, false)), (k, (false, false))]);
        compare(
            ruleset,
            fight,
            ways.chain((0..3).map(|k| (k, (true, true)))),
        );
    }
}

/// Fight `fight` of `ruleset` on the VM and on the walker, run `k` each way given
/// (traced, formulas traced).
fn compare(ruleset: &str, fight: &str, ways: impl Iterator<Item = (u64, (bool, bool))>) {
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
    let run = |k: u64, walker: bool, (traced, trace_formulas): (bool, bool)| {
        eval::WALKER_ONLY.with(|c| c.set(walker));
        let options = Options { trace_formulas };
        let got = if traced {
            let (run, trace) = simulate::run_once(&p, &file, 7, k, VecTrace::default(), options);
            (run, Some(trace.render(&p.sites)))
        } else {
            (
                simulate::run_once(&p, &file, 7, k, NoTrace, options).0,
                None,
            )
        };
        eval::WALKER_ONLY.with(|c| c.set(false));
        (got, crate::fight::FIGHT_STEPS.get())
    };
    for (k, traced) in ways {
        let (vm, vm_steps) = run(k, false, traced);
        let (walked, walked_steps) = run(k, true, traced);
        assert_eq!(vm.0, walked.0, "{ruleset} run {k} (traced: {traced:?})");
        assert_eq!(
            vm_steps, walked_steps,
            "{ruleset} run {k}: the fight's steps"
        );
        if vm.1 != walked.1 {
            let (a, b) = (vm.1.unwrap_or_default(), walked.1.unwrap_or_default());
            let at = a.lines().zip(b.lines()).position(|(x, y)| x != y);
            panic!(
                "{ruleset} run {k} ({traced:?}): the traces differ at line {at:?}:\n{a}\n---\n{b}"
            );
        }
    }
}
