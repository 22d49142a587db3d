//! The DSL parser on arbitrary text: never panics, never hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulesc::diag::Diagnostics;
use rulesc::syntax::{self, Origin};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut diags = Diagnostics::default();
    let origin = Origin { file: 0, base: 0, fixed: None };
    let _ = syntax::parse_file(text, origin, &mut diags);
    let _ = syntax::parse_expr(text, origin, &mut diags);
    let _ = syntax::parse_type(text, origin, &mut diags);
});
