//! Checking the fight: the `fight of T { ... }` declaration, the `fighter` and `side`
//! types and the fight built-ins. Its statements in bodies (durations, scheduled calls,
//! `advance`) are checked in `timed.rs`.
//!
//! The declaration's expressions (`order(c) = ..`, `out(c) = ..`, each trigger's
//! condition) become formulas of their own, named so that no rule can call them
//! (`fight_order`, reserved); the backends call them through `ir::FightDef`.

use super::coerce::expect_ty;
use super::expr::expr;

use super::{err_expr, mk, FnCtx};
use crate::check::{Checker, DefKind};
use crate::diag::suggest;
use crate::ir::{self, ExprKind as K, FightQuery, FightTies, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

const ORDER: &str = "fight_order";
const OUT: &str = "fight_out";

fn when_name(i: usize) -> String {
    format!("fight_when_{}", i + 1)
}

fn ident(name: &str, span: Span) -> ast::Ident {
    ast::Ident {
        name: name.to_string(),
        span,
    }
}

fn fighter_param(var: &ast::Ident) -> ast::Param {
    ast::Param {
        name: var.clone(),
        ty: ast::TypeExpr {
            kind: ast::TypeKind::Named(ident("fighter", var.span)),
            span: var.span,
        },
    }
}

fn formula(name: &str, params: Vec<ast::Param>, body: &ast::Expr, span: Span) -> ast::Item {
    ast::Item::Function {
        name: ident(name, span),
        params,
        ret: None,
        body: ast::Body::Expr(body.clone()),
        span,
        overrides: false,
    }
}

/// The formulas the fight's clauses define (`order(c) = ..`, `out(c) = ..`, each
/// trigger's condition), to be declared with the ruleset's own.
pub fn formulas(items: &[ast::Item]) -> Vec<ast::Item> {
    let Some(def) = items.iter().find_map(|i| match i {
        ast::Item::Fight(f) => Some(f),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut whens = 0;
    // A second `order` or `out` clause defines nothing (`declare` reports it).
    let (mut order, mut out_rule) = (false, false);
    for clause in &def.clauses {
        match clause {
            ast::FightClause::Order { var, key, span } if !std::mem::replace(&mut order, true) => {
                out.push(formula(ORDER, vec![fighter_param(var)], key, *span));
            }
            ast::FightClause::Out { var, cond, span }
                if !std::mem::replace(&mut out_rule, true) =>
            {
                out.push(formula(OUT, vec![fighter_param(var)], cond, *span));
            }
            ast::FightClause::When {
                var, cond, span, ..
            } => {
                let params = var.iter().map(fighter_param).collect();
                out.push(formula(&when_name(whens), params, cond, *span));
                whens += 1;
            }
            _ => {}
        }
    }
    out
}

/// After names are declared, before bodies are checked: records the fight (its
/// combatant type and units of time, so `fighter`, durations and `advance` can be
/// checked in bodies).
pub fn declare(c: &mut Checker, items: &[ast::Item]) {
    let fights: Vec<&ast::FightDef> = items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Fight(f) => Some(f),
            _ => None,
        })
        .collect();
    let Some(def) = fights.first() else {
        return;
    };
    // For the editor's outline: `fight of Combatant`, named `fight` (from the keyword:
    // the item's span may start before it).
    let head = crate::source::Span {
        end: def.combatant.span.start,
        ..def.span
    };
    let keyword = c
        .prog
        .sources
        .slice(head)
        .rfind("fight")
        .map_or(def.span.start, |i| head.start + i as u32);
    c.index.define(
        crate::check::index::Key::Fight,
        crate::check::index::SymbolKind::Fight,
        None,
        crate::source::Span {
            start: keyword,
            end: def.combatant.span.end,
            ..def.span
        },
    );
    for extra in &fights[1..] {
        c.error(
            "E0350",
            extra.span,
            "a ruleset declares one fight",
            "a second `fight`",
            "merge the two declarations",
        );
    }
    let combatant = match c.names.get(&def.combatant.name).map(|d| d.kind) {
        Some(DefKind::Record(r)) => {
            c.used_at(&def.combatant.name, def.combatant.span);
            r
        }
        _ => {
            let cands: Vec<&str> = c
                .names
                .iter()
                .filter(|(_, d)| matches!(d.kind, DefKind::Record(_)))
                .map(|(n, _)| n.as_str())
                .collect();
            let help = suggest(&def.combatant.name, &cands, "record types");
            c.error(
                "E0303",
                def.combatant.span,
                format!("`{}` is not a record type", def.combatant.name),
                "the combatants' type",
                help,
            );
            return;
        }
    };
    // Units of world time: the first is the base, each other a multiple of one before.
    let mut units: Vec<(String, i64)> = Vec::new();
    for clause in &def.clauses {
        if let ast::FightClause::Time { units: us, .. } = clause {
            for (name, size) in us {
                if matches!(name.name.as_str(), "round" | "rounds" | "turn" | "turns")
                    || units.iter().any(|(n, _)| *n == name.name)
                {
                    c.error(
                        "E0351",
                        name.span,
                        format!("`{}` cannot name a unit of time here", name.name),
                        "taken",
                        "rounds are counted by the fight; give each unit its own name",
                    );
                    continue;
                }
                let n = match size {
                    None if units.is_empty() => 1,
                    None => {
                        c.error(
                            "E0351",
                            name.span,
                            format!("how long is a `{}`?", name.name),
                            "no size",
                            "only the first unit is the base; write `minute = 60 second`",
                        );
                        continue;
                    }
                    Some((k, of)) => match unit_size(&units, &of.name) {
                        Some(s) if *k > 0 => k.saturating_mul(s),
                        _ => {
                            let cands: Vec<&str> = units.iter().map(|(n, _)| n.as_str()).collect();
                            c.error(
                                "E0351",
                                of.span,
                                format!("`{}` is not a unit declared before", of.name),
                                "unknown unit",
                                suggest(&of.name, &cands, "units"),
                            );
                            continue;
                        }
                    },
                };
                units.push((name.name.clone(), n));
            }
        }
    }
    let site = c.site(Span {
        end: def.combatant.span.end,
        ..def.span
    });
    c.prog.fight = Some(ir::FightDef {
        combatant,
        order: usize::MAX,
        out: None,
        ties: FightTies::Together,
        round_length: 0,
        hooks: [None; 5],
        every: Vec::new(),
        triggers: Vec::new(),
        actions: Vec::new(),
        repeats: Vec::new(),
        units,
        site,
    });
    let has_order = def
        .clauses
        .iter()
        .any(|cl| matches!(cl, ast::FightClause::Order { .. }));
    twice(c, def);
    if !has_order {
        c.error(
            "E0351",
            def.span,
            "the fight has no turn order",
            "no `order(c) = ...`",
            "add `order(c) = [initiative(c)]`: the key the engine orders turns by, highest first",
        );
    }
}

/// A second `order(c) = ..` or `out(c) = ..` clause, named as the writer wrote it.
fn twice(c: &mut Checker, def: &ast::FightDef) {
    let (mut order, mut out) = (None, None);
    for clause in &def.clauses {
        let (first, what, var, span) = match clause {
            ast::FightClause::Order { var, span, .. } => (&mut order, "order", var, span),
            ast::FightClause::Out { var, span, .. } => (&mut out, "out", var, span),
            _ => continue,
        };
        let Some(at) = *first else {
            *first = Some(*span);
            continue;
        };
        let d = crate::diag::Diagnostic::error(
            "E0350",
            *span,
            format!("the fight's `{what}({})` is declared twice", var.name),
        )
        .label("second")
        .note(at, "first declared here")
        .help(format!("keep one `{what}(..) = ...` clause"));
        c.diags.push(d);
    }
}

pub(super) fn unit_size(units: &[(String, i64)], name: &str) -> Option<i64> {
    units
        .iter()
        .find(|(n, _)| n == name || format!("{n}s") == name)
        .map(|(_, s)| *s)
}

/// After every function is checked: the fight's clauses resolved to functions.
pub fn finish(c: &mut Checker, items: &[ast::Item]) {
    let Some(def) = items.iter().find_map(|i| match i {
        ast::Item::Fight(f) => Some(f),
        _ => None,
    }) else {
        return;
    };
    let fight_fns = ir::fight_functions(&c.prog);
    let Some(mut fd) = c.prog.fight.take() else {
        return;
    };
    let fid = |c: &Checker, name: &str| c.prog.functions.iter().position(|f| f.name == name);
    let list_int = Ty::List(Box::new(Ty::Int));
    if let Some(o) = fid(c, ORDER) {
        fd.order = o;
        let ret = c.prog.functions[o].ret.clone();
        if ret != list_int && ret != Ty::Error {
            let n = c.ty_name(&ret);
            c.error(
                "E0321",
                c.prog.functions[o].span,
                format!("the turn-order key is a list of numbers, this is {n}"),
                "the key",
                "write the key as a list, highest first: `order(c) = [initiative(c), c.reflexes]`",
            );
        }
        c.used(ORDER);
    }
    if let Some(o) = fid(c, OUT) {
        fd.out = Some(o);
        let ret = c.prog.functions[o].ret.clone();
        if ret != Ty::Bool && ret != Ty::Error {
            let n = c.ty_name(&ret);
            c.error(
                "E0321",
                c.prog.functions[o].span,
                format!("`out(c)` is a condition, this is {n}"),
                "not bool",
                "write when a combatant is out of the fight: `out(c) = c.hp <= 0`",
            );
        }
        c.used(OUT);
    }
    let mut whens = 0;
    for clause in &def.clauses {
        match clause {
            ast::FightClause::Ties { rule, span } => {
                fd.ties = match rule {
                    ast::TiesRule::Together => FightTies::Together,
                    ast::TiesRule::AtOnce => FightTies::AtOnce,
                    ast::TiesRule::Decide(name) => FightTies::Decide(name.name.clone()),
                    ast::TiesRule::Roll(e) => match &e.kind {
                        A::Dice(d) => FightTies::Roll(*d),
                        _ => {
                            c.error(
                                "E0351",
                                *span,
                                "ties are rolled with a die",
                                "not dice",
                                "write `ties roll d12`",
                            );
                            FightTies::Together
                        }
                    },
                };
            }
            ast::FightClause::RoundLasts { amount, unit, .. } => {
                match unit_size(&fd.units, &unit.name) {
                    Some(s) => fd.round_length = amount.saturating_mul(s),
                    None => unknown_unit(c, &fd, unit),
                }
            }
            ast::FightClause::Hook {
                hook,
                procedure,
                span,
            } => {
                let (slot, turn) = match hook {
                    ast::HookName::Start => (0, false),
                    ast::HookName::RoundStart => (1, false),
                    ast::HookName::Turn => (2, true),
                    ast::HookName::TurnEnd => (3, true),
                    ast::HookName::RoundEnd => (4, false),
                };
                if let Some((id, each)) =
                    hook_procedure(c, procedure, turn, *span, (&fight_fns, fd.combatant))
                {
                    if fd.hooks[slot].is_some() {
                        c.error(
                            "E0350",
                            *span,
                            "this hook is declared twice",
                            "second",
                            "call both procedures from one",
                        );
                    }
                    fd.hooks[slot] = Some((id, each));
                }
            }
            ast::FightClause::Every {
                amount,
                unit,
                procedure,
                span,
            } => {
                let Some(size) = unit_size(&fd.units, &unit.name) else {
                    unknown_unit(c, &fd, unit);
                    continue;
                };
                if *amount <= 0 {
                    c.error(
                        "E0351",
                        *span,
                        "a period is at least 1",
                        "here",
                        "write `on every minute = ...`",
                    );
                    continue;
                }
                if let Some((id, each)) =
                    hook_procedure(c, procedure, false, *span, (&fight_fns, fd.combatant))
                {
                    fd.every.push((amount.saturating_mul(size), id, each));
                }
            }
            ast::FightClause::When {
                var,
                procedure,
                span,
                ..
            } => {
                let name = when_name(whens);
                whens += 1;
                c.used(&name);
                let Some(cond) = fid(c, &name) else { continue };
                let ret = c.prog.functions[cond].ret.clone();
                if ret != Ty::Bool && ret != Ty::Error {
                    let n = c.ty_name(&ret);
                    c.error(
                        "E0321",
                        *span,
                        format!("a trigger's condition is a bool, this is {n}"),
                        "not bool",
                        "write a condition: `when(c) c.hp <= 0 = ...`",
                    );
                }
                if let Some((id, each)) = hook_procedure(
                    c,
                    procedure,
                    var.is_some(),
                    *span,
                    (&fight_fns, fd.combatant),
                ) {
                    if each != var.is_some() {
                        c.error(
                            "E0327",
                            procedure.span,
                            if each {
                                "this procedure takes a fighter, the trigger has none"
                            } else {
                                "a per-fighter trigger calls a procedure taking that fighter"
                            },
                            "parameters",
                            "`when(c) cond = p` calls `p(c: fighter)`; `when cond = p` calls `p()`",
                        );
                    }
                    let site = c.site(*span);
                    fd.triggers.push(ir::Trigger {
                        cond,
                        procedure: id,
                        per_fighter: var.is_some(),
                        site,
                    });
                }
            }
            _ => {}
        }
    }
    // An `on turn` clause whose procedure was refused has its own diagnostic.
    let turn_clause = def.clauses.iter().any(|cl| {
        matches!(
            cl,
            ast::FightClause::Hook {
                hook: ast::HookName::Turn,
                ..
            }
        )
    });
    if fd.hooks[2].is_none() && !turn_clause {
        c.error(
            "E0351",
            def.span,
            "the fight says nothing of what a turn is",
            "no `on turn = ...`",
            "add `on turn = take_turn` with `procedure take_turn(me: fighter) { ... }`",
        );
    }
    c.prog.fight = Some(fd);
}

fn unknown_unit(c: &mut Checker, fd: &ir::FightDef, unit: &ast::Ident) {
    let cands: Vec<&str> = fd.units.iter().map(|(n, _)| n.as_str()).collect();
    let help = if cands.is_empty() {
        "declare units of world time in the fight: `time second, minute = 60 second`".to_string()
    } else {
        suggest(&unit.name, &cands, "units")
    };
    c.error(
        "E0351",
        unit.span,
        format!("unknown unit of time `{}`", unit.name),
        "not a unit",
        help,
    );
}

/// A hook's procedure: `(id, takes a fighter)`. `turn` hooks must take one.
fn hook_procedure(
    c: &mut Checker,
    name: &ast::Ident,
    turn: bool,
    span: Span,
    (fight_fns, combatant): (&[bool], usize),
) -> Option<(usize, bool)> {
    let Some(DefKind::Function(id)) = c.names.get(&name.name).map(|d| d.kind) else {
        let cands: Vec<&str> = c
            .prog
            .functions
            .iter()
            .filter(|f| f.is_procedure())
            .map(|f| f.name.as_str())
            .collect();
        let help = suggest(&name.name, &cands, "procedures");
        c.error(
            "E0306",
            name.span,
            format!("unknown procedure `{}`", name.name),
            "not defined",
            help,
        );
        return None;
    };
    c.used(&name.name);
    let f = &c.prog.functions[id];
    let combatant = Some(Ty::Record(combatant));
    let each = match f.params.as_slice() {
        [] => false,
        [p] if p.ty == Ty::Fighter => true,
        // A procedure on one combatant's record, as it is in the fight.
        [p] if Some(&p.ty) == combatant.as_ref()
            && !fight_fns.get(id).copied().unwrap_or(false) =>
        {
            true
        }
        [p] if Some(&p.ty) == combatant.as_ref() => {
            c.error(
                "E0327",
                span,
                format!(
                    "`{}` uses the fight, so it takes the fighter, not its record",
                    name.name
                ),
                "its parameter",
                "declare the parameter `fighter`",
            );
            return None;
        }
        _ => {
            c.error(
                "E0327",
                span,
                format!("`{}` must take nothing or one fighter", name.name),
                "its parameters",
                "write `procedure p(me: fighter)` or `procedure p()`",
            );
            return None;
        }
    };
    if !f.is_procedure() {
        c.error(
            "E0324",
            name.span,
            format!("`{}` is a formula; a hook runs a procedure", name.name),
            "formula",
            "make it a `procedure`",
        );
        return None;
    }
    if turn && !each {
        c.error(
            "E0327",
            span,
            format!(
                "a turn hook takes the fighter whose turn it is: `{}(me: fighter)`",
                name.name
            ),
            "no fighter",
            "add a `fighter` parameter",
        );
        return None;
    }
    Some((id, each))
}

/// The type of `fighter` or `side` (an error without a fight).
pub fn named_type(c: &mut Checker, id: &ast::Ident) -> Option<Ty> {
    let ty = match id.name.as_str() {
        "fighter" => Ty::Fighter,
        "side" => Ty::Side,
        _ => return None,
    };
    if c.prog.fight.is_none() {
        c.error(
            "E0303",
            id.span,
            format!("`{}` needs a fight", id.name),
            "no fight declared",
            "declare the fight: `fight of Combatant { ... }`",
        );
        return Some(Ty::Error);
    }
    Some(ty)
}

/// A fighter read as its combatant (for fields and `Combatant` parameters).
pub(super) fn deref(x: ir::Expr, c: &Checker) -> ir::Expr {
    match (&x.ty, &c.prog.fight) {
        (Ty::Fighter, Some(fd)) => {
            let span = x.span;
            mk(K::Combatant(Box::new(x)), Ty::Record(fd.combatant), span)
        }
        _ => x,
    }
}

/// Whether `have` may stand for `want` by being a fighter of the fight's combatants.
pub(super) fn is_combatant_of(c: &Checker, have: &Ty, want: &Ty) -> bool {
    matches!((have, want, &c.prog.fight), (Ty::Fighter, Ty::Record(r), Some(fd)) if *r == fd.combatant)
}

/// A `list<fighter>` given where a list of the fight's combatants is expected becomes the
/// list of their combatants, as a fighter stands for its combatant: `[c for c in x]`
/// with each `c` read as the combatant (copies, as a list of records always is).
pub(super) fn combatants_of(c: &Checker, fcx: &mut FnCtx, x: ir::Expr, want: &Ty) -> ir::Expr {
    let (Ty::List(have), Ty::List(elem)) = (&x.ty, want) else {
        return x;
    };
    if !is_combatant_of(c, have, elem) {
        return x;
    }
    let span = x.span;
    let slot = fcx.hidden("fighter", Ty::Fighter);
    let item = mk(K::Local(slot), Ty::Fighter, span);
    let body = mk(K::Combatant(Box::new(item)), (**elem).clone(), span);
    let collect = K::Collect {
        var: slot,
        list: Box::new(x),
        cond: None,
        body: Box::new(body),
    };
    mk(collect, want.clone(), span)
}

/// A fight built-in call, if `name` is one and the ruleset has a fight (a function of
/// the ruleset with the same name wins).
pub(super) fn builtin(
    c: &mut Checker,
    fcx: &mut FnCtx,
    name: &ast::Ident,
    args: &[ast::Arg],
    span: Span,
) -> Option<ir::Expr> {
    let (q, _, arity) = FightQuery::ALL
        .iter()
        .copied()
        .find(|(_, n, _)| *n == name.name)?;
    if c.prog.fight.is_none()
        || matches!(
            c.names.get(&name.name).map(|d| d.kind),
            Some(DefKind::Function(_))
        )
    {
        return None;
    }
    if args.len() != arity {
        c.error(
            "E0327",
            span,
            format!(
                "`{}` takes {arity} argument{}, {} given",
                name.name,
                if arity == 1 { "" } else { "s" },
                args.len()
            ),
            "wrong number of arguments",
            format!("give `{}` {arity}", name.name),
        );
        return Some(err_expr(span));
    }
    if !through_engine(c, q, name) {
        return Some(err_expr(span));
    }
    if q == FightQuery::MarkActed && fcx.formula {
        c.error(
            "E0324",
            span,
            "a formula cannot change anything",
            "`mark_acted`",
            "call it from a procedure",
        );
    }
    let list = |t: Ty| Ty::List(Box::new(t));
    let (want, ty) = match q {
        FightQuery::Fighters => (None, list(Ty::Fighter)),
        FightQuery::Sides => (None, list(Ty::Side)),
        FightQuery::Round | FightQuery::Time => (None, Ty::Int),
        FightQuery::Enemies | FightQuery::Allies => (Some(Ty::Fighter), list(Ty::Fighter)),
        FightQuery::SideOf => (Some(Ty::Fighter), Ty::Side),
        FightQuery::Members => (Some(Ty::Side), list(Ty::Fighter)),
        FightQuery::Out | FightQuery::Acted => (Some(Ty::Fighter), Ty::Bool),
        FightQuery::InOrder => (Some(list(Ty::Fighter)), list(Ty::Fighter)),
        FightQuery::MarkActed => (Some(Ty::Fighter), Ty::Unit),
    };
    let mut xs = Vec::new();
    if let (Some(want), Some(a)) = (want, args.first()) {
        let x = expr(c, fcx, &a.value, Some(&want));
        expect_ty(c, &x, &want);
        xs.push(x);
    }
    Some(mk(K::Fight(q, xs), ty, span))
}

/// The fight's own formula built-in `q` runs: `out`, `allies` and `enemies` ask the `out`
/// rule, `in_order` the `order` key. Checked as a call is (E0330 when it closes a cycle:
/// `out(c) = len(enemies(c)) == 0` would ask itself forever); false then.
fn through_engine(c: &mut Checker, q: FightQuery, via: &ast::Ident) -> bool {
    let rule = match q {
        FightQuery::Out | FightQuery::Allies | FightQuery::Enemies => OUT,
        FightQuery::InOrder => ORDER,
        _ => return true,
    };
    let Some(DefKind::Function(f)) = c.names.get(rule).map(|d| d.kind) else {
        return true;
    };
    // Too deep to follow here: the rule is checked on its own, from the top.
    if c.fn_state[f] == 0 && c.fn_stack.len() >= super::MAX_CALL_DEPTH {
        return true;
    }
    if super::ensure_checked(c, f) {
        return true;
    }
    let start = c.fn_stack.iter().position(|&g| g == f).unwrap_or(0);
    let chain: Vec<String> = c.fn_stack[start..]
        .iter()
        .map(|&g| format!("`{}`", shown(c, g)))
        .collect();
    let rule = shown(c, f);
    let msg = format!(
        "a cycle of calls: {} calls `{}`, which asks the fight's `{rule}`",
        chain.join(" calls "),
        via.name
    );
    let def = c.prog.functions[f].span;
    let d = crate::diag::Diagnostic::error("E0330", via.span, msg)
        .label(format!("`{}` asks `{rule}`", via.name))
        .note(def, format!("`{rule}` is declared here"))
        .help("formulas and procedures may not call themselves, directly, through others or through the fight's built-ins");
    c.diags.push(d);
    false
}

/// Whether function `id` is the fight's `out` rule or `order` key, which the fight's
/// built-ins call.
pub(super) fn is_rule(c: &Checker, id: usize) -> bool {
    matches!(c.prog.functions[id].name.as_str(), ORDER | OUT)
}

/// Whether function `id` is a trigger's condition (`when(c) cond = p`).
pub(super) fn is_trigger(c: &Checker, id: usize) -> bool {
    c.prog.functions[id].name.starts_with("fight_when_")
}

/// What a fight clause's formula cannot do, said of the clause: `when(c) cond`,
/// `order(c)` or `out(c)` that rolls (`verb` "roll", `what` "roll dice") or decides
/// ("decide", "ask for a decision"), as message, label and help; `None` for any other
/// function, which gets a formula's message. (An `every`'s `until` is refused earlier,
/// in `repeat::stop_formula`.)
pub(super) fn clause_cannot(
    c: &Checker,
    id: usize,
    verb: &str,
    what: &str,
) -> Option<(String, &'static str, String)> {
    let clause = shown(c, id);
    let name = c.prog.functions[id].name.as_str();
    if is_trigger(c, id) {
        return Some((
            format!("a trigger's condition cannot {what}"),
            "read at every look the engine takes",
            format!("the engine reads the condition after every hook and turn, to see it turn true: {verb} in a hook's or turn's procedure, keep what it gives in a field, and let the condition read the field"),
        ));
    }
    let ties = if verb == "roll" {
        "ties roll d6"
    } else {
        "ties decide name"
    };
    match name {
        ORDER => Some((
            format!("the turn order `{clause}` cannot {what}"),
            "read before every turn",
            format!("the engine reads the key again before every turn: {verb} once in `on start` (or `on round start`, for each round), keep what it gives in a field, and let `{clause}` read the field; to settle only ties this way, write `{ties}`"),
        )),
        OUT => Some((
            format!("`{clause}` cannot {what}"),
            "read each time the engine asks who is still in",
            format!("the engine asks `{clause}` before every turn and hook and to end the fight: {verb} in a hook's or turn's procedure, keep what it gives in a field, and let `{clause}` read the field"),
        )),
        _ => None,
    }
}

/// A function as the writer names it: the fight's formulas by their clause
/// (`out(c)`, `order(c)`, `when(c) ...`).
pub(super) fn shown(c: &Checker, id: usize) -> String {
    let name = &c.prog.functions[id].name;
    let var = || match c.fn_syntax.get(id) {
        Some(ast::Item::Function { params, .. }) => params
            .first()
            .map_or(String::new(), |p| p.name.name.clone()),
        _ => String::new(),
    };
    match name.as_str() {
        ORDER => format!("order({})", var()),
        OUT => format!("out({})", var()),
        n if n.starts_with(super::repeat::STOP) => "the `until` of an `every`".to_string(),
        n if n.starts_with("fight_when_") => match var() {
            v if v.is_empty() => "when".to_string(),
            v => format!("when({v})"),
        },
        n => n.to_string(),
    }
}
