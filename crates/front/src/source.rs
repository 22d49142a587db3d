//! Source files and spans. Every node the compiler builds keeps a [`Span`]: which file,
//! and which bytes of it, so a diagnostic or a trace can point at the exact line.

use std::path::PathBuf;
use std::sync::Arc;

/// Index of a file in the [`Sources`] of one compilation.
pub type FileId = u32;

/// A byte range of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        let end = u32::try_from(end).unwrap_or(u32::MAX).max(start);
        Span { file, start, end }
    }

    /// The smallest span covering both (same file assumed; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// One loaded file: the name diagnostics show (relative to the ruleset's parent folder,
/// with `/` separators, so snapshots do not depend on the machine) and its text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub path: PathBuf,
    /// Shared: copying the sources of a run (each stage that adds files keeps its own
    /// list) or rendering a diagnostic never copies a file's text.
    pub text: Arc<str>,
    /// The text as diagnostics show it: `text` itself, unless it holds characters a
    /// terminal would obey (see [`crate::diag::escape_controls`]), each then masked by
    /// as many `?` as it has bytes (so spans still fit).
    pub shown: Arc<str>,
    line_starts: Arc<[usize]>,
}

impl SourceFile {
    pub fn new(name: String, path: PathBuf, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let text: Arc<str> = text.into();
        let shown = match crate::diag::mask_controls(&text) {
            std::borrow::Cow::Borrowed(_) => text.clone(),
            std::borrow::Cow::Owned(masked) => masked.into(),
        };
        SourceFile {
            name,
            path,
            text,
            shown,
            line_starts: line_starts.into(),
        }
    }

    /// The byte offset where each line starts (0 first).
    pub fn line_starts(&self) -> &Arc<[usize]> {
        &self.line_starts
    }

    /// 0-based line of a byte offset (a search, not a count: cheap on a long line).
    fn line_index(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> u32 {
        self.line_index(offset.min(self.text.len())) as u32 + 1
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line as u32 + 1, col as u32 + 1)
    }

    /// The text of a span, or "" if it does not fall on character boundaries.
    pub fn slice(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Byte offset of a 1-based line and column (in characters).
    pub fn offset_of(&self, line: u64, col: u64) -> usize {
        let Some(&start) = self.line_starts.get((line.max(1) - 1) as usize) else {
            return self.text.len();
        };
        let rest = &self.text[start..];
        let skip = col.saturating_sub(1) as usize;
        start
            + rest
                .char_indices()
                .nth(skip)
                .map(|(i, _)| i)
                .unwrap_or(rest.len())
    }
}

/// Every file of a compilation.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub files: Vec<SourceFile>,
    /// YAML nodes built from these files so far (the run's budget,
    /// [`crate::yaml::MAX_RUN_YAML_NODES`]).
    pub yaml_nodes: usize,
}

impl Sources {
    /// Bytes of text held, across every file (the run's budget,
    /// [`crate::load::MAX_RUN_BYTES`]).
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.text.len() as u64).sum()
    }

    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        (self.files.len() - 1) as FileId
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    pub fn slice(&self, span: Span) -> &str {
        self.files
            .get(span.file as usize)
            .map(|f| f.slice(span))
            .unwrap_or("")
    }

    /// The text a trace shows for `span`: its first line, trimmed (without the `{` that
    /// opens a block cut off after it), cut as traces cut text: after
    /// `show::MAX_CITED` bytes, with `…`.
    pub fn snippet(&self, span: Span) -> String {
        let whole = self.slice(span);
        let first = whole.lines().next().unwrap_or("").trim();
        let first = match first.strip_suffix('{') {
            Some(opening) if first.len() < whole.trim().len() => opening.trim_end(),
            _ => first,
        };
        rulesc_runtime::__private::show::cut_to(
            first.to_string(),
            rulesc_runtime::__private::show::MAX_CITED,
        )
    }

    /// `file:line:col` of a span's start.
    pub fn position(&self, span: Span) -> (String, u32, u32) {
        match self.files.get(span.file as usize) {
            Some(f) => {
                let (l, c) = f.line_col(span.start as usize);
                (f.name.clone(), l, c)
            }
            None => (String::from("?"), 0, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{SourceFile, Sources, Span};
    use rulesc_runtime::__private::show::MAX_CITED;

    fn snippet(text: &str) -> String {
        let mut sources = Sources::default();
        let id = sources.add(SourceFile::new(
            "r/a.rules".into(),
            "a.rules".into(),
            text.into(),
        ));
        sources.snippet(Span::new(id, 0, text.len()))
    }

    /// The rule's text a trace cites is cut as values are: whole at the limit, with `…`
    /// one byte over, never inside a character; a block's `{` is not shown.
    #[test]
    fn cited_text_is_cut_with_an_ellipsis_at_a_character_boundary() {
        let at_limit = "x".repeat(MAX_CITED);
        assert_eq!(snippet(&at_limit), at_limit);
        let over = "x".repeat(MAX_CITED + 1);
        assert_eq!(snippet(&over), "x".repeat(MAX_CITED) + "…");
        // `é` (two bytes) across the limit: cut before it.
        let accent = "x".repeat(MAX_CITED - 1) + "é";
        assert_eq!(snippet(&accent), "x".repeat(MAX_CITED - 1) + "…");
        // A block's first line: its `{` goes, and what is left fits.
        let block = format!("{} {{\n  return 1\n}}", "y".repeat(MAX_CITED));
        assert_eq!(snippet(&block), "y".repeat(MAX_CITED));
        assert_eq!(snippet("if x > 3 {\n  return 1\n}"), "if x > 3");
    }
}
