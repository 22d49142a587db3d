//! Where a value lives: the local an expression reads through (`c` of `c.wounds[i]`),
//! the `let`s that name another local's record, which parameters a body changes, and
//! which types are copied rather than shared, which key a map and in what order. Both the
//! checker (what may be passed to a procedure that changes it) and the Rust backend (how
//! it is passed) read them.

use super::walk::{for_each_child, for_each_stmt, for_each_stmt_child, Child};
use super::{self as ir, Const, Expr, ExprKind as K, Program, Stmt, Ty};

/// The local an expression reads through fields (`c` of `c.armor`, of `c.wounds[i]`),
/// if any.
pub fn root_local(e: &Expr) -> Option<usize> {
    match &e.kind {
        K::Local(s) => Some(*s),
        K::Field(r, _) | K::MapGet(r, _) | K::ListGet(r, ..) => root_local(r),
        _ => None,
    }
}

/// Whether `e` is a local or fields of one (`c`, `c.mount.saddle`).
pub fn field_path(e: &Expr) -> bool {
    match &e.kind {
        K::Local(_) => true,
        K::Field(r, _) => field_path(r),
        _ => false,
    }
}

/// Follows `let` aliases to the local they name.
pub fn resolve(alias: &[Option<usize>], mut slot: usize) -> usize {
    for _ in 0..alias.len() {
        match alias.get(slot).copied().flatten() {
            Some(r) if r != slot => slot = r,
            _ => break,
        }
    }
    slot
}

/// `let` slots bound to a record read from another local's state (`let m = c.main`,
/// `let me = c`): that local.
pub fn record_aliases(stmts: &[Stmt], out: &mut [Option<usize>]) {
    for_each_stmt(stmts, &mut |s| {
        if let Stmt::Let { slot, value, .. } = s {
            if let (ir::Ty::Record(_), Some(root)) = (&value.ty, root_local(value)) {
                out[*slot] = Some(root);
            }
        }
    });
}

/// Marks the parameters whose state these statements change themselves: an assignment
/// or fill through them, or an element of theirs (`xs[i]`) passed to a procedure that
/// changes it. (Passing a whole parameter on is not counted: the callee changes it.)
pub fn changed_roots(stmts: &[Stmt], fns: &[ir::Function], out: &mut [bool]) {
    fn mark(out: &mut [bool], slot: usize) {
        if let Some(c) = out.get_mut(slot) {
            *c = true;
        }
    }
    fn expr(e: &Expr, fns: &[ir::Function], out: &mut [bool]) {
        match &e.kind {
            K::Fill { track, .. } => mark(out, track.root),
            K::Call(f, args) if fns[*f].is_procedure() => {
                for (a, p) in args.iter().zip(&fns[*f].params) {
                    if p.mutated && !field_path(a) {
                        if let Some(r) = root_local(a) {
                            mark(out, r);
                        }
                    }
                }
            }
            _ => {}
        }
        for_each_child(e, &mut |x| expr(x, fns, out));
    }
    for s in stmts {
        if let Stmt::Assign { place, .. } = s {
            if !place.path.is_empty() {
                mark(out, place.root);
            }
        }
        for_each_stmt_child(s, &mut |c| match c {
            Child::Expr(x) => expr(x, fns, out),
            Child::Block(b) => changed_roots(b, fns, out),
        });
    }
}

impl Program {
    /// Whether a value of `ty` is copied when passed (a Rust `Copy` type).
    pub fn is_copy(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Int
            | Ty::Bool
            | Ty::Dice
            | Ty::Roll
            | Ty::Choice(_)
            | Ty::Track(_)
            | Ty::TrackBox(_)
            | Ty::Fighter
            | Ty::Side
            | Ty::Unit => true,
            Ty::Map(_, v) | Ty::Option(v) => self.is_copy(v),
            Ty::Outcome(o) => self.outcome_is_copy(*o),
            Ty::Record(_) | Ty::List(_) | Ty::SortedMap(..) | Ty::Faces | Ty::Error => false,
        }
    }

    /// Whether an outcome's every field is copied (and none is an outcome).
    pub fn outcome_is_copy(&self, o: usize) -> bool {
        self.outcomes[o].tags.iter().all(|t| {
            t.fields
                .iter()
                .all(|(_, ty)| !matches!(ty, Ty::Outcome(_)) && self.is_copy(ty))
        })
    }

    /// Whether a value of `ty` holds a record (a record, or a list or outcome of them).
    pub fn holds_record(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Record(_) => true,
            Ty::List(t) | Ty::Option(t) => self.holds_record(t),
            // An outcome inside an outcome counts as one (no recursion through outcomes).
            Ty::Outcome(o) => self.outcomes[*o].tags.iter().any(|t| {
                t.fields
                    .iter()
                    .any(|(_, f)| matches!(f, Ty::Outcome(_)) || self.holds_record(f))
            }),
            _ => false,
        }
    }
}

impl Ty {
    /// Whether a `map<K, V>` may be keyed by this type without being a scale or enum: it
    /// has equality and an order the rules can state (numbers ascending, `false` before
    /// `true`, levels and variants as declared, records field by field in the order
    /// declared). Records are checked field by field by [`Program::is_key`].
    fn is_plain_key(&self) -> bool {
        matches!(self, Ty::Int | Ty::Bool | Ty::Choice(_))
    }
}

impl Program {
    /// Whether `ty` can key a `map` ([`Ty::SortedMap`] for all but scales and enums): an
    /// `int`, a `bool`, a level or variant, or a record whose fields all are such keys.
    pub fn is_key(&self, ty: &Ty) -> bool {
        self.key_depth(ty, 0)
    }

    fn key_depth(&self, ty: &Ty, depth: usize) -> bool {
        match ty {
            Ty::Record(r) if depth < 64 => self.records[*r]
                .fields
                .iter()
                .all(|f| self.key_depth(&f.ty, depth + 1)),
            t => t.is_plain_key(),
        }
    }
}

/// The order of map keys ([`Program::is_key`]): numbers ascending, `false` before `true`,
/// levels and variants as declared, records field by field.
pub fn cmp_key(a: &Const, b: &Const) -> std::cmp::Ordering {
    match (a, b) {
        (Const::Int(x), Const::Int(y)) => x.cmp(y),
        (Const::Bool(x), Const::Bool(y)) => x.cmp(y),
        (Const::Choice(x), Const::Choice(y)) => x.cmp(y),
        (Const::Record(x), Const::Record(y)) => x
            .fields
            .iter()
            .zip(&y.fields)
            .map(|(p, q)| cmp_key(p, q))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal),
        _ => std::cmp::Ordering::Equal,
    }
}
