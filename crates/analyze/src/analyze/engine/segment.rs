//! Fast segments in the engine: a run of straight-line statements ([`crate::analyze::fast`])
//! is run from each state along every roll path, on one scratch frame, as one piece on
//! the VM (`core_ir::piece_for`: the statements lowered together for what the frame
//! binds), without a state per path. What the paths lead to (a state with the
//! locals the segment wrote, a returned value, mass cut at the depth) is gathered per
//! state by its encoding, so a state makes one new state per distinct result, not one per
//! path; the exchange's 12,000 pairs of exploding totals become a few dozen results.
//!
//! A state whose paths meet a rule error (reported at the statement that raised it), or
//! whose segment does not lower, is run again the ordinary way, statement by statement.

use super::{Builder, Engine, Exits, NoDecisions, Res, RollPaths};
use crate::analyze::exact::W;
use crate::analyze::fast::{Bail, Fast};
use crate::analyze::plan::Segment;
use crate::analyze::state::{encode_value, scales, Dist, State, WordsBuild};
use crate::core_ir::{self, PieceOf};
use crate::eval::Value;
use crate::ir::{Id, Stmt};
use rulesc_runtime::{Env, NoTrace};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where one path through a segment ends.
#[derive(Clone)]
pub(super) enum Exit {
    /// After the segment: the kept locals' values and the dice drawn.
    Normal(Vec<Value>, u32),
    /// The value returned, and the dice drawn.
    Return(Value, u32),
    /// Cut at the depth: unexplored.
    Cut,
}

/// The results of one state's paths: each distinct exit, with its weight over the
/// state's denominator times `dps[dp]`.
#[derive(Default)]
struct Gathered {
    index: HashMap<Vec<u64>, usize, WordsBuild>,
    exits: Vec<(Exit, usize, W)>,
    key: Vec<u64>,
    /// The kept locals' values of the path just run, in [`Segment::kept`]'s order.
    locals: Vec<Value>,
}

impl Gathered {
    fn clear(&mut self) {
        self.index.clear();
        self.exits.clear();
    }

    /// Adds `w` to the exit whose key is in `self.key` (made by `exit` if new).
    fn add(&mut self, w: W, dp: usize, exit: impl FnOnce(&[Value]) -> Exit, max: u64) -> Fast<()> {
        if let Some(&i) = self.index.get(self.key.as_slice()) {
            self.exits[i].2.add(&w);
            return Ok(());
        }
        if self.exits.len() as u64 >= max {
            return Err(Bail::Stop(super::Stop::States));
        }
        self.index.insert(self.key.clone(), self.exits.len());
        self.exits.push((exit(&self.locals), dp, w));
        Ok(())
    }
}

/// A segment's roll paths, run to their end: a segment has no loop and calls nothing, so
/// a path the dice cut off (its rolls read as 0 from there) ends soon and is counted
/// unexplored whatever it gave, and the time is checked once a path. Its plain code
/// runs, with no stop before each statement.
struct Unstopped<'s, 'e, 'a>(&'s mut RollPaths<'e, 'a>);

impl rulesc_runtime::DiceSource for Unstopped<'_, '_, '_> {
    fn face(&mut self, sides: u32) -> u32 {
        self.0.face(sides)
    }

    fn may_stop(&self) -> bool {
        false
    }

    fn whole(&mut self, spec: rulesc_runtime::DiceSpec, site: u32) -> Option<rulesc_runtime::Roll> {
        self.0.whole(spec, site)
    }
}

/// What each segment gave from each starting point, kept between the cases of one
/// sweep on one thread ([`super::Options::memo`]): a case sweeping the attacker's bonus
/// meets the same defence roll against the same attack totals as its neighbours did.
#[derive(Default)]
struct Memo {
    id: u64,
    map: HashMap<Vec<u64>, Remembered, WordsBuild>,
}

/// The exits of a segment from one starting point: each with its path denominator and
/// its weight over it.
type Remembered = Rc<[(Exit, W, W)]>;

/// The most starting points a thread remembers.
const MEMO_MAX: usize = 100_000;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::default();
}

