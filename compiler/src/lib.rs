//! `rulesc`: a compiler for tabletop combat rules.
//!
//! The pipeline (see ARCHITECTURE.md), one crate per stage, each re-exported here under
//! its module's name: `rulesc-front` (`load`: YAML and DSL → syntax; `check`: names,
//! types, tables → [`ir::Program`]; packs, diagnostics) → `rulesc-codegen` ([`codegen`]:
//! Rust source, the [`Builder`]) and `rulesc-core` ([`core_ir`]: the program lowered
//! once, its VM; [`eval`]: the interpreter's entry points) → `rulesc-analyze` (exact
//! odds, `simulate`, scenarios, `rulesc test`). This crate holds the tools over them: the
//! command line, the language server, the book and the studio.

pub use rulesc_analyze::{analyze, expect, scenario, schema, simulate, testing};
pub use rulesc_codegen::{builder, codegen, Builder};
pub use rulesc_core::{check_dir, compile_dir, core_ir, eval, fight};
pub use rulesc_front::{
    check, diag, explain, export, ir, load, markup, output, pack, source, syntax, yaml, Checked,
    WORKER_STACK,
};

// The tools (features `book`, `lsp`, `studio`).
#[cfg(feature = "book")]
pub mod book;
#[cfg(feature = "lsp")]
pub mod lsp;
#[cfg(feature = "studio")]
pub mod studio;
