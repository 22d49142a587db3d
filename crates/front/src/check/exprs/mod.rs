//! The DSL side of checking: names resolved, types inferred and checked, formulas and
//! procedures turned into IR.

mod access;
mod bounds;
mod call;
mod coerce;
mod each;
mod effects;
mod expr;
mod faces;
pub mod fight;
mod lists;
mod narrow;
mod ops;
mod pattern;
mod place;
mod repeat;
mod stmt;
mod timed;

use self::coerce::{coerce, expect_ty};
use self::expr::expr;
use self::stmt::block;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::walk::always_returns;
use crate::ir::{self, Const, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast;

/// Deepest chain of calls between formulas and procedures (bounds the checker's and
/// the interpreter's recursion).
pub const MAX_CALL_DEPTH: usize = 64;

/// Deepest expression: levels of nesting and operators of a chain together (`a + b + c`
/// is three levels deep, its operators nesting left). Brackets and other nesting are
/// bounded by the parser (`syntax::MAX_NESTING`); a chain of operators is not, but every
/// pass over the program (its clones, drops and walks, on analyze's threads too) recurses
/// down it, so a stranger's 100,000-term sum would overflow their stacks. The checker and
/// the code generator walk a chain without recursion; the rest may, this deep: some
/// 2.5 KiB a level in a debug build on analyze's threads
/// (`analyze::THREAD_STACK`).
pub const MAX_DEPTH: usize = 4_096;

/// The context of checking one function body (rustc's `FnCtxt`, by convention `fcx`):
/// its locals and their scopes, whether it is a formula, its declared result, and
/// the `let`s not read yet.
struct FnCtx {
    /// The function being checked.
    id: usize,
    locals: Vec<ir::Local>,
    /// Where each local is bound (its name), by slot.
    spans: Vec<Span>,
    scopes: Vec<Vec<(String, usize)>>,
    formula: bool,
    /// The declared return type (procedures), if any.
    ret: Option<Ty>,
    nparams: usize,
    /// Locals bound by `let` and never read (for warnings): slot → span.
    unread: Vec<(usize, Span)>,
    /// Locals whose dice `faces(r)` reads: (the roll's slot, the hidden `Ty::Faces` slot).
    faces_of: Vec<(usize, usize)>,
    /// Statements a statement adds after itself (a duration's timer).
    then: Vec<ir::Stmt>,
    /// Optional locals known not to be none here ([`narrow`]).
    known_some: Vec<usize>,
    /// How deep the expression being checked is ([`MAX_DEPTH`]).
    depth: usize,
}

impl FnCtx {
    fn bind(&mut self, name: &ast::Ident, ty: Ty) -> usize {
        let slot = self.locals.len();
        self.locals.push(ir::Local {
            name: name.name.clone(),
            ty,
        });
        self.spans.push(name.span);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.name.clone(), slot));
        }
        slot
    }

    /// A local no name reaches (the hidden dice of a roll).
    fn hidden(&mut self, name: &str, ty: Ty) -> usize {
        self.locals.push(ir::Local {
            name: name.to_string(),
            ty,
        });
        self.locals.len() - 1
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }
}

fn mk(kind: K, ty: Ty, span: Span) -> ir::Expr {
    ir::Expr { kind, ty, span }
}

fn err_expr(span: Span) -> ir::Expr {
    mk(K::Const(Const::Int(0)), Ty::Error, span)
}

pub fn check_functions(c: &mut Checker) {
    for id in 0..c.prog.functions.len() {
        ensure_checked(c, id);
    }
}

