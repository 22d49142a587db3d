//! The odds pages: for each scenario of the examples folder, the exact odds `rulesc
//! analyze` gives (the same call, [`crate::analyze::reports`], with its default view and
//! limits) and its chart (the same SVG as `--svg`); for each fight file, `rulesc
//! simulate`'s win rates with 95% intervals from a fixed seed, and its `--svg` chart;
//! and for a variant, what it changes against its base (`rulesc diff`: the definitions
//! and the odds shift).

use super::html::{anchor, esc};
use super::{Failure, Ruleset, Warnings, FIGHT_RUNS, FIGHT_SEED};
use crate::analyze::diff::{self, Kind};
use crate::analyze::exact::{fraction, to_f64};
use crate::analyze::report::Report;
use crate::analyze::{Limits, View};
use crate::diag::Diagnostics;
use crate::ir::Program;
use crate::source::Sources;
use num_traits::Zero;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The scenarios and fight files of an examples folder, in file-name order.
#[derive(Debug, Default)]
pub struct Found {
    pub scenarios: Vec<PathBuf>,
    pub fights: Vec<PathBuf>,
}

/// The `.yaml` files directly in `dir`: a file with `run:` is a scenario, one with
/// `sides:` a fight file; others (packs, rulesets) are left alone, as `rulesc test`
/// leaves them.
pub fn find(dir: &Path) -> Result<Found, Failure> {
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            let at = crate::output::file_span(dir, &mut sources);
            diags.push(
                crate::diag::Diagnostic::error(
                    "E0001",
                    at,
                    format!(
                        "cannot read the examples folder {}: {e}",
                        crate::output::shown(dir)
                    ),
                )
                .label("this folder")
                .help("give an existing folder with --examples"),
            );
            return Err((diags, sources));
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml") && p.is_file())
        .collect();
    paths.sort();
    let mut found = Found::default();
    for path in paths {
        let name = crate::output::shown(&path);
        let Some((_, root)) = crate::load::read_yaml(&mut sources, name, &path, &mut diags) else {
            continue;
        };
        if root.get("run").is_some() {
            found.scenarios.push(path);
        } else if root.get("sides").is_some() {
            found.fights.push(path);
        }
    }
    if diags.has_errors() {
        return Err((diags, sources));
    }
    Ok(found)
}

/// A file's name, as the book shows it (never the folder it was found in: the book is
/// the same wherever it is built from).
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// The odds page's body, the warnings, and the files read.
pub fn page(
    p: &Program,
    found: &Found,
    examples: Option<&Path>,
) -> Result<(String, Warnings, Vec<PathBuf>), Failure> {
    let mut out = String::new();
    let mut warnings = Warnings::new();
    let mut read = Vec::new();
    match examples {
        Some(_) if found.scenarios.is_empty() && found.fights.is_empty() => {
            out.push_str("<p>The examples folder holds no scenario or fight file.</p>\n")
        }
        Some(_) => {
            let _ = writeln!(
                out,
                "<p>Every scenario of the examples folder, analyzed exactly as <code>rulesc analyze</code> does (every roll of the dice, decisions as the scenario scripts them), and every fight file simulated {FIGHT_RUNS} times from seed {FIGHT_SEED} as <code>rulesc simulate</code> does.</p>"
            );
        }
        None => out.push_str(
            "<p>No examples folder was found for this ruleset (give one with <code>--examples</code>).</p>\n",
        ),
    }
    let limits = Limits::default();
    let results = crate::analyze::in_parallel(&found.scenarios, |s| {
        crate::analyze::reports(p, s, &limits, &View::default())
    });
    for (path, r) in found.scenarios.iter().zip(results) {
        let (reports, w, sources) = r?;
        read.extend(crate::output::inputs(&sources));
        if w.warning_count() + w.error_count() > 0 {
            warnings.push((w, sources));
        }
        let name = file_name(path);
        let _ = writeln!(
            out,
            "<section class=\"def\" id=\"{}\">\n<h2><span class=\"kind\">scenario</span>{}</h2>",
            anchor("scenario", &name),
            esc(&name)
        );
        for r in &reports {
            out.push_str(&report(r, &name));
        }
        out.push_str("</section>\n");
    }
    for path in &found.fights {
        let (file, sources) = crate::simulate::read(p, path)?;
        read.extend(crate::output::inputs(&sources));
        let summary = crate::simulate::simulate(p, &file, FIGHT_RUNS, FIGHT_SEED);
        let name = file_name(path);
        let _ = writeln!(
            out,
            "<section class=\"def\" id=\"{}\">\n<h2><span class=\"kind\">fight</span>{}</h2>",
            anchor("fight", &name),
            esc(&file.title)
        );
        out.push_str(&fight(
            &summary.json(p, &file, FIGHT_SEED),
            &name,
            &summary.svg(p, &file, FIGHT_SEED),
        ));
        out.push_str("</section>\n");
    }
    Ok((out, warnings, read))
}

