//! Unary and binary operators: arithmetic on ints, rolls and levels, comparisons,
//! `and`/`or`, `in`.

use super::coerce::{as_int, coerce, compatible, expect_ty};
use super::expr::expr;
use super::{err_expr, mk, FnCtx, MAX_DEPTH};
use crate::check::Checker;
use crate::ir::{self, CmpOp, Const, ExprKind as K, IntOp, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp, ExprKind as A};

/// A binary operator and the chain it ends: `a + b - c ..`, `a and b and c ..` (and any
/// mix of levels, `a * b + c`) are trees leaning left, one node per operator, as long as
/// the writer made them. So the chain is walked down its left side and checked from its
/// first operand up, one operator at a time: no recursion per term (a stranger's 20,000-term
/// sum would overflow the stack), and each step is what checking its node alone did. A
/// right operand is checked by [`expr`]: it is nested in brackets or binds tighter, and
/// nesting is bounded by the parser (`syntax::MAX_NESTING`). A chain that would make the
/// expression deeper than [`MAX_DEPTH`] is `E0206`, its operands unchecked.
pub(super) fn binary(
    c: &mut Checker,
    fcx: &mut FnCtx,
    op: BinOp,
    l: &ast::Expr,
    r: &ast::Expr,
    span: Span,
) -> ir::Expr {
    let mut chain = vec![(op, l, r, span)];
    let mut first = l;
    while let A::Binary(op, l, r) = &first.kind {
        chain.push((*op, l, r, first.span));
        first = l;
    }
    // This node is `depth` deep, the `k`th operator down the chain `depth + k`, its right
    // operand one more, and the first operand `depth + chain.len()`.
    let depth = fcx.depth;
    if depth + chain.len() > MAX_DEPTH {
        return super::expr::too_deep(c, span);
    }
    let logic = |op: BinOp| matches!(op, BinOp::And | BinOp::Or);
    let hint = chain.last().is_some_and(|&(op, ..)| logic(op));
    fcx.depth = depth + chain.len() - 1;
    let mut lx = expr(c, fcx, first, hint.then_some(&Ty::Bool));
    // What the chain so far tells of optional locals when it is true, and when false
    // (`narrow::known` of `lx`), kept as the chain grows so that a long `and` chain is not
    // walked again at each step.
    let mut known = [
        super::narrow::known(&lx, true),
        super::narrow::known(&lx, false),
    ];
    for (k, (op, l, r, span)) in chain.into_iter().enumerate().rev() {
        fcx.depth = depth + k;
        if logic(op) {
            let and = op == BinOp::And;
            let mut told = std::mem::take(&mut known[usize::from(!and)]);
            lx = logic_op(c, fcx, and, lx, r, &mut told, span);
            // `a and b` is true when both are and tells nothing when false; `or` the
            // other way round.
            known = if and {
                [told, Vec::new()]
            } else {
                [Vec::new(), told]
            };
        } else {
            lx = operator(c, fcx, op, lx, l, r, span);
            known = [
                super::narrow::known(&lx, true),
                super::narrow::known(&lx, false),
            ];
        }
    }
    fcx.depth = depth;
    lx
}

/// `lx and r`, `lx or r`: `r` runs only when `lx` is true (false for `or`), so it is
/// checked knowing what `lx` tells then (`told`, which then gains what `r` tells too).
fn logic_op(
    c: &mut Checker,
    fcx: &mut FnCtx,
    and: bool,
    lx: ir::Expr,
    r: &ast::Expr,
    told: &mut Vec<usize>,
    span: Span,
) -> ir::Expr {
    // `x != none and x.hp > 0`: the right side runs only when the left is true.
    let rx = super::narrow::with_known(fcx, told.clone(), |fcx| expr(c, fcx, r, Some(&Ty::Bool)));
    told.extend(super::narrow::known(&rx, and));
    expect_ty(c, &lx, &Ty::Bool);
    expect_ty(c, &rx, &Ty::Bool);
    let kind = if and {
        K::And(Box::new(lx), Box::new(rx))
    } else {
        K::Or(Box::new(lx), Box::new(rx))
    };
    mk(kind, Ty::Bool, span)
}

