//! Generated code is documented from the writer's own words: the comments above a
//! definition in YAML and in `.rules` (and after it on its line in YAML), a field's `doc:`,
//! and where each definition is written (`fixtures/codegen/documented`, built by
//! `build.rs`). That every item has docs at all is `no_std.rs`'s `deny(missing_docs)`.

fn generated() -> String {
    std::fs::read_to_string(concat!(env!("OUT_DIR"), "/documented.rs")).expect("build.rs output")
}

/// The `///` lines right above the line holding `item`, in order.
fn docs_of(code: &str, item: &str) -> Vec<String> {
    let lines: Vec<&str> = code.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(item))
        .unwrap_or_else(|| panic!("no `{item}` in the generated code"));
    let mut docs = Vec::new();
    for l in lines[..at].iter().rev() {
        let l = l.trim();
        if let Some(d) = l.strip_prefix("///") {
            docs.push(d.trim().to_string());
        } else if !l.starts_with("#[") {
            break;
        }
    }
    docs.reverse();
    docs
}

#[test]
fn definitions_take_the_comments_above_them_and_their_place() {
    let code = generated();
    let cases: &[(&str, &[&str])] = &[
        (
            "pub enum Severity",
            &[
                "How bad a wound is.",
                "",
                "Defined in `documented/ruleset.yaml`, line 12.",
            ],
        ),
        (
            "pub struct Fighter",
            &[
                "Someone in a fight.",
                "Two lines of comment.",
                "",
                "Defined in `documented/ruleset.yaml`, line 27.",
            ],
        ),
        (
            "pub type Wounds",
            &[
                "The boxes a fighter fills when wounded.",
                "",
                "Defined in `documented/ruleset.yaml`, line 35.",
            ],
        ),
        (
            "pub enum Strike",
            &[
                "What a strike ends in.",
                "",
                "Defined in `documented/strike.rules`, line 2.",
            ],
        ),
        (
            "pub fn strike<",
            &[
                "A strike at `f`: a d6 plus the bonus against its toughness; a hit lands where the",
                "height table says.",
                "",
                "Defined in `documented/strike.rules`, line 14.",
            ],
        ),
        (
            "pub fn champion()",
            &[
                "The one everybody fears.",
                "",
                "Defined in `documented/ruleset.yaml`, line 52.",
            ],
        ),
    ];
    for (item, want) in cases {
        assert_eq!(docs_of(&code, item), *want, "{item}");
    }
    // A trailing YAML comment joins the one above; a `#` inside it is text.
    assert_eq!(
        docs_of(&code, "pub const BONUS"),
        [
            "Added to every strike.",
            "a \"small\" bonus, # not a second comment",
            "",
            "Defined in `documented/ruleset.yaml`, line 22."
        ]
    );
}

/// Rustdoc runs a fenced block with no language, or `rust`, as a doctest of the crate
/// that includes the module: a writer's example would break a game's `cargo test`, and a
/// stranger's ruleset could run code there. Every fence in the writer's text is `text`,
/// and one left open is closed before the generated lines. (The module is part of this
/// crate's library, so `cargo test` runs its doc comments: the `compile_error!`s in the
/// fixture's comments would fail it.)
#[test]
fn code_in_the_writers_comments_is_text_not_doctests() {
    let code = generated();
    assert_eq!(
        docs_of(&code, "pub fn strike_bonus("),
        [
            "The bonus, with an example the writer never closed:",
            "~~~text",
            "compile_error!(\"a writer's unclosed example ran as a doctest\");",
            "~~~",
            "",
            "Defined in `documented/strike.rules`, line 27.",
        ]
    );
}

#[test]
fn parts_take_their_comments_docs_and_labels() {
    let code = generated();
    // A field: the comment above it, then its `doc:`.
    assert_eq!(
        docs_of(&code, "pub toughness: i64"),
        ["How much a blow must beat.", "from the character sheet"]
    );
    // Without either, what it is.
    assert_eq!(
        docs_of(&code, "pub keyword: Keyword"),
        ["`keyword`: `Keyword`."]
    );
    // A level with a trailing comment, one without, a tag with a comment above it.
    assert_eq!(docs_of(&code, "Scratch,"), ["barely there"]);
    assert_eq!(docs_of(&code, "Deep,"), ["Level `Deep`."]);
    assert_eq!(docs_of(&code, "Miss,"), ["It missed."]);
    assert_eq!(
        docs_of(&code, "Hit {"),
        [
            "It landed, as a writer might show it:",
            "```text",
            "compile_error!(\"a tag's comment ran as a doctest\");",
            "```"
        ]
    );
    // Names Rust keeps become identifiers that are not keywords, still documented.
    let keywords = [
        ("Self_", "self"),
        ("Self2", "Self"),
        ("Super", "super"),
        ("Crate", "crate"),
    ];
    for (ident, name) in keywords {
        assert_eq!(
            docs_of(&code, &format!("    {ident},")),
            [format!("Value `{name}`.")],
            "{ident}"
        );
    }
}
