//! Expressions: operands in order, pure values, effects bound first.

use super::super::types::roll_call;
use super::super::{int_lit, RT};
use super::*;
use crate::ir::{self, BoxPart, Const, Expr, ExprKind as K, FacesPart, Ty};

impl BodyGen<'_, '_> {
    pub(super) fn expr(&mut self, e: &Expr, dest: Dest) -> Result<Ex, String> {
        let mut ex = self.expr_inner(e, dest)?;
        ex.list = matches!(e.ty, Ty::List(_));
        Ok(ex)
    }

    pub(super) fn expr_inner(&mut self, e: &Expr, dest: Dest) -> Result<Ex, String> {
        let g = self.g;
        let ty = &e.ty;
        Ok(match &e.kind {
            K::Const(Const::List(items)) if self.const_list(items, ty).is_some() => {
                self.const_list(items, ty).ok_or("rulesc bug")?
            }
            K::Const(c) => {
                let val = g.const_expr(c, ty)?;
                let prec = if val.starts_with('-') {
                    P_UNARY
                } else if recv(&val) != val {
                    P_BLOCK
                } else {
                    P_ATOM
                };
                let mut ex = Ex::new(val, prec);
                ex.stable = g.is_copy(ty);
                ex
            }
            K::Local(s) => {
                let slot = &self.slots[*s];
                let mode = if g.is_copy(ty) {
                    Mode::Value
                } else if slot.by_ref {
                    Mode::Ref
                } else {
                    Mode::Place
                };
                let mut ex = Ex::new(slot.ident.clone(), P_ATOM).stable().mode(mode);
                ex.array = slot.array;
                ex.small = slot.small;
                ex
            }
            K::Field(r, i) => {
                if let Some((fname, key)) = self.field_table(r, *i) {
                    // The field of a table's record, without building the record.
                    let kx = self.expr(key, Dest::Val)?;
                    let mut ex = Ex::new(format!("{fname}({})", kx.val), P_ATOM).with_pre(kx.pre);
                    if matches!(ty, Ty::List(_)) {
                        // A `&'static [T]`.
                        ex.array = true;
                        ex.mode = Mode::Ref;
                    }
                    return Ok(ex);
                }
                let base = self.expr(r, Dest::Val)?;
                let Ty::Record(rid) = r.ty else {
                    return Err("rulesc bug: field of a non-record".into());
                };
                let val = format!("{}.{}", base.recv(), g.id.field[rid][*i]);
                let mode = if g.is_copy(ty) {
                    Mode::Value
                } else {
                    Mode::Place
                };
                Ex::new(val, P_ATOM).with_pre(base.pre).mode(mode)
            }
            K::BoxPart(b, part) => {
                let bx = self.expr(b, Dest::Val)?;
                let Ty::TrackBox(t) = b.ty else {
                    return Err("rulesc bug: box part of a non-box".into());
                };
                let index = format!("{}.saturating_sub(1)", bx.recv());
                let val = match part {
                    BoxPart::Number => {
                        return Ok(
                            Ex::new(format!("{} as i64", bx.at(P_CAST)), P_CAST).with_pre(bx.pre)
                        )
                    }
                    BoxPart::Level => {
                        let scale = g.p.tracks[t].scale;
                        format!(
                            "{}::ALL[usize::from({}[{index}])]",
                            g.id.choice[scale], g.id.track_levels[t]
                        )
                    }
                    BoxPart::Attr(a) => format!("{}[{index}]", g.id.track_attr[t][*a]),
                };
                Ex::new(val, P_ATOM).with_pre(bx.pre)
            }
            // A key the map does not hold reads the map's zero.
            K::MapGet(m, k) if matches!(m.ty, Ty::SortedMap(..)) => self.sorted_get(m, k, ty)?,
            K::Keys(m) => self.map_keys(m)?,
            K::MapGet(m, k) => {
                let mut parts = vec![self.expr(m, Dest::Val)?, self.expr(k, Dest::Val)?];
                let pre = self.seq(&mut parts);
                let val = format!("{}[{} as usize]", parts[0].recv(), parts[1].at(P_CAST));
                // A value that is not `Copy` is read in place (a record, a list).
                let mode = if g.is_copy(ty) {
                    Mode::Value
                } else {
                    Mode::Place
                };
                Ex::new(val, P_ATOM).with_pre(pre).mode(mode)
            }
            K::Lookup {
                table,
                key,
                column,
                site,
                checked,
            } => self.lookup(*table, key, column.as_deref(), *site, *checked, &dest)?,
            K::Call(fid, args) => self.call(*fid, args, ty, &dest)?,
            K::Combatant(f) => {
                let fx = self.expr(f, Dest::Val)?;
                Ex::new(format!("fight[{}]", fx.val), P_ATOM)
                    .with_pre(fx.pre)
                    .mode(Mode::Place)
            }
            K::Fight(q, args) => self.fight_query(*q, args, &dest)?,
            K::Neg(a) => {
                let a = self.expr(a, Dest::Val)?;
                Ex::new(format!("{RT}::__private::arith::neg({})", a.val), P_ATOM).with_pre(a.pre)
            }
            K::Not(a) => self.not(a)?,
            K::Int(..) | K::CheckedDiv(..) => self.int_chain(e, &dest)?,
            K::InRange {
                value,
                lo,
                hi,
                site,
            } => {
                let mut parts = vec![self.expr(value, Dest::Val)?];
                let mut pre = self.seq(&mut parts);
                let checked = self.try_(
                    &format!(
                        "{RT}::__private::error::in_range({}, {}, {}, {site})",
                        parts[0].val,
                        int_lit(*lo),
                        int_lit(*hi)
                    ),
                    false,
                );
                self.bind(&mut pre, checked, "value", &dest, false)
                    .with_pre(pre)
            }
            K::RollAdd { .. } => self.roll_chain(e)?,
            K::LevelStep { .. } => self.level_chain(e, ty)?,
            K::Compare(op, a, b) => self.compare(*op, a, b)?,
            K::And(..) | K::Or(..) => self.logic_chain(e)?,
            K::In(x, l) => {
                let xe = self.expr(x, Dest::Val)?;
                if let K::Filled(t) = &l.kind {
                    let te = self.expr(t, Dest::Val)?;
                    let mut parts = vec![xe, te];
                    let pre = self.seq(&mut parts);
                    let n = self.track_len(&t.ty);
                    let b = self.tmp("number");
                    let val = format!(
                        "{}.boxes_to({n}).any(|{b}| {b} == {})",
                        parts[1].recv(),
                        parts[0].at(P_CMP + 1)
                    );
                    return Ok(Ex::new(val, P_ATOM).with_pre(pre));
                }
                let le = self.expr(l, Dest::Val)?;
                let mut parts = vec![xe, le];
                let pre = self.seq(&mut parts);
                let elem = match &l.ty {
                    Ty::List(t) => (**t).clone(),
                    _ => unreachable!("`x in list` asks a list for a value (the checker's rule)"),
                };
                let needle = if g.is_copy(&elem) {
                    format!("&{}", parts[0].at(P_UNARY))
                } else {
                    self.by_ref(&parts[0])
                };
                Ex::new(format!("{}.contains({needle})", parts[1].recv()), P_ATOM).with_pre(pre)
            }
            K::ToInt(a) => {
                let ax = self.expr(a, Dest::Val)?;
                match &a.ty {
                    Ty::Roll => {
                        let mut pre = ax.pre.clone();
                        let (total, _) = self.roll_parts(
                            &mut pre,
                            Ex {
                                pre: Vec::new(),
                                ..ax
                            },
                        );
                        Ex::new(total, P_ATOM).with_pre(pre)
                    }
                    Ty::Choice(_) => {
                        Ex::new(format!("{} as i64", ax.at(P_CAST)), P_CAST).with_pre(ax.pre)
                    }
                    Ty::Bool => Ex::new(format!("i64::from({})", ax.val), P_ATOM).with_pre(ax.pre),
                    _ => ax,
                }
            }
            K::Natural(a) => {
                let ax = self.expr(a, Dest::Val)?;
                let mut pre = ax.pre.clone();
                let (_, natural) = self.roll_parts(
                    &mut pre,
                    Ex {
                        pre: Vec::new(),
                        ..ax
                    },
                );
                Ex::new(natural, P_ATOM).with_pre(pre)
            }
            K::Min(xs) | K::Max(xs) => {
                let f = if matches!(e.kind, K::Min(_)) {
                    "min"
                } else {
                    "max"
                };
                let mut parts = xs
                    .iter()
                    .map(|x| self.expr(x, Dest::Val))
                    .collect::<Result<Vec<_>, _>>()?;
                let pre = self.seq(&mut parts);
                if matches!(ty, Ty::Choice(_)) && xs.len() > 1 {
                    let mut pre = pre;
                    let mut it = parts.into_iter();
                    let mut acc = it.next().ok_or("rulesc bug: min/max of nothing")?;
                    for p in it {
                        acc = self.hoist(&mut pre, acc, "level");
                        let p = self.hoist(&mut pre, p, "level");
                        acc = Ex::new(self.pick_level(f, &acc.val, &p.val), P_BLOCK);
                    }
                    return Ok(acc.with_pre(pre));
                }
                let f = format!("i64::{f}");
                let mut it = parts.into_iter();
                let first = it.next().ok_or("rulesc bug: min/max of nothing")?;
                let mut acc = first.clone();
                for p in it {
                    acc = Ex::new(format!("{f}({}, {})", acc.val, p.val), P_ATOM);
                }
                acc.pre = pre;
                acc.stable = acc.stable && xs.len() == 1;
                acc
            }
            K::Clamp(x, lo, hi) => {
                let mut parts = vec![
                    self.expr(x, Dest::Val)?,
                    self.expr(lo, Dest::Val)?,
                    self.expr(hi, Dest::Val)?,
                ];
                let pre = self.seq(&mut parts);
                let val = if matches!(ty, Ty::Choice(_)) {
                    let mut pre = pre;
                    let [x, lo, hi] = <[Ex; 3]>::try_from(parts).map_err(|_| "rulesc bug")?;
                    let (x, lo) = (
                        self.hoist(&mut pre, x, "level"),
                        self.hoist(&mut pre, lo, "level"),
                    );
                    let low = Ex::new(self.pick_level("max", &x.val, &lo.val), P_BLOCK);
                    let low = self.hoist(&mut pre, low, "level");
                    let hi = self.hoist(&mut pre, hi, "level");
                    let val = self.pick_level("min", &low.val, &hi.val);
                    return Ok(Ex::new(val, P_BLOCK).with_pre(pre));
                } else {
                    format!(
                        "{RT}::__private::arith::clamp({}, {}, {})",
                        parts[0].val, parts[1].val, parts[2].val
                    )
                };
                Ex::new(val, P_ATOM).with_pre(pre)
            }
            K::Abs(a) => {
                let a = self.expr(a, Dest::Val)?;
                Ex::new(format!("i64::saturating_abs({})", a.val), P_ATOM).with_pre(a.pre)
            }
            K::Len(l) => {
                if let K::Filled(t) = &l.kind {
                    let te = self.expr(t, Dest::Val)?;
                    let n = self.track_len(&t.ty);
                    let val = format!("{}.boxes_to({n}).count() as i64", te.recv());
                    return Ok(Ex::new(val, P_CAST).with_pre(te.pre));
                }
                let le = self.expr(l, Dest::Val)?;
                Ex::new(format!("{}.len() as i64", le.recv()), P_CAST).with_pre(le.pre)
            }
            // `dice * n`: `DiceSpec::times`, a rule error past its limits, read through
            // `proven` where the checker proved the count inside them.
            K::DiceTimes(d, n, site) => {
                let mut parts = vec![self.expr(d, Dest::Val)?, self.expr(n, Dest::Val)?];
                let mut pre = self.seq(&mut parts);
                // Without a site the count is proven inside and `proven` reads no site: 0.
                let call = format!(
                    "{}.times({}, {})",
                    parts[0].recv(),
                    parts[1].val,
                    site.unwrap_or(0)
                );
                match site {
                    Some(_) => {
                        let rhs = self.try_(&call, false);
                        self.bind(&mut pre, rhs, "dice", &dest, false).with_pre(pre)
                    }
                    None => Ex::new(format!("{RT}::__private::error::proven({call})"), P_ATOM)
                        .with_pre(pre),
                }
            }
            K::Roll {
                dice,
                site,
                faces: Some(h),
            } => {
                // The roll and its dice, kept in the hidden local `h` for `faces(r)`.
                self.need_env("roll")?;
                let d = self.expr(dice, Dest::Val)?;
                let mut pre = d.pre.clone();
                let f = self.tmp("dice");
                let r = match dest {
                    Dest::Discard => "_".to_string(),
                    _ => self.tmp("roll"),
                };
                pre.push(format!(
                    "let ({r}, {f}) = {RT}::roll_faces(&mut env.dice, {}, &mut env.trace, {site});",
                    d.val
                ));
                pre.push(format!("{} = {f};", self.slots[*h].ident));
                Ex::new(r, P_ATOM).stable().with_pre(pre)
            }
            K::Faces { part, of, slot } => {
                let mut pre = Vec::new();
                if !matches!(of.kind, K::Local(_)) {
                    pre = self.expr(of, Dest::Discard)?.pre;
                }
                let f = match part {
                    FacesPart::All => "all",
                    FacesPart::Kept => "kept",
                    FacesPart::Dropped => "dropped",
                };
                Ex::new(format!("{}.{f}()", self.slots[*slot].ident), P_ATOM).with_pre(pre)
            }
            K::Roll { dice, site, .. } => {
                self.need_env("roll")?;
                let (mut pre, rhs) = match &dice.kind {
                    K::Const(Const::Dice(spec)) => (Vec::new(), roll_call(*spec, *site)),
                    _ => {
                        let d = self.expr(dice, Dest::Val)?;
                        let rhs = format!(
                            "{RT}::roll(&mut env.dice, {}, &mut env.trace, {site})",
                            d.val
                        );
                        (d.pre, rhs)
                    }
                };
                self.bind(&mut pre, rhs, "roll", &dest, false).with_pre(pre)
            }
            K::RollTable { table, among, site } => {
                self.roll_table(*table, among.as_deref(), *site, &dest)?
            }
            K::Decide {
                name,
                options,
                site,
            } => self.decide(name, options, *site, ty, &dest)?,
            K::Fill { track, level, site } => self.fill(track, level, *site, &dest)?,
            K::Filled(t) => {
                let te = self.expr(t, Dest::Val)?;
                let n = self.track_len(&t.ty);
                let val = format!("{}.boxes_to({n}).collect::<Vec<usize>>()", te.recv());
                Ex::new(val, P_ATOM).with_pre(te.pre)
            }
            K::Aggregate {
                kind,
                var,
                list,
                cond,
                body,
            } => self.aggregate(*kind, *var, list, cond.as_deref(), body, ty)?,
            K::If(c, a, b) => {
                let cx = self.expr(c, Dest::Val)?;
                let ax = self.expr(a, Dest::Val)?;
                let bx = self.expr(b, Dest::Val)?;
                if ax.pre.is_empty() && bx.pre.is_empty() && ax.val == bx.val {
                    // Both branches read alike (clippy rejects `if c { x } else { x }`):
                    // the condition's effects, then the one value.
                    return Ok(Ex { pre: cx.pre, ..ax });
                }
                let copy = g.is_copy(ty);
                let small = g.small_list_ty(ty)?.filter(|_| ax.array || bx.array);
                // A list held as an array has its length in its type, and a reference
                // may point into a branch's own statements: both are owned (a list of
                // small elements as a `SmallList`).
                let own = ax.array
                    || bx.array
                    || (!ax.pre.is_empty() && ax.mode == Mode::Ref)
                    || (!bx.pre.is_empty() && bx.mode == Mode::Ref);
                let (av, bv, mode) = if let Some(small_ty) = &small {
                    (
                        self.small(&ax, small_ty, false),
                        self.small(&bx, small_ty, false),
                        Mode::Value,
                    )
                } else if copy || own || ax.mode == Mode::Value || bx.mode == Mode::Value {
                    (self.owned(&ax, ty), self.owned(&bx, ty), Mode::Value)
                } else {
                    (self.by_ref(&ax), self.by_ref(&bx), Mode::Ref)
                };
                let mut pre = cx.pre.clone();
                let text = |x: &Ex, v: &str| {
                    if x.pre.is_empty() {
                        v.to_string()
                    } else {
                        format!("{} {v}", x.pre.join(" "))
                    }
                };
                let val = format!(
                    "if {} {{ {} }} else {{ {} }}",
                    cx.val,
                    text(&ax, &av),
                    text(&bx, &bv)
                );
                let mut ex = if ax.pre.is_empty() && bx.pre.is_empty() {
                    Ex::new(val, P_BLOCK).with_pre(pre).mode(mode)
                } else {
                    self.bind(&mut pre, val, "value", &Dest::Val, false)
                        .with_pre(pre)
                        .mode(mode)
                };
                ex.array = small.is_some();
                ex.small = small.is_some();
                ex
            }
            K::Match { scrutinee, arms } => {
                let sx = self.expr(scrutinee, Dest::Val)?;
                let mut pre = Vec::new();
                let m = if self.traced {
                    self.stable_val(&mut pre, sx, "scrutinee")
                } else {
                    // Untraced: the scrutinee is read once, in place.
                    pre.extend(sx.pre.iter().cloned());
                    sx.val.clone()
                };
                let mut effects = false;
                // A list of small elements: every arm a `SmallList`.
                let small = g.small_list_ty(ty)?;
                let lines = self.match_arms(&m, &scrutinee.ty, arms, |bg, body, lines| {
                    let bx = bg.expr(body, Dest::Val)?;
                    effects |= !bx.pre.is_empty();
                    lines.extend(bx.pre.iter().cloned());
                    lines.push(match &small {
                        Some(small_ty) => bg.small(&bx, small_ty, false),
                        None => bg.owned(&bx, ty),
                    });
                    Ok(())
                })?;
                let mut ex = if !self.traced && !effects {
                    Ex::new(lines.join(" "), P_BLOCK).with_pre(pre)
                } else {
                    let rhs = lines.join("\n");
                    self.bind(&mut pre, rhs, "value", &Dest::Val, false)
                        .with_pre(pre)
                };
                ex.array = small.is_some();
                ex.small = small.is_some();
                ex
            }
            K::MakeOutcome {
                outcome,
                tag,
                fields,
            } => {
                let path = format!(
                    "{}::{}",
                    g.id.outcome[*outcome], g.id.tag[*outcome][*tag as usize]
                );
                if fields.is_empty() {
                    return Ok(Ex::new(path, P_ATOM).stable());
                }
                let mut parts = fields
                    .iter()
                    .map(|x| self.expr(x, Dest::Val))
                    .collect::<Result<Vec<_>, _>>()?;
                let pre = self.seq(&mut parts);
                let tagdef = &g.p.outcomes[*outcome].tags[*tag as usize];
                let mut inits = Vec::new();
                for (fi, p) in parts.iter().enumerate() {
                    let fname = &g.id.tag_field[*outcome][*tag as usize][fi];
                    let v = self.owned(p, &tagdef.fields[fi].1);
                    inits.push(init(fname, &v));
                }
                Ex::new(format!("{path} {{ {} }}", inits.join(", ")), P_BLOCK).with_pre(pre)
            }
            K::MakeRecord { record, fields } => {
                let rec = &g.p.records[*record];
                let name = &g.id.record[*record];
                if fields.is_empty() {
                    return Ok(Ex::new(format!("{name} {{}}"), P_BLOCK));
                }
                let mut parts = fields
                    .iter()
                    .map(|x| self.expr(x, Dest::Val))
                    .collect::<Result<Vec<_>, _>>()?;
                let pre = self.seq(&mut parts);
                let mut inits = Vec::new();
                for (fi, p) in parts.iter().enumerate() {
                    let v = self.owned(p, &rec.fields[fi].ty);
                    inits.push(init(&g.id.field[*record][fi], &v));
                }
                Ex::new(format!("{name} {{ {} }}", inits.join(", ")), P_BLOCK).with_pre(pre)
            }
            K::List(items) => {
                let Ty::List(elem) = ty else {
                    return Err("rulesc bug: a list literal of a non-list type".into());
                };
                if items.is_empty() {
                    return Ok(
                        Ex::new(format!("Vec::<{}>::new()", g.rust_ty(elem)?), P_ATOM).stable(),
                    );
                }
                let mut parts = items
                    .iter()
                    .map(|x| self.expr(x, Dest::Val))
                    .collect::<Result<Vec<_>, _>>()?;
                let pre = self.seq(&mut parts);
                let vals: Vec<String> = parts.iter().map(|p| self.owned(p, elem)).collect();
                // An array, made a `Vec` only where one is owned.
                let mut ex = Ex::new(format!("[{}]", vals.join(", ")), P_ATOM).with_pre(pre);
                ex.array = true;
                ex
            }
            K::Collect {
                var,
                list,
                cond,
                body,
            } => self.collect(*var, list, cond.as_deref(), body, ty)?,
            K::ListGet(list, index, check) => self.list_get(list, index, *check, ty)?,
            K::Some(x) => {
                let ex = self.expr(x, Dest::Val)?;
                Ex::new(format!("Some({})", self.owned(&ex, &x.ty)), P_ATOM).with_pre(ex.pre)
            }
            K::IsSome(x) => {
                let ex = self.expr(x, Dest::Val)?;
                Ex::new(format!("{}.is_some()", ex.recv()), P_ATOM).with_pre(ex.pre)
            }
            // Known not to be none (the checker refuses a new value inside the test).
            K::Unwrap(x) => {
                let ex = self.expr(x, Dest::Val)?;
                if g.is_copy(ty) {
                    Ex::new(format!("{RT}::__private::error::known({})", ex.val), P_ATOM)
                        .with_pre(ex.pre)
                } else {
                    Ex::new(
                        format!("{RT}::__private::error::known({}.as_ref())", ex.recv()),
                        P_ATOM,
                    )
                    .with_pre(ex.pre)
                    .mode(Mode::Ref)
                }
            }
            K::Range(lo, hi, site) => self.range(lo, hi, *site)?,
            K::Find {
                var,
                list,
                cond,
                index,
            } => self.find(*var, list, cond.as_deref(), *index, ty)?,
            K::Sort {
                var,
                list,
                cond,
                keys,
            } => self.sort(*var, list, cond.as_deref(), keys, ty)?,
            K::Best {
                var,
                list,
                cond,
                keys,
                max,
            } => self.best(*var, list, cond.as_deref(), keys, *max, ty)?,
        })
    }

