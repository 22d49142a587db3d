//! The instructions of a function printed: each as the statements it makes, or as the
//! expression printed in place of the one read of what it writes.

use super::*;

impl Printer<'_> {
    /// Whether variable `v` is a web: written at more than one place, declared once.
    pub(super) fn merged(&self, v: u32) -> bool {
        self.writes[v as usize].len() > 1
    }

    /// The webs to declare.
    pub(super) fn webs(&self) -> Vec<Web> {
        (0..self.writes.len() as u32)
            .filter(|&v| self.merged(v) && self.reads[v as usize] > 0)
            .map(|v| Web {
                var: v,
                name: self.name(v as usize),
                ty: match self.tys[v as usize] {
                    Some(VarTy::Int) => Some("i64"),
                    _ => None,
                },
            })
            .collect()
    }

    /// Variable `v` read: its name, or the expression printed in its place.
    pub(super) fn read(&self, v: u32) -> String {
        let mut refs = self.refs.borrow_mut();
        if self.merged(v) {
            refs.push(v);
        } else {
            refs.extend(&self.uses[v as usize]);
        }
        drop(refs);
        self.text[v as usize]
            .clone()
            .unwrap_or_else(|| self.name(v as usize))
    }

    /// A constant held by variable `v` as Rust.
    pub(super) fn constant(&self, v: u32, value: i64) -> Option<String> {
        Some(match self.tys[v as usize].as_ref()? {
            VarTy::Int => int_lit(value),
            VarTy::Bool => (value != 0).to_string(),
            VarTy::Level(c) => format!(
                "{}::{}",
                self.g.id.choice[*c],
                self.g.id.variant[*c].get(usize::try_from(value).ok()?)?
            ),
        })
    }

    /// The value written by instruction `pc` (one `i64` result, no effect) as an
    /// expression, its operands read.
    pub(super) fn value(&self, pc: usize) -> Option<String> {
        let o = &self.of[pc];
        let r = |i: usize| self.read(o[i]);
        let rt = RT;
        Some(match &self.func.code[pc] {
            Inst::Const { value, .. } => self.constant(o[0], *value)?,
            Inst::Move { .. } => r(0),
            Inst::Field { rec, field, .. } => {
                let Val::Param(i) = self.vals[*rec as usize] else {
                    return None;
                };
                let Ty::Record(rid) = &self.f.params[i].ty else {
                    return None;
                };
                format!(
                    "{}.{}",
                    self.param_name(i),
                    self.g.id.field[*rid][*field as usize]
                )
            }
            Inst::Arith { op, .. } => {
                format!(
                    "{rt}::__private::arith::{}({}, {})",
                    op.runtime_name(),
                    r(0),
                    r(1)
                )
            }
            Inst::ArithImm { op, b, .. } => format!(
                "{rt}::__private::arith::{}({}, {})",
                op.runtime_name(),
                r(0),
                int_lit(*b)
            ),
            Inst::Compare { op, .. } => format!("{} {} {}", r(0), cmp(*op), r(1)),
            Inst::CompareImm { op, b, .. } => {
                format!("{} {} {}", r(0), cmp(*op), self.constant(o[0], *b)?)
            }
            Inst::Not { .. } => not(&r(0)),
            Inst::Neg { .. } => format!("{rt}::__private::arith::neg({})", r(0)),
            Inst::Abs { .. } => format!("i64::saturating_abs({})", r(0)),
            Inst::Pick { max, .. } => {
                let ty = match self.tys[o[0] as usize].as_ref()? {
                    VarTy::Level(_) => "Ord",
                    _ => "i64",
                };
                format!(
                    "{ty}::{}({}, {})",
                    if *max { "max" } else { "min" },
                    r(0),
                    r(1)
                )
            }
            Inst::LevelStep { negate, len, .. } => {
                let Some(VarTy::Level(c)) = self.tys[o[2] as usize] else {
                    return None;
                };
                let d = if *negate {
                    format!("{rt}::__private::arith::neg({})", r(1))
                } else {
                    r(1)
                };
                format!(
                    "{}::ALL[usize::from({rt}::__private::arith::step_level({} as u8, {d}, {len}))]",
                    self.g.id.choice[c],
                    paren(&r(0))
                )
            }
            Inst::Call { .. } => self.call(pc)?,
            Inst::Lookup { table, .. } => format!("{}({})", self.g.id.table[*table as usize], r(0)),
            _ => return None,
        })
    }

    /// A call, its arguments in the callee's parameters' order (`env` first for a
    /// procedure): numbers, truths and levels by value, records by reference (the caller's
    /// own record parameters, which are references already).
    pub(super) fn call(&self, pc: usize) -> Option<String> {
        let inst = &self.func.code[pc];
        let Inst::Call { ints, vals, .. } = inst else {
            return None;
        };
        let (fid, f, lowered) = callee(self.g, inst)?;
        let o = &self.of[pc];
        let mut args = Vec::new();
        if f.is_procedure() {
            args.push("env".to_string());
        }
        for part in &lowered.params {
            args.push(match part {
                Part::Int(r) | Part::Bool(r) | Part::Level(r) => {
                    let k = ints.iter().position(|(c, _)| c == r)?;
                    self.read(o[k])
                }
                Part::Val(v) => {
                    // A record: the caller's own record parameter, which the callee may
                    // change only if the caller may, and then passed nowhere else.
                    let (_, from, _) = vals.iter().find(|(c, _, _)| c == v)?;
                    let Val::Param(j) = *self.vals.get(*from as usize)? else {
                        return None;
                    };
                    let i = lowered.params.iter().position(|p| p == part)?;
                    if f.params[i].mutated {
                        let others = vals.iter().filter(|(_, x, _)| x == from).count();
                        if !self.f.params[j].mutated || others > 1 {
                            return None;
                        }
                    }
                    self.param_name(j)
                }
                _ => return None,
            });
        }
        let call = format!("{}({})", self.g.id.function[fid], args.join(", "));
        Some(match (f.fallible, f.is_procedure(), self.traced()) {
            (false, _, _) => call,
            // A formula's rule error is recorded in the trace by the procedure calling it.
            (true, false, true) => {
                format!("{call}.map_err(|e| {RT}::__private::error::fail(&mut env.trace, e))?")
            }
            (true, _, _) => format!("{call}?"),
        })
    }

    /// A place an assignment changes, as Rust: a field (or a field of a field ..) of a
    /// record parameter the function changes.
    pub(super) fn place(&self, place: &ir::Place) -> Option<String> {
        let Val::Param(i) = *self.vals.get(place.root)? else {
            return None;
        };
        let param = &self.f.params[i];
        let Ty::Record(mut rid) = param.ty else {
            return None;
        };
        if !param.mutated || place.range.is_some() || var_ty(&place.ty).is_none() {
            return None;
        }
        let mut text = self.param_name(i);
        for (k, step) in place.path.iter().enumerate() {
            let ir::PlaceStep::Field(f) = step else {
                return None;
            };
            text = format!("{text}.{}", self.g.id.field[rid][*f]);
            if k + 1 < place.path.len() {
                let Ty::Record(next) = self.g.p.records[rid].fields.get(*f)?.ty else {
                    return None;
                };
                rid = next;
            }
        }
        Some(text)
    }

    pub(super) fn param_name(&self, i: usize) -> String {
        self.params[i].clone()
    }

    /// `let _ = p;` for each parameter `p` nothing reads (a value computed from it and
    /// thrown away lowers to nothing), so it is not an unused variable.
    pub(super) fn unread_params(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut k = 0;
        for (i, part) in self.func.params.iter().enumerate() {
            let read = match part {
                Part::Val(v) => self.val_reads[*v as usize] > 0,
                _ => {
                    let v = self.param_vars[k];
                    k += 1;
                    self.reads[v as usize] > 0
                }
            };
            if !read && !self.params[i].starts_with('_') {
                out.push(format!("let _ = {};", self.params[i]));
            }
        }
        out
    }

    /// An outcome made into `dst` of `fields` is printed where it is read: it is read
    /// once, and not also shown in a trace event (unless it is a tag alone).
    pub(super) fn in_place(&self, dst: u32, fields: &[Part]) -> bool {
        self.val_reads[dst as usize] == 1 && (fields.is_empty() || !self.traced())
    }

    pub(super) fn traced(&self) -> bool {
        self.f.is_procedure()
    }

    /// `let v = text;`, an int's type written (an integer literal alone would not fix it).
    pub(super) fn bind(&self, v: usize, text: &str) -> Option<String> {
        let annot = match self.tys[v].as_ref()? {
            VarTy::Int => ": i64",
            _ => "",
        };
        Some(format!("let {}{annot} = {text};", self.name(v)))
    }

    /// A value given to web `v`.
    pub(super) fn set(&self, v: usize, text: String) -> S {
        S::Set {
            var: v as u32,
            name: self.name(v),
            text,
            refs: Vec::new(),
        }
    }

    pub(super) fn event(&self, e: &str) -> S {
        S::Line(
            format!("if T::ENABLED {{ env.trace.event({RT}::TraceEvent::{e}); }}"),
            Vec::new(),
        )
    }

    /// A value shown in a trace event, as the interpreter shows it.
    pub(super) fn shown(&self, pc: usize, value: Part, ty: &Ty) -> Option<String> {
        let o = &self.of[pc];
        Some(match value {
            Part::Int(_) | Part::Bool(_) | Part::Level(_) => self.g.traced(ty, &self.read(o[0])),
            Part::Roll { .. } => self.g.traced(&Ty::Int, &self.read(o[0])),
            Part::Val(v) => self.g.traced(ty, &self.val_text(v)?),
            Part::Unit => "String::new()".into(),
            Part::Fighter(_) | Part::Side(_) => return None,
        })
    }

    /// A value register read: an outcome's name or its text printed in place, or a
    /// parameter.
    pub(super) fn val_text(&self, v: u32) -> Option<String> {
        match self.vals.get(v as usize)? {
            Val::Param(i) => Some(self.param_name(*i)),
            Val::Outcome(_) => {
                self.refs
                    .borrow_mut()
                    .extend(self.val_uses.get(v as usize)?);
                self.val_texts.get(v as usize)?.clone()
            }
            Val::Unknown => None,
        }
    }

    /// The reads of variable `v`'s single write at `pc` are all in the statements after
    /// it, up to its block's end, and none of the variables it reads is written again
    /// before the read: the value can be printed in place of its one read.
    pub(super) fn foldable(&self, v: usize, pc: usize) -> bool {
        let Some(read) = self.read_at[v] else {
            return false;
        };
        // A formula's result shown by a traced `return` as well as returned, or a key
        // traced as well as read: bound once.
        let shown_twice = self.traced()
            && (matches!(self.func.code[read], Inst::Return { .. })
                && pure_call(self.g, &self.func.code[pc])
                || matches!(self.func.code[read], Inst::Lookup { .. })
                    && !matches!(self.func.code[pc], Inst::Field { .. } | Inst::Const { .. }));
        self.reads[v] == 1
            && self.writes[v] == [pc]
            && read > pc
            && !shown_twice
            && self.nesting(pc) <= MAX_NEST
            && self.of[pc][..self.of[pc].len() - 1].iter().all(|&u| {
                self.writes[u as usize]
                    .iter()
                    .all(|&w| w <= pc || w >= read)
            })
    }

    /// How deep the value instruction `pc` writes would nest, printed in place.
    fn nesting(&self, pc: usize) -> u32 {
        let o = &self.of[pc];
        let reads = &o[..o.len().saturating_sub(1)];
        1 + reads
            .iter()
            .map(|&u| self.depth[u as usize])
            .max()
            .unwrap_or(0)
    }

    /// The statements of `nodes`.
    pub(super) fn nodes(&mut self, nodes: &[Node]) -> Option<Vec<S>> {
        let mut out = Vec::new();
        for n in nodes {
            match n {
                Node::Inst(pc) => {
                    if self.reachable[*pc] {
                        self.inst(*pc, &mut out)?;
                    }
                }
                Node::Block { end, body } => out.push(S::Block {
                    label: *end,
                    body: self.nodes(body)?,
                }),
                Node::Loop { .. } => return None,
            }
        }
        Some(out)
    }

    /// The statements of instruction `pc`, each naming the webs it reads or writes.
    pub(super) fn inst(&mut self, pc: usize, out: &mut Vec<S>) -> Option<()> {
        self.refs.borrow_mut().clear();
        let start = out.len();
        self.inst_text(pc, out)?;
        let refs = self.refs.take();
        for s in &mut out[start..] {
            match s {
                S::Line(_, r) | S::Let(_, r) | S::Return(_, r) | S::If { refs: r, .. } => {
                    r.clone_from(&refs);
                }
                S::Set { var, refs: r, .. } => {
                    r.clone_from(&refs);
                    r.push(*var);
                }
                S::Decl { .. } | S::Block { .. } | S::Break(_) => {}
            }
        }
        Some(())
    }

    pub(super) fn inst_text(&mut self, pc: usize, out: &mut Vec<S>) -> Option<()> {
        let code = &self.func.code;
        let o = self.of[pc].clone();
        let next = |to: &u32| *to as usize == pc + 1;
        match &code[pc] {
            Inst::Step(_) | Inst::Site(_) | Inst::Stop | Inst::TraceStep { .. } => {}
            Inst::TraceCall { site } => {
                if self.traced() {
                    out.push(self.event(&format!("Call {{ site: {site} }}")));
                }
            }
            Inst::TraceAssign { site, value, ty } => {
                if self.traced() {
                    let shown = self.shown(pc, *value, ty)?;
                    out.push(self.event(&format!("Assign {{ site: {site}, value: {shown} }}")));
                }
            }
            Inst::TraceBranch { site, .. } => {
                if self.traced() {
                    let taken = init("taken", &self.read(o[0]));
                    out.push(self.event(&format!("Branch {{ site: {site}, {taken} }}")));
                }
            }
            Inst::Return { value, ty, site } => {
                let v = match value {
                    Part::Unit => None,
                    Part::Val(v) => Some(self.val_text(*v)?),
                    Part::Int(_) | Part::Bool(_) | Part::Level(_) => Some(self.read(o[0])),
                    _ => return None,
                };
                if self.traced() {
                    let shown = self.shown(pc, *value, ty)?;
                    out.push(self.event(&format!("Return {{ site: {site}, value: {shown} }}")));
                }
                // A function that may raise a rule error returns `Ok` of its value.
                let v = match (v, self.f.fallible) {
                    (v, false) => v,
                    (Some(v), true) => Some(format!("Ok({v})")),
                    (None, true) => Some("Ok(())".to_string()),
                };
                out.push(S::Return(v, Vec::new()));
            }
            Inst::Roll { spec, site, .. } => {
                let call = roll_call(*spec, *site);
                let (t, n) = (o[0] as usize, o[1] as usize);
                if self.reads[t] == 0 && self.reads[n] == 0 {
                    out.push(S::Line(format!("let _ = {call};"), Vec::new()));
                    return Some(());
                }
                let r = self.roll_names[pc].clone();
                out.push(S::Line(format!("let {r} = {call};"), Vec::new()));
                for (v, part) in [(t, "total"), (n, "natural")] {
                    if self.reads[v] == 0 {
                        continue;
                    }
                    let text = format!("{r}.{part}");
                    if self.merged(v as u32) {
                        out.push(self.set(v, text));
                    } else {
                        self.text[v] = Some(text);
                    }
                }
            }
            Inst::Outcome { dst, tag, fields } => {
                let Val::Outcome(oc) = self.vals[*dst as usize] else {
                    return None;
                };
                let path = format!(
                    "{}::{}",
                    self.g.id.outcome[oc], self.g.id.tag[oc][*tag as usize]
                );
                let text = if fields.is_empty() {
                    path
                } else {
                    let mut inits = Vec::new();
                    for (fi, (part, &v)) in fields.iter().zip(&o).enumerate() {
                        if !matches!(part, Part::Int(_) | Part::Bool(_) | Part::Level(_)) {
                            return None;
                        }
                        let name = &self.g.id.tag_field[oc][*tag as usize][fi];
                        inits.push(init(name, &self.read(v)));
                    }
                    format!("{path} {{ {} }}", inits.join(", "))
                };
                if self.in_place(*dst, fields) {
                    self.val_texts[*dst as usize] = Some(text);
                    self.val_uses[*dst as usize] = self.refs.borrow().clone();
                } else {
                    let name = self.roll_names[pc].clone();
                    out.push(S::Let(format!("let {name} = {text};"), Vec::new()));
                    self.val_texts[*dst as usize] = Some(name);
                }
            }
            Inst::Jump(to) => {
                if !next(to) {
                    out.push(S::Break(*to as usize));
                }
            }
            Inst::JumpIfNot { to, .. } | Inst::JumpIf { to, .. } => {
                if !next(to) {
                    let jump_if = matches!(code[pc], Inst::JumpIf { .. });
                    let c = self.read(o[0]);
                    out.push(S::If {
                        cond: if jump_if { c } else { not(&c) },
                        refs: Vec::new(),
                        then: vec![S::Break(*to as usize)],
                        els: Vec::new(),
                    });
                }
            }
            Inst::JumpUnless { op, to, .. } | Inst::JumpUnlessImm { op, to, .. } => {
                if !next(to) {
                    let b = match &code[pc] {
                        Inst::JumpUnlessImm { b, .. } => self.constant(o[0], *b)?,
                        _ => self.read(o[1]),
                    };
                    out.push(S::If {
                        cond: format!("{} {} {}", self.read(o[0]), cmp(op.negated()), b),
                        refs: Vec::new(),
                        then: vec![S::Break(*to as usize)],
                        els: Vec::new(),
                    });
                }
            }
            Inst::Assign {
                place,
                keys,
                op,
                value,
                out: shown,
                ..
            } => {
                // A field of a record parameter the function changes, by a path of fields.
                if !keys.is_empty() {
                    return None;
                }
                let target = self.place(place)?;
                let v = match value {
                    Part::Int(_) | Part::Bool(_) | Part::Level(_) => self.read(o[0]),
                    _ => return None,
                };
                let rt = RT;
                let rhs = match op {
                    ir::AssignOp::Set => v,
                    ir::AssignOp::Add => format!("{rt}::__private::arith::add({target}, {v})"),
                    ir::AssignOp::Sub => format!("{rt}::__private::arith::sub({target}, {v})"),
                };
                out.push(S::Line(format!("{target} = {rhs};"), Vec::new()));
                // The new value, for the trace event that follows: the place, read again.
                if shown.is_some() {
                    let d = *o.get(1)? as usize;
                    if self.reads[d] > 0 {
                        if self.reads[d] != 1
                            || self.read_at[d] != Some(pc + 1)
                            || self.merged(d as u32)
                        {
                            return None;
                        }
                        self.text[d] = Some(target);
                    }
                }
            }
            Inst::Lookup { table, site, .. } if self.traced() => {
                // Traced: the value bound, then the read shown with its key.
                let t = table_read(self.g, &code[pc])?;
                let text = self.value(pc)?;
                let d = o[1] as usize;
                if self.merged(d as u32) {
                    out.push(self.set(d, text));
                } else {
                    out.push(S::Line(self.bind(d, &text)?, Vec::new()));
                }
                let key = self.g.traced(&key_ty(t), &self.read(o[0]));
                let value = self.g.traced(&t.value, &self.name(d));
                out.push(self.event(&format!(
                    "Lookup {{ site: {site}, key: {key}, value: {value} }}"
                )));
            }
            Inst::Call {
                ret: Part::Val(v), ..
            } => {
                // An outcome given back: bound.
                let text = self.call(pc)?;
                if self.val_reads[*v as usize] == 0 {
                    out.push(S::Line(format!("{text};"), Vec::new()));
                } else {
                    let name = self.roll_names[pc].clone();
                    out.push(S::Line(format!("let {name} = {text};"), Vec::new()));
                    self.val_texts[*v as usize] = Some(name);
                }
            }
            Inst::Call { ret, .. } if !pure_call(self.g, &code[pc]) => {
                // A procedure, or a formula that may raise a rule error: its effects where
                // the code has them, its result bound.
                let text = self.call(pc)?;
                let d = o.last().copied();
                match (ret, d) {
                    (Part::Unit, _) => out.push(S::Line(format!("{text};"), Vec::new())),
                    (_, Some(d)) if self.reads[d as usize] == 0 => {
                        out.push(S::Line(format!("{text};"), Vec::new()));
                    }
                    (_, Some(d)) if self.merged(d) => out.push(self.set(d as usize, text)),
                    (_, Some(d)) => out.push(S::Line(self.bind(d as usize, &text)?, Vec::new())),
                    (_, None) => return None,
                }
            }
            _ => {
                // A value, written to one variable.
                let d = *o.last()? as usize;
                if self.reads[d] == 0 || !self.writes[d].contains(&pc) {
                    return Some(());
                }
                let text = self.value(pc)?;
                if self.merged(d as u32) {
                    out.push(self.set(d, text));
                } else if self.foldable(d, pc) {
                    self.text[d] = Some(text);
                    self.uses[d] = self.refs.borrow().clone();
                    self.depth[d] = self.nesting(pc);
                } else {
                    out.push(S::Let(self.bind(d, &text)?, Vec::new()));
                }
            }
        }
        Some(())
    }
}
