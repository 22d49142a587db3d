//! The duel of issue 26 §1 (`fixtures/fights/duel`): the hand-written exact chain
//! (`rulesc_tests::duel_oracle`) checked by hand on a duel small enough to work out, and
//! `rulesc simulate` held to its exact odds.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rulesc::eval::{self, Value};
use rulesc_tests::duel_oracle::{Duel, Duelist, Odds};

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn duel(vigor: [i64; 2], skill: [i64; 2], armor: [i64; 2], rounds: u32) -> Duel {
    Duel {
        duelists: [0, 1].map(|i| Duelist {
            vigor: vigor[i],
            skill: skill[i],
            armor: armor[i],
        }),
        rounds,
    }
}

fn total(odds: &Odds) -> BigRational {
    &odds.wins[0] + &odds.wins[1] + &odds.draw + &odds.undecided
}

#[test]
fn oracle_one_round_of_one_vigor_by_hand() {
    // 1 vigor each, no skill or armor, 1 round: any hit fells its foe. Of the 100 pairs of
    // d10 faces, 55 total 11 or more (a hit: 10 pairs make 11, 9 make 12, ..., 1 makes
    // 20); 5 are doubles under 11 (1-1 to 5-5, a fumble: the fumbler is then hit on 8 or
    // more, 100 - 21 = 79 pairs); 40 are plain misses.
    // Initiative: of 36 pairs of d6, 15 put Ada first, 15 Bram, 6 tie.
    // - Ada first: she wins on a hit, 5500/10000. Else Bram strikes: after her fumble
    //   (5/100) he needs 8 (79/100), after a plain miss (40/100) 11 (55/100): he wins
    //   395/10000 + 2200/10000 = 2595/10000; both stand in 10000 - 5500 - 2595 = 1905.
    // - Bram first: the same with the names swapped.
    // - A tie: both strike at once from the round's start (no one exposed): one hits and
    //   the other misses, 55 * 45 = 2475 each way; both hit, a draw, 55 * 55 = 3025; both
    //   miss, 45 * 45 = 2025 (out of 10000).
    // Out of 36 * 10000 = 360000:
    //   Ada wins  15 * 5500 + 15 * 2595 + 6 * 2475 = 82500 + 38925 + 14850 = 136275
    //   draw      6 * 3025                                                 =  18150
    //   undecided 15 * 1905 * 2 + 6 * 2025         = 57150 + 12150         =  69300
    // A bleeding cut (18 or more) needs a hit, which has already felled the foe.
    let odds = duel([1, 1], [0, 0], [0, 0], 1).odds();
    assert_eq!(odds.wins[0], ratio(136_275, 360_000));
    assert_eq!(odds.wins[1], ratio(136_275, 360_000));
    assert_eq!(odds.draw, ratio(18_150, 360_000));
    assert_eq!(odds.undecided, ratio(69_300, 360_000));
    // Every fight lasted the one round.
    assert_eq!(odds.rounds[1], ratio(1, 1));
    assert_eq!(total(&odds), ratio(1, 1));
}

#[test]
fn oracle_skill_and_armor_by_hand() {
    // 1 vigor each, 1 round, Ada with skill 1: she hits on a natural 10 or more, 55 + 9 =
    // 64 pairs; her doubles under 10 (1-1 to 4-4) are her fumbles, 4; 32 plain misses;
    // against an exposed Bram she needs a natural 7, 100 - 15 = 85 pairs. Bram's armor
    // changes nothing (a blow does at least 1). Bram as before: 55 hits, 5 fumbles, 40
    // misses; after Ada's fumble he needs 8, 79 pairs.
    // - Ada first: she wins 6400; Bram 4 * 79 + 32 * 55 = 316 + 1760 = 2076; 1524 stand.
    // - Bram first: he wins 5500; Ada 5 * 85 + 40 * 64 = 425 + 2560 = 2985; 1515 stand.
    // - A tie: Ada alone hits 64 * 45 = 2880, Bram alone 36 * 55 = 1980, both 64 * 55 = 3520,
    //   neither 36 * 45 = 1620.
    // Out of 360000:
    //   Ada wins  15 * 6400 + 15 * 2985 + 6 * 2880 = 96000 + 44775 + 17280 = 158055
    //   Bram wins 15 * 2076 + 15 * 5500 + 6 * 1980 = 31140 + 82500 + 11880 = 125520
    //   draw      6 * 3520                                                 =  21120
    //   undecided 15 * 1524 + 15 * 1515 + 6 * 1620 = 22860 + 22725 +  9720 =  55305
    let odds = duel([1, 1], [1, 0], [0, 1], 1).odds();
    assert_eq!(odds.wins[0], ratio(158_055, 360_000));
    assert_eq!(odds.wins[1], ratio(125_520, 360_000));
    assert_eq!(odds.draw, ratio(21_120, 360_000));
    assert_eq!(odds.undecided, ratio(55_305, 360_000));
}

