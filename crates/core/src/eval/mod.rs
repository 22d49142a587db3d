//! Backend: the reference interpreter. Runs a checked procedure with a dice source, a
//! decider and a trace sink from the runtime, exactly as generated code does: the same
//! runtime calls, in the same order, with the same trace events. The differential tests
//! hold the two to that.
//!
//! Every function runs on the core IR's VM (`crate::core_ir`). This module holds the
//! run-time values ([`Value`]), the entry points ([`call`], [`call_in`]) and the rules
//! the VM calls, each written once (`expr.rs`, `stmt.rs`, `effects.rs`, `lists.rs`: a
//! field read, an assignment through a path, a table looked up, a list ordered).

mod copy;
mod effects;
pub mod expr;
mod lists;
mod show;
mod stmt;
pub use stmt::{assign_value, update};

pub use copy::{privatize, weight};
pub use effects::{among_faces, die_segments, lookup, table_roll_faces};
pub use effects::{dice_steps, look_up, row_value, DIE_ROWS};
pub use effects::{fill_event, fill_track, option_label, track_levels};
pub use lists::ordered;
pub use show::{show, show_result, show_traced, show_traced_in};

use crate::ir::{self, Const, Program, Ty};
use rulesc_runtime::{
    __private::error, Decide, DiceSource, DiceSpec, Env, Faces, Fight, Roll, RuleError, TraceSink,
    Track,
};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A run-time value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Dice(DiceSpec),
    Roll(Roll),
    Choice(u16),
    Track(Track),
    /// A box of track `track`, 1-based `number`.
    TrackBox {
        track: usize,
        number: u16,
    },
    List(Rc<Vec<Value>>),
    Map(Rc<Vec<Value>>),
    /// A map keyed by anything but a scale or enum.
    SortedMap(Rc<SortedMap>),
    /// Shared, so a procedure changes the caller's combatant in place.
    Record(Rc<RefCell<Vec<Value>>>),
    Outcome {
        tag: u16,
        fields: Rc<[Value]>,
    },
    /// A combatant of the running fight (its index).
    Fighter(u32),
    /// A side of the running fight.
    Side(u16),
    /// The dice of a roll (a hidden local `faces(r)` reads).
    Faces(Rc<Faces>),
    /// `none`, of an optional type (a present value is the value itself).
    None,
    Unit,
}

/// A map keyed by anything but a scale or enum (`ir::Ty::SortedMap`): the keys held,
/// ascending by [`cmp_key`], each with its value; a key not held reads `zero`. A tree, so
/// that a key written below every other (a run counting down) costs a logarithm, not a
/// move of every entry.
#[derive(Debug, Clone, PartialEq)]
pub struct SortedMap {
    entries: BTreeMap<MapKey, Value>,
    pub zero: Value,
}

/// A key of a [`SortedMap`], ordered (and equal) by [`cmp_key`].
#[derive(Debug, Clone)]
struct MapKey(Value);

impl Ord for MapKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        cmp_key(&self.0, &other.0)
    }
}

impl PartialOrd for MapKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for MapKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for MapKey {}

impl SortedMap {
    /// The map holding `entries` (a key given twice keeps its last value), reading `zero`
    /// for any other key.
    pub fn new(entries: impl IntoIterator<Item = (Value, Value)>, zero: Value) -> Self {
        SortedMap {
            entries: entries.into_iter().map(|(k, v)| (MapKey(k), v)).collect(),
            zero,
        }
    }

    /// The value of `key`, or the zero.
    pub fn get(&self, key: &Value) -> &Value {
        // A lookup key is a clone of the value (for a record key, one more reference).
        self.entries.get(&MapKey(key.clone())).unwrap_or(&self.zero)
    }

    /// The value of `key` to change, added (a copy of the key, with the zero) when the
    /// map does not hold it.
    pub fn entry(&mut self, key: &Value) -> &mut Value {
        let zero = &self.zero;
        self.entries
            .entry(MapKey(key.deep_clone()))
            .or_insert_with(|| zero.deep_clone())
    }

    /// The keys held with their values, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter().map(|(k, v)| (&k.0, v))
    }

    /// How many keys it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The order of map keys, as `ir::cmp_key` orders constants (and generated code's derived
/// `Ord`): numbers, `false` before `true`, levels and variants as declared, records field
/// by field.
pub fn cmp_key(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Record(x), Value::Record(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.iter()
                .zip(y.iter())
                .map(|(p, q)| cmp_key(p, q))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        }
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.int().cmp(&b.int()),
    }
}

impl Value {
    #[inline]
    pub fn from_const(c: &Const) -> Value {
        match c {
            Const::Int(i) => Value::Int(*i),
            Const::Bool(b) => Value::Bool(*b),
            Const::Dice(d) => Value::Dice(*d),
            Const::Choice(i) => Value::Choice(*i),
            Const::Track(t) => Value::Track(*t),
            _ => Value::from_const_holding(c),
        }
    }

