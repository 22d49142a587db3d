//! The JSON API the page calls. Every answer is JSON; writer text is in it as JSON
//! strings (the page shows them as text), charts as SVG text (the page shows them as
//! images).
//!
//! - `GET /api/files`: the files served (name, kind).
//! - `POST /api/file {name}`: a file's text and version.
//! - `POST /api/save {name, text, version}`: saved, or 409 if the file changed on disk
//!   since the page loaded `version` (the disk untouched).
//! - `POST /api/check {seq, files}`: the diagnostics of the whole ruleset with the page's
//!   unsaved text (`files`: name → text) laid over the disk, as `rulesc check` gives them,
//!   each with its span and a did-you-mean as a fix; a check superseded by a newer one
//!   is answered `{"superseded": true}` (see [`super::worker`]).
//! - `POST /api/trace {scenario, files}`, `/api/odds {scenario, by, files}`,
//!   `/api/simulate {fight, runs, files}`: the calls `rulesc trace`, `analyze` and
//!   `simulate` make, on the ruleset with the unsaved text; the scenario or fight file as
//!   saved.

use super::files::{version, Entry, Kind, Refusal};
use super::{error, json, Answer, Studio};
use crate::diag::{Diagnostics, Severity};
use crate::ir::Program;
use crate::source::Sources;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// Most runs a simulation may ask for.
pub const MAX_SIM_RUNS: u64 = 100_000;
/// The seconds a simulation may take (the runs made by then are reported).
pub const SIM_SECONDS: u64 = 30;

fn parse<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, Answer> {
    serde_json::from_slice(body).map_err(|e| error(400, format!("a malformed request: {e}")))
}

fn file(s: &Studio, name: &str) -> Result<Entry, Answer> {
    s.project.find(name).ok_or_else(|| {
        error(
            404,
            format!("`{name}` is not one of the files this studio serves"),
        )
    })
}

/// `GET /api/files`.
pub fn files(s: &Studio) -> Answer {
    let list: Vec<Value> = s
        .project
        .list()
        .into_iter()
        .map(|e| {
            json!({
                "name": e.name,
                "kind": match e.kind { Kind::Ruleset => "ruleset", Kind::Example => "example" },
            })
        })
        .collect();
    json(
        200,
        &json!({
            "title": s.project.title(),
            "files": list,
            "scenarios": runnable(s),
            "variants": s.project.variants.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        }),
    )
}

/// The example files that are scenarios and fight files (as `rulesc book` sorts them).
fn runnable(s: &Studio) -> Value {
    let Some(dir) = &s.project.examples else {
        return json!({ "scenarios": [], "fights": [] });
    };
    let found = crate::book::odds::find(dir).unwrap_or_default();
    let names = |paths: &[PathBuf]| -> Vec<String> {
        paths
            .iter()
            .filter_map(|p| super::relative(&s.project.root, p))
            .filter(|n| s.project.find(n).is_some())
            .collect()
    };
    json!({ "scenarios": names(&found.scenarios), "fights": names(&found.fights) })
}

#[derive(Deserialize)]
struct Named {
    name: String,
}

/// `POST /api/file`.
pub fn read(s: &Studio, body: &[u8]) -> Answer {
    let run = || -> Result<Answer, Answer> {
        let q: Named = parse(body)?;
        let e = file(s, &q.name)?;
        let text = s.project.read(&e).map_err(|m| error(422, m))?;
        Ok(json(
            200,
            &json!({ "name": e.name, "version": version(&text), "text": text }),
        ))
    };
    run().unwrap_or_else(|a| a)
}

#[derive(Deserialize)]
struct Save {
    name: String,
    text: String,
    version: String,
}

/// `POST /api/save`.
pub fn save(s: &Studio, body: &[u8]) -> Answer {
    let run = || -> Result<Answer, Answer> {
        let q: Save = parse(body)?;
        let e = file(s, &q.name)?;
        let _one = s.saving.lock().unwrap_or_else(|e| e.into_inner());
        match s.project.save(&e, &q.text, &q.version) {
            Ok(v) => Ok(json(200, &json!({ "name": e.name, "version": v }))),
            Err(Refusal::Conflict(m)) => Ok(json(409, &json!({ "error": m, "conflict": true }))),
            Err(Refusal::Invalid(m)) => Ok(error(422, m)),
        }
    };
    run().unwrap_or_else(|a| a)
}

