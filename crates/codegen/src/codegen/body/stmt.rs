//! Statements: `let`, assignments, `if`, `match`, `for`, `return`, in the
//! interpreter's order, each traced as `eval` traces it.

use super::super::{int_lit, RT};
use super::scan::*;
use super::*;
use crate::ir::{AssignOp, Expr, ExprKind as K, Place, PlaceStep, Stmt, Ty};

/// Where an assignment or fill writes.
pub(super) enum PlaceText {
    /// A Rust place (`c.levels[key as usize]`).
    Direct(String),
    /// Through a list index: `lines` borrow the element (or stop with a rule error),
    /// then `target` is the place (`*element`, `element.hp`) and `recv` reaches it by a
    /// method call.
    Checked {
        lines: Vec<String>,
        target: String,
        recv: String,
    },
}

impl BodyGen<'_, '_> {
    /// A trace statement: `if T::ENABLED { env.trace.event(TraceEvent::<event>); }`.
    pub(super) fn event(&self, event: &str) -> String {
        format!("if T::ENABLED {{ env.trace.event({RT}::TraceEvent::{event}); }}")
    }

    /// Declares the hidden locals the rolls directly in `s` keep their dice in (first
    /// use only): `let [mut] r_faces: Faces;`, assigned by the roll. `mut` when an
    /// assignment rolls it again.
    fn declare_faces(&mut self, s: &Stmt, out: &mut Vec<String>) -> Result<(), String> {
        fn rolls(e: &Expr, out: &mut Vec<usize>) {
            if let K::Roll { faces: Some(h), .. } = e.kind {
                out.push(h);
            }
            crate::ir::walk::for_each_child(e, &mut |x| rolls(x, out));
        }
        let mut found = Vec::new();
        crate::ir::walk::for_each_stmt_child(s, &mut |c| {
            if let crate::ir::walk::Child::Expr(e) = c {
                rolls(e, &mut found);
            }
        });
        for h in found {
            if self.faces_declared.contains(&h) {
                continue;
            }
            self.faces_declared.push(h);
            let m = if self.faces_rerolled.contains(&h) {
                "mut "
            } else {
                ""
            };
            out.push(format!("let {m}{}: {RT}::Faces;", self.slots[h].ident));
        }
        Ok(())
    }

    /// `v` as the function's result: `Ok(v)` when it returns a `Result`.
    pub(super) fn ok(&self, v: &str) -> String {
        if self.f.fallible {
            format!("Ok({v})")
        } else {
            v.to_string()
        }
    }

    /// `x?` for a `Result<_, RuleError>`: in a procedure, the error is recorded in the
    /// trace on its way out (unless `traced`, an error a called procedure recorded).
    pub(super) fn try_(&self, x: &str, traced: bool) -> String {
        if self.traced && !traced {
            format!("{x}.map_err(|e| {RT}::__private::error::fail(&mut env.trace, e))?")
        } else {
            format!("{x}?")
        }
    }

