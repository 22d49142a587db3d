//! Doc comments of generated items: the writer's own comments around a definition (the
//! grammar drops comments, so they are read back from the source text around the
//! definition's span), the `doc:` of a field, and where the definition is written.
//!
//! A comment belongs to a definition when it is the block of comment lines right above
//! the definition's line, with no blank line between, and the definition starts its line
//! (a YAML `- ` item counts); in YAML a comment after the definition on its own line
//! belongs to it too. Text goes out through [`ident::doc_prose`](super::ident::doc_prose).

use super::ident::{doc_attr, doc_prose, lit};
use super::Gen;
use crate::source::{Sources, Span};

/// The writer's comment for the definition at `span`, one string per comment line.
///
/// Each call costs only the definition's own surroundings (the comment lines above it,
/// the rest of its entry on its line), never a whole line or file: a line holding
/// 10,000 enum variants is read once, not once per variant.
pub fn comment(sources: &Sources, span: Span) -> Vec<String> {
    let Some(file) = sources.files.get(span.file as usize) else {
        return Vec::new();
    };
    let yaml = !file.name.ends_with(".rules");
    let marker = if yaml { "#" } else { "//" };
    let text = &file.text;
    let lines = file.line_starts();
    let start = (span.start as usize).min(text.len());
    let line = line_of(lines, start);
    let mut out = Vec::new();
    // Only blanks (or a YAML list item's `-`) before the definition on its line.
    let before = text[lines[line]..start].trim_end();
    let starts_line = before.is_empty()
        || (yaml
            && before
                .strip_suffix('-')
                .is_some_and(|r| r.trim().is_empty()));
    if starts_line {
        let mut above: Vec<&str> = Vec::new();
        for l in (0..line).rev() {
            let prev = text[lines[l]..lines[l + 1] - 1].trim();
            match prev.strip_prefix(marker) {
                Some(c) if !c.trim_start().starts_with("yaml-language-server:") => {
                    above.push(c.trim_start_matches(['#', '/', '!']).trim())
                }
                _ => break,
            }
        }
        out.extend(above.into_iter().rev().map(String::from));
    }
    if yaml {
        let end = (span.end as usize).clamp(start, text.len());
        let line_end = lines
            .get(line_of(lines, end) + 1)
            .map_or(text.len(), |&next| next - 1);
        if let Some(c) = yaml_trailing_comment(&text[end..line_end]) {
            out.push(c.to_string());
        }
    }
    // Blank comment lines at either end say nothing.
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    indent_list_continuations(out)
}

/// Rustdoc reads the comment as Markdown: a line that continues a list item (`- `, `* `,
/// `1. `) is indented under the item's text, as the writer meant it, rather than left as
/// a lazy continuation (which clippy's `doc_lazy_continuation` rejects).
fn indent_list_continuations(lines: Vec<String>) -> Vec<String> {
    let mut item: Option<usize> = None;
    lines
        .into_iter()
        .map(|l| {
            if l.is_empty() {
                item = None;
                return l;
            }
            let digits = l.len() - l.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let marker = if l.starts_with("- ") || l.starts_with("* ") || l.starts_with("+ ") {
                Some(2)
            } else if digits > 0 && (l[digits..].starts_with(". ") || l[digits..].starts_with(") "))
            {
                Some(digits + 2)
            } else {
                None
            };
            match (marker, item) {
                (Some(width), _) => {
                    item = Some(width);
                    l
                }
                (None, Some(width)) => format!("{}{l}", " ".repeat(width)),
                (None, None) => l,
            }
        })
        .collect()
}

