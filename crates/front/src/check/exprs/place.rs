//! Places that can be assigned or filled: a local, or a parameter's fields, map
//! entries and list elements.

use super::coerce::{as_int, expect_ty};
use super::expr::expr;
use super::FnCtx;
use crate::check::Checker;
use crate::diag::suggest;
use crate::ir::{self, Ty};
use crate::syntax::ast::{self, ExprKind as A};

pub(super) fn place(c: &mut Checker, fcx: &mut FnCtx, e: &ast::Expr) -> Option<ir::Place> {
    if fcx.formula {
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
                let Some(root) = fcx.find(&n.name) else {
                    let cands: Vec<String> = fcx
                        .scopes
                        .iter()
                        .flatten()
                        .map(|(n, _)| n.clone())
                        .collect();
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
                fcx.unread.retain(|(s, _)| *s != root);
                c.refer(n.span, crate::check::index::Key::Local(fcx.id, root));
                if fcx.known_some.contains(&root) {
                    c.error(
                        "E0324",
                        e.span,
                        format!(
                            "`{}` is known not to be none here: it cannot change",
                            n.name
                        ),
                        "tested against `none`",
                        "bind a new name with `let`, or change it outside the test",
                    );
                    return None;
                }
                if steps.is_empty() && root < fcx.nparams {
                    c.error(
                        "E0324",
                        e.span,
                        format!("parameter `{}` cannot be replaced", n.name),
                        "parameter",
                        "change its fields (`c.pain_relief = 2`), or bind a new name with `let`",
                    );
                    return None;
                }
                let fighter = fcx.locals[root].ty == Ty::Fighter;
                if !steps.is_empty() && root >= fcx.nparams && !fighter {
                    c.error(
                        "E0324",
                        e.span,
                        "only a parameter's state can be changed",
                        "not a parameter",
                        "change the combatant passed in (`defender.hp -= 1`)",
                    );
                    return None;
                }
                let mut ty = fcx.locals[root].ty.clone();
                if let (true, false, Some(fd)) = (fighter, steps.is_empty(), &c.prog.fight) {
                    ty = Ty::Record(fd.combatant);
                }
                let mut path = Vec::new();
                let mut range = None;
                for st in steps.iter().rev() {
                    range = None;
                    match &st.kind {
                        A::Field(_, f) => {
                            let Ty::Record(r) = ty else {
                                // Its type is wrong already, and said so where it is written.
                                if ty == Ty::Error {
                                    return None;
                                }
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
                            let found = fields.iter().position(|x| x.name == f.name);
                            if found.is_some() {
                                let rn = c.prog.records[r].name.clone();
                                c.refer(
                                    f.span,
                                    crate::check::index::Key::Field(rn, f.name.clone()),
                                );
                            }
                            let fields = &c.prog.records[r].fields;
                            let Some(i) = found else {
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
                            range = fields[i].range;
                            path.push(ir::PlaceStep::Field(i));
                        }
                        A::Index(_, k) => match ty {
                            Ty::Map(kc, v) => {
                                let kx = expr(c, fcx, k, Some(&Ty::Choice(kc)));
                                expect_ty(c, &kx, &Ty::Choice(kc));
                                ty = *v;
                                path.push(ir::PlaceStep::Key(kx));
                            }
                            Ty::SortedMap(kt, v) => {
                                let kx = expr(c, fcx, k, Some(&kt));
                                expect_ty(c, &kx, &kt);
                                let kx = super::coerce::coerce(kx, &kt);
                                ty = *v;
                                path.push(ir::PlaceStep::Key(kx));
                            }
                            Ty::List(elem) => {
                                let ix = expr(c, fcx, k, Some(&Ty::Int));
                                let ix = as_int(c, ix);
                                ty = *elem;
                                path.push(ir::PlaceStep::Index(ix));
                            }
                            Ty::Error => return None,
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
                return Some(ir::Place {
                    root,
                    path,
                    ty,
                    range,
                });
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
