//! The YAML side of checking: sections, then each kind of definition.

use super::{is_ident, Checker, DefKind, Entry};
use crate::diag::{suggest, Diagnostic};
use crate::ir::{self, Const, Ty};
use crate::source::Span;
use crate::syntax::{self, ast, Origin};
use crate::yaml::{YNode, YValue};
use rulesc_runtime::track::MAX_BOXES;
use rulesc_runtime::Track;

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
        "see docs/language.md for the form of this section",
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

fn build_choice(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Choice(id)) = lookup(c, name) else {
        return;
    };
    let Some(items) = e.value.as_seq() else {
        wrong(c, e.value, "a list of levels or variants");
        return;
    };
    if items.is_empty() {
        c.error(
            "E0304",
            e.value.span,
            format!("`{name}` has no levels or variants"),
            "empty",
            "list at least one",
        );
    }
    let mut variants: Vec<ir::Variant> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    for item in items {
        let (vname, label, span) = match &item.value {
            YValue::Str(s) => (s.clone(), s.clone(), item.span),
            YValue::Map(m) if m.len() == 1 => {
                let (k, v) = &m[0];
                let Some(label) = v.as_str() else {
                    wrong(c, v, "a display label (text)");
                    continue;
                };
                (
                    k.scalar_text().unwrap_or_default(),
                    label.to_string(),
                    k.span,
                )
            }
            _ => {
                wrong(c, item, "a name, or `Name: \"Display label\"`");
                continue;
            }
        };
        if !is_ident(&vname) {
            c.error("E0302", span, format!("`{vname}` is not a valid name"), "not a name", "use letters, digits and `_`; put spaces and symbols in a label: `RightArm: \"Right Arm\"`");
            continue;
        }
        if let Some(i) = variants.iter().position(|v| v.name == vname) {
            let d = Diagnostic::error(
                "E0301",
                span,
                format!("`{vname}` is listed twice in `{name}`"),
            )
            .label("second time")
            .note(spans[i], "first time")
            .help("remove one of them");
            c.diags.push(d);
            continue;
        }
        if variants.len() >= u16::MAX as usize {
            break;
        }
        c.variants
            .entry(vname.clone())
            .or_default()
            .push((id, variants.len() as u16));
        variants.push(ir::Variant { name: vname, label });
        spans.push(span);
    }
    c.prog.choices[id].variants = variants;
}

/// A field's declared type: `type-string` or `{type, default, doc}`.
fn field_type_node<'y>(c: &mut Checker, v: &'y YNode) -> Option<&'y YNode> {
    match &v.value {
        YValue::Str(_) => Some(v),
        YValue::Map(_) => {
            check_keys(c, v, &["type", "default", "doc"], "a field");
            match v.get("type") {
                Some(t) => Some(t),
                None => {
                    c.error(
                        "E0106",
                        v.span,
                        "this field has no `type`",
                        "missing `type`",
                        "add `type: int` (or another type)",
                    );
                    None
                }
            }
        }
        _ => {
            wrong(c, v, "a type (such as `int` or `map<Skill, int>`)");
            None
        }
    }
}

pub fn parse_type_node(c: &mut Checker, node: &YNode) -> Option<ast::TypeExpr> {
    let text = node.scalar_text()?;
    let origin = text_origin(c, node, &text);
    syntax::parse_type(&text, origin, c.diags)
}

fn build_record_fields(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Record(id)) = lookup(c, name) else {
        return;
    };
    let mut fields: Vec<ir::Field> = Vec::new();
    for (k, v) in entries(c, e.value, "a mapping of fields to types") {
        let fname = k.scalar_text().unwrap_or_default();
        if !is_ident(&fname) {
            c.error(
                "E0302",
                k.span,
                format!("`{fname}` is not a valid field name"),
                "not a name",
                "use letters, digits and `_`",
            );
            continue;
        }
        if fields.iter().any(|f| f.name == fname) {
            continue; // YAML already rejects duplicate keys.
        }
        let Some(tnode) = field_type_node(c, v) else {
            continue;
        };
        let Some(texpr) = parse_type_node(c, tnode) else {
            continue;
        };
        let (ty, range) = c.resolve_type(&texpr);
        let doc = v.get("doc").and_then(|d| d.as_str()).map(str::to_string);
        fields.push(ir::Field {
            name: fname,
            ty,
            range,
            default: None,
            doc,
        });
    }
    c.prog.records[id].fields = fields;
}

