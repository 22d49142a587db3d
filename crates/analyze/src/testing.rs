//! `rulesc test <dir>...`: every scenario under the folders, run strictly and held to
//! its `expect:` ([`crate::expect`]).
//!
//! A scenario is a `.yaml` file with `run:`, and a fight file (`sides:`) with `expect:`
//! is a fight test ([`run_fight`], [`crate::simulate::expect`]); other YAML files
//! (rulesets, packs, fights expecting nothing) are counted and left alone. Each scenario runs against the ruleset its `ruleset:`
//! names (relative to the file), or the one given with `--ruleset`, with the content
//! packs its `packs:` names, from seed 0. Scripts are strict: a face never rolled, dice
//! rolled past the script, or an answer never asked for is an error (`E0405`).
//!
//! Nothing is left out quietly: a link in a folder is followed inside the project and
//! refused out of it (`E0008`), a folder that cannot be read is `E0001`, more files or
//! deeper folders than the limits are `E0003`, and a path named that gives no scenario
//! is `E0412`.

use crate::diag::{Diagnostic, Diagnostics};
use crate::expect::{self, Mismatch};
use crate::ir::Program;
use crate::load;
use crate::output;
use crate::scenario;
use crate::source::{Sources, Span};
use crate::yaml::YNode;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Most scenario files one `rulesc test` reads, and how deep it looks into folders.
pub const MAX_FILES: usize = 10_000;
pub const MAX_DEPTH: usize = 32;

/// How `rulesc test` runs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The ruleset of scenarios that do not name one.
    pub ruleset: Option<PathBuf>,
    /// Rewrite expectations that do not hold (and record them where there are none).
    pub update: bool,
    /// How the traces a failure shows name files (the command line: from the current
    /// folder, [`Program::rename_files`]); `None` keeps the check's names.
    pub names: Option<fn(&mut Sources)>,
}

/// How one scenario came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every expectation held.
    Pass,
    /// An expectation did not hold.
    Fail,
    /// It could not be run or held (diagnostics say why).
    Error,
    /// `--update` rewrote its expectations.
    Updated,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "ok",
            Status::Fail => "FAILED",
            Status::Error => "error",
            Status::Updated => "updated",
        }
    }
}

/// One scenario's run.
pub struct Case {
    /// The file, as given (relative to the current folder when its folder was).
    pub path: PathBuf,
    pub status: Status,
    /// True when the scenario expects nothing (it passes if it runs).
    pub nothing_expected: bool,
    pub mismatches: Vec<Mismatch>,
    /// The trace around the first difference.
    pub context: Vec<String>,
    /// Why it is an error (and warnings), with the sources they point into.
    pub diags: Diagnostics,
    pub sources: Sources,
}

/// Everything one `rulesc test` found.
#[derive(Default)]
pub struct Report {
    pub cases: Vec<Case>,
    /// YAML files that are not scenarios.
    pub skipped: usize,
    /// Problems with the folders themselves (unreadable, `.yml` files), and rulesets
    /// that do not check, each with the sources it points into.
    pub problems: Vec<(Diagnostics, Sources)>,
}

impl Report {
    pub fn count(&self, status: Status) -> usize {
        self.cases.iter().filter(|c| c.status == status).count()
    }

    /// True when nothing failed and nothing was an error.
    pub fn passed(&self) -> bool {
        self.problems.iter().all(|(d, _)| !d.has_errors())
            && self
                .cases
                .iter()
                .all(|c| matches!(c.status, Status::Pass | Status::Updated))
    }

