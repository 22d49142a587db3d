//! `rulesc diff <base> <variant> <scenario>`: what a variant changes. The definitions
//! that differ (as `rulesc explain` shows them, origins aside), and the odds of each
//! outcome group under both rulesets with the change in percentage points.

use super::exact::{fraction, to_f64, Prob};
use super::report::{Report, Style};
use crate::diag::Diagnostics;
use crate::explain::Definition;
use crate::source::Sources;
use num_traits::Zero;
use serde_json::{json, Value as Json};
use std::fmt::Write as _;

/// How a definition differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Added,
    Removed,
    Changed,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
        }
    }
}

/// One definition that differs: the lines only the base has, and the lines only the
/// variant has (with where each is written).
#[derive(Debug, Clone)]
pub struct Change {
    pub kind: Kind,
    pub what: String,
    pub name: String,
    pub at: String,
    pub removed: Vec<String>,
    pub added: Vec<(String, String)>,
}

/// The definitions that differ between `base` and `variant`, in the variant's order
/// (then those only the base has).
pub fn changes(base: &[Definition], variant: &[Definition]) -> Vec<Change> {
    let key = |d: &Definition| (d.kind.clone(), d.name.clone());
    // The manifest (name, title, extends) differs in every variant: not a rule.
    let base: Vec<&Definition> = base.iter().filter(|d| d.kind != "ruleset").collect();
    let variant: Vec<&Definition> = variant.iter().filter(|d| d.kind != "ruleset").collect();
    let mut out = Vec::new();
    for v in variant.iter().copied() {
        let b = base.iter().find(|b| key(b) == key(v)).copied();
        let base_lines: Vec<&str> = b
            .map(|b| b.lines.iter().map(|(l, _)| l.as_str()).collect())
            .unwrap_or_default();
        let var_lines: Vec<&str> = v.lines.iter().map(|(l, _)| l.as_str()).collect();
        if b.is_some() && base_lines == var_lines {
            continue;
        }
        let removed = base_lines
            .iter()
            .filter(|l| !var_lines.contains(l))
            .map(|l| l.trim().to_string())
            .collect();
        let added = v
            .lines
            .iter()
            .filter(|(l, _)| !base_lines.contains(&l.as_str()))
            .map(|(l, o)| (l.trim().to_string(), o.clone()))
            .collect();
        out.push(Change {
            kind: if b.is_some() {
                Kind::Changed
            } else {
                Kind::Added
            },
            what: v.kind.clone(),
            name: v.name.clone(),
            at: v.at.clone(),
            removed,
            added,
        });
    }
    for b in base {
        if !variant.iter().any(|v| key(v) == key(b)) {
            out.push(Change {
                kind: Kind::Removed,
                what: b.kind.clone(),
                name: b.name.clone(),
                at: b.at.clone(),
                removed: b.lines.iter().map(|(l, _)| l.trim().to_string()).collect(),
                added: Vec::new(),
            });
        }
    }
    out
}

/// One group's chance under both rulesets (zero where a ruleset never gives it).
#[derive(Debug, Clone)]
pub struct Pair {
    pub label: String,
    pub base: Prob,
    pub variant: Prob,
}

impl Pair {
    /// The change in percentage points.
    pub fn points(&self) -> f64 {
        (to_f64(&self.variant) - to_f64(&self.base)) * 100.0
    }
}

/// The groups of both reports side by side: the base's groups in its order, then the
/// variant's new ones; the unexplored part last when either has one.
pub fn pairs(base: &Report, variant: &Report) -> Vec<Pair> {
    let mut out: Vec<Pair> = base
        .rows
        .iter()
        .map(|r| Pair {
            label: r.label.clone(),
            base: r.prob.clone(),
            variant: Prob::zero(),
        })
        .collect();
    for r in &variant.rows {
        match out.iter_mut().find(|p| p.label == r.label) {
            Some(p) => p.variant = r.prob.clone(),
            None => out.push(Pair {
                label: r.label.clone(),
                base: Prob::zero(),
                variant: r.prob.clone(),
            }),
        }
    }
    if !base.unexplored.is_zero() || !variant.unexplored.is_zero() {
        out.push(Pair {
            label: "(unexplored)".to_string(),
            base: base.unexplored.clone(),
            variant: variant.unexplored.clone(),
        });
    }
    out
}

