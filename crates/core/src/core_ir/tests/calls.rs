//! Calls on the VM, each in the plain and the full code: a long body called from outside,
//! formulas, tables read off a die's faces, records copied and shared, procedures calling
//! procedures, and a path an enumeration cuts off inside a call.

use super::*;

#[test]
fn a_long_body_gives_its_temporaries_back_and_runs_on_the_vm() {
    let p = eval::test_program(
        YAML,
        // A long body whose statements' temporaries are given back when each ends: it
        // fits a frame (300 statements of three temporaries each). A body holding more
        // at once is the checker's E0363 (`coverage.rs`).
        &format!(
            "{RULES}\nprocedure long(n: int) -> int {{\n  let x = n\n{}  return x\n}}\n",
            (0..300)
                .map(|i| format!("  x = x * 3 - (x / 2 + {i})\n"))
                .collect::<String>()
        ),
    );
    let code = crate::core_ir::module(&p);
    let mut env = Env::new(SeededDice::new(1), FirstOption, NoTrace);
    // The long body on the VM, its registers given back and taken again: each statement
    // by the language's arithmetic (saturating as it grows).
    use rulesc_runtime::__private::arith::{add, div, mul, sub};
    let id = p.function("long").expect("long").0;
    assert!(code.func(id).is_some());
    for n in [-7, 0, 5, 1_000_000] {
        let want = (0..300).fold(n, |x, i| sub(mul(x, 3), add(div(x, 2), i)));
        let vm = eval::call(&p, &mut env, id, [Value::Int(n)]);
        assert_eq!(vm, Ok(Value::Int(want)), "long({n})");
    }
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
fn calls_tables_maps_and_records_agree_in_the_plain_and_full_code() {
    let p = eval::test_program(CALLS_YAML, CALLS_RULES);
    // Untraced, `hits[n]` (inlined from `severity`) reads its rows from the code; the
    // keys 0 and 5, just outside them, are the table's rule error.
    let (id, _) = p.function("hit").unwrap();
    let code = crate::core_ir::module(&p);
    let f = code.func(id).expect("hit lowers");
    assert!(f
        .plain
        .iter()
        .any(|i| matches!(i, Inst::LookupDense { .. })));
    let (severity, _) = p.function("severity").unwrap();
    let traced = code.func(severity).expect("severity lowers");
    assert!(traced.code.iter().any(|i| matches!(i, Inst::Lookup { .. })));
    let mut errors = 0;
    for n in [0, 1, 2, 3, 4, 5] {
        for (skill, base) in [(0, 0), (1, 2), (1, 3)] {
            let f = calls_fighter(&p, 2, 5, skill, base);
            for seed in 0..3 {
                for traced in [false, true] {
                    let args = [f.clone(), Value::Int(n)];
                    let vm = run(&p, "hit", &args, true, traced, seed);
                    agrees(&p, "hit", &args, seed, &vm);
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
        crate::core_ir::module(&p).func(id).is_some(),
        "wield lowers"
    );
    let f = calls_fighter(&p, 1, 1, 1, 0);
    // Cut off after the first die (inside `arm`), or never (a thousand faces).
    for (left, expected) in [(1, Value::Unit), (1000, Value::Int(1))] {
        let mut env = Env::new(StopAfter { left }, FirstOption, NoTrace);
        let got = eval::call(&p, &mut env, id, [f.clone()]);
        assert_eq!(got, Ok(expected.clone()), "{left} faces");
    }
}
