//! Operands of expressions: binding them in order around effects, owned, borrowed or
//! small copies of values, constant lists, list indexing, `not` and comparisons.

use super::super::RT;
use super::scan::*;
use super::*;
use crate::ir::{CmpOp, Const, Expr, ExprKind as K, Ty};

impl BodyGen<'_, '_> {
    /// Orders operands: when a later operand has statements to run first, earlier
    /// operands that are not stable are bound before them. Returns the statements.
    pub(super) fn seq(&mut self, parts: &mut [Ex]) -> Vec<String> {
        let mut pre = Vec::new();
        for i in 0..parts.len() {
            // Values are pure: only a change of state (a fill, a procedure call) in a
            // later operand's statements can change what an earlier operand reads.
            if self.mutates(&parts[i].pre) {
                for part in parts.iter_mut().take(i) {
                    if part.list && part.mode != Mode::Value {
                        // A list read before the change: a copy of it (lists are values;
                        // a record is shared, and sees the change in both backends).
                        let t = self.tmp("operand");
                        pre.push(format!("let {t} = {}.to_vec();", part.recv()));
                        *part = Ex {
                            val: t,
                            prec: P_ATOM,
                            stable: true,
                            mode: Mode::Place,
                            array: false,
                            small: false,
                            ..part.clone()
                        };
                    } else if !part.stable && part.mode == Mode::Value {
                        let ex = std::mem::replace(part, Ex::new("", P_ATOM));
                        *part = self.hoist(&mut pre, ex, "operand");
                    }
                }
            }
            pre.append(&mut parts[i].pre);
        }
        pre
    }

    /// Whether this function may change the value `e` reads in place (a local's state,
    /// through fields, keys and indices), or a value holding it or inside it.
    pub(super) fn may_change(&self, e: &Expr) -> bool {
        let ir::Body::Procedure(stmts) = &self.f.body else {
            return false;
        };
        let mut paths = Vec::new();
        ref_paths(e, &mut paths);
        paths.iter().any(|(root, steps)| {
            let root = resolve(&self.static_alias, *root);
            may_change(stmts, &self.g.p.functions, &self.static_alias, root, steps)
        })
    }

    /// Whether `e` reads a parameter this function may change (only those change).
    pub(super) fn changes_root(&self, e: &Expr) -> bool {
        let inner = match &e.kind {
            K::Filled(t) => t,
            _ => e,
        };
        match root_local(inner) {
            Some(r) => {
                let r = self.alias[r].unwrap_or(r);
                r < self.f.params.len() && self.f.params[r].mutated
            }
            // A computed list (a call's result) is a fresh value.
            None => false,
        }
    }

    /// Whether statements include one that changes state.
    pub(super) fn mutates(&self, pre: &[String]) -> bool {
        pre.iter()
            .any(|l| self.mutating.iter().any(|m| l.contains(m.as_str())))
    }

    /// Binds a non-stable value to a fresh local (keeping roll parts usable).
    pub(super) fn hoist(&mut self, pre: &mut Vec<String>, ex: Ex, base: &str) -> Ex {
        if ex.stable {
            return ex;
        }
        let t = self.tmp(base);
        pre.push(format!("let {t} = {};", ex.val));
        let roll = ex
            .roll
            .as_ref()
            .map(|_| (format!("{t}.total"), format!("{t}.natural")));
        Ex {
            pre: Vec::new(),
            val: t,
            prec: P_ATOM,
            stable: true,
            mode: ex.mode,
            roll,
            bound: false,
            list: ex.list,
            array: ex.array,
            small: ex.small,
        }
    }

    /// `ex` as a stable text (bound to a fresh local when it is not).
    pub(super) fn stable_val(&mut self, pre: &mut Vec<String>, ex: Ex, base: &str) -> String {
        pre.extend(ex.pre.iter().cloned());
        let ex = Ex {
            pre: Vec::new(),
            ..ex
        };
        self.hoist(pre, ex, base).val
    }

    /// An owned value of type `ty` from `ex` (clones a place or reference).
    pub(super) fn owned(&self, ex: &Ex, ty: &Ty) -> String {
        if ex.array {
            return match ex.mode {
                Mode::Value => format!("Vec::from({})", ex.val),
                Mode::Place | Mode::Ref => format!("{}.to_vec()", ex.recv()),
            };
        }
        if self.g.is_copy(ty) {
            return match ex.mode {
                Mode::Ref => format!("*{}", ex.at(P_UNARY)),
                _ => ex.val.clone(),
            };
        }
        match ex.mode {
            Mode::Value => ex.val.clone(),
            Mode::Place | Mode::Ref => match ty {
                Ty::List(_) if ex.mode == Mode::Ref => format!("{}.to_vec()", ex.recv()),
                _ => format!("{}.clone()", ex.recv()),
            },
        }
    }

