//! What an editor asks of a check: every definition (its kind, the span of its name, a
//! one-line description) and every place the checker resolved a name to one. The checker
//! records both as it resolves names, so the language server's hover, go to definition
//! and rename agree with the diagnostics by construction: nothing is resolved twice.
//!
//! References are recorded by [`Key`] (kind, container and name) and tied to their
//! definitions when the check ends, since YAML may name a record before it is built.

use crate::ir::{Program, Ty};
use crate::source::Span;
use std::collections::HashMap;

/// What a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Scale,
    Enum,
    /// A level of a scale or a variant of an enum.
    Level,
    RecordType,
    Field,
    Track,
    Table,
    Constant,
    /// A record (an instance of a record type, from `records:`).
    Record,
    Outcome,
    Tag,
    Formula,
    Procedure,
    /// A parameter or a local of a formula or procedure.
    Local,
    /// The fight declaration (`fight of Combatant { ... }`), named `fight`.
    Fight,
}

impl SymbolKind {
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Scale => "scale",
            SymbolKind::Enum => "enum",
            SymbolKind::Level => "level",
            SymbolKind::RecordType => "record type",
            SymbolKind::Field => "field",
            SymbolKind::Track => "track",
            SymbolKind::Table => "table",
            SymbolKind::Constant => "constant",
            SymbolKind::Record => "record",
            SymbolKind::Outcome => "outcome",
            SymbolKind::Tag => "tag",
            SymbolKind::Formula => "formula",
            SymbolKind::Procedure => "procedure",
            SymbolKind::Local => "local",
            SymbolKind::Fight => "fight",
        }
    }
}

/// How the checker names a symbol while it checks (before every definition is known).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// A top-level name: scale, enum, record type, track, table, constant, outcome,
    /// formula or procedure.
    Top(String),
    /// A level of a scale or enum: (choice, level).
    Level(String, String),
    /// A field of a record type: (record type, field).
    Field(String, String),
    /// A tag of an outcome: (outcome, tag).
    Tag(String, String),
    /// A record, by name.
    Record(String),
    /// A parameter or local: (function id, slot).
    Local(usize, usize),
    /// The fight declaration (one a ruleset).
    Fight,
}

/// One definition.
#[derive(Debug, Clone)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The name of what holds it: the scale of a level, the record type of a field or a
    /// record, the outcome of a tag, the formula or procedure of a local.
    pub parent: Option<String>,
    /// The name where it is defined (for a variant's override of a YAML definition, the
    /// base's name: the override is in `overrides`).
    pub span: Span,
    /// How it reads in a hover: `formula bonus(x: int) -> int`, `Combatant.skill: int`.
    pub detail: String,
    /// The writer's `doc:` text, if the YAML gives one.
    pub doc: Option<String>,
    /// A formula's or procedure's parameters, or an outcome tag's fields, each as `detail`
    /// writes it (`f: Fighter`).
    pub params: Vec<String>,
    /// What the value of a field or constant, or a table's values, is written as in YAML,
    /// when it is one of some names: the scale, enum or record type (for a list or an
    /// optional value, its items'), or `bool`.
    pub named_by: Option<String>,
    /// For a map (`map<Skill, int>`), what its keys are written as, as `named_by` says
    /// what its values are (`None`: numbers), then the keys of the map it holds as values,
    /// and so on (`map<Skill, map<Stance, int>>`: `[Skill, Stance]`); for a table, its
    /// rows' keys (a scale or enum; `None` for numbers and dice). Empty for anything else.
    pub keys_named_by: Vec<Option<String>>,
    /// For a table with two keys, what its `columns:` are written as: its column key's
    /// scale or enum (`None` for numbers, and for anything else).
    pub columns_named_by: Option<String>,
    /// Other definitions it replaced or was replaced by through `override`: the names in
    /// the base and in the variant, with which is the base.
    pub overrides: Vec<Override>,
}

/// One `override` of a definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Override {
    /// The base's definition of the name.
    pub base: Span,
    /// The variant's `override`.
    pub by: Span,
}

/// Every definition and every resolved name of one check.
#[derive(Debug, Clone, Default)]
pub struct Index {
    pub symbols: Vec<Symbol>,
    /// A use of a name: its span, and the symbol it resolved to.
    pub refs: Vec<(Span, usize)>,
}

