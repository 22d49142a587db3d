//! Reads through a value: fields (`c.armor`, `box.level`, `Choice.Variant`) and
//! indexing (`table[key]`, `table[row, column]`, `map[key]`, `list[i]`).

use super::bounds::{bounds, list_len, missing_rows, Bounds};
use super::coerce::{as_int, coerce, expect_ty};
use super::expr::expr;
use super::{err_expr, mk, FnCtx};
use crate::check::index::Key;
use crate::check::{Checker, DefKind};
use crate::diag::suggest;
use crate::ir::{self, BoxPart, Const, ExprKind as K, Ty};
use crate::source::Span;
use crate::syntax::ast::{self, ExprKind as A};

/// `base.f`: a record field, a box part, or a qualified `Choice.Variant`.
pub(super) fn field(
    c: &mut Checker,
    fcx: &mut FnCtx,
    base: &ast::Expr,
    f: &ast::Ident,
    span: Span,
) -> ir::Expr {
    // `Choice.Variant` and `Outcome.Tag` qualify a name.
    if let A::Name(q) = &base.kind {
        if fcx.find(&q.name).is_none() {
            if let Some(DefKind::Choice(ch)) = c.names.get(&q.name).map(|d| d.kind) {
                c.used_at(&q.name, q.span);
                return match c.prog.choices[ch]
                    .variants
                    .iter()
                    .position(|v| v.name == f.name)
                {
                    Some(i) => {
                        c.refer(f.span, Key::Level(q.name.clone(), f.name.clone()));
                        mk(K::Const(Const::Choice(i as u16)), Ty::Choice(ch), span)
                    }
                    None => {
                        let help = c.prog.choices[ch].suggest(&f.name);
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
    let bx = expr(c, fcx, base, None);
    let bx = super::fight::deref(bx, c);
    match bx.ty.clone() {
        Ty::Record(r) => {
            let fields = &c.prog.records[r].fields;
            match fields.iter().position(|x| x.name == f.name) {
                Some(i) => {
                    let ty = fields[i].ty.clone();
                    let rn = c.prog.records[r].name.clone();
                    c.refer(f.span, Key::Field(rn, f.name.clone()));
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

/// `base[key]`: a table lookup, a map entry or a list element.
pub(super) fn index(
    c: &mut Checker,
    fcx: &mut FnCtx,
    base: &ast::Expr,
    key: &ast::Expr,
    span: Span,
) -> ir::Expr {
    if let A::Name(t) = &base.kind {
        if fcx.find(&t.name).is_none() {
            if let Some(DefKind::Table(tid)) = c.names.get(&t.name).map(|d| d.kind) {
                return lookup(c, fcx, tid, t, key, None, span);
            }
        }
    }
    let bx = expr(c, fcx, base, None);
    match bx.ty.clone() {
        Ty::Map(k, v) => {
            let kx = expr(c, fcx, key, Some(&Ty::Choice(k)));
            expect_ty(c, &kx, &Ty::Choice(k));
            mk(K::MapGet(Box::new(bx), Box::new(kx)), *v, span)
        }
        // A key the map does not hold reads the zero of its values.
        Ty::SortedMap(k, v) => {
            let kx = expr(c, fcx, key, Some(&k));
            expect_ty(c, &kx, &k);
            let kx = coerce(kx, &k);
            mk(K::MapGet(Box::new(bx), Box::new(kx)), *v, span)
        }
        Ty::List(elem) => {
            let ix = expr(c, fcx, key, Some(&Ty::Int));
            let ix = as_int(c, ix);
            off_list(c, &bx, &ix);
            let site = c.site(span);
            mk(
                K::ListGet(Box::new(bx), Box::new(ix), Some(site)),
                *elem,
                span,
            )
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

/// `base[row, column]`: a two-key table's cell.
pub(super) fn cell(
    c: &mut Checker,
    fcx: &mut FnCtx,
    base: &ast::Expr,
    row: &ast::Expr,
    column: &ast::Expr,
    span: Span,
) -> ir::Expr {
    if let A::Name(t) = &base.kind {
        if fcx.find(&t.name).is_none() {
            if let Some(DefKind::Table(tid)) = c.names.get(&t.name).map(|d| d.kind) {
                return lookup(c, fcx, tid, t, row, Some(column), span);
            }
        }
    }
    let bx = expr(c, fcx, base, None);
    if bx.ty != Ty::Error {
        let n = c.ty_name(&bx.ty);
        c.error(
            "E0321",
            base.span,
            format!("{n} is not a table with two keys"),
            "here",
            "`[row, column]` looks up a table with `key: [rows, columns]`; write `[key]` for one key",
        );
    }
    err_expr(span)
}

/// `table[key]` or `table[key, column]`: the keys must match the table's.
fn lookup(
    c: &mut Checker,
    fcx: &mut FnCtx,
    tid: usize,
    table: &ast::Ident,
    key: &ast::Expr,
    column: Option<&ast::Expr>,
    span: Span,
) -> ir::Expr {
    let name = c.prog.tables[tid].name.clone();
    c.used_at(&name, table.span);
    if c.prog.tables[tid].value == Ty::Error {
        // The table failed to build (reported there): check the keys alone.
        for k in std::iter::once(key).chain(column) {
            expr(c, fcx, k, None);
        }
        return err_expr(span);
    }
    let key_ty = |k: &ir::TableKey| match k {
        ir::TableKey::Choice(ch) => Ty::Choice(*ch),
        _ => Ty::Int,
    };
    let row_ty = key_ty(&c.prog.tables[tid].key);
    let column_ty = c.prog.tables[tid]
        .columns
        .as_ref()
        .map(|cols| key_ty(&cols.key));
    let typed = |c: &mut Checker, fcx: &mut FnCtx, k: &ast::Expr, ty: &Ty| {
        let kx = expr(c, fcx, k, Some(ty));
        expect_ty(c, &kx, ty);
        Box::new(coerce(kx, ty))
    };
    let kx = typed(c, fcx, key, &row_ty);
    let cx = match (column, &column_ty) {
        (Some(col), Some(ty)) => Some(typed(c, fcx, col, ty)),
        (None, None) => None,
        (Some(_), None) => {
            c.error(
                "E0327",
                span,
                format!("table `{name}` has one key"),
                "one key too many",
                format!("write `{name}[key]`"),
            );
            return err_expr(span);
        }
        (None, Some(_)) => {
            c.error(
                "E0327",
                span,
                format!("table `{name}` has two keys, rows then columns"),
                "the column is missing",
                format!("write `{name}[row, column]`"),
            );
            return err_expr(span);
        }
    };
    if c.prog.tables[tid].partial() {
        off_rows(c, tid, &kx);
    }
    let site = c.site(span);
    let ty = c.prog.tables[tid].value.clone();
    mk(
        K::Lookup {
            table: tid,
            key: kx,
            column: cx,
            site,
            checked: c.prog.tables[tid].partial(),
        },
        ty,
        span,
    )
}

/// A die table looked up with a key the checker knows: `E0332` when some key it can
/// take has no row (every key of an exact range occurs; otherwise only when none has).
fn off_rows(c: &mut Checker, tid: usize, key: &ir::Expr) {
    let Some(b) = bounds(c, key) else { return };
    let t = &c.prog.tables[tid];
    let missing = missing_rows(t, b);
    let all = missing == [(b.lo, b.hi)];
    if missing.is_empty() || !(b.exact || all) {
        return;
    }
    let keys: Vec<String> = missing
        .iter()
        .map(|&(lo, hi)| Bounds::show(lo, hi))
        .collect();
    let ir::TableKey::Die(die) = t.key else {
        return;
    };
    let name = t.name.clone();
    c.error(
        "E0332",
        key.span,
        format!("table `{name}` has no row for {}, and this key can be {}", keys.join(", "), keys.join(", ")),
        format!("{} here", Bounds::show(b.lo, b.hi)),
        format!("its rows are the faces of {die}: roll the table itself (`roll {name}`), or keep the key within them"),
    );
}

/// `list[i]` of a list whose length the checker knows, with an index it knows: `E0332`
/// when the index can fall outside (every index of an exact range occurs; otherwise only
/// when none is inside).
fn off_list(c: &mut Checker, list: &ir::Expr, ix: &ir::Expr) {
    let (Some(len), Some(b)) = (list_len(list), bounds(c, ix)) else {
        return;
    };
    let none_inside = b.hi < 0 || b.lo >= len;
    let some_outside = b.lo < 0 || b.hi >= len;
    if !(none_inside || b.exact && some_outside) {
        return;
    }
    let held = match len {
        0 => "no element".to_string(),
        1 => "1 element (index 0)".to_string(),
        n => format!("{n} elements (indices 0-{})", n - 1),
    };
    c.error(
        "E0332",
        ix.span,
        format!(
            "this list holds {held}, and the index can be {}",
            Bounds::show(b.lo, b.hi)
        ),
        "outside the list",
        "keep the index within the list (`clamp(i, 0, len(list) - 1)`), or test it first",
    );
}
