//! Formulas traced too (`--trace-formulas`) on the VM, each in the plain and the full code: a
//! formula's call, its arguments (a record named by its type), the conditions of its `if`s and of
//! the procedure's, its lookups, `match` arms, formulas it calls, its result, and a rule error
//! inside one (recorded by the formula and by each caller).

use super::{agrees, fighter, run_with, YAML};
use crate::eval::{self, Value};
use crate::ir::Program;
use rulesc_runtime::{RuleErrorKind, TraceEvent};

const RULES: &str = r#"
formula hurt_of(n: int) = hurt_by[n]
formula edge(f: Fighter, n: int) = if f.skill > n then f.skill - n else 0
formula worst(w: Wound) = match w {
  Grave => 3,
  Serious => 2,
  _ => if w == Light then 1 else 0,
}
formula share(a: int, b: int) = a / b
formula scaled(f: Fighter, n: int, d: int) = edge(f, n) * worst(hurt_of(n)) + share(n, d)

procedure traced_formulas(f: Fighter, d: int) -> int {
  let r = roll d6
  let s = scaled(f, r, d)
  let t = if s > 3 then s else 0 - s
  return t + (if f.ready then 1 else 0)
}
"#;

fn program() -> Program {
    eval::test_program(YAML, RULES)
}

#[test]
fn formulas_traced_too_give_the_plain_codes_result_and_steps() {
    let p = program();
    let mut steps_seen = 0;
    for (skill, ready, d) in [(5, true, 1), (2, false, 3), (4, true, 0)] {
        let args = [fighter(&p, 0, skill, ready, 0), Value::Int(d)];
        for seed in 0..60 {
            for (traced, formulas) in [(false, true), (true, true), (true, false)] {
                let vm = run_with(&p, "traced_formulas", &args, (true, traced, formulas), seed);
                agrees(&p, "traced_formulas", &args, seed, &vm);
                let steps: Vec<&TraceEvent> =
                    vm.2.iter()
                        .filter(|e| matches!(e, TraceEvent::Step { .. }))
                        .collect();
                // A formula's steps are traced only with formulas.
                assert_eq!(!steps.is_empty(), traced && formulas, "{steps:?}");
                steps_seen += steps.len();
                let errors =
                    vm.2.iter()
                        .filter(|e| matches!(e, TraceEvent::RuleError { .. }))
                        .count();
                if d == 0 {
                    assert_eq!(
                        vm.0.map_err(|e| e.kind),
                        Err(RuleErrorKind::DivideByZero),
                        "{seed}"
                    );
                    // Recorded by `share` and `scaled`, then by the procedure, formulas
                    // traced; by the procedure alone otherwise.
                    let want = match (traced, formulas) {
                        (false, _) => 0,
                        (true, true) => 3,
                        (true, false) => 1,
                    };
                    assert_eq!(errors, want, "{traced} {formulas}");
                }
            }
        }
    }
    assert!(steps_seen > 0);
}

#[test]
fn a_formula_traced_from_outside_traces_its_entry_and_arguments() {
    let p = program();
    let id = p.function("scaled").expect("scaled").0;
    let args = || [fighter(&p, 0, 5, true, 0), Value::Int(3), Value::Int(1)];
    let mut env = rulesc_runtime::Env::new(
        rulesc_runtime::SeededDice::new(0),
        rulesc_runtime::FirstOption,
        rulesc_runtime::VecTrace::default(),
    );
    let options = eval::Options {
        trace_formulas: true,
    };
    let vm = eval::call_with(&p, &mut env, id, args(), options);
    let on_vm = std::mem::take(&mut env.trace.events);
    // hurt_by[3] is Light: (5 - 3) * 1 + 3 / 1.
    assert_eq!(vm, Ok(Value::Int(5)));
    assert!(matches!(on_vm[0], TraceEvent::Call { .. }));
    assert!(
        matches!(&on_vm[1], TraceEvent::Step { text, value, .. } if text == "f" && value == "a Fighter"),
        "{on_vm:?}"
    );
}
