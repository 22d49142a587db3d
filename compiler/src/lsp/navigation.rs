//! Navigation: the outline of a document (`textDocument/documentSymbol`), every use of a
//! name (`textDocument/references`) and names by substring across the checked rulesets
//! (`workspace/symbol`). All read the checker's index ([`crate::check::index`]), as
//! hover and rename do.

use super::convert::{self, canonical};
use super::features::{name_in, World};
use crate::check::index::{Index, Symbol, SymbolKind};
use crate::source::{Sources, Span};
use lsp_types as lsp;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Most symbols one `workspace/symbol` answer lists (a hostile ruleset has tens of
/// thousands of names; an editor shows the first few dozen).
pub const MAX_WORKSPACE_SYMBOLS: usize = 256;

fn symbol_kind(k: SymbolKind) -> lsp::SymbolKind {
    use lsp::SymbolKind as S;
    match k {
        SymbolKind::Scale | SymbolKind::Enum => S::ENUM,
        SymbolKind::Level | SymbolKind::Tag => S::ENUM_MEMBER,
        SymbolKind::RecordType | SymbolKind::Outcome => S::STRUCT,
        SymbolKind::Field => S::FIELD,
        SymbolKind::Track => S::ARRAY,
        SymbolKind::Table => S::OBJECT,
        SymbolKind::Constant => S::CONSTANT,
        SymbolKind::Record | SymbolKind::Local => S::VARIABLE,
        SymbolKind::Formula | SymbolKind::Procedure => S::FUNCTION,
        SymbolKind::Fight => S::EVENT,
    }
}

/// Whether a symbol is written where it is defined: the formulas a fight's clauses
/// define (`fight_order`, ...) are not, and are no one's to navigate to.
fn written(sources: &Sources, sym: &Symbol) -> bool {
    name_in(sources, sym.span, &sym.name).is_some()
}

/// The part of a symbol's span in `file` that names it: its definition there, else the
/// last `override` of it there (a variant's file overrides the base's definition).
fn name_span_in(sources: &Sources, sym: &Symbol, file: u32) -> Option<Span> {
    let span = if sym.span.file == file {
        sym.span
    } else {
        sym.overrides.iter().rev().find(|o| o.by.file == file)?.by
    };
    name_in(sources, span, &sym.name).or(Some(span))
}

/// `textDocument/documentSymbol`: the definitions of a ruleset file (a `.rules` file or
/// a YAML file of the ruleset folder), in the order written, levels, fields and tags
/// nested under their scale, record type or outcome.
pub(crate) fn document_symbol(
    w: &World,
    p: lsp::DocumentSymbolParams,
) -> Result<Option<lsp::DocumentSymbolResponse>, String> {
    let Some(path) = convert::uri_to_path(&p.text_document.uri).map(|p| canonical(&p)) else {
        return Ok(None);
    };
    let Some((sources, index, file)) = w.file_in(&path) else {
        return Ok(None);
    };
    let outline = outline(sources, index, file, w.enc);
    Ok(Some(lsp::DocumentSymbolResponse::Nested(outline)))
}

/// A symbol of the outline at its name's span, with its members.
type Entry<'a> = (Span, &'a Symbol, Vec<(Span, &'a Symbol)>);

fn outline(
    sources: &Sources,
    index: &Index,
    file: u32,
    enc: convert::Encoding,
) -> Vec<lsp::DocumentSymbol> {
    let is_member =
        |k: SymbolKind| matches!(k, SymbolKind::Level | SymbolKind::Field | SymbolKind::Tag);
    let mut tops: Vec<Entry> = Vec::new();
    let mut members: Vec<(Span, &Symbol)> = Vec::new();
    for sym in &index.symbols {
        if sym.kind == SymbolKind::Local || !written(sources, sym) {
            continue;
        }
        let Some(span) = name_span_in(sources, sym, file) else {
            continue;
        };
        if is_member(sym.kind) {
            members.push((span, sym));
        } else {
            tops.push((span, sym, Vec::new()));
        }
    }
    let mut loose = Vec::new();
    for (span, sym) in members {
        let holder = tops.iter_mut().find(|(_, t, _)| {
            Some(t.name.as_str()) == sym.parent.as_deref()
                && match sym.kind {
                    SymbolKind::Level => matches!(t.kind, SymbolKind::Scale | SymbolKind::Enum),
                    SymbolKind::Field => t.kind == SymbolKind::RecordType,
                    _ => t.kind == SymbolKind::Outcome,
                }
        });
        match holder {
            Some((_, _, children)) => children.push((span, sym)),
            // A member whose holder is defined in another file (never, today).
            None => loose.push((span, sym, Vec::new())),
        }
    }
    tops.extend(loose);
    tops.sort_by_key(|(span, _, _)| span.start);
    // An entry's range covers its name and its members' (a scale's levels).
    let entry = |span: Span, whole: Span, sym: &Symbol, children| {
        #[allow(deprecated)]
        lsp::DocumentSymbol {
            name: sym.name.clone(),
            detail: Some(sym.detail.clone()),
            kind: symbol_kind(sym.kind),
            tags: None,
            deprecated: None,
            range: convert::span_range(sources, whole, enc),
            selection_range: convert::span_range(sources, span, enc),
            children,
        }
    };
    tops.into_iter()
        .map(|(span, sym, mut members)| {
            members.sort_by_key(|(s, _)| s.start);
            let whole = members.iter().fold(span, |w, (s, _)| w.to(*s));
            let children: Vec<lsp::DocumentSymbol> = members
                .into_iter()
                .map(|(s, c)| entry(s, s, c, None))
                .collect();
            entry(span, whole, sym, (!children.is_empty()).then_some(children))
        })
        .collect()
}

/// Every place that names the same definition as symbol `i` of `at_index`, in every
/// checked ruleset that reads it (a base's definition is used by its variants too): each
/// file's ranges, and whether each is a definition (or an `override` of it) rather than a
/// use. Rename edits exactly these.
pub(crate) fn occurrences(
    w: &World,
    at_sources: &Sources,
    at_index: &Index,
    i: usize,
) -> BTreeMap<PathBuf, Vec<(lsp::Range, bool)>> {
    let sym = &at_index.symbols[i];
    let def_path = &at_sources.files[sym.span.file as usize].path;
    let def_start = sym.span.start;
    let mut out: BTreeMap<PathBuf, Vec<(lsp::Range, bool)>> = BTreeMap::new();
    for a in w.analyses.values() {
        let Some((sources, index)) = &a.index else {
            continue;
        };
        let Some(j) = index.symbols.iter().position(|s| {
            s.kind == sym.kind
                && s.span.start == def_start
                && sources
                    .files
                    .get(s.span.file as usize)
                    .is_some_and(|f| &f.path == def_path)
        }) else {
            continue;
        };
        let found = &index.symbols[j];
        let defines = |s: &Span| {
            *s == found.span || found.overrides.iter().any(|o| o.base == *s || o.by == *s)
        };
        for span in index.occurrences(j) {
            let is_def = defines(&span);
            let Some(span) = name_in(sources, span, &sym.name) else {
                continue;
            };
            let path = canonical(&sources.files[span.file as usize].path);
            let range = convert::span_range(sources, span, w.enc);
            let list = out.entry(path).or_default();
            if !list.iter().any(|(r, _)| *r == range) {
                list.push((range, is_def));
            }
        }
    }
    for list in out.values_mut() {
        list.sort_by_key(|(r, _)| (r.start.line, r.start.character));
    }
    out
}

/// `textDocument/references`: every use of the name at the position, across the files
/// of its ruleset (and of the checked rulesets that extend it), with its definitions
/// when the editor asks for them (`includeDeclaration`).
pub(crate) fn references(
    w: &World,
    p: lsp::ReferenceParams,
) -> Result<Option<Vec<lsp::Location>>, String> {
    let Some((at, i)) = w.symbol(&p.text_document_position) else {
        return Ok(None);
    };
    let with_defs = p.context.include_declaration;
    let mut out = Vec::new();
    for (path, ranges) in occurrences(w, at.sources, at.index, i) {
        let Some(uri) = w.uri_of(&path) else {
            continue;
        };
        for (range, is_def) in ranges {
            if with_defs || !is_def {
                out.push(lsp::Location::new(uri.clone(), range));
            }
        }
    }
    Ok(Some(out))
}

/// `workspace/symbol`: the definitions whose name holds the query (ignoring case), in
/// every ruleset the server has checked (those with an open document), shortest name
/// first, at most [`MAX_WORKSPACE_SYMBOLS`]. Locals are not listed.
pub(crate) fn workspace_symbol(
    w: &World,
    p: lsp::WorkspaceSymbolParams,
) -> Result<Option<lsp::WorkspaceSymbolResponse>, String> {
    let query = p.query.to_lowercase();
    let mut found: BTreeMap<(usize, String, PathBuf, u32), lsp::SymbolInformation> =
        BTreeMap::new();
    for a in w.analyses.values() {
        let Some((sources, index)) = &a.index else {
            continue;
        };
        for sym in &index.symbols {
            if sym.kind == SymbolKind::Local
                || !sym.name.to_lowercase().contains(&query)
                || !written(sources, sym)
            {
                continue;
            }
            let Some(span) = name_in(sources, sym.span, &sym.name) else {
                continue;
            };
            let path = canonical(&sources.files[span.file as usize].path);
            let key = (sym.name.len(), sym.name.clone(), path.clone(), span.start);
            if found.contains_key(&key) {
                continue;
            }
            let Some(uri) = w.uri_of(&path) else {
                continue;
            };
            #[allow(deprecated)]
            let info = lsp::SymbolInformation {
                name: sym.name.clone(),
                kind: symbol_kind(sym.kind),
                tags: None,
                deprecated: None,
                location: lsp::Location::new(uri, convert::span_range(sources, span, w.enc)),
                container_name: sym.parent.clone(),
            };
            found.insert(key, info);
        }
    }
    let list: Vec<lsp::SymbolInformation> =
        found.into_values().take(MAX_WORKSPACE_SYMBOLS).collect();
    Ok(Some(lsp::WorkspaceSymbolResponse::Flat(list)))
}
