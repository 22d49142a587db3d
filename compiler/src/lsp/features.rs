//! The requests: hover, go to definition, completion (a YAML value's through
//! [`super::yaml_values`]), rename (and formatting, which reads only the open document).
//! Each other reads the index of the last check ([`crate::check::index`]): what a name
//! at a position refers to is what the checker resolved it to.

use super::convert::{self, canonical, Encoding};
use super::yaml_values;
use super::{Analysis, Doc, Extra};
use crate::check::index::{Index, Symbol, SymbolKind};
use crate::source::{Sources, Span};
use lsp_types as lsp;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// What a request may read.
pub(crate) struct World<'a> {
    pub enc: Encoding,
    pub docs: &'a BTreeMap<PathBuf, Doc>,
    pub analyses: &'a BTreeMap<PathBuf, Analysis>,
    /// Open packs, scenarios and fight files, with their rulesets.
    pub extras: &'a BTreeMap<PathBuf, Extra>,
}

/// A position resolved into one analysis: its index and sources, the file and offset.
pub(crate) struct At<'a> {
    pub index: &'a Index,
    pub sources: &'a Sources,
    pub file: u32,
    pub offset: u32,
}

impl<'a> World<'a> {
    /// The analyses that read a file, its own ruleset's first.
    fn analyses_of(&self, path: &Path) -> Vec<&'a Analysis> {
        let own = path.parent().and_then(|d| self.analyses.get(d));
        let mut out: Vec<&Analysis> = own.into_iter().collect();
        for a in self.analyses.values() {
            if !out.iter().any(|o| std::ptr::eq(*o, a))
                && a.index
                    .as_ref()
                    .is_some_and(|(s, _)| s.files.iter().any(|f| f.path == path))
            {
                out.push(a);
            }
        }
        out
    }

    /// The last index that read a file (its own ruleset's first), with its sources and
    /// the file's id in them.
    pub(crate) fn file_in(&self, path: &Path) -> Option<(&'a Sources, &'a Index, u32)> {
        for a in self.analyses_of(path) {
            let Some((sources, index)) = &a.index else {
                continue;
            };
            let Some(file) = sources.files.iter().position(|f| f.path == path) else {
                continue;
            };
            return Some((sources, index, file as u32));
        }
        None
    }

    pub(crate) fn at(&self, doc: &lsp::TextDocumentPositionParams) -> Option<At<'a>> {
        let path = canonical(&convert::uri_to_path(&doc.text_document.uri)?);
        let (sources, index, file) = self.file_in(&path)?;
        let offset = convert::offset(&sources.files[file as usize].text, doc.position, self.enc);
        Some(At {
            index,
            sources,
            file,
            offset: offset as u32,
        })
    }

    /// The index of the ruleset an open pack, scenario or fight file is read against.
    pub(crate) fn ruleset_index_of(&self, path: &Path) -> Option<(&'a Sources, &'a Index)> {
        let dir = self.extras.get(path)?.ruleset.as_ref()?;
        let (sources, index) = self.analyses.get(dir)?.index.as_ref()?;
        Some((sources, index))
    }

    /// The URI of a file: the editor's own for an open document.
    pub(crate) fn uri_of(&self, path: &Path) -> Option<lsp::Uri> {
        self.docs
            .get(path)
            .map(|d| d.uri.clone())
            .or_else(|| convert::path_to_uri(path))
    }

    /// The symbol named at a position, with where the position fell.
    pub(crate) fn symbol(&self, doc: &lsp::TextDocumentPositionParams) -> Option<(At<'a>, usize)> {
        let at = self.at(doc)?;
        let i = at.index.at(at.file, at.offset)?;
        Some((at, i))
    }

    fn location(&self, sources: &Sources, span: Span) -> Option<lsp::Location> {
        let file = sources.files.get(span.file as usize)?;
        Some(lsp::Location::new(
            convert::path_to_uri(&canonical(&file.path))?,
            convert::span_range(sources, span, self.enc),
        ))
    }
}

