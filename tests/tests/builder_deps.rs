//! A game's build script compiles the front end, the core IR and the code generator, not
//! the tools (issue 25 §6): it depends on `rulesc-codegen`, which prints the core IR
//! (`rulesc-core`: lowering, and the VM beside it, a crate of the front end and the
//! runtime alone), and whose crates by stage leave out `rulesc-analyze` (`simulate`,
//! `analyze`, `rulesc test`, and with them rayon and the big-number crates) and `rulesc`
//! (the language server, the book, the studio and the command line).
//!
//! `examples/duel` depends on `rulesc-codegen` as a game does; cargo's own resolution of
//! its build (`cargo tree`, offline) must hold none of those. That the code generator
//! compiles alone is proved by every `cargo test`: this crate's build script depends on
//! it the same way.

use std::path::Path;
use std::process::Command;

/// What a game's build must not compile: the crates that run rules, the tools, and what
/// they depend on.
const KEPT_OUT: [&str; 11] = [
    "rulesc",
    "rulesc-analyze",
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

    // The build does hold the code generator and the front end, as build dependencies:
    // the check below is not vacuous.
    for name in ["rulesc-codegen", "rulesc-core", "rulesc-front"] {
        assert!(crates.contains(&name), "no {name} in:\n{tree}");
    }
    for name in KEPT_OUT {
        assert!(
            !crates.contains(&name),
            "a game's build compiles {name}:\n{tree}"
        );
    }
}
