//! Table lookups: `table[key]` and a two-key table's `table[row, column]`, each a call of
//! the table's function, traced and checked as the interpreter does.

use super::*;
use crate::codegen::ident::lit;
use crate::ir::{Expr, TableKey, Ty};

impl BodyGen<'_, '_> {
    pub(super) fn lookup(
        &mut self,
        table: usize,
        key: &Expr,
        column: Option<&Expr>,
        site: u32,
        checked: bool,
        dest: &Dest,
    ) -> Result<Ex, String> {
        let g = self.g;
        let mut parts = vec![self.expr(key, Dest::Val)?];
        if let Some(c) = column {
            parts.push(self.expr(c, Dest::Val)?);
        }
        let mut pre = self.seq(&mut parts);
        let t = &g.p.tables[table];
        let fname = &g.id.table[table];
        let key_ty = |k: &TableKey| match k {
            TableKey::Choice(c) => Ty::Choice(*c),
            _ => Ty::Int,
        };
        // A die table's function answers `None` off its faces.
        let die = t.partial();
        // A list of numbers, flags or names is the table's `&'static [T]`, a reference.
        let slice = matches!(&t.value, Ty::List(elem) if g.small_elem(elem));
        let held = |ex: Ex| {
            let mut ex = if slice { ex.mode(Mode::Ref) } else { ex };
            ex.array = slice;
            ex
        };
        if !self.traced && !die {
            let args: Vec<&str> = parts.iter().map(|p| p.val.as_str()).collect();
            let val = format!("{fname}({})", args.join(", "));
            return Ok(held(Ex::new(val, P_ATOM).with_pre(pre)));
        }
        let mut keys = Vec::new();
        for (i, part) in parts.into_iter().enumerate() {
            keys.push(self.stable_val(&mut pre, part, if i == 0 { "key" } else { "column" }));
        }
        let call = format!("{fname}({})", keys.join(", "));
        // The keys as the trace shows them: `3`, or `3, Mail`.
        let mut tys = vec![key_ty(&t.key)];
        tys.extend(t.columns.as_ref().map(|c| key_ty(&c.key)));
        let shown: Vec<String> = tys
            .iter()
            .zip(&keys)
            .map(|(ty, k)| g.traced(ty, k))
            .collect();
        let ks = match shown.as_slice() {
            [one] => one.clone(),
            many => many.join(" + \", \" + &"),
        };
        let (v, m, bound) = self.result_name(dest, "value");
        let rhs = match (die, checked) {
            (false, _) => call,
            (true, false) => format!(
                "match {call} {{ Some(v) => v, None => unreachable!(\"the checker proved the key is one a row holds (`Lookup::checked` false)\") }}"
            ),
            (true, true) => {
                let no_row = self.raise(
                    site,
                    &format!("NoRow {{ table: {}, key: {ks} }}", lit(&t.name)),
                );
                format!("match {call} {{ Some(v) => v, None => {{ {no_row} }} }}")
            }
        };
        pre.push(format!("let {}{v} = {rhs};", if m { "mut " } else { "" }));
        if self.traced {
            let vs = g.traced(&t.value, &v);
            pre.push(self.event(&format!(
                "Lookup {{ site: {site}, key: {ks}, value: {vs} }}"
            )));
        }
        let mut ex = held(Ex::new(v, P_ATOM).stable().with_pre(pre));
        ex.bound = bound;
        Ok(ex)
    }
}