    /// [`Value::from_const`] of a constant that may hold others.
    fn from_const_holding(c: &Const) -> Value {
        match c {
            Const::Int(_)
            | Const::Bool(_)
            | Const::Dice(_)
            | Const::Choice(_)
            | Const::Track(_) => Value::from_const(c),
            Const::List(v) => Value::List(Rc::new(v.iter().map(Value::from_const).collect())),
            Const::Map(v) => Value::Map(Rc::new(v.iter().map(Value::from_const).collect())),
            Const::SortedMap(entries, zero) => Value::SortedMap(Rc::new(SortedMap::new(
                entries
                    .iter()
                    .map(|(k, v)| (Value::from_const(k), Value::from_const(v))),
                Value::from_const(zero),
            ))),
            Const::Record(v) => Value::Record(Rc::new(RefCell::new(
                v.fields.iter().map(Value::from_const).collect(),
            ))),
            Const::Opt(None) => Value::None,
            Const::Opt(Some(c)) => Value::from_const(c),
        }
    }

    /// The number a scalar stands for: an integer, a roll's total, a level's or
    /// variant's index, a truth as 0 or 1, a fighter's or side's index. No value
    /// (`Unit`: what analyze's engine reads of a piece whose path an enumeration cut off)
    /// reads 0: that path is counted unexplored, its result discarded.
    #[inline]
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            Value::Roll(r) => r.total,
            Value::Choice(i) => i64::from(*i),
            Value::Bool(b) => i64::from(*b),
            Value::Fighter(f) => i64::from(*f),
            Value::Side(s) => i64::from(*s),
            Value::Unit => 0,
            other => unreachable!(
                "the number of {other:?}: the checker's type rules read a number only of an int, roll, level, variant, truth, fighter or side"
            ),
        }
    }

    /// A truth. No value (`Unit`, a path cut off: see [`Value::int`]) reads `false`.
    #[inline]
    pub fn bool(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            Value::Unit => false,
            other => unreachable!(
                "the truth of {other:?}: the checker's type rules give a condition, `out` and a trigger's test the type bool"
            ),
        }
    }

    /// A level's or variant's index. No value (`Unit`, a path cut off: see
    /// [`Value::int`]) reads 0.
    #[inline]
    fn choice(&self) -> u16 {
        match self {
            Value::Choice(i) => *i,
            Value::Unit => 0,
            other => unreachable!(
                "the level of {other:?}: the checker's type rules key a map by level, and step or compare levels, only with a value of its scale or enum"
            ),
        }
    }

    /// Whether a copy of it must copy what it holds: a record, list or map.
    fn has_parts(&self) -> bool {
        matches!(
            self,
            Value::Record(_) | Value::List(_) | Value::Map(_) | Value::SortedMap(_)
        )
    }

    /// A copy that shares nothing mutable with `self`.
    pub fn deep_clone(&self) -> Value {
        match self {
            Value::Record(r) => Value::Record(Rc::new(RefCell::new(
                r.borrow().iter().map(Value::deep_clone).collect(),
            ))),
            Value::List(l) => Value::List(Rc::new(l.iter().map(Value::deep_clone).collect())),
            // A map keyed by a scale or enum holding records or lists is copied as a list
            // is; one of plain values stays shared (a write through a key copies it first).
            Value::Map(m) if m.iter().any(Value::has_parts) => {
                Value::Map(Rc::new(m.iter().map(Value::deep_clone).collect()))
            }
            Value::SortedMap(m) => Value::SortedMap(Rc::new(SortedMap::new(
                m.iter().map(|(k, v)| (k.deep_clone(), v.deep_clone())),
                m.zero.deep_clone(),
            ))),
            other => other.clone(),
        }
    }
}

/// How a run is traced, past what every backend traces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Trace inside formulas as well ([`TraceEvent::Step`] for arguments and `if`
    /// conditions; calls, lookups and results as for procedures). Generated code never
    /// does: a trace with it is the interpreter's own.
    pub trace_formulas: bool,
}

/// Most steps one run of the interpreter takes: each statement, loop turn, call and
/// item of a comprehension is one, and each value copied (a `let` of a record, a list
/// appended, a constant) one more per value in it. Past it the run stops with
/// [`RuleErrorKind::TooManySteps`], so nested loops, fan-out through calls and values
/// doubled by appending are all bounded in time and memory. Generated code has no such
/// budget: the rules always end, and a run within the budget gives the same result.
pub const MAX_STEPS: u64 = 1_000_000;

/// Calls function `id` with `args` (one per parameter: a `Vec`, or an array, which costs
/// no allocation). Records passed in are changed in place when the function changes their
/// state. A rule error stops the run (state changed before it stays changed) and is
/// returned, as generated code returns it.
pub fn call<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
) -> Result<Value, RuleError> {
    run(prog, env, None, id, args, Options::default())
}

/// [`call`], traced as `options` say.
pub fn call_with<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
    options: Options,
) -> Result<Value, RuleError> {
    run(prog, env, None, id, args, options)
}

