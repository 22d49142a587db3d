//! Stage 2, check: loaded syntax → [`Program`], or diagnostics.
//!
//! - [`data`] reads the YAML sections against the schema (unknown keys, wrong value
//!   types, duplicate names), builds choices, record types, tracks, tables (with their
//!   coverage checks), constants and records;
//! - [`exprs`] resolves and types formulas and procedures, and finds cycles;
//! - [`mutated`] finds the parameters each procedure changes, [`fallible`] the
//!   functions that may meet a rule error;
//! - this module drives them, then warns about unused definitions.
//!
//! Every problem is pushed to the diagnostics and checking goes on, so a run reports
//! everything it can find; a [`Program`] is returned only when there is no error.

mod data;
mod exprs;
mod fallible;
mod fixes;
pub mod index;
mod layers;
mod mutated;
pub mod packs;
mod passing;

use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::{self, Program, Ty};
use crate::load::Loaded;
use crate::source::Span;
use crate::syntax::ast;
use crate::yaml::YNode;
pub use exprs::MAX_DEPTH;
use rulesc_runtime::Site;
use std::collections::{BTreeMap, HashMap};

/// What a top-level name refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefKind {
    Choice(usize),
    Record(usize),
    Track(usize),
    Table(usize),
    Constant(usize),
    Outcome(usize),
    Function(usize),
}

/// The names of the built-in types (`int`, `bool`, `dice`; `list<T>` and `map<K, V>`;
/// a fight's `fighter` and `side`): no scale, enum, record type, track or outcome may
/// take one (`E0302`), since a type written with it would be the built-in one.
pub const BUILTIN_TYPES: &[&str] = &["int", "bool", "dice", "list", "map", "fighter", "side"];

impl DefKind {
    /// Whether the name is a type's (and may be written where a type is).
    fn is_type(self) -> bool {
        matches!(
            self,
            DefKind::Choice(_) | DefKind::Record(_) | DefKind::Track(_) | DefKind::Outcome(_)
        )
    }

    fn describe(self) -> &'static str {
        match self {
            DefKind::Choice(_) => "scale or enum",
            DefKind::Record(_) => "record type",
            DefKind::Track(_) => "track",
            DefKind::Table(_) => "table",
            DefKind::Constant(_) => "constant",
            DefKind::Outcome(_) => "outcome",
            DefKind::Function(_) => "formula or procedure",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Def {
    pub kind: DefKind,
    pub span: Span,
}

/// The checker's shared state.
pub struct Checker<'a> {
    pub prog: Program,
    pub diags: &'a mut Diagnostics,
    pub names: BTreeMap<String, Def>,
    /// Variant name → (choice, index) for every choice that has it.
    pub variants: HashMap<String, Vec<(usize, u16)>>,
    /// Tag name → (outcome, tag index).
    pub tags: HashMap<String, Vec<(usize, u16)>>,
    /// How often each top-level name is referenced (for unused warnings).
    pub uses: HashMap<String, usize>,
    /// Syntax of each function, by function id.
    pub fn_syntax: Vec<ast::Item>,
    /// 0 = not checked, 1 = being checked, 2 = done.
    pub fn_state: Vec<u8>,
    /// The functions being checked, outermost first (the call chain of a cycle).
    pub fn_stack: Vec<usize>,
    /// E0331 is reported once per run.
    pub call_depth_reported: bool,
    /// The `extends` layer of each file (0 = the deepest base).
    pub file_layer: HashMap<u32, u8>,
    /// Each record's index in `prog.instances`, by name (names are unique across types).
    pub instance_ids: HashMap<String, usize>,
    /// Each record type's default value, once computed: shared by every value that
    /// leaves a field of that type out (cleared when a default changes).
    pub zeros: HashMap<usize, ir::Const>,
    /// The fields (record type, field index) whose written `default:` was refused: a
    /// record that leaves one out is not built, and not reported again as missing it
    /// (the refused default is the one cause).
    pub broken_defaults: std::collections::HashSet<(usize, usize)>,
    /// Definitions and resolved names, for the language server.
    pub index: index::Recorder,
    /// The files of the content packs merged into the ruleset ([`packs`]), with their
    /// packs' names.
    pub pack_files: HashMap<u32, String>,
}

impl<'a> Checker<'a> {
    /// Adds a record (a ruleset's or a pack's); its value becomes the named record,
    /// which is returned.
    pub fn add_instance(
        &mut self,
        name: String,
        record: usize,
        value: ir::Const,
        span: Span,
    ) -> ir::Const {
        let i = self.prog.instances.len();
        let value = value.named(i);
        self.instance_ids.insert(name.clone(), i);
        self.prog.instances.push(ir::Instance {
            name,
            record,
            value: value.clone(),
            span,
        });
        value
    }

