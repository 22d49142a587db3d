//! The one walker over the IR: the direct children of an expression, and the parts of
//! a statement. Every analysis that visits a whole body (the checker's mutated
//! parameters, codegen's scans, scenario inputs) recurses through these, so a new
//! construct is walked everywhere once it is added here (as rust-analyzer keeps
//! `walk_child_exprs` beside its expression store).

use super::{At, DecideOptions, Expr, ExprKind as K, Function, Place, PlaceStep, Stmt};

/// Calls `f` on each direct child expression of `e`, in evaluation order. The keys and
/// indices of a filled track's place are children too.
pub fn for_each_child(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        K::Const(_) | K::Local(_) => {}
        K::Field(a, _)
        | K::BoxPart(a, _)
        | K::Neg(a)
        | K::Not(a)
        | K::ToInt(a)
        | K::Natural(a)
        | K::Abs(a)
        | K::Len(a)
        | K::Filled(a) => f(a),
        K::Roll { dice, .. } => f(dice),
        K::Faces { of, .. } => f(of),
        K::Some(a) | K::IsSome(a) | K::Unwrap(a) => f(a),
        K::Range(a, b, _) => {
            f(a);
            f(b)
        }
        K::Find { list, cond, .. } => {
            f(list);
            cond.iter().for_each(|x| f(x))
        }
        K::Sort {
            list, cond, keys, ..
        }
        | K::Best {
            list, cond, keys, ..
        } => {
            f(list);
            cond.iter().for_each(|x| f(x));
            keys.iter().for_each(f)
        }
        K::MapGet(a, b)
        | K::ListGet(a, b, _)
        | K::Int(_, a, b)
        | K::CheckedDiv(_, a, b, _)
        | K::Compare(_, a, b)
        | K::And(a, b)
        | K::Or(a, b)
        | K::In(a, b)
        | K::DiceTimes(a, b, _) => {
            f(a);
            f(b)
        }
        K::RollAdd { roll, delta, .. } => {
            f(roll);
            f(delta)
        }
        K::LevelStep { level, delta, .. } => {
            f(level);
            f(delta)
        }
        K::Lookup { key, column, .. } => {
            f(key);
            column.iter().for_each(|c| f(c))
        }
        K::Call(_, args) | K::Min(args) | K::Max(args) => args.iter().for_each(f),
        K::MakeOutcome { fields, .. } => fields.iter().for_each(f),
        K::Clamp(a, b, d) | K::If(a, b, d) => {
            f(a);
            f(b);
            f(d)
        }
        K::RollTable { among, .. } => among.iter().for_each(|a| f(a)),
        K::Decide { options, .. } => {
            if let DecideOptions::List(l) = options {
                f(l)
            }
        }
        K::Fill { track, level, .. } => {
            place_keys(track, f);
            f(level)
        }
        K::Aggregate {
            list, cond, body, ..
        }
        | K::Collect {
            list, cond, body, ..
        } => {
            f(list);
            cond.iter().for_each(|x| f(x));
            f(body)
        }
        K::Match { scrutinee, arms } => {
            f(scrutinee);
            arms.iter().for_each(|a| f(&a.body))
        }
        K::MakeRecord { fields: xs, .. } | K::List(xs) | K::Fight(_, xs) => xs.iter().for_each(f),
        K::Combatant(a) | K::Keys(a) => f(a),
        K::InRange { value, .. } => f(value),
    }
}

