//! A duel, as a game built on `rulesc` plays one: the Kingsmark rules compiled by
//! `build.rs`, two combatants read from `fighters.json`, and a fight resolved with
//! seeded dice, every blow traced back to the rule that decided it.
//!
//! ```text
//! cargo run -p duel -- --seed 7 [--fighters examples/duel/fighters.json]
//! ```
//!
//! The Kingsmark procedures (initiative, the melee attack, wounds) are generated; the
//! fight loop around them lives here until the rules language can declare fights
//! (`fight of Combatant { .. }`), when it becomes `kingsmark::Fight` and `kingsmark::Rules`.

use rulesc_runtime::policy::{Answer, Policy};
use rulesc_runtime::{Env, SeededDice, VecTrace};
use std::path::PathBuf;
use std::process::ExitCode;

/// The generated rules: every type, table and procedure of `rules/kingsmark`.
pub mod kingsmark {
    include!(concat!(env!("OUT_DIR"), "/kingsmark.rs"));
}

use kingsmark as km;

/// Most rounds before the duel is called undecided.
const MAX_ROUNDS: u32 = 20;

/// One fighter as `fighters.json` describes it: a name, a weapon named as the rules name
/// it, and the rest of the combatant in the rules' own terms.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    weapon: String,
    combatant: km::Combatant,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Roster {
    fighters: Vec<Entry>,
}

struct Fighter {
    name: String,
    weapon: km::Weapon,
    c: km::Combatant,
}

fn main() -> ExitCode {
    let (seed, path) = match args() {
        Ok(a) => a,
        Err(usage) => {
            eprintln!("{usage}\nusage: duel [--seed N] [--fighters FILE.json]");
            return ExitCode::from(2);
        }
    };
    match load(&path).and_then(|fighters| fight(fighters, seed)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--seed N` (default 1) and `--fighters FILE` (default: the `fighters.json` beside
/// this crate).
fn args() -> Result<(u64, PathBuf), String> {
    let mut seed = 1;
    let mut path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/fighters.json"));
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().ok_or(format!("`{a}` needs a value"))?;
        match a.as_str() {
            "--seed" => {
                seed = value
                    .parse()
                    .map_err(|_| format!("`{value}` is not a seed"))?
            }
            "--fighters" => path = value.into(),
            _ => return Err(format!("unknown argument `{a}`")),
        }
    }
    Ok((seed, path))
}

fn load(path: &PathBuf) -> Result<[Fighter; 2], String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let roster: Roster =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let fighters: Vec<Fighter> = roster
        .fighters
        .into_iter()
        .map(|e| {
            let weapon = km::Weapon::named(&e.weapon).ok_or(format!(
                "{}: no weapon `{}` in the rules (there are {})",
                e.name,
                e.weapon,
                km::Weapon::NAMES.join(", ")
            ))?;
            Ok(Fighter {
                name: e.name,
                weapon,
                c: e.combatant,
            })
        })
        .collect::<Result<_, String>>()?;
    fighters
        .try_into()
        .map_err(|f: Vec<Fighter>| format!("a duel needs two fighters, not {}", f.len()))
}

/// Out of the fight: a Critical Wound (box 12, K16).
fn out(c: &km::Combatant) -> bool {
    c.wounds.is_filled(12)
}

/// K3: whose turn comes first: the higher key (Initiative, then the unmodified roll,
/// then Reflexes, then Speed); equal keys act together, in the order listed.
fn key(c: &km::Combatant) -> [i64; 4] {
    let km::TurnOrderKey::Key {
        initiative,
        initiative_roll,
        reflexes,
        speed,
    } = km::turn_order_key(c);
    [initiative, initiative_roll, reflexes, speed]
}

fn fight(mut f: [Fighter; 2], seed: u64) -> Result<(), String> {
    // The dice and the fighters' choices (defence, maneuver, the shield's luck) come from
    // the seed: the same seed replays the same duel.
    let mut env = Env::new(
        SeededDice::new(seed),
        // Both fight with their swords (no shields here); the rest is left to chance.
        Policy::new(Answer::Random, seed).with("melee_defence", Answer::Index(0)),
        VecTrace::default(),
    );
    println!("{} against {}, seed {seed}", f[0].name, f[1].name);
    // K1: initiative is rolled once, when the scene begins.
    for x in f.iter_mut() {
        let score = km::roll_initiative(&mut env, &mut x.c);
        print_trace(&mut env.trace);
        println!("{} has Initiative {score}", x.name);
    }
    for round in 1..=MAX_ROUNDS {
        println!("\n== Round {round}");
        // K4: keys are read afresh each round (a wound's Pain lowers Initiative).
        let first = if key(&f[1].c) > key(&f[0].c) { 1 } else { 0 };
        for attacker in [first, 1 - first] {
            let [a, d] = if attacker == 0 {
                let [a, d] = &mut f;
                [a, d]
            } else {
                let [d, a] = &mut f;
                [a, d]
            };
            println!("-- {} attacks {}", a.name, d.name);
            let result = km::melee_attack(&mut env, &a.c, &mut d.c, &a.weapon);
            print_trace(&mut env.trace);
            println!("{}: {result}", a.name);
            if out(&d.c) {
                println!("\n{} falls. {} wins in round {round}.", d.name, a.name);
                return Ok(());
            }
        }
    }
    println!("\nBoth still stand after {MAX_ROUNDS} rounds: undecided.");
    Ok(())
}

/// Prints what the rules did since the last call, each line citing its rule.
fn print_trace(trace: &mut VecTrace) {
    print!("{}", trace.render(km::SITES));
    trace.events.clear();
}
