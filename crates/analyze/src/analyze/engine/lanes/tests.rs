//! One-roll segments over lanes (`core_ir::Lanes`) against the same segments path by
//! path and against the interpreter, on rules written for their edges: saturating arithmetic, a division by
//! zero in some lanes (a rule error, reported as the interpreter reports it), divisions
//! that only lanes with a non-zero divisor reach (behind `if`, `and`, `or`, `if`
//! expressions), levels and natural faces. And the sweep memo, forgotten after a sweep.

use super::super::{outcome_key, run, test_options, Decisions, Outcomes};
use crate::analyze::exact::Prob;
use crate::analyze::plan::Plan;
use crate::eval::Value;
use crate::ir::Program;
use std::collections::HashMap;

const RULES: &str = r#"
outcome Struck { Missed, Struck(level: Wound, natural: int) }

procedure saturate(a: int) -> int {
  let x = roll d6 + a
  let y = x * 4611686018427387904
  if y > 0 {
    return y + x
  }
  return y - 1
}

procedure divide(a: int) -> int {
  let r = roll d6
  return 60 / (r - a)
}

procedure guarded(a: int) -> int {
  let r = roll d6
  let q = 0
  if r != a {
    q = 60 / (r - a)
  }
  let ok = r == a or 12 / (r - a) > 3
  let fine = r != a and 12 / (r - a) > 3
  let pick = if r == a then 0 else 6 / (r - a)
  if ok and not fine {
    return q + pick
  }
  return q - pick
}

procedure strike(a: int, armor: int) -> Struck {
  let attack = roll d10! + a
  if natural(attack) == 1 {
    return Missed
  }
  if attack < 8 {
    return Missed
  }
  let steps = clamp((attack - 8) / 2, 0, 9) - armor
  if steps <= 0 {
    return Struck(level: Graze, natural: natural(attack))
  }
  return Struck(level: Graze + steps, natural: max(natural(attack), 5))
}
"#;

const YAML: &str = "ruleset: { name: columns }\nscales:\n  Wound: [Graze, Light, Heavy, Mortal]\n";

fn program(name: &str) -> Program {
    let dir = std::env::temp_dir().join(format!("rulesc-columns-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ruleset.yaml"), YAML).unwrap();
    std::fs::write(dir.join("a.rules"), RULES).unwrap();
    let (p, diags, _) = crate::compile_dir(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    p.unwrap_or_else(|| panic!("{:?}", diags.items))
}

/// Runs `name(args)` with fast segments (`.0`) and columns (`.1`).
fn analyze(p: &Program, name: &str, args: &[i64], mode: (bool, bool)) -> Outcomes {
    let f = p.functions.iter().position(|f| f.name == name).unwrap();
    let plan = Plan::new(p);
    let opts = test_options((mode.0, mode.1), None);
    let args = args.iter().map(|&a| Value::Int(a)).collect();
    run(p, &plan, f, args, &Decisions::default(), &opts)
}

fn by_key(o: &Outcomes) -> HashMap<Vec<u64>, Prob> {
    o.outcomes
        .iter()
        .map(|(v, p)| (outcome_key(v), p.clone()))
        .collect()
}

/// The three ways agree; returns the run over lanes.
fn agree(p: &Program, name: &str, args: &[i64]) -> Outcomes {
    let slow = analyze(p, name, args, (false, false));
    let paths = analyze(p, name, args, (true, false));
    let cols = analyze(p, name, args, (true, true));
    for o in [&slow, &paths, &cols] {
        assert!(o.stop.is_none(), "{name}{args:?}: {:?}", o.stop);
    }
    assert_eq!(by_key(&cols), by_key(&slow), "{name}{args:?}");
    assert_eq!(by_key(&paths), by_key(&slow), "{name}{args:?}");
    assert_eq!(cols.unexplored, slow.unexplored, "{name}{args:?}");
    assert_eq!(paths.unexplored, slow.unexplored, "{name}{args:?}");
    // In the order first reached, as the other ways reach them.
    let order = |o: &Outcomes| {
        o.outcomes
            .iter()
            .map(|(v, _)| outcome_key(v))
            .collect::<Vec<_>>()
    };
    assert_eq!(order(&cols), order(&paths), "{name}{args:?}");
    assert_eq!(paths.column_states, 0);
    cols
}

fn p(n: i64, d: i64) -> Prob {
    Prob::new(n.into(), d.into())
}

#[test]
fn a_column_overflowing_i64_saturates_as_the_interpreter_does() {
    let prog = program("saturate");
    let top = i64::MAX - 3;
    let o = agree(&prog, "saturate", &[top]);
    assert!(o.column_states > 0);
    // x saturates at i64::MAX for faces 3 to 6; y and y + x at i64::MAX for every face.
    assert_eq!(o.outcomes.len(), 1);
    assert_eq!(o.outcomes[0].0, Ok(Value::Int(i64::MAX)));
    assert_eq!(o.outcomes[0].1, p(1, 1));
    // And below zero.
    let o = agree(&prog, "saturate", &[i64::MIN + 1]);
    assert_eq!(o.outcomes.len(), 1);
    assert_eq!(o.outcomes[0].0, Ok(Value::Int(i64::MIN)));
}

#[test]
fn a_division_by_zero_in_one_lane_is_the_interpreters_rule_error() {
    let prog = program("divide");
    let o = agree(&prog, "divide", &[3]);
    // The state met a rule error: it ran path by path, not over lanes.
    assert_eq!(o.column_states, 0);
    let errors: Vec<_> = o.outcomes.iter().filter(|(v, _)| v.is_err()).collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].1, p(1, 6));
    let face4 = o.outcomes.iter().find(|(v, _)| *v == Ok(Value::Int(60)));
    assert_eq!(face4.unwrap().1, p(1, 6));
    // No lane divides by zero: over lanes.
    let o = agree(&prog, "divide", &[7]);
    assert!(o.column_states > 0);
    assert_eq!(o.outcomes.len(), 6);
}

