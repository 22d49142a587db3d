//! `rulesc export`: a checked ruleset's data as JSON, after `extends`, `override` and
//! content packs are merged, for virtual tabletops and other tools that want the data,
//! not the code (as Datasworn serves its games). Its shape is described by
//! `schemas/export.schema.json` ([`crate::schema`]).
//!
//! Values read as they do in the ruleset's YAML and in generated code with serde: a
//! scale or enum value by its name, dice in dice notation (`"d12!"`), a track as the list
//! of its filled boxes, a map as an object keyed by names, a record as an object of its
//! fields. Where order matters (levels, fields, boxes, rows, parameters) it is an array.

use crate::ir::{Body, Const, Program, TableKey, Ty};
use crate::source::Span;
use serde_json::{json, Map, Value};

/// The version of the export's shape; a change that breaks readers raises it.
pub const FORMAT_VERSION: u32 = 1;

/// The merged ruleset `p` as a JSON value.
pub fn export(p: &Program) -> Value {
    let mut scales = Map::new();
    let mut enums = Map::new();
    for c in &p.choices {
        let values: Vec<Value> = c
            .variants
            .iter()
            .map(|v| json!({ "name": v.name, "label": v.label }))
            .collect();
        let entry = json!({ "values": values, "defined_at": at(p, c.span) });
        if c.ordered {
            scales.insert(c.name.clone(), entry);
        } else {
            enums.insert(c.name.clone(), entry);
        }
    }

    let mut types = Map::new();
    for r in &p.records {
        let fields: Vec<Value> = r
            .fields
            .iter()
            .map(|f| {
                let mut o = Map::new();
                o.insert("name".into(), json!(f.name));
                o.insert("type".into(), json!(p.ty_name(&f.ty)));
                if let Some((lo, hi)) = f.range {
                    o.insert("range".into(), json!([lo, hi]));
                }
                if let Some(d) = &f.default {
                    o.insert("default".into(), value(p, d, &f.ty));
                }
                if let Some(doc) = &f.doc {
                    o.insert("doc".into(), json!(doc));
                }
                Value::Object(o)
            })
            .collect();
        types.insert(
            r.name.clone(),
            json!({ "fields": fields, "defined_at": at(p, r.span) }),
        );
    }

    let mut tracks = Map::new();
    for t in &p.tracks {
        let scale = &p.choices[t.scale];
        let boxes: Vec<Value> = t
            .boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let mut o = Map::new();
                o.insert("box".into(), json!(i + 1));
                let level = scale.variants.get(usize::from(b.level));
                o.insert("level".into(), json!(level.map(|v| v.name.as_str())));
                for (name, v) in t.attrs.iter().zip(&b.attrs) {
                    o.insert(name.clone(), json!(v));
                }
                Value::Object(o)
            })
            .collect();
        tracks.insert(
            t.name.clone(),
            json!({
                "scale": scale.name,
                "boxes": boxes,
                "when_full": if t.escalate { "escalate" } else { "stop" },
                "defined_at": at(p, t.span),
            }),
        );
    }

    let mut tables = Map::new();
    for t in &p.tables {
        let mut o = Map::new();
        match &t.key {
            TableKey::Die(d) => o.insert("die".into(), json!(d.to_string())),
            TableKey::Choice(c) => o.insert("key".into(), json!(p.choices[*c].name)),
            TableKey::Int => o.insert("key".into(), json!("int")),
        };
        o.insert("value".into(), json!(p.ty_name(&t.value)));
        // A grid's rows hold one value per column.
        let row_ty = match &t.columns {
            Some(cols) => {
                let name = match cols.key {
                    TableKey::Choice(c) => p.choices[c].name.as_str(),
                    _ => "int",
                };
                o.insert("column_key".into(), json!(name));
                let heads = cols
                    .heads
                    .iter()
                    .map(|&(lo, hi)| keys(p, &cols.key, lo, hi));
                o.insert(
                    "columns".into(),
                    Value::Array(heads.map(Value::Object).collect()),
                );
                Ty::List(Box::new(t.value.clone()))
            }
            None => t.value.clone(),
        };
        let rows: Vec<Value> = t
            .rows
            .iter()
            .map(|r| {
                let mut row = keys(p, &t.key, r.lo, r.hi);
                row.insert("value".into(), value(p, &r.value, &row_ty));
                Value::Object(row)
            })
            .collect();
        o.insert("rows".into(), Value::Array(rows));
        if let Some(d) = &t.default {
            o.insert("default".into(), value(p, d, &t.value));
        }
        o.insert("defined_at".into(), at(p, t.span));
        tables.insert(t.name.clone(), Value::Object(o));
    }

    let mut constants = Map::new();
    for k in &p.constants {
        constants.insert(
            k.name.clone(),
            json!({
                "type": p.ty_name(&k.ty),
                "value": value(p, &k.value, &k.ty),
                "defined_at": at(p, k.span),
            }),
        );
    }

    let mut records = Map::new();
    for r in &p.records {
        records.insert(r.name.clone(), Value::Object(Map::new()));
    }
    for i in &p.instances {
        let ty = Ty::Record(i.record);
        if let Some(Value::Object(by_name)) = records.get_mut(&p.records[i.record].name) {
            by_name.insert(i.name.clone(), value(p, &i.value, &ty));
        }
    }
    records.retain(|_, v| v.as_object().is_some_and(|o| !o.is_empty()));

    let mut outcomes = Map::new();
    for o in &p.outcomes {
        let tags: Vec<Value> = o
            .tags
            .iter()
            .map(|t| {
                let fields: Vec<Value> = t
                    .fields
                    .iter()
                    .map(|(n, ty)| json!({ "name": n, "type": p.ty_name(ty) }))
                    .collect();
                json!({ "name": t.name, "label": t.label, "fields": fields })
            })
            .collect();
        outcomes.insert(
            o.name.clone(),
            json!({ "tags": tags, "defined_at": at(p, o.span) }),
        );
    }

    let mut procedures = Map::new();
    let mut formulas = Map::new();
    for f in &p.functions {
        let params: Vec<Value> = f
            .params
            .iter()
            .map(|x| json!({ "name": x.name, "type": p.ty_name(&x.ty) }))
            .collect();
        let mut o = Map::new();
        o.insert("params".into(), Value::Array(params));
        if f.ret != Ty::Unit {
            o.insert("returns".into(), json!(p.ty_name(&f.ret)));
        }
        o.insert("defined_at".into(), at(p, f.span));
        match f.body {
            Body::Formula(_) => formulas.insert(f.name.clone(), Value::Object(o)),
            _ => procedures.insert(f.name.clone(), Value::Object(o)),
        };
    }

    json!({
        "format": "rulesc-export",
        "version": FORMAT_VERSION,
        "ruleset": { "name": p.name, "title": p.title },
        "scales": scales,
        "enums": enums,
        "types": types,
        "tracks": tracks,
        "tables": tables,
        "constants": constants,
        "records": records,
        "outcomes": outcomes,
        "formulas": formulas,
        "procedures": procedures,
    })
}

