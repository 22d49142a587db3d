//! What `out` says while a fight is calm is remembered (`is_out`, `EvalRules::is_out`): the same answers, the same steps, and forgotten when a
//! trigger's procedure runs.

use super::EvalRules;
use crate::eval::{self, test_program, Options, Value};
use rulesc_runtime::{Decide, Env, Fight, NoTrace, SeededDice};

/// A trigger's procedure puts a fighter out; a later trigger of the same settling counts
/// the fighter's side, and sees it out (what `out` said before the procedure is
/// forgotten).
#[test]
fn a_trigger_procedure_ends_the_calm() {
    let p = test_program(
        "ruleset:\n  name: calm\ntypes:\n  Fighter:\n    hp: { type: int, default: 3 }\n    alone: { type: bool, default: false }\n",
        "procedure wound_all() {
  for c in fighters() { c.hp = 1 }
}

procedure collapse(c: fighter) {
  c.hp = 0
}

procedure last_stand(c: fighter) {
  c.alone = true
}

procedure wait(me: fighter) {
}

fight of Fighter {
  order(c) = [c.hp]
  out(c) = c.hp <= 0
  on start = wound_all
  on turn = wait
  when(c) c.hp == 1 and len(allies(c)) == 1 = collapse
  when(c) len(allies(c)) == 0 = last_stand
}
",
    );
    struct First;
    impl Decide for First {
        fn decide(&mut self, _: &'static str, _: u32) -> u32 {
            0
        }
    }
    let fighter = || eval::record(&p, "Fighter", &[]).expect("a Fighter");
    for trace_formulas in [false, true] {
        let mut fight: Fight<Value> = Fight::new();
        let a = fight.join("Left", "A", fighter());
        let b = fight.join("Left", "B", fighter());
        fight.join("Right", "C", fighter());
        let mut env = Env::new(SeededDice::new(1), First, NoTrace);
        let mut rules = EvalRules::new(&p)
            .expect("a fight")
            .with(Options { trace_formulas });
        // No round is played: only the start and its settling.
        fight.run(&mut rules, &mut env, 0);
        let field = eval::FieldRef::new(&p, "Fighter", "alone").expect("alone");
        let hp = eval::FieldRef::new(&p, "Fighter", "hp").expect("hp");
        // A collapsed first (the first trigger, in joining order); B, its one ally gone,
        // then makes a last stand in the same settling.
        assert_eq!(hp.get(&fight[a]), Some(Value::Int(0)), "{trace_formulas}");
        assert_eq!(hp.get(&fight[b]), Some(Value::Int(1)), "{trace_formulas}");
        assert_eq!(
            field.get(&fight[b]),
            Some(Value::Bool(true)),
            "{trace_formulas}"
        );
        assert!(!fight.calm(), "a calm ends with the settling");
    }
}
