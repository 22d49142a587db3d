//! Victory Stars (seed `002_17c0c91f0ae9e1e5.txt`, "Resolving an Attack"), rules V1..V10,
//! driven through the generated code (`rulesc_tests::victory_stars`) with scripted dice
//! and scripted decisions. Every run asserts that the script fit exactly: every face
//! used and on its die, every answer used, no decision asked that the script did not
//! expect. The numbers the seed leaves open are the ruleset's assumptions
//! (`rules/victory-stars/NOTES.md`); the tests named after them pin them.

use rulesc_runtime::VecTrace;
use rulesc_tests::support::{self, Answer, ScriptEnv};
use rulesc_tests::victory_stars as vs;

use vs::Aspect::{Blunt, Edged, Fire, Piercing};
use vs::BodyPart::{Abdomen, Calves, Chest, Forearms, Head, Hips, Neck, Thighs, UpperArms};
use vs::Defence::{Block, Counterstrike, Dodge, Ignore};
use vs::Item::{BareArm, Broadsword, Dagger, RoundShield, Shortbow};
use vs::MoraleState::{Brave, Catatonic, Routed, Steady, Withdrawing};
use vs::ShockState::{Dead, Incapacitated, Stunned, Unconscious, Unshaken};
use vs::SuccessLevel::{CriticalFailure, CriticalSuccess, Failure, Success};
use vs::{Blow, Combatant, Exchange, Skill, StrikeMode, TacticalAdvantage};

// ---------------------------------------------------------------------------------------
// Scripted dice and decisions

/// Runs `f` with the scripted faces and answers and asserts the script fit exactly.
fn scripted<R>(
    faces: &[u32],
    answers: &[Answer],
    f: impl FnOnce(&mut ScriptEnv) -> R,
) -> (R, VecTrace) {
    support::scripted(vs::SITES, faces, answers, f)
}

/// Every value bound or assigned by a statement whose source starts with `prefix`.
fn assigned(trace: &VecTrace, prefix: &str) -> Vec<String> {
    support::assigned(vs::SITES, trace, prefix)
}

/// Every roll: its dice (`2d6`) and faces.
fn rolls(trace: &VecTrace) -> Vec<(String, Vec<u32>)> {
    support::rolls(trace)
        .into_iter()
        .map(|(dice, faces, _)| (dice, faces))
        .collect()
}

fn yes(name: &'static str) -> Answer {
    (name, 1)
}
fn no(name: &'static str) -> Answer {
    (name, 0)
}
fn aim_at(part: vs::BodyPart) -> Answer {
    ("aim_at", part as u32)
}
fn advantage(kind: TacticalAdvantage) -> Answer {
    ("advantage_kind", kind as u32)
}

/// The defender's answer to `decide defence from options`: the defence's position among
/// the defences available to it against `mode`.
fn defence(defender: &Combatant, mode: StrikeMode, d: vs::Defence) -> Answer {
    let options = vs::available_defences(defender, mode);
    let i = options
        .iter()
        .position(|o| *o == d)
        .unwrap_or_else(|| panic!("{d} is not available: {options:?}"));
    ("defence", i as u32)
}

fn block_with(defender: &Combatant, mode: StrikeMode, item: vs::Item) -> Answer {
    let options = vs::block_options(defender, mode);
    let i = options.iter().position(|o| *o == item).unwrap();
    ("block_with", i as u32)
}

fn counter_mode(defender: &Combatant, mode: StrikeMode) -> Answer {
    let options = vs::counterstrike_modes(defender);
    let i = options.iter().position(|o| *o == mode).unwrap();
    ("counter_mode", i as u32)
}

// ---------------------------------------------------------------------------------------
// Combatants

fn skills(points: &[(Skill, i64)]) -> [i64; 6] {
    let mut s = [0; 6];
    for (skill, n) in points {
        s[*skill as usize] = *n;
    }
    s
}

/// The attacker of most tests: Melee 60, so a broadsword cut (+5) is tested at 65.
fn swordsman() -> Combatant {
    Combatant {
        skills: skills(&[
            (Skill::Melee, 60),
            (Skill::Dodge, 40),
            (Skill::Initiative, 50),
        ]),
        held: vec![Broadsword],
        ..Default::default()
    }
}

/// The defender of most tests: blocks with the broadsword at 55, dodges at 45,
/// counterstrikes with a thrust at 50.
fn brigand() -> Combatant {
    Combatant {
        skills: skills(&[
            (Skill::Melee, 50),
            (Skill::Dodge, 45),
            (Skill::Initiative, 40),
        ]),
        held: vec![Broadsword],
        ..Default::default()
    }
}

/// Proof against every aspect: a blow that lands on it does no injury, so an exchange
/// test needs no shock or morale dice.
fn armoured(c: Combatant) -> Combatant {
    Combatant {
        toughness: [50; 4],
        ..c
    }
}

fn test_result(faces: u32, eml: i64) -> vs::TestResult {
    scripted(&[faces], &[], |e| vs::success_test(e, eml)).0
}

fn melee(
    attacker: &mut Combatant,
    defender: &mut Combatant,
    mode: StrikeMode,
    faces: &[u32],
    answers: &[Answer],
) -> (Exchange, VecTrace) {
    scripted(faces, answers, |e| {
        vs::melee_attack(e, attacker, defender, mode).unwrap()
    })
}

#[allow(clippy::too_many_arguments)]
fn contest(
    attack: vs::SuccessLevel,
    d: vs::Defence,
    defence_level: vs::SuccessLevel,
    stars: i64,
    winner: vs::Side,
    advantages: i64,
    blow: Blow,
    counterblow: Blow,
) -> Exchange {
    Exchange::Contest {
        attack,
        defence: d,
        defence_level,
        stars,
        winner,
        advantages,
        blow,
        counterblow,
    }
}

fn no_injury(part: vs::BodyPart) -> Blow {
    Blow::NoInjury {
        part,
        effective_impact: 0,
    }
}

fn wounded(part: vs::BodyPart, severity: vs::Severity, injury_level: i64) -> Blow {
    Blow::Wounded {
        part,
        severity,
        injury_level,
        shock: Unshaken,
    }
}

// ---------------------------------------------------------------------------------------
// V1 Attack test: Success Test against Effective Mastery Level = skill + strike mode
// modifier + condition penalties + situational modifiers; its success level is the
// attacker's side.

#[test]
fn v1_success_test_is_a_d100_at_or_under_the_effective_mastery_level() {
    for (face, level) in [(1, Success), (64, Success), (66, Failure), (99, Failure)] {
        let t = test_result(face, 65);
        assert_eq!(t.level, level, "{face} against 65");
        assert_eq!((t.rolled, t.mastery), (i64::from(face), 65));
    }
}

#[test]
fn v1_units_digit_0_or_5_makes_the_result_critical() {
    // assumption (NOTES.md): the seed gives no success-level scale; a units digit of 0
    // or 5 makes a success critical, and a failure critical.
    for (face, level) in [
        (5, CriticalSuccess),
        (10, CriticalSuccess),
        (65, CriticalSuccess),
        (63, Success),
        (70, CriticalFailure),
        (85, CriticalFailure),
        (100, CriticalFailure),
        (71, Failure),
    ] {
        assert_eq!(test_result(face, 65).level, level, "{face} against 65");
    }
}

#[test]
fn v1_effective_mastery_is_kept_between_5_and_95() {
    // assumption (NOTES.md): 01-05 always succeeds, 96-00 always fails.
    let high = test_result(96, 120);
    assert_eq!((high.mastery, high.level), (95, Failure));
    assert_eq!(test_result(95, 120).level, CriticalSuccess);
    assert_eq!(test_result(94, 120).level, Success);
    let low = test_result(4, -30);
    assert_eq!((low.mastery, low.level), (5, Success));
    assert_eq!(test_result(5, -30).level, CriticalSuccess);
    assert_eq!(test_result(6, -30).level, Failure);
}

