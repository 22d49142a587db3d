//! The hand-written baseline of the melee bench, as a crate of its own (`hand.rs`).

pub use bench_rules::{exchange as ex, kingsmark as km};

pub mod hand;
