//! The TextMate grammar for `.rules` files stays in step with the language: it is valid
//! JSON and highlights every keyword the grammar of the DSL reserves.

use std::path::Path;

#[test]
fn textmate_grammar_knows_every_keyword() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let grammar =
        std::fs::read_to_string(root.join("editors/vscode/syntaxes/rules.tmLanguage.json"))
            .unwrap();
    let json: serde_json::Value = serde_json::from_str(&grammar).expect("valid JSON");
    assert_eq!(json["scopeName"], "source.rulesc");
    let pest = std::fs::read_to_string(root.join("crates/front/src/syntax/rules.pest")).unwrap();
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
            "`{k}` is not highlighted by editors/vscode/syntaxes/rules.tmLanguage.json"
        );
    }
}

#[test]
fn textmate_grammar_highlights_every_builtin() {
    for b in rulesc::syntax::BUILTINS {
        let line = format!("  return {b}(xs)");
        assert_eq!(
            scope_of(&line, b).as_deref(),
            Some("support.function.builtin.rulesc"),
            "`{b}(..)` is not highlighted as a built-in by the grammar"
        );
    }
}

/// The scopes the grammar gives the words of one line: a small TextMate engine for the
/// grammar's `match` rules (at each position the earliest match wins, ties going to the
/// rule listed first, as in TextMate).
fn scopes(line: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let grammar =
        std::fs::read_to_string(root.join("editors/vscode/syntaxes/rules.tmLanguage.json"))
            .unwrap();
    let json: serde_json::Value = serde_json::from_str(&grammar).unwrap();
    fn leaves<'a>(
        pats: &'a serde_json::Value,
        repo: &'a serde_json::Value,
        out: &mut Vec<&'a serde_json::Value>,
    ) {
        for p in pats.as_array().unwrap() {
            if let Some(inc) = p["include"].as_str() {
                let r = &repo[inc.trim_start_matches('#')];
                if r.get("patterns").is_some() {
                    leaves(&r["patterns"], repo, out);
                } else {
                    out.push(r);
                }
            } else if p.get("patterns").is_some() {
                leaves(&p["patterns"], repo, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut rules = Vec::new();
    leaves(&json["patterns"], &json["repository"], &mut rules);
    let compiled: Vec<(fancy_regex::Regex, &serde_json::Value)> = rules
        .into_iter()
        .map(|r| {
            (
                fancy_regex::Regex::new(r["match"].as_str().unwrap()).unwrap(),
                r,
            )
        })
        .collect();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < line.len() {
        let best = compiled
            .iter()
            .filter_map(|(re, r)| Some((re.captures_from_pos(line, pos).ok()??, *r)))
            .filter(|(c, _)| !c.get(0).unwrap().as_str().is_empty())
            .min_by_key(|(c, _)| c.get(0).unwrap().start());
        let Some((caps, rule)) = best else { break };
        let whole = caps.get(0).unwrap();
        if let Some(name) = rule["name"].as_str() {
            out.push((whole.as_str().to_string(), name.to_string()));
        }
        if let Some(groups) = rule["captures"].as_object() {
            for (i, scope) in groups {
                if let Some(g) = caps.get(i.parse().unwrap()) {
                    out.push((
                        g.as_str().trim().to_string(),
                        scope["name"].as_str().unwrap().to_string(),
                    ));
                }
            }
        }
        pos = whole.end();
    }
    out
}

fn scope_of(line: &str, word: &str) -> Option<String> {
    scopes(line)
        .into_iter()
        .find(|(w, _)| w == word)
        .map(|(_, s)| s)
}

#[test]
fn dice_are_dice_and_names_containing_dice_are_not() {
    let line = "let total = roll d20 + 2d6kh1! + d20_bonus + bonus_d8 + 3";
    assert_eq!(
        scope_of(line, "d20").as_deref(),
        Some("constant.other.dice.rulesc")
    );
    assert_eq!(
        scope_of(line, "2d6kh1!").as_deref(),
        Some("constant.other.dice.rulesc")
    );
    assert_eq!(
        scope_of(line, "3").as_deref(),
        Some("constant.numeric.integer.rulesc")
    );
    let words: Vec<String> = scopes(line).into_iter().map(|(w, _)| w).collect();
    for name in ["d20_bonus", "d20_", "bonus_d8", "d8"] {
        assert!(
            !words.iter().any(|w| w == name),
            "`{name}` got a scope: {words:?}"
        );
    }
}

#[test]
fn primitive_types_are_highlighted() {
    let line = "formula f(a: int, b: bool, c: dice, d: list<int>, e: map<Skill, int>) -> int";
    for ty in ["int", "bool", "dice", "list", "map"] {
        assert_eq!(
            scope_of(line, ty).as_deref(),
            Some("support.type.primitive.rulesc"),
            "{ty}"
        );
    }
    // `map` and `list` are types only before `<`.
    assert_eq!(scope_of("let list = 1", "list"), None);
}

#[test]
fn outcomes_are_types_and_formulas_functions() {
    let line = "outcome AttackResult { Miss, Hit(level: DamageLevel) }";
    assert_eq!(
        scope_of(line, "AttackResult").as_deref(),
        Some("entity.name.type.outcome.rulesc")
    );
    assert_eq!(
        scope_of(line, "outcome").as_deref(),
        Some("storage.type.rulesc")
    );
    let line = "override procedure attack(bonus: int) -> AttackResult {";
    assert_eq!(
        scope_of(line, "attack").as_deref(),
        Some("entity.name.function.rulesc")
    );
    assert_eq!(
        scope_of(line, "override").as_deref(),
        Some("storage.modifier.override.rulesc")
    );
    let line = "formula bonus(x: int) -> int = x";
    assert_eq!(
        scope_of(line, "bonus").as_deref(),
        Some("entity.name.function.rulesc")
    );
}

#[test]
fn vscode_extension_wires_the_grammar_and_the_server() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    let grammar = &manifest["contributes"]["grammars"][0];
    assert_eq!(grammar["scopeName"], "source.rulesc");
    assert_eq!(grammar["language"], "rulesc");
    assert!(dir.join(grammar["path"].as_str().unwrap()).is_file());
    let language = &manifest["contributes"]["languages"][0];
    assert_eq!(language["id"], "rulesc");
    assert_eq!(language["extensions"], serde_json::json!([".rules"]));
    assert!(dir
        .join(language["configuration"].as_str().unwrap())
        .is_file());
    let main = std::fs::read_to_string(dir.join(manifest["main"].as_str().unwrap())).unwrap();
    assert!(
        main.contains(r#"args: ["lsp"]"#),
        "the extension starts `rulesc lsp`"
    );
    assert!(manifest["dependencies"]["vscode-languageclient"].is_string());
}

/// `npx @vscode/vsce package` runs without a prompt: the manifest names its licence and
/// repository, the folder has a LICENSE, a `.vscodeignore` and a lockfile (`npm ci`).
#[test]
fn vscode_extension_packages_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join("editors/vscode");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    // The repository's licence, as the workspace states it.
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let license = cargo
        .lines()
        .find_map(|l| l.strip_prefix("license = "))
        .expect("the workspace's licence")
        .trim_matches('"');
    assert_eq!(manifest["license"], license);
    let text = std::fs::read_to_string(dir.join("LICENSE")).expect("editors/vscode/LICENSE");
    for part in ["MIT License", "Apache License", "Version 2.0"] {
        assert!(text.contains(part), "LICENSE lacks `{part}`");
    }
    let repo = &manifest["repository"];
    assert_eq!(repo["type"], "git");
    assert!(repo["url"].as_str().unwrap().starts_with("https://"));
    assert_eq!(repo["directory"], "editors/vscode");
    for key in ["name", "publisher", "version", "displayName", "description"] {
        assert!(manifest[key].is_string(), "package.json lacks `{key}`");
    }
    assert!(manifest["engines"]["vscode"].is_string());
    let ignore = std::fs::read_to_string(dir.join(".vscodeignore")).expect(".vscodeignore");
    assert!(ignore.lines().any(|l| l == "*.vsix"), "{ignore}");
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package-lock.json")).unwrap())
            .unwrap();
    assert_eq!(lock["name"], manifest["name"]);
    assert_eq!(
        lock["packages"][""]["dependencies"], manifest["dependencies"],
        "package-lock.json is stale: run `npm install --package-lock-only`"
    );
    for dep in manifest["dependencies"].as_object().unwrap().keys() {
        assert!(
            lock["packages"][format!("node_modules/{dep}")]["version"].is_string(),
            "`{dep}` is not locked"
        );
    }
}

/// Editors toggle comments with the token every shipped `.rules` file uses: `//`.
#[test]
fn editors_comment_with_the_shipped_token() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    fn rules_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                rules_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rules") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    rules_files(&root.join("rules"), &mut files);
    rules_files(&root.join("examples"), &mut files);
    let mut comments = 0;
    for f in &files {
        for (i, line) in std::fs::read_to_string(f).unwrap().lines().enumerate() {
            let line = line.trim_start();
            assert!(
                !line.starts_with('#'),
                "{}:{}: a `#` comment",
                f.display(),
                i + 1
            );
            comments += usize::from(line.starts_with("//"));
        }
    }
    assert!(
        comments > 100,
        "{comments} comments in {} files",
        files.len()
    );
    let config: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("editors/vscode/language-configuration.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(config["comments"]["lineComment"], "//");
    let readme = std::fs::read_to_string(root.join("editors/README.md")).unwrap();
    let helix: Vec<&str> = readme
        .lines()
        .filter(|l| l.trim_start().starts_with("comment-token"))
        .collect();
    assert_eq!(helix, [r#"  comment-token = "//""#], "the Helix snippet");
}