    /// The record named `name`, of any type.
    pub fn instance_named(&self, name: &str) -> Option<&ir::Instance> {
        self.instance_ids
            .get(name)
            .map(|&i| &self.prog.instances[i])
    }

    /// The zero of `ty` (a record's: its default), shared between the values that use
    /// it, so leaving a large record out costs nothing per value.
    pub fn zero(&mut self, ty: &Ty) -> ir::Const {
        let Ty::Record(r) = ty else {
            return self.prog.zero(ty);
        };
        if let Some(z) = self.zeros.get(r) {
            return z.clone();
        }
        let fields: Vec<ir::Field> = self.prog.records[*r].fields.clone();
        let values = fields
            .iter()
            .map(|f| match (&f.default, f.range) {
                (None, None) => self.zero(&f.ty),
                _ => self.prog.field_zero(f),
            })
            .collect();
        let z = ir::Const::record(values, ir::RecordOrigin::Zero);
        self.zeros.insert(*r, z.clone());
        z
    }

    pub fn error(
        &mut self,
        code: &'static str,
        span: Span,
        msg: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, span, msg).label(label).help(help));
    }

    /// Registers a top-level name; a second definition is an error showing both.
    pub fn define(&mut self, name: &str, kind: DefKind, span: Span) -> bool {
        if let Some(first) = self.names.get(name) {
            let (lf, ls) = (
                self.file_layer.get(&first.span.file),
                self.file_layer.get(&span.file),
            );
            if lf.is_some() && ls.is_some() && lf < ls {
                let d = Diagnostic::error("E0340", span, format!("`{name}` is already defined by the base ruleset"))
                    .label("redefined here")
                    .note(first.span, "the base's definition")
                    .help(format!("to replace it, write it under `override:` (YAML) or as `override ...` (rules); to add a new {}, choose another name", kind.describe()));
                self.diags.push(d);
                return false;
            }
            let d = Diagnostic::error("E0301", span, format!("`{name}` is defined twice"))
                .label(format!("second definition, as a {}", kind.describe()))
                .note(
                    first.span,
                    format!("first defined here, as a {}", first.kind.describe()),
                )
                .help("rename one of them, or remove the duplicate");
            self.diags.push(d);
            return false;
        }
        if !is_ident(name) {
            self.error(
                "E0302",
                span,
                format!("`{name}` is not a valid name"),
                "not a name",
                "names use ASCII letters, digits and `_`, and do not start with a digit",
            );
        } else if kind.is_type() && BUILTIN_TYPES.contains(&name) {
            // Defined all the same, so nothing naming it is reported again: a type
            // written with this name reads as no type (`resolve_type`).
            self.error(
                "E0302",
                span,
                format!("`{name}` is a built-in type"),
                "a built-in type's name",
                format!(
                    "the built-in types ({}) keep their names: give this {} another name",
                    BUILTIN_TYPES.join(", "),
                    kind.describe()
                ),
            );
        }
        self.names.insert(name.to_string(), Def { kind, span });
        let sym = match kind {
            DefKind::Choice(_) => index::SymbolKind::Scale,
            DefKind::Record(_) => index::SymbolKind::RecordType,
            DefKind::Track(_) => index::SymbolKind::Track,
            DefKind::Table(_) => index::SymbolKind::Table,
            DefKind::Constant(_) => index::SymbolKind::Constant,
            DefKind::Outcome(_) => index::SymbolKind::Outcome,
            DefKind::Function(_) => index::SymbolKind::Formula,
        };
        self.index
            .define(index::Key::Top(name.to_string()), sym, None, span);
        true
    }

    pub fn used(&mut self, name: &str) {
        *self.uses.entry(name.to_string()).or_default() += 1;
    }

    /// Records that the name at `span` resolved to `key` (for the language server).
    pub fn refer(&mut self, span: Span, key: index::Key) {
        self.index.refer(span, key);
    }

    /// [`Checker::used`] and [`Checker::refer`] for a top-level name written at `span`.
    pub fn used_at(&mut self, name: &str, span: Span) {
        self.used(name);
        self.refer(span, index::Key::Top(name.to_string()));
    }

    /// Adds a trace site for `span` and returns its index.
    pub fn site(&mut self, span: Span) -> u32 {
        let (file, line, col) = self.prog.sources.position(span);
        let text = self.prog.sources.snippet(span);
        self.prog.sites.push(Site {
            file: file.into(),
            line,
            col,
            text: text.into(),
        });
        (self.prog.sites.len() - 1) as u32
    }

    pub fn ty_name(&self, ty: &Ty) -> String {
        self.prog.ty_name(ty)
    }

    /// Resolves a written type where a range cannot be checked (`E0313` for an
    /// `int(lo..hi)`): everywhere but a record's field.
    pub fn resolve_type(&mut self, t: &ast::TypeExpr) -> Ty {
        let (ty, range) = self.resolve_field_type(t);
        if let Some((lo, hi)) = range {
            self.error(
                "E0313",
                t.span,
                format!("`int({lo}..{hi})` is checked only as a record's field"),
                "a range nothing checks here",
                "write `int` here; to hold a number to a range, make it a field of a record type (`type: \"int(lo..hi)\"`), which YAML data is checked against",
            );
        }
        ty
    }

    /// `E0311` for a map keyed by `ty`, which has no equality or order to keep keys by.
    pub fn key_error(&mut self, ty: &Ty, span: Span) {
        let n = self.ty_name(ty);
        let why = match ty {
            Ty::Record(_) => "a record with a field that is not a number, `bool`, level, variant or such a record",
            Ty::Dice => "dice have no order",
            Ty::Track(_) => "a track's boxes have no order",
            Ty::Outcome(_) => "an outcome is a result, not a key",
            Ty::List(_) | Ty::Map(..) | Ty::SortedMap(..) => "lists and maps have no order",
            Ty::Option(_) => "`none` is no key",
            _ => "no equality or order to keep keys by",
        };
        self.error(
            "E0311",
            span,
            format!("a map cannot be keyed by {n}: {why}"),
            "not a key type",
            "key a map by an `int`, a `bool`, a scale, an enum, or a record whose fields are all of these",
        );
    }

    /// Resolves a written type, with the range of an `int(lo..hi)` (a record's field).
    pub fn resolve_field_type(&mut self, t: &ast::TypeExpr) -> (Ty, Option<(i64, i64)>) {
        match &t.kind {
            ast::TypeKind::IntRange(lo, hi) => (Ty::Int, Some((*lo, *hi))),
            ast::TypeKind::Optional(inner) => {
                let inner_ty = self.resolve_type(inner);
                match inner_ty {
                    Ty::Error => (Ty::Error, None),
                    Ty::Option(_) => {
                        self.error(
                            "E0303",
                            t.span,
                            "a value is either there or none: `T??` says nothing more than `T?`",
                            "optional twice",
                            "write one `?`",
                        );
                        (Ty::Error, None)
                    }
                    ty => (Ty::Option(Box::new(ty)), None),
                }
            }
            ast::TypeKind::List(inner) => {
                let inner = self.resolve_type(inner);
                (Ty::List(Box::new(inner)), None)
            }
            ast::TypeKind::Map(k, v) => {
                let kt = self.resolve_type(k);
                let vt = self.resolve_type(v);
                let key = match kt {
                    Ty::Choice(c) => Some(c),
                    Ty::Error => return (Ty::Error, None),
                    // (A record declared below this one has no fields yet: its fields
                    // are checked again once every type is built, `data::check_map_keys`.)
                    ref other if self.prog.is_key(other) => None,
                    other => {
                        self.key_error(&other, k.span);
                        return (Ty::Error, None);
                    }
                };
                // A value every key can hold: what a record field holds, but an outcome (a
                // result, with no zero for the keys not written).
                let ok = !matches!(
                    vt,
                    Ty::Outcome(_) | Ty::Fighter | Ty::Side | Ty::Roll | Ty::Faces | Ty::Unit
                );
                if !ok {
                    let n = self.ty_name(&vt);
                    self.error(
                        "E0311",
                        v.span,
                        format!("a map cannot hold {n} values"),
                        "not a value a map holds",
                        "map values are numbers, booleans, dice, levels, variants, records, tracks, lists or optional values",
                    );
                    return (Ty::Error, None);
                }
                match key {
                    Some(c) => (Ty::Map(c, Box::new(vt)), None),
                    None => (Ty::SortedMap(Box::new(kt), Box::new(vt)), None),
                }
            }
            ast::TypeKind::Named(id) => {
                // A built-in type's name the rules gave to a type of their own
                // (`E0302` there): no type, so nothing written with it is reported again.
                if BUILTIN_TYPES.contains(&id.name.as_str())
                    && self.names.get(&id.name).is_some_and(|d| d.kind.is_type())
                {
                    return (Ty::Error, None);
                }
                if let Some(ty) = exprs::fight::named_type(self, id) {
                    return (ty, None);
                }
                let ty = match id.name.as_str() {
                    "int" => Ty::Int,
                    "bool" => Ty::Bool,
                    "dice" => Ty::Dice,
                    name => match self.names.get(name).map(|d| d.kind) {
                        Some(DefKind::Choice(c)) => Ty::Choice(c),
                        Some(DefKind::Record(r)) => Ty::Record(r),
                        Some(DefKind::Track(t)) => Ty::Track(t),
                        Some(DefKind::Outcome(o)) => Ty::Outcome(o),
                        _ => {
                            let mut candidates: Vec<&str> = vec!["int", "bool", "dice"];
                            candidates.extend(
                                self.names
                                    .iter()
                                    .filter(|(_, d)| {
                                        matches!(
                                            d.kind,
                                            DefKind::Choice(_)
                                                | DefKind::Record(_)
                                                | DefKind::Track(_)
                                                | DefKind::Outcome(_)
                                        )
                                    })
                                    .map(|(n, _)| n.as_str()),
                            );
                            let help = suggest(name, &candidates, "types");
                            self.error(
                                "E0303",
                                id.span,
                                format!("unknown type `{name}`"),
                                "not a type",
                                help,
                            );
                            return (Ty::Error, None);
                        }
                    },
                };
                if !matches!(ty, Ty::Int | Ty::Bool | Ty::Dice) {
                    self.used_at(&id.name, id.span);
                }
                (ty, None)
            }
        }
    }
}

