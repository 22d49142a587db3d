//! The fights of the shipped rulesets on the VM: which of their functions lower.

use crate::eval::{self, Options};
use crate::simulate;
use rulesc_runtime::{NoTrace, VecTrace};
use std::path::Path;

/// The shipped rulesets, each with a whole fight in `examples/<ruleset>/fight.yaml`.
const RULESETS: [&str; 5] = [
    "kingsmark",
    "d20-armor-slots",
    "dungeon-cards",
    "hit-strength",
    "victory-stars",
];

/// The functions of ruleset `dir` (under the repository's `rules/`) that do not lower.
fn unlowered(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../rules")
        .join(dir);
    let (p, _, _) = crate::compile_dir(&root);
    let p = p.unwrap_or_else(|| panic!("{dir} checks"));
    let code = eval::compile::code(&p);
    (0..p.functions.len())
        .filter(|id| code.lowered(*id).is_none())
        .map(|id| p.functions[id].name.clone())
        .collect()
}

/// Each shipped fight run on the VM and on the closures (the VM's oracle): the same ends,
/// rounds and standing, the same trace event by event (the fight's events, rolls,
/// decisions, each procedure's steps), and the same steps taken from the fight's budget;
/// untraced as well (each function's plain code), and with formulas traced.
#[test]
fn every_shipped_fight_runs_on_the_vm_as_on_the_closures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for ruleset in RULESETS {
        assert_eq!(
            unlowered(ruleset),
            Vec::<String>::new(),
            "{ruleset}: every function lowers"
        );
        let (p, _, _) = crate::compile_dir(&root.join("rules").join(ruleset));
        let p = p.unwrap_or_else(|| panic!("{ruleset} checks"));
        let path = root.join("examples").join(ruleset).join("fight.yaml");
        let Ok((file, _)) = simulate::read(&p, &path) else {
            panic!("{ruleset}: fight.yaml does not read");
        };
        let run = |k: u64, closures: bool, (traced, trace_formulas): (bool, bool)| {
            eval::CLOSURES_ONLY.with(|c| c.set(closures));
            eval::VM_IN_FIGHTS.with(|c| c.set(!closures));
            let options = Options { trace_formulas };
            let got = if traced {
                let (run, trace) =
                    simulate::run_once(&p, &file, 7, k, VecTrace::default(), options);
                (run, Some(trace.render(&p.sites)))
            } else {
                (
                    simulate::run_once(&p, &file, 7, k, NoTrace, options).0,
                    None,
                )
            };
            eval::CLOSURES_ONLY.with(|c| c.set(false));
            eval::VM_IN_FIGHTS.with(|c| c.set(false));
            (got, crate::fight::FIGHT_STEPS.get())
        };
        // Traced, untraced, and (a few) with formulas traced too: `out` asked every time.
        let ways = (0..30).flat_map(|k| [(k, (true, false)), (k, (false, false))]);
        for (k, traced) in ways.chain((0..3).map(|k| (k, (true, true)))) {
            let (vm, vm_steps) = run(k, false, traced);
            let (closures, closures_steps) = run(k, true, traced);
            assert_eq!(vm.0, closures.0, "{ruleset} run {k} (traced: {traced:?})");
            assert_eq!(
                vm_steps, closures_steps,
                "{ruleset} run {k}: the fight's steps"
            );
            if vm.1 != closures.1 {
                let (a, b) = (vm.1.unwrap_or_default(), closures.1.unwrap_or_default());
                let at = a.lines().zip(b.lines()).position(|(x, y)| x != y);
                panic!("{ruleset} run {k}: the traces differ at line {at:?}:\n{a}\n---\n{b}");
            }
        }
    }
}
