//! The seeded differential harness every ruleset's `*_differential` tests share: one
//! resolution run on seeded dice and seeded decisions through the interpreter (with a
//! [`VecTrace`]) and through the generated code (with a [`VecTrace`], and again with
//! [`NoTrace`]), then compared: outcome text, trace events, the questions asked, the dice
//! consumed and the state left behind.
//!
//! What is particular to a ruleset (drawing random combatants, converting them to
//! interpreter values, what state is compared) stays with that ruleset's tests.

use crate::support::Shown;
use rulesc::eval::{self, Value};
use rulesc::ir::{Program, Ty};
use rulesc_runtime::{
    Decide, DiceSource, Env, NoTrace, RuleError, SeededDice, TraceEvent, VecTrace,
};
use std::fmt::Debug;

/// A question asked: the decision's name and how many options it offered.
pub type Asked = (&'static str, u32);

/// Answers decisions from its own seeded dice (sometimes out of range, which both
/// backends must clamp alike) and remembers every question; one decision, when steered,
/// always gets the given index.
pub struct RandomDecide {
    dice: SeededDice,
    steer: Option<(&'static str, u32)>,
    pub asked: Vec<Asked>,
}

impl RandomDecide {
    pub fn new(seed: u64) -> Self {
        Self::seeded(Seeded::from(seed))
    }

    fn seeded(s: Seeded) -> Self {
        RandomDecide {
            dice: SeededDice::new(s.seed ^ 0xdec1_de00),
            steer: s.steer,
            asked: Vec::new(),
        }
    }
}

impl Decide for RandomDecide {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        self.asked.push((name, options));
        match self.steer {
            Some((steered, i)) if steered == name => i,
            _ => self.dice.face(options + 1) - 1,
        }
    }
}

/// A seed, and optionally one decision steered to a fixed answer.
#[derive(Clone, Copy, Debug)]
pub struct Seeded {
    pub seed: u64,
    pub steer: Option<(&'static str, u32)>,
}

impl Seeded {
    /// `decision` always answered `index` (when there is one).
    pub fn steered(seed: u64, decision: &'static str, index: Option<u32>) -> Self {
        Seeded {
            seed,
            steer: index.map(|i| (decision, i)),
        }
    }
}

impl From<u64> for Seeded {
    fn from(seed: u64) -> Self {
        Seeded { seed, steer: None }
    }
}

/// What a traced resolution runs with.
pub type TracedEnv = Env<SeededDice, RandomDecide, VecTrace>;

/// What the same resolution runs with, untraced.
pub type UntracedEnv = Env<SeededDice, RandomDecide, NoTrace>;

fn dice(seed: u64) -> SeededDice {
    SeededDice::new(seed.wrapping_mul(0x9E37_79B9))
}

/// A traced environment on `seed`'s dice and decisions.
pub fn env(seed: impl Into<Seeded>) -> TracedEnv {
    let s = seed.into();
    Env::new(dice(s.seed), RandomDecide::seeded(s), VecTrace::default())
}

/// The same environment without a trace sink.
pub fn untraced_env(seed: impl Into<Seeded>) -> UntracedEnv {
    let s = seed.into();
    Env::new(dice(s.seed), RandomDecide::seeded(s), NoTrace)
}

/// The next face of `seed`'s dice when a resolution rolled nothing.
pub fn plain_face(seed: u64) -> u32 {
    dice(seed).face(1_000_000)
}

/// What a resolution left behind, compared between the two backends: `O` is the outcome
/// (printed), `S` the state afterwards.
#[derive(Debug, PartialEq)]
pub struct Run<O, S> {
    pub outcome: O,
    pub events: Vec<TraceEvent>,
    pub asked: Vec<Asked>,
    /// The next face of the dice after the resolution: both consumed as many.
    pub next_face: u32,
    /// The arguments afterwards (changed in place where the procedure changes them).
    pub state: S,
}

/// Closes a traced resolution into a [`Run`].
pub fn finish<O, S>(mut env: TracedEnv, outcome: O, state: S) -> Run<O, S> {
    Run {
        outcome,
        events: env.trace.events,
        asked: env.decide.asked,
        next_face: env.dice.face(1_000_000),
        state,
    }
}

/// Calls procedure `name` of `p` in the interpreter; records in `args` change in place.
/// Returns the result printed (nothing for a procedure without one).
pub fn call(p: &Program, e: &mut TracedEnv, name: &str, args: Vec<Value>) -> String {
    let (id, f) = p
        .function(name)
        .unwrap_or_else(|| panic!("no procedure `{name}`"));
    shown(p, &eval::call(p, e, id, args), &f.ret)
}

/// An interpreter result printed as the generated side prints it ([`Shown`]): the
/// value (nothing for none), or the rule error.
pub fn shown(p: &Program, r: &Result<Value, RuleError>, ty: &Ty) -> String {
    match r {
        Ok(_) if *ty == Ty::Unit => String::new(),
        Ok(v) => eval::show(p, v, ty),
        Err(e) => crate::support::shown_error(e),
    }
}

/// Procedure `name` in the interpreter on `seed`; the state is the arguments afterwards.
/// It is run untraced as well, on copies of the arguments, and must give the same
/// outcome, state and dice: the compiled interpreter's untraced fast paths (rows read at
/// compile time, tracks filled in place, ...) against its traced paths. (Each argument is
/// copied apart: one record passed as two arguments would be two records in the untraced
/// run; no caller passes one twice.)
pub fn interpret(
    p: &Program,
    name: &str,
    seed: impl Into<Seeded>,
    args: Vec<Value>,
) -> Run<String, Vec<Value>> {
    let seed = seed.into();
    let quiet_args: Vec<Value> = args.iter().map(Value::deep_clone).collect();
    let mut e = env(seed);
    let outcome = call(p, &mut e, name, args.clone());
    let run = finish(e, outcome, args);
    let (id, f) = p
        .function(name)
        .unwrap_or_else(|| panic!("no procedure `{name}`"));
    let mut q = untraced_env(seed);
    let quiet = shown(p, &eval::call(p, &mut q, id, quiet_args.clone()), &f.ret);
    assert_eq!(
        (&quiet, &quiet_args, q.dice.face(1_000_000)),
        (&run.outcome, &run.state, run.next_face),
        "{name}, seed {}: the interpreter untraced differs from the interpreter traced",
        seed.seed
    );
    run
}

/// The generated code on `seed`: `run` returns the outcome printed and the state.
pub fn generated<S>(
    seed: impl Into<Seeded>,
    run: impl FnOnce(&mut TracedEnv) -> (String, S),
) -> Run<String, S> {
    let mut e = env(seed);
    let (outcome, state) = run(&mut e);
    finish(e, outcome, state)
}

/// The same resolution without a trace sink: its outcome printed and the next face.
pub fn untraced<R: Shown>(
    seed: impl Into<Seeded>,
    run: impl FnOnce(&mut UntracedEnv) -> R,
) -> (String, u32) {
    let mut e = untraced_env(seed);
    let r = run(&mut e).shown();
    (r, e.dice.face(1_000_000))
}

/// Asserts the two backends' runs are the same, printing both traces when not.
pub fn compare<O: Debug + PartialEq, S: Debug + PartialEq>(
    p: &Program,
    what: &str,
    seed: u64,
    interp: &Run<O, S>,
    gen: &Run<O, S>,
) {
    if interp != gen {
        let render = |r: &Run<O, S>| {
            VecTrace {
                events: r.events.clone(),
            }
            .render(&p.sites)
        };
        panic!(
            "{what}, seed {seed}: the backends differ\n--- interpreter: {:?}\n{}\n--- generated: {:?}\n{}\n{interp:#?}\n{gen:#?}",
            interp.outcome,
            render(interp),
            gen.outcome,
            render(gen)
        );
    }
}

/// [`compare`], and the untraced run (`plain`) reached the same outcome and dice.
pub fn check<S: Debug + PartialEq>(
    p: &Program,
    what: &str,
    seed: u64,
    interp: &Run<String, S>,
    gen: &Run<String, S>,
    plain: (String, u32),
) {
    compare(p, what, seed, interp, gen);
    assert_eq!(
        (gen.outcome.clone(), gen.next_face),
        plain,
        "{what}, seed {seed}: the untraced run differs from the traced one"
    );
}

/// An outcome's variant: the text before its first `(`.
pub fn tag(outcome: &str) -> String {
    outcome.split('(').next().unwrap_or_default().to_string()
}

// ---------------------------------------------------------------------------------------
// Whole fights

/// What a whole fight left behind, compared between the two backends.
#[derive(Debug, PartialEq)]
pub struct FightRun {
    pub end: rulesc_runtime::FightEnd,
    pub rounds: u32,
    pub events: Vec<TraceEvent>,
    /// The next face of the dice after the fight: both consumed as many.
    pub next_face: u32,
    /// Every combatant afterwards, as interpreter values.
    pub combatants: Vec<Value>,
}

/// The environment of run `seed` of a fight, as `rulesc simulate` builds it: seeded dice,
/// decisions answered at random (a seeded stream of their own), traced.
pub fn fight_env(seed: u64) -> Env<SeededDice, rulesc_runtime::Policy, VecTrace> {
    let dice = SeededDice::new(rulesc::simulate::run_seed(0, seed, 0));
    let policy = rulesc_runtime::Policy::new(
        rulesc_runtime::Answer::Random,
        rulesc::simulate::run_seed(0, seed, 1),
    );
    Env::new(dice, policy, VecTrace::default())
}

/// The fight of `sides` (side, then each combatant's name and value) run to its end or
/// `rounds` by the interpreter, on `seed`.
pub fn interpret_fight(
    p: &Program,
    sides: &[(&str, Vec<(&str, Value)>)],
    seed: u64,
    rounds: u32,
) -> FightRun {
    let mut fight = rulesc_runtime::Fight::new();
    for (side, members) in sides {
        for (name, value) in members {
            fight.join(side, name, value.deep_clone());
        }
    }
    let mut rules = rulesc::fight::EvalRules::new(p).expect("the ruleset declares a fight");
    let mut env = fight_env(seed);
    let end = fight.run(&mut rules, &mut env, rounds);
    FightRun {
        end,
        rounds: fight.round(),
        events: env.trace.events,
        next_face: env.dice.face(1_000_000),
        combatants: fight.combatants.clone(),
    }
}

/// The same fight through generated code: `run` plays it on the given environment and
/// returns how it ended, the rounds played and the combatants as interpreter values.
pub fn generated_fight(
    seed: u64,
    run: impl FnOnce(
        &mut Env<SeededDice, rulesc_runtime::Policy, VecTrace>,
    ) -> (rulesc_runtime::FightEnd, u32, Vec<Value>),
) -> FightRun {
    let mut env = fight_env(seed);
    let (end, rounds, combatants) = run(&mut env);
    FightRun {
        end,
        rounds,
        events: env.trace.events,
        next_face: env.dice.face(1_000_000),
        combatants,
    }
}

/// `combatants`, generated records in a fight file's order, joined to a generated fight
/// under the file's sides and names.
pub fn join_file<C: Clone>(
    file: &rulesc::simulate::FightFile,
    combatants: &[C],
) -> rulesc_runtime::Fight<C> {
    let start = file.fight();
    let mut fight = rulesc_runtime::Fight::new();
    for (f, c) in start.fighters().zip(combatants) {
        fight.join(start.side_name(start.side(f)), start.name(f), c.clone());
    }
    fight
}

/// `sides` (side, name and generated record) joined to a fight in generated code and in
/// the interpreter (`value` converts a record), then `amount` of world time passed
/// (`Fight::advance`) in both on `seed`'s dice: they must leave the same combatants and
/// the same trace. Returns the generated fight.
pub fn advance_both<C, R>(
    p: &Program,
    sides: &[(&str, &str, C)],
    value: impl Fn(&C) -> Value,
    mut rules: R,
    amount: i64,
    seed: u64,
) -> rulesc_runtime::Fight<C>
where
    C: Clone,
    R: rulesc_runtime::FightRules<C, SeededDice, rulesc_runtime::Policy, VecTrace>,
{
    let mut fight = rulesc_runtime::Fight::new();
    let mut interpreted = rulesc_runtime::Fight::new();
    for (side, name, c) in sides {
        fight.join(side, name, c.clone());
        interpreted.join(side, name, value(c));
    }
    let mut env = fight_env(seed);
    if let Err(e) = fight.advance(&mut rules, &mut env, amount) {
        panic!("generated: {e}");
    }
    let mut eval_rules = rulesc::fight::EvalRules::new(p).expect("the ruleset declares a fight");
    let mut eval_env = fight_env(seed);
    if let Err(e) = interpreted.advance(&mut eval_rules, &mut eval_env, amount) {
        panic!("interpreter: {e}");
    }
    let generated: Vec<Value> = fight.combatants.iter().map(&value).collect();
    assert_eq!(interpreted.combatants, generated, "the interpreter's fight");
    assert_eq!(
        eval_env.trace.render(&p.sites),
        env.trace.render(&p.sites),
        "the same trace"
    );
    assert_eq!(fight.time(), amount, "world time");
    fight
}

/// Asserts two runs of a fight are the same, printing both traces when not.
pub fn compare_fights(p: &Program, what: &str, seed: u64, interp: &FightRun, gen: &FightRun) {
    if interp != gen {
        let render = |r: &FightRun| {
            VecTrace {
                events: r.events.clone(),
            }
            .render(&p.sites)
        };
        panic!(
            "{what}, seed {seed}: the backends differ\n--- interpreter: {:?} after {}\n{}\n--- generated: {:?} after {}\n{}",
            interp.end,
            interp.rounds,
            render(interp),
            gen.end,
            gen.rounds,
            render(gen)
        );
    }
}

/// The fight file `path` (from the repository root, e.g. `examples/kingsmark/fight.yaml`)
/// read against `p`, as `rulesc simulate` reads it.
pub fn fight_file(p: &Program, path: &str) -> rulesc::simulate::FightFile {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    match rulesc::simulate::read(p, &path) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{}: {:?}", path.display(), d.items),
    }
}

/// A shipped ruleset (`rules/kingsmark`, from the repository root), compiled.
pub fn program_of(dir: &str) -> Program {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir);
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("{} does not check: {:?}", dir.display(), diags.items))
}

