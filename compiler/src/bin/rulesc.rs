//! The `rulesc` command line: a thin front end over the library.
//!
//! Exit codes: 0 success, 1 diagnostics (errors), 2 usage. A panic (101) is a bug.

use clap::{Parser, Subcommand, ValueEnum};
use rulesc::analyze::Limits;
use rulesc::diag::{self, Diagnostics, Severity};
use rulesc::output;
use rulesc::source::Sources;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rulesc",
    version,
    about = "Check, compile and run tabletop combat rulesets"
)]
struct Cli {
    /// Diagnostic output: human-readable, or one JSON object per line.
    #[arg(long, value_enum, default_value = "human", global = true)]
    format: Format,
    /// When to colour diagnostics: `auto` colours a terminal, unless `NO_COLOR` is set or
    /// `TERM=dumb`; `CLICOLOR_FORCE=1` colours even a pipe.
    #[arg(
        long,
        value_enum,
        default_value = "auto",
        global = true,
        value_name = "WHEN"
    )]
    color: Color,
    /// The project folder: what `extends` and links in ruleset folders may reach
    /// (default: the nearest folder above the ruleset with `Cargo.toml`, `.git` or
    /// `rulesc.toml`, else the ruleset's parent folder).
    #[arg(long, global = true, value_name = "FOLDER")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
    /// Tables as CSV (`analyze`, `diff`; diagnostics print as `human`).
    Csv,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Whether diagnostics are coloured (decided once, from `--color` and the environment).
static COLOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

