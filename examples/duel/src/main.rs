//! A duel, as a game built on `rulesc` plays one: the Kingsmark rules compiled by
//! `build.rs`, two combatants read from `fighters.json`, and a fight resolved with
//! seeded dice, every blow traced back to the rule that decided it.
//!
//! ```text
//! cargo run -p duel -- --seed 7 [--fighters examples/duel/fighters.json]
//! ```
//!
//! Everything the rules decide is generated: the Action Scene itself (`fight of Combatant`
//! in `rules/kingsmark/fight.rules`: Initiative, the turn order read afresh before every
//! Turn, who is out) runs as `kingsmark::Fight` under `kingsmark::Rules`, and this game
//! only steps it, printing what happened after each step.

use rulesc_runtime::policy::{Answer, Policy};
use rulesc_runtime::{Env, FightEnd, SeededDice, Step, VecTrace};
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

/// A fighter read from the roster: its name, and its combatant holding its weapon.
struct Fighter {
    name: String,
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
                c: km::Combatant {
                    weapon,
                    ..e.combatant
                },
            })
        })
        .collect::<Result<_, String>>()?;
    fighters
        .try_into()
        .map_err(|f: Vec<Fighter>| format!("a duel needs two fighters, not {}", f.len()))
}

fn fight(f: [Fighter; 2], seed: u64) -> Result<(), String> {
    // The dice and the fighters' choices (defence, maneuver, the shield's luck) come from
    // the seed: the same seed replays the same duel. Both fight with their swords (no
    // shields here) and strike at once: no Surprise Test, no one Lays in Wait.
    let no = Answer::Index(0);
    let policy = Policy::new(Answer::Random, seed)
        .with("melee_defence", Answer::Index(0))
        .with("surprise_test_required", no)
        .with("lay_in_wait_now", no);
    let mut env = Env::new(SeededDice::new(seed), policy, VecTrace::default());
    println!("{} against {}, seed {seed}", f[0].name, f[1].name);
    // Each fighter is a side of its own.
    let mut fight = km::Fight::new();
    for x in f {
        fight.join(&x.name, &x.name, x.c);
    }
    loop {
        let step = fight.step(&mut km::Rules, &mut env);
        if let Step::RoundStarted(round) = step {
            println!("\n== Round {round}");
        }
        print_trace(&mut env.trace);
        match step {
            // K1: Initiative is rolled once, when the scene begins.
            Step::Started => {
                for x in fight.fighters() {
                    let score = km::initiative(&fight[x]);
                    println!("{} has Initiative {score}", fight.name(x));
                }
            }
            Step::RoundStarted(_) | Step::Turn(_) => {}
            Step::RoundEnded(round) if round >= MAX_ROUNDS => {
                println!("\nBoth still stand after {MAX_ROUNDS} rounds: undecided.");
                return Ok(());
            }
            Step::RoundEnded(_) => {}
            Step::Ended(FightEnd::Won(side)) => {
                let winner = fight.side_name(side).to_string();
                let fallen: Vec<&str> = fight
                    .fighters()
                    .filter(|&x| fight.side(x) != side)
                    .map(|x| fight.name(x))
                    .collect();
                println!(
                    "\n{} falls. {winner} wins in round {}.",
                    fallen.join(" and "),
                    fight.round()
                );
                return Ok(());
            }
            Step::Ended(FightEnd::Draw) => {
                println!("\nBoth fall in round {}: no winner.", fight.round());
                return Ok(());
            }
            Step::Ended(FightEnd::Undecided) => {
                println!("\nBoth still stand: undecided.");
                return Ok(());
            }
            Step::Ended(FightEnd::RuleError) => {
                return Err(match fight.rule_error() {
                    Some(e) => format!("the rules stopped the duel: {e}"),
                    None => "the rules stopped the duel".into(),
                });
            }
            // `Step` is `#[non_exhaustive]`: a kind of step a later runtime adds has
            // nothing for this game to print, and its trace is printed above.
            _ => {}
        }
    }
}

/// Prints what the rules did since the last call, each line citing its rule.
fn print_trace(trace: &mut VecTrace) {
    print!("{}", trace.render(km::SITES));
    trace.events.clear();
}
