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

mod attack;
mod injury;
mod morale;
mod stars;

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

/// `victim` takes a wound of injury level `level` at `part`, its dice scripted as `faces`.
fn wound(victim: &mut Combatant, part: vs::BodyPart, level: i64, faces: &[u32]) -> Blow {
    let striker = swordsman();
    scripted(faces, &[], |e| {
        vs::wound(e, &striker, victim, part, level).unwrap()
    })
    .0
}
