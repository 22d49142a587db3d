//! The merged-state engine against the path walker, on every shipped scenario: with the
//! same dice budget per path, the two must give the same exact fractions for every
//! outcome and the same unexplored mass. The walker is the reference (one interpreter run
//! per dice path, nothing clever); the engine merges states, decides rolls whole and
//! takes procedures apart, so any slip in that shows up here as a differing fraction.

use rulesc::analyze::{distribution, Distribution, EngineKind, Limits};
use rulesc::eval::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `examples/<ruleset>/*.yaml` whose ruleset is in `rules/`.
fn scenarios() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    dirs.sort();
    for dir in dirs {
        let rules = root().join("rules").join(dir.file_name().unwrap());
        if !rules.join("ruleset.yaml").exists() {
            continue;
        }
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (rules.clone(), f)));
    }
    out
}

fn by_outcome(
    p: &rulesc::ir::Program,
    ret: &rulesc::ir::Ty,
    d: &Distribution,
) -> HashMap<String, rulesc::analyze::exact::Prob> {
    d.outcomes
        .iter()
        .map(|(v, p_)| (rulesc::eval::show_result(p, v, ret), p_.clone()))
        .collect()
}

#[test]
fn the_merged_engine_matches_the_path_walker_on_every_shipped_scenario() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (rules, file) in scenarios() {
        let (p, diags, _) = rulesc::compile_dir(&rules);
        let p = p.unwrap_or_else(|| panic!("{}: {:?}", rules.display(), diags.items));
        let Ok((s, _)) = rulesc::scenario::read(&p, &file) else {
            continue;
        };
        let ret = p.functions[s.function].ret.clone();
        // The walker's default dice budget where it covers every path in 50,000 runs; the
        // victory-stars exchanges (a d100 each side, then zones, impact and shock dice)
        // only at two dice.
        let mut done = false;
        for max_dice in [12, 2] {
            let limits = |engine| Limits {
                engine,
                max_dice: Some(max_dice),
                max_paths: 50_000,
                max_seconds: 600,
                ..Limits::default()
            };
            let walked = distribution(&p, &s, &limits(EngineKind::Paths), &[]);
            if walked.stop.is_some() {
                continue;
            }
            let merged = distribution(&p, &s, &limits(EngineKind::Merged), &[]);
            let name = format!("{} at --max-dice {max_dice}", file.display());
            assert!(
                merged.stop.is_none(),
                "{name}: the merged engine stopped: {:?}",
                merged.stop
            );
            let (a, b) = (by_outcome(&p, &ret, &walked), by_outcome(&p, &ret, &merged));
            if a != b || walked.unexplored != merged.unexplored {
                let mut diff: Vec<String> = a
                    .keys()
                    .chain(b.keys())
                    .filter(|k| a.get(*k) != b.get(*k))
                    .map(|k| format!("  {k}: walker {:?}, merged {:?}", a.get(k), b.get(k)))
                    .collect();
                diff.sort();
                diff.dedup();
                failures.push(format!(
                    "{name}: unexplored walker {} merged {}\n{}",
                    walked.unexplored,
                    merged.unexplored,
                    diff.join("\n")
                ));
            }
            // Both add up to one.
            let one = rulesc::analyze::exact::Prob::from_integer(1.into());
            let total = merged
                .outcomes
                .iter()
                .fold(merged.unexplored.clone(), |t, (_, p)| t + p);
            assert_eq!(total, one, "{name}");
            done = true;
            checked += 1;
            break;
        }
        assert!(done, "{}: the walker never finished", file.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 14, "only {checked} scenarios");
}