impl Index {
    /// The symbol named at a byte offset of a file: by a reference there, or by the
    /// definition itself (or an `override` of it).
    pub fn at(&self, file: u32, offset: u32) -> Option<usize> {
        let inside = |s: &Span| s.file == file && s.start <= offset && offset <= s.end;
        self.refs
            .iter()
            .find(|(s, _)| inside(s))
            .map(|(_, i)| *i)
            .or_else(|| {
                self.symbols.iter().position(|sym| {
                    inside(&sym.span)
                        || sym
                            .overrides
                            .iter()
                            .any(|o| inside(&o.by) || inside(&o.base))
                })
            })
    }

    /// Every span that names symbol `i`: its definition, its overrides, its uses.
    pub fn occurrences(&self, i: usize) -> Vec<Span> {
        let sym = &self.symbols[i];
        let mut out = vec![sym.span];
        for o in &sym.overrides {
            out.push(o.base);
            out.push(o.by);
        }
        out.extend(self.refs.iter().filter(|(_, s)| *s == i).map(|(sp, _)| *sp));
        out.sort();
        out.dedup();
        out
    }
}

/// The index while checking: definitions and uses by [`Key`].
#[derive(Debug, Default)]
pub struct Recorder {
    /// Records only what the checker itself asks ([`Recorder::defines`] of a record):
    /// a check without a reader of its index (the command line) builds none, and
    /// formats none of its descriptions.
    records_only: bool,
    symbols: Vec<(Key, Symbol)>,
    by_key: HashMap<Key, usize>,
    refs: Vec<(Span, Key)>,
    /// For each function, where in `refs` its locals are used: what
    /// [`Recorder::move_params`] rewrites, without scanning every use.
    local_refs: HashMap<usize, Vec<usize>>,
    overrides: Vec<(Key, Override)>,
    local_types: HashMap<(usize, usize), Ty>,
}

impl Recorder {
    /// A recorder of the records declared only, for a check whose index is not read.
    pub fn records_only() -> Self {
        Recorder {
            records_only: true,
            ..Recorder::default()
        }
    }

    /// Records a definition (the first of a key wins; a duplicate is an error elsewhere).
    pub fn define(&mut self, key: Key, kind: SymbolKind, parent: Option<&str>, span: Span) {
        if self.by_key.contains_key(&key) || (self.records_only && !matches!(key, Key::Record(_))) {
            return;
        }
        let name = match &key {
            Key::Top(n) | Key::Record(n) => n.clone(),
            Key::Level(_, n) | Key::Field(_, n) | Key::Tag(_, n) => n.clone(),
            Key::Local(..) => String::new(),
            Key::Fight => "fight".to_string(),
        };
        self.by_key.insert(key.clone(), self.symbols.len());
        self.symbols.push((
            key,
            Symbol {
                name,
                kind,
                parent: parent.map(str::to_string),
                span,
                detail: String::new(),
                doc: None,
                params: Vec::new(),
                named_by: None,
                keys_named_by: Vec::new(),
                columns_named_by: None,
                overrides: Vec::new(),
            },
        ));
    }

    /// Records a parameter or local of function `func` (named `parent`).
    pub fn local(
        &mut self,
        (func, slot): (usize, usize),
        name: &str,
        parent: &str,
        span: Span,
        ty: Ty,
    ) {
        if self.records_only {
            return;
        }
        self.define(
            Key::Local(func, slot),
            SymbolKind::Local,
            Some(parent),
            span,
        );
        if let Some(&i) = self.by_key.get(&Key::Local(func, slot)) {
            self.symbols[i].1.name = name.to_string();
        }
        self.local_types.insert((func, slot), ty);
    }

    /// Whether a definition of `key` was recorded (a record is, even when invalid).
    pub fn defines(&self, key: &Key) -> bool {
        self.by_key.contains_key(key)
    }

    pub fn refer(&mut self, span: Span, key: Key) {
        if !self.records_only {
            if let Key::Local(f, _) = key {
                self.local_refs.entry(f).or_default().push(self.refs.len());
            }
            self.refs.push((span, key));
        }
    }

    /// Uses of parameter `k` of function `from` become uses of local `slots[k]` of
    /// function `to`: the parameters of a formula the checker made of an expression
    /// (a repeating timer's `until`) are the locals it read where it is written.
    pub fn move_params(&mut self, from: usize, to: usize, slots: &[usize]) {
        let Some(uses) = self.local_refs.remove(&from) else {
            return;
        };
        let (mut moved, mut kept) = (Vec::new(), Vec::new());
        for i in uses {
            match self.refs[i].1 {
                Key::Local(_, k) if slots.get(k).is_some() => {
                    self.refs[i].1 = Key::Local(to, slots[k]);
                    moved.push(i);
                }
                _ => kept.push(i),
            }
        }
        if !kept.is_empty() {
            self.local_refs.insert(from, kept);
        }
        if !moved.is_empty() {
            // Uses of `to`'s locals now, for a later move of them.
            self.local_refs.entry(to).or_default().extend(moved);
        }
    }

