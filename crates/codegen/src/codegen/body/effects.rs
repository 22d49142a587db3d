//! The expressions that act: procedure calls, table rolls, decisions, fills, and
//! the loops of `for` and aggregates.

use super::super::ident::lit;
use super::super::types::{dice_expr, roll_call};
use super::super::RT;
use super::scan::*;
use super::stmt::PlaceText;
use super::*;
use crate::ir::{Agg, DecideOptions, Expr, ExprKind as K, Place, PlaceStep, TableKey, Ty};

impl BodyGen<'_, '_> {
    pub(super) fn call(
        &mut self,
        fid: usize,
        args: &[Expr],
        ret: &Ty,
        dest: &Dest,
    ) -> Result<Ex, String> {
        let g = self.g;
        let callee = &g.p.functions[fid];
        let mut parts = Vec::new();
        for (a, p) in args.iter().zip(&callee.params) {
            parts.push(
                if p.mutated && matches!(p.ty, Ty::Record(_)) && !field_path(a) {
                    self.element_mut(a)?
                } else {
                    self.expr(a, Dest::Val)?
                },
            );
        }
        let mut pre = self.seq(&mut parts);
        let any_mut = callee
            .params
            .iter()
            .any(|p| p.mutated && matches!(p.ty, Ty::Record(_)));
        let mut texts = Vec::new();
        let mut mut_roots: Vec<usize> = Vec::new();
        let callee_fight = g.fight[fid];
        for (i, (p, ex)) in callee.params.iter().zip(parts).enumerate() {
            let in_fight = crate::ir::expr_touches_fight(&args[i]);
            let text = if p.mutated && matches!(p.ty, Ty::Record(_)) && in_fight {
                // A record of a fighter's state, changed in place.
                if callee_fight {
                    return Err(format!(
                        "`{}`: `{}` uses the fight, so it cannot also change a record of a fighter's state passed as `{}`; pass the fighter",
                        self.f.name, callee.name, p.name
                    ));
                }
                format!("&mut {}", ex.at(P_UNARY))
            } else if p.mutated && matches!(p.ty, Ty::Record(_)) {
                // A record the callee changes: the caller's own parameter (or a record
                // inside it, or a local naming one), passed on.
                let root = root_local(&args[i]).map(|r| self.alias[r].unwrap_or(r));
                match root {
                    Some(r) if r < self.f.params.len() && self.f.params[r].mutated => {
                        mut_roots.push(r);
                        match ex.mode {
                            Mode::Ref => ex.val.clone(),
                            _ => format!("&mut {}", ex.at(P_UNARY)),
                        }
                    }
                    // A record the caller's own `let` holds (owned and `mut`, see
                    // `mark_passed_to_change`), passed whole.
                    Some(r)
                        if r >= self.f.params.len()
                            && matches!(args[i].kind, K::Local(_))
                            && self.mutable[r]
                            && !self.slots[r].by_ref =>
                    {
                        mut_roots.push(r);
                        format!("&mut {}", self.slots[r].ident)
                    }
                    _ => {
                        return Err(format!(
                            "`{}`: the Rust backend can pass to `{}` (which changes its `{}`) only a parameter of the caller",
                            self.f.name, callee.name, p.name
                        ))
                    }
                }
            } else if g.is_copy(&p.ty) {
                let ex = if any_mut || callee_fight {
                    self.hoist(&mut pre, ex, "arg")
                } else {
                    ex
                };
                ex.val.clone()
            } else if crate::ir::copied_from_fight(&args[i], p) {
                // Read from the fight: a copy (as the interpreter passes it).
                let t = self.tmp("arg");
                pre.push(format!("let {t} = {};", self.owned(&ex, &p.ty)));
                match p.ty {
                    Ty::List(_) => format!("&{t}[..]"),
                    _ => format!("&{t}"),
                }
            } else {
                self.by_ref(&ex)
            };
            texts.push(text);
        }
        // A record passed to be changed cannot also be passed (or a part of it) beside.
        for (i, a) in args.iter().enumerate() {
            let mutated = callee.params[i].mutated && matches!(callee.params[i].ty, Ty::Record(_));
            if mutated || g.is_copy(&callee.params[i].ty) {
                continue;
            }
            if let Some(s) = root_local(a) {
                if mut_roots.contains(&s) {
                    return Err(format!(
                        "`{}`: the Rust backend cannot pass `{}` to `{}`, which changes it, and also read it in another argument",
                        self.f.name, self.f.locals[s].name, callee.name
                    ));
                }
            }
        }
        let mut seen = Vec::new();
        for s in &mut_roots {
            if seen.contains(s) {
                return Err(format!(
                    "`{}`: the Rust backend cannot pass `{}` twice to `{}`, which changes it",
                    self.f.name, self.f.locals[*s].name, callee.name
                ));
            }
            seen.push(*s);
        }
        let name = &g.id.function[fid];
        if callee_fight {
            texts.insert(0, "fight".into());
        }
        // A list of small elements comes back as a `SmallList`.
        let small = g.small_list_ty(&callee.ret)?.is_some();
        let mut ex = if !callee.is_procedure() {
            let val = format!("{name}({})", texts.join(", "));
            if callee.fallible {
                // Bound first, so no `?` lands in a closure of an iterator chain.
                let rhs = self.try_(&val, false);
                self.bind(&mut pre, rhs, "value", dest, false).with_pre(pre)
            } else {
                Ex::new(val, P_ATOM).with_pre(pre)
            }
        } else {
            self.need_env("procedure call")?;
            texts.insert(0, "env".into());
            let mut rhs = format!("{name}({})", texts.join(", "));
            if callee.fallible {
                rhs = self.try_(&rhs, true);
            }
            if any_mut || callee_fight {
                self.mutating.push(rhs.clone());
            }
            self.bind(&mut pre, rhs, "result", dest, *ret == Ty::Unit)
                .with_pre(pre)
        };
        ex.array = small;
        ex.small = small;
        Ok(ex)
    }

