//! The core IR's types: registers, the parts of a value held in them, and the
//! instructions the VM runs.
//!
//! Registers are typed by file: `i64` registers hold ints, truths (0 or 1), levels and
//! enum variants (their index) and each half of a roll (total, natural); value registers
//! hold what has parts (records). A [`Part`] says how a value of the language is held,
//! so the VM makes an `eval::Value` of it only at the edges (a trace event, the result).

use crate::ir::{At, CmpOp, FightQuery, Ty};
use rulesc_runtime::{__private::rolls, DiceSpec};

/// An `i64` register: an index into a call's fixed frame of [`FRAME`] registers, so the
/// VM reads and writes them with no bounds check (a function needing more does not lower).
pub type IReg = u8;
/// How many `i64` registers a call's frame has.
pub const FRAME: usize = 1 << IReg::BITS;
/// A value register.
pub type VReg = u32;

/// How one value of the language is held in registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Int(IReg),
    Bool(IReg),
    /// A level of a scale or a variant of an enum: its index.
    Level(IReg),
    /// A roll: its total and its natural first face.
    Roll {
        total: IReg,
        natural: IReg,
    },
    /// A fighter of the running fight: its number (`Value::Fighter`).
    Fighter(IReg),
    /// A side of the running fight: its number (`Value::Side`).
    Side(IReg),
    /// A record.
    Val(VReg),
    Unit,
}

/// One lowered function.
#[derive(Debug)]
pub struct Func {
    /// How each parameter is held, in order: its first registers.
    pub params: Vec<Part>,
    /// How many value registers it has (its `i64` registers are a fixed frame).
    pub vals: u32,
    /// A procedure (traced) or a formula (untraced: its trace points run only with
    /// `--trace-formulas`, the VM's `formulas`).
    pub traced: bool,
    /// The declaration's site: where a spent step budget is reported.
    pub site: u32,
    /// Its code with its trace points and, before each statement, a stop.
    pub code: Vec<Inst>,
    /// Each `i64` register lowering took for [`Func::code`], in the order taken: what a
    /// printer reads beside the code (`core_ir::shape`), where the VM reads registers.
    pub allocs: Vec<Alloc>,
    /// Where a `let` binds a local to the registers of its value: from instruction `pc`
    /// on, register `reg` holds local `slot` (a printer names the variable after it).
    pub lets: Vec<Let>,
    /// Its code for an untraced run no enumeration can stop: no trace points, no stops,
    /// the steps between two effects in one `Step`.
    pub plain: Vec<Inst>,
}

/// An `i64` register taken while lowering: from instruction `pc` on, register `reg`
/// holds a new value (a local, a temporary), until lowering takes it again. One such
/// value is one variable of a printed function (`core_ir::shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alloc {
    pub pc: u32,
    pub reg: IReg,
    /// What it holds, when lowering took it for a value of a known type (a local, a
    /// result); `None` for a temporary, whose kind its instruction gives.
    pub kind: Option<Kind>,
}

/// A local bound to a register ([`Func::lets`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Let {
    pub pc: u32,
    pub reg: IReg,
    pub slot: u32,
}

/// What an `i64` register holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
    /// A level of scale (or variant of enum) `choice`.
    Level(usize),
    Fighter,
    Side,
}

impl Kind {
    /// The class of what a register of this kind holds ([`Inst::operands`]).
    pub fn class(self) -> Class {
        match self {
            Kind::Int => Class::Int,
            Kind::Bool => Class::Bool,
            Kind::Level(_) => Class::Level,
            Kind::Fighter => Class::Fighter,
            Kind::Side => Class::Side,
        }
    }
}

/// A die table's runs of totals, each with the value it reads (`eval::die_segments`).
pub type Segments = [(i64, i64, Option<crate::ir::Const>)];

