//! List operations that pick or order elements (`first`, `index_of`, `sort`, `min_by`,
//! `max_by`) and `lo..hi`, each a loop in the interpreter's order: per element, the
//! condition, then the keys left to right; a map's `keys` and the entries of a map keyed
//! by anything but a scale or enum.

use super::super::RT;
use super::scan::*;
use super::*;
use crate::ir::{Expr, ExprKind as K, Ty};

impl BodyGen<'_, '_> {
    /// `lo..hi`: a `Vec<i64>`; with a `site`, held to `MAX_LOOP` numbers first (a rule
    /// error past it).
    /// `map[key]` of a map keyed by anything but a scale or enum (`SortedMap::get`: the
    /// map's zero for a key it does not hold), a `Copy` value copied out.
    pub(super) fn sorted_get(&mut self, m: &Expr, k: &Expr, ty: &Ty) -> Result<Ex, String> {
        let mut parts = vec![self.expr(m, Dest::Val)?, self.expr(k, Dest::Val)?];
        let pre = self.seq(&mut parts);
        let get = format!("{}.get({})", parts[0].recv(), self.by_ref(&parts[1]));
        Ok(if self.g.is_copy(ty) {
            Ex::new(format!("*{get}"), P_UNARY).with_pre(pre)
        } else {
            Ex::new(get, P_ATOM).with_pre(pre).mode(Mode::Ref)
        })
    }

    /// `keys(map)`: every variant of a scale or enum key (the map itself evaluated for
    /// what it does, as the interpreter does, unless it is a local or a field of one);
    /// the keys a `SortedMap` holds, ascending.
    pub(super) fn map_keys(&mut self, m: &Expr) -> Result<Ex, String> {
        fn read(e: &Expr) -> bool {
            match &e.kind {
                K::Local(_) => true,
                K::Field(r, _) => read(r),
                _ => false,
            }
        }
        let g = self.g;
        match &m.ty {
            Ty::Map(c, _) => {
                let mut pre = Vec::new();
                if !read(m) {
                    let mx = self.expr(m, Dest::Val)?;
                    pre = mx.pre;
                    pre.push(format!("let _ = {};", mx.val));
                }
                let mut ex = Ex::new(format!("{}::ALL", g.id.choice[*c]), P_ATOM)
                    .stable()
                    .mode(Mode::Place)
                    .with_pre(pre);
                ex.array = true;
                Ok(ex)
            }
            Ty::SortedMap(kt, _) => {
                let mx = self.expr(m, Dest::Val)?;
                let val = format!(
                    "{}.keys().cloned().collect::<Vec<{}>>()",
                    mx.recv(),
                    g.rust_ty(kt)?
                );
                Ok(Ex::new(val, P_ATOM).with_pre(mx.pre))
            }
            _ => Err("rulesc bug: `keys` of something not a map".into()),
        }
    }

    pub(super) fn range(&mut self, lo: &Expr, hi: &Expr, site: Option<u32>) -> Result<Ex, String> {
        let mut parts = vec![self.expr(lo, Dest::Val)?, self.expr(hi, Dest::Val)?];
        let mut pre = self.seq(&mut parts);
        let (l, h) = match site {
            None => (parts[0].at(P_CAST), parts[1].at(P_CAST)),
            Some(site) => {
                let hx = parts.pop().ok_or("rulesc bug")?;
                let lx = parts.pop().ok_or("rulesc bug")?;
                let l = self.stable_val(&mut pre, lx, "lo");
                let h = self.stable_val(&mut pre, hx, "hi");
                let check = format!("{RT}::__private::error::range_room({l}, {h}, {site})");
                pre.push(format!("{};", self.try_(&check, false)));
                (l, h)
            }
        };
        let val = format!("({l}..{h}).collect::<Vec<i64>>()");
        Ok(Ex::new(val, P_ATOM).with_pre(pre))
    }

    /// The loop head over `list` binding `var` (and the position as `index`), with its
    /// statements first, and the element's owned value.
    fn each_element(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        keys: &[Expr],
        index: Option<&str>,
    ) -> Result<(Vec<String>, String), String> {
        let fns = &self.g.p.functions;
        let mutates = self.changes_root(list)
            && (cond.is_some_and(|c| expr_mutates(c, fns))
                || keys.iter().any(|k| expr_mutates(k, fns)));
        let (mut pre, iter, copied) = self.iter_of(list, var, mutates)?;
        let v = self.slots[var].ident.clone();
        let binding = format!("{}{v}", if copied { "&" } else { "" });
        pre.push(match index {
            Some(i) => format!("for ({i}, {binding}) in {iter}.enumerate() {{"),
            None => format!("for {binding} in {iter} {{"),
        });
        if let Some(ce) = cond {
            let skip = self.not(ce)?;
            pre.extend(skip.pre.iter().cloned());
            pre.push(format!("if {} {{ continue; }}", skip.val));
        }
        let elem = match &list.ty {
            Ty::List(t) => (**t).clone(),
            _ => return Err("rulesc bug: a list operation over a non-list".into()),
        };
        let item = Ex::new(v, P_ATOM).stable().mode(if self.g.is_copy(&elem) {
            Mode::Value
        } else {
            Mode::Ref
        });
        Ok((pre, self.owned(&item, &elem)))
    }

