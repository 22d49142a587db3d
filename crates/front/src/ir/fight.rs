//! The fight in the IR: the fight declaration (turn order, ties, hooks, triggers,
//! timers and their actions), the fight built-ins, and which functions are fight
//! functions (they get the fight in generated code).

use super::{walk, Body, Const, Expr, ExprKind, Id, Param, Program, Stmt, Ty};
use rulesc_runtime::DiceSpec;
pub use rulesc_runtime::Period;

/// The fight built-ins. Only fight functions use them; all but `MarkActed` are pure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FightQuery {
    /// `fighters()`: every fighter, in the order joined (`list<fighter>`).
    Fighters,
    /// `enemies(c)`: fighters of other sides, not out.
    Enemies,
    /// `allies(c)`: fighters of `c`'s side but `c`, not out.
    Allies,
    /// `side(c)`: `c`'s side (`side`).
    SideOf,
    /// `members(s)`: the fighters of side `s`, out or not.
    Members,
    /// `sides()`: every side (`list<side>`).
    Sides,
    /// `out(c)`: the fight's `out` rule (`bool`).
    Out,
    /// `acted(c)`: `c` has taken (or lost) its turn this round.
    Acted,
    /// `round()`: the current round (`int`, 0 before the first).
    Round,
    /// `time()`: world time in the fight's base unit.
    Time,
    /// `in_order(l)`: the fighters of `l` by the turn-order key, highest first, equal
    /// keys in `l`'s order.
    InOrder,
    /// `mark_acted(c)`: `c`'s turn this round is taken (unit; procedures only).
    MarkActed,
}

impl FightQuery {
    /// The name writers call it by, and its number of operands.
    pub const ALL: [(FightQuery, &'static str, usize); 12] = [
        (FightQuery::Fighters, "fighters", 0),
        (FightQuery::Enemies, "enemies", 1),
        (FightQuery::Allies, "allies", 1),
        (FightQuery::SideOf, "side", 1),
        (FightQuery::Members, "members", 1),
        (FightQuery::Sides, "sides", 0),
        (FightQuery::Out, "out", 1),
        (FightQuery::Acted, "acted", 1),
        (FightQuery::Round, "round", 0),
        (FightQuery::Time, "time", 0),
        (FightQuery::InOrder, "in_order", 1),
        (FightQuery::MarkActed, "mark_acted", 1),
    ];

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(q, _, _)| *q == self)
            .map_or("", |(_, n, _)| n)
    }
}

/// When a timer fires (the moment is computed when the timer is set).
#[derive(Debug, Clone)]
pub enum At {
    /// The start of round `round() + n` (`for n rounds`, `start of next round`).
    RoundsLater(Expr),
    /// The end of the current round.
    RoundEnd,
    /// The start or end of a fighter's next turn (`next`), or of its turn under way.
    Turn { who: Expr, end: bool, next: bool },
    /// World time `amount` base units from now.
    TimeLater(Expr),
}

/// What a timer does when it fires.
#[derive(Debug, Clone)]
pub enum Action {
    /// Calls the procedure with the captured arguments (one per parameter, each an
    /// `int`, `bool`, choice, `fighter` or `side`, kept as an integer); traced at the
    /// scheduling statement's `site`.
    Call { function: Id, site: u32 },
    /// A duration ends: the place (under the combatant of the fighter captured first;
    /// each `Key`/`Index` step takes the next captured value) returns to `value`.
    Reset {
        path: Vec<ResetStep>,
        ty: Ty,
        value: Const,
        site: u32,
    },
}

/// A timer action that sets itself again (`every 3 rounds: p(..) until cond`): its
/// timer's captured arguments are the call's, then the stop condition's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeat {
    /// An [`Action::Call`].
    pub action: usize,
    pub every: Period,
    /// A formula giving `bool`, of the values the condition reads where the timer is set
    /// (each an `int`, `bool`, choice, `fighter` or `side`); `None`: it never stops.
    pub stop: Option<Id>,
    pub site: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetStep {
    Field(usize),
    Key,
    Index,
}

/// How fighters with equal keys are ordered (see `rulesc_runtime::Ties`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FightTies {
    Together,
    AtOnce,
    Roll(DiceSpec),
    Decide(String),
}

/// A trigger: `when(c) cond = procedure` (per fighter) or `when cond = procedure`.
#[derive(Debug, Clone)]
pub struct Trigger {
    /// A formula of `(c: fighter)` (per fighter) or of nothing, giving `bool`.
    pub cond: Id,
    pub procedure: Id,
    pub per_fighter: bool,
    pub site: u32,
}

