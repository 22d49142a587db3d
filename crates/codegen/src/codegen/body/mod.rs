//! Function bodies: formulas and procedures as Rust, in the interpreter's order.
//!
//! Expressions compile to an [`Ex`]: statements to run first (`pre`) and a pure Rust
//! expression for the value (`val`). Everything with an effect (a roll, a decision, a
//! traced table lookup, a fill, a procedure call, a traced `match`) is bound in `pre`,
//! so effects happen in evaluation order and a `val` can be moved or repeated freely.
//! When a later operand has effects, earlier operands that are not plain names are
//! bound first ([`BodyGen::seq`]), which keeps the interpreter's left-to-right order.

mod branches;
mod effects;
mod expr;
mod fight;
mod lists;
mod operands;
mod scan;
mod stmt;
mod tables;

use super::ident::{lit, Case, Names};
use super::{Gen, RT};
use crate::ir::{self, Ty};
use scan::*;

/// Operator precedence of a generated expression, loosest first: an operand looser than
/// its operator needs parentheses.
const P_BLOCK: u8 = 0;
const P_OR: u8 = 1;
const P_AND: u8 = 2;
const P_CMP: u8 = 3;
const P_CAST: u8 = 6;
const P_UNARY: u8 = 7;
const P_ATOM: u8 = 8;

/// How a generated value of a non-`Copy` type (record, list) is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// An owned value (or any value of a `Copy` type).
    Value,
    /// A place of type `T` (`c.armor`): borrow it with `&`.
    Place,
    /// A value of type `&T` (a parameter, a loop variable).
    Ref,
}

#[derive(Debug, Clone)]
struct Ex {
    pre: Vec<String>,
    val: String,
    prec: u8,
    /// Evaluating `val` again gives the same value: a name, a literal, a constant path.
    stable: bool,
    mode: Mode,
    /// For a roll built from parts: (total, natural), both pure.
    roll: Option<(String, String)>,
    /// `val` is the requested destination, already bound by `pre`.
    bound: bool,
    /// The value is a list (a place of one is copied before a later change of state).
    list: bool,
    /// The value is a list held as a Rust array (`Color::ALL`, `[a, b]`), a table's
    /// `&'static [T]` or a `SmallList`: read like a `Vec`, owned with `.to_vec()`.
    array: bool,
    /// The value is a `SmallList` (a list the rules computed, of small elements).
    small: bool,
}

impl Ex {
    fn new(val: impl Into<String>, prec: u8) -> Ex {
        Ex {
            pre: Vec::new(),
            val: val.into(),
            prec,
            stable: false,
            mode: Mode::Value,
            roll: None,
            bound: false,
            list: false,
            array: false,
            small: false,
        }
    }

    fn stable(mut self) -> Ex {
        self.stable = true;
        self
    }

    fn with_pre(mut self, pre: Vec<String>) -> Ex {
        self.pre = pre;
        self
    }

    fn mode(mut self, mode: Mode) -> Ex {
        self.mode = mode;
        self
    }

    /// `val` as an operand that needs at least precedence `min`.
    fn at(&self, min: u8) -> String {
        paren(&self.val, self.prec, min)
    }

    /// `val` as a method receiver or a field/index base.
    fn recv(&self) -> String {
        self.at(P_ATOM)
    }
}

fn paren(val: &str, prec: u8, min: u8) -> String {
    if prec < min {
        format!("({val})")
    } else {
        val.to_string()
    }
}

/// Wraps a textual expression for use as a receiver unless it is plainly one (a name, a
/// path, a field, a call).
pub fn recv(x: &str) -> String {
    let mut depth = 0i32;
    for c in x.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ' ' | '+' | '-' | '*' | '/' | '%' | '!' | '&' | '|' | '<' | '>' | '=' if depth == 0 => {
                return format!("({x})")
            }
            _ => {}
        }
    }
    x.to_string()
}

/// A struct field initializer, in shorthand when the value is the field's name.
fn init(field: &str, val: &str) -> String {
    if field == val {
        val.to_string()
    } else {
        format!("{field}: {val}")
    }
}