/// [`for_each_child`], mutably (rewrites of the IR: codegen's fighter copies).
pub fn for_each_child_mut(e: &mut Expr, g: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        K::Const(_) | K::Local(_) => {}
        K::Field(a, _)
        | K::BoxPart(a, _)
        | K::Neg(a)
        | K::Not(a)
        | K::ToInt(a)
        | K::Natural(a)
        | K::Abs(a)
        | K::Len(a)
        | K::Filled(a)
        | K::Combatant(a)
        | K::Keys(a) => g(a),
        K::InRange { value, .. } => g(value),
        K::Roll { dice, .. } => g(dice),
        K::Faces { of, .. } => g(of),
        K::Some(a) | K::IsSome(a) | K::Unwrap(a) => g(a),
        K::Range(a, b, _) => {
            g(a);
            g(b)
        }
        K::Find { list, cond, .. } => {
            g(list);
            cond.iter_mut().for_each(|x| g(x))
        }
        K::Sort {
            list, cond, keys, ..
        }
        | K::Best {
            list, cond, keys, ..
        } => {
            g(list);
            cond.iter_mut().for_each(|x| g(x));
            keys.iter_mut().for_each(&mut *g)
        }
        K::MapGet(a, b)
        | K::Int(_, a, b)
        | K::Compare(_, a, b)
        | K::And(a, b)
        | K::Or(a, b)
        | K::In(a, b)
        | K::DiceTimes(a, b, _)
        | K::ListGet(a, b, _)
        | K::CheckedDiv(_, a, b, _) => {
            g(a);
            g(b)
        }
        K::RollAdd {
            roll: a, delta: b, ..
        }
        | K::LevelStep {
            level: a, delta: b, ..
        } => {
            g(a);
            g(b)
        }
        K::Lookup { key, column, .. } => {
            g(key);
            column.iter_mut().for_each(|c| g(c))
        }
        K::Call(_, xs)
        | K::Min(xs)
        | K::Max(xs)
        | K::MakeOutcome { fields: xs, .. }
        | K::MakeRecord { fields: xs, .. }
        | K::List(xs)
        | K::Fight(_, xs) => xs.iter_mut().for_each(&mut *g),
        K::Clamp(a, b, d) | K::If(a, b, d) => {
            g(a);
            g(b);
            g(d)
        }
        K::RollTable { among, .. } => among.iter_mut().for_each(|a| g(a)),
        K::Decide { options, .. } => {
            if let DecideOptions::List(l) = options {
                g(l)
            }
        }
        K::Fill { track, level, .. } => {
            for st in &mut track.path {
                if let PlaceStep::Key(k) | PlaceStep::Index(k) = st {
                    g(k);
                }
            }
            g(level)
        }
        K::Aggregate {
            list, cond, body, ..
        }
        | K::Collect {
            list, cond, body, ..
        } => {
            g(list);
            cond.iter_mut().for_each(|x| g(x));
            g(body)
        }
        K::Match { scrutinee, arms } => {
            g(scrutinee);
            arms.iter_mut().for_each(|a| g(&mut a.body))
        }
    }
}

/// Calls `f` on the map keys and list indices of a place (`c.wounds[k]`'s `k`).
pub fn place_keys(p: &Place, f: &mut dyn FnMut(&Expr)) {
    for st in &p.path {
        if let PlaceStep::Key(k) | PlaceStep::Index(k) = st {
            f(k);
        }
    }
}

/// A part of a statement: an expression, or a nested block.
pub enum Child<'a> {
    Expr(&'a Expr),
    Block(&'a [Stmt]),
}

/// Calls `f` on each expression directly in `s` (an assignment's place keys, then its
/// value) and each nested block, in evaluation order.
pub fn for_each_stmt_child<'a>(s: &'a Stmt, f: &mut dyn FnMut(Child<'a>)) {
    match s {
        Stmt::Let { value, .. } | Stmt::Expr(value) => f(Child::Expr(value)),
        Stmt::Assign { place, value, .. } => {
            for st in &place.path {
                if let PlaceStep::Key(k) | PlaceStep::Index(k) = st {
                    f(Child::Expr(k));
                }
            }
            f(Child::Expr(value))
        }
        Stmt::If {
            branches,
            otherwise,
        } => {
            for (c, body, _) in branches {
                f(Child::Expr(c));
                f(Child::Block(body));
            }
            if let Some(o) = otherwise {
                f(Child::Block(o));
            }
        }
        Stmt::Match { scrutinee, arms } => {
            f(Child::Expr(scrutinee));
            arms.iter().for_each(|a| f(Child::Block(&a.body)));
        }
        Stmt::For { list, body, .. } => {
            f(Child::Expr(list));
            f(Child::Block(body));
        }
        Stmt::ForRange { lo, hi, body, .. } => {
            f(Child::Expr(lo));
            f(Child::Expr(hi));
            f(Child::Block(body));
        }
        Stmt::Return { value, .. } => {
            if let Some(v) = value {
                f(Child::Expr(v));
            }
        }
        Stmt::Schedule { at, args, .. } => {
            if let At::RoundsLater(e) | At::TimeLater(e) | At::Turn { who: e, .. } = at {
                f(Child::Expr(e));
            }
            args.iter().for_each(|a| f(Child::Expr(a)));
        }
        Stmt::Advance { amount, .. } => f(Child::Expr(amount)),
    }
}

/// Calls `f` on every statement of `stmts` and of the blocks nested in them, outer
/// statements first.
pub fn for_each_stmt(stmts: &[Stmt], f: &mut dyn FnMut(&Stmt)) {
    for s in stmts {
        f(s);
        for_each_stmt_child(s, &mut |c| {
            if let Child::Block(b) = c {
                for_each_stmt(b, f)
            }
        });
    }
}

/// Calls `f` on every top-level expression of a function body: a formula's expression,
/// or each expression directly in a statement of a procedure (blocks walked).
pub fn for_each_body_expr(func: &Function, f: &mut dyn FnMut(&Expr)) {
    fn stmts(list: &[Stmt], f: &mut dyn FnMut(&Expr)) {
        for s in list {
            for_each_stmt_child(s, &mut |c| match c {
                Child::Expr(e) => f(e),
                Child::Block(b) => stmts(b, f),
            });
        }
    }
    match &func.body {
        super::Body::Formula(e) => f(e),
        super::Body::Procedure(list) => stmts(list, f),
    }
}

/// Whether running these statements always ends in a `return`.
pub fn always_returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(stmt_returns)
}

