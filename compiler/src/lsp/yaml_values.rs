//! Completion of a value in a YAML file by what the value must be: a record's field
//! offers the levels of its scale, the variants of its enum or the records of its record
//! type (for a list, its items'), a table's row the table's values, a field's type in
//! `types:` the type names. The place is read from the text as typed (the keys of the
//! mappings that hold the cursor, by indentation and flow brackets), since a half-typed
//! line does not parse; what each place holds comes from the check's index.

use crate::check::index::{Index, Symbol, SymbolKind};

/// How far back the lines holding the cursor are looked for.
const MAX_LINES_BACK: usize = 2000;

/// The keys leading to the value being written at the end of `before`, outermost
/// first, ending with the key whose value it is (a list's items count as their key's
/// value). `None` where a key, not a value, is being written.
pub(crate) fn value_path(before: &str) -> Option<Vec<String>> {
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let indent = line.len() - line.trim_start_matches(' ').len();
    let body = line[indent..].strip_prefix("- ").unwrap_or(&line[indent..]);
    // This line's own keys: through the flow brackets that are still open.
    let mut open: Vec<(char, Option<String>)> = Vec::new();
    let mut pending: Option<String> = None;
    let mut word = String::new();
    let chars: Vec<char> = body.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        match ch {
            ':' if chars.get(i + 1).is_none_or(|c| *c == ' ') => {
                pending = Some(unquote(word.trim()).to_string());
                word.clear();
            }
            '{' | '[' => {
                open.push((ch, pending.take()));
                word.clear();
            }
            '}' | ']' => {
                open.pop();
                pending = None;
                word.clear();
            }
            ',' => {
                if open.last().is_some_and(|(c, _)| *c == '{') {
                    pending = None;
                }
                word.clear();
            }
            '#' if word.is_empty() || word.ends_with(' ') => return None,
            _ => word.push(ch),
        }
    }
    let in_list = open.last().is_some_and(|(c, _)| *c == '[');
    if pending.is_none() && !in_list {
        return None;
    }
    let mut path: Vec<String> = open.into_iter().filter_map(|(_, k)| k).collect();
    path.extend(pending);
    // The keys of the block mappings above, each less indented than the last.
    let mut parents = Vec::new();
    let mut within = indent;
    for line in before[..line_start].lines().rev().take(MAX_LINES_BACK) {
        let text = line.trim_start_matches(' ');
        if within == 0 {
            break;
        }
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let ind = line.len() - text.len();
        if ind >= within {
            continue;
        }
        let text = text.strip_prefix("- ").unwrap_or(text);
        let key = text.split_once(':').map(|(k, _)| unquote(k.trim()))?;
        parents.push(key.to_string());
        within = ind;
    }
    parents.reverse();
    parents.extend(path);
    Some(parents)
}

fn unquote(s: &str) -> &str {
    s.trim_matches(|c| c == '"' || c == '\'')
}

/// What the value at `path` is written with (see [`crate::check::index::Symbol::named_by`]):
/// `None` for a place this does not know.
fn named_by<'a>(index: &'a Index, path: &[String]) -> Option<Option<&'a str>> {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let path = match path.as_slice() {
        ["override", rest @ ..] => rest,
        p => p,
    };
    let find = |kind: SymbolKind, parent: Option<&str>, name: &str| {
        index
            .symbols
            .iter()
            .find(|s| s.kind == kind && s.parent.as_deref() == parent && s.name == name)
    };
    match path {
        // records: Type: name: field
        ["records", ty, _, field] => Some(
            find(SymbolKind::Field, Some(ty), field)?
                .named_by
                .as_deref(),
        ),
        // tables: name: rows: key (or its `default`)
        ["tables", table, "rows", _] | ["tables", table, "default"] => {
            Some(find(SymbolKind::Table, None, table)?.named_by.as_deref())
        }
        ["constants", name] => Some(find(SymbolKind::Constant, None, name)?.named_by.as_deref()),
        _ => None,
    }
}

/// The completions of the value at `path`: `None` where the place is not known (the
/// caller offers every name); else the names it may be, none for a number.
pub(crate) fn completions<'a>(index: &'a Index, path: &[String]) -> Option<Vec<Completion<'a>>> {
    let types = |p: &[String]| {
        let p: Vec<&str> = p.iter().map(String::as_str).collect();
        matches!(
            p.as_slice(),
            ["types", _, _] | ["types", _, _, "type"] | ["override", "types", _, _]
        )
    };
    if types(path) {
        let mut out: Vec<Completion> = index
            .symbols
            .iter()
            .filter(|s| {
                s.parent.is_none()
                    && matches!(
                        s.kind,
                        SymbolKind::Scale | SymbolKind::Enum | SymbolKind::RecordType
                    )
            })
            .map(Completion::Symbol)
            .collect();
        out.extend(["int", "bool", "dice"].into_iter().map(Completion::Word));
        return Some(out);
    }
    let named = named_by(index, path)?;
    Some(match named {
        None => Vec::new(),
        Some("bool") => vec![Completion::Word("true"), Completion::Word("false")],
        Some(ty) => index
            .symbols
            .iter()
            .filter(|s| {
                s.parent.as_deref() == Some(ty)
                    && matches!(s.kind, SymbolKind::Level | SymbolKind::Record)
            })
            .map(Completion::Symbol)
            .collect(),
    })
}

/// One value offered.
pub(crate) enum Completion<'a> {
    Symbol(&'a Symbol),
    Word(&'static str),
}

#[cfg(test)]
mod tests {
    use super::value_path;

    fn path(before: &str) -> Option<String> {
        value_path(before).map(|p| p.join("/"))
    }

    #[test]
    fn the_keys_above_a_value_are_its_path() {
        let yaml = "records:\n  Weapon:\n    # swords\n    sword:\n      damage: Cu";
        assert_eq!(path(yaml), Some("records/Weapon/sword/damage".into()));
        let flow = "records:\n  Weapon:\n    sword: { skill: 3, damage: ";
        assert_eq!(path(flow), Some("records/Weapon/sword/damage".into()));
        let list = "records:\n  Fighter:\n    mira: { tags: [Brave, ";
        assert_eq!(path(list), Some("records/Fighter/mira/tags".into()));
        let after_list = "records:\n  Fighter:\n    mira: { tags: [Brave], hurt: ";
        assert_eq!(path(after_list), Some("records/Fighter/mira/hurt".into()));
        let rows = "tables:\n  hits:\n    rows: { 4: Head, 3: ";
        assert_eq!(path(rows), Some("tables/hits/rows/3".into()));
        // A key being written, or a comment: no value.
        assert_eq!(path("records:\n  Weapon:\n    sword: { ski"), None);
        assert_eq!(path("records:\n  Weapon:\n    swo"), None);
        assert_eq!(path("records:\n  Weapon: # a "), None);
    }
}
