//! `rulesc simulate <ruleset> <fight.yaml> --sweep Vera.armor=0..4`: the fight simulated
//! once per value of a combatant's field, as one table of win rates.
//!
//! A sweep's path is a combatant's name (as the file's `sides:` write it), then a field
//! of its record (`Vera.armor`, `Vera.skills.Fencing`); its values are a range of whole
//! numbers (`0..4`, both ends) or a list (`Open,Closed`), as `analyze --sweep` reads
//! them ([`crate::analyze::cases::parse_sweep`]). Several sweeps make every combination.
//! Each point is the fight file with the value written in, read afresh against the
//! program, so a field the record does not have or a value outside the field's type is
//! the same diagnostic a file writing it would get, prefixed with the sweep. Every point
//! runs the same runs from the same seed, so what the value does not change plays out
//! alike from point to point.

use super::{read_edited, simulate_within, wilson, FightFile, Summary};
use crate::analyze::cases::{self, Sweep};
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::Program;
use crate::source::Sources;
use crate::yaml::{YNode, YValue};
use std::fmt::Write as _;
use std::path::Path;

/// One point of a sweep: the value of each sweep, and the fight's summary there.
#[derive(Debug, Clone)]
pub struct Point {
    /// Each sweep's path and the value it took here, as written.
    pub settings: Vec<(String, String)>,
    pub summary: Summary,
}

/// A fight simulated over a sweep's points.
#[derive(Debug, Clone)]
pub struct Swept {
    /// The fight file as its first point reads it (sides, groups, title).
    pub file: FightFile,
    pub points: Vec<Point>,
    pub seed: u64,
}

/// Sets sweep `sw`'s value `value` in the fight file `root`: under `sides:`, the
/// combatant the path names, then its field. A combatant no side has, or one written as
/// a record's name rather than its fields, is `E0513`.
fn set(root: &mut YNode, sw: &Sweep, value: &YValue, diags: &mut Diagnostics) {
    let (who, field) = sw.path.split_once('.').unwrap_or((sw.path.as_str(), ""));
    let at = root.span;
    let mut names = Vec::new();
    let member = root
        .get_mut("sides")
        .and_then(|s| match &mut s.value {
            YValue::Map(sides) => Some(sides),
            _ => None,
        })
        .and_then(|sides| {
            sides
                .iter_mut()
                .find_map(|(_, members)| match &mut members.value {
                    YValue::Map(ms) => {
                        names.extend(ms.iter().filter_map(|(k, _)| k.scalar_text()));
                        ms.iter_mut()
                            .find(|(k, _)| k.as_str() == Some(who))
                            .map(|(_, v)| v)
                    }
                    _ => None,
                })
        });
    let Some(member) = member else {
        let cands: Vec<&str> = names.iter().map(String::as_str).collect();
        diags.push(
            Diagnostic::error(
                "E0513",
                at,
                format!("`--sweep {}`: no combatant is named `{who}`", sw.path),
            )
            .label("this fight")
            .help(suggest(
                who,
                &cands,
                "combatants (a sweep's path starts with one, then its field: `Vera.armor`)",
            )),
        );
        return;
    };
    if field.is_empty() {
        diags.push(
            Diagnostic::error(
                "E0513",
                member.span,
                format!(
                    "`--sweep {}` names a combatant, not one of its fields",
                    sw.path
                ),
            )
            .label("this combatant")
            .help(format!("sweep a field: `--sweep {who}.<field>=...`")),
        );
        return;
    }
    if let YValue::Null = member.value {
        member.value = YValue::Map(Vec::new());
    }
    if let Some(record) = member.as_str().map(str::to_string) {
        diags.push(
            Diagnostic::error(
                "E0513",
                member.span,
                format!(
                    "`--sweep {}`: `{who}` is written as the record `{record}`, not as fields",
                    sw.path
                ),
            )
            .label("a record's name")
            .help(format!(
                "write {who}'s fields (`{who}: {{ ... }}`) to sweep one of them"
            )),
        );
        return;
    }
    if let Err(part) = cases::set_path(member, field.split('.'), value) {
        diags.push(
            Diagnostic::error(
                "E0511",
                member.span,
                format!(
                    "`--sweep {}`: `{who}.{part}` is not a mapping in this fight",
                    sw.path
                ),
            )
            .label("this combatant")
            .help("sweep a field whose parents are mappings"),
        );
    }
}

