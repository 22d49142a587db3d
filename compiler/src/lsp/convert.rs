//! Between the compiler's terms and the protocol's: byte offsets and LSP positions (in
//! the negotiated encoding), paths and `file://` URIs, diagnostics.

use crate::diag::{self, Severity};
use crate::source::{Sources, Span};
use lsp_types as lsp;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// How a position's `character` counts: UTF-16 code units (the protocol's default) or
/// bytes (when the client offers `utf-8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// The LSP position of a byte offset of `text`.
pub fn position(text: &str, offset: usize, enc: Encoding) -> lsp::Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count();
    let col = &before[line_start..];
    let character = match enc {
        Encoding::Utf8 => col.len(),
        Encoding::Utf16 => col.encode_utf16().count(),
    };
    lsp::Position::new(line as u32, character as u32)
}

/// The byte offset of an LSP position in `text` (clamped to its line and to the text).
pub fn offset(text: &str, pos: lsp::Position, enc: Encoding) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line = text[start..].split('\n').next().unwrap_or("");
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += match enc {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
    }
    start + line.len()
}

pub fn range(text: &str, start: usize, end: usize, enc: Encoding) -> lsp::Range {
    lsp::Range::new(position(text, start, enc), position(text, end, enc))
}

/// The range of a span in its file.
pub fn span_range(sources: &Sources, span: Span, enc: Encoding) -> lsp::Range {
    let text = sources
        .files
        .get(span.file as usize)
        .map_or("", |f| &*f.text);
    range(text, span.start as usize, span.end as usize, enc)
}

/// `file://` URI of an absolute path, percent-encoding what a URI path cannot hold.
pub fn path_to_uri(path: &Path) -> Option<lsp::Uri> {
    let mut text = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                text.push(b as char)
            }
            _ => text.push_str(&format!("%{b:02X}")),
        }
    }
    lsp::Uri::from_str(&text).ok()
}

/// The path of a `file://` URI (`None` for other schemes).
pub fn uri_to_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` is not a local file; `file:///path` and `file://localhost/path` are.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// A path made canonical when it exists (so one file has one key), else as given.
pub fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// One compiler diagnostic as the protocol's: the message with its help line, the
/// label and notes as related information.
pub fn diagnostic(d: &diag::Diagnostic, sources: &Sources, enc: Encoding) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .notes
        .iter()
        .filter_map(|n| {
            let file = sources.files.get(n.span.file as usize)?;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(
                    path_to_uri(&canonical(&file.path))?,
                    span_range(sources, n.span, enc),
                ),
                message: n.label.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: span_range(sources, d.span, enc),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("rulesc".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        let text = "ab\n\u{e9}\u{1F3B2}x\n";
        // `x` is byte 9 of the text: after é (2 bytes, 1 unit) and 🎲 (4 bytes, 2 units).
        let x = text.find('x').unwrap();
        assert_eq!(position(text, x, Encoding::Utf16), lsp::Position::new(1, 3));
        assert_eq!(position(text, x, Encoding::Utf8), lsp::Position::new(1, 6));
        assert_eq!(offset(text, lsp::Position::new(1, 3), Encoding::Utf16), x);
        assert_eq!(offset(text, lsp::Position::new(1, 6), Encoding::Utf8), x);
        // Past the end of a line: its end; past the last line: the text's end.
        assert_eq!(offset(text, lsp::Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(
            offset(text, lsp::Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
        // Inside a character: the start of that character.
        assert_eq!(position(text, 5, Encoding::Utf16), lsp::Position::new(1, 1));
    }

    #[test]
    fn uris_round_trip_paths_with_spaces_and_unicode() {
        let path = Path::new("/tmp/my rules/f\u{e9}e#1.rules");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/my%20rules/f%C3%A9e%231.rules");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        let remote = lsp::Uri::from_str("https://example.com/a.rules").unwrap();
        assert_eq!(uri_to_path(&remote), None);
    }
}