    /// A record inside a list of a parameter (`c.wounds[i]`, `c.wounds[i].bandage`) to
    /// be changed by a procedure: a `&mut` to it, or a rule error (at that index's site,
    /// as the interpreter reads each `list[i]`) outside the list.
    fn element_mut(&mut self, e: &Expr) -> Result<Ex, String> {
        /// The local under `e`, and its path: fields, and indices with their sites.
        fn steps<'e>(
            e: &'e Expr,
            out: &mut Vec<(Option<usize>, Option<&'e Expr>)>,
            sites: &mut Vec<u32>,
        ) -> Option<usize> {
            match &e.kind {
                K::Local(s) => Some(*s),
                K::Field(r, i) => {
                    let root = steps(r, out, sites)?;
                    out.push((Some(*i), None));
                    Some(root)
                }
                K::ListGet(r, ix, check) => {
                    let root = steps(r, out, sites)?;
                    out.push((None, Some(&**ix)));
                    // An index the checker proved inside never fails: its site is not read.
                    sites.push(check.unwrap_or(0));
                    Some(root)
                }
                _ => None,
            }
        }
        let mut sites = Vec::new();
        let mut path = Vec::new();
        let Some(root) = steps(e, &mut path, &mut sites) else {
            // Not under a local: the caller reports it.
            return self.expr(e, Dest::Val);
        };
        let mut parts = Vec::new();
        let mut place = Place {
            root,
            path: Vec::new(),
            ty: e.ty.clone(),
            range: None,
        };
        for (field, ix) in path {
            match (field, ix) {
                (Some(i), _) => place.path.push(PlaceStep::Field(i)),
                (None, Some(ix)) => {
                    parts.push(self.expr(ix, Dest::Val)?);
                    place.path.push(PlaceStep::Index(ix.clone()));
                }
                _ => return Err("rulesc bug: an empty place step".into()),
            }
        }
        let mut pre = self.seq(&mut parts);
        let mut keys = Vec::new();
        for k in parts {
            keys.push(self.stable_val(&mut pre, k, "index"));
        }
        let site = |k: usize| sites[k];
        let val = match self.place_text(&place, &keys, &site)? {
            PlaceText::Direct(t) => format!("&mut {t}"),
            PlaceText::Checked { lines, target, .. } => {
                pre.extend(lines);
                format!("&mut {target}")
            }
        };
        Ok(Ex::new(val, P_ATOM).with_pre(pre).mode(Mode::Ref))
    }

