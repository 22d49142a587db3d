//! A roll's steps: what its dice expression costs, plus one per die thrown beyond the
//! first (`roll d12` costs what `d12` does, `roll 3d6` two more), on the VM, traced (its
//! full code) or not (its plain code); die tables by the die they roll (`among`: one die).
//! The budget is taken before any face is drawn.

use crate::eval::MAX_STEPS;
use crate::ir::Program;
use rulesc_runtime::{
    DiceSource, Env, FirstOption, NoTrace, RuleError, RuleErrorKind, SeededDice, TraceSink,
    VecTrace,
};

const YAML: &str = r#"ruleset: { name: dice_steps }
scales:
  Side: [Left, Right]
tables:
  t20:
    die: d20
    value: Side
    rows: { "1-10": Left, "11-20": Right }
  t3d6:
    die: 3d6
    value: Side
    rows: { "3-10": Left, "11-18": Right }
  t1000:
    die: 1000d1000
    value: Side
    rows: { "1000-500000": Left, "500001-1000000": Right }
"#;

/// Dice written in a roll, and the steps the roll takes past the dice expression's.
const DICE: [(&str, u64); 9] = [
    ("d12", 0),
    ("d12!", 0),
    ("d2", 0),
    ("3d6", 2),
    ("4d6kh3", 3),
    // Explosions are not charged: each die adds at most MAX_EXPLOSIONS more.
    ("2d10!", 1),
    ("1000d1000", 999),
    // Counts computed at run time: 3 * 2 dice, and MAX_DICE (more is a rule error).
    ("(3d6 * k)", 5),
    ("(d6 * k * 500)", 999),
];

/// For each of [`DICE`], `roll_i` rolls them and `dice_i` binds them; `faces_*` keep the
/// dice for `faces(r)`; `table_*` roll a die table, `among_*` among one value.
fn rules() -> String {
    let mut s = String::new();
    for (i, (dice, _)) in DICE.iter().enumerate() {
        s.push_str(&format!(
            "procedure roll_{i}() -> int {{\n  let k = 2\n  let r = roll {dice}\n  return 0\n}}\n\
             procedure dice_{i}() -> int {{\n  let k = 2\n  let r = {dice}\n  return 0\n}}\n\
             procedure plus_{i}() -> int {{\n  let k = 2\n  let r = roll {dice} + k\n  return 0\n}}\n\
             procedure plus_two_{i}() -> int {{\n  let k = 2\n  let r = roll {dice} + k - 1\n  return 0\n}}\n"
        ));
    }
    for (name, dice) in [("d6", "d6"), ("3d6", "3d6")] {
        s.push_str(&format!(
            "procedure faces_{name}() -> int {{\n  let r = roll {dice}\n  let n = len(faces(r))\n  return n\n}}\n"
        ));
    }
    for t in ["t20", "t3d6", "t1000"] {
        s.push_str(&format!(
            "procedure table_{t}() -> int {{\n  let v = roll {t}\n  return 0\n}}\n\
             procedure among_{t}() -> int {{\n  let v = roll {t} among [Right]\n  return 0\n}}\n"
        ));
    }
    s.push_str("procedure level() -> int {\n  let v = Left\n  return 0\n}\n");
    for dice in ["d6", "3d6"] {
        s.push_str(&format!(
            "procedure last_{dice}() -> int {{\n  return roll {dice}\n}}\n"
        ));
    }
    s
}

fn program() -> Program {
    crate::eval::test_program(YAML, &rules())
}

/// Seeded dice, counting the faces drawn.
struct Counted(SeededDice, u64);

impl DiceSource for Counted {
    fn face(&mut self, sides: u32) -> u32 {
        self.1 += 1;
        self.0.face(sides)
    }

    fn may_stop(&self) -> bool {
        false
    }
}

/// The two ways a procedure runs: untraced (its plain code) or traced (its full code).
const MODES: [bool; 2] = [false, true];

