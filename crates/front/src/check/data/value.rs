//! `constants:`, and YAML values read as constants of a type (table cells,
//! defaults, record fields).

use super::{entries, lookup, wrong};
use crate::check::index::Key;
use crate::check::{Checker, DefKind, Entry};
use crate::diag::{suggest, Diagnostic, Fix};
use crate::ir::{Const, RecordOrigin, Ty};
use crate::syntax;
use crate::yaml::{YNode, YValue};
use rulesc_runtime::Track;

pub(super) fn build_constant(c: &mut Checker, e: &Entry) {
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
                    Some([(ch, i)]) => {
                        let (ch, i) = (*ch, *i);
                        let choice = c.prog.choices[ch].name.clone();
                        c.refer(v.span, Key::Level(choice, s.clone()));
                        (Ty::Choice(ch), Const::Choice(i))
                    }
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

/// Reads a YAML value as a constant of type `ty`; every problem is a diagnostic.
pub fn value_of(
    c: &mut Checker,
    node: &YNode,
    ty: &Ty,
    range: Option<(i64, i64)>,
) -> Option<Const> {
    value_in(c, node, ty, range, None)
}

/// [`value_of`] for the value of the record field `field`, which a value of the wrong
/// kind names with its declared type.
fn value_in(
    c: &mut Checker,
    node: &YNode,
    ty: &Ty,
    range: Option<(i64, i64)>,
    field: Option<&str>,
) -> Option<Const> {
    let wrong = |c: &mut Checker, node: &YNode, expected: &str| {
        super::wrong_value(c, node, ty, field, expected)
    };
    match ty {
        Ty::Error | Ty::Faces => None,
        Ty::Option(inner) => match &node.value {
            YValue::Null => Some(Const::Opt(None)),
            YValue::Str(s) if s == "none" => Some(Const::Opt(None)),
            _ => value_in(c, node, inner, range, field).map(|v| Const::Opt(Some(Box::new(v)))),
        },
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
                    c.used_at(s, node.span);
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
                Some(i) => {
                    let choice = c.prog.choices[ch].name.clone();
                    c.refer(node.span, Key::Level(choice, s));
                    Some(Const::Choice(i as u16))
                }
                None => {
                    let help = c.prog.choices[ch].suggest(&s);
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
            let mut out = vec![c.zero(v); c.prog.choices[k].variants.len()];
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
        Ty::SortedMap(k, v) => sorted_map_of(c, node, k, v),
        Ty::Record(r) => {
            let r = *r;
            if let Some(name) = node.as_str() {
                return match c.instance_named(name).filter(|i| i.record == r) {
                    Some(i) => {
                        let value = i.value.clone();
                        c.refer(node.span, Key::Record(name.to_string()));
                        Some(value)
                    }
                    // Written, but invalid: its own error says why.
                    None if c.index.defines(&Key::Record(name.to_string())) => None,
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
            record_of(c, node, map, r, None)
        }
        Ty::Outcome(_) | Ty::TrackBox(_) | Ty::Roll | Ty::Unit | Ty::Fighter | Ty::Side => {
            wrong(c, node, "a value that can be written in YAML");
            None
        }
    }
}

/// A `map<K, V>` keyed by anything but a scale or enum: a mapping (`{ 1: a, 5: b }`, for
/// keys written as one YAML scalar: numbers, `true`/`false`) or a list of
/// `{ key: .., value: .. }` (any key, a record's included). Each key read against `K`
/// where it is written; a key given twice is `E0301`.
fn sorted_map_of(c: &mut Checker, node: &YNode, k: &Ty, v: &Ty) -> Option<Const> {
    let mut pairs: Vec<(&YNode, &YNode)> = Vec::new();
    match &node.value {
        YValue::Null => {}
        YValue::Map(m) => pairs.extend(m.iter().map(|(k, v)| (k, v))),
        YValue::Seq(items) => {
            for item in items {
                let (Some(key), Some(value), Some(map)) =
                    (item.get("key"), item.get("value"), item.as_map())
                else {
                    super::wrong(c, item, "an entry `{ key: .., value: .. }`");
                    continue;
                };
                if map.len() > 2 {
                    super::check_keys(c, item, &["key", "value"], "a map entry");
                }
                pairs.push((key, value));
            }
        }
        _ => {
            wrong(
                c,
                node,
                "a mapping of keys to values, or a list of `{ key: .., value: .. }`",
            );
            return None;
        }
    }
    let mut out: Vec<(Const, Const, crate::source::Span)> = Vec::new();
    let mut ok = true;
    for (kn, vn) in pairs {
        let (Some(key), Some(value)) = (value_of(c, kn, k, None), value_of(c, vn, v, None)) else {
            ok = false;
            continue;
        };
        match out.binary_search_by(|(x, _, _)| crate::ir::cmp_key(x, &key)) {
            Ok(i) => {
                let d = crate::diag::Diagnostic::error("E0301", kn.span, "a map key given twice")
                    .label("second time")
                    .note(out[i].2, "first time")
                    .help("give each key once");
                c.diags.push(d);
                ok = false;
            }
            Err(i) => out.insert(i, (key, value, kn.span)),
        }
    }
    let zero = c.zero(v);
    ok.then(|| {
        Const::SortedMap(
            out.into_iter().map(|(k, v, _)| (k, v)).collect(),
            Box::new(zero),
        )
    })
}

/// A record of type `r` written as a mapping of fields: each field read against its
/// type, those left out from `base` (a record `_copy` copies, in field order) or their
/// `default:`; a field none of these gives is `E0106`.
pub fn record_of(
    c: &mut Checker,
    node: &YNode,
    map: &[(YNode, YNode)],
    r: usize,
    base: Option<&[Const]>,
) -> Option<Const> {
    let fields = c.prog.records[r].fields.clone();
    let mut values: Vec<Option<Const>> = vec![None; fields.len()];
    let mut ok = true;
    for (k, v) in map {
        let key = k.scalar_text().unwrap_or_default();
        match fields.iter().position(|f| f.name == key) {
            Some(i) => {
                let tn = c.prog.records[r].name.clone();
                c.refer(k.span, Key::Field(tn, key.clone()));
                values[i] = value_in(c, v, &fields[i].ty, fields[i].range, Some(&key));
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
        match values[i]
            .take()
            .or_else(|| base.and_then(|b| b.get(i).cloned()))
            .or_else(|| f.default.clone())
        {
            Some(v) => out.push(v),
            // (A field whose type was refused is reported already.)
            None if matches!(
                f.ty,
                Ty::Track(_) | Ty::List(_) | Ty::Map(..) | Ty::SortedMap(..) | Ty::Error
            ) =>
            {
                out.push(c.zero(&f.ty))
            }
            // Its default was refused, and reported: not missing, but not built.
            None if c.broken_defaults.contains(&(r, i)) => {
                ok = false;
                out.push(c.zero(&f.ty));
            }
            None => {
                missing.push(f);
                out.push(c.zero(&f.ty));
            }
        }
    }
    if !missing.is_empty() && ok {
        let tn = c.prog.records[r].name.clone();
        let list: Vec<String> = missing.iter().map(|f| format!("`{}`", f.name)).collect();
        // A field that has a default is never missing: each gets a placeholder of its
        // type, which fails the check until the writer fills it in.
        let entries: Vec<String> = missing
            .iter()
            .map(|f| {
                let ty = c.prog.ty_name(&f.ty);
                format!("{}: {}", f.name, crate::check::fixes::placeholder(&ty))
            })
            .collect();
        let mut d = Diagnostic::error(
            "E0106",
            node.span,
            format!("this {tn} is missing {}", list.join(", ")),
        )
        .label("missing fields")
        .help(format!(
            "add {} (or give the field a `default` in `types:`)",
            list.join(", ")
        ));
        if let Some(edit) = crate::check::fixes::add_entries(&c.prog.sources, node, None, &entries)
        {
            d = d.fix(Fix {
                title: format!("add {} to this {tn}, to fill in", list.join(", ")),
                edits: vec![edit],
            });
        }
        c.diags.push(d);
        ok = false;
    }
    ok.then_some(Const::record(out, RecordOrigin::Written))
}
