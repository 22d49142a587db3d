//! Diagnostics for content packs, scenarios and fight files opened in the editor,
//! checked against their ruleset as `rulesc check --pack`, `rulesc test` and `rulesc
//! simulate` check them.

use super::*;

const RULESET: &str = "\
ruleset:
  name: fx
  title: Fixture
enums:
  Stance: [Guard, Open]
types:
  Fighter:
    skill: { type: int, default: 0 }
    hp: { type: int, default: 3 }
    stance: { type: Stance, default: Guard }
records:
  Fighter:
    mira: { skill: 2 }
";

const RULES: &str = "\
outcome Blow { Miss, Hit }

procedure strike(f: Fighter) -> Blow {
  let r = roll d6 + f.skill
  if r < 5 { return Miss }
  return Hit
}

procedure go(c: fighter) {
  c.hp -= 1
}

fight of Fighter {
  order(c) = [c.skill]
  out(c) = c.hp <= 0
  on turn = go
}
";

const PACK: &str = "\
pack:
  name: armory
  ruleset: fx
records:
  Fighter:
    brute: { skill: 4 }
";

const SCENARIO: &str = "\
ruleset: ../rules/fx
packs: [../packs/armory.yaml]
run: strike
args:
  f: brute
dice: [6]
";

const FIGHT: &str = "\
ruleset: ../rules/fx
sides:
  Red:
    Ann: { skill: 2 }
  Blue:
    Bob: { skill: 1 }
";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    // The project's folder: where a pack's ruleset is looked for by name.
    std::fs::write(p.join("rulesc.toml"), "").unwrap();
    for (file, text) in [
        ("rules/fx/ruleset.yaml", RULESET),
        ("rules/fx/combat.rules", RULES),
        ("packs/armory.yaml", PACK),
        ("scenarios/strike.yaml", SCENARIO),
        ("fights/duel.yaml", FIGHT),
    ] {
        let path = p.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// (code, line, message start) of each diagnostic.
fn summary(diags: &[Value]) -> Vec<(String, u64, String)> {
    diags
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["message"]
                    .as_str()
                    .unwrap()
                    .lines()
                    .next()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn packs_scenarios_and_fight_files_get_their_diagnostics() {
    let dir = project();
    let pack = uri(&dir.path().join("packs/armory.yaml"));
    let scenario = uri(&dir.path().join("scenarios/strike.yaml"));
    let fight = uri(&dir.path().join("fights/duel.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());

    // A pack, its ruleset found by name in the project (not open): clean, then a
    // misspelt field as the writer types it, then fixed.
    c.open(&pack, PACK);
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());
    let bad = PACK.replace("{ skill: 4 }", "{ skil: 4 }");
    c.change(&pack, 2, &bad);
    let diags = c.diagnostics(&pack);
    assert_eq!(
        summary(&diags),
        [("E0103".into(), 5, "`Fighter` has no field `skil`".into())]
    );
    assert!(diags[0]["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `skill`?"));
    // Its quick fix, as in a ruleset's own YAML.
    let at = pos(&bad, "skil", 0, 1);
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": pack}, "range": {"start": at, "end": at},
            "context": {"diagnostics": diags}}),
    );
    assert_eq!(r[0]["title"], "replace `skil` with `skill`", "{r}");
    assert_eq!(
        r[0]["edit"]["changes"][&pack][0]["range"]["start"],
        pos(&bad, "skil", 0, 0)
    );
    c.change(&pack, 3, PACK);
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());
    // Completing a field's value offers its type's values, from the pack's ruleset.
    let typing = PACK.replace("{ skill: 4 }", "{ skill: 4, stance: ");
    c.change(&pack, 4, &typing);
    c.diagnostics(&pack);
    let at = pos(&typing, "stance: ", 0, 8);
    let r = c.request("textDocument/completion", doc_pos(&pack, at));
    assert_eq!(labels(&r), ["Guard", "Open"]);
    c.change(&pack, 5, PACK);
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());

    // A scenario, with its `ruleset:` and the pack its `packs:` names (so `brute` is
    // a record): clean; a misnamed argument is the reader's error.
    c.open(&scenario, SCENARIO);
    assert_eq!(c.diagnostics(&scenario), Vec::<Value>::new());
    let bad = SCENARIO.replace("  f: brute", "  g: brute");
    c.change(&scenario, 2, &bad);
    let diags = c.diagnostics(&scenario);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0103");
    assert_eq!(diags[0]["range"]["start"]["line"], 4, "{diags:?}");
    assert!(
        diags[0]["message"].as_str().unwrap().contains("`g`"),
        "{diags:?}"
    );
    // The pack's unsaved text is what the scenario reads: without `brute`, it names
    // no record.
    c.change(&pack, 6, &PACK.replace("brute", "hulk"));
    c.diagnostics(&pack);
    c.change(&scenario, 3, SCENARIO);
    let diags = c.diagnostics(&scenario);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0]["message"].as_str().unwrap().contains("brute"),
        "{diags:?}"
    );
    // A pack that does not check: the scenario counts its errors, at its start.
    c.change(&pack, 7, &PACK.replace("skill", "skil"));
    c.diagnostics(&pack);
    let diags = c.diagnostics(&scenario);
    assert_eq!(
        summary(&diags),
        [(
            "".into(),
            0,
            "1 error(s) in the packs this file reads: open them to see them".into()
        )]
    );
    c.change(&pack, 8, PACK);
    assert_eq!(c.diagnostics(&scenario), Vec::<Value>::new());

    // A fight file: a fighter's misspelt field.
    c.open(&fight, FIGHT);
    assert_eq!(c.diagnostics(&fight), Vec::<Value>::new());
    let bad = FIGHT.replace("Bob: { skill: 1 }", "Bob: { skil: 1 }");
    c.change(&fight, 2, &bad);
    let diags = summary(&c.diagnostics(&fight));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].1, 5, "{diags:?}");
    assert!(diags[0].2.contains("skil"), "{diags:?}");
    c.shutdown();
}