/// The page's unsaved text, by file name.
type Unsaved = BTreeMap<String, String>;

/// A check's request.
#[derive(Deserialize)]
pub struct CheckRequest {
    #[serde(default)]
    pub seq: u64,
    #[serde(default)]
    pub files: Unsaved,
}

/// The unsaved text as an overlay for [`crate::check_dir`]; names not served are
/// refused.
fn overlay(s: &Studio, unsaved: &Unsaved) -> Result<crate::load::Overlay, Answer> {
    let list = s.project.list();
    let mut overlay = crate::load::Overlay::new();
    for (name, text) in unsaved {
        let e = list.iter().find(|e| &e.name == name).ok_or_else(|| {
            error(
                404,
                format!("`{name}` is not one of the files this studio serves"),
            )
        })?;
        let key = std::fs::canonicalize(&e.path).unwrap_or_else(|_| e.path.clone());
        overlay.insert(key, text.clone());
    }
    Ok(overlay)
}

/// Each file of a run by its canonical path → its name in the project.
fn names(s: &Studio) -> HashMap<PathBuf, String> {
    let mut out = HashMap::new();
    for e in s.project.list() {
        let key = std::fs::canonicalize(&e.path).unwrap_or(e.path);
        out.entry(key).or_insert(e.name);
    }
    out
}

/// A check of the whole ruleset with the unsaved text: `{seq, ok, errors, warnings,
/// diagnostics}`.
pub fn check(s: &Studio, q: &CheckRequest) -> Answer {
    let overlay = match overlay(s, &q.files) {
        Ok(o) => o,
        Err(a) => return a,
    };
    let c = crate::check_dir(&s.project.dir, &overlay);
    let mut v = diagnostics(s, &c.diags, &c.sources);
    v["seq"] = json!(q.seq);
    json(200, &v)
}

/// Each file named by its path in the project folder, as the files served are (and as
/// `rulesc` run there names them): what traces and origins cite.
fn from_project(s: &Studio) -> impl Fn(&mut Sources) + '_ {
    move |sources: &mut Sources| {
        for f in &mut sources.files {
            if let Some(name) = super::relative(&s.project.root, &f.path) {
                f.name = name;
            }
        }
    }
}

/// The program of the ruleset with the unsaved text, or its diagnostics as the answer.
fn program(s: &Studio, unsaved: &Unsaved) -> Result<Program, Answer> {
    let overlay = overlay(s, unsaved)?;
    let c = crate::check_dir(&s.project.dir, &overlay);
    match c.program {
        Some(mut p) => {
            p.rename_files(&from_project(s));
            Ok(p)
        }
        None => {
            let mut v = diagnostics(s, &c.diags, &c.sources);
            v["error"] = json!("the ruleset has errors: fix them to run it");
            Err(json(422, &v))
        }
    }
}

/// A run's problems (diagnostics about the scenario, say) as the answer.
fn failed(s: &Studio, what: &str, diags: &Diagnostics, sources: &Sources) -> Answer {
    let mut v = diagnostics(s, diags, sources);
    v["error"] = json!(format!("the {what} cannot run"));
    json(422, &v)
}

#[derive(Deserialize)]
struct Run {
    #[serde(default)]
    scenario: String,
    #[serde(default)]
    fight: String,
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    runs: Option<u64>,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    files: Unsaved,
}

/// `POST /api/trace`: `rulesc trace`'s text (seed 0).
pub fn trace(s: &Studio, body: &[u8]) -> Answer {
    let run = || -> Result<Answer, Answer> {
        let q: Run = parse(body)?;
        let e = file(s, &q.scenario)?;
        let p = program(s, &q.files)?;
        match crate::scenario::run_file_with(&p, &e.path, 0, Default::default()) {
            Ok(text) => Ok(json(200, &json!({ "scenario": e.name, "trace": text }))),
            Err((d, src)) => Ok(failed(s, "scenario", &d, &src)),
        }
    };
    run().unwrap_or_else(|a| a)
}