#[test]
fn v1_attack_test_adds_mode_modifier_condition_penalties_and_situational_modifiers() {
    // Melee 60; a pommel strike is not a cut (-10); fatigue 1 and encumbrance 1 (5 each),
    // prone (20), a Serious wound to the upper arm (impairment 2: Melee uses the arms) but
    // not the thigh wound (Melee does not use the legs); the GM gives +10 for surprise.
    let c = Combatant {
        fatigue: 1,
        encumbrance: 1,
        prone: true,
        situational: 10,
        wounds: vec![
            vs::Wound {
                part: UpperArms,
                impairment: 2,
                ..Default::default()
            },
            vs::Wound {
                part: Thighs,
                impairment: 4,
                ..Default::default()
            },
        ],
        ..swordsman()
    };
    let (t, trace) = scripted(&[20], &[], |e| {
        vs::attack_test(e, &c, StrikeMode::PommelStrike)
    });
    assert_eq!(assigned(&trace, "let eml"), ["60"]);
    // + mode modifier, - condition penalties (5 x (1 + 1 + 2) + 20), + situational.
    assert_eq!(assigned(&trace, "eml = eml"), ["50", "10", "20"]);
    assert_eq!((t.mastery, t.level), (20, CriticalSuccess));
    let (t, _) = scripted(&[21], &[], |e| {
        vs::attack_test(e, &c, StrikeMode::PommelStrike)
    });
    assert_eq!(t.level, Failure);
    // The thigh wound does count against Dodge, the arm wound does not.
    assert_eq!(
        vs::condition_penalty(&c, Skill::Dodge),
        5 * (1 + 1 + 4) + 20
    );
    assert_eq!(
        vs::condition_penalty(&c, Skill::Melee),
        5 * (1 + 1 + 2) + 20
    );
}

#[test]
fn v1_the_attack_tests_success_level_is_the_attackers_side_of_the_contest() {
    // The same face read against each side's own Effective Mastery Level: 62 is a
    // Success for the swordsman's cut (60 + 5 = 65) and a Failure for the brigand's dodge
    // (45). The attack wins by one star and lands (unaimed: 25 is the Chest).
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let mode = StrikeMode::BroadswordCut;
    let answers = [no("aim"), defence(&d, mode, Dodge)];
    let (r, trace) = melee(&mut a, &mut d, mode, &[62, 62, 25, 3, 4], &answers);
    assert_eq!(assigned(&trace, "let mastery"), ["65", "45"]);
    assert_eq!(
        r,
        contest(
            Success,
            Dodge,
            Failure,
            1,
            vs::Side::Attacker,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
}

// ---------------------------------------------------------------------------------------
// V2 Defences Block, Dodge, Counterstrike, Ignore; availability limited by strike mode,
// empty hands (limb block), pinned/stunned (Ignore only), missiles.

#[test]
fn v2_four_defences_answer_a_close_attack() {
    let d = brigand();
    assert_eq!(
        vs::available_defences(&d, StrikeMode::BroadswordCut),
        [Block, Dodge, Counterstrike, Ignore]
    );
    // A prone defender is worse off (V1) but may still choose any of them.
    let prone = Combatant {
        prone: true,
        ..brigand()
    };
    assert_eq!(
        vs::available_defences(&prone, StrikeMode::MaceBlow).len(),
        4
    );
}

#[test]
fn v2_a_strike_mode_may_be_barred_from_blocking_or_from_counterstriking() {
    let d = brigand();
    // assumption: a flail wraps round a parry; a longspear keeps the defender out of reach.
    assert_eq!(
        vs::available_defences(&d, StrikeMode::FlailSwing),
        [Dodge, Counterstrike, Ignore]
    );
    assert_eq!(
        vs::available_defences(&d, StrikeMode::SpearThrust),
        [Block, Dodge, Ignore]
    );
}

#[test]
fn v2_a_defender_with_nothing_in_hand_blocks_with_a_limb() {
    let empty = Combatant {
        held: vec![],
        ..brigand()
    };
    assert!(vs::available_defences(&empty, StrikeMode::BroadswordCut).contains(&Block));
    assert_eq!(
        vs::block_options(&empty, StrikeMode::BroadswordCut),
        [BareArm]
    );
    // With something in hand the defender blocks with it, and chooses which.
    let armed = Combatant {
        held: vec![Broadsword, RoundShield],
        ..brigand()
    };
    assert_eq!(
        vs::block_options(&armed, StrikeMode::BroadswordCut),
        [Broadsword, RoundShield]
    );
}

#[test]
fn v2_pinned_stunned_or_unaware_defenders_can_only_ignore() {
    let cases = [
        Combatant {
            pinned: true,
            ..brigand()
        },
        Combatant {
            unaware: true,
            ..brigand()
        },
        Combatant {
            shock: Stunned,
            ..brigand()
        },
        Combatant {
            shock: Incapacitated,
            ..brigand()
        },
        Combatant {
            shock: Unconscious,
            ..brigand()
        },
    ];
    for d in &cases {
        assert_eq!(
            vs::available_defences(d, StrikeMode::BroadswordCut),
            [Ignore]
        );
    }
    // With Ignore the only defence left, nothing is asked of the defender: the script
    // has no `defence` answer. The failed attack (66 against 65) is simply a miss.
    let (mut a, mut d) = (swordsman(), cases[0].clone());
    let (r, _) = melee(
        &mut a,
        &mut d,
        StrikeMode::BroadswordCut,
        &[66],
        &[no("aim")],
    );
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Failure,
            blow: Blow::NoBlow
        }
    );
}

#[test]
fn v2_missile_attacks_admit_only_a_shield_block_a_dodge_or_ignore() {
    // assumption: the seed's Missile Attacks chapter is not given; a shield is the only
    // block against a missile, and no one counterstrikes one.
    let sword = brigand();
    assert_eq!(
        vs::available_defences(&sword, StrikeMode::BowShot),
        [Dodge, Ignore]
    );
    let shield = Combatant {
        held: vec![Broadsword, RoundShield],
        ..brigand()
    };
    assert_eq!(
        vs::available_defences(&shield, StrikeMode::JavelinThrow),
        [Block, Dodge, Ignore]
    );
    assert_eq!(
        vs::block_options(&shield, StrikeMode::SlingShot),
        [RoundShield]
    );
}

#[test]
fn v2_a_counterstrike_is_made_with_a_close_strike_mode_in_hand_or_unarmed() {
    use StrikeMode::*;
    assert_eq!(
        vs::counterstrike_modes(&brigand()),
        [BroadswordCut, BroadswordThrust, PommelStrike, Punch, Kick]
    );
    // assumption: a fighter can always punch or kick; a bow in hand adds no close mode.
    let archer = Combatant {
        held: vec![Shortbow],
        ..brigand()
    };
    assert_eq!(vs::counterstrike_modes(&archer), [Punch, Kick]);
}

// ---------------------------------------------------------------------------------------
// V3 A blow lands only if the attack succeeded and beat the defence by its required
// margin: Block needs a tie (tied block checks breakage), Dodge must win outright (tie
// goes to the tiebreak), Counterstrike lands independently on its own success, Ignore
// lands on any success.

#[test]
fn v3_a_block_need_only_tie_and_a_tied_block_checks_breakage() {
    // Cut 33 against 65 and block 33 against 55 (broadsword +5): both Successes. The
    // attacker's margin is the larger, yet a block holds on a tie: no blow. The blocking
    // sword takes the full force of the strike, 2d6 (3 + 4) + 1 = 8, against its quality
    // 12 (assumption): it holds.
    let (mut a, mut d) = (swordsman(), brigand());
    let mode = StrikeMode::BroadswordCut;
    let answers = [no("aim"), defence(&d, mode, Block)];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 33, 3, 4], &answers);
    let check = Blow::Breakage {
        item: Broadsword,
        impact: 8,
        broken: false,
    };
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            Success,
            0,
            vs::Side::Neither,
            0,
            check,
            Blow::NoBlow
        )
    );
    assert_eq!(d.held, [Broadsword]);
    assert!(d.wounds.is_empty());
}

