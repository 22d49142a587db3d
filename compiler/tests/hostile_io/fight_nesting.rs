//! Issue 28, class 3: recursion through the fight engine. A hook that `advance` runs and
//! that advances again stops the fight with a rule error (the engine's nesting bound),
//! never a stack overflow; a fight rule asking itself through a built-in is `E0330`.

use super::*;

const FIGHT_RULESET: &str = "ruleset: { name: nest }
types:
  Unit:
    hp: { type: int, default: 3 }
";

/// `on every minute = tick`, and `tick` advances a minute: it runs itself inside itself.
const ADVANCING: &str = "procedure take_turn(me: fighter) {
  me.hp -= 1
}

procedure tick() {
  advance 1 minute
}

fight of Unit {
  order(c) = [c.hp]
  out(c) = c.hp <= 0
  time second, minute = 60 second
  round lasts 1 minute
  on turn = take_turn
  on every minute = tick
}
";

const FIGHT_FILE: &str = "sides:
  A: { Ann: {} }
  B: { Bob: {} }
";

fn fight_project(p: &Path, rules: &str) {
    write(&p.join("f/ruleset.yaml"), FIGHT_RULESET);
    write(&p.join("f/fight.rules"), rules);
    write(&p.join("fight.yaml"), FIGHT_FILE);
}

const NESTED: &str = "advance nested more than 8 deep: what an advance runs advances again";

/// Runs `rulesc --format json <args>` on the advancing fight: exit 0 (a rule error is a
/// run's result, as in `rulesc trace`), nothing on stderr, nothing changed; its stdout.
fn simulate(name: &str, args: &[&str]) -> serde_json::Value {
    let root = sandbox(name);
    let proj = root.join("proj");
    fight_project(&proj, ADVANCING);
    let before = snapshot(&root);
    let mut all = vec!["--format", "json", "simulate", "f", "fight.yaml"];
    all.extend_from_slice(args);
    let out = bounded::rulesc(&all, Some(&proj));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
    assert!(stderr.is_empty(), "{name}: {stderr}");
    assert_eq!(snapshot(&root), before, "{name}: nothing changes");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn class_3_a_hook_advancing_into_itself_stops_with_a_rule_error() {
    let report = simulate("advancing hook, report", &["-n", "4"]);
    let errors = report["rule_errors"].as_array().expect("rule_errors");
    assert_eq!(errors.len(), 1, "{report}");
    assert_eq!(errors[0]["runs"], 4, "{report}");
    let error = errors[0]["error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with("f/fight.rules:") && error.ends_with(NESTED),
        "{error}"
    );
    let traced = simulate("advancing hook, trace", &["--trace", "0"]);
    assert_eq!(traced["end"], "rule_error", "{traced}");
    let lines = traced["trace"].as_array().expect("trace lines");
    let ticks = lines
        .iter()
        .filter(|l| l.as_str().is_some_and(|l| l.trim_end().ends_with("tick()")))
        .count();
    assert_eq!(
        ticks, 8,
        "the hook ran 8 deep, then the ninth advance stopped: {traced}"
    );
}

#[test]
fn class_3_a_fight_rule_asking_itself_is_a_cycle() {
    fn cycle(p: &Path) {
        fight_project(
            p,
            &ADVANCING.replace("  advance 1 minute\n", "").replace(
                "out(c) = c.hp <= 0",
                "out(c) = c.hp <= 0 or len(enemies(c)) == 0",
            ),
        );
    }
    check_all(&[
        case(
            "out asks enemies: check",
            cycle,
            &["check", "f"],
            1,
            "E0330",
            "f/fight.rules",
        ),
        case(
            "out asks enemies: simulate",
            cycle,
            &["simulate", "f", "fight.yaml"],
            1,
            "E0330",
            "f/fight.rules",
        ),
    ]);
}
