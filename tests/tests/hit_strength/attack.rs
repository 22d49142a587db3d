//! H1..H3: the attack roll, damage by weapon and hit strength, and 0 HP.

use super::*;

// ---------------------------------------------------------------------------------------
// H1 Attack Roll >= Defense hits with Hit Strength 1; +1 per full 6 points above, max 3.

#[test]
fn h1_attack_roll_equal_to_defense_hits_with_hit_strength_1() {
    let mut d = defender();
    let run = attack(&attacker(), &mut d, &sword(), &[8]);
    assert_eq!(
        run.result,
        hit(LightHit, 3, 17),
        "8 + 4 = 12 against Defense 12\n{}",
        run.text()
    );
    assert_eq!(d.hit_points, 17);
}

#[test]
fn h1_attack_roll_below_defense_misses() {
    let mut d = defender();
    let before = d.clone();
    let run = attack(&attacker(), &mut d, &sword(), &[7]);
    assert_eq!(run.result, Miss, "7 + 4 = 11 against Defense 12");
    assert_eq!(d, before, "a miss changes nothing");
}

#[test]
fn h1_every_full_six_points_above_defense_adds_one_hit_strength() {
    let table = [
        (0, LightHit),
        (5, LightHit),
        (6, MediumHit),
        (11, MediumHit),
        (12, CriticalHit),
    ];
    for (margin, strength) in table {
        let mut d = defender();
        let run = attack(&attacker(), &mut d, &sword(), &[face_for_margin(margin)]);
        let Hit { hit_strength, .. } = run.result else {
            panic!("margin {margin}: {}", run.result)
        };
        assert_eq!(hit_strength, strength, "margin {margin}");
    }
}

#[test]
fn h1_hit_strength_is_at_most_3() {
    // 20 + 20 = 40 against Defense 4: 36 points above, six full 6s, still Hit Strength 3.
    let strong = hs::Combatant {
        attack_bonus: 20,
        ..attacker()
    };
    let mut d = hs::Combatant {
        defense: 4,
        ..defender()
    };
    let run = attack(&strong, &mut d, &sword(), &[20]);
    assert_eq!(run.result, hit(CriticalHit, 9, 11), "{}", run.text());
}

#[test]
fn h1_attack_roll_is_1d20_plus_attack_bonus() {
    // assumption (NOTES.md 1): the seed gives no Attack Roll formula; 1d20 + attack bonus.
    let mut d = defender();
    let run = attack(&attacker(), &mut d, &sword(), &[13]);
    assert_eq!(run.rolls(), [("d20".to_string(), vec![13], 13)]);
    assert_eq!(run.result, hit(LightHit, 3, 17), "13 + 4 = 17: 5 above 12");
    let unskilled = hs::Combatant {
        attack_bonus: 0,
        ..attacker()
    };
    let mut d = defender();
    assert_eq!(
        attack(&unskilled, &mut d, &sword(), &[13]).result,
        hit(LightHit, 3, 17)
    );
    let mut d = defender();
    assert_eq!(attack(&unskilled, &mut d, &sword(), &[11]).result, Miss);
}

// ---------------------------------------------------------------------------------------
// H2 Damage by weapon and Hit Strength (standard sword 3/6/9).

#[test]
fn h2_standard_sword_deals_3_6_9() {
    for (margin, strength, damage) in [(0, LightHit, 3), (6, MediumHit, 6), (12, CriticalHit, 9)] {
        let mut d = defender();
        let run = attack(&attacker(), &mut d, &sword(), &[face_for_margin(margin)]);
        assert_eq!(
            run.result,
            hit(strength, damage, 20 - damage),
            "{}",
            run.text()
        );
        assert_eq!(d.hit_points, 20 - damage);
    }
    assert_eq!(sword().damage, [3, 6, 9]);
}

#[test]
fn h2_damage_comes_from_the_weapon_record() {
    // Another weapon's record gives other damage at the same Hit Strengths.
    let axe = hs::Weapon { damage: [4, 7, 12] };
    for (margin, damage) in [(0, 4), (6, 7), (12, 12)] {
        let mut d = defender();
        let run = attack(&attacker(), &mut d, &axe, &[face_for_margin(margin)]);
        let Hit { damage: dealt, .. } = run.result else {
            panic!("{}", run.result)
        };
        assert_eq!(dealt, damage);
        assert_eq!(d.hit_points, 20 - damage);
    }
}

#[test]
fn h2_hit_points_stop_at_zero() {
    // assumption (NOTES.md 3): hit points never go below 0; the damage beyond is lost.
    let mut d = hs::Combatant {
        hit_points: 4,
        ..defender()
    };
    let run = attack(&attacker(), &mut d, &sword(), &[face_for_margin(12)]);
    assert_eq!(run.result, hit(CriticalHit, 9, 0));
    assert_eq!(d.hit_points, 0);
}

