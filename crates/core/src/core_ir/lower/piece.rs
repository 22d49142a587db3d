//! Pieces: one statement, run of statements or expression of a function lowered alone,
//! for the merged engine (`analyze::engine`), which runs a procedure a statement at a
//! time (or a fast segment, a run of statements, at a time) over distributions of frames
//! and merges equal frames between them.
//!
//! A piece's parameters are the frame's locals bound when it starts; what it leaves
//! behind is read back from their registers. It runs as `eval::exec_in`/`eval_in` run a
//! statement or expression: no step for the statement itself (the block's), no stop
//! before it, untraced.

use super::{Callees, Form, Lower};
use crate::core_ir::code::{Func, IReg, Inst, Part};
use crate::ir::{Expr, ExprKind as K, Local, Program, Stmt, Ty};

/// What a piece is of.
#[derive(Clone, Copy)]
pub enum Of<'a> {
    Stmt(&'a Stmt),
    /// Statements run one after another (a fast segment, `analyze::plan::Segment`).
    Block(&'a [Stmt]),
    Expr(&'a Expr),
}

/// A statement or expression lowered alone ([`piece`]).
#[derive(Debug)]
pub struct Piece {
    /// Its code, with one parameter per local of [`Piece::entry`].
    pub func: Func,
    /// The locals it names that are bound when it starts, in the order of `func`'s
    /// parameters.
    pub entry: Vec<usize>,
    /// Per form (full, plain): where each local it leaves bound is held at its end: the
    /// locals bound at its start, and those a `let` binds.
    pub out: [Vec<(usize, Part)>; 2],
    /// Per form, a statement's: the register its normal end sets to 1 (a `return` leaves
    /// it 0).
    pub done: [Option<IReg>; 2],
    /// How many `i64` registers it uses (the first ones of its frame), in either form.
    pub ints: usize,
}

/// `of`, a statement or expression of function `fid`, lowered alone with the locals
/// `entry` bound (the slots it names that are bound when it starts; past the function's
/// locals, `tmp` gives a slot the engine holds and its type), calling the functions of
/// `funcs`. Every piece of a function that lowered lowers ([`super::ROOM`]).
pub fn piece(
    p: &Program,
    funcs: &[Option<Func>],
    fid: usize,
    of: Of<'_>,
    entry: &[usize],
    tmp: Option<(usize, &Ty)>,
) -> Piece {
    let f = &p.functions[fid];
    let mut locals: Vec<Local> = f.locals.clone();
    if let Some((slot, ty)) = tmp {
        locals.resize_with(slot + 1, || Local {
            name: String::new(),
            ty: Ty::Unit,
        });
        locals[slot].ty = ty.clone();
    }
    let full = form(p, funcs, fid, of, entry, &locals, Form::Full);
    let plain = form(p, funcs, fid, of, entry, &locals, Form::Plain);
    debug_assert_eq!(full.params, plain.params);
    Piece {
        func: Func {
            params: full.params,
            vals: full.vals.max(plain.vals),
            traced: false,
            site: f.site,
            code: full.code,
            // A piece is run, never printed.
            allocs: Vec::new(),
            lets: Vec::new(),
            plain: plain.code,
        },
        entry: entry.to_vec(),
        out: [full.out, plain.out],
        done: [full.done, plain.done],
        ints: full.ints.max(plain.ints),
    }
}

impl Piece {
    /// The registers holding local `slot` after a normal end of the form `form` (full 0,
    /// plain 1): a local it was given or one a `let` of its own bound.
    pub fn out_part(&self, form: usize, slot: usize) -> Part {
        match self.out[form].iter().find(|(s, _)| *s == slot) {
            Some((_, part)) => *part,
            None => unreachable!("a piece leaves bound the locals it bound or was given"),
        }
    }

    /// The dice and site of its first roll of constant dice (a one-roll fast segment's
    /// roll, which [`crate::core_ir::Lanes`] runs over).
    pub fn the_roll(&self) -> Option<(rulesc_runtime::DiceSpec, u32)> {
        self.func.plain.iter().find_map(|i| match i {
            Inst::Roll { spec, site, .. } => Some((*spec, *site)),
            _ => None,
        })
    }
}

/// What lowering a piece meets: never a function without room, since the piece's own
/// function and every function it calls lowered.
fn fits<T>(lowered: super::Lowered<T>) -> T {
    lowered.unwrap_or_else(|super::NoRoom| {
        unreachable!("a piece calls what its function calls, and that function lowered")
    })
}

/// One form of a piece.
struct Lowered {
    params: Vec<Part>,
    vals: u32,
    code: Vec<Inst>,
    out: Vec<(usize, Part)>,
    done: Option<IReg>,
    ints: usize,
}

fn form(
    p: &Program,
    funcs: &[Option<Func>],
    fid: usize,
    of: Of<'_>,
    entry: &[usize],
    locals: &[Local],
    form: Form,
) -> Lowered {
    let f = &p.functions[fid];
    // Untraced, as the engine runs it: its trace points never run.
    let mut l = Lower::new(p, Callees::Lowered(funcs), locals, f, form, false);
    let mut params = Vec::new();
    for &slot in entry {
        let part = fits(l.fresh(&locals[slot].ty));
        l.slots[slot] = Some(part);
        params.push(part);
    }
    let done = match of {
        Of::Stmt(_) | Of::Block(_) => {
            let done = l.int();
            l.code.push(Inst::Const {
                dst: done,
                value: 0,
            });
            match of {
                Of::Block(stmts) => fits(l.block(stmts)),
                Of::Stmt(s) => fits(l.stmt(s)),
                Of::Expr(_) => unreachable!("matched above"),
            }
            l.flush();
            l.code.push(Inst::Const {
                dst: done,
                value: 1,
            });
            l.code.push(Inst::Return {
                value: Part::Unit,
                ty: Box::new(Ty::Unit),
                site: f.site,
            });
            Some(done)
        }
        Of::Expr(e) => {
            let v = fits(l.expr(e));
            l.flush();
            l.code.push(Inst::Return {
                value: v,
                ty: Box::new(e.ty.clone()),
                site: f.site,
            });
            None
        }
    };
    assert!(
        l.ints as usize <= crate::core_ir::code::FRAME,
        "a piece needs at most one register more than its function ({})",
        super::ROOM
    );
    // What it leaves bound: a statement's, the locals bound at its start, and a `let`'s
    // local with the dice its roll keeps (every other local it binds is scoped inside
    // it); an expression's, nothing (it assigns no local, and a record a call changes is
    // the frame's own).
    // A run of statements leaves what each of its own statements leaves.
    let mut out_slots = Vec::new();
    let top: &[Stmt] = match of {
        Of::Stmt(s) => std::slice::from_ref(s),
        Of::Block(stmts) => stmts,
        Of::Expr(_) => &[],
    };
    if !matches!(of, Of::Expr(_)) {
        out_slots.extend_from_slice(entry);
    }
    for s in top {
        if let Stmt::Let { slot, value, .. } = s {
            out_slots.push(*slot);
            kept_dice(value, &mut out_slots);
        }
    }
    out_slots.sort_unstable();
    out_slots.dedup();
    let out = out_slots
        .into_iter()
        .map(|slot| {
            let part = l.slots[slot].unwrap_or_else(|| {
                unreachable!("a piece leaves bound what it was given and what its `let`s bind")
            });
            (slot, part)
        })
        .collect();
    Lowered {
        params,
        vals: l.vals,
        code: l.code,
        out,
        done,
        ints: l.ints as usize,
    }
}

/// The locals the rolls in `e` keep their dice in.
fn kept_dice(e: &Expr, out: &mut Vec<usize>) {
    if let K::Roll {
        faces: Some(fs), ..
    } = e.kind
    {
        out.push(fs);
    }
    crate::ir::walk::for_each_child(e, &mut |x| kept_dice(x, out));
}

/// The locals `of` names (read, written or bound, the hidden ones of kept dice too), in
/// slot order: what a piece of it may bind ([`piece`]).
pub fn named(of: Of<'_>) -> Vec<usize> {
    let mut out = std::collections::HashSet::new();
    match of {
        Of::Stmt(s) => crate::ir::walk::stmt_locals(s, true, &mut out),
        Of::Block(stmts) => {
            for s in stmts {
                crate::ir::walk::stmt_locals(s, true, &mut out);
            }
        }
        Of::Expr(e) => crate::ir::walk::expr_locals(e, true, &mut out),
    }
    let mut out: Vec<usize> = out.into_iter().collect();
    out.sort_unstable();
    out
}