/// Any other binary operator, its left operand `l` checked already (`lx`).
fn operator(
    c: &mut Checker,
    fcx: &mut FnCtx,
    op: BinOp,
    lx: ir::Expr,
    l: &ast::Expr,
    r: &ast::Expr,
    span: Span,
) -> ir::Expr {
    match op {
        BinOp::And | BinOp::Or => unreachable!("`and` and `or` are `logic_op`'s"),
        BinOp::In => {
            let rx = expr(c, fcx, r, None);
            let want = Ty::List(Box::new(if lx.ty == Ty::Roll {
                Ty::Int
            } else {
                lx.ty.clone()
            }));
            expect_ty(c, &rx, &want);
            let lx = coerce(lx, &Ty::Int);
            mk(K::In(Box::new(lx), Box::new(rx)), Ty::Bool, span)
        }
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let rx = expr(c, fcx, r, Some(&lx.ty));
            // A bare variant on the left takes its type from the right.
            let lx = if lx.ty == Ty::Error && matches!(l.kind, A::Name(_)) {
                expr_quiet_retry(c, fcx, l, &rx.ty).unwrap_or(lx)
            } else {
                lx
            };
            let cmp = match op {
                BinOp::Eq => CmpOp::Eq,
                BinOp::Ne => CmpOp::Ne,
                BinOp::Lt => CmpOp::Lt,
                BinOp::Le => CmpOp::Le,
                BinOp::Gt => CmpOp::Gt,
                _ => CmpOp::Ge,
            };
            let numeric = |t: &Ty| matches!(t, Ty::Int | Ty::Roll);
            if numeric(&lx.ty) && numeric(&rx.ty) {
                let (lx, rx) = (coerce(lx, &Ty::Int), coerce(rx, &Ty::Int));
                return mk(K::Compare(cmp, Box::new(lx), Box::new(rx)), Ty::Bool, span);
            }
            if matches!(lx.ty, Ty::Option(_)) || matches!(rx.ty, Ty::Option(_)) {
                return optional_test(c, cmp, lx, rx, span);
            }
            if lx.ty == Ty::Error || rx.ty == Ty::Error {
                return mk(K::Const(Const::Bool(false)), Ty::Error, span);
            }
            if lx.ty != rx.ty {
                let (a, b) = (c.ty_name(&lx.ty), c.ty_name(&rx.ty));
                c.error(
                    "E0321",
                    span,
                    format!("cannot compare {a} with {b}"),
                    format!("{a} {} {b}", op.symbol()),
                    "compare values of the same kind",
                );
                return mk(K::Const(Const::Bool(false)), Ty::Error, span);
            }
            let ordered = match &lx.ty {
                Ty::Choice(ch) => c.prog.choices[*ch].ordered,
                Ty::Bool | Ty::Outcome(_) | Ty::Fighter | Ty::Side => false,
                _ => {
                    let n = c.ty_name(&lx.ty);
                    c.error(
                        "E0321",
                        span,
                        format!("cannot compare {n} values"),
                        "here",
                        "compare numbers, levels, variants or booleans",
                    );
                    return mk(K::Const(Const::Bool(false)), Ty::Error, span);
                }
            };
            if !ordered && !matches!(cmp, CmpOp::Eq | CmpOp::Ne) {
                let n = c.ty_name(&lx.ty);
                c.error("E0321", span, format!("{n} has no order"), format!("`{}` on an enum", op.symbol()), "only scales (ordered levels) and numbers compare with `<`; use `==` or make it a scale");
            }
            if matches!(lx.ty, Ty::Outcome(_)) {
                c.error(
                    "E0321",
                    span,
                    "outcomes are compared with `match`",
                    "here",
                    "use `match result { Tag => ..., _ => ... }`",
                );
            }
            mk(K::Compare(cmp, Box::new(lx), Box::new(rx)), Ty::Bool, span)
        }
        BinOp::Add | BinOp::Sub => {
            let rx = expr(c, fcx, r, None);
            let negate = op == BinOp::Sub;
            if lx.ty == Ty::Error || rx.ty == Ty::Error {
                // Already reported: no second error about the same mistake.
                return err_expr(span);
            }
            match (&lx.ty, &rx.ty) {
                (Ty::Roll, Ty::Int) => mk(
                    K::RollAdd {
                        roll: Box::new(lx),
                        delta: Box::new(rx),
                        negate,
                    },
                    Ty::Roll,
                    span,
                ),
                (Ty::Int, Ty::Roll) if !negate => mk(
                    K::RollAdd {
                        roll: Box::new(rx),
                        delta: Box::new(lx),
                        negate,
                    },
                    Ty::Roll,
                    span,
                ),
                (Ty::Choice(ch), _) if c.prog.choices[*ch].ordered => {
                    let ty = lx.ty.clone();
                    if !compatible(&rx.ty, &Ty::Int) {
                        let (scale, other) = (c.ty_name(&ty), c.ty_name(&rx.ty));
                        c.error(
                            "E0321",
                            rx.span,
                            format!("a {scale} level moves by a number of steps, not by a {other}"),
                            format!("this is a {other}"),
                            format!("write `level {} n` with a number n", op.symbol()),
                        );
                    }
                    let rx = coerce(rx, &Ty::Int);
                    mk(
                        K::LevelStep {
                            level: Box::new(lx),
                            delta: Box::new(rx),
                            negate,
                        },
                        ty,
                        span,
                    )
                }
                _ => {
                    let (lx, rx) = (as_int(c, lx), as_int(c, rx));
                    let iop = if negate { IntOp::Sub } else { IntOp::Add };
                    mk(K::Int(iop, Box::new(lx), Box::new(rx)), Ty::Int, span)
                }
            }
        }
        BinOp::Mul | BinOp::Div | BinOp::Rem => {
            let rx = expr(c, fcx, r, None);
            if lx.ty == Ty::Error || rx.ty == Ty::Error {
                return err_expr(span);
            }
            if op == BinOp::Mul && (lx.ty == Ty::Dice || rx.ty == Ty::Dice) {
                let (d, n) = if lx.ty == Ty::Dice {
                    (lx, rx)
                } else {
                    (rx, lx)
                };
                let n = as_int(c, n);
                return dice_times(c, d, n, span);
            }
            let (lx, rx) = (as_int(c, lx), as_int(c, rx));
            let iop = match op {
                BinOp::Mul => IntOp::Mul,
                BinOp::Div => IntOp::Div,
                _ => IntOp::Rem,
            };
            int_op(c, iop, lx, rx, span)
        }
    }
}