    /// The statement that stops with rule error `kind` (a `RuleErrorKind` expression)
    /// at `site`.
    pub(super) fn raise(&self, site: u32, kind: &str) -> String {
        let e = format!("{RT}::RuleError::new({site}, {RT}::RuleErrorKind::{kind})");
        if self.traced {
            format!("return Err({RT}::__private::error::fail(&mut env.trace, {e}));")
        } else {
            format!("return Err({e});")
        }
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
        let stmts = reachable(stmts);
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            if let Some(Stmt::Return {
                value: Some(e),
                site,
            }) = stmts.get(i + 1)
            {
                if self.early_return_before(s, e) {
                    return self.return_after_early_returns(s, e, *site, tail, out);
                }
            }
            self.stmt(s, tail && last && stmt_returns(s), out)?;
        }
        Ok(())
    }

    /// Whether `s` is an `if` that only returns early (no `else`, every branch ends in a
    /// `return`, no condition changes state) and `e`, the value returned after it, is
    /// a cheap, pure, `Copy` value: then `e` may be computed before the `if`.
    fn early_return_before(&self, s: &Stmt, e: &Expr) -> bool {
        let Stmt::If {
            branches,
            otherwise: None,
        } = s
        else {
            return false;
        };
        let fns = &self.g.p.functions;
        let mut budget = 12;
        branches
            .iter()
            .all(|(c, body, _)| always_returns(body) && !expr_mutates(c, fns))
            && self.g.is_copy(&e.ty)
            // A bare constant or local is ready anyway.
            && !matches!(&e.kind, K::Const(_) | K::Local(_))
            && !matches!(&e.kind, K::MakeOutcome { fields, .. } if fields.is_empty())
            && cheap(e, &mut budget)
    }

    /// `if c { .. return a } return e`, with `e` computed before the `if`
    /// ([`Self::early_return_before`]): both results are then ready when the condition
    /// is known, so the optimizer can pick one without a branch (a hit or a miss is a
    /// coin toss no predictor learns). Nothing is traced in between and `e` changes
    /// nothing, so the trace and the result are the same.
    fn return_after_early_returns(
        &mut self,
        s: &Stmt,
        e: &Expr,
        site: u32,
        tail: bool,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        let ex = self.expr(e, Dest::Val)?;
        out.extend(ex.pre.iter().cloned());
        let r = self.tmp("result");
        let ret = &self.f.ret;
        out.push(format!(
            "let {r}: {} = {};",
            self.g.ret_ty(ret)?,
            self.ret_value(&ex, ret)?
        ));
        self.stmt(s, false, out)?;
        self.finish_return(&e.ty, &r, site, tail, out);
        Ok(())
    }

    /// Traces `return v` at `site` and returns `v` (the block's value in `tail`).
    fn finish_return(&self, ty: &Ty, v: &str, site: u32, tail: bool, out: &mut Vec<String>) {
        let shown = self.g.traced(ty, v);
        out.push(self.event(&format!("Return {{ site: {site}, value: {shown} }}")));
        let v = self.ok(v);
        out.push(if tail { v } else { format!("return {v};") });
    }

    pub(super) fn stmt(
        &mut self,
        s: &Stmt,
        tail: bool,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        self.declare_faces(s, out)?;
        match s {
            Stmt::ForRange {
                var,
                lo,
                hi,
                body,
                site,
            } => self.for_range(*var, (lo, hi, *site), body, out)?,
            Stmt::Let { slot, value, site } => {
                let ident = self.slots[*slot].ident.clone();
                let ty = &value.ty;
                if *ty == Ty::Unit {
                    let ex = self.expr(value, Dest::Discard)?;
                    out.extend(ex.pre);
                    self.slots[*slot] = Slot {
                        ident: "()".into(),
                        by_ref: false,
                        array: false,
                        small: false,
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
                    self.let_non_copy(*slot, value, ex, out);
                }
                let shown = self.g.traced(ty, &self.slots[*slot].ident);
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
                let lines = self.match_arms(&m, &scrutinee.ty, arms, |bg, body, lines| {
                    bg.block(body, tail, lines)
                })?;
                out.extend(lines);
            }
            Stmt::For { var, list, body } => {
                let mut mutates =
                    self.changes_root(list) && stmts_mutate(body, &self.g.p.functions);
                // A local list the body gives a new value: the loop walks the old one.
                if let Some(r) = root_local(list) {
                    mutates |= r >= self.f.params.len() && assigns_local(body, r);
                }
                let (pre, iter, copied) = self.iter_of(list, *var, mutates)?;
                out.extend(pre);
                let v = self.slots[*var].ident.clone();
                if self.mutable[*var] {
                    // The body gives the variable new values: each element owned.
                    let elem_copy = match &list.ty {
                        Ty::List(t) => self.g.is_copy(t),
                        _ => true,
                    };
                    let owned = if copied {
                        format!("{iter}.copied()")
                    } else if elem_copy {
                        iter
                    } else {
                        format!("{iter}.cloned()")
                    };
                    self.slots[*var].by_ref = false;
                    out.push(format!("for mut {v} in {owned} {{"));
                } else {
                    out.push(format!(
                        "for {}{v} in {iter} {{",
                        if copied { "&" } else { "" },
                    ));
                }
                self.block(body, false, out)?;
                out.push("}".into());
            }
            Stmt::Return { value, site } => {
                let Some(e) = value else {
                    out.push(
                        self.event(&format!("Return {{ site: {site}, value: String::new() }}")),
                    );
                    match (tail, self.f.fallible) {
                        (true, false) => {}
                        (true, true) => out.push("Ok(())".into()),
                        (false, false) => out.push("return;".into()),
                        (false, true) => out.push("return Ok(());".into()),
                    }
                    return Ok(());
                };
                let ex = self.expr(e, Dest::Val)?;
                out.extend(ex.pre.iter().cloned());
                let ret = &self.f.ret;
                let owned = self.ret_value(&ex, ret)?;
                let v = if ex.stable && self.g.is_copy(ret) {
                    owned
                } else {
                    let r = self.tmp("result");
                    out.push(format!("let {r}: {} = {owned};", self.g.ret_ty(ret)?));
                    r
                };
                self.finish_return(&e.ty, &v, *site, tail, out);
            }
            Stmt::Expr(e) => {
                let ex = self.expr(e, Dest::Discard)?;
                out.extend(ex.pre);
                // A value computed and thrown away (warned as W0004) is still computed,
                // so what it reads counts as read.
                if ex.val != "()" && !ex.bound {
                    out.push(format!("let _ = {};", ex.val));
                }
            }
            Stmt::Schedule {
                at,
                action,
                args,
                site,
            } => self.schedule(at, *action, args, *site, out)?,
            Stmt::Advance { amount, .. } => {
                let ex = self.expr(amount, Dest::Val)?;
                out.extend(ex.pre.iter().cloned());
                // Timers and hooks it runs trace their own rule errors.
                out.push(format!("fight.advance(&mut Rules, env, {})?;", ex.val));
            }
        }
        Ok(())
    }

    /// The rest of a `let` of a record or list: the interpreter's `let` binds a copy
    /// (a plain local stays the value it names), so the local names the place itself
    /// when nothing changes it afterwards, and an owned copy otherwise.
    pub(super) fn let_non_copy(
        &mut self,
        slot: usize,
        value: &Expr,
        ex: Ex,
        out: &mut Vec<String>,
    ) {
        let ident = self.slots[slot].ident.clone();
        let ty = &value.ty;
        let nparams = self.f.params.len();
        let root = root_local(value);
        let plain = matches!(value.kind, K::Local(_));
        let fields_only = field_path(value);
        let is_record = matches!(ty, Ty::Record(_));
        let changes = if plain && is_record && root.is_some_and(|r| r < nparams) {
            // `let me = c`: the same combatant.
            false
        } else {
            let param_changes = root.is_some_and(|r| {
                let r = self.alias[r].unwrap_or(r);
                r < nparams && self.f.params[r].mutated
            });
            // A record or list read from a fighter's state is a copy (as the interpreter's
            // `let` is): the fight it borrows from may change while the local lives.
            let from_fight =
                !matches!(value.kind, K::Combatant(_)) && crate::ir::expr_touches_fight(value);
            from_fight || self.may_change(value) || (matches!(ty, Ty::List(_)) && param_changes)
        };
        let mutable = self.mutable[slot];
        if !mutable && is_record && ex.mode != Mode::Value && fields_only && !changes {
            // A record named again, never changed while the local lives: the local is
            // that place itself.
            self.slots[slot] = Slot {
                ident: ex.val.clone(),
                by_ref: ex.mode == Mode::Ref,
                array: false,
                small: false,
            };
            self.alias[slot] = root.map(|r| self.alias[r].unwrap_or(r));
        } else if mutable || (ex.mode != Mode::Value && changes) {
            let m = if mutable { "mut " } else { "" };
            out.push(format!("let {m}{ident} = {};", self.owned(&ex, ty)));
            self.slots[slot].by_ref = false;
            self.slots[slot].array = false;
            self.slots[slot].small = false;
        } else {
            self.slots[slot].array = ex.array;
            self.slots[slot].small = ex.small;
            match ex.mode {
                Mode::Value => {
                    out.push(format!("let {ident} = {};", ex.val));
                    self.slots[slot].by_ref = false;
                }
                Mode::Place => {
                    out.push(format!("let {ident} = &{};", ex.at(P_UNARY)));
                    self.slots[slot].by_ref = true;
                }
                Mode::Ref => {
                    out.push(format!("let {ident} = {};", ex.val));
                    self.slots[slot].by_ref = true;
                }
            }
        }
    }

    /// `for var in lo..hi`; with a `site`, held to `MAX_LOOP` turns first (a rule error
    /// past it), as the interpreter holds it.
    pub(super) fn for_range(
        &mut self,
        var: usize,
        (lo, hi, site): (&Expr, &Expr, Option<u32>),
        body: &[Stmt],
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        let mut parts = vec![self.expr(lo, Dest::Val)?, self.expr(hi, Dest::Val)?];
        let mut pre = self.seq(&mut parts);
        let hx = parts.pop().ok_or("rulesc bug")?;
        let lx = parts.pop().ok_or("rulesc bug")?;
        let (lo_lit, hi_lit) = (lx.val.parse::<i64>().ok(), hx.val.parse::<i64>().ok());
        if let (Some(l), Some(h)) = (lo_lit, hi_lit) {
            if h <= l && site.is_none() {
                // Never runs (and `3..0` would not pass clippy).
                out.extend(pre);
                return Ok(());
            }
        }
        let lo_s = match lo_lit {
            Some(_) => lx.val.clone(),
            None => self.stable_val(&mut pre, lx, "lo"),
        };
        let end = match (hi_lit, site) {
            (Some(_), _) => hx.val.clone(),
            (None, Some(_)) => self.stable_val(&mut pre, hx, "hi"),
            (None, None) => hx.at(P_CAST),
        };
        out.extend(pre);
        if let Some(site) = site {
            let check = format!("{RT}::__private::error::range_room({lo_s}, {end}, {site})");
            out.push(format!("{};", self.try_(&check, false)));
        }
        self.slots[var].by_ref = false;
        let m = if self.mutable[var] { "mut " } else { "" };
        out.push(format!(
            "for {m}{} in {lo_s}..{end} {{",
            self.slots[var].ident
        ));
        self.block(body, false, out)?;
        out.push("}".into());
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
        let list_elem = match &place.ty {
            Ty::List(t) => Some((**t).clone()),
            _ => None,
        };
        // `list += [a, b]`: the elements are pushed, no list is built.
        let literal = match (op, &value.kind) {
            (AssignOp::Add, K::List(items)) if list_elem.is_some() => Some(items.as_slice()),
            _ => None,
        };
        // The interpreter evaluates the value, then the keys and indices of the place.
        let mut parts = match literal {
            Some(items) => items
                .iter()
                .map(|x| self.expr(x, Dest::Val))
                .collect::<Result<Vec<_>, _>>()?,
            None => vec![self.expr(value, Dest::Val)?],
        };
        let nvals = parts.len();
        for st in &place.path {
            if let PlaceStep::Key(k) | PlaceStep::Index(k) = st {
                parts.push(self.expr(k, Dest::Val)?);
            }
        }
        let mut pre = self.seq(&mut parts);
        let mut keys = Vec::new();
        for k in parts.drain(nvals..) {
            keys.push(self.stable_val(&mut pre, k, "key"));
        }
        let mut vals = parts;
        if literal.is_none() && nvals == 1 && op == AssignOp::Add && list_elem.is_some() {
            // Appending a list read from the same state: a copy first.
            let same = root_local(value).is_some_and(|r| self.alias[r].unwrap_or(r) == place.root);
            if same && vals[0].mode != Mode::Value {
                let v = vals.pop().ok_or("rulesc bug")?;
                let t = self.tmp("appended");
                pre.push(format!("let {t} = {};", self.owned(&v, &place.ty)));
                vals.push(Ex::new(t, P_ATOM));
            }
        }
        let value_ty = match (&literal, &list_elem, op) {
            (Some(_), Some(elem), _) => elem.clone(),
            (None, _, AssignOp::Set) | (None, Some(_), _) => place.ty.clone(),
            _ => Ty::Int,
        };
        match self.place_text(place, &keys, &|_| site)? {
            PlaceText::Direct(target) => {
                out.extend(pre);
                self.apply(
                    &target,
                    &target,
                    op,
                    place,
                    vals,
                    literal.is_some(),
                    site,
                    out,
                );
                let shown = self.g.traced(&place.ty, &target);
                out.push(self.event(&format!("Assign {{ site: {site}, value: {shown} }}")));
            }
            PlaceText::Checked {
                lines,
                target,
                recv,
            } => {
                // The element is borrowed while it changes: every value is ready first.
                let mut ready = Vec::new();
                for v in vals {
                    ready.push(if v.stable && self.g.is_copy(&value_ty) {
                        v
                    } else if v.array && v.mode != Mode::Place {
                        // A list not held in a `Vec` (a value, or a table's `&'static`
                        // slice): bound as it is (`apply` copies it).
                        let t = self.tmp("value");
                        pre.push(format!("let {t} = {};", v.val));
                        let mut ex = Ex::new(t, P_ATOM).stable().mode(v.mode);
                        ex.array = true;
                        ex.small = v.small;
                        ex
                    } else {
                        let t = self.tmp("value");
                        pre.push(format!("let {t} = {};", self.owned(&v, &value_ty)));
                        Ex::new(t, P_ATOM).stable()
                    });
                }
                out.extend(pre);
                out.extend(lines);
                self.apply(
                    &target,
                    &recv,
                    op,
                    place,
                    ready,
                    literal.is_some(),
                    site,
                    out,
                );
                let shown = self.g.traced(&place.ty, &target);
                out.push(self.event(&format!("Assign {{ site: {site}, value: {shown} }}")));
            }
        }
        Ok(())
    }

    /// The statement that changes `lhs` (`place`; `recv` is how a method reaches it).
    #[allow(clippy::too_many_arguments)]
    fn apply(
        &mut self,
        lhs: &str,
        recv: &str,
        op: AssignOp,
        place: &Place,
        mut vals: Vec<Ex>,
        literal: bool,
        site: u32,
        out: &mut Vec<String>,
    ) {
        let ty = &place.ty;
        if let (AssignOp::Add, Ty::List(elem)) = (op, ty) {
            // Past `MAX_LIST` items, a rule error before anything is appended (as in
            // the interpreter).
            let room = |this: &Self, more: &str| {
                let check = format!("{RT}::__private::error::room({recv}.len(), {more}, {site})");
                format!("{};", this.try_(&check, false))
            };
            if literal {
                let items: Vec<String> = vals.iter().map(|v| self.owned(v, elem)).collect();
                if !items.is_empty() {
                    out.push(room(self, &items.len().to_string()));
                }
                match items.as_slice() {
                    [] => {}
                    [one] => out.push(format!("{recv}.push({one});")),
                    _ => out.push(format!("{recv}.extend([{}]);", items.join(", "))),
                }
                return;
            }
            let Some(v) = vals.pop() else { return };
            match v.mode {
                Mode::Value => {
                    let appended = self.tmp("appended");
                    out.push(format!("let {appended} = {};", v.val));
                    out.push(room(self, &format!("{appended}.len()")));
                    if v.array {
                        out.push(format!("{recv}.extend_from_slice(&{appended});"));
                    } else {
                        out.push(format!("{recv}.extend({appended});"));
                    }
                }
                Mode::Place | Mode::Ref => {
                    let from = self.by_ref(&v);
                    out.push(room(self, &format!("<[_]>::len({from})")));
                    out.push(format!("{recv}.extend_from_slice({from});"));
                }
            }
            return;
        }
        let Some(v) = vals.pop() else { return };
        if let (AssignOp::Set, Ty::List(_), true) = (op, ty, v.array) {
            // A list not held in a `Vec` (an array, a table's slice, a `SmallList`),
            // ready before the place changes: copied into the place's own `Vec`, whose
            // buffer is kept (no allocation when it has room).
            let from = if v.stable || v.mode != Mode::Value {
                v.val.clone()
            } else {
                let t = self.tmp("value");
                out.push(format!("let {t} = {};", v.val));
                t
            };
            let from = match v.mode {
                Mode::Ref => from,
                _ => format!("&{}", paren(&from, v.prec, P_UNARY)),
            };
            out.push(format!("{recv}.clear();"));
            out.push(format!("{recv}.extend_from_slice({from});"));
            return;
        }
        // A roll's total moves; its natural face stays (as `roll ± n`).
        let total;
        let lhs = match (op, ty) {
            (AssignOp::Add | AssignOp::Sub, Ty::Roll) => {
                total = format!("{lhs}.total");
                total.as_str()
            }
            _ => lhs,
        };
        let mut new = match op {
            AssignOp::Set => self.owned(&v, ty),
            AssignOp::Add => format!("{RT}::__private::arith::add({lhs}, {})", v.val),
            AssignOp::Sub => format!("{RT}::__private::arith::sub({lhs}, {})", v.val),
        };
        // An `int(lo..hi)` field: a number outside is a rule error, the field unchanged.
        if let Some((lo, hi)) = place.range {
            let (lo, hi) = (int_lit(lo), int_lit(hi));
            new = self.try_(
                &format!("{RT}::__private::error::in_range({new}, {lo}, {hi}, {site})"),
                false,
            );
        }
        out.push(format!("{lhs} = {new};"));
    }

    /// Where `place` writes, with its keys and indices already bound to `keys`: a Rust
    /// place, or (through a list index) statements that borrow each element, failing with
    /// a rule error at `site(k)` for its `k`th index outside its list, and the place under
    /// them.
    pub(super) fn place_text(
        &mut self,
        place: &Place,
        keys: &[String],
        site: &dyn Fn(usize) -> u32,
    ) -> Result<PlaceText, String> {
        let mut s = self.slots[place.root].ident.clone();
        let mut rec = self.f.locals[place.root].ty.clone();
        if rec == Ty::Fighter && !place.path.is_empty() {
            // A path under a fighter: its combatant in the fight.
            s = format!("fight[{s}]");
            rec = Ty::Record(self.g.p.fight.as_ref().map_or(0, |d| d.combatant));
        }
        let mut k = keys.iter();
        // The list indices met so far.
        let mut indices = 0;
        let mut lines = Vec::new();
        // The place is a borrowed element itself (`*element`), not a path under one.
        let mut whole = false;
        for st in &place.path {
            match (st, &rec) {
                (PlaceStep::Field(i), Ty::Record(r)) => {
                    let r = *r;
                    rec = self.g.p.records[r].fields[*i].ty.clone();
                    s.push_str(&format!(".{}", self.g.id.field[r][*i]));
                    whole = false;
                }
                (PlaceStep::Key(_), Ty::Map(_, v)) => {
                    let key = k.next().ok_or("rulesc bug: a key without a value")?;
                    s.push_str(&format!("[{} as usize]", paren(key, P_ATOM, P_CAST)));
                    rec = (**v).clone();
                    whole = false;
                }
                // A key the map does not hold is added (with the zero) to be changed,
                // before the value is checked, as the interpreter adds it.
                (PlaceStep::Key(_), Ty::SortedMap(kt, v)) => {
                    let key = k.next().ok_or("rulesc bug: a key without a value")?;
                    let key = if self.g.is_copy(kt) {
                        key.clone()
                    } else {
                        format!("{}.clone()", recv(key))
                    };
                    let e = self.tmp("entry");
                    lines.push(format!("let {e} = {s}.entry({key});"));
                    rec = (**v).clone();
                    s = e;
                    whole = true;
                }
                (PlaceStep::Index(_), Ty::List(elem)) => {
                    let ix = k.next().ok_or("rulesc bug: an index without a value")?;
                    let e = self.tmp("element");
                    // Under a borrowed element or entry (`whole`), through it.
                    let list = if whole { format!("*{s}") } else { s.clone() };
                    let at = site(indices);
                    indices += 1;
                    let get = format!("{RT}::__private::error::index_mut(&mut {list}, {ix}, {at})");
                    lines.push(format!("let {e} = {};", self.try_(&get, false)));
                    rec = (**elem).clone();
                    s = e;
                    whole = true;
                }
                _ => {
                    return Err(format!(
                        "rulesc bug: a place step that does not fit {}",
                        self.g.p.ty_name(&rec)
                    ))
                }
            }
        }
        Ok(if lines.is_empty() {
            PlaceText::Direct(s)
        } else {
            PlaceText::Checked {
                lines,
                target: if whole { format!("*{s}") } else { s.clone() },
                recv: s,
            }
        })
    }
}

