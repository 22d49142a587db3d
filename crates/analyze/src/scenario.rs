//! Scenarios: one resolution described in YAML, run by the interpreter (`rulesc trace`).
//!
//! ```yaml
//! run: melee_attack              # the procedure
//! args:                          # one value per parameter, typed as the parameter
//!   attacker: { physical_performance: 1, skills: { ArmedCombat: 2 } }
//!   weapon: arming_sword         # or the name of a record
//! dice: [8, 6, 8]                # optional: the faces, in order; --seed rolls the rest
//! decisions: { maneuver: [OrdinaryStrike] }
//! ruleset: ../../rules/kingsmark # optional: what `rulesc test` runs it against
//! expect: { result: { Hit: { box: 7 } } } # optional: see [`crate::expect`]
//! ```

use crate::check;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::eval::{self, Value};
use crate::ir::{DecideOptions, Program, Ty};
use crate::load;
use crate::source::{Sources, Span};
use crate::yaml::{self, YNode, YValue};
use rulesc_runtime::{
    DiceSource, Env, RuleError, RuleErrorKind, Scripted, ScriptedDecisions, SeededDice, Site,
    TraceEvent, TraceSink, VecTrace,
};
use std::path::Path;

/// A parsed scenario, ready to run.
pub struct Scenario {
    pub function: usize,
    pub args: Vec<Value>,
    pub dice: Option<Vec<u32>>,
    pub decisions: ScriptedDecisions,
    /// Where each scripted face is, in order (for a face the die does not have).
    pub dice_spans: Vec<Span>,
    /// Where each decision's scripted answers are, in order (for an index past a list).
    pub answer_spans: Vec<(String, Vec<Span>)>,
    /// The scenario file itself (for a run that stops at a limit).
    pub at: Span,
    /// Where the `dice:` list is (for too few faces in a strict run).
    pub dice_at: Option<Span>,
    /// What the run must give (`expect:`), held to it by `rulesc test`.
    pub expect: Option<YNode>,
    /// The fight the procedure runs in (`fight: { sides: ... }`), for a procedure that
    /// takes fighters: each side's name and combatants. Its `fighter` arguments are
    /// `Value::Fighter`s of it.
    pub fight: Option<crate::simulate::Sides>,
}

/// The keys of a scenario.
pub const KEYS: &[&str] = &[
    "run",
    "args",
    "dice",
    "decisions",
    "description",
    "ruleset",
    "packs",
    "expect",
    "fight",
];

/// Most bytes of one trace `rulesc trace` prints (events and the rules they cite):
/// past it, events are no longer recorded, and the trace says how many were left out.
pub const MAX_TRACE_BYTES: usize = 16 << 20;

/// A trace that stops recording at [`MAX_TRACE_BYTES`].
pub struct BoundedTrace<'s> {
    pub events: VecTrace,
    sites: &'s [Site],
    bytes: usize,
    pub dropped: u64,
}

impl<'s> BoundedTrace<'s> {
    pub fn new(sites: &'s [Site]) -> Self {
        BoundedTrace {
            events: VecTrace::default(),
            sites,
            bytes: 0,
            dropped: 0,
        }
    }

    /// The trace rendered, with a note if it was cut.
    pub fn render(&self) -> String {
        let mut trace = self.events.render(self.sites);
        if self.dropped > 0 {
            trace.push_str(&format!(
                "note: the trace stopped after {MAX_TRACE_BYTES} bytes; {} more event(s) were not recorded\n",
                self.dropped
            ));
        }
        trace
    }
}

impl TraceSink for BoundedTrace<'_> {
    const ENABLED: bool = true;

    fn event(&mut self, e: TraceEvent) {
        let text = |s: &String| s.len();
        let payload = match &e {
            TraceEvent::Roll { faces, .. } => faces.len() * 8,
            TraceEvent::Lookup { key, value, .. } => text(key) + text(value),
            TraceEvent::Assign { value, .. } | TraceEvent::Return { value, .. } => text(value),
            TraceEvent::Match { arm, .. } => text(arm),
            TraceEvent::Decide { choice, .. } => text(choice),
            TraceEvent::Fill { level, .. } => text(level),
            TraceEvent::Fight { what, .. } => text(what),
            TraceEvent::RuleError { message, .. } => text(message),
            _ => 0,
        };
        let site = self
            .sites
            .get(e.site() as usize)
            .map_or(0, |s| s.file.len() + s.text.len());
        let cost = payload + site + 32;
        if self.dropped > 0 || self.bytes + cost > MAX_TRACE_BYTES {
            self.dropped += 1;
            return;
        }
        self.bytes += cost;
        self.events.event(e);
    }
}