/// Reads the `default:` of every field of a record type: with `records` false those
/// that do not name a record, with `records` true those that do.
fn build_record_defaults(c: &mut Checker, e: &Entry, records: bool) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Record(id)) = lookup(c, name) else {
        return;
    };
    for (k, v) in entries(c, e.value, "a mapping of fields to types") {
        let Some(d) = v.get("default") else { continue };
        let fname = k.scalar_text().unwrap_or_default();
        let Some(i) = c.prog.records[id]
            .fields
            .iter()
            .position(|f| f.name == fname)
        else {
            continue;
        };
        let field = c.prog.records[id].fields[i].clone();
        if names_a_record(&field.ty, d) != records {
            continue;
        }
        if let Some(value) = value_of(c, d, &field.ty, field.range) {
            c.prog.records[id].fields[i].default = Some(value);
        }
    }
}

fn build_track(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Track(id)) = lookup(c, name) else {
        return;
    };
    check_keys(c, e.value, &["scale", "boxes", "when_full"], "a track");
    let scale = match e.value.get("scale").and_then(|s| s.as_str()) {
        Some(s) => match lookup(c, s) {
            Some(DefKind::Choice(ch)) if c.prog.choices[ch].ordered => {
                c.used(s);
                ch
            }
            _ => {
                let span = e.value.get("scale").map(|n| n.span).unwrap_or(e.value.span);
                let scales: Vec<&str> = c
                    .prog
                    .choices
                    .iter()
                    .filter(|ch| ch.ordered)
                    .map(|ch| ch.name.as_str())
                    .collect();
                let help = suggest(s, &scales, "scales");
                c.error(
                    "E0303",
                    span,
                    format!("unknown scale `{s}`"),
                    "not a scale",
                    help,
                );
                return;
            }
        },
        None => {
            c.error(
                "E0106",
                e.key.span,
                format!("track `{name}` has no `scale`"),
                "missing `scale`",
                "add `scale: DamageLevel` (the scale of the boxes' levels)",
            );
            return;
        }
    };
    let escalate = match e.value.get("when_full").map(|n| (n, n.as_str())) {
        None => false,
        Some((_, Some("escalate"))) => true,
        Some((_, Some("stop"))) => false,
        Some((n, _)) => {
            c.error(
                "E0102",
                n.span,
                "`when_full` is `escalate` or `stop`",
                "unknown",
                "write `when_full: escalate` or `when_full: stop`",
            );
            false
        }
    };
    let mut attrs: Vec<String> = Vec::new();
    let mut boxes = Vec::new();
    let Some(list) = e.value.get("boxes").and_then(|b| b.as_seq()) else {
        c.error(
            "E0106",
            e.key.span,
            format!("track `{name}` has no list of `boxes`"),
            "missing `boxes`",
            "add `boxes: [{ level: Minor, pain: 1 }, ...]`",
        );
        return;
    };
    if list.len() > MAX_BOXES {
        c.error(
            "E0305",
            e.value.span,
            format!("{} boxes in one track", list.len()),
            "too many",
            format!("a track has at most {MAX_BOXES} boxes"),
        );
        return;
    }
    for (n, b) in list.iter().enumerate() {
        let Some(map) = b.as_map() else {
            wrong(c, b, "a box `{ level: ..., <attribute>: <number> }`");
            continue;
        };
        let mut level = None;
        let mut values: Vec<(String, i64, Span)> = Vec::new();
        for (k, v) in map {
            let key = k.scalar_text().unwrap_or_default();
            if key == "level" {
                level = value_of(c, v, &Ty::Choice(scale), None).and_then(|x| match x {
                    Const::Choice(i) => Some(i),
                    _ => None,
                });
            } else if let Some(Const::Int(i)) = value_of(c, v, &Ty::Int, None) {
                values.push((key, i, k.span));
            }
        }
        if n == 0 {
            attrs = values.iter().map(|(k, _, _)| k.clone()).collect();
        }
        let mut row = vec![0; attrs.len()];
        for (k, v, span) in values {
            match attrs.iter().position(|a| *a == k) {
                Some(i) => row[i] = v,
                None => {
                    let cands: Vec<&str> = attrs.iter().map(String::as_str).collect();
                    let help = suggest(&k, &cands, "attributes of the first box");
                    c.error(
                        "E0103",
                        span,
                        format!(
                            "box {} has an attribute `{k}` the first box does not",
                            n + 1
                        ),
                        "unknown attribute",
                        help,
                    );
                }
            }
        }
        match level {
            Some(l) => boxes.push(ir::TrackBoxDef {
                level: l,
                attrs: row,
            }),
            None if b.get("level").is_none() => c.error(
                "E0106",
                b.span,
                format!("box {} has no `level`", n + 1),
                "missing `level`",
                "give every box a level of the track's scale",
            ),
            None => {}
        }
    }
    let t = &mut c.prog.tracks[id];
    t.scale = scale;
    t.attrs = attrs;
    t.boxes = boxes;
    t.escalate = escalate;
}

