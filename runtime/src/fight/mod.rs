//! Fights as a process: combatants grouped in sides, rounds and turns in a declared
//! order, timers, triggers and the end of the fight.
//!
//! A [`Fight`] holds the combatants (any type `C`) and the engine's state. The rules come
//! from a [`FightRules`]: the turn-order key, who is out, the hooks, the scheduled actions
//! and the triggers. Generated code implements it with the ruleset's procedures; the
//! interpreter implements it by running the same procedures. Everything else (who acts
//! next, ties, acted markers, when timers and triggers fire, when the fight ends, the
//! trace lines of rounds and turns) is here, once, so the two backends agree by
//! construction.
//!
//! The order of one round (see [`Fight::step`]):
//! 1. the round number goes up, acted markers are cleared, timers due at the round's start
//!    fire, the `round start` hook runs;
//! 2. until every fighter not out has acted: every key is re-read, the highest key among
//!    those not out and not acted takes the next turn (ties: [`Ties`]; a group acting at
//!    once lands its changes together, see [`land`]); a turn fires the timers due at its
//!    start, runs the `turn` hook, fires the timers due at its end and runs the `turn end`
//!    hook;
//! 3. timers due at the round's end fire, the `round end` hook runs, world time advances
//!    by the round's length.
//!
//! After every hook and turn, triggers are checked, newly out fighters are traced, and
//! the fight ends when at most one side has a fighter not out.

use crate::dice::{self, DiceSpec};
use crate::env::Env;
use crate::error::{RuleError, RuleErrorKind};
use crate::trace::{TraceEvent, TraceSink};
use crate::{Decide, DiceSource, SmallList};
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

#[doc(hidden)]
pub mod land;
pub(crate) mod play;

/// One combatant of a fight: its index in [`Fight::combatants`], in the order joined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fighter(pub u32);

impl Fighter {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One side of a fight, numbered in the order sides were first named.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Side(pub u16);

impl Side {
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// How fighters with equal turn-order keys are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ties {
    /// They act simultaneously: each takes its turn in the order they joined, marked
    /// acted as its own turn begins; one put out by another's turn in the group still
    /// acts.
    Together,
    /// Each rolls the die (higher first); those still tied roll again, at most
    /// [`MAX_TIE_ROLLS`] times, then the order they joined.
    Roll(DiceSpec),
    /// The decision `name` picks who acts first among the tied, again for the rest.
    Decide(&'static str),
    /// They act at once: each member's turn runs, in the order they joined, from the
    /// combatants as they were before the group, and the changes land together after the
    /// last (see [`land`]).
    AtOnce,
}

/// Most rerolls of one tie before the order of joining settles it.
pub const MAX_TIE_ROLLS: u32 = 16;
/// Most timers and triggers fired at one check point, and timers and `on every` hooks
/// fired by one `advance`: one more is [`RuleErrorKind::TooManyFires`] (a rule that keeps
/// scheduling itself for "now" stops there, never silently).
pub const MAX_FIRES: u32 = 10_000;
/// Most `advance`s under way at once: an `advance` made while this many are running (a
/// hook or timer that `advance` runs moving world time again, and so on) is
/// [`RuleErrorKind::TooDeep`] instead of nesting deeper (a hook that moves world time
/// past its own next period would call itself until the stack ran out).
pub const MAX_ADVANCE_DEPTH: u32 = 8;

/// The hooks a fight can declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    Start,
    RoundStart,
    Turn,
    TurnEnd,
    RoundEnd,
    /// The `i`-th `on every <unit>` hook.
    Every(u16),
}

/// When a timer fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Moment {
    RoundStart(u32),
    RoundEnd(u32),
    /// The start of the fighter's `n`-th turn (1 = its first).
    TurnStart(Fighter, u32),
    TurnEnd(Fighter, u32),
    /// World time, in the fight's base unit.
    Time(i64),
}

/// What [`Fight::encode_engine_unclocked`] leaves out of a fight's encoding beside its
/// turns taken: the round, world time.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    pub round: bool,
    pub time: bool,
    /// The turns taken (always left out by [`Fight::encode_engine_unclocked`]).
    pub turns: bool,
}

