//! Dungeon Cards' one generator of random test inputs: combatants (with their gear, wounds
//! and afflictions), items, wearables, boards, and the days of remedies, replacement
//! limbs and fresh wounds a character lives between world turns, all drawn from
//! `common::Draw`'s seeded dice. Used by the differential test
//! (`dungeon_cards_differential.rs`: generated code against the interpreter) and the
//! property test (`properties_dungeon_cards.rs`: the rules' invariants); the values'
//! interpreter shapes are `dungeon_cards_support`'s `*_value` conversions.
//!
//! Included by those files as `#[path = "common/dungeon_cards_draw.rs"] mod
//! dungeon_cards_draw;` next to `mod common;`.

#![allow(dead_code)]

use crate::common::Draw;
use rulesc_tests::dungeon_cards as dc;

/// A map of `N` small values: each one is drawn from `0..=hi` `percent` times in a
/// hundred, and is 0 otherwise.
pub fn small_map<const N: usize>(d: &mut Draw, percent: u32, hi: i64) -> [i64; N] {
    let mut m = [0; N];
    for v in m.iter_mut() {
        if d.chance(percent) {
            *v = d.int(0, hi);
        }
    }
    m
}

/// One of the ruleset's items, or (two times in thirteen) an item of random fields.
pub fn item(d: &mut Draw) -> dc::Item {
    match d.int(0, 12) {
        0 => dc::Item::sword(),
        1 => dc::Item::flame_sword(),
        2 => dc::Item::greatsword(),
        3 => dc::Item::mace(),
        4 => dc::Item::dagger(),
        5 => dc::Item::spear(),
        6 => dc::Item::shortbow(),
        7 => dc::Item::frost_crossbow(),
        8 => dc::Item::buckler(),
        9 => dc::Item::tower_shield(),
        10 => dc::Item::wolf_bite(),
        _ => dc::Item {
            kind: d.pick(&dc::ItemKind::ALL),
            slot: d.pick(&dc::EquipSlot::ALL),
            two_handed: d.chance(30),
            damage: d.int(0, 15),
            blow: d.pick(&dc::Blow::ALL),
            elements: small_map(d, 30, 6),
            stamina_cost: d.int(0, 5),
            crit_chance: d.int(0, 20),
            stun_chance: d.int(0, 30),
            defense: d.int(0, 4),
        },
    }
}

/// One of the ruleset's wearables, or (one time in six) a wearable of random fields.
pub fn wearable(d: &mut Draw) -> dc::Wearable {
    match d.int(0, 5) {
        0 => dc::Wearable::leather_cap(),
        1 => dc::Wearable::chain_shirt(),
        2 => dc::Wearable::greaves(),
        3 => dc::Wearable::ring_of_warding(),
        4 => dc::Wearable::holy_amulet(),
        _ => dc::Wearable {
            kind: d.pick(&dc::WearableKind::ALL),
            covers: dc::BodyPart::ALL
                .into_iter()
                .filter(|_| d.chance(30))
                .collect(),
            defense: d.int(0, 4),
            elemental_defense: small_map(d, 30, 4),
            broken: d.chance(20),
        },
    }
}

/// Which wound lists `combatant` may draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wounds {
    /// Only lists the rules could have left: one Bruise per part, scars closed and
    /// uninfected, no other wound closed. The property test needs these: it checks the
    /// rules' invariants on every state, the drawn one included, and the invariants hold
    /// only from states the rules can reach.
    Reachable,
    /// Any list: also two Bruises on one part, infected scars and (one time in twenty)
    /// closed wounds of other kinds. The differential test wants these: the generated
    /// code and the interpreter must agree on every state, reachable or not.
    Any,
}

/// A wound on one of `parts`; with `Wounds::Reachable`, scars are never infected and no
/// other kind is closed.
pub fn wound(
    d: &mut Draw,
    id: i64,
    kind: dc::InjuryKind,
    part: dc::BodyPart,
    wounds: Wounds,
) -> dc::Wound {
    let scar = kind == dc::InjuryKind::Scar;
    let any = wounds == Wounds::Any;
    dc::Wound {
        id,
        kind,
        part,
        severity: d.int(1, 3),
        progress: d.int(0, 11),
        age: d.int(0, 3),
        stabilized: d.chance(50),
        disinfected: d.chance(30),
        infected: (any || !scar) && d.chance(15),
        closed: scar || (any && d.chance(5)),
        replaced: kind == dc::InjuryKind::MissingLimb && d.chance(30),
    }
}

