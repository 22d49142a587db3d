//! The rules crate of the melee bench's game: the modules `rulesc` generated for
//! Kingsmark and for the bench's exchange fixture, written by the bench into the folder
//! `RULESC_BENCH_GEN` names, included as a game's `build.rs` output would be.

#![allow(missing_docs)]

pub mod exchange {
    include!(concat!(env!("RULESC_BENCH_GEN"), "/exchange.rs"));
}

pub mod kingsmark {
    include!(concat!(env!("RULESC_BENCH_GEN"), "/kingsmark.rs"));
}