/// Whether running this statement always ends in a `return`.
pub fn stmt_returns(s: &Stmt) -> bool {
    match s {
        Stmt::Return { .. } => true,
        Stmt::If {
            branches,
            otherwise: Some(o),
        } => branches.iter().all(|(_, b, _)| always_returns(b)) && always_returns(o),
        Stmt::Match { arms, .. } => {
            !arms.is_empty() && arms.iter().all(|a| always_returns(&a.body))
        }
        _ => false,
    }
}

/// Whether evaluating this node itself (not its children) may meet a rule error: an
/// unproved list index, table key or divisor, a `decide .. from` a list that may be
/// empty, an assignment or fill through a list index, a new record's field outside its
/// range. A call is not counted here: a
/// callee's own `fallible` says.
pub fn may_fail(e: &Expr) -> bool {
    match &e.kind {
        K::Range(_, _, site) => site.is_some(),
        K::ListGet(_, _, check) | K::DiceTimes(_, _, check) => check.is_some(),
        K::Lookup { checked, .. } => *checked,
        K::CheckedDiv(..) | K::InRange { .. } => true,
        K::Decide {
            options: DecideOptions::List(l),
            ..
        } => !non_empty_list(l),
        K::Fill { track, .. } => place_may_fail(track),
        _ => false,
    }
}

/// Whether the range `lo..hi` is bounded by what the rules wrote, so that it needs no
/// limit: two written numbers at most `rulesc_runtime::MAX_LOOP` apart, or a written
/// number (at least `-MAX_LOOP`) up to a list's length, give or take a written number of
/// at most `MAX_LOOP` (`0..len(xs)`, `2..len(xs) + 1`): the list it reads bounds it.
/// Any other range is held to `MAX_LOOP` numbers at run time (a rule error past it).
pub fn range_bounded(lo: &Expr, hi: &Expr) -> bool {
    let max = rulesc_runtime::MAX_LOOP;
    let lit = |e: &Expr| match e.kind {
        K::Const(super::Const::Int(i)) => Some(i),
        _ => None,
    };
    let Some(l) = lit(lo) else { return false };
    if let Some(h) = lit(hi) {
        return i128::from(h) - i128::from(l) <= i128::from(max);
    }
    let small = |e: &Expr| lit(e).is_some_and(|c| c.abs() <= max);
    let by_len = match &hi.kind {
        K::Len(_) => true,
        K::Int(super::IntOp::Add | super::IntOp::Sub, a, b) => {
            matches!(a.kind, K::Len(_)) && small(b)
        }
        _ => false,
    };
    by_len && l >= -max
}

/// Whether `place op= value` may meet a rule error: a list index on the place's path,
/// a list appended to past `rulesc_runtime::MAX_LIST`, or a number stored in an
/// `int(lo..hi)` field that the checker did not prove inside it.
pub fn assign_may_fail(p: &Place, op: super::AssignOp) -> bool {
    place_may_fail(p)
        || p.range.is_some()
        || (op == super::AssignOp::Add && matches!(p.ty, super::Ty::List(_)))
}

/// Whether changing `p` may meet a rule error (a list index on its path).
pub fn place_may_fail(p: &Place) -> bool {
    p.path.iter().any(|s| matches!(s, PlaceStep::Index(_)))
}