/// The whole-fight differential on a ruleset's fight file: for each of `seeds`, the
/// file's fight run by the interpreter and by generated code (`rules`, on the generated
/// `combatants`, which must be the file's: `value` converts one for the interpreter) are
/// compared. Returns how often each end came (`Won(Side(0))`, `RuleError`...), so a test
/// can assert that every path was taken.
pub fn fight_differential<C, R>(
    p: &Program,
    what: &str,
    file: &rulesc::simulate::FightFile,
    combatants: &[C],
    value: impl Fn(&C) -> Value,
    rules: impl Fn() -> R,
    seeds: u64,
) -> std::collections::BTreeMap<String, u32>
where
    C: Clone,
    R: rulesc_runtime::FightRules<C, SeededDice, rulesc_runtime::Policy, VecTrace>,
{
    let start = file.fight();
    assert_eq!(start.len(), combatants.len(), "{what}: one combatant each");
    let mut sides: Vec<(&str, Vec<(&str, Value)>)> = Vec::new();
    for (f, c) in start.fighters().zip(combatants) {
        let side = start.side_name(start.side(f));
        assert!(
            start[f] == value(c),
            "{what}: {} is not the file's:\n{:?}\n{:?}",
            start.name(f),
            start[f],
            value(c)
        );
        if sides.last().is_none_or(|(s, _)| *s != side) {
            sides.push((side, Vec::new()));
        }
        let last = sides.len() - 1;
        sides[last].1.push((start.name(f), start[f].deep_clone()));
    }
    let mut ends = std::collections::BTreeMap::new();
    for seed in 0..seeds {
        let interp = interpret_fight(p, &sides, seed, file.rounds);
        let gen = generated_fight(seed, |env| {
            let mut fight = rulesc_runtime::Fight::new();
            for (f, c) in start.fighters().zip(combatants) {
                fight.join(start.side_name(start.side(f)), start.name(f), c.clone());
            }
            let end = fight.run(&mut rules(), env, file.rounds);
            let state = fight.combatants.iter().map(&value).collect();
            (end, fight.round(), state)
        });
        *ends.entry(format!("{:?}", gen.end)).or_default() += 1;
        compare_fights(p, what, seed, &interp, &gen);
    }
    ends
}

