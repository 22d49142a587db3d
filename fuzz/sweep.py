#!/usr/bin/env python3
"""Sweeps a `check_folder` corpus through the promises `check` makes of a ruleset it passes.

    python3 fuzz/sweep.py fuzz/corpus/check_folder [--seeds 200]

Each input is split at NUL bytes into ruleset.yaml, data.yaml, a.rules and b.rules (as
the `check_folder` target does) and given to `target/release/rulesc build` (build it
first: `cargo build --release -p rulesc`). For every ruleset that checks:

- `build` must not refuse it (a refusal after a clean `check` is "a bug in rulesc");
- its generated module must compile under `deny(warnings)`;
- when it declares a fight, 200 seeded fights of two sides of two combatants at their
  defaults, five rounds at most, run through the interpreter and through the generated
  code must end alike after as many rounds, trace the same events and use as many dice.

Scratch crates live in a temporary folder; the inputs that fail are copied to
`sweep-failures/` beside this script, with what failed printed. Slow (a `cargo` build
per ruleset): minutes per hundred rulesets. Not part of `cargo test`.
"""

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile

NAMES = ["ruleset.yaml", "data.yaml", "a.rules", "b.rules"]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
RULESC = os.path.join(ROOT, "target", "release", "rulesc")

WARNINGS_LIB = """#![deny(warnings)]
pub mod g {
    include!("gen.rs");
}
"""

FIGHTS_MAIN = r"""#[allow(warnings)]
mod g {
    include!("gen.rs");
}
use rulesc::eval::Value;
use rulesc::ir::Ty;
use rulesc_runtime::{Answer, DiceSource, Env, Fight, Policy, SeededDice, VecTrace};

fn env(seed: u64) -> Env<SeededDice, Policy, VecTrace> {
    Env::new(
        SeededDice::new(rulesc::simulate::run_seed(0, seed, 0)),
        Policy::new(Answer::Random, rulesc::simulate::run_seed(0, seed, 1)),
        VecTrace::default(),
    )
}

fn main() {
    let dir = std::env::args().nth(1).expect("a ruleset folder");
    let seeds: u64 = std::env::args().nth(2).map_or(200, |s| s.parse().expect("seeds"));
    let (p, _, _) = rulesc::compile_dir(std::path::Path::new(&dir));
    let p = p.expect("the ruleset checks");
    let def = p.fight.as_ref().expect("a fight");
    let zero = Value::from_const(&p.zero(&Ty::Record(def.combatant)));
    let names = [("a", "a1"), ("a", "a2"), ("b", "b1"), ("b", "b2")];
    for seed in 0..seeds {
        let mut fi: Fight<Value> = Fight::new();
        for (s, n) in names {
            fi.join(s, n, zero.deep_clone());
        }
        let mut rules = rulesc::fight::EvalRules::new(&p).expect("the fight's rules");
        let mut ei = env(seed);
        let end_i = fi.run(&mut rules, &mut ei, 5);
        let mut fg = g::Fight::new();
        for (s, n) in names {
            fg.join(s, n, Default::default());
        }
        let mut eg = env(seed);
        let end_g = fg.run(&mut g::Rules, &mut eg, 5);
        let (ti, tg) = (ei.trace.render(&p.sites), eg.trace.render(g::SITES));
        let same = format!("{end_i:?}") == format!("{end_g:?}")
            && fi.round() == fg.round()
            && ti == tg
            && ei.dice.face(1_000_000) == eg.dice.face(1_000_000);
        if !same {
            println!("seed {seed}: interpreter {end_i:?} after {} rounds, generated {end_g:?} after {}", fi.round(), fg.round());
            let (a, b): (Vec<&str>, Vec<&str>) = (ti.lines().collect(), tg.lines().collect());
            let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
            for i in first.saturating_sub(3)..(first + 4).min(a.len().max(b.len())) {
                println!("  interpreter: {}", a.get(i).unwrap_or(&"<end>"));
                println!("  generated:   {}", b.get(i).unwrap_or(&"<end>"));
            }
            std::process::exit(1);
        }
    }
}
"""


