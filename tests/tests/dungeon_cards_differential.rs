//! Dungeon Cards: the generated Rust and the interpreter are two implementations of one
//! semantics. On the same seeds they must roll the same dice, ask the same decisions,
//! emit the same trace events, return the same outcome and leave every card, wound list
//! and board in the same state: 10,000 seeded resolutions of each attack procedure, and
//! 10,000 characters each taken through 100 world turns of bleeding, infection, healing
//! and scarring (with remedies, replacements and fresh wounds between them).

mod common;
#[path = "common/dungeon_cards_draw.rs"]
mod dungeon_cards_draw;
mod dungeon_cards_support;

use common::Draw;
use dungeon_cards_draw::{board, combatant, days, item, patient, Step, Wounds};
use dungeon_cards_support::{
    affliction_value, board_value, combatant_value, item_value, program, shown_record, stats,
};
use rulesc::eval::Value;
use rulesc_runtime::TraceEvent;
use rulesc_tests::differential::{
    call, compare, env, fight_differential, fight_env, fight_file, finish, join_file, tag, untraced,
};
use rulesc_tests::dungeon_cards as dc;
use rulesc_tests::support::Shown;
use std::collections::BTreeMap;

const SEEDS: u64 = 10_000;
const WORLD_TURNS: usize = 100;

/// The draws of `seed`, apart from its dice (`env(seed)`'s).
fn draw(seed: u64) -> Draw {
    Draw::new(seed ^ 0x5eed_ca2d)
}

#[test]
fn site_tables_are_identical() {
    let p = program();
    assert_eq!(dc::SITES, p.sites.as_slice());
}

#[test]
fn the_value_conversions_print_as_the_generated_records() {
    // The differential compares printed records: the conversions must miss no field.
    for seed in 0..500 {
        let mut d = draw(seed);
        let c = combatant(&mut d, Wounds::Any);
        assert_eq!(
            shown_record("Combatant", &combatant_value(&c)),
            c.to_string()
        );
        let b = board(&mut d);
        assert_eq!(shown_record("Board", &board_value(&b)), b.to_string());
        let i = item(&mut d);
        assert_eq!(shown_record("Item", &item_value(&i)), i.to_string());
        for a in &c.afflictions {
            assert_eq!(
                shown_record("Affliction", &affliction_value(a)),
                a.to_string()
            );
        }
    }
}

