//! The VM on the constructs of the language, one procedure each: the results and rule
//! errors the rules give (stated in each test), and the same result and steps from each
//! of a function's two codes (the plain code, with small formulas inlined and steps
//! gathered, and the full code, with its stops and trace points), traced and untraced,
//! over many seeds. What a construct means is held against generated code by the
//! differential suites (`tests/tests/differential_coverage/` runs every construct the
//! Rust backend emits); the tree walker these tests were first held to is gone.

mod calls;
mod coverage;
mod effects;
mod formulas;
mod fused;
mod lists;
mod maps;
mod places;
mod shape;
mod tables;

use super::code::Inst;
use crate::eval::{self, Value};
use crate::ir::Program;
use rulesc_runtime::{
    Decide, Env, FirstOption, NoTrace, RuleError, RuleErrorKind, SeededDice, TraceEvent, VecTrace,
};

/// Answers 0, 1, 2, .. from a start, past the options too (the answer is clamped).
struct Cycle(u32);

impl Decide for Cycle {
    fn decide(&mut self, _: &'static str, _: u32) -> u32 {
        self.0 = (self.0 + 1) % 7;
        self.0
    }
}

const YAML: &str = r#"ruleset: { name: lowered }
scales:
  Wound: [Scratch, Light, Serious, Grave]
tables:
  hurt_by:
    die: d6
    value: Wound
    rows:
      "1-2": Scratch
      "3-4": Light
      5: Serious
      6: Grave
tracks:
  Hurts:
    scale: Wound
    boxes:
      - { level: Light, pain: 1 }
      - { level: Light, pain: 2 }
      - { level: Grave, pain: 5 }
types:
  Fighter:
    physical_performance: int
    skill: int
    ready: bool
    hurt: Wound
  Wear:
    dents: int
  Guard:
    grit: int(0..5)
    wear: Wear
  Scarred:
    wounds: { type: Hurts, default: [] }
  Band:
    members: list<Fighter>
    tally: int
    marks: { type: "map<Wound, int>", default: {} }
"#;

const RULES: &str = r#"
outcome Exchange {
  EpicFailure,
  Miss,
  Hit(margin: int),
  Graze(margin: int, natural: int, by: Wound, close: bool),
}

// The bench's exchange (K9, K12).
procedure exchange(attacker: Fighter, defender: Fighter) -> Exchange {
  let attack = roll d12! + attacker.physical_performance + attacker.skill
  if natural(attack) == 1 {
    return EpicFailure
  }
  let defence = roll d12! + defender.physical_performance + defender.skill
  if attack < defence {
    return Miss
  }
  return Hit(margin: attack - defence)
}

// `and`/`or`/`not`, chains of `if`, levels, negation and the rest of the arithmetic.
procedure logic(a: int, b: bool, c: Fighter) -> Exchange {
  let r = roll 2d6 - 3
  let worse = c.hurt > Light or not c.ready
  if b and a > 3 and natural(r) != 6 {
    return Graze(margin: -a * 2 + r / 2 - r % 3, natural: natural(r), by: c.hurt, close: worse)
  } else if worse or a == 0 {
    return Miss
  } else if not b {
    return Hit(margin: r - a)
  } else {
    let t = a
    return Hit(margin: t + 1)
  }
}

// Locals changed, the rest of the arithmetic, levels stepped and decisions.
procedure tally(a: int, c: Fighter) -> Exchange {
  let t = a
  t += roll d6
  t -= c.skill
  let worst = max(c.hurt, Light)
  let best = min(c.hurt + 1, Serious, worst - a)
  if decide press: bool {
    worst = worst + a
    t = clamp(t, -2, 5) + abs(a - 9)
  }
  let pick = decide how: Wound
  let close = pick >= worst and best != Grave
  return Graze(margin: min(t, 9, max(a, 2)), natural: 0, by: worst - 1, close: close)
}

// Fields changed in place: set, added to and taken from, through a path of two fields,
// and a ranged field whose new value is checked.
procedure wounded(c: Fighter, a: int) -> Exchange {
  c.skill += a
  c.physical_performance -= roll d6
  c.hurt = c.hurt + 1
  c.ready = c.skill > 2
  return Graze(margin: c.skill, natural: c.physical_performance, by: c.hurt, close: c.ready)
}

// A new record's ranged field, not proven inside.
procedure forge(n: int) -> int {
  let g = Guard(grit: n, wear: Wear(dents: 1))
  return g.grit + 3
}

