//! The whole check of a ruleset folder. The input is split at NUL bytes into up to four
//! files (ruleset.yaml, data.yaml, a.rules, b.rules), written to a scratch folder, and
//! checked; if it checks, the Rust backend runs too. Never panics, never hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 4] = ["ruleset.yaml", "data.yaml", "a.rules", "b.rules"];

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("rulesc-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    for (name, part) in NAMES.iter().zip(data.split(|&b| b == 0)) {
        let _ = std::fs::write(dir.join(name), part);
    }
    let (program, _, _) = rulesc::compile_dir(&dir);
    if let Some(p) = program {
        let _ = rulesc::codegen::generate(&p);
    }
});