fn attack_matches(name: &str, ranged: bool) {
    let p = program();
    let mut outcomes = BTreeMap::<String, u32>::new();
    let mut effects = BTreeMap::<&str, u32>::new();
    for seed in 0..SEEDS {
        let mut d = draw(seed);
        let (mut attacker, mut defender, mut board) = (
            combatant(&mut d, Wounds::Any),
            combatant(&mut d, Wounds::Any),
            board(&mut d),
        );
        // Half the defenders are players (persistent wounds), most attacks can be paid.
        if d.chance(70) {
            attacker.stamina = 12;
        }
        // Most archers carry a bow; a few targets have nothing left to strike.
        if ranged && d.chance(70) {
            let bow = if d.chance(50) {
                dc::Item::shortbow()
            } else {
                dc::Item::frost_crossbow()
            };
            attacker
                .equipped
                .retain(|i| i.slot != dc::EquipSlot::RangedSlot);
            attacker.equipped.push(bow);
        }
        if d.chance(2) {
            defender.severed = [true; 11];
        }
        // An armed humanoid beside an empty board, to be disarmed now and then.
        if d.chance(30) {
            defender.silhouette = dc::Silhouette::Humanoid;
            defender.equipped = vec![dc::Item::sword(), dc::Item::buckler()];
            board.slots.iter_mut().for_each(|s| s.occupied = false);
            board.slots.push(dc::BoardSlot {
                position: 9,
                occupied: false,
                item: dc::Item::default(),
            });
        }
        let args = vec![
            combatant_value(&attacker),
            combatant_value(&defender),
            board_value(&board),
        ];
        let mut e = env(seed);
        let outcome = call(&p, &mut e, name, args.clone());
        let state = vec![
            shown_record("Combatant", &args[0]),
            shown_record("Combatant", &args[1]),
            shown_record("Board", &args[2]),
        ];
        let interp = finish(e, vec![outcome], state);

        let (a0, d0, b0) = (attacker.clone(), defender.clone(), board.clone());
        let mut e = env(seed);
        let r = if ranged {
            dc::ranged_attack(&mut e, &mut attacker, &mut defender, &mut board)
        } else {
            dc::melee_attack(&mut e, &mut attacker, &mut defender, &mut board)
        };
        let state = vec![
            attacker.to_string(),
            defender.to_string(),
            board.to_string(),
        ];
        let gen = finish(e, vec![r.shown()], state);

        let plain = untraced(seed, |e| {
            let (mut a, mut d, mut b) = (a0, d0, b0);
            if ranged {
                dc::ranged_attack(e, &mut a, &mut d, &mut b)
            } else {
                dc::melee_attack(e, &mut a, &mut d, &mut b)
            }
        });
        assert_eq!(
            (gen.outcome[0].clone(), gen.next_face),
            plain,
            "{name}, seed {seed}: the NoTrace run differs from the traced one"
        );
        *outcomes.entry(tag(&r.shown())).or_default() += 1;
        if let Ok(dc::AttackResult::Hit {
            critical,
            stunned,
            severed,
            disarmed,
            wounded,
            ..
        }) = r
        {
            for (flag, on) in [
                ("critical", critical),
                ("stunned", stunned),
                ("severed", severed),
                ("disarmed", disarmed),
                ("wounded", wounded),
            ] {
                if on {
                    *effects.entry(flag).or_default() += 1;
                }
            }
        }
        compare(&p, name, seed, &interp, &gen);
    }
    // The seeds reach every outcome and every effect, so every branch was compared.
    let mut tags = vec![
        "TooTired",
        "NoTarget",
        "Miss",
        "Killed",
        "Hit",
        "CannotWield",
    ];
    if ranged {
        tags.push("NoRangedWeapon");
    }
    for t in tags {
        assert!(
            outcomes.get(t).copied().unwrap_or(0) >= 5,
            "{t}: {outcomes:?}"
        );
    }
    for flag in ["critical", "stunned", "severed", "disarmed", "wounded"] {
        assert!(
            effects.get(flag).copied().unwrap_or(0) >= 3,
            "{flag}: {effects:?}"
        );
    }
}

#[test]
fn melee_attack_matches_the_interpreter() {
    attack_matches("melee_attack", false);
}

#[test]
fn ranged_attack_matches_the_interpreter() {
    attack_matches("ranged_attack", true);
}

