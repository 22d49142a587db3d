//! `rulesc analyze`'s views (issue 10 §2-4): groups (`--by`) in scale order with
//! at-least/at-most columns, mean and standard deviation; goals and decisions (`--best`,
//! `--decide`); JSON and CSV; the bar chart (rendered with resvg); sweeps; sampling
//! with intervals; `rulesc diff` on the shipped variants. Figures are checked against
//! closed forms or against the flat listing they group.

use rulesc::analyze::exact::Prob;
use rulesc::analyze::report::{render, Report, Style};
use rulesc::analyze::{cases, reports, Limits, View};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rulesc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn p(n: i64, d: i64) -> Prob {
    Prob::new(n.into(), d.into())
}

/// A ruleset written here (one `.rules` file and `yaml` beside the manifest) and a
/// scenario; their folder.
fn write(name: &str, yaml: &str, rules: &str, scenario: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("odds_views")
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
    dir
}

fn program(dir: &Path) -> rulesc::ir::Program {
    let (p, diags, _) = rulesc::compile_dir(dir);
    p.unwrap_or_else(|| panic!("{}: {:?}", dir.display(), diags.items))
}

fn view(by: Option<&str>) -> View {
    View {
        by: by.map(str::to_string),
        ..View::default()
    }
}

fn analyzed(dir: &Path, v: &View) -> Vec<Report> {
    let p = program(&dir.join("rules"));
    match reports(&p, &dir.join("scenario.yaml"), &Limits::default(), v) {
        Ok((r, _, _)) => r,
        Err((d, _)) => panic!("{:?}", d.items),
    }
}

/// The codes a failing analysis reports.
fn codes(dir: &Path, v: &View) -> Vec<&'static str> {
    let p = program(&dir.join("rules"));
    match reports(&p, &dir.join("scenario.yaml"), &Limits::default(), v) {
        Ok(_) => Vec::new(),
        Err((d, _)) => d.items.iter().map(|d| d.code).collect(),
    }
}

const DICE: &str = "scales:\n  Harm: [Scratch, Wound, Down]\nenums:\n  Spot: [Arm, Head]\n";

/// 3d6 (plus a bonus), and a stroke whose careful answer trades 3d6 for 2d6 + 3.
const DICE_RULES: &str = r#"
outcome Strike { Miss, Hit(harm: Harm, spot: Spot, margin: int) }

procedure total(bonus: int) -> int {
  return roll 3d6 + bonus
}

procedure stroke(bonus: int) -> int {
  let careful = decide careful: bool
  if careful {
    return roll 2d6 + 3 + bonus
  }
  return roll 3d6 + bonus
}

procedure strike(bonus: int) -> Strike {
  let total = roll 2d6 + bonus
  if total < 7 {
    return Miss
  }
  let spot = Arm
  if total >= 11 {
    spot = Head
  }
  let harm = Scratch
  if total >= 9 {
    harm = Wound
  }
  if total == 12 {
    harm = Down
  }
  return Hit(harm: harm, spot: spot, margin: total - 7)
}
"#;

fn dice(name: &str, run: &str) -> PathBuf {
    write(
        name,
        DICE,
        DICE_RULES,
        &format!("run: {run}\nargs: {{ bonus: 0 }}\n"),
    )
}

