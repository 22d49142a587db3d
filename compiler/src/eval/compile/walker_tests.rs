//! Nodes the compile step once handed to the walker, now compiled: comprehensions,
//! `decide .. from` a list, and fields of a table's row (read directly, or through a
//! formula returning the row). Each gives what the walker gives, takes the walker's
//! steps, stops with the walker's rule error and traces the walker's events: the
//! compiled call of a procedure against the walker running its body, in the four ways
//! a procedure runs (compiled or walked, traced or not).

use crate::eval::{Interpreter, Value};
use crate::ir::{Body, Program};
use rulesc_runtime::{
    Env, Fight, FirstOption, RuleError, RuleErrorKind, SeededDice, TraceEvent, VecTrace,
};
use std::rc::Rc;

const YAML: &str = r#"ruleset: { name: walked }
enums:
  Mode: [Cut, Thrust, Bash]
types:
  Stats:
    reach: int
    tags: "list<Mode>"
  Band:
    members: "list<Stats>"
  Edge:
    bonus: { type: "map<Mode, int>", default: {} }
tables:
  stats:
    key: Mode
    value: Stats
    rows:
      Cut: { reach: 2, tags: [Cut] }
      Thrust: { reach: 3, tags: [Thrust, Cut] }
      Bash: { reach: 1, tags: [] }
  by_band:
    die: d4
    value: Stats
    rows:
      "1-2": { reach: 2, tags: [Cut] }
      "3-4": { reach: 5, tags: [] }
  edges:
    die: d4
    value: Edge
    rows:
      "1-2": { bonus: { Cut: 1, Bash: 3 } }
      "3-4": { bonus: { Thrust: 20 } }
"#;

const RULES: &str = r#"
formula stats_of(m: Mode) = stats[m]
formula reach_of(m: Mode) = stats_of(m).reach
formula others(xs: list<int>) = len([x for x in xs if x != 2])
formula reaching(ss: list<Stats>) = [s for s in ss if s.reach > 1]

procedure stretch(s: Stats, n: int) {
  s.reach = n
}

// A list a formula's comprehension made is a value of its own: changing the records it
// was made from afterwards leaves it as it was.
procedure kept(band: Band, n: int) -> int {
  let r = reaching(band.members)
  stretch(band.members[0], n)
  return r[0].reach * 100 + band.members[0].reach * 10 + len(r)
}

procedure fields(n: int) -> int {
  let total = 0
  for m in [Cut, Thrust, Bash] {
    total += stats[m].reach + reach_of(m) + len(stats_of(m).tags) + len(by_band[n].tags)
  }
  return total
}

procedure comprehension(xs: list<int>) -> int {
  let big = [x * 2 for x in xs if x > 1]
  let modes = [m for m in [Cut, Thrust, Bash] if Cut in stats[m].tags]
  return len(big) + sum(b for b in big) + len(modes) + others(xs)
}

// A map in a table's row, read by key; every value of an enum, walked.
procedure edge(n: int, m: Mode) -> int {
  let over = count(x in Mode if stats[x].reach > n)
  return edges[n].bonus[m] * 10 + over + sum(stats[x].reach * edges[2].bonus[x] for x in Mode)
}

// Membership in lists of constants: the first item, the last, none.
procedure member(x: int, m: Mode, b: bool) -> int {
  let r = roll d4
  let n = 0
  if x in [1, 5, 9] {
    n += 1
  }
  if m in [Thrust, Bash] {
    n += 10
  }
  if b in [true] {
    n += 100
  }
  if r in [1, 2] {
    n += 1000
  }
  return n
}

// A record made of another's parts holds copies of them: changing the parts afterwards,
// or a copy of the record's own part, leaves it as it was.
procedure made_of(s: Stats, n: int) -> int {
  let pair = Band(members: [s, s])
  stretch(s, n)
  let first = pair.members[0]
  stretch(first, n + 1)
  return pair.members[0].reach * 100 + pair.members[1].reach * 10 + s.reach + first.reach * 1000
}

procedure pick(xs: list<int>) -> int {
  let a = decide first from xs
  let b = decide second from [x for x in xs if x > a]
  return a * 10 + b
}
"#;

fn program() -> Program {
    crate::eval::test_program(YAML, RULES)
}

/// What a run gives: its result, the steps it took, its trace.
type Ran = (Result<Value, RuleError>, u64, Vec<TraceEvent>);