/// [`call_with`] in a fight: fighters in `args` (and everything the function reaches)
/// are combatants of `fight`.
pub fn call_in<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    fight: &mut Fight<Value>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
    options: Options,
) -> Result<Value, RuleError> {
    run(prog, env, Some(fight), id, args, options)
}

/// A traced run of function `id`, in `fight` when there is one: what [`call`] and
/// [`call_in`] share.
fn run<D: DiceSource, X: Decide, T: TraceSink>(
    prog: &Program,
    env: &mut Env<D, X, T>,
    fight: Option<&mut Fight<Value>>,
    id: ir::Id,
    args: impl IntoIterator<Item = Value>,
    options: Options,
) -> Result<Value, RuleError> {
    let may_stop = env.dice.may_stop();
    let site = prog.functions.get(id).map_or(0, |f| f.site);
    let module = crate::core_ir::module(prog);
    let how = (may_stop, options.trace_formulas);
    let Some(fight) = fight else {
        return crate::core_ir::vm::run(prog, module, id, env, None, args, how).0;
    };
    // A fight's calls share its budget as well.
    let fail = |env: &mut Env<D, X, T>, kind| {
        let e = RuleError::new(site, kind);
        match T::ENABLED {
            true => error::fail(&mut env.trace, e),
            false => e,
        }
    };
    if let Err(kind) = crate::fight::budget_left() {
        return Err(fail(env, kind));
    }
    let (result, steps) = crate::core_ir::vm::run(prog, module, id, env, Some(fight), args, how);
    match crate::fight::steps_taken(steps, result.is_ok()) {
        Err(kind) => Err(fail(env, kind)),
        Ok(()) => result,
    }
}

/// Decision names are `&'static str` in the runtime's `Decide` trait (generated code
/// passes literals). The interpreter interns them once per distinct name.
pub fn leak_name(name: &str) -> &'static str {
    thread_local! {
        static NAMES: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    }
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        if let Some(s) = n.iter().find(|s| **s == name) {
            return *s;
        }
        let s: &'static str = Box::leak(name.to_string().into_boxed_str());
        n.push(s);
        s
    })
}

/// The ruleset of `yaml` (its `ruleset.yaml`) and one `.rules` file holding `rules`,
/// checked: the programs the interpreter's unit tests run.
#[cfg(test)]
pub fn test_program(yaml: &str, rules: &str) -> Program {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("ruleset.yaml"), yaml).expect("ruleset.yaml written");
    std::fs::write(dir.path().join("test.rules"), rules).expect("test.rules written");
    let (p, diags, _) = crate::compile_dir(dir.path());
    p.unwrap_or_else(|| panic!("does not check: {:?}", diags.items))
}

/// A record of type `type_name` with its defaults, and `fields` set by name (for tests
/// and tools that build arguments by hand). `None` if a name is unknown.
pub fn record(p: &Program, type_name: &str, fields: &[(&str, Value)]) -> Option<Value> {
    let rid = p.records.iter().position(|r| r.name == type_name)?;
    let v = Value::from_const(&p.zero(&Ty::Record(rid)));
    for (name, value) in fields {
        set_field(p, type_name, &v, name, value.clone())?;
    }
    Some(v)
}

/// Field `name` of records of type `type_name`, found once: for a host that reads or sets
/// one field of many records (what [`field`] and [`set_field`] look up by name each time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldRef(usize);

impl FieldRef {
    /// `None` if the program has no such record type or field.
    pub fn new(p: &Program, type_name: &str, name: &str) -> Option<Self> {
        let t = p.records.iter().find(|r| r.name == type_name)?;
        t.fields.iter().position(|f| f.name == name).map(FieldRef)
    }

    /// The field of record `v` (`None` if `v` is not a record with it).
    pub fn get(self, v: &Value) -> Option<Value> {
        let Value::Record(r) = v else { return None };
        let value = r.borrow().get(self.0).cloned();
        value
    }

    /// Sets the field of record `v` (`None` if `v` is not a record with it).
    pub fn set(self, v: &Value, value: Value) -> Option<()> {
        let Value::Record(r) = v else { return None };
        *r.borrow_mut().get_mut(self.0)? = value;
        Some(())
    }
}

/// Reads field `name` of a record of type `type_name`.
pub fn field(p: &Program, type_name: &str, v: &Value, name: &str) -> Option<Value> {
    FieldRef::new(p, type_name, name)?.get(v)
}

/// Sets field `name` of a record of type `type_name`.
pub fn set_field(p: &Program, type_name: &str, v: &Value, name: &str, value: Value) -> Option<()> {
    FieldRef::new(p, type_name, name)?.set(v, value)
}

/// A choice value by variant name (`choice(p, "DamageLevel", "Minor")`).
pub fn choice(p: &Program, choice: &str, variant: &str) -> Option<Value> {
    let c = p.choices.iter().find(|c| c.name == choice)?;
    c.variants
        .iter()
        .position(|v| v.name == variant)
        .map(|i| Value::Choice(i as u16))
}
