//! How `check` and `build` grow with the ruleset (issue 8, class 7): synthetic rulesets
//! at 1x, 10x and 100x, up to 100,000 records, 10,000 procedures, a 10,000-arm `match`,
//! 16,000 record names that collide once made Rust identifiers, 100,000 records in
//! a homebrew pack, and a table keyed by an enum of 20,000 variants. For each, the time to load and check (`rulesc::compile_dir`, then
//! `rulesc::pack::apply` for the pack) and to generate Rust
//! (`rulesc::codegen::generate`), and the growth exponent `k` of `time ~ size^k`, fitted
//! over the three sizes (1.0 is linear; `docs/perf.md` reports these, and each must be at
//! most 1.2). Run: `cargo bench -p rulesc --bench scale` (not part of `cargo test`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One synthetic ruleset shape: what grows with the scale `n` (1, 10, 100).
struct Shape {
    name: &'static str,
    /// The files of the ruleset at scale `n`.
    files: fn(usize) -> Vec<(String, String)>,
}

const MANIFEST: &str = "ruleset: { name: scale }\n";

/// `1_000 n` records of one type, 20,000 to a file.
fn records(n: usize) -> Vec<(String, String)> {
    let count = 1_000 * n;
    let mut files = vec![(
        "ruleset.yaml".to_string(),
        format!("{MANIFEST}enums:\n  Kind: [Blade, Blunt]\ntypes:\n  Weapon:\n    damage: int\n    kind: Kind\n    spare: {{ type: int, default: 0 }}\n"),
    )];
    for (f, start) in (0..count).step_by(20_000).enumerate() {
        let mut text = String::from("records:\n  Weapon:\n");
        for i in start..(start + 20_000).min(count) {
            let kind = if i % 2 == 0 { "Blade" } else { "Blunt" };
            let _ = writeln!(text, "    w{i}: {{ damage: {}, kind: {kind} }}", i % 17);
        }
        files.push((format!("records{f}.yaml"), text));
    }
    files
}

/// `100 n` procedures, each calling the one before (in chains of 50), 500 to a file.
fn procedures(n: usize) -> Vec<(String, String)> {
    let count = 100 * n;
    let mut files = vec![("ruleset.yaml".to_string(), MANIFEST.to_string())];
    for (f, start) in (0..count).step_by(500).enumerate() {
        let mut text = String::new();
        for i in start..(start + 500).min(count) {
            // Chains of 50 calls (the call depth is limited to 64).
            let call = if i % 50 == 0 {
                "0".to_string()
            } else {
                format!("p{}(x - 1)", i - 1)
            };
            let _ = writeln!(
                text,
                "procedure p{i}(x: int) -> int {{\n  let y = roll d6 + x\n  if y > 3 {{\n    return y\n  }}\n  return {call}\n}}"
            );
        }
        files.push((format!("p{f}.rules"), text));
    }
    files
}

/// `1_000 n` records in homebrew packs of 20,000 each (`packs/`, outside the ruleset
/// folder), checked and added to a small ruleset as `--pack` does.
fn pack_records(n: usize) -> Vec<(String, String)> {
    let count = 1_000 * n;
    let mut files = records(1);
    files.truncate(1);
    for (f, start) in (0..count).step_by(20_000).enumerate() {
        let mut text = format!("pack: {{ name: big{f} }}\nrecords:\n  Weapon:\n");
        for i in start..(start + 20_000).min(count) {
            let kind = if i % 2 == 0 { "Blade" } else { "Blunt" };
            let _ = writeln!(text, "    p{i}: {{ damage: {}, kind: {kind} }}", i % 17);
        }
        files.push((format!("packs/big{f}.yaml"), text));
    }
    files
}