#[test]
fn v3_a_tied_block_breaks_what_the_strike_overpowers() {
    // A mace blow (60) against a round shield block (50 + 15 = 65), both Successes (33).
    // The shield's quality is 14 (assumption): 2d6 (6 + 6) + 2 holds it at Strength 10,
    // and breaks it with Strength 13's +1 (15 > 14); the broken shield leaves the hand.
    let mode = StrikeMode::MaceBlow;
    for (strength, broken) in [(10, false), (13, true)] {
        let mut a = Combatant {
            strength,
            held: vec![vs::Item::Mace],
            ..swordsman()
        };
        let mut d = Combatant {
            held: vec![Broadsword, RoundShield],
            ..brigand()
        };
        let answers = [
            no("aim"),
            defence(&d, mode, Block),
            block_with(&d, mode, RoundShield),
        ];
        let (r, trace) = melee(&mut a, &mut d, mode, &[33, 33, 6, 6], &answers);
        let Exchange::Contest { blow, .. } = r else {
            panic!("{r}")
        };
        assert_eq!(
            blow,
            Blow::Breakage {
                item: RoundShield,
                impact: 14 + i64::from(broken),
                broken
            }
        );
        assert_eq!(assigned(&trace, "let eml"), ["60", "50"]);
        assert_eq!(assigned(&trace, "eml = eml + modifier"), ["60", "65"]);
        let held: &[vs::Item] = if broken {
            &[Broadsword]
        } else {
            &[Broadsword, RoundShield]
        };
        assert_eq!(d.held, held);
    }
}

#[test]
fn v3_a_block_beaten_by_a_successful_attack_lets_the_blow_land() {
    // Cut 33 (Success) against block 62 (Failure): one star; the blow lands where aimed
    // (the Chest, zone die 1).
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let mode = StrikeMode::BroadswordCut;
    let answers = [yes("aim"), aim_at(Chest), defence(&d, mode, Block)];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 62, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            Failure,
            1,
            vs::Side::Attacker,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
}

#[test]
fn v3_a_failed_attack_never_lands() {
    let mode = StrikeMode::BroadswordCut;
    // Block: a tie of two Failures (66, 62) is no contact: no blow, no breakage check.
    let (mut a, mut d) = (swordsman(), brigand());
    let answers = [no("aim"), defence(&d, mode, Block)];
    let (r, _) = melee(&mut a, &mut d, mode, &[66, 62], &answers);
    assert_eq!(
        r,
        contest(
            Failure,
            Block,
            Failure,
            0,
            vs::Side::Neither,
            0,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
    // Dodge: "However badly the defender blundered": the dodge fails critically (50:
    // a Stumble, kept with 20), the attacker wins a star, and still does not arrive.
    let answers = [no("aim"), defence(&d, mode, Dodge)];
    let (r, _) = melee(&mut a, &mut d, mode, &[66, 50, 20], &answers);
    assert_eq!(
        r,
        contest(
            Failure,
            Dodge,
            CriticalFailure,
            1,
            vs::Side::Attacker,
            0,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
    // Ignore: nothing to beat, and still a miss.
    let answers = [no("aim"), defence(&d, mode, Ignore)];
    let (r, _) = melee(&mut a, &mut d, mode, &[66], &answers);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Failure,
            blow: Blow::NoBlow
        }
    );
    assert!(d.wounds.is_empty());
}

#[test]
fn v3_a_tied_limb_block_takes_the_blow_on_the_forearm() {
    // Nothing in hand: a limb block (Melee 50, no modifier). Both succeed (33): the arm
    // takes the strike, 2d6 (3 + 4) + 1 = 8, less toughness 3: a Minor wound to the
    // Forearms & Hands (assumption: the blocking forearm), no zone die rolled.
    let mut a = swordsman();
    let mut d = Combatant {
        held: vec![],
        toughness: [0, 3, 0, 0],
        ..brigand()
    };
    let mode = StrikeMode::BroadswordCut;
    let answers = [no("aim"), defence(&d, mode, Block)];
    let (r, trace) = melee(&mut a, &mut d, mode, &[33, 33, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            Success,
            0,
            vs::Side::Neither,
            0,
            wounded(Forearms, vs::Severity::Minor, 1),
            Blow::NoBlow
        )
    );
    assert_eq!(assigned(&trace, "let mastery"), ["65", "50"]);
    assert_eq!(d.wounds.len(), 1);
    assert_eq!(d.wounds[0].part, Forearms);
}

#[test]
fn v3_a_dodge_must_win_outright_and_a_tie_goes_to_the_tiebreak() {
    // Cut 33 against 65 (margin 32); both sides succeed, so the tiebreak decides.
    // assumption: the larger margin under the Mastery Level wins; equal margins leave the
    // dodger clear.
    let mode = StrikeMode::BroadswordCut;
    let d0 = armoured(brigand());
    let answers = [yes("aim"), aim_at(Chest), defence(&d0, mode, Dodge)];
    // Dodge 14 against 45 (margin 31): the dodger loses the tiebreak and is struck.
    let (mut a, mut d) = (swordsman(), d0.clone());
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 14, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Dodge,
            Success,
            0,
            vs::Side::Neither,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    // Dodge 13 (margin 32, equal) and 12 (margin 33): clear.
    for face in [13, 12] {
        let (r, _) = melee(&mut a, &mut d, mode, &[33, face], &answers);
        assert_eq!(
            r,
            contest(
                Success,
                Dodge,
                Success,
                0,
                vs::Side::Neither,
                0,
                Blow::NoBlow,
                Blow::NoBlow
            ),
            "dodge {face}"
        );
    }
    // A dodge that wins outright (40: a Critical Success) is never struck.
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 40], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Dodge,
            CriticalSuccess,
            1,
            vs::Side::Defender,
            0,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
}

#[test]
fn v3_a_counterstrike_lands_on_its_own_success_and_so_does_the_attack() {
    // The brigand counterstrikes with a broadsword thrust (50), unaimed. Cut 33: Success;
    // thrust 45: a Critical Success. The defender wins the star, and both blows land:
    // the cut (zone 25: Chest, 2d6 3 + 4) and the thrust (zone 25: Chest, 1d6 2).
    let mode = StrikeMode::BroadswordCut;
    let mut a = armoured(swordsman());
    let mut d = armoured(brigand());
    let answers = [
        no("aim"),
        defence(&d, mode, Counterstrike),
        counter_mode(&d, StrikeMode::BroadswordThrust),
        no("counter_aim"),
    ];
    let (r, trace) = melee(&mut a, &mut d, mode, &[33, 45, 25, 3, 4, 25, 2], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Counterstrike,
            CriticalSuccess,
            1,
            vs::Side::Defender,
            0,
            no_injury(Chest),
            no_injury(Chest)
        )
    );
    assert_eq!(assigned(&trace, "let mastery"), ["65", "50"]);
    // A failed attack (66) and a successful counterstrike (33): only the counterblow.
    let (r, _) = melee(&mut a, &mut d, mode, &[66, 33, 25, 2], &answers);
    assert_eq!(
        r,
        contest(
            Failure,
            Counterstrike,
            Success,
            1,
            vs::Side::Defender,
            0,
            Blow::NoBlow,
            no_injury(Chest)
        )
    );
    // A successful attack (33) and a failed counterstrike (62): only the blow.
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 62, 25, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Counterstrike,
            Failure,
            1,
            vs::Side::Attacker,
            0,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
}

#[test]
fn v3_an_ignored_attack_lands_on_any_success_with_no_contest() {
    // A Critical Success (15) against Ignore: it lands, and with no contest there are no
    // Victory Stars and no Tactical Advantage to name (no `advantage_kind` is asked).
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [no("aim"), defence(&d, mode, Ignore)];
    let (r, _) = melee(&mut a, &mut d, mode, &[15, 25, 3, 4], &answers);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: CriticalSuccess,
            blow: no_injury(Chest)
        }
    );
    assert_eq!(a.advantages, [0; 4]);
    // A bare Success lands the same way.
    let (r, _) = melee(&mut a, &mut d, mode, &[64, 25, 3, 4], &answers);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Success,
            blow: no_injury(Chest)
        }
    );
}

// ---------------------------------------------------------------------------------------
// V4 Victory Stars = success-level gap; winning by N >= 2 stars earns N-1 Tactical
// Advantages to the winner, of four kinds; Impact TAs add to Strength Trials.

#[test]
fn v4_victory_stars_count_the_gap_in_success_levels() {
    let levels = vs::SuccessLevel::ALL;
    for (i, a) in levels.iter().enumerate() {
        for (j, d) in levels.iter().enumerate() {
            let gap = (i as i64 - j as i64).abs();
            assert_eq!(vs::victory_stars(*a, *d), gap, "{a} against {d}");
            let winner = match i.cmp(&j) {
                std::cmp::Ordering::Greater => vs::Side::Attacker,
                std::cmp::Ordering::Less => vs::Side::Defender,
                std::cmp::Ordering::Equal => vs::Side::Neither,
            };
            assert_eq!(vs::exchange_winner(*a, *d), winner, "{a} against {d}");
        }
    }
    assert_eq!(vs::victory_stars(CriticalSuccess, CriticalFailure), 3);
}

