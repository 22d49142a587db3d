//! Hostile input, scale (issue 8, class 7): rulesets large where the compiler used to be
//! quadratic (thousands of names colliding as Rust identifiers, an enum of thousands of
//! variants matched arm by arm, a pack of thousands of records). `rulesc` answers within
//! the hang guard of `bounded` (how the time grows is measured by
//! `cargo bench -p rulesc --bench scale`, not asserted here), with the right result:
//! every colliding name its own identifier, a duplicate found among thousands, the
//! case a match misses named. Each case asserts the exit code, the diagnostic's code and
//! file, and that nothing but the output changed.

mod bounded;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const MANIFEST: &str = "ruleset: { name: scale }\n";

/// Record lines named `<prefix>a_b_c_d_e_f_g_h_i_j_k` with each letter in either case
/// (`a_B_c..`, `A_b_C..`): with the same prefix, all of them the Rust identifier
/// `<prefix>a_b_c_d_e_f_g_h_i_j_k`.
fn colliding(count: usize, prefix: &str) -> String {
    let mut text = String::new();
    for i in 0..count {
        let name: Vec<String> = "abcdefghijk"
            .chars()
            .enumerate()
            .map(|(bit, c)| match i >> bit & 1 {
                0 => c.to_string(),
                _ => c.to_ascii_uppercase().to_string(),
            })
            .collect();
        let _ = writeln!(
            text,
            "    {prefix}{}: {{ weight: {} }}",
            name.join("_"),
            i % 9
        );
    }
    text
}

/// An enum of `n` variants and a procedure matching each in its own arm, except those
/// `skip` leaves out; `twice` is matched a second time at the end.
fn big_match(n: usize, skip: Option<usize>, twice: Option<usize>) -> (String, String) {
    let variants: Vec<String> = (0..n).map(|i| format!("V{i}")).collect();
    let yaml = format!("enums:\n  Big: [{}]\n", variants.join(", "));
    let mut rules = String::from("procedure pick(b: Big) -> int {\n  match b {\n");
    for i in (0..n).filter(|&i| Some(i) != skip).chain(twice) {
        let _ = writeln!(rules, "    V{i} => {{\n      return {}\n    }}", i % 7);
    }
    rules.push_str("  }\n}\n");
    (yaml, rules)
}

/// Every file under `root` with its bytes.
fn contents(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// A fresh project `scale/<name>` holding `files` (paths relative to it).
fn project(name: &str, files: &[(&str, String)]) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile_scale")
        .join(name);
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    root
}

