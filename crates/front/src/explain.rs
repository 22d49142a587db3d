//! `rulesc explain <ruleset> <name>`: a definition after `extends` and `override` are
//! merged, each part with the file and line it came from (base or variant); with
//! `--pack`, after the packs' additions and `_mod` changes too, a part from a pack
//! naming it.

use crate::check;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::load;
use crate::source::{Sources, Span};
use crate::syntax::ast;
use crate::yaml::{YNode, YValue};
use std::fmt::Write as _;
use std::path::Path;

fn at(sources: &Sources, span: Span) -> String {
    let (file, line, _) = sources.position(span);
    format!("{file}:{line}")
}

/// The files of the content packs applied, with their packs' names.
type PackFiles = std::collections::HashMap<u32, String>;

/// Where `span` is, and the pack it is in, if it is in one: `packs/x.yaml:9 (pack x)`.
fn origin(sources: &Sources, packs: &PackFiles, span: Span) -> String {
    match packs.get(&span.file) {
        Some(pack) => format!("{} (pack {pack})", at(sources, span)),
        None => at(sources, span),
    }
}

/// Where a value is: [`origin`], and for a list, the places of its items written
/// elsewhere (a pack's `_mod` appended them).
fn origins(sources: &Sources, packs: &PackFiles, n: &YNode) -> String {
    let mut out = vec![origin(sources, packs, n.span)];
    for item in n.as_seq().unwrap_or(&[]) {
        if item.span.file != n.span.file {
            let o = origin(sources, packs, item.span);
            if !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out.join(", ")
}

/// A value on one line, as YAML flow text.
fn flow(n: &YNode) -> String {
    match &n.value {
        YValue::Null => "~".into(),
        YValue::Bool(b) => b.to_string(),
        YValue::Int(i) => i.to_string(),
        YValue::BigInt(s) => s.clone(),
        YValue::Float(f) => f.to_string(),
        YValue::Str(s) => s.clone(),
        YValue::Seq(items) => format!(
            "[{}]",
            items.iter().map(flow).collect::<Vec<_>>().join(", ")
        ),
        YValue::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", flow(k), flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Lines `key: value    file:line`, going one level into `rows` and `fields`-like maps.
fn lines(
    sources: &Sources,
    packs: &PackFiles,
    node: &YNode,
    indent: usize,
    depth: usize,
    out: &mut Vec<(String, String)>,
) {
    let pad = "  ".repeat(indent);
    match &node.value {
        YValue::Map(m) if depth > 0 => {
            for (k, v) in m {
                if matches!(v.value, YValue::Map(_)) && depth > 1 {
                    out.push((format!("{pad}{}:", flow(k)), origin(sources, packs, k.span)));
                    lines(sources, packs, v, indent + 1, depth - 1, out);
                } else {
                    out.push((
                        format!("{pad}{}: {}", flow(k), flow(v)),
                        origins(sources, packs, v),
                    ));
                }
            }
        }
        _ => out.push((
            format!("{pad}{}", flow(node)),
            origins(sources, packs, node),
        )),
    }
}

/// One definition as `explain` shows it: what it is, where it is defined, and its
/// lines, each with the file and line it came from (empty for a declaration's text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub kind: String,
    pub name: String,
    pub at: String,
    pub lines: Vec<(String, String)>,
}

impl Definition {
    /// As `rulesc explain` prints it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} {}    defined at {}", self.kind, self.name, self.at);
        let width = self
            .lines
            .iter()
            .filter(|(_, o)| !o.is_empty())
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        for (line, origin) in &self.lines {
            if origin.is_empty() {
                let _ = writeln!(out, "{line}");
            } else {
                let _ = writeln!(out, "{line:<width$}    {origin}");
            }
        }
        out
    }
}

/// Every definition of the ruleset at `dir` after `extends` and `override` are merged
/// (data in file order, then outcomes, formulas and procedures), and the program.
pub fn definitions(
    dir: &Path,
) -> Result<(crate::ir::Program, Vec<Definition>), (Diagnostics, Sources)> {
    definitions_named(dir, &[], &|_| {})
}

/// How a caller names the files it prints (the command line: from the current folder);
/// applied to the sources before any origin is written.
pub type Names<'a> = &'a dyn Fn(&mut Sources);

/// [`definitions`] with content packs applied (their additions and `_mod` changes
/// merged, each origin in a pack naming it), each origin named by `names`.
pub fn definitions_named(
    dir: &Path,
    packs: &[std::path::PathBuf],
    names: Names<'_>,
) -> Result<(crate::ir::Program, Vec<Definition>), (Diagnostics, Sources)> {
    let (program, diags, sources) = crate::compile_dir(dir);
    let Some(program) = program else {
        return Err((diags, sources));
    };
    let mut ignored = Diagnostics::default();
    let mut loaded = load::load_dir(dir, &mut ignored);
    let (program, pack_files, (mut sources, roots, items)) = if packs.is_empty() {
        (program, PackFiles::new(), check::merged(loaded))
    } else {
        let (applied, diags, read) = crate::pack::apply(&program, packs);
        let Some(applied) = applied else {
            return Err((diags, read));
        };
        let (layers, read) = crate::pack::layers(&program, packs);
        loaded.sources = read;
        let files = layers
            .iter()
            .map(|l| (l.root.span.file, l.name.clone()))
            .collect();
        (applied, files, check::merged_with_packs(loaded, &layers))
    };
    names(&mut sources);
    let mut out = Vec::new();
    for root in &roots {
        for (section_key, section) in root.as_map().unwrap_or(&[]) {
            let section_name = section_key.scalar_text().unwrap_or_default();
            for (k, v) in section.as_map().unwrap_or(&[]) {
                // Records are listed by type: look one level deeper.
                let candidates: Vec<(&YNode, &YNode)> = if section_name == "records" {
                    v.as_map()
                        .unwrap_or(&[])
                        .iter()
                        .map(|(a, b)| (a, b))
                        .collect()
                } else {
                    vec![(k, v)]
                };
                for (key, value) in candidates {
                    // An inline formula's key is its signature: `double(x: int)`.
                    let text = key.scalar_text().unwrap_or_default();
                    let defined = if section_name == "formulas" {
                        text.split('(').next().unwrap_or("").trim()
                    } else {
                        text.as_str()
                    };
                    let mut rows = Vec::new();
                    lines(&sources, &pack_files, value, 1, 2, &mut rows);
                    out.push(Definition {
                        kind: section_name.trim_end_matches('s').to_string(),
                        name: defined.to_string(),
                        at: origin(&sources, &pack_files, key.span),
                        lines: rows,
                    });
                }
            }
        }
    }
    for item in &items {
        let (iname, span, kind) = match item {
            ast::Item::Outcome { name, span, .. } => (name, span, "outcome"),
            ast::Item::Function {
                name,
                span,
                body: ast::Body::Expr(_),
                ..
            } => (name, span, "formula"),
            ast::Item::Function { name, span, .. } => (name, span, "procedure"),
            ast::Item::Fight(_) => continue,
        };
        out.push(Definition {
            kind: kind.to_string(),
            name: iname.name.clone(),
            at: at(&sources, *span),
            lines: sources
                .slice(*span)
                .lines()
                .map(|l| (format!("  {l}"), String::new()))
                .collect(),
        });
    }
    Ok((program, out))
}

/// [`explain`] with content packs applied (`rulesc explain --pack`): a record a pack
/// adds is explained from the pack, with the pack's name; other names as [`explain`]
/// explains them. The packs must check against the ruleset.
pub fn explain_with_packs(
    dir: &Path,
    name: &str,
    packs: &[std::path::PathBuf],
) -> Result<String, (Diagnostics, Sources)> {
    explain_named(dir, name, packs, &|_| {})
}

/// [`explain_with_packs`], each origin (`defined at`, a line's file) named by `names`.
pub fn explain_named(
    dir: &Path,
    name: &str,
    packs: &[std::path::PathBuf],
    names: Names<'_>,
) -> Result<String, (Diagnostics, Sources)> {
    if packs.is_empty() {
        return explain_in(dir, name, packs, names);
    }
    let (program, diags, sources) = crate::compile_dir(dir);
    let Some(program) = program else {
        return Err((diags, sources));
    };
    let (checked, diags, mut read) = crate::pack::check_packs(&program, packs);
    if diags.has_errors() {
        return Err((diags, read));
    }
    names(&mut read);
    let mut sources = Sources::default();
    let mut ignored = Diagnostics::default();
    // Every record of every pack read (those the packs given require as well, by the
    // names the check gave them): its name, its definition, and what it copies.
    let mut found: Vec<(String, Definition, Option<String>)> = Vec::new();
    for pack in &checked {
        let path = &pack.path;
        let shown = read
            .files
            .iter()
            .find(|f| &f.path == path)
            .map_or_else(|| crate::output::shown(path), |f| f.name.clone());
        let Some((_, root)) = load::read_yaml(&mut sources, shown, path, &mut ignored) else {
            continue;
        };
        let pack = root
            .get("pack")
            .and_then(|p| p.get("name"))
            .and_then(|n| n.as_str())
            .unwrap_or_default()
            .to_string();
        let types = root.get("records").and_then(|r| r.as_map()).unwrap_or(&[]);
        for (ty, records) in types {
            for (key, value) in records.as_map().unwrap_or(&[]) {
                // A change of the ruleset's record: explained with the ruleset's.
                if value.get(crate::check::packs::MOD).is_some() {
                    continue;
                }
                let mut rows = Vec::new();
                lines(&sources, &PackFiles::new(), value, 1, 2, &mut rows);
                let rname = key.scalar_text().unwrap_or_default();
                let ty = ty.scalar_text().unwrap_or_default();
                let copy = value
                    .get("_copy")
                    .and_then(|c| c.as_str())
                    .map(str::to_string);
                let def = Definition {
                    kind: "record".into(),
                    name: format!("{rname} ({ty}, from pack {pack})"),
                    at: at(&sources, key.span),
                    lines: rows,
                };
                found.push((rname, def, copy));
            }
        }
    }
    let Some((_, def, copy)) = found.iter().find(|(n, ..)| n == name) else {
        return explain_in(dir, name, packs, names);
    };
    let mut def = def.clone();
    // A copy shows the fields it keeps too, each where the record it copies (or the one
    // that copies) has it.
    let mut from = copy.clone();
    let ruleset = match from {
        Some(_) => definitions_named(dir, packs, names)?.1,
        None => Vec::new(),
    };
    for _ in 0..found.len() + 1 {
        let Some(base) = from.take() else {
            break;
        };
        let (rows, next) = match found.iter().find(|(n, ..)| *n == base) {
            Some((_, d, c)) => (d.lines.clone(), c.clone()),
            None => match ruleset
                .iter()
                .find(|d| d.kind == "record" && d.name == base)
            {
                Some(d) => (d.lines.clone(), None),
                None => break,
            },
        };
        keep_missing(&mut def.lines, &rows);
        from = next;
    }
    Ok(def.text())
}

/// Adds to `lines` (a record's, as `explain` shows them) the fields of `base` it does
/// not give, each with the lines under it: what a `_copy` keeps.
fn keep_missing(lines: &mut Vec<(String, String)>, base: &[(String, String)]) {
    // A field's line is indented once (`  speed: 3`); deeper lines belong to the field
    // above them.
    let field = |line: &str| -> Option<String> {
        let rest = line.strip_prefix("  ")?;
        if rest.starts_with(' ') {
            return None;
        }
        Some(rest.split(':').next().unwrap_or("").to_string())
    };
    let given: Vec<String> = lines.iter().filter_map(|(l, _)| field(l)).collect();
    let mut keep = false;
    for (line, origin) in base {
        if let Some(f) = field(line) {
            keep = f != "_copy" && !given.contains(&f);
        }
        if keep {
            lines.push((line.clone(), origin.clone()));
        }
    }
}

/// Explains `name` in the ruleset at `dir`.
pub fn explain(dir: &Path, name: &str) -> Result<String, (Diagnostics, Sources)> {
    explain_in(dir, name, &[], &|_| {})
}

/// [`explain`] with `packs` applied, each origin named by `names`.
fn explain_in(
    dir: &Path,
    name: &str,
    packs: &[std::path::PathBuf],
    names: Names<'_>,
) -> Result<String, (Diagnostics, Sources)> {
    let (program, defs) = definitions_named(dir, packs, names)?;
    let found: String = defs
        .iter()
        .filter(|d| d.name == name)
        .map(Definition::text)
        .collect();
    if !found.is_empty() {
        return Ok(found);
    }
    let sources = program.sources.clone();
    let mut names: Vec<&str> = Vec::new();
    names.extend(program.tables.iter().map(|t| t.name.as_str()));
    names.extend(program.constants.iter().map(|t| t.name.as_str()));
    names.extend(program.instances.iter().map(|t| t.name.as_str()));
    names.extend(program.functions.iter().map(|t| t.name.as_str()));
    names.extend(program.choices.iter().map(|t| t.name.as_str()));
    names.extend(program.records.iter().map(|t| t.name.as_str()));
    let mut diags = Diagnostics::default();
    let span = Span::new(0, 0, 0);
    diags.push(
        Diagnostic::error(
            "E0306",
            span,
            format!("`{}` defines nothing named `{name}`", program.name),
        )
        .label("here")
        .help(suggest(name, &names, "definitions")),
    );
    Err((diags, sources))
}
