//! The checked program: every name resolved to an index, every expression typed, every
//! traced operation given a site. The interpreter ([`crate::eval`]) and the code
//! generator ([`crate::codegen`]) both walk this and nothing else, so they implement one
//! semantics.
//!
//! Invariants the checker guarantees (backends may rely on them without re-checking):
//! - every index (choice, record, field, table, function, local, site) is in range;
//! - expression types agree with their operators (see [`ExprKind`] docs);
//! - die tables cover every face of their die once; choice-keyed tables every variant
//!   once; int-keyed tables every integer once or have a default;
//! - formulas are pure (no roll, decide, fill, assignment, procedure call);
//! - no function calls itself, directly or through others;
//! - every path of a function with a non-unit return type returns;
//! - `Function::fallible` is true exactly when its body has a node that may fail
//!   ([`walk::may_fail`]) or calls a fallible function.

mod compiled;
mod fight;
pub mod places;
pub mod walk;

pub use compiled::Compiled;
pub use fight::{
    copied_from_fight, expr_touches_fight, fight_functions, Action, At, FightDef, FightQuery,
    FightTies, Period, Repeat, ResetStep, Trigger,
};
pub use places::cmp_key;

use crate::source::{Sources, Span};
use rulesc_runtime::{DiceSpec, Site, Track};
use std::sync::Arc;

pub type Id = usize;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Bool,
    Dice,
    /// A rolled value: total and natural first face.
    Roll,
    /// A scale (ordered) or enum (unordered): `Program::choices[id]`.
    Choice(Id),
    Record(Id),
    Track(Id),
    /// One box of a track (element of `filled(track)`).
    TrackBox(Id),
    Outcome(Id),
    List(Box<Ty>),
    /// `T?`: a `T`, or none.
    Option(Box<Ty>),
    /// The dice of one roll, kept and dropped (`rulesc_runtime::Faces`): only the type of
    /// the hidden locals `faces(r)` reads, never written by a writer.
    Faces,
    /// `map<K, V>` keyed by a scale or enum: a value for every key.
    Map(Id, Box<Ty>),
    /// `map<K, V>` keyed by anything else with an order ([`Program::is_key`]: `int`, `bool`,
    /// records of keys): the keys written (by data or rules), ascending; a key not held
    /// reads the zero of `V`.
    SortedMap(Box<Ty>, Box<Ty>),
    /// A combatant of the running fight: a handle (`rulesc_runtime::Fighter`) whose
    /// fields read and change the combatant in the fight.
    Fighter,
    /// A side of the running fight.
    Side,
    Unit,
    /// The type of an expression that already failed to check.
    Error,
}

/// A constant: table values, record instances, defaults, constants.
#[derive(Debug, Clone, PartialEq)]
pub enum Const {
    Int(i64),
    Bool(bool),
    Dice(DiceSpec),
    Choice(u16),
    Track(Track),
    List(Vec<Const>),
    /// One value per variant of the key choice, in variant order.
    Map(Vec<Const>),
    /// The keys held and their values, ascending by key ([`cmp_key`]), each key once;
    /// then what a key not held reads (the zero of the values' type).
    SortedMap(Vec<(Const, Const)>, Box<Const>),
    /// One value per field, in field order. Shared, not copied: a record naming another
    /// record (or its type's default) holds that value itself, so constants stay as
    /// large as their text, and generated code can name the record instead of
    /// repeating its value.
    Record(Arc<RecordConst>),
    /// A value of an optional type: `None` is `none`.
    Opt(Option<Box<Const>>),
}

/// The value of a record constant.
#[derive(Debug)]
pub struct RecordConst {
    pub fields: Vec<Const>,
    pub origin: RecordOrigin,
}

/// Where a record constant's value comes from: what generated code writes for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordOrigin {
    /// Written out field by field (a struct literal).
    Written,
    /// The record named `Program::instances[i]` (`Type::name()`).
    Instance(usize),
    /// The type's default, every field its default or zero (`Type::default()`).
    Zero,
}

/// Equal values are equal constants, wherever they come from.
impl PartialEq for RecordConst {
    fn eq(&self, other: &Self) -> bool {
        self.fields == other.fields
    }
}

impl Const {
    pub fn record(fields: Vec<Const>, origin: RecordOrigin) -> Const {
        Const::Record(Arc::new(RecordConst { fields, origin }))
    }