#[test]
fn v4_two_or_more_stars_earn_one_advantage_fewer() {
    let earned: Vec<i64> = (0..=5).map(vs::tactical_advantages).collect();
    // "a two-star victory earns one TA, a three-star victory two, and so on ... An
    // exchange won by a single star earns none."
    assert_eq!(earned, [0, 0, 1, 2, 3, 4]);
    assert_eq!(vs::TacticalAdvantage::ALL.len(), 4, "four kinds");
}

#[test]
fn v4_a_winning_attacker_earns_and_names_its_advantages() {
    let mode = StrikeMode::BroadswordCut;
    // Two stars: Critical Success (15) against a failed dodge (62): one Tactical
    // Advantage, named Tempo.
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Dodge),
        advantage(TacticalAdvantage::Tempo),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[15, 62, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            CriticalSuccess,
            Dodge,
            Failure,
            2,
            vs::Side::Attacker,
            1,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    assert_eq!(a.advantages, [0, 1, 0, 0]);
    assert_eq!(d.advantages, [0; 4]);
    // Three stars: Critical Success (15) against a critically failed dodge (50, a
    // Stumble the brigand keeps with 20): two, Impact and Position. The Impact one is
    // kept for a Strength Trial rather than spent on the blow.
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Dodge),
        advantage(TacticalAdvantage::Impact),
        advantage(TacticalAdvantage::Position),
        no("spend_impact"),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[15, 50, 20, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            CriticalSuccess,
            Dodge,
            CriticalFailure,
            3,
            vs::Side::Attacker,
            2,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    assert_eq!(a.advantages, [1, 0, 1, 0]);
}

#[test]
fn v4_a_winning_defender_earns_them_too() {
    // A critically failed cut (70, a Stumble kept with 20) against a critically
    // successful block (55 against 55): three stars to the defender, two Tactical
    // Advantages, both named Impact.
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), brigand());
    let answers = [
        no("aim"),
        defence(&d, mode, Block),
        advantage(TacticalAdvantage::Impact),
        advantage(TacticalAdvantage::Impact),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[70, 55, 20], &answers);
    assert_eq!(
        r,
        contest(
            CriticalFailure,
            Block,
            CriticalSuccess,
            3,
            vs::Side::Defender,
            2,
            Blow::NoBlow,
            Blow::NoBlow
        )
    );
    assert_eq!(d.advantages, [2, 0, 0, 0]);
    assert_eq!(a.advantages, [0; 4]);
}

#[test]
fn v4_a_one_star_win_earns_nothing() {
    // Success (33) against a failed dodge (62): no `advantage_kind` is asked.
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [no("aim"), defence(&d, mode, Dodge)];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 62, 25, 3, 4], &answers);
    assert!(
        matches!(
            r,
            Exchange::Contest {
                stars: 1,
                advantages: 0,
                ..
            }
        ),
        "{r}"
    );
    assert_eq!(a.advantages, [0; 4]);
}

#[test]
fn v4_impact_advantages_add_to_strength_trials() {
    // assumption: a Strength Trial is a Success Test against five times Strength, +10
    // per Impact Tactical Advantage, which the Trial spends.
    let with = || Combatant {
        advantages: [2, 0, 0, 0],
        ..swordsman()
    };
    let mut c = with();
    let (level, trace) = scripted(&[66], &[], |e| vs::strength_trial(e, &mut c));
    assert_eq!(level, Success, "66 against 50 + 20");
    assert_eq!(assigned(&trace, "let mastery"), ["70"]);
    assert_eq!(c.advantages, [0; 4], "spent");
    let mut c = with();
    assert_eq!(
        scripted(&[70], &[], |e| vs::strength_trial(e, &mut c)).0,
        CriticalSuccess
    );
    // Without them, or with other kinds only, the same faces fail.
    for advantages in [[0; 4], [0, 2, 2, 2]] {
        let mut c = Combatant {
            advantages,
            ..swordsman()
        };
        assert_eq!(
            scripted(&[66], &[], |e| vs::strength_trial(e, &mut c)).0,
            Failure
        );
        assert_eq!(c.advantages, advantages);
    }
}

// ---------------------------------------------------------------------------------------
// V5 Critical Failure is a Mishap chosen by the roll's units digit (fumble or stumble
// test).

#[test]
fn v5_the_units_digit_of_a_critical_failure_chooses_the_mishap() {
    // assumption: only 0 and 5 make a critical; 0 is a Stumble, 5 a Fumble.
    assert_eq!(vs::mishap_by_units_digit(0), vs::Mishap::Stumble);
    assert_eq!(vs::mishap_by_units_digit(5), vs::Mishap::Fumble);
}

#[test]
fn v5_a_critical_failure_ending_in_5_is_a_fumble_test() {
    // An ignored cut fails critically (85 against 65): a Fumble. The Fumble Test is a
    // Success Test against five times Dexterity (assumption): 61 against 50 fails and
    // the broadsword drops; the brigand is armed, so the disarmed swordsman tests Morale
    // (Initiative 50 - 5: 33, Steady).
    let mode = StrikeMode::BroadswordCut;
    let unaware = Combatant {
        unaware: true,
        ..brigand()
    };
    let mut a = Combatant {
        held: vec![Broadsword, RoundShield],
        ..swordsman()
    };
    let mut d = unaware.clone();
    let (r, trace) = melee(&mut a, &mut d, mode, &[85, 61, 33], &[no("aim")]);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: CriticalFailure,
            blow: Blow::NoBlow
        }
    );
    assert_eq!(
        assigned(&trace, "let accident"),
        ["Fumble (keep hold of the weapon)"]
    );
    assert_eq!(a.held, [RoundShield]);
    assert_eq!(a.morale_states, [Steady]);
    assert!(!a.prone);
    // Passed (40): the weapon stays in hand, and no Morale Test follows.
    let mut a = swordsman();
    let mut d = unaware;
    melee(&mut a, &mut d, mode, &[85, 40], &[no("aim")]);
    assert_eq!(a.held, [Broadsword]);
    assert!(a.morale_states.is_empty());
}

#[test]
fn v5_a_critical_failure_ending_in_0_is_a_stumble_test() {
    // 90 against 65: a Stumble. The Stumble Test is against five times Agility
    // (assumption): 51 against 50 fails, a fall to prone; 50 keeps the feet.
    let mode = StrikeMode::BroadswordCut;
    let unaware = Combatant {
        unaware: true,
        ..brigand()
    };
    for (face, prone) in [(51, true), (50, false)] {
        let mut a = swordsman();
        let mut d = unaware.clone();
        let (_, trace) = melee(&mut a, &mut d, mode, &[90, face], &[no("aim")]);
        assert_eq!(
            assigned(&trace, "let accident"),
            ["Stumble (keep your feet)"]
        );
        assert_eq!(a.prone, prone, "stumble test {face}");
        assert_eq!(a.held, [Broadsword]);
    }
}

#[test]
fn v5_a_defences_critical_failure_is_a_mishap_too() {
    // The brigand's block fails critically (65 against 55): a Fumble, failed (61), the
    // sword drops, and he tests Morale for being disarmed (Initiative 40 - 5: 33, Steady).
    // The cut (33, Success) wins by two stars: one Tactical Advantage (Precision), and
    // the blow lands on the Chest.
    let mode = StrikeMode::BroadswordCut;
    let (mut a, mut d) = (swordsman(), armoured(brigand()));
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Block),
        advantage(TacticalAdvantage::Precision),
    ];
    let (r, _) = melee(&mut a, &mut d, mode, &[33, 65, 61, 33, 1, 3, 4], &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Block,
            CriticalFailure,
            2,
            vs::Side::Attacker,
            1,
            no_injury(Chest),
            Blow::NoBlow
        )
    );
    assert!(d.held.is_empty());
    assert_eq!(d.morale_states, [Steady]);
    assert_eq!(a.advantages, [0, 0, 0, 1]);
}

#[test]
fn v5_with_nothing_in_hand_there_is_nothing_to_fumble() {
    // assumption: no weapon, no Fumble Test (no die is rolled).
    let mut c = Combatant {
        held: vec![],
        ..swordsman()
    };
    let (kept, _) = scripted(&[], &[], |e| {
        vs::fumble_test(e, &mut c, &brigand()).unwrap()
    });
    assert!(kept);
}