/// Runs procedure `name` on copies of `args`, compiled (a call) or by the walker (its
/// body in a frame holding the arguments), traced or not.
fn run(
    p: &Program,
    name: &str,
    args: &[Value],
    walker: bool,
    traced: bool,
    fight: Option<&mut Fight<Value>>,
) -> Ran {
    let mut env = Env::new(SeededDice::new(3), FirstOption, VecTrace::default());
    let (id, f) = p.function(name).unwrap_or_else(|| panic!("{name}"));
    let mut it = Interpreter::untraced(p, &mut env);
    it.tracing = traced;
    it.fight = fight;
    let result = if walker {
        let Body::Procedure(body) = &f.body else {
            panic!("{name} is no procedure")
        };
        let mut locals: Vec<Value> = args.iter().map(Value::deep_clone).collect();
        locals.resize(f.locals.len(), Value::Unit);
        it.block(body, &mut locals).map(|flow| match flow {
            crate::eval::Flow::Return(v) => v,
            crate::eval::Flow::Normal => Value::Unit,
        })
    } else {
        it.call(id, args.iter().map(Value::deep_clone))
    };
    let steps = it.steps;
    drop(it);
    (result, steps, env.trace.events)
}

/// The compiled call and the walked body agree (the call takes one step more, and its
/// trace opens with the call); the compiled result is returned.
fn same(p: &Program, name: &str, args: &[Value]) -> Result<Value, RuleError> {
    same_in(p, name, args, None)
}

/// [`same`], run in `fight` when there is one.
fn same_in(
    p: &Program,
    name: &str,
    args: &[Value],
    mut fight: Option<&mut Fight<Value>>,
) -> Result<Value, RuleError> {
    let mut result = None;
    for traced in [false, true] {
        let (got, steps, trace) = run(p, name, args, false, traced, fight.as_deref_mut());
        let (walked, walked_steps, walked_trace) =
            run(p, name, args, true, traced, fight.as_deref_mut());
        assert_eq!(got, walked, "{name} {args:?} traced: {traced}");
        assert_eq!(steps, walked_steps + 1, "{name} {args:?} traced: {traced}");
        if traced {
            let site = p.functions[p.function(name).unwrap().0].site;
            assert_eq!(trace.first(), Some(&TraceEvent::Call { site }), "{name}");
            assert_eq!(trace[1..], walked_trace[..], "{name} {args:?}");
        } else {
            assert_eq!(trace, Vec::new(), "{name} untraced");
        }
        result = Some(got);
    }
    result.expect("run")
}

fn ints(xs: &[i64]) -> Value {
    Value::List(Rc::new(xs.iter().map(|&x| Value::Int(x)).collect()))
}

#[test]
fn a_field_of_a_tables_row_is_the_rows_field() {
    let p = program();
    // Cut 2 + 2 + 1 tag, Thrust 3 + 3 + 2 tags, Bash 1 + 1 + 0 tags; band 1-2 has one tag
    // and band 3-4 none, read once per mode.
    assert_eq!(same(&p, "fields", &[Value::Int(2)]), Ok(Value::Int(18)));
    assert_eq!(same(&p, "fields", &[Value::Int(3)]), Ok(Value::Int(15)));
    // No face of the band's die: the lookup's rule error, in both.
    let err = same(&p, "fields", &[Value::Int(5)]).unwrap_err();
    assert!(matches!(err.kind, RuleErrorKind::NoRow { .. }), "{err:?}");
}

#[test]
fn a_comprehension_keeps_what_passes_in_order() {
    let p = program();
    // [4, 6] (2 items, sum 10), Cut and Thrust hold Cut (2), 1 and 3 are not 2 (2).
    let got = same(&p, "comprehension", &[ints(&[1, 2, 3])]);
    assert_eq!(got, Ok(Value::Int(16)));
    assert_eq!(same(&p, "comprehension", &[ints(&[])]), Ok(Value::Int(2)));
    // Reaches 2, 3 and 1: the first two kept; the source's first set to 7 afterwards, the
    // copy kept still reaching 2.
    let stats = |reach| crate::eval::record(&p, "Stats", &[("reach", Value::Int(reach))]);
    let members = [2, 3, 1].map(|r| stats(r).expect("Stats")).to_vec();
    let members = Value::List(Rc::new(members));
    let band = crate::eval::record(&p, "Band", &[("members", members)]).expect("Band");
    assert_eq!(
        same(&p, "kept", &[band, Value::Int(7)]),
        Ok(Value::Int(272))
    );
}