#[test]
fn a_file_without_a_ruleset_or_with_a_broken_one_is_told_so() {
    let dir = project();
    let pack = uri(&dir.path().join("packs/armory.yaml"));
    let manifest = uri(&dir.path().join("rules/fx/ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    // A ruleset no folder of the project is.
    let lost = PACK.replace("ruleset: fx", "ruleset: nowhere");
    c.open(&pack, &lost);
    let diags = c.diagnostics(&pack);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["severity"], 3, "information: {diags:?}");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("no ruleset named `nowhere` in this project"),
        "{diags:?}"
    );
    // The ruleset found, then broken in the editor: the pack says its ruleset does not
    // check; mended: clean.
    c.change(&pack, 2, PACK);
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());
    c.open(&manifest, RULESET);
    c.diagnostics(&manifest);
    // (Each check of the ruleset checks the pack again, and tells it.)
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());
    c.change(
        &manifest,
        2,
        &RULESET.replace("type: int, default: 0", "type: itn, default: 0"),
    );
    let diags = c.diagnostics(&pack);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0401");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("does not check"),
        "{diags:?}"
    );
    c.change(&manifest, 3, RULESET);
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());

    // A scenario naming a ruleset or a pack outside its project: not read.
    let scenario = uri(&dir.path().join("scenarios/strike.yaml"));
    let away = SCENARIO.replace("ruleset: ../rules/fx", "ruleset: ../..");
    c.open(&scenario, &away);
    let diags = c.diagnostics(&scenario);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.starts_with("`ruleset:` names "), "{message}");
    assert!(message.contains("outside the project"), "{message}");
    let away = SCENARIO.replace("../packs/armory.yaml", "../../armory.yaml");
    c.change(&scenario, 2, &away);
    let diags = c.diagnostics(&scenario);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.starts_with("`packs:` names "), "{message}");
    assert!(message.contains("outside the project"), "{message}");
    c.shutdown();
}

/// A pack that stops parsing while the writer types is read against the ruleset it was
/// read against before: its syntax error is what it hears, whatever else is open.
#[test]
fn a_pack_that_does_not_parse_hears_its_syntax_error() {
    let dir = project();
    let other = dir.path().join("rules/gx");
    std::fs::create_dir_all(&other).unwrap();
    let gx = RULESET.replace("name: fx", "name: gx");
    std::fs::write(other.join("ruleset.yaml"), &gx).unwrap();
    let pack = uri(&dir.path().join("packs/armory.yaml"));
    let gx_manifest = uri(&other.join("ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&pack, PACK);
    assert_eq!(c.diagnostics(&pack), Vec::<Value>::new());
    // A second ruleset open: two are checked now.
    c.open(&gx_manifest, &gx);
    c.diagnostics(&gx_manifest);
    c.diagnostics(&pack);
    let broken = PACK.replace("brute: { skill: 4 }", "brute: { skill: 4");
    c.change(&pack, 2, &broken);
    let diags = c.diagnostics(&pack);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0]["code"]
            .as_str()
            .is_some_and(|c| c.starts_with("E0")),
        "{diags:?}"
    );
    assert_eq!(diags[0]["severity"], 1, "{diags:?}");
    c.shutdown();
}