    /// For `r.field` (field `i`) where `r` is an untraced lookup of a table with a
    /// function for that field (`Idents::table_field`), or a call of a formula that is
    /// only that lookup of its one parameter (`formula stats(x) = table[x]`): the field
    /// function and the key.
    fn field_table<'e>(&self, r: &'e Expr, i: usize) -> Option<(String, &'e Expr)> {
        let g = self.g;
        let of = |table: usize| g.id.table_field[table].get(i)?.clone();
        match &r.kind {
            K::Lookup {
                table,
                key,
                column: None,
                ..
            } if !self.traced => Some((of(*table)?, key)),
            K::Call(fid, args) => {
                let callee = &g.p.functions[*fid];
                let ir::Body::Formula(body) = &callee.body else {
                    return None;
                };
                let K::Lookup {
                    table,
                    key,
                    column: None,
                    ..
                } = &body.kind
                else {
                    return None;
                };
                let only_param = matches!(key.kind, K::Local(0)) && callee.params.len() == 1;
                (only_param && !callee.fallible && args.len() == 1 && !g.fight[*fid])
                    .then(|| Some((of(*table)?, &args[0])))
                    .flatten()
            }
            _ => None,
        }
    }
}

/// How many operators of a chain one generated expression holds before its value so far
/// is bound to a local: `add(add(.., b), c)` nests one call per operator, which syn,
/// prettyplease and rustc each walk by recursion.
pub(super) const CHAIN_RUN: usize = 32;

