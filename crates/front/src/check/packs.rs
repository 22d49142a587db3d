//! Content packs that add to a ruleset's data (`enums:`, `scales:`, `tables:`) or change
//! it in place (`_mod:`, after 5etools' `_mod`): merged into the ruleset's YAML, after
//! `extends` and `override`, before anything is checked, so everything a pack adds gets
//! the checks the ruleset's own data gets (a table's rows cover its enum, a `match`
//! covers its variants). `crate::pack` reads the packs and checks their records after.
//!
//! Two packs touching one thing (an added name, a row, a record field) conflict
//! (`E0415`, at both, naming both packs) unless the later one requires the earlier one:
//! then the later one's change wins.

use super::data::SCALE_KEYS;
use super::Checker;
use crate::diag::{suggest, Diagnostic};
use crate::source::Span;
use crate::yaml::{YNode, YValue};
use std::collections::HashMap;

/// One content pack's file, as read.
#[derive(Debug, Clone)]
pub struct PackLayer {
    pub name: String,
    /// The pack file's root node.
    pub root: YNode,
    /// The packs it requires, directly or through others, by name.
    pub requires: Vec<String>,
}

/// What one pack added to and changed in the ruleset's data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Added {
    /// Variants added to the ruleset's enums.
    pub variants: usize,
    /// Levels added to the ruleset's scales.
    pub levels: usize,
    /// Rows added to the ruleset's tables.
    pub rows: usize,
    /// New enums, scales and tables.
    pub new: usize,
    /// Rows and record fields changed by `_mod` (each row, field or list item).
    pub changes: usize,
}

/// The sections a pack may add to.
pub const SECTIONS: &[&str] = &["scales", "enums", "tables"];
/// The key of an in-place change.
pub const MOD: &str = "_mod";
const TABLE_KEYS: &[&str] = &["rows", MOD];
const TABLE_MODES: &[&str] = &["replace", "remove"];
const RECORD_MODES: &[&str] = &["replace", "append", "remove"];

fn key_of(n: &YNode) -> String {
    n.scalar_text().unwrap_or_default()
}

/// Where a definition is: root, section entry, definition entry.
type Loc = (usize, usize, usize);

/// The ruleset's definitions (and the packs' new ones) by name, and its records by type
/// and name (root, section, type entry, record entry).
#[derive(Default)]
struct Defs {
    names: HashMap<String, (String, Loc)>,
    records: HashMap<(String, String), (Loc, usize)>,
}

impl Defs {
    fn index(&mut self, roots: &[YNode], from: usize) {
        for (ri, root) in roots.iter().enumerate().skip(from) {
            for (si, (sk, sv)) in root.as_map().unwrap_or(&[]).iter().enumerate() {
                let section = key_of(sk);
                for (ei, (k, v)) in sv.as_map().unwrap_or(&[]).iter().enumerate() {
                    if section == "records" {
                        for (xi, (rk, _)) in v.as_map().unwrap_or(&[]).iter().enumerate() {
                            self.records
                                .entry((key_of(k), key_of(rk)))
                                .or_insert(((ri, si, ei), xi));
                        }
                    } else if !matches!(section.as_str(), "ruleset" | "override") {
                        self.names
                            .entry(key_of(k))
                            .or_insert((section.clone(), (ri, si, ei)));
                    }
                }
            }
        }
    }
}

fn entries_mut(n: &mut YNode) -> Option<&mut Vec<(YNode, YNode)>> {
    match &mut n.value {
        YValue::Map(m) => Some(m),
        _ => None,
    }
}

fn def_mut(roots: &mut [YNode], (ri, si, ei): Loc) -> Option<&mut YNode> {
    let section = &mut entries_mut(&mut roots[ri])?.get_mut(si)?.1;
    Some(&mut entries_mut(section)?.get_mut(ei)?.1)
}

fn def_ref(roots: &[YNode], (ri, si, ei): Loc) -> Option<(&YNode, &YNode)> {
    let section = &roots[ri].as_map()?.get(si)?.1;
    section.as_map()?.get(ei).map(|(k, v)| (k, v))
}

/// Who touched each thing first: the pack and where.
#[derive(Default)]
struct Claims {
    by: HashMap<String, (usize, Span)>,
}

