//! YAML loading: bytes → a tree where every node keeps its span.
//!
//! serde-saphyr parses (duplicate keys rejected, budgets against alias bombs and deep
//! nesting) and deserializes into [`YNode`], our own spanned tree, through
//! `Spanned<T>` at every level. The loader then reads that tree against the ruleset's
//! schema itself, so that one file with five mistakes gives five diagnostics (serde's
//! derived structs stop at the first), each with a "did you mean" where it helps.

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{FileId, SourceFile, Span};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use std::fmt;

/// Limits on one YAML file (also stated in the README).
pub const MAX_YAML_DEPTH: usize = 64;
pub const MAX_YAML_NODES: usize = 200_000;
pub const MAX_YAML_ALIASES: usize = 1_000;
/// Most YAML nodes one run builds, across every file it reads (ruleset, bases, packs,
/// scenario): with the byte budget ([`crate::load::MAX_RUN_BYTES`]) this keeps a run's
/// memory within a small multiple of its input, however many files use aliases.
pub const MAX_RUN_YAML_NODES: usize = 1_000_000;

#[derive(Debug, Clone, PartialEq)]
pub struct YNode {
    pub span: Span,
    pub value: YValue,
}

#[derive(Debug, Clone, PartialEq)]
pub enum YValue {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer literal outside the 64-bit range, kept as written.
    BigInt(String),
    Float(f64),
    Str(String),
    Seq(Vec<YNode>),
    Map(Vec<(YNode, YNode)>),
}

