//! `--samples N --seed S`: seeded Monte Carlo, for procedures too large for the exact
//! engine. Sample `k` rolls its dice from its own seed (derived from `S` and `k` alone)
//! and the samples are counted in fixed blocks, so the figures are the same for a seed
//! whatever the number of threads. Each figure comes with its 95% Wilson interval.
//!
//! The time limit (`--max-seconds`, the whole run's) holds here too: no sample starts
//! after it. The figures are then those of samples `0..k` of the seed (the samples of
//! every block before the first one the limit cut, and the ones that block drew), with
//! intervals from those `k`, and the report says `k of n samples`.

use super::engine::{self, BadAnswer, Outcome};
use super::exact::Prob;
use super::report::Report;
use super::view::{self, Group};
use super::{decisions, finish, fresh_args, work, Distribution, Limits, Stop};
use crate::eval;
use crate::ir::Program;
use crate::scenario::Scenario;
use crate::simulate::{run_seed, wilson};
use rayon::prelude::*;
use rulesc_runtime::{dice::SeededDice, Env, NoTrace};
use std::collections::hash_map::{Entry, HashMap};

/// Most samples one analysis takes.
pub const MAX_SAMPLES: u64 = 1_000_000_000;

/// Samples run (and counted) together; blocks run in parallel.
const BLOCK: u64 = 4096;

/// The sampled report of a scenario (read afresh per block by `read`, since values are
/// not shared between threads): `n` samples from `seed`, grouped by `by`, `fixed`
/// answers taking precedence over the scenario's script. `Err(None)` if a read failed,
/// `Err(Some(..))` for an answer that was not one of its decision's options.
#[allow(clippy::too_many_arguments)]
pub fn sample<R>(
    p: &Program,
    function: usize,
    read: R,
    fixed: &[(String, u32)],
    limits: &Limits,
    by: Option<&view::Path>,
    n: u64,
    seed: u64,
    scenario: String,
    case: Vec<(String, String)>,
) -> Result<Report, Option<BadAnswer>>
where
    R: Fn() -> Option<Scenario> + Sync,
{
    let blocks = n.div_ceil(BLOCK);
    let deadline = limits.deadline();
    let late = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    // Each block's groups and how many of its samples it drew (fewer than the block's
    // own only when the time limit cut it).
    type Counted = Result<(Vec<Group>, u64), Option<BadAnswer>>;
    super::threads();
    let counted: Vec<Counted> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            if late() {
                return Ok((Vec::new(), 0));
            }
            let s = read().ok_or(None)?;
            let f = &p.functions[s.function];
            let dec = decisions(&s, fixed);
            let mut seen: Vec<(Outcome, Prob)> = Vec::new();
            let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
            let mut cursor = vec![0u32; dec.script.len()];
            let mut drawn = 0;
            for k in b * BLOCK..((b + 1) * BLOCK).min(n) {
                if late() {
                    break;
                }
                drawn += 1;
                let args = fresh_args(&s, f);
                cursor.iter_mut().for_each(|c| *c = 0);
                let mut decide = engine::Cursor::new(&dec, &mut cursor);
                let dice = SeededDice::new(run_seed(seed, k, 0));
                let mut env = Env::new(dice, &mut decide, NoTrace);
                let o = eval::call(p, &mut env, s.function, args);
                match index.entry(engine::outcome_key(&o)) {
                    Entry::Occupied(i) => seen[*i.get()].1 += Prob::from_integer(1.into()),
                    Entry::Vacant(e) => {
                        e.insert(seen.len());
                        seen.push((o, Prob::from_integer(1.into())));
                    }
                }
            }
            if let Some(bad) = dec.bad.get() {
                return Err(Some(bad.clone()));
            }
            let outcomes: Vec<(Outcome, Prob)> = seen;
            let groups = match by {
                Some(path) => view::group(p, &f.ret, path, &outcomes),
                None => view::each(p, &f.ret, &outcomes),
            };
            Ok((groups, drawn))
        })
        .collect();
    // Counts merged block by block, in block order, up to the first block the time
    // limit cut (with the samples it drew): samples `0..drawn` of the seed.
    let mut gather = view::Gather::default();
    let mut drawn = 0u64;
    for (b, block) in counted.into_iter().enumerate() {
        let (groups, k) = block?;
        for g in groups {
            gather.add(g);
        }
        drawn += k;
        if k < BLOCK.min(n - b as u64 * BLOCK) {
            break;
        }
    }
    let stop = (drawn < n).then_some(Stop::Time);
    let mut groups = gather.finish(by.is_some());
    let total = Prob::from_integer(drawn.max(1).into());
    let counts: Vec<u64> = groups
        .iter()
        .map(|g| {
            g.prob
                .to_integer()
                .try_into()
                .expect("a group holds at most the samples drawn (a u64)")
        })
        .collect();
    for g in &mut groups {
        g.prob = &g.prob / &total;
    }
    let done = if drawn < n {
        format!("{drawn} of {n} samples from seed {seed}")
    } else {
        format!("{n} samples from seed {seed}")
    };
    let d = Distribution {
        outcomes: Vec::new(),
        // With no sample drawn, nothing is known: all of it unexplored.
        unexplored: Prob::from_integer(u8::from(drawn == 0).into()),
        cut: false,
        stop,
        work: work(limits, done, stop),
        bad_answer: None,
    };
    let mut r = finish(p, function, groups, by, limits, &d, scenario, case);
    for (row, k) in r.rows.iter_mut().zip(counts) {
        row.interval = Some(wilson(k, drawn));
    }
    r.samples = Some((drawn, n));
    Ok(r)
}