/// Faces from the script first, then from a seeded source.
pub struct ScriptThenSeed {
    faces: Vec<u32>,
    pub next: usize,
    seeded: SeededDice,
    /// Faces rolled after the script ran out.
    pub rolled: usize,
    /// Scripted faces the die did not have: which face (0-based) and the die's sides.
    /// The run is an error then (its result is not shown).
    pub problems: Vec<(usize, u32)>,
}

impl ScriptThenSeed {
    pub fn new(faces: Vec<u32>, seed: u64) -> Self {
        ScriptThenSeed {
            faces,
            next: 0,
            seeded: SeededDice::new(seed),
            rolled: 0,
            problems: Vec::new(),
        }
    }
}

impl DiceSource for ScriptThenSeed {
    fn face(&mut self, sides: u32) -> u32 {
        match self.faces.get(self.next) {
            Some(&f) => {
                self.next += 1;
                let sides = sides.max(1);
                if f > sides {
                    self.problems.push((self.next - 1, sides));
                }
                f.clamp(1, sides)
            }
            None => {
                self.rolled += 1;
                self.seeded.face(sides)
            }
        }
    }

    fn may_stop(&self) -> bool {
        false
    }
}

/// Reads a scenario file against a program. Diagnostics point into the scenario file.
pub fn read(p: &Program, path: &Path) -> Result<(Scenario, Sources), (Diagnostics, Sources)> {
    read_edited(p, path, |_, _| {})
}

/// [`read`], with the scenario's YAML changed by `edit` first (`rulesc analyze --sweep`
/// sets values under `args:`); `edit` reports its own problems.
pub fn read_edited(
    p: &Program,
    path: &Path,
    edit: impl FnOnce(&mut YNode, &mut Diagnostics),
) -> Result<(Scenario, Sources), (Diagnostics, Sources)> {
    read_in(p, path, &load::Overlay::new(), edit)
}

/// [`read`], with the scenario's text from `overlay` when it is there (the language
/// server's unsaved buffers).
pub fn read_with(
    p: &Program,
    path: &Path,
    overlay: &load::Overlay,
) -> Result<(Scenario, Sources), (Diagnostics, Sources)> {
    read_in(p, path, overlay, |_, _| {})
}

fn read_in(
    p: &Program,
    path: &Path,
    overlay: &load::Overlay,
    edit: impl FnOnce(&mut YNode, &mut Diagnostics),
) -> Result<(Scenario, Sources), (Diagnostics, Sources)> {
    let mut diags = Diagnostics::default();
    let mut sources = p.sources.clone();
    let name = path.display().to_string().replace('\\', "/");
    let Some((_, mut root)) = load::read_yaml_in(&mut sources, name, path, overlay, &mut diags)
    else {
        return Err((diags, sources));
    };
    edit(&mut root, &mut diags);
    if diags.has_errors() {
        return Err((diags, sources));
    }
    let result = read_node(p, &sources, &root, &mut diags);
    match result {
        Some(s) if !diags.has_errors() => Ok((s, sources)),
        _ => Err((diags, sources)),
    }
}

fn err(diags: &mut Diagnostics, span: Span, msg: impl Into<String>, help: impl Into<String>) {
    diags.push(
        Diagnostic::error("E0401", span, msg)
            .label("here")
            .help(help),
    );
}

