//! Fights in the interpreter: the fight built-ins, timers and `advance`, and
//! [`EvalRules`], the interpreter's side of the runtime's fight engine
//! (`rulesc_runtime::fight`). Generated code implements the same engine trait with the
//! same procedures, so both order turns, fire timers and trace identically.

use crate::eval::{call_in, leak_name, show_traced_in, weight, Options, Value, MAX_STEPS};
use crate::ir::{self, Action, At, FightQuery, FightTies, Program, ResetStep, Ty};
use rulesc_runtime::__private::land;
use rulesc_runtime::fight::{Key, Res};
use rulesc_runtime::{
    Decide, DiceSource, Env, Fight, FightRules, FightShape, Fighter, Hook, Moment, Repeat, Side,
    Ties, TraceEvent, TraceSink,
};
use rulesc_runtime::{RuleError, RuleErrorKind};
use std::borrow::Cow;
use std::cell::Cell;
use std::rc::Rc;

/// Most steps one fight takes over every call the engine makes (turns, turn-order keys,
/// `out`, hooks, triggers, timers, and what they call): each call also keeps to
/// [`crate::eval::MAX_STEPS`] of its own. Past it the fight stops with the rule error
/// [`RuleErrorKind::TooManySteps`]: a fight of 10,000 rounds whose turns each ran close
/// to a call's budget would otherwise run for hours. Generated code has no such budget.
pub const MAX_FIGHT_STEPS: u64 = 10_000_000;