/// Simulates the fight file at `path` at every point of `sweeps` (every combination,
/// the first sweep slowest): `n` runs from `seed` each, none started after `max` (the
/// whole sweep's time). A point that does not read is the error, with the sweep's
/// values in its message.
pub fn sweep(
    p: &Program,
    path: &Path,
    sweeps: &[Sweep],
    n: u64,
    seed: u64,
    max: Option<std::time::Duration>,
) -> Result<(Swept, Sources), (Diagnostics, Sources)> {
    let axes: Vec<Vec<usize>> = sweeps
        .iter()
        .map(|s| (0..s.values.len()).collect())
        .collect();
    let Some(grid) = cases::grid(&axes) else {
        let (file, sources) = super::read(p, path)?;
        let mut diags = Diagnostics::default();
        diags.push(
            Diagnostic::error(
                "E0510",
                crate::source::Span::new(file.file, 0, 0),
                format!("the sweeps make more than {} points", cases::MAX_CASES),
            )
            .label("this fight")
            .help("sweep fewer values"),
        );
        return Err((diags, sources));
    };
    let start = std::time::Instant::now();
    let mut points = Vec::with_capacity(grid.len());
    let mut first: Option<(FightFile, Sources)> = None;
    for point in &grid {
        let edit = |root: &mut YNode, diags: &mut Diagnostics| {
            for (sw, &i) in sweeps.iter().zip(point) {
                set(root, sw, &sw.values[i], diags);
            }
        };
        let (file, sources) = read_edited(p, path, edit).map_err(|(mut diags, sources)| {
            let at: Vec<String> = sweeps
                .iter()
                .zip(point)
                .map(|(sw, &i)| format!("{}={}", sw.path, cases::shown(&sw.values[i])))
                .collect();
            for d in &mut diags.items {
                if !d.message.starts_with("`--sweep") {
                    d.message = format!("`--sweep {}`: {}", at.join(" "), d.message);
                }
            }
            (diags, sources)
        })?;
        let left = max.map(|m| m.saturating_sub(start.elapsed()));
        let summary = simulate_within(p, &file, n, seed, left);
        points.push(Point {
            settings: sweeps
                .iter()
                .zip(point)
                .map(|(sw, &i)| (sw.path.clone(), cases::shown(&sw.values[i])))
                .collect(),
            summary,
        });
        first.get_or_insert((file, sources));
    }
    let (file, sources) = match first {
        Some(f) => f,
        None => super::read(p, path)?,
    };
    Ok((Swept { file, points, seed }, sources))
}

impl Swept {
    /// The table `rulesc simulate --sweep` prints: a row per point, its values, then
    /// each side's wins, the draws and undecided fights, the report groups (each share
    /// with its 95% interval) and the mean rounds.
    pub fn render(&self, p: &Program) -> String {
        let mut out = String::new();
        let n = self.points.first().map_or(0, |pt| pt.summary.asked);
        let _ = writeln!(
            out,
            "{} ({}): {n} runs per point, seed {}, at most {} rounds; simulated, 95% intervals",
            self.file.title, p.name, self.seed, self.file.rounds
        );
        let mut head: Vec<String> = self
            .points
            .first()
            .map(|pt| pt.settings.iter().map(|(path, _)| path.clone()).collect())
            .unwrap_or_default();
        let settings = head.len();
        head.extend(self.file.sides.iter().map(|(s, _)| format!("{s} wins")));
        head.extend(["draw".to_string(), "undecided".to_string()]);
        head.extend(self.file.groups.iter().map(|g| g.name.clone()));
        head.push("mean rounds".into());
        let mut rows = vec![head];
        for pt in &self.points {
            let s = &pt.summary;
            let share = |k: u64| {
                let (lo, hi) = wilson(k, s.runs);
                let x = if s.runs == 0 {
                    0.0
                } else {
                    k as f64 / s.runs as f64
                };
                format!("{} [{}, {}]", super::pct(x), super::pct(lo), super::pct(hi))
            };
            let mut row: Vec<String> = pt.settings.iter().map(|(_, v)| v.clone()).collect();
            row.extend(s.wins.iter().map(|&w| share(w)));
            row.extend([share(s.draws), share(s.undecided)]);
            row.extend(s.groups.iter().map(|&g| share(g)));
            row.push(
                s.round_stats()
                    .map_or("-".into(), |r| format!("{:.2}", r.mean)),
            );
            if s.runs < s.asked {
                let _ = write!(row[0], " ({} of {} runs)", s.runs, s.asked);
            }
            if !s.errors.is_empty() {
                let stopped: u64 = s.errors.values().sum();
                let _ = write!(row[0], " ({stopped} stopped by a rule error)");
            }
            rows.push(row);
        }
        let cols = rows[0].len();
        let widths: Vec<usize> = (0..cols)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        for r in &rows {
            let mut line = String::from(" ");
            for (c, cell) in r.iter().enumerate() {
                let w = widths[c];
                if c < settings {
                    let _ = write!(line, " {cell:<w$}");
                } else {
                    let _ = write!(line, "  {cell:>w$}");
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }

    /// The sweep as JSON: the fight, the sweeps' paths, and per point its `settings`
    /// (path to value) and its `report`, as `rulesc simulate --format json` gives one.
    pub fn json(&self, p: &Program) -> serde_json::Value {
        let points: Vec<serde_json::Value> = self
            .points
            .iter()
            .map(|pt| {
                let settings: serde_json::Map<String, serde_json::Value> = pt
                    .settings
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone().into()))
                    .collect();
                serde_json::json!({
                    "settings": settings,
                    "report": pt.summary.json(p, &self.file, self.seed),
                })
            })
            .collect();
        let paths: Vec<String> = self
            .points
            .first()
            .map(|pt| pt.settings.iter().map(|(k, _)| k.clone()).collect())
            .unwrap_or_default();
        serde_json::json!({
            "fight": self.file.title,
            "ruleset": p.name,
            "seed": self.seed,
            "sweeps": paths,
            "points": points,
        })
    }
}
