//! `rulesc-analyze`: the tools that run rules on the core's VM. Exact odds
//! ([`analyze`]), fights and procedures simulated ([`simulate`]), scenarios and their
//! expectations ([`scenario`], [`expect`]), `rulesc test` ([`testing`]) and the JSON
//! Schemas of what they read and write ([`schema`]).

pub mod analyze;
pub mod expect;
pub mod scenario;
pub mod schema;
pub mod simulate;
pub mod testing;
pub mod values;

// The stages below, under the paths this crate names them by.
use rulesc_core::{compile_dir, core_ir, eval, fight};
use rulesc_front::{check, diag, explain, export, ir, load, markup, output, pack, source, yaml};