    /// The summary as one JSON object.
    pub fn json_summary(&self) -> serde_json::Value {
        serde_json::json!({ "summary": {
            "passed": self.count(Status::Pass),
            "failed": self.count(Status::Fail),
            "errors": self.count(Status::Error),
            "updated": self.count(Status::Updated),
            "skipped": self.skipped,
            "ok": self.passed(),
        }})
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "test result: {}. {} passed, {} failed, {} error(s)",
            if self.passed() { "ok" } else { "FAILED" },
            self.count(Status::Pass),
            self.count(Status::Fail),
            self.count(Status::Error),
        );
        let updated = self.count(Status::Updated);
        if updated > 0 {
            s.push_str(&format!(", {updated} updated"));
        }
        if self.skipped > 0 {
            s.push_str(&format!(
                "; {} YAML file(s) without `run:` are not scenarios (nor fight files with `expect:`)",
                self.skipped
            ));
        }
        s
    }
}

impl Case {
    /// What `rulesc test` prints for this scenario (its diagnostics aside).
    pub fn render(&self) -> String {
        let path = output::shown(&output::from_here(&self.path));
        let mut out = format!("{:<7} {path}", self.status.word());
        match self.status {
            Status::Pass if self.nothing_expected => out.push_str(" (nothing expected)"),
            Status::Error => {
                let n = self.diags.error_count();
                out.push_str(&format!(" ({n} error(s))"));
            }
            Status::Updated => {
                let n = self.mismatches.len();
                if n > 0 {
                    out.push_str(&format!(" ({n} expectation(s) rewritten)"));
                } else {
                    out.push_str(" (expectations recorded)");
                }
            }
            _ => {}
        }
        out.push('\n');
        if self.status == Status::Fail {
            for m in &self.mismatches {
                out.push_str(&format!(
                    "    {}: expected {}, got {}\n",
                    m.at, m.expected, m.actual
                ));
            }
            if let Some(m) = self
                .mismatches
                .iter()
                .find(|m| !m.at.starts_with("odds."))
                .filter(|_| !self.context.is_empty())
            {
                let at = &m.at;
                out.push_str(&format!("    the trace around `{at}`:\n"));
                for l in &self.context {
                    out.push_str(&format!("      {l}\n"));
                }
            }
        }
        out
    }

    /// The scenario as one JSON object (its diagnostics aside).
    pub fn json(&self) -> serde_json::Value {
        let failures: Vec<serde_json::Value> = self
            .mismatches
            .iter()
            .map(|m| serde_json::json!({ "at": m.at, "expected": m.expected, "actual": m.actual }))
            .collect();
        serde_json::json!({
            "scenario": output::shown(&output::from_here(&self.path)),
            "status": match self.status {
                Status::Pass => "pass",
                Status::Fail => "fail",
                Status::Error => "error",
                Status::Updated => "updated",
            },
            "errors": self.diags.error_count(),
            "failures": failures,
            "trace": self.context,
        })
    }
}

/// Runs every scenario under `paths` (folders, searched in name order, or files).
///
/// A link found in a folder is followed when it leads inside the project folder (as a
/// ruleset's links are, [`load::project_root`]) and refused (`E0008`) when it leads out
/// or nowhere. A path named that gives no scenario at all is an error (`E0412`), so a
/// run that tested nothing never reads as a pass.
pub fn run(paths: &[PathBuf], opts: &Options) -> Report {
    let mut report = Report::default();
    let mut files = Vec::new();
    // Which path named each file came from, and whether that path's search failed.
    let mut searched = Vec::new();
    for (named, p) in paths.iter().enumerate() {
        let mut search = Search {
            named,
            root: load::project_root(p),
            visited: Vec::new(),
            files: &mut files,
            diags: Diagnostics::default(),
            sources: Sources::default(),
        };
        search.collect(p, p, 0);
        let failed = search.diags.has_errors();
        let (diags, sources) = (search.diags, search.sources);
        if !diags.items.is_empty() {
            report.problems.push((diags, sources));
        }
        searched.push(failed);
    }
    if files.len() > MAX_FILES {
        let mut sources = Sources::default();
        let at = output::file_span(&paths[files[MAX_FILES].named], &mut sources);
        let d = Diagnostic::error(
            "E0003",
            at,
            format!("more than {MAX_FILES} YAML files to test: the rest were not run"),
        )
        .help("give fewer folders, or folders with fewer files");
        report
            .problems
            .push((Diagnostics { items: vec![d] }, sources));
        files.truncate(MAX_FILES);
    }
    let mut found = vec![0usize; paths.len()];
    let mut rulesets: HashMap<PathBuf, Option<Program>> = HashMap::new();
    for file in files {
        match run_file(&file.read, opts, &mut rulesets, &mut report.problems) {
            Some(mut case) => {
                case.path = file.shown;
                found[file.named] += 1;
                report.cases.push(case);
            }
            None => report.skipped += 1,
        }
    }
    // A path named that gave no scenario (and no error of its own): nothing was tested.
    for ((p, failed), n) in paths.iter().zip(searched).zip(found) {
        if n > 0 || failed {
            continue;
        }
        let mut sources = Sources::default();
        let at = output::file_span(p, &mut sources);
        let what = if p.is_dir() {
            format!("no scenario under the folder {}", output::shown(p))
        } else {
            format!(
                "{} is not a scenario (it has no `run:`) nor a fight file with `expect:`",
                output::shown(p)
            )
        };
        let d = Diagnostic::error("E0412", at, format!("{what}: nothing was tested"))
            .label("this path")
            .help("a scenario is a `.yaml` file with `run:`, a fight test a fight file with `expect:`; give the folders (or files) that hold them");
        report
            .problems
            .push((Diagnostics { items: vec![d] }, sources));
    }
    report
}