/// One report's table (each group's chance, the exact fraction, at least and at most in
/// order) and chart.
fn report(r: &Report, scenario: &str) -> String {
    let mut out = format!(
        "<h3>{}</h3>\n<p class=\"at\">{} ({})</p>\n",
        esc(&r.chart_title()),
        esc(scenario),
        esc(&r.work)
    );
    let _ = write!(
        out,
        "<table class=\"odds\" data-scenario=\"{}\"><tr><th>{}</th><th class=\"num\">chance</th><th class=\"num\">exact</th>",
        esc(scenario),
        esc(r.by.as_deref().unwrap_or("outcome"))
    );
    if r.ordered {
        out.push_str("<th class=\"num\">at least</th><th class=\"num\">at most</th>");
    }
    out.push_str("</tr>\n");
    let pct = |p: &crate::analyze::exact::Prob| format!("{:.4}%", to_f64(p) * 100.0);
    for row in &r.rows {
        let _ = write!(
            out,
            "<tr><td class=\"label\">{}</td><td class=\"num\">{}</td><td class=\"num exact\">{}</td>",
            esc(&row.label),
            pct(&row.prob),
            fraction(&row.prob)
        );
        if let (Some(l), Some(m)) = (&row.at_least, &row.at_most) {
            let _ = write!(
                out,
                "<td class=\"num\">{}</td><td class=\"num\">{}</td>",
                pct(l),
                pct(m)
            );
        }
        out.push_str("</tr>\n");
    }
    if !r.unexplored.is_zero() {
        let _ = writeln!(
            out,
            "<tr><td class=\"label unexplored\">(unexplored: {})</td><td class=\"num\">{}</td><td class=\"num exact\">{}</td></tr>",
            esc(&r.unexplored_why),
            pct(&r.unexplored),
            fraction(&r.unexplored)
        );
    }
    out.push_str("</table>\n");
    if let Some(s) = &r.stats {
        let _ = writeln!(
            out,
            "<p>mean {:.4}, standard deviation {:.4}</p>",
            to_f64(&s.mean),
            s.sd
        );
    }
    let _ = writeln!(out, "<div class=\"chart\">{}</div>", r.svg());
    out
}