#[test]
fn three_d6_by_value_has_its_closed_form_columns_mean_and_deviation() {
    let dir = dice("three_d6", "total");
    let r = &analyzed(&dir, &view(Some("value")))[0];
    let labels: Vec<&str> = r.rows.iter().map(|g| g.label.as_str()).collect();
    let want: Vec<String> = (3..=18).map(|n| n.to_string()).collect();
    assert_eq!(labels, want, "numbers ascending");
    let row = |n: i64| &r.rows[(n - 3) as usize];
    // 3d6 = 10 in 27 of 216; 3 and 18 in 1 each.
    assert_eq!(row(10).prob, p(27, 216));
    assert_eq!(row(3).prob, p(1, 216));
    // At least 10: 135/216; at least 11: exactly half (the boundary either side of the
    // middle); at most 10 is the other half.
    assert_eq!(row(10).at_least, Some(p(135, 216)));
    assert_eq!(row(11).at_least, Some(p(1, 2)));
    assert_eq!(row(10).at_most, Some(p(1, 2)));
    assert_eq!(row(18).at_least, Some(p(1, 216)));
    assert_eq!(row(18).at_most, Some(p(1, 1)));
    let s = r.stats.as_ref().expect("numbers have a mean");
    assert_eq!(s.mean, p(21, 2));
    // Variance of one d6 is 35/12; of three, 35/4.
    assert!((s.sd - (35.0f64 / 4.0).sqrt()).abs() < 1e-12, "{}", s.sd);
    let text = r.text();
    assert!(
        text.contains("  10             12.5000%   62.5000%   50.0000%  1/8\n"),
        "{text}"
    );
    assert!(
        text.contains("mean 10.5000 (21/2), standard deviation 2.9580"),
        "{text}"
    );
}

#[test]
fn groups_follow_the_scale_and_tags_without_the_field_keep_their_place() {
    let dir = dice("strike_by_harm", "strike");
    let r = &analyzed(&dir, &view(Some("harm")))[0];
    let got: Vec<(&str, Prob)> = r
        .rows
        .iter()
        .map(|g| (g.label.as_str(), g.prob.clone()))
        .collect();
    // 2d6 < 7: 15/36; 7-8: 11/36 Scratch; 9-11: 9/36 Wound; 12: 1/36 Down.
    assert_eq!(
        got,
        vec![
            ("Miss", p(15, 36)),
            ("Scratch", p(11, 36)),
            ("Wound", p(9, 36)),
            ("Down", p(1, 36)),
        ]
    );
    assert!(r.ordered, "a scale is ordered");
    assert_eq!(r.rows[2].at_least, Some(p(10, 36)));
    assert!(r.stats.is_none(), "levels are not numbers");
    // An enum has no order: no cumulative columns.
    let r = &analyzed(&dir, &view(Some("spot")))[0];
    assert!(!r.ordered && r.rows.iter().all(|g| g.at_least.is_none()));
    assert_eq!(
        r.rows.iter().map(|g| g.label.as_str()).collect::<Vec<_>>(),
        ["Miss", "Arm", "Head"]
    );
    // By tag; by a number field with a tag that lacks it (the mean is over the hits).
    let r = &analyzed(&dir, &view(Some("tag")))[0];
    assert_eq!(
        r.rows.iter().map(|g| g.label.as_str()).collect::<Vec<_>>(),
        ["Miss", "Hit"]
    );
    let r = &analyzed(&dir, &view(Some("margin")))[0];
    let s = r.stats.as_ref().unwrap();
    assert_eq!(s.over, p(21, 36));
    // Margins 0..5 with weights 6,5,4,3,2,1 (totals 7..12): mean 35/21 = 5/3.
    assert_eq!(s.mean, p(5, 3));
}

#[test]
fn melee_attack_by_level_is_seven_groups_that_add_up_to_the_flat_listing() {
    let ruleset = root().join("rules/kingsmark");
    let scenario = root().join("examples/kingsmark/aldren.yaml");
    let prog = program(&ruleset);
    let limits = Limits::default();
    let flat = reports(&prog, &scenario, &limits, &View::default())
        .unwrap()
        .0;
    let by = reports(&prog, &scenario, &limits, &view(Some("level")))
        .unwrap()
        .0;
    let (flat, by) = (&flat[0], &by[0]);
    let labels: Vec<&str> = by.rows.iter().map(|g| g.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "EpicFailure",
            "Miss",
            "NoWound",
            "Minor",
            "Moderate",
            "Severe",
            "Critical"
        ],
        "tags in declaration order, then DamageLevel in scale order"
    );
    for g in &by.rows {
        let sum = flat
            .rows
            .iter()
            .filter(|o| {
                o.label == g.label || o.label.starts_with(&format!("Hit(level: {},", g.label))
            })
            .fold(Prob::from_integer(0.into()), |a, o| a + &o.prob);
        assert_eq!(sum, g.prob, "{}", g.label);
    }
    // K12: an Epic Failure is exactly 1 in 12; the cumulative columns end at what was
    // reached (everything but the unexplored tail of exploding dice).
    assert_eq!(by.rows[0].prob, p(1, 12));
    let reached = Prob::from_integer(1.into()) - &by.unexplored;
    assert_eq!(by.rows[0].at_least.as_ref(), Some(&reached));
    assert_eq!(by.rows[6].at_most.as_ref(), Some(&reached));
}

