//! Hit Strength (seed `001_6dc157ab019eb86c.txt`), rules H1..H7, driven through the
//! compiled ruleset (`rulesc_tests::hit_strength`) with scripted dice and decisions.
//! Every resolution also runs in the interpreter (`both`), which must agree on the
//! result, on every trace event and on the state it leaves; the scenarios under
//! `examples/hit-strength/` are replayed through the interpreter on their own as well.

use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_tests::hit_strength as hs;
use rulesc_tests::support::{self, Answer, Run, ScriptEnv, Shown};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use hs::AttackResult::{Hit, Injured, Miss, NoEffect};
use hs::HitStrength::{CriticalHit, LightHit, MediumHit};
use hs::InjuryLocation::{Arm, Head, Internal, Leg};
use hs::InjurySeverity::{FatalInjury, SevereInjury};

// ---------------------------------------------------------------------------------------
// The ruleset in both backends

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/hit-strength")
}

thread_local! {
    static PROGRAM: Rc<Program> = {
        let (p, diags, _) = rulesc::compile_dir(&rules_dir());
        Rc::new(p.unwrap_or_else(|| panic!("hit-strength does not check: {:?}", diags.items)))
    };
}

fn program() -> Rc<Program> {
    PROGRAM.with(Rc::clone)
}

fn choice<T: Into<u16>>(i: T) -> Value {
    Value::Choice(i.into())
}

fn list(items: impl IntoIterator<Item = Value>) -> Value {
    Value::List(Rc::new(items.into_iter().collect()))
}