/// One instruction. Jumps name an index into [`Func::code`].
///
/// `repr(u8)`: the VM's dispatch reads a byte for the variant, where Rust's own layout
/// would decode it from a niche of a field (two more instructions at each dispatch).
#[derive(Debug)]
#[repr(u8)]
pub enum Inst {
    /// Takes `n` steps of the run's budget (`eval::MAX_STEPS`); past it, the run stops
    /// with a rule error at the function's site. Lowering gathers the steps of the
    /// instructions up to the next observable one (a roll, a trace point, a jump) into
    /// one `Step` before them, so the budget runs out before the same effect in either
    /// code.
    Step(u32),
    /// Where a spent step budget is reported from here on: the inlined formula's
    /// declaration at its start, the function's own after it (a formula inlined into its
    /// caller's plain code runs out of steps at its own site, as when it is called).
    Site(u32),
    /// Before each statement: an enumeration that cut this path off (a dice source that
    /// may stop) ends the run here; its result is discarded.
    Stop,
    /// `dst` = the combatant fighter `who` stands for, shared with the fight (changes
    /// through it reach the fight): `crate::fight::combatant`.
    Combatant {
        dst: VReg,
        who: IReg,
    },
    /// Fight built-in `q` of `arg` (`crate::fight::query`), into
    /// `dst` (`Part::Unit` for `mark_acted`).
    FightQuery {
        q: FightQuery,
        arg: Option<Part>,
        dst: Part,
    },
    /// Field `field` (an int, truth or level) of the combatant fighter `who` stands for,
    /// read in the fight's record: [`Inst::Combatant`] then [`Inst::Field`], with no
    /// record shared.
    CombatantField {
        dst: IReg,
        who: IReg,
        field: u32,
    },
    /// `len(allies(c))` or `len(enemies(c))` in plain code: counted by the fight's rule
    /// (`crate::fight::count`: the same `out` asks and steps as the list made), no list
    /// made.
    FightCount {
        q: FightQuery,
        arg: Part,
        dst: IReg,
    },
    /// Sets a timer (`crate::fight::set_timer`): `action` at the moment `at` and
    /// `operand` say, with the arguments' values.
    Schedule {
        at: Box<At>,
        operand: Option<IReg>,
        action: u32,
        args: Box<[IReg]>,
        site: u32,
    },
    /// `advance`: world time moves `amount` through the fight's engine.
    Advance {
        amount: IReg,
    },
    /// `dst` = a copy of `src` made for no steps (`Value::deep_clone`): a record read
    /// from the fight's state passed to a parameter the callee does not change
    /// (`ir::copied_from_fight`).
    Detach {
        dst: VReg,
        src: VReg,
    },
    Const {
        dst: IReg,
        value: i64,
    },
    Move {
        dst: IReg,
        src: IReg,
    },
    /// An int, truth or level field of the record in `rec`.
    Field {
        dst: IReg,
        rec: VReg,
        field: u32,
    },
    /// Any other field of the record in `rec`: the value itself, shared (as
    /// `eval::expr::field_of` reads it).
    FieldVal {
        dst: VReg,
        rec: VReg,
        field: u32,
    },
    /// `place op= value` through the value in register `place.root` (a path of fields,
    /// map keys and list indices, `keys` holding one part per step, `Unit` for a field,
    /// or none for a path of fields only): `eval::assign_value` at `eval::update`'s
    /// place, so the rule (a list's room, an index past the end, an `int(lo..hi)`
    /// field's range, the field kept on an error) is `eval::assign_value`. `value` is taken
    /// (a copy lowering made); the new value goes to `out` when the assignment is traced.
    /// A rule error ends the run at `site`.
    Assign {
        place: Box<crate::ir::Place>,
        keys: Box<[Part]>,
        op: crate::ir::AssignOp,
        value: Part,
        out: Option<Part>,
        site: u32,
    },
    /// The length of the list in `list`.
    Len {
        dst: IReg,
        list: VReg,
    },
    /// Item `idx` (inside the list: lowering loops below its length) of the list in
    /// `list` into `dst`, charged its weight in steps: a copy of it,
    /// or the item itself when `shared` (in a formula nothing can change a record).
    Item {
        dst: Part,
        list: VReg,
        idx: IReg,
        shared: bool,
    },
    /// A constant with parts (a list, a record, a map) made anew into `dst`
    /// (`Value::from_const`, made anew at each reading: a record made from it
    /// and changed later does not change the constant).
    ConstVal {
        dst: VReg,
        value: Box<crate::ir::Const>,
    },
    /// A new record from `fields` (taken: copies lowering made).
    Record {
        dst: VReg,
        fields: Box<[Part]>,
    },
    /// `filled(track)` of the track in `track` (`eval::expr::filled`).
    Filled {
        dst: VReg,
        track: VReg,
        ty: Box<Ty>,
    },
    /// Item `idx` of a constant list of numbers, truths or levels, held here: the next
    /// item of a loop over the constant.
    ItemImm {
        dst: IReg,
        items: Box<[i64]>,
        idx: IReg,
    },
    /// The filled boxes numbered `1..=boxes` of the track in `track` (those
    /// `eval::expr::filled` lists), as a set of bits: a loop over `filled(track)` walks
    /// them without making the list.
    FilledBits {
        dst: IReg,
        track: VReg,
        boxes: u32,
    },
    /// The lowest box of the set in `bits` taken out of it and put in `dst`, a box of
    /// track `track`, its step charged as an item of a list is: the next item of a loop
    /// over `filled` (the set is not empty).
    NextBox {
        bits: IReg,
        dst: VReg,
        track: u32,
    },
    /// `box.number`, `box.level`, `box.attr` of the box in `src` (`eval::expr::box_part`).
    BoxPart {
        dst: Part,
        src: VReg,
        part: crate::ir::BoxPart,
    },
    /// `e` where a `T?` is wanted: the value of `src` (a present optional value is the
    /// value itself) into a value register.
    Wrap {
        dst: VReg,
        src: Part,
    },
    /// The value of the optional value in `src`, where the checker proved it present.
    Unwrap {
        dst: Part,
        src: VReg,
    },
    /// `x != none`: whether the optional value in `src` is present.
    IsSome {
        dst: IReg,
        src: VReg,
    },
    /// The tag of the outcome in `src`.
    Tag {
        dst: IReg,
        src: VReg,
    },
    /// Field `field` of the outcome in `src` (a `match` arm's binding), shared.
    OutcomeField {
        dst: Part,
        src: VReg,
        field: u32,
    },
    /// An empty list into `dst`, room for `cap` items.
    NewList {
        dst: VReg,
        cap: u32,
    },
    /// `value` (taken: a copy lowering made) appended to the list in `list`.
    Push {
        list: VReg,
        value: Part,
    },
    /// `list[idx]`: the item, shared; past either end the runtime's `error::index` at
    /// `site` (`None` where the checker proved the index inside: `ir::ExprKind::ListGet`).
    ListGet {
        dst: Part,
        list: VReg,
        idx: IReg,
        site: Option<u32>,
    },
    /// `x in list`: whether an item equals `x` (`eval::expr::scan`), charged a step per
    /// item compared.
    In {
        dst: IReg,
        x: Part,
        list: VReg,
    },
    /// `x in [..]` of constant numbers, truths or levels held here: whether one equals
    /// `x`, charged as [`Inst::In`] charges (`eval::expr::scan`).
    InImm {
        dst: IReg,
        x: IReg,
        items: Box<[i64]>,
    },
    /// `lo..hi` of a loop the rules do not bound: the runtime's `error::range_room` at
    /// `site`.
    RangeRoom {
        lo: IReg,
        hi: IReg,
        site: u32,
    },
    /// `map[key]` of a map keyed by a scale or enum: the key's entry.
    MapGet {
        dst: Part,
        map: VReg,
        key: IReg,
    },
    /// `dst = src` of values: moved out of `src` when it is a temporary (`take`),
    /// shared otherwise.
    MoveVal {
        dst: VReg,
        src: VReg,
        take: bool,
    },
    /// A copy (value semantics): the steps of the value's weight,
    /// then the parts others hold copied. `take`: `src` is a temporary, moved.
    CopyVal {
        dst: VReg,
        src: VReg,
        take: bool,
    },
    /// `table[key]` of a one-key table of numbers, truths or levels, in plain code: the
    /// row values (`eval::lookup`, found at lowering) of the keys `lo..` in `rows`, what
    /// a key outside them reads in `outside` (the default, if any); `None` is the
    /// `NoRow` rule error at `site`, as [`Inst::Lookup`] gives it.
    LookupDense {
        dst: IReg,
        key: Part,
        lo: i64,
        rows: Box<[Option<i64>]>,
        outside: Option<i64>,
        table: u32,
        site: u32,
    },
    /// `table[key].f[k]..` of a one-key table in plain code: the row's constant
    /// (`eval::row_value`) read along `path` in place, no row made; only the end of the
    /// path into `dst` (a value with parts made from its constant). A key no row holds
    /// (and no default) is the `NoRow` rule error at `site`, as [`Inst::Lookup`] gives it.
    RowRead {
        dst: Part,
        table: u32,
        key: Part,
        path: Box<[Proj]>,
        site: u32,
    },
    /// `table[key]` of a one-key table: `eval::look_up`, as [`Inst::LookupCell`] reads
    /// it; a key no row holds (and no default) is a rule error at `site`. Traced when the
    /// function is.
    Lookup {
        dst: Part,
        table: u32,
        key: Part,
        site: u32,
    },
    /// Calls function `func` (which lowered) with its arguments in its parameters'
    /// registers: `ints` copied (callee's register, caller's), `vals` copied or, when
    /// `take` (a temporary), moved; its result in `ret`. A formula's rule error is
    /// recorded in the trace by the procedure calling it.
    Call {
        func: u32,
        ints: Box<[(IReg, IReg)]>,
        vals: Box<[(VReg, VReg, bool)]>,
        ret: Part,
    },
    Neg {
        dst: IReg,
        a: IReg,
    },
    Not {
        dst: IReg,
        a: IReg,
    },
    /// `arith::add` and its kin (saturating, a division by a constant that is not 0).
    Arith {
        op: crate::ir::IntOp,
        dst: IReg,
        a: IReg,
        b: IReg,
    },
    /// A new record's `int(lo..hi)` field not proven inside: the runtime's
    /// `error::in_range`, a rule error at `site` for `x` outside.
    InRange {
        x: IReg,
        lo: i64,
        hi: i64,
        site: u32,
    },
    /// `a / b`, `a % b` or `div_up(a, b)` whose divisor may be zero
    /// ([`crate::ir::IntOp::checked`]): a rule error at `site` for a zero divisor.
    CheckedDiv {
        op: crate::ir::IntOp,
        dst: IReg,
        a: IReg,
        b: IReg,
        site: u32,
    },
    /// [`Inst::Arith`] with a constant second operand.
    ArithImm {
        op: crate::ir::IntOp,
        dst: IReg,
        a: IReg,
        b: i64,
    },
    /// The lower (`max`: higher) of two ints or levels.
    Pick {
        max: bool,
        dst: IReg,
        a: IReg,
        b: IReg,
    },
    /// `arith::clamp`.
    Clamp {
        dst: IReg,
        x: IReg,
        lo: IReg,
        hi: IReg,
    },
    Abs {
        dst: IReg,
        a: IReg,
    },
    /// `level ± n` on a scale of `len` levels: `arith::step_level`, saturating at its
    /// ends.
    LevelStep {
        dst: IReg,
        level: IReg,
        delta: IReg,
        negate: bool,
        len: u8,
    },
    /// A decision among `options` answers (a bool's is two), traced at `site`. The
    /// answer is clamped to the last option (`rulesc_runtime::decide::answer`).
    Decide {
        dst: IReg,
        name: &'static str,
        options: u32,
        ty: Box<Ty>,
        site: u32,
    },
    Compare {
        op: CmpOp,
        dst: IReg,
        a: IReg,
        b: IReg,
    },
    /// [`Inst::Compare`] with a constant second operand.
    CompareImm {
        op: CmpOp,
        dst: IReg,
        a: IReg,
        b: i64,
    },
    /// Rolls dice known when lowering by the runtime's function for their shape
    /// (`rolls::by_shape`, the choice generated code makes too, made here once), traced
    /// at `site` when the run is traced.
    Roll {
        total: IReg,
        natural: IReg,
        shape: rolls::Shape,
        spec: DiceSpec,
        site: u32,
    },
    /// `fill place at level`: a box of the track at `place` (root a value register, `keys`
    /// as for [`Inst::Assign`]) filled by `eval::fill_track` (`levels`: the track's boxes'
    /// levels), the box's number (0 for none) into `dst`, traced as a fill at `site`; an
    /// index past a list on the path is the rule error.
    Fill {
        dst: IReg,
        place: Box<crate::ir::Place>,
        keys: Box<[Part]>,
        track: u32,
        levels: Box<[u8]>,
        level: IReg,
        site: u32,
    },
    /// `decide name from list`: an item of the list in `list` (type `elem`), into `dst`;
    /// an empty list is the rule error `NoOptions` at `site`. A decider answering by name
    /// is given each option's name (`eval::option_label`).
    DecideFrom {
        dst: Part,
        name: &'static str,
        list: VReg,
        elem: Box<Ty>,
        site: u32,
    },
    /// A roll on die table `table` (`eval::table_roll_faces`: the table's die, or a die
    /// over the faces whose rows are in the list in `among`, chosen from the table's
    /// `segments`, `eval::die_segments` found once), its steps charged by the roll, the
    /// row read (`eval::lookup`) and traced as a lookup at `site`.
    RollTable {
        dst: Part,
        table: u32,
        among: Option<(VReg, Box<Segments>)>,
        site: u32,
    },
    /// A roll whose faces are read later (`faces(r)`): of the dice held in `held`, or of
    /// `spec`; its steps charged by the roll (`eval::dice_steps`), rolled by
    /// `dice::roll_faces`, the faces into `faces`.
    RollFaces {
        total: IReg,
        natural: IReg,
        faces: VReg,
        held: Option<VReg>,
        spec: DiceSpec,
        site: u32,
    },
    /// `faces(r)`, `kept(r)`, `dropped(r)` of the faces in `faces` (`eval::expr::faces_of`).
    FacesOf {
        dst: VReg,
        faces: VReg,
        part: crate::ir::FacesPart,
    },
    /// Rolls the dice held in `dice` (known only when the run comes to them), charged a
    /// step per die past the first (`eval::dice_steps`), as `rolls::known` rolls them.
    RollHeld {
        total: IReg,
        natural: IReg,
        dice: VReg,
        site: u32,
    },
    /// `dice * n` (`DiceSpec::times`, the one rule: a rule error at `site` past the dice a
    /// roll may have; `None` where the checker proved the count inside:
    /// `ir::ExprKind::DiceTimes`).
    DiceTimes {
        dst: VReg,
        dice: VReg,
        n: IReg,
        site: Option<u32>,
    },
    /// A new outcome of tag `tag` with its fields.
    Outcome {
        dst: VReg,
        tag: u16,
        fields: Box<[Part]>,
    },
    Jump(u32),
    JumpIfNot {
        cond: IReg,
        to: u32,
    },
    JumpIf {
        cond: IReg,
        to: u32,
    },
    /// Jumps when `a op b` does not hold (an untraced `if` on a comparison).
    JumpUnless {
        op: CmpOp,
        a: IReg,
        b: IReg,
        to: u32,
    },
    /// [`Inst::JumpUnless`] with a constant second operand.
    JumpUnlessImm {
        op: CmpOp,
        a: IReg,
        b: i64,
        to: u32,
    },
    /// The procedure was entered (`TraceEvent::Call`).
    TraceCall {
        site: u32,
    },
    /// A value was bound (`TraceEvent::Assign`).
    TraceAssign {
        site: u32,
        value: Part,
        ty: Box<Ty>,
    },
    /// A `match` arm was taken for `value` (`TraceEvent::Match`).
    TraceMatch {
        site: u32,
        value: Part,
        ty: Box<Ty>,
    },
    /// A branch was tested (`TraceEvent::Branch`).
    TraceBranch {
        site: u32,
        cond: IReg,
    },
    /// Returns `value`, traced at `site`.
    Return {
        value: Part,
        ty: Box<Ty>,
        site: u32,
    },
    /// Item `idx` (inside the list: lowering loops below its length) of the list in
    /// `list` into `dst`, a copy charged nothing: `first`/`index_of`'s binding and found
    /// item.
    Nth {
        dst: Part,
        list: VReg,
        idx: IReg,
    },
    /// The items of the list in `items` (taken), each with the `n` keys pushed for it in
    /// order into the list in `keys`, ordered by `eval::ordered`: `sort`'s list (`best`
    /// `None`), `min_by`/`max_by`'s item.
    Order {
        dst: VReg,
        items: VReg,
        keys: VReg,
        n: u32,
        best: Option<bool>,
    },
    /// `table[key, column]` (or `table[key]` of a table that [`Inst::Lookup`] does not
    /// read): `eval::look_up`; a key no row holds (and no default) is
    /// a rule error at `site`. Traced when the function is.
    LookupCell {
        dst: Part,
        table: u32,
        key: Part,
        column: Option<Part>,
        site: u32,
    },
    /// Of the map in `map`: with a `key`, the value at it of a sorted map (a map keyed by
    /// numbers, truths or records; `eval::expr::sorted_get`); without, the map's keys
    /// (`eval::expr::keys_of`). Charged the steps its rule gives.
    MapOf {
        dst: Part,
        map: VReg,
        key: Option<Part>,
    },
    // The VM's own instructions, below: each stands in a function's plain code
    // ([`Func::plain`], which no printer reads) for the pair of instructions starting
    // where it stands, written there by the VM's pass over that code (`vm/fuse.rs`): it
    // does what the two do, in their order, then goes on after the second, which stays
    // in place for a jump landing on it. So the code keeps its length and its jumps'
    // targets, and lowering's code is never changed but at the first of such a pair.
    /// [`Inst::Field`] into `tmp`, then [`Inst::Arith`] `dst = a op tmp` (`a` is not
    /// `tmp`).
    FieldArith {
        op: crate::ir::IntOp,
        dst: IReg,
        a: IReg,
        rec: VReg,
        field: u32,
        tmp: IReg,
    },
    /// [`Inst::Step`]`(n)`, then [`Inst::JumpUnless`].
    StepJumpUnless {
        n: u32,
        op: CmpOp,
        a: IReg,
        b: IReg,
        to: u32,
    },
    /// [`Inst::Step`]`(n)`, then [`Inst::JumpUnlessImm`].
    StepJumpUnlessImm {
        n: u32,
        op: CmpOp,
        a: IReg,
        b: i64,
        to: u32,
    },
    /// [`Inst::Step`]`(n)`, then [`Inst::JumpIfNot`].
    StepJumpIfNot {
        n: u32,
        cond: IReg,
        to: u32,
    },
    /// [`Inst::Step`]`(n)`, then [`Inst::Roll`] (untraced: plain code is).
    StepRoll {
        n: u32,
        total: IReg,
        natural: IReg,
        shape: rolls::Shape,
        spec: DiceSpec,
        site: u32,
    },
    /// [`Inst::Step`]`(n)`, then [`Inst::Return`] of `value` (untraced: plain code is).
    StepReturn {
        n: u32,
        value: Part,
    },
    /// [`Inst::Step`]`(n)`, then [`Inst::Site`]`(at)` (the steps charged at the site in
    /// force before it).
    StepSite {
        n: u32,
        at: u32,
    },
    /// [`Inst::NextBox`] into `dst`, then [`Inst::BoxPart`] `part` of that box into
    /// `part_dst`.
    NextBoxPart {
        bits: IReg,
        dst: VReg,
        track: u32,
        part_dst: Part,
        part: crate::ir::BoxPart,
    },
    /// [`Inst::Move`], then [`Inst::JumpIfNot`] on the register it wrote.
    MoveJumpIfNot {
        dst: IReg,
        src: IReg,
        to: u32,
    },
    /// [`Inst::Move`], then [`Inst::JumpIf`] on the register it wrote.
    MoveJumpIf {
        dst: IReg,
        src: IReg,
        to: u32,
    },
    /// A step of a run tracing formulas too (`--trace-formulas`: `TraceEvent::Step` at
    /// `site`, emitted only then): `text` on `line`, and what [`Shown`] gives.
    TraceStep {
        site: u32,
        line: u32,
        text: Box<str>,
        shown: Shown,
    },
}