// ---------------------------------------------------------------------------------------
// V6 Hit Zone = (Target Zone - 1) + zone die (strike mode spread); scatter only
// downward; off the body misses; unaimed blows draw a weighted zone.

#[test]
fn v6_hit_zone_is_target_zone_minus_one_plus_the_zone_die() {
    // A cut's spread is a d3 (assumption). Aimed at the Chest (zone 4): 4, 5 or 6.
    for (face, zone, part) in [(1, 4, Chest), (2, 5, UpperArms), (3, 6, Abdomen)] {
        let (z, trace) = scripted(&[face], &[], |e| {
            vs::hit_zone(e, StrikeMode::BroadswordCut, &[Chest]).unwrap()
        });
        assert_eq!(z, zone);
        assert_eq!(vs::part_in_zone(z).unwrap(), part);
        assert_eq!(rolls(&trace), [("d3".to_string(), vec![face])]);
    }
}

#[test]
fn v6_scatter_is_only_downward() {
    for part in vs::BodyPart::ALL {
        for face in 1..=3 {
            let (z, _) = scripted(&[face], &[], |e| {
                vs::hit_zone(e, StrikeMode::BroadswordCut, &[part]).unwrap()
            });
            assert!(z >= vs::zone_number(part), "{part}, face {face}");
            assert_eq!(z - vs::zone_number(part), i64::from(face) - 1);
        }
    }
}

#[test]
fn v6_the_spread_belongs_to_the_strike_mode() {
    // "a thrusting point places far better than a swung flail".
    let (z, trace) = scripted(&[2], &[], |e| {
        vs::hit_zone(e, StrikeMode::BroadswordThrust, &[Head]).unwrap()
    });
    assert_eq!((z, vs::part_in_zone(z).unwrap()), (2, Neck));
    assert_eq!(rolls(&trace)[0].0, "d2");
    let (z, trace) = scripted(&[6], &[], |e| {
        vs::hit_zone(e, StrikeMode::FlailSwing, &[Head]).unwrap()
    });
    assert_eq!((z, vs::part_in_zone(z).unwrap()), (6, Abdomen));
    assert_eq!(rolls(&trace)[0].0, "d6");
}

#[test]
fn v6_a_blow_that_scatters_off_the_body_misses_after_all() {
    // A flail swing (55) aimed at the Calves & Feet (zone 10) against an unaware
    // brigand: it succeeds (33), but the zone die's 3 makes hit zone 12, below the body.
    // No impact is rolled.
    let mut a = Combatant {
        held: vec![vs::Item::Flail],
        ..swordsman()
    };
    let mut d = Combatant {
        unaware: true,
        ..brigand()
    };
    let (r, _) = melee(
        &mut a,
        &mut d,
        StrikeMode::FlailSwing,
        &[33, 3],
        &[yes("aim"), aim_at(Calves)],
    );
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Success,
            blow: Blow::OffTheBody { zone: 12 }
        }
    );
    assert!(d.wounds.is_empty());
}

#[test]
fn v6_an_unaimed_blow_draws_its_zone_weighted_by_size() {
    // assumption: a humanoid's weights in percent, on a d100.
    let mut weights = [0u32; 10];
    for face in 1..=100 {
        weights[vs::unaimed_zone(face).expect("a face of the d100") as usize] += 1;
    }
    assert_eq!(weights, [8, 3, 8, 15, 10, 12, 10, 10, 14, 10]);
    for (face, zone) in [(8, 1), (9, 2), (34, 4), (35, 5), (100, 10)] {
        let (z, trace) = scripted(&[face], &[], |e| {
            vs::hit_zone(e, StrikeMode::BroadswordCut, &[]).unwrap()
        });
        assert_eq!(z, zone, "d100 {face}");
        assert_eq!(rolls(&trace)[0].0, "d100");
    }
}

// ---------------------------------------------------------------------------------------
// V7 Impact = strike mode dice + Strength Impact Modifier + range band + Impact TAs;
// aspect blunt/edged/piercing/fire; protection per aspect (natural toughness + worn)
// subtracted.

fn archer() -> Combatant {
    Combatant {
        strength: 16,
        skills: skills(&[(Skill::Archery, 60), (Skill::Initiative, 50)]),
        held: vec![Shortbow],
        ..Default::default()
    }
}

#[test]
fn v7_impact_is_dice_strength_range_band_and_impact_advantages() {
    // A shortbow shot (1d6: 4) with a broadhead (1d6: 5), Strength 16 (+2), at long
    // range (-2), and one Impact Tactical Advantage spent on it: 4, 9, 11, 9, 10.
    // Against a padded jack (edged 2): effective 8, Injury Level 2, a Serious wound to
    // the Chest; Shock Index 3 (3d6: 3, no shock); the Morale Test (33) holds Steady.
    let mut a = Combatant {
        advantages: [1, 0, 0, 0],
        ..archer()
    };
    let mut d = Combatant {
        unaware: true,
        armour: vec![vs::Armour::padded_jack()],
        ..brigand()
    };
    let (r, trace) = scripted(
        &[33, 25, 4, 5, 1, 1, 1, 33],
        &[no("aim"), yes("spend_impact")],
        |e| {
            vs::missile_attack(
                e,
                &mut a,
                &mut d,
                StrikeMode::BowShot,
                &[vs::Ammunition::Broadhead],
                vs::RangeBand::Long,
            )
            .unwrap()
        },
    );
    assert_eq!(assigned(&trace, "let impact"), ["4", "9"]);
    assert_eq!(
        assigned(&trace, "impact = impact +"),
        ["9", "11", "9", "10"]
    );
    assert_eq!(assigned(&trace, "let effective_impact"), ["8"]);
    assert_eq!(
        r,
        Exchange::Unopposed {
            attack: Success,
            blow: wounded(Chest, vs::Severity::Serious, 2)
        }
    );
    assert_eq!(a.advantages, [0; 4], "spent");
    assert_eq!(d.morale_states, [Steady]);
}

#[test]
fn v7_a_thrown_weapon_has_no_projectile_and_melee_no_range_band() {
    // A javelin (2d6) thrown at medium range (-1) by Strength 10: 3 + 4 - 1 = 6.
    let (impact, trace) = scripted(&[3, 4], &[], |e| {
        vs::roll_impact(
            e,
            &swordsman(),
            StrikeMode::JavelinThrow,
            &[],
            vs::RangeBand::Medium,
        )
        .unwrap()
    });
    assert_eq!(impact, 6);
    assert_eq!(rolls(&trace), [("2d6".to_string(), vec![3, 4])]);
    assert_eq!(vs::range_band_impact(vs::RangeBand::WithinReach), 0);
    let bands: Vec<i64> = vs::RangeBand::ALL
        .iter()
        .map(|b| vs::range_band_impact(*b))
        .collect();
    assert_eq!(bands, [0, 0, -1, -2, -4]);
}

#[test]
fn v7_strength_impact_modifier() {
    // assumption: 9-12 is average.
    let sim: Vec<i64> = [3, 5, 6, 8, 9, 12, 13, 15, 16, 18, 19, 25]
        .iter()
        .map(|s| vs::strength_impact_modifier(*s))
        .collect();
    assert_eq!(sim, [-2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 3]);
}