/// `file:line` of a span, as diagnostics show it.
fn place(sources: &Sources, span: Span) -> String {
    let (file, line, _) = sources.position(span);
    format!("{file}:{line}")
}

/// The comment lines (`#` or `//`) right above the line of `offset`, without their marks.
fn comments_above(text: &str, offset: usize) -> Option<String> {
    let line_start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let mut lines = Vec::new();
    for line in text[..line_start].lines().rev() {
        let t = line.trim_start();
        let Some(body) = t.strip_prefix("//").or_else(|| t.strip_prefix('#')) else {
            break;
        };
        if body.trim_start().starts_with("yaml-language-server:") {
            break;
        }
        lines.push(body.strip_prefix(' ').unwrap_or(body).to_string());
    }
    lines.reverse();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The writer's documentation of a symbol: its `doc:` text, else the comments above it.
pub(crate) fn doc_of(sources: &Sources, sym: &Symbol) -> Option<String> {
    sym.doc.clone().or_else(|| {
        let file = sources.files.get(sym.span.file as usize)?;
        comments_above(&file.text, sym.span.start as usize)
    })
}

pub(crate) fn hover(w: &World, p: lsp::HoverParams) -> Result<Option<lsp::Hover>, String> {
    let Some((at, i)) = w.symbol(&p.text_document_position_params) else {
        return Ok(None);
    };
    let sym = &at.index.symbols[i];
    let mut text = format!("```rulesc\n{}\n```\n", sym.detail);
    if let Some(doc) = doc_of(at.sources, sym) {
        text.push_str(&format!("\n{doc}\n"));
    }
    text.push('\n');
    text.push_str(&origin(at.sources, sym));
    Ok(Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    }))
}

/// Where a definition came from: its file and line, and each `override` of it.
fn origin(sources: &Sources, sym: &Symbol) -> String {
    let what = match &sym.parent {
        Some(p) if sym.kind != SymbolKind::Local => format!("{} of `{p}`", sym.kind.word()),
        Some(p) => format!("local of `{p}`"),
        None => sym.kind.word().to_string(),
    };
    let mut lines = Vec::new();
    match sym.overrides.first() {
        None => lines.push(format!("{what}, defined at `{}`", place(sources, sym.span))),
        Some(first) => {
            lines.push(format!(
                "{what}, defined by the base at `{}`",
                place(sources, first.base)
            ));
            for o in &sym.overrides {
                lines.push(format!("overridden at `{}`", place(sources, o.by)));
            }
        }
    }
    lines.join("  \n")
}

pub(crate) fn definition(
    w: &World,
    p: lsp::GotoDefinitionParams,
) -> Result<Option<lsp::GotoDefinitionResponse>, String> {
    let Some((at, i)) = w.symbol(&p.text_document_position_params) else {
        return Ok(None);
    };
    let sym = &at.index.symbols[i];
    // The definition in force first (the latest override), then what it replaced.
    let mut spans: Vec<Span> = sym.overrides.iter().rev().map(|o| o.by).collect();
    spans.push(sym.span);
    spans.extend(sym.overrides.iter().map(|o| o.base));
    let mut seen = Vec::new();
    let locations: Vec<lsp::Location> = spans
        .into_iter()
        .filter(|s| {
            let new = !seen.contains(s);
            seen.push(*s);
            new
        })
        .filter_map(|s| w.location(at.sources, s))
        .collect();
    Ok(match locations.len() {
        0 => None,
        1 => Some(lsp::GotoDefinitionResponse::Scalar(locations[0].clone())),
        _ => Some(lsp::GotoDefinitionResponse::Array(locations)),
    })
}

use crate::syntax::{BUILTINS, KEYWORDS};

fn item_kind(k: SymbolKind) -> lsp::CompletionItemKind {
    use lsp::CompletionItemKind as C;
    match k {
        SymbolKind::Scale | SymbolKind::Enum => C::ENUM,
        SymbolKind::Level => C::ENUM_MEMBER,
        SymbolKind::RecordType | SymbolKind::Outcome => C::STRUCT,
        SymbolKind::Field => C::FIELD,
        SymbolKind::Track => C::CLASS,
        SymbolKind::Table => C::MODULE,
        SymbolKind::Constant => C::CONSTANT,
        SymbolKind::Record => C::VALUE,
        SymbolKind::Tag => C::ENUM_MEMBER,
        SymbolKind::Formula | SymbolKind::Procedure => C::FUNCTION,
        SymbolKind::Local => C::VARIABLE,
        SymbolKind::Fight => C::EVENT,
    }
}

