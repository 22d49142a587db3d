//! Whole statements on the VM as pieces (`core_ir::run_piece`), on rules written for
//! what a piece must give back, each with the fractions the rules give: an assignment of a rolling
//! procedure's result (the plan's made statement), `+=` of one, a `return` from inside an `if`, a
//! rule error on some paths, and a roll's faces read by a later statement.

use super::{outcome_key, run, test_options, Decisions, Outcomes};
use crate::analyze::exact::Prob;
use crate::analyze::plan::Plan;
use crate::eval::Value;
use crate::ir::Program;
use rulesc_runtime::RuleErrorKind;

const RULES: &str = r#"
procedure hit() -> int {
  let r = roll d6
  return r * 1
}

procedure twice() -> int {
  let x = 0
  x = hit()
  x += hit()
  if x == 12 {
    return 100
  }
  return x
}

procedure fails(a: int) -> int {
  let total = hit()
  let q = 0
  q = 12 / (total - a)
  return q
}

procedure dice_kept() -> int {
  let r = roll 2d6
  let spread = max(faces(r)) - min(faces(r))
  return spread
}
"#;

fn program() -> Program {
    // A folder of its own per test: the tests run at once.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ruleset.yaml"),
        "ruleset: { name: pieces }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("a.rules"), RULES).unwrap();
    let (p, diags, _) = crate::compile_dir(dir.path());
    p.unwrap_or_else(|| panic!("{:?}", diags.items))
}

/// `name(args)`, every statement run whole (no fast segments), or with fast segments.
fn analyze(p: &Program, name: &str, args: &[i64], fast: bool) -> Outcomes {
    let f = p.functions.iter().position(|f| f.name == name).unwrap();
    let opts = test_options((fast, fast), None);
    let args = args.iter().map(|&a| Value::Int(a)).collect();
    run(p, &Plan::new(p), f, args, &Decisions::default(), &opts)
}

/// Every statement run whole, and with fast segments: the same fractions; the first run.
fn agree(p: &Program, name: &str, args: &[i64]) -> Outcomes {
    let whole = analyze(p, name, args, false);
    let fast = analyze(p, name, args, true);
    assert!(whole.stop.is_none(), "{name}: {:?}", whole.stop);
    let keyed = |o: &Outcomes| {
        let mut k: Vec<_> = (o.outcomes.iter())
            .map(|(v, pr)| (outcome_key(v), pr.clone()))
            .collect();
        k.sort_by(|a, b| a.0.cmp(&b.0));
        k
    };
    assert_eq!(keyed(&whole), keyed(&fast), "{name}{args:?}");
    assert_eq!(whole.unexplored, fast.unexplored, "{name}{args:?}");
    whole
}

/// The chance of result `v`.
fn chance(o: &Outcomes, v: i64) -> Prob {
    o.outcomes
        .iter()
        .find(|(x, _)| matches!(x, Ok(Value::Int(i)) if *i == v))
        .map_or_else(|| Prob::new(0.into(), 1.into()), |(_, pr)| pr.clone())
}

fn p(n: i64, d: i64) -> Prob {
    Prob::new(n.into(), d.into())
}

#[test]
fn a_procedures_result_assigned_and_added_reaches_the_frame() {
    let prog = program();
    let o = agree(&prog, "twice", &[]);
    // Two d6 summed; a double six returns from inside the `if`.
    assert_eq!(chance(&o, 100), p(1, 36));
    assert_eq!(chance(&o, 12), p(0, 1));
    assert_eq!(chance(&o, 7), p(6, 36));
    assert_eq!(chance(&o, 2), p(1, 36));
    assert_eq!(chance(&o, 11), p(2, 36));
}

#[test]
fn a_rule_error_in_a_piece_is_the_outcome_of_its_paths() {
    let prog = program();
    let o = agree(&prog, "fails", &[3]);
    let errors: Vec<_> = o
        .outcomes
        .iter()
        .filter_map(|(x, pr)| x.as_ref().err().map(|e| (e.kind.clone(), pr.clone())))
        .collect();
    assert_eq!(errors, [(RuleErrorKind::DivideByZero, p(1, 6))]);
    // 12 / (4 - 3), and 12 / (1 - 3)
    assert_eq!(chance(&o, 12), p(1, 6));
    assert_eq!(chance(&o, -6), p(1, 6));
}

#[test]
fn the_dice_a_let_keeps_are_read_by_the_next_statement() {
    let prog = program();
    let o = agree(&prog, "dice_kept", &[]);
    // 2d6: equal faces 6 of 36, a spread of 5 only from (1, 6) and (6, 1).
    assert_eq!(chance(&o, 0), p(6, 36));
    assert_eq!(chance(&o, 5), p(2, 36));
    assert_eq!(chance(&o, 1), p(10, 36));
}

/// A procedure of `lets` locals and a roll whose last statement reads every one, the
/// locals at once (`max` holds all its operands): checked, or what `check` said.
fn full_frame(lets: usize) -> Result<Program, Vec<&'static str>> {
    let mut rules = String::from("procedure wide(x: int) -> int {\n  let r = roll d4\n");
    for i in 0..lets {
        rules.push_str(&format!("  let a{i} = x + {i}\n"));
    }
    let all: Vec<String> = (0..lets).map(|i| format!("a{i}")).collect();
    rules.push_str(&format!("  return max({}) + r\n}}\n", all.join(", ")));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), "ruleset: { name: wide }\n").unwrap();
    std::fs::write(dir.path().join("a.rules"), rules).unwrap();
    let (p, diags, _) = crate::compile_dir(dir.path());
    p.ok_or_else(|| diags.items.iter().map(|d| d.code).collect())
}

#[test]
fn every_piece_of_a_function_filling_its_frame_lowers() {
    // The most locals that check: the function holds all its frame allows
    // (`lower::ROOM`), and its last statement, run alone, binds every one of them.
    let (lets, p) = (200..300)
        .rev()
        .find_map(|n| full_frame(n).ok().map(|p| (n, p)))
        .expect("some size checks");
    assert_eq!(full_frame(lets + 1).err(), Some(vec!["E0363"]));
    for fast in [false, true] {
        let o = analyze(&p, "wide", &[10], fast);
        assert!(o.stop.is_none(), "{:?}", o.stop);
        let base = 10 + lets as i64 - 1;
        for face in 1..=4 {
            assert_eq!(
                chance(&o, base + face),
                Prob::new(1.into(), 4.into()),
                "fast {fast}"
            );
        }
    }
}