/// Fills in outcome tags from the DSL items (called by the expression checker, which
/// has the syntax).
pub fn build_outcome_tags(c: &mut Checker, items: &[(usize, Vec<ast::TagDef>)]) {
    for (id, tags) in items {
        let mut out = Vec::new();
        for t in tags {
            if out.iter().any(|x: &ir::Tag| x.name == t.name.name) {
                c.error(
                    "E0301",
                    t.name.span,
                    format!("tag `{}` is listed twice", t.name.name),
                    "second time",
                    "remove one of them",
                );
                continue;
            }
            let mut fields = Vec::new();
            for f in &t.fields {
                let (ty, _) = c.resolve_type(&f.ty);
                fields.push((f.name.name.clone(), ty));
            }
            c.tags
                .entry(t.name.name.clone())
                .or_default()
                .push((*id, out.len() as u16));
            out.push(ir::Tag {
                name: t.name.name.clone(),
                fields,
            });
        }
        c.prog.outcomes[*id].tags = out;
    }
}

fn build_constant(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Constant(id)) = lookup(c, name) else {
        return;
    };
    let v = e.value;
    let (ty, value) = match &v.value {
        YValue::Int(i) => (Ty::Int, Const::Int(*i)),
        YValue::Bool(b) => (Ty::Bool, Const::Bool(*b)),
        YValue::BigInt(_) => {
            value_of(c, v, &Ty::Int, None);
            c.used(name);
            return;
        }
        YValue::Str(s) => {
            if let Some(d) = syntax::parse_dice_text(s, v.span, c.diags) {
                (Ty::Dice, Const::Dice(d))
            } else {
                match c.variants.get(s.as_str()).map(|v| v.as_slice()) {
                    Some([(ch, i)]) => (Ty::Choice(*ch), Const::Choice(*i)),
                    _ => {
                        let cands: Vec<&str> = c.variants.keys().map(String::as_str).collect();
                        let help = suggest(s, &cands, "levels and variants");
                        c.error(
                            "E0306",
                            v.span,
                            format!("`{s}` is not a level or variant"),
                            "unknown value",
                            help,
                        );
                        return;
                    }
                }
            }
        }
        _ => {
            wrong(
                c,
                v,
                "a number, `true`/`false`, a level or variant name, or dice",
            );
            // Reported once: not also as unused.
            c.used(name);
            return;
        }
    };
    c.prog.constants[id].ty = ty;
    c.prog.constants[id].value = value;
}

fn parse_range(text: &str) -> Option<(i64, i64)> {
    let t = text.trim();
    if let Ok(v) = t.parse::<i64>() {
        return Some((v, v));
    }
    let (a, b) = if let Some((a, b)) = t.split_once("..") {
        (a.trim(), b.trim())
    } else {
        // "3-5" (but not a lone negative number, handled above); "-3--1" splits at the
        // dash after the first number.
        let start = usize::from(t.starts_with('-'));
        let dash = t[start..].find('-')? + start;
        (t[..dash].trim(), t[dash + 1..].trim())
    };
    let lo = if a.is_empty() {
        i64::MIN
    } else {
        a.parse().ok()?
    };
    let hi = if b.is_empty() {
        i64::MAX
    } else {
        b.parse().ok()?
    };
    Some((lo, hi))
}