/// A random character or creature: any silhouette, up to four wounds (an unstabilized
/// bleeding one with its Bleeding, C15), now and then another affliction, severed parts,
/// up to three items (one per slot) and three wearables, and every other field over its
/// range.
pub fn combatant(d: &mut Draw, drawn: Wounds) -> dc::Combatant {
    let silhouette = d.pick(&dc::Silhouette::ALL);
    let parts = dc::silhouette_parts(silhouette);
    let mut wounds: Vec<dc::Wound> = Vec::new();
    let mut afflictions = Vec::new();
    let mut next = 1;
    for _ in 0..d.int(0, 4) {
        let kind = d.pick(&dc::InjuryKind::ALL);
        let part = d.pick(parts);
        // C12: the rules keep one Bruise per part.
        if drawn == Wounds::Reachable
            && kind == dc::InjuryKind::Bruise
            && wounds.iter().any(|w| w.kind == kind && w.part == part)
        {
            continue;
        }
        let w = wound(d, next, kind, part, drawn);
        if dc::injury_profiles(kind).bleeds && !w.stabilized {
            afflictions.push(dc::Affliction {
                kind: dc::AfflictionKind::Bleeding,
                wound_id: w.id,
                harm: 1,
                turns_left: 0,
            });
        }
        wounds.push(w);
        next += d.int(1, 2);
    }
    if d.chance(30) {
        afflictions.push(dc::Affliction {
            kind: d.pick(&dc::AfflictionKind::ALL),
            wound_id: 0,
            harm: d.int(0, 3),
            turns_left: d.int(0, 4),
        });
    }
    let mut severed = [false; 11];
    for p in parts {
        if d.chance(10) {
            severed[*p as usize] = true;
        }
    }
    let mut equipped: Vec<dc::Item> = Vec::new();
    for _ in 0..d.int(0, 3) {
        let it = item(d);
        equipped.retain(|i| i.slot != it.slot);
        equipped.push(it);
    }
    let base_max_health = d.int(5, 40);
    dc::Combatant {
        is_player: d.chance(50),
        silhouette,
        undead: d.chance(15),
        base_max_health,
        health: d.int(1, base_max_health),
        base_max_stamina: d.int(4, 12),
        stamina: d.int(0, 12),
        mana: d.int(0, 5),
        charisma: d.int(1, 8),
        stats: [d.int(0, 90), d.int(0, 90), d.int(0, 40), d.int(-2, 6)],
        defense: d.int(0, 5),
        elemental_strength: small_map(d, 25, 5),
        elemental_defense: small_map(d, 25, 5),
        equipped,
        worn: (0..d.int(0, 3)).map(|_| wearable(d)).collect(),
        severed,
        stunned: d.chance(10),
        knocked_down: d.chance(10),
        alerted: d.chance(30),
        hasted: d.chance(15),
        guarding: d.chance(25),
        guard: d.pick(&dc::Guard::ALL),
        action_points: d.int(0, 3),
        action_points_per_turn: d.int(1, 4),
        open_to_counter: d.chance(10),
        taunted: d.chance(10),
        stance: d.pick(&dc::Stance::ALL),
        wounds,
        afflictions,
        next_wound_id: next,
        supplies: small_map(d, 60, 2),
    }
}

/// Up to four board slots, numbered from 1, empty-handed, some occupied.
pub fn board(d: &mut Draw) -> dc::Board {
    dc::Board {
        slots: (1..=d.int(0, 4))
            .map(|position| dc::BoardSlot {
                position,
                occupied: d.chance(40),
                item: dc::Item::default(),
            })
            .collect(),
    }
}

// ---------------------------------------------------------------------------------------
// A character's days between world turns

/// A character to take through world turns: a humanoid player (its wounds drawn as
/// `combatant` draws them) with more remedies than `combatant` gives.
pub fn patient(d: &mut Draw, drawn: Wounds) -> dc::Combatant {
    let mut c = combatant(d, drawn);
    c.is_player = true;
    c.silhouette = dc::Silhouette::Humanoid;
    c.supplies = small_map(d, 70, 3);
    c
}

/// One step of a character's days.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    WorldTurn,
    Remedy(dc::Remedy),
    ScarRemedy(dc::Remedy),
    Replacement(dc::BodyPart),
    /// `injury_roll`'s arguments: the part, the damage, critical, the blow.
    Injury(dc::BodyPart, i64, bool, dc::Blow),
}

/// `world_turns` world turns, each followed now and then by a remedy, a remedy aimed at a
/// scar, a replacement limb and a fresh wound (on one of `parts`).
pub fn days(d: &mut Draw, parts: &[dc::BodyPart], world_turns: usize) -> Vec<Step> {
    let mut steps = Vec::new();
    for _ in 0..world_turns {
        steps.push(Step::WorldTurn);
        if d.chance(20) {
            steps.push(Step::Remedy(d.pick(&dc::Remedy::ALL)));
        }
        if d.chance(3) {
            steps.push(Step::ScarRemedy(d.pick(&dc::Remedy::ALL)));
        }
        if d.chance(2) {
            steps.push(Step::Replacement(d.pick(parts)));
        }
        if d.chance(10) {
            steps.push(Step::Injury(
                d.pick(parts),
                d.int(1, 12),
                d.chance(20),
                d.pick(&dc::Blow::ALL),
            ));
        }
    }
    steps
}