/// `rulesc --format json check r` in a fresh project holding `files`: it must exit 1
/// and change nothing. The messages of the diagnostics with `code` naming `file`.
fn check(name: &str, files: &[(&str, String)], code: &str, file: &str) -> Vec<String> {
    let root = project(name, files);
    let before = contents(&root);
    let out = bounded::rulesc(&["--format", "json", "check", "r"], Some(&root));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(contents(&root), before, "check changed the project");
    stderr
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|_| panic!("not JSON: {l}"))
        })
        .filter(|d| {
            d["code"]["code"] == code
                && d["spans"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|s| s["file_name"] == file))
        })
        .map(|d| d["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// `rulesc --format json build r -o out.rs <more>` in a fresh project holding `files`: it
/// must exit 0 quietly and change nothing but `out.rs`. The Rust written.
fn build(name: &str, files: &[(&str, String)], more: &[&str]) -> String {
    let root = project(name, files);
    let before = contents(&root);
    let mut args = vec!["--format", "json", "build", "r", "-o", "out.rs"];
    args.extend_from_slice(more);
    let out = bounded::rulesc(&args, Some(&root));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let mut after = contents(&root);
    let code = after.remove(&root.join("out.rs")).expect("out.rs written");
    assert_eq!(after, before, "only out.rs may change");
    String::from_utf8(code).unwrap()
}

#[test]
fn class_7_thousands_of_colliding_names_each_get_their_own_identifier() {
    // 1,024 in the ruleset, 1,024 more in a pack: 2,048 records that all want one name.
    let rules = format!(
        "{MANIFEST}types:\n  Item:\n    weight: int\nrecords:\n  Item:\n{}",
        colliding(1_024, "")
    );
    let pack = format!(
        "pack: {{ name: more }}\nrecords:\n  Item:\n{}",
        colliding(1_024, "x_")
    );
    let code = build(
        "colliding",
        &[("r/ruleset.yaml", rules), ("more.yaml", pack)],
        &["--pack", "more.yaml"],
    );
    // The ruleset's records: `a_b_c_d_e_f_g_h_i_j_k`, then `_2` .. `_1024`, each defined
    // once.
    let defined = |ident: &str| code.matches(&format!("pub fn {ident}()")).count();
    assert_eq!(defined("a_b_c_d_e_f_g_h_i_j_k"), 1);
    for k in 2..=1_024 {
        let ident = format!("a_b_c_d_e_f_g_h_i_j_k_{k}");
        assert_eq!(defined(&ident), 1, "{ident}");
    }
    assert_eq!(defined("a_b_c_d_e_f_g_h_i_j_k_1025"), 0);
    // The pack's: `x_a_b_c_d_e_f_g_h_i_j_k` and its own suffixes.
    assert_eq!(defined("x_a_b_c_d_e_f_g_h_i_j_k"), 1);
    assert_eq!(defined("x_a_b_c_d_e_f_g_h_i_j_k_1024"), 1);
}

#[test]
fn class_7_a_duplicate_among_thousands_is_found_where_it_is() {
    // 20,000 variants on one line, the last one a second `V7` (past column 65,535, where
    // miette could not draw a label: the line is left out, the position given).
    let variants: Vec<String> = (0..20_000)
        .map(|i| format!("V{i}"))
        .chain(["V7".into()])
        .collect();
    let yaml = format!("{MANIFEST}enums:\n  Big: [{}]\n", variants.join(", "));
    let dup = check(
        "duplicate",
        &[("r/ruleset.yaml", yaml)],
        "E0301",
        "r/ruleset.yaml",
    );
    assert_eq!(dup, ["`V7` is listed twice in `Big`"]);
}

#[test]
fn class_7_a_match_of_thousands_of_arms_names_what_it_misses_and_repeats() {
    // 2,000 arms over 2,000 variants: `V1999` left out, `V1000` matched twice.
    let files = |skip, twice| {
        let (yaml, rules) = big_match(2_000, skip, twice);
        [
            ("r/ruleset.yaml", format!("{MANIFEST}{yaml}")),
            ("r/a.rules", rules),
        ]
    };
    let broken = files(Some(1_999), Some(1_000));
    let missing = check("match", &broken, "E0323", "r/a.rules");
    assert_eq!(missing, ["this match does not cover `V1999`"]);
    let again = check("match", &broken, "W0003", "r/a.rules");
    assert_eq!(again, ["`V1000` is already matched above"]);

    // Complete, it builds: one arm for each of the 2,000 variants in the Rust.
    let code = build("match_complete", &files(None, None), &[]);
    for i in [0, 999, 1_999] {
        assert_eq!(code.matches(&format!("Big::V{i} =>")).count(), 1, "V{i}");
    }
}

/// `rulesc --format json check --ruleset r pack.yaml` in a fresh project holding `files`
/// (issue 29 §6: packs that add to a ruleset's data): the exit code, and the messages
/// of the diagnostics with `code` naming `file`. Nothing may change.
fn check_pack(
    name: &str,
    files: &[(&str, String)],
    code: &str,
    file: &str,
) -> (Option<i32>, Vec<String>) {
    let root = project(name, files);
    let before = contents(&root);
    let out = bounded::rulesc(
        &["--format", "json", "check", "--ruleset", "r", "pack.yaml"],
        Some(&root),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(contents(&root), before, "check changed the project");
    let found = stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|d| {
            d["code"]["code"] == code
                && d["spans"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|s| s["file_name"] == file))
        })
        .map(|d| d["message"].as_str().unwrap_or_default().to_string())
        .collect();
    (out.status.code(), found)
}

fn names(prefix: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn class_7_packs_adding_past_the_limits_of_a_ruleset_are_stopped_by_them() {
    let ruleset = format!(
        "{MANIFEST}scales:\n  S: {{ levels: [L], extensible: true }}\nenums:\n  E: [A]\ntypes:\n  T: {{ items: \"list<int>\" }}\ntables:\n  t: {{ key: int, value: int, rows: {{ {}, \"50000..\": 0, \"..-1\": 0 }} }}\nrecords:\n  T:\n    big: {{ items: [{}] }}\n",
        (0..50_000).map(|i| format!("{i}: {i}")).collect::<Vec<_>>().join(", "),
        (0..50_000).map(|i| i.to_string()).collect::<Vec<_>>().join(", "),
    );
    let pack = |body: String| format!("pack: {{ name: p }}\n{body}");
    // (case, pack, code, file, message): each limit of a ruleset holds for what packs add.
    let cases: Vec<(&str, String, &str, &str, &str)> =
        vec![
            (
                "70,000 variants added to an enum",
                pack(format!("enums:\n  E: [{}]\n", names("V", 70_000))),
                "E0360",
                "r/ruleset.yaml",
                "`E` has 70001 variants, more than 65535",
            ),
            (
                "300 levels added to a scale",
                pack(format!("scales:\n  S: [{}]\n", names("L", 300))),
                "E0360",
                "r/ruleset.yaml",
                "`S` has 301 levels, more than 255",
            ),
            (
                "50,000 rows replaced and one that is not there",
                pack(format!(
                    "tables:\n  t:\n    _mod:\n      replace: {{ {}, 99999: 1 }}\n",
                    (0..50_000)
                        .map(|i| format!("{i}: 1"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                "E0414",
                "pack.yaml",
                "the table `t` has no row `99999` to change",
            ),
            (
                "50,000 rows removed, leaving a gap",
                pack(format!(
                    "tables:\n  t:\n    _mod:\n      remove: [{}]\n",
                    (0..50_000)
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                "E0310",
                "r/ruleset.yaml",
                "table `t` has a gap: no row for 0-49999",
            ),
            (
                "50,000 list items removed and one that is not there",
                pack(format!(
                "records:\n  T:\n    big:\n      _mod:\n        remove: {{ items: [{}, -1] }}\n",
                (0..50_000).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
            )),
                "E0414",
                "pack.yaml",
                "`items` of `big` holds no `-1` to remove",
            ),
            (
                "a variant that is not a name",
                pack("enums:\n  E: [\"🎲\"]\n".into()),
                "E0302",
                "pack.yaml",
                "`🎲` is not a valid name",
            ),
            (
                "sections that are numbers",
                pack("enums: 7\ntables: 8\n".into()),
                "E0102",
                "pack.yaml",
                "expected a mapping of names to definitions, found an integer",
            ),
        ];
    let mut failed = Vec::new();
    for (i, (case, text, code, file, message)) in cases.iter().enumerate() {
        let files = [
            ("r/ruleset.yaml", ruleset.clone()),
            ("pack.yaml", text.clone()),
        ];
        let (exit, found) = check_pack(&format!("pack{i}"), &files, code, file);
        if exit != Some(1) || !found.iter().any(|m| m == message) {
            failed.push(format!("{case}: exit {exit:?}, {found:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn class_7_a_sum_and_a_condition_of_thousands_of_terms_check_and_run() {
    // `x + x + ..` of 3,000 terms and `s > 0 and s > 1 and ..` of 300: each checks (no
    // E0363: a chain holds one running total, not one number per term), builds, and runs
    // to the sum and the truth the rules give.
    let sum = vec!["x"; 3_000].join(" + ");
    let all: Vec<String> = (0..300).map(|i| format!("s > {i}")).collect();
    let rules = format!(
        "procedure wide(x: int) -> int {{\n  let s = {sum}\n  if {} {{\n    return s\n  }}\n  return 0 - s\n}}\n",
        all.join(" and ")
    );
    let files = [
        ("r/ruleset.yaml", MANIFEST.to_string()),
        ("r/a.rules", rules),
        (
            "s.yaml",
            "ruleset: r\nrun: wide\nargs: { x: 1 }\n".to_string(),
        ),
        (
            "t.yaml",
            "ruleset: r\nrun: wide\nargs: { x: 0 }\n".to_string(),
        ),
    ];
    build("chains", &files, &[]);
    let root = project("chains_run", &files);
    for (scenario, result) in [("s.yaml", "result: 3000"), ("t.yaml", "result: 0")] {
        let out = bounded::rulesc(&["trace", "r", scenario], Some(&root));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(stdout.lines().last(), Some(result), "{scenario}");
    }
}

#[test]
fn class_7_chains_of_rolls_levels_divisions_and_else_ifs_of_thousands_check_build_and_run() {
    // `roll d6 + 1 + ..`, `l + 1 + .. - 1`, `x / y / ..` (a divisor that may be 0) of
    // 3,000 terms and an `if` of 3,000 `else if`s: each checks (no E0363: lowering walks
    // the chain with one running register, and gives each condition's back at its jump),
    // builds (flat: the printer binds a chain's value every 32 operators and prints a
    // long `else if` chain without a block per arm), and runs to what the rules give.
    let n = 3_000;
    let rolls = format!("roll d6{}", " + 1".repeat(n - 1));
    // Each step saturates at the scale's ends: 2,998 steps up reach `Down`, one down
    // leaves `Wound` (not `Down`, as summing the steps first would give).
    let levels = format!("l{} - 1", " + 1".repeat(n - 2));
    let divs = format!("x{}", " / y".repeat(n - 1));
    let arms: String = (1..n)
        .map(|i| format!(" else if x == {i} {{\n    r = {i}\n  }}"))
        .collect();
    let rules = format!(
        "procedure rolls() -> int {{\n  let t = {rolls}\n  return t - natural(t)\n}}\n\
         formula levels(l: Harm) -> Harm = {levels}\n\
         formula divs(x: int, y: int) -> int = {divs}\n\
         procedure arms(x: int) -> int {{\n  let r = 0\n  if x == 0 {{\n    r = 0\n  }}{arms} else {{\n    r = -1\n  }}\n  return r\n}}\n"
    );
    let scenario = |run: &str, args: &str| format!("ruleset: r\nrun: {run}\nargs: {{ {args} }}\n");
    let files = [
        (
            "r/ruleset.yaml",
            format!("{MANIFEST}scales:\n  Harm: [None, Scratch, Wound, Down]\n"),
        ),
        ("r/a.rules", rules),
        ("rolls.yaml", "ruleset: r\nrun: rolls\n".to_string()),
        ("levels.yaml", scenario("levels", "l: None")),
        ("divs.yaml", scenario("divs", "x: 7, y: 1")),
        ("divs_0.yaml", scenario("divs", "x: 7, y: 0")),
        ("arms.yaml", scenario("arms", "x: 2999")),
        ("arms_else.yaml", scenario("arms", "x: 5000")),
    ];
    let code = build("long_chains", &files, &[]);
    assert!(code.contains("let roll_2 = "), "no roll so far bound");
    assert!(code.contains("let level_2 = "), "no level so far bound");
    assert!(code.contains("} else if ::rulesc_runtime::__private::branch("));
    // Quadratic indentation (a block or call nested per term) printed hundreds of MB.
    assert!(code.len() < 16 << 20, "{} bytes printed", code.len());
    let root = project("long_chains_run", &files);
    for (scenario, result) in [
        ("rolls.yaml", "result: 2999"),
        ("levels.yaml", "result: Wound"),
        ("divs.yaml", "result: 7"),
        (
            "divs_0.yaml",
            "result: rule error at r/a.rules:6: division by zero",
        ),
        ("arms.yaml", "result: 2999"),
        ("arms_else.yaml", "result: -1"),
    ] {
        let out = bounded::rulesc(&["trace", "r", scenario], Some(&root));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{scenario}: {stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().last(), Some(result), "{scenario}");
    }
}

#[test]
fn class_7_chains_of_4000_terms_check_build_run_and_are_analyzed() {
    // Under the depth limit (4,096 levels, E0206 past it: `hostile.rs`), chains of
    // numbers and of truths check, build, run to what the rules give, and are analyzed
    // over a sweep, on rayon's threads, whose stack holds the program (rayon's own, 2 MiB,
    // overflowed at a 1,000-term sum). The checker's and the code generator's tests hold
    // each to a stack too small to walk a chain by recursion.
    let chain = |op: &str, term: &str| vec![term; 4_000].join(op);
    let rules = format!(
        "formula total(x: int) -> int = {}\n\
         formula rest(x: int) -> int = 0 - {}\n\
         formula positive(x: int) -> bool = {}\n\
         formula negative(x: int) -> bool = {}\n\
         procedure wide(x: int) -> int {{\n  let s = {}\n  if positive(x) and not negative(x) {{\n    return s + total(x) + rest(x)\n  }}\n  return 0\n}}\n",
        chain(" + ", "x"),
        chain(" * ", "x"),
        chain(" and ", "x >= 0"),
        chain(" or ", "x < 0"),
        chain(" - ", "x"),
    );
    let files = [
        ("r/ruleset.yaml", MANIFEST.to_string()),
        ("r/a.rules", rules),
        (
            "s.yaml",
            "ruleset: r\nrun: wide\nargs: { x: 1 }\n".to_string(),
        ),
    ];
    let code = build("chains_4000", &files, &[]);
    // The value so far is bound to a local every 32 operators: no call nests deeper.
    assert!(code.contains("let total_2 = "), "no running total bound");
    assert!(code.contains("let cond_2 = "), "no condition so far bound");
    let root = project("chains_4000_run", &files);
    let run = |args: &[&str]| {
        let out = bounded::rulesc(args, Some(&root));
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "rulesc {args:?}: {stderr}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    // x - x - .. (1 - 3,999) + 4,000 x + (0 - 1).
    let trace = run(&["trace", "r", "s.yaml"]);
    assert_eq!(trace.lines().last(), Some("result: 1"));
    // With x = 2 the product saturates: -7,996 + 8,000 + (0 - i64::MAX).
    let sweep = [
        "--format", "json", "analyze", "r", "s.yaml", "--sweep", "x=1..2",
    ];
    let out = bounded::rulesc_in_1_gib(&sweep, Some(&root));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let odds: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let groups: Vec<(&str, &str)> = odds["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["case"]["x"].as_str().unwrap(),
                r["groups"][0]["group"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(groups, [("1", "1"), ("2", "-9223372036854775803")]);
}