fn build_table(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str().map(str::to_string) else {
        return;
    };
    let Some(DefKind::Table(id)) = lookup(c, &name) else {
        return;
    };
    check_keys(
        c,
        e.value,
        &["die", "key", "value", "rows", "default", "doc"],
        "a table",
    );
    if e.value.as_map().is_none() {
        wrong(c, e.value, "a table (`die:` or `key:`, `value:`, `rows:`)");
        return;
    }
    let key = match (e.value.get("die"), e.value.get("key")) {
        (Some(d), None) => {
            let Some(spec) = d
                .scalar_text()
                .and_then(|t| syntax::parse_dice_text(&t, d.span, c.diags))
            else {
                wrong(c, d, "dice such as `d12` or `2d6`");
                return;
            };
            if spec.explode || spec.keep != rulesc_runtime::Keep::All {
                c.error(
                    "E0307",
                    d.span,
                    "a table's die cannot explode or keep dice",
                    "here",
                    "use plain dice such as `d12` or `2d6`",
                );
                return;
            }
            ir::TableKey::Die(spec)
        }
        (None, Some(k)) => {
            let Some(texpr) = parse_type_node(c, k) else {
                return;
            };
            match c.resolve_type(&texpr).0 {
                Ty::Int => ir::TableKey::Int,
                Ty::Choice(ch) => ir::TableKey::Choice(ch),
                Ty::Error => return,
                other => {
                    let n = c.ty_name(&other);
                    c.error(
                        "E0307",
                        k.span,
                        format!("a table cannot be keyed by {n}"),
                        "here",
                        "key a table by `int`, a scale or an enum, or give it a `die`",
                    );
                    return;
                }
            }
        }
        (Some(d), Some(_)) => {
            c.error(
                "E0307",
                d.span,
                format!("table `{name}` has both `die` and `key`"),
                "here",
                "a die table is keyed by its faces: remove `key`",
            );
            return;
        }
        (None, None) => {
            c.error(
                "E0106",
                e.key.span,
                format!("table `{name}` has neither `die` nor `key`"),
                "here",
                "add `die: d12` (rolled) or `key: int` / `key: SomeEnum` (looked up)",
            );
            return;
        }
    };
    let value_ty = match e.value.get("value") {
        Some(v) => match parse_type_node(c, v) {
            Some(t) => c.resolve_type(&t).0,
            None => return,
        },
        None => {
            c.error(
                "E0106",
                e.key.span,
                format!("table `{name}` has no `value` type"),
                "here",
                "add `value: int` (or a scale, enum or record type)",
            );
            return;
        }
    };
    if value_ty == Ty::Error {
        return;
    }
    let default = e
        .value
        .get("default")
        .and_then(|d| value_of(c, d, &value_ty, None));
    let mut rows: Vec<(ir::Row, Span)> = Vec::new();
    let Some(row_nodes) = e.value.get("rows") else {
        c.error(
            "E0106",
            e.key.span,
            format!("table `{name}` has no `rows`"),
            "here",
            "add `rows:` mapping keys to values",
        );
        return;
    };
    for (k, v) in entries(c, row_nodes, "a mapping of keys to values") {
        let Some(text) = k.scalar_text() else {
            wrong(c, k, "a key");
            continue;
        };
        let range = match &key {
            ir::TableKey::Choice(ch) => {
                let ch = *ch;
                match c.prog.choices[ch]
                    .variants
                    .iter()
                    .position(|v| v.name == text)
                {
                    Some(i) => Some((i as i64, i as i64)),
                    None => {
                        let cands: Vec<&str> = c.prog.choices[ch]
                            .variants
                            .iter()
                            .map(|v| v.name.as_str())
                            .collect();
                        let help = suggest(&text, &cands, "variants");
                        let cname = c.prog.choices[ch].name.clone();
                        c.error(
                            "E0306",
                            k.span,
                            format!("`{text}` is not a variant of `{cname}`"),
                            "unknown key",
                            help,
                        );
                        continue;
                    }
                }
            }
            _ => parse_range(&text),
        };
        let Some((lo, hi)) = range else {
            c.error(
                "E0308",
                k.span,
                format!("`{text}` is not a face, number or range"),
                "not a key",
                "write a number (`7`), a range (`3-5`, `3..5`), or an open range (`..0`, `19..`)",
            );
            continue;
        };
        if lo > hi {
            c.error(
                "E0308",
                k.span,
                format!("the range `{text}` is empty"),
                "empty range",
                "write the lower bound first",
            );
            continue;
        }
        if let Some(value) = value_of(c, v, &value_ty, None) {
            rows.push((ir::Row { lo, hi, value }, k.span));
        }
    }
    rows.sort_by_key(|(r, _)| (r.lo, r.hi));
    // Overlaps: each row against the previous one.
    for w in rows.windows(2) {
        let (a, sa) = &w[0];
        let (b, sb) = &w[1];
        if b.lo <= a.hi {
            let lo = b.lo;
            let hi = a.hi.min(b.hi);
            let what = if lo == hi {
                format!("{lo} is")
            } else {
                format!("{lo} to {hi} are")
            };
            let d = Diagnostic::error(
                "E0309",
                *sb,
                format!("table `{name}` overlaps: {what} given twice"),
            )
            .label("this row")
            .note(*sa, "overlaps this row")
            .help("give every key to exactly one row");
            c.diags.push(d);
        }
    }
    // Coverage.
    let (lo, hi, what) = match &key {
        ir::TableKey::Die(d) => {
            let (lo, hi) = d.range();
            (lo, hi, format!("faces of {d}"))
        }
        ir::TableKey::Choice(ch) => (
            0,
            c.prog.choices[*ch].variants.len() as i64 - 1,
            "variants".into(),
        ),
        ir::TableKey::Int => (i64::MIN, i64::MAX, "integers".into()),
    };
    if default.is_none() || matches!(key, ir::TableKey::Die(_)) {
        let mut gaps: Vec<(i64, i64)> = Vec::new();
        let mut next = lo;
        let mut done = false;
        for (r, _) in &rows {
            if done {
                break;
            }
            if r.lo > next {
                gaps.push((next, (r.lo - 1).min(hi)));
            }
            if r.hi >= hi {
                done = true;
            } else {
                next = next.max(r.hi + 1);
            }
        }
        if !done && next <= hi {
            gaps.push((next, hi));
        }
        let gaps: Vec<(i64, i64)> = gaps
            .into_iter()
            .filter(|(a, b)| a <= b && *b >= lo && *a <= hi)
            .collect();
        if !gaps.is_empty() {
            let describe = |(a, b): (i64, i64)| -> String {
                let show = |x: i64| match (&key, x) {
                    (ir::TableKey::Choice(ch), i) => c.prog.choices[*ch]
                        .variants
                        .get(i as usize)
                        .map(|v| v.name.clone())
                        .unwrap_or_default(),
                    (_, i64::MIN) => "..".into(),
                    (_, i64::MAX) => "..".into(),
                    (_, x) => x.to_string(),
                };
                if a == b {
                    show(a)
                } else {
                    format!("{}-{}", show(a), show(b))
                }
            };
            let list: Vec<String> = gaps.iter().map(|g| describe(*g)).collect();
            let help = match key {
                ir::TableKey::Int => "cover every integer (use open ranges such as `..0` and `19..`) or add a `default`".to_string(),
                _ => format!("every one of the {what} needs exactly one row"),
            };
            let span = row_nodes.span;
            c.error(
                "E0310",
                e.key.span.to(e.key.span),
                format!("table `{name}` has a gap: no row for {}", list.join(", ")),
                format!("missing {}", list.join(", ")),
                help,
            );
            let _ = span;
        }
    }
    // Rows outside the die's faces can never be rolled.
    if let ir::TableKey::Die(d) = &key {
        for (r, s) in &rows {
            if r.hi > hi || r.lo < lo {
                c.error(
                    "E0309",
                    *s,
                    format!("`{}` is not a face of {d}", show_range(r.lo, r.hi)),
                    "cannot be rolled",
                    format!("{d} shows {lo} to {hi}"),
                );
            }
        }
    }
    let t = &mut c.prog.tables[id];
    t.key = key;
    t.value = value_ty;
    t.rows = rows.into_iter().map(|(r, _)| r).collect();
    t.default = default;
}