#[test]
fn decisions_fixed_by_name_change_only_what_they_answer() {
    let rules = root().join("rules/kingsmark");
    let (p, _, _) = rulesc::compile_dir(&rules);
    let p = p.unwrap();
    let (s, _) =
        rulesc::scenario::read(&p, &root().join("examples/kingsmark/aldren.yaml")).unwrap();
    let limits = |engine| Limits {
        engine,
        max_dice: Some(4),
        ..Limits::default()
    };
    // Answer `maneuver` with each option in turn: both engines agree on each.
    for answer in 0..3u32 {
        let fixed = [("maneuver".to_string(), answer)];
        let a = distribution(&p, &s, &limits(EngineKind::Paths), &fixed);
        let b = distribution(&p, &s, &limits(EngineKind::Merged), &fixed);
        let ret = p.functions[s.function].ret.clone();
        assert_eq!(
            by_outcome(&p, &ret, &a),
            by_outcome(&p, &ret, &b),
            "maneuver = {answer}"
        );
        assert!(a
            .outcomes
            .iter()
            .all(|(v, _)| !matches!(v, Ok(Value::Unit))));
    }
}

/// `rulesc analyze --format json` and `rulesc diff --format json` follow the schemas
/// they are documented by (`schemas/analyze.schema.json`, `schemas/diff.schema.json`,
/// `schemas/diff-fight.schema.json`): a sweep with groups and cumulative columns, a
/// sampled case with intervals, a mean, and the gritty Kingsmark diff, on a scenario and
/// on a fight.
#[test]
fn analyze_and_diff_json_follow_their_schemas() {
    use rulesc::analyze::report::{render, Style};
    use rulesc::analyze::{cases, reports, View};
    let schema = |name: &str| {
        let text = std::fs::read_to_string(root().join("schemas").join(name)).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        jsonschema::draft7::new(&value).expect("a valid draft-07 schema")
    };
    let check = |v: &jsonschema::Validator, what: &str, text: &str| {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let errors: Vec<String> = v
            .iter_errors(&value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:#?}\n{text}");
        value
    };
    let analyze = schema("analyze.schema.json");
    let (rules, scenario) = (
        root().join("rules/d20-armor-slots"),
        root().join("examples/d20-armor-slots/longsword_attack.yaml"),
    );
    let (p, d, _) = rulesc::compile_dir(&rules);
    let p = p.unwrap_or_else(|| panic!("{:?}", d.items));
    let views = [
        View {
            by: Some("damage".into()),
            sweeps: vec![cases::parse_sweep("attacker.abilities.Strength=2,4").unwrap()],
            ..View::default()
        },
        View {
            by: Some("tag".into()),
            samples: Some(2000),
            seed: 3,
            ..View::default()
        },
        View {
            best: Some("tag == Hit or tag == CriticalHit".into()),
            ..View::default()
        },
    ];
    for v in &views {
        let (r, _, _) = reports(&p, &scenario, &Limits::default(), v)
            .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
        let text = render(&r, v.best.as_deref(), v.by.is_some(), Style::Json);
        let value = check(&analyze, &format!("{v:?}"), &text);
        assert!(!value["results"].as_array().unwrap().is_empty());
    }
    let diff = schema("diff.schema.json");
    let (d, _) = rulesc::analyze::diff::compare(
        &root().join("rules/kingsmark"),
        &root().join("examples/variants/gritty_kingsmark"),
        &root().join("examples/kingsmark/aldren.yaml"),
        &Limits::default(),
        &View {
            by: Some("level".into()),
            ..View::default()
        },
    )
    .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    let value = check(&diff, "gritty diff", &d.render(Style::Json));
    assert_eq!(value["definitions"].as_array().unwrap().len(), 4);
    // The same variant on Kingsmark's fight: simulated under both.
    let runs = rulesc::simulate::diff::Runs {
        n: 40,
        seed: 1,
        max: None,
    };
    let (d, _) = rulesc::simulate::diff::compare(
        &root().join("rules/kingsmark"),
        &root().join("examples/variants/gritty_kingsmark"),
        &root().join("examples/kingsmark/fight.yaml"),
        &[],
        runs,
    )
    .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    let fight = schema("diff-fight.schema.json");
    let value = check(&fight, "gritty fight diff", &d.render(Style::Json));
    assert_eq!(value["definitions"].as_array().unwrap().len(), 4);
    assert_eq!(value["runs"], 40);
}
