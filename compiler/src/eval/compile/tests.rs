//! Inlined formulas against the ordinary call: the same program compiled with inlining
//! on and off gives the same results, rule errors and traces (plain and with
//! `--trace-formulas`), and runs out of steps at the same point, reported at the formula.

use super::inline::OFF;
use crate::eval::{self, Options, Value};
use crate::ir::Program;
use rulesc_runtime::{
    Env, FirstOption, RuleError, RuleErrorKind, SeededDice, TraceEvent, VecTrace,
};

const RULES: &str = r#"
formula ratio(a: int, b: int) = a / b
formula twice(x: int) = ratio(x * 2, 1) + x
formula total(xs: list<int>, floor: int) = sum(x for x in xs if x > floor)
formula bigger(xs: list<int>, n: int) = total(xs, n) > n

procedure divide(a: int, b: int) -> int {
  let r = twice(a) + ratio(a, b)
  return r
}

procedure spend(n: int, xs: list<int>) -> int {
  let acc = 0
  for i in 0..n {
    acc += total(xs, i)
    if bigger([i, i + 1], i) {
      acc += 1
    }
  }
  return acc
}
"#;

fn program() -> Program {
    crate::eval::test_program("ruleset:\n  name: inline\n", RULES)
}

type Ran = (Result<Value, RuleError>, Vec<TraceEvent>);

/// Runs `name` on a fresh compile of `p` (a clone keeps no code), inlining as `inline`.
fn run(p: &Program, inline: bool, name: &str, args: &[Value], formulas: bool) -> Ran {
    let p = p.clone();
    OFF.with(|o| o.set(!inline));
    let mut env = Env::new(SeededDice::new(1), FirstOption, VecTrace::default());
    let (id, _) = p.function(name).unwrap();
    let options = Options {
        trace_formulas: formulas,
    };
    let got = eval::call_with(&p, &mut env, id, args.to_vec(), options);
    if inline {
        // The path under test was taken: the caller's frame holds the formulas' locals.
        let code = super::code(&p);
        assert!(
            code.functions[id].locals > p.functions[id].locals.len(),
            "{name}"
        );
    }
    OFF.with(|o| o.set(false));
    (got, env.trace.events)
}

fn same(p: &Program, name: &str, args: &[Value], formulas: bool) -> Ran {
    let inlined = run(p, true, name, args, formulas);
    assert_eq!(
        inlined,
        run(p, false, name, args, formulas),
        "{name} {args:?}"
    );
    inlined
}

fn ints(xs: &[i64]) -> Value {
    Value::List(std::rc::Rc::new(
        xs.iter().map(|&x| Value::Int(x)).collect(),
    ))
}

#[test]
fn an_inlined_formula_gives_what_the_call_gives() {
    let p = program();
    let (got, _) = same(&p, "divide", &[Value::Int(7), Value::Int(2)], false);
    assert_eq!(got, Ok(Value::Int(24)));
    let (got, _) = same(&p, "spend", &[Value::Int(3), ints(&[1, 2, 3])], false);
    // totals 6, 5, 3; `bigger` of [0, 1], [1, 2], [2, 3]: 1 > 0, 2 > 1, 3 > 2
    assert_eq!(got, Ok(Value::Int(17)));
}

#[test]
fn an_inlined_formula_failing_is_the_calls_rule_error_traced_once() {
    let p = program();
    let (got, trace) = same(&p, "divide", &[Value::Int(7), Value::Int(0)], false);
    let err = got.unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::DivideByZero);
    let failed = trace
        .iter()
        .filter(|e| matches!(e, TraceEvent::RuleError { .. }))
        .count();
    assert_eq!(failed, 1, "{trace:?}");
}

#[test]
fn traced_formulas_are_traced_as_calls() {
    let p = program();
    let (got, trace) = same(&p, "divide", &[Value::Int(7), Value::Int(2)], true);
    assert_eq!(got, Ok(Value::Int(24)));
    // The formulas' entries, arguments and results are in the trace.
    let steps = trace
        .iter()
        .filter(|e| matches!(e, TraceEvent::Step { .. }))
        .count();
    assert!(steps >= 4, "{trace:?}");
    let (_, trace) = same(&p, "divide", &[Value::Int(7), Value::Int(0)], true);
    assert!(trace
        .iter()
        .any(|e| matches!(e, TraceEvent::RuleError { .. })));
}

#[test]
fn steps_run_out_inside_an_inlined_formula_as_in_the_call() {
    let p = program();
    let xs: Vec<i64> = (0..200).collect();
    let (got, _) = same(&p, "spend", &[Value::Int(10_000), ints(&xs)], false);
    let err = got.unwrap_err();
    assert_eq!(
        err.kind,
        RuleErrorKind::TooManySteps {
            max: eval::MAX_STEPS
        }
    );
    // Reported at the formula the budget ran out in: `total`, whose aggregate takes
    // most of the steps.
    let (total, _) = p.function("total").unwrap();
    assert_eq!(err.site, p.functions[total].site);
}
