//! Issue 12 §3, "no surprises": each mistake as a writer makes it on the command line,
//! and what rulesc says, kept as a snapshot (read before it was accepted).

mod run;

use run::{root, rulesc_in};
use std::path::Path;

/// Copies a folder (files only, one level of subfolders).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// A project folder holding `rules/skirmish`, a copy of the tutorial-sized fixture.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/warnings/w0005_skipped_files"),
        &dir.path().join("rules/skirmish"),
    );
    for skipped in ["data.yml", "extra.rule"] {
        std::fs::remove_file(dir.path().join("rules/skirmish").join(skipped)).unwrap();
    }
    std::fs::write(
        dir.path().join("rules/skirmish/ruleset.yaml"),
        std::fs::read_to_string(dir.path().join("rules/skirmish/ruleset.yaml"))
            .unwrap()
            .replace("name: fixture", "name: skirmish"),
    )
    .unwrap();
    dir
}

#[test]
fn diagnostic_paths_are_relative_to_the_current_folder() {
    let dir = project();
    std::fs::write(
        dir.path().join("rules/skirmish/extra.rules"),
        "procedure broken() -> int {\n  return undefined_name\n}\n",
    )
    .unwrap();
    let (code, _, err) = rulesc_in(dir.path(), &["check", "rules/skirmish"], &[]);
    assert_eq!(code, 1, "{err}");
    // `rules/skirmish/extra.rules:2:10`: a path a terminal or an editor can open from here.
    insta::assert_snapshot!(err);
    let (_, _, err) = rulesc_in(&dir.path().join("rules"), &["check", "skirmish"], &[]);
    assert!(err.contains("[skirmish/extra.rules:2:10]"), "{err}");
}

#[test]
fn all_refuses_two_rulesets_with_one_name() {
    let dir = project();
    copy_dir(
        &dir.path().join("rules/skirmish"),
        &dir.path().join("rules/skirmish_gritty"),
    );
    let (code, out, err) = rulesc_in(dir.path(), &["all", "rules", "--out", "gen"], &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        !dir.path().join("gen/skirmish.rs").exists(),
        "an output was written"
    );
    insta::assert_snapshot!(format!("{err}---\n{out}"));
}

#[test]
fn summaries_count_in_the_singular_for_one() {
    let dir = project();
    let (code, out, err) = rulesc_in(dir.path(), &["check", "rules/skirmish"], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "ok: skirmish (rules/skirmish): 1 procedure, 0 formulas, 1 table, 0 records\n"
    );
}

