//! `--samples N --seed S`: seeded Monte Carlo, for procedures too large for the exact
//! engine. Sample `k` rolls its dice from its own seed (derived from `S` and `k` alone)
//! and the samples are counted in fixed blocks, so the figures are the same for a seed
//! whatever the number of threads. Each figure comes with its 95% Wilson interval.

use super::engine::{self, BadAnswer, Outcome};
use super::exact::Prob;
use super::report::Report;
use super::view::{self, Group};
use super::{decisions, finish, fresh_args, Distribution, Limits};
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
    let counted: Vec<Result<Vec<Group>, Option<BadAnswer>>> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let s = read().ok_or(None)?;
            let f = &p.functions[s.function];
            let dec = decisions(&s, fixed);
            let mut seen: Vec<(Outcome, Prob)> = Vec::new();
            let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
            let mut cursor = vec![0u32; dec.script.len()];
            for k in b * BLOCK..((b + 1) * BLOCK).min(n) {
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
            Ok(match by {
                Some(path) => view::group(p, &f.ret, path, &outcomes),
                None => view::each(p, &f.ret, &outcomes),
            })
        })
        .collect();
    // Counts merged block by block, in block order.
    let mut gather = view::Gather::default();
    for block in counted {
        for g in block? {
            gather.add(g);
        }
    }
    let mut groups = gather.finish(by.is_some());
    let total = Prob::from_integer(n.into());
    let counts: Vec<u64> = groups
        .iter()
        .map(|g| g.prob.to_integer().try_into().unwrap_or(0))
        .collect();
    for g in &mut groups {
        g.prob = &g.prob / &total;
    }
    let d = Distribution {
        outcomes: Vec::new(),
        unexplored: Prob::from_integer(0.into()),
        stop: None,
        work: format!("{n} samples from seed {seed}"),
        bad_answer: None,
    };
    let mut r = finish(p, function, groups, by, limits, &d, scenario, case);
    for (row, k) in r.rows.iter_mut().zip(counts) {
        row.interval = Some(wilson(k, n));
    }
    Ok(r)
}
