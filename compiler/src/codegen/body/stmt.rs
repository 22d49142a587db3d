//! Statements: `let`, assignments, `if`, `match`, `for`, `return`, in the
//! interpreter's order, each traced as `eval` traces it.

use super::super::RT;
use super::scan::*;
use super::*;
use crate::ir::{AssignOp, Expr, MatchArm, Place, PlaceStep, Stmt, Ty};

impl Fx<'_, '_> {
    /// A trace statement: `if T::ENABLED { env.trace.event(TraceEvent::<event>); }`.
    pub(super) fn event(&self, event: &str) -> String {
        format!("if T::ENABLED {{ env.trace.event({RT}::TraceEvent::{event}); }}")
    }

    pub(super) fn tmp(&mut self, base: &str) -> String {
        self.names.fresh(base.to_string(), Case::Snake)
    }

    /// `stmts` in order. In `tail` position (the end of the function), a `return`
    /// becomes the block's value. Statements after one that always returns never run
    /// and are not generated.
    pub(super) fn block(
        &mut self,
        stmts: &[Stmt],
        tail: bool,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        let end = stmts
            .iter()
            .position(stmt_returns)
            .map_or(stmts.len(), |i| i + 1);
        for (i, s) in stmts[..end].iter().enumerate() {
            let last = i + 1 == end;
            self.stmt(s, tail && last && stmt_returns(s), out)?;
        }
        Ok(())
    }

    pub(super) fn stmt(
        &mut self,
        s: &Stmt,
        tail: bool,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        match s {
            Stmt::ForRange { .. } => {
                return Err("`for i in lo..hi` is not yet supported by the Rust backend".into());
            }
            Stmt::Let { slot, value, site } => {
                let ident = self.slots[*slot].ident.clone();
                let ty = &value.ty;
                if *ty == Ty::Unit {
                    let ex = self.expr(value, Dest::Discard)?;
                    out.extend(ex.pre);
                    self.slots[*slot] = Slot {
                        ident: "()".into(),
                        by_ref: false,
                    };
                } else if self.g.is_copy(ty) {
                    let ex = self.expr(value, Dest::Bind(ident.clone(), self.mutable[*slot]))?;
                    out.extend(ex.pre.iter().cloned());
                    if !ex.bound {
                        let m = if self.mutable[*slot] { "mut " } else { "" };
                        // An integer literal alone would not fix the local's type.
                        let annot = if *ty == Ty::Int { ": i64" } else { "" };
                        out.push(format!("let {m}{ident}{annot} = {};", self.owned(&ex, ty)));
                    }
                    self.slots[*slot].by_ref = false;
                } else {
                    let ex = self.expr(value, Dest::Val)?;
                    out.extend(ex.pre.iter().cloned());
                    let root = root_local(value);
                    let root_changes =
                        root.is_some_and(|r| r < self.f.params.len() && self.f.params[r].mutated);
                    if !self.mutable[*slot]
                        && matches!(ty, Ty::Record(_))
                        && ex.mode != Mode::Value
                        && root.is_some()
                    {
                        if self.replaced(value) {
                            return Err(format!(
                                "`{}`: the Rust backend cannot name a record (`let {}`) whose place the procedure replaces",
                                self.f.name, self.f.locals[*slot].name
                            ));
                        }
                        // A record named again shares the one it names (as the
                        // interpreter's records do): the local is that place itself.
                        self.slots[*slot] = Slot {
                            ident: ex.val.clone(),
                            by_ref: ex.mode == Mode::Ref,
                        };
                        self.alias[*slot] = root.map(|r| self.alias[r].unwrap_or(r));
                    } else if !self.mutable[*slot] && ex.mode != Mode::Value && root_changes {
                        // A list of a parameter this procedure changes: a copy, so the
                        // parameter stays free to change (lists are values).
                        out.push(format!("let {ident} = {};", self.owned(&ex, ty)));
                        self.slots[*slot].by_ref = false;
                    } else if self.mutable[*slot] {
                        out.push(format!("let mut {ident} = {};", self.owned(&ex, ty)));
                        self.slots[*slot].by_ref = false;
                    } else {
                        match ex.mode {
                            Mode::Value => {
                                out.push(format!("let {ident} = {};", ex.val));
                                self.slots[*slot].by_ref = false;
                            }
                            Mode::Place => {
                                out.push(format!("let {ident} = &{};", ex.at(P_UNARY)));
                                self.slots[*slot].by_ref = true;
                            }
                            Mode::Ref => {
                                out.push(format!("let {ident} = {};", ex.val));
                                self.slots[*slot].by_ref = true;
                            }
                        }
                    }
                }
                let shown = self.g.show(ty, &self.slots[*slot].ident);
                out.push(self.event(&format!("Assign {{ site: {site}, value: {shown} }}")));
            }
            Stmt::Assign {
                place,
                op,
                value,
                site,
            } => self.assign(place, *op, value, *site, out)?,
            Stmt::If {
                branches,
                otherwise,
            } => self.if_chain(branches, otherwise.as_deref(), tail, out)?,
            Stmt::Match { scrutinee, arms } => {
                let ex = self.expr(scrutinee, Dest::Val)?;
                let mut pre = Vec::new();
                let m = self.stable_val(&mut pre, ex, "scrutinee");
                out.extend(pre);
                let lines = self.match_arms(&m, &scrutinee.ty, arms, |fx, body, lines| {
                    fx.block(body, tail, lines)
                })?;
                out.extend(lines);
            }
            Stmt::For { var, list, body } => {
                let mutates = self.changes_root(list) && stmts_mutate(body, &self.g.p.functions);
                let (pre, iter, copied) = self.iter_of(list, *var, mutates)?;
                out.extend(pre);
                out.push(format!(
                    "for {}{} in {iter} {{",
                    if copied { "&" } else { "" },
                    self.slots[*var].ident
                ));
                self.block(body, false, out)?;
                out.push("}".into());
            }
            Stmt::Return { value, site } => {
                let Some(e) = value else {
                    out.push(
                        self.event(&format!("Return {{ site: {site}, value: String::new() }}")),
                    );
                    if !tail {
                        out.push("return;".into());
                    }
                    return Ok(());
                };
                let ex = self.expr(e, Dest::Val)?;
                out.extend(ex.pre.iter().cloned());
                let ret = &self.f.ret;
                let owned = self.owned(&ex, ret);
                let v = if ex.stable && self.g.is_copy(ret) {
                    owned
                } else {
                    let r = self.tmp("result");
                    out.push(format!("let {r}: {} = {owned};", self.g.rust_ty(ret)?));
                    r
                };
                let shown = self.g.show(&e.ty, &v);
                out.push(self.event(&format!("Return {{ site: {site}, value: {shown} }}")));
                out.push(if tail { v } else { format!("return {v};") });
            }
            Stmt::Expr(e) => {
                let ex = self.expr(e, Dest::Discard)?;
                out.extend(ex.pre);
            }
        }
        Ok(())
    }