/// A YAML file found to test: the path it was found by (a link's own path), and the
/// file read (the link's target).
struct Found {
    named: usize,
    shown: PathBuf,
    read: PathBuf,
}

/// The search of one path named on the command line.
struct Search<'a> {
    /// Its place on the command line.
    named: usize,
    /// The project folder: where links found in its folders may lead.
    root: PathBuf,
    /// The folders searched (resolved), so that a loop of links is searched once.
    visited: Vec<PathBuf>,
    files: &'a mut Vec<Found>,
    diags: Diagnostics,
    sources: Sources,
}

impl Search<'_> {
    /// `E0001` at `path`: `cannot read {what}`.
    fn unreadable(&mut self, path: &Path, what: String, help: &str) {
        let at = output::file_span(path, &mut self.sources);
        self.diags.push(
            Diagnostic::error("E0001", at, format!("cannot read {what}")).help(help.to_string()),
        );
    }

    /// `.yaml` files under `path` (or `path` itself, when named), sorted; `.yml` files
    /// are warned about. `read` is where `path` is read: itself, or under the target of
    /// a link to a folder.
    fn collect(&mut self, path: &Path, read: &Path, depth: usize) {
        // A path named is taken as given (through a link too); an entry found in a
        // folder is looked at itself, and a link followed only inside the project.
        let meta = if depth == 0 {
            std::fs::metadata(read)
        } else {
            std::fs::symlink_metadata(read)
        };
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                let what = format!("{}: {e}", output::shown(path));
                return self.unreadable(path, what, "give folders (or files) of scenarios");
            }
        };
        let mut read = read.to_path_buf();
        let mut is_dir = meta.is_dir();
        if meta.file_type().is_symlink() {
            let is_yaml = matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            );
            match load::resolve_entry(&read, &self.root) {
                Ok(target) => {
                    is_dir = target.is_dir();
                    read = output::from_here(&target);
                }
                // A link that could lead to scenarios (a `.yaml` name, or a folder) and
                // leads out of the project, or nowhere: refused, as `check` refuses it.
                Err(why) if is_yaml || read.is_dir() => {
                    let name = output::shown(path);
                    let at = output::file_span(path, &mut self.sources);
                    self.diags.push(
                        Diagnostic::error("E0008", at, format!("{name} is {why}"))
                            .label("this link")
                            .help(format!(
                                "rulesc test reads only scenarios inside {}; put the file itself in the folder, or give `rulesc --root <folder>` holding both",
                                self.root.display()
                            )),
                    );
                    return;
                }
                Err(_) => return,
            }
        }
        if !is_dir {
            let ext = path.extension().and_then(|e| e.to_str());
            if depth == 0 || ext == Some("yaml") {
                self.files.push(Found {
                    named: self.named,
                    shown: path.to_path_buf(),
                    read,
                });
            } else if ext == Some("yml") {
                let at = output::file_span(path, &mut self.sources);
                self.diags.push(
                    Diagnostic::warning(
                        "W0005",
                        at,
                        format!(
                            "{} is skipped: scenarios end in `.yaml`",
                            output::shown(path)
                        ),
                    )
                    .help("rename it to `.yaml` to run it"),
                );
            }
            return;
        }
        let resolved = std::fs::canonicalize(&read).unwrap_or_else(|_| read.clone());
        if self.visited.contains(&resolved) {
            // Searched already: a loop of links, or a second link to one folder.
            return;
        }
        if depth >= MAX_DEPTH {
            let at = output::file_span(path, &mut self.sources);
            self.diags.push(
                Diagnostic::error(
                    "E0003",
                    at,
                    format!(
                        "{} is more than {MAX_DEPTH} folders deep: it was not searched",
                        output::shown(path)
                    ),
                )
                .help("keep scenarios in shallower folders, or name this folder itself"),
            );
            return;
        }
        self.visited.push(resolved);
        let rd = match std::fs::read_dir(&read) {
            Ok(rd) => rd,
            Err(e) => {
                let what = format!("the folder {}: {e}", output::shown(path));
                let help = "give folders (or files) of scenarios that rulesc can read";
                return self.unreadable(path, what, help);
            }
        };
        let mut names: Vec<std::ffi::OsString> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .filter(|n| {
                let name = n.to_string_lossy();
                !name.starts_with('.') && name != "target"
            })
            .collect();
        names.sort();
        for name in names {
            if self.files.len() > MAX_FILES {
                return;
            }
            self.collect(&path.join(&name), &read.join(&name), depth + 1);
        }
    }
}

