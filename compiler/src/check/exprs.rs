//! The DSL side of checking: names resolved, types inferred and checked, formulas and
//! procedures turned into IR.

use super::{Checker, DefKind};
use crate::diag::{suggest, Diagnostic};
use crate::ir::{self, Agg, BoxPart, CmpOp, Const, ExprKind as K, IntOp, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp, ExprKind as A, UnOp};

/// Deepest chain of calls between formulas and procedures (bounds the checker's and
/// the interpreter's recursion).
pub const MAX_CALL_DEPTH: usize = 64;

/// The state of checking one function body.
struct Fx {
    locals: Vec<ir::Local>,
    scopes: Vec<Vec<(String, usize)>>,
    formula: bool,
    /// The declared return type (procedures), if any.
    ret: Option<Ty>,
    nparams: usize,
    /// Locals bound by `let` and never read (for warnings): slot → span.
    unread: Vec<(usize, Span)>,
}

impl Fx {
    fn bind(&mut self, name: &str, ty: Ty) -> usize {
        let slot = self.locals.len();
        self.locals.push(ir::Local {
            name: name.to_string(),
            ty,
        });
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), slot));
        }
        slot
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
    let mut fx = Fx {
        locals: Vec::new(),
        scopes: vec![Vec::new()],
        formula,
        ret: None,
        nparams: params.len(),
        unread: Vec::new(),
    };
    let mut ir_params = Vec::new();
    for p in &params {
        let (ty, _) = c.resolve_type(&p.ty);
        if fx.scopes[0].iter().any(|(n, _)| *n == p.name.name) {
            c.error(
                "E0301",
                p.name.span,
                format!("parameter `{}` is listed twice", p.name.name),
                "second time",
                "rename one of them",
            );
        }
        fx.bind(&p.name.name, ty.clone());
        ir_params.push(ir::Param {
            name: p.name.name.clone(),
            ty,
            mutated: false,
        });
    }
    let declared = ret.as_ref().map(|t| c.resolve_type(t).0);
    fx.ret = declared.clone();
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
            let x = expr(c, &mut fx, &e, declared.as_ref());
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
            let stmts = block(c, &mut fx, &b);
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
    for (slot, span) in std::mem::take(&mut fx.unread) {
        let n = fx.locals[slot].name.clone();
        if !n.starts_with('_') {
            c.diags.push(
                Diagnostic::warning("W0002", span, format!("`{n}` is never used"))
                    .label("bound here")
                    .help(format!("use it, or name it `_{n}`")),
            );
        }
    }
    let f = &mut c.prog.functions[id];
    f.body = body;
    f.ret = ret_ty;
    f.locals = fx.locals;
    c.fn_state[id] = 2;
    c.fn_stack.pop();
    true
}

fn always_returns(stmts: &[ir::Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        ir::Stmt::Return { .. } => true,
        ir::Stmt::If {
            branches,
            otherwise: Some(o),
        } => branches.iter().all(|(_, b, _)| always_returns(b)) && always_returns(o),
        ir::Stmt::Match { arms, .. } => arms.iter().all(|a| always_returns(&a.body)),
        _ => false,
    })
}

/// Types that may stand where `want` is expected (a roll where an int is wanted).
fn compatible(have: &Ty, want: &Ty) -> bool {
    have == want
        || *have == Ty::Error
        || *want == Ty::Error
        || (*have == Ty::Roll && *want == Ty::Int)
}

fn coerce(e: ir::Expr, want: &Ty) -> ir::Expr {
    if e.ty == Ty::Roll && *want == Ty::Int {
        let span = e.span;
        mk(K::ToInt(Box::new(e)), Ty::Int, span)
    } else {
        e
    }
}

fn expect_ty(c: &mut Checker, e: &ir::Expr, want: &Ty) -> bool {
    if compatible(&e.ty, want) {
        return true;
    }
    let (h, w) = (c.ty_name(&e.ty), c.ty_name(want));
    c.error(
        "E0321",
        e.span,
        format!("expected {w}, found {h}"),
        format!("this is {h}"),
        format!("a value of type {w} is needed here"),
    );
    false
}

fn as_int(c: &mut Checker, e: ir::Expr) -> ir::Expr {
    expect_ty(c, &e, &Ty::Int);
    coerce(e, &Ty::Int)
}

fn block(c: &mut Checker, fx: &mut Fx, b: &ast::Block) -> Vec<ir::Stmt> {
    fx.scopes.push(Vec::new());
    let mut out = Vec::new();
    let mut returned: Option<Span> = None;
    for s in &b.stmts {
        if let Some(r) = returned {
            let d = Diagnostic::warning("W0003", s.span, "this statement can never run")
                .label("unreachable")
                .note(r, "the procedure has already returned here")
                .help("remove it, or move it before the `return`");
            c.diags.push(d);
            returned = None;
        }
        if let Some(st) = stmt(c, fx, s) {
            if always_returns(std::slice::from_ref(&st)) {
                returned = Some(s.span);
            }
            out.push(st);
        }
    }
    fx.scopes.pop();
    out
}

