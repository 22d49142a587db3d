//! What `out` says while a fight is calm is remembered (`is_out`, `EvalRules::is_out`): the same answers, the same steps, and forgotten when a
//! trigger's procedure runs.

use super::{EvalRules, FIGHT_STEPS};
use crate::eval::{self, test_program, Options, Value};
use crate::simulate::{self, Run};
use rulesc_runtime::{Decide, Env, Fight, NoTrace, SeededDice, VecTrace};
use std::cell::Cell;
use std::path::Path;

thread_local! {
    /// Set: `out` is asked every time, even in a calm.
    pub(super) static ASK_EVERY_TIME: Cell<bool> = const { Cell::new(false) };
}

/// Each shipped fight, run with `out` remembered in calms and with it asked every time:
/// the same ends, rounds and groups, the same trace (the fight's events, rolls,
/// decisions, procedures' steps; and with formulas traced, each formula's), and the same
/// steps taken from the fight's budget.
#[test]
fn remembering_out_changes_no_result_no_trace_and_no_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
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
            ASK_EVERY_TIME.with(|a| a.set(ask));
            let options = Options { trace_formulas };
            let (run, trace) = simulate::run_once(&p, &file, 7, k, VecTrace::default(), options);
            ASK_EVERY_TIME.with(|a| a.set(false));
            (run, trace.render(&p.sites), FIGHT_STEPS.get())
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

/// A trigger's procedure puts a fighter out; a later trigger of the same settling counts
/// the fighter's side, and sees it out (what `out` said before the procedure is
/// forgotten).
#[test]
fn a_trigger_procedure_ends_the_calm() {
    let p = test_program(
        "ruleset:\n  name: calm\ntypes:\n  Fighter:\n    hp: { type: int, default: 3 }\n    alone: { type: bool, default: false }\n",
        "procedure wound_all() {
  for c in fighters() { c.hp = 1 }
}

procedure collapse(c: fighter) {
  c.hp = 0
}

procedure last_stand(c: fighter) {
  c.alone = true
}

procedure wait(me: fighter) {
}

fight of Fighter {
  order(c) = [c.hp]
  out(c) = c.hp <= 0
  on start = wound_all
  on turn = wait
  when(c) c.hp == 1 and len(allies(c)) == 1 = collapse
  when(c) len(allies(c)) == 0 = last_stand
}
",
    );
    struct First;
    impl Decide for First {
        fn decide(&mut self, _: &'static str, _: u32) -> u32 {
            0
        }
    }
    let fighter = || eval::record(&p, "Fighter", &[]).expect("a Fighter");
    for trace_formulas in [false, true] {
        let mut fight: Fight<Value> = Fight::new();
        let a = fight.join("Left", "A", fighter());
        let b = fight.join("Left", "B", fighter());
        fight.join("Right", "C", fighter());
        let mut env = Env::new(SeededDice::new(1), First, NoTrace);
        let mut rules = EvalRules::new(&p)
            .expect("a fight")
            .with(Options { trace_formulas });
        // No round is played: only the start and its settling.
        fight.run(&mut rules, &mut env, 0);
        let field = eval::FieldRef::new(&p, "Fighter", "alone").expect("alone");
        let hp = eval::FieldRef::new(&p, "Fighter", "hp").expect("hp");
        // A collapsed first (the first trigger, in joining order); B, its one ally gone,
        // then makes a last stand in the same settling.
        assert_eq!(hp.get(&fight[a]), Some(Value::Int(0)), "{trace_formulas}");
        assert_eq!(hp.get(&fight[b]), Some(Value::Int(1)), "{trace_formulas}");
        assert_eq!(
            field.get(&fight[b]),
            Some(Value::Bool(true)),
            "{trace_formulas}"
        );
        assert!(!fight.calm(), "a calm ends with the settling");
    }
}