#[test]
fn v7_the_aspect_decides_which_protection_answers() {
    // The same bow shot (4 + 5 = 9 at short range, Strength 10) against mail: a
    // broadhead (edged, mail 6) leaves 3, no injury; a bodkin (piercing, mail 3) leaves 6:
    // a Minor wound (Shock Index 1 + 1 for the Chest: 2d6 1 + 1, no shock).
    let shoot = |arrow: vs::Ammunition, faces: &[u32]| {
        let mut a = Combatant {
            strength: 10,
            ..archer()
        };
        let mut d = Combatant {
            armour: vec![vs::Armour::mail_hauberk()],
            ..brigand()
        };
        scripted(faces, &[], |e| {
            vs::blow_to(
                e,
                &mut a,
                &mut d,
                StrikeMode::BowShot,
                &[arrow],
                vs::RangeBand::Short,
                Chest,
            )
            .unwrap()
        })
        .0
    };
    assert_eq!(
        shoot(vs::Ammunition::Broadhead, &[4, 5]),
        Blow::NoInjury {
            part: Chest,
            effective_impact: 3
        }
    );
    assert_eq!(
        shoot(vs::Ammunition::Bodkin, &[4, 5, 1, 1]),
        wounded(Chest, vs::Severity::Minor, 1)
    );
    // A strike mode has exactly one aspect; a launched projectile brings its own.
    use vs::Ammunition::{Bodkin, Broadhead, SlingStone};
    assert_eq!(
        vs::blow_aspect(StrikeMode::BroadswordCut, &[]).unwrap(),
        Edged
    );
    assert_eq!(
        vs::blow_aspect(StrikeMode::BroadswordThrust, &[]).unwrap(),
        Piercing
    );
    assert_eq!(vs::blow_aspect(StrikeMode::MaceBlow, &[]).unwrap(), Blunt);
    assert_eq!(vs::blow_aspect(StrikeMode::TorchBlow, &[]).unwrap(), Fire);
    assert_eq!(
        vs::blow_aspect(StrikeMode::BowShot, &[Broadhead]).unwrap(),
        Edged
    );
    assert_eq!(
        vs::blow_aspect(StrikeMode::BowShot, &[Bodkin]).unwrap(),
        Piercing
    );
    assert_eq!(
        vs::blow_aspect(StrikeMode::SlingShot, &[SlingStone]).unwrap(),
        Blunt
    );
}

#[test]
fn v7_protection_is_natural_toughness_plus_what_is_worn_there_for_that_aspect() {
    let bull = Combatant {
        armour: vec![vs::Armour::mail_hauberk(), vs::Armour::padded_jack()],
        ..Combatant::bull()
    };
    // Toughness (blunt 2, edged 1, piercing 1, fire 0) + mail + padded jack.
    assert_eq!(vs::protection(&bull, Chest, Edged), 1 + 6 + 2);
    assert_eq!(vs::protection(&bull, Chest, Blunt), 2 + 2 + 4);
    assert_eq!(vs::protection(&bull, Chest, Fire), 1 + 1);
    // The mail covers the thighs, the jack does not; nothing covers the head.
    assert_eq!(vs::protection(&bull, Thighs, Piercing), 1 + 3);
    assert_eq!(vs::protection(&bull, Head, Edged), 1);
}

#[test]
fn v7_impact_advantages_are_spent_on_the_blow_or_kept() {
    // A cut (3 + 4 + 1 = 8) on a proof-armoured victim, with two Impact advantages held.
    for spend in [true, false] {
        let mut a = Combatant {
            advantages: [2, 1, 0, 0],
            ..swordsman()
        };
        let mut d = armoured(brigand());
        let answer = if spend {
            yes("spend_impact")
        } else {
            no("spend_impact")
        };
        let (_, trace) = scripted(&[3, 4], &[answer], |e| {
            vs::blow_to(
                e,
                &mut a,
                &mut d,
                StrikeMode::BroadswordCut,
                &[],
                vs::RangeBand::WithinReach,
                Chest,
            )
            .unwrap()
        });
        let impact = if spend { "10" } else { "8" };
        assert_eq!(assigned(&trace, "impact = impact + spend"), [impact]);
        assert_eq!(
            a.advantages,
            if spend { [0, 1, 0, 0] } else { [2, 1, 0, 0] }
        );
    }
}

// ---------------------------------------------------------------------------------------
// V8 Effective impact to Injury Level by the victim's thresholds; light edged/piercing
// against rigid armour glances (no wound, jarring).

#[test]
fn v8_the_injury_level_reads_the_victims_own_thresholds() {
    let (cat, man, bull) = (
        Combatant::cat(),
        Combatant::man_at_arms(),
        Combatant::bull(),
    );
    for (effective, levels) in [
        (0, [0, 0, 0]),
        (3, [3, 0, 0]),
        (9, [5, 2, 1]),
        (40, [5, 5, 5]),
    ] {
        assert_eq!(
            [
                vs::injury_level(&cat, effective),
                vs::injury_level(&man, effective),
                vs::injury_level(&bull, effective)
            ],
            levels,
            "effective impact {effective}"
        );
    }
}

#[test]
fn v8_the_same_blow_reads_differently_on_a_cat_a_person_and_a_bull() {
    // One cut to the upper arm: 2d6 (4 + 4) + 1 = 9.
    // The cat (thresholds 1..5): Injury Level 5, Grievous; Shock Index 4 (4d6: 4, no
    // shock against Endurance 5); Morale 33 against Initiative 30: Withdrawing.
    // The person (4, 8, 12...): Injury Level 2, Serious; Shock Index 2 (2d6: 2); Morale
    // 33 against 40: Steady. The bull (toughness 1 edged, thresholds 8, 16...): 8, Injury
    // Level 1, Minor, no Shock test and no Morale Test.
    let cases = [
        (
            Combatant::cat(),
            vec![4, 4, 1, 1, 1, 1, 33],
            vs::Severity::Grievous,
            5,
            Some(Withdrawing),
        ),
        (
            brigand(),
            vec![4, 4, 1, 1, 33],
            vs::Severity::Serious,
            2,
            Some(Steady),
        ),
        (Combatant::bull(), vec![4, 4], vs::Severity::Minor, 1, None),
    ];
    for (victim, faces, severity, level, morale) in cases {
        let mut a = swordsman();
        let mut d = victim;
        let (blow, _) = scripted(&faces, &[], |e| {
            vs::blow_to(
                e,
                &mut a,
                &mut d,
                StrikeMode::BroadswordCut,
                &[],
                vs::RangeBand::WithinReach,
                UpperArms,
            )
            .unwrap()
        });
        assert_eq!(blow, wounded(UpperArms, severity, level));
        assert_eq!(d.morale_states, morale.into_iter().collect::<Vec<_>>());
    }
}

#[test]
fn v8_a_light_edged_blow_glances_off_rigid_armour_and_jars() {
    // A cut of 6 + 6 + 1 = 13 on a steel breastplate (edged 8): 5, Injury Level 1, a
    // light edged blow on rigid armour: no wound, one level of fatigue (assumption).
    let mut a = swordsman();
    let mut d = Combatant {
        armour: vec![vs::Armour::steel_breastplate()],
        ..brigand()
    };
    let (blow, _) = scripted(&[6, 6], &[], |e| {
        vs::blow_to(
            e,
            &mut a,
            &mut d,
            StrikeMode::BroadswordCut,
            &[],
            vs::RangeBand::WithinReach,
            Chest,
        )
        .unwrap()
    });
    assert_eq!(blow, Blow::Glance { part: Chest });
    assert!(d.wounds.is_empty());
    assert_eq!(d.fatigue, 1);
}

#[test]
fn v8_only_light_edged_or_piercing_blows_on_rigid_armour_glance() {
    let plate = Combatant {
        armour: vec![vs::Armour::steel_breastplate(), vs::Armour::padded_jack()],
        ..brigand()
    };
    assert!(vs::glances(&plate, Chest, Edged, 1));
    assert!(vs::glances(&plate, Abdomen, Piercing, 1));
    assert!(!vs::glances(&plate, Chest, Edged, 2), "not light");
    assert!(!vs::glances(&plate, Chest, Blunt, 1), "blunt");
    assert!(!vs::glances(&plate, Chest, Fire, 1), "fire");
    assert!(
        !vs::glances(&plate, Hips, Edged, 1),
        "the jack covers the hips, not rigid"
    );
    // A light blunt blow on the breastplate wounds: a mace, 3 + 3 + 2 = 8, less 4 + 4:
    // nothing; 6 + 6 + 2 = 14 less 8: 6, a Minor wound (Shock Index 2: 2d6 1 + 1).
    let mut a = swordsman();
    let mut d = plate.clone();
    let (blow, _) = scripted(&[6, 6, 1, 1], &[], |e| {
        vs::blow_to(
            e,
            &mut a,
            &mut d,
            StrikeMode::MaceBlow,
            &[],
            vs::RangeBand::WithinReach,
            Chest,
        )
        .unwrap()
    });
    assert_eq!(blow, wounded(Chest, vs::Severity::Minor, 1));
    assert_eq!(d.fatigue, 0);
}