    pub(super) fn roll_table(
        &mut self,
        table: usize,
        among: Option<&Expr>,
        site: u32,
        dest: &Dest,
    ) -> Result<Ex, String> {
        self.need_env("roll")?;
        let g = self.g;
        let t = &g.p.tables[table];
        let TableKey::Die(die) = t.key else {
            return Err(format!("rulesc bug: `{}` rolled without a die", t.name));
        };
        let fname = g.id.table[table].clone();
        let mut pre = Vec::new();
        let face = self.tmp("face");
        match among {
            None => {
                pre.push(format!("let {face} = {}.total;", roll_call(die, site)));
            }
            Some(list) => {
                // A dN over the totals whose value is allowed, in order; none allowed:
                // the whole die (as `eval::table_roll_faces`). The table's segments (runs
                // of totals with one value) are walked, never every total.
                let lx = self.expr(list, Dest::Val)?;
                pre.extend(lx.pre.iter().cloned());
                let allowed = self.tmp("allowed");
                pre.push(format!("let {allowed} = {};", self.by_ref(&lx)));
                let (lo, hi) = die.range();
                let segments: Vec<String> = t
                    .segments(lo, hi)
                    .iter()
                    .map(|(a, b)| format!("({a}, {b})"))
                    .collect();
                let all = self.tmp("segments");
                pre.push(format!(
                    "let {all}: &[(i64, i64)] = &[{}];",
                    segments.join(", ")
                ));
                let f = self.tmp("f");
                let kept = if t.partial() {
                    format!("{all}.iter().copied().filter(|&({f}, _)| {fname}({f}).is_some_and(|v| {allowed}.contains(&v)))")
                } else {
                    format!("{all}.iter().copied().filter(|&({f}, _)| {allowed}.contains(&{fname}({f})))")
                };
                let count = self.tmp("count");
                let total = self.tmp("total");
                pre.push(format!(
                    "let {count}: i64 = {kept}.map(|(a, b)| b - a + 1).sum();"
                ));
                if die.count == 1 && !die.explode && die.keep == rulesc_runtime::Keep::All {
                    // A `dN` either way: one face (`rolls::one`, as `roll` would give).
                    pre.push(format!(
                        "let {total} = {RT}::__private::rolls::one(&mut env.dice, if {count} == 0 {{ {} }} else {{ {count} as u32 }}, &mut env.trace, {site}).total;",
                        die.sides
                    ));
                } else {
                    pre.push(format!(
                        "let {total} = {RT}::roll(&mut env.dice, if {count} == 0 {{ {} }} else {{ {RT}::DiceSpec::new(1, {count} as u32) }}, &mut env.trace, {site}).total;",
                        dice_expr(die)
                    ));
                }
                pre.push(format!(
                    "let {face} = if {count} == 0 {{ {total} }} else {{ {RT}::__private::rolls::nth_total({kept}, {total}.max(1)) }};"
                ));
            }
        }
        let (v, m, bound) = self.result_name(dest, "value");
        // A plain roll's face is always on the die: it indexes the table's `const` array.
        // Otherwise the face is one of the die's too, and every face has a row (checked).
        let lookup = match (&g.id.table_by_face[table], super::super::by_face(t), among) {
            (Some(arr), Some((lo, _)), None) => format!("{arr}[({face} - {lo}) as usize]"),
            _ if t.partial() => format!(
                "match {fname}({face}) {{ Some(v) => v, None => unreachable!(\"{}\") }}",
                crate::ir::DIE_ROWS
            ),
            _ => format!("{fname}({face})"),
        };
        pre.push(format!(
            "let {}{v} = {lookup};",
            if m { "mut " } else { "" }
        ));
        let vs = g.traced(&t.value, &v);
        pre.push(self.event(&format!(
            "Lookup {{ site: {site}, key: {face}.to_string(), value: {vs} }}"
        )));
        let mut ex = Ex::new(v, P_ATOM).stable().with_pre(pre);
        ex.bound = bound;
        // A list of numbers, flags or names is the table's `&'static [T]`, a reference.
        if matches!(&t.value, Ty::List(elem) if g.small_elem(elem)) {
            ex.array = true;
            ex.mode = Mode::Ref;
        }
        Ok(ex)
    }

