//! Small formulas inlined at compile time: the body compiled into the caller, its locals
//! given slots past the caller's own in the caller's frame, so a call takes no frame of
//! its own. It is the call it replaces, node for node: the arguments evaluated in order
//! (a copy where the call copies), the call's one step, the formula's site as the place
//! a spent budget is reported, no trace inside the formula, a rule error recorded where
//! the call records it. An argument that is a local of the caller (with every argument
//! plain, so none can change it) is read at the caller's slot instead of being passed.
//! With `--trace-formulas` the ordinary call runs instead, tracing the formula as ever.
//!
//! A formula is inlined when its body is small and compiles to closures only: a node
//! handed to the walker would read the formula's locals at the formula's own slots.

use super::held::plain;
use super::{scalar, Cx, Fx, ValueFn};
use crate::eval::Value;
use crate::ir::{self, walk, ExprKind as K};
use std::cell::Cell;

/// Nodes in a formula's body past which it is called, not inlined.
const MAX_NODES: usize = 64;
/// Formulas inlined into formulas inlined: at most this deep.
const MAX_DEPTH: u32 = 3;

/// How many nodes `e` holds.
fn nodes(e: &ir::Expr) -> usize {
    let mut n = 1;
    walk::for_each_child(e, &mut |c| n += nodes(c));
    n
}

impl Cx<'_> {
    /// A call of formula `f` with `args`, inlined when it can be; `call` is the ordinary
    /// call, kept for traced formulas (and returned as is when `f` is not inlined).
    pub(super) fn inlined(&self, f: ir::Id, args: &[ir::Expr], call: ValueFn) -> ValueFn {
        self.inlined_as(f, args, call, |cx, b| cx.value(b))
    }

    /// [`Self::inlined`] giving `T`: the formula's body compiled by `body_as` (a number
    /// by [`Cx::int`], a truth by [`Cx::truth`], as the caller reads the call), so the
    /// body's value is not wrapped in a `Value` to be read back.
    pub(super) fn inlined_as<T: 'static>(
        &self,
        f: ir::Id,
        args: &[ir::Expr],
        call: Fx<T>,
        body_as: impl Fn(&Cx<'_>, &ir::Expr) -> Fx<T>,
    ) -> Fx<T> {
        let callee = &self.p.functions[f];
        let ir::Body::Formula(body) = &callee.body else {
            return call;
        };
        if self.depth >= MAX_DEPTH || nodes(body) > MAX_NODES {
            return call;
        }
        #[cfg(test)]
        if OFF.with(Cell::get) {
            return call;
        }
        // The callee's locals: a parameter bound to a caller's local is that local;
        // every other local gets a new slot of the frame.
        let all_plain = args.iter().all(plain);
        let start = self.frame.get();
        let mut slots = Vec::with_capacity(callee.locals.len());
        // (argument, its slot, copied) for the arguments passed
        let mut passed = Vec::new();
        // Slots emptied after the body, as a returning call empties its frame: those
        // holding values with parts (the formula's own scalars are dropped as they are).
        let mut emptied = Vec::new();
        for (i, local) in callee.locals.iter().enumerate() {
            let arg = args.get(i).filter(|_| i < callee.params.len());
            if let Some(a) = arg {
                let copied = ir::copied_from_fight(a, &callee.params[i]);
                if let (K::Local(s), true, false) = (&a.kind, all_plain, copied) {
                    slots.push(self.slot(*s));
                    continue;
                }
                let s = self.new_slot();
                passed.push((self.value(a), s, copied));
                slots.push(s);
            } else {
                slots.push(self.new_slot());
            }
            if !scalar(&local.ty) {
                emptied.push(*slots.last().expect("pushed above"));
            }
        }
        let inner = Cx {
            p: self.p,
            slots: Some(slots.into()),
            frame: self.frame.clone(),
            depth: self.depth + 1,
            walked: Cell::new(false),
        };
        let body = body_as(&inner, body);
        if inner.walked.get() {
            // Some node reads the formula's locals where the walker would: called, not
            // inlined. Nothing kept uses the slots taken since `start` (`call` was
            // compiled before).
            self.frame.set(start);
            return call;
        }
        let site = callee.site;
        Box::new(move |it, l| {
            if it.formulas {
                return call(it, l);
            }
            for (a, s, copied) in &passed {
                let v = a(it, l)?;
                // Outside a fight no value is read from one.
                l[*s] = if *copied && it.fight.is_some() {
                    v.deep_clone()
                } else {
                    v
                };
            }
            // What `call_frame` and a formula's `Function::run` do around the body.
            let got = match it.step(1) {
                Err(e) => Err(Box::new(e)),
                Ok(()) => {
                    let (was, was_pure) = (it.tracing, it.pure);
                    let caller = std::mem::replace(&mut it.at, site);
                    it.tracing = false;
                    it.pure = true;
                    let v = body(it, l);
                    it.tracing = was;
                    it.pure = was_pure;
                    it.at = caller;
                    v
                }
            };
            for s in &emptied {
                l[*s] = Value::Unit;
            }
            match got {
                // A formula's rule error is recorded by the procedure calling it.
                Err(e) if it.on() => Err(Box::new(it.env.fail(*e))),
                got => got,
            }
        })
    }

    /// A new slot at the end of the frame.
    fn new_slot(&self) -> usize {
        let s = self.frame.get();
        self.frame.set(s + 1);
        s
    }
}

#[cfg(test)]
thread_local! {
    /// Tests compile a program with inlining off, to hold it to the ordinary call.
    pub(super) static OFF: Cell<bool> = const { Cell::new(false) };
}
