//! `rulesc fmt`: over every `.rules` file in the repository, the formatted text means the
//! same program (the syntax items, spans aside), formatting again changes nothing, and
//! every file that parses is already formatted (only files of `tests/fixtures/broken`
//! may not parse); the command line's exit codes and writes.

mod run;

use rulesc::diag::Diagnostics;
use rulesc::syntax::{format::format_rules, parse_file, Origin};
use run::{root, rulesc_in};
use std::path::{Path, PathBuf};

fn origin() -> Origin {
    Origin {
        file: 0,
        base: 0,
        fixed: None,
    }
}

fn rules_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if p.is_dir() {
            rules_files(&p, out);
        } else if name.ends_with(".rules") {
            out.push(p);
        }
    }
}

/// The syntax items of `text` as Debug text with every span taken out; `None` when it
/// does not parse.
fn program(text: &str) -> Option<String> {
    let mut d = Diagnostics::default();
    let items = parse_file(text, origin(), &mut d);
    if d.has_errors() {
        return None;
    }
    let debug = format!("{items:?}");
    // `Span { file: 0, start: 1, end: 2 }` → ``
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Span { ") {
        out.push_str(&rest[..at]);
        let close = rest[at..].find(" }").unwrap();
        rest = &rest[at + close + 2..];
    }
    out.push_str(rest);
    Some(out)
}

/// Holds the formatter to its promises on one text: `Some(formatted)` when it parses.
fn holds(name: &str, text: &str) -> Option<String> {
    let mut d = Diagnostics::default();
    let formatted = format_rules(text, origin(), &mut d);
    let before = program(text);
    let Some(formatted) = formatted else {
        assert!(
            before.is_none(),
            "{name}: parses, yet fmt refused it: {d:?}"
        );
        assert!(d.has_errors(), "{name}: refused without a diagnostic");
        return None;
    };
    let before = before.unwrap_or_else(|| panic!("{name}: fmt accepted what does not parse"));
    assert_eq!(
        program(&formatted).as_deref(),
        Some(before.as_str()),
        "{name}: the formatted text is another program:\n{formatted}"
    );
    let again = format_rules(&formatted, origin(), &mut d).unwrap();
    assert_eq!(again, formatted, "{name}: formatting twice changed it");
    assert_eq!(
        text.lines().count().max(1),
        formatted.lines().count().max(1) + blank_lines_removed(text),
        "{name}: lines were joined or split"
    );
    Some(formatted)
}

/// Blank lines the formatter drops: those after the first of a run, and at the start and
/// the end.
fn blank_lines_removed(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |l: &str| l.trim().is_empty();
    let lead = lines.iter().take_while(|l| blank(l)).count();
    if lead == lines.len() {
        return lines.len().saturating_sub(1);
    }
    let trail = lines.iter().rev().take_while(|l| blank(l)).count();
    let inner = &lines[lead..lines.len() - trail];
    let runs = inner
        .windows(2)
        .filter(|w| blank(w[0]) && blank(w[1]))
        .count();
    lead + trail + runs
}

#[test]
fn every_rules_file_in_the_repository_formats_to_the_same_program_and_is_formatted() {
    let mut files = Vec::new();
    rules_files(&root(), &mut files);
    assert!(files.len() >= 70, "{} files", files.len());
    let (mut formatted, mut refused) = (0, 0);
    for path in &files {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        match holds(&name, &text) {
            Some(out) => {
                formatted += 1;
                assert_eq!(
                    out, text,
                    "{name} is not formatted: run `rulesc fmt {name}`"
                );
            }
            None => {
                assert!(
                    name.starts_with("tests/fixtures/broken"),
                    "{name} does not parse"
                );
                refused += 1;
            }
        }
    }
    assert!(formatted >= 60 && refused >= 1, "{formatted} {refused}");
}