/// The definitions that differ, as text (the first part of every `rulesc diff`).
pub fn definitions_text(names: (&str, &str), changes: &[Change]) -> String {
    let mut out = String::new();
    if changes.is_empty() {
        let _ = writeln!(out, "no definition of {} differs from {}", names.1, names.0);
    } else {
        let _ = writeln!(
            out,
            "definitions of {} that differ from {}:",
            names.1, names.0
        );
    }
    for c in changes {
        let _ = writeln!(out, "  {} {} ({}, {})", c.what, c.name, c.kind.word(), c.at);
        // `key: old` and `key: new` read as one line: `key: old -> new`.
        let key = |l: &str| l.split_once(": ").map(|(k, _)| k.to_string());
        let mut paired = vec![false; c.removed.len()];
        let mut lines = Vec::new();
        for (l, at) in &c.added {
            let at = if at.is_empty() {
                String::new()
            } else {
                format!("    {at}")
            };
            let old = key(l).and_then(|k| {
                c.removed
                    .iter()
                    .enumerate()
                    .find(|(i, r)| !paired[*i] && key(r).as_ref() == Some(&k))
            });
            match old {
                Some((i, r)) => {
                    paired[i] = true;
                    let was = r.split_once(": ").map_or("", |(_, v)| v);
                    lines.push(format!("    {l}  (was {was}){at}"));
                }
                None => lines.push(format!("    + {l}{at}")),
            }
        }
        for (r, _) in c.removed.iter().zip(&paired).filter(|(_, p)| !**p) {
            let _ = writeln!(out, "    - {r}");
        }
        for l in lines {
            let _ = writeln!(out, "{l}");
        }
    }
    out
}

/// The diff as text.
pub fn text(names: (&str, &str), changes: &[Change], base: &Report, variant: &Report) -> String {
    let mut out = definitions_text(names, changes);
    let by = base
        .by
        .as_deref()
        .map(|b| format!(" by {b}"))
        .unwrap_or_default();
    let _ = writeln!(out, "\nodds of {}{by}:", base.procedure);
    let pairs = pairs(base, variant);
    let head = base.by.as_deref().unwrap_or("outcome");
    let width = pairs
        .iter()
        .map(|p| p.label.chars().count())
        .chain([head.len()])
        .max()
        .unwrap_or(0);
    let (wb, wv) = (names.0.len().max(9), names.1.len().max(9));
    let _ = writeln!(
        out,
        "  {head:<width$}  {:>wb$}  {:>wv$}  {:>12}",
        names.0, names.1, "change"
    );
    for p in &pairs {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>wb$}  {:>wv$}  {:>+9.4} pp",
            p.label,
            format!("{:.4}%", to_f64(&p.base) * 100.0),
            format!("{:.4}%", to_f64(&p.variant) * 100.0),
            p.points()
        );
    }
    out
}

/// The diff as JSON (`schemas/diff.schema.json`).
pub fn json(names: (&str, &str), changes: &[Change], base: &Report, variant: &Report) -> String {
    let defs = definitions_json(changes);
    let groups: Vec<Json> = pairs(base, variant)
        .iter()
        .map(|p| {
            json!({
                "group": p.label,
                "base": fraction(&p.base),
                "variant": fraction(&p.variant),
                "base_percent": to_f64(&p.base) * 100.0,
                "variant_percent": to_f64(&p.variant) * 100.0,
                "change_points": p.points(),
            })
        })
        .collect();
    let doc = json!({
        "format": "rulesc-diff",
        "version": super::report::FORMAT_VERSION,
        "base": names.0,
        "variant": names.1,
        "scenario": base.scenario,
        "procedure": base.procedure,
        "by": base.by,
        "definitions": defs,
        "groups": groups,
    });
    serde_json::to_string_pretty(&doc).expect("a serde_json value prints") + "\n"
}