fn rec(ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(&program(), ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn weapon_value(w: &hs::Weapon) -> Value {
    let damage = Value::Map(Rc::new(w.damage.iter().map(|d| Value::Int(*d)).collect()));
    rec("Weapon", &[("damage", damage)])
}

fn injury_value(i: &hs::Injury) -> Value {
    rec(
        "Injury",
        &[
            ("location", choice(i.location as u16)),
            ("severity", choice(i.severity as u16)),
            ("bleeding_out", Value::Int(i.bleeding_out)),
        ],
    )
}

fn combatant_value(c: &hs::Combatant) -> Value {
    rec(
        "Combatant",
        &[
            ("hit_points", Value::Int(c.hit_points)),
            ("max_hit_points", Value::Int(c.max_hit_points)),
            ("defense", Value::Int(c.defense)),
            ("attack_bonus", Value::Int(c.attack_bonus)),
            ("endurance", Value::Int(c.endurance)),
            ("heal", Value::Int(c.heal)),
            ("speed", Value::Int(c.speed)),
            ("exhausted", Value::Bool(c.exhausted)),
            ("healing_blocked", Value::Int(c.healing_blocked)),
            ("injuries", list(c.injuries.iter().map(injury_value))),
            ("knocked_out", Value::Bool(c.knocked_out)),
            ("eye_at_risk", Value::Int(c.eye_at_risk)),
            ("eyes_lost", Value::Int(c.eyes_lost)),
            ("dead", Value::Bool(c.dead)),
        ],
    )
}

fn effects_value(e: &hs::Effects) -> Value {
    rec(
        "Effects",
        &[
            (
                "attribute_check_disadvantage",
                Value::Bool(e.attribute_check_disadvantage),
            ),
            (
                "attack_roll_disadvantage",
                Value::Bool(e.attack_roll_disadvantage),
            ),
            ("no_block", Value::Bool(e.no_block)),
            ("no_dodge", Value::Bool(e.no_dodge)),
            ("no_reactions", Value::Bool(e.no_reactions)),
            ("speed_halved", Value::Bool(e.speed_halved)),
            ("endurance_dc", Value::Int(e.endurance_dc)),
            ("incapacitated", Value::Bool(e.incapacitated)),
            ("unconscious", Value::Bool(e.unconscious)),
            ("dies_in_minutes", Value::Int(e.dies_in_minutes)),
            ("stop_bleeding_dc", Value::Int(e.stop_bleeding_dc)),
            ("eye_loss_percent", Value::Int(e.eye_loss_percent)),
            ("save_eye_dc", Value::Int(e.save_eye_dc)),
        ],
    )
}

// ---------------------------------------------------------------------------------------
// Both backends on one script (the harness is `rulesc_tests::support`)

/// Runs procedure `name` in the generated code (`gen`) and in the interpreter (`args`,
/// changed in place) with the same script; both must fit it and agree.
fn both<R: Shown>(
    name: &str,
    faces: &[u32],
    answers: &[Answer],
    args: &[Value],
    gen: impl FnOnce(&mut ScriptEnv) -> R,
) -> Run<R> {
    support::both(&program(), hs::SITES, name, faces, answers, args, gen)
}

fn same_state(name: &str, interpreted: &Value, generated: &hs::Combatant) {
    assert!(
        *interpreted == combatant_value(generated),
        "`{name}`: the backends leave the combatant in different states: {generated:?}"
    );
}

// ---------------------------------------------------------------------------------------
// The procedures, each through both backends

fn attack(
    attacker: &hs::Combatant,
    defender: &mut hs::Combatant,
    weapon: &hs::Weapon,
    faces: &[u32],
) -> Run<hs::AttackResult> {
    let args = [
        combatant_value(attacker),
        combatant_value(defender),
        weapon_value(weapon),
    ];
    let run = both("attack", faces, &[], &args, |e| {
        hs::attack(e, attacker, defender, weapon).expect("no rule error")
    });
    same_state("attack", &args[1], defender);
    run
}

fn injure(
    c: &mut hs::Combatant,
    hit_strength: hs::HitStrength,
    faces: &[u32],
) -> Run<hs::AttackResult> {
    let args = [combatant_value(c), choice(hit_strength as u16)];
    let run = both("injure", faces, &[], &args, |e| {
        hs::injure(e, c, hit_strength).expect("no rule error")
    });
    same_state("injure", &args[0], c);
    run
}

fn attribute_check(c: &hs::Combatant, bonus: i64, difficulty: i64, faces: &[u32]) -> Run<bool> {
    let args = [
        combatant_value(c),
        Value::Int(bonus),
        Value::Int(difficulty),
    ];
    both("attribute_check", faces, &[], &args, |e| {
        hs::attribute_check(e, c, bonus, difficulty)
    })
}

fn heal(c: &mut hs::Combatant, hit_points: i64) -> hs::HealResult {
    let args = [combatant_value(c), Value::Int(hit_points)];
    let run = both("heal", &[], &[], &args, |e| hs::heal(e, c, hit_points));
    same_state("heal", &args[0], c);
    run.result
}

fn time_passes(c: &mut hs::Combatant, seconds: i64) {
    let args = [combatant_value(c), Value::Int(seconds)];
    both("time_passes", &[], &[], &args, |e| {
        hs::time_passes(e, c, seconds).unwrap()
    });
    same_state("time_passes", &args[0], c);
}

fn stop_bleeding(
    healer: &hs::Combatant,
    patient: &mut hs::Combatant,
    faces: &[u32],
    answers: &[Answer],
) -> Run<hs::AidResult> {
    let args = [combatant_value(healer), combatant_value(patient)];
    let run = both("stop_bleeding", faces, answers, &args, |e| {
        hs::stop_bleeding(e, healer, patient).unwrap()
    });
    same_state("stop_bleeding", &args[1], patient);
    run
}

fn save_eye(healer: &hs::Combatant, patient: &mut hs::Combatant, faces: &[u32]) -> hs::EyeResult {
    let args = [combatant_value(healer), combatant_value(patient)];
    let run = both("save_eye", faces, &[], &args, |e| {
        hs::save_eye(e, healer, patient)
    });
    same_state("save_eye", &args[1], patient);
    run.result
}

// Formulas: the generated value, asserted equal to the interpreter's.

fn formula(name: &str, args: Vec<Value>) -> Value {
    support::formula(&program(), name, args)
}

fn penalties(c: &hs::Combatant) -> hs::Effects {
    let generated = hs::penalties(c);
    assert!(
        formula("penalties", vec![combatant_value(c)]) == effects_value(&generated),
        "`penalties`: the backends differ"
    );
    generated
}

fn worst_condition(c: &hs::Combatant) -> hs::Condition {
    let generated = hs::worst_condition(c);
    assert_eq!(
        formula("worst_condition", vec![combatant_value(c)]),
        choice(generated as u16),
        "`worst_condition`: the backends differ"
    );
    generated
}

fn may_use_reaction(c: &hs::Combatant, reaction: hs::Reaction) -> bool {
    let generated = hs::may_use_reaction(c, reaction);
    assert_eq!(
        formula(
            "may_use_reaction",
            vec![combatant_value(c), choice(reaction as u16)]
        ),
        Value::Bool(generated),
        "`may_use_reaction`: the backends differ"
    );
    generated
}

/// Every Reaction a character may still use.
fn reactions(c: &hs::Combatant) -> Vec<hs::Reaction> {
    hs::Reaction::ALL
        .into_iter()
        .filter(|r| may_use_reaction(c, *r))
        .collect()
}

fn current_speed(c: &hs::Combatant) -> i64 {
    let generated = hs::current_speed(c);
    assert_eq!(
        formula("current_speed", vec![combatant_value(c)]).int(),
        generated,
        "`current_speed`: the backends differ"
    );
    generated
}

fn incapacitated(c: &hs::Combatant) -> bool {
    let generated = hs::incapacitated(c);
    assert_eq!(
        formula("incapacitated", vec![combatant_value(c)]),
        Value::Bool(generated)
    );
    generated
}

fn unconscious(c: &hs::Combatant) -> bool {
    let generated = hs::unconscious(c);
    assert_eq!(
        formula("unconscious", vec![combatant_value(c)]),
        Value::Bool(generated)
    );
    generated
}

// ---------------------------------------------------------------------------------------
// Characters

/// An attacker with attack bonus +4.
fn attacker() -> hs::Combatant {
    hs::Combatant {
        hit_points: 12,
        max_hit_points: 12,
        defense: 12,
        attack_bonus: 4,
        ..Default::default()
    }
}

/// A defender with Defense 12 and 20 hit points.
fn defender() -> hs::Combatant {
    hs::Combatant {
        hit_points: 20,
        max_hit_points: 20,
        defense: 12,
        ..Default::default()
    }
}

/// A defender at 0 hit points, as the hit that took them there left them.
fn vulnerable_defender() -> hs::Combatant {
    hs::Combatant {
        hit_points: 0,
        exhausted: true,
        healing_blocked: 3600,
        ..defender()
    }
}

fn injury(location: hs::InjuryLocation, severity: hs::InjurySeverity) -> hs::Injury {
    hs::Injury {
        location,
        severity,
        bleeding_out: 0,
    }
}

fn injured(injuries: &[(hs::InjuryLocation, hs::InjurySeverity)]) -> hs::Combatant {
    hs::Combatant {
        injuries: injuries.iter().map(|(l, s)| injury(*l, *s)).collect(),
        ..vulnerable_defender()
    }
}

fn healer(heal: i64) -> hs::Combatant {
    hs::Combatant { heal, ..attacker() }
}

fn sword() -> hs::Weapon {
    hs::Weapon::standard_sword()
}

fn hit(hit_strength: hs::HitStrength, damage: i64, hit_points: i64) -> hs::AttackResult {
    Hit {
        hit_strength,
        damage,
        hit_points,
    }
}

fn injured_result(
    hit_strength: hs::HitStrength,
    severity: hs::InjurySeverity,
    location: hs::InjuryLocation,
) -> hs::AttackResult {
    Injured {
        hit_strength,
        severity,
        location,
    }
}

/// The d20 face that gives an Attack Roll `margin` points above Defense 12 (bonus +4).
fn face_for_margin(margin: i64) -> u32 {
    u32::try_from(12 + margin - 4).expect("a face")
}

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

// ---------------------------------------------------------------------------------------
// H4 Injury location 1d4: Arm, Leg, Internal, Head.

#[test]
fn h4_injury_location_is_rolled_on_1d4() {
    for (face, location) in [(1, Arm), (2, Leg), (3, Internal), (4, Head)] {
        let mut c = vulnerable_defender();
        // A Fatal Injury: a Head one also rolls the d100 (H7), here 100: no eye lost.
        let faces: &[u32] = if location == Head {
            &[face, 100]
        } else {
            &[face]
        };
        let run = injure(&mut c, CriticalHit, faces);
        assert_eq!(
            run.result,
            injured_result(CriticalHit, FatalInjury, location)
        );
        assert_eq!(
            run.rolls()[0],
            ("d4".to_string(), vec![face], i64::from(face))
        );
        assert_eq!(c.injuries[0].location, location);
    }
}

#[test]
fn h4_no_effect_rolls_no_location() {
    let mut c = vulnerable_defender();
    let run = injure(&mut c, LightHit, &[]);
    assert_eq!(run.result, NoEffect);
    assert!(run.rolls().is_empty() && c.injuries.is_empty());
}

// ---------------------------------------------------------------------------------------
// H5 A second Severe injury to the same place becomes Fatal.

#[test]
fn h5_a_second_severe_injury_to_the_same_place_is_fatal() {
    for (face, place) in [(1, Arm), (2, Leg), (3, Internal)] {
        let mut c = injured(&[(place, SevereInjury)]);
        let run = injure(&mut c, MediumHit, &[face]);
        assert_eq!(
            run.result,
            injured_result(MediumHit, FatalInjury, place),
            "{}",
            run.text()
        );
        assert_eq!(c.injuries[1].severity, FatalInjury);
        assert!(incapacitated(&c));
    }
}

#[test]
fn h5_a_second_severe_head_injury_is_fatal_with_its_d100() {
    let mut c = injured(&[(Head, SevereInjury)]);
    // The Fatal Head Injury rolls the 25% eye chance (d100 50: kept), not the Endurance check.
    let run = injure(&mut c, MediumHit, &[4, 50]);
    assert_eq!(run.result, injured_result(MediumHit, FatalInjury, Head));
    assert_eq!(run.rolls().len(), 2);
    assert!(unconscious(&c) && incapacitated(&c));
}

#[test]
fn h5_through_the_attack_procedure() {
    // examples/hit-strength/second_severe_arm.yaml: 13 + 4 = 17 against Defense 11.
    let mut d = hs::Combatant {
        defense: 11,
        ..injured(&[(Arm, SevereInjury)])
    };
    let run = attack(&attacker(), &mut d, &sword(), &[13, 1]);
    assert_eq!(run.result, injured_result(MediumHit, FatalInjury, Arm));
    assert_eq!(d.injuries[1].bleeding_out, 600, "dies in 10 minutes");
}

#[test]
fn h5_a_severe_injury_to_another_place_stays_severe() {
    let mut c = injured(&[(Arm, SevereInjury)]);
    let run = injure(&mut c, MediumHit, &[2]);
    assert_eq!(run.result, injured_result(MediumHit, SevereInjury, Leg));
    assert_eq!(c.injuries.len(), 2);
    assert!(!incapacitated(&c));
}

#[test]
fn h5_a_severe_injury_after_a_fatal_one_to_that_place_stays_severe() {
    // assumption (NOTES.md 8): only a previous Severe injury turns the next one Fatal.
    let mut c = injured(&[(Arm, FatalInjury)]);
    let run = injure(&mut c, MediumHit, &[1]);
    assert_eq!(run.result, injured_result(MediumHit, SevereInjury, Arm));
}

#[test]
fn h5_the_first_severe_injury_is_only_severe() {
    let mut c = vulnerable_defender();
    assert_eq!(
        injure(&mut c, MediumHit, &[1]).result,
        injured_result(MediumHit, SevereInjury, Arm)
    );
    // ... and the second to that place is Fatal.
    assert_eq!(
        injure(&mut c, MediumHit, &[1]).result,
        injured_result(MediumHit, FatalInjury, Arm)
    );
}

// ---------------------------------------------------------------------------------------
// H6 Injury penalties do not stack: the highest applies (Exhausted included).

#[test]
fn h6_exhausted_alone_is_the_penalty() {
    let c = hs::Combatant {
        exhausted: true,
        ..defender()
    };
    assert_eq!(worst_condition(&c), hs::Condition::Exhausted);
    assert!(penalties(&c).attribute_check_disadvantage);
    // Disadvantage: 2d20, the lower counts. 15 and 6 + 2 = 8 fails DL 10.
    let run = attribute_check(&c, 2, 10, &[15, 6]);
    assert!(!run.result, "{}", run.text());
    assert_eq!(run.rolls(), [("2d20kl1".to_string(), vec![15, 6], 6)]);
}

#[test]
fn h6_an_injury_replaces_exhausted() {
    // Exhausted and a Severe Arm Injury: only the arm's penalties apply. Attribute Checks
    // roll one d20 again; Attack Rolls are at Disadvantage.
    let c = hs::Combatant {
        attack_bonus: 4,
        ..injured(&[(Arm, SevereInjury)])
    };
    assert!(c.exhausted);
    assert_eq!(worst_condition(&c), hs::Condition::SevereArm);
    assert!(!penalties(&c).attribute_check_disadvantage);
    let run = attribute_check(&c, 2, 10, &[8]);
    assert!(run.result, "8 + 2 = 10, one die");
    assert_eq!(run.rolls(), [("d20".to_string(), vec![8], 8)]);
    let mut target = defender();
    let run = attack(&c, &mut target, &sword(), &[18, 7]);
    assert_eq!(
        run.result,
        Miss,
        "the lower of 18 and 7, + 4 = 11\n{}",
        run.text()
    );
}

#[test]
fn h6_of_two_severe_injuries_only_the_higher_applies() {
    // Severe Arm and Severe Leg: assumption (NOTES.md 7): places rank as the 1d4 table
    // orders them, so the leg's penalties apply and the arm's do not.
    let c = hs::Combatant {
        speed: 30,
        ..injured(&[(Arm, SevereInjury), (Leg, SevereInjury)])
    };
    assert_eq!(worst_condition(&c), hs::Condition::SevereLeg);
    let p = penalties(&c);
    assert!(p.speed_halved && p.no_dodge);
    assert!(
        !p.attack_roll_disadvantage && !p.no_block,
        "the arm's do not stack"
    );
    assert_eq!(current_speed(&c), 15);
    assert_eq!(
        reactions(&c),
        [hs::Reaction::Block, hs::Reaction::OtherReaction]
    );
    // The order the injuries came in does not matter.
    let c = injured(&[(Leg, SevereInjury), (Arm, SevereInjury)]);
    assert_eq!(worst_condition(&c), hs::Condition::SevereLeg);
}

#[test]
fn h6_a_fatal_injury_outranks_every_severe_one() {
    let c = injured(&[(Head, SevereInjury), (Arm, FatalInjury)]);
    assert_eq!(worst_condition(&c), hs::Condition::FatalArm);
    let p = penalties(&c);
    assert!(p.incapacitated && !p.no_reactions && p.endurance_dc == 0);
    let c = injured(&[(Arm, FatalInjury), (Internal, FatalInjury)]);
    assert_eq!(worst_condition(&c), hs::Condition::FatalInternal);
}

#[test]
fn h6_the_endurance_check_is_made_under_the_head_injury_not_exhausted() {
    // An exhausted character takes a Severe Head Injury: the check rolls one d20, since the
    // injury (already received) is the highest penalty.
    let mut c = hs::Combatant {
        endurance: 3,
        ..vulnerable_defender()
    };
    let run = injure(&mut c, MediumHit, &[4, 17]);
    assert_eq!(run.rolls()[1], ("d20".to_string(), vec![17], 17));
    assert!(!c.knocked_out, "17 + 3 = 20");
}

#[test]
fn h6_exhausted_gives_no_disadvantage_on_attack_rolls() {
    let tired = hs::Combatant {
        exhausted: true,
        ..attacker()
    };
    let mut d = defender();
    let run = attack(&tired, &mut d, &sword(), &[8]);
    assert_eq!(run.rolls(), [("d20".to_string(), vec![8], 8)]);
    assert_eq!(run.result, hit(LightHit, 3, 17));
}

// ---------------------------------------------------------------------------------------
// H7 Effects table per location and severity.

#[test]
fn h7_severe_arm_injury_disadvantage_on_attack_rolls_and_no_block() {
    let c = hs::Combatant {
        attack_bonus: 4,
        ..injured(&[(Arm, SevereInjury)])
    };
    let mut d = defender();
    let run = attack(&c, &mut d, &sword(), &[5, 14]);
    assert_eq!(run.rolls(), [("2d20kl1".to_string(), vec![5, 14], 5)]);
    assert_eq!(run.result, Miss, "5 + 4 = 9");
    let mut d = defender();
    let run = attack(&c, &mut d, &sword(), &[19, 9]);
    assert_eq!(run.result, hit(LightHit, 3, 17), "9 + 4 = 13");
    assert_eq!(
        reactions(&c),
        [hs::Reaction::Dodge, hs::Reaction::OtherReaction]
    );
    assert_eq!(current_speed(&hs::Combatant { speed: 30, ..c }), 30);
}

#[test]
fn h7_severe_leg_injury_halves_speed_and_no_dodge() {
    let c = hs::Combatant {
        speed: 25,
        ..injured(&[(Leg, SevereInjury)])
    };
    // assumption (NOTES.md 11): halved Speed rounds down.
    assert_eq!(current_speed(&c), 12);
    assert_eq!(
        reactions(&c),
        [hs::Reaction::Block, hs::Reaction::OtherReaction]
    );
    let mut d = defender();
    assert_eq!(
        attack(&c, &mut d, &sword(), &[8]).rolls().len(),
        1,
        "one d20"
    );
}

#[test]
fn h7_severe_internal_injury_no_reactions() {
    let c = injured(&[(Internal, SevereInjury)]);
    assert!(reactions(&c).is_empty());
    assert!(!incapacitated(&c) && !unconscious(&c));
}

#[test]
fn h7_severe_head_injury_endurance_dc_20_or_unconscious() {
    // 1d4 = 4, then the Endurance check: 1d20 + 2 against Difficulty Level 20.
    let mut c = hs::Combatant {
        endurance: 2,
        ..vulnerable_defender()
    };
    let run = injure(&mut c, MediumHit, &[4, 18]);
    assert_eq!(run.result, injured_result(MediumHit, SevereInjury, Head));
    assert!(!c.knocked_out && !unconscious(&c), "18 + 2 = 20 succeeds");
    assert!(reactions(&c).is_empty(), "Cannot use Reactions");

    let mut c = hs::Combatant {
        endurance: 2,
        ..vulnerable_defender()
    };
    injure(&mut c, MediumHit, &[4, 17]);
    assert!(
        c.knocked_out && unconscious(&c),
        "17 + 2 = 19 fails: unconscious"
    );
}

#[test]
fn h7_other_severe_injuries_roll_no_check() {
    for face in [1, 2, 3] {
        let mut c = vulnerable_defender();
        let run = injure(&mut c, MediumHit, &[face]);
        assert_eq!(run.rolls().len(), 1, "only the 1d4");
        assert_eq!(
            c.injuries[0].bleeding_out, 0,
            "Severe injuries do not bleed out"
        );
    }
}

#[test]
fn h7_every_fatal_injury_incapacitates() {
    for location in [Arm, Leg, Internal, Head] {
        let c = injured(&[(location, FatalInjury)]);
        assert!(incapacitated(&c), "{location}");
        assert!(reactions(&c).is_empty(), "{location}");
        assert_eq!(
            unconscious(&c),
            location == Head,
            "{location}: only the head"
        );
    }
}

#[test]
fn h7_death_timers_10_minutes_for_an_arm_1_minute_for_the_rest() {
    for (face, location, seconds) in [
        (1, Arm, 600),
        (2, Leg, 60),
        (3, Internal, 60),
        (4, Head, 60),
    ] {
        let mut c = vulnerable_defender();
        let faces: &[u32] = if location == Head {
            &[face, 99]
        } else {
            &[face]
        };
        injure(&mut c, CriticalHit, faces);
        assert_eq!(c.injuries[0].bleeding_out, seconds, "{location}");
        time_passes(&mut c, seconds - 1);
        assert!(!c.dead, "{location}: one second left");
        assert_eq!(c.injuries[0].bleeding_out, 1);
        time_passes(&mut c, 1);
        assert!(c.dead, "{location}: bled out");
        assert!(incapacitated(&c));
    }
}

#[test]
fn h7_every_fatal_injury_bleeds_on_its_own_timer() {
    // assumption (NOTES.md 9): blood loss is not a penalty that H6 keeps to the highest:
    // a Fatal Arm Injury (10 minutes) then a Fatal Leg Injury (1 minute) both bleed.
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[1]);
    time_passes(&mut c, 30);
    injure(&mut c, CriticalHit, &[2]);
    let timers: Vec<i64> = c.injuries.iter().map(|i| i.bleeding_out).collect();
    assert_eq!(timers, [570, 60]);
    // The leg is helped (Heal check DL 15: 15 + 0); the arm still kills at 10 minutes.
    let run = stop_bleeding(&healer(0), &mut c, &[15], &[("treated_wound", 1)]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Leg });
    time_passes(&mut c, 569);
    assert!(!c.dead);
    time_passes(&mut c, 1);
    assert!(c.dead, "ten minutes after the arm injury");
}