    pub(super) fn decide(
        &mut self,
        name: &str,
        options: &DecideOptions,
        site: u32,
        ty: &Ty,
        dest: &Dest,
    ) -> Result<Ex, String> {
        self.need_env("decision")?;
        let g = self.g;
        let mut pre = Vec::new();
        let (v, m, bound) = self.result_name(dest, "decided");
        let mutkw = if m { "mut " } else { "" };
        let name = lit(name);
        let mut mode = Mode::Value;
        match options {
            DecideOptions::Choice(c) => {
                let n = g.p.choices[*c].variants.len();
                if n == 1 {
                    // One option: still asked (a decider may count), the answer is it.
                    pre.push(format!("env.decide.decide({name}, 1);"));
                    pre.push(format!("let {mutkw}{v} = {}::ALL[0];", g.id.choice[*c]));
                } else {
                    pre.push(format!(
                        "let {mutkw}{v} = {}::ALL[env.decide.decide({name}, {n}).min({}) as usize];",
                        g.id.choice[*c],
                        n - 1
                    ));
                }
            }
            DecideOptions::Bool => {
                pre.push(format!(
                    "let {mutkw}{v} = env.decide.decide({name}, 2).min(1) == 1;"
                ));
            }
            DecideOptions::List(l) if filled_track(l).is_some() => {
                // Among the filled boxes, without collecting them.
                let t = filled_track(l).ok_or("rulesc bug")?;
                let tx = self.expr(t, Dest::Val)?;
                pre.extend(tx.pre.iter().cloned());
                let track = self.tmp("track");
                pre.push(format!("let {track} = {};", tx.val));
                let boxes = format!("{track}.boxes_to({})", self.track_len(&t.ty));
                let n = self.tmp("n");
                pre.push(format!("let {n} = {boxes}.count() as u32;"));
                if !crate::ir::walk::non_empty_list(l) {
                    pre.push(format!(
                        "if {n} == 0 {{ {} }}",
                        self.raise(site, &format!("NoOptions {{ decision: {name} }}"))
                    ));
                }
                pre.push(format!(
                    "let {mutkw}{v} = {boxes}.nth(env.decide.decide({name}, {n}).min({n} - 1) as usize).unwrap_or_else(|| unreachable!(\"{}\"));",
                    "the answer is one of the boxes, and there is one (else `NoOptions` above, or the checker proved the list not empty)"
                ));
            }
            DecideOptions::List(l) => {
                let lx = self.expr(l, Dest::Val)?;
                pre.extend(lx.pre.iter().cloned());
                let items = self.tmp("items");
                pre.push(format!("let {items} = {};", self.by_ref(&lx)));
                let n = self.tmp("n");
                if !crate::ir::walk::non_empty_list(l) {
                    pre.push(format!(
                        "if {items}.is_empty() {{ {} }}",
                        self.raise(site, &format!("NoOptions {{ decision: {name} }}"))
                    ));
                }
                pre.push(format!("let {n} = {items}.len() as u32;"));
                let pick = format!("env.decide.decide({name}, {n}).min({n} - 1) as usize");
                if g.is_copy(ty) {
                    pre.push(format!("let {mutkw}{v} = {items}[{pick}];"));
                } else {
                    pre.push(format!("let {mutkw}{v} = &{items}[{pick}];"));
                    mode = Mode::Ref;
                }
            }
        }
        let shown = g.traced(ty, &v);
        pre.push(self.event(&format!("Decide {{ site: {site}, choice: {shown} }}")));
        let mut ex = Ex::new(v, P_ATOM).stable().with_pre(pre).mode(mode);
        ex.bound = bound && mode == Mode::Value;
        Ok(ex)
    }

