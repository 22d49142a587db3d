//! The fight in generated code: the `Fight` type, the `Rules` that plug the ruleset's
//! procedures into the runtime's engine, and the specialization that lets procedures
//! taking combatant records be called with fighters.
//!
//! A procedure taking `attacker: Combatant` borrows a record (`&mut Combatant`); two
//! fighters of one fight cannot both be borrowed that way. So wherever a call passes a
//! fighter for a combatant parameter, the callee is compiled again with that parameter a
//! fighter (a handle: every read and change goes through `fight[attacker]`), under a new
//! name. Both names then stand for one combatant in the fight when the same fighter is
//! passed twice, exactly as in the interpreter, where records are shared.

use super::ident::lit;
use super::types::dice_expr;
use super::{Gen, RT};
use crate::ir::{
    self, Action, Body, Expr, ExprKind as K, FightTies, Function, Program, ResetStep, Stmt, Ty,
};
use codegen::Scope;
use std::collections::HashMap;

/// `p` with specialized copies of the functions that receive fighters for combatant
/// parameters, and those calls pointed at them.
pub(super) fn specialize(p: &Program) -> Program {
    let mut p = p.clone();
    let Some(combatant) = p.fight.as_ref().map(|f| f.combatant) else {
        return p;
    };
    let mut made: HashMap<(usize, Vec<usize>), usize> = HashMap::new();
    let mut i = 0;
    while i < p.functions.len() {
        let mut f = p.functions[i].clone();
        let mut requests = Vec::new();
        visit_calls(&f, &mut |fid, args| requests.push((fid, args.to_vec())));
        // Resolve each call: which parameters get a fighter.
        let mut targets: HashMap<(usize, Vec<usize>), usize> = HashMap::new();
        for (fid, args) in requests {
            let mask: Vec<usize> = args
                .iter()
                .enumerate()
                .filter(|(j, a)| {
                    matches!(a.kind, K::Combatant(_))
                        && p.functions[fid]
                            .params
                            .get(*j)
                            .is_some_and(|q| q.ty == Ty::Record(combatant))
                })
                .map(|(j, _)| j)
                .collect();
            if mask.is_empty() {
                continue;
            }
            let key = (fid, mask.clone());
            let id = match made.get(&key) {
                Some(&id) => id,
                None => {
                    let id = p.functions.len();
                    let copy = fighter_copy(&p.functions[fid], &mask);
                    p.functions.push(copy);
                    made.insert(key.clone(), id);
                    id
                }
            };
            targets.insert(key, id);
        }
        if !targets.is_empty() {
            let fns = p.functions.clone();
            retarget(&mut f, &fns, combatant, &targets);
            p.functions[i] = f;
        }
        i += 1;
    }
    p
}

/// Calls `g` on every call in `f`'s body (its callee and arguments).
fn visit_calls(f: &Function, g: &mut dyn FnMut(usize, &[Expr])) {
    let mut exprs = Vec::new();
    crate::ir::walk::for_each_body_expr(f, &mut |e| exprs.push(e.clone()));
    fn go(e: &Expr, g: &mut dyn FnMut(usize, &[Expr])) {
        if let K::Call(fid, args) = &e.kind {
            g(*fid, args);
        }
        crate::ir::walk::for_each_child(e, &mut |x| go(x, g));
    }
    for e in &exprs {
        go(e, g);
    }
}

/// `f` with parameters `mask` (and the locals bound to them by `let x = param`) made
/// fighters: their reads become `Combatant(param)`.
fn fighter_copy(f: &Function, mask: &[usize]) -> Function {
    let mut f = f.clone();
    let names: Vec<&str> = mask.iter().map(|&i| f.params[i].name.as_str()).collect();
    f.name = format!("{}_with_fighters_{}", f.name, names.join("_"));
    let mut slots: Vec<usize> = mask.to_vec();
    if let Body::Procedure(stmts) = &f.body {
        let_aliases(stmts, &mut slots);
    }
    for &s in &slots {
        f.locals[s].ty = Ty::Fighter;
        if let Some(p) = f.params.get_mut(s) {
            p.ty = Ty::Fighter;
        }
    }
    match &mut f.body {
        Body::Formula(e) => deref_slots(e, &slots),
        Body::Procedure(stmts) => stmts
            .iter_mut()
            .for_each(|s| stmt_exprs(s, &mut |e| deref_slots(e, &slots))),
    }
    f
}