procedure brace(g: Guard, a: int) -> int {
  g.wear.dents -= 1
  g.grit += a
  let w = g.wear
  g.wear = w
  return g.grit * 100 + g.wear.dents
}

// Lists walked: every aggregate, with and without a filter, `len`, and `for` over copies
// of the items changing a parameter.
procedure muster(b: Band, a: int) -> Exchange {
  let ready = count(m in b.members if m.ready)
  let total = sum(m.skill + a for m in b.members if m.skill > a)
  let worst = max(m.hurt for m in b.members)
  let least = min(m.skill for m in b.members if m.skill > a)
  let brave = any(m.hurt == Scratch for m in b.members)
  let fit = all(m.ready for m in b.members if m.skill > a)
  for m in b.members {
    b.tally += m.skill + roll d4
  }
  let r = readiness(b)
  return Graze(margin: total * 100 + ready * 10 + len(b.members), natural: least + b.tally * 1000 + r * 100000, by: worst, close: brave and fit)
}

formula readiness(b: Band) = count(m in b.members if m.ready) + sum(m.skill for m in b.members)

// Lists made (a literal, a comprehension with a filter), read at an index, searched, and
// a range loop whose local the body changes.
procedure roster(b: Band, pick: int, n: int) -> Exchange {
  let skills = [m.skill for m in b.members if m.ready]
  let marks = [pick, n, pick + n]
  let t = 0
  for i in 0..n {
    t += i
    i += 10
  }
  for i in pick..n {
    t += 100
  }
  let seen = n + 1 in marks and 7 in skills
  return Graze(margin: skills[pick] + t * 10, natural: len(marks) + len(skills) * 10, by: b.members[0].hurt, close: seen)
}

// Places with indices and keys changed, a new record stored, a constant list read.
procedure drill(b: Band, g: Guard, i: int) -> int {
  b.members[i].skill += 1
  b.marks[Light] += i
  g.wear = Wear(dents: i * 2)
  let base = [4, 5]
  return b.members[i].skill * 100 + b.marks[Light] * 10 + g.wear.dents + base[1]
}

// `match` on a level (cases joined, a `return` in an arm, a wildcard) and on an outcome
// (a field bound) as statements, and on a level as an expression.
procedure judge(c: Fighter, a: int) -> int {
  let t = 0
  match c.hurt {
    Scratch | Light => { t = 1 }
    Grave => { return 99 }
    _ => {}
  }
  match exchange(c, c) {
    Hit(margin) => { t += margin * 10 }
    Miss => { t += 5 }
    _ => {}
  }
  let w = match c.hurt { Scratch => a, Serious => a * 2, _ => 0 }
  return t + w * 100000
}

// `match` on a number, which only wildcards match (E0321 refuses a named case), as a
// statement and as an expression.
procedure wild(a: int) -> int {
  let t = 0
  match a * 2 {
    _ => { t = a + 1 }
  }
  let u = match a { _ => a * 3 }
  return t * 100 + u
}

// Dice held in a local, multiplied and rolled.
procedure volley(n: int) -> int {
  let d = d6
  let many = d * n
  let r = roll many
  return r + natural(r) * 10000
}

// A track's filled boxes and their parts.
procedure ache(s: Scarred) -> Exchange {
  let boxes = filled(s.wounds)
  let worst = max(b.level for b in boxes)
  return Graze(margin: sum(b.pain for b in boxes), natural: sum(b.number for b in boxes), by: worst, close: len(boxes) > 1)
}

// The same, walking `filled` in place (no list made): a loop and aggregates over it.
procedure ache_in_place(s: Scarred) -> Exchange {
  let numbers = 0
  let many = 0
  for b in filled(s.wounds) {
    numbers += b.number
    many += 1
  }
  return Graze(margin: sum(b.pain for b in filled(s.wounds)), natural: numbers, by: max(b.level for b in filled(s.wounds)), close: many > 1)
}

// A loop over a scale's levels, held in the code, and over lists of numbers.
procedure tiers(a: int, w: Wound) -> int {
  let n = count(l in Wound if l > w)
  let s = 0
  for x in [1, 2, 5] {
    if x > a {
      s += x
    }
  }
  return n * 100 + s + 10 * sum(x for x in [3, 4] if x != a)
}

