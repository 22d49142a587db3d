//! `rulesc diff <base> <variant> <fight.yaml>`: what a variant changes in a whole fight.
//! The definitions that differ (as for a scenario), then each outcome's share of the
//! runs under both rulesets, each with its 95% interval, and the change with its own.
//!
//! The shares are simulated, not exact: the fight file is read against each ruleset and
//! run the same number of times from the same seed (run `k` rolls from the same seeds
//! under both), so a change the rules do not make cancels out run by run wherever the
//! two fights roll alike. The output says so.

use super::{pct, share_json, simulate_pair, wilson, FightFile, Summary};
use crate::analyze::diff::{definitions_json, definitions_text, programs, Change, Warnings};
use crate::analyze::report::Style;
use crate::diag::Diagnostics;
use crate::source::Sources;
use serde_json::{json, Value as Json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One outcome's runs under both rulesets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// `Guild wins`, `draw`, `undecided`, `stopped by a rule error`, or a report group.
    pub label: String,
    pub base: u64,
    pub variant: u64,
}

/// A variant compared with its base on one fight file.
#[derive(Debug, Clone)]
pub struct FightDiff {
    /// The two rulesets' names.
    pub names: (String, String),
    pub changes: Vec<Change>,
    /// The fight's title.
    pub title: String,
    /// Runs made under each (the same under both), and runs asked for.
    pub runs: u64,
    pub asked: u64,
    pub seed: u64,
    pub rows: Vec<Row>,
    /// The mean rounds played under each (`None` when no run counted).
    pub mean_rounds: (Option<f64>, Option<f64>),
}

/// How a simulated diff runs: runs under each ruleset, their seed, and the time after
/// which no run starts (under either).
#[derive(Debug, Clone, Copy)]
pub struct Runs {
    pub n: u64,
    pub seed: u64,
    pub max: Option<std::time::Duration>,
}

/// Whether the YAML file at `path` is a fight file (`sides:`, no `run:`) rather than a
/// scenario. A file that cannot be read is not: the scenario's reader reports it.
pub fn is_fight_file(path: &Path) -> bool {
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    let name = path.display().to_string();
    crate::load::read_yaml(&mut sources, name, path, &mut diags)
        .is_some_and(|(_, root)| root.get("run").is_none() && root.get("sides").is_some())
}

/// Compares the rulesets at `base` and `variant` on fight file `fight` (read against
/// each, with `packs` applied to both).
pub fn compare(
    base: &Path,
    variant: &Path,
    fight: &Path,
    packs: &[PathBuf],
    runs: Runs,
) -> Result<(FightDiff, Warnings), (Diagnostics, Sources)> {
    compare_named(base, variant, fight, packs, runs, &|_| {})
}

/// [`compare`], each file named by `names` (the definitions' origins, the programs'
/// sources and sites; the command line names them from the current folder).
pub fn compare_named(
    base: &Path,
    variant: &Path,
    fight: &Path,
    packs: &[PathBuf],
    runs: Runs,
    names: crate::explain::Names<'_>,
) -> Result<(FightDiff, Warnings), (Diagnostics, Sources)> {
    let ((bp, bdefs), (vp, vdefs)) = programs(base, variant, packs, names)?;
    let (bfile, bsources) = super::read(&bp, fight)?;
    let (vfile, vsources) = super::read(&vp, fight)?;
    let (b, v) = simulate_pair((&bp, &bfile), (&vp, &vfile), runs.n, runs.seed, runs.max);
    let d = FightDiff {
        names: (bp.name.clone(), vp.name.clone()),
        changes: crate::analyze::diff::changes(&bdefs, &vdefs),
        title: bfile.title.clone(),
        runs: b.runs,
        asked: b.asked,
        seed: runs.seed,
        rows: rows(&bfile, &b, &v),
        mean_rounds: (
            b.round_stats().map(|s| s.mean),
            v.round_stats().map(|s| s.mean),
        ),
    };
    let warnings = vec![
        (Diagnostics::default(), bsources),
        (Diagnostics::default(), vsources),
    ];
    Ok((d, warnings))
}