    pub fn overridden(&mut self, key: Key, base: Span, by: Span) {
        if self.records_only {
            return;
        }
        self.overrides.push((key, Override { base, by }));
    }

    pub fn doc(&mut self, key: &Key, doc: &str) {
        if let Some(&i) = self.by_key.get(key) {
            self.symbols[i].1.doc = Some(doc.to_string());
        }
    }

    /// Ties uses to definitions and describes each definition from the checked program
    /// (complete or not: an index is built even when the check found errors).
    pub fn finish(self, prog: &Program) -> Index {
        if self.records_only {
            return Index::default();
        }
        let Recorder {
            records_only: _,
            mut symbols,
            by_key,
            refs,
            local_refs: _,
            overrides,
            local_types,
        } = self;
        for (key, o) in overrides {
            if let Some(&i) = by_key.get(&key) {
                symbols[i].1.overrides.push(o);
            }
        }
        let look = Lookup::new(prog);
        for (key, sym) in &mut symbols {
            // Known only once built: scale or enum, formula or procedure.
            match sym.kind {
                SymbolKind::Scale | SymbolKind::Enum => {
                    if let Some(c) = look.choice(&sym.name) {
                        sym.kind = if c.ordered {
                            SymbolKind::Scale
                        } else {
                            SymbolKind::Enum
                        };
                    }
                }
                SymbolKind::Formula | SymbolKind::Procedure => {
                    if let Some(f) = look.function(&sym.name) {
                        sym.kind = if f.is_procedure() {
                            SymbolKind::Procedure
                        } else {
                            SymbolKind::Formula
                        };
                    }
                }
                _ => {}
            }
            sym.detail = describe(prog, &look, key, sym, &local_types);
            let ty = value_type(prog, &look, key, sym, &local_types);
            sym.named_by = ty.and_then(|t| named_by(prog, t));
            sym.keys_named_by = ty.map(|t| keys_named_by(prog, t)).unwrap_or_default();
            if let (SymbolKind::Table, Some((1, i))) = (sym.kind, look.other(&sym.name)) {
                // A table's rows are written as a map by its (first) key.
                let choice = |key: &crate::ir::TableKey| match key {
                    crate::ir::TableKey::Choice(c) => prog.choices.get(*c).map(|c| c.name.clone()),
                    _ => None,
                };
                let table = &prog.tables[i];
                sym.keys_named_by = vec![choice(&table.key)];
                sym.columns_named_by = table.columns.as_ref().and_then(|c| choice(&c.key));
            }
            if sym.kind == SymbolKind::Fight {
                // What a fight file's fighters are written as: the combatants' type.
                sym.named_by = prog
                    .fight
                    .as_ref()
                    .and_then(|f| prog.records.get(f.combatant))
                    .map(|r| r.name.clone());
            }
            if let (SymbolKind::Formula | SymbolKind::Procedure, Some(f)) =
                (sym.kind, look.function(&sym.name))
            {
                sym.params = params_of(prog, f);
            }
            if let (SymbolKind::Tag, Key::Tag(outcome, _)) = (sym.kind, &*key) {
                let tag = look
                    .outcome(outcome)
                    .zip(look.member(outcome, &sym.name))
                    .and_then(|(o, i)| o.tags.get(i));
                if let Some(t) = tag {
                    sym.params = t
                        .fields
                        .iter()
                        .map(|(n, ty)| format!("{n}: {}", prog.ty_name(ty)))
                        .collect();
                }
            }
        }
        Index {
            refs: refs
                .into_iter()
                .filter_map(|(span, key)| Some((span, *by_key.get(&key)?)))
                .collect(),
            symbols: symbols.into_iter().map(|(_, s)| s).collect(),
        }
    }
}