fn read_node(
    p: &Program,
    sources: &Sources,
    root: &YNode,
    diags: &mut Diagnostics,
) -> Option<Scenario> {
    let Some(map) = root.as_map() else {
        err(
            diags,
            root.span,
            "a scenario is a mapping",
            "write `run:`, `args:`, and optionally `dice:` and `decisions:`",
        );
        return None;
    };
    crate::yaml::unknown_keys(map, KEYS, "a scenario", diags);
    if let Some(d) = root.get("description").filter(|d| d.as_str().is_none()) {
        diags.push(
            Diagnostic::error(
                "E0102",
                d.span,
                format!("`description` is text, not {}", d.kind()),
            )
            .label("expected text")
            .help("write `description: <text>`"),
        );
    }
    let Some(run) = root.get("run") else {
        err(
            diags,
            root.span,
            "the scenario does not say what to `run`",
            "add `run: <procedure name>`",
        );
        return None;
    };
    let Some(fname) = run.as_str() else {
        diags.push(
            Diagnostic::error(
                "E0102",
                run.span,
                format!("expected the name of a procedure, found {}", run.kind()),
            )
            .label("not a name")
            .help("write `run: <procedure name>`"),
        );
        return None;
    };
    let Some((fid, f)) = p.function(fname) else {
        let cands: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
        diags.push(
            Diagnostic::error(
                "E0306",
                run.span,
                format!("no procedure is named `{fname}`"),
            )
            .label("unknown")
            .help(suggest(fname, &cands, "procedures")),
        );
        return None;
    };
    let empty = YNode {
        span: root.span,
        value: YValue::Map(Vec::new()),
    };
    let args_node = root.get("args").unwrap_or(&empty);
    let mut args = Vec::new();
    for (k, _) in yaml::mapping(
        args_node,
        "args",
        "write `args: { <parameter>: <value> }`",
        diags,
    ) {
        let key = k.scalar_text().unwrap_or_default();
        if !f.params.iter().any(|p| p.name == key) {
            let cands: Vec<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
            diags.push(
                Diagnostic::error(
                    "E0103",
                    k.span,
                    format!("`{fname}` has no parameter `{key}`"),
                )
                .label("unknown parameter")
                .help(suggest(&key, &cands, "parameters")),
            );
        }
    }
    let fight = fight_of(p, sources, root, diags);
    // A fight function (a fight built-in, a timer, `advance`, a fighter held) has no
    // meaning outside a fight: it runs only in the scenario's. A fighter parameter says
    // so where its argument is missing (`fighter_arg`).
    let takes_fighters = f
        .params
        .iter()
        .any(|p| matches!(p.ty, Ty::Fighter | Ty::Side));
    if root.get("fight").is_none() && !takes_fighters && crate::ir::fight_functions(p)[fid] {
        err(
            diags,
            run.span,
            format!("`{fname}` runs inside a fight (it uses the fight's built-ins, timers or fighters)"),
            "add `fight: { sides: { <side>: { <name>: <record or fields> }, ... } }` to run it in one",
        );
    }
    let mut reader = check::Reader::new(p, sources);
    for param in &f.params {
        if matches!(param.ty, Ty::Fighter | Ty::Side) {
            args.push(fighter_arg(root, args_node, param, fight.as_ref(), diags));
            continue;
        }
        let value = match args_node.get(&param.name) {
            Some(node) => reader.read(node, &param.ty, diags),
            None => {
                // A missing record argument starts from its defaults; others are errors.
                match param.ty {
                    Ty::Record(_) => Some(p.zero(&param.ty)),
                    _ => {
                        err(
                            diags,
                            args_node.span,
                            format!("no value for parameter `{}`", param.name),
                            format!(
                                "add `{}: <{}>` under `args:`",
                                param.name,
                                p.ty_name(&param.ty)
                            ),
                        );
                        None
                    }
                }
            }
        };
        // (`Unit` holds the place of an argument reported above: a scenario with an
        // error does not run.)
        args.push(value.map(|c| Value::from_const(&c)).unwrap_or(Value::Unit));
    }
    let mut dice_spans = Vec::new();
    let dice = root.get("dice").and_then(|d| match d.as_seq() {
        Some(items) => {
            let mut faces = Vec::new();
            for i in items {
                match i.value {
                    YValue::Int(f) if (1..=1_000_000).contains(&f) => {
                        faces.push(f as u32);
                        dice_spans.push(i.span);
                    }
                    _ => err(
                        diags,
                        i.span,
                        "a die face is a positive number",
                        "write faces as numbers: `dice: [8, 6, 8]`",
                    ),
                }
            }
            Some(faces)
        }
        None => {
            err(
                diags,
                d.span,
                "`dice` is a list of faces",
                "write `dice: [8, 6, 8]`",
            );
            None
        }
    });
    let mut decisions = ScriptedDecisions::new();
    let mut answer_spans: Vec<(String, Vec<Span>)> = Vec::new();
    if let Some(d) = root.get("decisions") {
        let names = crate::simulate::decisions(p);
        let help = "write `decisions: { <decision>: [<answer>, ...] }`";
        for (k, v) in yaml::mapping(d, "decisions", help, diags) {
            let key = k.scalar_text().unwrap_or_default();
            let Some(options) = crate::simulate::known_decision(&names, &key, k, diags) else {
                continue;
            };
            let answers: Vec<&YNode> = match v.as_seq() {
                Some(s) => s.iter().collect(),
                None => vec![v],
            };
            for a in answers {
                if let Some(scripted) = answer(p, options.as_ref(), a, diags) {
                    decisions = match scripted {
                        Scripted::Index(i) => decisions.answer(&key, i),
                        Scripted::Named(label) => decisions.answer_named(&key, &label),
                    };
                    match answer_spans.iter_mut().find(|(n, _)| *n == key) {
                        Some((_, spans)) => spans.push(a.span),
                        None => answer_spans.push((key.clone(), vec![a.span])),
                    }
                }
            }
        }
    }
    Some(Scenario {
        function: fid,
        args,
        dice,
        decisions,
        dice_spans,
        answer_spans,
        at: Span::new(root.span.file, 0, 0),
        dice_at: root.get("dice").map(|d| d.span),
        expect: root.get("expect").cloned(),
        fight: fight.map(|(sides, _)| sides),
    })
}

