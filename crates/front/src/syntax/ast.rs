//! The syntax tree of `.rules` files and inline YAML formulas. Every node has a span.

use crate::source::Span;
use rulesc_runtime::DiceSpec;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    Named(Ident),
    IntRange(i64, i64),
    List(Box<TypeExpr>),
    Map(Box<TypeExpr>, Box<TypeExpr>),
    /// `T?`: a `T`, or `none`.
    Optional(Box<TypeExpr>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggKind {
    Sum,
    Max,
    Min,
    Any,
    All,
    Count,
}

/// The list operations that pick or order elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListOp {
    /// The first element where the condition holds, or `none`.
    First,
    /// Its position from 0, or `none`.
    IndexOf,
    /// The elements ordered by their keys, lowest first (equal keys keep list order).
    Sort,
    /// The element with the lowest keys (the first of equals), or `none`.
    MinBy,
    /// The element with the highest keys (the first of equals), or `none`.
    MaxBy,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DecideFrom {
    Type(TypeExpr),
    List(Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Dice(DiceSpec),
    Name(Ident),
    Field(Box<Expr>, Ident),
    Index(Box<Expr>, Box<Expr>),
    /// `table[row, column]`: a two-key table.
    Cell(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Arg>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Roll {
        target: Box<Expr>,
        among: Option<Box<Expr>>,
    },
    Decide {
        name: Ident,
        from: DecideFrom,
    },
    Fill {
        track: Box<Expr>,
        level: Box<Expr>,
    },
    Aggregate {
        kind: AggKind,
        body: Box<Expr>,
        var: Ident,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Match(Box<Expr>, Vec<Arm<Expr>>),
    /// `[a, b, c]`
    List(Vec<Expr>),
    /// `lo..hi`, where a comprehension or a list operation walks a list: the whole
    /// numbers from `lo` up to `hi - 1`.
    Range(Box<Expr>, Box<Expr>),
    /// `first(var in list if cond)`, `index_of(..)`, `sort(var in list by key, ..)`,
    /// `min_by(..)`, `max_by(..)`.
    ListOp {
        op: ListOp,
        var: Ident,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
        keys: Vec<Expr>,
    },
    /// `[body for var in list if cond]`
    Collect {
        body: Box<Expr>,
        var: Ident,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Pattern {
    Wildcard(Span),
    /// One or more alternatives, each a level, variant or outcome tag with bindings.
    Alts(Vec<(Ident, Vec<Ident>)>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Arm<B> {
    pub pattern: Pattern,
    pub body: B,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `let name = e` or `let name: Type = e`.
    Let(Ident, Option<TypeExpr>, Expr),
    Assign(Expr, AssignOp, Expr),
    If(Vec<(Expr, Block)>, Option<Block>),
    Match(Expr, Vec<Arm<Block>>),
    /// `for x in list { }`, or with an upper bound `for i in lo..hi { }`.
    For(Ident, Expr, Option<Expr>, Block),
    Return(Option<Expr>),
    Expr(Expr),
    /// `place = value until <moment>` / `place = value for 2 rounds`.
    TimedAssign(Expr, Expr, Until),
    /// `after 10 minutes: p(..)` / `at end of next turn of c: p(..)`: the call's
    /// arguments are evaluated now, the call happens then.
    Schedule(Until, Expr),
    /// `advance 10 minutes`.
    Advance(Expr, Ident),
    /// `every 3 rounds: p(..) until cond`: a timer that sets itself again each period
    /// until `cond` holds when it falls due.
    Repeat(Repeat),
}

/// `every [n] unit: call [until cond]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Repeat {
    /// The number of units (1 when not written) and where it is written.
    pub amount: i64,
    pub amount_span: Span,
    pub unit: Ident,
    pub call: Expr,
    pub until: Option<Expr>,
}

/// When a duration ends or a scheduled call happens.
#[derive(Debug, Clone, PartialEq)]
pub enum Until {
    Moment(Moment),
    /// An amount of a unit: `rounds` or a unit of the fight's `time`.
    After(Expr, Ident),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Moment {
    /// `end of ...` (else `start of ...`).
    pub end: bool,
    pub kind: MomentKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum MomentKind {
    /// `of round`: this round.
    Round,
    /// `of next round`.
    NextRound,
    /// `of turn of c` (its turn under way, else its next) / `of next turn of c`.
    Turn { next: bool, who: Box<Expr> },
}

/// The fight declaration: `fight of Combatant { ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct FightDef {
    pub combatant: Ident,
    pub clauses: Vec<FightClause>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookName {
    Start,
    RoundStart,
    RoundEnd,
    Turn,
    TurnEnd,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FightClause {
    /// `order(c) = [..]`
    Order { var: Ident, key: Expr, span: Span },
    /// `ties together` / `ties roll d6` / `ties decide name`
    Ties { rule: TiesRule, span: Span },
    /// `out(c) = ..`
    Out { var: Ident, cond: Expr, span: Span },
    /// `time second, minute = 60 second`
    Time {
        units: Vec<(Ident, Option<(i64, Ident)>)>,
        span: Span,
    },
    /// `round lasts 6 second`
    RoundLasts {
        amount: i64,
        unit: Ident,
        span: Span,
    },
    /// `on turn = take_turn`
    Hook {
        hook: HookName,
        procedure: Ident,
        span: Span,
    },
    /// `on every 10 minutes = p`
    Every {
        amount: i64,
        unit: Ident,
        procedure: Ident,
        span: Span,
    },
    /// `when(c) cond = p` (per fighter) / `when cond = p`
    When {
        var: Option<Ident>,
        cond: Expr,
        procedure: Ident,
        span: Span,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum TiesRule {
    Together,
    /// `ties at once`.
    AtOnce,
    Roll(Expr),
    Decide(Ident),
}

#[derive(Debug, Clone, PartialEq)]
pub struct TagDef {
    pub name: Ident,
    pub fields: Vec<Param>,
    /// `Tag: "display label"`: what traces print (the quotes removed), and where.
    pub label: Option<(String, Span)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Expr(Expr),
    Block(Block),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Outcome {
        name: Ident,
        tags: Vec<TagDef>,
        span: Span,
        /// Written `override outcome ...`: replaces the base ruleset's definition.
        overrides: bool,
    },
    /// A formula (`Body::Expr`) or a procedure (`Body::Block`).
    Function {
        name: Ident,
        params: Vec<Param>,
        ret: Option<TypeExpr>,
        body: Body,
        span: Span,
        /// Written `override formula ...` / `override procedure ...`.
        overrides: bool,
    },
    Fight(FightDef),
}