/// Definitions by name, so that describing every symbol takes time in proportion to
/// the program (hostile rulesets have tens of thousands of names).
struct Lookup<'p> {
    prog: &'p Program,
    top: HashMap<&'p str, usize>,
    choices: HashMap<&'p str, usize>,
    records: HashMap<&'p str, usize>,
    outcomes: HashMap<&'p str, usize>,
    functions: HashMap<&'p str, usize>,
    instances: HashMap<&'p str, usize>,
    /// (container, member) → position: levels, fields, tags.
    members: HashMap<(&'p str, &'p str), usize>,
}

impl<'p> Lookup<'p> {
    fn new(prog: &'p Program) -> Self {
        fn by_name<'a, T>(
            items: &'a [T],
            name: impl Fn(&'a T) -> &'a str,
        ) -> HashMap<&'a str, usize> {
            let mut m = HashMap::new();
            for (i, t) in items.iter().enumerate() {
                m.entry(name(t)).or_insert(i);
            }
            m
        }
        let mut members = HashMap::new();
        for c in &prog.choices {
            for (i, v) in c.variants.iter().enumerate() {
                members
                    .entry((c.name.as_str(), v.name.as_str()))
                    .or_insert(i);
            }
        }
        for r in &prog.records {
            for (i, f) in r.fields.iter().enumerate() {
                members
                    .entry((r.name.as_str(), f.name.as_str()))
                    .or_insert(i);
            }
        }
        for o in &prog.outcomes {
            for (i, t) in o.tags.iter().enumerate() {
                members
                    .entry((o.name.as_str(), t.name.as_str()))
                    .or_insert(i);
            }
        }
        let mut top = by_name(&prog.tracks, |t| t.name.as_str());
        top.extend(
            by_name(&prog.tables, |t| t.name.as_str())
                .into_iter()
                .map(|(k, v)| (k, v + (1 << 40))),
        );
        top.extend(
            by_name(&prog.constants, |t| t.name.as_str())
                .into_iter()
                .map(|(k, v)| (k, v + (2 << 40))),
        );
        Lookup {
            prog,
            top,
            choices: by_name(&prog.choices, |c| c.name.as_str()),
            records: by_name(&prog.records, |r| r.name.as_str()),
            outcomes: by_name(&prog.outcomes, |o| o.name.as_str()),
            functions: by_name(&prog.functions, |f| f.name.as_str()),
            instances: by_name(&prog.instances, |i| i.name.as_str()),
            members,
        }
    }
    fn choice(&self, n: &str) -> Option<&'p crate::ir::Choice> {
        self.choices.get(n).map(|&i| &self.prog.choices[i])
    }
    fn record(&self, n: &str) -> Option<&'p crate::ir::RecordType> {
        self.records.get(n).map(|&i| &self.prog.records[i])
    }
    fn outcome(&self, n: &str) -> Option<&'p crate::ir::OutcomeType> {
        self.outcomes.get(n).map(|&i| &self.prog.outcomes[i])
    }
    fn function(&self, n: &str) -> Option<&'p crate::ir::Function> {
        self.functions.get(n).map(|&i| &self.prog.functions[i])
    }
    fn member(&self, container: &str, n: &str) -> Option<usize> {
        self.members.get(&(container, n)).copied()
    }
    /// A track, table or constant: (0, 1 or 2, index).
    fn other(&self, n: &str) -> Option<(usize, usize)> {
        self.top.get(n).map(|&i| (i >> 40, i & ((1 << 40) - 1)))
    }
}

/// At most this many parts (levels, fields, tags) are listed in a description.
const MAX_LISTED: usize = 24;

fn listed(parts: impl Iterator<Item = String>, sep: &str) -> String {
    let mut v: Vec<String> = parts.take(MAX_LISTED + 1).collect();
    if v.len() > MAX_LISTED {
        v.truncate(MAX_LISTED);
        v.push("...".into());
    }
    v.join(sep)
}

