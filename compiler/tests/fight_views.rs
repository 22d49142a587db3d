//! The balance views of a fight (issue 26 §4): `rulesc simulate --svg`, `rulesc diff`
//! on a fight file, and `rulesc simulate --sweep` over a combatant's field.

mod run;

use std::path::Path;

/// A duel: each turn a d20 + skill against 10 + the foe's armor, a hit taking a d6.
const BOUT_RULESET: &str = "\
ruleset:
  name: bout
enums:
  Stance: [Open, Closed]
types:
  Fencer:
    hp: { type: int, default: 6 }
    skill: { type: int, default: 0 }
    armor: { type: int(0..4), default: 0 }
    stance: { type: Stance, default: Open }
    initiative: { type: int, default: 0 }
constants:
  target: 10
records:
  Fencer:
    veteran: { hp: 10, skill: 3 }
";

const BOUT_RULES: &str = "\
procedure roll_initiative(c: fighter) {
  c.initiative = roll d6 + c.skill
}

procedure take_turn(me: fighter) {
  let foe = decide target_of from enemies(me)
  let guard = if foe.stance == Closed then 1 else 0
  if roll d20 + me.skill >= target + foe.armor + guard {
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
";

/// The variant: hits need 12.
const HARSH_RULESET: &str = "\
ruleset:
  name: harsh
  extends: ../bout
override:
  constants:
    target: 12
";

/// A variant that changes nothing but its name.
const SAME_RULESET: &str = "\
ruleset:
  name: same
  extends: ../bout
";

/// A scratch project: `bout/`, its variants `harsh/` and `same/`, and `fight.yaml`
/// holding `text`.
fn project(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (file, body) in [
        ("bout/ruleset.yaml", BOUT_RULESET),
        ("bout/fight.rules", BOUT_RULES),
        ("harsh/ruleset.yaml", HARSH_RULESET),
        ("same/ruleset.yaml", SAME_RULESET),
        ("fight.yaml", text),
        ("rulesc.toml", ""),
    ] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    dir
}

const DUEL: &str = "\
title: a duel
rounds: 30
sides:
  Guild: { Vera: { skill: 2 } }
  Recruits: { Ike: { skill: 1 } }
";

fn rulesc(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run::rulesc_in(dir, args, &[])
}

/// The chart rendered by resvg: its size, and how many pixels have `rgb`.
fn render(svg: &str, rgb: (u8, u8, u8)) -> ((u32, u32), usize) {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let count = pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == rgb)
        .count();
    if let Ok(dir) = std::env::var("RULESC_KEEP_CHARTS") {
        let name = format!("{dir}/{}x{}.png", size.width(), size.height());
        std::fs::write(name, pixmap.encode_png().unwrap()).unwrap();
    }
    ((size.width(), size.height()), count)
}

#[test]
fn simulate_draws_win_rates_with_intervals_and_rounds_deterministically() {
    let dir = project(DUEL);
    let args = ["simulate", "bout", "fight.yaml", "-n", "400", "--seed", "5"];
    let (code, out, err) = rulesc(dir.path(), &[&args[..], &["--svg", "a.svg"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wins:"), "the report is printed too: {out}");
    let svg = std::fs::read_to_string(dir.path().join("a.svg")).unwrap();
    // The same seed draws the same bytes; another seed other figures.
    rulesc(dir.path(), &[&args[..], &["--svg", "b.svg"]].concat());
    assert_eq!(
        svg,
        std::fs::read_to_string(dir.path().join("b.svg")).unwrap()
    );
    let other = [
        "simulate",
        "bout",
        "fight.yaml",
        "-n",
        "400",
        "--seed",
        "6",
        "--svg",
        "c.svg",
    ];
    rulesc(dir.path(), &other);
    assert_ne!(
        svg,
        std::fs::read_to_string(dir.path().join("c.svg")).unwrap()
    );
    // Each win rate is drawn with the interval the report prints (JSON: low, high).
    let (_, json, _) = rulesc(dir.path(), &[&args[..], &["--format", "json"]].concat());
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    for w in j["wins"].as_array().unwrap() {
        let whisker = format!(
            "95% interval {:.2}% to {:.2}%",
            w["low"].as_f64().unwrap() * 100.0,
            w["high"].as_f64().unwrap() * 100.0
        );
        assert!(svg.contains(&whisker), "{whisker} in {svg}");
    }
    // Rows: Guild, Recruits, draw, undecided; then one bar per number of rounds played.
    let played: Vec<u64> = j["rounds"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rounds"].as_u64().unwrap())
        .collect();
    let bars = (played[played.len() - 1] - played[0] + 1) as usize;
    assert!(bars <= 40, "{bars} bars");
    let height = rulesc::analyze::svg::height(4) + rulesc::analyze::svg::height(bars);
    let (size, blue) = render(&svg, (0x4e, 0x79, 0xa7));
    assert_eq!(size, (720, height));
    assert!(blue > 2000, "{blue} bar pixels");
    assert!(svg.contains(">rounds played</text>"), "{svg}");
}

#[test]
fn simulate_svg_escapes_hostile_names() {
    let dir = project(
        "title: '<script>alert(1)</script>'\nsides:\n  '<b>&\"Guild': { 'Vera<i>': {} }\n  Recruits: { Ike: {} }\n",
    );
    let (code, _, err) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "-n",
            "20",
            "--svg",
            "x.svg",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(dir.path().join("x.svg")).unwrap();
    assert!(!svg.contains("<script>") && !svg.contains("<b>"), "{svg}");
    assert!(
        svg.contains("&lt;script&gt;") && svg.contains("&lt;b&gt;&amp;&quot;Guild"),
        "{svg}"
    );
    render(&svg, (0, 0, 0));
}

#[test]
fn simulate_svg_is_refused_with_a_trace_and_writes_no_input() {
    let dir = project(DUEL);
    let (code, _, err) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "--trace",
            "0",
            "--svg",
            "x.svg",
        ],
    );
    assert_eq!(code, 2, "{err}");
    // The chart never replaces a file the run read.
    let (code, _, err) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "-n",
            "5",
            "--svg",
            "fight.yaml",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(std::fs::read_to_string(dir.path().join("fight.yaml"))
        .unwrap()
        .starts_with("title: a duel"));
}

/// `rulesc diff ... --format json` on `fight.yaml`, parsed.
fn diff_json(dir: &Path, variant: &str, extra: &[&str]) -> serde_json::Value {
    let args = [
        &["diff", "bout", variant, "fight.yaml", "--format", "json"][..],
        extra,
    ]
    .concat();
    let (code, out, err) = rulesc(dir, &args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn diff_simulates_both_rulesets_on_the_same_runs_and_says_so() {
    let dir = project(&format!(
        "{DUEL}report:\n  Vera stands: {{ standing: [Vera] }}\n"
    ));
    let args = [
        "diff",
        "bout",
        "harsh",
        "fight.yaml",
        "-n",
        "300",
        "--seed",
        "4",
    ];
    let (code, out, err) = rulesc(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("constant target (changed"), "{out}");
    assert!(
        out.contains("a duel: simulated, not exact: 300 runs under each, seed 4, 95% intervals"),
        "{out}"
    );
    for row in [
        "Guild wins",
        "Recruits wins",
        "draw",
        "undecided",
        "Vera stands",
        "mean rounds:",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
    // The base's column is what `rulesc simulate` gives for the same runs and seed.
    let j = diff_json(dir.path(), "harsh", &["-n", "300", "--seed", "4"]);
    let (_, sim, _) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "-n",
            "300",
            "--seed",
            "4",
            "--format",
            "json",
        ],
    );
    let sim: serde_json::Value = serde_json::from_str(&sim).unwrap();
    assert_eq!(j["format"], "rulesc-diff-fight");
    assert_eq!(j["simulated"], true);
    assert_eq!(
        (j["runs"].as_u64(), j["seed"].as_u64()),
        (Some(300), Some(4))
    );
    assert_eq!(j["outcomes"][0]["outcome"], "Guild wins");
    for (row, simulated) in [
        (0, &sim["wins"][0]),
        (1, &sim["wins"][1]),
        (4, &sim["report"][0]),
    ] {
        let base = &j["outcomes"][row]["base"];
        for key in ["runs", "share", "low", "high"] {
            assert_eq!(base[key], simulated[key], "{key} of {base} and {simulated}");
        }
    }
    // Hits need 12, not 10: fights last longer.
    let mean = &j["mean_rounds"];
    assert!(mean["variant"].as_f64() > mean["base"].as_f64(), "{mean}");
}

#[test]
fn diff_of_a_variant_that_changes_nothing_changes_no_share() {
    // Same seeds, same rules: run k of one is run k of the other, to the last die.
    let dir = project(DUEL);
    let j = diff_json(dir.path(), "same", &["-n", "200", "--seed", "9"]);
    assert_eq!(j["definitions"], serde_json::json!([]));
    for o in j["outcomes"].as_array().unwrap() {
        assert_eq!(o["base"], o["variant"], "{o}");
        assert_eq!(o["change"]["share"], 0.0, "{o}");
        let (lo, hi) = (
            o["change"]["low"].as_f64().unwrap(),
            o["change"]["high"].as_f64().unwrap(),
        );
        assert!(lo <= 0.0 && hi >= 0.0, "{o}");
    }
}

#[test]
fn diff_of_a_fight_as_csv_and_as_a_chart() {
    let dir = project(DUEL);
    let (code, out, err) = rulesc(
        dir.path(),
        &[
            "diff",
            "bout",
            "harsh",
            "fight.yaml",
            "-n",
            "100",
            "--format",
            "csv",
            "--svg",
            "d.svg",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "outcome,base_runs,base_share,base_low,base_high,variant_runs,variant_share,variant_low,variant_high,change,change_low,change_high"
    );
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[1].starts_with("Guild wins,"), "{out}");
    let svg = std::fs::read_to_string(dir.path().join("d.svg")).unwrap();
    // Paired bars, both with whiskers, and a legend naming both rulesets.
    assert!(
        svg.contains(">bout</text>") && svg.contains(">harsh</text>"),
        "{svg}"
    );
    assert_eq!(svg.matches("95% interval").count(), 8, "{svg}");
    let (size, orange) = render(&svg, (0xf2, 0x8e, 0x2b));
    assert_eq!(size, (720, rulesc::analyze::svg::height(4)));
    assert!(orange > 500, "{orange} pixels of the variant's bars");
    // `--by` has nothing to group in a fight: a usage error.
    let (code, _, err) = rulesc(
        dir.path(),
        &["diff", "bout", "harsh", "fight.yaml", "--by", "level"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("E0012"), "{err}");
}

#[test]
fn sweep_gives_one_row_of_win_rates_per_value() {
    let dir = project(DUEL);
    let (code, out, err) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "-n",
            "300",
            "--sweep",
            "Ike.armor=0..4",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "a duel (bout): 300 runs per point, seed 0, at most 30 rounds; simulated, 95% intervals"
    );
    assert!(
        lines[1].trim_start().starts_with("Ike.armor") && lines[1].contains("Guild wins"),
        "{out}"
    );
    assert_eq!(lines.len(), 7, "a header and five values: {out}");
    for (v, line) in (0..=4).zip(&lines[2..]) {
        assert!(line.trim_start().starts_with(&v.to_string()), "{line}");
    }
    // Each point is the fight with the value written in: its figures are what
    // `rulesc simulate` gives that file. And more armor on Ike, fewer wins for Vera.
    let j = |extra: &[&str]| -> serde_json::Value {
        let args = [
            &[
                "simulate",
                "bout",
                "fight.yaml",
                "-n",
                "300",
                "--format",
                "json",
            ][..],
            extra,
        ]
        .concat();
        let (code, out, err) = rulesc(dir.path(), &args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let swept = j(&["--sweep", "Ike.armor=0..4"]);
    let points = swept["points"].as_array().unwrap();
    assert_eq!(swept["sweeps"], serde_json::json!(["Ike.armor"]));
    assert_eq!(points[3]["settings"]["Ike.armor"], "3");
    std::fs::write(
        dir.path().join("fight.yaml"),
        DUEL.replace("Ike: { skill: 1 }", "Ike: { skill: 1, armor: 3 }"),
    )
    .unwrap();
    assert_eq!(points[3]["report"], j(&[]));
    let guild = |i: usize| points[i]["report"]["wins"][0]["runs"].as_u64().unwrap();
    assert!(guild(0) > guild(4), "{} then {}", guild(0), guild(4));
}

#[test]
fn sweeps_combine_and_take_names_of_variants() {
    let dir = project(DUEL);
    let (code, out, err) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "-n",
            "50",
            "--sweep",
            "Ike.stance=Open,Closed",
            "--sweep",
            "Vera.skill=0,5",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let settings: Vec<String> = j["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}/{}",
                p["settings"]["Ike.stance"], p["settings"]["Vera.skill"]
            )
        })
        .collect();
    assert_eq!(
        settings,
        [
            "\"Open\"/\"0\"",
            "\"Open\"/\"5\"",
            "\"Closed\"/\"0\"",
            "\"Closed\"/\"5\""
        ]
    );
}

#[test]
fn a_sweep_of_what_the_fight_does_not_have_is_refused() {
    let dir =
        project("sides:\n  Guild: { Vera: veteran }\n  Recruits: { Ike: { skill: 1 }, Jo: }\n");
    for (sweep, code, message) in [
        (
            "Ika.armor=0..1",
            "E0513",
            "`--sweep Ika.armor`: no combatant is named `Ika`",
        ),
        ("Ike.armr=0..1", "E0103", "`--sweep Ike.armr=0`:"),
        ("Ike.armor=4..5", "E0312", "`--sweep Ike.armor=5`:"),
        ("Ike.stance=Shut", "E0306", "`--sweep Ike.stance=Shut`:"),
        (
            "Vera.armor=1",
            "E0513",
            "`Vera` is written as the record `veteran`, not as fields",
        ),
        (
            "Ike.skill.x=1",
            "E0511",
            "`Ike.skill` is not a mapping in this fight",
        ),
    ] {
        let (exit, out, err) = rulesc(
            dir.path(),
            &[
                "simulate",
                "bout",
                "fight.yaml",
                "-n",
                "5",
                "--sweep",
                sweep,
            ],
        );
        assert_eq!(exit, 1, "{sweep}: {out}");
        assert!(
            err.contains(code) && err.contains(message),
            "{sweep}: {err}"
        );
    }
    // Jo, written with no fields, takes one.
    let (exit, _, err) = rulesc(
        dir.path(),
        &[
            "simulate",
            "bout",
            "fight.yaml",
            "-n",
            "5",
            "--sweep",
            "Jo.armor=0..1",
        ],
    );
    assert_eq!(exit, 0, "{err}");
    // A path with no field, or a bad range: usage errors.
    for sweep in ["Ike=1", "Ike.armor=3..1", "Ike.armor"] {
        let (exit, _, err) = rulesc(
            dir.path(),
            &["simulate", "bout", "fight.yaml", "--sweep", sweep],
        );
        assert!(exit == 2 || exit == 1, "{sweep}: {err}");
    }
    let (exit, _, _) = rulesc(
        dir.path(),
        &["simulate", "bout", "fight.yaml", "--sweep", "Ike=1"],
    );
    assert_eq!(exit, 1);
}

#[test]
fn diff_runs_a_shipped_variant_on_a_shipped_fight() {
    let root = run::root();
    let (code, out, err) = run::rulesc_in(
        &root,
        &[
            "diff",
            "rules/kingsmark",
            "examples/variants/gritty_kingsmark",
            "examples/kingsmark/fight.yaml",
            "-n",
            "30",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the watch against two brigands: simulated, not exact: 30 runs under each"),
        "{out}"
    );
    assert!(out.contains("record arming_sword (changed"), "{out}");
}