/// Runs procedure `name` on the VM with `start` steps taken already (the call's own step
/// taken from them, as a call's is), traced or not: the steps taken, the faces drawn,
/// and whether it ran to its end.
fn run(p: &Program, name: &str, traced: bool, start: u64) -> Ran {
    fn on<T: TraceSink>(p: &Program, id: usize, start: u64, trace: T) -> Ran {
        let mut env = Env::new(Counted(SeededDice::new(7), 0), FirstOption, trace);
        let module = crate::core_ir::module(p);
        let how = (false, false);
        let (result, steps) =
            crate::core_ir::vm::run_from(p, module, id, &mut env, None, [], how, start + 1);
        (steps, env.dice.1, result.map(|_| ()))
    }
    let (id, _) = p.function(name).unwrap_or_else(|| panic!("{name}"));
    match traced {
        true => on(p, id, start, VecTrace::default()),
        false => on(p, id, start, NoTrace),
    }
}

type Ran = (u64, u64, Result<(), RuleError>);

/// The steps of a run of `name` from none taken.
fn steps(p: &Program, name: &str, mode: bool) -> u64 {
    let (steps, _, result) = run(p, name, mode, 0);
    assert_eq!(result, Ok(()), "{name} {mode:?}");
    steps
}

#[test]
fn a_roll_costs_its_dice_and_a_step_per_die_beyond_the_first() {
    let p = program();
    for mode in MODES {
        for (i, (dice, extra)) in DICE.iter().enumerate() {
            let rolled = steps(&p, &format!("roll_{i}"), mode);
            let bound = steps(&p, &format!("dice_{i}"), mode);
            assert_eq!(rolled, bound + extra, "roll {dice} {mode:?}");
            // With deltas added (compiled, a constant roll and its deltas are one
            // closure): a local costs nothing, a constant its step.
            let plus = steps(&p, &format!("plus_{i}"), mode);
            assert_eq!(plus, rolled, "roll {dice} + k {mode:?}");
            let plus_two = steps(&p, &format!("plus_two_{i}"), mode);
            assert_eq!(plus_two, rolled + 1, "roll {dice} + k - 1 {mode:?}");
        }
        // A roll kept for `faces(r)` alike.
        assert_eq!(
            steps(&p, "faces_3d6", mode),
            steps(&p, "faces_d6", mode) + 2,
            "{mode:?}"
        );
        // A die table rolls its die: one die costs no step of its own (a level costs its
        // constant's), more dice one each past the first; `among` rolls one die.
        let t20 = steps(&p, "table_t20", mode);
        assert_eq!(t20 + 1, steps(&p, "level", mode), "{mode:?}");
        assert_eq!(steps(&p, "table_t3d6", mode), t20 + 2, "{mode:?}");
        assert_eq!(steps(&p, "table_t1000", mode), t20 + 999, "{mode:?}");
        let among = steps(&p, "among_t20", mode);
        assert_eq!(steps(&p, "among_t3d6", mode), among, "{mode:?}");
        assert_eq!(steps(&p, "among_t1000", mode), among, "{mode:?}");
    }
}

#[test]
fn the_budget_is_taken_before_the_dice_are_drawn() {
    let p = program();
    let too_many = Err(RuleErrorKind::TooManySteps { max: MAX_STEPS });
    for mode in MODES {
        // `return roll ..`: the roll is the run's last step.
        let one = steps(&p, "last_d6", mode);
        let three = steps(&p, "last_3d6", mode);
        assert_eq!(three, one + 2, "{mode:?}");
        // Room for the steps of `roll 3d6` exactly: it runs, its three dice drawn.
        let (taken, drawn, result) = run(&p, "last_3d6", mode, MAX_STEPS - three);
        assert_eq!((taken, drawn, result), (MAX_STEPS, 3, Ok(())), "{mode:?}");
        // Room for two dice, or for one: the run stops at the roll, no face drawn.
        for start in [MAX_STEPS - three + 1, MAX_STEPS - one] {
            let (_, drawn, result) = run(&p, "last_3d6", mode, start);
            let kind = result.map_err(|e| e.kind);
            assert_eq!((drawn, kind), (0, too_many.clone()), "{mode:?} {start}");
        }
    }
}
