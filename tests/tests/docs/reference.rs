//! The reference held to its promise (every YAML section, DSL construct and diagnostic
//! code shown in a tested example), and the links between the docs.

use super::*;

/// What the reference promises to show: each YAML section and DSL construct, and a piece
/// of text that appears only where it is used.
const YAML_COVERAGE: &[(&str, &str)] = &[
    ("manifest", "ruleset:"),
    ("extends", "extends:"),
    ("scales", "scales:"),
    ("enums", "enums:"),
    ("a scale open to packs", "extensible: true"),
    ("a pack's in-place change", "_mod:"),
    ("a pack's list item removed", "remove:"),
    ("a pack's list item appended", "append:"),
    ("a display label", ": \""),
    ("constants", "constants:"),
    ("types", "types:"),
    ("int range field", "int("),
    ("list field", "list<"),
    ("map field", "map<"),
    ("map of records", "map<Slot, Item?>"),
    ("field default", "default:"),
    ("field doc", "doc:"),
    ("tracks", "tracks:"),
    ("when_full", "when_full:"),
    ("tables", "tables:"),
    ("die table", "die:"),
    ("keyed table", "key:"),
    ("table with two keys", "columns:"),
    ("records", "records:"),
    ("formulas", "formulas:"),
    ("override", "override:"),
    ("pack header", "pack:"),
    ("pack requires", "requires:"),
    ("record copy", "_copy:"),
    ("scenario run", "run:"),
    ("scenario args", "args:"),
    ("scenario dice", "dice:"),
    ("scenario decisions", "decisions:"),
    ("scenario expectations", "expect:"),
    ("expected state", "state:"),
    ("scenario ruleset", "ruleset: ../"),
    ("fight sides", "sides:"),
    ("fight report", "report:"),
    ("fight expected rates", "tolerance:"),
    ("scripted fight turns", "turns: ["),
];

const RULES_COVERAGE: &[(&str, &str)] = &[
    ("outcome", "outcome "),
    ("formula", "formula "),
    ("procedure", "procedure "),
    // `override formula|procedure|outcome` is documented but not tested: the parser
    // drops such items without a message (see docs/reference.md, "Known problem").
    ("let", "let "),
    ("+=", "+="),
    ("-=", "-="),
    ("list element field assignment", "]."),
    ("if", "if "),
    ("else if", "else if"),
    ("else", "else {"),
    ("match", "match "),
    ("match binding", ") =>"),
    ("match alternatives", " | "),
    ("wildcard", "_ =>"),
    ("for", "for "),
    ("range", ".."),
    ("return", "return"),
    ("or", " or "),
    ("and", " and "),
    ("not", "not "),
    ("!=", "!="),
    ("<=", "<="),
    (">=", ">="),
    ("in", " in "),
    ("*", " * "),
    ("/", " / "),
    ("%", " % "),
    ("exploding dice", "!"),
    ("keep highest", "kh"),
    ("keep lowest", "kl"),
    ("roll", "roll "),
    ("among", " among "),
    ("natural", "natural("),
    ("decide", "decide "),
    ("decide from", " from "),
    ("min", "min("),
    ("max", "max("),
    ("clamp", "clamp("),
    ("abs", "abs("),
    ("len", "len("),
    ("sum", "sum("),
    ("count", "count("),
    ("any", "any("),
    ("all", "all("),
    ("filled", "filled("),
    ("keys", "keys("),
    ("fill", "fill "),
    ("if expression", " then "),
    ("comprehension", " for "),
    ("qualified level", "Harm."),
    ("fight", "fight of "),
    ("turn order", "order(c) ="),
    ("ties", "ties "),
    ("ties at once", "ties at once"),
    ("repeating timer", "every 3 rounds: "),
    ("repeating timer's stop", ") until "),
    ("out", "out(c) ="),
    ("time units", "time second"),
    ("round length", "round lasts"),
    ("hooks", "on turn ="),
    ("trigger", "when(c)"),
    ("fighter", ": fighter"),
    ("enemies", "enemies("),
    ("until", " until "),
    ("for rounds", " rounds"),
    ("after", "after "),
    ("typed let", "let hits: "),
    ("optional type", "? = none"),
    ("test for none", "!= none"),
    ("faces", "faces("),
    ("kept", "kept("),
    ("dropped", "dropped("),
    ("first", "first("),
    ("index_of", "index_of("),
    ("sort", "sort("),
    ("min_by", "min_by("),
    ("max_by", "max_by("),
    ("range as a list", "in 0.."),
    ("two-key lookup", "to_wound[strength, armor]"),
    ("named record", "else sword"),
    ("decide from a filtered list", "from [i for i in"),
    ("outcome tag label", "Clean: \""),
];