/// `POST /api/odds`: `rulesc analyze --format json`'s document (default limits, the
/// `by` view if asked) and each case's chart as `--svg` draws it.
pub fn odds(s: &Studio, body: &[u8]) -> Answer {
    let run = || -> Result<Answer, Answer> {
        let q: Run = parse(body)?;
        let e = file(s, &q.scenario)?;
        let p = program(s, &q.files)?;
        let view = crate::analyze::View {
            by: q.by.filter(|b| !b.trim().is_empty()),
            ..Default::default()
        };
        let limits = crate::analyze::Limits::default();
        match crate::analyze::reports(&p, &e.path, &limits, &view) {
            Ok((reports, warnings, sources)) => {
                let doc: Value =
                    serde_json::from_str(&crate::analyze::report::json(&reports, None))
                        .unwrap_or(Value::Null);
                let charts: Vec<String> = reports.iter().map(|r| r.svg()).collect();
                let w = diagnostics(s, &warnings, &sources);
                Ok(json(
                    200,
                    &json!({ "scenario": e.name, "analyze": doc, "charts": charts, "warnings": w["diagnostics"] }),
                ))
            }
            Err((d, src)) => Ok(failed(s, "scenario", &d, &src)),
        }
    };
    run().unwrap_or_else(|a| a)
}

/// `POST /api/diff`: `rulesc diff`'s text and JSON document and its `--svg` chart for
/// the ruleset and a variant on a scenario (exact) or, given `fight`, on a fight file
/// (simulated as `rulesc diff` simulates it: seed 0, 1,000 runs unless asked, at most
/// [`SIM_SECONDS`]), all as saved.
pub fn diff(s: &Studio, body: &[u8]) -> Answer {
    let run = || -> Result<Answer, Answer> {
        let q: Run = parse(body)?;
        let named = if q.fight.is_empty() {
            &q.scenario
        } else {
            &q.fight
        };
        let e = file(s, named)?;
        let (_, variant) = s
            .project
            .variants
            .iter()
            .find(|(n, _)| *n == q.variant)
            .ok_or_else(|| {
                error(
                    404,
                    format!("`{}` is not a variant this studio compares with", q.variant),
                )
            })?;
        use crate::analyze::report::Style;
        // Both comparisons answer alike: `rulesc diff`'s text, its JSON and its chart.
        let compared = if q.fight.is_empty() {
            let view = crate::analyze::View {
                by: q.by.filter(|b| !b.trim().is_empty()),
                ..Default::default()
            };
            let limits = crate::analyze::Limits::default();
            let names = from_project(s);
            crate::analyze::diff::compare_with_packs(
                &s.project.dir,
                variant,
                &e.path,
                &[],
                &limits,
                &view,
                &names,
            )
            .map(|(d, _)| (d.render(Style::Text), d.render(Style::Json), d.svg()))
        } else {
            let runs = crate::simulate::diff::Runs {
                n: q.runs.unwrap_or(1000).clamp(1, MAX_SIM_RUNS),
                seed: 0,
                max: Some(std::time::Duration::from_secs(SIM_SECONDS)),
            };
            let names = from_project(s);
            crate::simulate::diff::compare_named(
                &s.project.dir,
                variant,
                &e.path,
                &[],
                runs,
                &names,
            )
            .map(|(d, _)| (d.render(Style::Text), d.render(Style::Json), d.svg()))
        };
        match compared {
            Ok((text, doc, chart)) => {
                let doc: Value = serde_json::from_str(&doc).unwrap_or(Value::Null);
                Ok(json(
                    200,
                    &json!({ "text": text, "diff": doc, "chart": chart }),
                ))
            }
            Err((d, src)) => Ok(failed(s, "comparison", &d, &src)),
        }
    };
    run().unwrap_or_else(|a| a)
}

