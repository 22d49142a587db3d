//! `dice * n` throws 0 to `MAX_DICE` dice (issue 28, class 8): fewer or more is the same
//! rule error in both backends (`DiceSpec::times`, the one rule), with the same trace;
//! no dice is a roll that totals 0, its natural face 0; a count the checker proves
//! inside is not checked (the generated procedure cannot fail). And `analyze` reports
//! the rule error as an outcome, as it does any other. `fixtures/codegen/dice_count`.

use rulesc::eval::Value;
use rulesc::ir::Program;
use rulesc_runtime::dice::MAX_DICE;
use rulesc_runtime::{RuleErrorKind, TraceEvent};
use rulesc_tests::dice_count as dc;
use rulesc_tests::support::{self, Run, ScriptEnv, Shown};
use std::path::Path;

fn program() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codegen/dice_count");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("dice_count does not check: {:?}", diags.items))
}

fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), dc::SITES, name, faces, &[], args, gen)
}

#[test]
fn more_than_max_dice_or_fewer_than_none_is_the_same_rule_error_in_both() {
    for n in [MAX_DICE + 1, -1, i64::MAX, i64::MIN] {
        let run = both("pool", &[], &[Value::Int(n)], |e| dc::pool(e, n));
        let err = run.result.clone().unwrap_err();
        assert_eq!(
            err.kind,
            RuleErrorKind::DiceCount {
                count: n,
                max: MAX_DICE
            },
            "n = {n}"
        );
        assert_eq!(
            err.to_string(),
            format!("a roll of {n} dice: a roll throws 0 to 1000 dice")
        );
        // Nothing was rolled, and the trace ends at the error.
        assert!(run.rolls().is_empty(), "n = {n}");
        assert!(
            matches!(run.trace.events.last(), Some(TraceEvent::RuleError { .. })),
            "n = {n}: {}",
            run.text()
        );
    }
}

#[test]
fn max_dice_and_none_are_rolled_in_both() {
    let faces = vec![2u32; MAX_DICE as usize];
    let run = both("pool", &faces, &[Value::Int(MAX_DICE)], |e| {
        dc::pool(e, MAX_DICE)
    });
    assert_eq!(run.result, Ok(2 * MAX_DICE));
    assert_eq!(run.rolls()[0].1.len(), MAX_DICE as usize);
    // No dice: a roll that totals 0, with no natural face (0), and no face drawn.
    let run = both("pool", &[], &[Value::Int(0)], |e| dc::pool(e, 0));
    assert_eq!(run.result, Ok(0));
    assert_eq!(run.rolls(), [("0d6".to_string(), vec![], 0)]);
    let run = both("pool_natural", &[], &[Value::Int(0)], |e| {
        dc::pool_natural(e, 0)
    });
    assert_eq!(run.result, Ok(0));
    let run = both("pool_natural", &[4, 1], &[Value::Int(2)], |e| {
        dc::pool_natural(e, 2)
    });
    assert_eq!(run.result, Ok(4));
}

#[test]
fn a_count_proven_inside_is_not_checked() {
    // `ranked` returns `i64`, not a `Result`: `d6 * f.rank` with `rank` an
    // `int(0..5)` field cannot leave 0 to 1,000 dice.
    let f = dc::Fighter { rank: 3 };
    let arg = Value::Record(std::rc::Rc::new(std::cell::RefCell::new(vec![Value::Int(
        3,
    )])));
    let run = both("ranked", &[1, 2, 3], &[arg], |e| -> i64 {
        dc::ranked(e, &f)
    });
    assert_eq!(run.result, 6);
}

/// `analyze` on a pool whose count a roll sets: `d2 * (roll d3 - 2)` throws -1, 0 or 1
/// dice, and -1 is the rule error, a third of the time, as the path walker finds too.
#[test]
fn analyze_reports_a_count_outside_as_a_rule_error_outcome() {
    use rulesc::analyze::exact::Prob;
    use rulesc::analyze::{distribution, EngineKind, Limits};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dice_count_odds");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("rules/ruleset.yaml"), "ruleset: { name: odds }\n").unwrap();
    std::fs::write(
        dir.join("rules/a.rules"),
        "procedure p(base: int) -> int {\n  let k = roll d3\n  return roll (d2 * (base + k))\n}\n",
    )
    .unwrap();
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{:?}", diags.items));
    let error = |n: i64| {
        format!("rule error at rules/a.rules:3: a roll of {n} dice: a roll throws 0 to 1000 dice")
    };
    for engine in [EngineKind::default(), EngineKind::Paths] {
        let limits = Limits {
            engine,
            ..Limits::default()
        };
        // base -2: -1, 0 or 1 dice.
        std::fs::write(dir.join("s.yaml"), "run: p\nargs: { base: -2 }\n").unwrap();
        let (s, _) = rulesc::scenario::read(&p, &dir.join("s.yaml"))
            .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
        let d = distribution(&p, &s, &limits, &[]);
        let ret = p.functions[s.function].ret.clone();
        let shown: std::collections::BTreeMap<String, Prob> = d
            .outcomes
            .iter()
            .map(|(v, pr)| (rulesc::eval::show_result(&p, v, &ret), pr.clone()))
            .collect();
        let third = Prob::new(1u64.into(), 3u64.into());
        let sixth = Prob::new(1u64.into(), 6u64.into());
        let want: std::collections::BTreeMap<String, Prob> = [
            (error(-1), third.clone()),
            ("0".to_string(), third),
            ("1".to_string(), sixth.clone()),
            ("2".to_string(), sixth),
        ]
        .into();
        assert_eq!(shown, want, "{engine:?}");
        if engine == EngineKind::Paths {
            // A thousand d2 are 2^1000 paths: the merged engine alone.
            continue;
        }
        // base 998: 999, 1,000 or 1,001 dice; the last is the rule error.
        std::fs::write(dir.join("s.yaml"), "run: p\nargs: { base: 998 }\n").unwrap();
        let (s, _) = rulesc::scenario::read(&p, &dir.join("s.yaml"))
            .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
        let d = distribution(&p, &s, &limits, &[]);
        let errors: Vec<(String, Prob)> = d
            .outcomes
            .iter()
            .map(|(v, pr)| (rulesc::eval::show_result(&p, v, &ret), pr.clone()))
            .filter(|(v, _)| v.starts_with("rule error"))
            .collect();
        assert_eq!(
            errors,
            [(error(1_001), Prob::new(1u64.into(), 3u64.into()))],
            "{engine:?}"
        );
    }
}