#[test]
fn best_compares_every_answer_by_the_chance_of_the_goal() {
    let dir = dice("stroke_best", "stroke");
    let v = View {
        best: Some("value >= 12".into()),
        decide: vec!["careful".into()],
        ..View::default()
    };
    let r = analyzed(&dir, &v);
    let goal = |answer: &str| {
        r.iter()
            .find(|x| x.case == [("careful".to_string(), answer.to_string())])
            .and_then(|x| x.goal.clone())
            .unwrap()
    };
    // Careful: 2d6 + 3 >= 12 is 2d6 >= 9: 10/36. Wild: 3d6 >= 12: 81/216.
    assert_eq!(goal("true"), p(10, 36));
    assert_eq!(goal("false"), p(81, 216));
    let text = render(&r, v.best.as_deref(), false, Style::Text);
    let best = text.lines().find(|l| l.ends_with("best")).unwrap();
    assert!(best.contains("careful = false"), "{text}");
    // One point higher: 2d6 >= 10 is 6/36; 3d6 >= 13 is 56/216.
    let v = View {
        best: Some("value >= 13".into()),
        ..v
    };
    let r = analyzed(&dir, &v);
    let goals: Vec<Prob> = r.iter().map(|x| x.goal.clone().unwrap()).collect();
    assert_eq!(
        goals,
        [p(56, 216), p(6, 36)],
        "false first, as the decider numbers them"
    );
    // Goals on fields, tags, and/or/not.
    let strike = dice("strike_goals", "strike");
    for (goal, want) in [
        ("harm >= Wound", p(10, 36)),
        ("harm > Wound", p(1, 36)),
        ("tag == Miss", p(15, 36)),
        ("spot == Head and harm == Wound", p(2, 36)),
        ("not (tag == Hit) or margin >= 5", p(16, 36)),
        ("margin != 0", p(15, 36)),
    ] {
        let v = View {
            best: Some(goal.into()),
            ..View::default()
        };
        let r = analyzed(&strike, &v);
        assert_eq!(r[0].goal.clone(), Some(want), "{goal}");
    }
}

#[test]
fn mistakes_in_by_best_decide_and_sweep_are_diagnostics_in_the_flag() {
    let dir = dice("mistakes", "strike");
    let by = |b: &str| codes(&dir, &view(Some(b)));
    let best = |g: &str| {
        codes(
            &dir,
            &View {
                best: Some(g.into()),
                ..View::default()
            },
        )
    };
    assert_eq!(by("hram"), ["E0501"]);
    assert_eq!(by("harm.x"), ["E0501"]);
    assert_eq!(by("tag.x"), ["E0501"]);
    assert_eq!(by("9lives"), ["E0501"]);
    assert_eq!(best("harm >= "), ["E0504"]);
    assert_eq!(best("harm = Wound"), ["E0504"]);
    assert_eq!(best("(harm == Wound"), ["E0504"]);
    assert_eq!(best("margin"), ["E0505"]);
    assert_eq!(best("harm >= Wund"), ["E0506"]);
    assert_eq!(best("margin == Wound"), ["E0506"]);
    assert_eq!(best("spot < Head"), ["E0507"]);
    assert_eq!(best("tag > Miss"), ["E0507"]);
    let decide = View {
        decide: vec!["carefull".into()],
        ..View::default()
    };
    assert_eq!(
        codes(&dice("mistakes_decide", "stroke"), &decide),
        ["E0508"]
    );
    let sweep = |s: &str| View {
        sweeps: s
            .split(' ')
            .map(|s| cases::parse_sweep(s).unwrap())
            .collect(),
        ..View::default()
    };
    assert_eq!(codes(&dir, &sweep("bonus.x=1")), ["E0511"]);
    assert_eq!(
        codes(&dir, &sweep("bonus=0..200 nothing=0..200")),
        ["E0510"]
    );
    // The text says where and what to do.
    let prog = program(&dir.join("rules"));
    let (d, s) = reports(
        &prog,
        &dir.join("scenario.yaml"),
        &Limits::default(),
        &view(Some("hram")),
    )
    .err()
    .unwrap();
    let text = rulesc::diag::render(&d.items[0], &s, false, 100);
    assert!(text.contains("Strike has no field `hram`"), "{text}");
    assert!(text.contains("did you mean `harm`?"), "{text}");
    assert!(text.contains("--by:1:1"), "{text}");
}

