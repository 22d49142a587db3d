//! What `rulesc analyze` prints: one [`Report`] per case (a scenario, a point of a
//! sweep, an answer to a decision), as text, as JSON (`schemas/analyze.schema.json`) or
//! as CSV (one row per case and group, for spreadsheets).

use super::exact::{fraction, to_f64, Prob};
use super::view::Stats;
use super::Stop;
use num_traits::Zero;
use serde::Serialize;
use serde_json::Value as Json;
use std::fmt::Write as _;

/// The version of the JSON shape (`"version"`), raised when it changes incompatibly.
pub const FORMAT_VERSION: u32 = 1;

/// The odds of one case.
#[derive(Debug, Clone)]
pub struct Report {
    /// The scenario file, as given.
    pub scenario: String,
    /// What this case sets (a sweep's paths, a decision's answer), name and value.
    pub case: Vec<(String, String)>,
    pub procedure: String,
    /// The `--by` path, if the outcomes are grouped.
    pub by: Option<String>,
    /// The work done ("at most 312 states", "45431 paths").
    pub work: String,
    /// The groups (or, without `--by`, the distinct outcomes, likeliest first).
    pub rows: Vec<Row>,
    /// Whether the groups are in an order (at-least and at-most columns).
    pub ordered: bool,
    pub unexplored: Prob,
    /// Why something is unexplored, said the writer's way.
    pub unexplored_why: String,
    /// Mean and standard deviation, when the groups are numbers.
    pub stats: Option<Stats>,
    /// The chance of the `--best` goal.
    pub goal: Option<Prob>,
    pub stop: Option<Stop>,
    /// Sampled odds (`--samples`): the samples drawn, of those asked (fewer when the
    /// time limit stopped the sampling).
    pub samples: Option<(u64, u64)>,
}

/// One group (or outcome) of a report.
#[derive(Debug, Clone)]
pub struct Row {
    pub label: String,
    /// What the group stands for as a JSON value (see [`super::view::Group::value`]).
    pub value: serde_json::Value,
    pub prob: Prob,
    /// The chance of this group or a later one, and of this group or an earlier one
    /// (ordered groups only).
    pub at_least: Option<Prob>,
    pub at_most: Option<Prob>,
    /// The 95% interval of a sampled chance (`--samples`), from 0 to 1.
    pub interval: Option<(f64, f64)>,
}

impl Row {
    /// The exact fraction, or a sampled chance's 95% interval.
    fn detail(&self) -> String {
        match self.interval {
            Some((lo, hi)) => format!("{:.4}%..{:.4}%", lo * 100.0, hi * 100.0),
            None => fraction(&self.prob),
        }
    }
}

fn pct(p: &Prob) -> String {
    format!("{:.4}%", to_f64(p) * 100.0)
}

impl Report {
    /// The report's title: the procedure, and the case when there is one.
    pub fn title(&self) -> String {
        let mut t = self.procedure.clone();
        for (k, v) in &self.case {
            let _ = write!(t, ", {k} = {v}");
        }
        t
    }

    /// The chart's title: the title, and what the groups are by.
    pub fn chart_title(&self) -> String {
        match &self.by {
            Some(b) => format!("{} by {b}", self.title()),
            None => self.title(),
        }
    }

    /// The report as a bar chart (SVG), one bar per group (the unexplored part too,
    /// when there is one).
    pub fn svg(&self) -> String {
        let mut labels: Vec<String> = self.rows.iter().map(|r| r.label.clone()).collect();
        let mut values: Vec<f64> = self.rows.iter().map(|r| to_f64(&r.prob)).collect();
        if !self.unexplored.is_zero() {
            labels.push("(unexplored)".to_string());
            values.push(to_f64(&self.unexplored));
        }
        let series = super::svg::Series {
            name: self.procedure.clone(),
            values,
            intervals: Vec::new(),
        };
        super::svg::bars(&self.chart_title(), &labels, &[series])
    }

