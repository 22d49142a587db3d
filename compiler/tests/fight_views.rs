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

/// A scratch project: `bout/`, its variant `harsh/`, and `fight.yaml` holding `text`.
fn project(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (file, body) in [
        ("bout/ruleset.yaml", BOUT_RULESET),
        ("bout/fight.rules", BOUT_RULES),
        ("harsh/ruleset.yaml", HARSH_RULESET),
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
