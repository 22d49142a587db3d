//! The examples of `docs/*.md`, run: a doc example that stops working fails here.
//!
//! A fenced block takes part when its info string (the words after the opening fence)
//! says what it is:
//!
//! - `file=<group>/<path>`: a file of the example ruleset `<group>` (the first path
//!   component). Every group is written to its own folder under one fresh temporary
//!   directory (so `extends: ../<other group>` works), compiled with
//!   [`rulesc::compile_dir`], and must check with no diagnostic at all, warnings included.
//! - `expect=E0310` (or `expect=E0310,W0001`) on any block of a group, pack or scenario:
//!   the codes it reports must be exactly these (so it fails, unless they are warnings).
//! - `like=<group>` on any block of a group: the group starts as a copy of that group's
//!   files, and its own blocks replace or add files (a mistake shown in one file of a
//!   ruleset the reader already has).
//! - `pack=<group>`: a content pack, checked against that group with
//!   [`rulesc::pack::check_packs`]; `scenario=<group>`: a scenario, run with
//!   [`rulesc::scenario::run_file`] (seed 0, as `rulesc trace`). Either may carry
//!   `file=<path>` to name its file (outside every group's folder).
//! - `text output` right after one of the above (the next fenced block, not counting
//!   `sh` blocks of commands): what it prints.
//!   After a scenario: its final `result:` line must be in the block, and every line of
//!   the block must be a line of the trace, in order (`...` skips lines). After a group,
//!   pack or scenario with `expect=`: every line of the rendered diagnostics must be in
//!   the block, in order.
//! - `text output explain=<group>:<name>`: exactly what `rulesc explain <group> <name>`
//!   prints.
//! - `text output test=<folder>`: what `rulesc test <folder>` prints (its scenario lines
//!   and summary; every line of the block, in order, `...` skipping lines), the folder
//!   relative to the one holding the rulesets. A scenario block with the word `formulas` is
//!   traced with `--trace-formulas`. A scenario block with the word `strict` is
//!   run as `rulesc test` runs it ([`rulesc::testing::run_scenario`]: a strict script,
//!   its `expect:` held), and its diagnostics judged as above.
//! - `sh run` (optionally `exit=<code>`, 0 unless given): one `rulesc ...` command line,
//!   run by the `rulesc` binary cargo built beside this test, in the folder holding the
//!   example rulesets (after every other example is written); it must exit with the code,
//!   and the `text output` after it must be what it prints: every line of the block is a
//!   line of its standard output or of its standard error, in order (`...` skips lines).
//!   A chart it draws (`--svg PATH`) must be `docs/PATH`, as for `sh odds` below; with
//!   `expect=E0513`, its standard error must name each code.
//! - `fight=<group>`: a fight file, run as `rulesc simulate` does: `runs=<n>` times from
//!   `seed=<s>` (1000 and 0 unless given), or with `trace=<k>` the trace of run `k`
//!   (with the word `formulas`, as `--trace-formulas` traces it). The
//!   `text output` after it: every line of the block is a line of what it prints, in
//!   order (`...` skips lines).
//!
//! - `sh odds`: a `$ rulesc analyze ...` or `$ rulesc diff ...` line, run through the
//!   same library calls as the command line (flag by flag), paths taken in the folder
//!   of the example rulesets. The `text output` after it: every line of the block is a
//!   line of what it prints, in order (`...` skips lines); with `expect=`, it must fail
//!   with those codes and the block holds its diagnostics. With `--svg PATH`, the chart
//!   it draws must be `docs/PATH`, as committed (`RULESC_UPDATE_CHARTS=1` writes it).
//!
//! A `yaml` or `rules` block that is none of these must say `untested` (a sketch, or an
//! example of something the compiler does not do yet), so that a typo in an info string
//! cannot quietly take an example out of the tests. Other blocks (`sh` commands, plain
//! `text`) are not checked.
//!
//! A second test holds the reference to its promise: every YAML section and every DSL
//! construct appears in at least one tested block, and every diagnostic code the
//! compiler emits is listed with an example that fails with it. A third checks that the
//! links between the docs lead to a heading that exists.

