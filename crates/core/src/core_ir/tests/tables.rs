//! Tables read by key and column on the VM, each in the plain and the full code: a cell found, a
//! key off the rows or the columns reading the default (a table without one covers every key, the
//! checker's E0310, so no read of it fails).

use super::{agrees, run};
use crate::eval::{self, Value};
use crate::ir::Program;

const YAML: &str = r#"ruleset: { name: grids }
enums:
  Color: [Blue, Red, Green]
scales:
  Level: [Zero, One, Two, Three]
tables:
  grid:
    key: [int, Color]
    value: Level
    columns: [Blue, Red, Green]
    rows:
      "..0": [Zero, One, Two]
      "1-2": [One, Two, Three]
      "3..": [Three, Three, Zero]
  near:
    key: [int, int]
    value: bool
    default: true
    columns: ["..-1", "2-3", 5]
    rows:
      0: [false, false, true]
      "2-4": [true, false, false]
"#;

const RULES: &str = r#"
formula cell(n: int, c: Color) = grid[n, c]
formula num(l: Level) = if l == Zero then 0 else if l == One then 1 else if l == Two then 2 else 3

// A cell read in a procedure (traced) and through a formula, a key of either table
// rolled, the other table's default off its rows or columns.
procedure grids(n: int, m: int, c: Color) -> int {
  let level = grid[n, c]
  let close = if near[n, m] then 1 else 0
  let again = cell(n, Red)
  let rolled = near[roll d4 - 1, m]
  return num(level) * 1000 + close * 100 + num(again) * 10 + (if rolled then 1 else 0)
}
"#;

fn program() -> Program {
    eval::test_program(YAML, RULES)
}

#[test]
fn two_key_tables_agree_in_the_plain_and_full_code() {
    let p = program();
    for n in [-1, 0, 1, 2, 3] {
        for m in [-2, -1, 0, 1, 2, 3, 5, 6] {
            for c in 0..3u16 {
                let args = [Value::Int(n), Value::Int(m), Value::Choice(c)];
                for seed in 0..20 {
                    for traced in [false, true] {
                        let vm = run(&p, "grids", &args, true, traced, seed);
                        agrees(&p, "grids", &args, seed, &vm);
                        let Ok(Value::Int(v)) = vm.0 else {
                            panic!("{args:?}: {:?}", vm.0)
                        };
                        let want = match n {
                            ..=0 => i64::from(c),
                            1 | 2 => i64::from(c) + 1,
                            _ => [3, 3, 0][usize::from(c)],
                        };
                        assert_eq!(v / 1000, want, "{args:?}: {v}");
                        // `near` off its rows or columns: its default, true.
                        let near = match (n, m) {
                            (0, ..=-1 | 2 | 3) | (2..=4, 2 | 3 | 5) => 0,
                            _ => 1,
                        };
                        assert_eq!(v / 100 % 10, near, "{args:?}: {v}");
                    }
                }
            }
        }
    }
}