fn build_instances(c: &mut Checker, e: &Entry) {
    let Some(tname) = e.key.as_str().map(str::to_string) else {
        return;
    };
    let rid = match lookup(c, &tname) {
        Some(DefKind::Record(r)) => r,
        _ => {
            let cands: Vec<&str> = c.prog.records.iter().map(|r| r.name.as_str()).collect();
            let help = suggest(&tname, &cands, "record types");
            c.error(
                "E0303",
                e.key.span,
                format!("unknown record type `{tname}`"),
                "not a record type",
                help,
            );
            return;
        }
    };
    c.used(&tname);
    for (k, v) in entries(c, e.value, "a mapping of records by name") {
        let Some(iname) = k.as_str().map(str::to_string) else {
            wrong(c, k, "a record name");
            continue;
        };
        if !super::is_record_name(&iname) {
            c.error(
                "E0302",
                k.span,
                format!("{:?} is not a valid record name", iname),
                "not a name",
                super::RECORD_NAME_HELP,
            );
            continue;
        }
        if let Some(prev) = c.prog.instances.iter().find(|i| i.name == iname) {
            let d = Diagnostic::error(
                "E0301",
                k.span,
                format!("record `{iname}` is defined twice"),
            )
            .label("second definition")
            .note(prev.span, "first defined here")
            .help("rename one of them");
            c.diags.push(d);
            continue;
        }
        if let Some(value) = value_of(c, v, &Ty::Record(rid), None) {
            c.prog.instances.push(ir::Instance {
                name: iname,
                record: rid,
                value,
                span: k.span,
            });
        }
    }
}

