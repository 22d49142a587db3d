//! The odds commands: `analyze` (exact odds of a scenario's outcomes) and `diff` (what a
//! variant changes).

use crate::cli::{AnalyzeView, DiffArgs, Format};
use crate::project::load_here;
use crate::report::{report, style, usage_error, write_chart};
use rulesc::analyze::Limits;
use rulesc::{diag, output};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `rulesc analyze`: every scenario's reports (in parallel), as one table.
pub fn analyze(
    ruleset: &Path,
    scenarios: &[PathBuf],
    packs: &[PathBuf],
    limits: &Limits,
    view: AnalyzeView,
    format: Format,
) -> ExitCode {
    if view.samples.is_some()
        && (view.best.is_some() || !matches!(limits.engine, rulesc::analyze::EngineKind::Merged))
    {
        return usage_error(
            format,
            "`--samples` estimates the odds by itself: it takes neither `--best` nor `--engine`"
                .into(),
            "leave out `--best` and `--engine` with `--samples`, or `--samples` for exact odds",
        );
    }
    let fight = scenarios
        .iter()
        .find(|s| rulesc::simulate::diff::is_fight_file(s));
    let Some(p) = load_here(ruleset, packs, format) else {
        return ExitCode::from(1);
    };
    let v = rulesc::analyze::View {
        by: view.by,
        best: view.best,
        decide: view.decide,
        sweeps: view.sweep,
        samples: view.samples,
        seed: view.seed,
    };
    let results =
        rulesc::analyze::in_parallel(scenarios, |s| rulesc::analyze::reports(&p, s, limits, &v));
    let mut all = Vec::new();
    // Every file the run read: each case's sources hold the ruleset, its packs and the
    // case's scenario, which a chart must never replace.
    let mut inputs = output::inputs(&p.sources);
    let mut failed = false;
    for r in results {
        match r {
            Ok((reports, warnings, sources)) => {
                report(&warnings, &sources, format);
                inputs.extend(output::inputs(&sources));
                all.extend(reports);
            }
            Err((diags, sources)) => {
                report(&diags, &sources, format);
                failed = true;
            }
        }
    }
    if failed {
        return ExitCode::from(1);
    }
    if let (Some(path), Some(_)) = (&view.svg, fight) {
        // A fight file's chart: its ends and its rounds, as `simulate --svg` draws them.
        let chart = match rulesc::analyze::fight::svg(&all) {
            Some(chart) if scenarios.len() == 1 => chart,
            _ => {
                return usage_error(
                    format,
                    format!(
                        "`--svg` draws the odds of one fight file, and this call has {} files",
                        scenarios.len()
                    ),
                    "draw the fight file alone",
                )
            }
        };
        if !write_chart(path, &chart, &inputs, format) {
            return ExitCode::from(1);
        }
    } else if let Some(path) = &view.svg {
        let [one] = all.as_slice() else {
            return usage_error(
                format,
                format!(
                    "`--svg` draws the odds of one case, and this call has {} (several scenarios, sweeps or decisions)",
                    all.len()
                ),
                "draw one scenario without `--sweep` or `--decide`; `--format csv` gives the whole table",
            );
        };
        if !write_chart(path, &one.svg(), &inputs, format) {
            return ExitCode::from(1);
        }
    }
    let text =
        rulesc::analyze::report::render(&all, v.best.as_deref(), v.by.is_some(), style(format));
    out!("{}", diag::escape_controls(&text));
    ExitCode::SUCCESS
}

/// `rulesc diff`: what a variant changes, in definitions and in odds.
pub fn diff(args: DiffArgs, format: Format) -> ExitCode {
    let DiffArgs {
        base,
        variant,
        scenario,
        packs,
        limits,
        by,
        svg,
        runs,
        seed,
    } = args;
    let limits: Limits = limits.into();
    if rulesc::simulate::diff::is_fight_file(&scenario) {
        if by.is_some() {
            return usage_error(
                format,
                "`--by` groups a scenario's results, and this is a fight file".into(),
                "a fight's outcomes are its sides' wins, draws, undecided fights and report groups: drop `--by`",
            );
        }
        let runs = rulesc::simulate::diff::Runs {
            n: runs,
            seed,
            max: Some(std::time::Duration::from_secs(limits.max_seconds)),
        };
        let compared = rulesc::simulate::diff::compare_named(
            &base,
            &variant,
            &scenario,
            &packs,
            runs,
            &crate::report::name_from_here,
        );
        return match compared {
            Ok((d, read)) => {
                let inputs: Vec<_> = read.iter().flat_map(|(_, s)| output::inputs(s)).collect();
                if let Some(path) = &svg {
                    if !write_chart(path, &d.svg(), &inputs, format) {
                        return ExitCode::from(1);
                    }
                }
                out!("{}", diag::escape_controls(&d.render(style(format))));
                ExitCode::SUCCESS
            }
            Err((diags, sources)) => {
                report(&diags, &sources, format);
                ExitCode::from(1)
            }
        };
    }
    let v = rulesc::analyze::View {
        by,
        ..Default::default()
    };
    let compared = rulesc::analyze::diff::compare_with_packs(
        &base,
        &variant,
        &scenario,
        &packs,
        &limits,
        &v,
        &crate::report::name_from_here,
    );
    match compared {
        Ok((d, warnings)) => {
            // The sources of both runs: base and variant (each with its packs and
            // `extends` layers) and the scenario, every file the chart must not replace.
            let mut inputs = Vec::new();
            for (w, s) in &warnings {
                report(w, s, format);
                inputs.extend(output::inputs(s));
            }
            if let Some(path) = &svg {
                if !write_chart(path, &d.svg(), &inputs, format) {
                    return ExitCode::from(1);
                }
            }
            out!("{}", diag::escape_controls(&d.render(style(format))));
            ExitCode::SUCCESS
        }
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            ExitCode::from(1)
        }
    }
}