#[test]
fn sweeps_give_one_case_per_point_equal_to_the_scenario_written_by_hand() {
    let dir = dice("sweep", "strike");
    let v = View {
        by: Some("harm".into()),
        sweeps: vec![cases::parse_sweep("bonus=0..2").unwrap()],
        ..View::default()
    };
    let r = analyzed(&dir, &v);
    assert_eq!(r.len(), 3);
    for (k, case) in r.iter().enumerate() {
        assert_eq!(case.case, [("bonus".to_string(), k.to_string())]);
        let by_hand = write(
            &format!("sweep_{k}"),
            DICE,
            DICE_RULES,
            &format!("run: strike\nargs: {{ bonus: {k} }}\n"),
        );
        let want = &analyzed(&by_hand, &view(Some("harm")))[0];
        let probs = |r: &Report| {
            r.rows
                .iter()
                .map(|g| (g.label.clone(), g.prob.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(probs(case), probs(want), "bonus {k}");
    }
    // A bonus makes misses rarer: 15/36, then 10/36, then 6/36.
    let miss: Vec<Prob> = r.iter().map(|c| c.rows[0].prob.clone()).collect();
    assert_eq!(miss, [p(15, 36), p(10, 36), p(6, 36)]);
    // As text, one table: a row per point, a column per level in scale order.
    let text = render(&r, None, true, Style::Text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "strike by harm, 3 cases:");
    assert_eq!(
        lines[1], "  bonus       Miss    Scratch      Wound       Down",
        "{text}"
    );
    assert_eq!(
        lines[2], "  0       41.6667%   30.5556%   25.0000%    2.7778%",
        "{text}"
    );
    assert_eq!(lines.len(), 5, "{text}");
    // Two sweeps: the Cartesian grid, first sweep slowest; one CSV table.
    let v = View {
        sweeps: vec![
            cases::parse_sweep("bonus=0,1").unwrap(),
            cases::parse_sweep("bonus=2..3").unwrap(),
        ],
        by: Some("tag".into()),
        ..View::default()
    };
    let r = analyzed(&dir, &v);
    assert_eq!(r.len(), 4);
    let csv = render(&r, None, true, Style::Csv);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("scenario,procedure,bonus,group,probability,percent,at_least,at_most,interval_low,interval_high")
    );
    assert_eq!(lines.count(), 8, "{csv}");
}

#[test]
fn sampling_intervals_cover_the_exact_odds_and_ignore_the_thread_count() {
    let dir = dice("sampled", "total");
    let exact = &analyzed(&dir, &view(Some("value")))[0];
    let (mut covered, mut total) = (0, 0);
    for seed in 0..10 {
        let v = View {
            by: Some("value".into()),
            samples: Some(4000),
            seed,
            ..View::default()
        };
        let r = &analyzed(&dir, &v)[0];
        for row in &r.rows {
            let want = exact.rows.iter().find(|e| e.label == row.label).unwrap();
            let (lo, hi) = row.interval.unwrap();
            let x = rulesc::analyze::exact::to_f64(&want.prob);
            total += 1;
            covered += usize::from(lo <= x && x <= hi);
        }
    }
    // 95% intervals: about 95 in 100 cover; far fewer would mean they are too narrow.
    assert!(total >= 150, "{total}");
    assert!(
        covered * 100 >= total * 90,
        "{covered} of {total} intervals cover"
    );
    // The same seed gives the same figures on one thread and on four.
    let v = View {
        by: Some("value".into()),
        samples: Some(10_000),
        seed: 7,
        ..View::default()
    };
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| render(&analyzed(&dir, &v), None, true, Style::Csv))
    };
    assert_eq!(on(1), on(4));
}