/// `a op b` of two ints. A division (`/`, `%`, `div_up`) by a written 0 is E0332; by
/// anything else that may be 0, a [`K::CheckedDiv`] (a rule error at its site then).
pub fn int_op(c: &mut Checker, iop: IntOp, lx: ir::Expr, rx: ir::Expr, span: Span) -> ir::Expr {
    if iop.divides() && matches!(rx.kind, K::Const(Const::Int(0))) {
        c.error(
            "E0332",
            rx.span,
            "division by zero",
            "this is 0",
            "divide by a number that cannot be 0",
        );
        return err_expr(span);
    }
    let nonzero = matches!(rx.kind, K::Const(Const::Int(d)) if d != 0);
    if iop.divides() && !nonzero {
        let site = c.site(span);
        return mk(
            K::CheckedDiv(iop, Box::new(lx), Box::new(rx), site),
            Ty::Int,
            span,
        );
    }
    mk(K::Int(iop, Box::new(lx), Box::new(rx)), Ty::Int, span)
}

/// `dice * n`: a roll throws 0 to `MAX_DICE` dice. Where the checker knows every count
/// it can give falls outside, `E0332`; where it knows every one falls inside, nothing
/// is checked when it runs; elsewhere a rule error there when it does
/// (`DiceSpec::times`, the one rule for both backends).
fn dice_times(c: &mut Checker, d: ir::Expr, n: ir::Expr, span: Span) -> ir::Expr {
    let max = rulesc_runtime::dice::MAX_DICE;
    let site = match super::bounds::dice_count(c, &d, &n) {
        Some((lo, hi)) if hi < 0 || lo > max => {
            let what = super::bounds::Bounds::show(lo, hi);
            c.error(
                "E0332",
                n.span,
                format!("this throws {what} dice: a roll throws 0 to {max} dice"),
                format!("always outside 0..{max}"),
                format!("multiply the dice by a number that keeps them within 0 to {max}"),
            );
            return err_expr(span);
        }
        Some((lo, hi)) if lo >= 0 && hi <= max => None,
        _ => Some(c.site(span)),
    };
    mk(K::DiceTimes(Box::new(d), Box::new(n), site), Ty::Dice, span)
}