fn describe(
    prog: &Program,
    look: &Lookup,
    key: &Key,
    sym: &Symbol,
    local_types: &HashMap<(usize, usize), Ty>,
) -> String {
    let name = &sym.name;
    let ty = |t: &Ty| prog.ty_name(t);
    match (sym.kind, key) {
        (SymbolKind::Scale | SymbolKind::Enum, _) => {
            let Some(c) = look.choice(name) else {
                return format!("{} {name}", sym.kind.word());
            };
            let sep = if c.ordered { " < " } else { " | " };
            let levels = listed(c.variants.iter().map(|v| v.name.clone()), sep);
            format!("{} {name}: {levels}", sym.kind.word())
        }
        (SymbolKind::Level, Key::Level(choice, _)) => {
            let Some(c) = look.choice(choice) else {
                return format!("{choice}.{name}");
            };
            let pos = look.member(choice, name).unwrap_or(0);
            if c.ordered {
                format!(
                    "{choice}.{name}: level {} of {} in scale {choice}",
                    pos + 1,
                    c.variants.len()
                )
            } else {
                format!("{choice}.{name}: a variant of enum {choice}")
            }
        }
        (SymbolKind::RecordType, _) => match look.record(name) {
            Some(r) => {
                let fields = listed(
                    r.fields
                        .iter()
                        .map(|f| format!("{}: {}", f.name, ty(&f.ty))),
                    ", ",
                );
                format!("type {name} {{ {fields} }}")
            }
            None => format!("type {name}"),
        },
        (SymbolKind::Field, Key::Field(rec, _)) => {
            let field = look
                .record(rec)
                .zip(look.member(rec, name))
                .and_then(|(r, i)| r.fields.get(i));
            match field {
                Some(f) => {
                    let mut s = format!("{rec}.{name}: {}", ty(&f.ty));
                    if let Some((lo, hi)) = f.range {
                        s.push_str(&format!(" ({lo}..{hi})"));
                    }
                    s
                }
                None => format!("{rec}.{name}"),
            }
        }
        (SymbolKind::Track, _) => match look
            .other(name)
            .filter(|(k, _)| *k == 0)
            .map(|(_, i)| &prog.tracks[i])
        {
            Some(t) => format!(
                "track {name}: {} boxes over {}",
                t.boxes.len(),
                prog.choices.get(t.scale).map_or("?", |c| c.name.as_str())
            ),
            None => format!("track {name}"),
        },
        (SymbolKind::Table, _) => match look
            .other(name)
            .filter(|(k, _)| *k == 1)
            .map(|(_, i)| &prog.tables[i])
        {
            Some(t) => {
                let key = match &t.key {
                    crate::ir::TableKey::Choice(c) => prog.choices[*c].name.clone(),
                    other => table_key(other),
                };
                format!("table {name}: {key} -> {}", ty(&t.value))
            }
            None => format!("table {name}"),
        },
        (SymbolKind::Constant, _) => match look
            .other(name)
            .filter(|(k, _)| *k == 2)
            .map(|(_, i)| &prog.constants[i])
        {
            Some(k) => format!("constant {name}: {}", ty(&k.ty)),
            None => format!("constant {name}"),
        },
        (SymbolKind::Record, _) => match look
            .instances
            .get(name.as_str())
            .map(|&i| &prog.instances[i])
        {
            Some(i) => format!("record {name}: {}", prog.records[i.record].name),
            None => format!("record {name}"),
        },
        (SymbolKind::Outcome, _) => match look.outcome(name) {
            Some(o) => {
                let tags = listed(o.tags.iter().map(|t| tag_text(prog, t)), ", ");
                format!("outcome {name} {{ {tags} }}")
            }
            None => format!("outcome {name}"),
        },
        (SymbolKind::Tag, Key::Tag(outcome, _)) => {
            let tag = look
                .outcome(outcome)
                .zip(look.member(outcome, name))
                .and_then(|(o, i)| o.tags.get(i));
            match tag {
                Some(t) => format!("{outcome}.{}", tag_text(prog, t)),
                None => format!("{outcome}.{name}"),
            }
        }
        (SymbolKind::Formula | SymbolKind::Procedure, _) => match look.function(name) {
            Some(f) => {
                let params = params_of(prog, f);
                let ret = match f.ret {
                    Ty::Unit => String::new(),
                    ref r => format!(" -> {}", ty(r)),
                };
                format!("{} {name}({}){ret}", sym.kind.word(), params.join(", "))
            }
            None => format!("{} {name}", sym.kind.word()),
        },
        (SymbolKind::Fight, _) => match &prog.fight {
            Some(f) => format!(
                "fight of {}",
                prog.records
                    .get(f.combatant)
                    .map_or("?", |r| r.name.as_str())
            ),
            None => "fight".to_string(),
        },
        (SymbolKind::Local, Key::Local(f, slot)) => match local_types.get(&(*f, *slot)) {
            Some(t) => format!("{name}: {}", ty(t)),
            None => name.clone(),
        },
        (kind, _) => format!("{} {name}", kind.word()),
    }
}