/// Whether `e` is a few operations on values at hand, with no effect, no rule error
/// and no allocation: constants, `Copy` locals and fields, `+ - *`, comparisons and
/// logic on scalars, a roll's parts, `min`/`max`/`clamp`/`abs`, entries of scale- or enum-keyed
/// maps, and outcomes built of those. Spends `budget` (one per node).
pub(super) fn cheap(e: &Expr, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let all = |xs: &[Expr], budget: &mut u32| xs.iter().all(|x| cheap(x, budget));
    match &e.kind {
        K::Const(c) => matches!(
            c,
            crate::ir::Const::Int(_) | crate::ir::Const::Bool(_) | crate::ir::Const::Choice(_)
        ),
        K::Local(_) => true,
        K::Field(r, _) | K::Neg(r) | K::Not(r) | K::Natural(r) | K::ToInt(r) | K::Abs(r) => {
            cheap(r, budget)
        }
        K::Int(op, a, b) => !op.divides() && cheap(a, budget) && cheap(b, budget),
        // Records and lists compare element by element: not cheap.
        K::Compare(_, a, b) if !matches!(a.ty, Ty::Int | Ty::Bool | Ty::Choice(_) | Ty::Roll) => {
            false
        }
        K::MapGet(a, b)
        | K::Compare(_, a, b)
        | K::And(a, b)
        | K::Or(a, b)
        | K::RollAdd {
            roll: a, delta: b, ..
        } => cheap(a, budget) && cheap(b, budget),
        K::Clamp(a, b, c) => cheap(a, budget) && cheap(b, budget) && cheap(c, budget),
        K::Min(xs) | K::Max(xs) => all(xs, budget),
        K::MakeOutcome { fields, .. } => all(fields, budget),
        _ => false,
    }
}