def crate(where, name, deps, src_name, src):
    os.makedirs(os.path.join(where, "src"))
    with open(os.path.join(where, "Cargo.toml"), "w") as f:
        f.write(f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n'
                f"[dependencies]\n{deps}[workspace]\n")
    with open(os.path.join(where, "src", src_name), "w") as f:
        f.write(src)


def cargo(where, *args):
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(where, "target"))
    return subprocess.run(["cargo", *args, "-q"], cwd=where, capture_output=True, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--seeds", type=int, default=200)
    args = ap.parse_args()
    if not os.path.exists(RULESC):
        sys.exit(f"{RULESC} is missing: cargo build --release -p rulesc")
    runtime = f'rulesc-runtime = {{ path = "{ROOT}/runtime" }}\n'
    compiler = f'rulesc = {{ path = "{ROOT}/compiler", default-features = false }}\n'
    failures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep-failures")
    stats = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        warn, fights, rs = (os.path.join(tmp, d) for d in ("warnings", "fights", "rs"))
        crate(warn, "sweep_warnings", runtime, "lib.rs", WARNINGS_LIB)
        crate(fights, "sweep_fights", runtime + compiler, "main.rs", FIGHTS_MAIN)

        def failed(name, what, text):
            stats[what] += 1
            os.makedirs(failures, exist_ok=True)
            shutil.copy(os.path.join(args.corpus, name), os.path.join(failures, name))
            print(f"== {name}: {what}\n{text}", flush=True)

        for name in sorted(os.listdir(args.corpus)):
            with open(os.path.join(args.corpus, name), "rb") as f:
                parts = f.read().split(b"\0")
            shutil.rmtree(rs, ignore_errors=True)
            os.makedirs(rs)
            for file, part in zip(NAMES, parts):
                with open(os.path.join(rs, file), "wb") as f:
                    f.write(part)
            gen = os.path.join(warn, "src", "gen.rs")
            try:
                b = subprocess.run([RULESC, "--color", "never", "build", rs, "-o", gen],
                                   capture_output=True, timeout=60)
                c = subprocess.run([RULESC, "--color", "never", "check", rs],
                                   capture_output=True, timeout=60) if b.returncode else b
            except subprocess.TimeoutExpired:
                failed(name, "rulesc hung", "")
                continue
            if b.returncode not in (0, 1, 2) or c.returncode not in (0, 1, 2):
                failed(name, "rulesc crashed", (b.stderr + c.stderr).decode()[-1500:])
                continue
            if b.returncode:
                if c.returncode == 0:
                    failed(name, "checks but does not build", b.stderr.decode()[-1500:])
                else:
                    stats["does not check"] += 1
                continue
            r = cargo(warn, "check")
            if r.returncode:
                failed(name, "generated code warns or fails", r.stderr.decode()[-1500:])
                continue
            stats["builds cleanly"] += 1
            with open(gen) as f:
                code = f.read()
            if "pub type Fight =" not in code or "\npub struct Rules;" not in code:
                continue
            shutil.copy(gen, os.path.join(fights, "src", "gen.rs"))
            r = cargo(fights, "build")
            if r.returncode:
                failed(name, "fight harness does not build", r.stderr.decode()[-1500:])
                continue
            run = subprocess.run([os.path.join(fights, "target", "debug", "sweep_fights"), rs,
                                  str(args.seeds)], capture_output=True, timeout=600)
            if run.returncode:
                failed(name, "backends differ on a fight", (run.stdout + run.stderr).decode()[-3000:])
            else:
                stats["fights alike"] += 1
    print(dict(stats))
    sys.exit(1 if any(k not in ("does not check", "builds cleanly", "fights alike") for k in stats) else 0)


if __name__ == "__main__":
    main()
