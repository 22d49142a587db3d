//! The duel runs as a player runs it, `cargo run -p duel -- --seed 7`, and prints the same
//! fight every time: the snapshot is that fight, blow by blow.

use std::process::Command;

fn duel(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_duel"))
        .args(args)
        .output()
        .expect("the duel runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn seed_7_is_the_same_fight_every_time() {
    let (code, out, err) = duel(&["--seed", "7"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        duel(&["--seed", "7"]).1,
        out,
        "the same seed, another fight"
    );
    assert_ne!(
        duel(&["--seed", "8"]).1,
        out,
        "another seed, the same fight"
    );
    // It ends with a winner, after blows traced to the rules' lines.
    assert!(
        out.lines().last().unwrap().contains(" wins in round "),
        "{out}"
    );
    assert!(out.contains("kingsmark/melee.rules:7"), "{out}");
    // The rules' own fight runs it: the engine's rounds and turns, cited to the
    // ruleset's `fight of Combatant`.
    assert!(
        out.contains("kingsmark/fight.rules:")
            && out.contains("-- round 1")
            && out.contains("-- turn of Sir Aldren"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn bad_input_is_an_error_that_says_what_is_wrong() {
    let (code, _, err) = duel(&["--seed", "seven"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`seven` is not a seed"), "{err}");

    let dir = std::env::temp_dir().join(format!("duel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (r#"{ "fighters": [] }"#, "a duel needs two fighters, not 0"),
        (
            r#"{ "fighters": [ { "name": "A", "weapon": "spoon", "combatant": {} }, { "name": "B", "weapon": "longbow", "combatant": {} } ] }"#,
            "no weapon `spoon`",
        ),
        (
            r#"{ "fighters": [ { "name": "A", "weapon": "longbow", "combatant": { "strength": 3 } } ] }"#,
            "unknown field `strength`",
        ),
    ];
    for (json, says) in cases {
        let file = dir.join("fighters.json");
        std::fs::write(&file, json).unwrap();
        let (code, _, err) = duel(&["--fighters", file.to_str().unwrap()]);
        assert_eq!(code, 1, "{json}: {err}");
        assert!(err.contains(says), "{json}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
