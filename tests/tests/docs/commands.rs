//! The commands a doc example runs: `sh run` lines through the `rulesc` binary, `sh odds`
//! lines through the library (charts compared with the committed ones), fight files as
//! `rulesc simulate` runs them.

use super::*;

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
pub(super) enum Failed {
    /// The block itself is wrong (an unknown flag, a bad value).
    Usage(String),
    /// rulesc reported diagnostics.
    Diagnostics(rulesc::diag::Diagnostics, rulesc::source::Sources),
}

/// Runs the `$ rulesc analyze ...` or `$ rulesc diff ...` line of a `sh odds` block as
/// the command line does (the same library calls, flag by flag), paths taken in the
/// examples' folder; what it prints, the folder's path taken out.
pub(super) fn odds_command(root: &Path, line: &str) -> Result<String, Failed> {
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
                    "text" | "human" => Style::Text,
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
                // A fight file's chart is its ends and rounds (`analyze::fight::svg`).
                let fight = scenarios.iter().any(|s| rulesc::simulate::diff::is_fight_file(s));
                match (fight, all.as_slice()) {
                    (true, _) => {
                        let drawn = analyze::fight::svg(&all).ok_or_else(|| {
                            Failed::Usage("`--svg` draws one fight file".into())
                        })?;
                        chart(path, &drawn)?;
                    }
                    (false, [one]) => chart(path, &one.svg())?,
                    _ => return Err(Failed::Usage("`--svg` draws one case".into())),
                }
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
pub(super) fn run_fight(
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

/// The `rulesc` binary cargo built beside this test (`cargo test --workspace` builds it
/// before running any test). A missing binary, or one older than the compiler's sources,
/// fails the test: the docs are never checked against an old build.
pub(super) fn rulesc_bin() -> Result<PathBuf, String> {
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let newer = [root.join("compiler/src"), root.join("crates")]
        .iter()
        .filter_map(|src| newest(src))
        .max();
    if let Some(newer) = newer.filter(|(t, _)| *t > built) {
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
pub(super) fn run_command(
    bin: &Path,
    root: &Path,
    b: &Block,
    output: Option<&Block>,
    fail: &mut Vec<String>,
) {
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
    // The codes it must report (`expect=`), each named on standard error.
    for code in b.attr("expect").into_iter().flat_map(|e| e.split(',')) {
        if !stderr.contains(code) {
            fail.push(format!(
                "{}: `{line}` does not report {code}:\n{stderr}",
                b.at
            ));
        }
    }
    // A chart it draws (`--svg PATH`) must be `docs/PATH`, as a `sh odds` one.
    let words: Vec<&str> = args.split_whitespace().collect();
    if let Some(path) = words.windows(2).find(|w| w[0] == "--svg").map(|w| w[1]) {
        let drawn = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        if let Err(Failed::Usage(why)) = chart(path, &drawn) {
            fail.push(format!("{}: {why}", b.at));
        }
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
