//! Branches: `if` chains and `match` arms with their patterns, traced as `eval`
//! traces them.

use super::*;
use crate::ir::{Expr, MatchArm, Stmt, Ty};

impl BodyGen<'_, '_> {
    /// `if c { .. } else if c { .. } else { .. }`, each condition traced before its
    /// branch. A condition's statements come before its `if`, so each `else if` nests
    /// a block (`} else { <statements> if taken {`); in a chain longer than
    /// [`CHAIN_RUN`](super::expr::CHAIN_RUN) arms (a stranger's 3,000), a condition with
    /// no statements is a flat `} else if branch(c, ..) {` instead, so the text, and
    /// what syn, prettyplease and rustc walk by recursion, does not nest an arm deeper
    /// each time. Walked in a loop, not by recursion per arm.
    pub(super) fn if_chain(
        &mut self,
        branches: &[(Expr, Vec<Stmt>, u32)],
        otherwise: Option<&[Stmt]>,
        tail: bool,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        let flat = branches.len() > super::expr::CHAIN_RUN;
        // The `} else {` blocks opened, each closed at the end.
        let mut open = 0;
        for (i, (cond, body, site)) in branches.iter().enumerate() {
            let ex = self.expr(cond, Dest::Val)?;
            if i > 0 {
                if flat && ex.pre.is_empty() {
                    out.push(format!(
                        "}} else if {RT}::__private::branch({}, &mut env.trace, {site}) {{",
                        ex.val
                    ));
                    self.block(body, tail, out)?;
                    continue;
                }
                out.push("} else {".into());
                open += 1;
            }
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
        }
        match otherwise {
            Some(o) if branches.is_empty() => self.block(o, tail, out)?,
            Some(o) => {
                out.push("} else {".into());
                self.block(o, tail, out)?;
            }
            None => {}
        }
        if !branches.is_empty() {
            out.push("}".into());
        }
        out.extend(std::iter::repeat_n("}".to_string(), open));
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
                let shown = self.g.traced(ty, m);
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