/// The fight of a scenario (`fight: { sides: ... }`): its sides, and its combatants'
/// names in joining order.
fn fight_of(
    p: &Program,
    sources: &Sources,
    root: &YNode,
    diags: &mut Diagnostics,
) -> Option<(crate::simulate::Sides, Vec<String>)> {
    let node = root.get("fight")?;
    let Some(def) = &p.fight else {
        err(
            diags,
            node.span,
            format!("ruleset `{}` declares no fight", p.name),
            "a scenario's `fight:` is for procedures that take fighters; add `fight of <Combatant> { ... }` to the rules",
        );
        return None;
    };
    if node.as_map().is_none() {
        err(
            diags,
            node.span,
            "`fight` is a mapping",
            "write `fight: { sides: { Guild: { Vera: veteran }, Recruits: { Ike: {} } } }`",
        );
        return None;
    }
    crate::yaml::unknown_keys(
        node.as_map().unwrap_or(&[]),
        &["sides"],
        "a scenario's `fight`",
        diags,
    );
    crate::simulate::read_sides(p, sources, node, def.combatant, diags)
}

/// A `fighter` argument (a combatant of the scenario's fight, by name) or a `side` one
/// (a side, by name).
fn fighter_arg(
    root: &YNode,
    args_node: &YNode,
    param: &crate::ir::Param,
    fight: Option<&(crate::simulate::Sides, Vec<String>)>,
    diags: &mut Diagnostics,
) -> Value {
    let is_side = matches!(param.ty, Ty::Side);
    let what = if is_side { "side" } else { "fighter" };
    let Some((sides, names)) = fight else {
        if root.get("fight").is_none() {
            err(
                diags,
                args_node.get(&param.name).map_or(args_node.span, |n| n.span),
                format!("`{}` is a {what}: the procedure runs inside a fight", param.name),
                "add `fight: { sides: { <side>: { <name>: <record or fields> }, ... } }` and name the combatant here",
            );
        }
        return Value::Unit;
    };
    let Some(node) = args_node.get(&param.name) else {
        err(
            diags,
            args_node.span,
            format!("no value for parameter `{}`", param.name),
            format!(
                "add `{}: <a {what} of the fight, by name>` under `args:`",
                param.name
            ),
        );
        return Value::Unit;
    };
    let name = node.scalar_text().unwrap_or_default();
    let found = if is_side {
        sides
            .iter()
            .position(|(s, _)| *s == name)
            .map(|i| Value::Side(i as u16))
    } else {
        names
            .iter()
            .position(|n| *n == name)
            .map(|i| Value::Fighter(i as u32))
    };
    found.unwrap_or_else(|| {
        let cands: Vec<&str> = if is_side {
            sides.iter().map(|(s, _)| s.as_str()).collect()
        } else {
            names.iter().map(String::as_str).collect()
        };
        diags.push(
            Diagnostic::error(
                "E0306",
                node.span,
                format!("the fight has no {what} named `{name}`"),
            )
            .label(format!("unknown {what}"))
            .help(suggest(
                &name,
                &cands,
                if is_side { "sides" } else { "combatants" },
            )),
        );
        Value::Unit
    })
}