thread_local! {
    /// Steps taken so far by the fight this thread runs ([`EvalRules::new`] starts one).
    pub static FIGHT_STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Before a call in a fight: the rule error if the fight's budget is spent.
pub fn budget_left() -> Result<(), RuleErrorKind> {
    if FIGHT_STEPS.get() > MAX_FIGHT_STEPS {
        return Err(RuleErrorKind::TooManySteps {
            max: MAX_FIGHT_STEPS,
        });
    }
    Ok(())
}

/// After a call in a fight that took `steps` and ended well (`ok`): its steps count
/// against the fight's budget (a call made inside it, by `advance`, counted its own), and
/// passing it is the rule error.
pub fn steps_taken(steps: u64, ok: bool) -> Result<(), RuleErrorKind> {
    let total = FIGHT_STEPS.get().saturating_add(steps);
    FIGHT_STEPS.set(total);
    if ok && total > MAX_FIGHT_STEPS {
        return Err(RuleErrorKind::TooManySteps {
            max: MAX_FIGHT_STEPS,
        });
    }
    Ok(())
}

/// Whether `out` is remembered in a calm: not when formulas are traced (their trace shows
/// each call), nor in a test that holds remembering to asking every time.
fn remembering(formulas_traced: bool) -> bool {
    #[cfg(any(test, feature = "hooks"))]
    if hooks::ASK_EVERY_TIME.with(Cell::get) {
        return false;
    }
    !formulas_traced
}

/// What tests (this crate's and those of the crates above, with the feature `hooks`)
/// change of a fight's run.
#[cfg(any(test, feature = "hooks"))]
#[doc(hidden)]
pub mod hooks {
    use std::cell::Cell;

    thread_local! {
        /// Set: `out` is asked every time, even in a calm.
        pub static ASK_EVERY_TIME: Cell<bool> = const { Cell::new(false) };
    }
}

/// What `out` said of `f` in this calm, and the step count `spent` comes to when its
/// steps are taken again; `None` when not asked yet, or when they would pass `budget`
/// (then the rule runs, to stop where it would). A remembered count is that of a call
/// that ended within its own budget ([`MAX_STEPS`]).
fn recall(fight: &Fight<Value>, f: Fighter, spent: u64, budget: u64) -> Option<(bool, u64)> {
    let (out, steps) = fight.remembered_out(f)?;
    let total = spent.checked_add(steps).filter(|&t| t <= budget)?;
    Some((out, total))
}

/// What the fight's built-ins ask of the evaluator running a fight's function (the core
/// IR's VM): each rule of the fight (`out`
/// remembered in a calm, allies and enemies in joining order, `in_order`'s sort, a timer
/// set) is written once, below, on this.
pub trait InFight {
    fn prog(&self) -> &Program;
    fn fight(&self) -> Option<&Fight<Value>>;
    fn fight_mut(&mut self) -> Option<&mut Fight<Value>>;
    /// The steps this run has taken so far.
    fn steps(&mut self) -> &mut u64;
    /// Formulas are traced (`--trace-formulas`): `out` is then asked each time.
    fn formulas_traced(&self) -> bool;
    /// Calls one of the fight's formulas (one step, then its body); its rule error is
    /// recorded as the procedure running records a formula's.
    fn formula(&mut self, id: usize, arg: Value) -> Res<Value>;
    /// The run is traced here.
    fn on(&self) -> bool;
    fn event(&mut self, e: TraceEvent);
}

/// Why a fight function always runs in a fight: what `unreachable!` says where one would
/// find none.
pub const IN_A_FIGHT: &str = "a fight function runs only in a fight: the engine runs the fight's own, and a scenario running one without `fight:` is refused (`scenario::read`, E0401)";

/// The combatant fighter `f` stands for: the fight's own record, shared, so changes
/// through it reach the fight.
pub fn combatant(fight: Option<&Fight<Value>>, f: i64) -> Value {
    combatant_ref(fight, f).clone()
}

/// The fight's own record of the combatant fighter `f` stands for ([`combatant`]),
/// borrowed.
pub fn combatant_ref(fight: Option<&Fight<Value>>, f: i64) -> &Value {
    let Some(fight) = fight else {
        unreachable!("the combatant of fighter {f} outside a fight: {IN_A_FIGHT}")
    };
    match usize::try_from(f).ok().and_then(|i| fight.combatants.get(i)) {
        Some(c) => c,
        None => unreachable!(
            "fighter {f} of a fight of {}: a fighter is a number the fight gave (its built-ins, a hook's or a timer's argument, a scenario's fighter by name), and none leaves it",
            fight.combatants.len()
        ),
    }
}

/// The fight's `out` rule. While the fight is calm ([`Fight::calm`]: the engine asks its
/// trigger conditions, each of which may count a side) the answer for a fighter is
/// remembered with the steps it took, and asked again it takes the same steps without
/// running the rule; if those steps would pass the budget it runs, to stop where it
/// would. Traced formulas always run (their trace shows each call).
fn is_out(it: &mut impl InFight, f: Fighter) -> Res<bool> {
    let Some(out) = it.prog().fight.as_ref().and_then(|d| d.out) else {
        return Ok(false);
    };
    let calm = remembering(it.formulas_traced()) && it.fight().is_some_and(Fight::calm);
    let spent = *it.steps();
    let known = it.fight().filter(|_| calm);
    if let Some((v, total)) = known.and_then(|x| recall(x, f, spent, MAX_STEPS)) {
        *it.steps() = total;
        return Ok(v);
    }
    let v = it.formula(out, Value::Fighter(f.0))?.bool();
    let taken = *it.steps() - spent;
    if let (true, Some(fight)) = (calm, it.fight_mut()) {
        fight.remember_out(f, v, taken);
    }
    Ok(v)
}

/// `allies(who)` (`allied`: `who`'s side but `who`) or `enemies(who)` (the other
/// sides): the fighters not out, in joining order, each handed to `found`.
fn side_of(
    it: &mut impl InFight,
    who: Fighter,
    allied: bool,
    mut found: impl FnMut(Fighter),
) -> Res<()> {
    // Fighters are numbered in joining order; none joins while `out` rules run.
    let n = it.fight().map_or(0, Fight::len);
    for f in (0..n as u32).map(Fighter) {
        let kept = it.fight().is_some_and(|x| match allied {
            true => x.side(f) == x.side(who) && f != who,
            false => x.side(f) != x.side(who),
        });
        if kept && !is_out(it, f)? {
            found(f);
        }
    }
    Ok(())
}

/// `len(q(arg))`: of `allies` and `enemies`, the fighters counted as [`query`] lists
/// them (the same `out` rules asked, in the same order, at the same steps) without
/// making the list.
pub fn count(it: &mut impl InFight, q: FightQuery, arg: Option<Value>) -> Res<i64> {
    let mut n = 0;
    match q {
        FightQuery::Allies | FightQuery::Enemies => {
            let who = fighter_of(q, arg.as_ref());
            side_of(it, who, q == FightQuery::Allies, |_| n += 1)?;
        }
        _ => {
            if let Value::List(items) = query(it, q, arg)? {
                n = items.len() as i64;
            }
        }
    }
    Ok(n)
}

/// Fight built-in `q` of its operand (each has at most one).
pub fn query(it: &mut impl InFight, q: FightQuery, arg: Option<Value>) -> Res<Value> {
    let who = || fighter_of(q, arg.as_ref());
    let list = |v: Vec<Value>| Value::List(Rc::new(v));
    let Some(fight) = it.fight() else {
        unreachable!("fight built-in {q:?} outside a fight: {IN_A_FIGHT}")
    };
    Ok(match q {
        FightQuery::Fighters => list(fight.fighters().map(|f| Value::Fighter(f.0)).collect()),
        FightQuery::Sides => list(fight.sides().map(|s| Value::Side(s.0)).collect()),
        FightQuery::SideOf => Value::Side(fight.side(who()).0),
        FightQuery::Members => {
            let Some(Value::Side(s)) = arg else {
                unreachable!("`members` of {arg:?}: the checker gives it a side")
            };
            list(
                fight
                    .members(Side(s))
                    .map(|f| Value::Fighter(f.0))
                    .collect(),
            )
        }
        FightQuery::Acted => Value::Bool(fight.acted(who())),
        FightQuery::Round => Value::Int(i64::from(fight.round())),
        FightQuery::Time => Value::Int(fight.time()),
        FightQuery::Allies | FightQuery::Enemies => {
            // At most every fighter: one allocation, never grown.
            let mut found = Vec::with_capacity(fight.len());
            side_of(it, who(), q == FightQuery::Allies, |f| {
                found.push(Value::Fighter(f.0));
            })?;
            list(found)
        }
        FightQuery::Out => Value::Bool(is_out(it, who())?),
        FightQuery::MarkActed => {
            let who = who();
            if let Some(fight) = it.fight_mut() {
                fight.mark_acted(who);
            }
            Value::Unit
        }
        FightQuery::InOrder => {
            let Some(Value::List(items)) = &arg else {
                unreachable!("`in_order` of {arg:?}: the checker gives it a list of fighters")
            };
            let items = items.to_vec();
            let Some(order) = it.prog().fight.as_ref().map(|d| d.order) else {
                unreachable!("`in_order` in a program without a fight: {IN_A_FIGHT}")
            };
            let mut keyed: Vec<(Vec<i64>, Value)> = Vec::with_capacity(items.len());
            for v in items {
                keyed.push((key_of(&it.formula(order, v.clone())?), v));
            }
            // Stable: equal keys keep the list's order.
            keyed.sort_by(|a, b| b.0.cmp(&a.0));
            list(keyed.into_iter().map(|(_, v)| v).collect())
        }
    })
}

/// Sets a timer (`Stmt::Schedule`), its moment's operand and its arguments evaluated:
/// `action` fires at the moment `at` and `operand` say, traced at `site`.
pub fn set_timer(
    it: &mut impl InFight,
    at: &At,
    operand: i64,
    action: usize,
    values: Vec<i64>,
    site: u32,
) {
    let on = it.on();
    let Some(fight) = it.fight_mut() else {
        unreachable!("a timer set outside a fight: {IN_A_FIGHT}")
    };
    let moment = match at {
        At::RoundsLater(_) => fight.rounds_later(operand),
        At::TimeLater(_) => fight.time_later(operand),
        At::RoundEnd => Moment::RoundEnd(fight.round().max(1)),
        At::Turn { end, next, .. } => fight.turn_moment(fighter(operand), *end, *next),
    };
    let what = if on {
        format!("at {}", fight.describe(moment))
    } else {
        String::new()
    };
    fight.schedule(moment, action.min(u32::MAX as usize) as u32, values);
    if on {
        it.event(TraceEvent::Fight {
            site,
            what,
            cite: true,
        });
    }
}

/// A turn-order key as the runtime compares it.
fn key_of(v: &Value) -> Vec<i64> {
    let mut key = Vec::with_capacity(match v {
        Value::List(items) => items.len(),
        _ => 1,
    });
    key_parts(v, |k| key.push(k));
    key
}

/// Each number of the turn-order key `v`, in order: its items, or itself.
fn key_parts(v: &Value, mut part: impl FnMut(i64)) {
    match v {
        Value::List(items) => items.iter().for_each(|i| part(i.int())),
        other => part(other.int()),
    }
}

/// The runtime's engine shape of a program's fight.
pub fn shape(prog: &Program) -> Option<FightShape> {
    let d = prog.fight.as_ref()?;
    let ties = match &d.ties {
        FightTies::Together => Ties::Together,
        FightTies::AtOnce => Ties::AtOnce,
        FightTies::Roll(die) => Ties::Roll(*die),
        FightTies::Decide(name) => Ties::Decide(leak_name(name)),
    };
    Some(FightShape {
        ties,
        round_length: d.round_length,
        hooks: d.hooks.map(|h| h.map(|(_, each)| each)),
        every: Cow::Owned(d.every.iter().map(|(p, _, each)| (*p, *each)).collect()),
        triggers: Cow::Owned(d.triggers.iter().map(|t| t.per_fighter).collect()),
        site: d.site,
        trigger_sites: Cow::Owned(d.triggers.iter().map(|t| t.site).collect()),
        repeats: Cow::Owned(
            d.repeats
                .iter()
                .map(|r| Repeat {
                    action: r.action.min(u32::MAX as usize) as u32,
                    every: r.every,
                    site: r.site,
                })
                .collect(),
        ),
    })
}

/// The interpreter's side of the fight engine: each hook, key, rule and timer runs the
/// program's own function.
pub struct EvalRules<'p> {
    prog: &'p Program,
    shape: FightShape,
    options: Options,
}