/// Merges the packs into the ruleset's merged YAML roots, in order. Returns the roots
/// (with one more root per pack that defines new names) and what each pack did.
pub fn merge(
    c: &mut Checker,
    mut roots: Vec<YNode>,
    packs: &[PackLayer],
) -> (Vec<YNode>, Vec<Added>) {
    let mut defs = Defs::default();
    defs.index(&roots, 0);
    let mut claims = Claims::default();
    let mut added = Vec::new();
    for (pi, pack) in packs.iter().enumerate() {
        c.pack_files.insert(pack.root.span.file, pack.name.clone());
        let mut m = Merge {
            c,
            packs,
            pi,
            claims: &mut claims,
            added: Added::default(),
        };
        let mut fresh: Vec<(YNode, YNode)> = Vec::new();
        for (sk, sv) in pack.root.as_map().unwrap_or(&[]) {
            let section = key_of(sk);
            if !SECTIONS.contains(&section.as_str()) && section != "records" {
                continue;
            }
            let Some(items) = sv.as_map() else {
                // (`records:` of the wrong kind is reported where records are read.)
                if !matches!(sv.value, YValue::Null) && section != "records" {
                    super::data::wrong(m.c, sv, "a mapping of names to definitions");
                }
                continue;
            };
            let mut new_defs: Vec<(YNode, YNode)> = Vec::new();
            for (k, v) in items {
                if section == "records" {
                    m.records(&mut roots, &defs, k, v);
                    continue;
                }
                let name = key_of(k);
                match defs.names.get(&name) {
                    Some((found, loc)) if *found == section => {
                        let loc = *loc;
                        if !m.may_touch(&format!("`{name}`"), &format!("def {name}"), k.span) {
                            continue;
                        }
                        if section == "tables" {
                            m.table(&mut roots, loc, &name, v);
                        } else {
                            m.choice(&mut roots, loc, &section, &name, k, v);
                        }
                    }
                    // A name the ruleset gives something of another kind.
                    Some((found, loc)) => {
                        let first = def_ref(&roots, *loc).map_or(k.span, |(dk, _)| dk.span);
                        let kind = match found.as_str() {
                            "enums" => "an enum",
                            "scales" => "a scale",
                            "tables" => "a table",
                            "constants" => "a constant",
                            "types" => "a record type",
                            "tracks" => "a track",
                            _ => "an inline formula",
                        };
                        m.c.diags.push(
                            Diagnostic::error(
                                "E0301",
                                k.span,
                                format!("`{name}` is already defined, as {kind}"),
                            )
                            .label(format!("a new {} of this name", section.trim_end_matches('s')))
                            .note(first, format!("`{name}`, {kind}"))
                            .help(format!(
                                "under `{section}:`, a pack adds to the {section} of that name, or defines a new one: give this one another name"
                            )),
                        );
                    }
                    _ => {
                        if m.claim(&format!("`{name}`"), &format!("def {name}"), k.span) {
                            m.added.new += 1;
                            new_defs.push((k.clone(), v.clone()));
                        }
                    }
                }
            }
            if !new_defs.is_empty() {
                fresh.push((
                    sk.clone(),
                    YNode {
                        span: sv.span,
                        value: YValue::Map(new_defs),
                    },
                ));
            }
        }
        added.push(m.added);
        if !fresh.is_empty() {
            let from = roots.len();
            roots.push(YNode {
                span: pack.root.span,
                value: YValue::Map(fresh),
            });
            defs.index(&roots, from);
        }
    }
    (roots, added)
}

/// Merging one pack.
struct Merge<'m, 'd> {
    c: &'m mut Checker<'d>,
    packs: &'m [PackLayer],
    pi: usize,
    claims: &'m mut Claims,
    added: Added,
}

impl Merge<'_, '_> {
    /// Whether this pack may touch `key` (touched by an earlier pack only if this one
    /// requires it), reporting `E0415` otherwise; it does not claim it.
    fn may_touch(&mut self, what: &str, key: &str, span: Span) -> bool {
        let Some(&(first, at)) = self.claims.by.get(key) else {
            return true;
        };
        if first == self.pi
            || self.packs[self.pi]
                .requires
                .contains(&self.packs[first].name)
        {
            return true;
        }
        let (a, b) = (&self.packs[first].name, &self.packs[self.pi].name);
        self.c.diags.push(
            Diagnostic::error(
                "E0415",
                span,
                format!("{what} is added or changed by two packs, `{a}` and `{b}`"),
            )
            .label(format!("`{b}` here"))
            .note(at, format!("`{a}` here"))
            .help(format!(
                "make `{b}` require `{a}` (its change then wins), or drop one of the two"
            )),
        );
        false
    }

    /// [`Merge::may_touch`], and claims `key` for this pack.
    fn claim(&mut self, what: &str, key: &str, span: Span) -> bool {
        if !self.may_touch(what, key, span) {
            return false;
        }
        self.claims.by.insert(key.to_string(), (self.pi, span));
        true
    }