/// Codes no doc example can show: an unreadable or non-UTF-8 file, a file too large to
/// put in a doc, a call chain 65 formulas deep. The reference describes them in words.
/// Links, FIFOs, outputs, command lines and the server's connection (`E0008`-`E0015`) are
/// not files on a page either, nor is `rulesc test` finding nothing (`E0412`):
/// `compiler/tests/hostile_io/` runs them; nor are
/// 300-level scales and records 8,192 values large (`E0360`, `E0362`):
/// `compiler/tests/hostile.rs` has them; nor a procedure of 255 locals (`E0363`):
/// `crates/core/src/core_ir/tests/coverage.rs` has it, on both sides of the limit; a
/// simulation past its time limit (`W0105`): `compiler/tests/hostile_run.rs`; an
/// expression 4,097 levels deep (`E0206`): `crates/front/src/check/exprs/ops.rs` has it, on
/// both sides of the limit, and `compiler/tests/hostile.rs` each kind of chain.
const UNTESTABLE_CODES: &[&str] = &[
    "E0001", "E0002", "E0003", "E0008", "E0009", "E0010", "E0011", "E0012", "E0013", "E0014",
    "E0015", "E0203", "E0206", "E0331", "E0360", "E0362", "E0363", "E0412", "E0416", "W0101",
    "W0102", "W0103", "W0104", "W0105",
];