    /// A `SmallList` of type `small_ty` (see `Gen::small_list_ty`) from `ex`, a list of
    /// small elements: the value itself when it is one, else a copy (no allocation up to
    /// its capacity). `typed`: the place it goes names its type (a function's result),
    /// so the constructor need not.
    pub(super) fn small(&self, ex: &Ex, small_ty: &str, typed: bool) -> String {
        let path = if typed {
            format!("{RT}::SmallList")
        } else {
            small_ty.replacen("SmallList<", "SmallList::<", 1)
        };
        if ex.small && ex.mode == Mode::Value {
            return ex.val.clone();
        }
        if ex.val.starts_with("Vec::<") && ex.val.ends_with(">::new()") {
            return format!("{path}::new()");
        }
        match ex.mode {
            Mode::Ref => format!("{path}::from_slice({})", ex.val),
            _ => format!("{path}::from_slice(&{})", ex.at(P_UNARY)),
        }
    }

    /// A function's result of type `ty` from `ex`: a `SmallList` for a list of small
    /// elements (`Gen::ret_ty`), else owned.
    pub(super) fn ret_value(&self, ex: &Ex, ty: &Ty) -> Result<String, String> {
        Ok(match self.g.small_list_ty(ty)? {
            Some(small_ty) => self.small(ex, &small_ty, true),
            None => self.owned(ex, ty),
        })
    }

    /// A `&T` from `ex` (non-`Copy` values).
    pub(super) fn by_ref(&self, ex: &Ex) -> String {
        match ex.mode {
            Mode::Ref => ex.val.clone(),
            Mode::Value | Mode::Place => format!("&{}", ex.at(P_UNARY)),
        }
    }

    /// Binds an effect's result as `dest` asks. `rhs` is the effectful expression.
    pub(super) fn bind(
        &mut self,
        pre: &mut Vec<String>,
        rhs: String,
        base: &str,
        dest: &Dest,
        unit: bool,
    ) -> Ex {
        match dest {
            Dest::Discard => {
                pre.push(format!("{rhs};"));
                Ex::new("()", P_ATOM).stable()
            }
            _ if unit => {
                pre.push(format!("{rhs};"));
                Ex::new("()", P_ATOM).stable()
            }
            Dest::Bind(ident, m) => {
                pre.push(format!(
                    "let {}{ident} = {rhs};",
                    if *m { "mut " } else { "" }
                ));
                let mut ex = Ex::new(ident.clone(), P_ATOM).stable();
                ex.bound = true;
                ex
            }
            Dest::Val => {
                let t = self.tmp(base);
                pre.push(format!("let {t} = {rhs};"));
                Ex::new(t, P_ATOM).stable()
            }
        }
    }

    /// The name a result takes: the destination's, or a fresh one.
    pub(super) fn result_name(&mut self, dest: &Dest, base: &str) -> (String, bool, bool) {
        match dest {
            Dest::Bind(ident, m) => (ident.clone(), *m, true),
            _ => (self.tmp(base), false, false),
        }
    }

    /// `min`/`max` (`f`) of two levels of a scale, both stable texts, by their
    /// position: `if (b as u16) < (a as u16) { b } else { a }`. A select, where the
    /// derived `Ord::min` of an enum compiles to a branch.
    pub(super) fn pick_level(&self, f: &str, a: &str, b: &str) -> String {
        let op = if f == "min" { "<" } else { ">" };
        format!("if ({b} as u16) {op} ({a} as u16) {{ {b} }} else {{ {a} }}")
    }

    /// A constant list: a scale's or enum's `ALL` when it holds every variant in order,
    /// an empty `Vec`, or an array.
    pub(super) fn const_list(&self, items: &[Const], ty: &Ty) -> Option<Ex> {
        let g = self.g;
        let Ty::List(elem) = ty else { return None };
        if let Ty::Choice(c) = **elem {
            let n = g.p.choices[c].variants.len();
            let all = items.len() == n
                && items
                    .iter()
                    .enumerate()
                    .all(|(i, x)| *x == Const::Choice(i as u16));
            if all {
                let mut ex = Ex::new(format!("{}::ALL", g.id.choice[c]), P_ATOM)
                    .stable()
                    .mode(Mode::Place);
                ex.array = true;
                return Some(ex);
            }
        }
        if items.is_empty() {
            return Some(
                Ex::new(format!("Vec::<{}>::new()", g.rust_ty(elem).ok()?), P_ATOM).stable(),
            );
        }
        let vals: Vec<String> = items
            .iter()
            .map(|x| g.const_expr(x, elem))
            .collect::<Result<_, _>>()
            .ok()?;
        let mut ex = Ex::new(format!("[{}]", vals.join(", ")), P_ATOM);
        ex.stable = g.is_copy(elem);
        ex.array = true;
        Some(ex)
    }