#[test]
fn h7_heal_check_dc_15_stops_arm_and_leg_blood_loss() {
    for location in [Arm, Leg] {
        let mut c = injured(&[(location, FatalInjury)]);
        c.injuries[0].bleeding_out = 60;
        // 1d20 + 3: 11 + 3 = 14 fails, 12 + 3 = 15 succeeds.
        let run = stop_bleeding(&healer(3), &mut c, &[11], &[]);
        assert_eq!(run.result, hs::AidResult::Failed { location });
        assert_eq!(c.injuries[0].bleeding_out, 60, "still bleeding");
        let run = stop_bleeding(&healer(3), &mut c, &[12], &[]);
        assert_eq!(
            run.result,
            hs::AidResult::Stopped { location },
            "{}",
            run.text()
        );
        assert_eq!(c.injuries[0].bleeding_out, 0);
        time_passes(&mut c, 3600);
        assert!(!c.dead, "helped in time");
        assert!(incapacitated(&c), "still incapacitated by the Fatal injury");
    }
}

#[test]
fn h7_heal_check_dc_20_for_internal_and_head() {
    for location in [Internal, Head] {
        let mut c = injured(&[(location, FatalInjury)]);
        c.injuries[0].bleeding_out = 60;
        let run = stop_bleeding(&healer(3), &mut c, &[16], &[]);
        assert_eq!(
            run.result,
            hs::AidResult::Failed { location },
            "16 + 3 = 19"
        );
        let run = stop_bleeding(&healer(3), &mut c, &[17], &[]);
        assert_eq!(
            run.result,
            hs::AidResult::Stopped { location },
            "17 + 3 = 20"
        );
    }
}

