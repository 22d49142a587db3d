//! Completion of a value in a YAML file by what the value must be: a record's field
//! offers the levels of its scale, the variants of its enum or the records of its record
//! type (for a list, its items'), a table's row the table's values, a two-key table's
//! `columns:` its column key's levels or variants, a field's type in
//! `types:` the type names. The place is read from the text as typed (the keys of the
//! mappings that hold the cursor, by indentation and flow brackets), since a half-typed
//! line does not parse; what each place holds comes from the check's index.

use crate::check::index::{Index, Symbol, SymbolKind};

/// How far back the lines holding the cursor are looked for.
const MAX_LINES_BACK: usize = 2000;

/// The keys leading to the value being written at the end of `before`, outermost
/// first, ending with the key whose value it is (a list's items count as their key's
/// value). `None` where a key, not a value, is being written.
#[cfg(test)]
fn value_path(before: &str) -> Option<Vec<String>> {
    place(before).and_then(|(path, w)| (w == Writing::Value).then_some(path))
}

/// What the cursor writes: a mapping's key or a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writing {
    Key,
    Value,
}

/// Where the end of `before` is: the keys leading to the value being written (as
/// [`value_path`] gives them), or to the mapping whose key is being written.
pub(crate) fn place(before: &str) -> Option<(Vec<String>, Writing)> {
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
    let writing = if pending.is_none() && !in_list {
        Writing::Key
    } else {
        Writing::Value
    };
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
    Some((parents, writing))
}

fn unquote(s: &str) -> &str {
    s.trim_matches(|c| c == '"' || c == '\'')
}

/// What a place holds: the names its values are written with (a scale, enum or record
/// type, or `bool`), and for a map the names of its keys, then of the keys of the maps
/// it holds (`None`: numbers).
#[derive(Debug, Clone, Copy)]
struct Holds<'a> {
    names: Option<&'a str>,
    keys: &'a [Option<String>],
}

impl<'a> Holds<'a> {
    fn of(s: &'a Symbol) -> Self {
        Holds {
            names: s.named_by.as_deref(),
            keys: &s.keys_named_by,
        }
    }
}

fn find<'a>(
    index: &'a Index,
    kind: SymbolKind,
    parent: Option<&str>,
    name: &str,
) -> Option<&'a Symbol> {
    index
        .symbols
        .iter()
        .find(|s| s.kind == kind && s.parent.as_deref() == parent && s.name == name)
}