/// One file: `None` when it is not a scenario (no `run:`).
fn run_file(
    path: &Path,
    opts: &Options,
    rulesets: &mut HashMap<PathBuf, Option<Program>>,
    problems: &mut Vec<(Diagnostics, Sources)>,
) -> Option<Case> {
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    let name = output::shown(path);
    let error = |diags: Diagnostics, sources: Sources| Case {
        path: path.to_path_buf(),
        status: Status::Error,
        nothing_expected: false,
        mismatches: Vec::new(),
        context: Vec::new(),
        diags,
        sources,
    };
    let Some((_, root)) = load::read_yaml(&mut sources, name, path, &mut diags) else {
        return Some(error(diags, sources));
    };
    // A scenario has `run:`; a fight file (`sides:`) is a test when it expects something.
    let fight = root.get("run").is_none();
    if fight && (root.get("sides").is_none() || root.get("expect").is_none()) {
        return None;
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let ruleset = match root.get("ruleset") {
        Some(r) => match r.as_str() {
            Some(rel) => dir.join(rel),
            None => {
                diags.push(
                    Diagnostic::error(
                        "E0401",
                        r.span,
                        format!("expected a folder path, found {}", r.kind()),
                    )
                    .label("here")
                    .help("write `ruleset: ../rules/my_ruleset` (relative to this file)"),
                );
                return Some(error(diags, sources));
            }
        },
        None => match &opts.ruleset {
            Some(r) => r.clone(),
            None => {
                diags.push(
                    Diagnostic::error(
                        "E0401",
                        Span::new(root.span.file, root.span.start as usize, root.span.start as usize),
                        "the scenario does not say which ruleset it runs against",
                    )
                    .label("this scenario")
                    .help("add `ruleset: <folder>` (relative to this file), or give `rulesc test --ruleset <folder>`"),
                );
                return Some(error(diags, sources));
            }
        },
    };
    let packs = match pack_paths(&root, dir, &mut diags) {
        Some(p) => p,
        None => return Some(error(diags, sources)),
    };
    let key = std::fs::canonicalize(&ruleset).unwrap_or_else(|_| ruleset.clone());
    let program = rulesets.entry(key).or_insert_with(|| {
        let (mut program, d, s) = crate::compile_dir(&ruleset);
        if !d.items.is_empty() {
            problems.push((d, s));
        }
        if let (Some(p), Some(names)) = (&mut program, opts.names) {
            p.rename_files(&names);
        }
        program
    });
    let Some(base) = program.as_ref() else {
        diags.push(
            Diagnostic::error(
                "E0401",
                root.get("ruleset")
                    .map_or(Span::new(root.span.file, 0, 0), |r| r.span),
                format!("the ruleset {} does not check", output::shown(&ruleset)),
            )
            .label("this ruleset")
            .help("fix the ruleset's errors (reported above) first"),
        );
        return Some(error(diags, sources));
    };
    let with_packs;
    let p = if packs.is_empty() {
        base
    } else {
        let (extended, d, s) = crate::pack::apply(base, &packs);
        match extended {
            Some(mut e) => {
                if let Some(names) = opts.names {
                    e.rename_files(&names);
                }
                with_packs = e;
                &with_packs
            }
            None => return Some(error(d, s)),
        }
    };
    Some(if fight {
        run_fight(p, path, opts)
    } else {
        run_scenario(p, path, opts)
    })
}

/// The `packs:` of a scenario, relative to its folder.
fn pack_paths(root: &YNode, dir: &Path, diags: &mut Diagnostics) -> Option<Vec<PathBuf>> {
    let Some(node) = root.get("packs") else {
        return Some(Vec::new());
    };
    let items: Vec<&YNode> = match node.as_seq() {
        Some(s) => s.iter().collect(),
        None => vec![node],
    };
    let mut out = Vec::new();
    for i in items {
        match i.as_str() {
            Some(rel) => out.push(dir.join(rel)),
            None => diags.push(
                Diagnostic::error(
                    "E0401",
                    i.span,
                    format!("expected the path of a content pack, found {}", i.kind()),
                )
                .label("here")
                .help("write `packs: [../packs/armory.yaml]` (relative to this file)"),
            ),
        }
    }
    (!diags.has_errors()).then_some(out)
}

/// Runs one scenario against its program and holds it to its expectations.
pub fn run_scenario(p: &Program, path: &Path, opts: &Options) -> Case {
    let mut case = Case {
        path: path.to_path_buf(),
        status: Status::Error,
        nothing_expected: false,
        mismatches: Vec::new(),
        context: Vec::new(),
        diags: Diagnostics::default(),
        sources: Sources::default(),
    };
    let (s, sources) = match scenario::read(p, path) {
        Ok(r) => r,
        Err((d, s)) => {
            case.diags = d;
            case.sources = s;
            return case;
        }
    };
    case.sources = sources;
    let ran = scenario::execute(p, &s, 0);
    case.diags.extend(ran.errors.clone());
    case.diags.extend(scenario::strict(&s, &ran));
    if case.diags.has_errors() {
        return case;
    }
    let f = &p.functions[s.function];
    let Some(expect) = &s.expect else {
        case.nothing_expected = true;
        case.status = Status::Pass;
        if opts.update {
            if let Some(text) = expect::record(p, &f.params, &f.ret, &ran) {
                let file = case.sources.file(s.at.file).text.clone();
                let sep = if file.ends_with('\n') || file.is_empty() {
                    ""
                } else {
                    "\n"
                };
                if write_back(&mut case, path, &format!("{file}{sep}{text}")) {
                    case.status = Status::Updated;
                    case.nothing_expected = false;
                }
            }
        }
        return case;
    };
    let mut diags = Diagnostics::default();
    if let (Some(k), Some(_)) = (
        expect
            .as_map()
            .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some("odds"))),
        &s.fight,
    ) {
        case.diags.push(
            Diagnostic::error("E0406", k.0.span, "exact odds inside a fight are not available yet: `rulesc analyze` does not run fights")
                .label("exact odds")
                .help("hold this run's `result:` and `state:`; for rates, test a fight file with `expect: { wins: ..., tolerance: ... }`"),
        );
        return case;
    }
    // Odds only when asked for: an analysis runs every roll of the dice.
    let odds = expect
        .get("odds")
        .map(|_| crate::analyze::distribution(p, &s, &crate::analyze::Limits::default(), &[]));
    if let Some(b) = odds.as_ref().and_then(|d| d.bad_answer.as_ref()) {
        case.diags.push(crate::scenario::answer_out_of_range(&s, b));
        return case;
    }
    let mismatches = expect::compare(p, &case.sources, expect, f, &ran, odds.as_ref(), &mut diags);
    case.diags.extend(diags);
    if case.diags.has_errors() {
        return case;
    }
    case.mismatches = mismatches;
    settle(case, path, s.at.file, opts, |m| {
        // The trace shows one run: it says nothing of the odds.
        m.iter()
            .find(|m| !m.at.starts_with("odds."))
            .map_or_else(Vec::new, |m| context(&ran.trace, m))
    })
}

