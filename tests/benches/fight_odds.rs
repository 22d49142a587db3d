//! `cargo bench -p rulesc-tests --bench fight_odds`: the exact odds of a whole fight
//! (issue 26 §1) on the duel of `fixtures/fights/duel` (one against one, 2d10 attacks
//! where doubles matter, three conditions, ties at once, 10 vigor each, 20 rounds).
//!
//! Two sides, timed beside each other in one run:
//! - the brute-force reference: `rulesc_tests::duel_oracle`, a Markov chain written by
//!   hand from the rules' text, whose figures are exact and independent of rulesc;
//! - `rulesc analyze` on the fight file (`rulesc::analyze::fight::odds`), whose figures
//!   must be the oracle's to the last digit (the bench stops if they are not).
//!
//! The oracle's time is the best of a few runs (wall clock), analyze's of one (it is the
//! slower), and the processor time of one run of each; the figures, the states each
//! visited and the ratios are printed. `FIGHT_ODDS_ROUNDS=n` runs the duel with a limit of `n` rounds instead of
//! the file's 20 (both sides).

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rulesc_tests::duel_oracle::{Duel, Odds};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs of the oracle; the best is reported.
const RUNS: usize = 5;

/// The processor time this process has used (user and system), from `/proc/self/stat`:
/// on a machine shared with other builds the wall clock says little. `None` off Linux.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Past the command's closing parenthesis: fields 3 onwards; utime and stime are the
    // 14th and 15th, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Runs `f` once, giving its result, wall time and processor time.
fn timed<O>(f: impl FnOnce() -> O) -> (O, Duration, Option<Duration>) {
    let (cpu, start) = (cpu_time(), Instant::now());
    let o = black_box(f());
    let wall = start.elapsed();
    let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
    (o, wall, cpu)
}

fn best_of<O>(runs: usize, mut f: impl FnMut() -> O) -> (O, Duration) {
    let mut best = Duration::MAX;
    let mut odds = None;
    for _ in 0..runs {
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
    let mut duel = Duel::fixture();
    if let Some(n) = std::env::var("FIGHT_ODDS_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        duel.rounds = n;
    }
    println!(
        "the duel (fixtures/fights/duel/fight.yaml): 1 against 1, {} rounds, oracle best of {RUNS}, analyze one run",
        duel.rounds
    );
    let (oracle, time) = best_of(RUNS, || duel.odds());
    report("oracle (hand-written Markov chain)", &oracle, time);

    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/duel");
    let (p, diags, _) = rulesc::compile_dir(&std::path::Path::new(root).join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let mut file = match rulesc::simulate::read(&p, &std::path::Path::new(root).join("fight.yaml"))
    {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    file.rounds = duel.rounds;
    let limits = rulesc::analyze::Limits {
        max_seconds: 3_600,
        max_states: 100_000_000,
        max_memory: 16_384,
        ..Default::default()
    };
    let (got, analyze_time, analyze_cpu) = timed(|| {
        rulesc::analyze::fight::odds(&p, &file, &limits).expect("the duel declares a fight")
    });
    assert_eq!(got.stop, None, "analyze stopped at a limit");
    let same = got.wins[..] == oracle.wins[..]
        && got.draw == oracle.draw
        && got.undecided == oracle.undecided
        && got.rounds == oracle.rounds
        && got.unexplored.is_zero();
    assert!(same, "analyze's figures are not the oracle's");
    let odds = Odds {
        wins: [got.wins[0].clone(), got.wins[1].clone()],
        draw: got.draw.clone(),
        undecided: got.undecided.clone(),
        rounds: got.rounds.clone(),
        states: got.states as usize,
    };
    report(
        "analyze (the fight engine, states merged)",
        &odds,
        analyze_time,
    );
    // Processor time, one more run of the oracle (the wall clock of a shared machine
    // varies with the others' work).
    let (_, _, oracle_cpu) = timed(|| duel.odds());
    if let (Some(o), Some(a)) = (oracle_cpu, analyze_cpu) {
        println!(
            "processor time: oracle {:.2} s, analyze {:.2} s, analyze/oracle {:.1}x",
            o.as_secs_f64(),
            a.as_secs_f64(),
            a.as_secs_f64() / o.as_secs_f64().max(0.01)
        );
    }
    println!(
        "  states run on the engine: {} (the rest met again in a later round); at most {} held at once",
        got.stepped, got.peak
    );
    println!(
        "side by side: the same fractions; analyze/oracle time {:.1}x, states stepped {:.2}x, states run {:.2}x",
        analyze_time.as_secs_f64() / time.as_secs_f64(),
        got.states as f64 / oracle.states as f64,
        got.stepped as f64 / oracle.states as f64
    );
}
