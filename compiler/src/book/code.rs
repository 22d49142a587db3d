//! Formulas and procedures as written, highlighted: keywords (the grammar's own list,
//! [`crate::syntax::KEYWORDS`]), built-ins, numbers, strings and comments; each name
//! the checker resolved linked to its definition; each line anchored (`L-<file>-<n>`).
//! The text is only coloured, never re-parsed: what the checker resolved is read from
//! its index by position.

use super::html::{anchor, esc};
use super::Ruleset;
use crate::source::Span;
use crate::syntax::{BUILTINS, KEYWORDS};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The anchor of line `line` (1-based) of source file `file`.
pub fn line_anchor(rs: &Ruleset, file: u32, line: usize) -> String {
    let name =
        rs.p.sources
            .files
            .get(file as usize)
            .map_or("", |f| f.name.as_str());
    format!("{}-{line}", anchor("L", name))
}

/// Where each resolved name starts in the sources (file, byte offset), and the page and
/// anchor of what it names.
pub struct Links(BTreeMap<(u32, u32), (u32, String)>);

impl Links {
    pub fn new(rs: &Ruleset) -> Links {
        let mut map = BTreeMap::new();
        for (span, i) in &rs.index.refs {
            if let Some(t) = rs.index.symbols.get(*i).and_then(|s| rs.target(s)) {
                map.insert((span.file, span.start), (span.end, t));
            }
        }
        for s in &rs.index.symbols {
            if let Some(t) = rs.target(s) {
                map.entry((s.span.file, s.span.start))
                    .or_insert((s.span.end, t));
            }
        }
        Links(map)
    }
}

/// The text of `span`, whole lines, as a highlighted block.
pub fn block(rs: &Ruleset, links: &Links, span: Span) -> String {
    let Some(file) = rs.p.sources.files.get(span.file as usize) else {
        return String::new();
    };
    let text = &file.text;
    let starts = file.line_starts();
    let first = starts
        .partition_point(|&s| s <= span.start as usize)
        .saturating_sub(1);
    let mut out = String::from("<pre class=\"code\">");
    let mut line = first;
    while line < starts.len() && starts[line] < (span.end as usize).max(span.start as usize + 1) {
        let from = starts[line];
        let to = starts
            .get(line + 1)
            .map_or(text.len(), |&n| n.saturating_sub(1))
            .max(from);
        let id = line_anchor(rs, span.file, line + 1);
        let _ = write!(
            out,
            "<span class=\"line\" id=\"{id}\"><a class=\"ln\" href=\"#{id}\">{}</a>",
            line + 1
        );
        out.push_str(&highlight(links, span.file, from, &text[from..to]));
        out.push_str("</span>\n");
        line += 1;
    }
    out.push_str("</pre>");
    out
}

/// One line of code (`base`: where it starts in its file) as highlighted HTML.
fn highlight(links: &Links, file: u32, base: usize, line: &str) -> String {
    let mut out = String::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if rest.starts_with("//") || rest.starts_with('#') {
            let _ = write!(
                out,
                "<span class=\"cm\">{}</span>",
                esc(rest.trim_end_matches('\r'))
            );
            break;
        }
        if c == '"' {
            let end = rest[1..].find('"').map_or(rest.len(), |e| e + 2);
            let _ = write!(out, "<span class=\"str\">{}</span>", esc(&rest[..end]));
            i += end;
            continue;
        }
        if c.is_ascii_digit() {
            let end = rest
                .find(|ch: char| !ch.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            let _ = write!(out, "<span class=\"num-lit\">{}</span>", esc(&rest[..end]));
            i += end;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let end = rest
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..end];
            let at = (file, (base + i) as u32);
            match links.0.get(&at) {
                Some((_, href)) => {
                    let _ = write!(out, "<a href=\"{}\">{}</a>", esc(href), esc(word));
                }
                None if KEYWORDS.contains(&word) => {
                    let _ = write!(out, "<span class=\"kw\">{}</span>", esc(word));
                }
                None if BUILTINS.contains(&word) => {
                    let _ = write!(out, "<span class=\"bi\">{}</span>", esc(word));
                }
                None => out.push_str(&esc(word)),
            }
            i += end;
            continue;
        }
        out.push_str(&esc(&rest[..c.len_utf8()]));
        i += c.len_utf8();
    }
    out
}
