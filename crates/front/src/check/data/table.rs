//! `tables:`: keys (a die, a choice, int ranges), values, and coverage checks.

use super::record::{parse_type_node, parse_type_node_as};
use super::value::value_of;
use super::{check_keys, entries, lookup, wrong};
use crate::check::fixes;
use crate::check::{Checker, DefKind, Entry};
use crate::diag::{Diagnostic, Fix};
use crate::ir::Ty;
use crate::source::Span;
use crate::yaml::YNode;
use crate::{ir, syntax};
use std::collections::HashMap;

pub(super) fn parse_range(text: &str) -> Option<(i64, i64)> {
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

pub(super) fn build_table(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str().map(str::to_string) else {
        return;
    };
    let Some(DefKind::Table(id)) = lookup(c, &name) else {
        return;
    };
    check_keys(
        c,
        e.value,
        &["die", "key", "columns", "value", "rows", "default", "doc"],
        "a table",
    );
    if let Some(doc) = e.value.get("doc").and_then(|d| d.as_str()) {
        c.index
            .doc(&crate::check::index::Key::Top(name.clone()), doc);
    }
    if e.value.as_map().is_none() {
        wrong(c, e.value, "a table (`die:` or `key:`, `value:`, `rows:`)");
        return;
    }
    let Some((key, column_key)) = table_keys(c, e, &name) else {
        return;
    };
    let value_ty = match e.value.get("value") {
        Some(v) => match parse_type_node(c, v) {
            Some(t) => c.resolve_type(&t),
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
    // A grid's columns: their keys, then each row holds one value per column.
    let mut columns = None;
    match (column_key, e.value.get("columns")) {
        (Some(ck), Some(heads)) => {
            let Some(list) = heads.as_seq() else {
                wrong(c, heads, "a list of column keys");
                return;
            };
            let mut keyed = Vec::new();
            let names = variants(c, &ck);
            for h in list {
                if let Some((lo, hi)) = key_range(c, &ck, &names, h) {
                    keyed.push((lo, hi, h.span));
                }
            }
            if keyed.len() != list.len() {
                // A column without a key: its values cannot be placed.
                return;
            }
            let mut sorted = keyed.clone();
            sorted.sort_by_key(|&(lo, hi, _)| (lo, hi));
            overlaps(c, &name, &ck, "column", &sorted);
            if default.is_none() {
                gaps(c, e, &name, &ck, &sorted, None);
            }
            columns = Some(ir::Columns {
                key: ck,
                heads: keyed.iter().map(|&(lo, hi, _)| (lo, hi)).collect(),
            });
        }
        (Some(_), None) => {
            c.error(
                "E0106",
                e.key.span,
                format!("table `{name}` has two keys but no `columns`"),
                "here",
                "add `columns: [...]`, the key of each column in order, as the book prints them",
            );
            return;
        }
        (None, Some(heads)) => {
            c.error(
                "E0307",
                heads.span,
                format!("table `{name}` has `columns` but one key"),
                "columns need a second key",
                "write both keys, rows first: `key: [int, Armor]`",
            );
            return;
        }
        (None, None) => {}
    }
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
    // Every key written counts for overlaps and gaps, even where its value is wrong.
    let mut keyed: Vec<(i64, i64, Span)> = Vec::new();
    let names = variants(c, &key);
    for (k, v) in entries(c, row_nodes, "a mapping of keys to values") {
        let Some((lo, hi)) = key_range(c, &key, &names, k) else {
            continue;
        };
        keyed.push((lo, hi, k.span));
        let value = match &columns {
            None => value_of(c, v, &value_ty, None),
            Some(cols) => row_cells(c, v, &value_ty, cols.heads.len()),
        };
        if let Some(value) = value {
            rows.push((ir::Row { lo, hi, value }, k.span));
        }
    }
    rows.sort_by_key(|(r, _)| (r.lo, r.hi));
    keyed.sort_by_key(|&(lo, hi, _)| (lo, hi));
    overlaps(c, &name, &key, "row", &keyed);
    if default.is_none() || matches!(key, ir::TableKey::Die(_)) {
        gaps(c, e, &name, &key, &keyed, Some((row_nodes, &value_ty)));
    }
    // Rows outside the die's faces can never be rolled.
    if let ir::TableKey::Die(d) = &key {
        let (lo, hi) = d.range();
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
    t.columns = columns;
    t.default = default;
}

/// The table's key (`die:`, or `key:`), and its second key when `key: [rows, columns]`.
fn table_keys(
    c: &mut Checker,
    e: &Entry,
    name: &str,
) -> Option<(ir::TableKey, Option<ir::TableKey>)> {
    match (e.value.get("die"), e.value.get("key")) {
        (Some(d), None) => {
            let Some(spec) = d
                .scalar_text()
                .and_then(|t| syntax::parse_dice_text(&t, d.span, c.diags))
            else {
                wrong(c, d, "dice such as `d12` or `2d6`");
                return None;
            };
            if spec.explode || spec.keep != rulesc_runtime::Keep::All {
                c.error(
                    "E0307",
                    d.span,
                    "a table's die cannot explode or keep dice",
                    "here",
                    "use plain dice such as `d12` or `2d6`",
                );
                return None;
            }
            // A roll `among` some rows rolls one die over the allowed totals: there may
            // be at most as many as a die has faces.
            let (lo, hi) = spec.range();
            let max = rulesc_runtime::dice::MAX_SIDES;
            if hi - lo + 1 > max {
                c.error(
                    "E0205",
                    d.span,
                    format!(
                        "`{spec}` gives {} different totals, more than {max}",
                        hi - lo + 1
                    ),
                    "too many totals",
                    "a table's die gives at most 1,000,000 different totals",
                );
                return None;
            }
            Some((ir::TableKey::Die(spec), None))
        }
        (None, Some(k)) => match k.as_seq() {
            None => Some((key_type(c, k)?, None)),
            Some([rows, cols]) => {
                let (rows, cols) = (key_type(c, rows), key_type(c, cols));
                Some((rows?, Some(cols?)))
            }
            Some(_) => {
                c.error(
                    "E0307",
                    k.span,
                    format!("table `{name}` has one key or two, rows then columns"),
                    "here",
                    "write `key: int` or `key: [int, Armor]`",
                );
                None
            }
        },
        (Some(d), Some(_)) => {
            c.error(
                "E0307",
                d.span,
                format!("table `{name}` has both `die` and `key`"),
                "here",
                "a die table is keyed by its faces: remove `key`",
            );
            None
        }
        (None, None) => {
            c.error(
                "E0106",
                e.key.span,
                format!("table `{name}` has neither `die` nor `key`"),
                "here",
                "add `die: d12` (rolled) or `key: int` / `key: SomeEnum` (looked up)",
            );
            None
        }
    }
}

/// A key's type: `int`, a scale or an enum.
fn key_type(c: &mut Checker, k: &YNode) -> Option<ir::TableKey> {
    let texpr = parse_type_node_as(c, k, "a key type (`int`, a scale or an enum)")?;
    match c.resolve_type(&texpr) {
        Ty::Int => Some(ir::TableKey::Int),
        Ty::Choice(ch) => Some(ir::TableKey::Choice(ch)),
        Ty::Error => None,
        other => {
            let n = c.ty_name(&other);
            c.error(
                "E0307",
                k.span,
                format!("a table cannot be keyed by {n}"),
                "here",
                "key a table by `int`, a scale or an enum, or give it a `die`",
            );
            None
        }
    }
}

/// A row's or column's key as written: a variant (its index), a number or a range.
fn key_range(
    c: &mut Checker,
    key: &ir::TableKey,
    variants: &Variants,
    k: &YNode,
) -> Option<(i64, i64)> {
    let Some(text) = k.scalar_text() else {
        wrong(c, k, "a key");
        return None;
    };
    let range = match key {
        ir::TableKey::Choice(ch) => {
            let ch = *ch;
            match variants.get(text.as_str()) {
                Some(&i) => Some((i, i)),
                None => {
                    let help = c.prog.choices[ch].suggest(&text);
                    let cname = c.prog.choices[ch].name.clone();
                    c.error(
                        "E0306",
                        k.span,
                        format!("`{text}` is not a variant of `{cname}`"),
                        "unknown key",
                        help,
                    );
                    return None;
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
        return None;
    };
    if lo > hi {
        c.error(
            "E0308",
            k.span,
            format!("the range `{text}` is empty"),
            "empty range",
            "write the lower bound first",
        );
        return None;
    }
    Some((lo, hi))
}

/// An enum key's variants by name, each at its index (the first, for a name written
/// twice): built once per table, so that placing its rows is linear in them, not
/// rows times variants. Empty for a die or `int` key.
type Variants = std::collections::HashMap<String, i64>;

fn variants(c: &Checker, key: &ir::TableKey) -> Variants {
    let mut index = Variants::new();
    if let ir::TableKey::Choice(ch) = key {
        for (i, v) in c.prog.choices[*ch].variants.iter().enumerate() {
            index.entry(v.name.clone()).or_insert(i as i64);
        }
    }
    index
}

/// One row of a grid: a value per column, in the columns' order.
fn row_cells(c: &mut Checker, v: &YNode, ty: &Ty, columns: usize) -> Option<ir::Const> {
    let Some(cells) = v.as_seq() else {
        wrong(c, v, "a list of values, one per column");
        return None;
    };
    if cells.len() != columns {
        c.error(
            "E0307",
            v.span,
            format!("this row has {} values for {columns} columns", cells.len()),
            "one value per column",
            "give each row one value per entry of `columns`, in the same order",
        );
        return None;
    }
    let values: Vec<ir::Const> = cells
        .iter()
        .filter_map(|cell| value_of(c, cell, ty, None))
        .collect();
    (values.len() == columns).then_some(ir::Const::List(values))
}

/// Keys given twice: each range (sorted) against the one before it.
fn overlaps(
    c: &mut Checker,
    name: &str,
    key: &ir::TableKey,
    what: &str,
    keyed: &[(i64, i64, Span)],
) {
    for w in keyed.windows(2) {
        let (_, a_hi, sa) = w[0];
        let (b_lo, b_hi, sb) = w[1];
        if b_lo <= a_hi {
            let hi = a_hi.min(b_hi);
            // A variant or level by its name, not its position.
            let show = |i: i64| match key {
                ir::TableKey::Choice(ch) => c.prog.choices[*ch]
                    .variants
                    .get(i as usize)
                    .map_or_else(|| i.to_string(), |v| format!("`{}`", v.name)),
                _ => i.to_string(),
            };
            let keys = if b_lo == hi {
                format!("{} is", show(b_lo))
            } else {
                format!("{} to {} are", show(b_lo), show(hi))
            };
            let d = Diagnostic::error(
                "E0309",
                sb,
                format!("table `{name}` overlaps: {keys} given twice"),
            )
            .label(format!("this {what}"))
            .note(sa, format!("overlaps this {what}"))
            .help(format!("give every key to exactly one {what}"));
            c.diags.push(d);
        }
    }
}

/// Keys of `key` that no range (sorted) holds: E0310.
fn gaps(
    c: &mut Checker,
    e: &Entry,
    name: &str,
    key: &ir::TableKey,
    keyed: &[(i64, i64, Span)],
    rows: Option<(&YNode, &Ty)>,
) {
    let what = if rows.is_some() { "row" } else { "column" };
    let (lo, hi, keys) = match key {
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
    let mut gaps: Vec<(i64, i64)> = Vec::new();
    let mut next = lo;
    let mut done = false;
    for &(r_lo, r_hi, _) in keyed {
        if r_lo > next {
            gaps.push((next, (r_lo - 1).min(hi)));
        }
        if r_hi >= hi {
            done = true;
            break;
        }
        next = next.max(r_hi + 1);
    }
    if !done && next <= hi {
        gaps.push((next, hi));
    }
    gaps.retain(|&(a, b)| a <= b && b >= lo && a <= hi);
    if gaps.is_empty() {
        return;
    }
    let show = |x: i64| match (key, x) {
        (ir::TableKey::Choice(ch), i) => c.prog.choices[*ch]
            .variants
            .get(i as usize)
            .map(|v| v.name.clone())
            .unwrap_or_default(),
        (_, i64::MIN | i64::MAX) => "..".into(),
        (_, x) => x.to_string(),
    };
    let list: Vec<String> = gaps
        .iter()
        .map(|&(a, b)| {
            if a == b {
                show(a)
            } else {
                format!("{}-{}", show(a), show(b))
            }
        })
        .collect();
    // A variant a content pack added, with no row: shown at the pack's variant.
    if let ir::TableKey::Choice(ch) = key {
        let choice = &c.prog.choices[*ch];
        let added = gaps.iter().flat_map(|&(a, b)| a..=b).find_map(|i| {
            let v = choice.variants.get(i as usize)?;
            Some((v, c.pack_files.get(&v.span.file)?))
        });
        if let Some((v, pack)) = added {
            let d = Diagnostic::error(
                "E0310",
                v.span,
                format!(
                    "table `{name}` has a gap: no {what} for {}",
                    list.join(", ")
                ),
            )
            .label(format!("`{}` is added by the pack `{pack}`", v.name))
            .note(e.key.span, format!("`{name}` is keyed by `{}`", choice.name))
            .help(if what == "row" {
                format!(
                    "add its row in a pack loaded with it: `tables: {{ {name}: {{ rows: {{ {}: ... }} }} }}`, or give `{name}` a `default`",
                    v.name
                )
            } else {
                // A grid's columns are the ruleset's: a pack adds rows, not columns.
                format!("a pack cannot add a column to the grid `{name}`; give `{name}` a `default` in the ruleset, which the new variant's column then reads")
            });
            c.diags.push(d);
            return;
        }
    }
    let help = match key {
        ir::TableKey::Int => {
            "cover every integer (use open ranges such as `..0` and `19..`) or add a `default`"
                .to_string()
        }
        _ => format!("every one of the {keys} needs exactly one {what}"),
    };
    let mut d = Diagnostic::error(
        "E0310",
        e.key.span,
        format!(
            "table `{name}` has a gap: no {what} for {}",
            list.join(", ")
        ),
    )
    .label(format!("missing {}", list.join(", ")))
    .help(help);
    if let Some(fix) =
        rows.and_then(|(rows, ty)| missing_rows(c, name, (rows, ty), key, keyed, &gaps, &show))
    {
        d = d.fix(fix);
    }
    c.diags.push(d);
}

/// The fix of a gap in a table's rows: for each missing key (a range of faces or
/// integers as one row, each variant of a scale or enum its own), a row copying the
/// value of the row just below the gap (else just above it), written after that row.
/// With no such row, or one written on several lines, the row holds a placeholder of
/// the table's value type instead, which fails the check until filled in.
fn missing_rows(
    c: &Checker,
    name: &str,
    (rows, value_ty): (&YNode, &Ty),
    key: &ir::TableKey,
    keyed: &[(i64, i64, Span)],
    gaps: &[(i64, i64)],
    show: &dyn Fn(i64) -> String,
) -> Option<Fix> {
    let map = rows.as_map()?;
    // By key span, by where a row ends and by where it starts: linear in the rows, not
    // rows times gaps (a large enum's table may have thousands of each).
    let entry_of: HashMap<Span, usize> = map
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.span, i))
        .collect();
    let by_hi: HashMap<i64, Span> = keyed.iter().rev().map(|r| (r.1, r.2)).collect();
    let by_lo: HashMap<i64, Span> = keyed.iter().rev().map(|r| (r.0, r.2)).collect();
    let mut edits = Vec::new();
    let mut added = Vec::new();
    for &(a, b) in gaps {
        let below = a.checked_sub(1).and_then(|k| by_hi.get(&k));
        let above = b.checked_add(1).and_then(|k| by_lo.get(&k));
        let next_to = below.or(above).and_then(|span| entry_of.get(span).copied());
        let value = next_to
            .and_then(|i| fixes::one_line(&c.prog.sources, &map[i].1))
            .unwrap_or_else(|| fixes::placeholder(&c.prog.ty_name(value_ty)));
        let keys: Vec<String> = match key {
            ir::TableKey::Choice(_) => (a..=b).map(show).collect(),
            _ => vec![show_range(a, b)],
        };
        let entries: Vec<String> = keys.iter().map(|k| format!("{k}: {value}")).collect();
        added.extend(keys);
        edits.push(fixes::add_entries(
            &c.prog.sources,
            rows,
            next_to,
            &entries,
        )?);
    }
    Some(Fix {
        title: format!(
            "add the missing {} {} to `{name}` (check the values: each copies the row next to it)",
            if added.len() == 1 { "row" } else { "rows" },
            added.join(", ")
        ),
        edits,
    })
}

/// A table key range as a writer wrote it: `7`, `3-5`, `..0`, `19..`.
pub(super) fn show_range(lo: i64, hi: i64) -> String {
    match (lo, hi) {
        (i64::MIN, i64::MAX) => "..".to_string(),
        (i64::MIN, h) => format!("..{h}"),
        (l, i64::MAX) => format!("{l}.."),
        (l, h) if l == h => l.to_string(),
        (l, h) => format!("{l}-{h}"),
    }
}
