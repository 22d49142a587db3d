//! The commands that check and compile rulesets and write files: `check`, `build`, `all`,
//! `export`, `schema`.

use crate::cli::Format;
use crate::report::{report, report_error, report_output_error, summary, summary_json, trace_json};
use rulesc::diag;
use rulesc::output;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `rulesc check`: a ruleset, or with `--ruleset` content packs against it; one line
/// (or JSON object) for what checked.
/// With `compiled`, the packs are for a game compiled from the ruleset without them:
/// one that adds to or changes its data is refused ([`rulesc::pack::for_compiled`]).
pub fn check(
    paths: Vec<PathBuf>,
    ruleset: Option<PathBuf>,
    compiled: bool,
    format: Format,
) -> ExitCode {
    check_read(paths, ruleset, compiled, format).0
}

/// [`check`], and the files it read (for `--watch`).
pub fn check_read(
    paths: Vec<PathBuf>,
    ruleset: Option<PathBuf>,
    compiled: bool,
    format: Format,
) -> (ExitCode, Vec<PathBuf>) {
    let mut read = Vec::new();
    let code = check_into(paths, ruleset, compiled, format, &mut read);
    (code, read)
}

fn check_into(
    paths: Vec<PathBuf>,
    ruleset: Option<PathBuf>,
    compiled: bool,
    format: Format,
    read: &mut Vec<PathBuf>,
) -> ExitCode {
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
    read.extend(sources.files.iter().map(|f| f.path.clone()));
    report(&diags, &sources, format);
    let Some(p) = program else {
        return ExitCode::from(1);
    };
    if packs.is_empty() {
        match format {
            Format::Human | Format::Csv => {
                outln!("ok: {} ({}): {}", p.name, dir.display(), summary(&p))
            }
            Format::Json => outln!("{}", summary_json(&p, &dir, None)),
        }
        return ExitCode::SUCCESS;
    }
    let (checked, mut diags, sources) = rulesc::pack::check_packs(&p, &packs);
    if compiled {
        diags.extend(rulesc::pack::for_compiled(&p, &checked));
    }
    read.extend(sources.files.iter().map(|f| f.path.clone()));
    report(&diags, &sources, format);
    if diags.has_errors() {
        return ExitCode::from(1);
    }
    for pack in checked {
        match format {
            Format::Human | Format::Csv => {
                outln!("ok: pack {} for {}: {}", pack.name, p.name, pack.summary())
            }
            Format::Json => {
                let a = &pack.added;
                outln!(
                    "{}",
                    serde_json::json!({ "ok": true, "pack": pack.name, "ruleset": p.name, "records": pack.records.len(), "variants": a.variants, "levels": a.levels, "rows": a.rows, "new": a.new, "changes": a.changes })
                )
            }
        }
    }
    ExitCode::SUCCESS
}

/// `rulesc build`: the ruleset (and its packs) as a Rust module, written when it changed.
pub fn build(ruleset: &Path, out: &Path, packs: &[PathBuf], format: Format) -> ExitCode {
    let Some(p) = load(ruleset, packs, format) else {
        return ExitCode::from(1);
    };
    let Some(code) = generate(&p, ruleset, format) else {
        return ExitCode::from(1);
    };
    match output::write(out, &code, &output::inputs(&p.sources)) {
        Ok(changed) => {
            match format {
                Format::Human | Format::Csv => {
                    let what = if changed { "wrote" } else { "unchanged" };
                    outln!("ok: {} -> {} ({what})", p.name, out.display());
                }
                Format::Json => outln!(
                    "{}",
                    serde_json::json!({ "ok": true, "ruleset": p.name, "output": output::shown(out), "changed": changed })
                ),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            report_output_error(&e, out, format);
            ExitCode::from(1)
        }
    }
}

/// `rulesc export`: the merged ruleset as JSON, to standard output or a file. The output
/// is JSON whatever `--format` says (`--format` is for the diagnostics).
pub fn export(ruleset: &Path, packs: &[PathBuf], out: Option<PathBuf>, format: Format) -> ExitCode {
    // `defined_at` names files as every path the command line prints.
    let Some(p) = load_here(ruleset, packs, format) else {
        return ExitCode::from(1);
    };
    let value = rulesc::export::export(&p);
    let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
    match out {
        None => {
            out!("{text}");
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

/// `rulesc schema`: every JSON Schema, one line per file written.
pub fn schema(out: &Path, format: Format) -> ExitCode {
    for (name, text) in rulesc::schema::all() {
        let path = out.join(name);
        if let Err(e) = output::write(&path, &text, &[]) {
            report_output_error(&e, &path, format);
            return ExitCode::from(1);
        }
        match format {
            Format::Human | Format::Csv => outln!("wrote {}", path.display()),
            Format::Json => {
                outln!("{}", serde_json::json!({ "wrote": output::shown(&path) }))
            }
        }
    }
    ExitCode::SUCCESS
}

/// Checks a ruleset and the content packs applied to it (their records added as the
/// ruleset's own), reporting every diagnostic: the program, or `None` on an error.
pub fn load(ruleset: &Path, packs: &[PathBuf], format: Format) -> Option<rulesc::ir::Program> {
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

/// [`load`], each file named from the current folder, in the sources and in the trace
/// sites (`report::name_from_here`): what every command that prints from a program
/// runs on, all but `build`, whose generated code keeps the check's names.
pub fn load_here(ruleset: &Path, packs: &[PathBuf], format: Format) -> Option<rulesc::ir::Program> {
    let mut p = load(ruleset, packs, format)?;
    p.rename_files(&crate::report::name_from_here);
    Some(p)
}

/// `rulesc all`: every ruleset folder checked before anything is written, then built
/// (one line each), then the scenarios traced.
pub fn all(rules: &Path, out: &Path, trace: &[PathBuf], format: Format) -> ExitCode {
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
                        outln!("FAIL {}: {} error(s)", dir.display(), diags.error_count())
                    }
                    Format::Json => outln!(
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
                outln!(
                    "FAIL {}: named `{}` like {}",
                    dir.display(),
                    p.name,
                    first.display()
                );
            } else {
                outln!(
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
                outln!("ok   {:<16} {} -> {}", p.name, summary(p), file.display())
            }
            Ok(_) => outln!("{}", summary_json(p, dir, Some(&file))),
            Err(e) => {
                report_output_error(&e, &file, format);
                failed = true;
            }
        }
    }
    // Written: from here on the traces name files as every path the command line prints.
    for (_, p) in &mut programs {
        p.rename_files(&crate::report::name_from_here);
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
            outln!("\ntrace of {}:", scenario.display());
        }
        let options = rulesc::scenario::RunOptions::default();
        match rulesc::scenario::run_file_valued(p, scenario, 0, options) {
            Ok((text, _)) if human => out!("{}", diag::escape_controls(&text)),
            Ok((text, value)) => outln!("{}", trace_json(scenario, &text, value)),
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

/// The generated Rust of a program; `None` (reported) if it does not parse, a bug.
pub fn generate(p: &rulesc::ir::Program, dir: &Path, format: Format) -> Option<String> {
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