#[test]
fn every_rules_example_of_the_docs_formats_to_the_same_program() {
    let mut n = 0;
    for doc in ["docs/reference.md", "docs/language.md", "docs/tutorial.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for (k, block) in text.split("```rules").skip(1).enumerate() {
            // Past the fence's line (`file=...`), to the closing fence.
            let code = block.split_once('\n').unwrap().1;
            let code = code.split("```").next().unwrap();
            if holds(&format!("{doc} example {k}"), code).is_some() {
                n += 1;
            }
        }
    }
    assert!(n >= 10, "{n} examples parsed");
}

/// `text` with every line moved right, the spaces around every symbolic operator taken
/// out, trailing spaces added and blank lines doubled: lines holding a label or a comment keep their code
/// (they are only given trailing spaces).
fn messed(text: &str) -> String {
    const OPS: [&str; 16] = [
        "+=", "-=", "==", "!=", "<=", ">=", "=>", "->", "+", "-", "*", "/", "%", "<", ">", "=",
    ];
    let mut out = String::new();
    for line in text.lines() {
        let code = line.trim_start();
        let mut code = code.to_string();
        if !code.contains('"') && !code.contains("//") {
            for op in OPS {
                code = code.replace(&format!(" {op} "), op);
            }
        }
        // Every line moved right by three columns (a tab counts two): each construct
        // moves back, its continuation lines with it.
        if !code.is_empty() {
            out.push_str(" \t");
        }
        out.push_str(&line[..line.len() - line.trim_start().len()]);
        out.push_str(&code);
        out.push_str(if code.trim().is_empty() {
            "\n\n"
        } else {
            "  \n"
        });
    }
    out
}

#[test]
fn every_shipped_rules_file_messed_up_formats_back_to_itself() {
    let mut files = Vec::new();
    rules_files(&root(), &mut files);
    let mut n = 0;
    for path in &files {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        if name.starts_with("tests/fixtures/broken") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let mess = messed(&text);
        assert_ne!(mess, text, "{name}");
        assert_eq!(
            holds(&name, &mess).as_deref(),
            Some(text.as_str()),
            "{name}"
        );
        n += 1;
    }
    assert!(n >= 40, "{n}");
}

/// Untidy input mixing every rule, with its formatted form (the same number of lines
/// but for blank ones).
#[test]
fn an_untidy_file_is_tidied_and_stays_the_same_program() {
    let untidy = "\n\n// A ruleset.\noutcome R {\nHit(level: int) : \"a hit\",\n    Miss\n}\n\n\n\nformula bonus(a: int,\n             b: int)->int =\n    a+b*2   // the bonus\nprocedure p(r: R, a: int) -> int {\n      let x=a-1\n  match r {\n  Hit(l)=>{\n  x+=l\n  }\n      Miss => return 0\n  }\n   // last\n      return bonus(x,\n                   1)\n}\n\n";
    let tidy = "// A ruleset.\noutcome R {\n  Hit(level: int) : \"a hit\",\n  Miss\n}\n\nformula bonus(a: int,\n             b: int) -> int =\n    a + b * 2   // the bonus\nprocedure p(r: R, a: int) -> int {\n  let x = a - 1\n  match r {\n    Hit(l) => {\n      x += l\n    }\n    Miss => return 0\n  }\n  // last\n  return bonus(x,\n               1)\n}\n";
    assert_eq!(holds("untidy", untidy).as_deref(), Some(tidy));
}

fn rulesc(args: &[&str], dir: &Path) -> (i32, String, String) {
    rulesc_in(dir, args, &[("NO_COLOR", "1")])
}

const UNTIDY: &str = "procedure p() {\nlet x=1   \n}\n";
const TIDY: &str = "procedure p() {\n  let x = 1\n}\n";

