//! The core IR (issue 25; the plan is `docs/design/core-ir.md`): a function lowered once
//! from the checked program into typed registers and explicit steps, trace points and
//! rule errors, which one VM ([`vm`]) runs. What every backend used to restate (when a
//! step is charged, which trace event fires, how a roll's total is shifted) is decided
//! here, in [`lower`], once.
//!
//! Every function of a checked program lowers: each node of the language has its
//! lowering, and a case the checker excludes is `unreachable!` with the checker's rule
//! (`tests/coverage.rs` asserts it of every function outside a fight of every ruleset
//! shipped or loaded by the tests, `fights.rs` of every function of the shipped
//! rulesets). A function holding more `i64` values at once than a frame has registers
//! (`code::FRAME`; a statement's temporaries are given back when it ends) is the
//! checker's E0363 ([`check_room`], the last check, which lowers the program).
//!
//! The VM is the interpreter's one evaluator: `eval::call` and `eval::call_in` run every
//! function on it (in a fight too; formulas traced too with `--trace-formulas`), so the
//! interpreter's differential and fight tests hold it to generated code. In a fight the
//! VM asks the fight's own rules (`crate::fight`'s [`InFight`](crate::fight::InFight):
//! `out` remembered in a calm, allies and enemies, `in_order`, timers set; [`vm`]'s
//! `fight` module). Analyze's merged engine runs a statement or expression alone on the
//! VM ([`run_piece`], `lower/piece.rs`), its frame's locals as the piece's registers, and
//! its fast segments over roll paths ([`Rerun`]) and over lanes ([`Lanes`]).

mod code;
mod lower;
pub mod shape;
#[cfg(test)]
mod tests;
pub mod vm;

pub use code::{Access, Class, Func, Inst, Kind, Let, Part, Reg};
pub use lower::piece::Of;
pub use vm::{Lanes, Left, Rerun};

use crate::eval::Value;
use crate::ir::{Program, Ty};
pub use lower::piece::Piece;
use rulesc_runtime::{Decide, DiceSource, Env, RuleError, TraceSink};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Every function of a program that lowers, by id (`None`: it needs more `i64`
/// registers at once than a frame has, or calls one that does: [`Module::too_big`]).
pub struct Module {
    pub functions: Vec<Option<Func>>,
    /// The functions that need more `i64` registers at once than a frame has, each with
    /// how many: the checker's E0363 (a function calling one of them does not lower
    /// either, and is not listed).
    pub too_big: Vec<(usize, u32)>,
    /// The pieces the merged engine ran, lowered on first use ([`run_piece`]), by what
    /// they are of: the address of the statement or expression in the program (which
    /// does not change once checked) and what the engine makes of it.
    pieces: Mutex<HashMap<(usize, u8), Pieces>>,
}

/// The pieces of one statement or expression.
struct Pieces {
    /// The locals it names.
    named: Vec<usize>,
    /// Its pieces by which of them are bound when it starts.
    lowered: Vec<(Vec<bool>, Arc<Piece>)>,
}

/// What the merged engine runs as one piece ([`run_piece`]).
#[derive(Clone, Copy)]
pub struct PieceOf<'a> {
    of: Of<'a>,
    key: (usize, u8),
    /// A slot past the function's locals the piece reads, and its type.
    tmp: Option<(usize, &'a Ty)>,
}

impl<'a> PieceOf<'a> {
    pub fn stmt(s: &'a crate::ir::Stmt) -> Self {
        PieceOf {
            of: Of::Stmt(s),
            key: (std::ptr::from_ref(s) as usize, 0),
            tmp: None,
        }
    }

    /// A run of statements (not empty), known by its first.
    pub fn block(stmts: &'a [crate::ir::Stmt]) -> Self {
        PieceOf {
            of: Of::Block(stmts),
            key: (stmts.as_ptr() as usize, 3),
            tmp: None,
        }
    }

    pub fn expr(e: &'a crate::ir::Expr) -> Self {
        PieceOf {
            of: Of::Expr(e),
            key: (std::ptr::from_ref(e) as usize, 1),
            tmp: None,
        }
    }

    /// `made`, a statement the engine makes for statement `of` of the program (an
    /// assignment of a call's result, kept in slot `tmp` of type `ty`): known by `of`.
    pub fn made(
        of: &'a crate::ir::Stmt,
        made: &'a crate::ir::Stmt,
        tmp: usize,
        ty: &'a Ty,
    ) -> Self {
        PieceOf {
            of: Of::Stmt(made),
            key: (std::ptr::from_ref(of) as usize, 2),
            tmp: Some((tmp, ty)),
        }
    }
}

/// Runs `what`, a statement or expression of function `fid`, in the frame `locals` on
/// the VM, untraced: `Some(value)` for an expression's value or a statement's `return`,
/// `None` for a statement's normal end.
pub fn run_piece<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    fid: usize,
    what: PieceOf<'_>,
    env: &mut Env<D, X, T>,
    locals: &mut [Value],
) -> Result<Option<Value>, RuleError> {
    let piece = piece_for(p, fid, what, locals);
    run_lowered(p, &piece, env, locals)
}