fn stmt(c: &mut Checker, fx: &mut Fx, s: &ast::Stmt) -> Option<ir::Stmt> {
    Some(match &s.kind {
        ast::StmtKind::Let(name, e) => {
            let value = expr(c, fx, e, None);
            let site = c.site(s.span);
            let slot = fx.bind(&name.name, value.ty.clone());
            fx.unread.push((slot, name.span));
            ir::Stmt::Let { slot, value, site }
        }
        ast::StmtKind::Assign(target, op, e) => {
            let place = place(c, fx, target)?;
            let value = expr(c, fx, e, Some(&place.ty));
            let value = match op {
                ast::AssignOp::Set => {
                    expect_ty(c, &value, &place.ty);
                    coerce(value, &place.ty)
                }
                // `list += [x]` appends.
                ast::AssignOp::Add if matches!(place.ty, Ty::List(_)) => {
                    expect_ty(c, &value, &place.ty);
                    value
                }
                _ => {
                    if !compatible(&place.ty, &Ty::Int) {
                        let n = c.ty_name(&place.ty);
                        c.error(
                            "E0321",
                            target.span,
                            format!("`+=` and `-=` need an int, this is {n}"),
                            "not an int",
                            "write `x = x + n` for levels; `list += [x]` appends to a list",
                        );
                    }
                    as_int(c, value)
                }
            };
            let site = c.site(s.span);
            let op = match op {
                ast::AssignOp::Set => ir::AssignOp::Set,
                ast::AssignOp::Add => ir::AssignOp::Add,
                ast::AssignOp::Sub => ir::AssignOp::Sub,
            };
            ir::Stmt::Assign {
                place,
                op,
                value,
                site,
            }
        }
        ast::StmtKind::If(branches, otherwise) => {
            let mut out = Vec::new();
            for (cond, body) in branches {
                let cx = expr(c, fx, cond, Some(&Ty::Bool));
                expect_ty(c, &cx, &Ty::Bool);
                let site = c.site(
                    Span {
                        end: body.span.start,
                        ..cond.span.to(cond.span)
                    }
                    .to(cond.span),
                );
                let b = block(c, fx, body);
                out.push((cx, b, site));
            }
            let otherwise = otherwise.as_ref().map(|b| block(c, fx, b));
            ir::Stmt::If {
                branches: out,
                otherwise,
            }
        }
        ast::StmtKind::Match(scrutinee, arms) => {
            let sx = expr(c, fx, scrutinee, None);
            let mut out = Vec::new();
            let sty = sx.ty.clone();
            let mut seen: Vec<u16> = Vec::new();
            let mut wildcard = false;
            for arm in arms {
                fx.scopes.push(Vec::new());
                let (alts, binds) = pattern(c, fx, &arm.pattern, &sty, &mut seen, &mut wildcard);
                let site = c.site(pattern_span(c, arm.span));
                let body = block(c, fx, &arm.body);
                fx.scopes.pop();
                out.push(ir::MatchArm {
                    alts,
                    binds,
                    body,
                    site,
                });
            }
            exhaustive(c, &sty, &seen, wildcard, scrutinee.span);
            ir::Stmt::Match {
                scrutinee: sx,
                arms: out,
            }
        }
        ast::StmtKind::For(var, lo, Some(hi), body) => {
            let lo = expr(c, fx, lo, Some(&Ty::Int));
            let lo = as_int(c, lo);
            let hi = expr(c, fx, hi, Some(&Ty::Int));
            let hi = as_int(c, hi);
            fx.scopes.push(Vec::new());
            let slot = fx.bind(&var.name, Ty::Int);
            let b = block(c, fx, body);
            fx.scopes.pop();
            ir::Stmt::ForRange {
                var: slot,
                lo,
                hi,
                body: b,
            }
        }
        ast::StmtKind::For(var, list, None, body) => {
            let lx = expr(c, fx, list, None);
            let elem = element_type(
                c,
                &lx,
                list.span,
                "loop over a list field or `filled(track)`",
            );
            fx.scopes.push(Vec::new());
            let slot = fx.bind(&var.name, elem);
            let b = block(c, fx, body);
            fx.scopes.pop();
            ir::Stmt::For {
                var: slot,
                list: lx,
                body: b,
            }
        }
        ast::StmtKind::Return(value) => {
            let site = c.site(s.span);
            if fx.formula {
                return None;
            }
            let want = fx.ret.clone().unwrap_or(Ty::Unit);
            let value = match value {
                Some(e) => {
                    let x = expr(c, fx, e, Some(&want));
                    if want == Ty::Unit {
                        c.error(
                            "E0321",
                            e.span,
                            "this procedure declares no result",
                            "value returned",
                            "add `-> Type` to the procedure, or write `return` alone",
                        );
                    } else {
                        expect_ty(c, &x, &want);
                    }
                    Some(coerce(x, &want))
                }
                None => {
                    if want != Ty::Unit && want != Ty::Error {
                        let n = c.ty_name(&want);
                        c.error(
                            "E0321",
                            s.span,
                            format!("this procedure returns a {n}"),
                            "no value",
                            format!("write `return <{n}>`"),
                        );
                    }
                    None
                }
            };
            ir::Stmt::Return { value, site }
        }
        ast::StmtKind::Expr(e) => {
            let x = expr(c, fx, e, None);
            let effectful = matches!(
                x.kind,
                K::Fill { .. } | K::Roll { .. } | K::RollTable { .. } | K::Decide { .. }
            ) || matches!(&x.kind, K::Call(f, _) if c.prog.functions[*f].is_procedure());
            if !effectful && x.ty != Ty::Error {
                c.diags.push(
                    Diagnostic::warning("W0004", e.span, "this value is computed and thrown away")
                        .label("unused value")
                        .help("bind it with `let`, or remove it"),
                );
            }
            ir::Stmt::Expr(x)
        }
    })
}

fn pattern(
    c: &mut Checker,
    fx: &mut Fx,
    p: &ast::Pattern,
    sty: &Ty,
    seen: &mut Vec<u16>,
    wildcard: &mut bool,
) -> (Vec<u16>, Vec<Option<usize>>) {
    let alts = match p {
        ast::Pattern::Wildcard(_) => {
            *wildcard = true;
            return (Vec::new(), Vec::new());
        }
        ast::Pattern::Alts(a) => a,
    };
    let mut out = Vec::new();
    let mut binds = Vec::new();
    for (name, names) in alts {
        let found: Option<(u16, Vec<(String, Ty)>)> = match sty {
            Ty::Choice(ch) => c.prog.choices[*ch]
                .variants
                .iter()
                .position(|v| v.name == name.name)
                .map(|i| (i as u16, Vec::new())),
            Ty::Outcome(o) => c.prog.outcomes[*o]
                .tags
                .iter()
                .position(|t| t.name == name.name)
                .map(|i| (i as u16, c.prog.outcomes[*o].tags[i].fields.clone())),
            Ty::Error => return (Vec::new(), Vec::new()),
            other => {
                let n = c.ty_name(other);
                c.error(
                    "E0321",
                    name.span,
                    format!("cannot match on {n}"),
                    "here",
                    "match on a scale, an enum or an outcome; use `if` for numbers",
                );
                return (Vec::new(), Vec::new());
            }
        };
        let Some((i, fields)) = found else {
            let cands = case_names(c, sty).unwrap_or_default();
            let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
            let help = suggest(&name.name, &cands, "values");
            let n = c.ty_name(sty);
            c.error(
                "E0306",
                name.span,
                format!("`{}` is not a {n}", name.name),
                "unknown",
                help,
            );
            continue;
        };
        if seen.contains(&i) {
            c.diags.push(
                Diagnostic::warning(
                    "W0003",
                    name.span,
                    format!("`{}` is already matched above", name.name),
                )
                .label("unreachable")
                .help("remove this alternative"),
            );
        }
        seen.push(i);
        out.push(i);
        if !names.is_empty() {
            if alts.len() > 1 {
                c.error(
                    "E0322",
                    name.span,
                    "bindings need a single tag",
                    "here",
                    "split the alternatives into separate arms",
                );
                continue;
            }
            binds = vec![None; fields.len()];
            for n in names {
                match fields.iter().position(|(f, _)| *f == n.name) {
                    Some(fi) => {
                        let slot = fx.bind(&n.name, fields[fi].1.clone());
                        binds[fi] = Some(slot);
                    }
                    None => {
                        let cands: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
                        let help = suggest(&n.name, &cands, "fields");
                        c.error(
                            "E0306",
                            n.span,
                            format!("`{}` has no field `{}`", name.name, n.name),
                            "unknown field",
                            help,
                        );
                    }
                }
            }
        }
    }
    (out, binds)
}

fn exhaustive(c: &mut Checker, sty: &Ty, seen: &[u16], wildcard: bool, span: Span) {
    if wildcard {
        return;
    }
    let Some(all) = case_names(c, sty) else {
        return;
    };
    let missing: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !seen.contains(&(*i as u16)))
        .map(|(_, n)| format!("`{n}`"))
        .collect();
    if !missing.is_empty() {
        c.error(
            "E0323",
            span,
            format!("this match does not cover {}", missing.join(", ")),
            "not every case is covered",
            "add an arm for each, or `_ => ...`",
        );
    }
}