pub fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Longest record name, in characters.
pub const MAX_RECORD_NAME: usize = 100;

/// Whether `s` may name a record (in a ruleset's `records:` or a content pack): any
/// text of 1 to [`MAX_RECORD_NAME`] characters without control characters. Records are
/// named only from YAML (scenarios, packs, values), never from the DSL, so their names
/// need not be identifiers; generated code escapes them (`codegen::ident`).
pub fn is_record_name(s: &str) -> bool {
    !s.is_empty() && s.chars().count() <= MAX_RECORD_NAME && !s.chars().any(char::is_control)
}

/// The help of E0302 for a record name.
pub const RECORD_NAME_HELP: &str =
    "a record name is any text of 1 to 100 characters without control characters (tabs, line breaks)";

/// Checks a loaded ruleset. Returns the program when there are no errors.
pub fn check(loaded: Loaded, diags: &mut Diagnostics) -> Option<Program> {
    check_all(loaded, &[], diags, false).0
}

/// [`check`], and the index of every definition and resolved name (built whether or not
/// there are errors).
pub fn check_indexed(loaded: Loaded, diags: &mut Diagnostics) -> (Option<Program>, index::Index) {
    let (program, index, _) = check_with_packs(loaded, &[], diags);
    (program, index)
}

/// [`check_indexed`] with content packs' additions and changes merged into the ruleset
/// before it is checked ([`packs`]; their files must be in `loaded.sources`), and what
/// each pack added.
pub fn check_with_packs(
    loaded: Loaded,
    packs: &[packs::PackLayer],
    diags: &mut Diagnostics,
) -> (Option<Program>, index::Index, Vec<packs::Added>) {
    check_all(loaded, packs, diags, true)
}

