//! A fight's exact odds shown: as reports (`rulesc analyze <ruleset> <fight.yaml>`), and
//! as a chart (`--svg`).

use super::{odds, FightOdds};
use crate::analyze::exact::{to_f64, Prob};
use crate::analyze::report::{Report, Row};
use crate::analyze::view::{self, Group};
use crate::analyze::{Limits, Stop};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Program;
use crate::simulate::FightFile;
use crate::source::{Sources, Span};
use num_traits::Zero;

/// `rulesc analyze <ruleset> <fight.yaml>`: the fight file's exact odds as reports, as
/// a scenario's are shown: how the fights end (each side's win, the draw, undecided, rule
/// errors), the rounds they last (`by rounds`, with at-least and at-most columns and the
/// mean), and the file's report groups (`by report`, when it names any); the warning of
/// the limit that stopped the run, if one did.
pub fn reports(
    p: &Program,
    path: &std::path::Path,
    limits: &Limits,
    v: &crate::analyze::View,
) -> Result<(Vec<Report>, Diagnostics, Sources), (Diagnostics, Sources)> {
    let (file, sources) = crate::simulate::read(p, path)?;
    let at = sources.files.len().saturating_sub(1) as u32;
    // The views of a scenario's results do not shape a fight's odds.
    let shaped = [
        ("--by", v.by.is_some()),
        ("--best", v.best.is_some()),
        ("--decide", !v.decide.is_empty()),
        ("--sweep", !v.sweeps.is_empty()),
        ("--samples", v.samples.is_some()),
    ];
    if let Some((flag, _)) = shaped.iter().find(|(_, given)| *given) {
        let d = Diagnostic::error(
            "E0514",
            Span::new(at, 0, 0),
            format!("`{flag}` shapes a scenario's odds, and this is a fight file"),
        )
        .label("this fight file")
        .help("a fight's exact odds are its ends, the rounds it lasts and its report groups, all shown without it: drop the flag");
        return Err((Diagnostics { items: vec![d] }, sources));
    }
    let Some(odds) = odds(p, &file, limits) else {
        // `simulate::read` refuses a fight file of a ruleset that declares no fight.
        return Ok((Vec::new(), Diagnostics::default(), sources));
    };
    let mut diags = Diagnostics::default();
    if let Some(stop) = odds.stop {
        let done = format!(
            "{} states stepped, {:.4}% of the fights unexplored",
            odds.states,
            to_f64(&odds.unexplored) * 100.0
        );
        // Analyze's warning, said of a fight: what to raise, and how to shape the fight
        // to fit.
        let help = match stop {
            Stop::Time => "the odds shown are exact for the part reached; raise --max-seconds",
            Stop::Paths => "the odds shown are exact for the part reached; raise --max-paths, or lower --max-dice",
            Stop::Steps => "the odds shown are exact for the part reached; raise --max-steps",
            Stop::Memory => "the odds shown are exact for the part reached; raise --max-memory",
            Stop::States | Stop::Totals => "the odds shown are exact for the part reached; raise --max-states",
        };
        let shape = "to fit, keep fewer distinct states: reset at the round's end a field the rules roll again (an initiative), keep conditions as flags, keep the round limit no higher than the fights need";
        let mut d = stop
            .diagnostic(limits, at, Some(done))
            .label("this fight file");
        d.help = Some(format!("{help}; {shape}"));
        diags.push(d);
    }
    Ok((
        views(&file, &odds, limits, path.display().to_string()),
        diags,
        sources,
    ))
}

