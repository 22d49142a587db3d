//! Dungeon Cards (seed `004_13fe4f2794a78b61.txt`), afflictions, persistent wounds,
//! healing and the body map (C10..C21), driven through the compiled ruleset with scripted
//! d100 faces and decisions; the interpreter runs beside the generated code on the same
//! script and must agree (`dungeon_cards_support::both`).

#[path = "../dungeon_cards_support/mod.rs"]
mod dungeon_cards_support;

use dungeon_cards_support::*;
use rulesc_tests::dungeon_cards as dc;

use dc::AfflictionKind::{Burning, Poisoned};
use dc::Blow::{Blunt, Pierce, Slash};
use dc::BodyMapState::{Disabled, Injured, Intact, Missing, Replaced};
use dc::BodyPart::{Body, Head, LeftArm, LeftLeg, RightArm, RightLeg};
use dc::InjuryKind::{Bruise, DeepWound, EyeInjury, Fracture, MissingLimb, Scar};
use dc::Remedy::{
    Antiseptic, Bandage, HealingCare, MendingMagic, RestorativeSalve, ScarRemedy, Splint,
};
use dc::Stat::{Dodge, Melee, Ranged, Strength};

mod bleeding;
mod body_map;
mod healing;
mod injuries;

/// Supplies of one of each remedy.
fn one_of_each() -> [i64; 7] {
    [1; 7]
}

fn kinds(c: &dc::Combatant) -> Vec<(dc::InjuryKind, dc::BodyPart, i64)> {
    c.wounds
        .iter()
        .map(|w| (w.kind, w.part, w.severity))
        .collect()
}

/// A wound that is bandaged and cleaned: it heals one a turn and is never infected.
fn tended(id: i64, kind: dc::InjuryKind, part: dc::BodyPart, severity: i64) -> dc::Wound {
    dc::Wound {
        stabilized: true,
        disinfected: true,
        ..wound(id, kind, part, severity)
    }
}

fn bare(wounds: Vec<dc::Wound>) -> dc::Combatant {
    dc::Combatant {
        afflictions: vec![],
        ..wounded(wounds)
    }
}

/// A closed scar, wound `id` of severity 2 at `part`.
fn scar(id: i64, part: dc::BodyPart) -> dc::Wound {
    dc::Wound {
        closed: true,
        ..wound(id, Scar, part, 2)
    }
}
