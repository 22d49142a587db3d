//! Maps keyed by numbers, truths and records (sorted maps) and `keys` on the VM, each in the plain
//! and the full code: a key held and one not held (the zero, a copy), written through (the key
//! added), a record key, the keys of an empty map and of a map keyed by a scale.

use super::{agrees, run};
use crate::eval::{self, Value};
use crate::ir::Program;
use rulesc_runtime::RuleErrorKind;

const YAML: &str = r#"ruleset: { name: maps }
enums:
  Color: [Blue, Red, Green]
scales:
  Wound: [Scratch, Light, Serious]
types:
  Gear:
    power: int(0..10)
  Square:
    file: int(1..8)
    rank: int(1..8)
  Board:
    tallies: { type: "map<int, int>", default: { 3: 1, -2: 5 } }
    sides: { type: "map<bool, Color>", default: {} }
    marks: { type: "map<Square, list<int>>", default: [{ key: { file: 1, rank: 2 }, value: [4] }] }
    kits: { type: "map<int, Gear?>", default: {} }
    gears: { type: "map<int, Gear>", default: {} }
    hurts: { type: "map<Wound, int>", default: {} }
"#;

const RULES: &str = r#"
formula tally(t: map<int, int>) = sum(t[k] * k for k in keys(t))

// Read, written through (adding keys), copied before the writes, a record key, keys
// walked; a gear's `int(0..10)` power past its range a rule error after its key is added.
procedure keyed(b: Board, n: int, m: int) -> list<int> {
  let before = b.tallies
  b.tallies[n] += m
  b.tallies[n * 2] = b.tallies[m] + roll d4
  b.sides[n > m] = Red
  b.marks[Square(file: clamp(n, 1, 8), rank: clamp(m, 1, 8))] += [n, m]
  b.marks[Square(file: 1, rank: 2)][0] = n
  let total = 0
  for k in keys(b.tallies) {
    total = total * 3 + k + b.tallies[k]
  }
  let g = b.kits[m]
  let h = len(keys(b.hurts)) * 10 + len(keys(b.kits))
  b.tallies[0] = total + len(keys(b.marks)) + len(b.marks[Square(file: 8, rank: 8)])
  if g == none {
    b.tallies[100] = if b.sides[true] == Red then 10 else 0
  }
  b.gears[n].power += m
  return [b.tallies[0], tally(before), tally(b.tallies), h, b.gears[n].power, b.tallies[100]]
}

// Keys listed and sorted maps read until the budget runs out inside `keys`.
procedure spend(b: Board, n: int) -> int {
  for i in 0..n {
    b.tallies[i] = i
  }
  let total = 0
  for i in 0..n {
    total += len(keys(b.tallies)) + b.tallies[i]
  }
  return total
}
"#;

fn program() -> Program {
    eval::test_program(YAML, RULES)
}

#[test]
fn sorted_maps_and_keys_agree_in_the_plain_and_full_code() {
    let p = program();
    let board = || eval::record(&p, "Board", &[]).expect("Board");
    let mut errors = 0;
    for n in [-2, 0, 1, 3, 9] {
        for m in [-1, 0, 2, 3, 8] {
            for seed in 0..20 {
                for traced in [false, true] {
                    let args = [board(), Value::Int(n), Value::Int(m)];
                    let vm = run(&p, "keyed", &args, true, traced, seed);
                    agrees(&p, "keyed", &args, seed, &vm);
                    match vm.0 {
                        // A gear's power starts at 0: below its range for m < 0, above
                        // it past 10.
                        Err(e) => {
                            assert!(m < 0, "{n} {m}: {e:?}");
                            assert!(matches!(e.kind, RuleErrorKind::OutOfRange { .. }));
                            errors += 1;
                        }
                        Ok(Value::List(v)) => {
                            // Before the writes, 3 * 1 + -2 * 5; three levels of `hurts`,
                            // no key of `kits` (so `g` is none, and `sides[true]` was
                            // written Red only when n > m).
                            let v: Vec<Value> = v.to_vec();
                            assert_eq!(v[1], Value::Int(-7), "{n} {m}");
                            assert_eq!(v[3], Value::Int(30), "{n} {m}");
                            assert_eq!(v[4], Value::Int(m), "{n} {m}");
                            assert_eq!(v[5], Value::Int(if n > m { 10 } else { 0 }), "{n} {m}");
                        }
                        Ok(other) => panic!("{other:?}"),
                    }
                }
            }
        }
    }
    assert!(errors > 0, "the range is tested");
}

#[test]
fn steps_run_out_inside_keys_in_the_plain_and_full_code() {
    let p = program();
    let board = || eval::record(&p, "Board", &[]).expect("Board");
    for n in [4, 1500, 3000] {
        for traced in [false, true] {
            let vm = run(&p, "spend", &[board(), Value::Int(n)], true, traced, 0);
            agrees(&p, "spend", &[board(), Value::Int(n)], 0, &vm);
            match n {
                // Keys 0 to 3 and the default's 3 and -2 (3 written over): five keys.
                4 => assert_eq!(vm.0, Ok(Value::Int(4 * 5 + 6))),
                _ => assert!(
                    matches!(
                        vm.0.map_err(|e| e.kind),
                        Err(RuleErrorKind::TooManySteps { .. })
                    ),
                    "{n}"
                ),
            }
        }
    }
}