/// A fight's figures (as `rulesc simulate --format json` gives them): wins, draws,
/// undecided runs and rule errors with their 95% intervals, the report's groups, the
/// rounds; and its chart, `svg` (`rulesc simulate --svg`'s: the ends with their
/// intervals, then the rounds played).
fn fight(j: &serde_json::Value, name: &str, svg: &str) -> String {
    let runs = j["runs"].as_u64().unwrap_or(0);
    let mut out = format!(
        "<p class=\"at\">{} ({runs} runs, seed {}, at most {} rounds)</p>\n",
        esc(name),
        j["seed"],
        j["max_rounds"]
    );
    let _ = writeln!(
        out,
        "<table class=\"fight\" data-fight=\"{}\"><tr><th>end</th><th class=\"num\">runs</th><th class=\"num\">share</th><th class=\"num\">95% interval</th></tr>",
        esc(name)
    );
    let line = |out: &mut String, label: String, v: &serde_json::Value| {
        let share = v["share"].as_f64().unwrap_or(0.0);
        let _ = writeln!(
            out,
            "<tr><td class=\"label\">{}</td><td class=\"num runs\">{}</td><td class=\"num\">{:.2}%</td><td class=\"num\">{:.2}% – {:.2}%</td></tr>",
            esc(&label),
            v["runs"],
            share * 100.0,
            v["low"].as_f64().unwrap_or(0.0) * 100.0,
            v["high"].as_f64().unwrap_or(0.0) * 100.0
        );
    };
    for w in j["wins"].as_array().into_iter().flatten() {
        line(
            &mut out,
            format!("{} wins", w["side"].as_str().unwrap_or("")),
            w,
        );
    }
    line(&mut out, "draw".into(), &j["draw"]);
    line(&mut out, "undecided".into(), &j["undecided"]);
    for e in j["rule_errors"].as_array().into_iter().flatten() {
        line(
            &mut out,
            format!(
                "stopped by a rule error: {}",
                e["error"].as_str().unwrap_or("")
            ),
            e,
        );
    }
    out.push_str("</table>\n");
    let groups = j["report"].as_array().cloned().unwrap_or_default();
    if !groups.is_empty() {
        out.push_str("<table><tr><th>report group</th><th class=\"num\">runs</th><th class=\"num\">share</th><th class=\"num\">95% interval</th></tr>\n");
        let group = |out: &mut String, label: String, v: &serde_json::Value| {
            let _ = writeln!(
                out,
                "<tr><td class=\"label\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}%</td><td class=\"num\">{:.2}% – {:.2}%</td></tr>",
                esc(&label),
                v["runs"],
                v["share"].as_f64().unwrap_or(0.0) * 100.0,
                v["low"].as_f64().unwrap_or(0.0) * 100.0,
                v["high"].as_f64().unwrap_or(0.0) * 100.0
            );
        };
        for g in &groups {
            group(&mut out, g["group"].as_str().unwrap_or("").to_string(), g);
        }
        out.push_str("</table>\n");
    }
    let st = &j["rounds"]["stats"];
    if st.is_object() {
        let _ = writeln!(
            out,
            "<p>rounds: mean {:.2}, median {}, 90th percentile {}, most {}</p>",
            st["mean"].as_f64().unwrap_or(0.0),
            st["median"],
            st["p90"],
            st["most"]
        );
    }
    let _ = writeln!(out, "<div class=\"chart\">{svg}</div>");
    out
}

