//! `cargo bench -p rulesc --bench odds`: how long `rulesc analyze`'s exact engine
//! takes on the cases of issue 10 §5, side by side in one run, with the exact results it
//! finds (so a faster engine that gets a figure wrong shows it here too):
//!
//! - the bare melee exchange: exploding d12 + a against exploding d12 + d + m, a natural 1
//!   an Epic Failure, the margin mapped to levels with a cap and an armor subtraction;
//! - Kingsmark's full `melee_attack` (Sir Aldren's stroke, `examples/kingsmark/aldren.yaml`);
//! - `roll 8d6` plus a hit location; `roll 20d6`; 4d6-keep-3 against a target;
//! - a 1,000-case sweep of the bare exchange over `a`, `d` and `m` (0 to 9 each), in one
//!   process (the cases run in parallel on every core).
//!
//! Each case runs until it has taken a second (at least three times); its best time is
//! printed. `ONLY=text` runs only the single cases whose name holds `text` (and the
//! sweep), for a profiler. The cases live in `tests/benches/odds/` (a ruleset and its scenarios).
//!
//! Side by side with icepool: with `ICEPOOL_PYTHON` set to a Python that has icepool
//! (e.g. a throw-away virtual environment: `python3 -m venv /tmp/ip && /tmp/ip/bin/pip
//! install icepool`), the same run then times `odds/icepool_cases.py` (the same cases, timed
//! the same way) and prints the ratios.

use rulesc::analyze::report::Report;
use rulesc::analyze::{cases, reports, Limits, View};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/odds")
}

fn program(dir: &Path) -> rulesc::ir::Program {
    let (p, d, _) = rulesc::compile_dir(dir);
    p.unwrap_or_else(|| panic!("{}: {:?}", dir.display(), d.items))
}

/// The best time of `f` over at least three runs and about a second, and its last result.
fn best<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    loop {
        let t = Instant::now();
        let out = f();
        best = best.min(t.elapsed());
        runs += 1;
        if runs >= 3 && start.elapsed() > Duration::from_secs(1) {
            return (best, out);
        }
    }
}

fn analyze(p: &rulesc::ir::Program, scenario: &Path, v: &View) -> Vec<Report> {
    match reports(p, scenario, &Limits::default(), v) {
        Ok((r, _, _)) => r,
        Err((d, _)) => panic!("{}: {:?}", scenario.display(), d.items),
    }
}

/// A report's groups, as `label exact` pairs.
fn figures(r: &Report) -> String {
    let mut out: Vec<String> = r
        .rows
        .iter()
        .map(|g| format!("{} {}", g.label, rulesc::analyze::exact::fraction(&g.prob)))
        .collect();
    if out.len() > 4 {
        let n = out.len();
        out.truncate(3);
        out.push(format!("... ({n} groups)"));
    }
    out.join(", ")
}

fn main() {
    let bench = program(&here().join("rules"));
    let kingsmark = program(&here().join("../../../rules/kingsmark"));
    let by = |b: &str| View {
        by: Some(b.to_string()),
        ..View::default()
    };
    let scenario = |name: &str| here().join("scenarios").join(name);
    let singles: [(&str, &rulesc::ir::Program, PathBuf, View); 5] = [
        (
            "bare exchange (a 3, d 2, m 1, armor 1)",
            &bench,
            scenario("exchange.yaml"),
            by("level"),
        ),
        (
            "Kingsmark melee_attack (Sir Aldren)",
            &kingsmark,
            here().join("../../../examples/kingsmark/aldren.yaml"),
            by("level"),
        ),
        (
            "roll 8d6 + location",
            &bench,
            scenario("heavy_blow.yaml"),
            by("location"),
        ),
        ("roll 20d6", &bench, scenario("twenty_d6.yaml"), by("value")),
        (
            "4d6kh3 >= 13",
            &bench,
            scenario("ability_check.yaml"),
            by("value"),
        ),
    ];
    println!("exact odds, best time per case (rulesc analyze's merged-state engine):");
    let mut ours: Vec<(&str, f64)> = Vec::new();
    for (name, p, path, v) in &singles {
        if std::env::var("ONLY").is_ok_and(|o| !name.contains(&o)) {
            continue;
        }
        let (t, r) = best(|| analyze(p, path, v));
        ours.push((name, t.as_secs_f64() * 1e3));
        println!(
            "  {name:<40} {:>10.3} ms   {}",
            t.as_secs_f64() * 1e3,
            figures(&r[0])
        );
        if name.starts_with("roll 20d6") {
            let seventy = r[0].rows.iter().find(|g| g.label == "70").unwrap();
            println!(
                "  {:<40} {:>13}   P(70) = {}",
                "",
                "",
                rulesc::analyze::exact::fraction(&seventy.prob)
            );
        }
    }
    let sweep = View {
        by: Some("level".into()),
        sweeps: ["a=0..9", "d=0..9", "m=0..9"]
            .iter()
            .map(|s| cases::parse_sweep(s).unwrap())
            .collect(),
        ..View::default()
    };
    let threads = rayon::current_num_threads();
    let (t, r) = best(|| analyze(&bench, &scenario("exchange.yaml"), &sweep));
    assert_eq!(r.len(), 1000);
    let sweep_name = "sweep of the bare exchange (1,000 cases)";
    ours.push((sweep_name, t.as_secs_f64() * 1e3));
    println!(
        "  {:<40} {:>10.3} ms   {} cases on {threads} threads, {:.3} ms a case; a=9 d=0 m=0: {}",
        sweep_name,
        t.as_secs_f64() * 1e3,
        r.len(),
        t.as_secs_f64() * 1e3 / r.len() as f64,
        figures(&r[900]),
    );
    icepool(&ours);
}

/// Runs `odds/icepool_cases.py` with `ICEPOOL_PYTHON`, if set, and prints its times beside ours.
fn icepool(ours: &[(&str, f64)]) {
    let Some(python) = std::env::var_os("ICEPOOL_PYTHON") else {
        println!("(set ICEPOOL_PYTHON to a Python with icepool to time it side by side)");
        return;
    };
    let out = match std::process::Command::new(python)
        .arg(here().join("icepool_cases.py"))
        .output()
    {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).to_string(),
        Ok(out) => {
            println!("icepool failed: {}", String::from_utf8_lossy(&out.stderr));
            return;
        }
        Err(e) => {
            println!("icepool could not run: {e}");
            return;
        }
    };
    println!(
        "\nthe same cases in {}",
        out.lines().next().unwrap_or("icepool")
    );
    for (name, ms) in ours {
        let theirs = out.lines().find_map(|l| {
            let rest = l.trim_start().strip_prefix(name)?;
            rest.split_whitespace().next()?.parse::<f64>().ok()
        });
        match theirs {
            Some(t) => println!(
                "  {name:<40} {t:>10.3} ms   icepool / rulesc: {:.1}",
                t / ms
            ),
            None => println!("  {name:<40} {:>13}   (not in the icepool script)", "-"),
        }
    }
}
