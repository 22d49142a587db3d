//! A game built with a pack that adds to its ruleset's data (issue 29 §6):
//! `examples/homebrew/salt_coast` compiled by `build.rs` with
//! `examples/homebrew/sea_raiders.yaml` through `Builder::pack`. The generated types hold
//! what the pack adds (its damage type, its harm level above the top, its table), and
//! the game runs the pack's rows: the strike `examples/salt-coast/harpoon_strike.yaml`
//! traces through the interpreter gives the same level here.

use rulesc_runtime::{Env, NoTrace, ScriptedDecisions, ScriptedDice};
use rulesc_tests::salt_coast::{self as s, DamageType, Harm, Tide, Weapon};

fn strike(weapon: &Weapon, margin: i64) -> Harm {
    let mut env = Env::new(ScriptedDice::new(&[]), ScriptedDecisions::new(), NoTrace);
    s::strike(&mut env, weapon, margin)
}

#[test]
fn the_packs_variant_level_and_table_are_in_the_generated_types() {
    assert_eq!(
        DamageType::ALL,
        [DamageType::Cut, DamageType::Blunt, DamageType::Brine]
    );
    assert_eq!(Harm::ALL.last(), Some(&Harm::Drowned));
    assert_eq!(
        [Tide::Ebb, Tide::Slack, Tide::Flood].map(s::boarding_reach),
        [1, 2, 3]
    );
    assert_eq!(s::soak(DamageType::Brine), 0);
    assert_eq!(
        Weapon::named("harpoon").map(|w| w.kind),
        Some(DamageType::Brine)
    );
}

#[test]
fn the_game_reaches_the_packs_level_above_the_rulesets_top() {
    // Wound, two levels up for 6 over, nothing soaked: past Down, the pack's Drowned.
    assert_eq!(strike(&Weapon::harpoon(), 6), Harm::Drowned);
    // One below the boundary: 5 over is one level up, Down.
    assert_eq!(strike(&Weapon::harpoon(), 5), Harm::Down);
    // The ruleset's cutlass: the leathers soak one level of a cut.
    assert_eq!(strike(&Weapon::cutlass(), 3), Harm::Wound);
    // The top saturates at the pack's level.
    assert_eq!(strike(&Weapon::anchor_chain(), 30), Harm::Drowned);
}
