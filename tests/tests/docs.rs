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

/// The words of a command line: split at spaces, `"..."` kept together.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quoted {
        return Err("an unclosed `\"`".into());
    }
    words.extend(word);
    Ok(words)
}

/// A chart a `sh odds` command draws (`--svg PATH`): `docs/PATH` must be what it draws,
/// so the picture the docs show is the current one. `RULESC_UPDATE_CHARTS=1` writes it.
fn chart(path: &str, svg: &str) -> Result<(), Failed> {
    let file = docs_dir().join(path);
    if std::fs::read_to_string(&file).ok().as_deref() == Some(svg) {
        return Ok(());
    }
    if std::env::var_os("RULESC_UPDATE_CHARTS").is_some() {
        write(&file, svg);
        return Ok(());
    }
    Err(Failed::Usage(format!(
        "docs/{path} is not the chart this command draws (run the docs test with RULESC_UPDATE_CHARTS=1 to write it)"
    )))
}

/// Why a `sh odds` command did not print its tables.
enum Failed {
    /// The block itself is wrong (an unknown flag, a bad value).
    Usage(String),
    /// rulesc reported diagnostics.
    Diagnostics(rulesc::diag::Diagnostics, rulesc::source::Sources),
}

/// Runs the `$ rulesc analyze ...` or `$ rulesc diff ...` line of a `sh odds` block as
/// the command line does (the same library calls, flag by flag), paths taken in the
/// examples' folder; what it prints, the folder's path taken out.
fn odds_command(root: &Path, line: &str) -> Result<String, Failed> {
    use rulesc::analyze::{self, report::Style, View};
    let rest = line.strip_prefix("$ rulesc ").ok_or(Failed::Usage(
        "the first line must start with `$ rulesc `".into(),
    ))?;
    let words = shell_words(rest).map_err(Failed::Usage)?;
    let (cmd, args) = words
        .split_first()
        .ok_or(Failed::Usage("no command".into()))?;
    let mut view = View::default();
    let mut limits = analyze::Limits::default();
    let mut style = Style::Text;
    let mut paths = Vec::new();
    let mut svg: Option<String> = None;
    let mut it = args.iter();
    while let Some(w) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or(Failed::Usage(format!("`{w}` needs a value")))
        };
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|e| Failed::Usage(format!("`{w} {v}`: {e}")))
        };
        match w.as_str() {
            "--by" => view.by = Some(value()?),
            "--best" => view.best = Some(value()?),
            "--decide" => view.decide.push(value()?),
            "--sweep" => view
                .sweeps
                .push(analyze::cases::parse_sweep(&value()?).map_err(Failed::Usage)?),
            "--samples" => view.samples = Some(number(value()?)?),
            "--seed" => view.seed = number(value()?)?,
            "--explode-depth" => limits.explode_depth = number(value()?)?,
            "--svg" => svg = Some(value()?),
            "--format" => {
                style = match value()?.as_str() {
                    "json" => Style::Json,
                    "csv" => Style::Csv,
                    "human" => Style::Text,
                    other => return Err(Failed::Usage(format!("unknown format `{other}`"))),
                }
            }
            w if w.starts_with('-') => {
                return Err(Failed::Usage(format!(
                    "the docs' test does not know the flag `{w}`"
                )))
            }
            w => paths.push(root.join(w)),
        }
    }
    let failed = |(d, s)| Failed::Diagnostics(d, s);
    let text = match (cmd.as_str(), paths.as_slice()) {
        ("analyze", [ruleset, scenarios @ ..]) if !scenarios.is_empty() => {
            let (p, d, s) = rulesc::compile_dir(ruleset);
            let p = p.ok_or_else(|| failed((d, s)))?;
            let mut all = Vec::new();
            for scenario in scenarios {
                let (reports, _, _) = analyze::reports(&p, scenario, &limits, &view).map_err(failed)?;
                all.extend(reports);
            }
            if let Some(path) = &svg {
                let [one] = all.as_slice() else {
                    return Err(Failed::Usage("`--svg` draws one case".into()));
                };
                chart(path, &one.svg())?;
            }
            analyze::report::render(&all, view.best.as_deref(), view.by.is_some(), style)
        }
        ("diff", [base, variant, scenario]) => {
            let (d, _) = analyze::diff::compare(base, variant, scenario, &limits, &view).map_err(failed)?;
            if let Some(path) = &svg {
                chart(path, &d.svg())?;
            }
            d.render(style)
        }
        _ => {
            return Err(Failed::Usage(
                "write `rulesc analyze <ruleset> <scenario>...` or `rulesc diff <base> <variant> <scenario>`".into(),
            ))
        }
    };
    Ok(text.replace(&format!("{}/", root.display()), ""))
}