impl BodyGen<'_, '_> {
    /// `a + b - c ..` (any `IntOp`): `arith::add(arith::add(a, b), c)`, and a division
    /// whose divisor may be 0 (`error::div(a, b, site)?`, bound as it goes, the last to
    /// `dest`). The chain is walked down its left side, not by recursion per term (a
    /// stranger's 20,000-term sum would overflow the stack), and every [`CHAIN_RUN`]
    /// operators the total so far is bound to a local.
    fn int_chain(&mut self, e: &Expr, dest: &Dest) -> Result<Ex, String> {
        let (left, terms) = crate::ir::walk::int_chain(e);
        let last = terms.len();
        let mut acc = self.expr(left, Dest::Val)?;
        for (n, (op, site, b)) in terms.into_iter().rev().enumerate() {
            if n > 0 && n % CHAIN_RUN == 0 {
                acc = self.bind_run(acc, "total");
            }
            let mut parts = vec![acc, self.expr(b, Dest::Val)?];
            let mut pre = self.seq(&mut parts);
            let f = op.runtime_name();
            acc = match site {
                None => Ex::new(
                    format!(
                        "{RT}::__private::arith::{f}({}, {})",
                        parts[0].val, parts[1].val
                    ),
                    P_ATOM,
                )
                .with_pre(pre),
                Some(site) => {
                    let rhs = self.try_(
                        &format!(
                            "{RT}::__private::error::{f}({}, {}, {site})",
                            parts[0].val, parts[1].val
                        ),
                        false,
                    );
                    let to = if n + 1 == last { dest } else { &Dest::Val };
                    self.bind(&mut pre, rhs, "quotient", to, false)
                        .with_pre(pre)
                }
            };
        }
        Ok(acc)
    }