/// What [`FightRules`] declares beside its functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightShape {
    pub ties: Ties,
    /// World time one round takes (0: rounds do not move the clock).
    pub round_length: i64,
    /// For each hook (`Start`, `RoundStart`, `Turn`, `TurnEnd`, `RoundEnd`): `None` if
    /// not declared, `Some(true)` if it runs once per fighter not out (in turn order).
    pub hooks: [Option<bool>; 5],
    /// The period of each `on every` hook and whether it runs per fighter.
    pub every: Cow<'static, [(i64, bool)]>,
    /// For each trigger: true if it is checked per fighter not out.
    pub triggers: Cow<'static, [bool]>,
    /// The site of the fight declaration (rounds, turns and the end are traced there).
    pub site: u32,
    /// The sites of each trigger's declaration.
    pub trigger_sites: Cow<'static, [u32]>,
    /// The timer actions that set themselves again when they fire (`every 3 rounds:`).
    pub repeats: Cow<'static, [Repeat]>,
}

/// A timer action that repeats: each time it falls due, its stop condition
/// ([`FightRules::stops`]) is asked first; if it holds, the timer ends there, unfired;
/// else it is set again one period after the moment it was due, then fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repeat {
    pub action: u32,
    pub every: Period,
    /// Where the `every` statement is (its stop is traced there).
    pub site: u32,
}

/// How often a repeating timer fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// At the start of every `n`-th round.
    Rounds(u32),
    /// Every `n` units of world time.
    Time(i64),
}

/// Most fighters a fight steps through without the engine allocating (with
/// [`crate::NoTrace`]): it keeps what one step lists (each fighter's turn-order key while
/// it looks for the next turn, the fighters of that turn, the sides still standing, the
/// fighters a per-fighter hook visits in order) inline up to this many. Past it those
/// lists move to the heap and the fight plays on the same ([`SmallList`]'s growth):
/// nothing is cut. The triggers' memory of what they last saw is inline too, up to 30
/// triggers at this many fighters. What the engine still allocates: a timer's arguments
/// when the rules schedule one (a `Vec` in [`Timer`]). What the rules allocate is theirs.
pub const FIGHTER_CAP: usize = 16;

/// A turn-order key ([`FightRules::key`]): the `order` formula's numbers, compared
/// element by element, highest first; inline up to 16 numbers, on the heap past them.
pub type Key = SmallList<i64, 16>;

/// The fighters of one turn ([`Step::Turn`]): one, or several acting together; inline up
/// to [`FIGHTER_CAP`].
pub type Group = SmallList<Fighter, FIGHTER_CAP>;

/// The rules of a fight: what generated code and the interpreter supply.
pub trait FightRules<C, D, X, T> {
    fn shape(&self) -> &FightShape;
    /// The turn-order key: compared element by element, highest first.
    fn key(&mut self, env: &mut Env<D, X, T>, fight: &mut Fight<C>, who: Fighter) -> Res<Key>;
    /// The fight's `out` rule.
    fn is_out(&mut self, env: &mut Env<D, X, T>, fight: &mut Fight<C>, who: Fighter) -> Res<bool>;
    /// Runs a declared hook (`who` for turn hooks and per-fighter hooks).
    fn hook(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<C>,
        hook: Hook,
        who: Option<Fighter>,
    ) -> Res<()>;
    /// Runs the scheduled action `action` with the arguments captured when it was set.
    fn fire(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<C>,
        action: u32,
        args: &[i64],
    ) -> Res<()>;
    /// Trigger `index`'s condition (for `who` when the trigger is per fighter).
    fn condition(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<C>,
        index: usize,
        who: Option<Fighter>,
    ) -> Res<bool>;
    /// Runs trigger `index`'s procedure.
    fn trigger(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<C>,
        index: usize,
        who: Option<Fighter>,
    ) -> Res<()>;
    /// Whether the repeating timer `action` (with the arguments captured when it was set)
    /// stops now: its `until` condition (false when it has none).
    fn stops(
        &mut self,
        env: &mut Env<D, X, T>,
        fight: &mut Fight<C>,
        action: u32,
        args: &[i64],
    ) -> Res<bool>;
    /// A copy of a combatant that shares nothing with it: what each turn of a group
    /// acting at once starts from ([`Ties::AtOnce`]).
    fn copy(&mut self, c: &C) -> C;
    /// Lands one turn of a group acting at once on combatant `now` (the changes landed
    /// so far), given the combatant `before` the group and `after` that turn: field by
    /// field, through [`land::int`], [`land::ranged`] and [`land::other`]. A rule error
    /// (a sum outside an `int(lo..hi)` field) is at `site`, not yet traced.
    fn land(&mut self, now: &mut C, before: &C, after: &C, site: u32) -> Res<()>;
}

