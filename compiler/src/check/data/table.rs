//! `tables:`: keys (a die, a choice, int ranges), values, and coverage checks.

use super::record::parse_type_node;
use super::value::value_of;
use super::{check_keys, entries, lookup, wrong};
use crate::check::{Checker, DefKind, Entry};
use crate::diag::{suggest, Diagnostic};
use crate::ir::Ty;
use crate::source::Span;
use crate::{ir, syntax};

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
        &["die", "key", "value", "rows", "default", "doc"],
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