/// One scripted answer to a decision choosing among `options` (`List`: from a list,
/// whose length is known only when it runs): the option's index, checked against the
/// options where they are known here, or the option's name, read as fight files read it
/// ([`crate::simulate::answer_by_name`]). An answer out of range is an error, never
/// clamped.
fn answer(
    p: &Program,
    options: Option<&DecideOptions>,
    a: &YNode,
    diags: &mut Diagnostics,
) -> Option<Scripted> {
    let names: Option<Vec<&str>> = match options {
        Some(DecideOptions::Choice(c)) => Some(
            p.choices[*c]
                .variants
                .iter()
                .map(|v| v.name.as_str())
                .collect(),
        ),
        Some(DecideOptions::Bool) => Some(vec!["false", "true"]),
        _ => None,
    };
    if let YValue::Int(_) | YValue::BigInt(_) = a.value {
        let shown = a.scalar_text().unwrap_or_default();
        let index = match a.value {
            YValue::Int(i) => u32::try_from(i).ok(),
            _ => None,
        };
        let what = match (index, names.as_ref().map(Vec::len)) {
            (Some(i), Some(n)) if (i as usize) < n => return Some(Scripted::Index(i)),
            (Some(i), None) => return Some(Scripted::Index(i)),
            (_, Some(n)) => format!("answer {shown} is not one of the {n} options"),
            (None, None) => format!("answer {shown} cannot index a list"),
        };
        let help = match &names {
            Some(o) => format!(
                "the options are numbered 0 to {}: {}",
                o.len().saturating_sub(1),
                o.join(", ")
            ),
            None => "an index counts the list's items from 0".to_string(),
        };
        diags.push(
            Diagnostic::error("E0403", a.span, what)
                .label("out of range")
                .help(help),
        );
        return None;
    }
    let text = match (&a.value, options) {
        (
            YValue::Str(_) | YValue::Bool(_),
            Some(DecideOptions::Bool | DecideOptions::Choice(_)),
        ) => a.scalar_text().unwrap_or_default(),
        // An option of a list by name: found among the options' names when it is asked.
        (YValue::Str(name), Some(DecideOptions::List(_))) => {
            return Some(Scripted::Named(name.clone()));
        }
        _ => {
            err(
                diags,
                a.span,
                "a decision is answered with an option's name, `yes`/`no`, or an index",
                "write the option as the rules name it, or its index from 0",
            );
            return None;
        }
    };
    let found = crate::simulate::answer_by_name(p, options, &text);
    if found.is_none() {
        let what = match options {
            Some(DecideOptions::Choice(c)) => format!("`{text}` is not a {}", p.choices[*c].name),
            _ => format!("`{text}` does not answer a yes-or-no decision"),
        };
        diags.push(
            Diagnostic::error("E0306", a.span, what)
                .label("unknown")
                .help(crate::simulate::answer_help(p, options, &text, false)),
        );
    }
    found.map(Scripted::Index)
}

