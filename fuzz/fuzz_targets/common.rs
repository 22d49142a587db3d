//! What the scenario and pack targets share: the shipped rulesets, checked once.

use rulesc::ir::Program;
use std::path::PathBuf;
use std::sync::OnceLock;

const RULESETS: [&str; 5] = [
    "kingsmark",
    "hit-strength",
    "d20-armor-slots",
    "dungeon-cards",
    "victory-stars",
];

/// The shipped ruleset `pick` selects (modulo their number), and a scratch file named
/// for this process and `what` holding `text`; `None` if it cannot be written.
pub fn ruleset_and_file(pick: u8, what: &str, text: &[u8]) -> Option<(&'static Program, PathBuf)> {
    static PROGRAMS: OnceLock<Vec<Program>> = OnceLock::new();
    let programs = PROGRAMS.get_or_init(|| {
        let rules = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rules");
        RULESETS
            .iter()
            .map(|r| {
                rulesc::compile_dir(&rules.join(r))
                    .0
                    .expect("a shipped ruleset checks")
            })
            .collect()
    });
    let path = std::env::temp_dir().join(format!("rulesc-fuzz-{what}-{}.yaml", std::process::id()));
    std::fs::write(&path, text).ok()?;
    Some((&programs[usize::from(pick) % programs.len()], path))
}
