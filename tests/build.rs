//! Compiles every shipped ruleset (`../rules/<name>/ruleset.yaml`) with the Builder, as
//! a downstream crate would, and the code-generation fixtures under
//! `fixtures/codegen/`, the benchmark's `fixtures/bench/`, and the variants under `../examples/variants/`; `src/lib.rs`
//! includes the generated modules. The
//! `fixtures/codegen/hostile_names` ruleset is built with its content pack, as a build
//! script using `Builder::pack` would. Every example ruleset of `docs/*.md` that checks
//! (no `expect=` error) is compiled too, each to `$OUT_DIR/docs/<group>/`, and
//! `$OUT_DIR/doc_examples.rs` declares one module per group: the test crate builds the
//! generated code of every docs example, fixture and shipped ruleset, under
//! `deny(warnings)`.

use std::path::{Path, PathBuf};

#[path = "src/doc_examples.rs"]
#[allow(dead_code)]
mod doc_examples;

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
    if let Err(e) = rulesc_codegen::Builder::new().compile(&dirs) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    // Kingsmark again, fitted to a game's types: serde, a derive on every type, an
    // attribute on a type and one on a field (`src/lib.rs`: `kingsmark_fit`).
    let fit = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("fit");
    std::fs::create_dir_all(&fit).expect("OUT_DIR/fit");
    if let Err(e) = rulesc_codegen::Builder::new()
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
    // The coverage fixture with serde and a derive on every type: maps keyed by numbers,
    // flags and records read and write JSON (`src/lib.rs`: `coverage_fit`).
    let fit_coverage =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("fit_coverage");
    std::fs::create_dir_all(&fit_coverage).expect("OUT_DIR/fit_coverage");
    if let Err(e) = rulesc_codegen::Builder::new()
        .out_dir(&fit_coverage)
        .serde(true)
        .derive("Hash")
        .compile(&[here.join("fixtures/codegen/coverage")])
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
    doc_examples(&here.join("../docs"));
    warned(&here.join("fixtures/warnings"));
    let hostile = here.join("fixtures/codegen/hostile_names");
    if let Err(e) = rulesc_codegen::Builder::new()
        .pack(hostile.join("pack.yaml"))
        .compile(&[hostile.join("ruleset")])
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
    // A game built with a pack that adds to the ruleset's data (a variant, a level, a
    // row, a table): its generated types hold them (`tests/salt_coast.rs`).
    let homebrew = here.join("../examples/homebrew");
    if let Err(e) = rulesc_codegen::Builder::new()
        .pack(homebrew.join("sea_raiders.yaml"))
        .compile(&[homebrew.join("salt_coast")])
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// Writes each docs example ruleset that checks to `$OUT_DIR/docs/<group>/`, compiles it
/// there, and lists the modules in `$OUT_DIR/doc_examples.rs`.
fn doc_examples(docs: &Path) {
    println!("cargo:rerun-if-changed={}", docs.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let root = out.join("docs");
    let _ = std::fs::remove_dir_all(&root);
    let blocks = doc_examples::all_blocks(docs);
    let (groups, expects) = doc_examples::groups(&blocks);
    // Every group side by side first: one may extend another (`extends: ../<group>`).
    let mut building = Vec::new();
    for name in groups.keys() {
        let Ok(files) = doc_examples::resolve(&groups, name) else {
            continue;
        };
        for (path, text) in files {
            let file = root.join("src").join(name).join(path);
            std::fs::create_dir_all(file.parent().expect("a folder")).expect("docs examples");
            std::fs::write(&file, text).expect("docs examples");
        }
        // An example that shows a mistake does not build, by design.
        let fails = expects
            .get(name)
            .is_some_and(|codes| codes.iter().any(|c| c.starts_with('E')));
        if !fails {
            building.push(name);
        }
    }
    let mut modules = String::new();
    for name in building {
        let generated = build_alone(&root.join("src").join(name), &root.join("out").join(name));
        modules.push_str(&module(
            name,
            &format!("The docs example ruleset `{name}`."),
            &generated,
        ));
    }
    std::fs::write(out.join("doc_examples.rs"), modules).expect("doc_examples.rs");
}

/// The fixtures that check with warnings only (`fixtures/warnings/*`) build without any:
/// each to its own folder (they share a ruleset name), listed in `$OUT_DIR/warned.rs`.
fn warned(dir: &Path) {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("warned");
    let mut modules = String::new();
    for src in rulesets(dir) {
        let name = src
            .file_name()
            .expect("a folder")
            .to_string_lossy()
            .to_string();
        let generated = build_alone(&src, &out.join(&name));
        modules.push_str(&module(
            &name,
            &format!("`fixtures/warnings/{name}`."),
            &generated,
        ));
    }
    std::fs::write(out.join("../warned.rs"), modules).expect("warned.rs");
}

/// Compiles one ruleset into `dest` alone (its warnings are the point of it, so not
/// passed on to Cargo) and returns the generated file.
fn build_alone(src: &Path, dest: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dest);
    std::fs::create_dir_all(dest).expect("an output folder");
    let built = rulesc_codegen::Builder::new()
        .out_dir(dest)
        .emit_rerun_if_changed(false)
        .compile(&[src]);
    if let Err(e) = built {
        eprintln!("{}: {e}", src.display());
        std::process::exit(1);
    }
    std::fs::read_dir(dest)
        .expect("an output folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "rs"))
        .expect("a generated file")
}

/// `pub mod name { include!("generated"); }`, documented.
fn module(name: &str, doc: &str, generated: &Path) -> String {
    format!(
        "/// {doc}\npub mod {name} {{\n    include!({:?});\n}}\n",
        generated.display().to_string()
    )
}