#[test]
fn the_reference_shows_every_construct_in_a_tested_example() {
    let blocks = all_blocks();
    let tested: Vec<&Block> = blocks.iter().filter(|b| is_tested(b)).collect();
    let yaml: String = tested
        .iter()
        .filter(|b| b.lang == "yaml")
        .map(|b| b.text.as_str())
        .collect();
    let rules: String = tested
        .iter()
        .filter(|b| b.lang == "rules")
        .map(|b| b.text.as_str())
        .collect();
    let mut missing = Vec::new();
    for (what, needle) in YAML_COVERAGE {
        if !yaml.contains(needle) {
            missing.push(format!("YAML: {what} (`{needle}`)"));
        }
    }
    for (what, needle) in RULES_COVERAGE {
        if !rules.contains(needle) {
            missing.push(format!("rules: {what} (`{needle}`)"));
        }
    }
    // Every diagnostic code the compiler emits is in the reference, with an example that
    // fails with it.
    let reference = std::fs::read_to_string(docs_dir().join("reference.md")).unwrap_or_default();
    let shown: Vec<String> = tested
        .iter()
        .filter_map(|b| b.attr("expect"))
        .flat_map(codes)
        .collect();
    for code in compiler_codes() {
        if !reference.contains(&format!("`{code}`")) {
            missing.push(format!("diagnostic {code}: not in docs/reference.md"));
        } else if !shown.contains(&code) && !UNTESTABLE_CODES.contains(&code.as_str()) {
            missing.push(format!(
                "diagnostic {code}: no example with `expect={code}`"
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "not shown in any tested doc example:\n{}",
        missing.join("\n")
    );
}

/// Every `"E0123"` / `"W0001"` string in the compiler's sources.
fn compiler_codes() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = compiler_sources();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                let bytes = text.as_bytes();
                for (i, w) in bytes.windows(7).enumerate() {
                    let is_code = w[0] == b'"'
                        && (w[1] == b'E' || w[1] == b'W')
                        && w[2] == b'0'
                        && w[3..6].iter().all(u8::is_ascii_digit)
                        && w[6] == b'"';
                    if is_code {
                        out.push(text[i + 1..i + 6].to_string());
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' | '-' => Some('-'),
            c if c.is_alphanumeric() || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn links_between_the_docs_lead_somewhere() {
    let dir = docs_dir();
    let mut broken = Vec::new();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    // The README too: its links lead into docs/ (the performance diary is docs/perf.md).
    docs.push(dir.join("../README.md"));
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        let name = doc.file_name().unwrap().to_string_lossy().to_string();
        // Links resolve from the file's own folder; `shown` names it from the repository.
        let (dir, shown) = if name == "README.md" {
            (dir.join(".."), name.clone())
        } else {
            (dir.clone(), format!("docs/{name}"))
        };
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.contains("://") || target.contains(' ') {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() { name.as_str() } else { file };
            let path = dir.join(file);
            // Read as bytes: a link may lead to a picture (a PNG is not UTF-8).
            let Ok(linked) = std::fs::read(&path) else {
                broken.push(format!("{shown}: `{target}`: no file {file}"));
                continue;
            };
            let linked = String::from_utf8_lossy(&linked);
            if !anchor.is_empty()
                && file.ends_with(".md")
                && !anchors(&linked).iter().any(|a| a == anchor)
            {
                broken.push(format!(
                    "{shown}: `{target}`: no heading `#{anchor}` in {file}"
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Every `docs/<file>.md#anchor` the compiler's help lines name leads to a heading that
/// exists (a help pointing into the reference is only as good as its anchor).
#[test]
fn the_compilers_help_links_lead_somewhere() {
    let dir = docs_dir();
    let mut stack = compiler_sources();
    let mut broken = Vec::new();
    let mut seen = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (i, _) in text.match_indices("docs/") {
                let rest = &text[i + 5..];
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || "-_.#".contains(c)))
                    .unwrap_or(rest.len());
                let Some((file, anchor)) = rest[..end].split_once('#') else {
                    continue;
                };
                seen += 1;
                let linked = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
                if !anchors(&linked).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: docs/{file}#{anchor}", p.display()));
                }
            }
        }
    }
    assert!(seen >= 3, "{seen}");
    assert!(
        broken.is_empty(),
        "broken help links:\n{}",
        broken.join("\n")
    );
}

/// Issue 29 §7: the README opens with the writer's path (install, check, trace, test,
/// odds, in that order, before anything else), and keeps one table of the benches' figures
/// (the diary is docs/perf.md).
#[test]
fn the_readme_starts_with_the_writers_path() {
    let readme = std::fs::read_to_string(docs_dir().join("../README.md")).unwrap();
    let first = readme.find("\n## ").expect("a section");
    assert!(
        readme[first..].starts_with("\n## The writer's path"),
        "the first section is not the writer's path"
    );
    let section = &readme[first + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut at = 0;
    for step in [
        "cargo install --path compiler",
        "rulesc check ",
        "rulesc trace ",
        "rulesc test ",
        "rulesc analyze ",
    ] {
        let found = section[at..].find(step);
        assert!(
            found.is_some(),
            "`{step}` missing or out of order in:\n{section}"
        );
        at += found.unwrap();
    }
    let speed = &readme[readme.find("\n## Speed").expect("a Speed section")..];
    let speed = &speed[..speed[3..].find("\n## ").map_or(speed.len(), |e| e + 3)];
    assert!(speed.contains("docs/perf.md"), "{speed}");
    assert!(
        speed.lines().count() < 40,
        "the diary is back in the README:\n{speed}"
    );
}

/// The folders holding the compiler's source: the `rulesc` crate's and the stages'
/// crates (`crates/`).
fn compiler_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dirs = vec![root.join("compiler/src"), root.join("crates")];
    for d in &dirs {
        assert!(d.is_dir(), "{} is not a folder", d.display());
    }
    dirs
}