/// Runs a scenario file and renders its trace and result.
pub fn run_file(p: &Program, path: &Path, seed: u64) -> Result<String, (Diagnostics, Sources)> {
    run_file_with(p, path, seed, RunOptions::default())
}

/// How `rulesc trace` runs a scenario.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Refuse a script that does not fit the run ([`strict`]).
    pub strict: bool,
    /// Trace inside formulas too ([`eval::Options::trace_formulas`]).
    pub trace_formulas: bool,
}

/// [`run_file`], as `options` say.
pub fn run_file_with(
    p: &Program,
    path: &Path,
    seed: u64,
    options: RunOptions,
) -> Result<String, (Diagnostics, Sources)> {
    run_file_valued(p, path, seed, options).map(|(text, _)| text)
}

/// [`run_file_with`], with the result as JSON too ([`run_valued`]).
pub fn run_file_valued(
    p: &Program,
    path: &Path,
    seed: u64,
    options: RunOptions,
) -> Result<(String, serde_json::Value), (Diagnostics, Sources)> {
    let (s, sources) = read(p, path)?;
    run_valued(p, s, seed, options).map_err(|d| (d, sources))
}

/// What one run of a scenario gave, and how it used its script.
pub struct Ran {
    /// The procedure's result, or the rule error that stopped it.
    pub result: Result<Value, RuleError>,
    /// The arguments after the run (records changed in place).
    pub args: Vec<Value>,
    /// The arguments before the run (copies).
    pub before: Vec<Value>,
    /// In a scenario's fight, every combatant after the run, by name.
    pub fighters: Vec<(String, Value)>,
    /// The trace, rendered (with a note if it was cut).
    pub trace: String,
    /// How many scripted faces were used, and how many dice were rolled after them.
    pub faces_used: usize,
    pub rolled: usize,
    /// Scripted answers never asked for: the decision's name and how many were left.
    pub answers_left: Vec<(String, usize)>,
    /// Decisions taken by default (their first option), in order.
    pub unanswered: Vec<String>,
    /// A script that did not fit the run (a face the die does not have, an answer
    /// past the options, `E0403`) or a run past the step budget (`E0410`).
    pub errors: Diagnostics,
}

/// Runs a scenario with the interpreter, keeping what it gave and how it used its
/// script (see [`Ran`]).
pub fn execute(p: &Program, s: &Scenario, seed: u64) -> Ran {
    execute_with(p, s, seed, eval::Options::default())
}