#[test]
fn h7_the_healer_picks_which_bleeding_injury_to_treat() {
    let mut c = injured(&[(Arm, FatalInjury), (Internal, FatalInjury)]);
    c.injuries[0].bleeding_out = 500;
    c.injuries[1].bleeding_out = 40;
    // Option 1 of [Arm, Internal]: the internal bleeding, DL 20: 20 + 0.
    let run = stop_bleeding(&healer(0), &mut c, &[20], &[("treated_wound", 1)]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Internal });
    assert_eq!(
        (c.injuries[0].bleeding_out, c.injuries[1].bleeding_out),
        (500, 0)
    );
    // Only the arm bleeds now: no question asked, DL 15.
    let run = stop_bleeding(&healer(0), &mut c, &[15], &[]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Arm });
    assert_eq!(
        stop_bleeding(&healer(0), &mut c, &[], &[]).result,
        hs::AidResult::NothingToTreat
    );
}

#[test]
fn h7_help_after_death_is_too_late() {
    let mut c = injured(&[(Leg, FatalInjury)]);
    c.injuries[0].bleeding_out = 60;
    time_passes(&mut c, 60);
    assert!(c.dead);
    assert_eq!(
        stop_bleeding(&healer(10), &mut c, &[], &[]).result,
        hs::AidResult::TooLate
    );
}