/// A list written out with at least one element (`[a, b]`).
pub fn non_empty_list(e: &Expr) -> bool {
    match &e.kind {
        K::List(xs) => !xs.is_empty(),
        K::Const(super::Const::List(xs)) => !xs.is_empty(),
        _ => false,
    }
}

/// Every local slot statement `s` names (read, written or bound), nested blocks included,
/// into `out`; with `hidden`, also the hidden locals in which rolls keep their dice and
/// from which `faces` reads them.
pub fn stmt_locals(s: &Stmt, hidden: bool, out: &mut std::collections::HashSet<usize>) {
    match s {
        Stmt::Let { slot, .. } => {
            out.insert(*slot);
        }
        Stmt::Assign { place, .. } => {
            out.insert(place.root);
        }
        Stmt::For { var, .. } | Stmt::ForRange { var, .. } => {
            out.insert(*var);
        }
        Stmt::Match { arms, .. } => {
            for a in arms {
                out.extend(a.binds.iter().flatten());
            }
        }
        _ => {}
    }
    for_each_stmt_child(s, &mut |c| match c {
        Child::Expr(e) => expr_locals(e, hidden, out),
        Child::Block(b) => b.iter().for_each(|x| stmt_locals(x, hidden, out)),
    });
}

/// [`stmt_locals`] of an expression.
pub fn expr_locals(e: &Expr, hidden: bool, out: &mut std::collections::HashSet<usize>) {
    match &e.kind {
        K::Local(s) => {
            out.insert(*s);
        }
        K::Aggregate { var, .. } | K::Collect { var, .. } => {
            out.insert(*var);
        }
        K::Match { arms, .. } => {
            for a in arms {
                out.extend(a.binds.iter().flatten());
            }
        }
        K::Fill { track, .. } => {
            out.insert(track.root);
        }
        K::Roll {
            faces: Some(slot), ..
        }
        | K::Faces { slot, .. }
            if hidden =>
        {
            out.insert(*slot);
        }
        _ => {}
    }
    for_each_child(e, &mut |x| expr_locals(x, hidden, out));
}

/// A chain of one operator walked down its left side, as every pass reads a long one
/// (no recursion per term: a stranger's 20,000-term sum would overflow the stack): the
/// innermost left operand, and each step's term from the outermost in (so the terms are
/// applied in `.rev()` order). `step` takes an expression apart into its left operand and
/// term, or says it is not a step of the chain.
pub fn left_chain<'e, T>(
    e: &'e Expr,
    step: impl Fn(&'e Expr) -> Option<(&'e Expr, T)>,
) -> (&'e Expr, Vec<T>) {
    let mut terms = Vec::new();
    let mut left = e;
    while let Some((next, term)) = step(left) {
        terms.push(term);
        left = next;
    }
    (left, terms)
}

/// One step of an [`int_chain`]: its operator, the site of a division that may fail, and
/// its right operand.
pub type IntTerm<'e> = (super::IntOp, Option<u32>, &'e Expr);

/// A chain of `+`, `-`, `*`, `/` and `%` (and divisions that may fail, with their site).
pub fn int_chain(e: &Expr) -> (&Expr, Vec<IntTerm<'_>>) {
    left_chain(e, |x| match &x.kind {
        K::Int(op, a, b) => Some((&**a, (*op, None, &**b))),
        K::CheckedDiv(op, a, b, site) => Some((&**a, (*op, Some(*site), &**b))),
        _ => None,
    })
}

/// `level ± n ± m ..`: each step's amount and whether it is a `-`.
pub fn level_steps(e: &Expr) -> (&Expr, Vec<(&Expr, bool)>) {
    left_chain(e, |x| match &x.kind {
        K::LevelStep {
            level,
            delta,
            negate,
        } => Some((&**level, (&**delta, *negate))),
        _ => None,
    })
}

/// `roll ± n ± m ..`: each shift's amount and whether it is a `-`.
pub fn roll_shifts(e: &Expr) -> (&Expr, Vec<(&Expr, bool)>) {
    left_chain(e, |x| match &x.kind {
        K::RollAdd {
            roll,
            delta,
            negate,
        } => Some((&**roll, (&**delta, *negate))),
        _ => None,
    })
}

/// `a and b and ..` (`and`) or `a or b or ..`: the operands after the first.
pub fn logic_chain(e: &Expr, and: bool) -> (&Expr, Vec<&Expr>) {
    left_chain(e, |x| match (&x.kind, and) {
        (K::And(a, b), true) | (K::Or(a, b), false) => Some((&**a, &**b)),
        _ => None,
    })
}