/// `rulesc simulate` on a fight file prints the same numbers twice for one seed and
/// other numbers for another seed (the first line names the seed).
pub fn assert_simulation_repeats(p: &Program, file: &rulesc::simulate::FightFile, runs: u64) {
    let render = |seed| rulesc::simulate::simulate(p, file, runs, seed).render(p, file, seed);
    let (once, again, other) = (render(7), render(7), render(8));
    assert_eq!(once, again, "one seed, one report");
    let numbers = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_ne!(numbers(&once), numbers(&other), "seed 8 gives other fights");
}

/// Whole fights stepped in generated code: for each of `seeds`, `make()` is played one
/// [`Step`](rulesc_runtime::Step) at a time with `rules()` on seeded dice and decisions at
/// random (`policy` may steer some), untraced, to its end or `max_rounds`; `watch` sees
/// the fight before and after each step. For tests of what the rules say about a fight's
/// course (who acts when, what a trigger does).
pub fn step_fights<C, R>(
    seeds: u64,
    make: impl Fn() -> rulesc_runtime::Fight<C>,
    rules: impl Fn() -> R,
    policy: impl Fn(rulesc_runtime::Policy) -> rulesc_runtime::Policy,
    max_rounds: u32,
    mut watch: impl FnMut(&rulesc_runtime::Fight<C>, &rulesc_runtime::Step, &rulesc_runtime::Fight<C>),
) where
    C: Clone,
    R: rulesc_runtime::FightRules<C, SeededDice, rulesc_runtime::Policy, NoTrace>,
{
    for seed in 0..seeds {
        let mut fight = make();
        let mut rules = rules();
        let mut env = Env::new(
            SeededDice::new(seed),
            policy(rulesc_runtime::Policy::new(
                rulesc_runtime::Answer::Random,
                seed,
            )),
            NoTrace,
        );
        loop {
            let before = fight.clone();
            let step = fight.step(&mut rules, &mut env);
            watch(&before, &step, &fight);
            if matches!(step, rulesc_runtime::Step::Ended(_)) || fight.round() >= max_rounds {
                break;
            }
        }
    }
}