/// `POST /api/simulate`: `rulesc simulate`'s report (seed 0, 1,000 runs unless asked,
/// at most [`SIM_SECONDS`]), as text and as its JSON.
pub fn simulate(s: &Studio, body: &[u8]) -> Answer {
    let run = || -> Result<Answer, Answer> {
        let q: Run = parse(body)?;
        let e = file(s, &q.fight)?;
        let p = program(s, &q.files)?;
        let (f, sources) = match crate::simulate::read(&p, &e.path) {
            Ok(r) => r,
            Err((d, src)) => return Ok(failed(s, "fight", &d, &src)),
        };
        let runs = q.runs.unwrap_or(1000).clamp(1, MAX_SIM_RUNS);
        let max = std::time::Duration::from_secs(SIM_SECONDS);
        let summary = crate::simulate::simulate_within(&p, &f, runs, 0, Some(max));
        let _ = sources;
        Ok(json(
            200,
            &json!({
                "fight": e.name,
                "text": summary.render(&p, &f, 0),
                "simulate": summary.json(&p, &f, 0),
            }),
        ))
    };
    run().unwrap_or_else(|a| a)
}

/// Diagnostics for the page: `{ok, errors, warnings, diagnostics: [..]}`, each with its
/// file's name in the project (when it is a file served), its line and column (from 1,
/// in characters), its span as UTF-16 offsets into the file's text (what a textarea's
/// selection counts), the text `rulesc check` prints, and a did-you-mean as a fix.
pub fn diagnostics(s: &Studio, diags: &Diagnostics, sources: &Sources) -> Value {
    let names = names(s);
    let list: Vec<Value> = diags
        .sorted()
        .into_iter()
        .map(|d| {
            let mut v = json!({
                "code": d.code,
                "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": d.message,
                "label": d.label,
                "help": d.help,
                "rendered": crate::diag::render(d, sources, false, 100),
            });
            if let Some(f) = sources.files.get(d.span.file as usize) {
                let key = std::fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone());
                let served = names.get(&key);
                let (line, col) = f.line_col(d.span.start as usize);
                let (from, to) = (
                    utf16(&f.text, d.span.start as usize),
                    utf16(&f.text, d.span.end as usize),
                );
                v["file"] = json!(served.cloned().unwrap_or_else(|| f.name.clone()));
                v["served"] = json!(served.is_some());
                v["line"] = json!(line);
                v["col"] = json!(col);
                v["from"] = json!(from);
                v["to"] = json!(to);
                if let Some((old, new)) = fix(d.help.as_deref(), f.slice(d.span)) {
                    v["fix"] = json!({ "from": from, "to": to, "old": old, "new": new });
                }
            }
            v
        })
        .collect();
    json!({
        "ok": !diags.has_errors(),
        "errors": diags.error_count(),
        "warnings": diags.warning_count(),
        "diagnostics": list,
    })
}

/// The UTF-16 offset of a byte offset (clamped to the text, down to a character).
fn utf16(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    text[..b].encode_utf16().count()
}

/// The fix a help line offers: "did you mean `new`?" for a span that holds one name,
/// `old` (a span holding anything else gives no fix, only the help).
fn fix(help: Option<&str>, old: &str) -> Option<(String, String)> {
    let rest = help?.split_once("did you mean `")?.1;
    let new = rest.split_once('`')?.0;
    let name = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
    };
    (name(old) && name(new) && old != new).then(|| (old.to_string(), new.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_fix_is_offered_for_one_name_only() {
        let cases = [
            (
                Some("did you mean `damage`?"),
                "damge",
                Some(("damge", "damage")),
            ),
            (Some("did you mean `damage`?"), "damage", None),
            (Some("did you mean `damage`?"), "a b", None),
            (Some("expected one of `a`, `b`"), "c", None),
            (None, "c", None),
        ];
        for (help, old, want) in cases {
            let got = super::fix(help, old);
            let want = want.map(|(a, b): (&str, &str)| (a.to_string(), b.to_string()));
            assert_eq!(got, want, "{help:?} at {old:?}");
        }
    }

    #[test]
    fn utf16_offsets_count_what_a_textarea_counts() {
        assert_eq!(super::utf16("a\u{1F600}b", 5), 3);
        assert_eq!(super::utf16("é=x", 2), 1);
        assert_eq!(super::utf16("é=x", 1), 0);
        assert_eq!(super::utf16("ab", 99), 2);
    }
}
