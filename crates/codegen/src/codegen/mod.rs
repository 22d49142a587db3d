//! Backend: Rust source from a checked program.
//!
//! The generated module mirrors the interpreter ([`crate::eval`]) call for call: the same
//! runtime functions (`roll`, `Track::fill`, `arith::*`, `Decide::decide`) in the same
//! order, and the same trace events with the same strings, built only inside
//! `if T::ENABLED { .. }` so that a resolution with `NoTrace` formats nothing.
//!
//! Layout: items (types, tables, constants, records, the site table) are built with the
//! `codegen` crate in `items`; function bodies come from `body`; every identifier
//! comes from [`ident`]; Rust types, constants and trace text from `types`. The text is
//! parsed with `syn` and printed with `prettyplease`, so a syntax error in the output is
//! caught here as a compiler bug, never shipped. A construct the Rust backend cannot
//! express exactly (a changed record passed from a loop variable, a list parameter whose
//! records would be shared with the caller's) is an error naming it.
//!
//! What the Rust types are: a scale or enum is a `Copy` enum; a record type a struct
//! (with a `Display` that prints as traces do); a track `rulesc_runtime::Track` (with
//! the box levels and attributes as constants); a box of a track its 1-based number
//! (`usize`); `list<T>` a `Vec<T>` (a list literal or constant an array, a scale's or
//! enum's name its `ALL`, made a `Vec` only where one is owned); a list of numbers, flags
//! or names the rules compute (a comprehension, a function's result) a
//! `rulesc_runtime::SmallList` held inline, and a table's value of one a `&'static [T]`,
//! so reading them allocates nothing; a list assigned to a place already holding one is
//! copied into that `Vec`'s buffer; `map<K, V>` a `[V; N]` indexed by `key as usize`; an
//! outcome an enum with struct variants. A table whose records hold a list has one
//! function per field (`Idents::table_field`), which a field read of a looked-up record
//! calls instead of building the record.
//!
//! Values: the interpreter's `let` of a record or list read from state binds a copy.
//! Generated code names the place itself (a reference, no clone) when the procedure
//! never changes it, and clones otherwise. `list[i]` reads through `get`, with the
//! element type's zero outside the list; `list[i].x = v` and `fill list[i].t` change
//! through `get_mut`, and change nothing outside it.

mod body;
pub mod docs;
mod fight;
pub mod ident;
mod items;
pub mod options;
mod print;
mod types;

use crate::ir::{Body, Program};
use codegen::Scope;
use ident::{Case, Names};
pub use options::Options;

/// The runtime crate. Generated code `use`s only its `prelude`; every other runtime path
/// is written in full.
const RT: &str = "::rulesc_runtime";

/// Names the generated code uses unqualified, which a ruleset's types must not shadow.
const RESERVED_TYPES: &[&str] = &[
    "Self",
    "Vec",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Box",
    "Default",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Iterator",
    "IntoIterator",
    "ToString",
    "From",
    "Into",
    "Sized",
    "Send",
    "Sync",
    "Fn",
    "FnMut",
    "FnOnce",
    "Drop",
    "D",
    "X",
    "T",
    "usize",
    "u8",
    "u16",
    "u32",
    "u64",
    "i64",
    "bool",
    "str",
    "Fight",
    "Rules",
];

/// Module-level values the generated code defines itself, and `env` and `fight`, the
/// parameters of the functions that take the environment or the fight: no function (a
/// procedure named `fight`) may take either name.
const RESERVED_VALUES: &[&str] = &["SITES", "FIGHT_SHAPE", "env", "fight"];