#[test]
fn oracle_with_no_rounds_leaves_every_fight_undecided() {
    let odds = duel([10, 10], [0, 0], [0, 0], 0).odds();
    assert_eq!(odds.undecided, ratio(1, 1));
    assert_eq!(odds.rounds[0], ratio(1, 1));
    assert_eq!(odds.states, 1);
}

#[test]
fn oracle_of_the_fixture_is_a_whole_distribution() {
    // Timed for the reader only (`--nocapture`); nothing depends on it.
    let start = std::time::Instant::now();
    let odds = Duel::fixture().odds();
    let took = start.elapsed();
    assert_eq!(total(&odds), ratio(1, 1));
    let rounds: BigRational = odds.rounds.iter().sum();
    assert_eq!(rounds, ratio(1, 1));
    // No one falls in round 1 or 2: a duelist loses at most 4 vigor a round (one blow of 3
    // from its foe, and 1 bleeding at the round's end), and 10 takes three rounds.
    assert!(odds.rounds[1].is_zero() && odds.rounds[2].is_zero());
    assert!(odds.rounds[3] > BigRational::zero());
    // Twenty rounds are not always enough: a thin but exact share stays undecided.
    assert!(odds.undecided > BigRational::zero());
    eprintln!(
        "duel oracle: Red {} Blue {} draw {} undecided {:e}, {} states, {:.2} s",
        odds.wins[0].to_f64().unwrap(),
        odds.wins[1].to_f64().unwrap(),
        odds.draw.to_f64().unwrap(),
        odds.undecided.to_f64().unwrap(),
        odds.states,
        took.as_secs_f64()
    );
}

/// The seed and runs of the simulation held to the oracle: 20,000 runs give intervals
/// about ±0.7 points wide on the wins and ±0.2 on the draws.
const SEED: u64 = 26;
const RUNS: u64 = 20_000;

/// `rulesc simulate` on `fixtures/fights/duel/fight.yaml`: each side's win rate, the draws,
/// the undecided fights and the file's report group (over in 5 rounds) have 95% intervals
/// that contain the oracle's exact figures,
/// and the mean number of rounds is within four standard errors of the exact mean.
///
/// This fails if the rules and the oracle part: for instance, with `ties together`
/// instead of `ties at once` in `duel.rules` (the second of two tied duelists strikes
/// after the first's blow has landed, and not at all once felled), or with a critical that does
/// not stagger. Checked once by hand on the oracle (not committed): ties together puts
/// Red's exact win rate at 0.3843, a critical that does not stagger at 0.3550, both
/// outside the simulated [0.3695, 0.3829]. What it cannot see is a rule whose effect is
/// smaller than the intervals: an oracle in which a tied duelist no longer sees its foe
/// exposed by last round's fumble still passes.
#[test]
fn simulate_agrees_with_the_exact_odds_of_the_duel() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/duel");
    let (p, diags, _) = rulesc::compile_dir(&std::path::Path::new(root).join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let file = match rulesc::simulate::read(&p, &std::path::Path::new(root).join("fight.yaml")) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    // The oracle's duel is the file's.
    let duel = Duel::fixture();
    assert_eq!(file.rounds, duel.rounds);
    let fighters: Vec<&(String, rulesc::ir::Const)> =
        file.sides.iter().flat_map(|(_, members)| members).collect();
    assert_eq!(fighters.len(), 2);
    for ((name, value), d) in fighters.iter().zip(&duel.duelists) {
        let v = Value::from_const(value);
        for (field, want) in [("vigor", d.vigor), ("skill", d.skill), ("armor", d.armor)] {
            assert_eq!(
                eval::field(&p, "Duelist", &v, field),
                Some(Value::Int(want)),
                "{name}.{field}"
            );
        }
    }

    let exact = duel.odds();
    // The file's one report group: `rounds: "..5"`.
    assert_eq!(file.groups.len(), 1);
    assert_eq!(file.groups[0].rounds, Some((0, 5)));
    let over_in_5: BigRational = exact.rounds[..=5].iter().sum();
    let summary = rulesc::simulate::simulate(&p, &file, RUNS, SEED);
    assert_eq!(summary.runs, RUNS);
    assert!(summary.errors.is_empty(), "{:?}", summary.errors);
    let rows = [
        ("Red wins", summary.wins[0], &exact.wins[0]),
        ("Blue wins", summary.wins[1], &exact.wins[1]),
        ("draw", summary.draws, &exact.draw),
        ("undecided", summary.undecided, &exact.undecided),
        ("over in 5 rounds", summary.groups[0], &over_in_5),
    ];
    for (what, k, p) in rows {
        let (lo, hi) = rulesc::simulate::wilson(k, RUNS);
        let p = p.to_f64().unwrap();
        assert!(
            lo <= p && p <= hi,
            "{what}: exact {p:.6} outside [{lo:.6}, {hi:.6}] ({k} of {RUNS})"
        );
    }

    let mean = exact.mean_rounds().to_f64().unwrap();
    let variance: f64 = exact
        .rounds
        .iter()
        .enumerate()
        .map(|(r, p)| p.to_f64().unwrap() * (r as f64 - mean).powi(2))
        .sum();
    let ran: u64 = summary.rounds.iter().sum();
    assert_eq!(ran, RUNS);
    let simulated = summary
        .rounds
        .iter()
        .enumerate()
        .map(|(r, &n)| r as f64 * n as f64)
        .sum::<f64>()
        / RUNS as f64;
    let error = (variance / RUNS as f64).sqrt();
    assert!(
        (simulated - mean).abs() < 4.0 * error,
        "mean rounds: simulated {simulated:.4}, exact {mean:.4} (standard error {error:.4})"
    );
}

