//! `rulesc analyze`: the exact odds of a scenario's outcomes, by walking every path of
//! its dice (decisions as the scenario scripts them, scripted dice ignored).
//!
//! Exploding dice make paths unbounded: the walk stops a path after `max_dice` dice and
//! the whole enumeration after `max_paths` paths; the mass it did not reach is reported
//! as unexplored, never dropped. Reaching the path limit is a warning diagnostic (W0101).

use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{self, Value};
use crate::ir::Program;
use crate::scenario;
use crate::source::{Sources, Span};
use rulesc_runtime::{enumerate, Env, NoTrace, Prob};
use std::fmt::Write as _;
use std::path::Path;

/// Most dice on one path, and most paths in one enumeration (the stated limits).
pub const MAX_DICE_PER_PATH: usize = 12;
pub const MAX_PATHS: u64 = 2_000_000;

/// The distribution of a scenario's results, as text, and any warning.
pub fn analyze(
    p: &Program,
    path: &Path,
    max_dice: usize,
    max_paths: u64,
) -> Result<(String, Diagnostics, Sources), (Diagnostics, Sources)> {
    let (s, sources) = scenario::read(p, path)?;
    let f = &p.functions[s.function];
    let e = enumerate(max_dice.min(64), max_paths, |dice| {
        let args: Vec<Value> = s.args.iter().map(Value::deep_clone).collect();
        let mut env = Env::new(dice, s.decisions.clone(), NoTrace);
        let result = eval::call(p, &mut env, s.function, args);
        eval::show(p, &result, &f.ret)
    });
    let mut outcomes = e.outcomes.clone();
    outcomes.sort_by(|(a, pa), (b, pb)| (pb.num * pa.den).cmp(&(pa.num * pb.den)).then(a.cmp(b)));
    let mut out = String::new();
    let _ = writeln!(out, "{} ({} paths):", f.name, e.paths);
    for (r, prob) in &outcomes {
        let _ = writeln!(
            out,
            "  {:>8.4}%  {:>14}  {r}",
            prob.to_f64() * 100.0,
            format!("{}/{}", prob.num, prob.den)
        );
    }
    if e.unexplored != Prob::ZERO {
        let _ = writeln!(out, "  {:>8.4}%  {:>14}  (unexplored: paths longer than {max_dice} dice or past the path limit)", e.unexplored.to_f64() * 100.0, format!("{}/{}", e.unexplored.num, e.unexplored.den));
    }
    let mut diags = Diagnostics::default();
    if e.stopped_early {
        let file = sources.files.len().saturating_sub(1) as u32;
        diags.push(
            Diagnostic::warning("W0101", Span::new(file, 0, 0), format!("the enumeration stopped after {max_paths} paths"))
                .label("this scenario")
                .help("the odds shown are exact for the paths reached; raise --max-paths, or lower --max-dice, to reach more"),
        );
    }
    Ok((out, diags, sources))
}