/// `file:line` of a definition.
fn at(p: &Program, span: Span) -> Value {
    let (file, line, _) = p.sources.position(span);
    json!(format!("{file}:{line}"))
}

/// A constant of type `ty` as JSON.
pub fn value(p: &Program, c: &Const, ty: &Ty) -> Value {
    match (c, ty) {
        (Const::Int(i), _) => json!(i),
        (Const::Bool(b), _) => json!(b),
        (Const::Dice(d), _) => json!(d.to_string()),
        (Const::Choice(i), Ty::Choice(ch)) => {
            json!(p.choices[*ch]
                .variants
                .get(usize::from(*i))
                .map(|v| v.name.as_str()))
        }
        (Const::Choice(i), Ty::Outcome(o)) => {
            json!(p.outcomes[*o]
                .tags
                .get(usize::from(*i))
                .map(|t| t.name.as_str()))
        }
        (Const::Choice(i), _) => json!(i),
        (Const::Track(t), _) => json!(t.boxes().collect::<Vec<_>>()),
        (Const::List(items), Ty::List(elem)) => {
            Value::Array(items.iter().map(|x| value(p, x, elem)).collect())
        }
        (Const::Map(items), Ty::Map(k, v)) => {
            let mut o = Map::new();
            for (variant, x) in p.choices[*k].variants.iter().zip(items) {
                o.insert(variant.name.clone(), value(p, x, v));
            }
            Value::Object(o)
        }
        // As serde writes it: `[{ "key": .., "value": .. }]`, ascending by key.
        (Const::SortedMap(entries, _), Ty::SortedMap(k, v)) => Value::Array(
            entries
                .iter()
                .map(|(key, x)| json!({ "key": value(p, key, k), "value": value(p, x, v) }))
                .collect(),
        ),
        (Const::Record(r), Ty::Record(id)) => {
            let mut o = Map::new();
            for (f, x) in p.records[*id].fields.iter().zip(&r.fields) {
                o.insert(f.name.clone(), value(p, x, &f.ty));
            }
            Value::Object(o)
        }
        // A shape the checker never pairs with this type.
        _ => Value::Null,
    }
}

/// A row's or column's keys: `key` (a variant) or `from`/`to` (an open end left out).
fn keys(p: &Program, key: &TableKey, lo: i64, hi: i64) -> Map<String, Value> {
    let mut o = Map::new();
    match key {
        TableKey::Choice(c) => {
            let name = p.choices[*c]
                .variants
                .get(lo as usize)
                .map(|v| v.name.as_str());
            o.insert("key".into(), json!(name));
        }
        _ => {
            if lo != i64::MIN {
                o.insert("from".into(), json!(lo));
            }
            if hi != i64::MAX {
                o.insert("to".into(), json!(hi));
            }
        }
    }
    o
}
