//! Edits the checker proposes with a diagnostic (see [`crate::diag::Fix`]): a missing
//! entry added to a YAML mapping, written in the mapping's own style. The language
//! server offers them as code actions; the checker's verdict is unchanged by them.

use crate::source::{Sources, Span};
use crate::yaml::YNode;

/// A placeholder value the writer must replace: a quoted `"<type>"`, which no type
/// accepts as a value, so the check fails until it is filled in.
pub fn placeholder(ty: &str) -> String {
    format!("\"<{ty}>\"")
}

/// The edit adding entries (each `key: value`) to the YAML mapping `map`: after its
/// entry number `after`, else after its last. In a flow mapping (`{ a: 1 }`) they go
/// after that entry's value, each after `, ` (into `{}`, between the braces); in a block
/// mapping, each on a new line at the entries' indentation after that entry. `None` for
/// an empty block mapping (its indentation unknown).
pub fn add_entries(
    sources: &Sources,
    map: &YNode,
    after: Option<usize>,
    new: &[String],
) -> Option<(Span, String)> {
    let existing = map.as_map()?;
    let text: &str = &sources.files.get(map.span.file as usize)?.text;
    let flow = text.get(map.span.start as usize..)?.starts_with('{');
    let Some((first_key, _)) = existing.first() else {
        let at = map.span.start as usize + 1;
        return flow.then(|| {
            (
                Span::new(map.span.file, at, at),
                format!(" {} ", new.join(", ")),
            )
        });
    };
    let (_, value) = existing.get(after.unwrap_or(existing.len() - 1))?;
    let end = value.span.end as usize;
    if flow {
        let mut out = String::new();
        for e in new {
            out.push_str(", ");
            out.push_str(e);
        }
        return Some((Span::new(map.span.file, end, end), out));
    }
    let key_at = first_key.span.start as usize;
    let line_start = text[..key_at].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..key_at];
    if !indent.chars().all(|c| c == ' ') {
        return None;
    }
    // The end of the entry's last line (a comment after it stays on it).
    let mut last = end;
    while last > value.span.start as usize && text[..last].ends_with(['\n', ' ', '\r']) {
        last -= 1;
    }
    let mut line_end = text[last..].find('\n').map_or(text.len(), |i| last + i);
    if text[..line_end].ends_with('\r') {
        line_end -= 1;
    }
    let mut out = String::new();
    for e in new {
        out.push('\n');
        out.push_str(indent);
        out.push_str(e);
    }
    Some((Span::new(map.span.file, line_end, line_end), out))
}

/// The text of a value as written, when it is on one line (to copy it elsewhere).
pub fn one_line(sources: &Sources, node: &YNode) -> Option<String> {
    let text = sources.slice(node.span).trim();
    (!text.is_empty() && !text.contains('\n')).then(|| text.to_string())
}
