//! `types:` (record fields, their types and defaults) and `records:` (instances).

use super::value::value_of;
use super::{check_keys, entries, lookup, names_a_record, text_origin, wrong};
use crate::check::{is_ident, Checker, DefKind, Entry};
use crate::diag::{suggest, Diagnostic};
use crate::ir::Ty;
use crate::syntax::ast;
use crate::yaml::{YNode, YValue};
use crate::{ir, syntax};

/// A field's declared type: `type-string` or `{type, default, doc}`.
pub(super) fn field_type_node<'y>(c: &mut Checker, v: &'y YNode) -> Option<&'y YNode> {
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

/// The type written at `node` (a field's, a table's key or value): anything but text (a
/// list, a mapping, nothing at all) is reported here.
pub fn parse_type_node(c: &mut Checker, node: &YNode) -> Option<ast::TypeExpr> {
    parse_type_node_as(c, node, "a type (such as `int` or `map<Skill, int>`)")
}

/// [`parse_type_node`] where `expected` says what text belongs there (a table's key is
/// "a key type (`int`, a scale or an enum)").
pub fn parse_type_node_as(c: &mut Checker, node: &YNode, expected: &str) -> Option<ast::TypeExpr> {
    let Some(text) = node.scalar_text() else {
        wrong(c, node, expected);
        return None;
    };
    let origin = text_origin(c, node, &text);
    syntax::parse_type(&text, origin, c.diags)
}

pub(super) fn build_record_fields(c: &mut Checker, e: &Entry) {
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
        let (ty, range) = c.resolve_field_type(&texpr);
        let doc = v.get("doc").and_then(|d| d.as_str()).map(str::to_string);
        let key = crate::check::index::Key::Field(name.to_string(), fname.clone());
        c.index.define(
            key.clone(),
            crate::check::index::SymbolKind::Field,
            Some(name),
            k.span,
        );
        if let Some(doc) = &doc {
            c.index.doc(&key, doc);
        }
        fields.push(ir::Field {
            name: fname,
            ty,
            range,
            default: None,
            doc,
            span: k.span,
        });
    }
    c.prog.records[id].fields = fields;
}

/// Reads the `default:` of every field of a record type: with `records` false those
/// that do not name a record, with `records` true those that do.
pub(super) fn build_record_defaults(c: &mut Checker, e: &Entry, records: bool) {
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
        match value_of(c, d, &field.ty, field.range) {
            Some(value) => {
                c.prog.records[id].fields[i].default = Some(value);
                c.zeros.clear();
            }
            None => {
                c.broken_defaults.insert((id, i));
            }
        }
    }
}

pub(super) fn build_instances(c: &mut Checker, e: &Entry) {
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
    c.used_at(&tname, e.key.span);
    for (k, v) in entries(c, e.value, "a mapping of records by name") {
        let Some(iname) = k.as_str().map(str::to_string) else {
            wrong(c, k, "a record name");
            continue;
        };
        if !crate::check::is_record_name(&iname) {
            c.error(
                "E0302",
                k.span,
                format!("{:?} is not a valid record name", iname),
                "not a name",
                crate::check::RECORD_NAME_HELP,
            );
            continue;
        }
        if let Some(prev) = c.instance_named(&iname) {
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
        c.index.define(
            crate::check::index::Key::Record(iname.clone()),
            crate::check::index::SymbolKind::Record,
            Some(&tname),
            k.span,
        );
        if let Some(value) = value_of(c, v, &Ty::Record(rid), None) {
            c.add_instance(iname, rid, value, k.span);
        }
    }
}

/// Once every record type is built: each map field keyed by a record holds a record type
/// whose fields are all keys (a record declared below the map's could not be judged when
/// the map's type was read), else `E0311` at the field.
pub fn check_map_keys(c: &mut Checker) {
    fn bad_key(p: &ir::Program, ty: &Ty) -> Option<Ty> {
        match ty {
            Ty::SortedMap(k, _) if !p.is_key(k) => Some((**k).clone()),
            Ty::SortedMap(_, v) | Ty::Map(_, v) | Ty::List(v) | Ty::Option(v) => bad_key(p, v),
            _ => None,
        }
    }
    let mut found = Vec::new();
    for r in &c.prog.records {
        for f in &r.fields {
            if let Some(k) = bad_key(&c.prog, &f.ty) {
                found.push((k, f.span));
            }
        }
    }
    for (k, span) in found {
        c.key_error(&k, span);
    }
}