    /// `list[index]`: the element, or a rule error at `check` outside the list (`None`:
    /// the checker proved the index inside). A `Copy` element is copied out; any other
    /// is read in place (`Ref`).
    pub(super) fn list_get(
        &mut self,
        list: &Expr,
        index: &Expr,
        check: Option<u32>,
        ty: &Ty,
    ) -> Result<Ex, String> {
        let g = self.g;
        let mut parts = vec![self.expr(list, Dest::Val)?, self.expr(index, Dest::Val)?];
        let mut pre = self.seq(&mut parts);
        let ix = parts.pop().ok_or("rulesc bug")?;
        let lx = parts.pop().ok_or("rulesc bug")?;
        // A list made here (a call's result, a comprehension) lives in a local while
        // its element is read.
        let items = if lx.mode == Mode::Value && !lx.stable {
            let t = self.tmp("items");
            pre.push(format!("let {t} = {};", lx.val));
            t
        } else {
            lx.recv()
        };
        let Some(site) = check else {
            let val = format!("{items}[{} as usize]", ix.at(P_CAST));
            return Ok(if g.is_copy(ty) {
                Ex::new(val, P_ATOM).with_pre(pre)
            } else {
                Ex::new(format!("&{val}"), P_UNARY)
                    .with_pre(pre)
                    .mode(Mode::Ref)
            });
        };
        let item = self.tmp("item");
        let list_ref = if lx.mode == Mode::Ref {
            items
        } else {
            format!("&{items}")
        };
        let get = format!(
            "{RT}::__private::error::index({list_ref}, {}, {site})",
            ix.val
        );
        pre.push(format!("let {item} = {};", self.try_(&get, false)));
        Ok(if g.is_copy(ty) {
            Ex::new(format!("*{item}"), P_UNARY).with_pre(pre)
        } else {
            Ex::new(item, P_ATOM).stable().with_pre(pre).mode(Mode::Ref)
        })
    }

    pub(super) fn need_env(&self, what: &str) -> Result<(), String> {
        if self.traced {
            Ok(())
        } else {
            Err(format!("rulesc bug: a {what} in formula `{}`", self.f.name))
        }
    }

    pub(super) fn track_len(&self, ty: &Ty) -> usize {
        match ty {
            Ty::Track(t) => self.g.p.tracks[*t].boxes.len(),
            _ => unreachable!("`filled` and `fill` take a track (the checker's type rule)"),
        }
    }

    /// The (total, natural) of a roll value.
    pub(super) fn roll_parts(&mut self, pre: &mut Vec<String>, r: Ex) -> (String, String) {
        if let Some(parts) = r.roll.clone() {
            return parts;
        }
        let r = self.hoist(pre, r, "roll");
        (
            format!("{}.total", r.recv()),
            format!("{}.natural", r.recv()),
        )
    }

    pub(super) fn not(&mut self, a: &Expr) -> Result<Ex, String> {
        match &a.kind {
            K::Not(inner) => return self.expr(inner, Dest::Val),
            K::Const(Const::Bool(v)) => return Ok(Ex::new((!v).to_string(), P_ATOM).stable()),
            // `x == none`
            K::IsSome(x) => {
                let ex = self.expr(x, Dest::Val)?;
                return Ok(Ex::new(format!("{}.is_none()", ex.recv()), P_ATOM).with_pre(ex.pre));
            }
            K::Compare(op, x, y) if matches!(x.ty, Ty::Int | Ty::Choice(_) | Ty::Bool) => {
                return self.compare(op.negated(), x, y);
            }
            _ => {}
        }
        let ax = self.expr(a, Dest::Val)?;
        match ax.val.as_str() {
            "true" | "false" => Ok(Ex::new(
                if ax.val == "true" { "false" } else { "true" },
                P_ATOM,
            )
            .stable()
            .with_pre(ax.pre)),
            _ => Ok(Ex::new(format!("!{}", ax.at(P_UNARY)), P_UNARY).with_pre(ax.pre)),
        }
    }

    pub(super) fn compare(&mut self, op: CmpOp, a: &Expr, b: &Expr) -> Result<Ex, String> {
        // `x == true` reads `x`: clippy would flag the comparison.
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            let lit_bool = |e: &Expr| match e.kind {
                K::Const(Const::Bool(v)) => Some(v),
                _ => None,
            };
            let (other, v) = match (lit_bool(a), lit_bool(b)) {
                (_, Some(v)) => (a, v),
                (Some(v), None) => (b, v),
                _ => (a, true),
            };
            if lit_bool(a).is_some() || lit_bool(b).is_some() {
                return if v == (op == CmpOp::Eq) {
                    self.expr(other, Dest::Val)
                } else {
                    self.not(other)
                };
            }
        }
        let mut parts = vec![self.expr(a, Dest::Val)?, self.expr(b, Dest::Val)?];
        let pre = self.seq(&mut parts);
        let sym = match op {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        };
        let (x, y) = (&parts[0], &parts[1]);
        if x.small || y.small {
            // A `SmallList` beside another list: both read as slices.
            let val = format!("{}[..] {sym} {}[..]", x.recv(), y.recv());
            return Ok(Ex::new(val, P_CMP).with_pre(pre));
        }
        // `x as i64 < y` would read `<` as the start of generic arguments.
        let lhs = if x.prec == P_CAST && matches!(op, CmpOp::Lt | CmpOp::Le) {
            format!("({})", x.val)
        } else {
            x.at(P_CMP + 1)
        };
        let rhs = y.at(P_CMP + 1);
        Ok(Ex::new(format!("{lhs} {sym} {rhs}"), P_CMP).with_pre(pre))
    }
}