    /// The report as text: the groups with their chance (and, in order, at least and at
    /// most), the exact fraction last; then the unexplored part, the mean, the goal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let by = self
            .by
            .as_deref()
            .map(|b| format!(" by {b}"))
            .unwrap_or_default();
        let _ = writeln!(out, "{}{by} ({}):", self.title(), self.work);
        if self.by.is_none() {
            // One line per outcome, likeliest first.
            for r in &self.rows {
                let _ = writeln!(
                    out,
                    "  {:>9}  {:>14}  {}",
                    pct(&r.prob),
                    r.detail(),
                    r.label
                );
            }
            if !self.unexplored.is_zero() {
                let _ = writeln!(
                    out,
                    "  {:>9}  {:>14}  (unexplored: {})",
                    pct(&self.unexplored),
                    fraction(&self.unexplored),
                    self.unexplored_why
                );
            }
        } else {
            let unexplored = "(unexplored)";
            let width = self
                .rows
                .iter()
                .map(|r| r.label.chars().count())
                .chain([unexplored.len(), self.by.as_deref().unwrap_or("").len()])
                .max()
                .unwrap_or(0);
            let by = self.by.as_deref().unwrap_or("");
            let mut head = format!("  {by:<width$}  {:>9}", "chance");
            if self.ordered {
                let _ = write!(head, "  {:>9}  {:>9}", "at least", "at most");
            }
            let sampled = self.rows.iter().any(|r| r.interval.is_some());
            let detail = if sampled { "95% interval" } else { "exact" };
            let _ = writeln!(out, "{head}  {detail}");
            for r in &self.rows {
                let mut line = format!("  {:<width$}  {:>9}", r.label, pct(&r.prob));
                if let (Some(l), Some(m)) = (&r.at_least, &r.at_most) {
                    let _ = write!(line, "  {:>9}  {:>9}", pct(l), pct(m));
                }
                let _ = writeln!(out, "{line}  {}", r.detail());
            }
            if !self.unexplored.is_zero() {
                let blank = if self.ordered {
                    " ".repeat(22)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  {unexplored:<width$}  {:>9}{blank}  {}  ({})",
                    pct(&self.unexplored),
                    fraction(&self.unexplored),
                    self.unexplored_why
                );
            }
        }
        if let Some(s) = &self.stats {
            let over = if s.over == Prob::from_integer(1.into()) {
                String::new()
            } else {
                format!(
                    " (over the {} of outcomes that have a {})",
                    pct(&s.over),
                    self.by.as_deref().unwrap_or("number")
                )
            };
            let _ = writeln!(
                out,
                "  mean {:.4} ({}), standard deviation {:.4}{over}",
                to_f64(&s.mean),
                fraction(&s.mean),
                s.sd
            );
        }
        out
    }

    /// The report as an item of `results` in the JSON (`schemas/analyze.schema.json`).
    fn json(&self) -> JsonResult<'_> {
        let groups = self
            .rows
            .iter()
            .map(|r| JsonGroup {
                group: &r.label,
                value: &r.value,
                probability: fraction(&r.prob),
                percent: to_f64(&r.prob) * 100.0,
                at_least: r.at_least.as_ref().map(fraction),
                at_most: r.at_most.as_ref().map(fraction),
                interval: r.interval.map(|(lo, hi)| [lo, hi]),
            })
            .collect();
        JsonResult {
            scenario: &self.scenario,
            case: self
                .case
                .iter()
                .map(|(k, v)| (k.clone(), Json::String(v.clone())))
                .collect(),
            procedure: &self.procedure,
            by: self.by.as_deref(),
            work: &self.work,
            groups,
            unexplored: fraction(&self.unexplored),
            unexplored_percent: to_f64(&self.unexplored) * 100.0,
            stopped: self.stop.map(|s| s.code()),
            mean: self.stats.as_ref().map(|s| fraction(&s.mean)),
            mean_value: self.stats.as_ref().map(|s| to_f64(&s.mean)),
            standard_deviation: self.stats.as_ref().map(|s| s.sd),
            goal: self.goal.as_ref().map(fraction),
            goal_percent: self.goal.as_ref().map(|g| to_f64(g) * 100.0),
        }
    }
}