/// A `fight=` block: the fight file simulated (or one run traced), its output held to
/// the `text output` after it.
#[allow(clippy::too_many_arguments)]
fn run_fight(
    p: &rulesc::ir::Program,
    b: &Block,
    path: &Path,
    what: &str,
    expect: Option<&[String]>,
    outputs: &[&Block],
    root: &Path,
    fail: &mut Vec<String>,
) {
    let num = |key: &str, default: u64| {
        b.attr(key)
            .map_or(default, |v| v.parse().unwrap_or(default))
    };
    match rulesc::simulate::read(p, path) {
        Ok((file, _)) => {
            if expect.is_some() {
                fail.push(format!("{what}: expected diagnostics, but it ran"));
                return;
            }
            let seed = num("seed", 0);
            let out = match b.attr("trace") {
                Some(k) => {
                    // `formulas`: traced as `simulate --trace K --trace-formulas`.
                    let options = rulesc::eval::Options {
                        trace_formulas: b.words.iter().any(|w| w == "formulas"),
                    };
                    rulesc::simulate::trace_run(p, &file, seed, k.parse().unwrap_or(0), options)
                }
                None => rulesc::simulate::simulate(p, &file, num("runs", 1000), seed)
                    .render(p, &file, seed),
            };
            if let Some(o) = outputs.first() {
                if let Some(line) = missing_line(&o.text, &out) {
                    fail.push(format!(
                        "{}: this output is not what the fight prints (no line `{line}`); it prints:\n{out}",
                        o.at
                    ));
                }
            }
        }
        Err((diags, sources)) => judge(
            what,
            &diags,
            &sources,
            Some(expect.unwrap_or(&[])),
            outputs,
            root,
            fail,
        ),
    }
}