#[derive(Subcommand)]
enum Command {
    /// Check a ruleset folder and report every problem; with `--ruleset`, check content
    /// packs against that ruleset instead.
    Check {
        /// The ruleset folder (holds ruleset.yaml), or with `--ruleset` the packs.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The ruleset the content packs are checked against.
        #[arg(long)]
        ruleset: Option<PathBuf>,
    },
    /// Compile a ruleset folder (and content packs) to a Rust module.
    Build {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The Rust file to write (written only when its content changes).
        #[arg(short, long)]
        output: PathBuf,
        /// Content packs whose records are compiled in as the ruleset's own.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
    },
    /// Check and compile every ruleset folder in a directory (one line each), and
    /// optionally trace scenarios: `examples/<ruleset name>/<scenario>.yaml`.
    All {
        /// The directory holding one folder per ruleset.
        rules: PathBuf,
        /// Where the generated Rust goes (`<out>/<name>.rs`).
        #[arg(long, default_value = "target/rulesc")]
        out: PathBuf,
        /// Scenarios to trace; each runs against the ruleset its folder is named after.
        #[arg(long)]
        trace: Vec<PathBuf>,
    },
    /// Show a definition after `extends` and `override` are merged, and where each part
    /// came from.
    Explain {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// A table, record, constant, formula, procedure, type, scale or enum.
        name: String,
        /// Content packs: a record one of them adds is explained from the pack.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
    },
    /// The merged ruleset (after `extends`, `override` and content packs) as JSON, for
    /// virtual tabletops and other tools that want the data; its shape is
    /// `schemas/export.schema.json`. Diagnostics print as `--format` says.
    Export {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// Content packs whose records are exported as the ruleset's own.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        /// Write to this file (only when its content changes) instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write the JSON Schemas (draft-07) of ruleset files, content packs and scenarios,
    /// for editors (yaml-language-server), and of `rulesc export`'s output.
    Schema {
        /// The folder to write them to.
        #[arg(long, default_value = "schemas")]
        out: PathBuf,
    },
    /// The exact odds of a scenario's outcomes: every path of its dice, decisions as
    /// scripted; grouped (`--by`), per answer to decisions (`--decide`, `--best`), over
    /// sweeps (`--sweep`) and several scenarios as one table, or sampled (`--samples`).
    /// `--format json` and `--format csv` write the table for other tools.
    Analyze {
        ruleset: PathBuf,
        /// The scenario files (several: one table).
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        #[command(flatten)]
        limits: AnalyzeLimits,
        #[command(flatten)]
        view: AnalyzeView,
    },
    /// What a variant changes: the definitions that differ from its base (as `explain`
    /// shows them), and the odds of a scenario's outcomes under both, with the change in
    /// percentage points.
    Diff {
        /// The base ruleset folder.
        base: PathBuf,
        /// The variant ruleset folder.
        variant: PathBuf,
        /// The scenario, read against both.
        scenario: PathBuf,
        #[command(flatten)]
        limits: AnalyzeLimits,
        /// Group the outcomes by a field of the result (`level`), `tag` or `value`.
        #[arg(long, value_name = "PATH")]
        by: Option<String>,
        /// Write the odds under both as paired bars to this SVG file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Run a whole fight (`fight.yaml`: sides, round limit, decision policies, report
    /// groups) many times with the interpreter: win rates with 95% intervals, the
    /// distribution of rounds, the report's groups. The same numbers for the same seed,
    /// whatever the number of threads.
    Simulate {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The fight file.
        fight: PathBuf,
        /// How many fights to run (1 to 10,000,000).
        #[arg(short = 'n', long = "runs", default_value_t = 10_000,
              value_parser = clap::value_parser!(u64).range(1..=rulesc::simulate::MAX_RUNS))]
        runs: u64,
        /// Seed of the whole simulation (run k's dice and random answers derive from it).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print the trace of run N (0-based) instead of the totals.
        #[arg(long, value_name = "N")]
        trace: Option<u64>,
        /// Content packs whose records the fight file may name.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
    },
    /// Resolve a scenario with the interpreter and print its trace.
    Trace {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The scenario file: the procedure to run, its arguments, optional dice.
        scenario: PathBuf,
        /// Seed for dice the scenario does not script.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Content packs whose records the scenario may name.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        /// Refuse a script that does not fit the run (faces never rolled, dice rolled past
        /// the script, answers never asked), as `rulesc test` does.
        #[arg(long)]
        strict: bool,
    },
    /// Run every scenario under the folders with strict scripts and hold each to its
    /// `expect:`: one line per scenario, expected against actual with the trace around
    /// the first difference on a failure; exit 1 if any failed.
    Test {
        /// Folders of scenarios (searched in name order), or scenario files.
        #[arg(required = true, value_name = "DIR")]
        paths: Vec<PathBuf>,
        /// The ruleset of scenarios that do not name one with `ruleset:`.
        #[arg(long, value_name = "RULESET")]
        ruleset: Option<PathBuf>,
        /// Rewrite the expectations that do not hold with what the run gave (keeping the
        /// rest of the file), and record them in scenarios that expect nothing.
        #[arg(long)]
        update: bool,
    },
    /// Print a shell completion script, for example
    /// `rulesc completions bash > ~/.local/share/bash-completion/completions/rulesc`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), for example `rulesc man > ~/.local/share/man/man1/rulesc.1`.
    Man,
    /// Run the language server on stdin and stdout, for editors (diagnostics as you
    /// type, hover, go to definition, completion, rename).
    Lsp,
}

/// The engine and bounds of `rulesc analyze`; a value outside its range is a usage error
/// (exit 2).
#[derive(clap::Args)]
struct AnalyzeLimits {
    /// The engine: `merged` merges equal program states after each roll (cost grows with
    /// distinct states); `paths` walks every dice path (the reference).
    #[arg(long, value_enum, default_value = "merged")]
    engine: EngineArg,
    /// Most dice on one path (1 to 1000): a path needing more is cut and reported as
    /// unexplored. The path walker uses 12 unless given; the merged engine counts dice
    /// per path only when given (then both engines give the same figures).
    #[arg(long, value_parser = limit("max-dice"))]
    max_dice: Option<u64>,
    /// Most explosions of one exploding die in the merged engine (0 to 100; 100, the
    /// language's own cap, cuts nothing): the rest of the chain is unexplored.
    #[arg(long, default_value_t = Limits::default().explode_depth, value_parser = limit("explode-depth"))]
    explode_depth: u64,
    /// Most paths walked by `--engine paths` (W0101 says when it was reached).
    #[arg(long, default_value_t = Limits::default().max_paths, value_parser = limit("max-paths"))]
    max_paths: u64,
    /// Most steps, statements run and dice drawn over the whole analysis (W0102).
    #[arg(long, default_value_t = Limits::default().max_steps, value_parser = limit("max-steps"))]
    max_steps: u64,
    /// Most seconds of wall-clock time (W0103).
    #[arg(long, default_value_t = Limits::default().max_seconds, value_parser = limit("max-seconds"))]
    max_seconds: u64,
    /// Most program states the merged engine holds at once, and most distinct totals of
    /// one roll (W0104).
    #[arg(long, default_value_t = Limits::default().max_states, value_parser = limit("max-states"))]
    max_states: u64,
}