/// What the rules' functions return: a rule error stops the fight.
pub type Res<T> = Result<T, RuleError>;

/// A pending timer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timer {
    pub at: Moment,
    pub action: u32,
    pub args: Vec<i64>,
    /// Scheduling order: timers due together fire in it.
    pub seq: u64,
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FightEnd {
    /// Only this side has fighters not out.
    Won(Side),
    /// No side has a fighter left.
    Draw,
    /// The round limit came first.
    Undecided,
    /// A rule error stopped the fight ([`Fight::rule_error`] says which).
    RuleError,
}

/// What one [`Fight::step`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// The `start` hook ran.
    Started,
    RoundStarted(u32),
    /// These fighters took their turn (more than one: simultaneously).
    Turn(Group),
    RoundEnded(u32),
    Ended(FightEnd),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    NotStarted,
    BetweenRounds,
    InRound,
    Ended(FightEnd),
}

/// A fight: its combatants, their sides and names, and the engine's state.
#[derive(Debug, Clone)]
pub struct Fight<C> {
    pub combatants: Vec<C>,
    names: Vec<String>,
    side_of: Vec<Side>,
    side_names: Vec<String>,
    round: u32,
    time: i64,
    /// World time up to which the `on every` hooks have run.
    every_done: i64,
    /// `advance`s under way (see [`MAX_ADVANCE_DEPTH`]).
    advancing: u32,
    acted: Vec<bool>,
    /// Turns begun per fighter (its current turn included).
    turns: Vec<u32>,
    /// Fighters whose turn is under way.
    acting: Vec<Fighter>,
    /// Every turn begun, in order, when asked for ([`Fight::log_turns`]).
    turn_log: Option<Vec<Fighter>>,
    timers: Vec<Timer>,
    seq: u64,
    /// While a group acts at once: the last timer set before it. Timers set since are
    /// held until its turns have landed.
    held_after: Option<u64>,
    /// While a group acts at once: each member and the number of its turn in the group,
    /// under way for everyone (see [`Fight::turn_moment`]).
    at_once: Vec<(Fighter, u32)>,
    /// Trigger conditions as last seen, one bit each: trigger `i` of `n` for slot `s`
    /// (0 fight-wide, `1 + fighter` per fighter) is bit `s * n + i`, so a fighter joining
    /// adds words at the end. Inline up to 8 words (16 fighters and 30 triggers): a fight
    /// within [`FIGHTER_CAP`] checks its triggers without allocating.
    seen: SmallList<u64, 8>,
    /// How many triggers `seen` is laid out for.
    seen_triggers: usize,
    /// Fighters already traced as out.
    traced_out: Vec<bool>,
    /// What the `out` rule said of each fighter while the fight is calm (see
    /// [`Fight::calm`]), with what it cost the rules to ask; emptied when a calm begins.
    out_seen: Vec<Option<(bool, u64)>>,
    calm: bool,
    phase: Phase,
    error: Option<RuleError>,
}

impl<C> Default for Fight<C> {
    fn default() -> Self {
        Fight {
            combatants: Vec::new(),
            names: Vec::new(),
            side_of: Vec::new(),
            side_names: Vec::new(),
            round: 0,
            time: 0,
            every_done: 0,
            advancing: 0,
            acted: Vec::new(),
            turns: Vec::new(),
            acting: Vec::new(),
            turn_log: None,
            timers: Vec::new(),
            seq: 0,
            held_after: None,
            at_once: Vec::new(),
            seen: SmallList::new(),
            seen_triggers: 0,
            traced_out: Vec::new(),
            out_seen: Vec::new(),
            calm: false,
            phase: Phase::NotStarted,
            error: None,
        }
    }
}

impl<C> core::ops::Index<Fighter> for Fight<C> {
    type Output = C;
    #[inline]
    fn index(&self, f: Fighter) -> &C {
        &self.combatants[f.index()]
    }
}