    pub(super) fn assign(
        &mut self,
        place: &Place,
        op: AssignOp,
        value: &Expr,
        site: u32,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        // The interpreter evaluates the value, then the map keys of the place.
        let mut parts = vec![self.expr(value, Dest::Val)?];
        for st in &place.path {
            if let PlaceStep::Key(k) = st {
                parts.push(self.expr(k, Dest::Val)?);
            }
        }
        let mut pre = self.seq(&mut parts);
        let mut keys = Vec::new();
        for k in parts.drain(1..) {
            keys.push(self.stable_val(&mut pre, k, "key"));
        }
        let v = parts.pop().ok_or("rulesc bug: assignment without value")?;
        out.extend(pre);
        let target = self.place_text(place, &keys);
        let new = match op {
            AssignOp::Set => self.owned(&v, &place.ty),
            AssignOp::Add => format!("{RT}::arith::add({target}, {})", v.val),
            AssignOp::Sub => format!("{RT}::arith::sub({target}, {})", v.val),
        };
        out.push(format!("{target} = {new};"));
        let shown = self.g.show(&place.ty, &target);
        out.push(self.event(&format!("Assign {{ site: {site}, value: {shown} }}")));
        Ok(())
    }

    /// The Rust place for `place`, with its keys already bound to `keys`.
    pub(super) fn place_text(&self, place: &Place, keys: &[String]) -> String {
        let mut s = self.slots[place.root].ident.clone();
        let mut rec = self.f.locals[place.root].ty.clone();
        let mut k = keys.iter();
        for st in &place.path {
            match (st, &rec) {
                (PlaceStep::Field(i), Ty::Record(r)) => {
                    s = format!("{s}.{}", self.g.id.field[*r][*i]);
                    rec = self.g.p.records[*r].fields[*i].ty.clone();
                }
                (PlaceStep::Key(_), Ty::Map(_, v)) => {
                    let key = k.next().cloned().unwrap_or_default();
                    s = format!("{s}[{} as usize]", paren(&key, P_ATOM, P_CAST));
                    rec = (**v).clone();
                }
                _ => {}
            }
        }
        s
    }

    pub(super) fn if_chain(
        &mut self,
        branches: &[(Expr, Vec<Stmt>, u32)],
        otherwise: Option<&[Stmt]>,
        tail: bool,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        let Some(((cond, body, site), rest)) = branches.split_first() else {
            if let Some(o) = otherwise {
                self.block(o, tail, out)?;
            }
            return Ok(());
        };
        let ex = self.expr(cond, Dest::Val)?;
        let mut pre = ex.pre.clone();
        let taken = if ex.stable {
            ex.val.clone()
        } else {
            let t = self.tmp("taken");
            pre.push(format!("let {t} = {};", ex.val));
            t
        };
        out.extend(pre);
        out.push(self.event(&format!(
            "Branch {{ site: {site}, {} }}",
            init("taken", &taken)
        )));
        out.push(format!("if {taken} {{"));
        self.block(body, tail, out)?;
        if !rest.is_empty() || otherwise.is_some() {
            out.push("} else {".into());
            self.if_chain(rest, otherwise, tail, out)?;
        }
        out.push("}".into());
        Ok(())
    }