#[test]
fn json_and_csv_carry_the_same_exact_figures() {
    let dir = dice("formats", "total");
    let r = analyzed(&dir, &view(Some("value")));
    let json: serde_json::Value =
        serde_json::from_str(&render(&r, None, true, Style::Json)).unwrap();
    assert_eq!(json["format"], "rulesc-analyze");
    let ten = &json["results"][0]["groups"][7];
    assert_eq!(ten["group"], "10");
    assert_eq!(ten["probability"], "1/8");
    assert_eq!(ten["at_least"], "5/8");
    assert_eq!(json["results"][0]["mean"], "21/2");
    let csv = render(&r, None, true, Style::Csv);
    assert!(
        csv.lines()
            .any(|l| l.ends_with(",total,10,1/8,12.500000,5/8,1/2,,")),
        "{csv}"
    );
}

#[test]
fn the_command_line_writes_tables_charts_and_refuses_what_it_cannot_do() {
    let dir = dice("cli", "strike");
    let rules = dir.join("rules");
    let scenario = dir.join("scenario.yaml");
    let (rules, scenario) = (rules.to_str().unwrap(), scenario.to_str().unwrap());
    let (code, out, err) = rulesc(&[
        "analyze", rules, scenario, "--by", "harm", "--format", "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(",strike,Wound,1/4,25.000000,5/18,35/36,,"),
        "{out}"
    );
    // The chart: one bar per group, in order.
    let svg = dir.join("strike.svg");
    let (code, _, err) = rulesc(&[
        "analyze",
        rules,
        scenario,
        "--by",
        "harm",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let labels: Vec<usize> = ["Miss", "Scratch", "Wound", "Down"]
        .iter()
        .map(|l| text.find(&format!(">{l}</text>")).unwrap())
        .collect();
    assert!(labels.windows(2).all(|w| w[0] < w[1]), "scale order");
    // Usage errors: exit 2.
    for args in [
        vec!["analyze", rules, scenario, "--samples", "0"],
        vec!["analyze", rules, scenario, "--sweep", "bonus=3..1"],
        vec!["analyze", rules, scenario, "--sweep", "bonus"],
        vec![
            "analyze",
            rules,
            scenario,
            "--samples",
            "10",
            "--best",
            "tag == Hit",
        ],
        vec![
            "analyze",
            rules,
            scenario,
            "--sweep",
            "bonus=0..1",
            "--svg",
            "x.svg",
        ],
        vec!["check", rules, "--format", "csv"],
    ] {
        let (code, _, err) = rulesc(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    // A mistake in a flag is a diagnostic: exit 1.
    let (code, _, err) = rulesc(&["analyze", rules, scenario, "--by", "hram"]);
    assert_eq!(code, 1);
    assert!(err.contains("E0501"), "{err}");
}

#[test]
fn the_chart_reads_at_a_glance_and_renders_at_its_size() {
    let dir = dice("chart", "strike");
    let r = &analyzed(&dir, &view(Some("harm")))[0];
    let svg = r.svg();
    insta::assert_snapshot!("strike_by_harm_svg", svg);
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    assert_eq!(
        (size.width(), size.height()),
        (720, rulesc::analyze::svg::height(4))
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let png = pixmap.encode_png().unwrap();
    assert!(png.len() > 1000, "a PNG of {} bytes", png.len());
    // Every bar is drawn: the bar colour covers about as many pixels as the bars' area.
    let blue = pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (0x4e, 0x79, 0xa7))
        .count();
    assert!(blue > 2000, "{blue} bar pixels");
    std::fs::write(dir.join("strike.png"), png).unwrap();
}

#[test]
fn diff_shows_what_gritty_kingsmark_changes_and_how_the_odds_move() {
    let base = root().join("rules/kingsmark");
    let variant = root().join("examples/variants/gritty_kingsmark");
    let scenario = root().join("examples/kingsmark/aldren.yaml");
    let (d, _) = rulesc::analyze::diff::compare(
        &base,
        &variant,
        &scenario,
        &Limits::default(),
        &view(Some("level")),
    )
    .map_err(|(d, _)| d.items)
    .unwrap();
    let changed: Vec<&str> = d.changes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        changed,
        [
            "arming_sword",
            "longbow",
            "action_costs",
            "concealment_modifiers"
        ]
    );
    let text = d.render(Style::Text);
    assert!(text.contains("critical_threshold: 11  (was 13)"), "{text}");
    // Aldren's arming sword reaches Critical at 11 instead of 13: more Criticals, taken
    // from Moderate and Severe; the rest does not move, and the changes add up to zero.
    let pairs = rulesc::analyze::diff::pairs(&d.base, &d.variant);
    let change = |l: &str| pairs.iter().find(|p| p.label == l).unwrap();
    assert!(change("Critical").variant > change("Critical").base);
    for same in ["EpicFailure", "Miss", "NoWound", "Minor"] {
        assert_eq!(change(same).variant, change(same).base, "{same}");
    }
    let net = pairs.iter().fold(Prob::from_integer(0.into()), |a, p| {
        a + &p.variant - &p.base
    });
    assert_eq!(net, Prob::from_integer(0.into()));
    let svg = d.svg();
    assert!(svg.contains(">kingsmark</text>") && svg.contains(">gritty_kingsmark</text>"));
}

#[test]
fn diff_of_the_d20_house_rules_shows_the_heavier_greatsword() {
    let base = root().join("rules/d20-armor-slots");
    let variant = root().join("examples/variants/d20_house_rules");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("odds_views/greatsword");
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("greatsword.yaml");
    let text =
        std::fs::read_to_string(root().join("examples/d20-armor-slots/longsword_attack.yaml"))
            .unwrap()
            .replace("weapon: longsword", "weapon: greatsword");
    std::fs::write(&scenario, text).unwrap();
    let (d, _) = rulesc::analyze::diff::compare(
        &base,
        &variant,
        &scenario,
        &Limits::default(),
        &view(Some("damage")),
    )
    .map_err(|(d, _)| d.items)
    .unwrap();
    let out = d.render(Style::Text);
    assert!(out.contains("record greatsword (changed"), "{out}");
    assert!(out.contains("damage: 2d8  (was 2d6)"), "{out}");
    assert!(out.contains("record battle_axe (added"), "{out}");
    // 2d8 reaches damage 2d6 never does: the variant's highest group is past the base's.
    let pairs = rulesc::analyze::diff::pairs(&d.base, &d.variant);
    let top = |f: fn(&rulesc::analyze::diff::Pair) -> &Prob| {
        pairs
            .iter()
            .filter(|p| *f(p) > Prob::from_integer(0.into()))
            .filter_map(|p| p.label.parse::<i64>().ok())
            .max()
            .unwrap()
    };
    let (base_top, variant_top) = (top(|p| &p.base), top(|p| &p.variant));
    assert!(variant_top > base_top, "{base_top} then {variant_top}");
    let misses = pairs.iter().find(|p| p.label == "Miss").unwrap();
    assert_eq!(
        misses.base, misses.variant,
        "the weapon's damage does not change the misses"
    );
    let json: serde_json::Value = serde_json::from_str(&d.render(Style::Json)).unwrap();
    assert_eq!(json["format"], "rulesc-diff");
    assert_eq!(json["definitions"][0]["name"], "greatsword");
}