    fn wrong_kind(&mut self, node: &YNode, expected: &str) {
        super::data::wrong(self.c, node, expected);
    }

    /// Variants or levels added to the ruleset's enum or scale `name`.
    fn choice(
        &mut self,
        roots: &mut [YNode],
        loc: Loc,
        section: &str,
        name: &str,
        key: &YNode,
        value: &YNode,
    ) {
        let Some(items) = value.as_seq() else {
            self.wrong_kind(value, "a list of the levels or variants to add");
            return;
        };
        let Some((def_key, def)) = def_ref(roots, loc) else {
            return;
        };
        let def_span = def_key.span;
        if section == "scales" {
            let open = matches!(
                def.get("extensible").map(|e| &e.value),
                Some(YValue::Bool(true))
            );
            if !open {
                self.c.diags.push(
                    Diagnostic::error(
                        "E0413",
                        key.span,
                        format!("the scale `{name}` is closed: a pack cannot add levels to it"),
                    )
                    .label("levels added to a closed scale")
                    .note(def_span, format!("`{name}` is defined here, without `extensible: true`"))
                    .help(format!(
                        "a scale opens to packs with `extensible: true` in its definition (`{name}: {{ levels: [...], extensible: true }}`); a pack can add a new scale of its own"
                    )),
                );
                return;
            }
        }
        let mut kept = Vec::new();
        for item in items {
            let vname = match &item.value {
                YValue::Map(m) if m.len() == 1 => key_of(&m[0].0),
                _ => key_of(item),
            };
            if self.claim(
                &format!("`{name}.{vname}`"),
                &format!("variant {name}.{vname}"),
                item.span,
            ) {
                kept.push(item.clone());
            }
        }
        let Some(def) = def_mut(roots, loc) else {
            return;
        };
        let list = if section == "scales" {
            entries_mut(def).and_then(|m| {
                m.iter_mut()
                    .find(|(k, _)| key_of(k) == SCALE_KEYS[0])
                    .map(|(_, v)| v)
            })
        } else {
            Some(def)
        };
        if let Some(YNode {
            value: YValue::Seq(list),
            ..
        }) = list
        {
            let n = kept.len();
            list.extend(kept);
            if section == "scales" {
                self.added.levels += n;
            } else {
                self.added.variants += n;
            }
        }
        // Not a list: the ruleset's own definition is reported as wrong.
    }

    /// Rows added to, and `_mod` changes of, the ruleset's table `name`.
    fn table(&mut self, roots: &mut [YNode], loc: Loc, name: &str, value: &YNode) {
        let Some(map) = value.as_map() else {
            self.wrong_kind(value, "`rows:` to add, or `_mod:`");
            return;
        };
        for (k, _) in map {
            let what = key_of(k);
            if !TABLE_KEYS.contains(&what.as_str()) {
                self.c.error(
                    "E0103",
                    k.span,
                    format!("unknown key `{what}` in a pack's change of the table `{name}`"),
                    "unknown key",
                    format!(
                        "{}; a pack adds rows to a ruleset's table (`rows:`) or changes them (`_mod:`), and keeps its other keys",
                        suggest(&what, TABLE_KEYS, "keys")
                    ),
                );
            }
        }
        if let Some(rows) = value.get("rows") {
            let Some(rows) = rows.as_map() else {
                self.wrong_kind(rows, "a mapping of rows");
                return;
            };
            let mut kept = Vec::new();
            for (rk, rv) in rows {
                let row = key_of(rk);
                if self.claim(
                    &format!("the row `{row}` of `{name}`"),
                    &format!("row {name}.{row}"),
                    rk.span,
                ) {
                    kept.push((rk.clone(), rv.clone()));
                }
            }
            self.added.rows += kept.len();
            if let Some(target) = table_rows(roots, loc) {
                target.extend(kept);
            }
        }
        if let Some(modify) = value.get(MOD) {
            self.table_mod(roots, loc, name, modify);
        }
    }