#[test]
fn healing_over_100_world_turns_matches_the_interpreter() {
    let p = program();
    let mut seen = BTreeMap::<&str, u32>::new();
    for seed in 0..SEEDS {
        let mut d = draw(seed);
        let mut c = patient(&mut d, Wounds::Any);
        let steps = days(&mut d, dc::silhouette_parts(c.silhouette), WORLD_TURNS);

        let cv = combatant_value(&c);
        let mut e = env(seed);
        let mut outs = Vec::new();
        for s in &steps {
            let ch = |i: usize| Value::Choice(i as u16);
            outs.push(match *s {
                Step::WorldTurn => call(&p, &mut e, "world_turn", vec![cv.clone()]),
                Step::Remedy(r) => {
                    call(&p, &mut e, "apply_remedy", vec![cv.clone(), ch(r as usize)])
                }
                Step::ScarRemedy(r) => call(
                    &p,
                    &mut e,
                    "apply_remedy_to_scar",
                    vec![cv.clone(), ch(r as usize)],
                ),
                Step::Replacement(part) => call(
                    &p,
                    &mut e,
                    "fit_replacement",
                    vec![cv.clone(), ch(part as usize)],
                ),
                Step::Injury(part, damage, critical, blow) => call(
                    &p,
                    &mut e,
                    "injury_roll",
                    vec![
                        cv.clone(),
                        ch(part as usize),
                        Value::Int(damage),
                        Value::Bool(critical),
                        ch(blow as usize),
                    ],
                ),
            });
        }
        let interp = finish(e, outs, vec![shown_record("Combatant", &cv)]);

        let mut e = env(seed);
        let mut outs = Vec::new();
        for s in &steps {
            outs.push(match *s {
                Step::WorldTurn => dc::world_turn(&mut e, &mut c).shown(),
                Step::Remedy(r) => dc::apply_remedy(&mut e, &mut c, r).shown(),
                Step::ScarRemedy(r) => dc::apply_remedy_to_scar(&mut e, &mut c, r).shown(),
                Step::Replacement(part) => dc::fit_replacement(&mut e, &mut c, part).shown(),
                Step::Injury(part, damage, critical, blow) => {
                    dc::injury_roll(&mut e, &mut c, part, damage, critical, blow).shown()
                }
            });
        }
        let gen = finish(e, outs, vec![c.to_string()]);
        for out in &gen.outcome {
            for t in ["Treated", "ScarRemoved", "NothingToTreat", "Fitted", "true"] {
                if out.starts_with(t) {
                    *seen.entry(t).or_default() += 1;
                }
            }
        }
        for ev in &gen.events {
            if let TraceEvent::Assign { site, value } = ev {
                let text = &dc::SITES[*site as usize].text;
                if text.starts_with("c.wounds[i].kind = Scar") {
                    *seen.entry("scarred").or_default() += 1;
                }
                if text.starts_with("c.wounds[i].infected = true") && value == "true" {
                    *seen.entry("infected").or_default() += 1;
                }
                if text.starts_with("c.wounds[i].closed = true") {
                    *seen.entry("healed").or_default() += 1;
                }
            }
        }
        compare(&p, "100 world turns", seed, &interp, &gen);
    }
    for what in [
        "Treated",
        "ScarRemoved",
        "NothingToTreat",
        "Fitted",
        "true",
        "scarred",
        "infected",
        "healed",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) >= 10,
            "{what}: {seen:?}"
        );
    }
}

#[test]
fn techniques_spells_and_turns_match_the_interpreter() {
    let p = program();
    for seed in 0..SEEDS / 10 {
        let mut d = draw(seed);
        let (mut user, mut target) = (
            combatant(&mut d, Wounds::Any),
            combatant(&mut d, Wounds::Any),
        );
        let technique = d.pick(&dc::Technique::ALL);
        let guard = d.pick(&dc::Guard::ALL);
        let element = d.pick(&dc::Element::ALL);
        let power = d.int(0, 12);
        let item = item(&mut d);
        let stance = d.pick(&dc::Stance::ALL);
        let ch = |i: usize| Value::Choice(i as u16);

        let (uv, tv) = (combatant_value(&user), combatant_value(&target));
        let mut e = env(seed);
        let outs = vec![
            call(
                &p,
                &mut e,
                "use_technique",
                vec![uv.clone(), tv.clone(), ch(technique as usize)],
            ),
            call(
                &p,
                &mut e,
                "raise_guard",
                vec![uv.clone(), ch(guard as usize)],
            ),
            call(
                &p,
                &mut e,
                "enemy_spell",
                vec![
                    uv.clone(),
                    tv.clone(),
                    ch(element as usize),
                    Value::Int(power),
                ],
            ),
            call(&p, &mut e, "equip", vec![uv.clone(), item_value(&item)]),
            call(
                &p,
                &mut e,
                "take_stance",
                vec![uv.clone(), ch(stance as usize)],
            ),
            call(&p, &mut e, "knock_down", vec![tv.clone()]),
            call(&p, &mut e, "start_turn", vec![tv.clone()]),
            call(&p, &mut e, "start_turn", vec![uv.clone()]),
        ];
        let state = vec![
            shown_record("Combatant", &uv),
            shown_record("Combatant", &tv),
        ];
        let interp = finish(e, outs, state);

        let mut e = env(seed);
        let outs = vec![
            dc::use_technique(&mut e, &mut user, &mut target, technique).to_string(),
            dc::raise_guard(&mut e, &mut user, guard).to_string(),
            dc::enemy_spell(&mut e, &user, &mut target, element, power).to_string(),
            dc::equip(&mut e, &mut user, &item).shown(),
            dc::take_stance(&mut e, &mut user, stance).to_string(),
            dc::knock_down(&mut e, &mut target).to_string(),
            dc::start_turn(&mut e, &mut target).to_string(),
            dc::start_turn(&mut e, &mut user).to_string(),
        ];
        let gen = finish(e, outs, vec![user.to_string(), target.to_string()]);
        compare(&p, "techniques, spells and turns", seed, &interp, &gen);
    }
}