/// Locals bound by `let x = y` with `y` among `slots` join them (records are shared).
fn let_aliases(stmts: &[Stmt], slots: &mut Vec<usize>) {
    for s in stmts {
        match s {
            Stmt::Let { slot, value, .. } => {
                if let K::Local(y) = value.kind {
                    if slots.contains(&y) && !slots.contains(slot) {
                        slots.push(*slot);
                    }
                }
            }
            Stmt::If {
                branches,
                otherwise,
            } => {
                branches.iter().for_each(|(_, b, _)| let_aliases(b, slots));
                otherwise.iter().for_each(|o| let_aliases(o, slots));
            }
            Stmt::Match { arms, .. } => arms.iter().for_each(|a| let_aliases(&a.body, slots)),
            Stmt::For { body, .. } | Stmt::ForRange { body, .. } => let_aliases(body, slots),
            _ => {}
        }
    }
}

/// Every `Local(s)` with `s` in `slots` read as a record becomes `Combatant(Local(s))`;
/// `let x = s` keeps the fighter.
fn deref_slots(e: &mut Expr, slots: &[usize]) {
    if let K::Local(s) = e.kind {
        if slots.contains(&s) {
            let inner = Expr {
                kind: K::Local(s),
                ty: Ty::Fighter,
                span: e.span,
            };
            e.kind = K::Combatant(Box::new(inner));
        }
        return;
    }
    crate::ir::walk::for_each_child_mut(e, &mut |x| deref_slots(x, slots));
}

/// Calls `g` on each top-level expression of a statement (nested statements walked),
/// `let x = <local>` excepted where the local is a fighter slot (it stays a fighter).
fn stmt_exprs(s: &mut Stmt, g: &mut dyn FnMut(&mut Expr)) {
    match s {
        Stmt::Let { value, .. } => {
            if !matches!(value.kind, K::Local(_)) {
                g(value)
            }
        }
        Stmt::Expr(value) => g(value),
        Stmt::Assign { place, value, .. } => {
            place_exprs(place, g);
            g(value);
        }
        Stmt::If {
            branches,
            otherwise,
        } => {
            for (c, b, _) in branches {
                g(c);
                b.iter_mut().for_each(|s| stmt_exprs(s, g));
            }
            if let Some(o) = otherwise {
                o.iter_mut().for_each(|s| stmt_exprs(s, g));
            }
        }
        Stmt::Match { scrutinee, arms } => {
            g(scrutinee);
            arms.iter_mut()
                .for_each(|a| a.body.iter_mut().for_each(|s| stmt_exprs(s, g)));
        }
        Stmt::For { list, body, .. } => {
            g(list);
            body.iter_mut().for_each(|s| stmt_exprs(s, g));
        }
        Stmt::ForRange { lo, hi, body, .. } => {
            g(lo);
            g(hi);
            body.iter_mut().for_each(|s| stmt_exprs(s, g));
        }
        Stmt::Return { value, .. } => {
            if let Some(v) = value {
                g(v)
            }
        }
        Stmt::Schedule { at, args, .. } => {
            if let ir::At::RoundsLater(e) | ir::At::TimeLater(e) | ir::At::Turn { who: e, .. } = at
            {
                g(e);
            }
            args.iter_mut().for_each(&mut *g);
        }
        Stmt::Advance { amount, .. } => g(amount),
    }
}

fn place_exprs(place: &mut ir::Place, g: &mut dyn FnMut(&mut Expr)) {
    for st in &mut place.path {
        if let ir::PlaceStep::Key(k) | ir::PlaceStep::Index(k) = st {
            g(k);
        }
    }
}

