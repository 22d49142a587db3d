//! `rulesc test` on fight files (issue 26 §3): simulated rates held within the tolerance
//! the file states, exact odds refused, scripted fights replayed turn by turn and held to
//! their ending and state, strict scripts, `--update`.

mod run;

use run::root;
use std::path::Path;

/// A small duel: initiative on a d6 (plus skill) once, then each turn a d20 + skill
/// against 10, a hit taking a d6 of hp.
const BOUT_RULESET: &str = "\
ruleset:
  name: bout
types:
  Fencer:
    hp: { type: int, default: 6 }
    skill: { type: int, default: 0 }
    initiative: { type: int, default: 0 }
records:
  Fencer:
    veteran: { hp: 10, skill: 3 }
";

const BOUT_RULES: &str = "\
procedure roll_initiative(c: fighter) {
  c.initiative = roll d6 + c.skill
}

procedure take_turn(me: fighter) {
  let foe = decide target from enemies(me)
  if roll d20 + me.skill >= 10 {
    foe.hp -= roll d6
  }
}

fight of Fencer {
  order(c) = [c.initiative]
  ties together
  out(c) = c.hp <= 0
  on start = roll_initiative
  on turn = take_turn
}

procedure note_round(c: Fencer) {
  c.initiative = round()
}
";

/// A scratch folder with the `bout` ruleset and `t/fight.yaml` holding `text` (after
/// `ruleset: ../bout`).
fn scratch(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("bout")).unwrap();
    std::fs::create_dir_all(dir.path().join("t")).unwrap();
    std::fs::write(dir.path().join("bout/ruleset.yaml"), BOUT_RULESET).unwrap();
    std::fs::write(dir.path().join("bout/fight.rules"), BOUT_RULES).unwrap();
    std::fs::write(
        dir.path().join("t/fight.yaml"),
        format!("ruleset: ../bout\n{text}"),
    )
    .unwrap();
    dir
}

fn test_in(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["test", "t"];
    args.extend_from_slice(extra);
    run::rulesc_in(dir, &args, &[])
}

/// Ike starts out (hp 0): the Guild wins every run, in round 0.
const ONE_SIDED: &str = "\
sides:
  Guild: { Vera: veteran }
  Recruits: { Ike: { hp: 0 } }
";

#[test]
fn a_rate_holds_within_the_stated_tolerance_and_fails_just_past_it() {
    // The Guild wins 100% of runs: 97% ± 3% holds, 96.9% ± 3% does not.
    for (rate, passes) in [
        ("97%", true),
        ("96.9%", false),
        ("0.97", true),
        ("100%", true),
    ] {
        let dir = scratch(&format!(
            "{ONE_SIDED}expect:\n  runs: 200\n  tolerance: 3%\n  wins: {{ Guild: {rate}, Recruits: 0% }}\n"
        ));
        let (code, out, err) = test_in(dir.path(), &[]);
        assert_eq!(code, i32::from(!passes), "{rate}: {out}\n{err}");
        if !passes {
            assert!(
                out.contains(
                    "wins.Guild: expected 96.9% (± 3.00%), got 100.00% (200 of 200 runs, seed 0)"
                ),
                "{out}"
            );
        }
    }
}

#[test]
fn a_rate_may_carry_its_own_tolerance() {
    let dir = scratch(&format!(
        "{ONE_SIDED}expect:\n  wins: {{ Guild: 99% ± 1%, draw: 1% ± 0.5% }}\n"
    ));
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("wins.Guild"), "99% ± 1% holds at 100%: {out}");
    assert!(
        out.contains("wins.draw: expected 1% ± 0.5%, got 0.00%"),
        "{out}"
    );
}

#[test]
fn report_groups_are_held_too() {
    let dir = scratch(&format!(
        "{ONE_SIDED}report:\n  quick: {{ rounds: \"..0\" }}\nexpect:\n  tolerance: 1%\n  report: {{ quick: 50% }}\n"
    ));
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("report.quick: expected 50% (± 1.00%), got 100.00%"),
        "{out}"
    );
}