// ---------------------------------------------------------------------------------------
// Whole fights

const FIGHT: &str = "examples/dungeon-cards/fight.yaml";

/// The cards of `examples/dungeon-cards/fight.yaml`, in its order, as the generated code's
/// records (`fight_differential` checks they are the file's).
fn example_combatants() -> Vec<dc::Combatant> {
    use dc::Stat::{Dodge, Melee, Strength};
    let player = |melee, dodge, strength, equipped, worn, bandages| {
        let mut supplies = [0; 7];
        supplies[dc::Remedy::Bandage as usize] = bandages;
        dc::Combatant {
            is_player: true,
            base_max_stamina: 24,
            stamina: 24,
            stats: stats(&[(Melee, melee), (Dodge, dodge), (Strength, strength)]),
            equipped,
            worn,
            supplies,
            ..Default::default()
        }
    };
    let wolf = |health, melee, dodge| dc::Combatant {
        silhouette: dc::Silhouette::Wolf,
        base_max_health: health,
        health,
        stats: stats(&[(Melee, melee), (Dodge, dodge)]),
        equipped: vec![dc::Item::wolf_bite()],
        ..Default::default()
    };
    vec![
        player(
            65,
            15,
            2,
            vec![dc::Item::sword(), dc::Item::buckler()],
            vec![dc::Wearable::chain_shirt(), dc::Wearable::leather_cap()],
            2,
        ),
        player(
            60,
            10,
            3,
            vec![dc::Item::mace()],
            vec![dc::Wearable::greaves()],
            1,
        ),
        wolf(16, 60, 20),
        wolf(14, 55, 25),
    ]
}

#[test]
fn whole_fights_match_the_interpreter() {
    let p = program();
    let file = fight_file(&p, FIGHT);
    let combatants = example_combatants();
    let ends = fight_differential(
        &p,
        "dungeon-cards fight",
        &file,
        &combatants,
        combatant_value,
        || dc::Rules,
        1_000,
    );
    assert_eq!(
        ends.keys().filter(|k| k.starts_with("Won")).count(),
        2,
        "both sides win some: {ends:?}"
    );
    // The fights compared took every path: characters wounded (C11..C13) bind wounds
    // with bandages (C15) and trip wolves (C8); a round is one world turn (fight.rules).
    let (mut wounded, mut bound, mut knocked_down) = (0, 0, 0);
    for seed in 0..1_000 {
        let mut env = fight_env(seed);
        let mut fight = join_file(&file, &combatants);
        fight.run(&mut dc::Rules, &mut env, file.rounds);
        let round = i64::from(fight.round());
        assert!(
            [round - 1, round].contains(&fight.time()),
            "seed {seed}: a world turn passes at each round's end"
        );
        let players = &fight.combatants[..2];
        wounded += players.iter().filter(|c| !c.wounds.is_empty()).count();
        bound += players
            .iter()
            .filter(|c| c.wounds.iter().any(|w| w.stabilized))
            .count();
        knocked_down += fight.combatants[2..]
            .iter()
            .filter(|c| c.knocked_down)
            .count();
    }
    assert!(
        wounded > 100 && bound > 20 && knocked_down > 20,
        "{wounded} {bound} {knocked_down}"
    );
}