/// What the places below `path` hold, and the keys under it still to walk: a record's
/// fields, a table's row or default, a constant, a scenario's `args:` (the parameters of
/// the procedure it runs, `run`) and a fight file's `sides:` (the combatants).
fn root<'a, 'p>(
    index: &'a Index,
    path: &'p [&'p str],
    run: Option<&str>,
) -> Option<(Holds<'a>, &'p [&'p str])> {
    let of = |s: &'a Symbol| Holds::of(s);
    match path {
        ["override", rest @ ..] => root(index, rest, run),
        // records: Type: name: field ...
        ["records", ty, _, rest @ ..] => {
            let ty = find(index, SymbolKind::RecordType, None, ty)?;
            let holds = Holds {
                names: Some(ty.name.as_str()),
                keys: &[],
            };
            Some((holds, rest))
        }
        // tables: name: rows (a map by the table's key), of which each row's value, or
        // the table's `default`, is one of its values.
        ["tables", table, "rows", rest @ ..] => {
            Some((of(find(index, SymbolKind::Table, None, table)?), rest))
        }
        ["tables", table, "default", rest @ ..] => {
            let table = find(index, SymbolKind::Table, None, table)?;
            let holds = Holds {
                names: table.named_by.as_deref(),
                keys: &[],
            };
            Some((holds, rest))
        }
        // A two-key table's `columns:`, a list of its column key's values.
        ["tables", table, "columns", rest @ ..] => {
            let table = find(index, SymbolKind::Table, None, table)?;
            let holds = Holds {
                names: table.columns_named_by.as_deref(),
                keys: &[],
            };
            Some((holds, rest))
        }
        ["constants", name, rest @ ..] => {
            Some((of(find(index, SymbolKind::Constant, None, name)?), rest))
        }
        // A scenario: args: parameter ...
        ["args", param, rest @ ..] => {
            let local = find(index, SymbolKind::Local, Some(run?), param)?;
            Some((of(local), rest))
        }
        // A fight file: sides: side: fighter ...
        ["sides", _, _, rest @ ..] => {
            let fight = index.symbols.iter().find(|s| s.kind == SymbolKind::Fight)?;
            Some((of(fight), rest))
        }
        _ => None,
    }
}

/// One key further into a value holding `h`: a map's key leads to its value, a record's
/// field name to its field.
fn step<'a>(index: &'a Index, h: Holds<'a>, key: &str) -> Option<Holds<'a>> {
    if let [_, inner @ ..] = h.keys {
        return Some(Holds {
            names: h.names,
            keys: inner,
        });
    }
    find(index, SymbolKind::RecordType, None, h.names?)?;
    Some(Holds::of(find(index, SymbolKind::Field, h.names, key)?))
}

/// The procedure a scenario runs: its top-level `run:`.
fn run_of(text: &str) -> Option<&str> {
    let line = text.lines().find_map(|l| l.strip_prefix("run:"))?;
    let value = line.split(" #").next().unwrap_or_default();
    Some(unquote(value.trim())).filter(|v| !v.is_empty())
}

/// The completions at the end of `before` in a YAML file whose whole text is `text`:
/// `None` where the place is not known (the caller offers every name); else the names
/// it may be, none for a number. A value offers its type's names; a key of a map, the
/// names of its keys; a key of a record (nested, a scenario's `args:`), its fields.
pub(crate) fn completions<'a>(
    index: &'a Index,
    before: &str,
    text: &str,
) -> Option<Vec<Completion<'a>>> {
    let (path, writing) = place(before)?;
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let types = matches!(
        path.as_slice(),
        ["types", _, _] | ["types", _, _, "type"] | ["override", "types", _, _]
    );
    if types && writing == Writing::Value {
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
    let run = run_of(text);
    if writing == Writing::Key && path == ["args"] {
        // A scenario's arguments: the parameters of the procedure it runs.
        let f = index.symbols.iter().find(|s| {
            s.parent.is_none()
                && matches!(s.kind, SymbolKind::Procedure | SymbolKind::Formula)
                && Some(s.name.as_str()) == run
        })?;
        let params: Vec<&str> = f
            .params
            .iter()
            .filter_map(|p| p.split(':').next())
            .collect();
        return Some(
            index
                .symbols
                .iter()
                .filter(|s| {
                    s.kind == SymbolKind::Local
                        && s.parent.as_deref() == run
                        && params.contains(&s.name.as_str())
                })
                .map(Completion::Symbol)
                .collect(),
        );
    }
    let (mut holds, rest) = root(index, &path, run)?;
    if writing == Writing::Value && rest.is_empty() && path.first() == Some(&"records") {
        // A record itself (`sword:`) is a mapping, not a name.
        return None;
    }
    for key in rest {
        holds = step(index, holds, key)?;
    }
    let children = |ty: &str, kinds: &[SymbolKind]| -> Vec<Completion<'a>> {
        index
            .symbols
            .iter()
            .filter(|s| s.parent.as_deref() == Some(ty) && kinds.contains(&s.kind))
            .map(Completion::Symbol)
            .collect()
    };
    Some(match (writing, holds) {
        (Writing::Key, Holds { keys: [k, ..], .. }) => match k {
            Some(k) => children(k, &[SymbolKind::Level, SymbolKind::Record]),
            // Numbers: nothing to offer.
            None => Vec::new(),
        },
        (
            Writing::Key,
            Holds {
                names: Some(ty), ..
            },
        ) => {
            find(index, SymbolKind::RecordType, None, ty)?;
            children(ty, &[SymbolKind::Field])
        }
        (Writing::Key, _) => return None,
        // A map written as one name: nothing fits.
        (Writing::Value, Holds { keys: [_, ..], .. })
        | (Writing::Value, Holds { names: None, .. }) => Vec::new(),
        (
            Writing::Value,
            Holds {
                names: Some("bool"),
                ..
            },
        ) => {
            vec![Completion::Word("true"), Completion::Word("false")]
        }
        (
            Writing::Value,
            Holds {
                names: Some(ty), ..
            },
        ) => children(ty, &[SymbolKind::Level, SymbolKind::Record]),
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
