//! The commands that run rules: `trace` (one scenario), `test` (scenarios held to their
//! `expect:`), `simulate` (whole fights, many times), and `explain` (a definition and
//! where each part came from).

use crate::cli::Format;
use crate::project::load_here;
use crate::report::{report, trace_json};
use rulesc::diag;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `rulesc trace`: one scenario's trace, as text or one JSON object.
pub fn trace(
    ruleset: &Path,
    scenario: &Path,
    seed: u64,
    packs: &[PathBuf],
    options: rulesc::scenario::RunOptions,
    format: Format,
) -> ExitCode {
    let Some(p) = load_here(ruleset, packs, format) else {
        return ExitCode::from(1);
    };
    match rulesc::scenario::run_file_valued(&p, scenario, seed, options) {
        Ok((out, value)) => {
            match format {
                Format::Human | Format::Csv => out!("{}", diag::escape_controls(&out)),
                Format::Json => outln!("{}", trace_json(scenario, &out, value)),
            }
            ExitCode::SUCCESS
        }
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            ExitCode::from(1)
        }
    }
}

/// `rulesc test`: each scenario's diagnostics, then its line (or JSON object), then the
/// summary.
pub fn test(paths: &[PathBuf], ruleset: Option<PathBuf>, update: bool, format: Format) -> ExitCode {
    test_read(paths, ruleset, update, format).0
}

/// [`test`], and the files it read (for `--watch`).
pub fn test_read(
    paths: &[PathBuf],
    ruleset: Option<PathBuf>,
    update: bool,
    format: Format,
) -> (ExitCode, Vec<PathBuf>) {
    let opts = rulesc::testing::Options {
        ruleset,
        update,
        names: Some(crate::report::name_from_here),
    };
    let r = rulesc::testing::run(paths, &opts);
    let read: Vec<PathBuf> = r
        .problems
        .iter()
        .map(|(_, s)| s)
        .chain(r.cases.iter().map(|c| &c.sources))
        .flat_map(|s| s.files.iter().map(|f| f.path.clone()))
        .collect();
    (report_test(&r, format), read)
}

fn report_test(r: &rulesc::testing::Report, format: Format) -> ExitCode {
    for (diags, sources) in &r.problems {
        report(diags, sources, format);
    }
    for case in &r.cases {
        report(&case.diags, &case.sources, format);
        match format {
            Format::Human | Format::Csv => out!("{}", diag::escape_controls(&case.render())),
            Format::Json => outln!("{}", case.json()),
        }
    }
    match format {
        Format::Human | Format::Csv => outln!("{}", r.summary()),
        Format::Json => outln!("{}", r.json_summary()),
    }
    if r.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `rulesc simulate`: a fight file run `runs` times (the report), or run `trace` alone
/// (its trace); as text, or one JSON object.
pub fn simulate(
    ruleset: &Path,
    fight: &Path,
    packs: &[PathBuf],
    (runs, seed, trace, options, max_seconds): (u64, u64, Option<u64>, rulesc::eval::Options, u64),
    svg: Option<&Path>,
    format: Format,
) -> ExitCode {
    let Some(p) = load_here(ruleset, packs, format) else {
        return ExitCode::from(1);
    };
    let (file, sources) = match rulesc::simulate::read(&p, fight) {
        Ok(read) => read,
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            return ExitCode::from(1);
        }
    };
    let json = matches!(format, Format::Json);
    match trace {
        // A scripted fight (`dice:`) has one run: the replay of its script.
        Some(_) if file.script.is_some() && !json => {
            let ran = rulesc::simulate::replay(&p, &file);
            out!("{}", diag::escape_controls(&ran.trace));
            outln!("replayed: {}", rulesc::simulate::replay_ending(&ran, &file));
            if !ran.problems.items.is_empty() {
                report(&ran.problems, &sources, format);
                return ExitCode::from(1);
            }
        }
        Some(k) if json => outln!(
            "{}",
            rulesc::simulate::trace_json(&p, &file, seed, k, options)
        ),
        Some(k) => out!(
            "{}",
            diag::escape_controls(&rulesc::simulate::trace_run(&p, &file, seed, k, options))
        ),
        None => {
            let max = std::time::Duration::from_secs(max_seconds);
            let summary = rulesc::simulate::simulate_within(&p, &file, runs, seed, Some(max));
            if summary.runs < summary.asked {
                let mut diags = diag::Diagnostics::default();
                diags.push(
                    diag::Diagnostic::warning(
                        "W0105",
                        rulesc::source::Span::new(file.file, 0, 0),
                        format!(
                            "the simulation stopped after {max_seconds} seconds: {} of {} runs",
                            summary.runs, summary.asked
                        ),
                    )
                    .label("this fight")
                    .help("the numbers shown are for the runs made; raise --max-seconds, or ask for fewer runs (-n)"),
                );
                report(&diags, &sources, format);
            }
            if let Some(path) = svg {
                let chart = summary.svg(&p, &file, seed);
                if !crate::report::write_chart(
                    path,
                    &chart,
                    &rulesc::output::inputs(&sources),
                    format,
                ) {
                    return ExitCode::from(1);
                }
            }
            if json {
                outln!("{}", summary.json(&p, &file, seed));
            } else {
                out!(
                    "{}",
                    diag::escape_controls(&summary.render(&p, &file, seed))
                );
            }
        }
    }
    ExitCode::SUCCESS
}

