//! A content pack from a stranger against a shipped ruleset. The first byte picks the
//! ruleset (`rules/<name>`, checked once); the rest is the pack's YAML, written to a
//! scratch file, checked and applied (`rulesc check --ruleset .. pack.yaml`, `--pack`);
//! when it applies, the extended ruleset is compiled to Rust, which must not refuse it.
//! Never panics, never hangs.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, yaml)) = data.split_first() else {
        return;
    };
    let Some((p, path)) = common::ruleset_and_file(pick, "pack", yaml) else {
        return;
    };
    let paths = [path];
    let _ = rulesc::pack::check_packs(p, &paths);
    if let (Some(extended), _, _) = rulesc::pack::apply(p, &paths) {
        // An applied pack builds, as every checked ruleset does.
        if let Err(e) = rulesc::codegen::generate(&extended) {
            panic!("a ruleset extended by a pack does not build: {e}");
        }
    }
});