fn place(c: &mut Checker, fx: &mut Fx, e: &ast::Expr) -> Option<ir::Place> {
    if fx.formula {
        c.error(
            "E0324",
            e.span,
            "a formula cannot change anything",
            "assignment in a formula",
            "make it a `procedure`",
        );
        return None;
    }
    let mut steps: Vec<&ast::Expr> = Vec::new();
    let mut cur = e;
    loop {
        match &cur.kind {
            A::Field(base, _) | A::Index(base, _) => {
                steps.push(cur);
                cur = base;
            }
            A::Name(n) => {
                let Some(root) = fx.find(&n.name) else {
                    let cands: Vec<String> =
                        fx.scopes.iter().flatten().map(|(n, _)| n.clone()).collect();
                    let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
                    let help = suggest(&n.name, &cands, "names in scope");
                    c.error(
                        "E0306",
                        n.span,
                        format!("unknown name `{}`", n.name),
                        "not defined here",
                        help,
                    );
                    return None;
                };
                fx.unread.retain(|(s, _)| *s != root);
                if steps.is_empty() && root < fx.nparams {
                    c.error(
                        "E0324",
                        e.span,
                        format!("parameter `{}` cannot be replaced", n.name),
                        "parameter",
                        "change its fields (`c.pain_relief = 2`), or bind a new name with `let`",
                    );
                    return None;
                }
                if !steps.is_empty() && root >= fx.nparams {
                    c.error(
                        "E0324",
                        e.span,
                        "only a parameter's state can be changed",
                        "not a parameter",
                        "change the combatant passed in (`defender.hp -= 1`)",
                    );
                    return None;
                }
                let mut ty = fx.locals[root].ty.clone();
                let mut path = Vec::new();
                for st in steps.iter().rev() {
                    match &st.kind {
                        A::Field(_, f) => {
                            let Ty::Record(r) = ty else {
                                let n = c.ty_name(&ty);
                                c.error(
                                    "E0321",
                                    f.span,
                                    format!("{n} has no fields"),
                                    "here",
                                    "only records have fields",
                                );
                                return None;
                            };
                            let fields = &c.prog.records[r].fields;
                            let Some(i) = fields.iter().position(|x| x.name == f.name) else {
                                let cands: Vec<&str> =
                                    fields.iter().map(|x| x.name.as_str()).collect();
                                let help = suggest(&f.name, &cands, "fields");
                                let rn = c.prog.records[r].name.clone();
                                c.error(
                                    "E0306",
                                    f.span,
                                    format!("`{rn}` has no field `{}`", f.name),
                                    "unknown field",
                                    help,
                                );
                                return None;
                            };
                            ty = fields[i].ty.clone();
                            path.push(ir::PlaceStep::Field(i));
                        }
                        A::Index(_, k) => match ty {
                            Ty::Map(kc, v) => {
                                let kx = expr(c, fx, k, Some(&Ty::Choice(kc)));
                                expect_ty(c, &kx, &Ty::Choice(kc));
                                ty = *v;
                                path.push(ir::PlaceStep::Key(kx));
                            }
                            Ty::List(elem) => {
                                let ix = expr(c, fx, k, Some(&Ty::Int));
                                let ix = as_int(c, ix);
                                ty = *elem;
                                path.push(ir::PlaceStep::Index(ix));
                            }
                            _ => {
                                let n = c.ty_name(&ty);
                                c.error(
                                    "E0321",
                                    st.span,
                                    format!("{n} cannot be indexed"),
                                    "here",
                                    "maps take `[key]`, lists `[index]`",
                                );
                                return None;
                            }
                        },
                        _ => {}
                    }
                }
                return Some(ir::Place { root, path, ty });
            }
            _ => {
                c.error(
                    "E0324",
                    cur.span,
                    "this cannot be assigned",
                    "not a name or field",
                    "assign a local, or a parameter's field or map entry",
                );
                return None;
            }
        }
    }
}

