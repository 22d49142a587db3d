//! `cargo bench -p rulesc-tests --bench fight_odds`: the exact odds of a whole fight
//! (issue 26 §1) on the duel of `fixtures/fights/duel` (one against one, 2d10 attacks
//! where doubles matter, three conditions, ties at once, 10 vigor each, 20 rounds).
//!
//! Two sides, to be timed beside each other:
//! - the brute-force reference: `rulesc_tests::duel_oracle`, a Markov chain written by
//!   hand from the rules' text, whose figures are exact and independent of rulesc;
//! - `rulesc analyze` on the fight file (not yet: analyze refuses a fight; the place to
//!   time it is marked below, and it prints that it cannot run rather than a figure).
//!
//! Each side's time is the best of a few runs (wall clock); the figures and the states
//! each visited are printed, so the two can be compared exactly once both run.

use num_rational::BigRational;
use num_traits::ToPrimitive;
use rulesc_tests::duel_oracle::{Duel, Odds};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs of each side; the best is reported.
const RUNS: usize = 5;

fn best_of(mut f: impl FnMut() -> Odds) -> (Odds, Duration) {
    let mut best = Duration::MAX;
    let mut odds = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let o = black_box(f());
        best = best.min(start.elapsed());
        odds = Some(o);
    }
    (odds.expect("at least one run"), best)
}

fn share(p: &BigRational) -> String {
    format!(
        "{:.8}  ({} / {}: {} digits over {})",
        p.to_f64().unwrap_or(f64::NAN),
        short(&p.numer().to_string()),
        short(&p.denom().to_string()),
        p.numer().to_string().len(),
        p.denom().to_string().len()
    )
}

/// A long number as its first and last digits.
fn short(digits: &str) -> String {
    if digits.len() <= 16 {
        digits.to_string()
    } else {
        format!("{}..{}", &digits[..6], &digits[digits.len() - 6..])
    }
}

fn report(side: &str, odds: &Odds, time: Duration) {
    println!(
        "{side}: {:.3} s, {} states",
        time.as_secs_f64(),
        odds.states
    );
    println!("  Red wins    {}", share(&odds.wins[0]));
    println!("  Blue wins   {}", share(&odds.wins[1]));
    println!("  draw        {}", share(&odds.draw));
    println!("  undecided   {}", share(&odds.undecided));
    println!(
        "  rounds: mean {:.4}",
        odds.mean_rounds().to_f64().unwrap_or(f64::NAN)
    );
    for (r, p) in odds.rounds.iter().enumerate().skip(1) {
        println!("    {r:>2}  {:.8}", p.to_f64().unwrap_or(f64::NAN));
    }
}

fn main() {
    let duel = Duel::fixture();
    println!(
        "the duel (fixtures/fights/duel/fight.yaml): 1 against 1, {} rounds, best of {RUNS}",
        duel.rounds
    );
    let (oracle, time) = best_of(|| duel.odds());
    report("oracle (hand-written Markov chain)", &oracle, time);

    // ---- analyze: the exact run of `rulesc analyze <ruleset> fight.yaml` goes here ----
    // Once analyze runs fights (issue 26 §1, on the core IR's VM), time it with
    // `best_of` on `fixtures/fights/duel/{rules,fight.yaml}`, print its figures and state
    // count with `report`, and check them equal to the oracle's (exact, to the last digit).
    println!("analyze: not yet able to run a fight (issue 26)");
}
