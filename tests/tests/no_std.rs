//! The runtime and the code rulesc generates build without `std`: a `#![no_std]` crate
//! that includes every module `build.rs` generated, against `rulesc-runtime` with
//! `default-features = false`, is built for the host (no other target needed), and so is
//! the runtime alone with `--no-default-features`. Then the same with the runtime's
//! `serde` feature and the module generated with `Builder::serde(true)`. The crates deny
//! `missing_docs` and `warnings`: every generated item is documented, and the fixtures'
//! enums with variants named `self`, `Self`, `super` and `crate` build clean.
//!
//! The crate lives in `target/no-std-check/` with its own target directory, so the outer
//! `cargo test` and this build never wait on each other's lock.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.env_remove("RUSTFLAGS").env("CARGO_TERM_COLOR", "never");
    c
}

fn run(mut cmd: Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run cargo: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The generated modules, as (module name, file) pairs, sorted.
fn generated() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(env!("OUT_DIR"))
        .expect("OUT_DIR")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

#[test]
fn runtime_and_generated_code_build_without_std() {
    let ws = workspace();
    let dir = ws.join("target/no-std-check");
    let target = dir.join("target");

    let mut cmd = cargo();
    cmd.current_dir(&ws).args(["build", "--offline", "--quiet"]);
    cmd.args([
        "-p",
        "rulesc-runtime",
        "--no-default-features",
        "--target-dir",
    ]);
    cmd.arg(&target);
    run(cmd, "cargo build -p rulesc-runtime --no-default-features");

    let modules = generated();
    assert!(
        modules.iter().any(|(m, _)| m == "kingsmark"),
        "build.rs generated no kingsmark module: {modules:?}"
    );
    check_crate(&dir.join("plain"), &target, "", &modules);

    let fit = Path::new(env!("OUT_DIR")).join("fit/kingsmark.rs");
    let modules = vec![("kingsmark_fit".to_string(), fit)];
    check_crate(
        &dir.join("serde"),
        &target,
        ", features = [\"serde\"]",
        &modules,
    );
}

/// Writes a `#![no_std]` crate in `dir` that includes `modules`, depending on the runtime
/// without its default features (plus `features`), and builds it.
fn check_crate(dir: &Path, target: &Path, features: &str, modules: &[(String, PathBuf)]) {
    std::fs::create_dir_all(dir).unwrap();
    let runtime = workspace().join("runtime").canonicalize().unwrap();
    let manifest = format!(
        "[package]\nname = \"no-std-check\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\n\
         rulesc-runtime = {{ path = {:?}, default-features = false{features} }}\n\n[workspace]\n",
        runtime.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let mut lib = String::from(
        "//! Every generated module, in a crate without `std`.\n#![no_std]\n#![deny(missing_docs, warnings)]\n",
    );
    for (name, file) in modules {
        lib.push_str(&format!(
            "/// `{name}`\npub mod {name} {{\n    include!({:?});\n}}\n",
            file.display().to_string()
        ));
    }
    std::fs::write(dir.join("lib.rs"), lib).unwrap();

    let mut cmd = cargo();
    cmd.current_dir(dir)
        .args(["build", "--offline", "--quiet", "--target-dir"]);
    cmd.arg(target);
    run(cmd, &format!("the no_std crate in {}", dir.display()));
}
