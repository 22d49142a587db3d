//! How the command line reports: diagnostics (text or JSON lines, coloured or not), the
//! errors about paths and arguments, and the one-line summaries several commands share.

use crate::cli::Format;
use rulesc::diag::{self, Diagnostics};
use rulesc::output;
use rulesc::source::Sources;
use std::io::Write;
use std::process::ExitCode;

/// Whether diagnostics are coloured (decided once, from `--color` and the environment).
pub static COLOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Prints diagnostics to standard error: rendered with a count, or one JSON object per
/// line; either way each file is named by its path from the current folder.
pub fn report(diags: &Diagnostics, sources: &Sources, format: Format) {
    let stderr = std::io::stderr();
    let mut out = stderr.lock();
    let color = *COLOR.get().unwrap_or(&false);
    // A terminal's reader and a tool (a CI problem matcher) get the same paths to open.
    let here = from_here(sources);
    for d in diags.sorted() {
        let text = match format {
            Format::Json => diag::to_json(d, &here) + "\n",
            Format::Human | Format::Csv => diag::render(d, &here, color, 100),
        };
        let _ = out.write_all(text.as_bytes());
    }
    if !matches!(format, Format::Json) && !diags.items.is_empty() {
        let (e, w) = (diags.error_count(), diags.warning_count());
        let _ = writeln!(out, "{e} error(s), {w} warning(s)");
    }
}

/// The sources with each file named by its path from the current folder
/// (`rules/kingsmark/melee.rules`), so that a terminal or an editor can open it; a file
/// outside the current folder keeps its full path.
pub fn from_here(sources: &Sources) -> Sources {
    let mut s = sources.clone();
    name_from_here(&mut s);
    s
}

/// [`from_here`] in place: the one rule for every file name the command line prints
/// (diagnostics, `explain`'s origins, `export`'s `defined_at`).
pub fn name_from_here(s: &mut Sources) {
    for f in &mut s.files {
        if f.path.as_os_str().is_empty() {
            continue;
        }
        f.name = output::shown(&output::from_here(&f.path));
    }
}

/// An output that could not be written, reported as a diagnostic naming it.
pub fn report_output_error(e: &output::OutputError, path: &std::path::Path, format: Format) {
    let mut sources = Sources::default();
    let d = e.diagnostic(path, &mut sources);
    report(&Diagnostics { items: vec![d] }, &sources, format);
}

/// Reports one error about a path rather than a file's text (an I/O error, a wrong
/// argument): a diagnostic like the others, in either format; `None` for no path.
pub fn report_error(
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

/// A command line that is wrong in a way clap cannot see (flags that do not go
/// together): `E0012`, as text or a JSON line, and exit code 2.
pub fn usage_error(format: Format, message: String, help: &str) -> ExitCode {
    report_error(format, "E0012", None, message, help);
    ExitCode::from(2)
}

/// True when the raw command line asks for `--format json`: read before clap parses it,
/// so that a usage error is reported as JSON too.
pub fn json_requested() -> bool {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    args.iter().any(|a| a == "--format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
}

/// A ruleset that checked (and where its Rust went), as one JSON object.
pub fn summary_json(
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

/// A scenario's trace as one JSON object: its lines, and the result and notes apart;
/// `value` is the result as a value (`null` after a rule error), `result` its line.
pub fn trace_json(
    scenario: &std::path::Path,
    text: &str,
    value: serde_json::Value,
) -> serde_json::Value {
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
    serde_json::json!({ "scenario": output::shown(&output::from_here(scenario)), "trace": trace, "result": result, "value": value, "notes": notes })
}

/// A ruleset that checked, in one line: `3 procedures, 2 formulas, 1 table, 2 records`.
pub fn summary(p: &rulesc::ir::Program) -> String {
    let procs = p.functions.iter().filter(|f| f.is_procedure()).count();
    format!(
        "{}, {}, {}, {}",
        diag::count(procs, "procedure", "procedures"),
        diag::count(p.functions.len() - procs, "formula", "formulas"),
        diag::count(p.tables.len(), "table", "tables"),
        diag::count(p.instances.len(), "record", "records"),
    )
}

/// The style of the odds' tables for an output format.
pub fn style(format: Format) -> rulesc::analyze::report::Style {
    use rulesc::analyze::report::Style;
    match format {
        Format::Human => Style::Text,
        Format::Json => Style::Json,
        Format::Csv => Style::Csv,
    }
}

/// Writes a chart (an SVG file), reporting a failure; whether it was written. `inputs` are
/// every file the run read (rulesets, packs, scenarios): the chart never replaces one.
pub fn write_chart(
    path: &std::path::Path,
    text: &str,
    inputs: &[std::path::PathBuf],
    format: Format,
) -> bool {
    match output::write(path, text, inputs) {
        Ok(_) => true,
        Err(e) => {
            report_output_error(&e, path, format);
            false
        }
    }
}