impl<C> core::ops::IndexMut<Fighter> for Fight<C> {
    #[inline]
    fn index_mut(&mut self, f: Fighter) -> &mut C {
        &mut self.combatants[f.index()]
    }
}

impl<C> Fight<C> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a combatant named `name` to side `side` (created when first named).
    pub fn join(&mut self, side: &str, name: &str, combatant: C) -> Fighter {
        let s = match self.side_names.iter().position(|n| n == side) {
            Some(i) => i,
            None => {
                self.side_names.push(side.into());
                self.side_names.len() - 1
            }
        };
        self.combatants.push(combatant);
        self.names.push(name.into());
        self.side_of.push(Side(s.min(usize::from(u16::MAX)) as u16));
        self.acted.push(false);
        self.turns.push(0);
        self.traced_out.push(false);
        // Room for every fighter's turn under way at once and for what `out` said of
        // each in a calm, made here so that stepping the fight does not allocate it.
        let n = self.combatants.len();
        self.acting.reserve(n.saturating_sub(self.acting.len()));
        self.out_seen.reserve(n.saturating_sub(self.out_seen.len()));
        Fighter((self.combatants.len() - 1) as u32)
    }

    /// Every fighter, in the order joined.
    pub fn fighters(&self) -> impl Iterator<Item = Fighter> + '_ {
        (0..self.combatants.len() as u32).map(Fighter)
    }

    pub fn len(&self) -> usize {
        self.combatants.len()
    }

    pub fn is_empty(&self) -> bool {
        self.combatants.is_empty()
    }

    /// The fighter's name (takes a `Fighter` or a `&Fighter`). Here and below, `f` is a
    /// fighter of this fight (one it gave): another is a bug of its caller, never a
    /// fighter with no name on side 0.
    pub fn name(&self, f: impl core::borrow::Borrow<Fighter>) -> &str {
        &self.names[f.borrow().index()]
    }

    pub fn side(&self, f: Fighter) -> Side {
        self.side_of[f.index()]
    }

    pub fn sides(&self) -> impl Iterator<Item = Side> + '_ {
        (0..self.side_names.len() as u16).map(Side)
    }

    /// The side's name (takes a `Side` or a `&Side`).
    pub fn side_name(&self, s: impl core::borrow::Borrow<Side>) -> &str {
        // A side of this fight (one it gave), as a fighter is.
        &self.side_names[s.borrow().index()]
    }

    /// The fighters of side `s`, in the order joined.
    pub fn members(&self, s: Side) -> impl Iterator<Item = Fighter> + '_ {
        self.fighters().filter(move |&f| self.side(f) == s)
    }

    /// Whether the fight is calm: the engine is only asking its formulas (the trigger
    /// conditions and the `out` rule, once a turn, hook or round is over), so nothing in
    /// the fight or its combatants changes until the calm ends (formulas change nothing).
    /// Meanwhile the rules may remember what `out` said ([`Fight::remember_out`]) instead
    /// of asking it again for every condition that counts a side.
    #[doc(hidden)]
    pub fn calm(&self) -> bool {
        self.calm
    }

    /// What the rules remembered `out` said of `f` in this calm, with the cost they gave
    /// it (the interpreter's steps; `None` outside a calm or when not asked yet).
    #[doc(hidden)]
    pub fn remembered_out(&self, f: Fighter) -> Option<(bool, u64)> {
        if !self.calm {
            return None;
        }
        self.out_seen.get(f.index()).copied().flatten()
    }

    /// Remembers what `out` said of `f`, and at what cost, for the rest of this calm
    /// (nothing outside a calm).
    #[doc(hidden)]
    pub fn remember_out(&mut self, f: Fighter, out: bool, cost: u64) {
        if let (true, Some(seen)) = (self.calm, self.out_seen.get_mut(f.index())) {
            *seen = Some((out, cost));
        }
    }

    /// A calm begins: nothing remembered yet.
    fn begin_calm(&mut self) {
        self.out_seen.clear();
        self.out_seen.resize(self.combatants.len(), None);
        self.calm = true;
    }

    fn end_calm(&mut self) {
        self.calm = false;
    }

    /// The current round (0 before the first).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// World time, in the fight's base unit.
    pub fn time(&self) -> i64 {
        self.time
    }

    /// The fighter has taken (or lost) its turn this round.
    pub fn acted(&self, f: Fighter) -> bool {
        self.acted[f.index()]
    }

    /// Marks the fighter's turn of this round as taken (a turn dissolved into waiting, a
    /// turn lost to surprise).
    #[doc(hidden)]
    pub fn mark_acted(&mut self, f: Fighter) {
        if let Some(a) = self.acted.get_mut(f.index()) {
            *a = true;
        }
    }

    /// The fighter's turn is under way.
    #[doc(hidden)]
    pub fn is_acting(&self, f: Fighter) -> bool {
        self.acting.contains(&f)
    }

    /// Turns the fighter has begun (its current one included).
    pub fn turns_taken(&self, f: Fighter) -> u32 {
        self.turns[f.index()]
    }

    /// Keeps, from now on, who began each turn, in order (interruptions' turns too):
    /// what a replayed worked example is held to. Off unless asked for.
    pub fn log_turns(&mut self) {
        self.turn_log.get_or_insert_with(Vec::new);
    }

    /// The turns begun since [`Fight::log_turns`], in order (empty if not asked for).
    pub fn turn_log(&self) -> &[Fighter] {
        self.turn_log.as_deref().unwrap_or(&[])
    }

    /// The pending timers, in scheduling order.
    pub fn timers(&self) -> &[Timer] {
        &self.timers
    }

    /// The rule error that stopped the fight, if one did.
    pub fn rule_error(&self) -> Option<&RuleError> {
        self.error.as_ref()
    }

    /// How the fight ended, once it has.
    pub fn ended(&self) -> Option<FightEnd> {
        match self.phase {
            Phase::Ended(e) => Some(e),
            _ => None,
        }
    }

    /// Schedules `action(args)` at `at`. A pending timer with the same action and
    /// arguments is replaced (no stacking: "its duration restarts").
    #[doc(hidden)]
    pub fn schedule(&mut self, at: Moment, action: u32, args: Vec<i64>) {
        self.timers
            .retain(|t| !(t.action == action && t.args == args));
        self.seq += 1;
        self.timers.push(Timer {
            at,
            action,
            args,
            seq: self.seq,
        });
    }

    /// The moment "the start/end of the next turn of `f`" (`next`), or of its turn under
    /// way if it is acting and `next` is false. While a group acts at once, every
    /// member's turn in it is under way (they act at once, whatever the order the engine
    /// runs them in): its next turn is the one after.
    #[doc(hidden)]
    pub fn turn_moment(&self, f: Fighter, end: bool, next: bool) -> Moment {
        let taken = self.turns_taken(f);
        let n = match self.at_once.iter().find(|(g, _)| *g == f) {
            Some(&(_, n)) if next => n.saturating_add(1),
            Some(&(_, n)) => n,
            None if !next && self.is_acting(f) => taken,
            None => taken.saturating_add(1),
        };
        if end {
            Moment::TurnEnd(f, n)
        } else {
            Moment::TurnStart(f, n)
        }
    }

    /// How a moment reads in traces: "the end of Bob's turn 2", "the start of round 3",
    /// "time 600".
    #[doc(hidden)]
    pub fn describe(&self, at: Moment) -> String {
        match at {
            Moment::RoundStart(r) => format!("the start of round {r}"),
            Moment::RoundEnd(r) => format!("the end of round {r}"),
            Moment::TurnStart(f, n) => format!("the start of {}'s turn {n}", self.name(f)),
            Moment::TurnEnd(f, n) => format!("the end of {}'s turn {n}", self.name(f)),
            Moment::Time(t) => format!("time {t}"),
        }
    }

    /// The moment "the start of round `round() + n`".
    #[doc(hidden)]
    pub fn rounds_later(&self, n: i64) -> Moment {
        let n = n.clamp(0, i64::from(u32::MAX)) as u32;
        Moment::RoundStart(self.round.saturating_add(n))
    }

    /// The moment `amount` units of world time from now.
    #[doc(hidden)]
    pub fn time_later(&self, amount: i64) -> Moment {
        Moment::Time(self.time.saturating_add(amount.max(0)))
    }

    /// Writes what the engine holds of the fight between two steps, as numbers: equal
    /// encodings of two fights with equal combatants mean they play on alike (what an
    /// exact analysis merges on). The phase, round, world time, acted markers, turns
    /// taken, pending timers (in scheduling order, without their sequence numbers: only
    /// their order matters), the triggers' last readings and who was traced out. Not
    /// written: the names and sides (fixed when the fighters joined) and what lives only
    /// inside a step (turns under way, a group acting at once, the calm's memory of
    /// `out`), which is empty between steps; nor the turn log.
    #[doc(hidden)]
    pub fn encode_engine(&self, out: &mut Vec<u64>) {
        self.encode_with(Clock::default(), out);
    }

    /// [`Fight::encode_engine`] less the fight's clock: the turns taken are left out and
    /// each timer's turn written from its fighter's turns taken; with `clock.round` the
    /// round too (timers' rounds written from it), with `clock.time` world time (timers'
    /// times, and how far the `on every` hooks have run, written from it). Two fights
    /// with equal encodings here and equal clocks ([`Fight::round`], [`Fight::time`],
    /// [`Fight::turns_taken`]) have equal [`Fight::encode_engine`]s; when the rules never
    /// read what is left out, they play on alike but for their clocks, shifted by the
    /// same amounts (what an exact analysis steps once for every round a state recurs
    /// in). Whether the round limit is reached is the caller's to add.
    #[doc(hidden)]
    pub fn encode_engine_unclocked(&self, clock: Clock, out: &mut Vec<u64>) {
        self.encode_with(
            Clock {
                turns: true,
                ..clock
            },
            out,
        );
    }

    fn encode_with(&self, clock: Clock, out: &mut Vec<u64>) {
        let (phase, end) = match self.phase {
            Phase::NotStarted => (0, 0),
            Phase::BetweenRounds => (1, 0),
            Phase::InRound => (2, 0),
            Phase::Ended(FightEnd::Won(s)) => (3, u64::from(s.0)),
            Phase::Ended(FightEnd::Draw) => (4, 0),
            Phase::Ended(FightEnd::Undecided) => (5, 0),
            Phase::Ended(FightEnd::RuleError) => (6, 0),
        };
        // What is left out reads as 0 and is taken from what refers to it: a bijection
        // for a given clock (wrapping), so no two fights meet.
        let round = if clock.round { self.round } else { 0 };
        let time = if clock.time { self.time } else { 0 };
        out.extend([
            phase,
            end,
            u64::from(self.round - round),
            self.time.wrapping_sub(time) as u64,
        ]);
        out.push(self.every_done.wrapping_sub(time) as u64);
        out.push(self.len() as u64);
        for f in 0..self.len() {
            let flags = u64::from(self.acted[f]) | u64::from(self.traced_out[f]) << 1;
            let turns = if clock.turns { 0 } else { self.turns[f] };
            out.push(flags | u64::from(turns) << 2);
        }
        let turns = |f: Fighter| match (clock.turns, self.turns.get(f.index())) {
            (true, Some(&n)) => i64::from(n),
            _ => 0,
        };
        let mut timers: Vec<&Timer> = self.timers.iter().collect();
        timers.sort_by_key(|t| t.seq);
        out.push(timers.len() as u64);
        for t in timers {
            let from = |r: u32| (i64::from(r) - i64::from(round)) as u64;
            let (kind, a, b) = match t.at {
                Moment::RoundStart(r) => (0, from(r), 0),
                Moment::RoundEnd(r) => (1, from(r), 0),
                Moment::TurnStart(f, n) => (2, u64::from(f.0), (i64::from(n) - turns(f)) as u64),
                Moment::TurnEnd(f, n) => (3, u64::from(f.0), (i64::from(n) - turns(f)) as u64),
                Moment::Time(at) => (4, at.wrapping_sub(time) as u64, 0),
            };
            out.extend([kind, a, b, u64::from(t.action), t.args.len() as u64]);
            out.extend(t.args.iter().map(|&x| x as u64));
        }
        out.push(self.seen_triggers as u64);
        // Words past the last set bit read as zeros: not written, so a fight whose
        // triggers grew its words and one whose did not encode alike.
        let words = self.seen.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        out.push(words as u64);
        out.extend(self.seen[..words].iter().copied());
    }

    fn end_with(&mut self, end: FightEnd) -> Step {
        self.phase = Phase::Ended(end);
        self.acting.clear();
        Step::Ended(end)
    }
}

#[cfg(test)]
mod tests;