/// Checks an expression. `expect` is a hint (resolves a variant name that several
/// scales or enums share); the caller still checks the type.
fn expr(c: &mut Checker, fx: &mut Fx, e: &ast::Expr, expect: Option<&Ty>) -> ir::Expr {
    let span = e.span;
    match &e.kind {
        A::Int(v) => mk(K::Const(Const::Int(*v)), Ty::Int, span),
        A::Bool(b) => mk(K::Const(Const::Bool(*b)), Ty::Bool, span),
        A::Dice(d) => mk(K::Const(Const::Dice(*d)), Ty::Dice, span),
        A::Name(n) => name(c, fx, n, expect),
        A::Field(base, f) => {
            // `Choice.Variant` and `Outcome.Tag` qualify a name.
            if let A::Name(q) = &base.kind {
                if fx.find(&q.name).is_none() {
                    if let Some(DefKind::Choice(ch)) = c.names.get(&q.name).map(|d| d.kind) {
                        c.used(&q.name);
                        return match c.prog.choices[ch]
                            .variants
                            .iter()
                            .position(|v| v.name == f.name)
                        {
                            Some(i) => mk(K::Const(Const::Choice(i as u16)), Ty::Choice(ch), span),
                            None => {
                                let cands: Vec<&str> = c.prog.choices[ch]
                                    .variants
                                    .iter()
                                    .map(|v| v.name.as_str())
                                    .collect();
                                let help = suggest(&f.name, &cands, "values");
                                c.error(
                                    "E0306",
                                    f.span,
                                    format!("`{}` is not a {}", f.name, q.name),
                                    "unknown",
                                    help,
                                );
                                err_expr(span)
                            }
                        };
                    }
                }
            }
            let bx = expr(c, fx, base, None);
            match bx.ty.clone() {
                Ty::Record(r) => {
                    let fields = &c.prog.records[r].fields;
                    match fields.iter().position(|x| x.name == f.name) {
                        Some(i) => {
                            let ty = fields[i].ty.clone();
                            mk(K::Field(Box::new(bx), i), ty, span)
                        }
                        None => {
                            let cands: Vec<&str> = fields.iter().map(|x| x.name.as_str()).collect();
                            let help = suggest(&f.name, &cands, "fields");
                            let rn = c.prog.records[r].name.clone();
                            c.error(
                                "E0306",
                                f.span,
                                format!("`{rn}` has no field `{}`", f.name),
                                "unknown field",
                                help,
                            );
                            err_expr(span)
                        }
                    }
                }
                Ty::TrackBox(t) => {
                    let track = &c.prog.tracks[t];
                    let (part, ty) = match f.name.as_str() {
                        "number" => (BoxPart::Number, Ty::Int),
                        "level" => (BoxPart::Level, Ty::Choice(track.scale)),
                        other => match track.attrs.iter().position(|a| a == other) {
                            Some(i) => (BoxPart::Attr(i), Ty::Int),
                            None => {
                                let mut cands: Vec<&str> = vec!["number", "level"];
                                cands.extend(track.attrs.iter().map(String::as_str));
                                let help = suggest(other, &cands, "box attributes");
                                c.error(
                                    "E0306",
                                    f.span,
                                    format!("a box has no `{other}`"),
                                    "unknown attribute",
                                    help,
                                );
                                return err_expr(span);
                            }
                        },
                    };
                    mk(K::BoxPart(Box::new(bx), part), ty, span)
                }
                Ty::Error => err_expr(span),
                other => {
                    let n = c.ty_name(&other);
                    c.error(
                        "E0321",
                        f.span,
                        format!("{n} has no field `{}`", f.name),
                        "here",
                        "only records and boxes have fields",
                    );
                    err_expr(span)
                }
            }
        }
        A::Index(base, key) => {
            if let A::Name(t) = &base.kind {
                if fx.find(&t.name).is_none() {
                    if let Some(DefKind::Table(tid)) = c.names.get(&t.name).map(|d| d.kind) {
                        c.used(&t.name);
                        let key_ty = match c.prog.tables[tid].key {
                            ir::TableKey::Choice(ch) => Ty::Choice(ch),
                            _ => Ty::Int,
                        };
                        let kx = expr(c, fx, key, Some(&key_ty));
                        expect_ty(c, &kx, &key_ty);
                        let kx = coerce(kx, &key_ty);
                        let site = c.site(span);
                        let ty = c.prog.tables[tid].value.clone();
                        return mk(
                            K::Lookup {
                                table: tid,
                                key: Box::new(kx),
                                site,
                            },
                            ty,
                            span,
                        );
                    }
                }
            }
            let bx = expr(c, fx, base, None);
            match bx.ty.clone() {
                Ty::Map(k, v) => {
                    let kx = expr(c, fx, key, Some(&Ty::Choice(k)));
                    expect_ty(c, &kx, &Ty::Choice(k));
                    mk(K::MapGet(Box::new(bx), Box::new(kx)), *v, span)
                }
                Ty::List(elem) => {
                    let ix = expr(c, fx, key, Some(&Ty::Int));
                    let ix = as_int(c, ix);
                    mk(K::ListGet(Box::new(bx), Box::new(ix)), *elem, span)
                }
                Ty::Error => err_expr(span),
                other => {
                    let n = c.ty_name(&other);
                    c.error(
                        "E0321",
                        base.span,
                        format!("{n} cannot be indexed"),
                        "here",
                        "`[key]` works on maps and tables",
                    );
                    err_expr(span)
                }
            }
        }
        A::Call(callee, args) => call(c, fx, callee, args, span, expect),
        A::Unary(UnOp::Neg, x) => {
            let x = expr(c, fx, x, None);
            let x = as_int(c, x);
            mk(K::Neg(Box::new(x)), Ty::Int, span)
        }
        A::Unary(UnOp::Not, x) => {
            let x = expr(c, fx, x, Some(&Ty::Bool));
            expect_ty(c, &x, &Ty::Bool);
            mk(K::Not(Box::new(x)), Ty::Bool, span)
        }
        A::Binary(op, l, r) => binary(c, fx, *op, l, r, span),
        A::Roll { target, among } => {
            if fx.formula {
                c.error(
                    "E0324",
                    span,
                    "a formula cannot roll dice",
                    "roll in a formula",
                    "make it a `procedure`",
                );
            }
            if let A::Name(t) = &target.kind {
                if fx.find(&t.name).is_none() {
                    if let Some(DefKind::Table(tid)) = c.names.get(&t.name).map(|d| d.kind) {
                        c.used(&t.name);
                        if !matches!(c.prog.tables[tid].key, ir::TableKey::Die(_)) {
                            c.error(
                                "E0321",
                                t.span,
                                format!("table `{}` has no die to roll", t.name),
                                "not a die table",
                                format!("look it up with `{}[key]`, or give it a `die:`", t.name),
                            );
                        }
                        let vt = c.prog.tables[tid].value.clone();
                        let among = among.as_ref().map(|a| {
                            let ax = expr(c, fx, a, None);
                            expect_ty(c, &ax, &Ty::List(Box::new(vt.clone())));
                            Box::new(ax)
                        });
                        let site = c.site(span);
                        return mk(
                            K::RollTable {
                                table: tid,
                                among,
                                site,
                            },
                            vt,
                            span,
                        );
                    }
                }
            }
            if let Some(a) = among {
                c.error(
                    "E0321",
                    a.span,
                    "`among` needs a die table",
                    "here",
                    "write `roll some_table among [..]`",
                );
            }
            let dx = expr(c, fx, target, Some(&Ty::Dice));
            if dx.ty == Ty::Error {
                return err_expr(span);
            }
            expect_ty(c, &dx, &Ty::Dice);
            let site = c.site(span);
            mk(
                K::Roll {
                    dice: Box::new(dx),
                    site,
                },
                Ty::Roll,
                span,
            )
        }
        A::Decide { name, from } => {
            if fx.formula {
                c.error(
                    "E0324",
                    span,
                    "a formula cannot ask for a decision",
                    "decide in a formula",
                    "make it a `procedure`",
                );
            }
            let (options, ty) = match from {
                ast::DecideFrom::Type(t) => match c.resolve_type(t).0 {
                    Ty::Choice(ch) => (ir::DecideOptions::Choice(ch), Ty::Choice(ch)),
                    Ty::Bool => (ir::DecideOptions::Bool, Ty::Bool),
                    Ty::Error => return err_expr(span),
                    other => {
                        let n = c.ty_name(&other);
                        c.error(
                            "E0321",
                            t.span,
                            format!("cannot decide a {n}"),
                            "here",
                            "decide a scale, an enum, `bool`, or `from` a list",
                        );
                        return err_expr(span);
                    }
                },
                ast::DecideFrom::List(l) => {
                    let lx = expr(c, fx, l, None);
                    let elem = element_type(c, &lx, l.span, "give a list");
                    (ir::DecideOptions::List(Box::new(lx)), elem)
                }
            };
            let site = c.site(span);
            mk(
                K::Decide {
                    name: name.name.clone(),
                    options,
                    site,
                },
                ty,
                span,
            )
        }
        A::Fill { track, level } => {
            let Some(p) = place(c, fx, track) else {
                return err_expr(span);
            };
            let Ty::Track(t) = p.ty else {
                let n = c.ty_name(&p.ty);
                c.error(
                    "E0321",
                    track.span,
                    format!("`fill` needs a track, this is {n}"),
                    "not a track",
                    "fill a track field such as `defender.wounds`",
                );
                return err_expr(span);
            };
            let scale = Ty::Choice(c.prog.tracks[t].scale);
            let lx = expr(c, fx, level, Some(&scale));
            expect_ty(c, &lx, &scale);
            let site = c.site(span);
            mk(
                K::Fill {
                    track: p,
                    level: Box::new(lx),
                    site,
                },
                Ty::Int,
                span,
            )
        }
        A::Aggregate {
            kind,
            body,
            var,
            list,
            cond,
        } => {
            let (lx, slot, cx, bx) = for_each_element(
                c,
                fx,
                (var, list, cond.as_deref(), body),
                None,
                "aggregate over a list field or `filled(track)`",
            );
            let (agg, ty, bx) = match kind {
                ast::AggKind::Sum => (Agg::Sum, Ty::Int, as_int(c, bx)),
                ast::AggKind::Count => (Agg::Count, Ty::Int, bx),
                ast::AggKind::Any | ast::AggKind::All => {
                    expect_ty(c, &bx, &Ty::Bool);
                    (
                        if *kind == ast::AggKind::Any {
                            Agg::Any
                        } else {
                            Agg::All
                        },
                        Ty::Bool,
                        bx,
                    )
                }
                ast::AggKind::Max | ast::AggKind::Min => {
                    let agg = if *kind == ast::AggKind::Max {
                        Agg::Max
                    } else {
                        Agg::Min
                    };
                    match bx.ty.clone() {
                        Ty::Choice(ch) if c.prog.choices[ch].ordered => (agg, Ty::Choice(ch), bx),
                        _ => {
                            let bx = as_int(c, bx);
                            (agg, Ty::Int, bx)
                        }
                    }
                }
            };
            mk(
                K::Aggregate {
                    kind: agg,
                    var: slot,
                    list: Box::new(lx),
                    cond: cx,
                    body: Box::new(bx),
                },
                ty,
                span,
            )
        }
        A::If(cond, a, b) => {
            let cx = expr(c, fx, cond, Some(&Ty::Bool));
            expect_ty(c, &cx, &Ty::Bool);
            let ax = expr(c, fx, a, expect);
            let bx = expr(c, fx, b, Some(&ax.ty));
            let ty = if ax.ty == Ty::Roll && bx.ty == Ty::Roll {
                Ty::Roll
            } else if ax.ty == Ty::Roll {
                Ty::Int
            } else {
                ax.ty.clone()
            };
            expect_ty(c, &bx, &ty);
            let (ax, bx) = (coerce(ax, &ty), coerce(bx, &ty));
            mk(K::If(Box::new(cx), Box::new(ax), Box::new(bx)), ty, span)
        }
        A::List(items) => {
            let want = match expect {
                Some(Ty::List(t)) => Some((**t).clone()),
                _ => None,
            };
            let mut xs: Vec<ir::Expr> = Vec::new();
            for item in items {
                let hint = xs.first().map(|x| x.ty.clone()).or_else(|| want.clone());
                xs.push(expr(c, fx, item, hint.as_ref()));
            }
            let elem = match xs.first() {
                Some(x) if x.ty == Ty::Roll => Ty::Int,
                Some(x) => x.ty.clone(),
                None => match want {
                    Some(t) => t,
                    None => {
                        c.error(
                            "E0321",
                            span,
                            "the type of this empty list is not known here",
                            "empty list",
                            "give the list an element, or use it where a list type is expected",
                        );
                        return err_expr(span);
                    }
                },
            };
            let xs: Vec<ir::Expr> = xs
                .into_iter()
                .map(|x| {
                    expect_ty(c, &x, &elem);
                    coerce(x, &elem)
                })
                .collect();
            mk(K::List(xs), Ty::List(Box::new(elem)), span)
        }
        A::Collect {
            body,
            var,
            list,
            cond,
        } => {
            let want = match expect {
                Some(Ty::List(t)) => Some((**t).clone()),
                _ => None,
            };
            let (lx, slot, cx, bx) = for_each_element(
                c,
                fx,
                (var, list, cond.as_deref(), body),
                want.as_ref(),
                "collect over a list field, `filled(track)` or a scale or enum",
            );
            let ty = if bx.ty == Ty::Roll {
                Ty::Int
            } else {
                bx.ty.clone()
            };
            let bx = coerce(bx, &ty);
            mk(
                K::Collect {
                    var: slot,
                    list: Box::new(lx),
                    cond: cx,
                    body: Box::new(bx),
                },
                Ty::List(Box::new(ty)),
                span,
            )
        }
        A::Match(scrutinee, arms) => {
            let sx = expr(c, fx, scrutinee, None);
            let sty = sx.ty.clone();
            let mut seen = Vec::new();
            let mut wildcard = false;
            let mut out: Vec<ir::MatchArm<ir::Expr>> = Vec::new();
            let mut ty: Option<Ty> = None;
            for arm in arms {
                fx.scopes.push(Vec::new());
                let (alts, binds) = pattern(c, fx, &arm.pattern, &sty, &mut seen, &mut wildcard);
                let bx = expr(c, fx, &arm.body, ty.as_ref().or(expect));
                fx.scopes.pop();
                let bx = match &ty {
                    None => {
                        ty = Some(if bx.ty == Ty::Roll {
                            Ty::Int
                        } else {
                            bx.ty.clone()
                        });
                        coerce(bx, ty.as_ref().unwrap_or(&Ty::Error))
                    }
                    Some(t) => {
                        expect_ty(c, &bx, t);
                        coerce(bx, t)
                    }
                };
                let site = c.site(pattern_span(c, arm.span));
                out.push(ir::MatchArm {
                    alts,
                    binds,
                    body: bx,
                    site,
                });
            }
            exhaustive(c, &sty, &seen, wildcard, scrutinee.span);
            mk(
                K::Match {
                    scrutinee: Box::new(sx),
                    arms: out,
                },
                ty.unwrap_or(Ty::Error),
                span,
            )
        }
    }
}