impl<'p> EvalRules<'p> {
    /// The engine's rules for a new fight (`None` when the program declares no fight):
    /// its calls share one budget of [`MAX_FIGHT_STEPS`], counted from here, so make one
    /// per fight.
    pub fn new(prog: &'p Program) -> Option<Self> {
        let rules = Self::within(prog)?;
        FIGHT_STEPS.set(0);
        Some(rules)
    }

    /// The same for the fight already running (world time moved inside one of its
    /// calls): its budget goes on.
    pub fn within(prog: &'p Program) -> Option<Self> {
        Some(EvalRules {
            prog,
            shape: shape(prog)?,
            options: Options::default(),
        })
    }

    /// The same, tracing as `options` say (`simulate --trace K --trace-formulas`).
    pub fn with(self, options: Options) -> Self {
        EvalRules { options, ..self }
    }

    fn def(&self) -> &'p ir::FightDef {
        self.prog
            .fight
            .as_ref()
            .expect("EvalRules exists only for a fight")
    }

    /// The argument a hook or trigger procedure `f` gets for `who`: the fighter, or its
    /// combatant (shared, so changes reach the fight) for a `Combatant` parameter.
    fn who_arg(&self, fight: &Fight<Value>, f: usize, who: Option<Fighter>) -> Option<Value> {
        let w = who?;
        Some(match self.prog.functions[f].params.first().map(|p| &p.ty) {
            Some(Ty::Record(_)) => combatant(Some(fight), i64::from(w.0)),
            _ => Value::Fighter(w.0),
        })
    }

    fn run<D: DiceSource, X: Decide, T: TraceSink>(
        &self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        f: usize,
        who: Option<Fighter>,
    ) -> Res<Value> {
        let arg = self.who_arg(fight, f, who);
        call_in(self.prog, env, fight, f, arg, self.options)
    }
}