/// What the reference promises to show: each YAML section and DSL construct, and a piece
/// of text that appears only where it is used.
const YAML_COVERAGE: &[(&str, &str)] = &[
    ("manifest", "ruleset:"),
    ("extends", "extends:"),
    ("scales", "scales:"),
    ("enums", "enums:"),
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
/// not files on a page either: `compiler/tests/hostile_io.rs` runs them; nor are
/// 300-level scales and records 8,192 values large (`E0360`, `E0362`):
/// `compiler/tests/hostile.rs` has them; a simulation past its time limit (`W0105`):
/// `compiler/tests/hostile_run.rs`.
const UNTESTABLE_CODES: &[&str] = &[
    "E0001", "E0002", "E0003", "E0008", "E0009", "E0010", "E0011", "E0012", "E0013", "E0014",
    "E0015", "E0203", "E0331", "E0360", "E0362", "W0101", "W0102", "W0103", "W0104", "W0105",
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../compiler/src");
    for code in compiler_codes(&src) {
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
fn compiler_codes(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
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
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        let name = doc.file_name().unwrap().to_string_lossy().to_string();
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
            let Ok(linked) = std::fs::read_to_string(&path) else {
                broken.push(format!("docs/{name}: `{target}`: no file {file}"));
                continue;
            };
            if !anchor.is_empty()
                && file.ends_with(".md")
                && !anchors(&linked).iter().any(|a| a == anchor)
            {
                broken.push(format!(
                    "docs/{name}: `{target}`: no heading `#{anchor}` in {file}"
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The `rulesc` binary cargo built beside this test (`cargo test --workspace` builds it
/// before running any test). A missing binary, or one older than the compiler's sources,
/// fails the test: the docs are never checked against an old build.
fn rulesc_bin() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("no target folder")?;
    let bin = dir.join(format!("rulesc{}", std::env::consts::EXE_SUFFIX));
    let built = std::fs::metadata(&bin)
        .and_then(|m| m.modified())
        .map_err(|_| {
            format!(
                "{} is missing: `sh run` examples need it (`cargo build -p rulesc`, or run \
                 `cargo test --workspace`, which builds it)",
                bin.display()
            )
        })?;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../compiler/src");
    if let Some(newer) = newest(&src).filter(|(t, _)| *t > built) {
        return Err(format!(
            "{} is older than {}: rebuild it (`cargo build -p rulesc`)",
            bin.display(),
            newer.1.display()
        ));
    }
    Ok(bin)
}

/// The most recently changed file under `dir`.
fn newest(dir: &Path) -> Option<(std::time::SystemTime, PathBuf)> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        let found = if p.is_dir() {
            newest(&p)
        } else {
            e.metadata().and_then(|m| m.modified()).ok().map(|t| (t, p))
        };
        if let Some(f) = found {
            if best.as_ref().is_none_or(|b| f.0 > b.0) {
                best = Some(f);
            }
        }
    }
    best
}

/// Runs a `sh run` block's command in `root` and holds it to its exit code and output.
fn run_command(bin: &Path, root: &Path, b: &Block, output: Option<&Block>, fail: &mut Vec<String>) {
    let line = b.text.trim();
    let Some(args) = line.strip_prefix("rulesc ") else {
        fail.push(format!(
            "{}: a `sh run` block holds one `rulesc ...` command",
            b.at
        ));
        return;
    };
    if line.contains('\n') {
        fail.push(format!("{}: a `sh run` block holds one command", b.at));
        return;
    }
    let out = std::process::Command::new(bin)
        .args(args.split_whitespace())
        .current_dir(root)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            fail.push(format!("{}: cannot run {}: {e}", b.at, bin.display()));
            return;
        }
    };
    let clean =
        |bytes: &[u8]| String::from_utf8_lossy(bytes).replace(&format!("{}/", root.display()), "");
    let (stdout, stderr) = (clean(&out.stdout), clean(&out.stderr));
    let want: i32 = b.attr("exit").and_then(|e| e.parse().ok()).unwrap_or(0);
    let code = out.status.code().unwrap_or(-1);
    if code != want {
        fail.push(format!(
            "{}: `{line}` exits with {code}, not {want}:\n{stdout}\n{stderr}",
            b.at
        ));
        return;
    }
    let Some(o) = output else { return };
    // Each line of the block, in order, in one stream or the other.
    let (out_lines, err_lines): (Vec<&str>, Vec<&str>) = (
        stdout.lines().map(str::trim_end).collect(),
        stderr.lines().map(str::trim_end).collect(),
    );
    let (mut i, mut j) = (0, 0);
    for w in o.text.lines().map(str::trim_end) {
        if w.trim() == "..." || w.trim().is_empty() {
            continue;
        }
        if let Some(k) = out_lines[i..].iter().position(|l| *l == w) {
            i += k + 1;
        } else if let Some(k) = err_lines[j..].iter().position(|l| *l == w) {
            j += k + 1;
        } else {
            fail.push(format!(
                "{}: this is not what `{line}` prints (no line `{w}`); it prints:\n{stdout}\n(standard error:)\n{stderr}",
                o.at
            ));
            return;
        }
    }
}