#[test]
fn mistakes_in_a_fights_expect_are_diagnostics() {
    for (expect, message) in [
        (
            "  wins: { Guild: 100% }\n",
            "`100%` has no tolerance: a simulated rate is never exact",
        ),
        (
            "  odds: { Guild: 1/2 }\n",
            "exact fight odds are not available yet in `expect:`: `rulesc test` does not hold them",
        ),
        ("  winner: Guild\n", "`winner` does not fit this fight"),
        (
            "  tolerance: 1%\n  wins: { Guilds: 100% }\n",
            "no side is named `Guilds`",
        ),
        ("  tolerance: 1%\n", "the fight expects no rate"),
        (
            "  tolerance: 1% ± 1%\n  wins: { Guild: 1 }\n",
            "is not a tolerance",
        ),
        ("  tolerence: 1%\n", "unknown key `tolerence` in `expect`"),
    ] {
        let dir = scratch(&format!("{ONE_SIDED}expect:\n{expect}"));
        let (code, out, err) = test_in(dir.path(), &[]);
        assert_eq!(code, 1, "{expect}: {out}");
        assert!(out.starts_with("error   t/fight.yaml"), "{expect}: {out}");
        assert!(
            err.contains("E0406") && err.contains(message),
            "{expect}: {err}"
        );
    }
}

#[test]
fn update_rewrites_a_rate_keeping_its_tolerance_and_the_comments() {
    let dir = scratch(&format!(
        "{ONE_SIDED}expect:   # the Guild cannot lose\n  tolerance: 1%\n  wins: {{ Guild: 50% ± 2%, Recruits: 3% }}   # as measured\n"
    ));
    let (code, out, _) = test_in(dir.path(), &["--update"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("updated t/fight.yaml (2 expectation(s) rewritten)"),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.path().join("t/fight.yaml")).unwrap();
    assert!(
        text.contains("expect:   # the Guild cannot lose\n  tolerance: 1%\n  wins: { Guild: 100.00% ± 2%, Recruits: 0.00% }   # as measured\n"),
        "{text}"
    );
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}");
}

/// Vera (skill 3) rolls 4 for initiative (7), Ike 2; Vera hits (15 + 3) for 6.
const SCRIPTED: &str = "\
sides:
  Guild: { Vera: veteran }
  Recruits: { Ike: {} }
dice: [4, 2, 15, 6]   # initiative, Vera's attack and damage
decisions: { target: [0] }
";

#[test]
fn a_scripted_fight_replays_and_holds_its_ending_turns_and_state() {
    let dir = scratch(&format!(
        "{SCRIPTED}expect:\n  winner: Guild\n  rounds: 1\n  turns: [Vera]\n  out: [Ike]\n  state: {{ Ike: {{ hp: 0 }}, Vera: {{ hp: 10, initiative: 7 }} }}\n"
    ));
    let (code, out, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("ok      t/fight.yaml"), "{out}");
}