/// Runs one fight file (`sides:` with `expect:`) against its program and holds it to its
/// expectations ([`crate::simulate::expect`]): simulated rates within their tolerance,
/// or a scripted fight's ending and state.
pub fn run_fight(p: &Program, path: &Path, opts: &Options) -> Case {
    let mut case = Case {
        path: path.to_path_buf(),
        status: Status::Error,
        nothing_expected: false,
        mismatches: Vec::new(),
        context: Vec::new(),
        diags: Diagnostics::default(),
        sources: Sources::default(),
    };
    let (file, sources) = match crate::simulate::read(p, path) {
        Ok(r) => r,
        Err((d, s)) => {
            case.diags = d;
            case.sources = s;
            return case;
        }
    };
    case.sources = sources;
    let mut diags = Diagnostics::default();
    let held = crate::simulate::expect::hold(p, &case.sources, &file, &mut diags);
    case.diags.extend(diags);
    if case.diags.has_errors() {
        return case;
    }
    case.mismatches = held.mismatches;
    settle(case, path, file.file, opts, |_| held.context)
}

/// The end of a case held to its `expect:` (a scenario or a fight file) once its
/// mismatches are known: none passes; with `--update`, when every mismatch has a fix,
/// the file (`file` among the case's sources) is rewritten; else it fails, with the
/// trace's lines that `context` picks for the mismatches.
fn settle(
    mut case: Case,
    path: &Path,
    file: crate::source::FileId,
    opts: &Options,
    context: impl FnOnce(&[Mismatch]) -> Vec<String>,
) -> Case {
    if case.mismatches.is_empty() {
        case.status = Status::Pass;
        return case;
    }
    if opts.update && case.mismatches.iter().all(|m| m.fix.is_some()) {
        let edits = case
            .mismatches
            .iter()
            .filter_map(|m| m.fix.clone())
            .collect();
        let text = case.sources.file(file).text.clone();
        if write_back(&mut case, path, &expect::rewrite(&text, edits)) {
            case.status = Status::Updated;
        }
        return case;
    }
    case.status = Status::Fail;
    case.context = context(&case.mismatches);
    case
}