impl YNode {
    pub fn kind(&self) -> &'static str {
        match self.value {
            YValue::Null => "nothing",
            YValue::Bool(_) => "a boolean",
            YValue::Int(_) | YValue::BigInt(_) => "an integer",
            YValue::Float(_) => "a decimal number",
            YValue::Str(_) => "text",
            YValue::Seq(_) => "a list",
            YValue::Map(_) => "a mapping",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            YValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The node as a key or short scalar: text, or an integer written as text.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            YValue::Str(s) => Some(s.clone()),
            YValue::Int(i) => Some(i.to_string()),
            YValue::BigInt(s) => Some(s.clone()),
            YValue::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(YNode, YNode)]> {
        match &self.value {
            YValue::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[YNode]> {
        match &self.value {
            YValue::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// Looks a key up in a mapping.
    pub fn get(&self, key: &str) -> Option<&YNode> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// Looks a key up in a mapping, to change its value.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut YNode> {
        match &mut self.value {
            YValue::Map(m) => m
                .iter_mut()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Reports every key of `map` that is not one of `known` as `E0103` ("unknown key
/// `k` in `place`"), with the nearest known key as a suggestion. The one check behind
/// every file whose top-level keys are fixed (scenarios, packs, fight files).
pub fn unknown_keys(map: &[(YNode, YNode)], known: &[&str], place: &str, diags: &mut Diagnostics) {
    for (k, _) in map {
        let key = k.scalar_text().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            diags.push(
                Diagnostic::error("E0103", k.span, format!("unknown key `{key}` in {place}"))
                    .label("unknown key")
                    .help(crate::diag::suggest(&key, known, "keys")),
            );
        }
    }
}

/// A node that must be a mapping (or be empty): its entries, or none if it is something
/// else, reported as `E0102` naming `what` with `help`. Every reader of a mapping goes
/// through here, so a wrong shape is never silently taken as empty.
pub fn mapping<'a>(
    node: &'a YNode,
    what: &str,
    help: &str,
    diags: &mut Diagnostics,
) -> &'a [(YNode, YNode)] {
    match &node.value {
        YValue::Map(m) => m,
        YValue::Null => &[],
        _ => {
            diags.push(
                Diagnostic::error(
                    "E0102",
                    node.span,
                    format!("`{what}` is a mapping, not {}", node.kind()),
                )
                .label("expected a mapping")
                .help(help.to_string()),
            );
            &[]
        }
    }
}

/// The tree as serde sees it, before spans are turned into byte ranges.
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    BigInt(String),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v)
            .map(Raw::Int)
            .unwrap_or_else(|_| Raw::BigInt(v.to_string())))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Raw, E> {
        Ok(i64::try_from(v)
            .map(Raw::Int)
            .unwrap_or_else(|_| Raw::BigInt(v.to_string())))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Raw, E> {
        Ok(i64::try_from(v)
            .map(Raw::Int)
            .unwrap_or_else(|_| Raw::BigInt(v.to_string())))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bytes<E: de::Error>(self, _v: &[u8]) -> Result<Raw, E> {
        Err(E::custom("binary values are not supported"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(k) = map.next_key::<Spanned<Raw>>()? {
            let v = map.next_value::<Spanned<Raw>>()?;
            items.push((k, v));
        }
        Ok(Raw::Map(items))
    }
}

fn options(max_nodes: usize) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_YAML_DEPTH;
    budget.flow_nesting_limit = MAX_YAML_DEPTH;
    budget.max_nodes = max_nodes;
    budget.max_aliases = MAX_YAML_ALIASES;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.with_snippet = false;
    // Only `true` and `false` are booleans: a parameter or level named `n`, `y`, `on` or
    // `off` stays a name (YAML 1.1 would read them as booleans).
    options.strict_booleans = true;
    options
}

fn span_of(file: FileId, src: &SourceFile, loc: &serde_saphyr::Location) -> Span {
    let s = loc.span();
    let start = match s.byte_offset() {
        Some(b) => b as usize,
        None => src.offset_of(loc.line(), loc.column()),
    };
    let len = s.byte_len().map(|l| l as usize).unwrap_or(0);
    // Keep spans on character boundaries inside the file.
    let mut start = start.min(src.text.len());
    while !src.text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + len).min(src.text.len());
    while !src.text.is_char_boundary(end) {
        end += 1;
    }
    Span::new(file, start, end)
}

fn convert(file: FileId, src: &SourceFile, raw: Spanned<Raw>, nodes: &mut usize) -> YNode {
    *nodes += 1;
    let span = span_of(file, src, &raw.referenced);
    let value = match raw.value {
        Raw::Null => YValue::Null,
        Raw::Bool(b) => YValue::Bool(b),
        Raw::Int(i) => YValue::Int(i),
        Raw::BigInt(s) => YValue::BigInt(s),
        Raw::Float(f) => {
            // An integer literal too large for 64 bits arrives as a float: keep it as
            // written so the checker can say "too large" rather than "not an integer".
            let text = src.slice(span).trim();
            let digits = text.strip_prefix('-').unwrap_or(text);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                YValue::BigInt(text.to_string())
            } else {
                YValue::Float(f)
            }
        }
        Raw::Str(s) => YValue::Str(s),
        Raw::Seq(items) => YValue::Seq(
            items
                .into_iter()
                .map(|i| convert(file, src, i, nodes))
                .collect(),
        ),
        Raw::Map(items) => YValue::Map(
            items
                .into_iter()
                .map(|(k, v)| (convert(file, src, k, nodes), convert(file, src, v, nodes)))
                .collect(),
        ),
    };
    // A mapping or list node's own span is its first token; widen it to its children so
    // a label covers the whole thing.
    let span = match &value {
        YValue::Map(m) => m.last().map(|(_, v)| span.to(v.span)).unwrap_or(span),
        YValue::Seq(s) => s.last().map(|v| span.to(v.span)).unwrap_or(span),
        _ => span,
    };
    YNode { span, value }
}

/// Parses one YAML file. A syntax error, a duplicate key or a budget breach becomes one
/// diagnostic (YAML cannot be read past its first syntax error).
pub fn parse(file: FileId, src: &SourceFile, diags: &mut Diagnostics) -> Option<YNode> {
    parse_within(file, src, MAX_RUN_YAML_NODES, diags).map(|(node, _)| node)
}

/// Parses one YAML file with at most `run_nodes` nodes left in the run's budget (the
/// file's own limit, [`MAX_YAML_NODES`], still applies): the tree and how many nodes it
/// has.
pub fn parse_within(
    file: FileId,
    src: &SourceFile,
    run_nodes: usize,
    diags: &mut Diagnostics,
) -> Option<(YNode, usize)> {
    if src.text.trim().is_empty() {
        let empty = YNode {
            span: Span::new(file, 0, 0),
            value: YValue::Map(Vec::new()),
        };
        return Some((empty, 1));
    }
    let max_nodes = run_nodes.min(MAX_YAML_NODES);
    match serde_saphyr::from_str_with_options::<Spanned<Raw>>(&src.text, options(max_nodes)) {
        Ok(raw) => {
            let mut nodes = 0;
            let node = convert(file, src, raw, &mut nodes);
            if nodes > max_nodes {
                diags.push(
                    Diagnostic::error(
                        "E0105",
                        Span::new(file, 0, 0),
                        format!("this YAML expands to more than {max_nodes} nodes"),
                    )
                    .label("this file")
                    .help(format!(
                        "a file may have at most {MAX_YAML_NODES} YAML nodes (aliases \
                         counted where used), and one run {MAX_RUN_YAML_NODES}"
                    )),
                );
                return None;
            }
            Some((node, nodes))
        }
        Err(e) => {
            let mut d = yaml_error(file, src, &e);
            if d.code == "E0105" && max_nodes < MAX_YAML_NODES {
                d = d.help(format!(
                    "one run reads at most {MAX_RUN_YAML_NODES} YAML nodes across all its files; \
                     this file went past what the files before it left"
                ));
            }
            diags.push(d);
            None
        }
    }
}

fn yaml_error(file: FileId, src: &SourceFile, e: &serde_saphyr::Error) -> Diagnostic {
    let span = match e.location() {
        Some(loc) if loc.line() > 0 => {
            let s = span_of(file, src, &loc);
            let end = src.text[s.start as usize..]
                .char_indices()
                .nth(1)
                .map(|(i, _)| s.start as usize + i)
                .unwrap_or(s.start as usize);
            Span::new(file, s.start as usize, end.max(s.end as usize))
        }
        _ => Span::new(file, 0, 0),
    };
    let raw = e.without_snippet().to_string();
    let mut message = raw
        .lines()
        .next()
        .unwrap_or("invalid YAML")
        .trim()
        .to_string();
    // The label shows the position; drop the library's own " at line N, column M".
    if let Some(i) = message.rfind(" at line ") {
        message.truncate(i);
    }
    if let Some(rest) = message.strip_prefix("duplicate mapping key: ") {
        let key = rest.split(", set ").next().unwrap_or(rest);
        message = format!("the key `{key}` appears twice in this mapping");
    }
    let lower = raw.to_lowercase();
    let (code, help) = if lower.contains("duplicate") {
        (
            "E0104",
            "each key may appear once in a mapping; remove one of them, or merge their values",
        )
    } else if lower.contains("budget")
        || lower.contains("depth")
        || lower.contains("alias")
        || lower.contains("limit")
    {
        (
            "E0105",
            "this file is nested too deeply or expands too many aliases; simplify it",
        )
    } else {
        (
            "E0101",
            "check the indentation, colons and quotes around this position",
        )
    };
    Diagnostic::error(code, span, format!("this YAML cannot be read: {message}"))
        .label("here")
        .help(help)
}