fn item(sources: &Sources, sym: &Symbol) -> lsp::CompletionItem {
    lsp::CompletionItem {
        label: sym.name.clone(),
        kind: Some(item_kind(sym.kind)),
        detail: Some(sym.detail.clone()),
        documentation: doc_of(sources, sym).map(lsp::Documentation::String),
        ..Default::default()
    }
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The name of the formula or procedure whose text holds `offset`: the last
/// `formula NAME` or `procedure NAME` before it.
fn enclosing_function(text: &str, offset: usize) -> Option<&str> {
    let before = &text[..offset];
    let at = ["formula ", "procedure "]
        .iter()
        .filter_map(|k| {
            before
                .match_indices(k)
                .filter(|(i, _)| *i == 0 || !before[..*i].ends_with(word_char))
                .last()
                .map(|(i, _)| i + k.len())
        })
        .max()?;
    let rest = before[at..].trim_start();
    let end = rest.find(|c: char| !word_char(c)).unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

pub(crate) fn completion(
    w: &World,
    p: lsp::CompletionParams,
) -> Result<Option<lsp::CompletionResponse>, String> {
    let pos = &p.text_document_position;
    let path = convert::uri_to_path(&pos.text_document.uri).map(|p| canonical(&p));
    // The names of the file's ruleset; for a pack, scenario or fight file, of the
    // ruleset it is read against.
    let (sources, index, checked_text) = match w.at(pos) {
        Some(at) => (
            at.sources,
            at.index,
            Some(at.sources.files[at.file as usize].text.as_ref()),
        ),
        None => match path.as_ref().and_then(|p| w.ruleset_index_of(p)) {
            Some((sources, index)) => (sources, index, None),
            None => return Ok(None),
        },
    };
    // The text as typed (the index may be from the check before, if this does not parse).
    let Some(text) = path
        .as_ref()
        .and_then(|p| w.docs.get(p))
        .map(|d| d.text.as_str())
        .or(checked_text)
    else {
        return Ok(None);
    };
    let offset = convert::offset(text, pos.position, w.enc);
    let before = &text[..offset];
    let word_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| word_char(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let lead = before[..word_start].trim_end_matches([' ', '\t']);
    let syms = &index.symbols;
    let is_yaml = path
        .as_ref()
        .is_some_and(|p| p.extension().is_some_and(|e| e == "yaml"));
    let func = enclosing_function(text, word_start);
    let mut chosen: Vec<&Symbol> = Vec::new();
    let mut words: &[&str] = &[];
    let mut typed_words: Vec<&str> = Vec::new();
    if let Some(base_end) = lead
        .strip_suffix('.')
        .map(str::len)
        .filter(|_| before[..word_start].ends_with('.'))
    {
        // `base.`: the levels of a scale, the tags of an outcome, or the fields of what
        // `base` is.
        let base_text = &lead[..base_end];
        let base_start = base_text
            .char_indices()
            .rev()
            .take_while(|(_, c)| word_char(*c))
            .last()
            .map_or(base_end, |(i, _)| i);
        let base = &base_text[base_start..];
        let ty = syms
            .iter()
            .find(|s| s.kind == SymbolKind::Local && s.name == base && s.parent.as_deref() == func)
            .and_then(|s| s.detail.split_once(": ").map(|(_, t)| t.to_string()));
        let container = match syms.iter().find(|s| s.name == base && s.parent.is_none()) {
            Some(s)
                if matches!(
                    s.kind,
                    SymbolKind::Scale
                        | SymbolKind::Enum
                        | SymbolKind::Outcome
                        | SymbolKind::RecordType
                ) =>
            {
                Some(base.to_string())
            }
            _ => ty,
        };
        match container {
            Some(c) if c.starts_with("box of ") => {
                words = &["number", "level"];
            }
            Some(c) => chosen.extend(syms.iter().filter(|s| {
                s.parent.as_deref() == Some(c.as_str())
                    && matches!(
                        s.kind,
                        SymbolKind::Level | SymbolKind::Tag | SymbolKind::Field
                    )
            })),
            None => chosen.extend(syms.iter().filter(|s| s.kind == SymbolKind::Field)),
        }
    } else if let Some(values) = is_yaml
        .then(|| yaml_values::completions(index, &before[..word_start], text))
        .flatten()
    {
        // A YAML value whose type is known: only what that type's values may be.
        for v in values {
            match v {
                yaml_values::Completion::Symbol(s) => chosen.push(s),
                yaml_values::Completion::Word(w) => typed_words.push(w),
            }
        }
    } else if lead.ends_with("roll") && lead[..lead.len() - 4].ends_with(|c: char| !word_char(c)) {
        chosen.extend(syms.iter().filter(|s| s.kind == SymbolKind::Table));
    } else {
        chosen.extend(syms.iter().filter(|s| match s.kind {
            SymbolKind::Local => !is_yaml && s.parent.as_deref() == func,
            SymbolKind::Field | SymbolKind::Fight => false,
            _ => true,
        }));
        if !is_yaml {
            words = KEYWORDS;
        }
    }
    let mut items: Vec<lsp::CompletionItem> = Vec::new();
    let mut seen: HashMap<(String, Option<String>), ()> = HashMap::new();
    for s in chosen {
        if seen
            .insert((s.name.clone(), s.parent.clone()), ())
            .is_none()
        {
            items.push(item(sources, s));
        }
    }
    for k in words {
        items.push(lsp::CompletionItem {
            label: k.to_string(),
            kind: Some(lsp::CompletionItemKind::KEYWORD),
            ..Default::default()
        });
    }
    items.extend(typed_words.into_iter().map(|w| lsp::CompletionItem {
        label: w.to_string(),
        kind: Some(lsp::CompletionItemKind::VALUE),
        ..Default::default()
    }));
    if !is_yaml && words == KEYWORDS {
        items.extend(BUILTINS.iter().map(|b| lsp::CompletionItem {
            label: b.to_string(),
            kind: Some(lsp::CompletionItemKind::FUNCTION),
            detail: Some("built-in".into()),
            ..Default::default()
        }));
    }
    Ok(Some(lsp::CompletionResponse::Array(items)))
}

/// The range of the name at a position, if it names a symbol the index knows.
pub(crate) fn prepare_rename(
    w: &World,
    p: lsp::TextDocumentPositionParams,
) -> Result<Option<lsp::PrepareRenameResponse>, String> {
    let Some((at, i)) = w.symbol(&p) else {
        return Ok(None);
    };
    let sym = &at.index.symbols[i];
    let inside = |s: &Span| s.file == at.file && s.start <= at.offset && at.offset <= s.end;
    let Some(span) = at.index.occurrences(i).into_iter().find(inside) else {
        return Ok(None);
    };
    let Some(span) = name_in(at.sources, span, &sym.name) else {
        return Ok(None);
    };
    Ok(Some(lsp::PrepareRenameResponse::RangeWithPlaceholder {
        range: convert::span_range(at.sources, span, w.enc),
        placeholder: sym.name.clone(),
    }))
}

/// The part of a span that is the name itself (a YAML key may be quoted).
pub(crate) fn name_in(sources: &Sources, span: Span, name: &str) -> Option<Span> {
    let text = sources.slice(span);
    let i = text.find(name)?;
    Some(Span {
        start: span.start + i as u32,
        end: span.start + (i + name.len()) as u32,
        ..span
    })
}

pub(crate) fn rename(
    w: &World,
    p: lsp::RenameParams,
) -> Result<Option<lsp::WorkspaceEdit>, String> {
    let Some(at) = w.at(&p.text_document_position) else {
        return Ok(None);
    };
    let Some(i) = at.index.at(at.file, at.offset) else {
        return Err("there is no name to rename here".into());
    };
    let sym = &at.index.symbols[i];
    let new = p.new_name.trim();
    let valid = if sym.kind == SymbolKind::Record {
        crate::check::is_record_name(new) && !new.contains(['"', '\'', ':', '#'])
    } else {
        crate::check::is_ident(new) && !KEYWORDS.contains(&new)
    };
    if sym.kind == SymbolKind::Fight {
        return Err("the fight declaration has no name to rename".into());
    }
    if !valid {
        return Err(format!(
            "`{new}` is not a valid name for a {}",
            sym.kind.word()
        ));
    }
    let clash = at.index.symbols.iter().any(|s| {
        s.name == new
            && match sym.kind {
                SymbolKind::Local => s.kind == SymbolKind::Local && s.parent == sym.parent,
                SymbolKind::Level | SymbolKind::Field | SymbolKind::Tag => {
                    s.kind == sym.kind && s.parent == sym.parent
                }
                _ => s.parent.is_none() || s.kind == SymbolKind::Record,
            }
    });
    if clash {
        return Err(format!("`{new}` is already defined"));
    }
    // The same definition as every open check sees it (a base read by its variants).
    let found = super::navigation::occurrences(w, at.sources, at.index, i);
    // lsp-types keys edits by `Uri`, whose interior caching clippy flags; the map is
    // built once here and never mutated through a key.
    #[allow(clippy::mutable_key_type)]
    let changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = found
        .into_iter()
        .filter_map(|(path, ranges)| {
            let edits = ranges
                .into_iter()
                .map(|(r, _)| lsp::TextEdit::new(r, new.to_string()))
                .collect();
            Some((w.uri_of(&path)?, edits))
        })
        .collect();
    Ok(Some(lsp::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }))
}

/// `textDocument/formatting` of an open `.rules` document: one edit replacing the whole
/// text with `rulesc fmt`'s layout, none when it is already formatted or does not parse
/// (its diagnostics say why). YAML documents are left alone.
pub(crate) fn formatting(
    w: &World,
    p: lsp::DocumentFormattingParams,
) -> Result<Option<Vec<lsp::TextEdit>>, String> {
    let Some(path) = convert::uri_to_path(&p.text_document.uri) else {
        return Ok(None);
    };
    let path = canonical(&path);
    if path.extension().is_none_or(|e| e != "rules") {
        return Ok(None);
    }
    let Some(doc) = w.docs.get(&path) else {
        return Ok(None);
    };
    let origin = crate::syntax::Origin {
        file: 0,
        base: 0,
        fixed: None,
    };
    let mut diags = crate::diag::Diagnostics::default();
    let Some(new) = crate::syntax::format::format_rules(&doc.text, origin, &mut diags) else {
        return Ok(None);
    };
    if new == doc.text {
        return Ok(Some(Vec::new()));
    }
    let whole = convert::range(&doc.text, 0, doc.text.len(), w.enc);
    Ok(Some(vec![lsp::TextEdit::new(whole, new)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_above_a_definition_are_its_doc() {
        let text =
            "# yaml-language-server: $schema=x\n# The d4 table.\n# Rolled on a hit.\ntables:\n";
        assert_eq!(
            comments_above(text, text.find("tables").unwrap()).as_deref(),
            Some("The d4 table.\nRolled on a hit.")
        );
        let text = "x = 1\n\n// Bonus.\nformula f() = 1";
        assert_eq!(
            comments_above(text, text.find("formula").unwrap()).as_deref(),
            Some("Bonus.")
        );
        assert_eq!(comments_above("a\nformula f() = 1", 2), None);
    }

    #[test]
    fn the_enclosing_function_is_the_last_declared_before() {
        let text = "formula a(x: int) = x\nprocedure attack(c: C) {\n  let y = c.";
        assert_eq!(enclosing_function(text, text.len()), Some("attack"));
        assert_eq!(enclosing_function(text, 5), None);
        assert_eq!(enclosing_function("myformula x", 11), None);
    }
}
