//! `_copy`: a pack record that copies another record, changing some fields.

use super::COPY;
use crate::check;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::{Const, Program};
use crate::source::Span;
use crate::yaml::YNode;
use std::collections::HashMap;

/// Where a `_copy` is read: the record being written (its name's span), and where its
/// pack defines each of its records.
pub(super) struct Copying<'a> {
    pub(super) name: &'a str,
    pub(super) span: Span,
    pub(super) defined: &'a HashMap<String, Span>,
}

/// A record written with `_copy: <record>`: the named record of the same type (the
/// ruleset's, or one read before, as from a required pack), with the fields given
/// beside `_copy` in place of its own. A record copies only records read before it, so
/// copies never form a cycle: one that names itself, or a record further down its pack,
/// is `E0411`.
pub(super) fn copy(
    p: &Program,
    reader: &mut check::Reader,
    value: &YNode,
    from: &YNode,
    rid: usize,
    at: Copying,
    diags: &mut Diagnostics,
) -> Option<Const> {
    let tname = &p.records[rid].name;
    let Some(base) = from.as_str() else {
        diags.push(
            Diagnostic::error(
                "E0102",
                from.span,
                format!("`_copy` names a record, not {}", from.kind()),
            )
            .label("expected a record's name")
            .help(format!("write `_copy: <a {tname} record>`")),
        );
        return None;
    };
    if base == at.name {
        diags.push(
            Diagnostic::error(
                "E0411",
                from.span,
                format!("the record `{base}` copies itself"),
            )
            .label("this record")
            .help(format!(
                "`_copy` names another {tname} record, read before this one (the ruleset's, a required pack's, or one above in this pack); to change one of the ruleset's records, give the changed copy a name of its own"
            )),
        );
        return None;
    }
    if let Some(&later) = at.defined.get(base).filter(|d| d.start > at.span.start) {
        diags.push(
            Diagnostic::error(
                "E0411",
                from.span,
                format!("`{base}` is defined further down this pack, after the record copying it"),
            )
            .label("not read yet")
            .note(later, format!("`{base}` is defined here"))
            .help(format!(
                "a record copies only records read before it: move `{base}` above `{}`",
                at.name
            )),
        );
        return None;
    }
    let copied = match reader.instance(base) {
        Some(i) if i.record == rid => i.value.clone(),
        Some(i) => {
            let other = &p.records[i.record].name;
            diags.push(
                Diagnostic::error(
                    "E0411",
                    from.span,
                    format!("`{base}` is a {other}, and this record is a {tname}"),
                )
                .label(format!("a {other}"))
                .note(i.span, format!("`{base}` is defined here"))
                .help(format!(
                    "copy a {tname} record, or write this record under `{other}:`"
                )),
            );
            return None;
        }
        // Declared, but invalid: its own error says why.
        None if reader.declares_record(base) => return None,
        None => {
            let cands = reader.names_of_type(rid);
            let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
            diags.push(
                Diagnostic::error(
                    "E0411",
                    from.span,
                    format!("there is no {tname} record `{base}` to copy"),
                )
                .label("unknown record")
                .help(suggest(base, &cands, "records of this type")),
            );
            return None;
        }
    };
    let map = value.as_map().unwrap_or(&[]);
    let fields: Vec<(YNode, YNode)> = map
        .iter()
        .filter(|(k, _)| k.scalar_text().as_deref() != Some(COPY))
        .cloned()
        .collect();
    reader.read_copy(value, &fields, rid, &copied, diags)
}