// A die table rolled whole and among some of its rows.
procedure strike_at(a: int) -> Exchange {
  let any = roll hurt_by
  let worse = roll hurt_by among [Light]
  if a > 0 {
    worse = roll hurt_by among [Serious, Grave]
  }
  return Graze(margin: a, natural: 0, by: any, close: worse >= Serious)
}

// A roll's faces read, kept and dropped, of constant dice and of dice held.
procedure pool(n: int) -> int {
  let r = roll 4d6kh3
  let d = d4 * n
  let s = roll d
  return sum(kept(r)) * 1000 + len(dropped(r)) * 100 + len(faces(s)) * 10 + r - sum(kept(r))
}

// A decision among a list's items: the band's members by skill.
procedure pick_one(b: Band) -> int {
  let m = decide champion from b.members
  let s = decide tactic from [m.skill, 10]
  return m.skill * 100 + s
}

// Boxes of a track filled, twice at one level.
procedure hurt_twice(s: Scarred, l: Wound) -> int {
  let a = fill s.wounds at l
  let b = fill s.wounds at l
  return a * 10 + b + len(filled(s.wounds)) * 100
}

// An optional value: none, then set, tested and read where present.
procedure maybe(n: int) -> int {
  let w: Wear? = none
  if n > 2 {
    w = Wear(dents: n)
  }
  if w != none {
    return w.dents
  }
  return -1
}

// A local list appended to and replaced.
procedure gather(n: int) -> int {
  let xs = [n]
  xs += [n + 1, n + 2]
  let ys = xs
  xs = [7]
  return len(ys) * 100 + sum(ys) + len(xs) * 1000
}

// A divisor that may be zero.
procedure share(a: int, b: int) -> int {
  return a / b * 100 + a % b
}

// A small formula, inlined into `spend`'s plain code, where the budget runs out.
formula above(xs: list<int>, floor: int) = sum(x for x in xs if x > floor)

procedure spend(n: int, xs: list<int>) -> int {
  let acc = 0
  for i in 0..n {
    acc += above(xs, i)
  }
  return acc
}

// Falls off its end.
procedure quiet(a: int) {
  let b = a + 1
  if b > 2 {
    let c = roll d4
  }
}
"#;

fn program() -> Program {
    eval::test_program(YAML, RULES)
}

type Ran = (Result<Value, RuleError>, u64, Vec<TraceEvent>);

/// Runs `name` on the VM with the dice of `seed`: as a run picks its code when `plain`
/// (the plain code untraced, the full code traced), else its full code untraced (its
/// stops live, as under an enumeration that may stop: [`full`]).
fn run(p: &Program, name: &str, args: &[Value], plain: bool, traced: bool, seed: u64) -> Ran {
    run_with(p, name, args, (plain, traced, false), seed)
}

/// [`run`], with formulas traced too when `formulas` (`--trace-formulas`).
fn run_with(
    p: &Program,
    name: &str,
    args: &[Value],
    (plain, traced, formulas): (bool, bool, bool),
    seed: u64,
) -> Ran {
    let (id, _) = p.function(name).unwrap_or_else(|| panic!("{name}"));
    let args = args.iter().map(Value::deep_clone);
    let lowered = crate::core_ir::module(p);
    assert!(lowered.func(id).is_some(), "{name} does not lower");
    // The full code runs untraced when the run's dice may stop it.
    let may_stop = !plain;
    if traced {
        let mut env = Env::new(
            SeededDice::new(seed),
            Cycle(seed as u32),
            VecTrace::default(),
        );
        let (r, steps) = super::vm::run(p, lowered, id, &mut env, None, args, (may_stop, formulas));
        return (r, steps, env.trace.events);
    }
    let mut env = Env::new(SeededDice::new(seed), Cycle(seed as u32), NoTrace);
    let (r, steps) = super::vm::run(p, lowered, id, &mut env, None, args, (may_stop, formulas));
    (r, steps, Vec::new())
}

/// `name` with `args` on the full code, untraced: the other lowering of the same body
/// (no formula inlined, no steps gathered, a stop before each statement), which a run's
/// result and steps must match whichever code it ran.
fn full(p: &Program, name: &str, args: &[Value], seed: u64) -> Ran {
    run(p, name, args, false, false, seed)
}

/// `ran` (any code, traced or not) and the full code untraced agree on the result and
/// the steps taken.
fn agrees(p: &Program, name: &str, args: &[Value], seed: u64, ran: &Ran) {
    let other = full(p, name, args, seed);
    assert_eq!(
        (&ran.0, ran.1),
        (&other.0, other.1),
        "{name} {args:?} seed {seed}: plain or traced against the full code"
    );
}