    /// `roll ± n ± m ..`: a roll whose total is shifted and natural face kept, walked
    /// down its left side as [`Self::int_chain`] is, the roll so far bound every
    /// [`CHAIN_RUN`] operators.
    fn roll_chain(&mut self, e: &Expr) -> Result<Ex, String> {
        let (left, terms) = crate::ir::walk::roll_shifts(e);
        let mut acc = self.expr(left, Dest::Val)?;
        for (n, (delta, negate)) in terms.into_iter().rev().enumerate() {
            if n > 0 && n % CHAIN_RUN == 0 {
                acc = self.bind_run(acc, "roll");
            }
            let mut parts = vec![acc, self.expr(delta, Dest::Val)?];
            let mut pre = self.seq(&mut parts);
            let d = parts.pop().ok_or("rulesc bug")?;
            let r = parts.pop().ok_or("rulesc bug")?;
            let (total, natural) = self.roll_parts(&mut pre, r);
            let f = if negate { "sub" } else { "add" };
            let total = format!("{RT}::__private::arith::{f}({total}, {})", d.val);
            acc = Ex::new(
                format!("{RT}::Roll {{ total: {total}, natural: {natural} }}"),
                P_BLOCK,
            )
            .with_pre(pre);
            acc.roll = Some((total, natural));
        }
        Ok(acc)
    }