#[test]
fn v8_an_effective_impact_below_the_first_threshold_does_no_injury() {
    let mut a = swordsman();
    let mut d = brigand();
    let (blow, _) = scripted(&[1, 1], &[], |e| {
        vs::blow_to(
            e,
            &mut a,
            &mut d,
            StrikeMode::BroadswordCut,
            &[],
            vs::RangeBand::WithinReach,
            Chest,
        )
        .unwrap()
    });
    assert_eq!(
        blow,
        Blow::NoInjury {
            part: Chest,
            effective_impact: 3
        }
    );
    assert!(d.wounds.is_empty());
}

// ---------------------------------------------------------------------------------------
// V9 Wound severity gives impairment, bleeding, healing time; Shock Index from severity
// and location; Shock test to stunned/incapacitated/unconscious/dead.

fn wound(victim: &mut Combatant, part: vs::BodyPart, level: i64, faces: &[u32]) -> Blow {
    let striker = swordsman();
    scripted(faces, &[], |e| {
        vs::wound(e, &striker, victim, part, level).unwrap()
    })
    .0
}

#[test]
fn v9_the_severity_fixes_impairment_bleeding_and_healing_time() {
    // assumption: Injury Level 1 Minor, 2-3 Serious, 4-5 Grievous; the table of effects.
    let mut d = Combatant {
        endurance: 99,
        ..brigand()
    };
    wound(&mut d, UpperArms, 1, &[]);
    wound(&mut d, UpperArms, 3, &[1, 1, 33]);
    wound(&mut d, UpperArms, 4, &[1, 1, 1, 1, 33]);
    let got: Vec<(vs::Severity, i64, bool, i64, i64)> = d
        .wounds
        .iter()
        .map(|w| {
            (
                w.severity,
                w.impairment,
                w.bleeding,
                w.healing_days,
                w.shock_index,
            )
        })
        .collect();
    use vs::Severity::{Grievous, Minor, Serious};
    assert_eq!(
        got,
        [
            (Minor, 1, false, 7, 1),
            (Serious, 2, true, 21, 2),
            (Grievous, 4, true, 60, 4)
        ]
    );
    // Impairment lowers the skills that use the part: Melee, not Dodge.
    assert_eq!(vs::condition_penalty(&d, Skill::Melee), 5 * (1 + 2 + 4));
    assert_eq!(vs::condition_penalty(&d, Skill::Dodge), 0);
}

#[test]
fn v9_the_shock_index_is_severity_and_location_together() {
    // assumption: head and neck +2, trunk +1, limbs 0. A Minor wound to a limb (index 1)
    // is of no consequence: no Shock test, no die.
    let mut d = brigand();
    assert_eq!(
        wound(&mut d, Calves, 1, &[]),
        wounded(Calves, vs::Severity::Minor, 1)
    );
    // A Minor wound to the head is index 3: 3d6.
    let striker = swordsman();
    let (_, trace) = scripted(&[1, 1, 1], &[], |e| {
        vs::wound(e, &striker, &mut d, Head, 1).unwrap()
    });
    assert_eq!(rolls(&trace), [("3d6".to_string(), vec![1, 1, 1])]);
    assert_eq!(d.wounds[1].shock_index, 3);
    let index: Vec<i64> = vs::BodyPart::ALL
        .iter()
        .map(|p| vs::shock_by_part(*p))
        .collect();
    assert_eq!(index, [2, 2, 0, 1, 0, 1, 0, 1, 0, 0]);
}

#[test]
fn v9_the_shock_test_can_stun_incapacitate_knock_out_or_kill() {
    // assumption: one d6 per point of Shock Index; the excess over Endurance (12): 0 no
    // shock, 1-3 stunned, 4-7 incapacitated, 8-12 unconscious, 13+ dead.
    let cases: [(i64, &[u32], vs::ShockState); 5] = [
        (3, &[6, 5, 1], Unshaken),
        (3, &[6, 6, 1], Stunned),
        (3, &[6, 6, 4], Incapacitated),
        (4, &[6, 6, 6, 2], Unconscious),
        (5, &[6, 6, 6, 6, 1], Dead),
    ];
    for (index, faces, state) in cases {
        let mut d = brigand();
        let (s, _) = scripted(faces, &[], |e| vs::shock_test(e, &mut d, index));
        assert_eq!((s, d.shock), (state, state), "{faces:?}");
    }
    // A shocked defender can only Ignore (V2).
    let stunned = Combatant {
        shock: Stunned,
        ..brigand()
    };
    assert_eq!(vs::available_defences(&stunned, StrikeMode::Kick), [Ignore]);
}

#[test]
fn v9_a_shock_state_only_worsens() {
    let mut d = Combatant {
        shock: Unconscious,
        ..brigand()
    };
    let (s, _) = scripted(&[6, 6, 1], &[], |e| vs::shock_test(e, &mut d, 3));
    assert_eq!((s, d.shock), (Stunned, Unconscious));
}

#[test]
fn v9_a_wound_to_the_hand_or_leg_provokes_the_keep_control_tests() {
    // assumption: Serious or worse. The hand: a Fumble Test (61 fails, the sword drops,
    // Morale for being disarmed 33), Shock Index 2 (2d6), Morale for the wound (33).
    let mut d = brigand();
    wound(&mut d, Forearms, 2, &[61, 33, 1, 1, 33]);
    assert!(d.held.is_empty());
    assert_eq!(d.morale_states, [Steady, Steady]);
    // The leg: a Stumble Test (51 fails, prone).
    let mut d = brigand();
    wound(&mut d, Thighs, 2, &[51, 1, 1, 33]);
    assert!(d.prone);
    // A Minor wound to the hand provokes nothing.
    let mut d = brigand();
    wound(&mut d, Forearms, 1, &[]);
    assert_eq!(d.held, [Broadsword]);
}

// ---------------------------------------------------------------------------------------
// V10 Morale test (Initiative skill) on the scale Catatonic .. Routed .. Withdrawing ..
// Steady .. Brave; the six triggers; only the worst state applies.

fn morale_test(c: &mut Combatant, trigger: vs::MoraleTrigger, face: u32) -> vs::MoraleState {
    scripted(&[face], &[], |e| vs::morale_test(e, c, trigger))
        .0
        .expect("no rule error")
}

#[test]
fn v10_a_morale_test_of_initiative_places_the_combatant_on_the_scale() {
    // Initiative 50. assumption: Critical Success Brave, Success Steady, Failure
    // Withdrawing, Critical Failure Routed, or Catatonic when it ends in 0.
    for (face, state) in [
        (45, Brave),
        (33, Steady),
        (66, Withdrawing),
        (75, Routed),
        (70, Catatonic),
    ] {
        let mut c = swordsman();
        assert_eq!(
            morale_test(&mut c, vs::MoraleTrigger::GameMaster, face),
            state
        );
        assert_eq!(c.morale_states, [state]);
    }
    assert_eq!(
        vs::MoraleState::ALL,
        [Catatonic, Routed, Withdrawing, Steady, Brave]
    );
}

#[test]
fn v10_only_the_worst_morale_state_in_play_applies() {
    let mut c = swordsman();
    assert_eq!(vs::morale(&c), Steady, "none in play");
    use vs::MoraleTrigger::GameMaster;
    assert_eq!(morale_test(&mut c, GameMaster, 66), Withdrawing);
    // A second failure does not stack into something worse.
    assert_eq!(morale_test(&mut c, GameMaster, 66), Withdrawing);
    // Nor does a Brave result lift it.
    assert_eq!(morale_test(&mut c, GameMaster, 45), Withdrawing);
    assert_eq!(morale_test(&mut c, GameMaster, 75), Routed);
    assert_eq!(c.morale_states, [Withdrawing, Withdrawing, Brave, Routed]);
    let mut brave = swordsman();
    assert_eq!(morale_test(&mut brave, GameMaster, 45), Brave);
}

#[test]
fn v10_the_six_triggers_and_what_each_costs() {
    use vs::MoraleTrigger::*;
    assert_eq!(
        vs::MoraleTrigger::ALL,
        [
            SeriousWound,
            HalfSideDown,
            LeaderFalls,
            Outnumbered,
            Disarmed,
            GameMaster
        ]
    );
    // assumption: the modifiers.
    let m: Vec<i64> = vs::MoraleTrigger::ALL
        .iter()
        .map(|t| vs::morale_modifier(*t))
        .collect();
    assert_eq!(m, [0, -10, -10, -5, -5, 0]);
    // A leader falls: 42 against 50 - 10 fails; the GM's own call reads it at 50.
    let mut c = swordsman();
    assert_eq!(morale_test(&mut c, LeaderFalls, 42), Withdrawing);
    let mut c = swordsman();
    assert_eq!(morale_test(&mut c, GameMaster, 42), Steady);
}