/// The duel's rules two against two (`fight_2v2.yaml`, targets at random, tie groups of up
/// to four striking at once): the fight the exact run must also finish (issue 26 §1, in
/// under 10 s). No oracle here; it runs to its ends without a rule error.
#[test]
fn two_against_two_runs_to_its_end_without_a_rule_error() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/duel");
    let (p, diags, _) = rulesc::compile_dir(&std::path::Path::new(root).join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let path = std::path::Path::new(root).join("fight_2v2.yaml");
    let file = match rulesc::simulate::read(&p, &path) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    assert_eq!(file.sides.iter().map(|(_, m)| m.len()).sum::<usize>(), 4);
    let runs = 500;
    let summary = rulesc::simulate::simulate(&p, &file, runs, 2);
    assert!(summary.errors.is_empty(), "{:?}", summary.errors);
    let ended: u64 = summary.wins.iter().sum::<u64>() + summary.draws + summary.undecided;
    assert_eq!(ended, runs);
    // Either side can win.
    assert!(summary.wins.iter().all(|&w| w > 0), "{:?}", summary.wins);
}

/// The readings of the rules the oracle makes where the simulation is too coarse to tell
/// (`Duel::at_once`, `Duel::bleed`), held on the engine by scripted fights
/// (`fixtures/fights/duel/tests`): a duelist exposed by last round's fumble is still
/// exposed to a blow struck at once with its next turn; a critical at once with the
/// turn a stagger takes does not stagger again; two bleeding out at one round's end draw.
/// (An oracle that read the first differently still passes the simulate test above.)
#[test]
fn scripted_duels_hold_the_engine_to_the_oracles_reading_of_the_rules() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/duel/tests");
    let report = rulesc::testing::run(&[dir.into()], &Default::default());
    assert_eq!(report.cases.len(), 3);
    assert!(report.passed(), "{}", report.summary());
}

/// `rulesc analyze` on `fixtures/fights/duel/fight.yaml`: the exact odds, played by the
/// fight engine with the interpreter's rules on every path of the dice, are the oracle's
/// to the last digit: each side's win, the draw, the undecided fights, every round's
/// share and the report group (over in 5 rounds). The run's time and state count are
/// printed beside the oracle's (`--nocapture`; nothing depends on the time).
#[test]
#[ignore = "about a minute of processor time in a release build (366,273 states stepped, 26,024 run on the engine, docs/design/fight-odds.md), far longer in debug; the bench fight_odds runs it beside the oracle; run it with --release --ignored --nocapture"]
fn analyze_gives_the_oracles_exact_odds_of_the_duel() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/duel");
    let (p, diags, _) = rulesc::compile_dir(&std::path::Path::new(root).join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let file = match rulesc::simulate::read(&p, &std::path::Path::new(root).join("fight.yaml")) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    let limits = rulesc::analyze::Limits {
        max_states: 100_000_000,
        max_memory: 1_048_576,
        max_seconds: 86_400,
        ..limits()
    };
    let start = std::time::Instant::now();
    let got = rulesc::analyze::fight::odds(&p, &file, &limits).expect("the duel declares a fight");
    let took = start.elapsed();
    let exact = Duel::fixture().odds();
    assert_same_odds(&got, &exact);
    let over_in_5: BigRational = exact.rounds[..=5].iter().sum();
    assert_eq!(got.groups, vec![over_in_5]);
    eprintln!(
        "duel analyze: {} states ({} run on the engine, at most {} at once), {:.2} s; the oracle: {} states",
        got.states,
        got.stepped,
        got.peak,
        took.as_secs_f64(),
        exact.states
    );
}