    /// The keys of the element in the loop, as a tuple (statements added to `pre`), and
    /// the tuple's Rust type.
    fn keys(&mut self, keys: &[Expr], pre: &mut Vec<String>) -> Result<(String, String), String> {
        let mut vals = Vec::new();
        let mut tys = Vec::new();
        for k in keys {
            let kx = self.expr(k, Dest::Val)?;
            let v = self.stable_val(pre, kx, "key");
            vals.push(v);
            tys.push(self.g.rust_ty(&k.ty)?);
        }
        Ok((
            format!("({},)", vals.join(", ")),
            format!("({},)", tys.join(", ")),
        ))
    }

    /// `first(var in list if cond)`, `index_of(..)`: an `Option`.
    pub(super) fn find(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        index: bool,
        ty: &Ty,
    ) -> Result<Ex, String> {
        let at = self.tmp("index");
        let (mut pre, item) =
            self.each_element(var, list, cond, &[], index.then_some(at.as_str()))?;
        let found = self.tmp("found");
        let value = if index { format!("{at} as i64") } else { item };
        pre.insert(
            0,
            format!("let mut {found}: {} = None;", self.g.rust_ty(ty)?),
        );
        pre.push(format!("{found} = Some({value});"));
        pre.push("break;".into());
        pre.push("}".into());
        Ok(Ex::new(found, P_ATOM).stable().with_pre(pre))
    }

    /// `sort(var in list if cond by keys)`: a stable sort of the elements by their keys.
    pub(super) fn sort(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        keys: &[Expr],
        ty: &Ty,
    ) -> Result<Ex, String> {
        let Ty::List(elem) = ty else {
            return Err("rulesc bug: a sort of a non-list".into());
        };
        let (mut pre, item) = self.each_element(var, list, cond, keys, None)?;
        let (k, kty) = self.keys(keys, &mut pre)?;
        let keyed = self.tmp("keyed");
        let elem_ty = self.g.rust_ty(elem)?;
        pre.insert(
            0,
            format!("let mut {keyed}: Vec<({kty}, {elem_ty})> = Vec::new();"),
        );
        pre.push(format!("{keyed}.push(({k}, {item}));"));
        pre.push("}".into());
        // `sort_by_key` is stable: equal keys keep the list's order, as in the interpreter.
        pre.push(format!("{keyed}.sort_by_key(|entry| entry.0);"));
        let sorted = self.tmp("sorted");
        pre.push(format!(
            "let {sorted}: Vec<{elem_ty}> = {keyed}.into_iter().map(|(_, item)| item).collect();"
        ));
        Ok(Ex::new(sorted, P_ATOM).stable().with_pre(pre))
    }

    /// `min_by(..)`, `max_by(..)`: the first element with the lowest (highest) keys.
    pub(super) fn best(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        keys: &[Expr],
        max: bool,
        ty: &Ty,
    ) -> Result<Ex, String> {
        let Ty::Option(elem) = ty else {
            return Err("rulesc bug: a min_by of a non-optional".into());
        };
        let (mut pre, item) = self.each_element(var, list, cond, keys, None)?;
        let (k, kty) = self.keys(keys, &mut pre)?;
        let best = self.tmp("best");
        let elem_ty = self.g.rust_ty(elem)?;
        pre.insert(
            0,
            format!("let mut {best}: Option<({kty}, {elem_ty})> = None;"),
        );
        let key = self.tmp("key");
        pre.push(format!("let {key} = {k};"));
        let cmp = if max { ">" } else { "<" };
        pre.push(format!(
            "if {best}.as_ref().is_none_or(|(b, _)| {key} {cmp} *b) {{ {best} = Some(({key}, {item})); }}"
        ));
        pre.push("}".into());
        let result = self.tmp("chosen");
        pre.push(format!(
            "let {result}: Option<{elem_ty}> = {best}.map(|(_, item)| item);"
        ));
        Ok(Ex::new(result, P_ATOM).stable().with_pre(pre))
    }
}