/// [`execute`], traced as `options` say.
pub fn execute_with(p: &Program, s: &Scenario, seed: u64, options: eval::Options) -> Ran {
    let dice = ScriptThenSeed::new(s.dice.clone().unwrap_or_default(), seed);
    let trace = BoundedTrace::new(&p.sites);
    let mut env = Env::new(dice, s.decisions.clone(), trace);
    let mut fighters = Vec::new();
    let mut before: Vec<Value> = s.args.iter().map(Value::deep_clone).collect();
    let mut args: Vec<Value> = s.args.iter().map(Value::deep_clone).collect();
    let result = match &s.fight {
        None => eval::call_with(p, &mut env, s.function, args.clone(), options),
        Some(sides) => {
            let mut fight = rulesc_runtime::Fight::new();
            for (side, members) in sides {
                for (name, value) in members {
                    fight.join(side, name, Value::from_const(value));
                }
            }
            // A fighter argument is held to as its combatant, before and after.
            let combatants = |fight: &rulesc_runtime::Fight<Value>, args: &[Value]| -> Vec<Value> {
                args.iter()
                    .map(|a| match a {
                        Value::Fighter(i) => fight
                            .combatants
                            .get(*i as usize)
                            .map_or(Value::Unit, Value::deep_clone),
                        a => a.clone(),
                    })
                    .collect()
            };
            before = combatants(&fight, &before);
            // The fight's calls share its step budget, counted from here.
            let _ = crate::fight::EvalRules::new(p);
            let result = eval::call_in(p, &mut env, &mut fight, s.function, args.clone(), options);
            args = combatants(&fight, &args);
            let names = sides
                .iter()
                .flat_map(|(_, m)| m.iter().map(|(n, _)| n.clone()));
            fighters = names.zip(fight.combatants.iter().cloned()).collect();
            result
        }
    };
    let mut diags = Diagnostics::default();
    if let Err(RuleError {
        kind: RuleErrorKind::TooManySteps { max },
        ..
    }) = &result
    {
        // Not the rules' result: the interpreter's limit (generated code would go on).
        diags.push(
            Diagnostic::error(
                "E0410",
                s.at,
                format!("the run stopped after {max} steps"),
            )
            .label("this scenario")
            .help("rulesc runs at most 1,000,000 steps (statements, loop turns, calls, items compared or listed, dice thrown past a roll's first, values copied) for one scenario; loops nested this deep, or this many dice, are probably a mistake"),
        );
    }
    for &(i, sides) in &env.dice.problems {
        let face = s.dice.as_ref().map_or(0, |d| d[i]);
        diags.push(
            Diagnostic::error(
                "E0403",
                s.dice_spans[i],
                format!("scripted face {face} is not on the d{sides} it was rolled for"),
            )
            .label("out of range")
            .help(format!("a d{sides} has the faces 1 to {sides}")),
        );
    }
    for (name, nth, answer, options, offered) in &env.decide.missed {
        diags.push(answer_out_of_range(
            s,
            &BadAnswer {
                name: name.clone(),
                nth: Some(*nth),
                answer: answer.clone(),
                options: *options,
                offered: offered.clone(),
            },
        ));
    }
    let trace = env.trace.render();
    Ran {
        result,
        args,
        before,
        fighters,
        trace,
        faces_used: env.dice.next,
        rolled: env.dice.rolled,
        answers_left: env
            .decide
            .queues()
            .filter(|(_, q)| !q.is_empty())
            .map(|(n, q)| (n.to_string(), q.len()))
            .collect(),
        unanswered: env.decide.unanswered.clone(),
        errors: diags,
    }
}

/// The script's mistakes a strict run refuses (`rulesc test`, `rulesc trace --strict`),
/// as errors (`E0405`): faces never rolled, dice rolled past the scripted faces, and
/// answers to decisions never asked (or asked fewer times).
pub fn strict(s: &Scenario, ran: &Ran) -> Diagnostics {
    let mut diags = Diagnostics::default();
    if let Some(faces) = &s.dice {
        if ran.faces_used < faces.len() {
            let left = faces.len() - ran.faces_used;
            diags.push(
                Diagnostic::error(
                    "E0405",
                    s.dice_spans[ran.faces_used],
                    format!(
                        "{left} scripted face(s) were never rolled: the run rolled {} di{}",
                        ran.faces_used,
                        if ran.faces_used == 1 { "e" } else { "ce" }
                    ),
                )
                .label("not rolled")
                .help("remove the faces the run does not roll, or check the trace for a roll you expected"),
            );
        }
        if ran.rolled > 0 {
            diags.push(
                Diagnostic::error(
                    "E0405",
                    s.dice_at.unwrap_or(s.at),
                    format!(
                        "the run rolled {} more di{} than the {} scripted",
                        ran.rolled,
                        if ran.rolled == 1 { "e" } else { "ce" },
                        faces.len()
                    ),
                )
                .label("too few faces")
                .help("script a face for every die the run rolls (the trace shows each roll)"),
            );
        }
    }
    for (name, left) in &ran.answers_left {
        let span = s
            .answer_spans
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, spans)| spans.get(spans.len().saturating_sub(*left)).copied())
            .unwrap_or(s.at);
        diags.push(
            Diagnostic::error(
                "E0405",
                span,
                format!("{left} scripted answer(s) to `{name}` were never asked for"),
            )
            .label("not asked")
            .help(format!(
                "the run asked `{name}` fewer times than it is answered; remove the answers it does not ask for"
            )),
        );
    }
    diags
}

/// Runs a scenario with the interpreter; returns the rendered trace and the result, or
/// the errors of a script that did not fit the run (a face the die does not have, an
/// answer past a list's options), pointing into the scenario's file.
pub fn run(p: &Program, s: Scenario, seed: u64) -> Result<String, Diagnostics> {
    run_with(p, s, seed, RunOptions::default())
}