fn name(c: &mut Checker, fx: &mut Fx, n: &ast::Ident, expect: Option<&Ty>) -> ir::Expr {
    let span = n.span;
    if let Some(slot) = fx.find(&n.name) {
        fx.unread.retain(|(s, _)| *s != slot);
        return mk(K::Local(slot), fx.locals[slot].ty.clone(), span);
    }
    if let Some(def) = c.names.get(&n.name).copied() {
        if let DefKind::Constant(k) = def.kind {
            c.used(&n.name);
            let k = &c.prog.constants[k];
            return mk(K::Const(k.value.clone()), k.ty.clone(), span);
        }
    }
    // A level or variant: by the expected type when several share the name.
    if let Some(cands) = c.variants.get(&n.name).cloned() {
        let pick = match (cands.as_slice(), expect) {
            ([one], _) => Some(*one),
            (many, Some(Ty::Choice(want))) => many.iter().find(|(ch, _)| ch == want).copied(),
            _ => None,
        };
        match pick {
            Some((ch, i)) => {
                let cname = c.prog.choices[ch].name.clone();
                c.used(&cname);
                return mk(K::Const(Const::Choice(i)), Ty::Choice(ch), span);
            }
            None => {
                let opts: Vec<String> = cands
                    .iter()
                    .map(|(ch, _)| format!("`{}.{}`", c.prog.choices[*ch].name, n.name))
                    .collect();
                c.error(
                    "E0325",
                    span,
                    format!("`{}` is a value of several scales or enums", n.name),
                    "ambiguous",
                    format!("write {}", opts.join(" or ")),
                );
                return err_expr(span);
            }
        }
    }
    // A scale or enum's name, used as a value, is the list of all its levels or variants
    // in order (`max(penalty(c, part) for part in BodyPart)`).
    if let Some(DefKind::Choice(ch)) = c.names.get(&n.name).map(|d| d.kind) {
        c.used(&n.name);
        let all = (0..c.prog.choices[ch].variants.len())
            .map(|i| Const::Choice(i as u16))
            .collect();
        return mk(
            K::Const(Const::List(all)),
            Ty::List(Box::new(Ty::Choice(ch))),
            span,
        );
    }
    if let Some(tags) = c.tags.get(&n.name).cloned() {
        let pick = match (tags.as_slice(), expect) {
            ([one], _) => Some(*one),
            (many, Some(Ty::Outcome(want))) => many.iter().find(|(o, _)| o == want).copied(),
            _ => None,
        };
        if let Some((o, t)) = pick {
            if !c.prog.outcomes[o].tags[t as usize].fields.is_empty() {
                c.error(
                    "E0326",
                    span,
                    format!("`{}` needs its fields", n.name),
                    "fields missing",
                    format!("write `{}(field: value, ...)`", n.name),
                );
                return err_expr(span);
            }
            let oname = c.prog.outcomes[o].name.clone();
            c.used(&oname);
            return mk(
                K::MakeOutcome {
                    outcome: o,
                    tag: t,
                    fields: Vec::new(),
                },
                Ty::Outcome(o),
                span,
            );
        }
    }
    let mut cands: Vec<String> = fx.scopes.iter().flatten().map(|(n, _)| n.clone()).collect();
    cands.extend(c.prog.constants.iter().map(|k| k.name.clone()));
    cands.extend(c.variants.keys().cloned());
    cands.extend(c.tags.keys().cloned());
    let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
    let mut help = suggest(&n.name, &cands, "names");
    if let Some(d) = c.names.get(&n.name) {
        help = format!(
            "`{}` is a {}, which cannot be used as a value here",
            n.name,
            d.kind.describe()
        );
    }
    c.error(
        "E0306",
        span,
        format!("unknown name `{}`", n.name),
        "not defined",
        help,
    );
    err_expr(span)
}

fn binary(
    c: &mut Checker,
    fx: &mut Fx,
    op: BinOp,
    l: &ast::Expr,
    r: &ast::Expr,
    span: Span,
) -> ir::Expr {
    match op {
        BinOp::And | BinOp::Or => {
            let lx = expr(c, fx, l, Some(&Ty::Bool));
            let rx = expr(c, fx, r, Some(&Ty::Bool));
            expect_ty(c, &lx, &Ty::Bool);
            expect_ty(c, &rx, &Ty::Bool);
            let kind = if op == BinOp::And {
                K::And(Box::new(lx), Box::new(rx))
            } else {
                K::Or(Box::new(lx), Box::new(rx))
            };
            mk(kind, Ty::Bool, span)
        }
        BinOp::In => {
            let lx = expr(c, fx, l, None);
            let rx = expr(c, fx, r, None);
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
            let lx = expr(c, fx, l, None);
            let rx = expr(c, fx, r, Some(&lx.ty));
            // A bare variant on the left takes its type from the right.
            let lx = if lx.ty == Ty::Error && matches!(l.kind, A::Name(_)) {
                expr_quiet_retry(c, fx, l, &rx.ty).unwrap_or(lx)
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
                Ty::Bool | Ty::Outcome(_) => false,
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
            let lx = expr(c, fx, l, None);
            let rx = expr(c, fx, r, None);
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
            let lx = expr(c, fx, l, None);
            let rx = expr(c, fx, r, None);
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
                return mk(K::DiceTimes(Box::new(d), Box::new(n)), Ty::Dice, span);
            }
            let (lx, rx) = (as_int(c, lx), as_int(c, rx));
            let iop = match op {
                BinOp::Mul => IntOp::Mul,
                BinOp::Div => IntOp::Div,
                _ => IntOp::Rem,
            };
            mk(K::Int(iop, Box::new(lx), Box::new(rx)), Ty::Int, span)
        }
    }
}