    fn table_mod(&mut self, roots: &mut [YNode], loc: Loc, name: &str, modify: &YNode) {
        if modify.as_map().is_none() {
            self.wrong_kind(modify, "`replace:` or `remove:`");
            return;
        }
        self.modes(
            modify,
            TABLE_MODES,
            &format!("`_mod` of the table `{name}`"),
        );
        let mut at: HashMap<String, usize> = HashMap::new();
        if let Some(rows) = table_rows(roots, loc) {
            for (i, (k, _)) in rows.iter().enumerate() {
                at.entry(key_of(k)).or_insert(i);
            }
        }
        let mut replace: Vec<(usize, YNode, YNode)> = Vec::new();
        let mut remove: Vec<usize> = Vec::new();
        if let Some(r) = modify.get("replace") {
            match r.as_map() {
                Some(rows) => {
                    for (rk, rv) in rows {
                        let row = key_of(rk);
                        let Some(&i) = at.get(&row) else {
                            self.no_row(rk, name, &at);
                            continue;
                        };
                        if self.claim(
                            &format!("the row `{row}` of `{name}`"),
                            &format!("row {name}.{row}"),
                            rk.span,
                        ) {
                            replace.push((i, rk.clone(), rv.clone()));
                        }
                    }
                }
                None => self.wrong_kind(r, "a mapping of rows to their new values"),
            }
        }
        if let Some(r) = modify.get("remove") {
            match r.as_seq() {
                Some(keys) => {
                    for rk in keys {
                        let row = key_of(rk);
                        let Some(&i) = at.get(&row) else {
                            self.no_row(rk, name, &at);
                            continue;
                        };
                        if self.claim(
                            &format!("the row `{row}` of `{name}`"),
                            &format!("row {name}.{row}"),
                            rk.span,
                        ) {
                            remove.push(i);
                        }
                    }
                }
                None => self.wrong_kind(r, "a list of row keys"),
            }
        }
        self.added.changes += replace.len() + remove.len();
        let Some(rows) = table_rows(roots, loc) else {
            return;
        };
        for (i, k, v) in replace {
            rows[i] = (k, v);
        }
        // One pass, however many rows go.
        let drop: std::collections::HashSet<usize> = remove.into_iter().collect();
        let mut i = 0;
        rows.retain(|_| {
            i += 1;
            !drop.contains(&(i - 1))
        });
    }

    fn no_row(&mut self, rk: &YNode, name: &str, at: &HashMap<String, usize>) {
        let row = key_of(rk);
        let mut cands: Vec<&str> = at.keys().map(String::as_str).collect();
        cands.sort_unstable();
        self.c.error(
            "E0414",
            rk.span,
            format!("the table `{name}` has no row `{row}` to change"),
            "no such row",
            format!(
                "{}; to add a row, write it under `rows:`",
                suggest(&row, &cands, "rows")
            ),
        );
    }

    /// Unknown modes under a `_mod`.
    fn modes(&mut self, modify: &YNode, allowed: &[&str], what: &str) {
        for (k, _) in modify.as_map().unwrap_or(&[]) {
            let mode = key_of(k);
            if !allowed.contains(&mode.as_str()) {
                self.c.error(
                    "E0103",
                    k.span,
                    format!("unknown key `{mode}` in {what}"),
                    "unknown key",
                    suggest(&mode, allowed, "keys"),
                );
            }
        }
    }

    /// `records:` of a pack: `_mod` changes of the ruleset's records (the pack's own
    /// records are read after the check, by `crate::pack`).
    fn records(&mut self, roots: &mut [YNode], defs: &Defs, tk: &YNode, by_name: &YNode) {
        let tname = key_of(tk);
        for (rk, rv) in by_name.as_map().unwrap_or(&[]) {
            let Some(modify) = rv.get(MOD) else {
                continue;
            };
            let rname = key_of(rk);
            for (k, _) in rv.as_map().unwrap_or(&[]) {
                if key_of(k) != MOD {
                    self.c.error(
                        "E0103",
                        k.span,
                        format!("`{}` beside `_mod`", key_of(k)),
                        "beside `_mod`",
                        "a record changed in place gives only `_mod:`; to change a field, write it under `_mod: { replace: { ... } }`",
                    );
                }
            }
            let Some(&(loc, xi)) = defs.records.get(&(tname.clone(), rname.clone())) else {
                self.c.error(
                    "E0414",
                    rk.span,
                    format!("the ruleset has no {tname} record `{rname}` to change"),
                    "not a record of the ruleset",
                    "`_mod` changes the ruleset's records; a pack's record is changed by copying it under a new name (`_copy`)",
                );
                continue;
            };
            if modify.as_map().is_none() {
                self.wrong_kind(modify, "`replace:`, `append:` or `remove:`");
                continue;
            }
            self.modes(modify, RECORD_MODES, &format!("`_mod` of `{rname}`"));
            // The record's fields by name, made once (a record may write many).
            let mut index: Option<HashMap<String, usize>> = None;
            for mode in RECORD_MODES {
                let Some(fields) = modify.get(mode) else {
                    continue;
                };
                let Some(fields) = fields.as_map() else {
                    self.wrong_kind(fields, "a mapping of fields");
                    continue;
                };
                for (fk, fv) in fields {
                    let field = key_of(fk);
                    if !self.claim(
                        &format!("the field `{field}` of `{rname}`"),
                        &format!("field {tname}.{rname}.{field}"),
                        fk.span,
                    ) {
                        continue;
                    }
                    let Some(record) = def_mut(roots, loc)
                        .and_then(entries_mut)
                        .and_then(|m| m.get_mut(xi))
                        .and_then(|(_, v)| entries_mut(v))
                    else {
                        // A record written otherwise is the ruleset's own problem.
                        continue;
                    };
                    let at = index.get_or_insert_with(|| {
                        let mut at = HashMap::new();
                        for (i, (k, _)) in record.iter().enumerate() {
                            at.entry(key_of(k)).or_insert(i);
                        }
                        at
                    });
                    let change = Change {
                        rname: &rname,
                        mode,
                        fk,
                        fv,
                    };
                    self.record_field(record, at, change);
                }
            }
        }
    }

