//! The YAML loader on arbitrary text: never panics, never hangs, bounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesc::diag::Diagnostics;
use rulesc::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let src = SourceFile::new("fuzz.yaml".into(), "fuzz.yaml".into(), text.to_string());
    let mut diags = Diagnostics::default();
    let _ = rulesc::yaml::parse(0, &src, &mut diags);
});