/// Re-checks a bare name with a type hint, dropping the diagnostics of the first try.
fn expr_quiet_retry(c: &mut Checker, fx: &mut Fx, e: &ast::Expr, hint: &Ty) -> Option<ir::Expr> {
    let before = c.diags.items.len();
    let x = expr(c, fx, e, Some(hint));
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

fn call(
    c: &mut Checker,
    fx: &mut Fx,
    callee: &ast::Expr,
    args: &[ast::Arg],
    span: Span,
    expect: Option<&Ty>,
) -> ir::Expr {
    let A::Name(fname) = &callee.kind else {
        c.error(
            "E0321",
            callee.span,
            "only a named formula, procedure, tag or built-in can be called",
            "not callable",
            "call a formula by its name: `initiative(c)`",
        );
        return err_expr(span);
    };
    let positional = |c: &mut Checker, args: &[ast::Arg]| {
        if let Some(a) = args.iter().find(|a| a.name.is_some()) {
            let n = a.name.as_ref().map(|n| n.span).unwrap_or(span);
            c.error(
                "E0327",
                n,
                "this call takes its arguments in order, without names",
                "named argument",
                "remove `name:`",
            );
        }
    };
    let arity = |c: &mut Checker, want: std::ops::RangeInclusive<usize>, what: &str| -> bool {
        if want.contains(&args.len()) {
            return true;
        }
        let w = if want.start() == want.end() {
            want.start().to_string()
        } else if *want.end() == usize::MAX {
            format!("at least {}", want.start())
        } else {
            format!("{} to {}", want.start(), want.end())
        };
        c.error(
            "E0327",
            span,
            format!(
                "`{what}` takes {w} argument{}, {} given",
                if w == "1" { "" } else { "s" },
                args.len()
            ),
            "wrong number of arguments",
            format!(
                "give `{what}` {w} argument{}",
                if w == "1" { "" } else { "s" }
            ),
        );
        false
    };
    if fx.find(&fname.name).is_none() {
        match fname.name.as_str() {
            "min" | "max" | "clamp" => {
                positional(c, args);
                let is_clamp = fname.name == "clamp";
                if !arity(
                    c,
                    if is_clamp { 3..=3 } else { 1..=usize::MAX },
                    &fname.name,
                ) {
                    return err_expr(span);
                }
                let mut xs: Vec<ir::Expr> = Vec::new();
                for a in args {
                    let hint = xs.first().map(|x| x.ty.clone()).or_else(|| expect.cloned());
                    xs.push(expr(c, fx, &a.value, hint.as_ref()));
                }
                let level = xs.iter().find_map(|x| match x.ty {
                    Ty::Choice(ch) if c.prog.choices[ch].ordered => Some(x.ty.clone()),
                    _ => None,
                });
                let ty = level.unwrap_or(Ty::Int);
                let xs: Vec<ir::Expr> = xs
                    .into_iter()
                    .map(|x| {
                        expect_ty(c, &x, &ty);
                        coerce(x, &ty)
                    })
                    .collect();
                let kind = match fname.name.as_str() {
                    "min" => K::Min(xs),
                    "max" => K::Max(xs),
                    _ => {
                        let mut it = xs.into_iter();
                        let (a, b, d) = (it.next(), it.next(), it.next());
                        match (a, b, d) {
                            (Some(a), Some(b), Some(d)) => {
                                K::Clamp(Box::new(a), Box::new(b), Box::new(d))
                            }
                            _ => return err_expr(span),
                        }
                    }
                };
                return mk(kind, ty, span);
            }
            "abs" | "len" | "natural" | "filled" => {
                positional(c, args);
                if !arity(c, 1..=1, &fname.name) {
                    return err_expr(span);
                }
                let x = expr(c, fx, &args[0].value, None);
                return match fname.name.as_str() {
                    "abs" => {
                        let x = as_int(c, x);
                        mk(K::Abs(Box::new(x)), Ty::Int, span)
                    }
                    "len" => {
                        if !matches!(x.ty, Ty::List(_) | Ty::Error) {
                            let n = c.ty_name(&x.ty);
                            c.error(
                                "E0321",
                                x.span,
                                format!("`len` needs a list, this is {n}"),
                                "not a list",
                                "give a list",
                            );
                        }
                        mk(K::Len(Box::new(x)), Ty::Int, span)
                    }
                    "natural" => {
                        if !matches!(x.ty, Ty::Roll | Ty::Error) {
                            let n = c.ty_name(&x.ty);
                            c.error(
                                "E0321",
                                x.span,
                                format!("`natural` needs a roll, this is {n}"),
                                "not a roll",
                                "bind a roll with `let r = roll d20 + bonus`, then `natural(r)`",
                            );
                        }
                        mk(K::Natural(Box::new(x)), Ty::Int, span)
                    }
                    _ => match x.ty.clone() {
                        Ty::Track(t) => mk(
                            K::Filled(Box::new(x)),
                            Ty::List(Box::new(Ty::TrackBox(t))),
                            span,
                        ),
                        Ty::Error => err_expr(span),
                        other => {
                            let n = c.ty_name(&other);
                            c.error(
                                "E0321",
                                x.span,
                                format!("`filled` needs a track, this is {n}"),
                                "not a track",
                                "give a track field such as `c.wounds`",
                            );
                            err_expr(span)
                        }
                    },
                };
            }
            _ => {}
        }
    }
    match c.names.get(&fname.name).map(|d| d.kind) {
        Some(DefKind::Function(f)) => {
            c.used(&fname.name);
            positional(c, args);
            if c.fn_state[f] == 0 && c.fn_stack.len() >= MAX_CALL_DEPTH {
                if !c.call_depth_reported {
                    c.call_depth_reported = true;
                    c.error(
                        "E0331",
                        fname.span,
                        format!(
                            "calls nest more than {MAX_CALL_DEPTH} formulas and procedures deep"
                        ),
                        "too deep",
                        "flatten the chain: compute steps in one formula or procedure",
                    );
                }
                return err_expr(span);
            }
            if !ensure_checked(c, f) {
                cycle_error(c, f, fname);
                return err_expr(span);
            }
            let callee_fn = c.prog.functions[f].clone();
            if fx.formula && callee_fn.is_procedure() {
                c.error(
                    "E0324",
                    span,
                    format!("a formula cannot call procedure `{}`", fname.name),
                    "procedure call",
                    "make the caller a `procedure`",
                );
            }
            if !arity(
                c,
                callee_fn.params.len()..=callee_fn.params.len(),
                &fname.name,
            ) {
                return err_expr(span);
            }
            let mut xs = Vec::new();
            for (a, p) in args.iter().zip(&callee_fn.params) {
                let x = expr(c, fx, &a.value, Some(&p.ty));
                expect_ty(c, &x, &p.ty);
                xs.push(coerce(x, &p.ty));
            }
            mk(K::Call(f, xs), callee_fn.ret.clone(), span)
        }
        Some(DefKind::Record(r)) => make_record(c, fx, r, fname, args, span),
        _ => {
            // An outcome tag with fields.
            if let Some(tags) = c.tags.get(&fname.name).cloned() {
                let pick = match (tags.as_slice(), expect) {
                    ([one], _) => Some(*one),
                    (many, Some(Ty::Outcome(want))) => {
                        many.iter().find(|(o, _)| o == want).copied()
                    }
                    _ => None,
                };
                let Some((o, t)) = pick else {
                    c.error(
                        "E0325",
                        fname.span,
                        format!("`{}` is a tag of several outcomes", fname.name),
                        "ambiguous",
                        "return it where the outcome type is known",
                    );
                    return err_expr(span);
                };
                let oname = c.prog.outcomes[o].name.clone();
                c.used(&oname);
                let fields = c.prog.outcomes[o].tags[t as usize].fields.clone();
                let mut values: Vec<Option<ir::Expr>> = vec![None; fields.len()];
                for (i, a) in args.iter().enumerate() {
                    let idx = match &a.name {
                        Some(n) => match fields.iter().position(|(f, _)| *f == n.name) {
                            Some(i) => i,
                            None => {
                                let cands: Vec<&str> =
                                    fields.iter().map(|(f, _)| f.as_str()).collect();
                                let help = suggest(&n.name, &cands, "fields");
                                c.error(
                                    "E0306",
                                    n.span,
                                    format!("`{}` has no field `{}`", fname.name, n.name),
                                    "unknown field",
                                    help,
                                );
                                continue;
                            }
                        },
                        None if i < fields.len() => i,
                        None => {
                            c.error(
                                "E0327",
                                a.value.span,
                                format!("`{}` has only {} field(s)", fname.name, fields.len()),
                                "extra value",
                                "remove it",
                            );
                            continue;
                        }
                    };
                    let x = expr(c, fx, &a.value, Some(&fields[idx].1));
                    expect_ty(c, &x, &fields[idx].1);
                    values[idx] = Some(coerce(x, &fields[idx].1));
                }
                let missing: Vec<String> = fields
                    .iter()
                    .zip(&values)
                    .filter(|(_, v)| v.is_none())
                    .map(|((f, _), _)| format!("`{f}`"))
                    .collect();
                if !missing.is_empty() {
                    c.error(
                        "E0326",
                        span,
                        format!("`{}` is missing {}", fname.name, missing.join(", ")),
                        "missing fields",
                        format!("give {}", missing.join(", ")),
                    );
                    return err_expr(span);
                }
                let values = values.into_iter().flatten().collect();
                return mk(
                    K::MakeOutcome {
                        outcome: o,
                        tag: t,
                        fields: values,
                    },
                    Ty::Outcome(o),
                    span,
                );
            }
            let mut cands: Vec<String> = c.prog.functions.iter().map(|f| f.name.clone()).collect();
            cands.extend(
                ["min", "max", "clamp", "abs", "len", "natural", "filled"].map(String::from),
            );
            cands.extend(c.tags.keys().cloned());
            let cands: Vec<&str> = cands.iter().map(String::as_str).collect();
            let help = suggest(&fname.name, &cands, "formulas, procedures and built-ins");
            c.error(
                "E0306",
                fname.span,
                format!("unknown formula or procedure `{}`", fname.name),
                "not defined",
                help,
            );
            err_expr(span)
        }
    }
}

/// Marks parameters whose state a function changes, directly or through a call.
pub fn mark_mutated(c: &mut Checker) {
    loop {
        let mut changed = false;
        for f in 0..c.prog.functions.len() {
            let mut roots: Vec<usize> = Vec::new();
            let mut aliases: Vec<(usize, usize)> = Vec::new();
            if let ir::Body::Procedure(stmts) = &c.prog.functions[f].body {
                for s in stmts {
                    visit_stmt(s, &c.prog.functions, &mut roots);
                }
                record_aliases(stmts, &mut aliases);
            }
            for mut r in roots {
                // `let me = c` names the same record: changing `me` changes `c`.
                for _ in 0..aliases.len() {
                    match aliases.iter().find(|(slot, _)| *slot == r) {
                        Some((_, root)) => r = *root,
                        None => break,
                    }
                }
                if let Some(p) = c.prog.functions[f].params.get_mut(r) {
                    if !p.mutated {
                        p.mutated = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

fn visit_stmt(s: &ir::Stmt, fns: &[ir::Function], roots: &mut Vec<usize>) {
    match s {
        ir::Stmt::Let { value, .. } | ir::Stmt::Expr(value) => visit_expr(value, fns, roots),
        ir::Stmt::Assign { place, value, .. } => {
            if !place.path.is_empty() {
                roots.push(place.root);
            }
            for st in &place.path {
                if let ir::PlaceStep::Key(k) | ir::PlaceStep::Index(k) = st {
                    visit_expr(k, fns, roots);
                }
            }
            visit_expr(value, fns, roots);
        }
        ir::Stmt::If {
            branches,
            otherwise,
        } => {
            for (cnd, b, _) in branches {
                visit_expr(cnd, fns, roots);
                b.iter().for_each(|s| visit_stmt(s, fns, roots));
            }
            otherwise
                .iter()
                .flatten()
                .for_each(|s| visit_stmt(s, fns, roots));
        }
        ir::Stmt::Match { scrutinee, arms } => {
            visit_expr(scrutinee, fns, roots);
            arms.iter()
                .flat_map(|a| &a.body)
                .for_each(|s| visit_stmt(s, fns, roots));
        }
        ir::Stmt::ForRange { lo, hi, body, .. } => {
            visit_expr(lo, fns, roots);
            visit_expr(hi, fns, roots);
            body.iter().for_each(|s| visit_stmt(s, fns, roots));
        }
        ir::Stmt::For { list, body, .. } => {
            visit_expr(list, fns, roots);
            body.iter().for_each(|s| visit_stmt(s, fns, roots));
        }
        ir::Stmt::Return { value, .. } => value.iter().for_each(|v| visit_expr(v, fns, roots)),
    }
}

/// The local a record expression reads through fields and list indices (`c` of
/// `c.mount`, of `c.wounds[i]`).
fn local_root(e: &ir::Expr) -> Option<usize> {
    match &e.kind {
        K::Local(slot) => Some(*slot),
        K::Field(r, _) | K::ListGet(r, _) => local_root(r),
        _ => None,
    }
}

/// `let` slots that name a record of another local (records are shared, not copied).
fn record_aliases(stmts: &[ir::Stmt], out: &mut Vec<(usize, usize)>) {
    for s in stmts {
        match s {
            ir::Stmt::Let { slot, value, .. } if matches!(value.ty, Ty::Record(_)) => {
                if let Some(root) = local_root(value) {
                    out.push((*slot, root));
                }
            }
            ir::Stmt::If {
                branches,
                otherwise,
            } => {
                branches.iter().for_each(|(_, b, _)| record_aliases(b, out));
                otherwise.iter().for_each(|o| record_aliases(o, out));
            }
            ir::Stmt::Match { arms, .. } => arms.iter().for_each(|a| record_aliases(&a.body, out)),
            ir::Stmt::For { body, .. } | ir::Stmt::ForRange { body, .. } => {
                record_aliases(body, out)
            }
            _ => {}
        }
    }
}

fn visit_expr(e: &ir::Expr, fns: &[ir::Function], roots: &mut Vec<usize>) {
    match &e.kind {
        K::Fill { track, level, .. } => {
            roots.push(track.root);
            visit_expr(level, fns, roots);
            for st in &track.path {
                if let ir::PlaceStep::Key(k) | ir::PlaceStep::Index(k) = st {
                    visit_expr(k, fns, roots);
                }
            }
        }
        K::Call(f, args) => {
            for (a, p) in args.iter().zip(&fns[*f].params) {
                if p.mutated {
                    if let Some(slot) = local_root(a) {
                        roots.push(slot);
                    }
                }
                visit_expr(a, fns, roots);
            }
        }
        _ => for_each_child(e, &mut |x| visit_expr(x, fns, roots)),
    }
}

/// Calls `f` on each direct child expression.
pub fn for_each_child(e: &ir::Expr, f: &mut dyn FnMut(&ir::Expr)) {
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
        K::MapGet(a, b)
        | K::Int(_, a, b)
        | K::Compare(_, a, b)
        | K::And(a, b)
        | K::Or(a, b)
        | K::In(a, b)
        | K::DiceTimes(a, b) => {
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
        K::Lookup { key, .. } => f(key),
        K::Call(_, args) | K::Min(args) | K::Max(args) => args.iter().for_each(&mut *f),
        K::MakeOutcome { fields, .. } => fields.iter().for_each(&mut *f),
        K::Clamp(a, b, d) | K::If(a, b, d) => {
            f(a);
            f(b);
            f(d)
        }
        K::RollTable { among, .. } => among.iter().for_each(|a| f(a)),
        K::Decide { options, .. } => {
            if let ir::DecideOptions::List(l) = options {
                f(l)
            }
        }
        K::Fill { level, .. } => f(level),
        K::Aggregate {
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
        K::MakeRecord { fields: xs, .. } | K::List(xs) => xs.iter().for_each(&mut *f),
        K::Collect {
            list, cond, body, ..
        } => {
            f(list);
            cond.iter().for_each(|x| f(x));
            f(body)
        }
        K::ListGet(a, b) => {
            f(a);
            f(b)
        }
    }
}

/// Reports a call that closes a cycle, naming every function on it.
fn cycle_error(c: &mut Checker, f: usize, fname: &ast::Ident) {
    let start = c.fn_stack.iter().position(|&g| g == f).unwrap_or(0);
    let mut chain: Vec<String> = c.fn_stack[start..]
        .iter()
        .map(|&g| format!("`{}`", c.prog.functions[g].name))
        .collect();
    chain.push(format!("`{}`", fname.name));
    let msg = if chain.len() <= 2 {
        format!("`{}` calls itself", fname.name)
    } else {
        format!("a cycle of calls: {}", chain.join(" calls "))
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

/// `Type(field: value, ...)`: a new record; omitted fields take their defaults (or the
/// zero of their type when they have none and are lists, maps or tracks).
fn make_record(
    c: &mut Checker,
    fx: &mut Fx,
    r: usize,
    fname: &ast::Ident,
    args: &[ast::Arg],
    span: Span,
) -> ir::Expr {
    c.used(&fname.name);
    let fields = c.prog.records[r].fields.clone();
    let mut values: Vec<Option<ir::Expr>> = vec![None; fields.len()];
    for a in args {
        let Some(n) = &a.name else {
            c.error(
                "E0327",
                a.value.span,
                format!("the fields of a new `{}` are given by name", fname.name),
                "unnamed value",
                "write `field: value`",
            );
            continue;
        };
        let Some(i) = fields.iter().position(|f| f.name == n.name) else {
            let cands: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            let help = suggest(&n.name, &cands, "fields");
            c.error(
                "E0306",
                n.span,
                format!("`{}` has no field `{}`", fname.name, n.name),
                "unknown field",
                help,
            );
            continue;
        };
        let x = expr(c, fx, &a.value, Some(&fields[i].ty));
        expect_ty(c, &x, &fields[i].ty);
        values[i] = Some(coerce(x, &fields[i].ty));
    }
    let mut missing = Vec::new();
    let mut out = Vec::new();
    for (f, v) in fields.iter().zip(values) {
        match v {
            Some(x) => out.push(x),
            None => {
                let value = match &f.default {
                    Some(d) => d.clone(),
                    None if matches!(f.ty, Ty::List(_) | Ty::Map(..) | Ty::Track(_)) => {
                        c.prog.zero(&f.ty)
                    }
                    None => {
                        missing.push(format!("`{}`", f.name));
                        c.prog.zero(&f.ty)
                    }
                };
                out.push(mk(K::Const(value), f.ty.clone(), span));
            }
        }
    }
    if !missing.is_empty() {
        c.error(
            "E0326",
            span,
            format!(
                "this new `{}` is missing {}",
                fname.name,
                missing.join(", ")
            ),
            "missing fields",
            format!("give {}, or a default in `types:`", missing.join(", ")),
        );
        return err_expr(span);
    }
    mk(
        K::MakeRecord {
            record: r,
            fields: out,
        },
        Ty::Record(r),
        span,
    )
}

/// The span of a match arm's pattern (`Hit(level)`, `A | B`, `_`): the arm up to its
/// `=>`, for its trace site.
fn pattern_span(c: &Checker, arm_span: Span) -> Span {
    let text = c.prog.sources.slice(arm_span);
    match text.find("=>") {
        Some(i) => Span {
            end: arm_span.start + text[..i].trim_end().len() as u32,
            ..arm_span
        },
        None => arm_span,
    }
}

/// The element type of a list-typed expression; anything else is reported (with `help`
/// saying what the construct iterates over) and gives `Ty::Error`.
fn element_type(c: &mut Checker, list: &ir::Expr, span: Span, help: &str) -> Ty {
    match &list.ty {
        Ty::List(t) => (**t).clone(),
        Ty::Error => Ty::Error,
        other => {
            let n = c.ty_name(other);
            c.error(
                "E0321",
                span,
                format!("this needs a list, found {n}"),
                "not a list",
                help,
            );
            Ty::Error
        }
    }
}

/// `body for var in list if cond` (aggregates and comprehensions): checks the list,
/// binds `var` to its elements in a new scope, checks the condition (a bool) and the
/// body there. Returns the list, the variable's slot, the condition and the body.
#[allow(clippy::type_complexity)]
fn for_each_element(
    c: &mut Checker,
    fx: &mut Fx,
    (var, list, cond, body): (&ast::Ident, &ast::Expr, Option<&ast::Expr>, &ast::Expr),
    body_hint: Option<&Ty>,
    help: &str,
) -> (ir::Expr, usize, Option<Box<ir::Expr>>, ir::Expr) {
    let lx = expr(c, fx, list, None);
    let elem = element_type(c, &lx, list.span, help);
    fx.scopes.push(Vec::new());
    let slot = fx.bind(&var.name, elem);
    let cx = cond.map(|cnd| {
        let x = expr(c, fx, cnd, Some(&Ty::Bool));
        expect_ty(c, &x, &Ty::Bool);
        Box::new(x)
    });
    let bx = expr(c, fx, body, body_hint);
    fx.scopes.pop();
    (lx, slot, cx, bx)
}

/// The cases a `match` on `sty` can name: a scale's levels, an enum's variants or an
/// outcome's tags, in order; `None` for other types.
fn case_names(c: &Checker, sty: &Ty) -> Option<Vec<String>> {
    match sty {
        Ty::Choice(ch) => Some(
            c.prog.choices[*ch]
                .variants
                .iter()
                .map(|v| v.name.clone())
                .collect(),
        ),
        Ty::Outcome(o) => Some(
            c.prog.outcomes[*o]
                .tags
                .iter()
                .map(|t| t.name.clone())
                .collect(),
        ),
        _ => None,
    }
}