/// Writes a scenario's new text over it; an error (`E0010`/`E0011`) on failure.
fn write_back(case: &mut Case, path: &Path, text: &str) -> bool {
    match output::write(path, text, &[]) {
        Ok(_) => true,
        Err(e) => {
            let d = e.diagnostic(path, &mut case.sources);
            case.diags.push(d);
            case.status = Status::Error;
            false
        }
    }
}

/// The lines of the trace around where `m` went its own way (a few lines before it and
/// one after): the line that gave its field the value it ended with, else the last that
/// names it, or the lines leading to the result.
fn context(trace: &str, m: &Mismatch) -> Vec<String> {
    let lines: Vec<&str> = trace.lines().collect();
    if lines.is_empty() {
        return Vec::new();
    }
    let at = m
        .field
        .as_ref()
        .and_then(|f| {
            // The last line that set the field to what it ended as; else the last that
            // gave that value (`let wound = level + armor  ->  Moderate` before
            // `return Hit(level: wound, ..)`); else the last that set the field.
            let gave = format!("  ->  {}", m.actual);
            let set = |l: &&str| sets(statement(l), f);
            lines
                .iter()
                .rposition(|l| set(l) && l.ends_with(&gave))
                .or_else(|| lines.iter().rposition(|l| l.ends_with(&gave)))
                .or_else(|| lines.iter().rposition(set))
                .or_else(|| {
                    let (member, local) = (format!(".{f} "), format!("let {f} "));
                    lines
                        .iter()
                        .rposition(|l| l.contains(&member) || l.contains(&local))
                })
        })
        .unwrap_or(lines.len() - 1);
    let from = at.saturating_sub(5);
    let to = (at + 2).min(lines.len());
    lines[from..to].iter().map(|l| l.to_string()).collect()
}

