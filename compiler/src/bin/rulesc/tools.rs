//! The commands for the writer's tools rather than rules: `completions`, `man` and `lsp`.
//! They print no diagnostics of a ruleset, so `--format json` changes only their own
//! errors (a JSON line).

use crate::cli::{Cli, Format};
use crate::report::{report_error, report_output_error};
use clap::CommandFactory;
use rulesc::output;
use std::path::Path;
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

/// `rulesc man`: the manual page (roff) on standard output; with `--out`, every page
/// (`rulesc.1`, and `rulesc-check.1` and the others its SUBCOMMANDS section names)
/// written to that folder.
pub fn man(out: Option<&Path>, format: Format) -> ExitCode {
    // As clap_mangen's `generate_to` builds it: `help` is no command with a page of
    // its own, and building names each command `rulesc-<command>`.
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    collect_pages(&cmd, &mut pages);
    let mut rendered = Vec::new();
    for page in pages
        .into_iter()
        .filter(|p| out.is_some() || p.0 == cmd.get_name())
    {
        let man = clap_mangen::Man::new(page.1);
        let mut text = Vec::new();
        if let Err(e) = man.render(&mut text) {
            report_error(
                format,
                "E0011",
                None,
                format!("cannot write the manual page: {e}"),
                "check that standard output is writable",
            );
            return ExitCode::from(1);
        }
        rendered.push((
            man.get_filename(),
            String::from_utf8_lossy(&text).into_owned(),
        ));
    }
    let Some(dir) = out else {
        for (_, text) in &rendered {
            crate::stdout::print_bytes(text.as_bytes());
        }
        return ExitCode::SUCCESS;
    };
    for (name, text) in &rendered {
        let path = dir.join(name);
        if let Err(e) = output::write(&path, text, &[]) {
            report_output_error(&e, &path, format);
            return ExitCode::from(1);
        }
        match format {
            Format::Human | Format::Csv => outln!("wrote {}", path.display()),
            Format::Json => outln!("{}", serde_json::json!({ "wrote": output::shown(&path) })),
        }
    }
    ExitCode::SUCCESS
}

/// A command and every command under it (not hidden), by their display names.
fn collect_pages(cmd: &clap::Command, pages: &mut Vec<(String, clap::Command)>) {
    let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_string();
    pages.push((name, cmd.clone()));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect_pages(sub, pages);
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
