//! What the merged engine needs to know about a program before it runs: which functions
//! roll dice, which statements it must take apart (their blocks roll) and which it hands
//! whole to the interpreter, which change records, which locals are dead after each
//! statement (cleared, so that branches differing only in dead values merge), and which
//! rolls' natural faces anything reads.
//!
//! Everything is computed through the one IR walker (`ir::walk`), so a new expression
//! construct is seen here as soon as it is walked; a statement kind this module does not
//! know is handed whole to the interpreter, which is always correct.

use super::fast;
use crate::ir::walk::{for_each_child, for_each_stmt_child, Child};
use crate::ir::{Body, Expr, ExprKind as K, Function, Id, Program, Stmt};
use std::collections::{HashMap, HashSet};

/// How the engine runs one statement.
#[derive(Debug, Clone, Default)]
pub struct StmtPlan {
    /// An `if`, `match` or `for` whose blocks roll: taken apart, so its branches merge.
    pub structural: bool,
    /// `let x = p(..)`, `p(..)`, `return p(..)` or `x = p(..)` for a procedure `p` that
    /// rolls, with dice-free arguments: the call runs in the engine, so its states merge.
    pub call: Option<Id>,
    /// It may change a record (assignment through a path, `fill`, a call that changes an
    /// argument): each branch then works on its own copy.
    pub mutates: bool,
    /// Locals of the frame dead after it.
    pub clear: Vec<usize>,
    /// Hidden slots of the frame the engine uses for it (a loop's list and position, a
    /// call's result).
    pub hidden: Vec<usize>,
    /// For `x = p(..)` with `call`: the assignment of `p`'s result, kept in the hidden
    /// slot, that the engine runs once `p` has returned (made here, once: the engine
    /// makes no statement while it runs).
    pub assign_result: Option<Stmt>,
}

/// A run of fast statements ([`super::fast`]) the engine runs per roll path from each
/// state, merging only at its end: it rolls (if at all) only in its first statement, so
/// states still merge after each roll.
#[derive(Debug, Clone)]
pub struct Segment {
    /// How many statements it takes, from its first.
    pub len: usize,
    /// Locals the statements write (each path starts from the state's values).
    pub written: Vec<usize>,
    /// Locals written and read later: with the dice drawn, what tells a path's
    /// resulting state from another's.
    pub kept: Vec<usize>,
    /// Locals dead after the segment (cleared, so that states differing there merge).
    pub clear: Vec<usize>,
    /// Every local the statements name: what their results depend on.
    pub reads: Vec<usize>,
    /// Those of `reads` read only as numbers ([`fast::int_only`]).
    pub numbers: Vec<usize>,
    /// It rolls once, where every path rolls ([`fast::one_roll`]): the engine runs it
    /// over all the roll's outcomes at once (`engine/lanes`).
    pub columns: bool,
}

#[derive(Debug, Default)]
pub struct Plan {
    /// Per function: it (or something it calls) rolls dice.
    pub rolls: Vec<bool>,
    /// Per function: the size of its frame (its locals, then the hidden slots).
    pub frame: Vec<usize>,
    stmts: HashMap<*const Stmt, StmtPlan>,
    /// Fast segments, by their first statement.
    segments: HashMap<*const Stmt, Segment>,
    /// Sites of the rolls whose natural face may be read.
    pub natural_sites: HashSet<u32>,
}

impl Plan {
    pub fn new(p: &Program) -> Plan {
        let mut plan = Plan {
            rolls: vec![false; p.functions.len()],
            frame: p.functions.iter().map(|f| f.locals.len()).collect(),
            ..Plan::default()
        };
        let mut done = vec![false; p.functions.len()];
        for id in 0..p.functions.len() {
            rolls_fn(p, id, &mut plan.rolls, &mut done, 0);
        }
        let mut any_natural = false;
        for f in &p.functions {
            crate::ir::walk::for_each_body_expr(f, &mut |e| {
                walk_all(e, &mut |x| any_natural |= matches!(x.kind, K::Natural(_)))
            });
        }
        if any_natural {
            // A roll converted straight to an int shows its total only.
            for f in &p.functions {
                crate::ir::walk::for_each_body_expr(f, &mut |e| {
                    natural_sites(e, false, &mut plan.natural_sites)
                });
            }
        }
        for (id, f) in p.functions.iter().enumerate() {
            if let Body::Procedure(stmts) = &f.body {
                let known = stmts_known(stmts);
                let mut next = f.locals.len();
                plan.block(p, stmts, &HashSet::new(), known, &mut next);
                plan.frame[id] = next;
            }
        }
        plan
    }

    pub fn stmt(&self, s: &Stmt) -> &StmtPlan {
        static NONE: StmtPlan = StmtPlan {
            structural: false,
            call: None,
            mutates: true,
            clear: Vec::new(),
            hidden: Vec::new(),
            assign_result: None,
        };
        self.stmts.get(&(s as *const Stmt)).unwrap_or(&NONE)
    }

