//! The run-time limits (issue 8, class 4) hold alike in both backends: a list appended
//! past `MAX_LIST` items is the same rule error, with the same trace; a value longer
//! than `show::MAX_SHOWN` bytes is cut alike in the trace; a table of a million totals
//! rolled `among` a value walks its rows, not its totals. `fixtures/codegen/limits`.

use rulesc::eval::Value;
use rulesc::ir::Program;
use rulesc_runtime::{__private::show, TraceEvent, MAX_LIST};
use rulesc_tests::limits as lim;
use rulesc_tests::support::{self, Run, ScriptEnv, Shown};
use std::path::Path;

fn program() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codegen/limits");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("limits does not check: {:?}", diags.items))
}

fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), lim::SITES, name, faces, &[], args, gen)
}

#[test]
fn a_list_doubled_past_the_limit_is_the_same_rule_error_in_both() {
    // 3 · 2^15 = 98,304 items: within the limit; one more doubling is not.
    let run = both("grow", &[], &[Value::Int(15)], |e| lim::grow(e, 15));
    assert_eq!(run.result, Ok(98_304));
    let run = both("grow", &[], &[Value::Int(16)], |e| lim::grow(e, 16));
    let err = run.result.as_ref().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("the list would hold 196608 items, more than {MAX_LIST}")
    );
    // The list was left as it was: the last assignment traced is the 15th doubling.
    let last = run.assigned("xs += xs").pop().unwrap_or_default();
    assert!(last.starts_with("[1, 2, 3, 1, 2, 3"), "{last}");
}

#[test]
fn the_limit_is_exact_on_both_sides() {
    let run = both("exact", &[], &[Value::Int(1_696)], |e| lim::exact(e, 1_696));
    assert_eq!(run.result, Ok(MAX_LIST as i64));
    let run = both("exact", &[], &[Value::Int(1_697)], |e| lim::exact(e, 1_697));
    assert_eq!(
        run.result.map_err(|e| e.to_string()),
        Err(format!(
            "the list would hold 100001 items, more than {MAX_LIST}"
        ))
    );
}

#[test]
fn values_longer_than_a_trace_shows_are_cut_alike() {
    let run = both("long_label", &[], &[], lim::long_label);
    let shown: Vec<String> = run
        .trace
        .events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Assign { value, .. } | TraceEvent::Return { value, .. } => {
                Some(value.clone())
            }
            _ => None,
        })
        .collect();
    assert!(!shown.is_empty());
    for v in &shown {
        assert!(v.ends_with('…'), "{v}");
        assert_eq!(v.len(), show::MAX_SHOWN + '…'.len_utf8(), "{v}");
    }
    // The result itself is the whole value.
    assert_eq!(run.result.to_string().len(), 1518);
}

#[test]
fn a_million_total_table_rolled_among_one_value_reads_its_rows() {
    // `1000d1000` gives the totals 1,000 to 1,000,000; `Right` holds 500,001 and up:
    // a d500000 is rolled, its first face the first `Right` total, its last the last.
    for face in [1, 250_000, 500_000] {
        let run = both("pick_right", &[face], &[], lim::pick_right);
        assert_eq!(run.result, 1);
        let rolls = run.rolls();
        assert_eq!(rolls.len(), 1);
        assert_eq!(rolls[0].0, "d500000", "{rolls:?}");
    }
}