    pub(super) fn fill(
        &mut self,
        track: &Place,
        level: &Expr,
        site: u32,
        dest: &Dest,
    ) -> Result<Ex, String> {
        self.need_env("fill")?;
        let g = self.g;
        let Ty::Track(tid) = track.ty else {
            return Err("rulesc bug: fill of a non-track".into());
        };
        let def = &g.p.tracks[tid];
        let lx = self.expr(level, Dest::Val)?;
        let mut parts = vec![lx];
        for st in &track.path {
            if let PlaceStep::Key(k) | PlaceStep::Index(k) = st {
                parts.push(self.expr(k, Dest::Val)?);
            }
        }
        let mut pre = self.seq(&mut parts);
        let mut keys = Vec::new();
        for k in parts.drain(1..) {
            keys.push(self.stable_val(&mut pre, k, "key"));
        }
        let lx = parts.pop().ok_or("rulesc bug")?;
        let lvl = self.stable_val(&mut pre, lx, "level");
        let filled = self.tmp("filled");
        let args = format!("&{}, {lvl} as u8, {}", g.id.track_levels[tid], def.escalate);
        let fill = match self.place_text(track, &keys, &|_| site)? {
            PlaceText::Direct(target) => format!("let {filled} = {target}.fill({args});"),
            PlaceText::Checked { lines, recv, .. } => {
                pre.extend(lines);
                format!("let {filled} = {recv}.fill({args});")
            }
        };
        self.mutating.push(fill.clone());
        pre.push(fill);
        let (slot, m, bound) = self.result_name(dest, "slot");
        pre.push(format!(
            "let {}{slot} = {filled}.map_or(0, |(n, _)| n as i64);",
            if m { "mut " } else { "" }
        ));
        let scale = &g.id.choice[def.scale];
        let shown = format!(
            "{RT}::__private::show::cut({filled}.map_or({lvl}, |(_, l)| {scale}::ALL[usize::from(l)]).to_string())"
        );
        pre.push(self.event(&format!(
            "Fill {{ site: {site}, level: {shown}, {} }}",
            init("slot", &slot)
        )));
        let mut ex = Ex::new(slot, P_ATOM).stable().with_pre(pre);
        ex.bound = bound;
        Ok(ex)
    }

    /// Statements to run first, an iterator over `list`'s elements, and whether it
    /// yields references to `Copy` elements (bind them with `&v`, or `.copied()`).
    /// With `snapshot`, the elements are copied first (the loop body changes state).
    pub(super) fn iter_of(
        &mut self,
        list: &Expr,
        var: usize,
        snapshot: bool,
    ) -> Result<(Vec<String>, String, bool), String> {
        let g = self.g;
        let elem = match &list.ty {
            Ty::List(t) => (**t).clone(),
            _ => return Err("rulesc bug: iterating a non-list".into()),
        };
        self.slots[var].by_ref = !g.is_copy(&elem);
        if let K::Filled(t) = &list.kind {
            let tx = self.expr(t, Dest::Val)?;
            let mut pre = tx.pre.clone();
            let n = self.track_len(&t.ty);
            let track = if snapshot {
                let c = self.tmp("track");
                pre.push(format!("let {c} = {};", tx.val));
                c
            } else {
                tx.recv()
            };
            return Ok((pre, format!("{track}.boxes_to({n})"), false));
        }
        let lx = self.expr(list, Dest::Val)?;
        let mut pre = lx.pre.clone();
        let items = if snapshot && lx.mode != Mode::Value {
            let c = self.tmp("items");
            pre.push(format!("let {c} = {};", self.owned(&lx, &list.ty)));
            c
        } else {
            lx.recv()
        };
        Ok((pre, format!("{items}.iter()"), g.is_copy(&elem)))
    }

