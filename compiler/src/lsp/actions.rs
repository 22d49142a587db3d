//! `textDocument/codeAction`: quick fixes for the diagnostics of the last check that
//! touch the range asked about, each attached to its diagnostic:
//!
//! - a "did you mean `x`?" (as [`crate::diag::suggest`] writes it, in the help or the
//!   label) when the diagnostic's span is exactly the name it is about: the name replaced;
//! - the fixes the checker proposed with the diagnostic ([`crate::diag::Fix`]: a
//!   missing table row, a missing record field).

use super::convert::{self, canonical};
use super::features::World;
use super::Analysis;
use crate::diag::{self, Diagnostic, Diagnostics};
use crate::source::{Sources, Span};
use lsp_types as lsp;
use std::collections::HashMap;
use std::path::Path;

pub(crate) fn code_action(
    w: &World,
    p: lsp::CodeActionParams,
) -> Result<Option<lsp::CodeActionResponse>, String> {
    let quickfix = lsp::CodeActionKind::QUICKFIX;
    let wanted = p.context.only.as_ref().is_none_or(|only| {
        only.iter()
            .any(|k| quickfix.as_str().starts_with(k.as_str()))
    });
    let Some(path) = convert::uri_to_path(&p.text_document.uri).map(|p| canonical(&p)) else {
        return Ok(None);
    };
    let Some(((diags, sources), file)) = checked_with(w, &path).filter(|_| wanted) else {
        return Ok(Some(Vec::new()));
    };
    let text = &sources.files[file as usize].text;
    let from = convert::offset(text, p.range.start, w.enc) as u32;
    let to = convert::offset(text, p.range.end, w.enc) as u32;
    let mut actions = Vec::new();
    for d in diags.sorted() {
        if d.span.file != file || d.span.end < from || d.span.start > to {
            continue;
        }
        let attached = vec![convert::diagnostic(d, sources, w.enc)];
        if let Some((title, edit)) = did_you_mean(sources, d) {
            actions.push(action(w, sources, title, vec![edit], &attached, true));
        }
        for fix in &d.fixes {
            let title = fix.title.clone();
            actions.push(action(
                w,
                sources,
                title,
                fix.edits.clone(),
                &attached,
                false,
            ));
        }
    }
    Ok(Some(
        actions
            .into_iter()
            .flatten()
            .map(lsp::CodeActionOrCommand::CodeAction)
            .collect(),
    ))
}

/// A check's diagnostics and the sources they point into.
type Found<'a> = (&'a Diagnostics, &'a Sources);

/// What the check a file's diagnostics come from found (for a pack, scenario or fight
/// file, its own check; else its own ruleset's, or one that read it), with the file's id
/// in its sources.
fn checked_with<'a>(w: &World<'a>, path: &Path) -> Option<(Found<'a>, u32)> {
    let extra = w.extras.get(path).and_then(|e| e.found.as_ref());
    let own = path.parent().and_then(|d| w.analyses.get(d));
    let rulesets = own.into_iter().chain(w.analyses.values());
    extra
        .map(|(d, s)| (d, s))
        .into_iter()
        .chain(rulesets.map(|a: &Analysis| (&a.diags, &a.sources)))
        .find_map(|(diags, sources)| {
            let file = sources.files.iter().position(|f| f.path == path)?;
            Some(((diags, sources), file as u32))
        })
}

/// The edit a "did you mean" proposes: the diagnostic's span, when it holds just the
/// name the message is about (in backticks, perhaps quoted in YAML), replaced by the
/// suggestion.
fn did_you_mean(sources: &Sources, d: &Diagnostic) -> Option<(String, (Span, String))> {
    let new = d
        .help
        .as_deref()
        .and_then(diag::suggested_name)
        .or_else(|| diag::suggested_name(&d.label))?;
    let written = sources.slice(d.span);
    let (name, inner) = match written.as_bytes() {
        [q @ (b'"' | b'\''), .., last] if last == q && written.len() >= 2 => (
            &written[1..written.len() - 1],
            Span {
                start: d.span.start + 1,
                end: d.span.end - 1,
                ..d.span
            },
        ),
        _ => (written, d.span),
    };
    let about = d.message.split('`').skip(1).step_by(2).any(|m| m == name);
    (about && !name.is_empty() && name != new).then(|| {
        (
            format!("replace `{name}` with `{new}`"),
            (inner, new.to_string()),
        )
    })
}

/// A quick fix: edits in the check's sources, as one workspace edit.
fn action(
    w: &World,
    sources: &Sources,
    title: String,
    edits: Vec<(Span, String)>,
    attached: &[lsp::Diagnostic],
    preferred: bool,
) -> Option<lsp::CodeAction> {
    // lsp-types keys edits by `Uri`, whose interior caching clippy flags; the map is
    // built here and never mutated through a key.
    #[allow(clippy::mutable_key_type)]
    let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
    for (span, text) in edits {
        let file = sources.files.get(span.file as usize)?;
        let uri = w.uri_of(&canonical(&file.path))?;
        let range = convert::span_range(sources, span, w.enc);
        changes
            .entry(uri)
            .or_default()
            .push(lsp::TextEdit::new(range, text));
    }
    Some(lsp::CodeAction {
        title,
        kind: Some(lsp::CodeActionKind::QUICKFIX),
        diagnostics: Some(attached.to_vec()),
        edit: Some(lsp::WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        }),
        is_preferred: Some(preferred),
        ..Default::default()
    })
}
