//! Quick fixes (`textDocument/codeAction`): a did-you-mean applied, a missing table row
//! and a missing record field added; each attached to its diagnostic, and checked by
//! applying it and reading the diagnostics that follow.

use super::*;

const DATA: &str = "\
ruleset:
  name: fixes
  title: Fixes
scales:
  DamageLevel: [NoWound, Minor, Moderate, Severe, Critical]
enums:
  HitLocation: [Head, Torso, Arm, Leg]
types:
  Fighter:
    skill: int
    armor: { type: int, default: 0 }
    hurt: DamageLevel
tables:
  hit_locations:
    die: d4
    value: HitLocation
    rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }
  blows:
    die: d12
    value: DamageLevel
    rows:
      12: Critical   # the best
      11: Severe
      1-10: Minor
records:
  Fighter:
    Mira: { skill: 3, hurt: NoWound }
    Oswin:
      skill: 2
      hurt: Minor
";

/// The byte offset of an LSP position in ASCII text.
fn offset(text: &str, p: &Value) -> usize {
    let line = p["line"].as_u64().unwrap() as usize;
    let col = p["character"].as_u64().unwrap() as usize;
    text.split_inclusive('\n')
        .take(line)
        .map(str::len)
        .sum::<usize>()
        + col
}

/// `text` with one file's edits of a workspace edit applied.
fn apply(text: &str, edit: &Value, uri: &str) -> String {
    let mut edits = edit["changes"][uri].as_array().expect("edits").clone();
    edits.sort_by_key(|e| std::cmp::Reverse(offset(text, &e["range"]["start"])));
    let mut out = text.to_string();
    for e in edits {
        let (a, b) = (
            offset(text, &e["range"]["start"]),
            offset(text, &e["range"]["end"]),
        );
        out.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    out
}

/// The quick fixes offered at a position, and the diagnostics they were for.
fn actions_at(c: &mut Client, uri: &str, at: Value, diags: &[Value]) -> Vec<Value> {
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at},
            "context": {"diagnostics": diags}}),
    );
    r.as_array().expect("a list of actions").clone()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), DATA).unwrap();
    std::fs::write(dir.path().join("attack.rules"), ATTACK).unwrap();
    std::fs::write(
        dir.path().join("blows.rules"),
        "procedure blow(f: Fighter) -> DamageLevel {\n  return roll blows\n}\n",
    )
    .unwrap();
    dir
}

/// A server started on [`project`] with its `ruleset.yaml` open and clean.
fn opened() -> (tempfile::TempDir, Client, String) {
    let dir = project();
    let data = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&data, DATA);
    assert_eq!(c.diagnostics(&data), Vec::<Value>::new());
    (dir, c, data)
}

/// `bad` sent as `version` of `data`: its one diagnostic (of `code`), and the one quick
/// fix offered at the position `at` picks from it, applied: (the fix, the diagnostics,
/// the text fixed).
fn the_one_fix(
    c: &mut Client,
    data: &str,
    (version, bad): (i32, &str),
    code: &str,
    at: impl Fn(&Value) -> Value,
) -> (Value, Vec<Value>, String) {
    c.change(data, version, bad);
    let diags = c.diagnostics(data);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], code);
    let actions = actions_at(c, data, at(&diags[0]), &diags);
    assert_eq!(actions.len(), 1, "{actions:?} {diags:?}");
    let applied = apply(bad, &actions[0]["edit"], data);
    (actions[0].clone(), diags, applied)
}

#[test]
fn did_you_mean_is_a_quick_fix_in_rules_and_yaml() {
    let dir = project();
    let attack = uri(&dir.path().join("attack.rules"));
    let data = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(
        init["capabilities"]["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    let typo = ATTACK.replace("d12! + bonus", "d12! + bonsu");
    c.open(&attack, &typo);
    let diags = c.diagnostics(&attack);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let actions = actions_at(&mut c, &attack, pos(&typo, "bonsu", 0, 2), &diags);
    assert_eq!(actions.len(), 1, "{actions:?}");
    let a = &actions[0];
    assert_eq!(a["title"], "replace `bonsu` with `bonus`");
    assert_eq!(a["kind"], "quickfix");
    assert_eq!(a["isPreferred"], true);
    assert_eq!(a["diagnostics"], json!(diags));
    let fixed = apply(&typo, &a["edit"], &attack);
    assert_eq!(fixed, ATTACK);
    c.change(&attack, 2, &fixed);
    assert_eq!(c.diagnostics(&attack), Vec::<Value>::new());
    // Nothing to fix away from the diagnostic, or when the editor wants refactors only.
    assert_eq!(
        actions_at(&mut c, &attack, pos(&fixed, "procedure", 0, 0), &[]),
        Vec::<Value>::new()
    );

    // A YAML key: `dice` for `die`.
    c.open(&data, DATA);
    c.diagnostics(&data);
    let bad = DATA.replace("    die: d4", "    dice: d4");
    c.change(&data, 2, &bad);
    let diags = c.diagnostics(&data);
    let actions = actions_at(&mut c, &data, pos(&bad, "dice", 0, 1), &diags);
    let fix = actions
        .iter()
        .find(|a| a["title"] == "replace `dice` with `die`")
        .unwrap_or_else(|| panic!("{actions:?}"));
    let fixed = apply(&bad, &fix["edit"], &data);
    assert_eq!(fixed, DATA);
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": data}, "range": {"start": pos(&bad, "dice", 0, 1), "end": pos(&bad, "dice", 0, 1)},
            "context": {"diagnostics": diags, "only": ["refactor"]}}),
    );
    assert_eq!(r, json!([]));
    c.shutdown();
}