/// `|param| body`, or the function itself when the body only calls it with `param`.
pub fn closure(param: &str, body: &str) -> String {
    if let Some(name) = body.strip_suffix(&format!("({param})")) {
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '#')
        {
            return name.to_string();
        }
    }
    format!("|{param}| {body}")
}

/// Where an expression's value goes.
#[derive(Debug, Clone)]
enum Dest {
    /// The caller takes `val`.
    Val,
    /// The value is thrown away (an expression statement).
    Discard,
    /// Bind it to this local (`let [mut] ident = ...`).
    Bind(String, bool),
}

#[derive(Debug, Clone)]
struct Slot {
    ident: String,
    /// Reads give a `&T` (`Ref`) or the local itself (`Value`, a place for non-`Copy`).
    by_ref: bool,
    /// A list held as a Rust array, a `&'static [T]` or a `SmallList` (see [`Ex`]).
    array: bool,
    /// A list held as a `SmallList`.
    small: bool,
}

/// The generator of one function body: the program-wide generator, the function, and
/// what is known about its locals (Rust names, how each is held, which are reassigned
/// or aliased). Its methods are split by construct over `expr.rs`, `stmt.rs` and
/// `effects.rs`.
struct BodyGen<'a, 'p> {
    g: &'a Gen<'p>,
    f: &'a ir::Function,
    traced: bool,
    names: Names,
    slots: Vec<Slot>,
    /// Slots assigned or filled as a whole: `let mut`.
    mutable: Vec<bool>,
    /// The statements generated so far that change state (fills, procedure calls).
    mutating: Vec<String>,
    /// For a local that names a record of another (`let me = c`): that local.
    alias: Vec<Option<usize>>,
    /// For each `let` of a record read from another local's state: that local (found
    /// before generating, so a change through a later alias is known at the `let`).
    static_alias: Vec<Option<usize>>,
    /// Hidden locals holding a roll's dice (`faces(r)`) declared so far, and those an
    /// assignment rolls again (declared `mut`).
    faces_declared: Vec<usize>,
    faces_rerolled: Vec<usize>,
}

