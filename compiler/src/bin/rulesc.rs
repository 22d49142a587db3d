//! The `rulesc` command line: a thin front end over the library.
//!
//! Exit codes: 0 success, 1 diagnostics (errors), 2 usage. A panic (101) is a bug.

use clap::{Parser, Subcommand, ValueEnum};
use rulesc::diag::{self, Diagnostics, Severity};
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
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check a ruleset folder and report every problem.
    Check {
        /// The ruleset folder (holds ruleset.yaml).
        ruleset: PathBuf,
    },
    /// Compile a ruleset folder to a Rust module.
    Build {
        ruleset: PathBuf,
        /// The Rust file to write (written only when its content changes).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Resolve a scenario with the interpreter and print its trace.
    Trace {
        ruleset: PathBuf,
        /// The scenario file: the procedure to run, its arguments, optional dice.
        scenario: PathBuf,
        /// Seed for dice the scenario does not script.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let format = cli.format;
    match cli.command {
        Command::Check { ruleset } => {
            let (program, diags, sources) = rulesc::compile_dir(&ruleset);
            report(&diags, &sources, format);
            match program {
                Some(p) => {
                    if matches!(format, Format::Human) {
                        println!("ok: {} ({}): {}", p.name, ruleset.display(), summary(&p));
                    }
                    ExitCode::SUCCESS
                }
                None => ExitCode::from(1),
            }
        }
        Command::Build { ruleset, output } => {
            let (program, diags, sources) = rulesc::compile_dir(&ruleset);
            report(&diags, &sources, format);
            let Some(p) = program else {
                return ExitCode::from(1);
            };
            match rulesc::codegen::write_if_changed(&output, &rulesc::codegen::generate(&p)) {
                Ok(changed) => {
                    if matches!(format, Format::Human) {
                        let what = if changed { "wrote" } else { "unchanged" };
                        println!("ok: {} -> {} ({what})", p.name, output.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: cannot write {}: {e}", output.display());
                    ExitCode::from(1)
                }
            }
        }
        Command::Trace {
            ruleset,
            scenario,
            seed,
        } => {
            let (program, diags, sources) = rulesc::compile_dir(&ruleset);
            report(&diags, &sources, format);
            let Some(p) = program else {
                return ExitCode::from(1);
            };
            match rulesc::scenario::run_file(&p, &scenario, seed) {
                Ok(out) => {
                    print!("{out}");
                    ExitCode::SUCCESS
                }
                Err((diags, sources)) => {
                    report(&diags, &sources, format);
                    ExitCode::from(1)
                }
            }
        }
    }
}

fn summary(p: &rulesc::ir::Program) -> String {
    let procs = p.functions.iter().filter(|f| f.is_procedure()).count();
    format!(
        "{} procedures, {} formulas, {} tables, {} records",
        procs,
        p.functions.len() - procs,
        p.tables.len(),
        p.instances.len()
    )
}

fn report(diags: &Diagnostics, sources: &Sources, format: Format) {
    let stderr = std::io::stderr();
    let mut out = stderr.lock();
    let color = std::env::var_os("NO_COLOR").is_none() && out.is_terminal();
    for d in diags.sorted() {
        let text = match format {
            Format::Json => diag::to_json(d, sources) + "\n",
            Format::Human => diag::render(d, sources, color, 100),
        };
        let _ = out.write_all(text.as_bytes());
    }
    if matches!(format, Format::Human) && !diags.items.is_empty() {
        let (e, w) = (diags.error_count(), diags.warning_count());
        let _ = writeln!(out, "{e} error(s), {w} warning(s)");
    }
    let _ = diags.items.iter().any(|d| d.severity == Severity::Error);
}