/// A fresh memo for the cases of one sweep: what earlier calls remembered is not used.
pub fn memo_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Forgets what this thread remembered, its memory freed (at the end of a sweep: a
/// library or the language server lives on after it).
pub fn forget() {
    MEMO.with(|m| *m.borrow_mut() = Memo::default());
}

/// How many starting points this thread remembers, and room for more.
#[cfg(test)]
pub fn remembered() -> (usize, usize) {
    MEMO.with(|m| {
        let m = m.borrow();
        (m.map.len(), m.map.capacity())
    })
}

fn remember(id: u64, key: Vec<u64>, exits: &Remembered) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.id != id {
            m.id = id;
            m.map.clear();
        }
        if m.map.len() < MEMO_MAX {
            m.map.insert(key, exits.clone());
        }
    });
}

/// What a segment's paths from state `st` depend on: the segment (by its first
/// statement), the dice drawn so far and every local it names, by content (or by number,
/// for those it reads only as numbers). The program, the limits and the plan are those
/// of one sweep.
fn memo_key(seg: &Segment, first: &Stmt, st: &State) -> Vec<u64> {
    // Room for plain values (at most 3 words each), so the key is not grown word by word.
    let mut key = Vec::with_capacity(2 + 3 * seg.reads.len());
    key.extend([first as *const Stmt as u64, u64::from(st.used)]);
    let mut seen = Vec::new();
    if let Some(top) = st.frames.last() {
        for &r in &seg.reads {
            match top.get(r) {
                // Read as a number only: its number is all that matters.
                Some(v) if seg.numbers.binary_search(&r).is_ok() => {
                    key.extend([u64::MAX - 1, v.int() as u64])
                }
                Some(v) => encode_value(v, &mut key, &mut seen),
                None => key.push(u64::MAX),
            }
        }
    }
    key
}