#[test]
fn a_script_that_does_not_fit_is_an_error_with_strict() {
    let dir = project();
    std::fs::write(
        dir.path().join("s.yaml"),
        "run: attack\nargs: { bonus: 2 }\ndice: [9, 3, 5]\n",
    )
    .unwrap();
    let (code, out, _) = rulesc_in(dir.path(), &["trace", "rules/skirmish", "s.yaml"], &[]);
    assert_eq!(code, 0);
    assert!(
        out.contains("note: 1 scripted face(s) were not used"),
        "{out}"
    );
    let (code, _, err) = rulesc_in(
        dir.path(),
        &["trace", "rules/skirmish", "s.yaml", "--strict"],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let dir = project();
    std::fs::write(
        dir.path().join("rules/skirmish/extra.rules"),
        "procedure p() -> int {\n  return nope\n}\n",
    )
    .unwrap();
    let check = ["check", "rules/skirmish"];
    let coloured = |args: &[&str], env: &[(&str, &str)]| {
        let (_, _, err) = rulesc_in(dir.path(), args, env);
        err.contains('\u{1b}')
    };
    // Standard error is a pipe here: `auto` does not colour it unless forced.
    assert!(!coloured(&check, &[]));
    assert!(coloured(&check, &[("CLICOLOR_FORCE", "1")]));
    assert!(!coloured(
        &check,
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    ));
    assert!(coloured(
        &["check", "rules/skirmish", "--color", "always"],
        &[]
    ));
    assert!(coloured(
        &["check", "rules/skirmish", "--color=always"],
        &[("TERM", "dumb")]
    ));
    assert!(!coloured(
        &["check", "rules/skirmish", "--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    ));
}

#[test]
fn ruleset_arguments_say_what_they_are() {
    for command in [
        "trace", "build", "explain", "export", "simulate", "analyze", "book", "studio",
    ] {
        let (code, out, _) = rulesc_in(&root(), &[command, "--help"], &[]);
        assert_eq!(code, 0);
        assert!(
            out.contains("<RULESET>")
                && out.contains("The ruleset folder (the one holding ruleset.yaml)"),
            "{command} --help:\n{out}"
        );
    }
}

#[test]
fn completions_and_the_man_page() {
    for (shell, marker) in [
        ("bash", "_rulesc()"),
        ("zsh", "#compdef rulesc"),
        ("fish", "complete -c rulesc"),
    ] {
        let (code, out, err) = rulesc_in(&root(), &["completions", shell], &[]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(marker), "{shell}:\n{out}");
        assert!(out.contains("test"), "{shell}: no `test` command");
    }
    let (code, out, err) = rulesc_in(&root(), &["man"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        &out[..out.len().min(200)]
    );
    assert!(out.contains(".TH rulesc 1"), "{out}");
    assert!(out.contains("completions"), "{out}");
    let (code, _, _) = rulesc_in(&root(), &["completions", "tcsh"], &[]);
    assert_eq!(code, 2);
}

#[test]
fn a_variant_in_its_own_folder_extends_a_ruleset_elsewhere_with_root() {
    let dir = project();
    let base = dir.path().join("rules/skirmish").canonicalize().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let home = elsewhere.path().canonicalize().unwrap();
    std::fs::create_dir_all(home.join("gritty")).unwrap();
    std::fs::write(
        home.join("gritty/ruleset.yaml"),
        format!("ruleset:\n  name: gritty\n  extends: {}\n", base.display()),
    )
    .unwrap();
    let (code, _, err) = rulesc_in(&home, &["check", "gritty"], &[]);
    assert_eq!(code, 1, "{err}");
    // The message and its help, without the source lines (their width, and where the
    // help wraps, depend on the length of the temporary folders' names).
    let words: Vec<&str> = err
        .lines()
        .filter(|l| !l.contains(['│', '·', '╭', '╰']))
        .flat_map(str::split_whitespace)
        .collect();
    let shown = words
        .join(" ")
        .replace(&base.display().to_string(), "<elsewhere>/rules/skirmish")
        .replace(&home.display().to_string(), "<home>")
        .replace(" help:", "\nhelp:");
    insta::assert_snapshot!(shown);
    // The way out the help names: a project folder holding both.
    let (code, out, err) = rulesc_in(&home, &["--root", "/", "check", "gritty"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("ok: gritty (gritty): 1 procedure"), "{out}");
    // A cycle is still refused with any root.
    std::fs::write(
        home.join("gritty/ruleset.yaml"),
        "ruleset:\n  name: gritty\n  extends: ../gritty\n",
    )
    .unwrap();
    let (code, _, err) = rulesc_in(&home, &["--root", "/", "check", "gritty"], &[]);
    assert_eq!(code, 1);
    assert!(err.contains("E0007"), "{err}");
}

#[test]
fn a_pack_for_a_ruleset_fits_its_variants_and_names_the_others() {
    let dir = project();
    let p = dir.path();
    std::fs::create_dir_all(p.join("rules/gritty")).unwrap();
    std::fs::write(
        p.join("rules/gritty/ruleset.yaml"),
        "ruleset: { name: gritty, extends: ../skirmish }\n",
    )
    .unwrap();
    std::fs::create_dir_all(p.join("packs")).unwrap();
    // Written for the base: it fits the variant, with no copy of its own.
    std::fs::write(
        p.join("packs/base.yaml"),
        "pack: { name: base_pack, ruleset: skirmish }\n",
    )
    .unwrap();
    let (code, out, err) = rulesc_in(
        p,
        &["check", "--ruleset", "rules/gritty", "packs/base.yaml"],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "ok: pack base_pack for gritty: 0 record(s)\n");
    // Written for other rulesets: the message names them and what this one extends.
    std::fs::write(
        p.join("packs/other.yaml"),
        "pack: { name: other_pack, ruleset: [kingsmark, victory_stars] }\n",
    )
    .unwrap();
    let (code, _, err) = rulesc_in(
        p,
        &["check", "--ruleset", "rules/gritty", "packs/other.yaml"],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!(err);
}