    /// One field's change, in a record's fields (`at`: their positions by name).
    fn record_field(
        &mut self,
        fields: &mut Vec<(YNode, YNode)>,
        at: &mut HashMap<String, usize>,
        change: Change,
    ) {
        let Change {
            rname,
            mode,
            fk,
            fv,
        } = change;
        let field = key_of(fk);
        if mode == "replace" {
            match at.get(&field) {
                Some(&i) => fields[i] = (fk.clone(), fv.clone()),
                None => {
                    at.insert(field, fields.len());
                    fields.push((fk.clone(), fv.clone()));
                }
            }
            self.added.changes += 1;
            return;
        }
        let Some(items) = fv.as_seq() else {
            self.wrong_kind(fv, "a list of items");
            return;
        };
        let Some((
            _,
            YNode {
                value: YValue::Seq(list),
                ..
            },
        )) = at.get(&field).and_then(|&i| fields.get_mut(i))
        else {
            self.c.error(
                "E0414",
                fk.span,
                format!("`{rname}` does not write `{field}` as a list to {mode} to"),
                "not a list in the record",
                format!("`{mode}` changes a list the record writes; give the whole value with `replace: {{ {field}: [...] }}`"),
            );
            return;
        };
        if mode == "append" {
            list.extend(items.iter().cloned());
            self.added.changes += items.len();
            return;
        }
        // Every item written as one given goes, in one pass over the list.
        let gone: HashMap<String, usize> = items
            .iter()
            .enumerate()
            .map(|(i, item)| (canon(item), i))
            .collect();
        let mut found = vec![false; items.len()];
        list.retain(|x| match gone.get(&canon(x)) {
            Some(&i) => {
                found[i] = true;
                false
            }
            None => true,
        });
        for (item, found) in items.iter().zip(found) {
            if found {
                self.added.changes += 1;
                continue;
            }
            self.c.error(
                "E0414",
                item.span,
                format!(
                    "`{field}` of `{rname}` holds no `{}` to remove",
                    canon(item)
                ),
                "not in the list",
                "remove only items the record's list holds, written as the record writes them",
            );
        }
    }
}

/// One change of a record's field under `_mod`.
struct Change<'a> {
    rname: &'a str,
    mode: &'a str,
    fk: &'a YNode,
    fv: &'a YNode,
}

/// The `rows:` of the table at `loc`; `None` for a table without a mapping of rows,
/// which the ruleset's own check reports.
fn table_rows(roots: &mut [YNode], loc: Loc) -> Option<&mut Vec<(YNode, YNode)>> {
    let def = entries_mut(def_mut(roots, loc)?)?;
    let i = def.iter().position(|(k, _)| key_of(k) == "rows")?;
    entries_mut(&mut def[i].1)
}

/// A YAML value as flow text, its places aside: items written alike read alike (what
/// `remove` compares).
fn canon(n: &YNode) -> String {
    let mut out = String::new();
    write_canon(n, &mut out);
    out
}

fn write_canon(n: &YNode, out: &mut String) {
    match &n.value {
        YValue::Seq(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_canon(item, out);
            }
            out.push(']');
        }
        YValue::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_canon(k, out);
                out.push_str(": ");
                write_canon(v, out);
            }
            out.push('}');
        }
        YValue::Str(s) => out.push_str(s),
        other => out.push_str(&key_of(&YNode {
            span: n.span,
            value: other.clone(),
        })),
    }
}