/// How `rulesc analyze` shows the odds.
#[derive(clap::Args)]
struct AnalyzeView {
    /// Group the outcomes by a field of the result (`level`, `attacker.wounds`), `tag`
    /// or `value`, in the field's order; numbers and levels add at-least and at-most
    /// columns, numbers the mean and standard deviation.
    #[arg(long, value_name = "PATH")]
    by: Option<String>,
    /// Analyze every answer to this decision (repeatable: every combination).
    #[arg(long, value_name = "NAME")]
    decide: Vec<String>,
    /// The chance of this goal under every answer to the decisions (`--decide`, or every
    /// decision the procedure reaches), the best marked: `--best "level >= Severe"`.
    #[arg(long, value_name = "GOAL")]
    best: Option<String>,
    /// Analyze the scenario with a value under `args:` set to each of these in turn:
    /// `attacker.skills.ArmedCombat=0..6` (both ends included) or `weapon=a,b,c`.
    /// Repeatable: every combination, analyzed in parallel, as one table.
    #[arg(long, value_name = "PATH=VALUES", value_parser = rulesc::analyze::cases::parse_sweep)]
    sweep: Vec<rulesc::analyze::cases::Sweep>,
    /// Estimate the odds from this many seeded random runs instead (95% intervals), for
    /// procedures too large for the exact engine (1 to 1,000,000,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=rulesc::analyze::sample::MAX_SAMPLES))]
    samples: Option<u64>,
    /// The seed of `--samples`: the same figures for the same seed, whatever the number
    /// of threads.
    #[arg(long, default_value_t = 0, requires = "samples")]
    seed: u64,
    /// Write a bar chart of the odds (one bar per group) to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum EngineArg {
    Merged,
    Paths,
}

impl From<AnalyzeLimits> for Limits {
    fn from(a: AnalyzeLimits) -> Limits {
        Limits {
            engine: match a.engine {
                EngineArg::Merged => rulesc::analyze::EngineKind::Merged,
                EngineArg::Paths => rulesc::analyze::EngineKind::Paths,
            },
            max_dice: a.max_dice,
            explode_depth: a.explode_depth,
            max_paths: a.max_paths,
            max_steps: a.max_steps,
            max_seconds: a.max_seconds,
            max_states: a.max_states,
        }
    }
}

/// The parser of a limit flag: an integer within the range `rulesc::analyze::RANGES`
/// gives it.
fn limit(flag: &str) -> clap::builder::RangedU64ValueParser<u64> {
    let (_, lo, hi) = rulesc::analyze::RANGES
        .into_iter()
        .find(|(f, _, _)| *f == flag)
        .unwrap_or((flag, 1, u64::MAX));
    clap::value_parser!(u64).range(lo..=hi)
}

