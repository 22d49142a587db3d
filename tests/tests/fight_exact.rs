//! `rulesc analyze <ruleset> <fight.yaml>` (`rulesc::analyze::fight`) on fights small
//! enough to work out by hand (`fixtures/fights/two_hits`), and stopped by its limits.
//! The duel's odds against the hand-written oracle are in `duel_odds.rs`.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rulesc::analyze::fight::{self, FightOdds};
use rulesc::analyze::{report, Limits, Stop};
use std::path::{Path, PathBuf};

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fights")
        .join(name)
}

/// The exact odds of fight file `file` of the two_hits fixture.
fn two_hits(file: &str) -> FightOdds {
    let dir = fixture("two_hits");
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let file = match rulesc::simulate::read(&p, &dir.join(file)) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    fight::odds(&p, &file, &Limits::default()).expect("two_hits declares a fight")
}

/// Ann acts first (speed 1) and hits on a d2's 2, 1/2 a turn; Bob has 2 hp and does no
/// damage. Bob falls at Ann's second hit, so the fight ends in round r (r >= 2) when her
/// second hit comes in round r: r - 1 ways to place the first hit before it, each of
/// chance 1/2^r: (r - 1)/2^r. Round 2: 1/4; round 3: 2/8 = 1/4.
/// - Limit 2: Red wins 1/4, all of it in the last round allowed; the rest, 3/4, is
///   undecided after round 2, so every fight lasts 2 rounds.
/// - Limit 3: the fights decided in round 3, one round past the limit of 2 (1/4), are
///   won now: Red 1/2, undecided 1/2; rounds: 2 for 1/4, 3 for the other 3/4 (won in
///   round 3, 1/4, or undecided, 1/2).
///
/// Bob never wins, no fight is a draw; the file's group (Red wins in round 2) is 1/4
/// under both limits.
#[test]
fn a_fight_decided_in_the_last_round_and_one_round_past_the_limit() {
    let cases = [
        // file, Red wins, undecided, rounds 2 and 3
        (
            "limit2.yaml",
            ratio(1, 4),
            ratio(3, 4),
            [ratio(1, 1), ratio(0, 1)],
        ),
        (
            "limit3.yaml",
            ratio(1, 2),
            ratio(1, 2),
            [ratio(1, 4), ratio(3, 4)],
        ),
    ];
    for (file, red, undecided, rounds) in cases {
        let odds = two_hits(file);
        assert_eq!(odds.stop, None, "{file}");
        assert!(odds.unexplored.is_zero(), "{file}");
        assert_eq!(odds.wins[0], red, "{file}: Red wins");
        assert!(odds.wins[1].is_zero(), "{file}: Blue wins");
        assert!(odds.draw.is_zero(), "{file}: draw");
        assert_eq!(odds.undecided, undecided, "{file}: undecided");
        let limit = odds.rounds.len() - 1;
        assert!(odds.rounds[..2].iter().all(Zero::is_zero), "{file}");
        assert_eq!(odds.rounds[2], rounds[0], "{file}: 2 rounds");
        if limit >= 3 {
            assert_eq!(odds.rounds[3], rounds[1], "{file}: 3 rounds");
        }
        assert_eq!(odds.groups, vec![ratio(1, 4)], "{file}: the report group");
        assert_eq!(odds.total(), ratio(1, 1), "{file}");
    }
}

/// A decision the fight file answers `random` is a branch over its options, each as
/// likely, not the answer of one seeded stream: Ann (a hit on a d2's 2) picks Bob or Cid
/// (1 hp each) at random, so each falls in the one round with 1/2 * 1/2 = 1/4 (with one
/// seeded answer it would be 1/2 for one of them and 0 for the other). No one is felled
/// twice in one round: the fight is undecided after it.
#[test]
fn a_random_answer_branches_over_every_option() {
    let odds = two_hits("random_target.yaml");
    assert_eq!(odds.groups, vec![ratio(1, 4), ratio(1, 4)]);
    assert_eq!(odds.undecided, ratio(1, 1));
    assert_eq!(odds.rounds[1], ratio(1, 1));
}