#[test]
fn h2_sword_example_replays_in_the_interpreter() {
    // examples/hit-strength/sword_medium_hit.yaml, with its own dice, in the interpreter.
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/hit-strength/sword_medium_hit.yaml");
    let trace = rulesc::scenario::run_file(&program(), &scenario, 0)
        .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    assert!(!trace.contains("note:"), "{trace}");
    assert!(
        trace.ends_with(
            "result: Hit(hit_strength: Hit Strength 2 (Medium Hit), damage: 6, hit_points: 0)\n"
        ),
        "{trace}"
    );
    assert!(
        trace.contains("defender.exhausted = true  ->  true"),
        "{trace}"
    );
    // The same story in the generated code: 15 + 4 = 19 against 12, 5 hit points.
    let mut d = hs::Combatant {
        hit_points: 5,
        max_hit_points: 12,
        ..defender()
    };
    let run = attack(&attacker(), &mut d, &sword(), &[15]);
    assert_eq!(run.result, hit(MediumHit, 6, 0));
    assert!((d.exhausted, d.healing_blocked) == (true, 3600));
}

// ---------------------------------------------------------------------------------------
// H3 At 0 HP: vulnerable, exhausted, no healing for an hour; later hits cause no effect /
// Severe Injury / Fatal Injury by Hit Strength 1/2/3.

#[test]
fn h3_dropping_to_zero_exhausts_and_stops_healing_for_an_hour() {
    let mut d = hs::Combatant {
        hit_points: 3,
        ..defender()
    };
    assert!(!hs::vulnerable(&d) && !d.exhausted);
    let run = attack(&attacker(), &mut d, &sword(), &[8]);
    assert_eq!(run.result, hit(LightHit, 3, 0));
    assert!(hs::vulnerable(&d), "vulnerable to injuries");
    assert!(d.exhausted, "also exhausted");
    assert_eq!(d.healing_blocked, 3600, "one hour, in seconds");
    assert!(
        d.injuries.is_empty(),
        "the hit that drops to 0 injures no one"
    );
    assert_eq!(worst_condition(&d), hs::Condition::Exhausted);
}

#[test]
fn h3_a_hit_above_zero_neither_exhausts_nor_blocks_healing() {
    let mut d = hs::Combatant {
        hit_points: 4,
        ..defender()
    };
    attack(&attacker(), &mut d, &sword(), &[8]);
    assert_eq!(d.hit_points, 1);
    assert!(!d.exhausted && d.healing_blocked == 0 && !hs::vulnerable(&d));
}

#[test]
fn h3_cannot_heal_in_any_way_for_one_hour() {
    let mut d = hs::Combatant {
        hit_points: 2,
        ..defender()
    };
    attack(&attacker(), &mut d, &sword(), &[8]);
    assert_eq!(heal(&mut d, 5), hs::HealResult::CannotHeal);
    assert_eq!(d.hit_points, 0);
    time_passes(&mut d, 3599);
    assert_eq!(
        heal(&mut d, 5),
        hs::HealResult::CannotHeal,
        "one second short"
    );
    assert_eq!(d.hit_points, 0);
    time_passes(&mut d, 1);
    assert_eq!(heal(&mut d, 5), hs::HealResult::Healed { hit_points: 5 });
    assert!(!hs::vulnerable(&d));
    // assumption (NOTES.md 4): healing stops at the maximum.
    assert_eq!(heal(&mut d, 50), hs::HealResult::Healed { hit_points: 20 });
}

#[test]
fn h3_at_zero_a_light_hit_has_no_effect() {
    let mut d = vulnerable_defender();
    let before = d.clone();
    // Hit Strength 1: no damage, no injury, no 1d4.
    let run = attack(&attacker(), &mut d, &sword(), &[face_for_margin(5)]);
    assert_eq!(run.result, NoEffect, "{}", run.text());
    assert_eq!(d, before);
    assert_eq!(run.rolls().len(), 1, "only the Attack Roll");
}

#[test]
fn h3_at_zero_a_medium_hit_is_a_severe_injury_instead_of_damage() {
    let mut d = vulnerable_defender();
    let run = attack(&attacker(), &mut d, &sword(), &[face_for_margin(6), 2]);
    assert_eq!(
        run.result,
        injured_result(MediumHit, SevereInjury, Leg),
        "{}",
        run.text()
    );
    assert_eq!(d.hit_points, 0, "no damage");
    assert_eq!(d.injuries, [injury(Leg, SevereInjury)]);
}

#[test]
fn h3_at_zero_a_critical_hit_is_a_fatal_injury() {
    let mut d = vulnerable_defender();
    let run = attack(&attacker(), &mut d, &sword(), &[face_for_margin(12), 3]);
    assert_eq!(
        run.result,
        injured_result(CriticalHit, FatalInjury, Internal)
    );
    assert_eq!(d.injuries.len(), 1);
    assert_eq!(d.injuries[0].severity, FatalInjury);
    assert_eq!(d.injuries[0].location, Internal);
}

#[test]
fn h3_a_miss_at_zero_does_nothing() {
    let mut d = vulnerable_defender();
    let before = d.clone();
    assert_eq!(attack(&attacker(), &mut d, &sword(), &[1]).result, Miss);
    assert_eq!(d, before);
}