/// `name` with `args` for seeds 0..200: the plain code, the full code and a traced run
/// agree on the result and the steps, and the traced run records its call; the traced
/// results.
fn same(p: &Program, name: &str, args: &[Value]) -> Vec<Value> {
    let mut results = Vec::new();
    for seed in 0..200 {
        for traced in [false, true] {
            let ran = run(p, name, args, true, traced, seed);
            agrees(p, name, args, seed, &ran);
            if traced {
                assert!(
                    matches!(ran.2.first(), Some(TraceEvent::Call { .. })),
                    "{name}: a traced run records its call first"
                );
                results.push(ran.0.clone().expect("no rule error here"));
            }
        }
    }
    results
}

fn fighter(p: &Program, pp: i64, skill: i64, ready: bool, hurt: u16) -> Value {
    eval::record(
        p,
        "Fighter",
        &[
            ("physical_performance", Value::Int(pp)),
            ("skill", Value::Int(skill)),
            ("ready", Value::Bool(ready)),
            ("hurt", Value::Choice(hurt)),
        ],
    )
    .expect("Fighter")
}

/// A band of fighters, each `(skill, ready, hurt)`, its tally and marks at 0.
fn band(p: &Program, members: &[(i64, bool, u16)]) -> Value {
    let members = members
        .iter()
        .map(|&(skill, ready, hurt)| fighter(p, 0, skill, ready, hurt))
        .collect();
    eval::record(
        p,
        "Band",
        &[
            ("members", Value::List(std::rc::Rc::new(members))),
            ("tally", Value::Int(0)),
            (
                "marks",
                Value::Map(std::rc::Rc::new(vec![Value::Int(0); 4])),
            ),
        ],
    )
    .expect("Band")
}

/// A guard of `grit`, its wear 4 dents.
fn guard(p: &Program, grit: i64) -> Value {
    let wear = eval::record(p, "Wear", &[("dents", Value::Int(4))]).expect("Wear");
    eval::record(p, "Guard", &[("grit", Value::Int(grit)), ("wear", wear)]).expect("Guard")
}

/// Three members, the first a skill of `first`: ready or not, of every hurt but the worst.
fn three(first: i64) -> [(i64, bool, u16); 3] {
    [(first, true, 2), (4, false, 0), (3, true, 1)]
}

/// The outcome tags seen.
fn tags(results: &[Value]) -> std::collections::BTreeSet<u16> {
    results
        .iter()
        .map(|v| match v {
            Value::Outcome { tag, .. } => *tag,
            other => panic!("not an outcome: {other:?}"),
        })
        .collect()
}

#[test]
fn the_exchange_agrees_in_the_plain_and_full_code() {
    let p = program();
    let (a, d) = (fighter(&p, 2, 3, true, 0), fighter(&p, 1, 4, true, 0));
    let got = same(&p, "exchange", &[a, d]);
    // Over 200 seeds every way out is taken: an epic failure, a miss and a hit.
    assert_eq!(tags(&got), [0, 1, 2].into());
}

#[test]
fn conditions_levels_and_arithmetic_agree_in_the_plain_and_full_code() {
    let p = program();
    let mut seen = std::collections::BTreeSet::new();
    for a in [-4, 0, 3, 4, 7] {
        for b in [false, true] {
            for (ready, hurt) in [(true, 0), (true, 1), (true, 2), (false, 0)] {
                let c = fighter(&p, 0, 0, ready, hurt);
                seen.extend(tags(&same(
                    &p,
                    "logic",
                    &[Value::Int(a), Value::Bool(b), c],
                )));
            }
        }
    }
    // Every branch of the chain was taken somewhere.
    assert_eq!(seen, [1, 2, 3].into());
}

#[test]
fn assignments_levels_and_decisions_agree_in_the_plain_and_full_code() {
    let p = program();
    let mut closes = std::collections::BTreeSet::new();
    for a in [-3, 0, 1, 2, 5] {
        for hurt in 0..4 {
            let c = fighter(&p, 0, 2, true, hurt);
            for v in same(&p, "tally", &[Value::Int(a), c]) {
                let Value::Outcome { fields, .. } = v else {
                    panic!("an outcome")
                };
                closes.insert(fields[3] == Value::Bool(true));
            }
        }
    }
    // Both ways of the last condition were taken.
    assert_eq!(closes.len(), 2);
}