pub(super) fn function(g: &Gen, fid: usize, f: &ir::Function) -> Result<codegen::Function, String> {
    let traced = !super::is_formula(&f.body);
    // Locals must not shadow module-level functions and constants.
    let mut names = Names::inside(g.id.module_values.clone());
    names.reserve(["env", "fight"]);
    let mut read = vec![false; f.locals.len()];
    let mut mutable = vec![false; f.locals.len()];
    match &f.body {
        ir::Body::Formula(e) => scan_expr(e, &mut read, &mut mutable),
        ir::Body::Procedure(stmts) => reachable(stmts)
            .iter()
            .for_each(|s| scan_stmt(s, &mut read, &mut mutable)),
    }
    let mut lets = vec![false; f.locals.len()];
    if let ir::Body::Procedure(stmts) = &f.body {
        mark_lets(stmts, &mut lets);
    }
    mark_passed_to_change(f, &g.p.functions, &mut mutable);
    let mut slots = Vec::new();
    for (i, l) in f.locals.iter().enumerate() {
        // A `let` is read by its trace event; anything else never read gets a `_` name.
        let used = read[i] || lets[i];
        let base = if used {
            l.name.clone()
        } else {
            format!("_{}", l.name)
        };
        let ident = names.alloc(&base, Case::Snake);
        let by_ref = i < f.params.len() && !g.is_copy(&l.ty);
        slots.push(Slot {
            ident,
            by_ref,
            array: false,
            small: false,
        });
    }
    let alias = vec![None; f.locals.len()];
    let mut static_alias = vec![None; f.locals.len()];
    if let ir::Body::Procedure(stmts) = &f.body {
        record_aliases(stmts, &mut static_alias);
    }
    // Parameters this procedure itself changes (not only passes on to be changed).
    let mut changed = vec![false; f.params.len()];
    if let ir::Body::Procedure(stmts) = &f.body {
        changed_roots(stmts, &g.p.functions, &mut changed);
    }
    let mut bg = BodyGen {
        g,
        f,
        traced,
        names,
        slots,
        mutable,
        mutating: Vec::new(),
        alias,
        static_alias,
        faces_declared: Vec::new(),
        faces_rerolled: rerolled_faces(&f.body),
    };

    let mut func = codegen::Function::new(&g.id.function[fid]);
    func.vis("pub");
    let title = format!(
        "{} `{}`.",
        if traced { "Procedure" } else { "Formula" },
        f.name
    );
    super::docs::fn_doc(&mut func, &g.item_lines(&title, f.span));
    // `#[inline]` on every formula and procedure, as a hand-written rules crate marks
    // the functions a game calls in its hot loop. A formula is not generic: without it a
    // caller in another crate (the game) cannot inline it at all without LTO. A
    // procedure is generic, so it is compiled in the game's crate, but into one of its
    // codegen units (16 in cargo's default release profile); with the hint each unit
    // that calls it gets its own copy to inline. It is a hint: LLVM still weighs each
    // call, so a long procedure stays a call where inlining would not pay.
    func.attr("inline");
    let nargs = f.params.len() + usize::from(traced) + usize::from(g.fight[fid]);
    if nargs > 7 {
        func.attr("allow(clippy::too_many_arguments)");
    }
    if f.locals.iter().any(|l| l.ty == Ty::Faces) {
        // A roll's dice are kept in a local declared before the statement that rolls.
        func.attr("allow(clippy::needless_late_init)");
    }
    if let ir::Body::Procedure(stmts) = &f.body {
        if loop_var_reassigned(stmts, &bg.mutable) {
            // `for x in xs { x = .. }`: each turn starts from the element, which the
            // body may never read.
            func.attr("allow(unused_assignments)");
        }
    }
    if traced {
        func.generic(format!("D: {RT}::DiceSource"));
        func.generic(format!("X: {RT}::Decide"));
        func.generic(format!("T: {RT}::TraceSink"));
        func.arg("env", format!("&mut {RT}::Env<D, X, T>"));
    }
    // The parameters, declared once the body is made: the fight's (after `env`) is
    // named `_fight` when the body never reads it (a procedure taking a fighter it does
    // not use).
    let mut params: Vec<(String, String)> = Vec::new();
    let mut copies = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let ident = bg.slots[i].ident.clone();
        let own = changed.get(i).copied().unwrap_or(false);
        match &p.ty {
            // A list or map parameter the procedure changes: its own copy (the caller's
            // stays as it was, as in the interpreter, where lists and maps are values).
            Ty::List(elem) if own => {
                if g.holds_record(elem) {
                    return Err(format!(
                        "`{}`: the Rust backend cannot change the elements of list parameter `{}` (its records would be shared with the caller's); pass the record that holds the list",
                        f.name, p.name
                    ));
                }
                copies.push(format!("let mut {ident} = {ident}.to_vec();"));
                bg.slots[i].by_ref = false;
                params.push((ident, g.param_ty(&p.ty, false)?));
            }
            Ty::Map(..) if own && g.is_copy(&p.ty) => {
                params.push((format!("mut {ident}"), g.param_ty(&p.ty, false)?));
            }
            _ => {
                let ty = g.param_ty(&p.ty, p.mutated && matches!(p.ty, Ty::Record(_)))?;
                params.push((ident, ty));
            }
        }
    }
    if f.fallible {
        let t = if f.ret == Ty::Unit {
            "()".to_string()
        } else {
            g.ret_ty(&f.ret)?
        };
        func.ret(format!("Result<{t}, {RT}::RuleError>"));
        func.attr(&format!(
            "doc = {}",
            lit(" # Errors\n\n A rule error (`RuleError`) when a value the rules do not define is met: an index outside its list, a key no row holds, a decision without options, a division by zero. Its `site` indexes `SITES`.")
        ));
    } else if f.ret != Ty::Unit {
        func.ret(g.ret_ty(&f.ret)?);
    }
    let mut lines = copies;
    let names: Vec<String> = bg.slots.iter().map(|s| s.ident.clone()).collect();
    match &f.body {
        _ if lines.is_empty() && {
            let printed = super::print::body(g, fid, f, &names);
            let done = printed.is_some();
            lines.extend(printed.into_iter().flatten());
            done
        } => {}
        ir::Body::Formula(e) => {
            let ex = bg.expr(e, Dest::Val)?;
            lines.extend(ex.pre.clone());
            lines.push(bg.ok(&bg.ret_value(&ex, &f.ret)?));
        }
        ir::Body::Procedure(stmts) => {
            lines.push(bg.event(&format!("Call {{ site: {} }}", f.site)));
            let returns = always_returns(stmts);
            bg.block(stmts, returns, &mut lines)?;
            if !returns {
                lines.push(bg.event(&format!(
                    "Return {{ site: {}, value: String::new() }}",
                    f.site
                )));
                if f.fallible {
                    lines.push("Ok(())".into());
                }
            }
        }
    }
    if g.fight[fid] {
        let m = if traced { "mut " } else { "" };
        let name = if reads_fight(&lines) {
            "fight"
        } else {
            "_fight"
        };
        func.arg(name, format!("&{m}Fight"));
    }
    for (ident, ty) in params {
        func.arg(&ident, ty);
    }
    for l in lines {
        func.line(l);
    }
    Ok(func)
}