#[test]
fn a_scripted_fight_that_differs_fails_with_each_difference_and_the_trace() {
    let dir = scratch(&format!(
        "{SCRIPTED}expect:\n  winner: Recruits\n  rounds: 2\n  turns: [Ike, Vera]\n  out: []\n  state: {{ Ike: {{ hp: 1 }} }}\n"
    ));
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 1, "{out}");
    for line in [
        "    winner: expected Recruits, got Guild",
        "    rounds: expected 2, got 1",
        "    turns: expected [Ike, Vera], got [Vera]",
        "    out: expected [], got [Ike]",
        "    state.Ike.hp: expected 1, got 0",
        "      bout/fight.rules:12  -- Guild wins in round 1",
    ] {
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
    }
    // --update writes what the replay gave, and then it holds.
    let (code, out, _) = test_in(dir.path(), &["--update"]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(dir.path().join("t/fight.yaml")).unwrap();
    assert!(
        text.contains("  winner: Guild\n  rounds: 1\n  turns: [Vera]\n  out: [Ike]\n  state: { Ike: { hp: 0 } }\n"),
        "{text}"
    );
    assert!(
        text.contains("dice: [4, 2, 15, 6]   # initiative"),
        "{text}"
    );
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_scripted_fights_script_is_strict() {
    let sides = "sides:\n  Guild: { Vera: veteran }\n  Recruits: { Ike: {} }\n";
    for (script, code, message) in [
        // One face more than the fight rolls.
        (
            "dice: [4, 2, 15, 6, 1]\ndecisions: { target: [0] }\n",
            "E0405",
            "1 scripted face(s) were never rolled: the fight rolled 4 dice",
        ),
        // Vera misses (5 + 3 < 10): Ike's turn rolls past the script.
        (
            "dice: [4, 2, 5]\ndecisions: { target: [0] }\n",
            "E0405",
            "the fight rolled",
        ),
        // `target` is asked, and answered nowhere.
        (
            "dice: [4, 2, 15, 6]\n",
            "E0405",
            "the fight asked `target`, which the file answers nowhere",
        ),
        // An answer left over.
        (
            "dice: [4, 2, 15, 6]\ndecisions: { target: [0, 0] }\n",
            "E0405",
            "1 scripted answer(s) to `target` were never asked for",
        ),
        // Ike is the only enemy: index 1 is past the options.
        (
            "dice: [4, 2, 15, 6]\ndecisions: { target: [1] }\n",
            "E0403",
            "answer 1 is not one of the 1 options `target` offered",
        ),
        // A d6 has no 7.
        (
            "dice: [7, 2, 15, 6]\ndecisions: { target: [0] }\n",
            "E0403",
            "scripted face 7 is not on the d6",
        ),
        // A list of answers without dice: nothing to replay.
        (
            "decisions: { target: [0] }\n",
            "E0404",
            "scripted answers to `target` in a fight with no `dice:`",
        ),
    ] {
        let dir = scratch(&format!("{sides}{script}expect:\n  winner: Guild\n"));
        let (exit, out, err) = test_in(dir.path(), &[]);
        assert_eq!(exit, 1, "{script}: {out}");
        assert!(
            err.contains(code) && err.contains(message),
            "{script}: {err}"
        );
    }
    // With a default, an unscripted decision is answered by it.
    let dir = scratch(&format!(
        "{sides}dice: [4, 2, 15, 6]\ndecisions: {{ default: first }}\nexpect:\n  winner: Guild\n"
    ));
    let (exit, out, err) = test_in(dir.path(), &[]);
    assert_eq!(exit, 0, "{out}\n{err}");
}

#[test]
fn a_fight_file_without_expect_is_not_a_test() {
    let dir = scratch(ONE_SIDED);
    let (code, _, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert!(err.contains("E0412"), "{err}");
}

/// CI runs this: the shipped worked examples that span several turns replay as fights.
#[test]
fn shipped_fight_examples_pass() {
    let (code, out, err) = run::rulesc_in(&root(), &["test", "examples"], &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    for fight in [
        "examples/kingsmark/johan_wounded_fight.yaml",
        "examples/d20-armor-slots/assisted_longsword_fight.yaml",
    ] {
        assert!(
            out.lines().any(|l| l == format!("ok      {fight}")),
            "{fight} did not pass:\n{out}"
        );
    }
}

/// K4x's order is what the fight file holds: with the wound, Johan (9, then 7) acts
/// after Tomas (8); held to the order without it, the test fails.
#[test]
fn k4x_a_wounded_johan_acts_after_the_8_in_the_replayed_fight() {
    let text = std::fs::read_to_string(root().join("examples/kingsmark/johan_wounded_fight.yaml"))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let wrong = text
        .replace(
            "ruleset: ../../rules/kingsmark",
            &format!("ruleset: {}", root().join("rules/kingsmark").display()),
        )
        .replace(
            "turns: [Raider, Tomas, Johan]",
            "turns: [Raider, Johan, Tomas]",
        );
    std::fs::write(dir.path().join("johan.yaml"), wrong).unwrap();
    let (code, out, _) = run::rulesc_in(dir.path(), &["test", "johan.yaml"], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("turns: expected [Raider, Johan, Tomas], got [Raider, Tomas, Johan]"),
        "{out}"
    );
}

/// A scratch folder with the `bout` ruleset and `t/scenario.yaml` holding `text`.
fn scratch_scenario(text: &str) -> tempfile::TempDir {
    let dir = scratch(ONE_SIDED);
    std::fs::remove_file(dir.path().join("t/fight.yaml")).unwrap();
    std::fs::write(
        dir.path().join("t/scenario.yaml"),
        format!("ruleset: ../bout\n{text}"),
    )
    .unwrap();
    dir
}

const IN_A_FIGHT: &str = "\
fight:
  sides:
    Guild: { Vera: veteran }
    Recruits: { Ike: {}, Jo: { hp: 3 } }
";

#[test]
fn a_scenario_builds_a_fight_and_tests_one_turn_alone() {
    // Vera's turn: she picks Jo (the second enemy), 9 + 3 = 12 hits, 4 damage.
    let dir = scratch_scenario(&format!(
        "run: take_turn\n{IN_A_FIGHT}args:\n  me: Vera\ndice: [9, 4]\ndecisions: {{ target: [1] }}\nexpect:\n  state:\n    me: {{ hp: 10 }}\n    Jo: {{ hp: -1 }}\n    Ike: {{ hp: 6 }}\n"
    ));
    let (code, out, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    // Just past it: a miss (6 + 3 = 9 < 10) leaves Jo at 3, and the test says so.
    let text = std::fs::read_to_string(dir.path().join("t/scenario.yaml")).unwrap();
    std::fs::write(
        dir.path().join("t/scenario.yaml"),
        text.replace("dice: [9, 4]", "dice: [6]"),
    )
    .unwrap();
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("state.Jo.hp: expected -1, got 3"), "{out}");
}

#[test]
fn a_hook_procedure_is_tested_alone_and_update_records_the_fighter() {
    // `on start = roll_initiative`: Vera rolls 4, + skill 3.
    let dir = scratch_scenario(&format!(
        "run: roll_initiative\n{IN_A_FIGHT}args:\n  c: Vera\ndice: [4]\n"
    ));
    let (code, out, _) = test_in(dir.path(), &["--update"]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(dir.path().join("t/scenario.yaml")).unwrap();
    assert!(
        text.ends_with("expect:\n  state:\n    c: { initiative: 7 }\n"),
        "{text}"
    );
    let (code, out, _) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn mistakes_with_fighters_in_a_scenario_are_diagnostics() {
    for (text, code, message) in [
        (
            "run: roll_initiative\nargs:\n  c: Vera\ndice: [4]\n".to_string(),
            "E0401",
            "`c` is a fighter: the procedure runs inside a fight",
        ),
        (
            format!("run: roll_initiative\n{IN_A_FIGHT}args:\n  c: Vero\ndice: [4]\n"),
            "E0306",
            "the fight has no fighter named `Vero`",
        ),
        (
            format!("run: roll_initiative\n{IN_A_FIGHT}dice: [4]\n"),
            "E0401",
            "no value for parameter `c`",
        ),
        // A procedure that takes no fighter but reads the fight (`round()`): no fight to
        // read outside one, so it is refused rather than run on made-up values.
        (
            "run: note_round\nargs:\n  c: { initiative: 5 }\n".to_string(),
            "E0401",
            "`note_round` runs inside a fight",
        ),
        (
            format!("run: roll_initiative\n{IN_A_FIGHT}args:\n  c: Vera\nexpect:\n  odds: {{ }}\n"),
            "E0406",
            "exact odds inside a fight are not available yet",
        ),
    ] {
        let dir = scratch_scenario(&text);
        let (exit, out, err) = test_in(dir.path(), &[]);
        assert_eq!(exit, 1, "{text}: {out}");
        assert!(err.contains(code) && err.contains(message), "{text}: {err}");
    }
    // In a fight it runs: before the first round `round()` is 0.
    let dir = scratch_scenario(&format!(
        "run: note_round\n{IN_A_FIGHT}args:\n  c: {{ initiative: 5 }}\nexpect:\n  state:\n    c: {{ initiative: 0 }}\n"
    ));
    let (exit, out, err) = test_in(dir.path(), &[]);
    assert_eq!(exit, 0, "{out}\n{err}");
    // `rulesc analyze` refuses a scenario in a fight rather than run it outside one.
    let dir = scratch_scenario(&format!("run: take_turn\n{IN_A_FIGHT}args:\n  me: Vera\n"));
    let (exit, _, err) = run::rulesc_in(dir.path(), &["analyze", "bout", "t/scenario.yaml"], &[]);
    assert_eq!(exit, 1, "{err}");
    assert!(err.contains("E0512"), "{err}");
}

#[test]
fn a_decision_among_fighters_is_answered_by_name() {
    // Scripted: Vera picks Jo by name (the second enemy); one face more would be unrolled.
    let sides =
        "sides:\n  Guild: { Vera: veteran }\n  Recruits: { Ike: {}, Jo: { hp: 3 } }\nrounds: 1\n";
    // Vera 6 + 3 = 9, Ike 2, Jo 1; Vera hits Jo (12 + 3) for 4: Jo is out; Ike misses.
    let dir = scratch(&format!(
        "{sides}dice: [6, 2, 1, 12, 4, 3]\ndecisions: {{ target: [Jo, Vera] }}\nexpect:\n  out: [Jo]\n  turns: [Vera, Ike]\n"
    ));
    let (code, out, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    // A name that is not among the options when asked: Jo is out by Ike's turn.
    let dir = scratch(&format!(
        "{sides}dice: [6, 2, 1, 12, 4, 3]\ndecisions: {{ target: [Jo, Jo] }}\nexpect:\n  out: [Jo]\n"
    ));
    let (code, _, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("answer `Jo` is not one of the 1 options `target` offered")
            && err.contains("the options were: Vera"),
        "{err}"
    );
    // A name no combatant has is refused when the file is read.
    let dir = scratch(&format!(
        "{sides}dice: [6]\ndecisions: {{ target: [Joe] }}\nexpect:\n  out: [Jo]\n"
    ));
    let (code, _, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("E0404") && err.contains("no combatant is named `Joe`"),
        "{err}"
    );
}

#[test]
fn simulate_answers_a_decision_among_fighters_by_name() {
    // Everyone always targets Jo while Jo stands (hp 1: the first hit puts Jo out); then
    // the default (`first`) answers. Jo is out in every run Vera hits first.
    let dir = scratch(
        "sides:\n  Guild: { Vera: { hp: 50, skill: 20 } }\n  Recruits: { Ike: { hp: 50 }, Jo: { hp: 1 } }\nrounds: 1\ndecisions: { default: first, target: Jo }\nreport:\n  Jo out: { out: [Jo] }\n  Ike hurt: { out: [Ike] }\nexpect:\n  runs: 200\n  tolerance: 0%\n  report: { Jo out: 100%, Ike hurt: 0% }\n",
    );
    let (code, out, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
}

/// A duel whose turn asks a yes-or-no decision and an enum's: `lunge` (a hit takes 3,
/// else 1) and `guard` (`High` keeps 1 hp off the next hit taken).
const ASKING_RULESET: &str = "\
ruleset:
  name: asking
enums:
  Guard: [Low, High]
types:
  Fencer:
    hp: { type: int, default: 6 }
    guard: { type: Guard, default: Low }
";

const ASKING_RULES: &str = "\
procedure take_turn(me: fighter) {
  let lunge = decide lunge: bool
  me.guard = decide guard: Guard
  let foe = decide target from enemies(me)
  let hit = if lunge then 3 else 1
  foe.hp -= if foe.guard == High then hit - 1 else hit
}

fight of Fencer {
  order(c) = [c.hp]
  ties together
  out(c) = c.hp <= 0
  on turn = take_turn
}
";

#[test]
fn answers_by_name_read_the_same_in_fight_files_and_scenarios() {
    // The same words answer `lunge` (yes/true: 3 damage, no/false: 1) and `guard` in
    // a fight file's one-word answers, in its scripted lists and in a scenario. Ike
    // (guard Low) takes 3 or 1 from Vera's one turn; round 1, Vera first (hp 7).
    for (lunge, guard, ike_hp) in [
        ("yes", "High", 3),
        ("true", "Low", 3),
        ("no", "High", 5),
        ("false", "Low", 5),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("asking")).unwrap();
        std::fs::create_dir_all(dir.path().join("t")).unwrap();
        std::fs::write(dir.path().join("asking/ruleset.yaml"), ASKING_RULESET).unwrap();
        std::fs::write(dir.path().join("asking/fight.rules"), ASKING_RULES).unwrap();
        let sides =
            "ruleset: ../asking\nsides:\n  Guild: { Vera: { hp: 7 } }\n  Recruits: { Ike: {} }\n";
        std::fs::write(
            dir.path().join("t/words.fight.yaml"),
            format!("{sides}rounds: 1\ndecisions: {{ default: first, lunge: {lunge}, guard: {guard} }}\nreport:\n  Ike stands: {{ standing: [Ike] }}\nexpect:\n  runs: 10\n  tolerance: 0%\n  report: {{ Ike stands: 100% }}\n"),
        )
        .unwrap();
        // Scripted: Vera's turn, then Ike's (who lunges back, answered the other way).
        let other = if matches!(lunge, "yes" | "true") {
            "no"
        } else {
            "yes"
        };
        std::fs::write(
            dir.path().join("t/scripted.fight.yaml"),
            format!("{sides}rounds: 1\ndice: []\ndecisions: {{ lunge: [{lunge}, {other}], guard: [{guard}, {guard}], target: [Ike, Vera] }}\nexpect:\n  state:\n    Ike: {{ hp: {ike_hp} }}\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("t/scenario.yaml"),
            format!("ruleset: ../asking\nrun: take_turn\nfight:\n  sides:\n    Guild: {{ Vera: {{ hp: 7 }} }}\n    Recruits: {{ Ike: {{}} }}\nargs: {{ me: Vera }}\ndecisions: {{ lunge: [{lunge}], guard: [{guard}], target: [0] }}\nexpect:\n  state:\n    Ike: {{ hp: {ike_hp} }}\n    me: {{ guard: {guard} }}\n"),
        )
        .unwrap();
        let (code, out, err) = test_in(dir.path(), &[]);
        assert_eq!(code, 0, "{lunge} {guard}: {out}\n{err}");
        assert!(out.contains("3 passed"), "{lunge} {guard}: {out}");
    }
}

#[test]
fn a_word_that_answers_no_option_is_refused_alike_in_fight_files_and_scenarios() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("asking")).unwrap();
    std::fs::create_dir_all(dir.path().join("t")).unwrap();
    std::fs::write(dir.path().join("asking/ruleset.yaml"), ASKING_RULESET).unwrap();
    std::fs::write(dir.path().join("asking/fight.rules"), ASKING_RULES).unwrap();
    for (file, text, message) in [
        (
            "t/a.fight.yaml",
            "sides:\n  A: { Vera: {} }\n  B: { Ike: {} }\ndecisions: { lunge: maybe }\nexpect: { runs: 1, tolerance: 1%, wins: { A: 50% } }\n",
            "`maybe` does not answer `lunge`",
        ),
        (
            "t/b.fight.yaml",
            "sides:\n  A: { Vera: {} }\n  B: { Ike: {} }\ndice: []\ndecisions: { guard: [Hihg] }\nexpect: { winner: A }\n",
            "did you mean `High`",
        ),
        (
            "t/c.fight.yaml",
            "sides:\n  A: { Vera: {} }\n  B: { Ike: {} }\ndecisions: { lnuge: first }\nexpect: { runs: 1, tolerance: 1%, wins: { A: 50% } }\n",
            "the rules ask no decision named `lnuge`",
        ),
        (
            "t/d.fight.yaml",
            "sides:\n  A: { Vera: {} }\n  B: { Ike: {} }\ndice: []\ndecisions: { trget: [Ike] }\nexpect: { winner: A }\n",
            "did you mean `target`",
        ),
        (
            "t/scenario.yaml",
            "run: take_turn\nfight:\n  sides:\n    A: { Vera: {} }\n    B: { Ike: {} }\nargs: { me: Vera }\ndecisions: { lunge: [maybe] }\nexpect: { state: { me: { hp: 6 } } }\n",
            "`maybe` does not answer a yes-or-no decision",
        ),
    ] {
        std::fs::write(dir.path().join(file), format!("ruleset: ../asking\n{text}")).unwrap();
        let (code, out, err) = run::rulesc_in(dir.path(), &["test", file], &[]);
        assert_eq!(code, 1, "{file}: {out}\n{err}");
        assert!(err.contains(message), "{file}: {err}");
        std::fs::remove_file(dir.path().join(file)).unwrap();
    }
}

#[test]
fn a_scenario_answers_a_decision_among_fighters_by_name() {
    // As a fight file does: Vera picks Jo by name (the second enemy), 9 + 3 hits for 4.
    let dir = scratch_scenario(&format!(
        "run: take_turn\n{IN_A_FIGHT}args:\n  me: Vera\ndice: [9, 4]\ndecisions: {{ target: [Jo] }}\nexpect:\n  state:\n    Jo: {{ hp: -1 }}\n    Ike: {{ hp: 6 }}\n"
    ));
    let (code, out, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    // A name that is not among the options when asked is an error naming them.
    let dir = scratch_scenario(&format!(
        "run: take_turn\n{IN_A_FIGHT}args:\n  me: Vera\ndice: [9, 4]\ndecisions: {{ target: [Vera] }}\nexpect:\n  state:\n    Jo: {{ hp: -1 }}\n"
    ));
    let (code, _, err) = test_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("E0403")
            && err.contains("answer `Vera` is not one of the 2 options `target` offered")
            && err.contains("the options were: Ike, Jo"),
        "{err}"
    );
}

#[test]
fn analyze_and_trace_answer_a_decision_among_a_list_by_name() {
    // `decide stance from [Low, High]` answered `High` by name: a d4 is rolled.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("asking")).unwrap();
    std::fs::write(dir.path().join("asking/ruleset.yaml"), ASKING_RULESET).unwrap();
    std::fs::write(
        dir.path().join("asking/parry.rules"),
        "procedure parry() -> int {\n  let g = decide stance from [Low, High]\n  if g == High {\n    return roll d4\n  }\n  return 0\n}\n",
    )
    .unwrap();
    for (answer, odds) in [("High", "1/4"), ("Low", "1/1"), ("1", "1/4"), ("Hihg", "")] {
        std::fs::write(
            dir.path().join("s.yaml"),
            format!("run: parry\nargs: {{}}\ndecisions: {{ stance: [{answer}] }}\n"),
        )
        .unwrap();
        let (code, out, err) = run::rulesc_in(dir.path(), &["analyze", "asking", "s.yaml"], &[]);
        if odds.is_empty() {
            assert_eq!(code, 1, "{answer}: {out}");
            assert!(
                err.contains("answer `Hihg` is not one of the 2 options `stance` offered")
                    && err.contains("the options were: Low, High"),
                "{answer}: {err}"
            );
            let (code, _, err) =
                run::rulesc_in(dir.path(), &["trace", "asking", "s.yaml", "--strict"], &[]);
            assert_eq!(code, 1, "{err}");
            assert!(
                err.contains("answer `Hihg` is not one of the 2 options"),
                "{err}"
            );
            continue;
        }
        assert_eq!(code, 0, "{answer}: {err}");
        // High (by name or index): 1 to 4, a quarter each; Low: 0 always.
        let rows: Vec<&str> = out.lines().skip(1).collect();
        let want = if odds == "1/1" { 1 } else { 4 };
        assert_eq!(rows.len(), want, "{answer}: {out}");
        assert!(
            rows.iter().all(|r| r.contains(&format!(" {odds} "))),
            "{answer}: {out}"
        );
    }
}