#[test]
fn h7_the_heal_check_is_an_attribute_check_under_the_healers_penalties() {
    // An exhausted healer rolls with Disadvantage: the lower of 19 and 12, + 3 = 15.
    let tired = hs::Combatant {
        exhausted: true,
        ..healer(3)
    };
    let mut c = injured(&[(Arm, FatalInjury)]);
    c.injuries[0].bleeding_out = 600;
    let run = stop_bleeding(&tired, &mut c, &[19, 12], &[]);
    assert_eq!(run.result, hs::AidResult::Stopped { location: Arm });
    let run = stop_bleeding(&tired, &mut c, &[], &[]);
    assert_eq!(run.result, hs::AidResult::NothingToTreat);
}

#[test]
fn h7_fatal_head_injury_25_percent_chance_to_lose_an_eye() {
    // d100 25: within the 25% chance; 26: not.
    let mut c = vulnerable_defender();
    let run = injure(&mut c, CriticalHit, &[4, 25]);
    assert_eq!(run.rolls()[1], ("d100".to_string(), vec![25], 25));
    assert_eq!(
        c.eye_at_risk, 20,
        "an immediate Heal check of DL 20 saves it"
    );
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 26]);
    assert_eq!(c.eye_at_risk, 0);
    time_passes(&mut c, 60);
    assert_eq!(c.eyes_lost, 0);
}