/// One `match` of `100 n` arms, over an enum of as many variants.
fn match_arms(n: usize) -> Vec<(String, String)> {
    let count = 100 * n;
    let variants: Vec<String> = (0..count).map(|i| format!("V{i}")).collect();
    let yaml = format!("{MANIFEST}enums:\n  Big: [{}]\n", variants.join(", "));
    let mut rules = String::from("procedure pick(b: Big) -> int {\n  match b {\n");
    for i in 0..count {
        let _ = writeln!(rules, "    V{i} => {{\n      return {}\n    }}", i % 7);
    }
    rules.push_str("  }\n}\n");
    vec![
        ("ruleset.yaml".to_string(), yaml),
        ("m.rules".to_string(), rules),
    ]
}

/// A table keyed by an enum of `200 n` variants, a row for each (in reverse order, so
/// the rows' keys are not already sorted).
fn enum_table(n: usize) -> Vec<(String, String)> {
    let count = 200 * n;
    let variants: Vec<String> = (0..count).map(|i| format!("V{i}")).collect();
    let mut yaml = format!(
        "{MANIFEST}enums:\n  Big: [{}]\ntables:\n  big:\n    key: Big\n    value: int\n    rows:\n",
        variants.join(", ")
    );
    for i in (0..count).rev() {
        let _ = writeln!(yaml, "      V{i}: {}", i % 7);
    }
    vec![("ruleset.yaml".to_string(), yaml)]
}

/// `160 n` record names that all become the identifier `a_b_c_d_e_f_g_h_i_j_k_l_m_n_o`
/// in Rust (each letter in either case: `a_B_c..`, `A_b_C..`), so each needs a fresh
/// suffix.
fn colliding(n: usize) -> Vec<(String, String)> {
    let count = 160 * n;
    let mut text = format!("{MANIFEST}types:\n  Item:\n    weight: int\nrecords:\n  Item:\n");
    for i in 0..count {
        let name: Vec<String> = "abcdefghijklmno"
            .chars()
            .enumerate()
            .map(|(bit, c)| match i >> bit & 1 {
                0 => c.to_string(),
                _ => c.to_ascii_uppercase().to_string(),
            })
            .collect();
        let _ = writeln!(text, "    {}: {{ weight: {} }}", name.join("_"), i % 9);
    }
    vec![("ruleset.yaml".to_string(), text)]
}

/// Writes the ruleset into `dir/rules` and any `packs/..` file into `dir/packs`; the
/// ruleset folder and the packs.
fn write(dir: &Path, files: &[(String, String)]) -> (PathBuf, Vec<PathBuf>) {
    let _ = std::fs::remove_dir_all(dir);
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    let mut packs = Vec::new();
    for (name, text) in files {
        let path = if name.starts_with("packs/") {
            packs.push(dir.join(name));
            dir.join(name)
        } else {
            rules.join(name)
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    (rules, packs)
}

/// The CPU time this thread has used (`CLOCK_THREAD_CPUTIME_ID`), or `None` where the
/// system does not give it. The machine this runs on is shared: wall-clock time counts
/// the waits for a core too, which grow with the load, not with the input.
#[cfg(unix)]
fn cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    ok.then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(not(unix))]
fn cpu_time() -> Option<Duration> {
    None
}

/// The best of a few runs of `f`, in CPU time where the system gives it (else wall
/// clock): at least one run, more while they take under 0.3 s in all, at most 20.
fn best(mut f: impl FnMut()) -> Duration {
    let now = || cpu_time().unwrap_or_else(|| START.with(|s| s.elapsed()));
    let mut best = Duration::MAX;
    let start = Instant::now();
    for _ in 0..20 {
        let t = now();
        f();
        best = best.min(now().saturating_sub(t));
        if start.elapsed() > Duration::from_millis(300) {
            break;
        }
    }
    best
}

thread_local! {
    static START: Instant = Instant::now();
}

/// Rounds over the three sizes of a shape. Each round times every size in turn, and each
/// size keeps its best time over the rounds, so load from other users of the machine
/// falls on the sizes alike rather than on whichever ran during it.
const ROUNDS: usize = 3;

/// The least-squares slope of `ln t` over `ln n`.
fn exponent(points: &[(f64, f64)]) -> f64 {
    let xs: Vec<f64> = points.iter().map(|(n, _)| n.ln()).collect();
    let ys: Vec<f64> = points.iter().map(|(_, t)| t.max(1e-9).ln()).collect();
    let k = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / k, ys.iter().sum::<f64>() / k);
    let num: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let den: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    num / den
}

