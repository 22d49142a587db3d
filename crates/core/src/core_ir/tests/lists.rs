//! Lists searched, ordered and made of ranges, on the VM, each in the plain and the full code:
//! `first` and `index_of` (found, missed, of no item), `sort` and `min_by`/`max_by` (ties keep the
//! list's order, no item gives `[]` or none), `lo..hi` as a value (empty, past the room a range may
//! have).

use super::{agrees, band, run, same, YAML};
use crate::eval::{self, Value};
use crate::ir::Program;
use rulesc_runtime::RuleErrorKind;

const RULES: &str = r#"
// The first member above `n` (none past the best), the first Serious one, a search of no
// item, a condition that rolls, and positions.
procedure finds(b: Band, n: int) -> list<int> {
  let f = first(m in b.members if m.skill > n)
  let i = index_of(m in b.members if m.hurt == Serious)
  let empty: list<int> = []
  let e = first(x in empty if x > 0)
  let j = index_of(x in empty)
  let lucky = first(x in [3, 1, 4] if x + roll d4 > n)
  let place = index_of(x in [3, 1, 4] if x >= n)
  let a = if f != none then f.skill else -1
  let k = if i != none then i else -1
  let l = if lucky != none then lucky else -1
  let t = if place != none then place else -1
  return [a, k, l, t, if e == none then 1 else 0, if j == none then 1 else 0]
}

// Ordered by skill then by readiness, by hurt (ties keep the list's order), by a roll, of
// no item; the lowest and highest of each, the first of equal keys.
procedure orders(b: Band, n: int) -> list<int> {
  let s = sort(m in b.members by m.skill, m.ready)
  let h = sort(m in b.members if m.skill != n by m.hurt)
  let r = sort(m in b.members by m.skill + roll d6)
  let empty: list<Fighter> = []
  let none_sorted = sort(m in empty by m.skill)
  let low = min_by(m in b.members by m.hurt)
  let high = max_by(m in b.members if m.skill < n by m.ready, m.hurt)
  let nobody = max_by(m in empty by m.skill)
  let levels = sort(l in [Grave, Scratch, Light] by l)
  let code = 0
  for m in s {
    code = code * 10 + m.skill
  }
  let hurts = 0
  for m in h {
    hurts = hurts * 10 + m.skill
  }
  let rolled = 0
  for m in r {
    rolled = rolled * 10 + m.skill
  }
  let lo = if low != none then low.skill else -1
  let hi = if high != none then high.skill else -1
  return [code, hurts, rolled, lo, hi, if nobody == none then 1 else 0, len(none_sorted),
    if levels[0] == Scratch and levels[2] == Grave then 1 else 0]
}

// `lo..hi` where a list is walked: summed, made into squares, searched, ordered, empty
// when `hi <= lo`.
procedure ranges(n: int) -> int {
  let squares = [i * i for i in 0..n]
  let back = count(x in n..2)
  let found = first(i in 1..n if i * i > n)
  let down = sort(i in 0..n by 0 - i)
  let top = if len(down) > 0 then down[0] else -1
  let f = if found != none then found else -1
  return sum(x for x in 1..n) * 10000 + sum(squares) * 10 + back + f * 1000000 + top * 100000000
}

// Steps spent by searches, orders and ranges until the budget runs out inside one.
procedure spend(n: int) -> int {
  let total = 0
  for i in 0..n {
    let s = sort(x in 0..n by 0 - x)
    let f = first(x in s if x < i)
    let b = max_by(x in s by x % 7)
    total += len(s) + (if f == none then 0 else 1) + (if b == none then 0 else 1)
  }
  return total
}
"#;

fn program() -> Program {
    eval::test_program(YAML, RULES)
}

/// The numbers of a list of ints.
fn ints(v: &Value) -> Vec<i64> {
    let Value::List(items) = v else {
        panic!("not a list: {v:?}")
    };
    items
        .iter()
        .map(|x| match x {
            Value::Int(i) => *i,
            other => panic!("not an int: {other:?}"),
        })
        .collect()
}

