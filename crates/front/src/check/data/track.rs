//! `tracks:`: a scale, boxes with attributes, and what happens when full.

use super::value::value_of;
use super::{check_keys, lookup, wrong};
use crate::check::{is_ident, Checker, DefKind, Entry};
use crate::diag::suggest;
use crate::ir::{self, Const, Ty};
use crate::source::Span;
use rulesc_runtime::track::MAX_BOXES;

pub(super) fn build_track(c: &mut Checker, e: &Entry) {
    let Some(name) = e.key.as_str() else { return };
    let Some(DefKind::Track(id)) = lookup(c, name) else {
        return;
    };
    check_keys(c, e.value, &["scale", "boxes", "when_full"], "a track");
    let scale = match e.value.get("scale").and_then(|s| s.as_str()) {
        Some(s) => match lookup(c, s) {
            Some(DefKind::Choice(ch)) if c.prog.choices[ch].ordered => {
                let at = e.value.get("scale").map_or(e.value.span, |n| n.span);
                c.used_at(s, at);
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
            } else if !is_ident(&key) {
                // The rules read an attribute by its name (`b.pain`): it must be one.
                c.error(
                    "E0302",
                    k.span,
                    format!("`{key}` is not a valid attribute name"),
                    "not a name",
                    "use letters, digits and `_`, as the rules read it (`box.pain`)",
                );
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
