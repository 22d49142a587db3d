//! `rulesc-codegen`: a checked ruleset printed as a Rust module ([`codegen`]), and the
//! [`Builder`] a game's build script calls. It reads the front end's [`ir::Program`] and
//! nothing of the interpreter: a game's build compiles this crate and `rulesc-front`.

pub mod builder;
pub mod codegen;

pub use builder::Builder;

// The front end's modules, under the paths the printer names them by.
use rulesc_front::{compile_dir, diag, ir, output, pack, source, WORKER_STACK};