/// `x == none`, `x != none` (either side `none`).
fn optional_test(c: &mut Checker, cmp: CmpOp, lx: ir::Expr, rx: ir::Expr, span: Span) -> ir::Expr {
    let is_none = |x: &ir::Expr| matches!(x.kind, K::Const(Const::Opt(None)));
    let x = match (is_none(&lx), is_none(&rx)) {
        (_, true) => lx,
        (true, false) => rx,
        (false, false) => {
            c.error(
                "E0321",
                span,
                "an optional value is compared with `none`",
                "not `none`",
                "test `x != none` first; inside the test `x` is its value and compares as usual",
            );
            return err_expr(span);
        }
    };
    if !matches!(cmp, CmpOp::Eq | CmpOp::Ne) {
        c.error(
            "E0321",
            span,
            "`none` has no order",
            "here",
            "compare with `==` or `!=`",
        );
        return err_expr(span);
    }
    let test = mk(K::IsSome(Box::new(x)), Ty::Bool, span);
    if cmp == CmpOp::Ne {
        test
    } else {
        mk(K::Not(Box::new(test)), Ty::Bool, span)
    }
}

/// Re-checks a bare name with a type hint, dropping the diagnostics of the first try.
pub(super) fn expr_quiet_retry(
    c: &mut Checker,
    fcx: &mut FnCtx,
    e: &ast::Expr,
    hint: &Ty,
) -> Option<ir::Expr> {
    let before = c.diags.items.len();
    let x = expr(c, fcx, e, Some(hint));
    if x.ty != Ty::Error {
        // Remove the ambiguity error the first attempt reported.
        if let Some(pos) = c.diags.items[..before]
            .iter()
            .rposition(|d| d.span == e.span && d.code == "E0325")
        {
            c.diags.items.remove(pos);
        }
        Some(x)
    } else {
        c.diags.items.truncate(before);
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Severity;

    /// The codes of the errors `compile_dir` gives a ruleset of one `.rules` file, checked
    /// on a thread with a stack of `stack` bytes.
    fn errors_on(stack: usize, rules: String) -> Vec<&'static str> {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(
            dir.path().join("ruleset.yaml"),
            "ruleset: { name: chains }\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("a.rules"), rules).unwrap();
        let path = dir.path().to_path_buf();
        let check = move || {
            let (_, diags, _) = crate::compile_dir(&path);
            diags
                .items
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| d.code)
                .collect()
        };
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(check)
            .unwrap()
            .join()
            .unwrap()
    }

    fn chain(op: &str, term: &str, n: usize) -> String {
        vec![term; n].join(op)
    }

    /// A chain is checked walking down it: 4,000 terms of each kind on a 12 MiB stack. In
    /// a debug build the rest of the check takes 4 to 8 MiB of it (the syntax tree's and
    /// the program's clones and walks); checking each operator by recursion took 16 to
    /// 24 MiB, and overflowed, aborting the tests (tried).
    #[test]
    fn a_chain_is_checked_without_recursion_per_term() {
        let rules = format!(
            "formula total(x: int) -> int = {}\nformula positive(x: int) -> bool = {}\nformula one_false(b: bool) -> bool = {}\nprocedure p(x: int) -> bool {{\n  let s = {}\n  return positive(s) or one_false(positive(x))\n}}\n",
            chain(" + ", "x", 4_000),
            chain(" and ", "x > 0", 4_000),
            chain(" or ", "not b", 4_000),
            chain(" * ", "total(x)", 4_000),
        );
        let errors = errors_on(12 << 20, rules);
        assert!(errors.is_empty(), "{:?}", &errors[..errors.len().min(5)]);
    }

    /// The depth limit: a sum of 4,096 terms is 4,096 levels deep and checks; one term
    /// more is `E0206`, once, and nothing else.
    #[test]
    fn a_sum_of_4096_terms_checks_and_one_more_is_too_deep() {
        let sum = |n| format!("formula f(x: int) -> int = {}\n", chain(" + ", "x", n));
        assert_eq!(
            errors_on(crate::WORKER_STACK, sum(4_096)),
            Vec::<&str>::new()
        );
        assert_eq!(errors_on(crate::WORKER_STACK, sum(4_097)), ["E0206"]);
    }
}