#[test]
fn divisions_only_other_lanes_reach_stay_over_columns() {
    let prog = program("guarded");
    for a in 0..=7 {
        let o = agree(&prog, "guarded", &[a]);
        assert!(o.column_states > 0, "guarded({a})");
    }
}

#[test]
fn levels_natural_faces_and_outcomes_group_as_path_by_path() {
    let prog = program("strike");
    for a in [-3, 0, 4, 9] {
        for armor in [0, 1, 5] {
            let o = agree(&prog, "strike", &[a, armor]);
            assert!(o.column_states > 0);
        }
    }
}

#[test]
fn a_sweep_forgets_its_memo_on_every_thread() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let (prog, _, _) = crate::compile_dir(&root.join("../../compiler/benches/odds/rules"));
    let prog = prog.unwrap();
    let view = crate::analyze::View {
        sweeps: ["a=0..3", "d=0..3"]
            .iter()
            .map(|s| crate::analyze::cases::parse_sweep(s).unwrap())
            .collect(),
        ..crate::analyze::View::default()
    };
    let limits = crate::analyze::Limits::default();
    // A pool of its own: no other test's work runs on its threads.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let scenario = root.join("../../compiler/benches/odds/scenarios/exchange.yaml");
    // A case with a memo remembers on its thread; `forget` frees it.
    let (case, _) = crate::scenario::read(&prog, &scenario).unwrap();
    let opts = test_options((true, true), Some(super::super::memo_id()));
    let plan = Plan::new(&prog);
    run(
        &prog,
        &plan,
        case.function,
        case.args,
        &Decisions::default(),
        &opts,
    );
    assert!(super::super::segment::remembered().0 > 0);
    super::super::forget();
    assert_eq!(super::super::segment::remembered(), (0, 0));
    // A sweep's cases remember on the pool's threads; after it, no thread holds anything.
    let r = pool.install(|| crate::analyze::reports(&prog, &scenario, &limits, &view));
    assert_eq!(r.as_ref().map(|r| r.0.len()).ok(), Some(16));
    let left = pool.broadcast(|_| super::super::segment::remembered());
    assert_eq!(left, vec![(0, 0); 2]);
}