#[test]
fn check_exits_1_naming_what_would_change_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/a.rules"), UNTIDY).unwrap();
    std::fs::write(dir.path().join("b.rules"), TIDY).unwrap();
    std::fs::write(dir.path().join("c.yaml"), "a:   1\n").unwrap();
    let (code, out, err) = rulesc(&["fmt", "--check", "."], dir.path());
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("sub/a.rules:2: would change"), "{out}");
    assert!(
        out.contains("  - let x=1") && out.contains("  +   let x = 1"),
        "{out}"
    );
    assert!(!out.contains("b.rules"), "{out}");
    assert!(out.contains("1 file would be reformatted"), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sub/a.rules")).unwrap(),
        UNTIDY
    );
    // As JSON: one object per file that would change, then the summary.
    let (code, out, err) = rulesc(&["fmt", "--check", ".", "--format", "json"], dir.path());
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["file"], "./sub/a.rules");
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[0]["new"], "  let x = 1");
    assert_eq!(
        lines[1],
        serde_json::json!({"ok": false, "files": 2, "changed": 1, "check": true})
    );
    // Tidy files only: exit 0, nothing printed.
    let (code, out, err) = rulesc(&["fmt", "--check", "b.rules"], dir.path());
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn fmt_rewrites_only_what_changes_and_leaves_yaml_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        dir.path().join("a.rules"),
        dir.path().join("b.rules"),
        dir.path().join("c.yaml"),
    );
    std::fs::write(&a, UNTIDY).unwrap();
    std::fs::write(&b, TIDY).unwrap();
    std::fs::write(&c, "a:   1\n").unwrap();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    std::fs::File::options()
        .write(true)
        .open(&b)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let (code, out, err) = rulesc(&["fmt", "."], dir.path());
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "formatted ./a.rules\n");
    assert_eq!(std::fs::read_to_string(&a).unwrap(), TIDY);
    assert_eq!(
        std::fs::metadata(&b).unwrap().modified().unwrap(),
        old,
        "b was written"
    );
    assert_eq!(std::fs::read_to_string(&c).unwrap(), "a:   1\n");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    // Again: nothing to do.
    let (code, out, _) = rulesc(&["fmt", "--check", "."], dir.path());
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn a_file_that_does_not_parse_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "procedure p( {\n   let x=1\n";
    std::fs::write(dir.path().join("bad.rules"), bad).unwrap();
    std::fs::write(dir.path().join("good.rules"), UNTIDY).unwrap();
    for check in [true, false] {
        let args: &[&str] = if check {
            &["fmt", "--check", "."]
        } else {
            &["fmt", "."]
        };
        let (code, _, err) = rulesc(args, dir.path());
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("E0201") && err.contains("bad.rules"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.rules")).unwrap(),
        bad
    );
    // The file that parses was formatted all the same.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("good.rules")).unwrap(),
        TIDY
    );
}

#[test]
fn check_prints_no_control_character_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = "formula f() -> int = 1+1 // \u{1b}[2J\u{1b}]0;owned\u{7}\n";
    std::fs::write(dir.path().join("a.rules"), text).unwrap();
    let (code, out, err) = rulesc(&["fmt", "--check", "a.rules"], dir.path());
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("  + formula f() -> int = 1 + 1 // \\u{1b}[2J"),
        "{out}"
    );
    assert!(!out.contains(['\u{1b}', '\u{7}']), "{out:?}");
}

#[test]
fn usage_errors_exit_2_and_a_missing_file_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("r.yaml"), "a: 1\n").unwrap();
    let (code, _, err) = rulesc(&["fmt"], dir.path());
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = rulesc(&["fmt", "r.yaml"], dir.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("E0012") && err.contains("YAML files are left alone"),
        "{err}"
    );
    let (code, _, err) = rulesc(&["fmt", "--check", "missing.rules"], dir.path());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("E0001") && err.contains("missing.rules"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn a_link_is_neither_read_nor_replaced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("real.rules"), UNTIDY).unwrap();
    std::os::unix::fs::symlink("real.rules", dir.path().join("link.rules")).unwrap();
    let (code, _, err) = rulesc(&["fmt", "link.rules"], dir.path());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0009") && err.contains("is a link"), "{err}");
    assert!(std::fs::symlink_metadata(dir.path().join("link.rules"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real.rules")).unwrap(),
        UNTIDY
    );
    // A folder's links are not followed.
    let (code, out, err) = rulesc(&["fmt", "--check", "."], dir.path());
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("real.rules") && !out.contains("link.rules"),
        "{out}"
    );
}