/// A captured timer argument back as a value of the parameter's type: it was captured
/// from a value of that type (the checker's E0352 keeps a timer's arguments to numbers,
/// truths, levels, fighters and sides), so it fits.
fn decode(ty: &Ty, x: i64) -> Value {
    let fits = "a timer's argument is captured from a value of its parameter's type";
    match ty {
        Ty::Int => Value::Int(x),
        Ty::Bool => Value::Bool(x != 0),
        Ty::Choice(_) => {
            Value::Choice(u16::try_from(x).unwrap_or_else(|_| unreachable!("level {x}: {fits}")))
        }
        Ty::Fighter => Value::Fighter(fighter(x).0),
        Ty::Side => {
            Value::Side(u16::try_from(x).unwrap_or_else(|_| unreachable!("side {x}: {fits}")))
        }
        other => unreachable!("a timer's argument of type {other:?}: {fits}"),
    }
}

impl<D: DiceSource, X: Decide, T: TraceSink> FightRules<Value, D, X, T> for EvalRules<'_> {
    fn shape(&self) -> &FightShape {
        &self.shape
    }

    fn key(&mut self, env: &mut Env<D, X, T>, fight: &mut Fight<Value>, who: Fighter) -> Res<Key> {
        let order = self.def().order;
        // Made in place (no list of numbers made first).
        let mut key = Key::new();
        key_parts(&self.run(env, fight, order, Some(who))?, |k| key.push(k));
        Ok(key)
    }

    fn is_out(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        who: Fighter,
    ) -> Res<bool> {
        let Some(out) = self.def().out else {
            return Ok(false);
        };
        // Remembered in a calm, as `is_out` remembers it for the VM: the same steps
        // taken from the fight's budget, unless they would pass it.
        let calm = remembering(self.options.trace_formulas) && fight.calm();
        let spent = FIGHT_STEPS.get();
        if let Some((v, total)) = recall(fight, who, spent, MAX_FIGHT_STEPS).filter(|_| calm) {
            FIGHT_STEPS.set(total);
            return Ok(v);
        }
        let v = self.run(env, fight, out, Some(who))?.bool();
        if calm {
            fight.remember_out(who, v, FIGHT_STEPS.get().saturating_sub(spent));
        }
        Ok(v)
    }

    fn hook(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        hook: Hook,
        who: Option<Fighter>,
    ) -> Res<()> {
        let d = self.def();
        let f = match hook {
            Hook::Start => d.hooks[0].map(|h| h.0),
            Hook::RoundStart => d.hooks[1].map(|h| h.0),
            Hook::Turn => d.hooks[2].map(|h| h.0),
            Hook::TurnEnd => d.hooks[3].map(|h| h.0),
            Hook::RoundEnd => d.hooks[4].map(|h| h.0),
            Hook::Every(i) => match d.every.get(usize::from(i)) {
                Some(e) => Some(e.1),
                None => unreachable!(
                    "`on every` hook {i} of {}: the engine runs the hooks `shape` gave it",
                    d.every.len()
                ),
            },
        };
        if let Some(f) = f {
            self.run(env, fight, f, who)?;
        }
        Ok(())
    }

    fn fire(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        action: u32,
        args: &[i64],
    ) -> Res<()> {
        let Some(a) = self.def().actions.get(action as usize) else {
            unreachable!(
                "timer action {action}: the engine fires only the actions the program's timers set"
            )
        };
        match a {
            Action::Call { function, site } => {
                if T::ENABLED {
                    env.trace.event(TraceEvent::Fight {
                        site: *site,
                        what: "fires".into(),
                        cite: true,
                    });
                }
                let params = &self.prog.functions[*function].params;
                let values = params.iter().zip(args).map(|(p, x)| decode(&p.ty, *x));
                call_in(self.prog, env, fight, *function, values, self.options)?;
            }
            Action::Reset {
                path,
                ty,
                value,
                site,
            } => {
                // A duration's first argument is the fighter it lasts on (`check::timed`).
                let Some(&who) = args.first() else {
                    unreachable!(
                        "a duration's reset without its fighter: the checker captures it first"
                    )
                };
                let who = fighter(who).index();
                let mut cur = combatant(Some(&*fight), who as i64);
                let new = Value::from_const(value);
                if let Err(kind) = reset(&mut cur, path, &args[1..], &new) {
                    let e = RuleError::new(*site, kind);
                    return Err(rulesc_runtime::__private::error::fail(&mut env.trace, e));
                }
                if T::ENABLED {
                    let shown = show_traced_in(self.prog, Some(fight), &new, ty);
                    env.trace.event(TraceEvent::Fight {
                        site: *site,
                        what: format!("ends for {}: {shown}", fight.name(Fighter(who as u32))),
                        cite: true,
                    });
                }
            }
        }
        Ok(())
    }

    fn condition(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        index: usize,
        who: Option<Fighter>,
    ) -> Res<bool> {
        let cond = self.def().triggers[index].cond;
        Ok(self.run(env, fight, cond, who)?.bool())
    }

    fn trigger(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        index: usize,
        who: Option<Fighter>,
    ) -> Res<()> {
        let p = self.def().triggers[index].procedure;
        self.run(env, fight, p, who)?;
        Ok(())
    }

    fn stops(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<Value>,
        action: u32,
        args: &[i64],
    ) -> Res<bool> {
        let d = self.def();
        let stop = d
            .repeats
            .iter()
            .find(|r| r.action == action as usize)
            .and_then(|r| r.stop);
        let (Some(stop), Some(Action::Call { function, .. })) =
            (stop, d.actions.get(action as usize))
        else {
            return Ok(false);
        };
        // The condition's values follow the call's arguments.
        let skip = self.prog.functions[*function].params.len();
        let params = &self.prog.functions[stop].params;
        let values = params
            .iter()
            .zip(args.iter().skip(skip))
            .map(|(p, x)| decode(&p.ty, *x));
        Ok(call_in(self.prog, env, fight, stop, values, self.options)?.bool())
    }

    /// A copy costs the fight's budget what copying the value costs a call
    /// (`eval::weight`): a huge group acting at once stops on the budget as its turns
    /// would, instead of copying for minutes.
    fn copy(&mut self, c: &Value) -> Value {
        FIGHT_STEPS.set(FIGHT_STEPS.get().saturating_add(weight(c)));
        c.deep_clone()
    }

    /// Landing costs what walking the turn's combatant does; past the fight's budget it
    /// is the rule error [`RuleErrorKind::TooManySteps`].
    fn land(&mut self, now: &mut Value, before: &Value, after: &Value, site: u32) -> Res<()> {
        let spent = FIGHT_STEPS.get().saturating_add(weight(after));
        FIGHT_STEPS.set(spent);
        if spent > MAX_FIGHT_STEPS {
            let max = MAX_FIGHT_STEPS;
            return Err(RuleError::new(site, RuleErrorKind::TooManySteps { max }));
        }
        let combatant = Ty::Record(self.def().combatant);
        land_value(self.prog, &combatant, None, now, before, after, site)
    }
}

