//! The YAML side of checking: sections, then each kind of definition.

mod choice;
mod record;
mod shape;
mod table;
mod track;
mod value;

use self::choice::build_choice;
pub use self::choice::build_outcome_tags;
pub use self::choice::SCALE_KEYS;
pub use self::record::check_map_keys;
use self::record::{build_instances, build_record_defaults, build_record_fields};
use self::shape::check_shapes;
use self::table::build_table;
use self::track::build_track;
use self::value::build_constant;
pub use self::value::{record_of, value_of};
use super::{is_ident, Checker, DefKind, Entry};
use crate::diag::suggest;
use crate::ir::{Const, Ty};
use crate::source::Span;
use crate::syntax::{ast, Origin};
use crate::yaml::{YNode, YValue};
use crate::{ir, syntax};

pub const SECTIONS: &[&str] = &[
    "ruleset",
    "scales",
    "enums",
    "constants",
    "types",
    "tracks",
    "tables",
    "records",
    "formulas",
];

/// The entries of every section, across all YAML files, in file order.
#[derive(Default)]
pub struct Sections<'y> {
    pub ruleset: Vec<Entry<'y>>,
    pub scales: Vec<Entry<'y>>,
    pub enums: Vec<Entry<'y>>,
    pub constants: Vec<Entry<'y>>,
    pub types: Vec<Entry<'y>>,
    pub tracks: Vec<Entry<'y>>,
    pub tables: Vec<Entry<'y>>,
    pub records: Vec<Entry<'y>>,
    pub formulas: Vec<Entry<'y>>,
}

/// Reports a node of the wrong kind.
pub fn wrong(c: &mut Checker, node: &YNode, expected: &str) {
    c.error(
        "E0102",
        node.span,
        format!("expected {expected}, found {}", node.kind()),
        format!("expected {expected}"),
        "see the form of each section in docs/reference.md#rulesets-and-files",
    );
}

/// `E0102` for a value of the wrong kind for its type `ty`: named with the type (and
/// the record field it is for), the help pointing at how each type is written.
pub fn wrong_value(c: &mut Checker, node: &YNode, ty: &Ty, field: Option<&str>, expected: &str) {
    let tn = c.ty_name(ty);
    let message = match field {
        Some(f) => format!(
            "`{f}` is declared `{tn}`: expected {expected}, found {}",
            node.kind()
        ),
        None => format!("expected {expected} (type `{tn}`), found {}", node.kind()),
    };
    c.error(
        "E0102",
        node.span,
        message,
        format!("expected {expected}"),
        format!("see how `{tn}` values are written in docs/reference.md#values-in-yaml"),
    );
}

/// The entries of a mapping node, or a diagnostic.
fn entries<'y>(c: &mut Checker, node: &'y YNode, what: &str) -> Vec<(&'y YNode, &'y YNode)> {
    match &node.value {
        YValue::Map(m) => m.iter().map(|(k, v)| (k, v)).collect(),
        YValue::Null => Vec::new(),
        _ => {
            wrong(c, node, what);
            Vec::new()
        }
    }
}

/// Checks a mapping's keys against the allowed ones (unknown key: "did you mean").
fn check_keys(c: &mut Checker, node: &YNode, allowed: &[&str], what: &str) {
    for (k, _) in node.as_map().unwrap_or(&[]) {
        let key = k.scalar_text().unwrap_or_default();
        if !allowed.contains(&key.as_str()) {
            let help = suggest(&key, allowed, "keys");
            c.error(
                "E0103",
                k.span,
                format!("unknown key `{key}` in {what}"),
                "unknown key",
                help,
            );
        }
    }
}

pub fn split_sections<'y>(
    c: &mut Checker,
    files: &'y [YNode],
    manifest: Option<Span>,
) -> Sections<'y> {
    let mut s = Sections::default();
    for root in files {
        let is_manifest = manifest.is_some_and(|m| m.file == root.span.file);
        for (k, v) in entries(c, root, "a mapping of sections (`scales:`, `tables:`, ...)") {
            let key = k.scalar_text().unwrap_or_default();
            let list = match key.as_str() {
                "ruleset" if is_manifest => &mut s.ruleset,
                "ruleset" => {
                    c.error(
                        "E0103",
                        k.span,
                        "`ruleset:` belongs in ruleset.yaml",
                        "not the manifest",
                        "move the manifest to ruleset.yaml",
                    );
                    continue;
                }
                "scales" => &mut s.scales,
                "enums" => &mut s.enums,
                "constants" => &mut s.constants,
                "types" => &mut s.types,
                "tracks" => &mut s.tracks,
                "tables" => &mut s.tables,
                "records" => &mut s.records,
                "formulas" => &mut s.formulas,
                _ => {
                    let help = suggest(&key, SECTIONS, "sections");
                    c.error(
                        "E0103",
                        k.span,
                        format!("unknown section `{key}`"),
                        "unknown section",
                        help,
                    );
                    continue;
                }
            };
            if key == "ruleset" {
                list.push(Entry { key: k, value: v });
                continue;
            }
            let section = key.clone();
            for (name, value) in entries(c, v, &format!("a mapping of {section} by name")) {
                list.push(Entry { key: name, value });
            }
        }
    }
    s
}

