//! The shipped rulesets, compiled to Rust by `build.rs` with `rulesc::Builder`.

/// `rules/kingsmark`: the Action Scene combat rules of "Jack's Cinematic d12".
pub mod kingsmark {
    include!(concat!(env!("OUT_DIR"), "/kingsmark.rs"));
}

/// `fixtures/codegen/coverage`: not a game; every construct the Rust backend emits,
/// with names that collide with Rust's, for the differential tests.
pub mod coverage {
    include!(concat!(env!("OUT_DIR"), "/coverage.rs"));
}