    /// `level ± n ± m ..` (of type `ty`): each step from the level so far, saturating at
    /// the scale's ends, walked down its left side as [`Self::int_chain`] is, the level
    /// so far bound every [`CHAIN_RUN`] operators.
    fn level_chain(&mut self, e: &Expr, ty: &Ty) -> Result<Ex, String> {
        let g = self.g;
        let Ty::Choice(c) = ty else {
            return Err("rulesc bug: level step on a non-scale".into());
        };
        let (left, steps) = crate::ir::walk::level_steps(e);
        let len = g.p.choices[*c].variants.len().min(255);
        let mut acc = self.expr(left, Dest::Val)?;
        for (n, (delta, negate)) in steps.into_iter().rev().enumerate() {
            if n > 0 && n % CHAIN_RUN == 0 {
                acc = self.bind_run(acc, "level");
            }
            let mut parts = vec![acc, self.expr(delta, Dest::Val)?];
            let pre = self.seq(&mut parts);
            let index = if g.p.choices[*c].variants.len() > 255 {
                format!("({} as u16).min(255) as u8", parts[0].at(P_CAST))
            } else {
                format!("{} as u8", parts[0].at(P_CAST))
            };
            let d = if negate {
                format!("{RT}::__private::arith::neg({})", parts[1].val)
            } else {
                parts[1].val.clone()
            };
            let val = format!(
                "{}::ALL[usize::from({RT}::__private::arith::step_level({index}, {d}, {len}))]",
                g.id.choice[*c]
            );
            acc = Ex::new(val, P_ATOM).with_pre(pre);
        }
        Ok(acc)
    }