/// The type of a field's, constant's or table's values.
fn value_type<'p>(
    prog: &'p Program,
    look: &Lookup<'p>,
    key: &Key,
    sym: &Symbol,
    local_types: &'p HashMap<(usize, usize), Ty>,
) -> Option<&'p Ty> {
    match (sym.kind, key) {
        // A parameter: what a scenario's `args:` write.
        (SymbolKind::Local, Key::Local(f, slot)) => local_types.get(&(*f, *slot)),
        (SymbolKind::Field, Key::Field(rec, _)) => {
            let i = look.member(rec, &sym.name)?;
            Some(&look.record(rec)?.fields.get(i)?.ty)
        }
        (SymbolKind::Table, _) => match look.other(&sym.name)? {
            (1, i) => Some(&prog.tables[i].value),
            _ => None,
        },
        (SymbolKind::Constant, _) => match look.other(&sym.name)? {
            (2, i) => Some(&prog.constants[i].ty),
            _ => None,
        },
        _ => None,
    }
}

/// The names a value of type `ty` is written with (see [`Symbol::named_by`]).
fn named_by(prog: &Program, ty: &Ty) -> Option<String> {
    match ty {
        Ty::Choice(i) => Some(prog.choices.get(*i)?.name.clone()),
        Ty::Record(i) => Some(prog.records.get(*i)?.name.clone()),
        Ty::Bool => Some("bool".into()),
        Ty::List(t) | Ty::Option(t) => named_by(prog, t),
        Ty::Map(_, v) | Ty::SortedMap(_, v) => named_by(prog, v),
        _ => None,
    }
}

/// The names the keys of a map, and of the maps it holds, are written with (see
/// [`Symbol::keys_named_by`]).
fn keys_named_by(prog: &Program, ty: &Ty) -> Vec<Option<String>> {
    match ty {
        Ty::Map(k, v) => {
            let mut keys = vec![prog.choices.get(*k).map(|c| c.name.clone())];
            keys.extend(keys_named_by(prog, v));
            keys
        }
        Ty::SortedMap(k, v) => {
            let mut keys = vec![named_by(prog, k)];
            keys.extend(keys_named_by(prog, v));
            keys
        }
        Ty::Option(t) => keys_named_by(prog, t),
        _ => Vec::new(),
    }
}

/// A function's parameters as its description writes them.
fn params_of(prog: &Program, f: &crate::ir::Function) -> Vec<String> {
    f.params
        .iter()
        .map(|p| format!("{}: {}", p.name, prog.ty_name(&p.ty)))
        .collect()
}

fn table_key(k: &crate::ir::TableKey) -> String {
    match k {
        crate::ir::TableKey::Die(d) => d.to_string(),
        _ => "int".to_string(),
    }
}

fn tag_text(prog: &Program, t: &crate::ir::Tag) -> String {
    if t.fields.is_empty() {
        return t.name.clone();
    }
    let fields: Vec<String> = t
        .fields
        .iter()
        .map(|(n, ty)| format!("{n}: {}", prog.ty_name(ty)))
        .collect();
    format!("{}({})", t.name, fields.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `move_params` rewrites the uses of the parameters it is given, and only those:
    /// a parameter past `slots` and another function's locals stay; a moved use is the
    /// new function's, so a later move of that function takes it along.
    #[test]
    fn moved_parameters_are_the_new_functions_locals() {
        let mut r = Recorder::default();
        let at = |i: u32| Span::new(0, i as usize, i as usize + 1);
        r.refer(at(0), Key::Local(5, 0));
        r.refer(at(1), Key::Local(5, 1));
        r.refer(at(2), Key::Local(3, 0));
        r.refer(at(3), Key::Top("x".into()));
        r.refer(at(4), Key::Local(5, 0));
        r.move_params(5, 3, &[2]);
        let keys = |r: &Recorder| r.refs.iter().map(|(_, k)| k.clone()).collect::<Vec<_>>();
        assert_eq!(
            keys(&r),
            [
                Key::Local(3, 2),
                Key::Local(5, 1),
                Key::Local(3, 0),
                Key::Top("x".into()),
                Key::Local(3, 2),
            ]
        );
        r.move_params(3, 7, &[8, 8, 9]);
        assert_eq!(
            keys(&r),
            [
                Key::Local(7, 9),
                Key::Local(5, 1),
                Key::Local(7, 8),
                Key::Top("x".into()),
                Key::Local(7, 9),
            ]
        );
        // A function with no uses: nothing moves.
        r.move_params(11, 3, &[0]);
        assert_eq!(keys(&r)[1], Key::Local(5, 1));
    }
}
