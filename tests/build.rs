//! Compiles every shipped ruleset (`../rules/<name>/ruleset.yaml`) with the Builder, as
//! a downstream crate would, and the code-generation fixtures under
//! `fixtures/codegen/`, the benchmark's `fixtures/bench/`, and the variants under `../examples/variants/`; `src/lib.rs`
//! includes the generated modules. The
//! `fixtures/codegen/hostile_names` ruleset is built with its content pack, as a build
//! script using `Builder::pack` would.

use std::path::{Path, PathBuf};

/// The folders directly under `dir` that hold a `ruleset.yaml`, sorted.
fn rulesets(dir: &Path) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|d| d.join("ruleset.yaml").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn main() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = rulesets(&here.join("../rules"));
    dirs.extend(rulesets(&here.join("fixtures/codegen")));
    dirs.extend(rulesets(&here.join("fixtures/bench")));
    // The shipped variants build too (the broken one is broken on purpose).
    dirs.extend(
        rulesets(&here.join("../examples/variants"))
            .into_iter()
            .filter(|d| !d.ends_with("broken_variant")),
    );
    if let Err(e) = rulesc::Builder::new().compile(&dirs) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    // Kingsmark again, fitted to a game's types: serde, a derive on every type, an
    // attribute on a type and one on a field (`src/lib.rs`: `kingsmark_fit`).
    let fit = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("fit");
    std::fs::create_dir_all(&fit).expect("OUT_DIR/fit");
    if let Err(e) = rulesc::Builder::new()
        .out_dir(&fit)
        .serde(true)
        .derive("Hash")
        .type_attribute("Weapon", "#[derive(Eq)]")
        .field_attribute("Combatant.initiative_roll", "#[serde(rename = \"rolled\")]")
        .compile(&[here.join("../rules/kingsmark")])
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
    let hostile = here.join("fixtures/codegen/hostile_names");
    if let Err(e) = rulesc::Builder::new()
        .pack(hostile.join("pack.yaml"))
        .compile(&[hostile.join("ruleset")])
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