#[test]
fn first_and_index_of_agree_in_the_plain_and_full_code() {
    let p = program();
    // Members (skill, ready, hurt): 5 ready Serious, 4 unready Scratch, 3 ready Light.
    let members = [(5, true, 2), (4, false, 0), (3, true, 1)];
    for n in [-1, 2, 3, 4, 5, 6] {
        // The first above n: 5 for every n below 5, none from 5 on; the first Serious at
        // 0; the first of [3, 1, 4] at least n; a search of no item none.
        let a = if n < 5 { 5 } else { -1 };
        let t = match n {
            ..=3 => 0,
            4 => 2,
            _ => -1,
        };
        for v in same(&p, "finds", &[band(&p, &members), Value::Int(n)]) {
            let v = ints(&v);
            assert_eq!(
                (v[0], v[1], v[3], v[4], v[5]),
                (a, 0, t, 1, 1),
                "{n}: {v:?}"
            );
            // A roll decides: 3 + d4 > n holds for every n below 4, none of 3, 1 and 4
            // reaches past 8.
            match n {
                ..=3 => assert_eq!(v[2], 3, "{n}: {v:?}"),
                _ => assert!([-1, 3, 1, 4].contains(&v[2]), "{n}: {v:?}"),
            }
        }
    }
    // No member Serious: index_of misses.
    for v in same(&p, "finds", &[band(&p, &[(1, true, 0)]), Value::Int(0)]) {
        assert_eq!(ints(&v)[..2], [1, -1]);
    }
    // No member at all.
    for v in same(&p, "finds", &[band(&p, &[]), Value::Int(0)]) {
        assert_eq!(ints(&v)[..2], [-1, -1]);
    }
}

#[test]
fn sort_min_by_and_max_by_agree_in_the_plain_and_full_code() {
    let p = program();
    // Two members of equal skill and readiness, two of equal hurt (ties for `sort`).
    let members = [(4, true, 1), (3, false, 1), (4, true, 0), (3, true, 2)];
    for (n, hurts, hi) in [(0, 4433, -1), (3, 44, -1), (4, 33, 3), (9, 4433, 3)] {
        for v in same(&p, "orders", &[band(&p, &members), Value::Int(n)]) {
            let v = ints(&v);
            // By skill then ready: 3 unready, 3 ready, then the two 4s in the list's
            // order; by hurt, equal hurts in the list's order; the lowest hurt is the
            // third member's; no item: none and []; levels sorted.
            assert_eq!((v[0], v[1], v[3], v[4]), (3344, hurts, 4, hi), "{n}: {v:?}");
            assert_eq!(v[5..], [1, 0, 1], "{n}: {v:?}");
        }
    }
    // Ties in every key: min_by and max_by take the first.
    for v in same(
        &p,
        "orders",
        &[band(&p, &[(2, true, 3), (5, true, 3)]), Value::Int(9)],
    ) {
        let v = ints(&v);
        assert_eq!((v[0], v[1], v[3], v[4]), (25, 25, 2, 2), "{v:?}");
    }
    // No member: every order empty, every best none.
    for v in same(&p, "orders", &[band(&p, &[]), Value::Int(9)]) {
        assert_eq!(ints(&v), [0, 0, 0, -1, -1, 1, 0, 1]);
    }
}

#[test]
fn ranges_as_values_agree_in_the_plain_and_full_code() {
    let p = program();
    for n in [-3, 0, 1, 2, 3, 7] {
        let got = same(&p, "ranges", &[Value::Int(n)]);
        let r: i64 = (1..n).sum();
        let squares: i64 = (0..n).map(|i| i * i).sum();
        let back = (2 - n).max(0);
        let found = (1..n).find(|i| i * i > n).unwrap_or(-1);
        let top = if n > 0 { n - 1 } else { -1 };
        let want = r * 10000 + squares * 10 + back + found * 1000000 + top * 100000000;
        assert!(got.iter().all(|v| *v == Value::Int(want)), "{n}: {got:?}");
    }
    // Past the numbers a range may hold: the rule error at the same site in both.
    for traced in [false, true] {
        let args = [Value::Int(i64::MAX / 2)];
        let vm = run(&p, "ranges", &args, true, traced, 0);
        agrees(&p, "ranges", &args, 0, &vm);
        assert!(matches!(
            vm.0.map_err(|e| e.kind),
            Err(RuleErrorKind::RangeTooLong { .. })
        ));
    }
}

#[test]
fn steps_run_out_inside_a_search_an_order_or_a_range_in_the_plain_and_full_code() {
    let p = program();
    // Small: every turn done. Large: the budget runs out part way, at the same step, the
    // same site and after the same trace on both.
    for n in [3, 1200, 1500, 2000] {
        for traced in [false, true] {
            let vm = run(&p, "spend", &[Value::Int(n)], true, traced, 0);
            agrees(&p, "spend", &[Value::Int(n)], 0, &vm);
            match n {
                3 => assert_eq!(vm.0, Ok(Value::Int(3 * 3 + 2 + 3))),
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
