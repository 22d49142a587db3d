//! Packs built on packs (issue 12 §3): `requires:` reads other packs first, once each,
//! inside the project folder and without cycles; `_copy` copies a record and changes
//! some fields. Each mistake as a writer (or a stranger's pack) makes it, and what
//! rulesc says.

mod run;

use run::{root, rulesc_in};
use std::path::Path;

/// A project (marked by `rulesc.toml`) holding `rules/duel`: a weapon and a fighter
/// type, and a procedure that shows a fighter's weapon.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    write(p, "rulesc.toml", "");
    write(
        p,
        "rules/duel/ruleset.yaml",
        "ruleset: { name: duel }
scales:
  Harm: [Scratch, Wound, Down]
types:
  Weapon:
    damage: Harm
    bonus: { type: int, default: 0 }
  Fighter:
    weapon: Weapon
    speed: int
records:
  Weapon:
    dagger: { damage: Scratch }
",
    );
    write(
        p,
        "rules/duel/strike.rules",
        "procedure strike(f: Fighter) -> int {
  return f.weapon.bonus * 10 + f.speed
}
",
    );
    write(
        p,
        "packs/armory.yaml",
        "pack: { name: armory, ruleset: duel }
records:
  Weapon:
    axe: { damage: Wound, bonus: 2 }
  Fighter:
    axeman: { weapon: axe, speed: 3 }
",
    );
    write(
        p,
        "packs/heavy.yaml",
        "pack:
  name: heavy
  ruleset: duel
  requires: [armory.yaml]
records:
  Weapon:
    great_axe: { _copy: axe, damage: Down }
  Fighter:
    brute: { _copy: axeman, weapon: great_axe }
",
    );
    dir
}