/// The writer's doc lines with every fenced code block marked `text`, and one left open
/// closed at the end. Rustdoc compiles and runs a fenced block with no language (or
/// `rust`) as a doctest of the crate that includes the generated module: a writer's
/// example in a comment would break a game's `cargo test`, and a stranger's ruleset
/// could run any code there. An opening fence (three or more backticks or tildes) loses
/// its info string for `text`; a closing fence (the same character, at least as many,
/// nothing after) is kept. (An indented code block, the other kind rustdoc runs, cannot
/// arise: comment lines and a `doc:` are trimmed, and the only indent added is a list
/// item's continuation, which stays inside the item.)
pub fn code_as_text(lines: Vec<String>) -> Vec<String> {
    /// The fence a line opens or closes with: its indent, character, length and what
    /// follows it. Any indent counts: a comment line is trimmed, so an indent here is a
    /// list item's continuation, inside which a fence still opens a block.
    fn fence(line: &str) -> Option<(usize, char, usize, &str)> {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
        let n = rest.len() - rest.trim_start_matches(c).len();
        (n >= 3).then(|| (indent, c, n, &rest[n..]))
    }
    let mut open: Option<(usize, char, usize)> = None;
    let mut out: Vec<String> = lines
        .into_iter()
        .map(|l| match (open, fence(&l)) {
            (None, Some((indent, c, n, info))) if c == '~' || !info.contains('`') => {
                open = Some((indent, c, n));
                format!("{}{}text", " ".repeat(indent), c.to_string().repeat(n))
            }
            (Some((_, c, n)), Some((_, d, m, after)))
                if d == c && m >= n && after.trim().is_empty() =>
            {
                open = None;
                l
            }
            _ => l,
        })
        .collect();
    if let Some((indent, c, n)) = open {
        out.push(format!("{}{}", " ".repeat(indent), c.to_string().repeat(n)));
    }
    out
}

/// The index of the line holding byte `offset`.
fn line_of(lines: &[usize], offset: usize) -> usize {
    lines.partition_point(|&s| s <= offset).saturating_sub(1)
}

/// The text of a YAML comment in `rest` (what follows a value on its line): a `#` after
/// whitespace, outside quotes, before the next entry of the collection the value is in
/// (a `,` outside brackets): in `[A, B]  # note` the note is `B`'s, not `A`'s.
fn yaml_trailing_comment(rest: &str) -> Option<&str> {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut prev = ' ';
    for (i, c) in rest.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => {
                return Some(rest[i + 1..].trim()).filter(|c| !c.is_empty());
            }
            None if c == '[' || c == '{' => depth += 1,
            None if c == ']' || c == '}' => depth = depth.saturating_sub(1),
            None if c == ',' && depth == 0 => return None,
            None => {}
        }
        prev = c;
    }
    None
}

impl Gen<'_> {
    /// The doc lines of an item defined at `span`: the writer's comment (or `title` when
    /// there is none), then where it is written. Lines are escaped prose.
    /// `title` is generated text (names are identifiers or escaped), kept as is.
    pub(super) fn item_lines(&self, title: &str, span: Span) -> Vec<String> {
        let mut lines = code_as_text(
            comment(&self.p.sources, span)
                .iter()
                .map(|l| doc_prose(l))
                .collect(),
        );
        if lines.is_empty() {
            lines.push(title.to_string());
        }
        // The line only: counting the column would read the line up to the item.
        let (file, line) = match self.p.sources.files.get(span.file as usize) {
            Some(f) => (f.name.as_str(), f.line(span.start as usize)),
            None => ("?", 0),
        };
        lines.push(String::new());
        lines.push(doc_prose(&format!("Defined in `{file}`, line {line}.")));
        lines
    }

    /// [`Self::item_lines`] as `#[doc]` attributes.
    pub(super) fn item_doc(&self, title: &str, span: Span) -> String {
        attrs(&self.item_lines(title, span))
    }

    /// The doc attributes of a part of an item (a field, a variant, a tag): the writer's
    /// comment around `span`, then `doc` (a field's `doc:`, a label), else `fallback`
    /// (generated text, kept as is).
    pub(super) fn part_doc(&self, span: Option<Span>, doc: Option<&str>, fallback: &str) -> String {
        let mut lines = span.map_or_else(Vec::new, |s| comment(&self.p.sources, s));
        if let Some(d) = doc.map(str::trim).filter(|d| !d.is_empty()) {
            // Trimmed, like a comment line: indented, it could start a code block.
            lines.push(d.to_string());
        }
        let mut lines = code_as_text(lines.iter().map(|l| doc_prose(l)).collect());
        if lines.is_empty() {
            lines.push(fallback.to_string());
        }
        attrs(&lines)
    }
}

