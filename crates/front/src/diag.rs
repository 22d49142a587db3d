//! Diagnostics: every problem the compiler finds, with a stable code, a primary span and
//! label, a help line saying what would fix it, and optional notes at other positions
//! (the first definition of a duplicate, the base of an override).
//!
//! Stages push into a [`Diagnostics`] and go on, so a run reports everything at once.
//! Rendering (miette's graphical report, or JSON) happens outside the stages.

use crate::source::{Sources, Span};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A secondary position with a label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub span: Span,
    pub label: String,
}

/// A change that would fix a diagnostic, for an editor to offer (the language server's
/// code actions): each edit replaces a span's text (an empty span: inserts at it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What it does, as the editor's menu shows it.
    pub title: String,
    pub edits: Vec<(Span, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    pub notes: Vec<Note>,
    /// Changes that would fix it (none shown on the command line).
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
            notes: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }

    pub fn note(mut self, span: Span, label: impl Into<String>) -> Self {
        self.notes.push(Note {
            span,
            label: label.into(),
        });
        self
    }
}

/// The diagnostics of one run, in the order found; [`Diagnostics::sorted`] gives the
/// deterministic order used for output (file, position, code).
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    pub fn warning_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    pub fn sorted(&self) -> Vec<&Diagnostic> {
        let mut v: Vec<&Diagnostic> = self.items.iter().collect();
        v.sort_by(|a, b| {
            (a.span.file, a.span.start, a.code, &a.message).cmp(&(
                b.span.file,
                b.span.start,
                b.code,
                &b.message,
            ))
        });
        v.dedup_by(|a, b| a == b);
        v
    }
}

/// "did you mean `x`?" for a misspelt name: the closest candidate by optimal string
/// alignment distance (a swap of two neighbouring letters is one edit, as are an insertion,
/// a deletion and a substitution), ignoring case, if close enough to be a plausible typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    let lower: String = name.to_lowercase().chars().take(64).collect();
    for c in candidates {
        let other: String = c.to_lowercase().chars().take(64).collect();
        let d = strsim::osa_distance(&lower, &other);
        let limit = (name.chars().count().max(c.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// A help line listing what was expected, or suggesting the closest name.
pub fn suggest(name: &str, candidates: &[&str], what: &str) -> String {
    let mut candidates: Vec<&str> = candidates.to_vec();
    candidates.sort_unstable();
    suggest_ordered(name, &candidates, what)
}

/// The name a "did you mean `x`?" help line (as [`suggest`] writes it) proposes.
pub fn suggested_name(help: &str) -> Option<&str> {
    let rest = help.strip_prefix("did you mean `")?;
    let (name, after) = rest.split_once('`')?;
    after.starts_with('?').then_some(name)
}

/// [`suggest`] listing the candidates in the order given (a scale's levels lowest
/// first, an enum's variants as declared), not alphabetically.
pub fn suggest_ordered(name: &str, candidates: &[&str], what: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let candidates: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| seen.insert(*c))
        .collect();
    match did_you_mean(name, candidates.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None if candidates.is_empty() => format!("there are no {what}"),
        None if candidates.len() <= 12 => {
            let list: Vec<String> = candidates.iter().map(|c| format!("`{c}`")).collect();
            format!("expected one of the {what}: {}", list.join(", "))
        }
        None => format!("none of the {what} has a similar name"),
    }
}

/// One diagnostic as miette sees it: a single source file, labels in it, and notes in
/// other files as related reports.
struct MietteDiag<'a> {
    diag: &'a Diagnostic,
    source: miette::NamedSource<Snippet>,
    labels: Vec<miette::LabeledSpan>,
    related: Vec<MietteDiag<'a>>,
    note_message: Option<String>,
}

impl fmt::Debug for MietteDiag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl fmt::Display for MietteDiag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.note_message.as_deref().unwrap_or(&self.diag.message))
    }
}