fn main() -> ExitCode {
    // Checking recursion is bounded by the language's limits; a large stack is a second
    // line of defence so that no input can overflow it.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(run);
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(101),
    }
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // `--help`, `--version`: not errors.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if json_requested() => {
            let rendered = e.render().to_string();
            // The error's own lines, before the usage summary.
            let message = rendered
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
                .trim_start_matches("error: ")
                .to_string();
            let line = diag::error_json(
                "E0012",
                &message,
                "run `rulesc --help` for the commands and their arguments",
                &rendered,
            );
            let _ = writeln!(std::io::stderr(), "{line}");
            return ExitCode::from(2);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    let format = cli.format;
    let choice = match cli.color {
        Color::Auto => diag::ColorChoice::Auto,
        Color::Always => diag::ColorChoice::Always,
        Color::Never => diag::ColorChoice::Never,
    };
    if let Some(root) = &cli.root {
        rulesc::load::set_project_root(root);
    }
    let is_terminal = std::io::stderr().is_terminal();
    let _ = COLOR.set(diag::use_color(choice, is_terminal, |v| {
        std::env::var(v).ok()
    }));
    if matches!(format, Format::Json) {
        // Even a bug is reported as a JSON line (the exit code stays 101).
        std::panic::set_hook(Box::new(|info| {
            let line = diag::error_json(
                "E0013",
                &format!("rulesc panicked (a bug in rulesc): {info}"),
                "please report this with the input that caused it",
                "",
            );
            let _ = writeln!(std::io::stderr(), "{line}");
        }));
    }
    if matches!(format, Format::Csv)
        && !matches!(cli.command, Command::Analyze { .. } | Command::Diff { .. })
    {
        eprintln!("error: `--format csv` is for the tables of `analyze` and `diff`");
        return ExitCode::from(2);
    }
    match cli.command {
        Command::Check { paths, ruleset } => check(paths, ruleset, format),
        Command::Build {
            ruleset,
            output,
            packs,
        } => {
            let Some(p) = load(&ruleset, &packs, format) else {
                return ExitCode::from(1);
            };
            let Some(code) = generate(&p, &ruleset, format) else {
                return ExitCode::from(1);
            };
            match output::write(&output, &code, &output::inputs(&p.sources)) {
                Ok(changed) => {
                    match format {
                        Format::Human | Format::Csv => {
                            let what = if changed { "wrote" } else { "unchanged" };
                            println!("ok: {} -> {} ({what})", p.name, output.display());
                        }
                        Format::Json => println!(
                            "{}",
                            serde_json::json!({ "ok": true, "ruleset": p.name, "output": output::shown(&output), "changed": changed })
                        ),
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    report_output_error(&e, &output, format);
                    ExitCode::from(1)
                }
            }
        }
        Command::Explain {
            ruleset,
            name,
            packs,
        } => match rulesc::explain::explain_with_packs(&ruleset, &name, &packs) {
            Ok(text) => {
                match format {
                    Format::Human | Format::Csv => print!("{}", diag::escape_controls(&text)),
                    Format::Json => println!(
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
        },
        Command::Export {
            ruleset,
            packs,
            output,
        } => {
            let Some(p) = load(&ruleset, &packs, format) else {
                return ExitCode::from(1);
            };
            let value = rulesc::export::export(&p);
            let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
            match output {
                None => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Some(path) => match output::write(&path, &text, &output::inputs(&p.sources)) {
                    Ok(_) => ExitCode::SUCCESS,
                    Err(e) => {
                        report_output_error(&e, &path, format);
                        ExitCode::from(1)
                    }
                },
            }
        }
        Command::Schema { out } => {
            for (name, text) in rulesc::schema::all() {
                let path = out.join(name);
                if let Err(e) = output::write(&path, &text, &[]) {
                    report_output_error(&e, &path, format);
                    return ExitCode::from(1);
                }
                match format {
                    Format::Human | Format::Csv => println!("wrote {}", path.display()),
                    Format::Json => {
                        println!("{}", serde_json::json!({ "wrote": output::shown(&path) }))
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Command::Analyze {
            ruleset,
            scenarios,
            limits,
            view,
        } => analyze(&ruleset, &scenarios, &limits.into(), view, format),
        Command::Diff {
            base,
            variant,
            scenario,
            limits,
            by,
            svg,
        } => diff(&base, &variant, &scenario, &limits.into(), by, svg, format),
        Command::All { rules, out, trace } => all(&rules, &out, &trace, format),
        Command::Test {
            paths,
            ruleset,
            update,
        } => test(&paths, ruleset, update, format),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            // Written whole, so that a closed pipe (`| head`) is not a panic.
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rulesc", &mut out);
            let _ = std::io::stdout().write_all(&out);
            ExitCode::SUCCESS
        }
        Command::Man => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => {
                    let _ = std::io::stdout().write_all(&out);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    report_error(
                        format,
                        "E0011",
                        None,
                        format!("cannot write the manual page: {e}"),
                        "check that standard output is writable",
                    );
                    ExitCode::from(1)
                }
            }
        }
        Command::Lsp => match rulesc::lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                report_error(
                    format,
                    "E0014",
                    None,
                    format!("rulesc lsp: {e}"),
                    "the language server talks JSON-RPC on stdin and stdout; start it from an editor",
                );
                ExitCode::from(1)
            }
        },
        Command::Trace {
            ruleset,
            scenario,
            seed,
            packs,
            strict,
        } => {
            let Some(p) = load(&ruleset, &packs, format) else {
                return ExitCode::from(1);
            };
            match rulesc::scenario::run_file_with(&p, &scenario, seed, strict) {
                Ok(out) => {
                    match format {
                        Format::Human | Format::Csv => print!("{}", diag::escape_controls(&out)),
                        Format::Json => println!("{}", trace_json(&scenario, &out)),
                    }
                    ExitCode::SUCCESS
                }
                Err((diags, sources)) => {
                    report(&diags, &sources, format);
                    ExitCode::from(1)
                }
            }
        }
        Command::Simulate {
            ruleset,
            fight,
            runs,
            seed,
            trace,
            packs,
        } => {
            let Some(p) = load(&ruleset, &packs, format) else {
                return ExitCode::from(1);
            };
            let file = match rulesc::simulate::read(&p, &fight) {
                Ok((file, _)) => file,
                Err((diags, sources)) => {
                    report(&diags, &sources, format);
                    return ExitCode::from(1);
                }
            };
            match trace {
                Some(k) => print!("{}", rulesc::simulate::trace_run(&p, &file, seed, k)),
                None => {
                    let summary = rulesc::simulate::simulate(&p, &file, runs, seed);
                    print!("{}", summary.render(&p, &file, seed));
                }
            }
            ExitCode::SUCCESS
        }
    }
}

/// The style of the odds' tables for an output format.
fn style(format: Format) -> rulesc::analyze::report::Style {
    use rulesc::analyze::report::Style;
    match format {
        Format::Human => Style::Text,
        Format::Json => Style::Json,
        Format::Csv => Style::Csv,
    }
}

/// Writes a chart (an SVG file), reporting a failure; whether it was written.
fn write_chart(
    path: &std::path::Path,
    text: &str,
    p: &rulesc::ir::Program,
    format: Format,
) -> bool {
    match output::write(path, text, &output::inputs(&p.sources)) {
        Ok(_) => true,
        Err(e) => {
            report_output_error(&e, path, format);
            false
        }
    }
}

/// `rulesc analyze`: every scenario's reports (in parallel), as one table.
fn analyze(
    ruleset: &std::path::Path,
    scenarios: &[PathBuf],
    limits: &Limits,
    view: AnalyzeView,
    format: Format,
) -> ExitCode {
    if view.samples.is_some()
        && (view.best.is_some() || !matches!(limits.engine, rulesc::analyze::EngineKind::Merged))
    {
        eprintln!("error: `--samples` estimates the odds by itself: it takes neither `--best` nor `--engine`");
        return ExitCode::from(2);
    }
    let Some(p) = load(ruleset, &[], format) else {
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
    let mut failed = false;
    for r in results {
        match r {
            Ok((reports, warnings, sources)) => {
                report(&warnings, &sources, format);
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
    if let Some(path) = &view.svg {
        let [one] = all.as_slice() else {
            eprintln!(
                "error: `--svg` draws the odds of one case, and this call has {} (several scenarios, sweeps or decisions)",
                all.len()
            );
            return ExitCode::from(2);
        };
        if !write_chart(path, &one.svg(), &p, format) {
            return ExitCode::from(1);
        }
    }
    let text =
        rulesc::analyze::report::render(&all, v.best.as_deref(), v.by.is_some(), style(format));
    print!("{}", diag::escape_controls(&text));
    ExitCode::SUCCESS
}

/// `rulesc diff`: what a variant changes, in definitions and in odds.
fn diff(
    base: &std::path::Path,
    variant: &std::path::Path,
    scenario: &std::path::Path,
    limits: &Limits,
    by: Option<String>,
    svg: Option<PathBuf>,
    format: Format,
) -> ExitCode {
    let v = rulesc::analyze::View {
        by,
        ..Default::default()
    };
    match rulesc::analyze::diff::compare(base, variant, scenario, limits, &v) {
        Ok((d, warnings)) => {
            for (w, s) in &warnings {
                report(w, s, format);
            }
            if let Some(path) = &svg {
                let Some(p) = load(variant, &[], format) else {
                    return ExitCode::from(1);
                };
                if !write_chart(path, &d.svg(), &p, format) {
                    return ExitCode::from(1);
                }
            }
            print!("{}", diag::escape_controls(&d.render(style(format))));
            ExitCode::SUCCESS
        }
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            ExitCode::from(1)
        }
    }
}

/// Checks a ruleset and the content packs applied to it (their records added as the
/// ruleset's own), reporting every diagnostic: the program, or `None` on an error.
fn load(
    ruleset: &std::path::Path,
    packs: &[PathBuf],
    format: Format,
) -> Option<rulesc::ir::Program> {
    let (program, diags, sources) = rulesc::compile_dir(ruleset);
    report(&diags, &sources, format);
    let p = program?;
    if packs.is_empty() {
        return Some(p);
    }
    let (extended, diags, sources) = rulesc::pack::apply(&p, packs);
    report(&diags, &sources, format);
    extended
}

fn all(
    rules: &std::path::Path,
    out: &std::path::Path,
    trace: &[PathBuf],
    format: Format,
) -> ExitCode {
    let human = matches!(format, Format::Human);
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(rules) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.join("ruleset.yaml").is_file())
            .collect(),
        Err(e) => {
            report_error(
                format,
                "E0001",
                Some(rules),
                format!("cannot read {}: {e}", rules.display()),
                "give the folder that holds one folder per ruleset",
            );
            return ExitCode::from(1);
        }
    };
    dirs.sort();
    let mut failed = false;
    // Every ruleset is checked before anything is written, so no output can replace a
    // file one of them (or a scenario) reads.
    let mut programs = Vec::new();
    let mut inputs: Vec<PathBuf> = trace.to_vec();
    for dir in &dirs {
        let (program, diags, sources) = rulesc::compile_dir(dir);
        report(&diags, &sources, format);
        inputs.extend(output::inputs(&sources));
        match program {
            Some(p) => programs.push((dir, p)),
            None => {
                match format {
                    Format::Human | Format::Csv => {
                        println!("FAIL {}: {} error(s)", dir.display(), diags.error_count())
                    }
                    Format::Json => println!(
                        "{}",
                        serde_json::json!({ "ruleset": output::shown(dir), "ok": false, "errors": diags.error_count() })
                    ),
                }
                failed = true;
            }
        }
    }
    // Two rulesets of one name would write one output: neither is written.
    let mut clashes = Vec::new();
    for (i, (dir, p)) in programs.iter().enumerate() {
        if let Some((first, _)) = programs[..i].iter().find(|(_, q)| q.name == p.name) {
            report_error(
                format,
                "E0015",
                Some(&dir.join("ruleset.yaml")),
                format!(
                    "two rulesets are named `{}`: {} and {}",
                    p.name,
                    output::shown(first),
                    output::shown(dir)
                ),
                "give each ruleset its own `name:` under `ruleset:`; `all` writes `<out>/<name>.rs` for each",
            );
            if human {
                println!(
                    "FAIL {}: named `{}` like {}",
                    dir.display(),
                    p.name,
                    first.display()
                );
            } else {
                println!(
                    "{}",
                    serde_json::json!({ "ruleset": output::shown(dir), "ok": false, "errors": 1 })
                );
            }
            clashes.push(p.name.clone());
            failed = true;
        }
    }
    programs.retain(|(_, p)| !clashes.contains(&p.name));
    for (dir, p) in &programs {
        let file = out.join(format!("{}.rs", p.name));
        let Some(code) = generate(p, dir, format) else {
            failed = true;
            continue;
        };
        match output::write(&file, &code, &inputs) {
            Ok(_) if human => {
                println!("ok   {:<16} {} -> {}", p.name, summary(p), file.display())
            }
            Ok(_) => println!("{}", summary_json(p, dir, Some(&file))),
            Err(e) => {
                report_output_error(&e, &file, format);
                failed = true;
            }
        }
    }
    for scenario in trace {
        let name = scenario
            .parent()
            .and_then(|d| d.file_name())
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Some((_, p)) = programs.iter().find(|(_, p)| p.name == name) else {
            report_error(
                format,
                "E0401",
                Some(scenario),
                format!("no ruleset named `{name}` to run this scenario against"),
                "a scenario's folder is named after its ruleset: `examples/<ruleset name>/<scenario>.yaml`",
            );
            failed = true;
            continue;
        };
        if human {
            println!("\ntrace of {}:", scenario.display());
        }
        match rulesc::scenario::run_file(p, scenario, 0) {
            Ok(text) if human => print!("{}", diag::escape_controls(&text)),
            Ok(text) => println!("{}", trace_json(scenario, &text)),
            Err((diags, sources)) => {
                report(&diags, &sources, format);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `rulesc test`: each scenario's diagnostics, then its line (or JSON object), then the
/// summary.
fn test(paths: &[PathBuf], ruleset: Option<PathBuf>, update: bool, format: Format) -> ExitCode {
    let opts = rulesc::testing::Options { ruleset, update };
    let r = rulesc::testing::run(paths, &opts);
    for (diags, sources) in &r.problems {
        report(diags, sources, format);
    }
    for case in &r.cases {
        report(&case.diags, &case.sources, format);
        match format {
            Format::Human | Format::Csv => print!("{}", diag::escape_controls(&case.render())),
            Format::Json => println!("{}", case.json()),
        }
    }
    match format {
        Format::Human | Format::Csv => println!("{}", r.summary()),
        Format::Json => println!("{}", r.json_summary()),
    }
    if r.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The generated Rust of a program; `None` (reported) if it does not parse, a bug.
fn generate(p: &rulesc::ir::Program, dir: &std::path::Path, format: Format) -> Option<String> {
    match rulesc::codegen::generate(p) {
        Ok(code) => Some(code),
        Err(e) => {
            report_error(
                format,
                "E0013",
                Some(dir),
                format!("rulesc generated invalid Rust (a bug in rulesc): {e}"),
                "please report this with the ruleset that caused it",
            );
            None
        }
    }
}

/// An output that could not be written, reported as a diagnostic naming it.
fn report_output_error(e: &output::OutputError, path: &std::path::Path, format: Format) {
    let mut sources = Sources::default();
    let d = e.diagnostic(path, &mut sources);
    report(&Diagnostics { items: vec![d] }, &sources, format);
}

/// Reports one error about a path rather than a file's text (an I/O error, a wrong
/// argument): a diagnostic like the others, in either format; `None` for no path.
fn report_error(
    format: Format,
    code: &'static str,
    path: Option<&std::path::Path>,
    message: String,
    help: &str,
) {
    let mut sources = Sources::default();
    let at = match path {
        Some(path) => output::file_span(path, &mut sources),
        None => rulesc::source::Span::new(rulesc::source::FileId::MAX, 0, 0),
    };
    let d = diag::Diagnostic::error(code, at, message).help(help);
    report(&Diagnostics { items: vec![d] }, &sources, format);
}

/// True when the raw command line asks for `--format json`: read before clap parses it,
/// so that a usage error is reported as JSON too.
fn json_requested() -> bool {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    args.iter().any(|a| a == "--format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
}

fn check(paths: Vec<PathBuf>, ruleset: Option<PathBuf>, format: Format) -> ExitCode {
    let (dir, packs) = match ruleset {
        Some(dir) => (dir, paths),
        None if paths.len() == 1 => (paths[0].clone(), Vec::new()),
        None => {
            report_error(
                format,
                "E0012",
                None,
                "`check` takes one ruleset folder".into(),
                "give one ruleset folder, or `--ruleset <dir>` and content packs",
            );
            return ExitCode::from(2);
        }
    };
    let (program, diags, sources) = rulesc::compile_dir(&dir);
    report(&diags, &sources, format);
    let Some(p) = program else {
        return ExitCode::from(1);
    };
    if packs.is_empty() {
        match format {
            Format::Human | Format::Csv => {
                println!("ok: {} ({}): {}", p.name, dir.display(), summary(&p))
            }
            Format::Json => println!("{}", summary_json(&p, &dir, None)),
        }
        return ExitCode::SUCCESS;
    }
    let (checked, diags, sources) = rulesc::pack::check_packs(&p, &packs);
    report(&diags, &sources, format);
    if diags.has_errors() {
        return ExitCode::from(1);
    }
    for pack in checked {
        match format {
            Format::Human | Format::Csv => println!(
                "ok: pack {} for {}: {} record(s)",
                pack.name,
                p.name,
                pack.records.len()
            ),
            Format::Json => println!(
                "{}",
                serde_json::json!({ "ok": true, "pack": pack.name, "ruleset": p.name, "records": pack.records.len() })
            ),
        }
    }
    ExitCode::SUCCESS
}

/// A ruleset that checked (and where its Rust went), as one JSON object.
fn summary_json(
    p: &rulesc::ir::Program,
    dir: &std::path::Path,
    output: Option<&std::path::Path>,
) -> serde_json::Value {
    let procs = p.functions.iter().filter(|f| f.is_procedure()).count();
    serde_json::json!({
        "ok": true,
        "ruleset": p.name,
        "folder": output::shown(dir),
        "procedures": procs,
        "formulas": p.functions.len() - procs,
        "tables": p.tables.len(),
        "records": p.instances.len(),
        "output": output.map(output::shown),
    })
}

/// A scenario's trace as one JSON object: its lines, and the result and notes apart.
fn trace_json(scenario: &std::path::Path, text: &str) -> serde_json::Value {
    let result = text
        .lines()
        .rfind(|l| l.starts_with("result: "))
        .map(|l| l.trim_start_matches("result: "));
    let notes: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("note: "))
        .collect();
    // Every line as `rulesc trace` prints it (the result and notes too), so that a tool
    // reading JSON sees what a reader of the text sees.
    let trace: Vec<&str> = text.lines().collect();
    serde_json::json!({ "scenario": output::shown(scenario), "trace": trace, "result": result, "notes": notes })
}

fn summary(p: &rulesc::ir::Program) -> String {
    let procs = p.functions.iter().filter(|f| f.is_procedure()).count();
    format!(
        "{}, {}, {}, {}",
        diag::count(procs, "procedure", "procedures"),
        diag::count(p.functions.len() - procs, "formula", "formulas"),
        diag::count(p.tables.len(), "table", "tables"),
        diag::count(p.instances.len(), "record", "records"),
    )
}

fn report(diags: &Diagnostics, sources: &Sources, format: Format) {
    let stderr = std::io::stderr();
    let mut out = stderr.lock();
    let color = *COLOR.get().unwrap_or(&false);
    // A terminal's reader gets paths to open; JSON keeps the stable names tools match.
    let here = from_here(sources);
    for d in diags.sorted() {
        let text = match format {
            Format::Json => diag::to_json(d, sources) + "\n",
            Format::Human | Format::Csv => diag::render(d, &here, color, 100),
        };
        let _ = out.write_all(text.as_bytes());
    }
    if !matches!(format, Format::Json) && !diags.items.is_empty() {
        let (e, w) = (diags.error_count(), diags.warning_count());
        let _ = writeln!(out, "{e} error(s), {w} warning(s)");
    }
    let _ = diags.items.iter().any(|d| d.severity == Severity::Error);
}

/// The sources with each file named by its path from the current folder
/// (`rules/kingsmark/melee.rules`), so that a terminal or an editor can open it; a file
/// outside the current folder keeps its full path.
fn from_here(sources: &Sources) -> Sources {
    let here = std::env::current_dir().ok();
    let mut s = sources.clone();
    for f in &mut s.files {
        if f.path.as_os_str().is_empty() {
            continue;
        }
        let path = here
            .as_ref()
            .and_then(|h| f.path.strip_prefix(h).ok())
            .unwrap_or(&f.path);
        f.name = output::shown(path);
    }
    s
}
