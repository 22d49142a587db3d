//! Exact odds from the merged-state engine on small rulesets written here: closed forms
//! (sums, keep-highest pools, exploding dice), numbers past 128 bits, and the program
//! shapes the engine takes apart (loops, branches, matches, calls that change records),
//! each checked against a closed form or against the path walker.

use rulesc::analyze::exact::Prob;
use rulesc::analyze::{distribution, Distribution, EngineKind, Limits};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Compiles `rules` (one `.rules` file, plus `yaml` as a second file) and analyzes
/// `scenario` with `limits`; the outcomes as shown, with their probabilities.
fn odds(
    name: &str,
    yaml: &str,
    rules: &str,
    scenario: &str,
    limits: &Limits,
) -> (BTreeMap<String, Prob>, Distribution) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("odds")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(
        dir.join("rules/ruleset.yaml"),
        format!("ruleset: {{ name: {name} }}\n{yaml}"),
    )
    .unwrap();
    std::fs::write(dir.join("rules/a.rules"), rules).unwrap();
    std::fs::write(dir.join("scenario.yaml"), scenario).unwrap();
    let (p, diags, _) = rulesc::compile_dir(&dir.join("rules"));
    let p = p.unwrap_or_else(|| panic!("{name}: {:?}", diags.items));
    let (s, _) = rulesc::scenario::read(&p, &dir.join("scenario.yaml"))
        .unwrap_or_else(|(d, _)| panic!("{name}: {:?}", d.items));
    let d = distribution(&p, &s, limits, &[]);
    let ret = p.functions[s.function].ret.clone();
    let shown = d
        .outcomes
        .iter()
        .map(|(v, pr)| (rulesc::eval::show_result(&p, v, &ret), pr.clone()))
        .collect();
    (shown, d)
}

fn p(n: u64, d: u64) -> Prob {
    Prob::new(n.into(), d.into())
}

fn merged() -> Limits {
    Limits::default()
}

fn total(d: &Distribution) -> Prob {
    d.outcomes
        .iter()
        .fold(d.unexplored.clone(), |t, (_, x)| t + x)
}

#[test]
fn three_d6_totals_ten_in_27_of_216() {
    let (o, d) = odds(
        "sum",
        "",
        "procedure p() -> int { return roll 3d6 }\n",
        "run: p\n",
        &merged(),
    );
    assert_eq!(o["10"], p(27, 216));
    assert_eq!(o["3"], p(1, 216));
    assert_eq!(o.len(), 16);
    assert_eq!(d.unexplored, p(0, 1));
}

#[test]
fn four_d6_keep_highest_three_is_the_ability_score_distribution() {
    let (o, _) = odds(
        "keep",
        "",
        "procedure p() -> int { return roll 4d6kh3 }\n",
        "run: p\n",
        &merged(),
    );
    let counts = [
        1, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21,
    ];
    for (t, c) in (3..=18).zip(counts) {
        assert_eq!(o[&t.to_string()], p(c, 1296), "total {t}");
    }
}

#[test]
fn twenty_d6_is_exact_without_walking_its_paths() {
    let (o, d) = odds(
        "twenty",
        "",
        "procedure p() -> int { return roll 20d6 }\n",
        "run: p\n",
        &merged(),
    );
    // 20 only with every die a 1; 21 with one die a 2, in 20 ways.
    let den: u64 = 6u64.pow(20);
    assert_eq!(o["20"], p(1, den));
    assert_eq!(o["21"], p(20, den));
    assert_eq!(o["120"], p(1, den));
    assert_eq!(o.len(), 101);
    assert_eq!(total(&d), p(1, 1));
}

#[test]
fn forty_d12_mod_7_is_exact_past_128_bits() {
    let (o, _) = odds(
        "forty",
        "",
        "procedure p() -> int { return roll 40d12 % 7 }\n",
        "run: p\n",
        &merged(),
    );
    // Computed independently with Python's fractions; the denominator is 144 bits.
    let want = Prob::new(
        "2099673668527266357975365078592921040542889"
            .parse()
            .unwrap(),
        "14697715679690864505827555550150426126974976"
            .parse()
            .unwrap(),
    );
    assert_eq!(o["0"], want);
    assert!(want.denom().bits() > 128);
    assert_eq!(o.values().fold(p(0, 1), |a, b| a + b), p(1, 1));
}