use rulesc_tests::doc_examples::{self, Block};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod commands;
mod reference;

use commands::{odds_command, rulesc_bin, run_command, run_fight, Failed};

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs")
}

/// Every block of every `docs/*.md`, file by file in name order.
fn all_blocks() -> Vec<Block> {
    doc_examples::all_blocks(&docs_dir())
}

/// Whether a block takes part in the tests.
fn is_tested(b: &Block) -> bool {
    ["file", "pack", "scenario", "explain", "fight"]
        .iter()
        .any(|k| b.attrs.contains_key(*k))
        || is_odds(b)
        || (b.lang == "sh" && b.words.iter().any(|w| w == "run"))
}

/// An example ruleset: its files and what it must report.
#[derive(Default)]
struct Group {
    /// (path inside the group, text)
    files: Vec<(String, String)>,
    like: Option<String>,
    expect: Option<Vec<String>>,
    /// The `text output` blocks shown after its blocks.
    outputs: Vec<Block>,
    /// Where its first block is.
    at: String,
}

/// A pack or scenario block, with the output shown after it.
struct Run {
    block: Block,
    group: String,
    path: String,
    output: Option<Block>,
}

/// The expected codes of `expect=`, sorted.
/// A `sh odds` block: a `$ rulesc analyze ...` or `$ rulesc diff ...` line, run.
fn is_odds(b: &Block) -> bool {
    b.lang == "sh" && b.words.iter().any(|w| w == "odds")
}

fn codes(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
    v.sort();
    v.dedup();
    v
}

/// The diagnostics' codes, sorted and without repeats.
fn reported(d: &rulesc::diag::Diagnostics) -> Vec<String> {
    let mut v: Vec<String> = d.items.iter().map(|d| d.code.to_string()).collect();
    v.sort();
    v.dedup();
    v
}

fn rendered(d: &rulesc::diag::Diagnostics, s: &rulesc::source::Sources, root: &Path) -> String {
    let mut out = String::new();
    for x in d.sorted() {
        out.push_str(&rulesc::diag::render(x, s, false, 100));
    }
    let _ = writeln!(
        out,
        "{} error(s), {} warning(s)",
        d.error_count(),
        d.warning_count()
    );
    // Packs and scenarios are named by the path they were given: show it as the reader
    // would type it, relative to the folder that holds the rulesets.
    out.replace(&format!("{}/", root.display()), "")
}

/// Whether `want`'s lines are lines of `have`, in order; `...` in `want` skips any.
/// Returns the first line that is not.
fn missing_line(want: &str, have: &str) -> Option<String> {
    let mut have = have.lines().map(str::trim_end);
    for w in want.lines().map(str::trim_end) {
        if w.trim() == "..." || w.trim().is_empty() {
            continue;
        }
        if !have.any(|h| h == w) {
            return Some(w.to_string());
        }
    }
    None
}

/// Checks the diagnostics of something that must fail with exactly `expect`'s codes, or
/// be clean; the text outputs shown after it must hold its rendered diagnostics.
fn judge(
    what: &str,
    d: &rulesc::diag::Diagnostics,
    s: &rulesc::source::Sources,
    expect: Option<&[String]>,
    outputs: &[&Block],
    root: &Path,
    fail: &mut Vec<String>,
) {
    let text = rendered(d, s, root);
    match expect {
        None if !outputs.is_empty() => fail.push(format!(
            "{}: an output shown after {what}, which expects no diagnostics (add `expect=`)",
            outputs[0].at
        )),
        None if d.items.is_empty() => {}
        None => fail.push(format!("{what}: expected no diagnostics, got:\n{text}")),
        Some(want) => {
            let got = reported(d);
            if got != want {
                fail.push(format!("{what}: expected {want:?}, got {got:?}:\n{text}"));
            }
            for o in outputs {
                if let Some(line) = missing_line(&o.text, &text) {
                    fail.push(format!(
                        "{}: this output is not what rulesc reports (no line `{line}`); it reports:\n{text}",
                        o.at
                    ));
                }
            }
        }
    }
}