/// The duel fixture's rules, the fight written with `vigor` each and `rounds` as the
/// limit (Ada skill 1, Bram armor 1, as `fight.yaml`), read from a fresh folder.
fn duel_file(vigor: i64, rounds: u32) -> (rulesc::ir::Program, rulesc::simulate::FightFile) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fights/duel");
    let (p, diags, _) = rulesc::compile_dir(&std::path::Path::new(root).join("rules"));
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let dir =
        std::env::temp_dir().join(format!("duel_odds_{}_{vigor}_{rounds}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fight.yaml");
    let text = format!(
        "title: Ada against Bram\nrounds: {rounds}\nsides:\n  Red:\n    Ada: {{ skill: 1, vigor: {vigor} }}\n  Blue:\n    Bram: {{ armor: 1, vigor: {vigor} }}\ndecisions:\n  target: first\n"
    );
    std::fs::write(&path, text).unwrap();
    let file = match rulesc::simulate::read(&p, &path) {
        Ok((f, _)) => f,
        Err((d, _)) => panic!("{:?}", d.items),
    };
    let _ = std::fs::remove_dir_all(&dir);
    (p, file)
}

/// `rulesc analyze` on a shorter duel of the same rules (2 vigor each, at most 3 rounds,
/// Ada skill 1 and Bram armor 1 as in the fixture): exactly the oracle's odds, every
/// round's share included. Three rounds reach what crosses a round: an exposure from a
/// fumble lasting into the next round's turn, a stagger taking the next attack, bleeding
/// at each round's end, and the round limit (undecided). What the fixture's run gives
/// too, in a time a debug build can wait for (35 s on the shared machine beside the
/// other tests, most of it exact arithmetic). The initiative, read by the
/// turn order alone and rolled afresh each round, is merged on the order it gives
/// (`ranked`), and states met again in a later round are run once (`stepped`).
#[test]
fn analyze_gives_the_oracles_exact_odds_of_a_short_duel() {
    let (p, file) = duel_file(2, 3);
    let start = std::time::Instant::now();
    let got = rulesc::analyze::fight::odds(&p, &file, &limits()).expect("a fight");
    let took = start.elapsed();
    let mut duel = Duel::fixture();
    duel.rounds = 3;
    duel.duelists.iter_mut().for_each(|d| d.vigor = 2);
    let exact = duel.odds();
    assert_same_odds(&got, &exact);
    assert!(got.ranked, "the initiative merged on its ranks");
    assert!(
        got.stepped < got.states,
        "states met again are not run again"
    );
    eprintln!(
        "short duel analyze: {} states ({} run on the engine, at most {} at once), {:.2} s; the oracle: {} states",
        got.states,
        got.stepped,
        got.peak,
        took.as_secs_f64(),
        exact.states
    );
}

/// The limits of an exact run in a test: an hour, the rest as `rulesc analyze` has them.
fn limits() -> rulesc::analyze::Limits {
    rulesc::analyze::Limits {
        max_seconds: 3_600,
        ..Default::default()
    }
}

/// `got` is `exact` to the last digit: each side's win, the draw, the undecided fights
/// and every round's share, nothing unexplored and no rule error.
fn assert_same_odds(got: &rulesc::analyze::fight::FightOdds, exact: &Odds) {
    assert_eq!(got.stop, None);
    assert!(got.unexplored.is_zero() && !got.cut);
    assert!(got.errors.is_empty(), "{:?}", got.errors);
    assert_eq!(got.wins[0], exact.wins[0], "Red wins");
    assert_eq!(got.wins[1], exact.wins[1], "Blue wins");
    assert_eq!(got.draw, exact.draw, "draw");
    assert_eq!(got.undecided, exact.undecided, "undecided");
    assert_eq!(got.rounds.len(), exact.rounds.len());
    for (r, (g, e)) in got.rounds.iter().zip(&exact.rounds).enumerate() {
        assert_eq!(g, e, "round {r}");
    }
    assert_eq!(got.total(), ratio(1, 1));
}