    /// The fast segment starting at `s`, if one does.
    pub fn segment(&self, s: &Stmt) -> Option<&Segment> {
        self.segments.get(&(s as *const Stmt))
    }

    /// Whether an expression rolls dice (itself, or a procedure it calls).
    pub fn expr_rolls(&self, e: &Expr) -> bool {
        let mut r = false;
        walk_all(e, &mut |x| match &x.kind {
            K::Roll { .. } | K::RollTable { .. } => r = true,
            K::Call(f, _) => r |= self.rolls.get(*f).copied().unwrap_or(true),
            _ => {}
        });
        r
    }

    fn block(
        &mut self,
        p: &Program,
        stmts: &[Stmt],
        live_out: &HashSet<usize>,
        known: bool,
        next: &mut usize,
    ) {
        // live[i]: the locals read after statement i.
        let mut live: Vec<HashSet<usize>> = vec![live_out.clone(); stmts.len()];
        for i in (0..stmts.len().saturating_sub(1)).rev() {
            let mut l = live[i + 1].clone();
            mentions_stmt(&stmts[i + 1], &mut l);
            live[i] = l;
        }
        for (i, s) in stmts.iter().enumerate() {
            let mut sp = StmtPlan {
                mutates: self.stmt_mutates(p, s),
                ..StmtPlan::default()
            };
            let is_loop = matches!(s, Stmt::For { .. } | Stmt::ForRange { .. });
            let nested_live = if is_loop {
                let mut l = live[i].clone();
                mentions_stmt(s, &mut l);
                l
            } else {
                live[i].clone()
            };
            let mut nested_rolls = false;
            for_each_stmt_child(s, &mut |c| {
                if let Child::Block(b) = c {
                    nested_rolls |= b.iter().any(|x| self.stmt_rolls(x));
                }
            });
            let mut blocks: Vec<&[Stmt]> = Vec::new();
            for_each_stmt_child(s, &mut |c| {
                if let Child::Block(b) = c {
                    blocks.push(b);
                }
            });
            for b in blocks {
                self.block(p, b, &nested_live, known, next);
            }
            match s {
                Stmt::If { .. } | Stmt::Match { .. } => sp.structural = nested_rolls,
                Stmt::For { .. } => {
                    sp.structural = nested_rolls;
                    sp.hidden = vec![*next, *next + 1];
                    *next += 2;
                }
                Stmt::ForRange { .. } => {
                    sp.structural = nested_rolls;
                    sp.hidden = vec![*next, *next + 1];
                    *next += 2;
                }
                Stmt::Let { value, .. } | Stmt::Expr(value) | Stmt::Assign { value, .. } => {
                    sp.call = self.engine_call(p, value);
                    if let (
                        Some(_),
                        Stmt::Assign {
                            place, op, site, ..
                        },
                    ) = (sp.call, s)
                    {
                        sp.hidden = vec![*next];
                        sp.assign_result = Some(Stmt::Assign {
                            place: place.clone(),
                            op: *op,
                            value: Expr {
                                kind: K::Local(*next),
                                ty: value.ty.clone(),
                                span: value.span,
                            },
                            site: *site,
                        });
                        *next += 1;
                    }
                }
                Stmt::Return {
                    value: Some(value), ..
                } => sp.call = self.engine_call(p, value),
                _ => {}
            }
            if known {
                let mut m = HashSet::new();
                mentions_stmt(s, &mut m);
                let mut clear: Vec<usize> =
                    m.into_iter().filter(|x| !live[i].contains(x)).collect();
                clear.sort_unstable();
                sp.clear = clear;
            }
            self.stmts.insert(s as *const Stmt, sp);
        }
        self.segments(stmts);
    }

