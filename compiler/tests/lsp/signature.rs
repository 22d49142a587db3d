//! Signature help (`textDocument/signatureHelp`) on calls to formulas and procedures,
//! and on outcome tags.

use super::*;

const RULES: &str = "\
outcome Blow { Miss, Hit(level: DamageLevel, location: HitLocation) }

// How hard a blow lands.
formula weight(f: Fighter, bonus: int, level: DamageLevel) -> int = f.skill + bonus

procedure strike(f: Fighter) -> Blow {
  let total = roll d12 + weight(f, 1, Minor)
  if total < 7 { return Miss }
  return Hit(level: Minor, location: roll hit_locations)
}
";

#[test]
fn signature_help_shows_the_parameters_and_the_one_being_written() {
    let dir = variant_project();
    std::fs::write(dir.path().join("base/combat.rules"), RULES).unwrap();
    let rules = uri(&dir.path().join("base/combat.rules"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(
        init["capabilities"]["signatureHelpProvider"]["triggerCharacters"],
        json!(["(", ","])
    );
    c.open(&rules, RULES);
    assert_eq!(c.diagnostics(&rules), Vec::<Value>::new());

    // The writer types a call, argument by argument (the text does not parse meanwhile).
    let mut version = 1;
    let mut typing = |c: &mut Client, partial: &str| -> Value {
        let text = RULES.replace("  if total", &format!("  let w = {partial}\n  if total"));
        version += 1;
        c.change(&rules, version, &text);
        let at = pos(&text, partial, 0, partial.len());
        c.request("textDocument/signatureHelp", doc_pos(&rules, at))
    };
    let signature = "formula weight(f: Fighter, bonus: int, level: DamageLevel) -> int";
    for (partial, active) in [
        ("weight(", 0),
        ("weight(f", 0),
        ("weight(f, ", 1),
        // A nested call's commas are its own.
        ("weight(f, max(1, 2), ", 2),
    ] {
        let r = typing(&mut c, partial);
        assert_eq!(r["signatures"][0]["label"], signature, "{partial}: {r}");
        assert_eq!(r["activeParameter"], active, "{partial}: {r}");
        assert_eq!(
            r["signatures"][0]["parameters"],
            json!([{"label": "f: Fighter"}, {"label": "bonus: int"}, {"label": "level: DamageLevel"}]),
        );
        assert_eq!(
            r["signatures"][0]["documentation"],
            "How hard a blow lands."
        );
    }
    // Inside the nested built-in call: nothing known of `max`.
    assert_eq!(typing(&mut c, "weight(f, max(1, "), Value::Null);
    // An outcome's tag: its fields; a named one is active wherever it is written.
    for (partial, active) in [
        ("Hit(", 0),
        ("Hit(level: Minor, location: ", 1),
        ("Hit(location: roll hit_locations, level: Mi", 0),
    ] {
        let r = typing(&mut c, partial);
        assert_eq!(
            r["signatures"][0]["label"], "Blow.Hit(level: DamageLevel, location: HitLocation)",
            "{partial}: {r}"
        );
        assert_eq!(r["activeParameter"], active, "{partial}: {r}");
    }
    // A tag without fields, past the call, or in no call: nothing.
    assert_eq!(typing(&mut c, "Miss("), Value::Null);
    assert_eq!(typing(&mut c, "weight(f, 1, Minor) + "), Value::Null);
    assert_eq!(typing(&mut c, "(1 + "), Value::Null);
    c.shutdown();
}