/// A step of a path into a constant ([`Inst::RowRead`]).
#[derive(Debug, Clone, Copy)]
pub enum Proj {
    /// A record's field.
    Field(u32),
    /// A map's entry at the level or variant in the register (a map keyed by a scale or
    /// enum).
    Entry(IReg),
}

/// The value of a formula's traced step ([`Inst::TraceStep`]).
#[derive(Debug)]
pub enum Shown {
    /// A parameter's value, shown as its type shows it.
    Value(Part, Box<Ty>),
    /// A parameter with parts, named by its type (`a Fighter`), found at lowering.
    Text(Box<str>),
    /// An `if .. then .. else`'s condition: `yes` or `no`.
    Taken(IReg),
}

/// A register an instruction names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reg {
    Int(IReg),
    Val(VReg),
}

/// What an `i64` register an instruction names holds, as far as the instruction says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Int,
    Bool,
    Level,
    Fighter,
    Side,
    /// The instruction does not say (a constant, a move, a field read).
    Any,
}

/// How an instruction uses a register it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// Read and changed in place: a list pushed to, a record assigned through, a set of
    /// boxes a box is taken out of.
    Change,
}

impl Part {
    /// Each register this value is held in, in order (a roll's total, then its natural
    /// face).
    pub fn regs(self, f: &mut dyn FnMut(Reg, Class)) {
        match self {
            Part::Int(r) => f(Reg::Int(r), Class::Int),
            Part::Bool(r) => f(Reg::Int(r), Class::Bool),
            Part::Level(r) => f(Reg::Int(r), Class::Level),
            Part::Fighter(r) => f(Reg::Int(r), Class::Fighter),
            Part::Side(r) => f(Reg::Int(r), Class::Side),
            Part::Roll { total, natural } => {
                f(Reg::Int(total), Class::Int);
                f(Reg::Int(natural), Class::Int);
            }
            Part::Val(v) => f(Reg::Val(v), Class::Any),
            Part::Unit => {}
        }
    }
}