    /// Groups the block's fast statements into segments: each starts at a fast statement
    /// and takes the fast statements after it up to the next one that rolls.
    fn segments(&mut self, stmts: &[Stmt]) {
        let fast: Vec<bool> = stmts.iter().map(fast::stmt).collect();
        let mut i = 0;
        while i < stmts.len() {
            if !fast[i] {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < stmts.len() && fast[j] && !fast::rolls(&stmts[j]) {
                j += 1;
            }
            let seg = &stmts[i..j];
            let mut written = Vec::new();
            seg.iter().for_each(|s| fast::writes(s, &mut written));
            written.sort_unstable();
            written.dedup();
            let mut clear: Vec<usize> = seg
                .iter()
                .flat_map(|s| self.stmt(s).clear.iter().copied())
                .collect();
            clear.sort_unstable();
            clear.dedup();
            let kept = written
                .iter()
                .copied()
                .filter(|w| !clear.contains(w))
                .collect();
            let mut named = HashSet::new();
            seg.iter().for_each(|s| mentions_stmt(s, &mut named));
            let mut reads: Vec<usize> = named.into_iter().collect();
            reads.sort_unstable();
            let segment = Segment {
                numbers: fast::int_only(seg),
                columns: fast::one_roll(seg),
                len: seg.len(),
                written,
                kept,
                clear,
                reads,
            };
            self.segments.insert(&stmts[i] as *const Stmt, segment);
            i = j;
        }
    }

    /// `p(args)` with `p` a procedure that rolls and dice-free arguments.
    fn engine_call(&self, p: &Program, value: &Expr) -> Option<Id> {
        match &value.kind {
            K::Call(f, args)
                if p.functions.get(*f).is_some_and(Function::is_procedure)
                    && self.rolls.get(*f).copied().unwrap_or(false)
                    && !args.iter().any(|a| self.expr_rolls(a)) =>
            {
                Some(*f)
            }
            _ => None,
        }
    }

    fn stmt_rolls(&self, s: &Stmt) -> bool {
        let mut r = false;
        for_each_stmt_child(s, &mut |c| match c {
            Child::Expr(e) => r |= self.expr_rolls(e),
            Child::Block(b) => r |= b.iter().any(|x| self.stmt_rolls(x)),
        });
        r
    }

    fn stmt_mutates(&self, p: &Program, s: &Stmt) -> bool {
        let mut m = match s {
            Stmt::Assign { place, .. } => !place.path.is_empty(),
            Stmt::Let { .. }
            | Stmt::If { .. }
            | Stmt::Match { .. }
            | Stmt::For { .. }
            | Stmt::ForRange { .. }
            | Stmt::Return { .. }
            | Stmt::Expr(_) => false,
            #[allow(unreachable_patterns)]
            _ => true,
        };
        for_each_stmt_child(s, &mut |c| match c {
            Child::Expr(e) => m |= expr_mutates(p, e),
            Child::Block(b) => m |= b.iter().any(|x| self.stmt_mutates(p, x)),
        });
        m
    }
}

fn rolls_fn(p: &Program, id: Id, rolls: &mut [bool], done: &mut [bool], depth: usize) -> bool {
    if done[id] || depth > 256 {
        return rolls[id];
    }
    let mut r = false;
    let mut callees = Vec::new();
    crate::ir::walk::for_each_body_expr(&p.functions[id], &mut |e| {
        walk_all(e, &mut |x| match &x.kind {
            K::Roll { .. } | K::RollTable { .. } => r = true,
            K::Call(f, _) => callees.push(*f),
            _ => {}
        })
    });
    for f in callees {
        if f < rolls.len() {
            r |= rolls_fn(p, f, rolls, done, depth + 1);
        }
    }
    rolls[id] = r;
    done[id] = true;
    r
}

/// Calls `f` on `e` and every expression inside it.
pub fn walk_all(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    for_each_child(e, &mut |c| walk_all(c, f));
}

fn expr_mutates(p: &Program, e: &Expr) -> bool {
    let mut m = false;
    walk_all(e, &mut |x| match &x.kind {
        K::Fill { .. } => m = true,
        K::Call(f, _) => {
            m |= p
                .functions
                .get(*f)
                .is_none_or(|f| f.params.iter().any(|q| q.mutated))
        }
        _ => {}
    });
    m
}

/// Every local slot a statement names (read, written or bound), nested blocks included:
/// what the liveness above reads (the hidden locals of kept dice left out).
fn mentions_stmt(s: &Stmt, out: &mut HashSet<usize>) {
    crate::ir::walk::stmt_locals(s, false, out);
}

/// Whether the liveness above knows every statement kind in these blocks.
fn stmts_known(stmts: &[Stmt]) -> bool {
    let mut known = true;
    crate::ir::walk::for_each_stmt(stmts, &mut |s| {
        #[allow(unreachable_patterns)]
        match s {
            Stmt::Let { .. }
            | Stmt::Assign { .. }
            | Stmt::If { .. }
            | Stmt::Match { .. }
            | Stmt::For { .. }
            | Stmt::ForRange { .. }
            | Stmt::Return { .. }
            | Stmt::Expr(_) => {}
            _ => known = false,
        }
    });
    known
}

/// Sites of rolls whose natural face may be read: all but those converted straight to
/// an int (`in_int`: the parent is a conversion to int) and die-table rolls.
fn natural_sites(e: &Expr, in_int: bool, out: &mut HashSet<u32>) {
    if let K::Roll { site, .. } = &e.kind {
        if !in_int {
            out.insert(*site);
        }
    }
    let child_in_int = matches!(e.kind, K::ToInt(_));
    for_each_child(e, &mut |c| natural_sites(c, child_in_int, out));
}