/// The views: how the fights end, the rounds they last (with at least, at most and the
/// mean) and the report groups, as text and as `--format json`, exact fractions included.
#[test]
fn the_reports_show_the_ends_the_rounds_and_the_groups() {
    let dir = fixture("two_hits");
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let (reports, warnings, _) = rulesc::analyze::reports(
        &p,
        &dir.join("limit3.yaml"),
        &Limits::default(),
        &Default::default(),
    )
    .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    assert!(warnings.items.is_empty());
    let text = report::render(&reports, None, false, report::Style::Text);
    for line in [
        "   50.0000%             1/2  Red wins",
        "   50.0000%             1/2  undecided",
        "  2              25.0000%  100.0000%   25.0000%  1/4",
        "  3              75.0000%   75.0000%  100.0000%  3/4",
        "  mean 2.7500 (11/4), standard deviation 0.4330",
        "  Bob falls in round 2   25.0000%  1/4",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "no line `{line}` in:\n{text}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&report::render(&reports, None, false, report::Style::Json)).unwrap();
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["groups"][0]["group"], "Red wins");
    assert_eq!(results[0]["groups"][0]["probability"], "1/2");
    assert_eq!(results[0]["groups"][0]["value"]["winner"], "Red");
    assert_eq!(results[1]["by"], "rounds");
    assert_eq!(results[1]["mean"], "11/4");
    assert_eq!(results[2]["groups"][0]["probability"], "1/4");
    // The JSON is analyze's: it follows `schemas/analyze.schema.json`.
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/analyze.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema).unwrap()).unwrap();
    let validator = jsonschema::draft7::new(&schema).expect("a valid draft-07 schema");
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// A fight larger than `--max-states` stops there: what it reached is exact, the rest is
/// unexplored (everything still adds up to one), and the warning names the limit and the
/// unexplored share. 200: the states held pass it in the duel's first rounds; 30: one
/// step passes it, the round's start (36 paths of initiative, each a fight held until
/// the step is done).
#[test]
fn the_state_limit_stops_a_large_fight_and_reports_the_unexplored_mass() {
    for max_states in [200, 30] {
        let (r, w) = duel_stopped(&Limits {
            max_states,
            ..Limits::default()
        });
        assert!(
            w.message.contains(&format!("{max_states} states"))
                && w.message.contains("% of the fights unexplored"),
            "{}",
            w.message
        );
        // What to raise, and how to shape the fight to fit.
        let help = w.help.as_deref().unwrap_or("");
        assert!(
            help.contains("raise --max-states") && help.contains("reset at the round's end"),
            "{help}"
        );
        assert_eq!(r.stop, Some(Stop::States));
        assert!(
            r.unexplored.to_f64().unwrap() > 0.5,
            "the limit is reached early"
        );
    }
}

/// A fight a rule error stops is counted apart, by where and what, never as a win: here
/// every hit takes 3 from an `int(0..5)` field of 2, which leaves its range. Ann (first)
/// hits on a d2's 2: 1/2; else Bob strikes the same way: 1/2 * 1/2 = 1/4. So 3/4 of the
/// fights stop at a rule error in round 1; the other 1/4 are undecided (one round).
#[test]
fn a_rule_error_is_an_end_of_its_own() {
    let dir = std::env::temp_dir().join(format!("fight_exact_{}", std::process::id()));
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(
        rules.join("ruleset.yaml"),
        "ruleset:\n  name: overkill\ntypes:\n  Fencer:\n    hp: { type: int(0..5), default: 2 }\n    speed: { type: int, default: 0 }\n",
    )
    .unwrap();
    std::fs::write(
        rules.join("fight.rules"),
        "procedure strike(me: fighter) {\n  let foe = decide target from enemies(me)\n  let hit = roll d2\n  if hit == 2 {\n    foe.hp -= 3\n  }\n}\n\nfight of Fencer {\n  order(c) = [c.speed]\n  out(c) = c.hp <= 0\n  on turn = strike\n}\n",
    )
    .unwrap();
    let fight = dir.join("fight.yaml");
    std::fs::write(
        &fight,
        "title: overkill\nrounds: 1\nsides:\n  Red:\n    Ann: { speed: 1 }\n  Blue:\n    Bob: {}\ndecisions:\n  target: first\n",
    )
    .unwrap();
    let (p, diags, _) = rulesc::compile_dir(&rules);
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let file = match rulesc::simulate::read(&p, &fight) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    let _ = std::fs::remove_dir_all(&dir);
    let odds = fight::odds(&p, &file, &Limits::default()).expect("a fight");
    let [(error, chance)] = odds.errors.as_slice() else {
        panic!("{:?}", odds.errors)
    };
    assert!(error.contains("fight.rules:5"), "{error}");
    assert_eq!(*chance, ratio(3, 4));
    assert_eq!(odds.undecided, ratio(1, 4));
    assert!(odds.wins.iter().all(Zero::is_zero));
    assert_eq!(odds.total(), ratio(1, 1));
}