/// [`check_with_packs`], its index built only when `indexed` (else it is empty).
pub fn check_all(
    loaded: Loaded,
    packs: &[packs::PackLayer],
    diags: &mut Diagnostics,
    indexed: bool,
) -> (Option<Program>, index::Index, Vec<packs::Added>) {
    let Loaded {
        sources,
        yaml,
        items,
        manifest,
        yaml_layer,
        item_layer,
        ..
    } = loaded;
    let mut file_layer: HashMap<u32, u8> = HashMap::new();
    for (root, &l) in yaml.iter().zip(&yaml_layer) {
        file_layer.insert(root.span.file, l);
    }
    for (item, &l) in items.iter().zip(&item_layer) {
        let (ast::Item::Outcome { span, .. }
        | ast::Item::Function { span, .. }
        | ast::Item::Fight(ast::FightDef { span, .. })) = item;
        file_layer.insert(span.file, l);
    }
    let mut c = Checker {
        prog: Program {
            sources,
            ..Program::default()
        },
        diags,
        names: BTreeMap::new(),
        variants: HashMap::new(),
        tags: HashMap::new(),
        uses: HashMap::new(),
        fn_syntax: Vec::new(),
        fn_state: Vec::new(),
        fn_stack: Vec::new(),
        call_depth_reported: false,
        file_layer,
        instance_ids: HashMap::new(),
        zeros: HashMap::new(),
        broken_defaults: Default::default(),
        index: if indexed {
            index::Recorder::default()
        } else {
            index::Recorder::records_only()
        },
        pack_files: HashMap::new(),
    };
    let yaml = layers::merge_yaml(&mut c, yaml, &yaml_layer);
    let (yaml, added) = packs::merge(&mut c, yaml, packs);
    let mut items = layers::merge_items(&mut c, items, &item_layer);
    items.extend(exprs::fight::formulas(&items));
    let sections = data::split_sections(&mut c, &yaml, manifest);
    data::read_manifest(&mut c, &sections);
    data::declare(&mut c, &sections, &items);
    exprs::fight::declare(&mut c, &items);
    let outcome_tags: Vec<(usize, Vec<ast::TagDef>)> = items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Outcome { name, tags, .. } => match c.names.get(&name.name) {
                Some(Def {
                    kind: DefKind::Outcome(id),
                    span,
                }) if *span == name.span => Some((*id, tags.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    data::build_outcome_tags(&mut c, &outcome_tags);
    data::build(&mut c, &sections);
    data::check_map_keys(&mut c);
    exprs::check_functions(&mut c);
    exprs::fight::finish(&mut c, &items);
    mutated::mark_mutated(&mut c);
    passing::check_passing(&mut c);
    fallible::mark_fallible(&mut c);
    warn_unused(&mut c);
    let index = std::mem::take(&mut c.index).finish(&c.prog);
    if c.diags.has_errors() {
        (None, index, added)
    } else {
        (Some(c.prog), index, added)
    }
}

fn warn_unused(c: &mut Checker) {
    // With errors, a definition may be unused only because its use was misspelt.
    if c.diags.has_errors() {
        return;
    }
    let unused: Vec<(String, Def)> = c
        .names
        .iter()
        .filter(|(n, d)| {
            matches!(d.kind, DefKind::Table(_) | DefKind::Constant(_))
                && !c.uses.contains_key(*n)
                // A pack's table is data: no rule of the pack can name it.
                && !c.pack_files.contains_key(&d.span.file)
        })
        .map(|(n, d)| (n.clone(), *d))
        .collect();
    for (name, def) in unused {
        c.diags.push(
            Diagnostic::warning(
                "W0001",
                def.span,
                format!("{} `{name}` is never used", def.kind.describe()),
            )
            .label("defined here")
            .help("use it in a formula or procedure, or remove it"),
        );
    }
}

/// A YAML node with the section it came from.
pub struct Entry<'y> {
    pub key: &'y YNode,
    pub value: &'y YNode,
}

impl ir::Program {
    /// Finds a top-level instance by name.
    pub fn instance(&self, name: &str) -> Option<&ir::Instance> {
        self.instances.iter().find(|i| i.name == name)
    }
}

/// Reads a YAML value (from a scenario or a content pack) as a constant of type `ty`,
/// with the same rules and diagnostics as values inside a ruleset. `sources` must hold
/// the node's file; the program's own definitions give the names. To read many
/// values, make one [`Reader`].
pub fn read_value(
    prog: &Program,
    sources: &crate::source::Sources,
    node: &YNode,
    ty: &Ty,
    diags: &mut Diagnostics,
) -> Option<ir::Const> {
    Reader::new(prog, sources).read(node, ty, diags)
}

/// Reads YAML values (a scenario's arguments, a content pack's records) against a
/// checked program, with the same rules and diagnostics as the ruleset's own values.
/// Built once, from one copy of the program: each value read costs only itself, and a
/// record added ([`Reader::add_instance`]) can be named by the values read after it.
pub struct Reader {
    /// The checker's state between reads (its `diags` is lent by each read).
    parts: Parts,
}

/// Everything a [`Checker`] owns.
#[derive(Default)]
struct Parts {
    prog: Program,
    names: BTreeMap<String, Def>,
    variants: HashMap<String, Vec<(usize, u16)>>,
    tags: HashMap<String, Vec<(usize, u16)>>,
    instance_ids: HashMap<String, usize>,
    zeros: HashMap<usize, ir::Const>,
    /// What the reads so far defined and named: a record declared and found invalid
    /// stays defined, so a value naming it is not reported a second time.
    index: index::Recorder,
}

impl Reader {
    pub fn new(prog: &Program, sources: &crate::source::Sources) -> Reader {
        let mut parts = reopen(prog);
        parts.prog.sources = sources.clone();
        Reader { parts }
    }

    /// Reads `node` as a value of type `ty`; problems go to `diags`.
    pub fn read(&mut self, node: &YNode, ty: &Ty, diags: &mut Diagnostics) -> Option<ir::Const> {
        self.with(diags, |c| data::value_of(c, node, ty, None))
    }

    /// Reads the fields `map` of `node` as a record of type `record` that copies `base`
    /// (a pack's `_copy`): the fields given replace the copied record's, the others are
    /// the copy's. Problems go to `diags`.
    pub fn read_copy(
        &mut self,
        node: &YNode,
        map: &[(YNode, YNode)],
        record: usize,
        base: &ir::Const,
        diags: &mut Diagnostics,
    ) -> Option<ir::Const> {
        let ir::Const::Record(b) = base else {
            return None;
        };
        let fields = b.fields.clone();
        self.with(diags, |c| {
            data::record_of(c, node, map, record, Some(&fields))
        })
    }

    /// Adds a record, as the ruleset's own: later values may name it. Returns its value.
    pub fn add_instance(
        &mut self,
        name: String,
        record: usize,
        value: ir::Const,
        span: Span,
    ) -> ir::Const {
        let mut none = Diagnostics::default();
        self.with(&mut none, |c| c.add_instance(name, record, value, span))
    }

    /// Declares a record of type `ty` before its value is read: if the value is invalid,
    /// values naming the record are not reported again (its own error says why).
    pub fn declare_record(&mut self, name: &str, ty: &str, span: Span) {
        self.parts.index.define(
            index::Key::Record(name.to_string()),
            index::SymbolKind::Record,
            Some(ty),
            span,
        );
    }

    /// Whether a record named `name` was declared (valid or not).
    pub fn declares_record(&self, name: &str) -> bool {
        self.parts
            .index
            .defines(&index::Key::Record(name.to_string()))
    }

    /// The names of the records of type `record` (for "did you mean").
    pub fn names_of_type(&self, record: usize) -> Vec<String> {
        self.parts
            .prog
            .instances
            .iter()
            .filter(|i| i.record == record)
            .map(|i| i.name.clone())
            .collect()
    }

    /// The record named `name`, of any type.
    pub fn instance(&self, name: &str) -> Option<&ir::Instance> {
        self.parts
            .instance_ids
            .get(name)
            .map(|&i| &self.parts.prog.instances[i])
    }

    /// Replaces the sources diagnostics point into (after reading another file).
    pub fn set_sources(&mut self, sources: &crate::source::Sources) {
        self.parts.prog.sources = sources.clone();
    }

    /// The program with the records added.
    pub fn into_program(self) -> Program {
        self.parts.prog
    }

    fn with<R>(&mut self, diags: &mut Diagnostics, f: impl FnOnce(&mut Checker) -> R) -> R {
        let p = std::mem::take(&mut self.parts);
        let mut c = Checker {
            prog: p.prog,
            diags,
            names: p.names,
            variants: p.variants,
            tags: p.tags,
            uses: HashMap::new(),
            fn_syntax: Vec::new(),
            fn_state: Vec::new(),
            fn_stack: Vec::new(),
            call_depth_reported: false,
            file_layer: HashMap::new(),
            instance_ids: p.instance_ids,
            zeros: p.zeros,
            broken_defaults: Default::default(),
            index: p.index,
            pack_files: HashMap::new(),
        };
        let out = f(&mut c);
        self.parts = Parts {
            prog: c.prog,
            names: c.names,
            variants: c.variants,
            tags: c.tags,
            instance_ids: c.instance_ids,
            zeros: c.zeros,
            index: c.index,
        };
        out
    }
}

/// A checker's state over an already checked program, to read more values against it.
fn reopen(prog: &Program) -> Parts {
    let mut names = BTreeMap::new();
    let mut declare = |name: &String, kind: DefKind, span: Span| {
        names.insert(name.clone(), Def { kind, span });
    };
    for (i, ch) in prog.choices.iter().enumerate() {
        declare(&ch.name, DefKind::Choice(i), ch.span);
    }
    for (i, r) in prog.records.iter().enumerate() {
        declare(&r.name, DefKind::Record(i), r.span);
    }
    for (i, t) in prog.tracks.iter().enumerate() {
        declare(&t.name, DefKind::Track(i), t.span);
    }
    for (i, t) in prog.tables.iter().enumerate() {
        declare(&t.name, DefKind::Table(i), t.span);
    }
    for (i, k) in prog.constants.iter().enumerate() {
        declare(&k.name, DefKind::Constant(i), k.span);
    }
    for (i, o) in prog.outcomes.iter().enumerate() {
        declare(&o.name, DefKind::Outcome(i), o.span);
    }
    for (i, f) in prog.functions.iter().enumerate() {
        declare(&f.name, DefKind::Function(i), f.span);
    }
    let mut variants: HashMap<String, Vec<(usize, u16)>> = HashMap::new();
    for (i, ch) in prog.choices.iter().enumerate() {
        for (j, v) in ch.variants.iter().enumerate() {
            variants
                .entry(v.name.clone())
                .or_default()
                .push((i, j as u16));
        }
    }
    let mut tags: HashMap<String, Vec<(usize, u16)>> = HashMap::new();
    for (i, o) in prog.outcomes.iter().enumerate() {
        for (j, t) in o.tags.iter().enumerate() {
            tags.entry(t.name.clone()).or_default().push((i, j as u16));
        }
    }
    let instance_ids = prog
        .instances
        .iter()
        .enumerate()
        .map(|(i, inst)| (inst.name.clone(), i))
        .collect();
    Parts {
        prog: prog.clone(),
        names,
        variants,
        tags,
        instance_ids,
        zeros: HashMap::new(),
        index: index::Recorder::default(),
    }
}

/// The YAML roots and DSL items of a loaded ruleset after its `extends` layers are
/// merged (for `rulesc explain`). Problems are ignored: explain runs on checked rulesets.
pub fn merged(loaded: Loaded) -> (crate::source::Sources, Vec<YNode>, Vec<ast::Item>) {
    merged_with_packs(loaded, &[])
}

/// [`merged`], with content packs' additions and changes merged too (their files in
/// `loaded.sources`).
pub fn merged_with_packs(
    loaded: Loaded,
    packs: &[packs::PackLayer],
) -> (crate::source::Sources, Vec<YNode>, Vec<ast::Item>) {
    let mut diags = Diagnostics::default();
    let Loaded {
        sources,
        yaml,
        items,
        yaml_layer,
        item_layer,
        ..
    } = loaded;
    let prog = Program {
        sources: sources.clone(),
        ..Program::default()
    };
    let (yaml, items) = Reader::new(&prog, &sources).with(&mut diags, |c| {
        let yaml = layers::merge_yaml(c, yaml, &yaml_layer);
        let (yaml, _) = packs::merge(c, yaml, packs);
        (yaml, layers::merge_items(c, items, &item_layer))
    });
    (sources, yaml, items)
}