/// `rulesc simulate --sweep`: the fight at every point of the sweeps, as one table (or
/// one JSON object).
pub fn sweep(
    ruleset: &Path,
    fight: &Path,
    packs: &[PathBuf],
    sweeps: &[rulesc::analyze::cases::Sweep],
    (runs, seed, _, _, max_seconds): (u64, u64, Option<u64>, rulesc::eval::Options, u64),
    format: Format,
) -> ExitCode {
    let Some(p) = load_here(ruleset, packs, format) else {
        return ExitCode::from(1);
    };
    let max = Some(std::time::Duration::from_secs(max_seconds));
    match rulesc::simulate::sweep::sweep(&p, fight, sweeps, runs, seed, max) {
        Ok((swept, sources)) => {
            let asked = swept.points.iter().map(|pt| pt.summary.asked).sum::<u64>();
            let made = swept.points.iter().map(|pt| pt.summary.runs).sum::<u64>();
            if made < asked {
                let mut diags = diag::Diagnostics::default();
                diags.push(
                    diag::Diagnostic::warning(
                        "W0105",
                        rulesc::source::Span::new(swept.file.file, 0, 0),
                        format!(
                            "the simulation stopped after {max_seconds} seconds: {made} of {asked} runs"
                        ),
                    )
                    .label("this fight")
                    .help("the numbers shown are for the runs made; raise --max-seconds, or ask for fewer runs (-n) or points"),
                );
                report(&diags, &sources, format);
            }
            match format {
                Format::Json => outln!("{}", swept.json(&p)),
                _ => out!("{}", diag::escape_controls(&swept.render(&p))),
            }
            ExitCode::SUCCESS
        }
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            ExitCode::from(1)
        }
    }
}

/// `rulesc explain`: a definition (or a pack's record) with each part's origin.
pub fn explain(ruleset: &Path, name: &str, packs: &[PathBuf], format: Format) -> ExitCode {
    match rulesc::explain::explain_named(ruleset, name, packs, &crate::report::name_from_here) {
        Ok(text) => {
            match format {
                Format::Human | Format::Csv => out!("{}", diag::escape_controls(&text)),
                Format::Json => outln!(
                    "{}",
                    serde_json::json!({ "name": name, "lines": text.lines().collect::<Vec<_>>() })
                ),
            }
            ExitCode::SUCCESS
        }
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            ExitCode::from(1)
        }
    }
}