/// Points the calls of `f` that pass fighters for combatant parameters at their
/// specialized callees (`targets`), passing the fighters themselves.
fn retarget(
    f: &mut Function,
    fns: &[Function],
    combatant: usize,
    targets: &HashMap<(usize, Vec<usize>), usize>,
) {
    fn go(
        e: &mut Expr,
        fns: &[Function],
        combatant: usize,
        targets: &HashMap<(usize, Vec<usize>), usize>,
    ) {
        crate::ir::walk::for_each_child_mut(e, &mut |x| go(x, fns, combatant, targets));
        let K::Call(fid, args) = &mut e.kind else {
            return;
        };
        let mask: Vec<usize> = args
            .iter()
            .enumerate()
            .filter(|(j, a)| {
                matches!(a.kind, K::Combatant(_))
                    && fns[*fid]
                        .params
                        .get(*j)
                        .is_some_and(|q| q.ty == Ty::Record(combatant))
            })
            .map(|(j, _)| j)
            .collect();
        let Some(&id) = targets.get(&(*fid, mask.clone())) else {
            return;
        };
        *fid = id;
        for j in mask {
            if let K::Combatant(inner) = &args[j].kind {
                args[j] = (**inner).clone();
            }
        }
    }
    let mut all = |e: &mut Expr| go(e, fns, combatant, targets);
    match &mut f.body {
        Body::Formula(e) => all(e),
        Body::Procedure(stmts) => stmts.iter_mut().for_each(|s| stmt_exprs_all(s, &mut all)),
    }
}

/// Like [`stmt_exprs`] but every expression, `let x = local` included.
fn stmt_exprs_all(s: &mut Stmt, g: &mut dyn FnMut(&mut Expr)) {
    if let Stmt::Let { value, .. } = s {
        g(value);
        return;
    }
    stmt_exprs(s, g)
}