/// [`run`], as `options` say.
pub fn run_with(
    p: &Program,
    s: Scenario,
    seed: u64,
    options: RunOptions,
) -> Result<String, Diagnostics> {
    run_valued(p, s, seed, options).map(|(text, _)| text)
}

/// [`run_with`], with the result as a JSON value too ([`crate::values::run_value`];
/// `null` when a rule error stopped the run): what `trace --format json` gives.
pub fn run_valued(
    p: &Program,
    s: Scenario,
    seed: u64,
    options: RunOptions,
) -> Result<(String, serde_json::Value), Diagnostics> {
    let traced = eval::Options {
        trace_formulas: options.trace_formulas,
    };
    let mut ran = execute_with(p, &s, seed, traced);
    if options.strict {
        let problems = self::strict(&s, &ran);
        ran.errors.extend(problems);
    }
    if ran.errors.has_errors() {
        return Err(ran.errors);
    }
    let f = &p.functions[s.function];
    let value = match &ran.result {
        Ok(v) => crate::values::run_value(p, v, &f.ret),
        Err(_) => serde_json::Value::Null,
    };
    let mut out = ran.trace;
    out.push_str(&format!(
        "result: {}\n",
        eval::show_result(p, &ran.result, &f.ret)
    ));
    if let Some(faces) = &s.dice {
        if ran.faces_used < faces.len() {
            out.push_str(&format!(
                "note: {} scripted face(s) were not used\n",
                faces.len() - ran.faces_used
            ));
        }
        if ran.rolled > 0 {
            out.push_str(&format!(
                "note: the script ran out of faces; {} more were rolled\n",
                ran.rolled
            ));
        }
    }
    if !ran.answers_left.is_empty() {
        let unused: Vec<String> = ran
            .answers_left
            .iter()
            .map(|(n, k)| format!("{n} ({k} left)"))
            .collect();
        out.push_str(&format!(
            "note: scripted decisions never asked for: {}\n",
            unused.join(", ")
        ));
    }
    if !ran.unanswered.is_empty() {
        out.push_str(&format!(
            "note: decisions taken by default (first option): {}\n",
            ran.unanswered.join(", ")
        ));
    }
    Ok((out, value))
}

/// An answer not among the options: the decision, which of its scripted answers
/// (`None`: a fixed `--decide` answer), the answer, how many options there were and,
/// for an answer by name, the options' names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadAnswer {
    pub name: String,
    pub nth: Option<usize>,
    pub answer: Scripted,
    pub options: u32,
    pub offered: Vec<String>,
}

/// `E0403` for an answer that was not one of the options its decision offered when the
/// run asked it, at the scripted answer (a fixed `--decide` answer: at the scenario).
pub fn answer_out_of_range(s: &Scenario, b: &BadAnswer) -> Diagnostic {
    let span = b
        .nth
        .and_then(|nth| {
            s.answer_spans
                .iter()
                .find(|(n, _)| *n == b.name)
                .and_then(|(_, spans)| spans.get(nth).copied())
        })
        .unwrap_or(s.at);
    missed_answer(span, &b.name, &b.answer, b.options, &b.offered)
}

/// `E0403` at `span` for `answer`, a scripted answer to decision `name` that was not
/// among the `options` it offered (`offered`: their names, for an answer by name): one
/// wording for scenarios and scripted fights.
pub fn missed_answer(
    span: Span,
    name: &str,
    answer: &Scripted,
    options: u32,
    offered: &[String],
) -> Diagnostic {
    match answer {
        Scripted::Index(answer) => Diagnostic::error(
            "E0403",
            span,
            format!("answer {answer} is not one of the {options} options `{name}` offered"),
        )
        .label("out of range")
        .help(format!(
            "the options are numbered 0 to {}",
            options.saturating_sub(1)
        )),
        Scripted::Named(answer) => Diagnostic::error(
            "E0403",
            span,
            format!("answer `{answer}` is not one of the {options} options `{name}` offered"),
        )
        .label("not an option")
        .help(format!("the options were: {}", offered.join(", "))),
    }
}
