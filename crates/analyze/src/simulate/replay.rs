//! A scripted fight: a fight file with `dice:` replays a book's worked example once,
//! with the book's faces and answers, turn by turn. The script is strict, as a
//! scenario's is in `rulesc test`: a face never rolled, a die rolled past the faces, an
//! answer never asked for, and a decision the file answers nowhere are errors (`E0405`),
//! a face the die does not have or an answer past the options `E0403`.

use super::{FightFile, Script, Scripted};
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{Options, Value};
use crate::fight::EvalRules;
use crate::ir::Program;
use crate::scenario::{BoundedTrace, ScriptThenSeed};
use rulesc_runtime::{Decide, Env, FightEnd, FightRules, Fighter, Policy, ScriptedDecisions, Step};

/// What one scripted run gave.
pub struct Replayed {
    pub end: FightEnd,
    pub rounds: u32,
    /// Who began each turn, in order: a group acting together in the order they joined,
    /// an interruption's turn where it began.
    pub turns: Vec<u32>,
    /// The combatants at the end, in joining order.
    pub combatants: Vec<Value>,
    /// Who is out at the end (empty when a rule error stopped the fight).
    pub out: Vec<bool>,
    /// The rule error that stopped the fight: `file:line: message`.
    pub error: Option<String>,
    /// The trace, rendered.
    pub trace: String,
    /// Where the script did not fit the run (see the module's contract).
    pub problems: Diagnostics,
}

/// Answers a scripted fight's decisions: the scripted answers in order while any are
/// left for a name (the runtime's [`ScriptedDecisions`], by index or by name), then the
/// file's one-word answers; a decision with neither (and no `default:`) is remembered,
/// for an error.
struct Decider {
    script: ScriptedDecisions,
    policy: Policy,
    answered: Vec<String>,
    default_given: bool,
    unanswered: Vec<String>,
}

impl Decider {
    fn unscripted(&mut self, name: &'static str) {
        if !self.default_given
            && !self.answered.iter().any(|n| n == name)
            && !self.unanswered.iter().any(|n| n == name)
        {
            self.unanswered.push(name.to_string());
        }
    }
}

impl Decide for Decider {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        if self.script.has_answer(name) {
            return self.script.decide(name, options);
        }
        self.unscripted(name);
        self.policy.decide(name, options)
    }

    fn wants_labels(&self, name: &str) -> bool {
        if self.script.has_answer(name) {
            self.script.wants_labels(name)
        } else {
            self.policy.wants_labels(name)
        }
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        if self.script.has_answer(name) {
            return self.script.decide_among(name, options, label);
        }
        self.unscripted(name);
        self.policy.decide_among(name, options, label)
    }
}

/// Runs scripted fight `file` once (seed 0 for anything past the script, which is an
/// error anyway).
pub fn replay(p: &Program, file: &FightFile) -> Replayed {
    let script = file.script.clone().unwrap_or_default();
    let decider = Decider {
        script: script
            .decisions
            .iter()
            .flat_map(|(n, a)| a.iter().map(move |a| (n, a)))
            .fold(ScriptedDecisions::new(), |d, (n, a)| match a {
                Scripted::Index(i) => d.answer(n, *i),
                Scripted::Named(l) => d.answer_named(n, l),
            }),
        policy: file.policy_for(0, 0),
        answered: script.answered.clone(),
        default_given: script.default_given,
        unanswered: Vec::new(),
    };
    let dice = ScriptThenSeed::new(script.faces.clone(), 0);
    let mut env = Env::new(dice, decider, BoundedTrace::new(&p.sites));
    let mut fight = file.fight();
    fight.log_turns();
    let mut out = Vec::new();
    let end = match EvalRules::new(p).map(|r| r.with(Options::default())) {
        None => FightEnd::Undecided,
        Some(mut rules) => {
            let end = loop {
                if let Step::Ended(end) = fight.step_within(&mut rules, &mut env, file.rounds) {
                    break end;
                }
            };
            if end != FightEnd::RuleError {
                for f in 0..fight.len() as u32 {
                    out.push(
                        rules
                            .is_out(&mut env, &mut fight, Fighter(f))
                            .unwrap_or(false),
                    );
                }
            }
            end
        }
    };
    let error = fight.rule_error().map(|e| {
        let at = p
            .sites
            .get(e.site as usize)
            .map(|s| format!("{}:{}", s.file, s.line))
            .unwrap_or_default();
        format!("{at}: {}", e.kind)
    });
    let problems = strict(&script, &env, file);
    Replayed {
        end,
        rounds: fight.round(),
        turns: fight.turn_log().iter().map(|f| f.0).collect(),
        combatants: fight.combatants.clone(),
        out,
        error,
        trace: env.trace.render(),
        problems,
    }
}

