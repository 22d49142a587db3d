//! The shipped rulesets, compiled to Rust by `build.rs` with `rulesc_codegen::Builder`, and
//! [`support`], the scripted-run harness their tests share, and [`differential`], the
//! seeded harness that compares the generated code with the interpreter, and
//! [`duel_oracle`], the exact odds of the duel fixture written by hand.

pub mod differential;
pub mod doc_examples;
pub mod duel_oracle;
pub mod fights;
pub mod support;

/// `rules/kingsmark`: the Action Scene combat rules of "Jack's Cinematic d12".
pub mod kingsmark {
    include!(concat!(env!("OUT_DIR"), "/kingsmark.rs"));
}

/// `rules/d20-armor-slots`: Part 4, Combat, of the d20 ruleset with per-slot armor HP.
pub mod d20_armor_slots {
    include!(concat!(env!("OUT_DIR"), "/d20_armor_slots.rs"));
}

/// `rules/dungeon-cards`: the Combat & Injury rules of Dungeon Cards (body parts, wounds,
/// healing).
pub mod dungeon_cards {
    include!(concat!(env!("OUT_DIR"), "/dungeon_cards.rs"));
}

/// `rules/victory-stars`: "Resolving an Attack": d100 Success Tests, Victory Stars and
/// Tactical Advantages, hit zones, impact and aspect, trauma and morale.
pub mod victory_stars {
    include!(concat!(env!("OUT_DIR"), "/victory_stars.rs"));
}

/// `rules/hit-strength`: Hit Strength, damage by weapon, Injury and Death.
pub mod hit_strength {
    include!(concat!(env!("OUT_DIR"), "/hit_strength.rs"));
}

/// `fixtures/codegen/coverage`: not a game; every construct the Rust backend emits,
/// with names that collide with Rust's, for the differential tests.
pub mod coverage {
    include!(concat!(env!("OUT_DIR"), "/coverage.rs"));
}

/// `rules/kingsmark` built with `Builder::serde(true)`, `.derive("Hash")`,
/// `.type_attribute("Weapon", "#[derive(Eq)]")` and a field attribute renaming
/// `Combatant.initiative_roll` to `rolled` in JSON (`tests/generated_api.rs`).
pub mod kingsmark_fit {
    include!(concat!(env!("OUT_DIR"), "/fit/kingsmark.rs"));
}

/// `fixtures/codegen/coverage` built with `Builder::serde(true)` and `.derive("Hash")`
/// (`tests/generated_api.rs`: maps over any key in JSON).
pub mod coverage_fit {
    include!(concat!(env!("OUT_DIR"), "/fit_coverage/coverage.rs"));
}

/// `fixtures/bench/exchange`: not a game; Kingsmark's bare melee exchange (K9, K12), the
/// first case of `benches/melee.rs`.
pub mod exchange {
    include!(concat!(env!("OUT_DIR"), "/exchange.rs"));
}

/// `fixtures/codegen/limits`: not a game; the run-time limits (a list's length, values
/// cut in traces, a million-total table rolled `among` a value) in both backends.
pub mod limits {
    include!(concat!(env!("OUT_DIR"), "/limits.rs"));
}

/// `fixtures/codegen/dice_count`: not a game; `dice * n` throws 0 to 1,000 dice, fewer
/// or more a rule error, in both backends.
pub mod dice_count {
    include!(concat!(env!("OUT_DIR"), "/dice_count.rs"));
}

/// `fixtures/codegen/hostile_names`: not a game; a ruleset built with a content pack
/// (`Builder::pack`) whose record names and enum labels are hostile text (quotes, a
/// string breakout, comment markers, keywords, digits, non-ASCII, emoji, collisions).
pub mod hostile_names {
    include!(concat!(env!("OUT_DIR"), "/hostile_names.rs"));
}

/// `examples/homebrew/salt_coast` built with `examples/homebrew/sea_raiders.yaml`, a pack
/// that adds a damage type, a harm level, a row and a table (`Builder::pack`).
pub mod salt_coast {
    include!(concat!(env!("OUT_DIR"), "/salt_coast.rs"));
}

/// `examples/variants/gritty_kingsmark`: Kingsmark with lower Critical Thresholds, Sprint
/// at 3 and a harsher concealment table.
pub mod gritty_kingsmark {
    include!(concat!(env!("OUT_DIR"), "/gritty_kingsmark.rs"));
}

/// `examples/variants/d20_house_rules`: d20-armor-slots with house weapons.
pub mod d20_house_rules {
    include!(concat!(env!("OUT_DIR"), "/d20_house_rules.rs"));
}

/// `fixtures/warnings/*`: rulesets that check with warnings only build without any.
pub mod warned {
    include!(concat!(env!("OUT_DIR"), "/warned.rs"));
}

/// Every example ruleset of `docs/*.md` that checks, compiled by `build.rs`: the
/// generated code of each builds here, warnings denied (backend parity).
pub mod doc_rulesets {
    include!(concat!(env!("OUT_DIR"), "/doc_examples.rs"));
}

/// `fixtures/codegen/documented`: not a game; every kind of definition with the writer's
/// comments, code blocks among them. Part of the library so that `cargo test` runs its
/// doc comments' code blocks as doctests would be run in a game's crate: none may be Rust
/// (`tests/tests/generated_docs.rs`).
pub mod documented {
    include!(concat!(env!("OUT_DIR"), "/documented.rs"));
}

/// `fixtures/codegen/arena`: not a game; a small fight using every fight construct
/// (fighters, turn order with rolled ties, durations, timers, world time, triggers), for
/// the fight engine's differential tests.
pub mod arena {
    include!(concat!(env!("OUT_DIR"), "/arena.rs"));
}

/// `fixtures/codegen/skirmish`: not a game; a fight whose ties act at once and whose
/// timers repeat until their condition holds, for the fight engine's differential tests.
pub mod skirmish {
    include!(concat!(env!("OUT_DIR"), "/skirmish.rs"));
}

/// `fixtures/codegen/edges`: not a game; triggers toggled within one pass and an `on
/// every` hook advancing world time into itself, for the fight engine's differential
/// tests.
pub mod edges {
    include!(concat!(env!("OUT_DIR"), "/edges.rs"));
}