/// A trace line's statement: the text after its `file:line` and the spaces after it.
fn statement(line: &str) -> &str {
    line.split_once(char::is_whitespace)
        .map_or(line, |(_, rest)| rest.trim_start())
}

/// Whether a traced statement sets `field`: `let field = ..`, `field = ..` (or `+=`,
/// `-=`), or the same of a record's field, `x.field = ..`.
fn sets(stmt: &str, field: &str) -> bool {
    let target = match stmt.strip_prefix("let ") {
        Some(rest) => rest,
        None => stmt,
    };
    let Some(end) = target.find([' ', ':']) else {
        return false;
    };
    let (place, rest) = target.split_at(end);
    let rest = rest.trim_start();
    let assigns =
        stmt.starts_with("let ") || ["= ", "+= ", "-= "].iter().any(|op| rest.starts_with(op));
    let named = place == field || place.ends_with(&format!(".{field}"));
    assigns && named
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mismatch(field: &str, actual: &str) -> Mismatch {
        Mismatch {
            at: format!("result.{field}"),
            expected: String::new(),
            actual: actual.to_string(),
            fix: None,
            field: Some(field.to_string()),
        }
    }

    const TRACE: &str = "\
a.rules:1    let level = base + 2  ->  Critical
a.rules:2    if attack < threshold: yes
a.rules:3    level = min(level, Severe)  ->  Severe
a.rules:4    c.hp -= 2  ->  5
a.rules:5    let hpx = 1  ->  1
a.rules:6    let wound = level + armor  ->  Moderate
a.rules:7    if wound < Minor: no
a.rules:8    result: Hit(level: Moderate)";

    /// The window's last line but one is the line that made the difference.
    #[test]
    fn the_window_holds_the_line_that_made_the_difference() {
        for (field, actual, line) in [
            // Set last by an assignment after its `let` (the old window stopped at the `let`).
            ("level", "Severe", "a.rules:3"),
            // Given its value by a local of another name.
            ("level", "Moderate", "a.rules:6"),
            // A record's field, by `-=`; `hpx` is another name.
            ("hp", "5", "a.rules:4"),
            // Set, but to another value than it ended with: still the line that set it.
            ("hpx", "7", "a.rules:5"),
        ] {
            let window = context(TRACE, &mismatch(field, actual));
            let made = &window[window.len() - 2];
            assert!(made.starts_with(line), "{field} {actual}: {window:#?}");
        }
    }

    #[test]
    fn only_assignments_set_a_field() {
        for (stmt, field, want) in [
            ("let level = 1  ->  1", "level", true),
            ("level = 1  ->  1", "level", true),
            ("level += 1  ->  2", "level", true),
            ("c.level -= 1  ->  2", "level", true),
            ("level == 1: yes", "level", false),
            ("levels = 1  ->  1", "level", false),
            ("if level < 2: no", "level", false),
            ("let wound = level + 1  ->  2", "level", false),
        ] {
            assert_eq!(sets(stmt, field), want, "{stmt}");
        }
    }
}