/// What a variant changes against `base`: the definitions that differ (as `rulesc diff`
/// finds them) and, for each of the base's scenarios, the odds under both.
pub fn changes(
    base: &Ruleset,
    variant: &Ruleset,
    found: &Found,
) -> Result<(String, Warnings, Vec<PathBuf>), Failure> {
    let mut out = String::new();
    let mut warnings = Warnings::new();
    let mut read = Vec::new();
    let changes = diff::changes(&base.defs, &variant.defs);
    let base_root = "../../";
    if changes.is_empty() {
        let _ = writeln!(
            out,
            "<p>No definition of {} differs from {}.</p>",
            esc(&variant.p.name),
            esc(&base.p.name)
        );
    } else {
        let _ = writeln!(
            out,
            "<p>The definitions of <code>{}</code> that differ from <a href=\"{base_root}index.html\"><code>{}</code></a>, as <code>rulesc diff</code> finds them:</p>",
            esc(&variant.p.name),
            esc(&base.p.name)
        );
    }
    for c in &changes {
        let word = match c.kind {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
        };
        let _ = writeln!(
            out,
            "<section class=\"def\"><h2><span class=\"kind\">{} {}</span>{}</h2>\n<p class=\"at\">{}</p>\n<pre>",
            esc(&c.what),
            word,
            esc(&c.name),
            esc(&c.at)
        );
        for r in &c.removed {
            let _ = writeln!(out, "<span class=\"removed\">- {}</span>", esc(r));
        }
        for (l, at) in &c.added {
            let at = if at.is_empty() {
                String::new()
            } else {
                format!("    {at}")
            };
            let _ = writeln!(out, "<span class=\"added\">+ {}{}</span>", esc(l), esc(&at));
        }
        out.push_str("</pre></section>\n");
    }
    if found.scenarios.is_empty() && found.fights.is_empty() {
        return Ok((out, warnings, read));
    }
    out.push_str("<h2>The odds, under both</h2>\n");
    let limits = Limits::default();
    for s in &found.scenarios {
        let (d, w) = diff::compare(&base.dir, &variant.dir, s, &limits, &View::default())?;
        for (diags, sources) in w {
            read.extend(crate::output::inputs(&sources));
            if diags.warning_count() + diags.error_count() > 0 {
                warnings.push((diags, sources));
            }
        }
        let name = file_name(s);
        let _ = writeln!(
            out,
            "<h3>{}: {}</h3>\n<table class=\"shift\" data-scenario=\"{}\"><tr><th>outcome</th><th class=\"num\">{}</th><th class=\"num\">{}</th><th class=\"num\">change</th></tr>",
            esc(&name),
            esc(&d.base.title()),
            esc(&name),
            esc(&d.names.0),
            esc(&d.names.1)
        );
        for pair in diff::pairs(&d.base, &d.variant) {
            let _ = writeln!(
                out,
                "<tr><td class=\"label\">{}</td><td class=\"num\">{:.4}%</td><td class=\"num\">{:.4}%</td><td class=\"num\">{:+.4} pp</td></tr>",
                esc(&pair.label),
                to_f64(&pair.base) * 100.0,
                to_f64(&pair.variant) * 100.0,
                pair.points()
            );
        }
        out.push_str("</table>\n");
        let _ = writeln!(out, "<div class=\"chart\">{}</div>", d.svg());
    }
    // Each fight file simulated under both on the same runs, as `rulesc diff` does.
    for f in &found.fights {
        let runs = crate::simulate::diff::Runs {
            n: FIGHT_RUNS,
            seed: FIGHT_SEED,
            max: None,
        };
        let (d, w) = crate::simulate::diff::compare(&base.dir, &variant.dir, f, &[], runs)?;
        for (_, sources) in w {
            read.extend(crate::output::inputs(&sources));
        }
        let name = file_name(f);
        let _ = writeln!(
            out,
            "<h3>{}: {}</h3>\n<p>Simulated, not exact: {} runs under each from seed {}, as <code>rulesc diff</code> runs them; each share with its 95% interval.</p>\n<table class=\"shift\" data-fight=\"{}\"><tr><th>outcome</th><th class=\"num\">{}</th><th class=\"num\">{}</th><th class=\"num\">change</th></tr>",
            esc(&name),
            esc(&d.title),
            d.runs,
            d.seed,
            esc(&name),
            esc(&d.names.0),
            esc(&d.names.1)
        );
        for row in &d.rows {
            let share = |k: u64| k as f64 / d.runs.max(1) as f64 * 100.0;
            let (change, lo, hi) = crate::simulate::diff::change(row.base, row.variant, d.runs);
            let _ = writeln!(
                out,
                "<tr><td class=\"label\">{}</td><td class=\"num\">{:.1}%</td><td class=\"num\">{:.1}%</td><td class=\"num\">{:+.1} pp ({:+.1} to {:+.1})</td></tr>",
                esc(&row.label),
                share(row.base),
                share(row.variant),
                change * 100.0,
                lo * 100.0,
                hi * 100.0
            );
        }
        out.push_str("</table>\n");
        let _ = writeln!(out, "<div class=\"chart\">{}</div>", d.svg());
    }
    Ok((out, warnings, read))
}
