//! The VM against the walker (the reference, `eval::stmt`/`eval::expr`): on every
//! procedure here, which each lower, the same result, the same steps and the same trace,
//! traced and untraced, over many seeds.

mod coverage;
mod formulas;
mod lists;
mod maps;
mod tables;

use super::code::Inst;
use crate::eval::{self, Interpreter, Value};
use crate::ir::{Body, Program};
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

/// Runs `name` on the VM or by the walker (its body in a frame holding the arguments)
/// with the dice of `seed`.
fn run(p: &Program, name: &str, args: &[Value], vm: bool, traced: bool, seed: u64) -> Ran {
    run_with(p, name, args, (vm, traced, false), seed)
}

/// [`run`], with formulas traced too when `formulas` (`--trace-formulas`).
fn run_with(
    p: &Program,
    name: &str,
    args: &[Value],
    (vm, traced, formulas): (bool, bool, bool),
    seed: u64,
) -> Ran {
    let (id, f) = p.function(name).unwrap_or_else(|| panic!("{name}"));
    let args = args.iter().map(Value::deep_clone);
    if vm {
        let code = eval::compile::code(p);
        assert!(code.lowered(id).is_some(), "{name} does not lower");
        let lowered = &code.lowered;
        if traced {
            let mut env = Env::new(
                SeededDice::new(seed),
                Cycle(seed as u32),
                VecTrace::default(),
            );
            let (r, steps) =
                super::vm::run(p, lowered, id, &mut env, None, args, (false, formulas));
            return (r, steps, env.trace.events);
        }
        let mut env = Env::new(SeededDice::new(seed), Cycle(seed as u32), NoTrace);
        let (r, steps) = super::vm::run(p, lowered, id, &mut env, None, args, (false, formulas));
        return (r, steps, Vec::new());
    }
    let mut env = Env::new(
        SeededDice::new(seed),
        Cycle(seed as u32),
        VecTrace::default(),
    );
    let mut it = Interpreter::untraced(p, &mut env);
    it.tracing = traced;
    it.formulas = formulas;
    // Where its steps and `if`s are traced, as `Interpreter::call_frame` enters it.
    it.at = f.site;
    let Body::Procedure(body) = &f.body else {
        panic!("{name} is no procedure")
    };
    let mut locals: Vec<Value> = args.collect();
    locals.resize(f.locals.len(), Value::Unit);
    // The call's step and its trace point, as `Interpreter::call_frame` and a compiled
    // procedure take them.
    it.steps = 1;
    if traced {
        it.event(TraceEvent::Call { site: f.site });
    }
    let result = it.block(body, &mut locals).map(|flow| match flow {
        eval::Flow::Return(v) => v,
        eval::Flow::Normal => {
            if traced {
                it.event(TraceEvent::Return {
                    site: f.site,
                    value: String::new(),
                });
            }
            Value::Unit
        }
    });
    let steps = it.steps;
    drop(it);
    (result, steps, env.trace.events)
}