fn main() {
    let root: PathBuf = std::env::temp_dir().join(format!("rulesc-scale-{}", std::process::id()));
    let shapes = [
        Shape {
            name: "records",
            files: records,
        },
        Shape {
            name: "pack records",
            files: pack_records,
        },
        Shape {
            name: "procedures",
            files: procedures,
        },
        Shape {
            name: "match arms",
            files: match_arms,
        },
        Shape {
            name: "colliding names",
            files: colliding,
        },
        Shape {
            name: "enum table",
            files: enum_table,
        },
    ];
    let clock = if cpu_time().is_some() {
        "CPU time"
    } else {
        "wall-clock time"
    };
    println!("(times in milliseconds of {clock}, the best of {ROUNDS} rounds)");
    println!(
        "{:<16} {:>6} {:>12} {:>12} {:>12}",
        "shape", "scale", "size", "check (ms)", "build (ms)"
    );
    let mut worst: f64 = 0.0;
    // `RULESC_SCALE_ONLY=<shape>` runs one shape (to profile it).
    let only = std::env::var("RULESC_SCALE_ONLY").ok();
    for shape in shapes
        .iter()
        .filter(|s| only.as_deref().is_none_or(|o| o == s.name))
    {
        let sizes = [1usize, 10, 100];
        let mut inputs = Vec::new();
        for n in sizes {
            let dir = root.join(format!("{}-{n}", shape.name.replace(' ', "_")));
            let files = (shape.files)(n);
            let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
            inputs.push((write(&dir, &files), bytes));
        }
        let mut check = [Duration::MAX; 3];
        let mut build = [Duration::MAX; 3];
        for _ in 0..ROUNDS {
            for (i, ((rules, packs), _)) in inputs.iter().enumerate() {
                let mut program = None;
                check[i] = check[i].min(best(|| {
                    let (p, diags, _) = rulesc::compile_dir(rules);
                    let p =
                        p.unwrap_or_else(|| panic!("{}: {:?}", shape.name, diags.items.first()));
                    program = Some(if packs.is_empty() {
                        p
                    } else {
                        let (p, diags, _) = rulesc::pack::apply(&p, packs);
                        p.unwrap_or_else(|| panic!("{}: {:?}", shape.name, diags.items.first()))
                    });
                }));
                let p = program.expect("checked");
                build[i] = build[i].min(best(|| {
                    let code = rulesc::codegen::generate(&p).expect("generated");
                    std::hint::black_box(code);
                }));
            }
        }
        for (i, n) in sizes.iter().enumerate() {
            println!(
                "{:<16} {:>5}x {:>10} B {:>12.1} {:>12.1}",
                shape.name,
                n,
                inputs[i].1,
                check[i].as_secs_f64() * 1e3,
                build[i].as_secs_f64() * 1e3
            );
        }
        let points = |times: &[Duration; 3]| -> Vec<(f64, f64)> {
            sizes
                .iter()
                .zip(times)
                .map(|(&n, t)| (n as f64, t.as_secs_f64()))
                .collect()
        };
        let (check, build) = (points(&check), points(&build));
        let (kc, kb) = (exponent(&check), exponent(&build));
        worst = worst.max(kc).max(kb);
        println!(
            "{:<16} growth exponent: check {kc:.2}, build {kb:.2}",
            shape.name
        );
    }
    let _ = std::fs::remove_dir_all(&root);
    println!("worst growth exponent: {worst:.2} (linear is 1.0; the target is at most 1.2)");
}