#[test]
fn a_decision_from_a_list_picks_from_it_and_an_empty_one_is_a_rule_error() {
    let p = program();
    // The first option each time: 5, then 7 of [7, 9].
    assert_eq!(same(&p, "pick", &[ints(&[5, 7, 9])]), Ok(Value::Int(57)));
    let err = same(&p, "pick", &[ints(&[3])]).unwrap_err();
    assert!(
        matches!(err.kind, RuleErrorKind::NoOptions { .. }),
        "{err:?}"
    );
}

#[test]
fn membership_in_a_list_of_constants_is_the_walkers() {
    let p = program();
    let mode = |i| Value::Choice(i);
    // The d4 seeded with 3 in both runs: what it adds is the same in every case below.
    let r = same(&p, "member", &[Value::Int(4), mode(0), Value::Bool(false)])
        .expect("member")
        .int();
    assert!(r == 0 || r == 1000, "{r}");
    // Each list's first item, its last, and a value just past its last.
    for (x, m, b, expect) in [
        (1, 1, true, 111),
        (9, 2, true, 111),
        (5, 0, false, 1),
        (10, 0, false, 0),
        (0, 2, false, 10),
    ] {
        let got = same(&p, "member", &[Value::Int(x), mode(m), Value::Bool(b)]);
        assert_eq!(got, Ok(Value::Int(expect + r)), "x {x}, mode {m}, {b}");
    }
}

#[test]
fn a_record_made_of_a_records_parts_holds_copies() {
    let p = program();
    let stats = crate::eval::record(&p, "Stats", &[("reach", Value::Int(2))]).expect("Stats");
    // Both members reach 2 still; the parameter 7; the copy of a member 8.
    assert_eq!(
        same(&p, "made_of", &[stats, Value::Int(7)]),
        Ok(Value::Int(8227))
    );
}

#[test]
fn a_map_in_a_tables_row_and_an_enums_values_are_the_walkers() {
    let p = program();
    // Every mode: reaches 2, 3, 1 (over n counted); edges[2] gives Cut 1 and Bash 3, so the
    // sum is 2 * 1 + 3 * 0 + 1 * 3 = 5.
    for (n, m, expect) in [
        (1, 0, 10 + 2 + 5),
        (2, 2, 30 + 1 + 5),
        (2, 1, 1 + 5),
        (3, 1, 200 + 5),
        (4, 0, 5),
    ] {
        let got = same(&p, "edge", &[Value::Int(n), Value::Choice(m)]);
        assert_eq!(got, Ok(Value::Int(expect)), "n {n}, mode {m}");
    }
    // No row for 5: the lookup's rule error, in both.
    let err = same(&p, "edge", &[Value::Int(5), Value::Choice(0)]).unwrap_err();
    assert!(matches!(err.kind, RuleErrorKind::NoRow { .. }), "{err:?}");
}

/// `len(allies(c))` and `len(enemies(c))` count the fighters without making the list: the
/// walker's count, asking the same `out` rules at the same steps.
#[test]
fn a_side_is_counted_as_the_walker_lists_it() {
    let p = crate::eval::test_program(
        "ruleset: { name: counted }\ntypes:\n  Body:\n    hp: { type: int, default: 2 }\n",
        "procedure tally(c: fighter) -> int {
  return len(allies(c)) * 100 + len(enemies(c)) * 10 + len(fighters())
}

procedure wait(me: fighter) {
}

fight of Body {
  order(c) = [c.hp]
  out(c) = c.hp <= 0
  on turn = wait
}
",
    );
    let body = |hp| crate::eval::record(&p, "Body", &[("hp", Value::Int(hp))]).expect("Body");
    let mut fight: Fight<Value> = Fight::new();
    // Left: A, B (out), D; Right: C.
    let a = fight.join("Left", "A", body(2));
    fight.join("Left", "B", body(0));
    let c = fight.join("Right", "C", body(1));
    fight.join("Left", "D", body(3));
    let tally = |f: rulesc_runtime::Fighter, fight: &mut Fight<Value>| {
        same_in(&p, "tally", &[Value::Fighter(f.0)], Some(fight))
    };
    // A: one ally (D; B is out), one enemy; C: none, two (A, D); four fighters in all.
    assert_eq!(tally(a, &mut fight), Ok(Value::Int(114)));
    assert_eq!(tally(c, &mut fight), Ok(Value::Int(24)));
}
