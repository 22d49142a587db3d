//! The names of a printed function's variables: a local's where a `let` binds it, and
//! otherwise what `body/` calls such a value.

use super::*;

impl Printer<'_> {
    /// The name of variable `v`.
    pub(super) fn name(&self, v: usize) -> String {
        self.names[v].clone()
    }

    /// Names for the variables: a local's where a `let` binds it (`_natural` after the
    /// natural face of a roll), `taken` for a branch's truth, `v<n>` for the others; each
    /// one no local, no module item and no other variable has.
    pub(super) fn name_all(&mut self, locals: &[String]) {
        let mut used: std::collections::BTreeSet<String> = locals.iter().cloned().collect();
        used.extend(self.g.id.module_values.iter().cloned());
        used.extend(["env".to_string(), "fight".to_string()]);
        let fresh = |base: String, used: &mut std::collections::BTreeSet<String>| {
            let mut name = base.clone();
            let mut n = 2;
            while used.contains(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            used.insert(name.clone());
            name
        };
        let mut names: Vec<Option<String>> = vec![None; self.names.len()];
        let mut seen: Vec<(u32, u32)> = Vec::new();
        for (l, v) in self.func.lets.iter().zip(&self.let_versions) {
            let Some(v) = *v else {
                continue;
            };
            let local = &locals[l.slot as usize];
            let name = if seen.contains(&(l.pc, l.slot)) {
                fresh(format!("{local}_natural"), &mut used)
            } else {
                seen.push((l.pc, l.slot));
                // The local's own name is its own: not taken again.
                local.clone()
            };
            names[v as usize].get_or_insert(name);
        }
        for (pc, inst) in self.func.code.iter().enumerate() {
            if let Inst::TraceBranch { .. } = inst {
                let v = self.of[pc][0] as usize;
                if names[v].is_none() {
                    names[v] = Some(fresh("taken".into(), &mut used));
                }
            }
        }
        // A value given again to a local's register (`x = ..`) is named after the local.
        let mut local_of = std::collections::HashMap::new();
        for l in &self.func.lets {
            if let Some(var) = shape::variable_at(self.func, l.pc, l.reg) {
                local_of.entry(var).or_insert(l.slot);
            }
        }
        // A roll a `let` binds is bound by the local's name (its total read as
        // `name.total`).
        let mut roll_named = vec![None; self.func.code.len()];
        for (pc, inst) in self.func.code.iter().enumerate() {
            if let (Inst::Roll { .. }, Some(&t)) = (inst, self.of[pc].first()) {
                if let Some(name) = names[t as usize].clone().filter(|_| !self.merged(t)) {
                    roll_named[pc] = Some(name);
                }
            }
        }
        for (v, name) in names.into_iter().enumerate() {
            self.names[v] = name.unwrap_or_else(|| {
                // What is bound rather than printed in place.
                let by = |pc: &usize| match &self.func.code[*pc] {
                    i @ Inst::Call { .. } if !pure_call(self.g, i) => Some("result"),
                    Inst::Call { .. } if !self.foldable(v, *pc) => Some("result"),
                    Inst::Lookup { .. } if self.traced() => Some("value"),
                    // A traced table read's key, computed.
                    _ if self.traced()
                        && self.read_at[v]
                            .is_some_and(|r| matches!(self.func.code[r], Inst::Lookup { .. })) =>
                    {
                        Some("key")
                    }
                    _ => None,
                };
                let named_by = match self.writes[v].as_slice() {
                    [w] => by(w),
                    _ => None,
                };
                let base = match local_of.get(&self.var_of[v]) {
                    Some(&slot) => locals[slot as usize].clone(),
                    // As `body/` names what a call or a table gives back.
                    None if named_by.is_some() => named_by.unwrap_or_default().to_string(),
                    None => format!("v{v}"),
                };
                fresh(base, &mut used)
            });
        }
        self.roll_names = (0..self.func.code.len())
            .map(|pc| match &self.func.code[pc] {
                Inst::Roll { .. } => roll_named[pc]
                    .take()
                    .unwrap_or_else(|| fresh("roll".into(), &mut used)),
                Inst::Call {
                    ret: Part::Val(_), ..
                } => fresh("result".into(), &mut used),
                Inst::Outcome { dst, fields, .. } if !self.in_place(*dst, fields) => {
                    fresh("result".into(), &mut used)
                }
                _ => String::new(),
            })
            .collect();
    }
}