#[test]
fn a_procedure_falling_off_its_end_returns_nothing_in_the_plain_and_full_code() {
    let p = program();
    for a in [1, 2, 3] {
        let got = same(&p, "quiet", &[Value::Int(a)]);
        assert!(got.iter().all(|v| *v == Value::Unit));
    }
}

#[test]
fn aggregates_len_and_for_over_a_list_agree_in_the_plain_and_full_code() {
    let p = program();
    let graze = |v: &Value| match v {
        Value::Outcome { fields, .. } => fields.to_vec(),
        other => panic!("an outcome, not {other:?}"),
    };
    // No member: every aggregate's empty value (max the lowest level, min 0, all true).
    for v in same(&p, "muster", &[band(&p, &[]), Value::Int(0)]) {
        assert_eq!(
            graze(&v),
            [
                Value::Int(0),
                Value::Int(0),
                Value::Choice(0),
                Value::Bool(false)
            ]
        );
    }
    // Three members, filtered at skill > a with a just below, at and above a skill.
    for (a, total, least, fit) in [
        (2, 4 + 3 + 2 * 2, 3, false),
        (3, 4 + 3, 4, false),
        (4, 0, 0, true),
    ] {
        for v in same(&p, "muster", &[band(&p, &three(1)), Value::Int(a)]) {
            let f = graze(&v);
            assert_eq!(f[0], Value::Int(total * 100 + 2 * 10 + 3), "a {a}");
            let Value::Int(natural) = f[1] else { panic!() };
            // least, then the tally (8 of skill and 3 to 12 of d4s), then readiness.
            assert_eq!(natural % 1000, least, "a {a}");
            assert!(
                (11..=20).contains(&(natural / 1000 % 100)),
                "a {a}: {natural}"
            );
            assert_eq!(natural / 100_000, 2 + 8, "a {a}");
            assert_eq!(f[2], Value::Choice(2));
            assert_eq!(f[3], Value::Bool(fit), "a {a}");
        }
    }
}

#[test]
fn made_lists_indices_searches_and_range_loops_agree_in_the_plain_and_full_code() {
    let p = program();
    let band = band(&p, &three(7));
    // Two ready members' skills, [7, 3]: index 0 and 1 are inside, -1 and 2 are not.
    for (at, n) in [(0, 3), (1, 0), (1, 4), (-1, 2), (2, 2), (0, 20_001)] {
        for traced in [false, true] {
            let vm = run(
                &p,
                "roster",
                &[band.clone(), Value::Int(at), Value::Int(n)],
                true,
                traced,
                0,
            );
            agrees(
                &p,
                "roster",
                &[band.clone(), Value::Int(at), Value::Int(n)],
                0,
                &vm,
            );
            let turns = |lo: i64, hi: i64| (hi - lo).max(0);
            match &vm.0 {
                Ok(Value::Outcome { fields, .. }) => {
                    let t = (0..n).sum::<i64>() + 100 * turns(at, n);
                    let skill = [7, 3][at as usize];
                    assert_eq!(fields[0], Value::Int(skill + t * 10), "at {at} n {n}");
                    assert_eq!(fields[1], Value::Int(3 + 2 * 10));
                    assert_eq!(fields[2], Value::Choice(2));
                    assert_eq!(
                        fields[3],
                        Value::Bool(n + 1 == at || at == 1),
                        "at {at} n {n}"
                    );
                }
                Err(e) if !(0..2).contains(&at) => {
                    assert_eq!(e.kind, RuleErrorKind::Index { index: at, len: 2 })
                }
                Err(e) if n > 10_000 => assert!(
                    matches!(e.kind, RuleErrorKind::RangeTooLong { .. }),
                    "{e:?}"
                ),
                other => panic!("at {at} n {n}: {other:?}"),
            }
        }
    }
}

#[test]
fn matches_on_levels_and_outcomes_agree_in_the_plain_and_full_code() {
    let p = program();
    let mut outs = std::collections::BTreeSet::new();
    for hurt in 0..4u16 {
        for a in [1, 2] {
            let c = fighter(&p, 1, 2, true, hurt);
            for v in same(&p, "judge", &[c, Value::Int(a)]) {
                let Value::Int(r) = v else { panic!("an int") };
                if hurt == 3 {
                    assert_eq!(r, 99);
                    continue;
                }
                let w = [a, 0, 2 * a][usize::from(hurt)];
                assert_eq!(r / 100_000, w, "hurt {hurt} a {a}: {r}");
                let t = r % 100_000 - i64::from(hurt <= 1);
                // Hit adds ten times its margin, a miss 5, an epic failure nothing.
                outs.insert(if t % 10 == 5 {
                    "miss"
                } else if t == 0 {
                    "none"
                } else {
                    "hit"
                });
            }
        }
    }
    assert_eq!(outs.len(), 3, "{outs:?}");
}