impl std::error::Error for MietteDiag<'_> {}

impl miette::Diagnostic for MietteDiag<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        if self.note_message.is_some() {
            return None;
        }
        Some(Box::new(self.diag.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        if self.note_message.is_some() {
            return Some(miette::Severity::Advice);
        }
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        if self.note_message.is_some() {
            return None;
        }
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

fn labeled(span: Span, label: &str, sources: &Sources) -> miette::LabeledSpan {
    let len = sources
        .files
        .get(span.file as usize)
        .map(|f| f.text.len())
        .unwrap_or(0);
    let start = (span.start as usize).min(len);
    let end = (span.end as usize).min(len).max(start);
    let text = if label.is_empty() {
        None
    } else {
        Some(label.to_string())
    };
    miette::LabeledSpan::new_with_span(text, miette::SourceSpan::from(start..end))
}

fn named_source(sources: &Sources, span: Span) -> miette::NamedSource<Snippet> {
    let snippet = match sources.files.get(span.file as usize) {
        Some(f) => Snippet {
            text: f.shown.clone(),
            lines: f.line_starts().clone(),
        },
        None => Snippet {
            text: "".into(),
            lines: vec![0].into(),
        },
    };
    let name = sources
        .files
        .get(span.file as usize)
        .map_or("?".into(), |f| escape_controls(&f.name));
    miette::NamedSource::new(name, snippet)
}

/// A file's text for miette, shared (never copied) and read only around the span
/// shown: finding a line costs a binary search, not a scan from the file's start, so
/// many diagnostics in one large file cost what they show.
struct Snippet {
    text: std::sync::Arc<str>,
    lines: std::sync::Arc<[usize]>,
}

impl miette::SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let len = self.text.len();
        let start = span.offset().min(len);
        let end = (start + span.len()).min(len);
        let line_of = |at: usize| self.lines.partition_point(|&s| s <= at).saturating_sub(1);
        // Whole lines from `before` lines above the span to `after` lines below it (one
        // more each way, so miette's own counting sees the same context).
        let first = line_of(start).saturating_sub(before + 1);
        let last = line_of(end) + after + 2;
        let w0 = self.lines[first];
        let w1 = self.lines.get(last).copied().unwrap_or(len);
        let window = &self.text[w0..w1];
        let local = miette::SourceSpan::new((start - w0).into(), end - start);
        let inner = window.read_span(&local, before, after)?;
        Ok(Box::new(miette::MietteSpanContents::new(
            inner.data(),
            miette::SourceSpan::new((inner.span().offset() + w0).into(), inner.span().len()),
            inner.line() + first,
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// Whether printing `c` could act on a terminal instead of showing: a control
/// character (ESC, CR, backspace, the C1 set) other than newline and tab, or a
/// bidirectional override that reorders what the reader sees.
/// Printable ASCII, newlines and tabs only: nothing [`is_unsafe`], known byte by byte
/// (the common case, read without decoding characters).
fn plain(text: &str) -> bool {
    text.bytes()
        .all(|b| (b' '..0x7f).contains(&b) || b == b'\n' || b == b'\t')
}

/// Whether `bytes` (UTF-8) may hold a character [`is_unsafe`] other than a CR before a
/// LF, read byte by byte: a C0 control or DEL; the lead byte of a C1 control (`C2 80` to
/// `C2 9F`) or of a bidi control (`E2 80 AA` to `E2 80 AE`, `E2 81 A6` to `E2 81 A9`).
/// Text in other scripts is passed over without decoding it.
fn maybe_unsafe(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        // Printable ASCII, the most of any text, in one comparison.
        if b.wrapping_sub(b' ') < 0x7f - b' ' {
            continue;
        }
        let next = bytes.get(i).copied();
        let unsafe_here = match b {
            b'\n' | b'\t' => false,
            b'\r' => next != Some(b'\n'),
            0..=0x1f | 0x7f => true,
            0xc2 => next.is_some_and(|n| (0x80..=0x9f).contains(&n)),
            0xe2 => matches!(
                (next, bytes.get(i + 1)),
                (Some(0x80), Some(0xaa..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
            ),
            _ => false,
        };
        if unsafe_here {
            return true;
        }
    }
    false
}

fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` for a terminal: each unsafe character (see above) written as `\u{1b}`.
/// Names, labels and messages from a ruleset go through this before they are printed
/// (diagnostics, traces, odds), so a file cannot move the cursor, recolour or hide text.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if plain(text) || !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A source text to show in a snippet: each unsafe character replaced by as many `?`
/// as it has bytes, so every span still points at the same place.
pub fn mask_controls(text: &str) -> std::borrow::Cow<'_, str> {
    // CR before LF is a line ending, not a trick.
    let unsafe_at =
        |i: usize, c: char| is_unsafe(c) && !(c == '\r' && text[i + 1..].starts_with('\n'));
    if !maybe_unsafe(text.as_bytes()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if unsafe_at(i, c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn to_miette<'a>(diag: &'a Diagnostic, sources: &Sources) -> MietteDiag<'a> {
    let mut labels = vec![labeled(diag.span, &diag.label, sources)];
    let mut related = Vec::new();
    for note in &diag.notes {
        if note.span.file == diag.span.file {
            labels.push(labeled(note.span, &note.label, sources));
        } else {
            related.push(MietteDiag {
                diag,
                source: named_source(sources, note.span),
                labels: vec![labeled(note.span, &note.label, sources)],
                related: Vec::new(),
                note_message: Some(note.label.clone()),
            });
        }
    }
    MietteDiag {
        diag,
        source: named_source(sources, diag.span),
        labels,
        related,
        note_message: None,
    }
}

/// Renders one diagnostic with miette's graphical handler. `color` off and a fixed
/// `width` give the stable text used in snapshots.
/// When to colour: `--color always|never`, or `auto`, which follows the environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Whether to colour output for `choice`: `auto` colours a terminal, unless `NO_COLOR`
/// is set (not empty) or `TERM` is `dumb`; `CLICOLOR_FORCE` (set, not `0`) colours even
/// a pipe or a dumb terminal, and `NO_COLOR` wins over it. `env` reads a variable.
pub fn use_color(
    choice: ColorChoice,
    is_terminal: bool,
    env: impl Fn(&str) -> Option<String>,
) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto
            if set("CLICOLOR_FORCE") && env("CLICOLOR_FORCE").as_deref() != Some("0") =>
        {
            true
        }
        ColorChoice::Auto if env("TERM").as_deref() == Some("dumb") => false,
        ColorChoice::Auto => is_terminal,
    }
}

/// A count with its noun: `1 procedure`, `2 procedures`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn render(diag: &Diagnostic, sources: &Sources, color: bool, width: usize) -> String {
    // What the ruleset wrote (names in messages, labels) is shown, never obeyed.
    let escaped = Diagnostic {
        message: escape_controls(&diag.message).into_owned(),
        label: escape_controls(&diag.label).into_owned(),
        help: diag
            .help
            .as_deref()
            .map(|h| escape_controls(h).into_owned()),
        notes: diag
            .notes
            .iter()
            .map(|n| Note {
                span: n.span,
                label: escape_controls(&n.label).into_owned(),
            })
            .collect(),
        ..diag.clone()
    };
    let diag = &escaped;
    let theme = if color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false);
    // Without a snippet: the message, then `body` (positions), then the help.
    let plain = |body: &str| {
        let mut out = format!(
            "{}[{}]: {}\n{body}",
            level_word(diag.severity),
            diag.code,
            diag.message
        );
        if let Some(h) = &diag.help {
            out.push_str(&format!("  help: {h}\n"));
        }
        out
    };
    if sources.files.get(diag.span.file as usize).is_none() {
        // About no file (a wrong command line): the message and the help alone.
        return plain("");
    }
    if let Some(at) = too_long_to_show(diag, sources) {
        // Not drawn under its line: where each label is, and what it says.
        return plain(&format!(
            "{at}  (the line is longer than {MAX_SHOWN_LINE} bytes: not shown)\n"
        ));
    }
    let mut out = String::new();
    let md = to_miette(diag, sources);
    if handler.render_report(&mut out, &md).is_err() {
        let (file, line, col) = sources.position(diag.span);
        out = format!(
            "{}[{}]: {} at {file}:{line}:{col}\n",
            level_word(diag.severity),
            diag.code,
            diag.message
        );
    }
    out
}

/// The longest source line a diagnostic is drawn under. Past it the snippet is left out:
/// a label's column is a formatting width in miette, which panics past 65,535, and a
/// line of thousands of characters is no help in a terminal anyway.
pub const MAX_SHOWN_LINE: usize = 4_096;

/// `None` when every line the diagnostic's labels start or end on is short enough to
/// show; otherwise where each label is (`  --> file:line:col: label` lines).
fn too_long_to_show(diag: &Diagnostic, sources: &Sources) -> Option<String> {
    let labels: Vec<(Span, &str)> = std::iter::once((diag.span, diag.label.as_str()))
        .chain(diag.notes.iter().map(|n| (n.span, n.label.as_str())))
        .collect();
    let long = |span: Span| {
        let Some(f) = sources.files.get(span.file as usize) else {
            return false;
        };
        let lines = f.line_starts();
        let line_len = |at: usize| {
            let i = lines.partition_point(|&s| s <= at).saturating_sub(1);
            lines.get(i + 1).copied().unwrap_or(f.text.len()) - lines[i]
        };
        line_len(span.start as usize) > MAX_SHOWN_LINE
            || line_len(span.end as usize) > MAX_SHOWN_LINE
    };
    if !labels.iter().any(|&(span, _)| long(span)) {
        return None;
    }
    let mut at = String::new();
    for (span, label) in labels {
        if sources.files.get(span.file as usize).is_none() {
            continue;
        }
        let (file, line, col) = sources.position(span);
        let file = escape_controls(&file);
        match label {
            "" => at.push_str(&format!("  --> {file}:{line}:{col}\n")),
            l => at.push_str(&format!("  --> {file}:{line}:{col}: {l}\n")),
        }
    }
    Some(at)
}

pub fn level_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// One diagnostic as a JSON object on one line, in the shape rustc uses.
pub fn to_json(diag: &Diagnostic, sources: &Sources) -> String {
    let span_json = |span: Span, label: &str, primary: bool| {
        let (file, line, col) = sources.position(span);
        let end = Span {
            start: span.end,
            ..span
        };
        let (_, line_end, col_end) = sources.position(end);
        format!(
            "{{\"file_name\":{},\"byte_start\":{},\"byte_end\":{},\"line_start\":{line},\"column_start\":{col},\"line_end\":{line_end},\"column_end\":{col_end},\"is_primary\":{primary},\"label\":{}}}",
            json_string(&file),
            span.start,
            span.end,
            json_string(label)
        )
    };
    let mut spans = Vec::new();
    if sources.files.get(diag.span.file as usize).is_some() {
        spans.push(span_json(diag.span, &diag.label, true));
    }
    spans.extend(
        diag.notes
            .iter()
            .map(|n| span_json(n.span, &n.label, false)),
    );
    let children = match &diag.help {
        Some(h) => format!("[{{\"message\":{},\"level\":\"help\"}}]", json_string(h)),
        None => "[]".to_string(),
    };
    format!(
        "{{\"message\":{},\"code\":{{\"code\":{}}},\"level\":\"{}\",\"spans\":[{}],\"children\":{children},\"rendered\":{}}}",
        json_string(&diag.message),
        json_string(diag.code),
        level_word(diag.severity),
        spans.join(","),
        json_string(&render(diag, sources, false, 100))
    )
}

/// An error about no file (a usage error, a bug) as a JSON line in the same shape as
/// [`to_json`], with no spans; `rendered` is the text the human format would print.
pub fn error_json(code: &str, message: &str, help: &str, rendered: &str) -> String {
    format!(
        "{{\"message\":{},\"code\":{{\"code\":{}}},\"level\":\"error\",\"spans\":[],\"children\":[{{\"message\":{},\"level\":\"help\"}}],\"rendered\":{}}}",
        json_string(message),
        json_string(code),
        json_string(help),
        json_string(rendered)
    )
}

/// A JSON string literal; any text (control characters included) gives valid JSON.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe(c) || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_finds_what_the_character_test_finds() {
        // The edges of each range [`is_unsafe`] names, and characters of other scripts.
        let chars = [
            '\u{0}', '\u{1f}', ' ', '~', '\u{7f}', '\u{80}', '\u{9f}', '\u{a0}', 'é', '—',
            '\u{2029}', '\u{202a}', '\u{202e}', '\u{202f}', '\u{2065}', '\u{2066}', '\u{2069}',
            '\u{206a}', '\u{2080}', '\u{2190}', '\n', '\t', '\r',
        ];
        for c in chars {
            let text = format!("a{c}b");
            assert_eq!(maybe_unsafe(text.as_bytes()), is_unsafe(c), "{c:?}");
        }
        assert!(!maybe_unsafe(b"a\r\nb"), "CR LF is a line ending");
        assert!(maybe_unsafe(b"a\r"), "a CR at the end is not");
    }

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            did_you_mean("acton_costs", ["action_costs", "tables"]),
            Some("action_costs".into())
        );
        assert_eq!(did_you_mean("zzz", ["action_costs"]), None);
        // Swapped neighbours are one edit, so short names get their suggestion.
        assert_eq!(did_you_mean("Haed", ["Head", "Torso"]), Some("Head".into()));
        assert_eq!(did_you_mean("bonsu", ["bonus"]), Some("bonus".into()));
        // Two edits in a four-letter name are too many.
        assert_eq!(did_you_mean("Hdae", ["Head"]), None);
    }

    #[test]
    fn json_strings_escape_everything() {
        assert_eq!(json_string("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u0001\"");
    }
}

#[cfg(test)]
mod color_tests {
    use super::{count, use_color, ColorChoice::*};

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    type Case<'a> = (super::ColorChoice, bool, &'a [(&'a str, &'a str)], bool);

    #[test]
    fn color_follows_the_flag_then_no_color_clicolor_force_and_term() {
        let cases: &[Case] = &[
            (Always, false, &[("NO_COLOR", "1")], true),
            (Never, true, &[("CLICOLOR_FORCE", "1")], false),
            (Auto, true, &[], true),
            (Auto, false, &[], false),
            (Auto, true, &[("TERM", "dumb")], false),
            (Auto, true, &[("TERM", "xterm-256color")], true),
            (Auto, true, &[("NO_COLOR", "1")], false),
            // An empty NO_COLOR is not set (no-color.org).
            (Auto, true, &[("NO_COLOR", "")], true),
            (Auto, false, &[("CLICOLOR_FORCE", "1")], true),
            (
                Auto,
                true,
                &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")],
                true,
            ),
            (Auto, false, &[("CLICOLOR_FORCE", "0")], false),
            (
                Auto,
                false,
                &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
                false,
            ),
        ];
        for (choice, tty, vars, want) in cases {
            assert_eq!(
                use_color(*choice, *tty, env(vars)),
                *want,
                "{choice:?}, terminal {tty}, {vars:?}"
            );
        }
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(count(0, "procedure", "procedures"), "0 procedures");
        assert_eq!(count(1, "procedure", "procedures"), "1 procedure");
        assert_eq!(count(2, "procedure", "procedures"), "2 procedures");
    }
}