    /// This value as the record `Program::instances[i]`, when it was written out for it
    /// (a value that is another record or a default keeps its origin).
    pub fn named(mut self, i: usize) -> Const {
        if let Const::Record(r) = &mut self {
            if let Some(r) = Arc::get_mut(r).filter(|r| r.origin == RecordOrigin::Written) {
                r.origin = RecordOrigin::Instance(i);
            }
        }
        self
    }
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    /// Where the variant is named (its doc comment is read around it).
    pub span: Span,
    /// What traces print ("Right Shoulder & Arm"); the name when no label was given.
    pub label: String,
}

#[derive(Debug, Clone)]
pub struct Choice {
    pub name: String,
    pub ordered: bool,
    pub variants: Vec<Variant>,
    pub span: Span,
}

impl Choice {
    /// The help for `name`, which is none of this scale's levels or enum's variants:
    /// the closest one, or all of them in their order (a scale's lowest first).
    pub fn suggest(&self, name: &str) -> String {
        let cands: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
        let what = if self.ordered {
            "levels, lowest first"
        } else {
            "variants"
        };
        crate::diag::suggest_ordered(name, &cands, what)
    }
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub ty: Ty,
    /// Inclusive bounds of an `int(lo..hi)` field.
    pub range: Option<(i64, i64)>,
    pub default: Option<Const>,
    pub doc: Option<String>,
    /// The field's key (its doc comment is read around it).
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct RecordType {
    pub name: String,
    pub fields: Vec<Field>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct TrackBoxDef {
    /// Index of the level in the track's scale.
    pub level: u16,
    /// One value per `TrackDef::attrs`.
    pub attrs: Vec<i64>,
}

#[derive(Debug, Clone)]
pub struct TrackDef {
    pub name: String,
    pub scale: Id,
    pub attrs: Vec<String>,
    pub boxes: Vec<TrackBoxDef>,
    pub escalate: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum TableKey {
    /// Rolled with this die; rows are face ranges.
    Die(DiceSpec),
    /// Keyed by a choice's variants (rows are single indices).
    Choice(Id),
    Int,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub lo: i64,
    pub hi: i64,
    pub value: Const,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    pub key: TableKey,
    pub value: Ty,
    /// Sorted by `lo`, not overlapping. In a table with `columns`, each row's value is a
    /// `Const::List` holding one `value` per column, in the columns' order.
    pub rows: Vec<Row>,
    /// The second key of a table printed as a grid (rows by `key`, columns by this).
    pub columns: Option<Columns>,
    /// What a key without a row (or, with columns, without a column) looks up.
    pub default: Option<Const>,
    pub span: Span,
}

/// The columns of a two-key table: looked up by an integer or a choice.
#[derive(Debug, Clone)]
pub struct Columns {
    /// `TableKey::Int` or `TableKey::Choice`.
    pub key: TableKey,
    /// Each column's keys (`lo..=hi`; a variant's index for a choice), as written. They
    /// do not overlap.
    pub heads: Vec<(i64, i64)>,
}

/// Why rolling a die table always finds a row: what `unreachable!` says where none is
/// (the interpreter's and the generated code's).
pub const DIE_ROWS: &str = "every face of a die table's die has exactly one row (the checker's E0310), and `among` picks faces from rows";

impl Table {
    /// Whether some key has no row and there is no default: a die table (its rows
    /// cover its faces, not every integer). Looking one up off its rows is a rule error.
    pub fn partial(&self) -> bool {
        matches!(self.key, TableKey::Die(_)) && self.default.is_none()
    }

    /// The row holding `key`, if any.
    pub fn row(&self, key: i64) -> Option<&Row> {
        // Rows are sorted and disjoint: binary search by lower bound.
        let i = self.rows.partition_point(|r| r.lo <= key);
        (i > 0 && self.rows[i - 1].hi >= key).then(|| &self.rows[i - 1])
    }

    /// What `table[row, column]` looks up in a two-key table: the cell, or else the
    /// default (`None` for a key the table does not cover).
    pub fn cell(&self, row: i64, column: i64) -> Option<&Const> {
        let cell = || {
            let j = self
                .columns
                .as_ref()?
                .heads
                .iter()
                .position(|&(lo, hi)| lo <= column && column <= hi)?;
            match &self.row(row)?.value {
                Const::List(cells) => cells.get(j),
                _ => None,
            }
        };
        cell().or(self.default.as_ref())
    }

    /// `lo..=hi` cut where the table's value may change: its rows, and the gaps between
    /// them, in order. Every key of one segment looks up the same value, so rolling
    /// `among` some values walks segments, never every face.
    pub fn segments(&self, lo: i64, hi: i64) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        let mut next = lo;
        for r in &self.rows {
            if r.hi < next || next > hi {
                continue;
            }
            if r.lo > hi {
                break;
            }
            if r.lo > next {
                out.push((next, r.lo - 1));
            }
            let from = r.lo.max(next);
            out.push((from, r.hi.min(hi)));
            next = r.hi.saturating_add(1);
        }
        if next <= hi {
            out.push((next, hi));
        }
        out
    }
}

#[derive(Debug, Clone)]
pub struct Constant {
    pub name: String,
    pub ty: Ty,
    pub value: Const,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Instance {
    pub name: String,
    pub record: Id,
    pub value: Const,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Tag {
    pub name: String,
    /// What traces print ("no blow"); the name when no label was given.
    pub label: String,
    /// Where the tag is named (its doc comment is read around it).
    pub span: Span,
    pub fields: Vec<(String, Ty)>,
}

#[derive(Debug, Clone)]
pub struct OutcomeType {
    pub name: String,
    pub tags: Vec<Tag>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
}

#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    /// The function (or one it calls) assigns this parameter's state.
    pub mutated: bool,
}

#[derive(Debug, Clone)]
pub enum Body {
    /// A formula: pure, untraced.
    Formula(Expr),
    /// A procedure: statements, traced.
    Procedure(Vec<Stmt>),
}

#[derive(Debug, Clone)]
pub struct Function {
    pub name: String,
    /// Parameters are locals `0..params.len()`.
    pub params: Vec<Param>,
    pub ret: Ty,
    /// Every local slot (parameters first), with its type.
    pub locals: Vec<Local>,
    pub body: Body,
    /// The site of the declaration (traced on entry).
    pub site: u32,
    pub span: Span,
    /// It may meet a rule error, itself or in a function it calls (see
    /// [`walk::may_fail`]): generated code returns `Result<_, RuleError>`.
    pub fallible: bool,
}

impl Function {
    pub fn is_procedure(&self) -> bool {
        matches!(self.body, Body::Procedure(_))
    }
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// `div_up(a, b)`: the quotient rounded up ("half, rounded up" is `div_up(x, 2)`).
    DivUp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The comparison that holds where this one does not (of numbers, truths and levels:
    /// totally ordered).
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }
}

impl IntOp {
    /// `a op b` on ints: saturating (`arith`); a division or remainder by zero here is
    /// by a constant the checker proved is not 0 (a divisor that may be 0 is a
    /// [`ExprKind::CheckedDiv`]).
    #[inline(always)]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        use rulesc_runtime::__private::arith;
        match self {
            IntOp::Add => arith::add(a, b),
            IntOp::Sub => arith::sub(a, b),
            IntOp::Mul => arith::mul(a, b),
            IntOp::Div => arith::div(a, b),
            IntOp::Rem => arith::rem(a, b),
            IntOp::DivUp => arith::div_up(a, b),
        }
    }

    /// `a op b` of a division whose divisor may be 0 ([`ExprKind::CheckedDiv`]): a rule
    /// error at `site` for a 0 divisor (the runtime's `error::div`, `rem`, `div_up`).
    #[inline]
    pub fn checked(self, a: i64, b: i64, site: u32) -> Result<i64, rulesc_runtime::RuleError> {
        use rulesc_runtime::__private::error;
        match self {
            IntOp::Div => error::div(a, b, site),
            IntOp::Rem => error::rem(a, b, site),
            IntOp::DivUp => error::div_up(a, b, site),
            IntOp::Add | IntOp::Sub | IntOp::Mul => {
                unreachable!("{self:?} never divides: the checker makes only a division checked")
            }
        }
    }

    /// Whether this divides (a divisor that may be 0 is checked first).
    pub fn divides(self) -> bool {
        matches!(self, IntOp::Div | IntOp::Rem | IntOp::DivUp)
    }

    /// The runtime's function for `op`, in `arith` (and, for a division, in `error`):
    /// what generated code calls.
    pub fn runtime_name(self) -> &'static str {
        match self {
            IntOp::Add => "add",
            IntOp::Sub => "sub",
            IntOp::Mul => "mul",
            IntOp::Div => "div",
            IntOp::Rem => "rem",
            IntOp::DivUp => "div_up",
        }
    }
}

impl CmpOp {
    /// Whether `a op b` holds, of ints, truths or levels read as ints.
    #[inline]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agg {
    Sum,
    Max,
    Min,
    Any,
    All,
    Count,
}

/// Which dice of a roll `faces`, `kept` and `dropped` read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FacesPart {
    All,
    Kept,
    Dropped,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxPart {
    /// 1-based box number.
    Number,
    /// The box's level (a `Choice` of the track's scale).
    Level,
    Attr(usize),
}

#[derive(Debug, Clone)]
pub enum DecideOptions {
    /// Pick a variant of this choice.
    Choice(Id),
    Bool,
    /// Pick an element of a list (type `List(T)`, result `T`).
    List(Box<Expr>),
}

#[derive(Debug, Clone)]
pub struct MatchArm<B> {
    /// Tags (outcome) or variant indices (choice) this arm takes; empty = wildcard.
    pub alts: Vec<u16>,
    /// For a single-tag outcome arm: the local slot bound to each of the tag's fields
    /// (`None` where the pattern did not name it).
    pub binds: Vec<Option<usize>>,
    pub body: B,
    pub site: u32,
}

impl<B> MatchArm<B> {
    /// Whether the arm takes `tag` (an outcome's tag or a choice's index): it names it,
    /// or it is the wildcard.
    pub fn takes(&self, tag: u16) -> bool {
        self.alts.is_empty() || self.alts.contains(&tag)
    }
}

/// The arm a `match` takes for `tag`: the first that takes it.
pub fn arm_for<B>(arms: &[MatchArm<B>], tag: u16) -> Option<usize> {
    arms.iter().position(|a| a.takes(tag))
}

/// Expressions. Types: operands of `Int` ops are `Int` (a `Roll` is converted with
/// `ToInt` first); `Compare` operands share a type (`Int`, `Bool` or `Choice`).
#[derive(Debug, Clone)]
pub enum ExprKind {
    Const(Const),
    Local(usize),
    Field(Box<Expr>, usize),
    BoxPart(Box<Expr>, BoxPart),
    /// `map[key]`: of a [`Ty::Map`] (keyed by a scale or enum) the key's entry; of a
    /// [`Ty::SortedMap`] the key's value, or the zero of its values when it holds no such
    /// key.
    MapGet(Box<Expr>, Box<Expr>),
    /// `table[key]`, traced at `site`. `checked`: the key may be one no row holds (a die
    /// table read off its faces), a rule error at `site`; false where the checker proved
    /// it is held. `table[key, column]` (a table with `columns`) also has `column`.
    Lookup {
        table: Id,
        key: Box<Expr>,
        column: Option<Box<Expr>>,
        site: u32,
        checked: bool,
    },
    /// A formula or procedure call; a procedure call is traced.
    Call(Id, Vec<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Int(IntOp, Box<Expr>, Box<Expr>),
    /// `roll ± int`: a roll with the same natural face.
    RollAdd {
        roll: Box<Expr>,
        delta: Box<Expr>,
        negate: bool,
    },
    /// `level ± int`: steps through the scale, saturating at its ends.
    LevelStep {
        level: Box<Expr>,
        delta: Box<Expr>,
        negate: bool,
    },
    Compare(CmpOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// `x in list`.
    In(Box<Expr>, Box<Expr>),
    ToInt(Box<Expr>),
    Natural(Box<Expr>),
    /// min/max of Int or Choice operands (at least one).
    Min(Vec<Expr>),
    Max(Vec<Expr>),
    Clamp(Box<Expr>, Box<Expr>, Box<Expr>),
    Abs(Box<Expr>),
    Len(Box<Expr>),
    /// `dice * n` (`rulesc_runtime::DiceSpec::times`). With a site, the count may fall
    /// outside `0..=MAX_DICE`, a rule error there; none where the checker proved it
    /// inside (constant dice times a number of known bounds).
    DiceTimes(Box<Expr>, Box<Expr>, Option<u32>),
    /// Rolls dice (type `Roll`), traced at `site`. With `faces`, also keeps every die of
    /// the roll in that (hidden, `Ty::Faces`) local, for `faces(r)` to read.
    Roll {
        dice: Box<Expr>,
        site: u32,
        faces: Option<usize>,
    },
    /// `faces(r)`, `kept(r)`, `dropped(r)` (type `List(Int)`): runs `of` (a roll that keeps
    /// its dice in local `slot`, or the local bound to one), then reads local `slot`.
    Faces {
        part: FacesPart,
        of: Box<Expr>,
        slot: usize,
    },
    /// Rolls a die table's die and looks the face up, traced at `site`. With `among`,
    /// rolls a `dN` over the allowed faces (those whose value is in the list) instead;
    /// if none is allowed, rolls the whole die.
    RollTable {
        table: Id,
        among: Option<Box<Expr>>,
        site: u32,
    },
    Decide {
        name: String,
        options: DecideOptions,
        site: u32,
    },
    /// Fills a box of the track at `track`, returns its number (0 if none), traced.
    Fill {
        track: Place,
        level: Box<Expr>,
        site: u32,
    },
    /// The filled boxes of a track (type `List(TrackBox)`).
    Filled(Box<Expr>),
    Aggregate {
        kind: Agg,
        var: usize,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Match {
        scrutinee: Box<Expr>,
        arms: Vec<MatchArm<Expr>>,
    },
    MakeOutcome {
        outcome: Id,
        tag: u16,
        fields: Vec<Expr>,
    },
    /// `Type(field: e, ...)`: a record with every field given (the checker fills the
    /// omitted ones with their defaults).
    MakeRecord {
        record: Id,
        fields: Vec<Expr>,
    },
    /// `[a, b, c]` (type `List(T)`).
    List(Vec<Expr>),
    /// `[body for var in list if cond]`.
    Collect {
        var: usize,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    /// `e` where a `T?` is wanted (type `Option(T)`).
    Some(Box<Expr>),
    /// `e != none` (`e` optional; `e == none` is `Not(IsSome(e))`).
    IsSome(Box<Expr>),
    /// The value of an optional local inside a test that it is not none (`if x != none`):
    /// never none there (the checker refuses a new value for `x` inside the test).
    Unwrap(Box<Expr>),
    /// `lo..hi` as a list: `lo` up to `hi - 1`. With a site (bounds the rules do not fix,
    /// [`walk::range_bounded`]), more than `rulesc_runtime::MAX_LOOP` numbers is a rule
    /// error there.
    Range(Box<Expr>, Box<Expr>, Option<u32>),
    /// `first(var in list if cond)` (the element, type `Option(T)`) or, with `index`,
    /// `index_of(..)` (its position, type `Option(Int)`).
    Find {
        var: usize,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
        index: bool,
    },
    /// `sort(var in list if cond by keys)`: the elements (those passing `cond`) ordered by
    /// their keys (ints, levels or bools, compared left to right), lowest first; equal keys keep
    /// the list's order. Each element's condition and keys are evaluated once, in order.
    Sort {
        var: usize,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
        keys: Vec<Expr>,
    },
    /// `min_by(..)` / `max_by(..)` (`max`): the first element with the lowest (highest)
    /// keys, type `Option(T)`; none for no element.
    Best {
        var: usize,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
        keys: Vec<Expr>,
        max: bool,
    },
    /// `list[i]`. An index outside the list is a rule error at the site in `check`;
    /// `None` where the checker proved the index is inside.
    ListGet(Box<Expr>, Box<Expr>, Option<u32>),
    /// `a / b`, `a % b` or `div_up(a, b)` (`IntOp::Div`, `Rem`, `DivUp`) whose divisor may be zero: a
    /// rule error at `site` then. (A division by a non-zero constant is an `Int`.)
    CheckedDiv(IntOp, Box<Expr>, Box<Expr>, u32),
    /// The combatant a fighter stands for (type `Record(fight.combatant)`), in place:
    /// reads and changes through it reach the combatant in the fight.
    Combatant(Box<Expr>),
    /// A fight built-in; its operands and type are listed at [`FightQuery`].
    Fight(FightQuery, Vec<Expr>),
    /// `keys(map)` (type `List(K)`): the keys a map holds, ascending: every level or
    /// variant of a scale or enum key, the keys written of a [`Ty::SortedMap`].
    Keys(Box<Expr>),
    /// The value of a new record's `int(lo..hi)` field (`Type(zone: z + 1)`), which the
    /// checker could not prove inside its bounds: a value outside is a rule error at
    /// `site` (the `field: value` written).
    InRange {
        value: Box<Expr>,
        lo: i64,
        hi: i64,
        site: u32,
    },
}

/// Something assignable: a local, or a path of fields and map keys under one.
#[derive(Debug, Clone)]
pub struct Place {
    pub root: usize,
    pub path: Vec<PlaceStep>,
    pub ty: Ty,
    /// The bounds of the `int(lo..hi)` field the path ends at, when the checker could not
    /// prove the value an assignment stores there inside them: a value outside is a rule
    /// error at the statement's site, and the field keeps its value. `None` elsewhere.
    pub range: Option<(i64, i64)>,
}

#[derive(Debug, Clone)]
pub enum PlaceStep {
    Field(usize),
    /// A map key; writing through a key a [`Ty::SortedMap`] does not hold adds it (with
    /// the zero of its values, then changed).
    Key(Expr),
    /// A list index (an int); an index outside the list is a rule error at the site of
    /// the statement (or `fill`) the place belongs to.
    Index(Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Debug, Clone)]
pub enum Stmt {
    /// `let` (first binding of a slot), traced.
    Let {
        slot: usize,
        value: Expr,
        site: u32,
    },
    /// Assignment to a local or state, traced. `Add`/`Sub` on `Int` places; `Add` on a
    /// `List` place appends the value's elements.
    Assign {
        place: Place,
        op: AssignOp,
        value: Expr,
        site: u32,
    },
    /// `if`/`else if` branches, each traced at its site; then the `else`.
    If {
        branches: Vec<(Expr, Vec<Stmt>, u32)>,
        otherwise: Option<Vec<Stmt>>,
    },
    Match {
        scrutinee: Expr,
        arms: Vec<MatchArm<Vec<Stmt>>>,
    },
    For {
        var: usize,
        list: Expr,
        body: Vec<Stmt>,
    },
    /// `for var in lo..hi`: `lo` up to `hi - 1`. With a `site` (bounds the rules do not
    /// fix, [`walk::range_bounded`]), more than `rulesc_runtime::MAX_LOOP` turns is a rule
    /// error there, before the first turn.
    ForRange {
        var: usize,
        lo: Expr,
        hi: Expr,
        body: Vec<Stmt>,
        site: Option<u32>,
    },
    /// Sets a timer: `action` (an index into `FightDef::actions`) fires at `at` with
    /// `args` evaluated now. Traced at `site` with the moment.
    Schedule {
        at: At,
        action: usize,
        args: Vec<Expr>,
        site: u32,
    },
    /// World time moves `amount` base units; timers and `on every` hooks due fire.
    Advance {
        amount: Expr,
        site: u32,
    },
    /// Traced with the returned value.
    Return {
        value: Option<Expr>,
        site: u32,
    },
    Expr(Expr),
}

#[derive(Debug, Clone, Default)]
pub struct Program {
    pub name: String,
    pub title: String,
    pub sources: Sources,
    pub choices: Vec<Choice>,
    pub records: Vec<RecordType>,
    pub tracks: Vec<TrackDef>,
    pub tables: Vec<Table>,
    pub constants: Vec<Constant>,
    pub instances: Vec<Instance>,
    pub outcomes: Vec<OutcomeType>,
    pub functions: Vec<Function>,
    pub sites: Vec<Site>,
    pub fight: Option<FightDef>,
    /// The names of the rulesets this one `extends`, nearest first (a content pack for
    /// any of them applies to this one).
    pub bases: Vec<String>,
    /// The folder it was checked from (by `compile_dir`): content packs that add to its
    /// data check it again with their additions (`pack::apply`).
    pub folder: Option<std::path::PathBuf>,
    /// What the interpreter lowers from this program on its first run (the core IR's
    /// module, `core_ir::module`), kept for the next runs.
    pub compiled: Compiled,
}

impl Program {
    /// The ruleset's title, or its name when it has none.
    pub fn title_or_name(&self) -> &str {
        if self.title.is_empty() {
            &self.name
        } else {
            &self.title
        }
    }

    pub fn function(&self, name: &str) -> Option<(Id, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name)
    }

    /// How a type reads in diagnostics and docs.
    pub fn ty_name(&self, ty: &Ty) -> String {
        match ty {
            Ty::Int => "int".into(),
            Ty::Bool => "bool".into(),
            Ty::Dice => "dice".into(),
            Ty::Roll => "roll".into(),
            Ty::Choice(i) => self.choices[*i].name.clone(),
            Ty::Record(i) => self.records[*i].name.clone(),
            Ty::Track(i) => self.tracks[*i].name.clone(),
            Ty::TrackBox(i) => format!("box of {}", self.tracks[*i].name),
            Ty::Outcome(i) => self.outcomes[*i].name.clone(),
            Ty::List(t) => format!("list<{}>", self.ty_name(t)),
            Ty::Option(t) => format!("{}?", self.ty_name(t)),
            Ty::Faces => "faces".into(),
            Ty::Map(k, v) => format!("map<{}, {}>", self.choices[*k].name, self.ty_name(v)),
            Ty::SortedMap(k, v) => format!("map<{}, {}>", self.ty_name(k), self.ty_name(v)),
            Ty::Fighter => "fighter".into(),
            Ty::Side => "side".into(),
            Ty::Unit => "nothing".into(),
            Ty::Error => "?".into(),
        }
    }

    /// The value a missing map key reads as, and a field without default starts at.
    pub fn zero(&self, ty: &Ty) -> Const {
        match ty {
            Ty::Int | Ty::Roll | Ty::Error | Ty::Unit | Ty::Fighter | Ty::Side => Const::Int(0),
            Ty::Bool => Const::Bool(false),
            Ty::Dice => Const::Dice(DiceSpec::new(0, 1)),
            Ty::Choice(_) | Ty::TrackBox(_) | Ty::Outcome(_) => Const::Choice(0),
            Ty::Track(_) => Const::Track(Track::default()),
            Ty::List(_) | Ty::Faces => Const::List(Vec::new()),
            Ty::Option(_) => Const::Opt(None),
            Ty::Map(k, v) => Const::Map(vec![self.zero(v); self.choices[*k].variants.len()]),
            Ty::SortedMap(_, v) => Const::SortedMap(Vec::new(), Box::new(self.zero(v))),
            Ty::Record(r) => Const::record(
                self.records[*r]
                    .fields
                    .iter()
                    .map(|f| self.field_zero(f))
                    .collect(),
                RecordOrigin::Zero,
            ),
        }
    }

    /// What a field holds when nothing gives it a value (in its record type's zero): its
    /// `default`, else its type's zero; for an `int(lo..hi)` field, the number of the
    /// range nearest 0, so no record ever holds a number outside its field's range.
    pub fn field_zero(&self, f: &Field) -> Const {
        match (&f.default, f.range) {
            (Some(d), _) => d.clone(),
            // (Not `clamp`: an empty range is reported, and still read, while checking.)
            (None, Some((lo, hi))) => Const::Int(if lo > 0 {
                lo
            } else if hi < 0 {
                hi
            } else {
                0
            }),
            (None, None) => self.zero(&f.ty),
        }
    }
}

impl Program {
    /// Each file named again by `names` (the command line names them from the current
    /// folder), in the sources and in the trace sites that cite them: for printing only.
    /// The check names files within the ruleset's parent (`kingsmark/melee.rules`), the
    /// names generated code embeds, so a program renamed here is never built.
    pub fn rename_files(&mut self, names: &dyn Fn(&mut Sources)) {
        let before: Vec<String> = self.sources.files.iter().map(|f| f.name.clone()).collect();
        names(&mut self.sources);
        let renamed: std::collections::HashMap<&str, &str> = before
            .iter()
            .zip(&self.sources.files)
            .filter(|(old, f)| **old != f.name)
            .map(|(old, f)| (old.as_str(), f.name.as_str()))
            .collect();
        if renamed.is_empty() {
            return;
        }
        for s in &mut self.sites {
            if let Some(new) = renamed.get(s.file.as_ref()) {
                s.file = std::borrow::Cow::Owned(new.to_string());
            }
        }
    }
}