pub fn read_manifest(c: &mut Checker, s: &Sections) {
    let Some(entry) = s.ruleset.first() else {
        if let Some(first) = c
            .prog
            .sources
            .files
            .iter()
            .position(|f| f.name.ends_with("ruleset.yaml"))
        {
            let span = Span::new(first as u32, 0, 0);
            c.error(
                "E0004",
                span,
                "the manifest has no `ruleset:` section",
                "here",
                "add `ruleset: { name: my_ruleset }`",
            );
        }
        return;
    };
    let node = entry.value;
    check_keys(
        c,
        node,
        &["name", "title", "source", "description", "extends"],
        "the manifest",
    );
    match node.get("name").and_then(|n| n.as_str()) {
        Some(n) if is_ident(n) => c.prog.name = n.to_string(),
        Some(_) => {
            let span = node.get("name").map(|n| n.span).unwrap_or(node.span);
            c.error(
                "E0302",
                span,
                "the ruleset name is not a valid name",
                "not a name",
                "use letters, digits and `_` (it becomes a Rust module name)",
            );
        }
        None => c.error(
            "E0004",
            entry.key.span,
            "the manifest has no `name`",
            "here",
            "add `name: my_ruleset`",
        ),
    }
    if let Some(t) = node.get("title").and_then(|n| n.as_str()) {
        c.prog.title = t.to_string();
    }
}

/// A name key of a section entry.
fn name_of(c: &mut Checker, key: &YNode) -> String {
    match key.as_str() {
        Some(s) => s.to_string(),
        None => {
            wrong(c, key, "a name");
            String::new()
        }
    }
}

/// Registers every top-level name, so later definitions may refer to earlier and later
/// ones alike.
pub fn declare(c: &mut Checker, s: &Sections, items: &[ast::Item]) {
    for (entries, ordered) in [(&s.scales, true), (&s.enums, false)] {
        for e in entries.iter() {
            let name = name_of(c, e.key);
            let id = c.prog.choices.len();
            if c.define(&name, DefKind::Choice(id), e.key.span) {
                c.prog.choices.push(ir::Choice {
                    name,
                    ordered,
                    variants: Vec::new(),
                    span: e.key.span,
                });
            }
        }
    }
    for e in &s.types {
        let name = name_of(c, e.key);
        let id = c.prog.records.len();
        if c.define(&name, DefKind::Record(id), e.key.span) {
            c.prog.records.push(ir::RecordType {
                name,
                fields: Vec::new(),
                span: e.key.span,
            });
        }
    }
    for e in &s.tracks {
        let name = name_of(c, e.key);
        let id = c.prog.tracks.len();
        if c.define(&name, DefKind::Track(id), e.key.span) {
            c.prog.tracks.push(ir::TrackDef {
                name,
                scale: 0,
                attrs: Vec::new(),
                boxes: Vec::new(),
                escalate: false,
                span: e.key.span,
            });
        }
    }
    for e in &s.tables {
        let name = name_of(c, e.key);
        let id = c.prog.tables.len();
        if c.define(&name, DefKind::Table(id), e.key.span) {
            c.prog.tables.push(ir::Table {
                name,
                key: ir::TableKey::Int,
                value: Ty::Error,
                rows: Vec::new(),
                columns: None,
                default: None,
                span: e.key.span,
            });
        }
    }
    for e in &s.constants {
        let name = name_of(c, e.key);
        let id = c.prog.constants.len();
        if c.define(&name, DefKind::Constant(id), e.key.span) {
            c.prog.constants.push(ir::Constant {
                name,
                ty: Ty::Error,
                value: Const::Int(0),
                span: e.key.span,
            });
        }
    }
    for item in items {
        if let ast::Item::Outcome { name, span, .. } = item {
            let id = c.prog.outcomes.len();
            if c.define(&name.name, DefKind::Outcome(id), name.span) {
                c.prog.outcomes.push(ir::OutcomeType {
                    name: name.name.clone(),
                    tags: Vec::new(),
                    span: *span,
                });
            }
        }
    }
    // Inline YAML formulas become function items like those of `.rules` files.
    let mut functions: Vec<ast::Item> = items
        .iter()
        .filter(|i| matches!(i, ast::Item::Function { .. }))
        .cloned()
        .collect();
    for e in &s.formulas {
        if let Some(item) = inline_formula(c, e) {
            functions.push(item);
        }
    }
    for item in functions {
        let ast::Item::Function { name, span, .. } = &item else {
            continue;
        };
        let id = c.prog.functions.len();
        if c.define(&name.name, DefKind::Function(id), name.span) {
            c.prog.functions.push(ir::Function {
                name: name.name.clone(),
                params: Vec::new(),
                ret: Ty::Error,
                locals: Vec::new(),
                body: ir::Body::Formula(ir::Expr {
                    kind: ir::ExprKind::Const(Const::Int(0)),
                    ty: Ty::Int,
                    span: *span,
                }),
                site: 0,
                span: *span,
                fallible: false,
            });
            c.fn_syntax.push(item);
            c.fn_state.push(0);
        }
    }
}