impl Gen<'_> {
    /// `pub type Fight`, `pub struct Rules` and its `FightRules` implementation.
    pub(super) fn fight_items(&self, scope: &mut Scope) -> Result<(), String> {
        let Some(d) = &self.p.fight else {
            return Ok(());
        };
        let c = &self.id.record[d.combatant];
        scope.raw(format!(
            "/// A fight of `{c}`s under this ruleset's rules (`fight of {}`).\npub type Fight = {RT}::Fight<{c}>;",
            self.p.records[d.combatant].name
        ));
        scope.raw(
            "/// The fight's rules, for `Fight::run`, `Fight::step` and `Fight::advance`.\n#[derive(Debug, Clone, Copy, Default)]\npub struct Rules;",
        );
        let ties = match &d.ties {
            FightTies::Together => format!("{RT}::Ties::Together"),
            FightTies::AtOnce => format!("{RT}::Ties::AtOnce"),
            FightTies::Roll(die) => format!("{RT}::Ties::Roll({})", dice_expr(*die)),
            FightTies::Decide(name) => format!("{RT}::Ties::Decide({})", lit(name)),
        };
        let hooks: Vec<String> = d
            .hooks
            .iter()
            .map(|h| match h {
                None => "None".to_string(),
                Some((_, each)) => format!("Some({each})"),
            })
            .collect();
        let every: Vec<String> = d
            .every
            .iter()
            .map(|(period, _, each)| format!("({period}, {each})"))
            .collect();
        let triggers: Vec<String> = d
            .triggers
            .iter()
            .map(|t| t.per_fighter.to_string())
            .collect();
        let trigger_sites: Vec<String> = d.triggers.iter().map(|t| t.site.to_string()).collect();
        let repeats: Vec<String> = d
            .repeats
            .iter()
            .map(|r| {
                let every = match r.every {
                    ir::Period::Rounds(n) => format!("{RT}::Period::Rounds({n})"),
                    ir::Period::Time(n) => format!("{RT}::Period::Time({n})"),
                };
                format!(
                    "{RT}::Repeat {{ action: {}, every: {every}, site: {} }}",
                    r.action, r.site
                )
            })
            .collect();
        scope.raw(format!(
            "static FIGHT_SHAPE: {RT}::FightShape = {RT}::FightShape {{ ties: {ties}, round_length: {}, hooks: [{}], every: {RT}::__private::Cow::Borrowed(&[{}]), triggers: {RT}::__private::Cow::Borrowed(&[{}]), site: {}, trigger_sites: {RT}::__private::Cow::Borrowed(&[{}]), repeats: {RT}::__private::Cow::Borrowed(&[{}]) }};",
            d.round_length,
            hooks.join(", "),
            every.join(", "),
            triggers.join(", "),
            d.site,
            trigger_sites.join(", "),
            repeats.join(", "),
        ));
        // The order's key as the runtime keeps it (`fight::Key`, inline: no allocation).
        let key = format!("{RT}::fight::Key::from_slice(&k)");
        let order = match self.small_list_ty(&self.p.functions[d.order].ret)? {
            Some(_) if self.p.functions[d.order].fallible => {
                format!("{}.map(|k| {key})", self.call_text(d.order, "who"))
            }
            Some(_) => format!(
                "Ok({RT}::fight::Key::from_slice(&{}))",
                self.call_text(d.order, "who")
            ),
            None => format!("{}.map(|k| {key})", self.value_call(d.order, "who")),
        };
        let out = match d.out {
            Some(o) => self.value_call(o, "who"),
            None => "Ok(false)".into(),
        };
        let mut hook_arms = Vec::new();
        let names = ["Start", "RoundStart", "Turn", "TurnEnd", "RoundEnd"];
        for (h, name) in d.hooks.iter().zip(names) {
            if let Some((id, each)) = h {
                let pat = if *each || matches!(name, "Turn" | "TurnEnd") {
                    "Some(who)"
                } else {
                    "None"
                };
                hook_arms.push(format!(
                    "({RT}::Hook::{name}, {pat}) => {{ {} }}",
                    self.run_call(*id, "who")
                ));
            }
        }
        for (i, (_, id, each)) in d.every.iter().enumerate() {
            let pat = if *each { "Some(who)" } else { "None" };
            hook_arms.push(format!(
                "({RT}::Hook::Every({i}), {pat}) => {{ {} }}",
                self.run_call(*id, "who")
            ));
        }
        let mut fire_arms = Vec::new();
        for (i, a) in d.actions.iter().enumerate() {
            fire_arms.push(format!("{i} => {{ {} }}", self.fire_arm(a)?));
        }
        let mut cond_arms = Vec::new();
        let mut trigger_arms = Vec::new();
        for (i, t) in d.triggers.iter().enumerate() {
            let pat = if t.per_fighter { "Some(who)" } else { "None" };
            cond_arms.push(format!(
                "({i}, {pat}) => {},",
                self.value_call(t.cond, "who")
            ));
            trigger_arms.push(format!(
                "({i}, {pat}) => {{ {} }}",
                self.run_call(t.procedure, "who")
            ));
        }
        let mut stop_arms = Vec::new();
        for r in &d.repeats {
            if let Some(arm) = self.stop_arm(r)? {
                stop_arms.push(arm);
            }
        }
        // The engine lands turns only for ties at once: another fight's `land` is never
        // called, and its whole record stands for its fields.
        let land = match d.ties {
            FightTies::AtOnce => self.land_fields(d.combatant),
            _ => format!(
                "// Only a fight whose ties act at once lands turns.\n{RT}::__private::land::other(now, before, after);"
            ),
        };
        let env = format!("&mut {RT}::Env<D, X, T>");
        let res = |t: &str| format!("::core::result::Result<{t}, {RT}::RuleError>");
        // (`fire` and `trigger` of a fight with no action or trigger: every arm is the
        // `unreachable!`, and the `Ok(())` after it unreachable code.)
        // `fire` and `stops` get the arguments their timer captured, one per parameter
        // (`arg(i)` is never past them); `condition` and `trigger` get only the fight's
        // own triggers, with a fighter for one per fighter. `stops` of an action whose
        // timer has no `until` is false: it repeats until the fight ends.
        scope.raw(format!(
            "#[allow(clippy::single_match, clippy::match_single_binding, clippy::needless_return)]\nimpl<D: {RT}::DiceSource, X: {RT}::Decide, T: {RT}::TraceSink> {RT}::FightRules<{c}, D, X, T> for Rules {{
                fn shape(&self) -> &{RT}::FightShape {{ &FIGHT_SHAPE }}
                fn key(&mut self, _env: {env}, fight: &mut Fight, who: {RT}::Fighter) -> {} {{ {order} }}
                fn is_out(&mut self, _env: {env}, {}: &mut Fight, {}: {RT}::Fighter) -> {} {{ {out} }}
                #[allow(unused_variables)]
                fn hook(&mut self, env: {env}, fight: &mut Fight, hook: {RT}::Hook, who: Option<{RT}::Fighter>) -> {} {{
                    match (hook, who) {{ {} _ => {{}} }}
                    Ok(())
                }}
                #[allow(unused_variables, unreachable_code)]
                fn fire(&mut self, env: {env}, fight: &mut Fight, action: u32, args: &[i64]) -> {} {{
                    let arg = |i: usize| args[i];
                    match action {{ {} _ => unreachable!(\"timer action {{action}}: the engine fires only the actions the program's timers set\") }}
                    Ok(())
                }}
                #[allow(unused_variables)]
                fn condition(&mut self, _env: {env}, fight: &mut Fight, index: usize, who: Option<{RT}::Fighter>) -> {} {{
                    match (index, who) {{ {} _ => unreachable!(\"trigger {{index}}: the engine tests only the fight's own triggers, with a fighter for one per fighter\") }}
                }}
                #[allow(unused_variables, unreachable_code)]
                fn trigger(&mut self, env: {env}, fight: &mut Fight, index: usize, who: Option<{RT}::Fighter>) -> {} {{
                    match (index, who) {{ {} _ => unreachable!(\"trigger {{index}}: the engine runs only the fight's own triggers, with a fighter for one per fighter\") }}
                    Ok(())
                }}
                #[allow(unused_variables)]
                fn stops(&mut self, env: {env}, fight: &mut Fight, action: u32, args: &[i64]) -> {} {{
                    let arg = |i: usize| args[i];
                    match action {{ {} _ => Ok(false) }}
                }}
                fn copy(&mut self, c: &{c}) -> {c} {{ c.clone() }}
                #[allow(unused_variables)]
                fn land(&mut self, now: &mut {c}, before: &{c}, after: &{c}, site: u32) -> {} {{
                    {land}
                    Ok(())
                }}
            }}",
            res(&format!("{RT}::fight::Key")),
            if d.out.is_some() { "fight" } else { "_fight" },
            if d.out.is_some() { "who" } else { "_who" },
            res("bool"),
            res("()"),
            hook_arms.join(" "),
            res("()"),
            fire_arms.join(" "),
            res("bool"),
            cond_arms.join(" "),
            res("()"),
            trigger_arms.join(" "),
            res("bool"),
            stop_arms.join(" "),
            res("()"),
        ));
        Ok(())
    }

    /// The call of function `id` from `Rules` (`who` the fighter text, for a function
    /// that takes one): `env` for a procedure, `fight` for a fight function, and a
    /// `Combatant` parameter given the fighter's combatant in the fight.
    fn call_text(&self, id: usize, who: &str) -> String {
        let f = &self.p.functions[id];
        let mut args = Vec::new();
        if f.is_procedure() {
            args.push("env".to_string());
        }
        if self.fight[id] {
            args.push("fight".to_string());
        }
        if let Some(p) = f.params.first() {
            args.push(match p.ty {
                Ty::Record(_) if p.mutated => format!("&mut fight[{who}]"),
                Ty::Record(_) => format!("&fight[{who}]"),
                _ => who.to_string(),
            });
        }
        format!("{}({})", self.id.function[id], args.join(", "))
    }

    /// A function's value as a `Result` (`Ok(..)` around one that cannot fail).
    fn value_call(&self, id: usize, who: &str) -> String {
        let call = self.call_text(id, who);
        if self.p.functions[id].fallible {
            call
        } else {
            format!("Ok({call})")
        }
    }

    /// A procedure run for its effect (`?` passes a rule error up; its value, if it
    /// has one, is dropped).
    fn run_call(&self, id: usize, who: &str) -> String {
        let f = &self.p.functions[id];
        let call = self.call_text(id, who);
        let call = if f.fallible { format!("{call}?") } else { call };
        if f.ret == Ty::Unit {
            format!("{call};")
        } else {
            format!("let _ = {call};")
        }
    }

    /// The body of one timer action in `Rules::fire`.
    fn fire_arm(&self, a: &Action) -> Result<String, String> {
        Ok(match a {
            Action::Call { function, site } => {
                let f = &self.p.functions[*function];
                let mut args = vec!["env".to_string()];
                if self.fight[*function] {
                    args.push("fight".to_string());
                }
                for (i, p) in f.params.iter().enumerate() {
                    args.push(self.decode(&p.ty, &format!("arg({i})"))?);
                }
                let call = format!("{}({})", self.id.function[*function], args.join(", "));
                let call = if f.fallible { format!("{call}?") } else { call };
                let call = if f.ret == Ty::Unit {
                    format!("{call};")
                } else {
                    format!("let _ = {call};")
                };
                format!(
                    "if T::ENABLED {{ env.trace.event({RT}::TraceEvent::Fight {{ site: {site}, what: String::from(\"fires\"), cite: true }}); }} {call}"
                )
            }
            Action::Reset {
                path,
                ty,
                value,
                site,
            } => {
                // The place: `fight[who].a.b[k]`, where every step is there (fields, and
                // map entries captured from a level or variant); past the first list
                // index, a chain giving the place or the index rule error of an item no
                // longer there.
                let mut place = "fight[who]".to_string();
                let mut chain: Option<String> = None;
                let mut rec = Ty::Record(self.p.fight.as_ref().map_or(0, |d| d.combatant));
                let mut key = 1;
                for st in path {
                    let (step, next) = match (st, &rec) {
                        (ResetStep::Field(i), Ty::Record(r)) => (
                            format!(".{}", self.id.field[*r][*i]),
                            self.p.records[*r].fields[*i].ty.clone(),
                        ),
                        (ResetStep::Key, Ty::Map(_, v)) => {
                            key += 1;
                            (format!("[arg({}) as usize]", key - 1), (**v).clone())
                        }
                        (ResetStep::Index, Ty::List(v)) => {
                            let c = chain.take().unwrap_or_else(|| {
                                format!("Ok::<_, {RT}::RuleError>(&mut {place})")
                            });
                            chain = Some(format!(
                                "{c}.and_then(|x| {RT}::__private::error::index_mut(x, arg({key}), {site}))"
                            ));
                            key += 1;
                            rec = (**v).clone();
                            continue;
                        }
                        _ => return Err("rulesc bug: a reset path that does not fit".into()),
                    };
                    match &mut chain {
                        Some(c) => c.push_str(&format!(".map(|x| &mut x{step})")),
                        None => place.push_str(&step),
                    }
                    rec = next;
                }
                let (rust_ty, value, shown) = (
                    self.rust_ty(ty)?,
                    self.const_expr(value, ty)?,
                    self.show(ty, "value"),
                );
                let event = format!(
                    "env.trace.event({RT}::TraceEvent::Fight {{ site: {site}, what: format!(\"ends for {{}}: {{shown}}\", fight.name(who)), cite: true }});"
                );
                let head = format!(
                    "let who = {RT}::Fighter(arg(0) as u32); let value: {rust_ty} = {value};"
                );
                match chain {
                    None => format!(
                        "{head} if T::ENABLED {{ let shown = {shown}; {event} }} {place} = value;"
                    ),
                    // Traced once the place is found: a rule error puts nothing back.
                    Some(c) => format!(
                        "{head} let shown = if T::ENABLED {{ Some({shown}) }} else {{ None }}; match {c} {{ Ok(slot) => *slot = value, Err(e) => return Err({RT}::__private::error::fail(&mut env.trace, e)) }} if let Some(shown) = shown {{ {event} }}"
                    ),
                }
            }
        })
    }

    /// The arm of `Rules::stops` for a repeating timer with an `until` condition: its
    /// formula called with the values captured after the call's arguments.
    fn stop_arm(&self, r: &ir::Repeat) -> Result<Option<String>, String> {
        let (Some(stop), Some(Action::Call { function, .. })) = (
            r.stop,
            self.p.fight.as_ref().and_then(|d| d.actions.get(r.action)),
        ) else {
            return Ok(None);
        };
        let skip = self.p.functions[*function].params.len();
        let f = &self.p.functions[stop];
        let mut args = Vec::new();
        if self.fight[stop] {
            args.push("fight".to_string());
        }
        for (i, p) in f.params.iter().enumerate() {
            args.push(self.decode(&p.ty, &format!("arg({})", skip + i))?);
        }
        let call = format!("{}({})", self.id.function[stop], args.join(", "));
        let call = if f.fallible {
            call
        } else {
            format!("Ok({call})")
        };
        Ok(Some(format!("{} => {call},", r.action)))
    }

    /// The body of `Rules::land`: the combatant record `r` landed place by place.
    fn land_fields(&self, r: usize) -> String {
        self.land_value(&Ty::Record(r), None, ("now", "before", "after"), false, 0)
    }

    /// Lands the places `now`, `before`, `after` (texts: places, or references to them
    /// when `refs`) of type `ty` (a field of range `range`), as the interpreter's
    /// `fight::land_value` does: records field by field, maps keyed by a scale or enum
    /// entry by entry, numbers as changes through the runtime's rule
    /// (`rulesc_runtime::fight::land`), anything else whole.
    fn land_value(
        &self,
        ty: &Ty,
        range: Option<(i64, i64)>,
        (now, before, after): (&str, &str, &str),
        refs: bool,
        depth: usize,
    ) -> String {
        let land = format!("{RT}::__private::land");
        match ty {
            Ty::Int => {
                let args = if refs {
                    format!("{now}, *{before}, *{after}")
                } else {
                    format!("&mut {now}, {before}, {after}")
                };
                match range {
                    Some((lo, hi)) => format!("{land}::ranged({args}, ({lo}, {hi}), site)?;"),
                    None => format!("{land}::int({args});"),
                }
            }
            Ty::Record(r) => {
                let mut out = String::new();
                for (i, f) in self.p.records[*r].fields.iter().enumerate() {
                    let name = &self.id.field[*r][i];
                    let places = (
                        format!("{now}.{name}"),
                        format!("{before}.{name}"),
                        format!("{after}.{name}"),
                    );
                    out.push_str(&self.land_value(
                        &f.ty,
                        f.range,
                        (&places.0, &places.1, &places.2),
                        false,
                        depth,
                    ));
                }
                out
            }
            Ty::Map(_, v) => {
                let (n, b, a) = (
                    format!("now_{depth}"),
                    format!("before_{depth}"),
                    format!("after_{depth}"),
                );
                let inner = self.land_value(v, None, (&n, &b, &a), true, depth + 1);
                format!(
                    "for ({n}, ({b}, {a})) in {now}.iter_mut().zip({before}.iter().zip({after}.iter())) {{ {inner} }}"
                )
            }
            _ if refs => format!("{land}::other({now}, {before}, {after});"),
            _ => format!("{land}::other(&mut {now}, &{before}, &{after});"),
        }
    }

    /// A captured timer argument (`i64` text `x`) as a value of type `ty`.
    pub(super) fn decode(&self, ty: &Ty, x: &str) -> Result<String, String> {
        Ok(match ty {
            Ty::Int => x.to_string(),
            Ty::Bool => format!("{x} != 0"),
            // Captured from a value of its parameter's type (the checker's E0352), so
            // one of the type's levels.
            Ty::Choice(c) => format!("{}::ALL[{x} as usize]", self.id.choice[*c]),
            Ty::Fighter => format!("{RT}::Fighter({x} as u32)"),
            Ty::Side => format!("{RT}::Side({x} as u16)"),
            _ => {
                return Err(format!(
                    "rulesc bug: a timer argument of type {}",
                    self.p.ty_name(ty)
                ))
            }
        })
    }
}