#[test]
fn h7_an_immediate_heal_check_dc_20_saves_the_eye() {
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 1]);
    assert_eq!(
        save_eye(&healer(5), &mut c, &[15]),
        hs::EyeResult::EyeSaved,
        "15 + 5"
    );
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 0));
    time_passes(&mut c, 10);
    assert_eq!(c.eyes_lost, 0);
    assert_eq!(
        save_eye(&healer(5), &mut c, &[]),
        hs::EyeResult::NoEyeAtRisk
    );
}

#[test]
fn h7_a_failed_heal_check_loses_the_eye() {
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 10]);
    assert_eq!(
        save_eye(&healer(5), &mut c, &[14]),
        hs::EyeResult::EyeLost,
        "14 + 5"
    );
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 1));
}

#[test]
fn h7_without_an_immediate_heal_check_the_eye_is_lost() {
    // assumption (NOTES.md 13): "immediate" means before any time passes.
    let mut c = vulnerable_defender();
    injure(&mut c, CriticalHit, &[4, 20]);
    time_passes(&mut c, 6);
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 1));
    assert_eq!(
        save_eye(&healer(20), &mut c, &[]),
        hs::EyeResult::NoEyeAtRisk
    );
}

#[test]
fn h7_the_fatal_head_example_replays_in_the_interpreter() {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hit-strength/fatal_head.yaml");
    let trace = rulesc::scenario::run_file(&program(), &scenario, 0)
        .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    assert!(!trace.contains("note:"), "{trace}");
    assert!(trace.ends_with(
        "result: Injured(hit_strength: Hit Strength 3 (Critical Hit), severity: Fatal Injury, location: Head Injury)\n"
    ), "{trace}");
    assert!(
        trace.contains("c.eye_at_risk = effects.save_eye_dc  ->  20"),
        "{trace}"
    );
    let mut d = hs::Combatant {
        defense: 11,
        ..vulnerable_defender()
    };
    let run = attack(&attacker(), &mut d, &sword(), &[20, 4, 17]);
    assert_eq!(run.result, injured_result(CriticalHit, FatalInjury, Head));
    assert_eq!((d.eye_at_risk, d.injuries[0].bleeding_out), (20, 60));
}