/// `--svg` of a fight file: its ends, then the rounds, a bar per number of rounds up to
/// 40 of them and a bar per span past that (`long.yaml`: rounds 2 to 100 lasted, 99
/// numbers, so spans of 3: `2-4`, ..., `98-100`, 33 bars), each an exact chance.
#[test]
fn the_chart_draws_the_ends_and_the_rounds_in_spans_past_forty() {
    let dir = fixture("two_hits");
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    for (file, bars, label) in [
        ("limit3.yaml", 4 + 2, ">3</text>"),
        ("long.yaml", 4 + 33, ">98-100</text>"),
    ] {
        let (reports, _, _) =
            rulesc::analyze::reports(&p, &dir.join(file), &Limits::default(), &Default::default())
                .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
        let svg = fight::svg(&reports).expect("a fight's reports");
        // The background is a rect too.
        assert_eq!(svg.matches("<rect ").count(), 1 + bars, "{file}");
        assert!(
            svg.contains(label) && svg.contains(">rounds played</text>"),
            "{file}"
        );
    }
}

/// The views of a scenario's results do not shape a fight's odds: each is `E0514`, never
/// quietly ignored.
#[test]
fn a_scenarios_views_of_a_fight_file_are_refused() {
    use rulesc::analyze::View;
    let dir = fixture("two_hits");
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let sweep = rulesc::analyze::cases::parse_sweep("Ann.speed=0..1").unwrap();
    let views = [
        (
            "--by",
            View {
                by: Some("rounds".into()),
                ..View::default()
            },
        ),
        (
            "--best",
            View {
                best: Some("rounds > 2".into()),
                ..View::default()
            },
        ),
        (
            "--decide",
            View {
                decide: vec!["target".into()],
                ..View::default()
            },
        ),
        (
            "--sweep",
            View {
                sweeps: vec![sweep],
                ..View::default()
            },
        ),
        (
            "--samples",
            View {
                samples: Some(10),
                ..View::default()
            },
        ),
    ];
    for (flag, view) in views {
        let Err((d, _)) =
            rulesc::analyze::reports(&p, &dir.join("limit3.yaml"), &Limits::default(), &view)
        else {
            panic!("{flag}: analyzed")
        };
        assert_eq!(d.items.len(), 1, "{flag}");
        assert_eq!(d.items[0].code, "E0514", "{flag}");
        assert!(
            d.items[0].message.starts_with(&format!("`{flag}`")),
            "{flag}: {}",
            d.items[0].message
        );
    }
}

/// `--max-memory` stops a fight too, its warning naming the limit and the unexplored
/// share: the duel's states (two duelists, a timer now and then) take about a kibibyte
/// each, so 1 MiB holds about a thousand, which its first rounds pass.
#[test]
fn the_memory_limit_stops_a_large_fight() {
    let (r, w) = duel_stopped(&Limits {
        max_memory: 1,
        ..Limits::default()
    });
    assert!(
        w.message.contains("1 MiB") && w.message.contains("unexplored"),
        "{}",
        w.message
    );
    assert_eq!(r.stop, Some(Stop::Memory));
}

