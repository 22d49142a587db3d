//! Lists walked item by item: aggregates (`sum`, `count`, `any`, ...), comprehensions,
//! `first`/`index_of`, the keys of `sort` and `min_by`/`max_by`, list literals' copies.

use super::{expr::rewrap, weight, Interpreter, Run, Value};
use crate::ir::{self, Agg, Ty};
use rulesc_runtime::__private::arith;
use std::rc::Rc;

impl<'p> Interpreter<'p, '_> {
    /// `first(var in list if cond)`, or with `index` `index_of(..)`.
    pub(super) fn find(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        index: bool,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let items = self.list(list, locals)?;
        for (i, item) in items.iter().enumerate() {
            locals[var] = item.deep_clone();
            let holds = match cond {
                Some(c) => self.truth(c, locals)?,
                None => true,
            };
            if holds {
                return Ok(if index {
                    Value::Int(i as i64)
                } else {
                    item.deep_clone()
                });
            }
        }
        Ok(Value::None)
    }

    /// The elements of `list` passing `cond`, each with its keys, in list order (each
    /// element's condition and keys evaluated once, left to right).
    pub(super) fn keyed(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        keys: &[ir::Expr],
        locals: &mut Vec<Value>,
    ) -> Run<Vec<(Vec<i64>, Value)>> {
        let mut out = Vec::new();
        self.each(false, var, list, cond, locals, &mut |it, locals| {
            let k = keys
                .iter()
                .map(|k| it.expr(k, locals).map(|v| v.int()))
                .collect::<Run<Vec<i64>>>()?;
            out.push((k, locals[var].clone()));
            Ok(true)
        })?;
        Ok(out)
    }

    /// Deep copies of each expression's value, in order.
    pub(super) fn copies(&mut self, xs: &[ir::Expr], locals: &mut Vec<Value>) -> Run<Vec<Value>> {
        let mut out = Vec::with_capacity(xs.len());
        for x in xs {
            let v = self.expr(x, locals)?;
            out.push(self.copied(v)?);
        }
        Ok(out)
    }

    /// `sum/count/any/all/max/min(body for var in list if cond)`
    #[allow(clippy::too_many_arguments)]
    pub(super) fn aggregate(
        &mut self,
        kind: Agg,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        body: &ir::Expr,
        ty: &Ty,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let mut acc: Option<i64> = None;
        let mut count = 0i64;
        let mut stop = None;
        self.each(self.pure, var, list, cond, locals, &mut |it, locals| {
            match kind {
                Agg::Count => count = count.saturating_add(1),
                Agg::Any => {
                    if it.truth(body, locals)? {
                        stop = Some(true);
                    }
                }
                Agg::All => {
                    if !it.truth(body, locals)? {
                        stop = Some(false);
                    }
                }
                Agg::Sum => acc = Some(arith::add(acc.unwrap_or(0), it.int(body, locals)?)),
                Agg::Max => {
                    let v = it.int(body, locals)?;
                    acc = Some(acc.map_or(v, |a| a.max(v)));
                }
                Agg::Min => {
                    let v = it.int(body, locals)?;
                    acc = Some(acc.map_or(v, |a| a.min(v)));
                }
            }
            Ok(stop.is_none())
        })?;
        Ok(match kind {
            Agg::Count => Value::Int(count),
            Agg::Any => Value::Bool(stop.unwrap_or(false)),
            Agg::All => Value::Bool(stop.unwrap_or(true)),
            _ => rewrap(acc.unwrap_or(0), ty),
        })
    }

    /// `[body for var in list if cond]`
    pub(super) fn collect(
        &mut self,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        body: &ir::Expr,
        locals: &mut Vec<Value>,
    ) -> Run<Value> {
        let mut out = Vec::new();
        self.each(false, var, list, cond, locals, &mut |it, locals| {
            let v = it.expr(body, locals)?;
            out.push(it.copied(v)?);
            Ok(true)
        })?;
        Ok(Value::List(Rc::new(out)))
    }

    /// The one item loop of aggregates and comprehensions: binds `var` to a copy of each
    /// element of `list` (as `for` does: a procedure called in the body that changes the
    /// list's records does not change it), skips those failing `cond`, and calls `f`
    /// until it returns false. With `shared`, `var` is the element itself (paid for as a
    /// copy): for a caller that lets no value of the loop escape, in a formula, where
    /// nothing can change a record.
    #[allow(clippy::too_many_arguments)]
    fn each(
        &mut self,
        shared: bool,
        var: usize,
        list: &ir::Expr,
        cond: Option<&ir::Expr>,
        locals: &mut Vec<Value>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> Run<bool>,
    ) -> Run<()> {
        let items = self.list(list, locals)?;
        for item in items.iter() {
            locals[var] = if shared {
                self.step(weight(item))?;
                item.clone()
            } else {
                self.copy(item)?
            };
            if let Some(c) = cond {
                if !self.truth(c, locals)? {
                    continue;
                }
            }
            if !f(self, locals)? {
                break;
            }
        }
        Ok(())
    }
}

/// The elements of `sort` (`best` `None`), stably ordered by their keys, lowest first
/// (equal keys keep the list's order); or of `min_by` (`Some(false)`) / `max_by`
/// (`Some(true)`), the first element with the lowest (highest) keys, none for no element.
/// The walker and the VM both order by this.
pub(crate) fn ordered(mut keyed: Vec<(Vec<i64>, Value)>, best: Option<bool>) -> Value {
    let Some(max) = best else {
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        return Value::List(Rc::new(keyed.into_iter().map(|(_, v)| v).collect()));
    };
    let mut best: Option<(Vec<i64>, Value)> = None;
    for (k, v) in keyed {
        let better = match &best {
            None => true,
            Some((b, _)) if max => k > *b,
            Some((b, _)) => k < *b,
        };
        if better {
            best = Some((k, v));
        }
    }
    best.map_or(Value::None, |(_, v)| v)
}