/// Reads a YAML value as a constant of type `ty`; every problem is a diagnostic.
pub fn value_of(
    c: &mut Checker,
    node: &YNode,
    ty: &Ty,
    range: Option<(i64, i64)>,
) -> Option<Const> {
    match ty {
        Ty::Error => None,
        Ty::Int => match &node.value {
            YValue::Int(i) => {
                if let Some((lo, hi)) = range {
                    if !(lo..=hi).contains(i) {
                        c.error(
                            "E0312",
                            node.span,
                            format!("{i} is outside {lo}..{hi}"),
                            format!("expected {lo} to {hi}"),
                            "this field's type limits its values",
                        );
                        return None;
                    }
                }
                Some(Const::Int(*i))
            }
            YValue::BigInt(s) => {
                c.error(
                    "E0204",
                    node.span,
                    format!("the number {s} is too large"),
                    "too large",
                    "numbers must fit in 64 bits",
                );
                None
            }
            YValue::Str(s) => match c.names.get(s.as_str()).map(|d| d.kind) {
                Some(DefKind::Constant(k)) if c.prog.constants[k].ty == Ty::Int => {
                    c.used(s);
                    Some(c.prog.constants[k].value.clone())
                }
                _ => {
                    wrong(c, node, "an integer");
                    None
                }
            },
            _ => {
                wrong(c, node, "an integer");
                None
            }
        },
        Ty::Bool => match &node.value {
            YValue::Bool(b) => Some(Const::Bool(*b)),
            _ => {
                wrong(c, node, "`true` or `false`");
                None
            }
        },
        Ty::Dice => match node.scalar_text() {
            Some(t) => match syntax::parse_dice_text(&t, node.span, c.diags) {
                Some(d) => Some(Const::Dice(d)),
                None => {
                    wrong(c, node, "dice such as `2d10`");
                    None
                }
            },
            None => {
                wrong(c, node, "dice such as `2d10`");
                None
            }
        },
        Ty::Choice(ch) => {
            let ch = *ch;
            let Some(s) = node.scalar_text() else {
                let n = c.prog.choices[ch].name.clone();
                wrong(c, node, &format!("a {n}"));
                return None;
            };
            match c.prog.choices[ch].variants.iter().position(|v| v.name == s) {
                Some(i) => Some(Const::Choice(i as u16)),
                None => {
                    let cands: Vec<&str> = c.prog.choices[ch]
                        .variants
                        .iter()
                        .map(|v| v.name.as_str())
                        .collect();
                    let help = suggest(&s, &cands, "values");
                    let n = c.prog.choices[ch].name.clone();
                    c.error(
                        "E0306",
                        node.span,
                        format!("`{s}` is not a {n}"),
                        format!("not a {n}"),
                        help,
                    );
                    None
                }
            }
        }
        Ty::Track(t) => {
            let t = *t;
            let Some(items) = node.as_seq() else {
                wrong(c, node, "a list of filled box numbers");
                return None;
            };
            let n = c.prog.tracks[t].boxes.len() as i64;
            let mut filled = Vec::new();
            for i in items {
                match &i.value {
                    YValue::Int(b) if (1..=n).contains(b) => filled.push(*b),
                    _ => c.error(
                        "E0312",
                        i.span,
                        format!("not a box number of `{}`", c.prog.tracks[t].name),
                        format!("expected 1 to {n}"),
                        "list the numbers of the filled boxes",
                    ),
                }
            }
            Some(Const::Track(Track::with_filled(&filled)))
        }
        Ty::List(inner) => {
            let Some(items) = node.as_seq() else {
                wrong(c, node, "a list");
                return None;
            };
            let mut out = Vec::new();
            for i in items {
                out.push(value_of(c, i, inner, None)?);
            }
            Some(Const::List(out))
        }
        Ty::Map(k, v) => {
            let k = *k;
            let mut out = vec![c.prog.zero(v); c.prog.choices[k].variants.len()];
            for (key, val) in entries(c, node, "a mapping") {
                let Some(Const::Choice(i)) = value_of(c, key, &Ty::Choice(k), None) else {
                    continue;
                };
                if let Some(x) = value_of(c, val, v, None) {
                    out[i as usize] = x;
                }
            }
            Some(Const::Map(out))
        }
        Ty::Record(r) => {
            let r = *r;
            if let Some(name) = node.as_str() {
                return match c
                    .prog
                    .instances
                    .iter()
                    .find(|i| i.name == name && i.record == r)
                {
                    Some(i) => Some(i.value.clone()),
                    None => {
                        let cands: Vec<&str> = c
                            .prog
                            .instances
                            .iter()
                            .filter(|i| i.record == r)
                            .map(|i| i.name.as_str())
                            .collect();
                        let help = suggest(name, &cands, "records of this type");
                        let tn = c.prog.records[r].name.clone();
                        c.error(
                            "E0306",
                            node.span,
                            format!("no {tn} record is named `{name}`"),
                            "unknown record",
                            help,
                        );
                        None
                    }
                };
            }
            let Some(map) = node.as_map() else {
                let tn = c.prog.records[r].name.clone();
                wrong(
                    c,
                    node,
                    &format!("a {tn} (a mapping of fields, or a record name)"),
                );
                return None;
            };
            let fields = c.prog.records[r].fields.clone();
            let mut values: Vec<Option<Const>> = vec![None; fields.len()];
            let mut ok = true;
            for (k, v) in map {
                let key = k.scalar_text().unwrap_or_default();
                match fields.iter().position(|f| f.name == key) {
                    Some(i) => {
                        values[i] = value_of(c, v, &fields[i].ty, fields[i].range);
                        ok &= values[i].is_some();
                    }
                    None => {
                        let cands: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                        let help = suggest(&key, &cands, "fields");
                        let tn = c.prog.records[r].name.clone();
                        c.error(
                            "E0103",
                            k.span,
                            format!("`{tn}` has no field `{key}`"),
                            "unknown field",
                            help,
                        );
                        ok = false;
                    }
                }
            }
            let mut out = Vec::new();
            let mut missing = Vec::new();
            for (i, f) in fields.iter().enumerate() {
                match values[i].take().or_else(|| f.default.clone()) {
                    Some(v) => out.push(v),
                    None if matches!(f.ty, Ty::Track(_) | Ty::List(_) | Ty::Map(..)) => {
                        out.push(c.prog.zero(&f.ty))
                    }
                    None => {
                        missing.push(f.name.clone());
                        out.push(c.prog.zero(&f.ty));
                    }
                }
            }
            if !missing.is_empty() && ok {
                let tn = c.prog.records[r].name.clone();
                let list: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
                c.error(
                    "E0106",
                    node.span,
                    format!("this {tn} is missing {}", list.join(", ")),
                    "missing fields",
                    format!(
                        "add {} (or give the field a `default` in `types:`)",
                        list.join(", ")
                    ),
                );
                ok = false;
            }
            ok.then_some(Const::Record(out))
        }
        Ty::Outcome(_) | Ty::TrackBox(_) | Ty::Roll | Ty::Unit => {
            wrong(c, node, "a value that can be written in YAML");
            None
        }
    }
}

/// A table key range as a writer wrote it: `7`, `3-5`, `..0`, `19..`.
fn show_range(lo: i64, hi: i64) -> String {
    match (lo, hi) {
        (i64::MIN, i64::MAX) => "..".to_string(),
        (i64::MIN, h) => format!("..{h}"),
        (l, i64::MAX) => format!("{l}.."),
        (l, h) if l == h => l.to_string(),
        (l, h) => format!("{l}-{h}"),
    }
}