/// Where the text of a YAML string scalar starts in its file, if the scalar is written
/// verbatim (plain, or quoted without escapes); spans inside it are then exact.
fn text_origin(c: &Checker, node: &YNode, text: &str) -> Origin {
    let file = node.span.file;
    let raw = c.prog.sources.slice(node.span);
    let fixed = Origin {
        file,
        base: node.span.start as usize,
        fixed: Some(node.span),
    };
    if raw.starts_with(text) {
        return Origin {
            fixed: None,
            ..fixed
        };
    }
    if (raw.starts_with('"') || raw.starts_with('\''))
        && raw.get(1..).is_some_and(|r| r.starts_with(text))
    {
        return Origin {
            base: node.span.start as usize + 1,
            fixed: None,
            ..fixed
        };
    }
    // The span may start at the quote but end early; look in the file itself.
    let file_text = &c.prog.sources.file(file).text;
    let start = node.span.start as usize;
    for skip in [0usize, 1] {
        if file_text
            .get(start + skip..)
            .is_some_and(|r| r.starts_with(text))
        {
            return Origin {
                base: start + skip,
                fixed: None,
                ..fixed
            };
        }
    }
    fixed
}

fn inline_formula(c: &mut Checker, e: &Entry) -> Option<ast::Item> {
    let sig_text = e.key.as_str()?.to_string();
    let sig_origin = text_origin(c, e.key, &sig_text);
    let (name, params, ret) = syntax::parse_signature(&sig_text, sig_origin, c.diags)?;
    let Some(body_text) = e.value.as_str().map(str::to_string) else {
        wrong(
            c,
            e.value,
            "a formula (text such as \"max(1, 5 + c.speed)\")",
        );
        return None;
    };
    let body_origin = text_origin(c, e.value, &body_text);
    let body = syntax::parse_expr(&body_text, body_origin, c.diags)?;
    let span = e.key.span.to(e.value.span);
    Some(ast::Item::Function {
        name,
        params,
        ret,
        body: ast::Body::Expr(body),
        span,
        overrides: false,
    })
}

/// Builds every definition's contents, now that all names are known.
pub fn build(c: &mut Checker, s: &Sections) {
    for e in s.scales.iter().chain(&s.enums) {
        build_choice(c, e);
    }
    for e in &s.types {
        build_record_fields(c, e);
    }
    check_shapes(c, &s.types);
    for e in &s.tracks {
        build_track(c, e);
    }
    // Records use their fields' defaults, and a default or a table value may name a
    // record: plain defaults, then records, then defaults and tables that name records.
    for e in &s.constants {
        build_constant(c, e);
    }
    for e in &s.types {
        build_record_defaults(c, e, false);
    }
    // Records whose type has a default naming a record wait for that default.
    let waiting: Vec<String> = s
        .types
        .iter()
        .filter(|e| names_records_in_defaults(c, e))
        .filter_map(|e| e.key.as_str().map(str::to_string))
        .collect();
    for e in s.records.iter().filter(|e| {
        !e.key
            .as_str()
            .is_some_and(|t| waiting.iter().any(|w| w == t))
    }) {
        build_instances(c, e);
    }
    for e in &s.types {
        build_record_defaults(c, e, true);
    }
    for e in s.records.iter().filter(|e| {
        e.key
            .as_str()
            .is_some_and(|t| waiting.iter().any(|w| w == t))
    }) {
        build_instances(c, e);
    }
    for e in &s.tables {
        build_table(c, e);
    }
}

/// Whether a default written as `node` for a field of type `ty` names a record (a
/// record name, or a list holding one), so it can be read only once records exist.
fn names_a_record(ty: &Ty, node: &YNode) -> bool {
    match (ty, &node.value) {
        (Ty::Record(_), YValue::Str(_)) => true,
        (Ty::List(t), YValue::Seq(items)) => items.iter().any(|i| names_a_record(t, i)),
        _ => false,
    }
}

/// Whether a record type has a field default that names a record.
fn names_records_in_defaults(c: &Checker, e: &Entry) -> bool {
    let Some(DefKind::Record(id)) = e.key.as_str().and_then(|n| lookup(c, n)) else {
        return false;
    };
    e.value.as_map().unwrap_or(&[]).iter().any(|(k, v)| {
        let name = k.scalar_text().unwrap_or_default();
        match (
            v.get("default"),
            c.prog.records[id].fields.iter().find(|f| f.name == name),
        ) {
            (Some(d), Some(f)) => names_a_record(&f.ty, d),
            _ => false,
        }
    })
}

fn lookup(c: &Checker, name: &str) -> Option<DefKind> {
    c.names.get(name).map(|d| d.kind)
}
