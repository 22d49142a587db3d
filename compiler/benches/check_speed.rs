//! The writer's loop (issue 29 §8): `rulesc check` of each shipped ruleset beside a bare
//! YAML parse of the same files, as processes (what a writer and the language server
//! wait for) and in this process (what the check itself costs), and the ratio of the
//! two. The goal is a check within 2x of the bare parse.
//!
//! The bare parse reads every `*.yaml` file of the folder and parses it with the YAML
//! library rulesc uses (serde-saphyr), building nothing (`IgnoredAny`); as a process it
//! is this binary run again with `parse <folder>`. In this process the check is also
//! split: `load` (files read, YAML and `.rules` parsed into spanned trees) and the rest.
//!
//! Run: `cargo bench -p rulesc --bench check_speed` (not part of `cargo test`); the
//! process side needs `target/release/rulesc` (`cargo build --release -p rulesc`).
//! Each time is the median of `RUNS` runs.
//!
//! Figures (callgrind, instructions, each process whole; the history and what each change
//! did is in docs/perf.md, "The writer's loop"): Kingsmark's check 30.48 M before issue 29's
//! round four, 24.74 M after (the bare parse 4.47 M: 6.8x, then 5.5x). By change, on a
//! release build without LTO: expressions as flat runs climbed by the builder 37.73 M ->
//! 35.97 M; a comment's text one atomic rule (pest's `skip_until`), no index when nothing
//! reads it, `mask_controls` by bytes: 31.78 M; a name tried first among an operand's
//! forms: 31.33 M -> 30.94 M. The goal is not met with pest: its parse
//! alone is 10.40 M of the 24.74 M, 2.3x the bare parse by itself.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 21;

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

/// The bare parse: every YAML file read and parsed, nothing built.
fn parse(dir: &Path) {
    for f in yaml_files(dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        let _: serde::de::IgnoredAny = serde_saphyr::from_str(&text).unwrap();
    }
}

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn ratio(a: Duration, b: Duration) -> String {
    format!("{:.2}x", a.as_secs_f64() / b.as_secs_f64().max(1e-9))
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{cmd:?}: {out:?}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, word, dir] = args.as_slice() {
        if word == "parse" {
            parse(Path::new(dir));
            return;
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rulesc = root.join("target/release/rulesc");
    let me = std::env::current_exe().unwrap();
    let mut rulesets: Vec<PathBuf> = std::fs::read_dir(root.join("rules"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("ruleset.yaml").is_file())
        .collect();
    rulesets.sort();
    println!("check against a bare YAML parse, median of {RUNS} runs");
    println!(
        "{:<18} {:>10} {:>10} {:>7}   {:>10} {:>10} {:>10} {:>7}",
        "ruleset", "parse", "check", "ratio", "in: parse", "load", "check", "ratio"
    );
    let (mut all_parse, mut all_check) = (Duration::ZERO, Duration::ZERO);
    for dir in &rulesets {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (p_parse, p_check) = if rulesc.is_file() {
            (
                median(|| run(Command::new(&me).arg("parse").arg(dir))),
                median(|| run(Command::new(&rulesc).arg("check").arg(dir))),
            )
        } else {
            (Duration::ZERO, Duration::ZERO)
        };
        let parse_in = median(|| parse(dir));
        let load = median(|| {
            let mut d = rulesc::diag::Diagnostics::default();
            let _ = rulesc::load::load_dir(dir, &mut d);
        });
        let check_in = median(|| {
            let (p, d, _) = rulesc::compile_dir(dir);
            assert!(p.is_some(), "{name}: {:?}", d.items);
        });
        all_parse += p_parse;
        all_check += p_check;
        let process = if rulesc.is_file() {
            format!(
                "{:>10} {:>10} {:>7}",
                ms(p_parse),
                ms(p_check),
                ratio(p_check, p_parse)
            )
        } else {
            format!("{:>29}", "(no target/release/rulesc)")
        };
        println!(
            "{name:<18} {process}   {:>10} {:>10} {:>10} {:>7}",
            ms(parse_in),
            ms(load),
            ms(check_in),
            ratio(check_in, parse_in)
        );
    }
    if rulesc.is_file() {
        println!(
            "all, as processes: check {} against parse {}: {} (goal: at most 2x)",
            ms(all_check),
            ms(all_parse),
            ratio(all_check, all_parse)
        );
    }
}
