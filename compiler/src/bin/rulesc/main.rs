//! The `rulesc` command line: a thin front end over the library.
//!
//! Exit codes: 0 success, 1 diagnostics (errors), 2 usage. A panic (101) is a bug.
//!
//! `cli` is the command line's shape; `report` how diagnostics and summaries print;
//! `stdout` the one writer of standard output (a write that fails is `E0011`); one
//! module per family of commands runs them: `project` (check, build, all, export,
//! schema), `run` (trace, test, simulate, explain), `odds` (analyze, diff), `fmt`,
//! `tools` (completions, man, lsp), `book` (the HTML rulebook), `studio` (the local
//! web app).

/// `print!` to standard output, through its one checked writer ([`stdout`]): a write
/// that fails is an error at the end of the command, a pipe closed early
/// (`rulesc ... | head`) is not.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::print(format_args!($($arg)*))
    };
}

/// `println!`, as [`out!`] is `print!`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::stdout::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod book;
mod cli;
mod fmt;
mod odds;
mod project;
mod report;
mod run;
mod stdout;
mod studio;
mod tools;
mod watch;

use clap::Parser;
use cli::{Cli, Color, Command, Format};
use report::{json_requested, usage_error, COLOR};
use rulesc::diag;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Checking recursion is bounded by the language's limits, some of them deep
    // (`rulesc::WORKER_STACK` says which): the work runs on a thread with the stack they
    // need.
    let worker = std::thread::Builder::new()
        .stack_size(rulesc::WORKER_STACK)
        .spawn(run);
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(101),
    }
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // `--help`, `--version`: not errors (coloured on a terminal, as clap prints
            // them; through the checked writer otherwise).
            if std::io::stdout().is_terminal() {
                let _ = e.print();
            } else {
                out!("{}", e.render());
            }
            return finish(ExitCode::SUCCESS, json_requested_format());
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
        && !matches!(cli.command, Command::Analyze { .. } | Command::Diff(_))
    {
        return usage_error(
            format,
            "`--format csv` is for the tables of `analyze` and `diff`".into(),
            "give `--format text` or `--format json` to this command",
        );
    }
    let code = match cli.command {
        Command::Check {
            paths,
            ruleset,
            compiled,
            watch: true,
        } => watch::watch(&paths.clone(), format, || {
            project::check_read(paths.clone(), ruleset.clone(), compiled, format)
        }),
        Command::Check {
            paths,
            ruleset,
            compiled,
            ..
        } => project::check(paths, ruleset, compiled, format),
        Command::Build {
            ruleset,
            output,
            packs,
        } => project::build(&ruleset, &output, &packs, format),
        Command::All { rules, out, trace } => project::all(&rules, &out, &trace, format),
        Command::Export {
            ruleset,
            packs,
            output,
        } => project::export(&ruleset, &packs, output, format),
        Command::Schema { out } => project::schema(&out, format),
        Command::Trace {
            ruleset,
            scenario,
            seed,
            packs,
            strict,
            trace_formulas,
        } => {
            let options = rulesc::scenario::RunOptions {
                strict,
                trace_formulas,
            };
            run::trace(&ruleset, &scenario, seed, &packs, options, format)
        }
        Command::Test {
            paths,
            ruleset,
            watch: true,
            ..
        } => watch::watch(&paths, format, || {
            run::test_read(&paths, ruleset.clone(), false, format)
        }),
        Command::Test {
            paths,
            ruleset,
            update,
            ..
        } => run::test(&paths, ruleset, update, format),
        Command::Simulate {
            ruleset,
            fight,
            runs,
            seed,
            trace,
            trace_formulas,
            max_seconds,
            packs,
            svg,
            sweep,
        } => {
            let options = rulesc::eval::Options { trace_formulas };
            let how = (runs, seed, trace, options, max_seconds);
            if !sweep.is_empty() {
                return run::sweep(&ruleset, &fight, &packs, &sweep, how, format);
            }
            run::simulate(&ruleset, &fight, &packs, how, svg.as_deref(), format)
        }
        Command::Explain {
            ruleset,
            name,
            packs,
        } => run::explain(&ruleset, &name, &packs, format),
        Command::Analyze {
            ruleset,
            scenarios,
            packs,
            limits,
            view,
        } => odds::analyze(&ruleset, &scenarios, &packs, &limits.into(), view, format),
        Command::Diff(args) => odds::diff(args, format),
        Command::Book {
            ruleset,
            output,
            packs,
            variants,
            examples,
        } => book::book(
            &ruleset,
            book::options(packs, variants, examples),
            &output,
            format,
        ),
        Command::Studio {
            ruleset,
            examples,
            variants,
            port,
        } => studio::studio(
            &ruleset,
            rulesc::studio::Options { examples, variants },
            port,
            format,
        ),
        Command::Fmt { paths, check } => fmt::fmt(&paths, check, format),
        Command::Completions { shell } => tools::completions(shell),
        Command::Man { out } => tools::man(out.as_deref(), format),
        Command::Lsp => tools::lsp(format),
    };
    finish(code, format)
}

/// The command's exit code, unless something it printed did not reach standard output:
/// then `E0011` and exit code 1 (a pipe closed by its reader is not an error).
fn finish(code: ExitCode, format: Format) -> ExitCode {
    match stdout::finish() {
        None => code,
        Some(e) => {
            report::report_error(
                format,
                "E0011",
                None,
                format!("cannot write to standard output: {e}"),
                "what rulesc printed did not all get there: check the disk or the file standard output goes to",
            );
            ExitCode::from(1)
        }
    }
}

/// `--format json` as the raw command line asks for it (before clap has parsed it).
fn json_requested_format() -> Format {
    if json_requested() {
        Format::Json
    } else {
        Format::Human
    }
}