    pub(super) fn aggregate(
        &mut self,
        kind: Agg,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        body: &Expr,
        ty: &Ty,
    ) -> Result<Ex, String> {
        if kind == Agg::Count && cond.is_none() && !matches!(list.kind, K::Filled(_)) {
            // Counting every element: the list's length (the body is not evaluated).
            let lx = self.expr(list, Dest::Val)?;
            return Ok(Ex::new(format!("{}.len() as i64", lx.recv()), P_CAST).with_pre(lx.pre));
        }
        let fns = &self.g.p.functions;
        let mutates = self.changes_root(list)
            && (cond.is_some_and(|c| expr_mutates(c, fns)) || expr_mutates(body, fns));
        let (mut pre, mut iter, copied) = self.iter_of(list, var, mutates)?;
        let v = self.slots[var].ident.clone();
        // `filled(t) if box.number == n`: box `n` alone, by its bit (`n` read once: the
        // body changes nothing it could read).
        let mut cond = cond;
        let numbered = cond
            .and_then(|c| numbered_box(c, var, list))
            .filter(|_| !expr_mutates(body, fns));
        if let Some(n) = numbered {
            let nx = self.expr(n, Dest::Val)?;
            pre.extend(nx.pre);
            iter = format!("{iter}.only({})", nx.val);
            cond = None;
        }
        let cx = cond.map(|c| self.expr(c, Dest::Val)).transpose()?;
        let bx = if kind == Agg::Count {
            None
        } else {
            Some(self.expr(body, Dest::Val)?)
        };
        let choice = matches!(ty, Ty::Choice(_));
        let effects = cx.as_ref().is_some_and(|c| !c.pre.is_empty())
            || bx.as_ref().is_some_and(|b| !b.pre.is_empty());
        if !effects {
            // A pure aggregate: an iterator chain.
            let param = |used: bool| if used { v.clone() } else { "_".to_string() };
            let mut chain = if copied {
                format!("{iter}.copied()")
            } else {
                iter.clone()
            };
            if let (Some(c), Some(ce)) = (&cx, cond) {
                chain = format!("{chain}.filter(|&{}| {})", param(uses_slot(ce, var)), c.val);
            }
            let body_fn = bx
                .as_ref()
                .map(|b| closure(&param(uses_slot(body, var)), &b.val))
                .unwrap_or_default();
            // The elements themselves (`sum(x for x in xs)`): no `map`.
            let itself = matches!(body.kind, K::Local(s) if s == var)
                && (copied || matches!(list.kind, K::Filled(_)));
            let mapped = if itself {
                chain.clone()
            } else {
                format!("{chain}.map({body_fn})")
            };
            let val = match kind {
                Agg::Count => format!("{chain}.count() as i64"),
                Agg::Sum => format!("{mapped}.fold(0, {RT}::__private::arith::add)"),
                Agg::Any => format!("{chain}.any({body_fn})"),
                Agg::All => format!("{chain}.all({body_fn})"),
                Agg::Max | Agg::Min => {
                    let f = if kind == Agg::Max { "max" } else { "min" };
                    // The language's max/min of an empty list: 0, or the lowest level
                    // (reference.md, "Aggregates").
                    let or = if choice {
                        "unwrap_or_default()"
                    } else {
                        "unwrap_or(0)"
                    };
                    format!("{mapped}.{f}().{or}")
                }
            };
            let prec = if val.ends_with(" as i64") {
                P_CAST
            } else {
                P_ATOM
            };
            return Ok(Ex::new(val, prec).with_pre(pre));
        }
        // Effects in the condition or body: a loop, in the interpreter's order.
        let acc = self.tmp("acc");
        let (init, result) = match kind {
            Agg::Sum | Agg::Count => ("0i64".to_string(), acc.clone()),
            Agg::Any => ("false".to_string(), acc.clone()),
            Agg::All => ("true".to_string(), acc.clone()),
            Agg::Max | Agg::Min => {
                let t = if choice {
                    self.g.rust_ty(ty)?
                } else {
                    "i64".to_string()
                };
                // An empty list's 0 or lowest level, as above.
                (
                    format!("None::<{t}>"),
                    if choice {
                        format!("{acc}.unwrap_or_default()")
                    } else {
                        format!("{acc}.unwrap_or(0)")
                    },
                )
            }
        };
        pre.push(format!("let mut {acc} = {init};"));
        pre.push(format!(
            "for {}{v} in {iter} {{",
            if copied { "&" } else { "" }
        ));
        if let Some(ce) = cond {
            let skip = self.not(ce)?;
            pre.extend(skip.pre.iter().cloned());
            pre.push(format!("if {} {{ continue; }}", skip.val));
        }
        match kind {
            Agg::Count => pre.push(format!("{acc} = {acc}.saturating_add(1);")),
            Agg::Sum => {
                let b = bx.ok_or("rulesc bug")?;
                pre.extend(b.pre.iter().cloned());
                pre.push(format!(
                    "{acc} = {RT}::__private::arith::add({acc}, {});",
                    b.val
                ));
            }
            Agg::Any => {
                let b = bx.ok_or("rulesc bug")?;
                pre.extend(b.pre.iter().cloned());
                pre.push(format!("if {} {{ {acc} = true; break; }}", b.val));
            }
            Agg::All => {
                let b = self.not(body)?;
                pre.extend(b.pre.iter().cloned());
                pre.push(format!("if {} {{ {acc} = false; break; }}", b.val));
            }
            Agg::Max | Agg::Min => {
                let b = bx.ok_or("rulesc bug")?;
                let mut lines = Vec::new();
                let x = self.stable_val(&mut lines, b, "item");
                pre.extend(lines);
                let f = if kind == Agg::Max { "max" } else { "min" };
                let a = self.tmp("best");
                pre.push(format!(
                    "{acc} = Some({acc}.map_or({x}, |{a}| {a}.{f}({x})));"
                ));
            }
        }
        pre.push("}".into());
        Ok(Ex::new(result, P_ATOM).with_pre(pre))
    }
}

