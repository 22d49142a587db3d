//! `rulesc studio`: the local web app (see `rulesc::studio`).

use crate::cli::Format;
use crate::report::report_error;
use std::path::Path;
use std::process::ExitCode;

/// Starts the studio for `ruleset` on 127.0.0.1:`port`, prints the address to open (with
/// the run's token), and serves until the process is stopped.
pub fn studio(
    ruleset: &Path,
    options: rulesc::studio::Options,
    port: u16,
    format: Format,
) -> ExitCode {
    let studio = match rulesc::studio::Studio::bind(ruleset, &options, port) {
        Ok(s) => s,
        Err(e) => {
            use rulesc::studio::StartError;
            let (path, help) = match e {
                StartError::Folder(_) => (
                    Some(ruleset),
                    "give a ruleset folder (the one holding ruleset.yaml)",
                ),
                StartError::Examples(_) => (
                    None,
                    "give a folder inside the project folder (or a wider one with `rulesc --root`)",
                ),
                StartError::Random(_) => (
                    None,
                    "the system gave no random bytes for the token; try again",
                ),
                StartError::Bind(_) => (
                    None,
                    "give another port with --port, or --port 0 for any free one",
                ),
            };
            report_error(format, "E0001", path, e.to_string(), help);
            return ExitCode::from(1);
        }
    };
    let url = studio.url();
    match format {
        Format::Json => outln!(
            "{}",
            serde_json::json!({ "url": url, "port": studio.port(), "ruleset": rulesc::output::shown(ruleset) })
        ),
        _ => {
            outln!("rulesc studio: {} at {url}", rulesc::output::shown(ruleset));
            outln!("open that address in a browser (it holds this run's token); Ctrl+C stops");
        }
    }
    studio.serve();
    ExitCode::SUCCESS
}
