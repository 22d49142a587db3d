//! The commands for the writer's tools rather than rules: `completions`, `man` and `lsp`.
//! They print no diagnostics of a ruleset, so `--format json` changes only their own
//! errors (a JSON line).

use crate::cli::{Cli, Format};
use crate::report::report_error;
use clap::CommandFactory;
use std::process::ExitCode;

/// `rulesc completions <shell>`: the completion script.
pub fn completions(shell: clap_complete::Shell) -> ExitCode {
    // Rendered whole, then written through the checked writer (clap_complete panics on
    // a failed write of its own).
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "rulesc", &mut out);
    crate::stdout::print_bytes(&out);
    ExitCode::SUCCESS
}

/// `rulesc man`: the manual page (roff).
pub fn man(format: Format) -> ExitCode {
    let mut out = Vec::new();
    match clap_mangen::Man::new(Cli::command()).render(&mut out) {
        Ok(()) => {
            crate::stdout::print_bytes(&out);
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

/// `rulesc lsp`: the language server on stdin and stdout, until the editor says `exit`.
pub fn lsp(format: Format) -> ExitCode {
    match rulesc::lsp::run_stdio() {
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
    }
}
