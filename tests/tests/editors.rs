//! The TextMate grammar for `.rules` files stays in step with the language: it is valid
//! JSON and highlights every keyword the grammar of the DSL reserves.

use std::path::Path;

#[test]
fn textmate_grammar_knows_every_keyword() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let grammar = std::fs::read_to_string(root.join("editors/rules.tmLanguage.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&grammar).expect("valid JSON");
    assert_eq!(json["scopeName"], "source.rulesc");
    let pest = std::fs::read_to_string(root.join("compiler/src/syntax/rules.pest")).unwrap();
    // Keyword token rules are written `k_<word> = @{ "<word>" ~ !ident_char }`.
    let keywords: Vec<&str> = pest
        .lines()
        .filter(|l| l.starts_with("k_"))
        .filter_map(|l| l.split('"').nth(1))
        .chain(["and", "or", "not", "true", "false"])
        .collect();
    assert!(keywords.len() >= 20, "{keywords:?}");
    for k in keywords {
        assert!(
            grammar.contains(&format!("|{k}|"))
                || grammar.contains(&format!("({k}|"))
                || grammar.contains(&format!("|{k})")),
            "`{k}` is not highlighted by editors/rules.tmLanguage.json"
        );
    }
}