/// The definitions that differ, as JSON (`definitions` of every `rulesc diff`).
pub fn definitions_json(changes: &[Change]) -> Vec<Json> {
    changes
        .iter()
        .map(|c| {
            json!({
                "kind": c.what,
                "name": c.name,
                "change": c.kind.word(),
                "defined_at": c.at,
                "removed": c.removed,
                "added": c.added.iter().map(|(l, at)| json!({ "line": l, "at": at })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// The odds side by side as CSV, one row per group.
pub fn csv(base: &Report, variant: &Report) -> String {
    let mut out = String::from("group,base,variant,base_percent,variant_percent,change_points\n");
    for p in pairs(base, variant) {
        let _ = writeln!(
            out,
            "{},{},{},{:.6},{:.6},{:.6}",
            super::report::field(&p.label),
            fraction(&p.base),
            fraction(&p.variant),
            to_f64(&p.base) * 100.0,
            to_f64(&p.variant) * 100.0,
            p.points()
        );
    }
    out
}

/// The warnings of both analyses, each with its own sources.
pub type Warnings = Vec<(Diagnostics, Sources)>;

/// A variant compared with its base on one scenario.
#[derive(Debug, Clone)]
pub struct Diffed {
    /// The two rulesets' names.
    pub names: (String, String),
    pub changes: Vec<Change>,
    pub base: Report,
    pub variant: Report,
}

/// Compares the rulesets at `base` and `variant` on `scenario` (read against each).
pub fn compare(
    base: &std::path::Path,
    variant: &std::path::Path,
    scenario: &std::path::Path,
    limits: &super::Limits,
    view: &super::View,
) -> Result<(Diffed, Warnings), (Diagnostics, Sources)> {
    compare_with_packs(base, variant, scenario, &[], limits, view, &|_| {})
}

/// [`compare`] with content packs applied to both rulesets (`rulesc diff --pack`), so
/// the scenario may name their records. A pack for the base fits the variant as well.
/// Files are named by `names` (origins and traces' sites; the command line names them
/// from the current folder).
pub fn compare_with_packs(
    base: &std::path::Path,
    variant: &std::path::Path,
    scenario: &std::path::Path,
    packs: &[std::path::PathBuf],
    limits: &super::Limits,
    view: &super::View,
    names: crate::explain::Names<'_>,
) -> Result<(Diffed, Warnings), (Diagnostics, Sources)> {
    let ((bp, bdefs), (vp, vdefs)) = programs(base, variant, packs, names)?;
    let (mut b, bw, bs) = super::reports(&bp, scenario, limits, view)?;
    let (mut v, vw, vs) = super::reports(&vp, scenario, limits, view)?;
    let (Some(b), Some(v)) = (b.pop(), v.pop()) else {
        return Err((Diagnostics::default(), vs));
    };
    let d = Diffed {
        names: (bp.name.clone(), vp.name.clone()),
        changes: changes(&bdefs, &vdefs),
        base: b,
        variant: v,
    };
    Ok((d, vec![(bw, bs), (vw, vs)]))
}

/// A program and its definitions, as `rulesc explain` reads them.
pub type Defined = (crate::ir::Program, Vec<Definition>);

/// The rulesets at `base` and `variant`, each with its definitions and `packs` applied
/// (a pack for the base fits its variants): what every `rulesc diff` compares. Each file
/// is named by `names`, in the definitions' origins and in the programs.
pub fn programs(
    base: &std::path::Path,
    variant: &std::path::Path,
    packs: &[std::path::PathBuf],
    names: crate::explain::Names<'_>,
) -> Result<(Defined, Defined), (Diagnostics, Sources)> {
    let with_packs = |p: crate::ir::Program| {
        let mut p = if packs.is_empty() {
            p
        } else {
            match crate::pack::apply(&p, packs) {
                (Some(extended), _, _) => extended,
                (None, diags, sources) => return Err((diags, sources)),
            }
        };
        p.rename_files(names);
        Ok(p)
    };
    let (bp, bdefs) = crate::explain::definitions_named(base, &[], names)?;
    let (vp, vdefs) = crate::explain::definitions_named(variant, &[], names)?;
    Ok(((with_packs(bp)?, bdefs), (with_packs(vp)?, vdefs)))
}

impl Diffed {
    /// As `rulesc diff` prints it.
    pub fn render(&self, style: Style) -> String {
        let names = (self.names.0.as_str(), self.names.1.as_str());
        match style {
            Style::Text => text(names, &self.changes, &self.base, &self.variant),
            Style::Json => json(names, &self.changes, &self.base, &self.variant),
            Style::Csv => csv(&self.base, &self.variant),
        }
    }

    /// Paired bars: the base and the variant, group by group.
    pub fn svg(&self) -> String {
        let pairs = pairs(&self.base, &self.variant);
        let labels: Vec<String> = pairs.iter().map(|p| p.label.clone()).collect();
        let series = [
            super::svg::Series {
                name: self.names.0.clone(),
                values: pairs.iter().map(|p| to_f64(&p.base)).collect(),
                intervals: Vec::new(),
            },
            super::svg::Series {
                name: self.names.1.clone(),
                values: pairs.iter().map(|p| to_f64(&p.variant)).collect(),
                intervals: Vec::new(),
            },
        ];
        super::svg::bars(&self.base.chart_title(), &labels, &series)
    }
}