/// The identifiers of every item, allocated once, in program order, so that output is
/// deterministic and two names that collide after case conversion stay distinct.
pub struct Idents {
    pub choice: Vec<String>,
    pub variant: Vec<Vec<String>>,
    pub record: Vec<String>,
    pub field: Vec<Vec<String>>,
    /// Associated constructor of each record instance.
    pub instance: Vec<String>,
    pub track: Vec<String>,
    /// `<TRACK>_LEVELS`: each box's level index.
    pub track_levels: Vec<String>,
    /// `<TRACK>_<ATTR>`: each box's attribute values.
    pub track_attr: Vec<Vec<String>>,
    pub table: Vec<String>,
    /// `<TABLE>_BY_FACE`: the `const` array a die table's rolls index (see [`by_face`]).
    pub table_by_face: Vec<Option<String>>,
    /// `<table>_<field>`: one field of a table's records, read without building the
    /// record (see [`field_tables`]), per table and field.
    pub table_field: Vec<Vec<Option<String>>>,
    pub constant: Vec<String>,
    pub outcome: Vec<String>,
    pub tag: Vec<Vec<String>>,
    pub tag_field: Vec<Vec<Vec<String>>>,
    pub function: Vec<String>,
    /// Every module-level value identifier (functions, tables, constants, track
    /// constants, reserved names), built once: each function's locals avoid them.
    pub module_values: std::rc::Rc<std::collections::BTreeSet<String>>,
}

