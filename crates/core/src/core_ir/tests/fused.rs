//! What plain code reads without making it, on the VM, each in the plain and the full code: a table
//! row's fields and entries read in place (`Inst::RowRead`), and `x in [..]` of constants
//! (`Inst::InImm`), each with the same result, steps and trace.

use super::{agrees, run};
use crate::eval::{self, Value};

const YAML: &str = r#"ruleset: { name: fused }
enums:
  Stat: [Melee, Dodge, Grit]
scales:
  Rank: [Low, Mid, High]
types:
  Inner:
    x: { type: int, default: 0 }
  Kit:
    bonus: { type: "map<Stat, int>", default: {} }
    rank: { type: Rank, default: Low }
    keen: { type: bool, default: false }
    inner: { type: Inner, default: {} }
    tags: { type: "list<int>", default: [] }
tables:
  kits:
    key: int
    value: Kit
    rows:
      "..1": { bonus: { Melee: 2, Dodge: -1 }, rank: Mid, inner: { x: 7 }, tags: [4, 5] }
      "2..": { bonus: { Grit: 9 }, rank: High, keen: true }
  by_stat:
    key: Stat
    value: Kit
    default: { rank: Mid }
    rows:
      Grit: { bonus: { Grit: 1 }, inner: { x: -3 } }
"#;

const RULES: &str = r#"
formula kit(k: int) = kits[k]

// Every field of a row (read directly, or of a formula's row inlined), an entry at a local and at a constant key, a nested record's
// field and a list field (a value with parts). (A key without a row is not written: the
// checker has every table cover its keys, E0310.)
procedure rows(k: int, s: Stat) -> int {
  let b = kits[k].bonus[s]
  let g = kits[k].bonus[Grit]
  let r = if kits[k].rank == High then 100 else 0
  let keen = if kits[k].keen then 1000 else 0
  let x = kits[k].inner.x
  let tags = len(kits[k].tags) + (if kit(k).inner.x == 7 then 0 else 0)
  let d = by_stat[s].inner.x + sum(by_stat[t].bonus[t] for t in Stat)
  return b + g * 10 + r + keen + x * 10000 + tags * 100000 + d * 1000000
}

// `x in [..]` of constants: found first, found last, not found (the steps differ).
procedure ins(n: int, s: Stat, r: Rank) -> int {
  let a = if n in [1, 3, 5] then 1 else 0
  let b = if s in [Dodge, Grit] then 10 else 0
  let c = if r in [High] then 100 else 0
  let d = count(t in Stat if t in [Melee, Grit])
  return a + b + c + d * 1000
}
"#;

#[test]
fn a_rows_fields_read_in_place_agree_in_the_plain_and_full_code() {
    let p = eval::test_program(YAML, RULES);
    for k in [0, 1, 2, 3, 4] {
        for s in 0..3u16 {
            let args = [Value::Int(k), Value::Choice(s)];
            for traced in [false, true] {
                let vm = run(&p, "rows", &args, true, traced, 0);
                agrees(&p, "rows", &args, 0, &vm);
                match (k, vm.0) {
                    (..=1, Ok(Value::Int(v))) => {
                        let b = [2, -1, 0][usize::from(s)];
                        // by_stat: Grit's row (x -3, Grit 1), Mid's default elsewhere.
                        let d = [0, 0, -3][usize::from(s)] + 1;
                        assert_eq!(v, b + 7 * 10000 + 2 * 100000 + d * 1000000, "{args:?}");
                    }
                    (2.., Ok(Value::Int(v))) => {
                        let b = [0, 0, 9][usize::from(s)];
                        let d = [0, 0, -3][usize::from(s)] + 1;
                        assert_eq!(v, b + 90 + 100 + 1000 + d * 1000000, "{args:?}");
                    }
                    (_, other) => panic!("{args:?}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn membership_in_constants_agrees_in_the_plain_and_full_code() {
    let p = eval::test_program(YAML, RULES);
    for n in 0..7 {
        for s in 0..3u16 {
            for r in 0..3u16 {
                let args = [Value::Int(n), Value::Choice(s), Value::Choice(r)];
                for traced in [false, true] {
                    let vm = run(&p, "ins", &args, true, traced, 0);
                    agrees(&p, "ins", &args, 0, &vm);
                    let Ok(Value::Int(v)) = vm.0 else {
                        panic!("{args:?}: {:?}", vm.0)
                    };
                    let a = i64::from(matches!(n, 1 | 3 | 5));
                    let b = 10 * i64::from(s >= 1);
                    let c = 100 * i64::from(r == 2);
                    assert_eq!(v, a + b + c + 2000, "{args:?}");
                }
            }
        }
    }
}

/// The procedures' plain code reads as the tests above mean it to: each row read in
/// place and each membership of constants without a list made (so they test the fused
/// instructions, not the general ones).
#[test]
fn plain_code_reads_rows_in_place_and_constants_without_a_list() {
    use crate::core_ir::code::Inst;
    let p = eval::test_program(YAML, RULES);
    let count = |name: &str, is: fn(&Inst) -> bool| {
        let (id, _) = p.function(name).expect(name);
        let f = crate::core_ir::module(&p).func(id).expect("lowers");
        let full = f.code.iter().filter(|i| is(i)).count();
        (f.plain.iter().filter(|i| is(i)).count(), full)
    };
    // Nine reads of a row (the sum's in its loop, the formula's inlined), none in the
    // traced code.
    assert_eq!(count("rows", |i| matches!(i, Inst::RowRead { .. })), (9, 0));
    assert_eq!(count("rows", |i| matches!(i, Inst::Lookup { .. })).0, 0);
    // Four memberships; no list made in the plain code.
    assert_eq!(count("ins", |i| matches!(i, Inst::InImm { .. })).0, 4);
    assert_eq!(count("ins", |i| matches!(i, Inst::NewList { .. })).0, 0);
}