#[test]
fn a_match_on_a_number_takes_its_first_wildcard_in_the_plain_and_full_code() {
    let p = program();
    for a in [-4, 0, 7] {
        for v in same(&p, "wild", &[Value::Int(a)]) {
            assert_eq!(v, Value::Int((a + 1) * 100 + a * 3), "a {a}");
        }
    }
}

#[test]
fn loops_over_constant_lists_agree_in_the_plain_and_full_code() {
    let p = program();
    let code = crate::core_ir::module(&p);
    let (id, _) = p.function("tiers").unwrap();
    let f = code.func(id).expect("tiers lowers");
    // The items are held in the code: no list is made at each run.
    assert!(f.plain.iter().any(|i| matches!(i, Inst::ItemImm { .. })));
    assert!(!f.plain.iter().any(|i| matches!(i, Inst::ConstVal { .. })));
    // (a, wound) -> levels above the wound, numbers of 1, 2, 5 above a, ten times those
    // of 3, 4 other than a.
    for (a, w, want) in [
        (0, 0, 300 + 8 + 70),
        (1, 1, 200 + 7 + 70),
        (2, 2, 100 + 5 + 70),
        (3, 3, 5 + 40),
        (4, 0, 300 + 5 + 30),
        (5, 1, 200 + 70),
    ] {
        for v in same(&p, "tiers", &[Value::Int(a), Value::Choice(w)]) {
            assert_eq!(v, Value::Int(want), "tiers({a}, {w})");
        }
    }
}

#[test]
fn a_divisor_of_zero_is_a_rule_error_in_the_plain_and_full_code() {
    let p = program();
    for (a, b, want) in [
        (7, 2, Some(301)),
        (-7, 2, Some(-301)),
        (7, -1, Some(-700)),
        (7, 0, None),
    ] {
        for traced in [false, true] {
            let vm = run(
                &p,
                "share",
                &[Value::Int(a), Value::Int(b)],
                true,
                traced,
                0,
            );
            agrees(&p, "share", &[Value::Int(a), Value::Int(b)], 0, &vm);
            match want {
                Some(w) => assert_eq!(vm.0, Ok(Value::Int(w)), "{a} / {b}"),
                None => assert_eq!(vm.0.map_err(|e| e.kind), Err(RuleErrorKind::DivideByZero)),
            }
        }
    }
}

#[test]
fn steps_run_out_inside_an_inlined_formula_at_its_site_in_the_plain_and_full_code() {
    let p = program();
    let (spend, _) = p.function("spend").unwrap();
    let code = crate::core_ir::module(&p);
    let f = code.func(spend).expect("spend lowers");
    // `above` is inlined in the plain form (its site marks where it starts), called in
    // the full one.
    let (above, _) = p.function("above").unwrap();
    let site = p.functions[above].site;
    assert!(f
        .plain
        .iter()
        .any(|i| matches!(i, Inst::Site(s) if *s == site)));
    assert!(!f.plain.iter().any(|i| matches!(i, Inst::Call { .. })));
    assert!(f.code.iter().any(|i| matches!(i, Inst::Call { .. })));
    let xs = Value::List(std::rc::Rc::new((0..200).map(Value::Int).collect()));
    // 40 rounds fit the budget; 10,000 do not.
    for (n, runs_out) in [(40, false), (10_000, true)] {
        let args = [Value::Int(n), xs.clone()];
        let vm = run(&p, "spend", &args, true, false, 0);
        agrees(&p, "spend", &args, 0, &vm);
        match vm.0 {
            Err(e) => {
                assert!(runs_out, "spend({n}): {e:?}");
                assert_eq!(
                    e.kind,
                    RuleErrorKind::TooManySteps {
                        max: eval::MAX_STEPS
                    }
                );
                // Reported at the formula the budget ran out in, whose aggregate takes
                // most of the steps.
                assert_eq!(e.site, site);
            }
            Ok(v) => assert!(!runs_out, "spend({n}) = {v:?}"),
        }
    }
}