impl Idents {
    fn new(p: &Program) -> Idents {
        let mut types = Names::new();
        types.reserve(RESERVED_TYPES.iter().copied());
        let mut values = Names::new();
        values.reserve(RESERVED_VALUES.iter().copied());
        let mut consts = Names::new();
        consts.reserve(RESERVED_VALUES.iter().copied());

        let choice: Vec<String> = p
            .choices
            .iter()
            .map(|c| types.alloc(&c.name, Case::Camel))
            .collect();
        let record: Vec<String> = p
            .records
            .iter()
            .map(|r| types.alloc(&r.name, Case::Camel))
            .collect();
        let outcome: Vec<String> = p
            .outcomes
            .iter()
            .map(|o| types.alloc(&o.name, Case::Camel))
            .collect();
        let track: Vec<String> = p
            .tracks
            .iter()
            .map(|t| types.alloc(&t.name, Case::Camel))
            .collect();

        let variant = p
            .choices
            .iter()
            .map(|c| {
                let mut n = Names::new();
                c.variants
                    .iter()
                    .map(|v| n.alloc(&v.name, Case::Camel))
                    .collect()
            })
            .collect();
        let field = p
            .records
            .iter()
            .map(|r| {
                let mut n = Names::new();
                r.fields
                    .iter()
                    .map(|f| n.alloc(&f.name, Case::Snake))
                    .collect()
            })
            .collect();
        // Constructors live in each record type's impl, beside `Default::default`,
        // `named` and `NAMES`.
        let mut per_record: Vec<Names> = p
            .records
            .iter()
            .map(|_| {
                let mut n = Names::new();
                n.reserve(["default", "named", "NAMES"]);
                n
            })
            .collect();
        let instance = p
            .instances
            .iter()
            .map(|i| per_record[i.record].alloc(&i.name, Case::Snake))
            .collect();
        let (mut tag, mut tag_field) = (Vec::new(), Vec::new());
        for o in &p.outcomes {
            let mut tags = Names::new();
            tag.push(
                o.tags
                    .iter()
                    .map(|t| tags.alloc(&t.name, Case::Camel))
                    .collect(),
            );
            tag_field.push(
                o.tags
                    .iter()
                    .map(|t| {
                        let mut n = Names::new();
                        t.fields
                            .iter()
                            .map(|(f, _)| n.alloc(f, Case::Snake))
                            .collect()
                    })
                    .collect(),
            );
        }

        // Values: constants (SCREAMING) and functions (snake) share one namespace.
        let constant: Vec<String> = p
            .constants
            .iter()
            .map(|c| consts.alloc(&c.name, Case::Screaming))
            .collect();
        values.reserve(constant.iter().map(String::as_str));
        let table: Vec<String> = p
            .tables
            .iter()
            .map(|t| values.alloc(&t.name, Case::Snake))
            .collect();
        let function: Vec<String> = p
            .functions
            .iter()
            .map(|f| values.alloc(&f.name, Case::Snake))
            .collect();
        let table_by_face = p
            .tables
            .iter()
            .map(|t| {
                by_face(t).map(|_| {
                    let base = ident::screaming(&t.name);
                    values.fresh(format!("{}_BY_FACE", unraw(&base)), Case::Screaming)
                })
            })
            .collect();
        let table_field = p
            .tables
            .iter()
            .zip(&table)
            .map(|(t, tname)| {
                field_tables(p, t)
                    .iter()
                    .map(|f| {
                        f.map(|(rid, fi)| {
                            let field = ident::snake(&p.records[rid].fields[fi].name);
                            values.fresh(format!("{}_{}", unraw(tname), unraw(&field)), Case::Snake)
                        })
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Option<String>>>>();
        let mut track_levels = Vec::new();
        let mut track_attr = Vec::new();
        for t in &p.tracks {
            let base = ident::screaming(&t.name);
            let base = base.strip_prefix("r#").unwrap_or(&base).to_string();
            track_levels.push(values.fresh(format!("{base}_LEVELS"), Case::Screaming));
            track_attr.push(
                t.attrs
                    .iter()
                    .map(|a| {
                        values.fresh(
                            format!("{base}_{}", unraw(&ident::screaming(a))),
                            Case::Screaming,
                        )
                    })
                    .collect(),
            );
        }
        let module_values = std::rc::Rc::new(
            function
                .iter()
                .chain(&table)
                .chain(&constant)
                .chain(table_field.iter().flatten().flatten())
                .chain(track_levels.iter())
                .chain(track_attr.iter().flatten())
                .map(|s| unraw(s).to_string())
                .chain(RESERVED_VALUES.iter().map(|s| s.to_string()))
                .collect(),
        );
        Idents {
            choice,
            variant,
            record,
            field,
            instance,
            track,
            track_levels,
            track_attr,
            table,
            table_by_face,
            table_field,
            constant,
            outcome,
            tag,
            tag_field,
            function,
            module_values,
        }
    }
}

/// Whether a list of `elem` is computed as a `SmallList` and kept in a table as a
/// `&'static [T]`: numbers, flags and names.
pub fn small_elem(elem: &crate::ir::Ty) -> bool {
    use crate::ir::Ty;
    matches!(elem, Ty::Int | Ty::Bool | Ty::Choice(_))
}

/// For a table whose values are records holding a list (building one allocates), one
/// entry per field of its record type: `Some((record, field))` for a field read through
/// its own function (`<table>_<field>(key)`), a number, flag, name or other `Copy` value,
/// or a list of numbers, flags or names (a `&'static [T]`); `None` for any other field.
/// Empty for any other table (a grid, a die table, values that are not such records).
pub fn field_tables(p: &Program, t: &crate::ir::Table) -> Vec<Option<(usize, usize)>> {
    use crate::ir::Ty;
    fn holds_list(p: &Program, r: usize) -> bool {
        p.records[r].fields.iter().any(|f| match &f.ty {
            Ty::List(_) => true,
            Ty::Record(r2) => holds_list(p, *r2),
            _ => false,
        })
    }
    let Ty::Record(rid) = t.value else {
        return Vec::new();
    };
    if t.columns.is_some() || t.partial() || !holds_list(p, rid) {
        return Vec::new();
    }
    p.records[rid]
        .fields
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            let small_list = matches!(&f.ty, Ty::List(e) if small_elem(e));
            (small_list || (p.is_copy(&f.ty) && !matches!(f.ty, Ty::Unit))).then_some((rid, fi))
        })
        .collect()
}

/// Most faces a die table's `const` array may have.
const MAX_BY_FACE: i64 = 1_024;

/// The faces `lo..=hi` a die table's rolls index a `const` array with: a die that cannot
/// explode (so every face it rolls is in its range), rows that cover that range (the
/// checker requires it), a value type that is `Copy` and `const`, and at most [`MAX_BY_FACE`]
/// faces. Other tables are looked up through their function.
pub fn by_face(t: &crate::ir::Table) -> Option<(i64, i64)> {
    let crate::ir::TableKey::Die(die) = t.key else {
        return None;
    };
    let (lo, hi) = die.range();
    let copy = matches!(
        t.value,
        crate::ir::Ty::Int | crate::ir::Ty::Bool | crate::ir::Ty::Choice(_)
    );
    // Within the limits `roll` clamps to, so the total is always in `lo..=hi`.
    let kept = match die.keep {
        rulesc_runtime::Keep::All => 0,
        rulesc_runtime::Keep::Highest(k) | rulesc_runtime::Keep::Lowest(k) => k,
    };
    let in_limits = i64::from(die.count) <= rulesc_runtime::dice::MAX_DICE
        && i64::from(die.sides) <= rulesc_runtime::dice::MAX_SIDES
        && kept <= rulesc_runtime::dice::MAX_KEPT;
    let fits = copy && in_limits && !die.explode && lo >= 1 && hi - lo < MAX_BY_FACE;
    let covered = || (lo..=hi).all(|f| t.rows.iter().any(|r| r.lo <= f && f <= r.hi));
    (fits && covered()).then_some((lo, hi))
}

fn unraw(s: &str) -> &str {
    s.strip_prefix("r#").unwrap_or(s)
}

/// The generator's shared state: the program and its identifiers.
pub struct Gen<'p> {
    pub p: &'p Program,
    pub id: Idents,
    pub opts: &'p Options,
    /// Which functions are fight functions (they take the fight).
    pub fight: Vec<bool>,
    /// The program as checked, lowered to the core IR: what `print` prints from (the
    /// functions of the fight's specialized copy that are not the checked program's are
    /// printed by `body`).
    pub core: Option<&'p rulesc_core::core_ir::Module>,
}

/// Generates the Rust module for `p`: formatted source, or a description of why the
/// program cannot be expressed (a compiler bug when the output does not parse).
pub fn generate(p: &Program) -> Result<String, String> {
    generate_with(p, &Options::default())
}

/// [`generate`] with a build script's [`Options`] (serde, derives, attributes). The
/// options should be [`Options::validate`]d first; an attribute that does not parse
/// makes the output fail to parse, which is reported here.
pub fn generate_with(p: &Program, opts: &Options) -> Result<String, String> {
    let core = rulesc_core::core_ir::module(p);
    let specialized;
    let p = if p.fight.is_some() {
        specialized = fight::specialize(p);
        &specialized
    } else {
        p
    };
    let g = Gen {
        p,
        id: Idents::new(p),
        opts,
        fight: crate::ir::fight_functions(p),
        core: Some(core),
    };
    g.check_supported()?;
    let mut scope = Scope::new();
    g.choices(&mut scope);
    g.tracks(&mut scope);
    let mut serde_defaults = Vec::new();
    g.records(&mut scope, &mut serde_defaults)?;
    g.outcomes(&mut scope, &mut serde_defaults)?;
    g.serde_support(&mut scope, &serde_defaults);
    g.constants(&mut scope)?;
    g.tables(&mut scope)?;
    for (i, f) in p.functions.iter().enumerate() {
        let item = body::function(&g, i, f)?;
        scope.push_fn(item);
    }
    g.fight_items(&mut scope)?;
    g.sites(&mut scope);
    // The one `use`: `String`, `Vec`, `ToString`, `vec!` and `format!` from `alloc`, so the
    // module builds in `no_std` crates too. Ruleset names never shadow them (reserved).
    let text = format!(
        "#[allow(unused_imports)]\nuse {RT}::prelude::*;\n\n{}",
        scope.to_string()
    );
    let file = syn::parse_file(&text).map_err(|e| {
        // Name the item that fails (items are separated by blank lines).
        let item = text
            .split("\n\n")
            .find(|chunk| syn::parse_str::<syn::Item>(chunk).is_err())
            .unwrap_or("");
        format!(
            "rulesc bug: generated Rust for `{}` does not parse: {e}\nin:\n{item}",
            p.name
        )
    })?;
    let header = format!(
        "// @generated by rulesc from ruleset {:?} ({:?}). Do not edit.\n\n",
        p.name, p.title
    );
    Ok(header + &prettyplease::unparse(&file))
}

/// An integer literal (`i64::MIN` has no literal form).
pub fn int_lit(v: i64) -> String {
    if v == i64::MIN {
        "i64::MIN".to_string()
    } else {
        v.to_string()
    }
}

/// Whether a function body is a formula (pure, untraced) or a procedure.
pub fn is_formula(b: &Body) -> bool {
    matches!(b, Body::Formula(_))
}
