//! Kingsmark (seed `000_270d5016b3b9e426.txt`), rules K1..K6 and the worked examples K1x
//! and K4x, driven through the compiled ruleset with scripted dice and decisions. Every
//! resolution runs in the generated code and in the interpreter (`script::both`); the
//! worked examples are also told to each backend on its own (`script::Backend`).
//!
//! Combat (K9..K16, K9x) is in `kingsmark_combat/`, Surprise (K7, K8) in
//! `kingsmark_surprise.rs`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/kingsmark_script.rs"]
mod script;

use rulesc_runtime::TurnOrder;
use rulesc_tests::kingsmark as km;
use script::*;
use std::path::Path;

use km::Action::{DoubleTime, Flair, Sprint, Starring, Swift, Walk};
use km::DamageLevel::{Moderate, Severe};
use km::HitLocation::{LowerTorso, UpperTorso};

mod actions;
mod examples;
mod initiative;
mod waiting;

fn combatant(reflexes: i64, speed: i64) -> km::Combatant {
    km::Combatant {
        reflexes,
        speed,
        ..Default::default()
    }
}

/// A combatant who rolled `die` for Initiative (through `roll_initiative`).
fn rolled(die: u32, reflexes: i64, speed: i64) -> km::Combatant {
    let mut c = combatant(reflexes, speed);
    roll_initiative(&mut c, &[die]);
    c
}

/// Takes every remaining turn of the round, in order.
fn rest_of_round(order: &mut TurnOrder) -> Vec<Vec<usize>> {
    std::iter::from_fn(|| order.next_turn()).collect()
}

fn sword() -> km::Weapon {
    km::Weapon::arming_sword()
}