/// Writes a file, creating its folder.
fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn every_doc_example_works() {
    let blocks = all_blocks();
    let mut fail: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let mut runs: Vec<Run> = Vec::new();
    let mut explains: Vec<Block> = Vec::new();
    let mut tests: Vec<Block> = Vec::new();
    // `sh run` blocks, each with the `text output` after it.
    let mut cli_runs: Vec<(Block, Option<Block>)> = Vec::new();
    // What the next `text output` block belongs to.
    enum Last {
        Nothing,
        Group(String),
        Run(usize),
        Command(usize),
        Cli(usize),
    }
    let mut commands: Vec<(Block, Option<Block>)> = Vec::new();
    let mut last = Last::Nothing;
    for b in &blocks {
        for key in b.attrs.keys() {
            if ![
                "file", "expect", "like", "pack", "scenario", "explain", "fight", "runs", "seed",
                "trace", "test", "exit",
            ]
            .contains(&key.as_str())
            {
                fail.push(format!("{}: unknown attribute `{key}=`", b.at));
            }
        }
        // An example that is not run must say so, so that a typo in its info string does
        // not quietly take it out of the tests.
        let untested = b.words.iter().any(|w| w == "untested");
        if ["yaml", "rules"].contains(&b.lang.as_str()) && !is_tested(b) && !untested {
            fail.push(format!(
                "{}: a `{}` example that is not tested (give it `file=`, `pack=` or \
                 `scenario=`, or mark it `untested`)",
                b.at, b.lang
            ));
        }
        if b.is_output() && b.attr("test").is_some() {
            tests.push(b.clone());
            last = Last::Nothing;
            continue;
        }
        if b.is_output() && b.attr("explain").is_some() {
            explains.push(b.clone());
            last = Last::Nothing;
            continue;
        }
        if b.is_output() {
            match &last {
                Last::Group(g) => groups.get_mut(g).unwrap().outputs.push(b.clone()),
                Last::Run(i) if runs[*i].output.is_none() => runs[*i].output = Some(b.clone()),
                Last::Command(i) if commands[*i].1.is_none() => commands[*i].1 = Some(b.clone()),
                Last::Cli(i) if cli_runs[*i].1.is_none() => cli_runs[*i].1 = Some(b.clone()),
                _ => fail.push(format!(
                    "{}: a `text output` block that follows no tested example",
                    b.at
                )),
            }
            last = Last::Nothing;
            continue;
        }
        if b.lang == "sh" && b.words.iter().any(|w| w == "run") {
            cli_runs.push((b.clone(), None));
            last = Last::Cli(cli_runs.len() - 1);
            continue;
        }
        let target = b.attr("pack").or(b.attr("scenario")).or(b.attr("fight"));
        if let Some(group) = target {
            let kind = if b.attrs.contains_key("pack") {
                "pack"
            } else if b.attrs.contains_key("fight") {
                "fight"
            } else {
                "scenario"
            };
            let path = b.attr("file").map(str::to_string).unwrap_or_else(|| {
                let at = b.at.replace(['/', ':', '.'], "_");
                format!("{kind}s/{at}.yaml")
            });
            runs.push(Run {
                block: b.clone(),
                group: group.to_string(),
                path,
                output: None,
            });
            last = Last::Run(runs.len() - 1);
            continue;
        }
        if is_odds(b) {
            commands.push((b.clone(), None));
            last = Last::Command(commands.len() - 1);
            continue;
        }
        let Some(file) = b.attr("file") else {
            // The command that prints an output may stand between it and its example.
            if b.lang != "sh" {
                last = Last::Nothing;
            }
            continue;
        };
        let Some((group, rest)) = file.split_once('/') else {
            fail.push(format!(
                "{}: `file={file}` names no group (write `file=<group>/<file>`)",
                b.at
            ));
            continue;
        };
        let g = groups.entry(group.to_string()).or_default();
        if g.at.is_empty() {
            g.at = b.at.clone();
        }
        if g.files.iter().any(|(p, _)| p == rest) {
            fail.push(format!("{}: `{file}` is written twice", b.at));
        }
        g.files.push((rest.to_string(), b.text.clone()));
        if let Some(like) = b.attr("like") {
            g.like = Some(like.to_string());
        }
        if let Some(e) = b.attr("expect") {
            g.expect = Some(codes(e));
        }
        last = Last::Group(group.to_string());
    }

    // A fresh folder holding every group side by side.
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("docs");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let root = std::fs::canonicalize(&root).unwrap();
    let own_files: BTreeMap<String, doc_examples::GroupFiles> = groups
        .iter()
        .map(|(n, g)| {
            let files = doc_examples::GroupFiles {
                files: g.files.clone(),
                like: g.like.clone(),
            };
            (n.clone(), files)
        })
        .collect();
    for (name, g) in &groups {
        let files = match doc_examples::resolve(&own_files, name) {
            Ok(files) => files,
            Err(e) => {
                fail.push(format!("{}: {e}", g.at));
                continue;
            }
        };
        for (p, text) in files {
            write(&root.join(name).join(p), &text);
        }
    }

    let mut programs: BTreeMap<String, rulesc::ir::Program> = BTreeMap::new();
    for (name, g) in &groups {
        let (program, diags, sources) = rulesc::compile_dir(&root.join(name));
        let expect = g.expect.as_deref();
        let outputs: Vec<&Block> = g.outputs.iter().collect();
        let what = format!("example `{name}` ({})", g.at);
        judge(&what, &diags, &sources, expect, &outputs, &root, &mut fail);
        if let Some(p) = program {
            programs.insert(name.clone(), p);
        }
    }

    for run in &runs {
        let b = &run.block;
        if groups.contains_key(run.path.split('/').next().unwrap_or("")) {
            fail.push(format!(
                "{}: `{}` is inside the folder of an example ruleset",
                b.at, run.path
            ));
            continue;
        }
        let path = root.join(&run.path);
        write(&path, &b.text);
        let Some(p) = programs.get(&run.group) else {
            fail.push(format!(
                "{}: example ruleset `{}` does not exist or does not check",
                b.at, run.group
            ));
            continue;
        };
        let expect = b.attr("expect").map(codes);
        let outputs: Vec<&Block> = run.output.iter().collect();
        let what = format!("{} (`{}`)", b.at, run.path);
        if b.attrs.contains_key("pack") {
            let (_, diags, sources) = rulesc::pack::check_packs(p, &[path]);
            judge(
                &what,
                &diags,
                &sources,
                expect.as_deref(),
                &outputs,
                &root,
                &mut fail,
            );
            continue;
        }
        if b.attrs.contains_key("fight") {
            run_fight(
                p,
                b,
                &path,
                &what,
                expect.as_deref(),
                &outputs,
                &root,
                &mut fail,
            );
            continue;
        }
        if b.words.iter().any(|w| w == "strict") {
            let case = rulesc::testing::run_scenario(p, &path, &Default::default());
            judge(
                &what,
                &case.diags,
                &case.sources,
                Some(expect.as_deref().unwrap_or(&[])),
                &outputs,
                &root,
                &mut fail,
            );
            continue;
        }
        // `formulas`: run as `rulesc trace --trace-formulas` runs it.
        let options = rulesc::scenario::RunOptions {
            trace_formulas: b.words.iter().any(|w| w == "formulas"),
            ..Default::default()
        };
        match rulesc::scenario::run_file_with(p, &path, 0, options) {
            Ok(trace) => {
                if expect.is_some() {
                    fail.push(format!("{what}: expected diagnostics, but it ran"));
                    continue;
                }
                let Some(o) = &run.output else { continue };
                let result = trace
                    .lines()
                    .rfind(|l| l.starts_with("result:"))
                    .unwrap_or("(no result line)");
                if !o.text.lines().any(|l| l.trim_end() == result) {
                    fail.push(format!(
                        "{}: the trace's `{result}` is not in this output; the trace is:\n{trace}",
                        o.at
                    ));
                } else if let Some(line) = missing_line(&o.text, &trace) {
                    fail.push(format!(
                        "{}: this output is not the trace (no line `{line}`); the trace is:\n{trace}",
                        o.at
                    ));
                }
            }
            Err((diags, sources)) => judge(
                &what,
                &diags,
                &sources,
                Some(expect.as_deref().unwrap_or(&[])),
                &outputs,
                &root,
                &mut fail,
            ),
        }
    }

    for b in &explains {
        let spec = b.attr("explain").unwrap_or_default();
        let Some((group, name)) = spec.split_once(':') else {
            fail.push(format!("{}: write `explain=<group>:<name>`", b.at));
            continue;
        };
        match rulesc::explain::explain(&root.join(group), name) {
            Ok(text) => {
                let norm = |s: &str| -> Vec<String> {
                    s.lines().map(|l| l.trim_end().to_string()).collect()
                };
                if norm(&text) != norm(&b.text) {
                    fail.push(format!(
                        "{}: `rulesc explain {group} {name}` prints:\n{text}",
                        b.at
                    ));
                }
            }
            Err((d, s)) => fail.push(format!(
                "{}: `rulesc explain {group} {name}` fails:\n{}",
                b.at,
                rendered(&d, &s, &root)
            )),
        }
    }

    for (b, output) in &commands {
        let line = b.text.lines().next().unwrap_or("");
        let expect = b.attr("expect").map(codes);
        let outputs: Vec<&Block> = output.iter().collect();
        let what = format!("{} (`{line}`)", b.at);
        match odds_command(&root, line) {
            Err(Failed::Usage(e)) => fail.push(format!("{what}: {e}")),
            Err(Failed::Diagnostics(d, s)) => judge(
                &what,
                &d,
                &s,
                Some(expect.as_deref().unwrap_or(&[])),
                &outputs,
                &root,
                &mut fail,
            ),
            Ok(_) if expect.is_some() => {
                fail.push(format!("{what}: expected diagnostics, but it ran"))
            }
            Ok(text) => match output {
                None => fail.push(format!(
                    "{what}: no `text output` block shows what it prints"
                )),
                Some(o) => {
                    if let Some(l) = missing_line(&o.text, &text) {
                        fail.push(format!(
                            "{}: this output is not what the command prints (no line `{l}`); it prints:\n{text}",
                            o.at
                        ));
                    }
                }
            },
        }
    }

    for b in &tests {
        let folder = b.attr("test").unwrap_or_default();
        let report = rulesc::testing::run(&[root.join(folder)], &Default::default());
        let mut text: String = report.cases.iter().map(|c| c.render()).collect();
        text.push_str(&report.summary());
        let text = text.replace(&format!("{}/", root.display()), "");
        if let Some(line) = missing_line(&b.text, &text) {
            fail.push(format!(
                "{}: this is not what `rulesc test {folder}` prints (no line `{line}`); it prints:\n{text}",
                b.at
            ));
        }
    }

    if !cli_runs.is_empty() {
        match rulesc_bin() {
            Ok(bin) => {
                for (b, output) in &cli_runs {
                    run_command(&bin, &root, b, output.as_ref(), &mut fail);
                }
            }
            Err(e) => fail.push(e),
        }
    }

    assert!(
        !groups.is_empty() && !runs.is_empty(),
        "no tested examples found in docs/"
    );
    assert!(
        fail.is_empty(),
        "{} doc example(s) do not work:\n\n{}",
        fail.len(),
        fail.join("\n\n")
    );
}