impl Inst {
    /// Each register the instruction names and how it uses it: what it reads (and
    /// changes) first, in the order of its fields, then what it writes. The one list of
    /// every instruction's operands, for the passes that read code rather than run it.
    pub fn regs(&self, f: &mut dyn FnMut(Reg, Access)) {
        self.operands(&mut |r, a, _| f(r, a));
    }

    /// [`Self::regs`], with what an `i64` register holds where the instruction says it
    /// ([`Class::Any`] where it does not: a field read, a constant, a move).
    pub fn operands(&self, f: &mut dyn FnMut(Reg, Access, Class)) {
        use Access::{Change, Read, Write};
        use Class as C;
        type Visit<'a> = &'a mut dyn FnMut(Reg, Access, Class);
        let read = |p: Part, f: Visit| p.regs(&mut |r, c| f(r, Read, c));
        let write = |p: Part, f: Visit| p.regs(&mut |r, c| f(r, Write, c));
        let i = |r: IReg| Reg::Int(r);
        let v = |r: VReg| Reg::Val(r);
        match self {
            Inst::Step(_)
            | Inst::Site(_)
            | Inst::StepSite { .. }
            | Inst::Stop
            | Inst::Jump(_)
            | Inst::TraceCall { .. } => {}
            Inst::Const { dst, .. } => f(i(*dst), Write, C::Any),
            Inst::ConstVal { dst, .. } | Inst::NewList { dst, .. } => f(v(*dst), Write, C::Any),
            Inst::Combatant { dst, who } => {
                f(i(*who), Read, C::Any);
                f(v(*dst), Write, C::Any);
            }
            Inst::FightQuery { arg, dst, .. } => {
                if let Some(a) = arg {
                    read(*a, f);
                }
                write(*dst, f);
            }
            Inst::CombatantField { dst, who, .. } => {
                f(i(*who), Read, C::Any);
                f(i(*dst), Write, C::Any);
            }
            Inst::FightCount { arg, dst, .. } => {
                read(*arg, f);
                f(i(*dst), Write, C::Any);
            }
            Inst::Schedule { operand, args, .. } => {
                operand
                    .iter()
                    .chain(args.iter())
                    .for_each(|r| f(i(*r), Read, C::Any));
            }
            Inst::Advance { amount } => f(i(*amount), Read, C::Any),
            Inst::InRange { x: r, .. } => f(i(*r), Read, C::Int),
            Inst::TraceBranch { cond: r, .. } => f(i(*r), Read, C::Bool),
            Inst::JumpIfNot { cond, .. } | Inst::JumpIf { cond, .. } => f(i(*cond), Read, C::Bool),
            Inst::JumpUnless { a, b, .. } | Inst::RangeRoom { lo: a, hi: b, .. } => {
                f(i(*a), Read, C::Any);
                f(i(*b), Read, C::Any);
            }
            Inst::JumpUnlessImm { a, .. } => f(i(*a), Read, C::Any),
            Inst::Detach { dst, src }
            | Inst::FieldVal { dst, rec: src, .. }
            | Inst::Filled {
                dst, track: src, ..
            }
            | Inst::FacesOf {
                dst, faces: src, ..
            }
            | Inst::MoveVal { dst, src, .. }
            | Inst::CopyVal { dst, src, .. } => {
                f(v(*src), Read, C::Any);
                f(v(*dst), Write, C::Any);
            }
            Inst::Move { dst, src } | Inst::InImm { dst, x: src, .. } => {
                f(i(*src), Read, C::Any);
                f(i(*dst), Write, C::Any);
            }
            Inst::ItemImm { dst, idx, .. } => {
                f(i(*idx), Read, C::Int);
                f(i(*dst), Write, C::Any);
            }
            Inst::Neg { dst, a } | Inst::Abs { dst, a } | Inst::ArithImm { dst, a, .. } => {
                f(i(*a), Read, C::Int);
                f(i(*dst), Write, C::Int);
            }
            Inst::Not { dst, a } => {
                f(i(*a), Read, C::Bool);
                f(i(*dst), Write, C::Bool);
            }
            Inst::CompareImm { dst, a, .. } => {
                f(i(*a), Read, C::Any);
                f(i(*dst), Write, C::Bool);
            }
            Inst::Field { dst, rec, .. }
            | Inst::Len { dst, list: rec }
            | Inst::FilledBits {
                dst, track: rec, ..
            }
            | Inst::IsSome { dst, src: rec }
            | Inst::Tag { dst, src: rec } => {
                f(v(*rec), Read, C::Any);
                f(i(*dst), Write, C::Any);
            }
            Inst::Arith { dst, a, b, .. } | Inst::CheckedDiv { dst, a, b, .. } => {
                f(i(*a), Read, C::Int);
                f(i(*b), Read, C::Int);
                f(i(*dst), Write, C::Int);
            }
            Inst::Pick { dst, a, b, .. } => {
                f(i(*a), Read, C::Any);
                f(i(*b), Read, C::Any);
                f(i(*dst), Write, C::Any);
            }
            Inst::Compare { dst, a, b, .. } => {
                f(i(*a), Read, C::Any);
                f(i(*b), Read, C::Any);
                f(i(*dst), Write, C::Bool);
            }
            Inst::LevelStep {
                dst, level, delta, ..
            } => {
                f(i(*level), Read, C::Level);
                f(i(*delta), Read, C::Int);
                f(i(*dst), Write, C::Level);
            }
            Inst::Clamp { dst, x, lo, hi } => {
                [x, lo, hi].into_iter().for_each(|r| f(i(*r), Read, C::Any));
                f(i(*dst), Write, C::Any);
            }
            Inst::Assign {
                place,
                keys,
                value,
                out,
                ..
            } => {
                f(v(place.root as VReg), Change, C::Any);
                keys.iter().for_each(|k| read(*k, f));
                read(*value, f);
                if let Some(o) = out {
                    write(*o, f);
                }
            }
            Inst::Fill {
                dst,
                place,
                keys,
                level,
                ..
            } => {
                f(v(place.root as VReg), Change, C::Any);
                keys.iter().for_each(|k| read(*k, f));
                f(i(*level), Read, C::Any);
                f(i(*dst), Write, C::Any);
            }
            Inst::Item { dst, list, idx, .. }
            | Inst::ListGet { dst, list, idx, .. }
            | Inst::Nth { dst, list, idx } => {
                f(v(*list), Read, C::Any);
                f(i(*idx), Read, C::Any);
                write(*dst, f);
            }
            Inst::MapGet { dst, map, key } => {
                f(v(*map), Read, C::Any);
                f(i(*key), Read, C::Any);
                write(*dst, f);
            }
            Inst::Record { dst, fields } | Inst::Outcome { dst, fields, .. } => {
                fields.iter().for_each(|x| read(*x, f));
                f(v(*dst), Write, C::Any);
            }
            Inst::NextBox { bits, dst, .. } => {
                f(i(*bits), Change, C::Any);
                f(v(*dst), Write, C::Any);
            }
            Inst::BoxPart { dst, src, .. }
            | Inst::Unwrap { dst, src }
            | Inst::OutcomeField { dst, src, .. }
            | Inst::DecideFrom { dst, list: src, .. } => {
                f(v(*src), Read, C::Any);
                write(*dst, f);
            }
            Inst::Wrap { dst, src } => {
                read(*src, f);
                f(v(*dst), Write, C::Any);
            }
            Inst::Push { list, value } => {
                read(*value, f);
                f(v(*list), Change, C::Any);
            }
            Inst::In { dst, x, list } => {
                read(*x, f);
                f(v(*list), Read, C::Any);
                f(i(*dst), Write, C::Any);
            }
            Inst::LookupDense { dst, key, .. } => {
                read(*key, f);
                f(i(*dst), Write, C::Any);
            }
            Inst::RowRead { dst, key, path, .. } => {
                read(*key, f);
                for p in path.iter() {
                    if let Proj::Entry(r) = p {
                        f(i(*r), Read, C::Any);
                    }
                }
                write(*dst, f);
            }
            Inst::Lookup { dst, key, .. } => {
                read(*key, f);
                write(*dst, f);
            }
            Inst::LookupCell {
                dst, key, column, ..
            } => {
                read(*key, f);
                if let Some(c) = column {
                    read(*c, f);
                }
                write(*dst, f);
            }
            Inst::MapOf { dst, map, key } => {
                f(v(*map), Read, C::Any);
                if let Some(k) = key {
                    read(*k, f);
                }
                write(*dst, f);
            }
            Inst::Call {
                ints, vals, ret, ..
            } => {
                ints.iter().for_each(|(_, from)| f(i(*from), Read, C::Any));
                vals.iter()
                    .for_each(|(_, from, _)| f(v(*from), Read, C::Any));
                write(*ret, f);
            }
            Inst::Decide { dst, .. } => f(i(*dst), Write, C::Any),
            Inst::Roll { total, natural, .. } => {
                f(i(*total), Write, C::Any);
                f(i(*natural), Write, C::Any);
            }
            Inst::RollTable { dst, among, .. } => {
                if let Some((l, _)) = among {
                    f(v(*l), Read, C::Any);
                }
                write(*dst, f);
            }
            Inst::RollFaces {
                total,
                natural,
                faces,
                held,
                ..
            } => {
                if let Some(h) = held {
                    f(v(*h), Read, C::Any);
                }
                f(i(*total), Write, C::Any);
                f(i(*natural), Write, C::Any);
                f(v(*faces), Write, C::Any);
            }
            Inst::RollHeld {
                total,
                natural,
                dice,
                ..
            } => {
                f(v(*dice), Read, C::Any);
                f(i(*total), Write, C::Any);
                f(i(*natural), Write, C::Any);
            }
            Inst::DiceTimes { dst, dice, n, .. } => {
                f(v(*dice), Read, C::Any);
                f(i(*n), Read, C::Any);
                f(v(*dst), Write, C::Any);
            }
            Inst::TraceAssign { value, .. }
            | Inst::TraceMatch { value, .. }
            | Inst::Return { value, .. } => read(*value, f),
            Inst::Order {
                dst, items, keys, ..
            } => {
                f(v(*items), Read, C::Any);
                f(v(*keys), Read, C::Any);
                f(v(*dst), Write, C::Any);
            }
            Inst::FieldArith {
                dst, a, rec, tmp, ..
            } => {
                f(v(*rec), Read, C::Any);
                f(i(*a), Read, C::Int);
                f(i(*tmp), Write, C::Any);
                f(i(*dst), Write, C::Int);
            }
            Inst::StepJumpUnless { a, b, .. } => {
                f(i(*a), Read, C::Any);
                f(i(*b), Read, C::Any);
            }
            Inst::StepJumpUnlessImm { a, .. } => f(i(*a), Read, C::Any),
            Inst::StepJumpIfNot { cond, .. } => f(i(*cond), Read, C::Bool),
            Inst::StepRoll { total, natural, .. } => {
                f(i(*total), Write, C::Any);
                f(i(*natural), Write, C::Any);
            }
            Inst::StepReturn { value, .. } => read(*value, f),
            Inst::NextBoxPart {
                bits,
                dst,
                part_dst,
                ..
            } => {
                f(i(*bits), Change, C::Any);
                f(v(*dst), Write, C::Any);
                write(*part_dst, f);
            }
            Inst::MoveJumpIfNot { dst, src, .. } | Inst::MoveJumpIf { dst, src, .. } => {
                f(i(*src), Read, C::Any);
                f(i(*dst), Write, C::Bool);
            }
            Inst::TraceStep { shown, .. } => match shown {
                Shown::Value(p, _) => read(*p, f),
                Shown::Taken(r) => f(i(*r), Read, C::Any),
                Shown::Text(_) => {}
            },
        }
    }
}