/// Whether a body's code names the fight (`fight` is reserved: no local or function takes
/// the name). Text inside string literals is not an identifier, and a field named `fight`
/// (`r.fight`, `R { fight: 1 }`) is not the fight.
fn reads_fight(lines: &[String]) -> bool {
    use proc_macro2::{Spacing, TokenStream, TokenTree};
    fn names(tokens: TokenStream) -> bool {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: Option<&TokenTree>| match i {
            Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing())),
            _ => None,
        };
        tokens.iter().enumerate().any(|(i, t)| match t {
            TokenTree::Ident(id) => {
                id == "fight"
                    && punct(i.checked_sub(1).and_then(|j| tokens.get(j)))
                        != Some(('.', Spacing::Alone))
                    && punct(tokens.get(i + 1)) != Some((':', Spacing::Alone))
            }
            TokenTree::Group(g) => names(g.stream()),
            _ => false,
        })
    }
    // Code that does not lex is reported by the module's parse later; keep the name.
    lines.join("\n").parse::<TokenStream>().map_or(true, names)
}

/// The hidden dice locals (`faces(r)`) that an assignment, not only a `let`, rolls into.
fn rerolled_faces(body: &ir::Body) -> Vec<usize> {
    fn rolls(e: &ir::Expr, out: &mut Vec<usize>) {
        if let ir::ExprKind::Roll { faces: Some(h), .. } = e.kind {
            out.push(h);
        }
        crate::ir::walk::for_each_child(e, &mut |x| rolls(x, out));
    }
    let mut out = Vec::new();
    if let ir::Body::Procedure(stmts) = body {
        crate::ir::walk::for_each_stmt(stmts, &mut |s| {
            if let ir::Stmt::Assign { value, .. } = s {
                rolls(value, &mut out);
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::reads_fight;

    #[test]
    fn the_fight_is_read_where_the_code_names_it() {
        let cases: &[(&str, bool)] = &[
            ("let r = i64::from(fight.round());", true),
            ("foe.hp -= fight[me].skill;", true),
            ("take_turn(env, fight, me)?;", true),
            ("{ if x { return fight.acted(me); } }", true),
            // A record's field named `fight` (read or made), a string, a name holding the word:
            // not the fight.
            ("let n = r.fight;", false),
            ("return R { fight: 1, hp: fight.round() as i64 };", true),
            ("return R { fight: 1 };", false),
            ("env.trace.event(Step { text: \"fight\".into() });", false),
            ("let fight_2 = 1; fighter(x);", false),
            ("", false),
        ];
        for (code, read) in cases {
            assert_eq!(reads_fight(&[code.to_string()]), *read, "{code}");
        }
    }
}
