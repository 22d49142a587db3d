//! A game's build script compiles the front end and the code generator, not the tools
//! (issue 25 §6): `rulesc` with `default-features = false` leaves out the feature `run`
//! (the interpreter, `simulate`, `analyze`, `rulesc test`), and with it rayon and the
//! big-number crates, and the language server, the book and the command line.
//!
//! `examples/duel` depends on `rulesc` as a game does; cargo's own resolution of its
//! build (`cargo tree`, offline) must hold none of those. That the lean library compiles
//! is proved by every `cargo test`: this crate's build script depends on it the same way,
//! and build dependencies get their own features.

use std::path::Path;
use std::process::Command;

/// What a game's build must not compile: the crates behind `run` and the tools.
const KEPT_OUT: [&str; 9] = [
    "rayon",
    "num-bigint",
    "num-rational",
    "num-integer",
    "lsp-server",
    "lsp-types",
    "clap",
    "notify",
    "pulldown-cmark",
];

#[test]
fn a_games_build_script_compiles_neither_the_interpreter_nor_the_tools() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&ws)
        .env("CARGO_TERM_COLOR", "never")
        .args(["tree", "--offline", "-p", "duel", "--prefix", "none"])
        .args(["-e", "normal,build,features"])
        .output()
        .expect("cannot run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let crates: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();

    // The build does hold the compiler, as a build dependency: the check below is not
    // vacuous.
    assert!(crates.contains(&"rulesc"), "no rulesc in:\n{tree}");
    for name in KEPT_OUT {
        assert!(
            !crates.contains(&name),
            "a game's build compiles {name}:\n{tree}"
        );
    }
    // And the compiler without its features: `run` (which would bring analyze, the
    // interpreter and `simulate`), nor `cli`, `lsp`, `book` or `studio`.
    let features: Vec<&str> = tree
        .lines()
        .filter(|l| l.starts_with("rulesc feature "))
        .collect();
    assert!(
        features.is_empty(),
        "a game's build turns on features of rulesc: {features:?}"
    );
}