/// Checks function `id` if not done yet. Returns false if it is being checked (a cycle).
fn ensure_checked(c: &mut Checker, id: usize) -> bool {
    match c.fn_state[id] {
        2 => return true,
        1 => return false,
        _ => {}
    }
    c.fn_state[id] = 1;
    c.fn_stack.push(id);
    let ast::Item::Function {
        name,
        params,
        ret,
        body,
        span,
        ..
    } = c.fn_syntax[id].clone()
    else {
        c.fn_state[id] = 2;
        return true;
    };
    let formula = matches!(body, ast::Body::Expr(_));
    let mut fcx = FnCtx {
        id,
        locals: Vec::new(),
        spans: Vec::new(),
        scopes: vec![Vec::new()],
        formula,
        ret: None,
        nparams: params.len(),
        unread: Vec::new(),
        faces_of: Vec::new(),
        then: Vec::new(),
        known_some: Vec::new(),
        depth: 0,
    };
    let mut ir_params = Vec::new();
    for p in &params {
        let ty = c.resolve_type(&p.ty);
        if fcx.scopes[0].iter().any(|(n, _)| *n == p.name.name) {
            c.error(
                "E0301",
                p.name.span,
                format!("parameter `{}` is listed twice", p.name.name),
                "second time",
                "rename one of them",
            );
        }
        fcx.bind(&p.name, ty.clone());
        ir_params.push(ir::Param {
            name: p.name.name.clone(),
            ty,
            mutated: false,
        });
    }
    let declared = ret.as_ref().map(|t| c.resolve_type(t));
    fcx.ret = declared.clone();
    let site = c.site(name.span.to(match &body {
        ast::Body::Block(b) => Span {
            end: b.span.start,
            ..b.span
        },
        ast::Body::Expr(e) => Span {
            end: e.span.start,
            ..e.span
        },
    }));
    // Publish the signature before the body, so calls can be checked against it.
    c.prog.functions[id].params = ir_params;
    c.prog.functions[id].site = site;
    c.prog.functions[id].span = span;
    let (body, ret_ty) = match body {
        ast::Body::Expr(e) => {
            let x = expr(c, &mut fcx, &e, declared.as_ref());
            let ty = match &declared {
                Some(d) => {
                    expect_ty(c, &x, d);
                    d.clone()
                }
                None if x.ty == Ty::Roll => Ty::Int,
                None => x.ty.clone(),
            };
            let x = coerce(x, &ty);
            (ir::Body::Formula(x), ty)
        }
        ast::Body::Block(b) => {
            let ret_ty = declared.clone().unwrap_or(Ty::Unit);
            c.prog.functions[id].ret = ret_ty.clone();
            let mut stmts = block(c, &mut fcx, &b);
            faces::keep_faces(c, &fcx, &mut stmts);
            bounds::prove_writes(c, &mut stmts, fcx.locals.len());
            if ret_ty != Ty::Unit && ret_ty != Ty::Error && !always_returns(&stmts) {
                let end = Span {
                    start: b.span.end.saturating_sub(1),
                    ..b.span
                };
                c.error(
                    "E0320",
                    end,
                    format!(
                        "`{}` can reach its end without a `return` (it must return {})",
                        name.name,
                        c.ty_name(&ret_ty)
                    ),
                    "no `return` on some path",
                    "end every branch with `return ...`",
                );
            }
            (ir::Body::Procedure(stmts), ret_ty)
        }
    };
    for (slot, span) in std::mem::take(&mut fcx.unread) {
        let n = fcx.locals[slot].name.clone();
        if !n.starts_with('_') {
            c.diags.push(
                Diagnostic::warning("W0002", span, format!("`{n}` is never used"))
                    .label("bound here")
                    .help(format!("use it, or name it `_{n}`")),
            );
        }
    }
    for (slot, (local, span)) in fcx.locals.iter().zip(&fcx.spans).enumerate() {
        c.index
            .local((id, slot), &local.name, &name.name, *span, local.ty.clone());
    }
    let f = &mut c.prog.functions[id];
    f.body = body;
    f.ret = ret_ty;
    f.locals = fcx.locals;
    c.fn_state[id] = 2;
    c.fn_stack.pop();
    true
}

/// Reports a call that closes a cycle, naming every function on it.
fn cycle_error(c: &mut Checker, f: usize, fname: &ast::Ident) {
    let start = c.fn_stack.iter().position(|&g| g == f).unwrap_or(0);
    // The fight's own formulas are entered through its built-ins (`enemies` asks `out`).
    let mut chain = String::new();
    for (i, &g) in c.fn_stack[start..].iter().enumerate() {
        let shown = fight::shown(c, g);
        match (i, fight::is_rule(c, g)) {
            (0, _) => chain = format!("`{shown}`"),
            (_, true) => chain.push_str(&format!(" asks the fight's `{shown}`, which")),
            (_, false) => chain.push_str(&format!(" calls `{shown}`")),
        }
    }
    chain.push_str(&format!(" calls `{}`", fname.name));
    let msg = if c.fn_stack.len() - start <= 1 {
        format!("`{}` calls itself", fname.name)
    } else {
        format!("a cycle of calls: {chain}")
    };
    let def = c
        .names
        .get(&fname.name)
        .map(|d| d.span)
        .unwrap_or(fname.span);
    let d = Diagnostic::error("E0330", fname.span, msg)
        .label("this call closes the cycle")
        .note(def, format!("`{}` is defined here", fname.name))
        .help("formulas and procedures may not call themselves, directly or through others");
    c.diags.push(d);
}
