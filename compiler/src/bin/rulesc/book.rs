//! `rulesc book`: the ruleset as a static HTML rulebook in a folder.

use crate::cli::Format;
use crate::report::report;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Renders the book of `ruleset` and writes it into `out`.
pub fn book(
    ruleset: &Path,
    options: rulesc::book::Options,
    out: &Path,
    format: Format,
) -> ExitCode {
    let (book, warnings) = match rulesc::book::render(ruleset, &options) {
        Ok(b) => b,
        Err((diags, sources)) => {
            report(&diags, &sources, format);
            return ExitCode::from(1);
        }
    };
    for (diags, sources) in &warnings {
        report(diags, sources, format);
    }
    match rulesc::book::write(&book, out) {
        Ok(changed) => {
            let shown = rulesc::output::shown(out);
            let files = book.files.len();
            match format {
                Format::Json => outln!(
                    "{}",
                    serde_json::json!({ "book": shown, "files": files, "changed": changed })
                ),
                _ => outln!(
                    "book written to {shown}: {files} files ({changed} changed); open {}",
                    rulesc::output::shown(&out.join("index.html"))
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

/// The options as the command line gives them.
pub fn options(
    packs: Vec<PathBuf>,
    variants: Vec<PathBuf>,
    examples: Option<PathBuf>,
) -> rulesc::book::Options {
    rulesc::book::Options {
        packs,
        variants,
        examples,
    }
}