/// The fight a ruleset declares (`fight of T { ... }`).
#[derive(Debug, Clone)]
pub struct FightDef {
    /// The combatants' record type.
    pub combatant: Id,
    /// A formula of `(c: fighter)` giving the turn-order key (`list<int>`).
    pub order: Id,
    /// A formula of `(c: fighter)` giving `bool`; `None`: no one is ever out.
    pub out: Option<Id>,
    pub ties: FightTies,
    /// World time one round takes (0: rounds do not move the clock).
    pub round_length: i64,
    /// For `start`, `round start`, `turn`, `turn end`, `round end`: the procedure and
    /// whether it takes a fighter (runs per fighter).
    pub hooks: [Option<(Id, bool)>; 5],
    /// `on every N unit`: the period in base units, the procedure, per fighter.
    pub every: Vec<(i64, Id, bool)>,
    pub triggers: Vec<Trigger>,
    /// Timer actions, indexed by `Stmt::Schedule::action`.
    pub actions: Vec<Action>,
    /// The timer actions that repeat (`every 3 rounds: p(..) until cond`).
    pub repeats: Vec<Repeat>,
    /// The units of world time: name and size in base units, base first.
    pub units: Vec<(String, i64)>,
    pub site: u32,
}

/// Which functions are fight functions: they take or hold a `fighter` or `side`, use a
/// fight built-in, set a timer, advance time, or call a fight function. Generated code
/// gives them the fight (`&mut Fight`, formulas `&Fight`).
pub fn fight_functions(p: &Program) -> Vec<bool> {
    fn touches(ty: &Ty) -> bool {
        match ty {
            Ty::Fighter | Ty::Side => true,
            Ty::List(t) | Ty::Map(_, t) | Ty::SortedMap(_, t) => touches(t),
            _ => false,
        }
    }
    fn stmts_touch(list: &[Stmt]) -> bool {
        list.iter().any(|s| match s {
            Stmt::Schedule { .. } | Stmt::Advance { .. } => true,
            Stmt::If {
                branches,
                otherwise,
            } => {
                branches.iter().any(|(_, b, _)| stmts_touch(b))
                    || otherwise.as_deref().is_some_and(stmts_touch)
            }
            Stmt::Match { arms, .. } => arms.iter().any(|a| stmts_touch(&a.body)),
            Stmt::For { body, .. } | Stmt::ForRange { body, .. } => stmts_touch(body),
            _ => false,
        })
    }
    let mut uses: Vec<bool> = p
        .functions
        .iter()
        .map(|f| {
            let mut found = f.locals.iter().any(|l| touches(&l.ty)) || touches(&f.ret);
            if let Body::Procedure(s) = &f.body {
                found |= stmts_touch(s);
            }
            found
        })
        .collect();
    let calls: Vec<Vec<Id>> = p
        .functions
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            walk::for_each_body_expr(f, &mut |e| collect_calls(e, &mut out));
            out
        })
        .collect();
    let direct: Vec<bool> = p
        .functions
        .iter()
        .map(|f| {
            let mut found = false;
            walk::for_each_body_expr(f, &mut |e| found |= expr_touches_fight(e));
            found
        })
        .collect();
    for (u, d) in uses.iter_mut().zip(direct) {
        *u |= d;
    }
    loop {
        let mut changed = false;
        for (i, cs) in calls.iter().enumerate() {
            if !uses[i] && cs.iter().any(|&c| uses[c]) {
                uses[i] = true;
                changed = true;
            }
        }
        if !changed {
            return uses;
        }
    }
}

fn collect_calls(e: &Expr, out: &mut Vec<Id>) {
    if let ExprKind::Call(f, _) = &e.kind {
        out.push(*f);
    }
    walk::for_each_child(e, &mut |x| collect_calls(x, out));
}

/// Whether `e` (or an expression inside it) reads the fight directly.
pub fn expr_touches_fight(e: &Expr) -> bool {
    if matches!(e.kind, ExprKind::Combatant(_) | ExprKind::Fight(..)) {
        return true;
    }
    let mut found = false;
    walk::for_each_child(e, &mut |x| found |= expr_touches_fight(x));
    found
}

/// Whether an argument is passed as a copy: a record read from a fight's state (not a
/// combatant itself) for a parameter the callee does not change. Both backends copy it,
/// so a procedure that also changes the fight sees the value as it was at the call.
pub fn copied_from_fight(arg: &Expr, param: &Param) -> bool {
    !param.mutated
        && matches!(param.ty, Ty::Record(_) | Ty::List(_) | Ty::Outcome(_))
        && !matches!(arg.kind, ExprKind::Combatant(_))
        && expr_touches_fight(arg)
}