/// Lands one turn's change of a value of type `ty` (a field of range `range`) on `now`,
/// as the runtime's rule says (`rulesc_runtime::fight::land`): records field by field,
/// maps keyed by a scale or enum entry by entry, numbers as changes, anything else whole.
/// Generated code lands the same places (`codegen::fight`, `land_value`).
fn land_value(
    prog: &Program,
    ty: &Ty,
    range: Option<(i64, i64)>,
    now: &mut Value,
    before: &Value,
    after: &Value,
    site: u32,
) -> Res<()> {
    match (ty, &mut *now, before, after) {
        (Ty::Int, Value::Int(n), Value::Int(b), Value::Int(a)) => match range {
            Some(range) => land::ranged(n, *b, *a, range, site)?,
            None => land::int(n, *b, *a),
        },
        (Ty::Record(r), Value::Record(n), Value::Record(b), Value::Record(a)) => {
            let (b, a) = (b.borrow(), a.borrow());
            let mut n = n.borrow_mut();
            for (i, f) in prog.records[*r].fields.iter().enumerate() {
                if let (Some(n), Some(b), Some(a)) = (n.get_mut(i), b.get(i), a.get(i)) {
                    land_value(prog, &f.ty, f.range, n, b, a, site)?;
                }
            }
        }
        (Ty::Map(_, v), Value::Map(n), Value::Map(b), Value::Map(a)) => {
            let n = Rc::make_mut(n);
            for ((n, b), a) in n.iter_mut().zip(b.iter()).zip(a.iter()) {
                land_value(prog, v, None, n, b, a, site)?;
            }
        }
        (_, n, b, a) => land::other(n, b, a),
    }
    Ok(())
}