/// The outcomes side by side: each side's wins, draws, undecided fights, the runs a rule
/// error stopped (when either has some), then the file's report groups.
fn rows(file: &FightFile, b: &Summary, v: &Summary) -> Vec<Row> {
    let mut out: Vec<Row> = file
        .sides
        .iter()
        .zip(b.wins.iter().zip(&v.wins))
        .map(|((side, _), (&x, &y))| Row {
            label: format!("{side} wins"),
            base: x,
            variant: y,
        })
        .collect();
    let row = |label: &str, base, variant| Row {
        label: label.into(),
        base,
        variant,
    };
    out.push(row("draw", b.draws, v.draws));
    out.push(row("undecided", b.undecided, v.undecided));
    let (eb, ev): (u64, u64) = (b.errors.values().sum(), v.errors.values().sum());
    if eb + ev > 0 {
        out.push(row("stopped by a rule error", eb, ev));
    }
    for (g, (&x, &y)) in file.groups.iter().zip(b.groups.iter().zip(&v.groups)) {
        out.push(row(&g.name, x, y));
    }
    out
}

/// The change from `base` to `variant` runs of `n` each, as fractions of 1, with its 95%
/// interval: Newcombe's hybrid score interval (method 10), built from the two Wilson
/// intervals, so it stays inside -1..1 and is sound at 0% and 100%.
pub fn change(base: u64, variant: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, -1.0, 1.0);
    }
    let (p1, p2) = (base as f64 / n as f64, variant as f64 / n as f64);
    let ((l1, u1), (l2, u2)) = (wilson(base, n), wilson(variant, n));
    let d = p2 - p1;
    let lo = d - ((p2 - l2).powi(2) + (u1 - p1).powi(2)).sqrt();
    let hi = d + ((u2 - p2).powi(2) + (p1 - l1).powi(2)).sqrt();
    (d, lo.max(-1.0), hi.min(1.0))
}

/// A change in percentage points, signed: `+5.20`.
fn points(x: f64) -> String {
    format!("{:+.2}", 100.0 * x)
}

impl FightDiff {
    /// As `rulesc diff` prints it.
    pub fn render(&self, style: Style) -> String {
        match style {
            Style::Text => self.text(),
            Style::Json => {
                serde_json::to_string_pretty(&self.json()).expect("a serde_json value prints")
                    + "\n"
            }
            Style::Csv => self.csv(),
        }
    }

    fn share(&self, k: u64) -> String {
        let n = self.runs;
        let (lo, hi) = wilson(k, n);
        let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
        format!("{} [{}, {}]", pct(share), pct(lo), pct(hi))
    }