#[test]
fn v10_a_serious_wound_is_tested_once_the_shock_is_shaken_off() {
    // A Serious wound to the abdomen: Shock Index 3, 3d6 = 16 against 12: incapacitated.
    // No nerve is asked while in shock: no Morale die yet.
    let mut d = brigand();
    assert_eq!(
        wound(&mut d, Abdomen, 2, &[6, 6, 4]),
        Blow::Wounded {
            part: Abdomen,
            severity: vs::Severity::Serious,
            injury_level: 2,
            shock: Incapacitated
        }
    );
    assert!(d.morale_test_pending && d.morale_states.is_empty());
    // The GM rules it shaken off: the Morale Test now (66 against 40: Withdrawing).
    let state = scripted(&[66], &[], |e| vs::shake_off_shock(e, &mut d))
        .0
        .expect("no rule error");
    assert_eq!((state, d.shock), (Withdrawing, Unshaken));
    assert!(!d.morale_test_pending);
    // Shaking off again asks nothing.
    let state = scripted(&[], &[], |e| vs::shake_off_shock(e, &mut d))
        .0
        .expect("no rule error");
    assert_eq!(state, Withdrawing);
    // Unshaken, the test comes at once; a Minor wound asks none.
    let mut d = brigand();
    wound(&mut d, UpperArms, 2, &[1, 1, 33]);
    assert_eq!(d.morale_states, [Steady]);
    wound(&mut d, UpperArms, 1, &[]);
    assert_eq!(d.morale_states, [Steady]);
    // The dead are never asked: a Grievous wound to the head, Shock Index 6, 6d6 = 36.
    let mut d = brigand();
    wound(&mut d, Head, 4, &[6, 6, 6, 6, 6, 6]);
    assert_eq!(d.shock, Dead);
    assert!(!d.morale_test_pending);
    let state = scripted(&[], &[], |e| vs::shake_off_shock(e, &mut d))
        .0
        .expect("no rule error");
    assert_eq!((state, d.shock), (Steady, Dead));
}

#[test]
fn v10_half_the_side_down_is_judged_afresh_against_the_survivors() {
    // A side of 10: the test comes at 5 standing; then half of those 5 (3 more down, 2
    // standing); then half of those 2 (1 standing). Each test is at 40 - 10: 33 Success.
    let mut c = Combatant {
        side_strength: 10,
        ..brigand()
    };
    for (standing, tests) in [
        (9, false),
        (6, false),
        (5, true),
        (4, false),
        (3, false),
        (2, true),
        (1, true),
    ] {
        let before = c.morale_states.len();
        // A test rolls one d100 (33); no test rolls nothing (the script must fit).
        let faces: &[u32] = if tests { &[33] } else { &[] };
        let (state, _) = scripted(faces, &[], |e| vs::side_losses(e, &mut c, standing));
        state.expect("no rule error");
        assert_eq!(
            c.morale_states.len() - before,
            usize::from(tests),
            "{standing}"
        );
    }
    assert_eq!(c.side_strength, 1);
}

#[test]
fn v10_suddenly_badly_outnumbered_tests_when_the_odds_turn() {
    // assumption: three enemies to each ally (the combatant counted among the allies).
    let mut c = brigand();
    let mut tested = Vec::new();
    for (enemies, faces) in [
        (5, &[][..]),
        (6, &[33][..]),
        (7, &[][..]),
        (3, &[][..]),
        (6, &[33][..]),
    ] {
        let before = c.morale_states.len();
        let (state, _) = scripted(faces, &[], |e| vs::numbers_change(e, &mut c, 2, enemies));
        state.expect("no rule error");
        if c.morale_states.len() > before {
            tested.push(enemies);
        }
    }
    assert_eq!(tested, [6, 6]);
}

#[test]
fn v10_disarmed_while_the_enemy_remains_armed() {
    // A failed Fumble Test (61) against an armed opponent: a Morale Test (33); against an
    // unarmed one, none.
    let mut c = brigand();
    scripted(&[61, 33], &[], |e| {
        vs::fumble_test(e, &mut c, &swordsman()).unwrap()
    });
    assert_eq!(c.morale_states, [Steady]);
    let mut c = brigand();
    let unarmed = Combatant {
        held: vec![],
        ..swordsman()
    };
    scripted(&[61], &[], |e| {
        vs::fumble_test(e, &mut c, &unarmed).unwrap()
    });
    assert!(c.held.is_empty() && c.morale_states.is_empty());
}

// ---------------------------------------------------------------------------------------
// The scenario `examples/victory-stars/decisive_cut.yaml`, told to the generated code.

#[test]
fn v4_the_decisive_cut_earns_an_impact_advantage_spent_on_the_blow() {
    let mut a = Combatant::man_at_arms();
    let mut d = Combatant {
        skills: skills(&[
            (Skill::Melee, 50),
            (Skill::Dodge, 45),
            (Skill::Initiative, 40),
        ]),
        held: vec![Dagger],
        armour: vec![vs::Armour::padded_jack()],
        ..Default::default()
    };
    let mode = StrikeMode::BroadswordCut;
    let answers = [
        yes("aim"),
        aim_at(Chest),
        defence(&d, mode, Dodge),
        advantage(TacticalAdvantage::Impact),
        yes("spend_impact"),
    ];
    let (r, trace) = melee(&mut a, &mut d, mode, &[15, 62, 2, 4, 5, 3, 4, 47], &answers);
    assert_eq!(
        r,
        contest(
            CriticalSuccess,
            Dodge,
            Failure,
            2,
            vs::Side::Attacker,
            1,
            wounded(UpperArms, vs::Severity::Serious, 2),
            Blow::NoBlow
        )
    );
    assert_eq!(assigned(&trace, "impact = impact + spend"), ["12"]);
    assert_eq!(assigned(&trace, "let effective_impact"), ["10"]);
    assert_eq!(d.wounds.len(), 1);
    assert!(d.wounds[0].bleeding);
    assert_eq!(d.morale_states, [Withdrawing]);
    assert_eq!(a.advantages, [0; 4]);
}

#[test]
fn v3_trading_blows_both_land_in_one_exchange() {
    // `examples/victory-stars/trading_blows.yaml`: the man-at-arms cuts (33: Success),
    // the brigand counterstrikes with his dagger at the neck (35 against 55: a Critical
    // Success). One star to the defender, and both blows land: a Serious cut to the
    // brigand's arm (and his Morale fails, 52: Withdrawing), a Minor thrust to the
    // man-at-arms's neck whose Shock Index 3 (3d6 = 13 against 12) stuns him.
    let mut a = Combatant::man_at_arms();
    let mut d = Combatant {
        skills: skills(&[
            (Skill::Melee, 50),
            (Skill::Dodge, 45),
            (Skill::Initiative, 40),
        ]),
        held: vec![Dagger],
        ..Default::default()
    };
    let mode = StrikeMode::BroadswordCut;
    let answers = [
        no("aim"),
        defence(&d, mode, Counterstrike),
        counter_mode(&d, StrikeMode::DaggerThrust),
        yes("counter_aim"),
        ("counter_aim_at", Neck as u32),
    ];
    let faces = [33, 35, 40, 5, 6, 2, 3, 52, 1, 6, 4, 4, 5];
    let (r, _) = melee(&mut a, &mut d, mode, &faces, &answers);
    assert_eq!(
        r,
        contest(
            Success,
            Counterstrike,
            CriticalSuccess,
            1,
            vs::Side::Defender,
            0,
            wounded(UpperArms, vs::Severity::Serious, 3),
            Blow::Wounded {
                part: Neck,
                severity: vs::Severity::Minor,
                injury_level: 1,
                shock: Stunned
            }
        )
    );
    assert_eq!((a.shock, d.shock), (Stunned, Unshaken));
    assert_eq!(d.morale_states, [Withdrawing]);
    // Stunned, the man-at-arms can only Ignore the next attack.
    assert_eq!(
        vs::available_defences(&a, StrikeMode::DaggerThrust),
        [Ignore]
    );
}
