//! `textDocument/signatureHelp`: inside the parentheses of a call to a formula or
//! procedure in a `.rules` file, its signature as hover shows it, each parameter with
//! its type, and the one being written (the commas before the cursor, outside nested
//! parentheses and brackets); inside an outcome's tag (`Hit(level: ..)`), its fields,
//! the one being written by its name. The call is read from the text as typed; the signature
//! from the index of the last check (so it works while the line does not parse yet).

use super::convert::{self, canonical};
use super::features::{doc_of, World};
use crate::check::index::{Symbol, SymbolKind};
use lsp_types as lsp;

/// How far back a call's opening parenthesis is looked for.
const MAX_LOOK_BACK: usize = 4096;

/// The call around the end of `before`: the name before its `(`, and how many of its
/// arguments are written before the cursor (commas at the call's own depth). `None`
/// outside a call, or past the statement (`{`, `}`) that holds the cursor.
pub(crate) fn open_call(before: &str) -> Option<(&str, u32)> {
    let mut from = before.len().saturating_sub(MAX_LOOK_BACK);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let mut depth = 0u32;
    let mut commas = 0u32;
    for (i, ch) in before[from..].char_indices().rev() {
        match ch {
            ')' | ']' => depth += 1,
            '[' if depth == 0 => commas = 0,
            '(' if depth == 0 => {
                let name_end = before[..from + i].trim_end_matches([' ', '\t']);
                let start = name_end
                    .char_indices()
                    .rev()
                    .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
                    .last()
                    .map(|(j, _)| j)?;
                return Some((&name_end[start..], commas));
            }
            '(' | '[' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            '{' | '}' => return None,
            _ => {}
        }
    }
    None
}

pub(crate) fn signature_help(
    w: &World,
    p: lsp::SignatureHelpParams,
) -> Result<Option<lsp::SignatureHelp>, String> {
    let pos = &p.text_document_position_params;
    let Some(path) = convert::uri_to_path(&pos.text_document.uri).map(|p| canonical(&p)) else {
        return Ok(None);
    };
    if path.extension().is_none_or(|e| e != "rules") {
        return Ok(None);
    }
    let Some(at) = w.at(pos) else {
        return Ok(None);
    };
    let text = match w.docs.get(&path) {
        Some(d) => d.text.as_str(),
        None => &at.sources.files[at.file as usize].text,
    };
    let offset = convert::offset(text, pos.position, w.enc);
    let Some((name, active)) = open_call(&text[..offset]) else {
        return Ok(None);
    };
    // A formula or procedure; else the tags of that name (one per outcome holding it),
    // whose fields are named where they are given.
    let function = at.index.symbols.iter().find(|s| {
        s.name == name
            && s.parent.is_none()
            && matches!(s.kind, SymbolKind::Formula | SymbolKind::Procedure)
    });
    let symbols: Vec<&Symbol> = match function {
        Some(f) => vec![f],
        None => at
            .index
            .symbols
            .iter()
            .filter(|s| s.name == name && s.kind == SymbolKind::Tag && !s.params.is_empty())
            .collect(),
    };
    if symbols.is_empty() {
        return Ok(None);
    }
    let named = named_argument(&text[..offset]);
    let signatures: Vec<lsp::SignatureInformation> = symbols
        .iter()
        .map(|sym| {
            let parameters = sym
                .params
                .iter()
                .map(|p| lsp::ParameterInformation {
                    label: lsp::ParameterLabel::Simple(p.clone()),
                    documentation: None,
                })
                .collect();
            // A named argument (`level: ..`) is its field, wherever it is written.
            let by_name = named.and_then(|n| {
                sym.params
                    .iter()
                    .position(|p| p.split_once(':').is_some_and(|(f, _)| f == n))
            });
            lsp::SignatureInformation {
                label: sym.detail.clone(),
                documentation: doc_of(at.sources, sym).map(lsp::Documentation::String),
                parameters: Some(parameters),
                active_parameter: Some(by_name.map_or(active, |i| i as u32)),
            }
        })
        .collect();
    let first = signatures[0].active_parameter;
    Ok(Some(lsp::SignatureHelp {
        signatures,
        active_signature: Some(0),
        active_parameter: first,
    }))
}

/// The name of the argument being written at the end of `before`, when it is named
/// (`level: Mi`): the word before a `:` since the last `(` or `,`.
fn named_argument(before: &str) -> Option<&str> {
    let from = before.rfind([',', '(']).map_or(0, |i| i + 1);
    let (name, _) = before[from..].split_once(':')?;
    let name = name.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

#[cfg(test)]
mod tests {
    use super::open_call;

    #[test]
    fn the_open_call_is_found_with_its_argument_count() {
        let cases: [(&str, Option<(&str, u32)>); 8] = [
            ("let x = bonus(", Some(("bonus", 0))),
            ("let x = bonus(f, ", Some(("bonus", 1))),
            // Commas of nested calls and lists are theirs.
            ("let x = hit(a, max(1, 2), [3, 4], ", Some(("hit", 3))),
            ("let x = hit(a, [3, ", Some(("hit", 1))),
            ("let x = hit(a, max(1, ", Some(("max", 1))),
            // A call closed, or no call.
            ("let x = bonus(f) + ", None),
            ("let x = (1 + ", None),
            // A block between: another statement.
            ("f(a, {\n let y = ", None),
        ];
        for (before, expected) in cases {
            assert_eq!(open_call(before), expected, "{before:?}");
        }
    }
}