    fn text(&self) -> String {
        let (b, v) = (self.names.0.as_str(), self.names.1.as_str());
        let mut out = definitions_text((b, v), &self.changes);
        let runs = if self.runs < self.asked {
            format!(
                "{} of {} runs under each (stopped by the time limit)",
                self.runs, self.asked
            )
        } else {
            format!("{} runs under each", self.runs)
        };
        let _ = writeln!(
            out,
            "\n{}: simulated, not exact: {runs}, seed {}, 95% intervals",
            self.title, self.seed
        );
        let cells: Vec<[String; 4]> = self
            .rows
            .iter()
            .map(|r| {
                let (d, lo, hi) = change(r.base, r.variant, self.runs);
                [
                    r.label.clone(),
                    self.share(r.base),
                    self.share(r.variant),
                    format!("{} pp [{}, {}]", points(d), points(lo), points(hi)),
                ]
            })
            .collect();
        let head = ["outcome".to_string(), b.into(), v.into(), "change".into()];
        let width = |i: usize| {
            cells
                .iter()
                .chain([&head])
                .map(|c| c[i].chars().count())
                .max()
                .unwrap_or(0)
        };
        let w: Vec<usize> = (0..4).map(width).collect();
        for c in [&head].into_iter().chain(&cells) {
            let _ = writeln!(
                out,
                "  {:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}",
                c[0],
                c[1],
                c[2],
                c[3],
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3]
            );
        }
        if let (Some(x), Some(y)) = self.mean_rounds {
            let _ = writeln!(out, "  mean rounds: {x:.2} under {b}, {y:.2} under {v}");
        }
        out
    }

    /// The diff as JSON: the definitions as for a scenario, then `simulated: true`, the
    /// runs and seed, and per outcome both shares (`runs`, `share`, `low`, `high`, as
    /// `rulesc simulate` gives them) and the change with its interval, in fractions of 1.
    pub fn json(&self) -> Json {
        let outcomes: Vec<Json> = self
            .rows
            .iter()
            .map(|r| {
                let (d, lo, hi) = change(r.base, r.variant, self.runs);
                json!({
                    "outcome": r.label,
                    "base": share_json(r.base, self.runs),
                    "variant": share_json(r.variant, self.runs),
                    "change": { "share": d, "low": lo, "high": hi },
                })
            })
            .collect();
        json!({
            "format": "rulesc-diff-fight",
            "version": crate::analyze::report::FORMAT_VERSION,
            "base": self.names.0,
            "variant": self.names.1,
            "fight": self.title,
            "simulated": true,
            "runs": self.runs,
            "asked": self.asked,
            "seed": self.seed,
            "definitions": definitions_json(&self.changes),
            "outcomes": outcomes,
            "mean_rounds": { "base": self.mean_rounds.0, "variant": self.mean_rounds.1 },
        })
    }

    fn csv(&self) -> String {
        let mut out = String::from(
            "outcome,base_runs,base_share,base_low,base_high,variant_runs,variant_share,variant_low,variant_high,change,change_low,change_high\n",
        );
        let n = self.runs;
        let share = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        for r in &self.rows {
            let ((bl, bh), (vl, vh)) = (wilson(r.base, n), wilson(r.variant, n));
            let (d, lo, hi) = change(r.base, r.variant, n);
            let _ = writeln!(
                out,
                "{},{},{:.6},{bl:.6},{bh:.6},{},{:.6},{vl:.6},{vh:.6},{d:.6},{lo:.6},{hi:.6}",
                crate::analyze::report::field(&r.label),
                r.base,
                share(r.base),
                r.variant,
                share(r.variant),
            );
        }
        out
    }

    /// Paired bars, each share with its interval: the base's and the variant's.
    pub fn svg(&self) -> String {
        use crate::analyze::svg::{bars, Series};
        let n = self.runs;
        let series = |name: &str, k: &dyn Fn(&Row) -> u64| Series {
            name: name.to_string(),
            values: self
                .rows
                .iter()
                .map(|r| if n == 0 { 0.0 } else { k(r) as f64 / n as f64 })
                .collect(),
            intervals: self.rows.iter().map(|r| wilson(k(r), n)).collect(),
        };
        let labels: Vec<String> = self.rows.iter().map(|r| r.label.clone()).collect();
        let title = format!(
            "{}: {n} simulated runs under each, seed {}",
            self.title, self.seed
        );
        bars(
            &title,
            &labels,
            &[
                series(&self.names.0, &|r| r.base),
                series(&self.names.1, &|r| r.variant),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::change;

    #[test]
    fn the_change_and_its_interval_hold_at_the_edges() {
        // No change: the interval holds 0, symmetric.
        let (d, lo, hi) = change(500, 500, 1000);
        assert_eq!(d, 0.0);
        assert!(lo < 0.0 && hi > 0.0 && (lo + hi).abs() < 1e-12);
        // From never to always: +100 pp, the interval inside -1..1 and above 0.
        let (d, lo, hi) = change(0, 1000, 1000);
        assert_eq!(d, 1.0);
        assert!(lo > 0.99 && hi <= 1.0, "{lo} {hi}");
        // A change of 1 in 10: 0 lies inside (a small sample), of 1 in 10,000 not.
        let (_, lo, _) = change(5, 6, 10);
        assert!(lo < 0.0);
        let (_, lo, _) = change(5000, 6000, 10_000);
        assert!(lo > 0.0);
        // No runs: nothing known.
        assert_eq!(change(0, 0, 0), (0.0, -1.0, 1.0));
    }
}
