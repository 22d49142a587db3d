//! Issue 28, classes 8 and 9: a fight file's values of the wrong shape are diagnostics at
//! the value (`E0404`, the expected shape in the message), never read as nothing.

use super::*;

const FIGHT_RULESET: &str = "ruleset: { name: duel }
types:
  Unit:
    hp: { type: int, default: 3 }
";

const FIGHT_RULES: &str = "procedure take_turn(me: fighter) {
  if decide swing: bool {
    me.hp -= 1
  }
}

fight of Unit {
  order(c) = [c.hp]
  out(c) = c.hp <= 0
  on turn = take_turn
}
";

const SIDES: &str = "sides:\n  A: { Ann: {} }\n  B: { Bob: {} }\n";

fn fight_file(p: &Path, rest: &str) {
    write(&p.join("f/ruleset.yaml"), FIGHT_RULESET);
    write(&p.join("f/fight.rules"), FIGHT_RULES);
    write(&p.join("fight.yaml"), &format!("{SIDES}{rest}"));
}

#[test]
fn class_8_fight_file_values_of_the_wrong_shape_are_diagnostics() {
    let simulate = &["simulate", "f", "fight.yaml", "-n", "3"][..];
    let fails = |name, setup| case(name, setup, simulate, 1, "E0404", "fight.yaml");
    check_all(&[
        // A control: the same file with its values in shape runs.
        case(
            "in shape",
            |p| {
                fight_file(
                    p,
                    "decisions: { default: first, swing: yes }\nreport: { g: { winner: A, out: [Bob], rounds: \"..9\" } }\n",
                )
            },
            simulate,
            0,
            "",
            "",
        ),
        fails("a group is a number", |p| {
            fight_file(p, "report: { g: 5 }\n")
        }),
        fails("a group is empty", |p| fight_file(p, "report:\n  g:\n")),
        fails("report is a list", |p| fight_file(p, "report: [g]\n")),
        fails("decisions is a list", |p| {
            fight_file(p, "decisions: [first]\n")
        }),
        fails("an answer is a list", |p| {
            fight_file(p, "decisions: { swing: [yes] }\n")
        }),
        fails("out is one name", |p| {
            fight_file(p, "report: { g: { out: Bob } }\n")
        }),
        fails("winner is a list", |p| {
            fight_file(p, "report: { g: { winner: [A] } }\n")
        }),
        fails("title is a mapping", |p| fight_file(p, "title: { a: 1 }\n")),
        case(
            "sides is a list",
            |p| {
                fight_file(p, "");
                write(&p.join("fight.yaml"), "sides: [A, B]\n");
            },
            simulate,
            1,
            "E0404",
            "fight.yaml",
        ),
    ]);
}

/// A fight file whose two sides hold `n` combatants together, each losing a hit point a
/// turn (so a fight ends in three rounds).
fn crowd(p: &Path, n: usize) {
    fight_file(p, "");
    let mut text = String::from("decisions: { swing: yes }\nsides:\n");
    for (side, range) in [("A", 0..n / 2), ("B", n / 2..n)] {
        text.push_str(&format!("  {side}:\n"));
        for i in range {
            text.push_str(&format!("    u{i}: {{}}\n"));
        }
    }
    write(&p.join("fight.yaml"), &text);
}

/// Issue 29: the engine looks at every pair of combatants each round, so a fight holds
/// at most `MAX_COMBATANTS` (1,000) of them, all sides together; one more is `E0404`
/// at the line of the one too many, exit 1.
#[test]
fn a_fight_holds_at_most_a_thousand_combatants() {
    assert_eq!(rulesc::simulate::MAX_COMBATANTS, 1_000);
    let simulate = &["simulate", "f", "fight.yaml", "-n", "1"][..];
    check_all(&[
        case("1,000", |p| crowd(p, 1_000), simulate, 0, "", ""),
        case(
            "1,001",
            |p| crowd(p, 1_001),
            simulate,
            1,
            "E0404",
            "fight.yaml",
        ),
    ]);
}

/// Two combatants may not share a name, however many there are: with 1,000 (the most a
/// fight holds), the last named as the first, the one diagnostic names that duplicate
/// at its own line (the 1,004th: three lines before the sides' members, and a side's
/// header), exit 1. The scan for duplicates is by a set, so this many is no slower than
/// a few.
#[test]
fn a_duplicate_among_a_thousand_combatants_is_named() {
    let root = sandbox("a duplicate among a thousand");
    let proj = root.join("proj");
    fight_file(&proj, "");
    let n = rulesc::simulate::MAX_COMBATANTS;
    let mut text = String::from("decisions: { swing: yes }\nsides:\n");
    for (side, range) in [("A", 0..n / 2), ("B", n / 2..n)] {
        text.push_str(&format!("  {side}:\n"));
        for i in range {
            // The last combatant takes the first one's name.
            let name = if i == n - 1 { 0 } else { i };
            text.push_str(&format!("    u{name}: {{}}\n"));
        }
    }
    write(&proj.join("fight.yaml"), &text);
    let args = ["--format", "json", "simulate", "f", "fight.yaml", "-n", "1"];
    let out = bounded::rulesc_to(&args, Some(&proj), bounded::Sink::Pipe);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let diags: Vec<serde_json::Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).expect(l))
        .collect();
    let named: Vec<&serde_json::Value> = diags
        .iter()
        .filter(|d| d["message"] == "two combatants are named `u0`")
        .collect();
    assert_eq!(named.len(), 1, "{stderr}");
    assert_eq!(named[0]["code"]["code"], "E0404");
    let span = &named[0]["spans"][0];
    assert_eq!(span["file_name"], "fight.yaml");
    assert_eq!(span["line_start"], n + 4, "{span}");
    // No other combatant is taken for a duplicate.
    assert!(
        diags.iter().all(|d| !d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("two combatants") && !m.contains("`u0`"))),
        "{stderr}"
    );
}