/// The odds as reports (see [`reports`]); `scenario` names the fight file.
pub fn views(file: &FightFile, odds: &FightOdds, limits: &Limits, scenario: String) -> Vec<Report> {
    let work = format!("{} states, at most {} at once", odds.states, odds.peak);
    let work = crate::analyze::work(limits, work, odds.stop);
    let why = match odds.stop {
        Some(stop) if odds.cut => format!(
            "paths longer than {} dice, and what {} left unreached",
            limits.walker_dice(),
            stop.limit(limits)
        ),
        Some(stop) => format!("not reached before {}", stop.limit(limits)),
        None => format!("paths longer than {} dice", limits.walker_dice()),
    };
    let row = |label: String, value: serde_json::Value, prob: &Prob| Row {
        label,
        value,
        prob: prob.clone(),
        at_least: None,
        at_most: None,
        interval: None,
    };
    let report = |by: Option<&str>, rows: Vec<Row>| Report {
        scenario: scenario.clone(),
        case: Vec::new(),
        procedure: file.title.clone(),
        by: by.map(str::to_string),
        work: work.clone(),
        rows,
        ordered: false,
        unexplored: odds.unexplored.clone(),
        unexplored_why: why.clone(),
        stats: None,
        goal: None,
        stop: odds.stop,
        samples: None,
    };
    let mut ends: Vec<Row> = file
        .sides
        .iter()
        .zip(&odds.wins)
        .map(|((side, _), p)| {
            let value = serde_json::json!({ "end": "won", "winner": side });
            row(format!("{side} wins"), value, p)
        })
        .collect();
    ends.push(row(
        "a draw".into(),
        serde_json::json!({ "end": "draw" }),
        &odds.draw,
    ));
    let undecided = serde_json::json!({ "end": "undecided" });
    ends.push(row("undecided".into(), undecided, &odds.undecided));
    for (error, p) in &odds.errors {
        let value = serde_json::json!({ "end": "rule_error", "error": error });
        ends.push(row(format!("stopped by a rule error at {error}"), value, p));
    }
    // The rounds from the fewest any fight lasted to the most.
    let lasted = |r: &(usize, &Prob)| !r.1.is_zero();
    let first = odds.rounds.iter().enumerate().position(|r| lasted(&r));
    let last = odds.rounds.iter().enumerate().rposition(|r| lasted(&r));
    let groups: Vec<Group> = match (first, last) {
        (Some(a), Some(b)) => (a..=b)
            .map(|r| Group::number(r as i64, odds.rounds[r].clone()))
            .collect(),
        _ => Vec::new(),
    };
    let stats = view::stats(&groups);
    let rows = groups
        .iter()
        .zip(view::cumulative(&groups))
        .map(|(g, (least, most))| Row {
            at_least: Some(least),
            at_most: Some(most),
            ..row(g.label.clone(), g.value.clone(), &g.prob)
        })
        .collect();
    let mut out = vec![
        report(None, ends),
        Report {
            ordered: true,
            stats,
            ..report(Some("rounds"), rows)
        },
    ];
    if !file.groups.is_empty() {
        let rows = file
            .groups
            .iter()
            .zip(&odds.groups)
            .map(|(g, p)| row(g.name.clone(), serde_json::Value::from(g.name.clone()), p))
            .collect();
        out.push(report(Some("report"), rows));
    }
    out
}

/// The reports of one fight file ([`views`]) as one chart (`--svg`): how the fights end
/// (with the unexplored part, when there is one), then the rounds they last, each bar an
/// exact chance; the panels of `simulate --svg`, without intervals.
pub fn svg(reports: &[Report]) -> Option<String> {
    use crate::analyze::svg::{chart, Panel, Series};
    let [ends, rounds, ..] = reports else {
        return None;
    };
    let panel = |r: &Report| {
        let mut labels: Vec<String> = r.rows.iter().map(|row| row.label.clone()).collect();
        let mut values: Vec<f64> = r.rows.iter().map(|row| to_f64(&row.prob)).collect();
        if !r.unexplored.is_zero() {
            labels.push("(unexplored)".into());
            values.push(to_f64(&r.unexplored));
        }
        let series = Series {
            name: r.procedure.clone(),
            values,
            intervals: Vec::new(),
        };
        (labels, [series])
    };
    let (end_labels, end_series) = panel(ends);
    let (mut round_labels, mut round_series) = panel(rounds);
    // Past 40 numbers of rounds, a bar per span of them (`11-15`), as `simulate` draws.
    let n = rounds.rows.len();
    if n > 40 {
        let span = n.div_ceil(40);
        let values = &round_series[0].values;
        let spans: Vec<(String, f64)> = rounds
            .rows
            .chunks(span)
            .zip(values.chunks(span))
            .map(|(rows, v)| {
                let (a, b) = (&rows[0].label, &rows[rows.len() - 1].label);
                (format!("{a}-{b}"), v.iter().sum())
            })
            .collect();
        let unexplored = values.get(n).copied();
        round_labels = spans.iter().map(|(l, _)| l.clone()).collect();
        round_series[0].values = spans.iter().map(|(_, v)| *v).collect();
        if let Some(u) = unexplored {
            round_labels.push("(unexplored)".into());
            round_series[0].values.push(u);
        }
    }
    let title = format!("{}: exact odds", ends.procedure);
    Some(chart(&[
        Panel {
            title: &title,
            labels: &end_labels,
            series: &end_series,
        },
        Panel {
            title: "rounds played",
            labels: &round_labels,
            series: &round_series,
        },
    ]))
}