/// The VM and the walker agree on `name` with `args` for seeds 0..200, traced and not.
fn same(p: &Program, name: &str, args: &[Value]) -> Vec<Value> {
    let mut results = Vec::new();
    for seed in 0..200 {
        for traced in [false, true] {
            let vm = run(p, name, args, true, traced, seed);
            let walked = run(p, name, args, false, traced, seed);
            assert_eq!(vm, walked, "{name} {args:?} seed {seed} traced {traced}");
            if traced {
                results.push(vm.0.clone().expect("no rule error here"));
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
fn the_exchange_runs_on_the_vm_as_the_walker_runs_it() {
    let p = program();
    let (a, d) = (fighter(&p, 2, 3, true, 0), fighter(&p, 1, 4, true, 0));
    let got = same(&p, "exchange", &[a, d]);
    // Over 200 seeds every way out is taken: an epic failure, a miss and a hit.
    assert_eq!(tags(&got), [0, 1, 2].into());
}

#[test]
fn conditions_levels_and_arithmetic_run_on_the_vm_as_the_walker_runs_them() {
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
fn assignments_levels_and_decisions_run_on_the_vm_as_the_walker_runs_them() {
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
fn a_procedure_falling_off_its_end_returns_nothing_on_the_vm_as_in_the_walker() {
    let p = program();
    for a in [1, 2, 3] {
        let got = same(&p, "quiet", &[Value::Int(a)]);
        assert!(got.iter().all(|v| *v == Value::Unit));
    }
}

#[test]
fn a_call_from_outside_runs_the_vm_for_a_procedure_that_lowers_and_the_closures_otherwise() {
    let p = eval::test_program(
        YAML,
        // More numbers than a frame's registers hold (`code::FRAME`): not in the core IR.
        &format!(
            "{RULES}\nprocedure looped(n: int) -> int {{\n{}  return a299\n}}\n",
            (0..300)
                .map(|i| format!("  let a{i} = n + {i}\n"))
                .collect::<String>()
        ),
    );
    let code = eval::compile::code(&p);
    for (name, lowers) in [
        ("exchange", true),
        ("logic", true),
        ("quiet", true),
        ("looped", false),
    ] {
        let id = p.function(name).expect("declared").0;
        assert_eq!(code.lowered(id).is_some(), lowers, "{name}");
    }
    // Both ways through `eval::call` give the walker's results.
    let mut env = Env::new(SeededDice::new(1), FirstOption, NoTrace);
    let id = p.function("looped").expect("looped").0;
    assert_eq!(
        eval::call(&p, &mut env, id, [Value::Int(4)]),
        Ok(Value::Int(303))
    );
}

const CALLS_YAML: &str = r#"ruleset: { name: calls }
enums:
  Skill: [Blade, Axe]
scales:
  Wound: [Scratch, Light, Serious, Grave]
types:
  Weapon:
    skill: Skill
    base: Wound
  Fighter:
    skills: { type: "map<Skill, int>", default: {} }
    weapon: Weapon
tables:
  bonus:
    key: Skill
    value: int
    rows: { Blade: 1, Axe: 3 }
  hits:
    die: d4
    value: Wound
    rows: { "1-2": Light, "3-4": Serious }
"#;

const CALLS_RULES: &str = r#"
outcome Blow {
  Graze(margin: int, by: Wound, close: bool, with: Weapon),
}

formula bonus_of(s: Skill) = bonus[s]
formula total(f: Fighter) = f.skills[f.weapon.skill] + bonus_of(f.weapon.skill)
formula severity(n: int) = hits[n]
formula pick(a: int, b: int) = if a > b then a else b

// Formulas, a table read off its die's faces (a rule error past them, recorded by the
// procedure), records copied and shared.
procedure hit(f: Fighter, n: int) -> Blow {
  let w = f.weapon
  let t = total(f) + pick(n, 2)
  let s = severity(n)
  let again = w
  again = f.weapon
  return Graze(margin: t, by: max(s, w.base), close: again.skill == Axe, with: w)
}

procedure inner(f: Fighter) -> int {
  let x = roll d6
  return x + f.skills[Blade]
}

// Procedures calling procedures, each traced.
procedure outer(f: Fighter) -> int {
  let a = inner(f)
  let b = inner(f) + a
  return b
}
"#;

fn calls_fighter(p: &Program, blade: i64, axe: i64, skill: u16, base: u16) -> Value {
    let weapon = eval::record(
        p,
        "Weapon",
        &[
            ("skill", Value::Choice(skill)),
            ("base", Value::Choice(base)),
        ],
    )
    .expect("Weapon");
    let skills = Value::Map(std::rc::Rc::new(vec![Value::Int(blade), Value::Int(axe)]));
    eval::record(p, "Fighter", &[("skills", skills), ("weapon", weapon)]).expect("Fighter")
}

#[test]
fn calls_tables_maps_and_records_run_on_the_vm_as_the_walker_runs_them() {
    let p = eval::test_program(CALLS_YAML, CALLS_RULES);
    // Untraced, `hits[n]` (inlined from `severity`) reads its rows from the code; the
    // keys 0 and 5, just outside them, are the same rule error as the walker's.
    let (id, _) = p.function("hit").unwrap();
    let code = eval::compile::code(&p);
    let f = code.lowered(id).expect("hit lowers");
    assert!(f
        .plain
        .iter()
        .any(|i| matches!(i, Inst::LookupDense { .. })));
    let (severity, _) = p.function("severity").unwrap();
    let traced = code.lowered(severity).expect("severity lowers");
    assert!(traced.code.iter().any(|i| matches!(i, Inst::Lookup { .. })));
    let mut errors = 0;
    for n in [0, 1, 2, 3, 4, 5] {
        for (skill, base) in [(0, 0), (1, 2), (1, 3)] {
            let f = calls_fighter(&p, 2, 5, skill, base);
            for seed in 0..3 {
                for traced in [false, true] {
                    let args = [f.clone(), Value::Int(n)];
                    let vm = run(&p, "hit", &args, true, traced, seed);
                    let walked = run(&p, "hit", &args, false, traced, seed);
                    assert_eq!(vm, walked, "hit {n} {skill} {base} traced {traced}");
                    errors += usize::from(vm.0.is_err());
                }
            }
        }
    }
    // n = 0 and 5 are off the d4's faces: the table's rule error, every time.
    assert_eq!(errors, 2 * 3 * 3 * 2);
    let f = calls_fighter(&p, 2, 5, 0, 0);
    let got = same(&p, "outer", &[f]);
    assert!(
        got.iter().all(|v| matches!(v, Value::Int(4..=16))),
        "{got:?}"
    );
}

/// Dice that stop the run after `left` faces (as an enumeration cuts a path off).
struct StopAfter {
    left: u32,
}

impl rulesc_runtime::DiceSource for StopAfter {
    fn face(&mut self, sides: u32) -> u32 {
        self.left = self.left.saturating_sub(1);
        sides.min(2)
    }

    fn stopped(&self) -> bool {
        self.left == 0
    }

    fn may_stop(&self) -> bool {
        true
    }
}

#[test]
fn a_path_cut_off_inside_a_call_ends_the_run_with_nothing() {
    let p = eval::test_program(
        CALLS_YAML,
        &format!(
            "{CALLS_RULES}\nprocedure arm(f: Fighter) -> Weapon {{\n  let x = roll d6\n  let y = roll d6\n  return f.weapon\n}}\n\nprocedure wield(f: Fighter) -> int {{\n  let s = arm(f).skill\n  if s == Axe {{\n    return 1\n  }}\n  return 2\n}}\n"
        ),
    );
    let id = p.function("wield").expect("wield").0;
    assert!(
        eval::compile::code(&p).lowered(id).is_some(),
        "wield lowers"
    );
    let f = calls_fighter(&p, 1, 1, 1, 0);
    // Cut off after the first die (inside `arm`), or never (a thousand faces).
    for (left, expected) in [(1, Value::Unit), (1000, Value::Int(1))] {
        let mut env = Env::new(StopAfter { left }, FirstOption, NoTrace);
        let got = eval::call(&p, &mut env, id, [f.clone()]);
        assert_eq!(got, Ok(expected.clone()), "{left} faces");
        // The walker gives the same.
        let mut env = Env::new(StopAfter { left }, FirstOption, VecTrace::default());
        let mut it = Interpreter::untraced(&p, &mut env);
        let Body::Procedure(body) = &p.functions[id].body else {
            panic!("a procedure")
        };
        let mut locals = vec![f.clone()];
        locals.resize(p.functions[id].locals.len(), Value::Unit);
        let walked = it.block(body, &mut locals).map(|flow| match flow {
            eval::Flow::Return(v) => v,
            eval::Flow::Normal => Value::Unit,
        });
        assert_eq!(walked, Ok(expected), "{left} faces, walked");
    }
}

#[test]
fn fields_changed_in_place_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    for a in [-2, 0, 1, 3] {
        for hurt in 0..4 {
            let c = fighter(&p, 1, 2, true, hurt);
            for v in same(&p, "wounded", &[c.clone(), Value::Int(a)]) {
                let Value::Outcome { fields, .. } = v else {
                    panic!("an outcome")
                };
                // The skill added to, the level stepped (clamped at the top), the flag set.
                assert_eq!(fields[0], Value::Int(2 + a));
                assert_eq!(fields[2], Value::Choice((hurt + 1).min(3)));
                assert_eq!(fields[3], Value::Bool(2 + a > 2));
            }
        }
    }
}

#[test]
fn a_ranged_field_refuses_a_value_past_either_bound_on_the_vm_as_in_the_walker() {
    let p = program();
    let guard = |grit| guard(&p, grit);
    // grit is int(0..5): 0 and 5 are inside, -1 and 6 are not.
    for (grit, a, want) in [
        (2, 3, Ok(503)),
        (2, 4, Err(6)),
        (2, -2, Ok(3)),
        (2, -3, Err(-1)),
    ] {
        for traced in [false, true] {
            let vm = run(&p, "brace", &[guard(grit), Value::Int(a)], true, traced, 0);
            let walked = run(&p, "brace", &[guard(grit), Value::Int(a)], false, traced, 0);
            assert_eq!(vm, walked, "grit {grit} + {a} traced {traced}");
            match (&vm.0, want) {
                (Ok(v), Ok(w)) => assert_eq!(*v, Value::Int(w)),
                (Err(e), Err(value)) => assert_eq!(
                    e.kind,
                    RuleErrorKind::OutOfRange {
                        value,
                        lo: 0,
                        hi: 5
                    },
                    "grit {grit} + {a}"
                ),
                (got, _) => panic!("grit {grit} + {a}: {got:?}"),
            }
        }
    }
}

#[test]
fn aggregates_len_and_for_over_a_list_run_on_the_vm_as_the_walker_runs_them() {
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
fn made_lists_indices_searches_and_range_loops_run_on_the_vm_as_the_walker_runs_them() {
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
            let walked = run(
                &p,
                "roster",
                &[band.clone(), Value::Int(at), Value::Int(n)],
                false,
                traced,
                0,
            );
            assert_eq!(vm, walked, "at {at} n {n} traced {traced}");
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
fn indexed_and_keyed_places_and_new_records_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    let guard = || guard(&p, 1);
    // Three members: 0 and 2 are inside, -1 and 3 are not.
    for i in [-1, 0, 2, 3] {
        for traced in [false, true] {
            let args = || [band(&p, &three(7)), guard(), Value::Int(i)];
            let vm = run(&p, "drill", &args(), true, traced, 0);
            let walked = run(&p, "drill", &args(), false, traced, 0);
            assert_eq!(vm, walked, "i {i} traced {traced}");
            match &vm.0 {
                Ok(v) => {
                    let skill = [7, 4, 3][i as usize];
                    assert_eq!(*v, Value::Int((skill + 1) * 100 + i * 10 + 2 * i + 5));
                }
                Err(e) => assert_eq!(e.kind, RuleErrorKind::Index { index: i, len: 3 }),
            }
            assert_eq!(vm.0.is_ok(), (0..3).contains(&i), "i {i}");
        }
    }
}

#[test]
fn matches_on_levels_and_outcomes_run_on_the_vm_as_the_walker_runs_them() {
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
fn filled_boxes_and_their_parts_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    // (pain, numbers, worst level, more than one box); no box: the lowest level.
    for (boxes, want) in [
        (&[][..], (0, 0, 0, false)),
        (&[1][..], (1, 1, 1, false)),
        (&[1, 2][..], (3, 3, 1, true)),
        (&[2, 3][..], (7, 5, 3, true)),
        // Box 4 is past the track's three: not among its filled boxes.
        (&[2, 3, 4][..], (7, 5, 3, true)),
        (&[4][..], (0, 0, 0, false)),
    ] {
        let track = Value::Track(rulesc_runtime::Track::with_filled(boxes));
        let s = eval::record(&p, "Scarred", &[("wounds", track)]).expect("Scarred");
        let listed = same(&p, "ache", std::slice::from_ref(&s));
        // Walked in place, the loops make no list and give the same.
        let code = eval::compile::code(&p);
        let (id, _) = p.function("ache_in_place").unwrap();
        let f = code.lowered(id).expect("ache_in_place lowers");
        assert!(f.plain.iter().any(|i| matches!(i, Inst::NextBox { .. })));
        assert!(!f.plain.iter().any(|i| matches!(i, Inst::Filled { .. })));
        assert_eq!(same(&p, "ache_in_place", &[s]), listed, "{boxes:?}");
        for v in listed {
            let Value::Outcome { fields, .. } = v else {
                panic!("an outcome")
            };
            let (pain, numbers, level, close) = want;
            assert_eq!(
                fields.to_vec(),
                [
                    Value::Int(pain),
                    Value::Int(numbers),
                    Value::Choice(level),
                    Value::Bool(close)
                ],
                "{boxes:?}"
            );
        }
    }
}

#[test]
fn loops_over_constant_lists_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    let code = eval::compile::code(&p);
    let (id, _) = p.function("tiers").unwrap();
    let f = code.lowered(id).expect("tiers lowers");
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
fn die_tables_rolled_whole_and_among_rows_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    for a in [0, 1] {
        let mut seen = std::collections::BTreeSet::new();
        for v in same(&p, "strike_at", &[Value::Int(a)]) {
            let Value::Outcome { fields, .. } = v else {
                panic!("an outcome")
            };
            // Among [Serious, Grave] always Serious or worse; among [Light] never.
            assert_eq!(fields[3], Value::Bool(a > 0), "a {a}");
            seen.insert(format!("{:?}", fields[2]));
        }
        // Over 200 seeds the whole table shows every row.
        assert_eq!(seen.len(), 4, "a {a}: {seen:?}");
    }
}

#[test]
fn a_rolls_faces_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    for n in [0, 1, 3] {
        for v in same(&p, "pool", &[Value::Int(n)]) {
            let Value::Int(r) = v else { panic!("an int") };
            // Three of four dice kept (3 to 18), one dropped, n faces of the d4s, and the
            // total is the kept dice's sum.
            assert!((3..=18).contains(&(r / 1000)), "{r}");
            assert_eq!(r % 1000, 100 + 10 * n, "n {n}: {r}");
        }
    }
}

#[test]
fn decisions_among_a_lists_items_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    // The `Cycle` decider answers 1, 2, .. from the seed (past the last option, the last):
    // every member is picked, and each tactic.
    let mut seen = std::collections::BTreeSet::new();
    for v in same(&p, "pick_one", &[band(&p, &three(7))]) {
        let Value::Int(s) = v else { panic!("an int") };
        seen.insert(s);
    }
    assert_eq!(seen, [303, 310, 410, 710].into(), "{seen:?}");
    // No member: the rule error, on both.
    for traced in [false, true] {
        let vm = run(&p, "pick_one", &[band(&p, &[])], true, traced, 0);
        let walked = run(&p, "pick_one", &[band(&p, &[])], false, traced, 0);
        assert_eq!(vm, walked);
        assert_eq!(
            vm.0.map_err(|e| e.kind),
            Err(RuleErrorKind::NoOptions {
                decision: "champion"
            })
        );
    }
}

#[test]
fn filling_a_tracks_boxes_runs_on_the_vm_as_the_walker_runs_it() {
    let p = program();
    // Hurts: box 1 and 2 Light, box 3 Grave (no escalation): the boxes filled (0 for
    // none), then how many are filled.
    for (boxes, level, want) in [
        (&[][..], 1u16, 212),
        (&[1][..], 1, 220),
        (&[1, 2][..], 1, 200),
        (&[][..], 3, 130),
        (&[3][..], 3, 100),
    ] {
        for traced in [false, true] {
            let track = Value::Track(rulesc_runtime::Track::with_filled(boxes));
            let s = || eval::record(&p, "Scarred", &[("wounds", track.clone())]).expect("Scarred");
            let vm = run(
                &p,
                "hurt_twice",
                &[s(), Value::Choice(level)],
                true,
                traced,
                0,
            );
            let walked = run(
                &p,
                "hurt_twice",
                &[s(), Value::Choice(level)],
                false,
                traced,
                0,
            );
            assert_eq!(vm, walked, "{boxes:?} at {level}");
            assert_eq!(vm.0, Ok(Value::Int(want)), "{boxes:?} at {level}");
        }
    }
}

#[test]
fn a_new_records_ranged_field_is_checked_on_the_vm_as_in_the_walker() {
    let p = program();
    // grit is int(0..5): 0 and 5 are inside, -1 and 6 are not.
    for (n, inside) in [(-1, false), (0, true), (5, true), (6, false)] {
        for traced in [false, true] {
            let vm = run(&p, "forge", &[Value::Int(n)], true, traced, 0);
            let walked = run(&p, "forge", &[Value::Int(n)], false, traced, 0);
            assert_eq!(vm, walked, "{n}");
            match inside {
                true => assert_eq!(vm.0, Ok(Value::Int(n + 3))),
                false => assert_eq!(
                    vm.0.map_err(|e| e.kind),
                    Err(RuleErrorKind::OutOfRange {
                        value: n,
                        lo: 0,
                        hi: 5
                    })
                ),
            }
        }
    }
}

#[test]
fn optional_values_run_on_the_vm_as_the_walker_runs_them() {
    let p = program();
    for (n, want) in [(2, -1), (3, 3)] {
        for v in same(&p, "maybe", &[Value::Int(n)]) {
            assert_eq!(v, Value::Int(want), "{n}");
        }
    }
}

#[test]
fn a_local_list_appended_to_and_replaced_runs_on_the_vm_as_the_walker_runs_it() {
    let p = program();
    for n in [0, 5] {
        for v in same(&p, "gather", &[Value::Int(n)]) {
            // ys keeps the three items when xs is replaced.
            assert_eq!(v, Value::Int(1000 + 300 + 3 * n + 3), "{n}");
        }
    }
}

#[test]
fn a_divisor_of_zero_is_a_rule_error_on_the_vm_as_in_the_walker() {
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
            let walked = run(
                &p,
                "share",
                &[Value::Int(a), Value::Int(b)],
                false,
                traced,
                0,
            );
            assert_eq!(vm, walked, "{a} / {b}");
            match want {
                Some(w) => assert_eq!(vm.0, Ok(Value::Int(w)), "{a} / {b}"),
                None => assert_eq!(vm.0.map_err(|e| e.kind), Err(RuleErrorKind::DivideByZero)),
            }
        }
    }
}

#[test]
fn dice_held_multiplied_and_rolled_run_on_the_vm_as_the_walker_runs_them() {
    use rulesc_runtime::dice::MAX_DICE;
    let p = program();
    // 0 and MAX_DICE dice are a roll; one fewer or one more is a rule error.
    for n in [-1, 0, 1, 3, MAX_DICE, MAX_DICE + 1] {
        for seed in 0..20 {
            for traced in [false, true] {
                let vm = run(&p, "volley", &[Value::Int(n)], true, traced, seed);
                let walked = run(&p, "volley", &[Value::Int(n)], false, traced, seed);
                assert_eq!(vm, walked, "n {n} seed {seed} traced {traced}");
                match &vm.0 {
                    Ok(Value::Int(r)) => {
                        let (total, natural) = (r % 10_000, r / 10_000);
                        assert!((n..=6 * n).contains(&total), "n {n}: {total}");
                        assert!(n == 0 || (1..=6).contains(&natural), "n {n}: {natural}");
                    }
                    Err(e) => assert!(!(0..=MAX_DICE).contains(&n), "n {n}: {e:?}"),
                    other => panic!("n {n}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn steps_run_out_inside_an_inlined_formula_at_its_site_as_in_the_walker() {
    let p = program();
    let (spend, _) = p.function("spend").unwrap();
    let code = eval::compile::code(&p);
    let f = code.lowered(spend).expect("spend lowers");
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
    // 40 rounds fit the budget and give the walker's total; 10,000 do not.
    for (n, runs_out) in [(40, false), (10_000, true)] {
        let args = [Value::Int(n), xs.clone()];
        let vm = run(&p, "spend", &args, true, false, 0);
        let walked = run(&p, "spend", &args, false, false, 0);
        assert_eq!(vm, walked, "spend({n})");
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