impl Engine<'_> {
    /// Runs segment `seg` (the statements `stmts`, of function `f`) over `dist`.
    pub(super) fn segment(
        &self,
        f: Id,
        seg: &Segment,
        stmts: &[Stmt],
        mut dist: Dist,
    ) -> Res<Exits> {
        let den = dist.den.clone();
        let mut normal = Builder::new(self, &seg.clear);
        let mut returned = Builder::new(self, &[]);
        // Results at the top of the stack, over the segment: value -> (dp, weight).
        let mut outcomes: Vec<(Value, usize, W)> = Vec::new();
        let mut outcome_at: HashMap<Vec<u64>, usize, WordsBuild> = HashMap::default();
        // An outcome's key, reused (not grown afresh for every exit of every state).
        let mut okey: Vec<u64> = Vec::with_capacity(32);
        let mut lost: Vec<W> = Vec::new();
        let mut dps: Vec<W> = Vec::new();
        let mut slow = Dist::new(den.clone());
        let mut g = Gathered::default();
        // States after the segment and states returning from it, with their path
        // denominators: added once every denominator is known, over their common
        // multiple (a state reached over two denominators is then one state).
        let mut after: Vec<(State, W, usize)> = Vec::new();
        let mut leaving: Vec<(State, Value, W, usize)> = Vec::new();
        for (st, w) in dist.take() {
            let key = self.opts.memo.map(|id| (id, memo_key(seg, &stmts[0], &st)));
            let known = key.as_ref().and_then(|(id, k)| {
                MEMO.with(|m| {
                    let m = m.borrow();
                    (m.id == *id).then(|| m.map.get(k).cloned()).flatten()
                })
            });
            let exits = match known {
                Some(exits) => exits,
                None => {
                    let columns = (self.opts.columns && seg.columns)
                        .then(|| self.lanes(f, seg, stmts, &st))
                        .flatten();
                    let exits: Remembered = match columns {
                        Some(exits) => exits.into(),
                        None => {
                            match self.gather(f, stmts, seg, &st, &mut g, &mut dps) {
                                Ok(()) => {}
                                Err(Bail::Stop(stop)) => return Err(stop),
                                Err(_) => {
                                    slow.push(st, w);
                                    continue;
                                }
                            }
                            g.exits
                                .drain(..)
                                .map(|(x, dp, w)| (x, dps[dp].clone(), w))
                                .collect()
                        }
                    };
                    if let Some((id, k)) = key {
                        remember(id, k, &exits);
                    }
                    exits
                }
            };
            let top = st.frames.len() <= 1;
            for (exit, dp, pw) in exits.iter() {
                let dp = match dps.iter().position(|d| d == dp) {
                    Some(i) => i,
                    None => {
                        dps.push(dp.clone());
                        dps.len() - 1
                    }
                };
                let pw = w.mul(pw);
                match exit.clone() {
                    Exit::Normal(values, used) => {
                        let mut s = st.clone();
                        let frame = s.top();
                        for (&slot, v) in seg.kept.iter().zip(values) {
                            frame[slot] = v;
                        }
                        s.used = used;
                        after.push((s, pw, dp));
                    }
                    Exit::Return(v, _) if top => {
                        okey.clear();
                        okey.push(dp as u64);
                        encode_value(&v, &mut okey, &mut Vec::new());
                        match outcome_at.get(okey.as_slice()) {
                            Some(&i) => outcomes[i].2.add(&pw),
                            None => {
                                outcome_at.insert(okey.clone(), outcomes.len());
                                outcomes.push((v, dp, pw));
                            }
                        }
                    }
                    Exit::Return(v, used) => {
                        let mut s = st.clone();
                        s.used = used;
                        leaving.push((s, v, pw, dp));
                    }
                    Exit::Cut => {
                        if lost.len() <= dp {
                            lost.resize(dp + 1, W::zero());
                        }
                        lost[dp].add(&pw);
                    }
                }
            }
            if after.len() as u64 > self.opts.max_states.saturating_mul(8) {
                return Err(super::Stop::States);
            }
        }
        let mut common = W::one();
        for d in &dps {
            let (a, _) = scales(&common, d);
            common = common.mul(&a);
        }
        let scale: Vec<W> = dps.iter().map(|d| common.div_exact(d)).collect();
        for (s, w, dp) in after {
            normal.add(s, w.mul(&scale[dp]), &common)?;
        }
        for (s, v, w, dp) in leaving {
            self.returning(s, v, w.mul(&scale[dp]), &common, &den, &mut returned)?;
        }
        for (v, dp, w) in outcomes {
            self.outcome(Ok(v), &w, &den.mul(&dps[dp]))?;
        }
        for (dp, w) in lost.iter().enumerate() {
            self.lost(w, &den.mul(&dps[dp]))?;
        }
        let mut ex = Exits {
            normal: normal.finish(&den, self)?,
            returned: returned.finish(&den, self)?,
        };
        if !slow.is_empty() {
            ex.merge(self.run_block(f, stmts, slow, false)?);
        }
        Ok(ex)
    }

    /// Every roll path of `seg` (the statements `stmts` of function `f`) from state `st`,
    /// gathered into `g` (weights over the state's denominator times the path's, `dps`
    /// holding the distinct path denominators).
    fn gather(
        &self,
        f: Id,
        stmts: &[Stmt],
        seg: &Segment,
        st: &State,
        g: &mut Gathered,
        dps: &mut Vec<W>,
    ) -> Fast<()> {
        g.clear();
        let Some(base) = st.frames.last() else {
            return Err(Bail::Slow);
        };
        // Lowered for what this frame binds.
        let piece = core_ir::piece_for(self.p, f, PieceOf::block(stmts), base);
        let mut run = core_ir::Rerun::new(&piece, base);
        let module = core_ir::module(self.p);
        let mut src = RollPaths {
            eng: self,
            path: Vec::new(),
            pos: 0,
            used: st.used,
            cut: false,
            fail: Cell::new(None),
        };
        let max = self.opts.max_states;
        loop {
            self.tick().map_err(Bail::Stop)?;
            src.pos = 0;
            src.used = st.used;
            src.cut = false;
            let r = {
                let mut env = Env::new(Unstopped(&mut src), NoDecisions, NoTrace);
                run.run(self.p, module, &mut env)
            };
            if let Some(stop) = src.fail.get() {
                return Err(Bail::Stop(stop));
            }
            let (pw, dp) = src.weight();
            let dp = match dps.iter().position(|d| *d == dp) {
                Some(i) => i,
                None => {
                    dps.push(dp);
                    dps.len() - 1
                }
            };
            let used = src.used;
            g.key.clear();
            match r {
                _ if src.cut => {
                    g.key.extend([0, dp as u64]);
                    g.add(pw, dp, |_| Exit::Cut, max)?;
                }
                // Reported where it is raised, by the statement-by-statement run.
                Err(_) => return Err(Bail::Slow),
                Ok(None) => {
                    g.key.extend([1, dp as u64, u64::from(used)]);
                    let mut seen = Vec::new();
                    g.locals.clear();
                    for &s in &seg.kept {
                        let v = run.local(s);
                        encode_value(&v, &mut g.key, &mut seen);
                        g.locals.push(v);
                    }
                    g.add(pw, dp, |kept| Exit::Normal(kept.to_vec(), used), max)?;
                }
                Ok(Some(ret)) => {
                    let v = run.value(ret);
                    g.key.extend([2, dp as u64, u64::from(used)]);
                    encode_value(&v, &mut g.key, &mut Vec::new());
                    g.add(pw, dp, |_| Exit::Return(v, used), max)?;
                }
            }
            if !src.advance() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run, Decisions, Options, Outcomes, Truncation};
    use crate::analyze::engine::outcome_key;
    use crate::analyze::plan::Plan;
    use crate::ir::{Body, Program};
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// Every shipped scenario with its ruleset, and the odds bench's cases.
    fn scenarios() -> Vec<(PathBuf, PathBuf)> {
        let mut out = Vec::new();
        let bench = root().join("compiler/benches/odds");
        let mut dirs: Vec<(PathBuf, PathBuf)> =
            vec![(bench.join("rules"), bench.join("scenarios"))];
        for e in std::fs::read_dir(root().join("examples")).unwrap() {
            let dir = e.unwrap().path();
            let rules = root().join("rules").join(dir.file_name().unwrap());
            if rules.join("ruleset.yaml").exists() {
                dirs.push((rules, dir));
            }
        }
        dirs.sort();
        for (rules, dir) in dirs {
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
                .collect();
            files.sort();
            out.extend(files.into_iter().map(|f| (rules.clone(), f)));
        }
        out
    }

    fn analyze(p: &Program, s: &crate::scenario::Scenario, t: Truncation, fast: bool) -> Outcomes {
        analyze_in(p, s, t, fast, None)
    }

    fn analyze_in(
        p: &Program,
        s: &crate::scenario::Scenario,
        t: Truncation,
        fast: bool,
        memo: Option<u64>,
    ) -> Outcomes {
        analyze_with(p, s, t, (fast, fast), memo)
    }

    /// With fast segments (`.0`), and those that roll once over lanes (`.1`).
    fn analyze_with(
        p: &Program,
        s: &crate::scenario::Scenario,
        t: Truncation,
        (fast, columns): (bool, bool),
        memo: Option<u64>,
    ) -> Outcomes {
        let plan = Plan::new(p);
        let opts = Options {
            truncation: t,
            max_states: 20_000,
            max_words: u64::MAX,
            max_steps: 200_000_000,
            deadline: None,
            fast,
            columns,
            memo,
        };
        let dec = Decisions {
            script: s.decisions.queues().collect(),
            ..Decisions::default()
        };
        run(p, &plan, s.function, s.args.clone(), &dec, &opts)
    }

    fn by_key(o: &Outcomes) -> HashMap<Vec<u64>, crate::analyze::exact::Prob> {
        o.outcomes
            .iter()
            .map(|(v, p)| (outcome_key(v), p.clone()))
            .collect()
    }

    #[test]
    fn fast_segments_give_the_interpreters_fractions_on_every_shipped_scenario() {
        let mut checked = 0;
        let mut columns = 0;
        for (rules, file) in scenarios() {
            let (p, diags, _) = crate::compile_dir(&rules);
            let p = p.unwrap_or_else(|| panic!("{}: {:?}", rules.display(), diags.items));
            let Ok((s, _)) = crate::scenario::read(&p, &file) else {
                continue;
            };
            for t in [Truncation::Depth(1), Truncation::PathDice(2)] {
                let slow = analyze(&p, &s, t, false);
                // The victory-stars exchanges need more states than these runs allow.
                if slow.stop.is_some() {
                    continue;
                }
                let name = format!("{} at {t:?}", file.display());
                let fast = analyze(&p, &s, t, true);
                // Path by path, without columns.
                let paths = analyze_with(&p, &s, t, (true, false), None);
                assert!(fast.stop.is_none(), "{name}: {:?}", fast.stop);
                assert_eq!(by_key(&fast), by_key(&slow), "{name}");
                assert_eq!(fast.unexplored, slow.unexplored, "{name}");
                assert_eq!(by_key(&paths), by_key(&slow), "{name}, no columns");
                assert_eq!(paths.unexplored, slow.unexplored, "{name}, no columns");
                assert_eq!(paths.column_states, 0);
                columns += fast.column_states;
                checked += 1;
            }
        }
        assert!(checked >= 30, "only {checked} runs");
        assert!(columns >= 50, "only {columns} states over lanes");
    }

    #[test]
    fn the_bare_exchange_runs_in_two_fast_segments() {
        let (p, _, _) = crate::compile_dir(&root().join("compiler/benches/odds/rules"));
        let p = p.unwrap();
        let plan = Plan::new(&p);
        let f = p.functions.iter().find(|f| f.name == "exchange").unwrap();
        let Body::Procedure(body) = &f.body else {
            panic!("a procedure")
        };
        // The attack roll with its Epic Failure; the defence roll with everything after.
        let first = plan.segment(&body[0]).unwrap();
        assert_eq!(first.len, 2);
        let second = plan.segment(&body[2]).unwrap();
        assert_eq!(second.len, body.len() - 2);
        let (s, _) = crate::scenario::read(
            &p,
            &root().join("compiler/benches/odds/scenarios/exchange.yaml"),
        )
        .unwrap();
        let fast = analyze(&p, &s, Truncation::Depth(9), true);
        let slow = analyze(&p, &s, Truncation::Depth(9), false);
        let paths = analyze_with(&p, &s, Truncation::Depth(9), (true, false), None);
        assert_eq!(by_key(&fast), by_key(&slow));
        assert_eq!(fast.unexplored, slow.unexplored);
        assert_eq!(by_key(&paths), by_key(&slow));
        assert_eq!(paths.unexplored, slow.unexplored);
        // Both segments ran over lanes: the attack roll from the start, the defence
        // roll from each attack total that is not an Epic Failure.
        assert!(fast.column_states > 100, "{}", fast.column_states);
        // The attack's totals are the most states ever held, not their pairs.
        assert!(fast.peak_states < 200, "{}", fast.peak_states);
    }

    #[test]
    fn the_cases_of_a_sweep_sharing_a_memo_keep_their_own_fractions() {
        let (p, _, _) = crate::compile_dir(&root().join("compiler/benches/odds/rules"));
        let p = p.unwrap();
        let file = root().join("compiler/benches/odds/scenarios/exchange.yaml");
        let (mut case, _) = crate::scenario::read(&p, &file).unwrap();
        let id = super::memo_id();
        // The attack bonus and the defence's: the attack totals of one case are those of
        // its neighbours, with other natural faces.
        for a in 0..4 {
            for d in 0..3 {
                case.args[0] = crate::eval::Value::Int(a);
                case.args[1] = crate::eval::Value::Int(d);
                let t = Truncation::Depth(3);
                let shared = analyze_in(&p, &case, t, true, Some(id));
                let alone = analyze(&p, &case, t, false);
                assert_eq!(by_key(&shared), by_key(&alone), "a {a}, d {d}");
                assert_eq!(shared.unexplored, alone.unexplored, "a {a}, d {d}");
            }
        }
    }
}