#[test]
fn h7_the_effects_table_is_the_seeds() {
    use hs::Condition::*;
    let e = hs::condition_effects;
    assert!(e(Exhausted).attribute_check_disadvantage);
    assert!(e(SevereArm).attack_roll_disadvantage && e(SevereArm).no_block);
    assert!(e(SevereLeg).speed_halved && e(SevereLeg).no_dodge);
    assert!(e(SevereInternal).no_reactions);
    assert!(e(SevereHead).no_reactions && e(SevereHead).endurance_dc == 20);
    let fatal = [
        (FatalArm, 10, 15),
        (FatalLeg, 1, 15),
        (FatalInternal, 1, 20),
        (FatalHead, 1, 20),
    ];
    for (c, minutes, dc) in fatal {
        assert!(e(c).incapacitated);
        assert_eq!(
            (e(c).dies_in_minutes, e(c).stop_bleeding_dc),
            (minutes, dc),
            "{c}"
        );
    }
    assert!(e(FatalHead).unconscious);
    assert_eq!(
        (e(FatalHead).eye_loss_percent, e(FatalHead).save_eye_dc),
        (25, 20)
    );
    assert_eq!(e(Unhurt), hs::Effects::default());
}

// ---------------------------------------------------------------------------------------
// The fight (`fight.rules`): world time runs the timers of H3 and H7. `c` stands in a fight
// against a foe and `seconds` of world time pass (`Fight::advance`, as after the fight or
// between its rounds), in both backends, which must leave the same state.