    /// The arms of a `match` over the stable value `m`: each arm takes the tags or
    /// variants no earlier arm took, binds its fields, traces, then runs `body`.
    pub(super) fn match_arms<B>(
        &mut self,
        m: &str,
        ty: &Ty,
        arms: &[MatchArm<B>],
        mut body: impl FnMut(&mut Self, &B, &mut Vec<String>) -> Result<(), String>,
    ) -> Result<Vec<String>, String> {
        let count = match ty {
            Ty::Choice(c) => self.g.p.choices[*c].variants.len(),
            Ty::Outcome(o) => self.g.p.outcomes[*o].tags.len(),
            _ => return Err(format!("rulesc bug: match on {}", self.g.p.ty_name(ty))),
        };
        let copy = self.g.is_copy(ty);
        let mut taken = vec![false; count];
        let mut out = vec![format!(
            "match {} {{",
            if copy { m.to_string() } else { format!("&{m}") }
        )];
        for arm in arms {
            let alts: Vec<u16> = if arm.alts.is_empty() {
                (0..count as u16).filter(|&t| !taken[t as usize]).collect()
            } else {
                arm.alts
                    .iter()
                    .copied()
                    .filter(|&t| !taken.get(t as usize).copied().unwrap_or(true))
                    .collect()
            };
            let alts: Vec<u16> = alts.into_iter().fold(Vec::new(), |mut v, t| {
                if !v.contains(&t) {
                    v.push(t);
                }
                v
            });
            if alts.is_empty() {
                continue;
            }
            let wildcard = arm.alts.is_empty();
            for &t in &alts {
                taken[t as usize] = true;
            }
            let mut lets = Vec::new();
            let pat = if wildcard && arm.binds.iter().all(Option::is_none) {
                "_".to_string()
            } else {
                let mut pats = Vec::new();
                for &t in &alts {
                    let (p, l) = self.pattern(ty, t, &arm.binds, copy, alts.len() == 1);
                    pats.push(p);
                    lets.extend(l);
                }
                pats.join(" | ")
            };
            let mut lines = vec![format!("{pat} => {{")];
            lines.append(&mut lets);
            if self.traced {
                let shown = self.g.show(ty, m);
                lines.push(self.event(&format!("Match {{ site: {}, arm: {shown} }}", arm.site)));
            }
            body(self, &arm.body, &mut lines)?;
            lines.push("}".into());
            out.extend(lines);
        }
        if taken.iter().any(|t| !t) {
            // Not reachable for a checked program (matches are exhaustive).
            out.push("_ => {}".into());
        }
        out.push("}".into());
        Ok(out)
    }

    /// The pattern for tag or variant `t`, and statements that finish its bindings.
    /// A non-`Copy` outcome is matched by reference (`match &m`): record and list
    /// fields bind as references, `Copy` fields are copied out at the arm's start.
    pub(super) fn pattern(
        &mut self,
        ty: &Ty,
        t: u16,
        binds: &[Option<usize>],
        copy: bool,
        single: bool,
    ) -> (String, Vec<String>) {
        let mut lets = Vec::new();
        match ty {
            Ty::Choice(c) => (
                format!(
                    "{}::{}",
                    self.g.id.choice[*c], self.g.id.variant[*c][t as usize]
                ),
                lets,
            ),
            Ty::Outcome(o) => {
                let tag = &self.g.p.outcomes[*o].tags[t as usize];
                let head = format!(
                    "{}::{}",
                    self.g.id.outcome[*o], self.g.id.tag[*o][t as usize]
                );
                if tag.fields.is_empty() {
                    return (head, lets);
                }
                let mut parts = Vec::new();
                if single {
                    for (fi, b) in binds.iter().enumerate() {
                        let Some(slot) = b else { continue };
                        let fty = &tag.fields[fi].1;
                        let field = &self.g.id.tag_field[*o][t as usize][fi];
                        let ident = self.slots[*slot].ident.clone();
                        let bind = if copy || !self.g.is_copy(fty) {
                            self.slots[*slot].by_ref = !self.g.is_copy(fty);
                            ident
                        } else {
                            self.slots[*slot].by_ref = false;
                            let r = self.tmp(&format!("{}_ref", ident.trim_start_matches("r#")));
                            lets.push(format!("let {ident} = *{r};"));
                            r
                        };
                        parts.push(init(field, &bind));
                    }
                }
                if parts.len() < tag.fields.len() {
                    parts.push("..".into());
                }
                (format!("{head} {{ {} }}", parts.join(", ")), lets)
            }
            _ => ("_".into(), lets),
        }
    }
}