    /// `a and b and c ..` (or `or`): `a && b && c`, walked down its left side as
    /// [`Self::int_chain`] is, the condition so far bound every [`CHAIN_RUN`] operators.
    fn logic_chain(&mut self, e: &Expr) -> Result<Ex, String> {
        let is_and = matches!(e.kind, K::And(..));
        let (left, rest) = crate::ir::walk::logic_chain(e, is_and);
        let mut acc = self.expr(left, Dest::Val)?;
        for (n, be) in rest.into_iter().rev().enumerate() {
            if n > 0 && n % CHAIN_RUN == 0 {
                acc = self.bind_run(acc, "cond");
            }
            acc = self.logic(is_and, acc, be)?;
        }
        Ok(acc)
    }

    /// `a && b` (`a || b` when not `is_and`), `a` generated already. A constant operand
    /// is folded away (clippy rejects `x && false`), keeping the interpreter's
    /// short-circuit: the right side runs only if needed.
    fn logic(&mut self, is_and: bool, a: Ex, be: &Expr) -> Result<Ex, String> {
        let lit = |x: &Ex| match x.val.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        if let Some(v) = lit(&a) {
            if v != is_and {
                return Ok(a);
            }
            let b = self.expr(be, Dest::Val)?;
            let mut pre = a.pre;
            pre.extend(b.pre.iter().cloned());
            return Ok(Ex { pre, ..b });
        }
        let b = self.expr(be, Dest::Val)?;
        if let (Some(v), true) = (lit(&b), b.pre.is_empty()) {
            return Ok(if v == is_and {
                a
            } else {
                Ex::new(v.to_string(), P_ATOM).stable().with_pre(a.pre)
            });
        }
        let (op, prec) = if is_and { ("&&", P_AND) } else { ("||", P_OR) };
        let mut pre = a.pre.clone();
        if b.pre.is_empty() {
            return Ok(
                Ex::new(format!("{} {op} {}", a.at(prec), b.at(prec + 1)), prec).with_pre(pre),
            );
        }
        // The right operand's effects happen only when it is evaluated.
        let rhs = format!("{} {op} {{ {} {} }}", a.at(prec), b.pre.join(" "), b.val);
        Ok(self
            .bind(&mut pre, rhs, "cond", &Dest::Val, false)
            .with_pre(pre))
    }