/// `rulesc [flags] check --ruleset rules/duel <pack>` in project `p`.
fn check(p: &Path, flags: &[&str], pack: &str) -> (i32, String, String) {
    let args = [flags, &["check", "--ruleset", "rules/duel", pack]].concat();
    rulesc_in(p, &args, &[])
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The messages and helps of rendered diagnostics as words (without the source lines,
/// whose width, and where the help wraps, depend on the temporary folders' names), with
/// the project's path replaced.
fn words(err: &str, dir: &Path) -> String {
    let abs = dir.canonicalize().unwrap().display().to_string();
    err.lines()
        .filter(|l| !l.contains(['│', '·', '╭', '╰']))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
        .replace(&abs, "<project>")
        .replace(" help:", "\nhelp:")
}

#[test]
fn a_pack_requires_another_and_copies_its_records() {
    let dir = project();
    let p = dir.path();
    // The required pack is read first and applied too: naming only the last is enough.
    let (code, out, err) = check(p, &[], "packs/heavy.yaml");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "ok: pack armory for duel: 2 record(s)\nok: pack heavy for duel: 2 record(s)\n"
    );
    // Naming both (in either order) reads each once: no record is defined twice.
    for order in [
        ["packs/armory.yaml", "packs/heavy.yaml"],
        ["packs/heavy.yaml", "packs/armory.yaml"],
    ] {
        let mut args = vec!["check", "--ruleset", "rules/duel"];
        args.extend(order);
        let (code, out, err) = rulesc_in(p, &args, &[]);
        assert_eq!(code, 0, "{order:?}: {err}");
        assert_eq!(out.lines().count(), 2, "{out}");
    }
    // The copy keeps what it does not change: the brute has the axeman's speed (3) and
    // the great axe the axe's bonus (2), with its own damage.
    write(p, "brute.yaml", "run: strike\nargs: { f: brute }\n");
    let (code, out, err) = rulesc_in(
        p,
        &[
            "trace",
            "rules/duel",
            "brute.yaml",
            "--pack",
            "packs/heavy.yaml",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("result: 23\n"), "{out}");
    let (code, out, err) = rulesc_in(
        p,
        &["export", "rules/duel", "--pack", "packs/heavy.yaml"],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let great_axe = &v["records"]["Weapon"]["great_axe"];
    assert_eq!(great_axe["damage"], "Down", "{great_axe}");
    assert_eq!(great_axe["bonus"], 2, "{great_axe}");
    assert_eq!(v["records"]["Fighter"]["brute"]["speed"], 3);
    // The copy is a record of its own: the axe is unchanged.
    assert_eq!(v["records"]["Weapon"]["axe"]["damage"], "Wound");
    // Generated code has the copies' constructors.
    let (code, _, err) = rulesc_in(
        p,
        &[
            "build",
            "rules/duel",
            "-o",
            "gen/duel.rs",
            "--pack",
            "packs/heavy.yaml",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let rust = std::fs::read_to_string(p.join("gen/duel.rs")).unwrap();
    assert!(
        rust.contains("pub fn great_axe()"),
        "no great_axe in the Rust"
    );
    assert!(rust.contains("pub fn axe()"), "no axe in the Rust");
    // explain finds a required pack's record in its own file.
    let (code, out, err) = rulesc_in(
        p,
        &["explain", "rules/duel", "axe", "--pack", "packs/heavy.yaml"],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("record axe (Weapon, from pack armory)")
            && out.contains("packs/armory.yaml:4"),
        "{out}"
    );
    // A copy of a ruleset's record shows what it keeps from the ruleset's file.
    write(
        p,
        "packs/long.yaml",
        "pack: { name: long }\nrecords:\n  Weapon:\n    long_dagger: { _copy: dagger, bonus: 1 }\n",
    );
    let (code, out, err) = rulesc_in(
        p,
        &[
            "explain",
            "rules/duel",
            "long_dagger",
            "--pack",
            "packs/long.yaml",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[1].starts_with("  _copy: dagger"), "{out}");
    assert!(
        lines[2].starts_with("  bonus: 1") && lines[2].ends_with("packs/long.yaml:4"),
        "{out}"
    );
    assert!(
        lines[3].starts_with("  damage: Scratch") && lines[3].ends_with("duel/ruleset.yaml:13"),
        "{out}"
    );
}

#[test]
fn a_diamond_of_requires_reads_the_shared_pack_once() {
    let dir = project();
    let p = dir.path();
    write(
        p,
        "packs/left.yaml",
        "pack: { name: left, requires: armory.yaml }
records:
  Weapon:
    left_axe: { _copy: axe, bonus: 1 }
",
    );
    write(
        p,
        "packs/right.yaml",
        "pack: { name: right, requires: [armory.yaml] }
records:
  Weapon:
    right_axe: { _copy: axe, bonus: 3 }
",
    );
    write(
        p,
        "packs/both.yaml",
        "pack: { name: both, requires: [left.yaml, right.yaml] }
records:
  Fighter:
    twin: { weapon: left_axe, speed: 0 }
",
    );
    let (code, out, err) = check(p, &[], "packs/both.yaml");
    assert_eq!(code, 0, "{err}");
    let packs: Vec<&str> = out.lines().map(|l| l.split(' ').nth(2).unwrap()).collect();
    assert_eq!(packs, ["armory", "left", "right", "both"], "{out}");
}

#[test]
fn requires_mistakes_say_which_pack_and_how_to_fix_it() {
    let dir = project();
    let p = dir.path();
    // A path that leads nowhere: the pack requiring it is not checked further (its
    // `_copy: axe` would only repeat that the armory is missing).
    write(
        p,
        "packs/typo.yaml",
        "pack: { name: typo, requires: [armoury.yaml] }
records:
  Weapon:
    maul: { _copy: axe }
",
    );
    // A cycle, through another pack.
    write(
        p,
        "packs/ping.yaml",
        "pack: { name: ping, requires: [pong.yaml] }\n",
    );
    write(
        p,
        "packs/pong.yaml",
        "pack: { name: pong, requires: [ping.yaml] }\n",
    );
    // A pack requiring itself.
    write(
        p,
        "packs/self.yaml",
        "pack: { name: self, requires: [./self.yaml] }\n",
    );
    // Not a path.
    write(
        p,
        "packs/list.yaml",
        "pack: { name: list, requires: [{ file: armory.yaml }] }\n",
    );
    let mut shown = String::new();
    for pack in ["typo", "ping", "self", "list"] {
        let file = format!("packs/{pack}.yaml");
        let (code, out, err) = check(p, &["--color", "never"], &file);
        assert_eq!(code, 1, "{pack}: {out}{err}");
        assert_eq!(out, "", "{pack}");
        shown.push_str(&format!("--- {file}\n{err}"));
    }
    insta::assert_snapshot!(shown);
}

#[test]
fn a_pack_cannot_require_a_file_outside_its_project() {
    let dir = project();
    let p = dir.path();
    // A file outside the project, whose text must never reach a diagnostic.
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.yaml");
    std::fs::write(&secret, "pack: { name: SECRET_TEXT }\nrecords: nope\n").unwrap();
    let secret_abs = secret.canonicalize().unwrap();
    write(
        p,
        "packs/stranger.yaml",
        &format!(
            "pack: {{ name: stranger, requires: [{}] }}\n",
            secret_abs.display()
        ),
    );
    // Relative, climbing out.
    let up = "../".repeat(p.canonicalize().unwrap().components().count() + 2);
    write(
        p,
        "packs/climber.yaml",
        &format!(
            "pack: {{ name: climber, requires: [{up}{}] }}\n",
            secret_abs.display().to_string().trim_start_matches('/')
        ),
    );
    // Through a link inside the project that leads out.
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret_abs, p.join("packs/inside.yaml")).unwrap();
    write(
        p,
        "packs/linked.yaml",
        "pack: { name: linked, requires: [inside.yaml] }\n",
    );
    let mut cases = vec!["stranger", "climber"];
    if cfg!(unix) {
        cases.push("linked");
    }
    for pack in cases {
        let file = format!("packs/{pack}.yaml");
        let (code, out, err) = check(p, &["--format", "json"], &file);
        assert_eq!(code, 1, "{pack}: {out}{err}");
        assert!(err.contains("\"E0408\""), "{pack}: {err}");
        assert!(!err.contains("SECRET_TEXT"), "{pack}: {err}");
        assert!(!err.contains("E0001"), "{pack}: {err}");
        assert_eq!(err.lines().count(), 1, "{pack}: {err}");
    }
    let (_, _, err) = check(p, &[], "packs/stranger.yaml");
    let shown = words(&err, p).replace(
        &outside.path().canonicalize().unwrap().display().to_string(),
        "<outside>",
    );
    insta::assert_snapshot!(shown);
    // The way out the help names: a project folder holding both.
    write(
        outside.path(),
        "secret.yaml",
        "pack: { name: shared, ruleset: duel }\nrecords: { Weapon: { club: { damage: Wound } } }\n",
    );
    let (code, out, err) = check(p, &["--root", "/"], "packs/stranger.yaml");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ok: pack shared for duel: 1 record(s)"),
        "{out}"
    );
}

#[test]
fn a_chain_of_requires_deeper_than_the_limit_is_refused() {
    let dir = project();
    let p = dir.path();
    let depth = rulesc::pack::MAX_REQUIRES + 2;
    for i in 0..depth {
        let requires = if i + 1 < depth {
            format!(", requires: [p{}.yaml]", i + 1)
        } else {
            String::new()
        };
        write(
            p,
            &format!("packs/p{i}.yaml"),
            &format!("pack: {{ name: p{i}{requires} }}\n"),
        );
    }
    let (code, _, err) = check(p, &[], "packs/p0.yaml");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0409"), "{err}");
    assert!(
        err.contains(&format!(
            "more than {} packs require one another",
            rulesc::pack::MAX_REQUIRES
        )),
        "{err}"
    );
    // At the limit, it checks.
    let (code, out, err) = check(
        p,
        &[],
        &format!("packs/p{}.yaml", depth - rulesc::pack::MAX_REQUIRES),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), rulesc::pack::MAX_REQUIRES, "{out}");
}

#[test]
fn copy_mistakes_are_reported_once_each() {
    let dir = project();
    let p = dir.path();
    write(
        p,
        "packs/copies.yaml",
        "pack: { name: copies, requires: [armory.yaml] }
records:
  Weapon:
    hatchet: { _copy: axx }               # a typo
    odd: { _copy: axeman }                # a Fighter, not a Weapon
    listed: { _copy: [axe] }              # not a name
    broken: { damage: Sharp }             # invalid itself...
    copy_of_broken: { _copy: broken }     # ...so its copy says nothing more
    fine: { _copy: axe, bonsu: 1 }        # a field the type does not have
    forward: { _copy: later }             # a record further down is not known yet
    later: { damage: Wound }
",
    );
    let (code, out, err) = check(p, &["--color", "never"], "packs/copies.yaml");
    assert_eq!(code, 1, "{out}{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn the_shipped_pack_built_on_a_pack_checks() {
    let (code, out, err) = rulesc_in(
        &root(),
        &[
            "check",
            "--ruleset",
            "rules/kingsmark",
            "examples/homebrew/black_forest_veterans.yaml",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "ok: pack black_forest_armory for kingsmark: 4 record(s)\n\
         ok: pack black_forest_veterans for kingsmark: 2 record(s)\n"
    );
    // The great flamberge keeps the flamberge's critical threshold and damage type.
    let (code, out, err) = rulesc_in(
        &root(),
        &[
            "explain",
            "rules/kingsmark",
            "great_flamberge",
            "--pack",
            "examples/homebrew/black_forest_veterans.yaml",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("base_damage: Severe"), "{out}");
    assert!(
        out.lines().any(|l| l.contains("critical_threshold: 12")
            && l.ends_with("examples/homebrew/black_forest_armory.yaml:11")),
        "{out}"
    );
}