/// Sets the place `path` under record `v` (keys from `keys`, in order) to `new`. An index
/// past its list (the list changed since the duration began) is the list's index rule
/// error, as `runtime::error::index_mut` gives it (generated code calls it), and nothing
/// is set.
fn reset(
    v: &mut Value,
    path: &[ResetStep],
    keys: &[i64],
    new: &Value,
) -> Result<(), RuleErrorKind> {
    let Some((first, rest)) = path.split_first() else {
        *v = new.clone();
        return Ok(());
    };
    let fits = "the checker builds a duration's reset path from the place's own steps, a key captured for each key or index";
    match (first, v, keys) {
        (ResetStep::Field(i), Value::Record(r), _) => match r.borrow_mut().get_mut(*i) {
            Some(slot) => reset(slot, rest, keys, new),
            None => unreachable!("field {i} past its record: {fits}"),
        },
        (ResetStep::Key, Value::Map(items), [k, more @ ..]) => {
            // Captured from a level or variant: every one has its entry.
            let items = Rc::make_mut(items);
            match usize::try_from(*k).ok().and_then(|i| items.get_mut(i)) {
                Some(slot) => reset(slot, rest, more, new),
                None => unreachable!("key {k} of a map keyed by a scale or enum: {fits}"),
            }
        }
        (ResetStep::Index, Value::List(items), [k, more @ ..]) => {
            let items = Rc::make_mut(items).as_mut_slice();
            let slot = rulesc_runtime::__private::error::index_mut(items, *k, 0);
            reset(slot.map_err(|e| e.kind)?, rest, more, new)
        }
        (step, v, keys) => unreachable!("{step:?} of {v:?} with keys {keys:?}: {fits}"),
    }
}

/// The fighter a fight built-in `q`'s operand names.
fn fighter_of(q: FightQuery, arg: Option<&Value>) -> Fighter {
    match arg {
        Some(Value::Fighter(f)) => Fighter(*f),
        other => unreachable!("{q:?} of {other:?}: the checker gives it a fighter"),
    }
}

/// A fighter's number as a timer captured it (from a fighter, so it fits).
fn fighter(x: i64) -> Fighter {
    Fighter(u32::try_from(x).unwrap_or_else(|_| {
        unreachable!("fighter {x}: a timer captures a fighter's number from a fighter")
    }))
}

#[cfg(test)]
mod tests;