/// The script's mistakes (see the module's contract).
fn strict(
    script: &Script,
    env: &Env<ScriptThenSeed, Decider, BoundedTrace>,
    file: &FightFile,
) -> Diagnostics {
    let mut diags = Diagnostics::default();
    let whole = crate::source::Span::new(file.file, 0, 0);
    let dice_at = script.dice_at.unwrap_or(whole);
    for &(i, sides) in &env.dice.problems {
        diags.push(
            Diagnostic::error(
                "E0403",
                script.face_spans[i],
                format!(
                    "scripted face {} is not on the d{sides} it was rolled for",
                    script.faces[i]
                ),
            )
            .label("out of range")
            .help(format!("a d{sides} has the faces 1 to {sides}")),
        );
    }
    let used = env.dice.next;
    if used < script.faces.len() {
        diags.push(
            Diagnostic::error(
                "E0405",
                script.face_spans[used],
                format!(
                    "{} scripted face(s) were never rolled: the fight rolled {used} di{}",
                    script.faces.len() - used,
                    if used == 1 { "e" } else { "ce" }
                ),
            )
            .label("not rolled")
            .help("remove the faces the fight does not roll, or check the trace (`rulesc simulate --trace 0`) for a roll you expected"),
        );
    }
    if env.dice.rolled > 0 {
        diags.push(
            Diagnostic::error(
                "E0405",
                dice_at,
                format!(
                    "the fight rolled {} more di{} than the {} scripted",
                    env.dice.rolled,
                    if env.dice.rolled == 1 { "e" } else { "ce" },
                    script.faces.len()
                ),
            )
            .label("too few faces")
            .help("script a face for every die the fight rolls, initiative and ties included"),
        );
    }
    let spans = |name: &str| {
        script
            .answer_spans
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.as_slice())
            .unwrap_or(&[])
    };
    for (name, nth, answer, options, offered) in &env.decide.script.missed {
        let at = spans(name).get(*nth).copied().unwrap_or(whole);
        diags.push(crate::scenario::missed_answer(
            at, name, answer, *options, offered,
        ));
    }
    for (name, left) in env.decide.script.queues() {
        let left = left.len();
        if left == 0 {
            continue;
        }
        let s = spans(name);
        let taken = s.len().saturating_sub(left);
        diags.push(
            Diagnostic::error(
                "E0405",
                s.get(taken).copied().unwrap_or(whole),
                format!("{left} scripted answer(s) to `{name}` were never asked for"),
            )
            .label("not asked")
            .help(format!("the fight asked `{name}` fewer times than it is answered; remove the answers it does not ask for")),
        );
    }
    for name in &env.decide.unanswered {
        diags.push(
            Diagnostic::error(
                "E0405",
                dice_at,
                format!("the fight asked `{name}`, which the file answers nowhere"),
            )
            .label("this scripted fight")
            .help(format!("answer it under `decisions:` (`{name}: [..]` in order, or one word), or give a `default:`")),
        );
    }
    diags
}

/// How a replay ended, in words: `Watch wins after 2 round(s)`.
pub fn replay_ending(ran: &Replayed, file: &FightFile) -> String {
    let end = super::ending(ran.end, ran.error.as_deref(), file);
    format!("{end} after {} round(s)", ran.rounds)
}