/// `what`, of function `fid`, lowered for a frame binding the locals `locals` binds (a
/// slot holding [`Value::Unit`] is unbound): lowered on first use and kept with the
/// module.
pub fn piece_for(p: &Program, fid: usize, what: PieceOf<'_>, locals: &[Value]) -> Arc<Piece> {
    let module = module(p);
    let bound = |slot: usize| !matches!(locals.get(slot), None | Some(Value::Unit));
    let mut all = module.pieces.lock().unwrap_or_else(|e| e.into_inner());
    let pieces = all.entry(what.key).or_insert_with(|| Pieces {
        named: lower::piece::named(what.of),
        lowered: Vec::new(),
    });
    let here = |pat: &[bool]| pat.iter().zip(&pieces.named).all(|(b, s)| *b == bound(*s));
    match pieces.lowered.iter().find(|(pat, _)| here(pat)) {
        Some((_, piece)) => piece.clone(),
        None => {
            let pat: Vec<bool> = pieces.named.iter().map(|s| bound(*s)).collect();
            let entry: Vec<usize> = (pieces.named.iter().zip(&pat))
                .filter_map(|(s, b)| b.then_some(*s))
                .collect();
            let piece = lower::piece::piece(p, &module.functions, fid, what.of, &entry, what.tmp);
            let piece = Arc::new(piece);
            pieces.lowered.push((pat, piece.clone()));
            piece
        }
    }
}

/// Runs `piece` (from [`piece_for`]) in the frame `locals`, as [`run_piece`] does: the
/// frame must bind the locals it was lowered for.
pub fn run_lowered<D: DiceSource, X: Decide, T: TraceSink>(
    p: &Program,
    piece: &Piece,
    env: &mut Env<D, X, T>,
    locals: &mut [Value],
) -> Result<Option<Value>, RuleError> {
    vm::run_piece(p, module(p), piece, env, locals)
}

impl Module {
    /// Function `id` lowered, if it lowered (the tests' question).
    #[cfg(test)]
    pub fn func(&self, id: usize) -> Option<&Func> {
        self.functions.get(id)?.as_ref()
    }
}

/// `p` lowered, on its first run (kept with the program: [`Program::compiled`]).
pub fn module(p: &Program) -> &Module {
    p.compiled
        .get_or_init(|| lower(p))
        .expect("a program keeps only its lowered module")
}

/// E0363 for each function of `p` that needs more numbers at once than a frame of the
/// VM holds: the last check of a program, made by lowering it (kept with the program, so
/// a run after the check lowers nothing again). Every other function lowers.
pub fn check_room(p: &Program, diags: &mut crate::diag::Diagnostics) {
    for &(id, need) in &module(p).too_big {
        let f = &p.functions[id];
        // The declaration's first line (its name and parameters), not the whole body.
        let text = &p.sources.file(f.span.file).text;
        let first = text
            .get(f.span.start as usize..f.span.end as usize)
            .and_then(|t| t.find('\n'))
            .map_or(f.span.end, |n| f.span.start + n as u32);
        diags.push(
            crate::diag::Diagnostic::error(
                "E0363",
                crate::source::Span { end: first, ..f.span },
                format!(
                    "`{}` holds {need} numbers at once, more than the {} a formula or procedure may hold",
                    f.name,
                    lower::ROOM
                ),
            )
            .label("declared here")
            .help("numbers, truths, levels and rolls (two each) its locals and its largest statement hold at once count: move part of its work into a formula or procedure of its own"),
        );
    }
}

/// Lowers what lowers of `p`: a function lowers when its body does and every function
/// it calls lowered (callees first; no function calls itself, the checker's invariant).
pub fn lower(p: &Program) -> Module {
    let mut done: lower::Done = (0..p.functions.len()).map(|_| None).collect();
    for id in 0..p.functions.len() {
        lower::lower_into(p, id, &mut done);
    }
    let mut too_big = Vec::new();
    let functions = (done.into_iter().enumerate())
        .map(|(id, f)| match f {
            Some(Ok(f)) => Some(f),
            Some(Err(need)) => {
                if need > 0 {
                    too_big.push((id, need));
                }
                None
            }
            None => unreachable!("every function was lowered above"),
        })
        .collect();
    Module {
        functions,
        too_big,
        pieces: Mutex::default(),
    }
}
