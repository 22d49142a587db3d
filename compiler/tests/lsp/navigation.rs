//! The outline (`textDocument/documentSymbol`), find references and `workspace/symbol`.

use super::*;

const FIGHT: &str = "\
procedure go(c: fighter) {
  c.skill += 1
}

fight of Fighter {
  order(c) = [c.skill]
  on turn = go
}
";

/// (name, LSP symbol kind, children's names) of an outline.
fn outline(r: &Value) -> Vec<(String, u64, Vec<String>)> {
    r.as_array()
        .expect("a nested outline")
        .iter()
        .map(|s| {
            let children = s["children"]
                .as_array()
                .map(|c| {
                    c.iter()
                        .map(|c| c["name"].as_str().unwrap().to_string())
                        .collect()
                })
                .unwrap_or_default();
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_u64().unwrap(),
                children,
            )
        })
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_outline_lists_a_files_definitions_in_order() {
    let dir = variant_project();
    std::fs::write(dir.path().join("base/fight.rules"), FIGHT).unwrap();
    let base_yaml = uri(&dir.path().join("base/ruleset.yaml"));
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let fight = uri(&dir.path().join("base/fight.rules"));
    let variant = uri(&dir.path().join("variant/ruleset.yaml"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(init["capabilities"]["documentSymbolProvider"], true);
    c.open(&base_yaml, BASE);
    assert_eq!(c.diagnostics(&base_yaml), Vec::<Value>::new());
    let symbols = |c: &mut Client, uri: &str| {
        c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
    };

    // YAML: scales and enums with their levels, a record type with its fields, a
    // table, a record (LSP kinds: enum 10, struct 23, object 19, variable 13).
    let r = symbols(&mut c, &base_yaml);
    assert_eq!(
        outline(&r),
        [
            (
                "DamageLevel".into(),
                10,
                strings(&["NoWound", "Minor", "Moderate", "Severe", "Critical"])
            ),
            (
                "HitLocation".into(),
                10,
                strings(&["Head", "Torso", "Arm", "Leg"])
            ),
            ("Fighter".into(), 23, strings(&["skill", "armor"])),
            ("hit_locations".into(), 19, vec![]),
            ("Mira".into(), 13, vec![]),
        ]
    );
    // Each entry selects its name; a scale's range covers its levels.
    let scale = &r[0];
    assert_eq!(
        scale["selectionRange"]["start"],
        pos(BASE, "DamageLevel", 0, 0)
    );
    assert_eq!(scale["range"]["end"], pos(BASE, "Critical", 0, 8));
    assert_eq!(r[3]["detail"], "table hit_locations: d4 -> HitLocation");

    // Rules: an outcome with its tags, a formula and a procedure (function 12).
    let r = symbols(&mut c, &base_rules);
    assert_eq!(
        outline(&r),
        [
            ("Blow".into(), 23, strings(&["Miss", "Hit"])),
            ("bonus".into(), 12, vec![]),
            ("strike".into(), 12, vec![]),
        ]
    );
    assert_eq!(r[1]["detail"], "formula bonus(f: Fighter) -> int");
    // The fight (event 24), without the formulas its clauses define behind the scenes.
    let r = symbols(&mut c, &fight);
    assert_eq!(
        outline(&r),
        [("go".into(), 12, vec![]), ("fight".into(), 24, vec![])]
    );
    assert_eq!(r[1]["detail"], "fight of Fighter");
    assert_eq!(
        r[1]["selectionRange"]["start"],
        pos(FIGHT, "fight of", 0, 0)
    );
    // A variant's file lists what it overrides, where it overrides it.
    c.open(&variant, VARIANT);
    c.diagnostics(&variant);
    let r = symbols(&mut c, &variant);
    assert_eq!(outline(&r), [("hit_locations".into(), 19, vec![])]);
    assert_eq!(
        r[0]["selectionRange"]["start"],
        pos(VARIANT, "hit_locations", 0, 0)
    );
    c.shutdown();
}

/// (file name, line, character) of each location, sorted.
fn places(r: &Value, dir: &Path) -> Vec<(String, u64, u64)> {
    let root = format!("file://{}/", dir.canonicalize().unwrap().display());
    let mut v: Vec<(String, u64, u64)> = r
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap().replace(&root, ""),
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["range"]["start"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn at(text: &str, needle: &str, nth: usize) -> (u64, u64) {
    let p = pos(text, needle, nth, 0);
    (
        p["line"].as_u64().unwrap(),
        p["character"].as_u64().unwrap(),
    )
}

#[test]
fn references_find_every_use_across_files_and_rulesets() {
    let dir = variant_project();
    std::fs::write(dir.path().join("base/fight.rules"), FIGHT).unwrap();
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let variant = uri(&dir.path().join("variant/ruleset.yaml"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(init["capabilities"]["referencesProvider"], true);
    c.open(&base_rules, BASE_RULES);
    c.diagnostics(&base_rules);
    c.open(&variant, VARIANT);
    c.diagnostics(&variant);
    let refs = |c: &mut Client, position: Value, decl: bool| {
        let mut params = doc_pos(&base_rules, position);
        params["context"] = json!({"includeDeclaration": decl});
        c.request("textDocument/references", params)
    };
    let place = |file: &str, text: &str, needle: &str, nth: usize| {
        let (l, ch) = at(text, needle, nth);
        (file.to_string(), l, ch)
    };

    // A table: its definition in the base, its override in the variant (both
    // declarations), its use in the base's rules.
    let p = pos(BASE_RULES, "hit_locations", 0, 3);
    assert_eq!(
        places(&refs(&mut c, p.clone(), true), dir.path()),
        [
            place("base/combat.rules", BASE_RULES, "hit_locations", 0),
            place("base/ruleset.yaml", BASE, "hit_locations", 0),
            place("variant/ruleset.yaml", VARIANT, "hit_locations", 0),
        ]
    );
    assert_eq!(
        places(&refs(&mut c, p, false), dir.path()),
        [place("base/combat.rules", BASE_RULES, "hit_locations", 0)]
    );

    // A record type, asked from a use: the records section naming it, the
    // parameters (the variant's too), the fight's combatants; not the definition.
    let p = pos(BASE_RULES, "Fighter", 0, 2);
    assert_eq!(
        places(&refs(&mut c, p, false), dir.path()),
        [
            place("base/combat.rules", BASE_RULES, "Fighter", 0),
            place("base/combat.rules", BASE_RULES, "Fighter", 1),
            place("base/fight.rules", FIGHT, "Fighter", 0),
            place("base/ruleset.yaml", BASE, "Fighter", 1),
            place("variant/combat.rules", VARIANT_RULES, "Fighter", 0),
        ]
    );
    // A local: its definition and its one use.
    let p = pos(BASE_RULES, "total", 1, 0);
    assert_eq!(
        places(&refs(&mut c, p, true), dir.path()),
        [
            place("base/combat.rules", BASE_RULES, "total", 0),
            place("base/combat.rules", BASE_RULES, "total", 1),
        ]
    );
    // No name: no answer.
    let p = pos(BASE_RULES, "return", 0, 1);
    assert_eq!(refs(&mut c, p, true), Value::Null);
    c.shutdown();
}

#[test]
fn workspace_symbols_match_a_substring_in_every_checked_ruleset() {
    let dir = variant_project();
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let variant_rules = uri(&dir.path().join("variant/combat.rules"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(init["capabilities"]["workspaceSymbolProvider"], true);
    c.open(&base_rules, BASE_RULES);
    c.diagnostics(&base_rules);
    c.open(&variant_rules, VARIANT_RULES);
    c.diagnostics(&variant_rules);
    let find = |c: &mut Client, query: &str| -> Vec<(String, String, u64)> {
        let r = c.request("workspace/symbol", json!({"query": query}));
        r.as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["name"].as_str().unwrap().to_string(),
                    s["location"]["uri"].as_str().unwrap().to_string(),
                    s["location"]["range"]["start"]["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let base_yaml = uri(&dir.path().join("base/ruleset.yaml"));
    // Any case; each definition once, though both rulesets read it; shortest first.
    assert_eq!(
        find(&mut c, "LOC"),
        [
            ("HitLocation".into(), base_yaml.clone(), 6),
            ("hit_locations".into(), base_yaml.clone(), 13),
        ]
    );
    // A field, with its record type as container; not the locals named alike.
    let r = c.request("workspace/symbol", json!({"query": "skil"}));
    assert_eq!(r.as_array().unwrap().len(), 1, "{r}");
    assert_eq!(r[0]["name"], "skill");
    assert_eq!(r[0]["containerName"], "Fighter");
    assert_eq!(find(&mut c, "total"), []);
    assert_eq!(find(&mut c, "nothing like it"), []);
    c.shutdown();
}
