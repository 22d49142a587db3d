//! Compiles the Kingsmark rules into `$OUT_DIR/kingsmark.rs`, with serde so that the
//! fighters can be read from JSON. Cargo reruns this when a rules file changes.

fn main() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/kingsmark");
    if let Err(e) = rulesc_codegen::Builder::new().serde(true).compile(&[rules]) {
        // Every problem in the rules, rendered as `rulesc check` shows it.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