/// The duel fixture analyzed under `limits`, which stop it: its report, whose rows and
/// unexplored mass still make the whole (nothing lost when a limit stops it), and the
/// one warning (W0104) it stops with.
fn duel_stopped(limits: &Limits) -> (report::Report, rulesc::diag::Diagnostic) {
    let dir = fixture("duel");
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let (mut reports, warnings, _) =
        rulesc::analyze::reports(&p, &dir.join("fight.yaml"), limits, &Default::default())
            .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    let [w] = warnings.items.as_slice() else {
        panic!("{:?}", warnings.items)
    };
    assert_eq!(w.code, "W0104");
    let r = reports.remove(0);
    let total = r
        .rows
        .iter()
        .fold(r.unexplored.clone(), |a, row| a + &row.prob);
    assert_eq!(total, ratio(1, 1));
    (r, w.clone())
}

/// A fighter out comes back (`fixtures/fights/revival`: a medic's turn gives every
/// fighter out 1 hp): its initiative, left from a round it was out at the start of, is
/// compared with fresh ones, so `analyze` does not merge on the initiatives' ranks there.
/// Its odds are those of every path of the whole fight walked one by one (two rounds: a
/// d3 of initiative each and a d2 a blow), to the last digit. (Merged on the ranks
/// regardless, checked once by hand, not committed: Red's win came out 229/1296, not
/// 43/243: Ann, out at the second round's start with an initiative of 1 or of 2 that rank
/// alike, then acts before Bob's fresh 1 or not.)
#[test]
fn a_fighter_coming_back_is_analyzed_on_whole_states_to_every_paths_odds() {
    let dir = fixture("revival");
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let file = match rulesc::simulate::read(&p, &dir.join("fight.yaml")) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    let got = fight::odds(&p, &file, &Limits::default()).expect("a fight");
    assert_eq!(got.stop, None);
    assert!(!got.ranked, "a fighter came back: merged on whole states");
    // Every path of the whole fight, one run each (at most 5 dice a round).
    let limits = Limits {
        max_paths: 10_000_000,
        max_dice: Some(15),
        ..Limits::default()
    };
    let walk = rulesc::analyze::paths::walk(&limits, |dice| {
        let mut rules = rulesc::fight::EvalRules::new(&p).expect("a fight");
        let mut env =
            rulesc_runtime::Env::new(dice, file.policy_for(0, 0), rulesc_runtime::NoTrace);
        let mut f = file.fight();
        let end = f.run(&mut rules, &mut env, file.rounds);
        let end = match end {
            rulesc_runtime::FightEnd::Won(s) => i64::from(s.0),
            rulesc_runtime::FightEnd::Draw => -1,
            rulesc_runtime::FightEnd::Undecided => -2,
            rulesc_runtime::FightEnd::RuleError => -3,
        };
        (end, f.round())
    });
    assert_eq!(walk.stop, None);
    assert!(walk.unexplored.is_zero());
    let won = |side: i64| -> BigRational {
        walk.outcomes
            .iter()
            .filter(|((e, _), _)| *e == side)
            .map(|(_, p)| p.clone())
            .sum()
    };
    assert_eq!(got.wins[0], won(0), "Blue wins");
    assert_eq!(got.wins[1], won(1), "Red wins");
    assert_eq!(got.draw, won(-1), "draw");
    assert_eq!(got.undecided, won(-2), "undecided");
    assert!(won(-3).is_zero() && got.errors.is_empty());
    for (r, p) in got.rounds.iter().enumerate() {
        let walked: BigRational = walk
            .outcomes
            .iter()
            .filter(|((_, rounds), _)| *rounds as usize == r)
            .map(|(_, p)| p.clone())
            .sum();
        assert_eq!(*p, walked, "round {r}");
    }
    // Both sides win sometimes: the comeback matters.
    assert!(!got.wins[0].is_zero() && !got.wins[1].is_zero());
}
