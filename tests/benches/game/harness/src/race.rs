//! How the melee bench times two or three sides of a case: alternating slices, and a
//! ratio as the median over the rounds of the sides' rates in the same round (see
//! `tests/benches/melee.rs`). Shared by that bench and by the game-like harness beside
//! this file, so both time alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

pub const INPUTS: u64 = 1_000;
pub const SLICE: Duration = Duration::from_millis(20);
pub const SLICES: usize = 100;

/// A side of a race: its name and a round that resolves every input once.
pub type Side<'a> = (&'static str, Box<dyn FnMut() -> u64 + 'a>);

/// Each side's rate (resolutions per second) in every round of slices, in side order;
/// empty for a side the command line left out.
pub type Rates = Vec<Vec<f64>>;

/// Runs the sides in alternating slices (a round runs one slice of each, back to back)
/// and returns every slice's rate.
pub fn race(case: &str, sides: &mut [Side<'_>]) -> Rates {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let wanted = |name: &str| {
        let named: Vec<&String> = args.iter().filter(|a| *a == name || *a == case).collect();
        let any_side = args
            .iter()
            .any(|a| ["hand", "generated", "interpreter"].contains(&a.as_str()));
        let any_case = args
            .iter()
            .any(|a| ["exchange", "melee_attack", "fight"].contains(&a.as_str()));
        let side_ok = !any_side || named.iter().any(|a| *a == name);
        let case_ok = !any_case || named.iter().any(|a| *a == case);
        side_ok && case_ok
    };
    let mut rates: Rates = vec![Vec::new(); sides.len()];
    // `rounds=N`: each side named runs N rounds and no slice is timed (for counting
    // instructions: the same work on every run).
    let counted = args
        .iter()
        .find_map(|a| a.strip_prefix("rounds=")?.parse::<usize>().ok());
    if let Some(n) = counted {
        for (name, round) in sides.iter_mut() {
            if wanted(name) {
                for _ in 0..n {
                    black_box(round());
                }
            }
        }
        return rates;
    }
    for (name, round) in sides.iter_mut() {
        if wanted(name) {
            round(); // warm up
        }
    }
    for _ in 0..SLICES {
        for (i, (name, round)) in sides.iter_mut().enumerate() {
            if !wanted(name) {
                continue;
            }
            let start = Instant::now();
            let mut done = 0u64;
            while start.elapsed() < SLICE {
                done += round();
            }
            rates[i].push(done as f64 / start.elapsed().as_secs_f64());
        }
    }
    rates
}

/// A side's best slice (0 for a side left out).
pub fn best(rates: &[f64]) -> f64 {
    rates.iter().copied().fold(0.0, f64::max)
}

/// The median over the rounds of `a`'s rate over `b`'s in the same round: slices run
/// back to back see the same load, so a burst of load elsewhere moves both sides of a
/// round and drops out of the ratio, where the ratio of two best slices taken at
/// different moments carries it. `NaN` for a side left out.
pub fn paired_ratio(a: &[f64], b: &[f64]) -> f64 {
    let mut ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    if ratios.is_empty() {
        return f64::NAN;
    }
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    if n % 2 == 1 {
        ratios[n / 2]
    } else {
        (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
    }
}
