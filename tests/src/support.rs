//! The test harness every ruleset's tests share: a resolution driven the way a seed tells
//! it, with scripted dice (the book's faces) and scripted decisions (the GM's and players'
//! choices), through the generated code and through the interpreter on the same script.
//!
//! Every run asserts that the script fit exactly: every face used and on its die, every
//! answer used, and the decisions asked exactly the scripted ones, in order. [`both`]
//! also asserts the two backends agree on the printed result and on every trace event.
//! What is particular to a ruleset (its `SITES`, its compiled [`Program`], converting its
//! generated records to interpreter values) stays with that ruleset's tests.

use rulesc::eval::{self, Value};
use rulesc::ir::{Program, Ty};
use rulesc_runtime::{
    Env, NoTrace, RuleError, ScriptedDecisions, ScriptedDice, Site, TraceEvent, VecTrace,
};

/// One scripted answer: the decision's name in the rules and the option's index (a
/// variant's position in its enum, or an element's position in the list offered; `false`
/// is 0 and `true` is 1).
pub type Answer = (&'static str, u32);

/// What a scripted resolution runs with; `decide.asked` logs every question.
pub type ScriptEnv = Env<ScriptedDice, ScriptedDecisions, VecTrace>;

/// The answers, queued in order.
pub fn decisions(answers: &[Answer]) -> ScriptedDecisions {
    answers
        .iter()
        .fold(ScriptedDecisions::new(), |d, (name, index)| {
            d.answer(name, *index)
        })
}

/// Runs `f` with the scripted faces and answers, and asserts the script fit exactly.
/// `sites` are the ruleset's, to print the trace when it does not.
pub fn scripted<R>(
    sites: &[Site],
    faces: &[u32],
    answers: &[Answer],
    f: impl FnOnce(&mut ScriptEnv) -> R,
) -> (R, VecTrace) {
    let mut env = Env::new(
        ScriptedDice::new(faces),
        decisions(answers),
        VecTrace::default(),
    );
    let r = f(&mut env);
    assert!(
        env.dice.fits_exactly(),
        "the dice script {faces:?} does not fit: {:?}, {} face(s) unused\n{}",
        env.dice.problems,
        env.dice.remaining(),
        env.trace.render(sites)
    );
    assert!(
        env.decide.unanswered.is_empty(),
        "decisions asked without a scripted answer: {:?}\n{}",
        env.decide.unanswered,
        env.trace.render(sites)
    );
    assert_eq!(
        env.decide.asked_names(),
        env.decide.scripted_names(),
        "the decisions asked are not the scripted ones, in order\n{}",
        env.trace.render(sites)
    );
    (r, env.trace)
}

/// Calls formula `name` of `p` in the interpreter; it must roll no dice and ask nothing.
pub fn formula(p: &Program, name: &str, args: Vec<Value>) -> Value {
    let (id, _) = p
        .function(name)
        .unwrap_or_else(|| panic!("no formula `{name}`"));
    let mut env = Env::new(ScriptedDice::new(&[]), ScriptedDecisions::new(), NoTrace);
    let v = eval::call(p, &mut env, id, args)
        .unwrap_or_else(|e| panic!("formula `{name}` met a rule error: {e}"));
    assert!(env.dice.fits_exactly() && env.decide.asked.is_empty());
    v
}

/// How a rule error prints in the harness (both backends): its site and message.
pub fn shown_error(e: &RuleError) -> String {
    format!("rule error at site {}: {e}", e.site)
}

/// Calls procedure `name` of `p` in the interpreter with the script; records passed in
/// `args` are changed in place. Returns the result, its printed form and the trace.
pub fn interpret(
    p: &Program,
    sites: &[Site],
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: Vec<Value>,
) -> (Value, String, VecTrace) {
    let (id, f) = p
        .function(name)
        .unwrap_or_else(|| panic!("no procedure `{name}`"));
    let (v, trace) = scripted(sites, faces, answers, |e| eval::call(p, e, id, args));
    match v {
        Ok(v) if f.ret == Ty::Unit => (v, String::new(), trace),
        Ok(v) => {
            let shown = eval::show(p, &v, &f.ret);
            (v, shown, trace)
        }
        Err(e) => (Value::Unit, shown_error(&e), trace),
    }
}

/// How a generated result prints (the interpreter prints values the same way).
pub trait Shown {
    fn shown(&self) -> String;
}

macro_rules! shown_by_display {
    ($($t:ty),* $(,)?) => {$(impl Shown for $t { fn shown(&self) -> String { self.to_string() } })*};
}

shown_by_display!(i64, bool, rulesc_runtime::DiceSpec);

// The generated results the tests print, ruleset by ruleset (the trait is this crate's
// and so are the types, so the impls live here).
shown_by_display!(
    crate::kingsmark::AttackResult,
    crate::kingsmark::HitLocation,
    crate::kingsmark::TurnDeclaration,
    crate::kingsmark::Interruption,
    crate::d20_armor_slots::AttackResult,
    crate::d20_armor_slots::Assistance,
    crate::dungeon_cards::AttackResult,
    crate::dungeon_cards::RemedyResult,
    crate::dungeon_cards::ReplacementResult,
    crate::dungeon_cards::TurnStart,
    crate::dungeon_cards::KnockDownResult,
    crate::dungeon_cards::GuardResult,
    crate::dungeon_cards::TechniqueResult,
    crate::dungeon_cards::EquipResult,
    crate::dungeon_cards::StanceResult,
    crate::hit_strength::AttackResult,
    crate::hit_strength::HealResult,
    crate::hit_strength::AidResult,
    crate::hit_strength::EyeResult,
    crate::victory_stars::Exchange,
    crate::exchange::Exchange,
    crate::coverage::Result2,
    crate::coverage::Loot,
    crate::coverage::Gear,
    crate::coverage::Color,
    crate::coverage::Wound,
    crate::coverage::Level,
    crate::limits::Long,
);

impl Shown for () {
    fn shown(&self) -> String {
        String::new()
    }
}

/// A fallible generated procedure's result: its value, or the rule error as the
/// interpreter's side prints it ([`shown_error`]).
impl<T: Shown> Shown for Result<T, RuleError> {
    fn shown(&self) -> String {
        match self {
            Ok(v) => v.shown(),
            Err(e) => shown_error(e),
        }
    }
}

impl Shown for Vec<i64> {
    fn shown(&self) -> String {
        let items: Vec<String> = self.iter().map(i64::to_string).collect();
        format!("[{}]", items.join(", "))
    }
}

/// A list of numbers a generated function computed and returned.
impl<const N: usize> Shown for rulesc_runtime::SmallList<i64, N> {
    fn shown(&self) -> String {
        self.to_vec().shown()
    }
}

/// A resolution run through both backends.
pub struct Run<R> {
    /// What the generated code returned.
    pub result: R,
    /// The generated code's trace (the interpreter's is asserted equal).
    pub trace: VecTrace,
    /// The ruleset's sites, which the trace's events point into.
    pub sites: &'static [Site],
}

impl<R> Run<R> {
    /// The trace as a reader follows it against the seed.
    pub fn text(&self) -> String {
        self.trace.render(self.sites)
    }

    /// Every value bound or assigned by the statement whose source starts with `prefix`
    /// (e.g. `"let tn ="`), in order.
    pub fn assigned(&self, prefix: &str) -> Vec<String> {
        assigned(self.sites, &self.trace, prefix)
    }

    /// Every roll: its dice (`2d10`), faces and total.
    pub fn rolls(&self) -> Vec<(String, Vec<u32>, i64)> {
        rolls(&self.trace)
    }

    /// Every roll's total, in order.
    pub fn totals(&self) -> Vec<i64> {
        rolls(&self.trace).into_iter().map(|(_, _, t)| t).collect()
    }

    /// The decisions taken, as the trace prints them.
    pub fn decided(&self) -> Vec<String> {
        self.trace
            .events
            .iter()
            .filter_map(|e| match e {
                TraceEvent::Decide { choice, .. } => Some(choice.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Every value bound or assigned in `trace` by a statement whose source starts with
/// `prefix`, in order.
pub fn assigned(sites: &[Site], trace: &VecTrace, prefix: &str) -> Vec<String> {
    trace
        .events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Assign { site, value } => sites[*site as usize]
                .text
                .starts_with(prefix)
                .then(|| value.clone()),
            _ => None,
        })
        .collect()
}

/// Every roll in `trace`: its dice, faces and total.
pub fn rolls(trace: &VecTrace) -> Vec<(String, Vec<u32>, i64)> {
    trace
        .events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Roll {
                dice, faces, total, ..
            } => Some((dice.to_string(), faces.clone(), *total)),
            _ => None,
        })
        .collect()
}

/// Runs procedure `name` of `p` in both backends with the same script: `args` are the
/// interpreter's arguments (records are changed in place, for the caller to compare),
/// `gen` is the generated call. Asserts both fit the script and agree on the printed
/// result and on every trace event.
pub fn both<R: Shown>(
    p: &Program,
    sites: &'static [Site],
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    let (result, trace) = scripted(sites, faces, answers, gen);
    let (_, shown, itrace) = interpret(p, sites, name, faces, answers, args.to_vec());
    assert_eq!(
        shown,
        result.shown(),
        "`{name}`: the interpreter and the generated code return different results"
    );
    assert!(
        itrace.events == trace.events,
        "`{name}`: the traces differ\n--- generated\n{}--- interpreter\n{}",
        trace.render(sites),
        itrace.render(sites)
    );
    Run {
        result,
        trace,
        sites,
    }
}