/// Escaped doc lines as `#[doc = "..."]` attributes, one a line.
pub(super) fn attrs(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| doc_attr(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Escaped doc lines as attributes of a `codegen::Function`.
pub(super) fn fn_doc(f: &mut codegen::Function, lines: &[String]) {
    for l in lines {
        f.attr(&format!("doc = {}", lit(&format!(" {l}"))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;
    use std::path::PathBuf;

    fn at(name: &str, text: &str, needle: &str) -> Vec<String> {
        let mut s = Sources::default();
        let id = s.add(SourceFile::new(name.into(), PathBuf::new(), text.into()));
        let start = text.find(needle).unwrap();
        comment(&s, Span::new(id, start, start + needle.len()))
    }

    #[test]
    fn comments_above_and_after_a_yaml_definition() {
        let yaml = "# yaml-language-server: $schema=x\n# file header\n\ntypes:\n  # K13: what the book lists.\n  # Second line.\n  Weapon:\n    skill: Skill  # the \"#\" skill # really\n    damage: '#x' # quoted\n  Plain: {}\n";
        assert_eq!(
            at("r/data.yaml", yaml, "Weapon"),
            ["K13: what the book lists.", "Second line."]
        );
        assert_eq!(
            at("r/data.yaml", yaml, "skill"),
            ["the \"#\" skill # really"]
        );
        assert_eq!(at("r/data.yaml", yaml, "damage"), ["quoted"]);
        assert!(at("r/data.yaml", yaml, "Plain").is_empty());
        // Separated by a blank line, and a header: neither belongs to `types`.
        assert!(at("r/data.yaml", yaml, "types").is_empty());
        // An item that does not start its line takes no comment from above.
        assert!(at("r/data.yaml", "# about A\nE: [A, B]\n", "B").is_empty());
    }

    #[test]
    fn a_trailing_comment_belongs_to_the_last_entry_before_it() {
        let yaml = "E: [A, B]  # about B\n";
        assert!(at("r/data.yaml", yaml, "A").is_empty());
        assert_eq!(at("r/data.yaml", yaml, "B"), ["about B"]);
        // Commas inside the entry's own brackets do not end it.
        let yaml = "    w1: { damage: 3, kind: Blade }  # the first\n";
        assert_eq!(at("r/data.yaml", yaml, "w1"), ["the first"]);
    }

    #[test]
    fn list_items_keep_their_continuation_lines() {
        let rules = "// Cases:\n// - one, which goes\n// on here;\n// 10. ten\n// more\n//\n// After.\nformula f() = 1\n";
        assert_eq!(
            at("r/a.rules", rules, "formula"),
            [
                "Cases:",
                "- one, which goes",
                "  on here;",
                "10. ten",
                "    more",
                "",
                "After."
            ]
        );
    }

    #[test]
    fn comments_above_a_rules_definition() {
        let rules = "// header\n\n// K9: the attack.\n/// Doc style too.\nprocedure attack() -> int {\n  // inside\n  return 1 // not a doc\n}\n";
        assert_eq!(
            at("r/a.rules", rules, "procedure"),
            ["K9: the attack.", "Doc style too."]
        );
        assert_eq!(at("r/a.rules", rules, "return"), ["inside"]);
    }

    #[test]
    fn code_in_a_writers_comment_is_text_not_a_doctest() {
        let lines = |t: &str| t.lines().map(String::from).collect::<Vec<_>>();
        let cases: &[(&str, &str)] = &[
            // No language, `rust`, `ignore`, tildes: all text; the closing fence kept.
            ("```\nlet x = 1;\n```", "```text\nlet x = 1;\n```"),
            ("```rust\nx\n```", "```text\nx\n```"),
            ("~~~ rust,no_run\nx\n~~~", "~~~text\nx\n~~~"),
            // A longer fence closes only on one at least as long, of the same character.
            ("````\n```\n~~~\n````", "````text\n```\n~~~\n````"),
            // An indented fence (a list item's continuation) still is one, closed at
            // its indent when left open.
            ("   ```\nx\n   ```", "   ```text\nx\n   ```"),
            (
                "- item\n    ```\n    x",
                "- item\n    ```text\n    x\n    ```",
            ),
            // Two backticks, or backticks in the info string: inline code, not a fence.
            ("``x``\nplain", "``x``\nplain"),
            ("``` a ` b\nplain", "``` a ` b\nplain"),
            // A fence with text after it does not close the block.
            ("```\n``` more\n```", "```text\n``` more\n```"),
            // One left open is closed at the end, so nothing after it is code.
            ("Example:\n```\nroll d6", "Example:\n```text\nroll d6\n```"),
            (
                "two\n```\na\n```\n```py\nb\n```",
                "two\n```text\na\n```\n```text\nb\n```",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(code_as_text(lines(input)), lines(want), "{input:?}");
        }
    }
}