    /// A chain's value so far bound to a local named from `base`, its statements first.
    fn bind_run(&mut self, mut acc: Ex, base: &str) -> Ex {
        let mut pre = std::mem::take(&mut acc.pre);
        let mut ex = self.hoist(&mut pre, acc, base);
        ex.pre = pre;
        ex
    }
}

#[cfg(test)]
mod tests {
    /// The Rust of a ruleset of one `.rules` file holding `rules`, generated on a thread
    /// with a stack of `stack` bytes (checked on the CLI's).
    fn generated_on(stack: usize, rules: String) -> String {
        generated_in(stack, "ruleset: { name: chains }\n", rules)
    }

    /// [`generated_on`], with `manifest` as the ruleset's `ruleset.yaml`.
    fn generated_in(stack: usize, manifest: &str, rules: String) -> String {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(dir.path().join("ruleset.yaml"), manifest).unwrap();
        std::fs::write(dir.path().join("a.rules"), rules).unwrap();
        let path = dir.path().to_path_buf();
        let p = std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK)
            .spawn(move || crate::compile_dir(&path).0)
            .unwrap()
            .join()
            .unwrap()
            .expect("the ruleset checks");
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || crate::codegen::generate(&p))
            .unwrap()
            .join()
            .unwrap()
            .unwrap()
    }

    /// Chains of 4,000 numbers and of 4,000 truths are printed on an 8 MiB stack, their
    /// value so far bound every 32 operators. In a debug build printing them takes 2 to
    /// 4 MiB; printing each operator by recursion overflowed 64 MiB, aborting the tests
    /// (tried).
    #[test]
    fn a_chain_is_printed_without_recursion_per_term() {
        let chain = |op: &str, term: &str| vec![term; 4_000].join(op);
        let code = generated_on(
            8 << 20,
            format!(
                "formula many(x: int) -> int = {}\nformula truth(x: int) -> bool = {}\n",
                chain(" - ", "x"),
                chain(" or ", "x > 0"),
            ),
        );
        // 3,999 operators: 124 runs of 32 bound, and the last 31 in the result.
        assert!(code.contains("let total_124 = "), "{}", &code[..2000]);
        assert!(!code.contains("let total_125 = "));
        assert!(code.contains("let cond_124 = "));
        assert!(!code.contains("let cond_125 = "));
    }

    /// A record reached through two lists and passed to a procedure that changes it
    /// (`c.groups[i].wounds[j]`): each index outside its list is a rule error at its own
    /// site, as the interpreter reads each `list[i]`, not both at the outer one's.
    #[test]
    fn each_index_of_an_element_passed_to_change_fails_at_its_own_site() {
        let manifest =
            "ruleset: { name: nest }\ntypes:\n  Wound:\n    depth: { type: int, default: 0 }\n  \
            Group:\n    wounds: { type: list<Wound>, default: [] }\n  \
            Char:\n    groups: { type: list<Group>, default: [] }\n";
        let rules = "procedure heal(w: Wound) {\n  w.depth += 1\n}\n\n\
            procedure go(c: Char, i: int, j: int) -> int {\n  heal(c.groups[i].wounds[j])\n  return 0\n}\n";
        let code = generated_in(8 << 20, manifest, rules.to_string());
        // The sites, in order: the two procedures', `w.depth += 1`, `c.groups[i]`,
        // `c.groups[i].wounds[j]`, `return 0`.
        let flat: String = code.split_whitespace().collect();
        let site = |text: &str| {
            flat.split("Site::new(")
                .skip(1)
                .position(|s| s.contains(&format!(",\"{text}\")")))
                .unwrap_or_else(|| panic!("no site {text}"))
        };
        let (outer, inner) = (site("c.groups[i]"), site("c.groups[i].wounds[j]"));
        // (A call prettyplease breaks over lines ends in a comma.)
        let call = |args: String| {
            flat.contains(&format!("index_mut({args})"))
                || flat.contains(&format!("index_mut({args},)"))
        };
        assert!(call(format!("&mutc.groups,i,{outer}")), "{code}");
        assert!(call(format!("&mutelement.wounds,j,{inner}")), "{code}");
    }

    /// Chains of 3,000 roll shifts, level steps and divisions, and an `if` of 3,000 `else
    /// if`s, are printed on an 8 MiB stack: each chain's value so far bound every 32
    /// operators, each `else if` flat (`} else if branch(..) {`), none nested per term.
    #[test]
    fn rolls_levels_divisions_and_else_ifs_are_printed_without_recursion_per_term() {
        let n = 3_000;
        let arms: String = (1..n)
            .map(|i| format!(" else if x == {i} {{\n    r = {i}\n  }}"))
            .collect();
        let rules = format!(
            "procedure rolls() -> int {{\n  let t = roll d6{}\n  return t\n}}\n\
             formula levels(l: Harm) -> Harm = l{}\n\
             formula divs(x: int, y: int) -> int = x{}\n\
             procedure arms(x: int) -> int {{\n  let r = 0\n  if x == 0 {{\n    r = 0\n  }}{arms}\n  return r\n}}\n",
            " + 1".repeat(n - 1),
            " + 1".repeat(n - 1),
            " / y".repeat(n - 1),
        );
        let manifest = "ruleset: { name: chains }\nscales:\n  Harm: [None, Scratch, Wound, Down]\n";
        let code = generated_in(8 << 20, manifest, rules);
        // 2,999 operators: 93 runs of 32 bound (after the roll itself, `roll`).
        assert!(code.contains("let roll_94 = "), "{}", &code[..2000]);
        assert!(!code.contains("let roll_95 = "));
        assert!(code.contains("let level_93 = "));
        assert!(!code.contains("let level_94 = "));
        assert!(code.contains("let quotient_2999 = "));
        assert_eq!(
            code.matches("} else if ::rulesc_runtime::__private::branch(")
                .count(),
            n - 1
        );
    }
}