impl BodyGen<'_, '_> {
    /// `[body for var in list if cond]`: an iterator chain, or a loop when the
    /// condition or body has effects (in the interpreter's order).
    pub(super) fn collect(
        &mut self,
        var: usize,
        list: &Expr,
        cond: Option<&Expr>,
        body: &Expr,
        ty: &Ty,
    ) -> Result<Ex, String> {
        let Ty::List(out) = ty else {
            return Err("rulesc bug: a collect of a non-list type".into());
        };
        let out_ty = self.g.rust_ty(out)?;
        // A list of small elements is collected into a `SmallList`.
        let small = self.g.small_list_ty(ty)?;
        let done = |val: String, pre: Vec<String>| {
            let mut ex = Ex::new(val, P_ATOM).with_pre(pre);
            ex.array = small.is_some();
            ex.small = small.is_some();
            ex
        };
        if cond.is_none() && matches!(body.kind, K::Local(s) if s == var) {
            // `[x for x in list]`: a copy of the list.
            let lx = self.expr(list, Dest::Val)?;
            let val = match &small {
                Some(small_ty) => self.small(&lx, small_ty, false),
                None => self.owned(&lx, ty),
            };
            return Ok(done(val, lx.pre));
        }
        let fns = &self.g.p.functions;
        let mutates = self.changes_root(list)
            && (cond.is_some_and(|c| expr_mutates(c, fns)) || expr_mutates(body, fns));
        let (mut pre, mut iter, copied) = self.iter_of(list, var, mutates)?;
        let v = self.slots[var].ident.clone();
        // `filled(t) if box.number == n`: box `n` alone, by its bit (`n` read once: the
        // body changes nothing it could read).
        let mut cond = cond;
        let numbered = cond
            .and_then(|c| numbered_box(c, var, list))
            .filter(|_| !expr_mutates(body, fns));
        if let Some(n) = numbered {
            let nx = self.expr(n, Dest::Val)?;
            pre.extend(nx.pre);
            iter = format!("{iter}.only({})", nx.val);
            cond = None;
        }
        let cx = cond.map(|c| self.expr(c, Dest::Val)).transpose()?;
        let bx = self.expr(body, Dest::Val)?;
        let effects = cx.as_ref().is_some_and(|c| !c.pre.is_empty()) || !bx.pre.is_empty();
        let itself = matches!(body.kind, K::Local(s) if s == var);
        if !effects {
            let param = |used: bool| if used { v.clone() } else { "_".to_string() };
            let mut chain = if copied {
                format!("{iter}.copied()")
            } else {
                iter
            };
            if let (Some(c), Some(ce)) = (&cx, cond) {
                chain = format!("{chain}.filter(|&{}| {})", param(uses_slot(ce, var)), c.val);
            }
            if itself {
                // The elements themselves: copied already, or cloned.
                if !self.g.is_copy(out) {
                    chain = format!("{chain}.cloned()");
                }
            } else {
                let value = self.owned(&bx, out);
                chain = format!(
                    "{chain}.map({})",
                    closure(&param(uses_slot(body, var)), &value)
                );
            }
            let into = small.clone().unwrap_or_else(|| format!("Vec<{out_ty}>"));
            return Ok(done(format!("{chain}.collect::<{into}>()"), pre));
        }
        let acc = self.tmp("collected");
        let path = match &small {
            Some(small_ty) => small_ty.replacen("SmallList<", "SmallList::<", 1),
            None => format!("Vec::<{out_ty}>"),
        };
        pre.push(format!("let mut {acc} = {path}::new();"));
        pre.push(format!(
            "for {}{v} in {iter} {{",
            if copied { "&" } else { "" }
        ));
        if let Some(ce) = cond {
            let skip = self.not(ce)?;
            pre.extend(skip.pre.iter().cloned());
            pre.push(format!("if {} {{ continue; }}", skip.val));
        }
        pre.extend(bx.pre.iter().cloned());
        pre.push(format!("{acc}.push({});", self.owned(&bx, out)));
        pre.push("}".into());
        Ok(done(acc, pre))
    }
}

/// In an aggregate over `list`'s elements as `var`: when `list` is a track's filled boxes
/// and `cond` is `var.number == n` (either way round) with `n` a cheap value that does
/// not read `var` (no effect, no rule error: it may be computed once, even for no box),
/// that `n`.
fn numbered_box<'e>(cond: &'e Expr, var: usize, list: &Expr) -> Option<&'e Expr> {
    if !matches!(list.kind, K::Filled(_)) {
        return None;
    }
    let K::Compare(crate::ir::CmpOp::Eq, a, b) = &cond.kind else {
        return None;
    };
    let is_number = |x: &Expr| {
        matches!(&x.kind, K::BoxPart(b, crate::ir::BoxPart::Number)
            if matches!(b.kind, K::Local(s) if s == var))
    };
    let n = if is_number(a) {
        b
    } else if is_number(b) {
        a
    } else {
        return None;
    };
    let mut budget = 8;
    (n.ty == Ty::Int && !uses_slot(n, var) && super::stmt::cheap(n, &mut budget)).then_some(n)
}

/// The track of a `filled(track)` expression.
fn filled_track(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        K::Filled(t) => Some(t),
        _ => None,
    }
}