#[test]
fn exploding_dice_are_cut_at_the_stated_depth() {
    let limits = Limits {
        explode_depth: 2,
        ..merged()
    };
    let (o, d) = odds(
        "explode",
        "",
        "procedure p() -> int { return roll d6! }\n",
        "run: p\n",
        &limits,
    );
    // Two explosions allowed: 6, 6, then a third 6 would need a third explosion.
    assert_eq!(d.unexplored, p(1, 216));
    assert_eq!(o["13"], p(1, 216));
    assert_eq!(o["5"], p(1, 6));
    assert!(!o.contains_key("6"));
    // At the language's own cap of 100 explosions nothing is cut.
    let all = Limits {
        explode_depth: 100,
        ..merged()
    };
    let (_, d) = odds(
        "explode_all",
        "",
        "procedure p() -> int { return roll d6! }\n",
        "run: p\n",
        &all,
    );
    assert_eq!(d.unexplored, p(0, 1));
    assert_eq!(total(&d), p(1, 1));
}

const SHAPES: &str = "
scales:
  Harm: [Scratch, Wound, Down]
tracks:
  Wounds:
    scale: Harm
    boxes: [{ level: Scratch }, { level: Scratch }, { level: Wound }, { level: Wound }, { level: Down }]
    when_full: escalate
types:
  Fighter:
    hp: int
    wounds: Wounds
tables:
  location:
    die: d6
    value: int
    rows: { \"1-3\": 1, \"4-5\": 2, 6: 3 }
";

/// Loops, branches, a match, calls that roll and calls that change a record.
const SHAPES_RULES: &str = "
outcome Result { Miss, Hit(harm: Harm, where: int, box: int) }

procedure strike(f: Fighter) -> Result {
  let total = 0
  for i in 0..2 {
    total = total + roll d4
  }
  if total < 5 {
    return Miss
  }
  let harm = Scratch
  if total >= 8 {
    harm = Down
  } else if total >= 7 {
    harm = Wound
  }
  f.hp = f.hp - roll d3
  let b = fill f.wounds at harm
  return Hit(harm: harm, where: roll location, box: b)
}

procedure p(f: Fighter) -> int {
  let first = strike(f)
  let score = 0
  match first {
    Miss => score = 0,
    Hit(where) => score = where * 10 + roll d2,
  }
  for k in [1] {
    let again = strike(f)
    match again {
      Hit(box) => score = score + box,
      _ => score = score + 100,
    }
  }
  return score + f.hp
}
";

#[test]
fn loops_branches_matches_and_calls_agree_with_the_path_walker() {
    let scenario = "run: p\nargs:\n  f: { hp: 10 }\n";
    let both = |engine| Limits {
        engine,
        max_dice: Some(30),
        max_paths: 10_000_000,
        ..Limits::default()
    };
    let (walked, w) = odds(
        "shapes_walk",
        SHAPES,
        SHAPES_RULES,
        scenario,
        &both(EngineKind::Paths),
    );
    let (merged, m) = odds(
        "shapes_merge",
        SHAPES,
        SHAPES_RULES,
        scenario,
        &both(EngineKind::Merged),
    );
    assert!(w.stop.is_none());
    assert_eq!(walked, merged);
    assert_eq!(w.unexplored, m.unexplored);
    assert_eq!(total(&m), p(1, 1));
    // The default merged engine (no dice budget) gives the same: nothing explodes.
    let (plain, _) = odds(
        "shapes_default",
        SHAPES,
        SHAPES_RULES,
        scenario,
        &Limits::default(),
    );
    assert_eq!(plain, merged);
}

/// A range whose end a roll sets: the states whose range holds more than `MAX_LOOP`
/// numbers end in the rule error, the others run every turn (the engine takes the loop
/// apart, as its body rolls), up to exactly `MAX_LOOP` numbers.
#[test]
fn a_range_past_max_loop_is_a_rule_error_outcome() {
    let rules = "procedure p(base: int) -> int {
  let total = 0
  for i in 0..base + roll d4 {
    if i == 0 {
      total += roll d2
    }
    total += 10
  }
  return total
}
";
    let scenario = "run: p\nargs: { base: 9998 }\n";
    let odds_of = odds;
    let (odds, m) = odds_of("range", "", rules, scenario, &merged());
    assert!(m.stop.is_none());
    let error = |n: u32| {
        format!("rule error at rules/a.rules:3: the range holds {n} numbers, more than 10000")
    };
    // A d4 of 1 or 2: 9,999 or 10,000 turns, each adding 10, the first also a d2.
    let want: BTreeMap<String, Prob> = [
        ("99991".to_string(), p(1, 8)),
        ("99992".to_string(), p(1, 8)),
        ("100001".to_string(), p(1, 8)),
        ("100002".to_string(), p(1, 8)),
        (error(10_001), p(1, 4)),
        (error(10_002), p(1, 4)),
    ]
    .into();
    assert_eq!(odds, want);
    assert_eq!(total(&m), p(1, 1));
    // The path walker (the interpreter on each path) gives the same.
    let paths = Limits {
        engine: EngineKind::Paths,
        ..Limits::default()
    };
    let (walked, _) = odds_of("range", "", rules, scenario, &paths);
    assert_eq!(walked, want);
}