fn after_in_a_fight(c: &hs::Combatant, seconds: i64) -> hs::Combatant {
    let sides = [("Us", "C", c.clone()), ("Them", "Foe", attacker())];
    let fight = rulesc_tests::differential::advance_both(
        &program(),
        &sides,
        combatant_value,
        hs::Rules,
        seconds,
        0,
    );
    fight.combatants[0].clone()
}

#[test]
fn h7_in_a_fight_blood_loss_kills_at_its_minute_of_world_time() {
    // Fatal Arm: 10 minutes; Fatal Leg: 1 minute (H7), counted by the fight's clock.
    for (location, seconds) in [(Arm, 600), (Leg, 60)] {
        let mut c = vulnerable_defender();
        injure(&mut c, CriticalHit, &[if location == Arm { 1 } else { 2 }]);
        let c1 = after_in_a_fight(&c, seconds - 1);
        assert!(!c1.dead, "{location}: one second left");
        assert_eq!(c1.injuries[0].bleeding_out, 1);
        let c2 = after_in_a_fight(&c, seconds);
        assert!(c2.dead, "{location}: bled out at {seconds} seconds");
        // Stopped in time, it never kills.
        let mut helped = c.clone();
        helped.injuries[0].bleeding_out = 0;
        assert!(!after_in_a_fight(&helped, 3 * seconds).dead);
    }
}

#[test]
fn h3_in_a_fight_healing_returns_after_an_hour_of_world_time() {
    let c = vulnerable_defender();
    assert_eq!(after_in_a_fight(&c, 3599).healing_blocked, 1);
    let mut later = after_in_a_fight(&c, 3600);
    assert_eq!(later.healing_blocked, 0);
    assert_eq!(
        heal(&mut later, 5),
        hs::HealResult::Healed { hit_points: 5 }
    );
}

#[test]
fn h7_in_a_fight_an_eye_at_risk_is_lost_once_a_second_passes() {
    let mut c = vulnerable_defender();
    c.eye_at_risk = 20;
    let c = after_in_a_fight(&c, 1);
    assert_eq!((c.eye_at_risk, c.eyes_lost), (0, 1));
}

#[test]
fn the_example_fight_simulates_the_same_for_a_seed_and_otherwise_for_another() {
    let p = program();
    let file = rulesc_tests::differential::fight_file(&p, "examples/hit-strength/fight.yaml");
    rulesc_tests::differential::assert_simulation_repeats(&p, &file, 300);
    // Every fight ends: one side is down (Fatal injuries, lost consciousness: H7).
    let once = rulesc::simulate::simulate(&p, &file, 300, 7);
    assert_eq!(once.wins.iter().sum::<u64>() + once.draws, 300);
    assert!(once.wins.iter().all(|&w| w > 0));
}
