//! Hostile input: rulesets from strangers. Whatever the bytes, `rulesc check` answers
//! with diagnostics and exit 1, never a panic (101), a hang or a crash. Each case is
//! written to a fresh folder at test time (so the corpus needs no 10 MB files in git)
//! and must produce the diagnostic code it names, in the file it names, leaving the
//! folder as it was.

mod bounded;

use std::path::{Path, PathBuf};

const MANIFEST: &str = "ruleset: { name: hostile }\n";

struct Case {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    code: &'static str,
    /// The file the diagnostic must point into.
    file: &'static str,
}

fn case(
    name: &'static str,
    code: &'static str,
    file: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
) -> Case {
    Case {
        name,
        files,
        code,
        file,
    }
}

fn text(s: impl Into<String>) -> Vec<u8> {
    s.into().into_bytes()
}

fn with_rules(rules: String) -> Vec<(&'static str, Vec<u8>)> {
    vec![("ruleset.yaml", text(MANIFEST)), ("a.rules", text(rules))]
}

fn with_yaml(yaml: String) -> Vec<(&'static str, Vec<u8>)> {
    vec![("ruleset.yaml", text(yaml))]
}

fn bomb() -> String {
    let mut s = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        s.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    s
}

fn cases() -> Vec<Case> {
    let deep = |open: &str, close: &str, n: usize| format!("{}{}", open.repeat(n), close.repeat(n));
    vec![
        case("empty manifest", "E0004", "ruleset.yaml", with_yaml(String::new())),
        case("no manifest at all", "E0004", "", vec![("other.yaml", text("scales: {}\n"))]),
        case("binary garbage", "E0002", "ruleset.yaml", vec![("ruleset.yaml", (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect())]),
        case("invalid UTF-8", "E0002", "ruleset.yaml", vec![("ruleset.yaml", b"ruleset:\n  name: \xff\xfe\n".to_vec())]),
        case("invalid UTF-8 in rules", "E0002", "a.rules", vec![("ruleset.yaml", text(MANIFEST)), ("a.rules", b"formula f() = \xc3\x28".to_vec())]),
        case("tabs for indentation", "E0101", "ruleset.yaml", with_yaml("ruleset:\n\tname: x\n".into())),
        case("truncated YAML", "E0101", "ruleset.yaml", with_yaml("ruleset: { name: x\nscales:\n  D: [A, B".into())),
        case("truncated rules", "E0201", "a.rules", with_rules("procedure p() -> int {\n  let x = roll d6 +".into())),
        case("duplicate keys", "E0104", "ruleset.yaml", with_yaml("ruleset: { name: x }\nscales: { A: [X] }\nscales: { B: [Y] }\n".into())),
        case("alias bomb", "E0105", "ruleset.yaml", with_yaml(format!("{MANIFEST}{}", bomb()))),
        case("100,000 nested YAML brackets", "E0105", "ruleset.yaml", with_yaml(format!("{MANIFEST}x: {}\n", deep("[", "]", 100_000)))),
        case("100,000 nested YAML maps", "E0105", "ruleset.yaml", with_yaml(format!("{MANIFEST}x: {}\n", deep("{a: ", "}", 100_000)))),
        case("100,000 nested DSL parentheses", "E0202", "a.rules", with_rules(format!("formula f() = {}", deep("(", ")", 100_000)))),
        case("20,000 nested DSL blocks", "E0202", "a.rules", with_rules(format!("procedure p() {}", deep("{ if true ", "}", 20_000)))),
        case("100,000 negations", "E0202", "a.rules", with_rules(format!("formula f() = {}1", "- ".repeat(100_000)))),
        case("100,000 nots", "E0202", "a.rules", with_rules(format!("formula f() = {}true", "not ".repeat(100_000)))),
        case("10 MB string", "E0003", "ruleset.yaml", with_yaml(format!("ruleset: {{ name: x, title: \"{}\" }}\n", "a".repeat(10_000_000)))),
        case("number past i64 in YAML", "E0204", "ruleset.yaml", with_yaml(format!("{MANIFEST}constants: {{ big: 99999999999999999999999 }}\n"))),
        case("number past i64 in DSL", "E0204", "a.rules", with_rules("formula f() = 99999999999999999999999 * 2".into())),
        case("99999d99999", "E0205", "a.rules", with_rules("procedure p() -> int { return roll 99999d99999 }".into())),
        case("a die with 0 faces", "E0205", "a.rules", with_rules("procedure p() -> int { return roll 3d0 }".into())),
        case("keep more dice than rolled", "E0205", "a.rules", with_rules("procedure p() -> int { return roll 2d6kh5 }".into())),
        case("self-referencing formula", "E0330", "a.rules", with_rules("formula f(x: int) = f(x) + 1".into())),
        case("mutually recursive formulas", "E0330", "a.rules", with_rules("formula f(x: int) = g(x)\nformula g(x: int) = f(x)\n".into())),
        case("recursive procedures", "E0330", "a.rules", with_rules("procedure p() -> int { return q() }\nprocedure q() -> int { return p() }\n".into())),
        case("5,000 chained formulas", "E0331", "a.rules", with_rules((0..5000).map(|i| format!("formula f{i}() = f{}() + 1\n", i + 1)).collect::<String>() + "formula f5000() = 1\n")),
        case("non-ASCII names", "E0201", "a.rules", with_rules("formula é() = 1\n".into())),
        case("a non-ASCII letter before `<` (once a panic: the nesting count sliced inside it)", "E0201", "a.rules", with_rules("formula f() = é < 3\n".into())),
        case("a direction codepoint before `<` in a YAML type (once a panic)", "E0201", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  F:\n    w: {{ type: \"x\u{202e}<b>\" }}\n"))),
        case("emoji in YAML names", "E0302", "ruleset.yaml", with_yaml(format!("{MANIFEST}enums:\n  Dice: [\"🎲\"]\n"))),
        case("a track attribute that is not a name (it reached docs raw: a direction codepoint broke the build)", "E0302", "ruleset.yaml", with_yaml(format!("{MANIFEST}scales: {{ L: [A] }}\ntracks:\n  T:\n    scale: L\n    boxes: [{{ level: A, \"pain \\u202e\": 1 }}]\n"))),
        case("huge die table", "E0205", "ruleset.yaml", with_yaml(format!("{MANIFEST}enums: {{ E: [A] }}\ntables:\n  t: {{ die: d99999999, value: E, rows: {{ \"1-99999999\": A }} }}\n"))),
        case("inverted range key", "E0308", "ruleset.yaml", with_yaml(format!("{MANIFEST}tables:\n  t: {{ key: int, value: int, default: 0, rows: {{ \"9-1\": 1 }} }}\n"))),
        case("65 wound boxes", "E0305", "ruleset.yaml", with_yaml(format!("{MANIFEST}scales: {{ L: [A] }}\ntracks:\n  T:\n    scale: L\n    boxes: [{}]\n", vec!["{ level: A }"; 65].join(", ")))),
        case("a section that is a number", "E0102", "ruleset.yaml", with_yaml(format!("{MANIFEST}tables: 7\n"))),
        case("a YAML document list", "E0101", "ruleset.yaml", with_yaml(format!("{MANIFEST}---\n{MANIFEST}"))),
        case("null bytes", "E0101", "ruleset.yaml", vec![("ruleset.yaml", b"ruleset:\x00 { name: x }\n".to_vec())]),
        case("an unclosed string", "E0101", "ruleset.yaml", with_yaml("ruleset: { name: \"x }\n".into())),
        case("an unclosed procedure", "E0201", "a.rules", with_rules("procedure p() {\n  let x = 1\n".into())),
        case("a keyword as a name", "E0201", "a.rules", with_rules("formula let() = 1\n".into())),
        case("long line of operators", "E0201", "a.rules", with_rules(format!("formula f() = 1{}", " +".repeat(50_000)))),
        case("a formula 1 MB long", "E0203", "a.rules", with_rules(format!("formula f() = {}1", "1 + ".repeat(300_000)))),
        case("an extends cycle (a ruleset extending itself)", "E0007", "ruleset.yaml", with_yaml("ruleset: { name: x, extends: . }\n".into())),
        case("extends leaving the project folder", "E0006", "ruleset.yaml", with_yaml("ruleset: { name: x, extends: /etc }\n".into())),
        case("extends climbing out with ..", "E0006", "ruleset.yaml", with_yaml(format!("ruleset: {{ name: x, extends: {}tmp }}\n", "../".repeat(40)))),
        case("extends a folder that does not exist", "E0005", "ruleset.yaml", with_yaml("ruleset: { name: x, extends: ../no_such_ruleset }\n".into())),
        case("nested unclosed lists (found by fuzzing: exponential backtracking)", "E0201", "a.rules", with_rules(format!("formula f() = f/{}X{}", "[".repeat(7), "[".repeat(50)))),
        case("nested unclosed max( calls", "E0201", "a.rules", with_rules(format!("formula f() = {}1", "max(".repeat(60)))),
        case("nested unclosed sum comprehensions", "E0201", "a.rules", with_rules(format!("formula f() = {}x", "sum(x for x in [".repeat(30)))),
        case("deep YAML inside a formula string", "E0202", "ruleset.yaml", with_yaml(format!("{MANIFEST}formulas:\n  \"f()\": \"{}\"\n", deep("(", ")", 10_000)))),
        // Class 5: types.
        case("a record type holding itself", "E0361", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  A: {{ me: A }}\nrecords:\n  A:\n    a: {{}}\n"))),
        case("a record type holding itself by default", "E0361", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  A:\n    me: {{ type: A, default: x }}\nrecords:\n  A:\n    x: {{}}\n"))),
        case("record types holding each other", "E0361", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  A: {{ b: B }}\n  B: {{ c: C }}\n  C: {{ a: A }}\n"))),
        case("an outcome holding itself", "E0361", "a.rules", with_rules("outcome O { A(o: O), B }\nprocedure p() -> O { return B }\n".into())),
        case("a record and an outcome holding each other", "E0361", "a.rules", vec![("ruleset.yaml", text(format!("{MANIFEST}types:\n  R: {{ o: O }}\n"))), ("a.rules", text("outcome O { A(r: R), B }\n"))]),
        case("records doubling 40 times", "E0362", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  T0: {{ a: int, b: int }}\n{}records:\n  T39:\n    big: {{}}\n", (1..40).map(|i| format!("  T{i}: {{ a: T{}, b: T{} }}\n", i - 1, i - 1)).collect::<String>()))),
        case("a chain of 40,000 record types", "E0362", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  T0: {{ a: int }}\n{}", (1..40_000).map(|i| format!("  T{i}: {{ a: T{} }}\n", i - 1)).collect::<String>()))),
        case("100,000 nested list types in YAML", "E0202", "ruleset.yaml", with_yaml(format!("{MANIFEST}types:\n  A:\n    x: \"{}\"\n", deep("list<", ">", 100_000).replacen(">", "int>", 1)))),
        case("100,000 nested list types in the DSL", "E0202", "a.rules", with_rules(format!("formula f(x: {}) = 1\n", deep("list<", ">", 100_000).replacen(">", "int>", 1)))),
        case("a die table of a billion totals", "E0205", "ruleset.yaml", with_yaml(format!("{MANIFEST}enums: {{ E: [A] }}\ntables:\n  t: {{ die: 1000d1000000, value: E, rows: {{ \"1000-1000000000\": A }} }}\n"))),
        case("a scale of 300 levels", "E0360", "ruleset.yaml", with_yaml(format!("{MANIFEST}scales:\n  S: [{}]\n", (0..300).map(|i| format!("L{i}")).collect::<Vec<_>>().join(", ")))),
        case("an enum of 70,000 variants", "E0360", "ruleset.yaml", with_yaml(format!("{MANIFEST}enums:\n  E: [{}]\n", (0..70_000).map(|i| format!("V{i}")).collect::<Vec<_>>().join(", ")))),
        case("a diagnostic past column 65,535 (a line too long to draw under)", "E0301", "ruleset.yaml", with_yaml(format!("{MANIFEST}enums:\n  E: [{}, V7]\n", (0..20_000).map(|i| format!("V{i}")).collect::<Vec<_>>().join(", ")))),
        case("an outcome of 70,000 tags", "E0360", "a.rules", with_rules(format!("outcome O {{ {} }}\n", (0..70_000).map(|i| format!("T{i}")).collect::<Vec<_>>().join(", ")))),
    ]
}

/// Expressions as deep as a stranger can make them, each of which crashed `rulesc`: a
/// chain of operators is as deep as it is long for everything after the parser, so past
/// 4,096 levels it is refused (`E0206`), each kind; nesting with no brackets counts too
/// (`E0202`: each `if`, `roll`, `fill`). A test of their own, beside the others (each
/// chain takes a second to parse in a debug build).
fn deep_cases() -> Vec<Case> {
    let chain = |op: &str, term: &str| vec![term; 20_000].join(op);
    let int = |body: String| with_rules(format!("formula f(x: int) -> int = {body}\n"));
    let truth = |body: String| with_rules(format!("formula f(x: int, b: bool) -> bool = {body}\n"));
    let run = |body: String| with_rules(format!("procedure p(x: int) -> int {{\n{body}\n}}\n"));
    let too_deep = |name, files| case(name, "E0206", "a.rules", files);
    let nested = |name, files| case(name, "E0202", "a.rules", files);
    let times = |n: usize, each: &str| each.repeat(n);
    vec![
        too_deep("a 20,000-term sum", int(chain(" + ", "x"))),
        too_deep("a 20,000-term difference", int(chain(" - ", "x"))),
        too_deep("a 20,000-term product", int(chain(" * ", "x"))),
        too_deep("20,000 divisions", int(chain(" / ", "x"))),
        too_deep(
            "20,000 remainders",
            int(format!("x % {}", chain(" % ", "7"))),
        ),
        too_deep(
            "sums and products, 20,000 terms",
            int(format!("x{}", times(7_000, " + x * x - x"))),
        ),
        too_deep(
            "20,000 comparisons joined by `and`",
            truth(chain(" and ", "x > 0")),
        ),
        too_deep("20,000 truths joined by `or`", truth(chain(" or ", "b"))),
        too_deep(
            "`and` and `or`, 20,000 terms",
            truth(format!("b{}", times(10_000, " and b or b"))),
        ),
        too_deep(
            "a 20,000-term sum in a procedure",
            run(format!("  return {}", chain(" + ", "x"))),
        ),
        too_deep(
            "a 20,000-term condition",
            run(format!(
                "  if {} {{\n    return 1\n  }}\n  return 0",
                chain(" and ", "x > 0")
            )),
        ),
        case(
            "a 20,000-term sum in a YAML formula",
            "E0206",
            "ruleset.yaml",
            with_yaml(format!(
                "{MANIFEST}formulas:\n  \"f(x: int)\": \"{}\"\n",
                chain(" + ", "x")
            )),
        ),
        nested(
            "3,000 if expressions nested in `then`",
            int(format!(
                "{}x{}",
                times(3_000, "if x > 0 then "),
                times(3_000, " else 0")
            )),
        ),
        nested(
            "a 20,000-arm `else if` expression",
            int((0..20_000)
                .map(|i| format!("if x == {i} then {i} else "))
                .collect::<String>()
                + "0"),
        ),
        nested(
            "20,000 ifs nested in conditions",
            int(format!(
                "{}x > 0{} then 1 else 0",
                times(20_000, "if "),
                times(19_999, " then true else false")
            )),
        ),
        nested(
            "if expressions nested in sums",
            int(format!("{}x", times(20_000, "if x > 0 then 0 else x + "))),
        ),
        nested(
            "20,000 rolls of a roll",
            run(format!("  return {}d6", times(20_000, "roll "))),
        ),
        nested(
            "20,000 tracks filled in a fill's level",
            run(format!("  return {}1", times(20_000, "fill x at 1 + "))),
        ),
    ]
}

/// `rulesc --format json check <dir>`, bounded in memory and time.
/// Run from the folder above the case's, so that files are named `caseNN/<file>`
/// (every path printed is from the current folder).
fn run_bounded(dir: &Path) -> std::process::Output {
    let name = dir.file_name().unwrap().to_str().unwrap();
    bounded::rulesc(&["--format", "json", "check", name], dir.parent())
}

/// Every file of a case's folder with its bytes, to show `check` changed nothing.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap_or_default();
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

fn write_case(root: &Path, i: usize, c: &Case) -> PathBuf {
    let dir = root.join(format!("case{i:02}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in &c.files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    dir
}

#[test]
fn hostile_inputs_give_diagnostics_never_a_crash() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    check_all("hostile", &cases);
}

#[test]
fn deep_expressions_give_diagnostics_never_a_crash() {
    check_all("hostile_deep", &deep_cases());
}

/// Each case checked in a folder of its own under `root`: exit 1, JSON diagnostics only,
/// its code in its file, the folder unchanged.
fn check_all(root: &str, cases: &[Case]) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(root);
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let dir = write_case(&root, i, c);
        let before = contents(&dir);
        let out = run_bounded(&dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        let want_file = if c.file.is_empty() {
            format!("\"file_name\":\"case{i:02}\"")
        } else {
            format!("\"file_name\":\"case{i:02}/{}\"", c.file)
        };
        let ok = code == Some(1)
            && stderr
                .lines()
                .all(|l| l.starts_with('{') && l.ends_with('}'))
            && stderr.contains(&format!("\"code\":{{\"code\":\"{}\"}}", c.code))
            && stderr.contains(&want_file);
        let unchanged = contents(&dir) == before;
        if !ok || !unchanged {
            failures.push(format!(
                "{} (case{i:02}): exit {code:?}{}\n{}",
                c.name,
                if unchanged {
                    ""
                } else {
                    ", the folder changed"
                },
                stderr.chars().take(600).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