#[test]
fn a_missing_table_row_is_added_as_a_copy_of_its_neighbour() {
    let (_dir, mut c, data) = opened();
    // (written, key to ask at, fixed): a flow mapping with face 2 missing (the row
    // below it, 1, is copied after it); a block mapping with face 11 missing (the row
    // below it, 1-10, is copied on a new line after it, its comment kept); faces 1-3
    // missing, no row below (the row above, 4, is copied, as one range).
    let cases = [
        (
            "rows: { 4: Head, 3: Torso, 1: Leg }",
            "hit_locations",
            "rows: { 4: Head, 3: Torso, 1: Leg, 2: Leg }",
            "add the missing row 2 to `hit_locations`",
        ),
        (
            "      11: Severe\n",
            "blows",
            "      12: Critical   # the best\n      1-10: Minor\n      11: Minor\n",
            "add the missing row 11 to `blows`",
        ),
        (
            "rows: { 4: Head }",
            "hit_locations",
            "rows: { 4: Head, 1-3: Head }",
            "add the missing row 1-3 to `hit_locations`",
        ),
    ];
    for (v, (written, table, fixed_rows, title)) in cases.into_iter().enumerate() {
        let (bad, fixed) = if table == "blows" {
            let bad = DATA.replace(written, "");
            let fixed = bad.replace(
                "      12: Critical   # the best\n      1-10: Minor\n",
                fixed_rows,
            );
            (bad, fixed)
        } else {
            let bad = DATA.replace("rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }", written);
            (bad.clone(), bad.replace(written, fixed_rows))
        };
        let version = 2 * v as i32 + 2;
        let at = |_: &Value| pos(&bad, table, 0, 1);
        let (fix, diags, applied) = the_one_fix(&mut c, &data, (version, &bad), "E0310", at);
        let got = fix["title"].as_str().unwrap();
        assert!(got.starts_with(title), "{got}");
        assert_eq!(fix["isPreferred"], false);
        assert_eq!(fix["diagnostics"], json!(diags));
        assert_eq!(applied, fixed);
        // The fixed table checks.
        c.change(&data, version + 1, &applied);
        assert_eq!(c.diagnostics(&data), Vec::<Value>::new(), "{applied}");
    }
    c.shutdown();
}

#[test]
fn a_missing_field_is_added_with_a_placeholder_of_its_type() {
    let (_dir, mut c, data) = opened();
    // A flow record without `skill` and `hurt`; a block record without `hurt`. `armor`
    // has a default: never missing.
    let cases = [
        (
            "Mira: { skill: 3, hurt: NoWound }",
            "Mira: { armor: 1 }",
            "Mira: { armor: 1, skill: \"<int>\", hurt: \"<DamageLevel>\" }",
            "Mira",
        ),
        (
            "      hurt: Minor\n",
            "",
            "      skill: 2\n      hurt: \"<DamageLevel>\"\n",
            "Oswin",
        ),
    ];
    for (v, (good, bad_text, fixed_text, record)) in cases.into_iter().enumerate() {
        let bad = DATA.replace(good, bad_text);
        let version = 2 * v as i32 + 2;
        // Asked where the diagnostic starts.
        let at = |d: &Value| d["range"]["start"].clone();
        let (_, diags, applied) = the_one_fix(&mut c, &data, (version, &bad), "E0106", at);
        // The diagnostic is on the record's mapping.
        let line = pos(&bad, record, 0, 0)["line"].as_u64().unwrap();
        let start = &diags[0]["range"]["start"];
        assert_eq!(
            start["line"],
            line + (record == "Oswin") as u64,
            "{diags:?}"
        );
        let expected = if record == "Oswin" {
            bad.replace("      skill: 2\n", fixed_text)
        } else {
            bad.replace(bad_text, fixed_text)
        };
        assert_eq!(applied, expected);
        // The placeholder does not check: the writer must fill it in.
        c.change(&data, version + 1, &applied);
        let after = c.diagnostics(&data);
        assert!(!after.is_empty(), "{applied}");
        assert!(after.iter().all(|d| d["code"] != "E0106"), "{after:?}");
    }
    c.shutdown();
}
