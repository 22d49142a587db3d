//! Dungeon Cards (seed `004_13fe4f2794a78b61.txt`), the combat rules C1..C9, driven
//! through the compiled ruleset with scripted d100 faces and scripted decisions. Every
//! resolution runs in the generated code and in the interpreter
//! (`dungeon_cards_support::both`), which must agree on result, trace and state.
//!
//! Wounds, healing and the body map (C10..C21) are in `dungeon_cards_wounds/`.

#[path = "../dungeon_cards_support/mod.rs"]
mod dungeon_cards_support;

use dungeon_cards_support::*;
use rulesc_tests::dungeon_cards as dc;

use dc::AttackResult::{Hit, Killed, Miss, NoRangedWeapon, TooTired};
use dc::BodyPart::{
    Body, Forelegs, Head, Hindlegs, LeftArm, LeftLeg, LeftWing, RightArm, RightLeg, RightWing, Tail,
};
use dc::Silhouette::{Bat, Beetle, Humanoid, Rat, Slime, Snake, Spider, Wolf};
use dc::Stat::{Dodge, Melee, Ranged, Strength};

mod attacks;
mod body;
mod guards;

/// A player with a sword (8 slashing, 2 stamina, critical on 5 or less) and Melee 50.
fn swordsman() -> dc::Combatant {
    dc::Combatant {
        equipped: vec![dc::Item::sword()],
        ..player(&[(Melee, 50)])
    }
}

/// A tough enemy (100 Health: no blow here reaches the sever threshold of 20).
fn tough(silhouette: dc::Silhouette) -> dc::Combatant {
    dc::Combatant {
        base_max_health: 100,
        health: 100,
        ..enemy(silhouette, &[])
    }
}

fn hit(part: dc::BodyPart, damage: i64) -> dc::AttackResult {
    Hit {
        part,
        damage,
        critical: false,
        stunned: false,
        severed: false,
        disarmed: false,
        wounded: false,
    }
}