/// The JSON document, written field by field (no tree of values is built, so 200,000
/// groups cost their text and little more).
#[derive(Serialize)]
struct JsonDoc<'a> {
    format: &'static str,
    version: u32,
    results: Vec<JsonResult<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    scenario: &'a str,
    case: serde_json::Map<String, Json>,
    procedure: &'a str,
    by: Option<&'a str>,
    work: &'a str,
    groups: Vec<JsonGroup<'a>>,
    unexplored: String,
    unexplored_percent: f64,
    stopped: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_deviation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal_percent: Option<f64>,
}

#[derive(Serialize)]
struct JsonGroup<'a> {
    group: &'a str,
    value: &'a serde_json::Value,
    probability: String,
    percent: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_least: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_most: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<[f64; 2]>,
}

/// Several reports as one JSON document; `best` is the `--best` goal as given.
pub fn json(reports: &[Report], best: Option<&str>) -> String {
    let doc = JsonDoc {
        format: "rulesc-analyze",
        version: FORMAT_VERSION,
        results: reports.iter().map(Report::json).collect(),
        best,
    };
    serde_json::to_string_pretty(&doc).expect("a report is plain JSON: maps keyed by strings")
        + "\n"
}

/// A CSV field, quoted when it must be (RFC 4180).
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Several reports as one CSV table: a row per case and group (the unexplored part a
/// row of its own), one column per name a case sets.
pub fn csv(reports: &[Report]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for r in reports {
        for (k, _) in &r.case {
            if !names.contains(&k.as_str()) {
                names.push(k);
            }
        }
    }
    let mut out = String::new();
    let mut head = vec!["scenario".to_string(), "procedure".to_string()];
    head.extend(names.iter().map(|n| field(n)));
    head.extend(
        [
            "group",
            "probability",
            "percent",
            "at_least",
            "at_most",
            "interval_low",
            "interval_high",
        ]
        .map(str::to_string),
    );
    let _ = writeln!(out, "{}", head.join(","));
    for r in reports {
        let mut lead = vec![field(&r.scenario), field(&r.procedure)];
        for n in &names {
            let v = r.case.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
            lead.push(field(v.unwrap_or("")));
        }
        let unexplored = (!r.unexplored.is_zero()).then(|| Row {
            label: "(unexplored)".to_string(),
            value: serde_json::Value::Null,
            prob: r.unexplored.clone(),
            at_least: None,
            at_most: None,
            interval: None,
        });
        for row in r.rows.iter().chain(&unexplored) {
            let mut cells = lead.clone();
            cells.push(field(&row.label));
            cells.push(fraction(&row.prob));
            cells.push(format!("{:.6}", to_f64(&row.prob) * 100.0));
            cells.push(row.at_least.as_ref().map(fraction).unwrap_or_default());
            cells.push(row.at_most.as_ref().map(fraction).unwrap_or_default());
            let (lo, hi) = row
                .interval
                .map(|(lo, hi)| (format!("{lo:.6}"), format!("{hi:.6}")))
                .unwrap_or_default();
            cells.extend([lo, hi]);
            let _ = writeln!(out, "{}", cells.join(","));
        }
    }
    out
}

/// Grouped reports of several cases (sweeps, scenarios, answers) as one table: a row per
/// case, a column per group (in the groups' order), chances in percent; the exact
/// fractions are in `--format csv` and `--format json`.
pub fn table(reports: &[Report]) -> String {
    let mut columns: Vec<&str> = Vec::new();
    for r in reports {
        for (i, row) in r.rows.iter().enumerate() {
            if !columns.contains(&row.label.as_str()) {
                // After the group that precedes it in this report, so the order holds.
                let at = i
                    .checked_sub(1)
                    .and_then(|j| columns.iter().position(|c| *c == r.rows[j].label))
                    .map_or(columns.len().min(i), |p| p + 1);
                columns.insert(at, &row.label);
            }
        }
    }
    let unexplored = reports.iter().any(|r| !r.unexplored.is_zero());
    let names: Vec<String> = reports
        .iter()
        .map(|r| {
            let mut parts: Vec<String> = r.case.iter().map(|(_, v)| v.clone()).collect();
            if reports.iter().any(|o| o.scenario != r.scenario) {
                parts.insert(0, r.scenario.clone());
            }
            parts.join(", ")
        })
        .collect();
    let head: Vec<String> = {
        let first = &reports[0];
        let mut h: Vec<String> = first.case.iter().map(|(k, _)| k.clone()).collect();
        if reports.iter().any(|o| o.scenario != first.scenario) {
            h.insert(0, "scenario".to_string());
        }
        vec![h.join(", ")]
    };
    let width = names
        .iter()
        .chain(&head)
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    let cell = |c: &str| c.chars().count().max(9);
    let mut out = String::new();
    let by = reports[0].by.as_deref().unwrap_or("");
    let _ = writeln!(
        out,
        "{} by {by}, {} cases:",
        reports[0].procedure,
        reports.len()
    );
    let mut line = format!("  {:<width$}", head[0]);
    for c in &columns {
        let _ = write!(line, "  {c:>w$}", w = cell(c));
    }
    if unexplored {
        let _ = write!(line, "  {:>12}", "(unexplored)");
    }
    let _ = writeln!(out, "{}", line.trim_end());
    for (r, name) in reports.iter().zip(&names) {
        let mut line = format!("  {name:<width$}");
        for c in &columns {
            let p = r
                .rows
                .iter()
                .find(|row| row.label == *c)
                .map_or_else(|| "-".to_string(), |row| pct(&row.prob));
            let _ = write!(line, "  {p:>w$}", w = cell(c));
        }
        if unexplored {
            let _ = write!(line, "  {:>12}", pct(&r.unexplored));
        }
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The chance of a goal under each case, likeliest first, the best marked.
pub fn best_text(goal: &str, reports: &[Report]) -> String {
    let mut order: Vec<&Report> = reports.iter().filter(|r| r.goal.is_some()).collect();
    order.sort_by(|a, b| b.goal.cmp(&a.goal));
    let mut out = String::new();
    let Some(first) = order.first() else {
        return out;
    };
    let _ = writeln!(
        out,
        "{}: the chance of `{goal}` per answer",
        first.procedure
    );
    let labels: Vec<String> = order
        .iter()
        .map(|r| {
            r.case
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let top = first.goal.clone();
    for (r, label) in order.iter().zip(&labels) {
        let g = r.goal.clone().unwrap_or_default();
        let mark = if Some(&g) == top.as_ref() {
            "  best"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {label:<width$}  {:>9}  {}{mark}",
            pct(&g),
            fraction(&g)
        );
    }
    out
}

/// How reports are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Text,
    Json,
    Csv,
}

/// The reports as `rulesc analyze` prints them; `best` is the `--best` goal as given.
pub fn render(reports: &[Report], best: Option<&str>, by: bool, style: Style) -> String {
    match style {
        Style::Json => json(reports, best),
        Style::Csv => csv(reports),
        Style::Text => {
            let each = || {
                reports
                    .iter()
                    .map(Report::text)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            match best {
                Some(goal) if by => format!("{}\n{}", best_text(goal, reports), each()),
                Some(goal) => best_text(goal, reports),
                None if by && reports.len() > 1 => table(reports),
                None => each(),
            }
        }
    }
}
