//! `rulesc studio`: the server refuses requests without the token or from another site,
//! serves only the project's files (no traversal, no link out), refuses a save over a
//! file changed on disk (the disk untouched), gives `analyze`'s odds and `--svg`'s chart,
//! drops superseded checks and serves hostile text as data; then, in a real headless
//! Chromium driven through WebDriver (skipped, saying so, when `chromium` or
//! `chromedriver` is missing): a typo's diagnostic at its line, its fix applied, a
//! scenario's odds equal to `analyze`'s, a save on disk, a conflicting save refused.
//!
//! Every server and driver a test starts is killed when the test ends (on drop).

mod run;
#[path = "studio/serve.rs"]
mod serve;
#[path = "studio/webdriver.rs"]
mod webdriver;

use serde_json::{json, Value};
use serve::{http, project, Studio};
use std::path::Path;

const D20: &str = "d20-armor-slots";
const ATTACK: &str = "rules/d20-armor-slots/attack.rules";
const SCENARIO: &str = "examples/d20-armor-slots/longsword_attack.yaml";

fn studio_of(tmp: &Path) -> Studio {
    Studio::start(&tmp.join("rules").join(D20), &[])
}

/// A request's path and headers, and the status it gets.
type Case<'a> = (String, Vec<(&'a str, &'a str)>, u16);

#[test]
fn a_request_without_the_right_token_is_refused() {
    let tmp = project(D20);
    let s = studio_of(tmp.path());
    let wrong = "0".repeat(s.token.len());
    let short = &s.token[..s.token.len() - 1];
    let with = |t: &str| format!("/api/files?token={t}");
    let cases: Vec<Case> = vec![
        ("/api/files".into(), vec![], 403),
        ("/".into(), vec![], 403),
        ("/studio.js".into(), vec![], 403),
        (with(&wrong), vec![], 403),
        (with(short), vec![], 403),
        (
            "/api/files".into(),
            vec![("X-Rulesc-Token", wrong.as_str())],
            403,
        ),
        (with(&s.token), vec![], 200),
        (
            "/api/files".into(),
            vec![("X-Rulesc-Token", s.token.as_str())],
            200,
        ),
    ];
    for (path, headers, want) in cases {
        let (status, head, body) = http(s.port, "GET", &path, &headers, None);
        assert_eq!(status, want, "{path} {headers:?}: {body}");
        // Refused or not, every answer carries the policy.
        assert!(
            head.iter()
                .any(|(k, v)| k == "content-security-policy" && v.contains("script-src 'self'")),
            "{head:?}"
        );
        if want == 403 {
            assert!(body.contains("token"), "{body}");
            assert!(!body.contains("rules/"), "a refusal leaks nothing: {body}");
        }
    }
    // The page itself, with the token in its address, names its script with it.
    let (status, head, page) = http(s.port, "GET", &format!("/?token={}", s.token), &[], None);
    assert_eq!(status, 200);
    assert!(page.contains(&format!("/studio.js?token={}", s.token)));
    assert!(head
        .iter()
        .any(|(k, v)| k == "content-type" && v.starts_with("text/html")));
}

#[test]
fn a_request_from_another_host_or_origin_is_refused() {
    let tmp = project(D20);
    let s = studio_of(tmp.path());
    let port = s.port;
    let here = format!("127.0.0.1:{port}");
    let other_port = format!("127.0.0.1:{}", port.wrapping_add(1));
    let rebound = format!("attacker.example:{port}");
    let localhost = format!("localhost:{port}");
    let origin_here = format!("http://127.0.0.1:{port}");
    let origin_other = format!("http://attacker.example:{port}");
    let cases: Vec<(Vec<(&str, &str)>, u16)> = vec![
        (vec![("Host", &here)], 200),
        (vec![("Host", &localhost)], 200),
        // DNS rebinding: the attacker's name pointed at 127.0.0.1.
        (vec![("Host", &rebound)], 403),
        (vec![("Host", &other_port)], 403),
        (vec![("Host", "127.0.0.1")], 403),
        (vec![("Origin", &origin_here)], 200),
        (vec![("Origin", &origin_other)], 403),
        (vec![("Origin", "null")], 403),
        (vec![("Sec-Fetch-Site", "cross-site")], 403),
        (vec![("Sec-Fetch-Site", "same-origin")], 200),
    ];
    for (mut headers, want) in cases {
        headers.push(("X-Rulesc-Token", &s.token));
        let (status, _, body) = http(port, "GET", "/api/files", &headers, None);
        assert_eq!(status, want, "{headers:?}: {body}");
    }
}

#[test]
fn only_the_projects_files_are_read_and_written() {
    let tmp = project(D20);
    let dir = tmp.path().join("rules").join(D20);
    let secret = tempfile::tempdir().unwrap();
    std::fs::write(secret.path().join("secret.yaml"), "secret: 42\n").unwrap();
    #[cfg(unix)]
    {
        // A link out of the project, and one inside it.
        std::os::unix::fs::symlink(secret.path().join("secret.yaml"), dir.join("out.yaml"))
            .unwrap();
        std::os::unix::fs::symlink(dir.join("weapons.yaml"), dir.join("zz_link.yaml")).unwrap();
    }
    let s = studio_of(tmp.path());
    let (_, list) = s.api("/api/files", None);
    let names: Vec<&str> = list["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&ATTACK) && names.contains(&SCENARIO),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.contains("out.yaml")), "{names:?}");
    #[cfg(unix)]
    assert!(names.contains(&"rules/d20-armor-slots/zz_link.yaml"));
    let outside = secret.path().join("secret.yaml");
    let outside = outside.to_str().unwrap();
    for name in [
        "rules/d20-armor-slots/out.yaml",
        "../../etc/passwd",
        "/etc/passwd",
        outside,
        "rules/d20-armor-slots/../d20-armor-slots/attack.rules",
        "rulesc.toml",
        "rules/d20-armor-slots/NOTES.md",
        "",
    ] {
        let (status, v) = s.api("/api/file", Some(&json!({ "name": name })));
        assert_eq!(status, 404, "{name}: {v}");
        assert!(!v.to_string().contains("42"), "{name}: {v}");
        let (status, _) = s.api(
            "/api/save",
            Some(&json!({ "name": name, "text": "x", "version": "" })),
        );
        assert_eq!(status, 404, "{name}");
        let (status, _) = s.api("/api/check", Some(&json!({ "files": { name: "x" } })));
        assert_eq!(status, 404, "{name}");
    }
    assert_eq!(
        std::fs::read_to_string(secret.path().join("secret.yaml")).unwrap(),
        "secret: 42\n"
    );
    assert!(!Path::new("/etc/passwd").is_symlink());
    // A file inside, through its link: read as the file it leads to.
    #[cfg(unix)]
    {
        let (status, v) = s.api(
            "/api/file",
            Some(&json!({ "name": "rules/d20-armor-slots/zz_link.yaml" })),
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(
            v["text"].as_str().unwrap(),
            std::fs::read_to_string(dir.join("weapons.yaml")).unwrap()
        );
    }
}

#[test]
fn a_save_over_a_file_changed_on_disk_is_refused_and_the_disk_kept() {
    let tmp = project(D20);
    let path = tmp.path().join(ATTACK);
    let s = studio_of(tmp.path());
    let (_, loaded) = s.api("/api/file", Some(&json!({ "name": ATTACK })));
    let v0 = loaded["version"].as_str().unwrap().to_string();
    let original = loaded["text"].as_str().unwrap().to_string();
    assert_eq!(original, std::fs::read_to_string(&path).unwrap());

    // Saved at the version loaded: the disk holds the new text.
    let edited = format!("// edited in the studio\n{original}");
    let (status, saved) = s.api(
        "/api/save",
        Some(&json!({ "name": ATTACK, "text": edited, "version": v0 })),
    );
    assert_eq!(status, 200, "{saved}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    let v1 = saved["version"].as_str().unwrap().to_string();
    assert_ne!(v1, v0);
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains("rulesc-tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // Another editor changes the file; a save from the old version is refused.
    let theirs = format!("// changed by another editor\n{original}");
    std::fs::write(&path, &theirs).unwrap();
    for stale in [&v0, &v1] {
        let (status, refused) = s.api(
            "/api/save",
            Some(&json!({ "name": ATTACK, "text": "// mine\n", "version": stale })),
        );
        assert_eq!(status, 409, "{refused}");
        assert_eq!(refused["conflict"], json!(true));
        assert!(
            refused["error"]
                .as_str()
                .unwrap()
                .contains("changed on disk"),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
    }
    // One byte more than the largest file rulesc reads is refused too.
    let (_, now) = s.api("/api/file", Some(&json!({ "name": ATTACK })));
    let big = "x".repeat(rulesc::load::MAX_FILE_BYTES as usize + 1);
    let (status, _) = s.api(
        "/api/save",
        Some(&json!({ "name": ATTACK, "text": big, "version": now["version"] })),
    );
    assert_eq!(status, 422);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
}

#[test]
fn a_typo_is_reported_at_its_line_with_its_fix() {
    let tmp = project(D20);
    let s = studio_of(tmp.path());
    let original = std::fs::read_to_string(tmp.path().join(ATTACK)).unwrap();
    let typo = original.replacen("or can_block(c)", "or can_blok(c)", 1);
    let line = typo.lines().position(|l| l.contains("can_blok")).unwrap() + 1;
    let (status, v) = s.api(
        "/api/check",
        Some(&json!({ "seq": 7, "files": { ATTACK: typo } })),
    );
    assert_eq!(status, 200);
    assert_eq!(v["seq"], json!(7));
    assert_eq!(v["errors"], json!(1), "{v}");
    let d = &v["diagnostics"][0];
    assert_eq!(d["file"], json!(ATTACK));
    assert_eq!(d["line"], json!(line));
    assert_eq!(d["code"], json!("E0306"));
    let fix = &d["fix"];
    assert_eq!(
        (fix["old"].as_str(), fix["new"].as_str()),
        (Some("can_blok"), Some("can_block"))
    );
    // The fix, applied at its offsets, gives back the text that checks clean.
    let units: Vec<u16> = typo.encode_utf16().collect();
    let (from, to) = (
        fix["from"].as_u64().unwrap() as usize,
        fix["to"].as_u64().unwrap() as usize,
    );
    let fixed = String::from_utf16(&units[..from]).unwrap()
        + "can_block"
        + &String::from_utf16(&units[to..]).unwrap();
    assert_eq!(fixed, original);
    let (_, clean) = s.api("/api/check", Some(&json!({ "files": { ATTACK: fixed } })));
    assert_eq!(clean["errors"], json!(0), "{clean}");
    // The disk was never touched by a check.
    assert_eq!(
        std::fs::read_to_string(tmp.path().join(ATTACK)).unwrap(),
        original
    );
}

#[test]
fn a_burst_of_checks_gives_one_answer_and_the_rest_superseded() {
    let s = Studio::start(&run::root().join("rules/kingsmark"), &[]);
    // Five checks sent at once, before any answer is read.
    let mut streams: Vec<std::net::TcpStream> = (0..5)
        .map(|seq| {
            use std::io::Write;
            let body = json!({ "seq": seq, "files": {} }).to_string();
            let mut c = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
            write!(
                c,
                "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Rulesc-Token: {}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
                s.port,
                s.token,
                body.len()
            )
            .unwrap();
            c
        })
        .collect();
    let answers: Vec<Value> = streams
        .iter_mut()
        .map(|c| {
            c.set_read_timeout(Some(std::time::Duration::from_secs(120)))
                .unwrap();
            serde_json::from_str(&serve::read_response(c).2).unwrap()
        })
        .collect();
    let full: Vec<&Value> = answers.iter().filter(|a| a.get("ok").is_some()).collect();
    let superseded = answers
        .iter()
        .filter(|a| a["superseded"] == json!(true))
        .count();
    assert_eq!(full.len() + superseded, 5, "{answers:?}");
    assert!(!full.is_empty() && superseded >= 1, "{answers:?}");
    for a in full {
        assert_eq!(a["errors"], json!(0), "{a}");
    }
}

/// `rulesc analyze --format json` and `--svg` for the scenario, run in the project.
fn analyze(tmp: &Path, by: Option<&str>) -> (Value, String) {
    let svg = tmp.join("chart.svg");
    let mut args = vec![
        "analyze".to_string(),
        format!("rules/{D20}"),
        SCENARIO.to_string(),
        "--format".into(),
        "json".into(),
        "--svg".into(),
        svg.display().to_string(),
    ];
    if let Some(b) = by {
        args.extend(["--by".to_string(), b.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run::rulesc_in(tmp, &args, &[]);
    assert_eq!(code, 0, "{err}");
    (
        serde_json::from_str(&out).unwrap(),
        std::fs::read_to_string(svg).unwrap(),
    )
}

#[test]
fn the_odds_are_analyzes_and_the_chart_is_its_svg() {
    let tmp = project(D20);
    let s = studio_of(tmp.path());
    for by in [None, Some("tag")] {
        let (want, svg) = analyze(tmp.path(), by);
        let (status, got) = s.api(
            "/api/odds",
            Some(&json!({ "scenario": SCENARIO, "by": by })),
        );
        assert_eq!(status, 200, "{got}");
        let groups = |v: &Value| v["results"][0]["groups"].clone();
        assert_eq!(groups(&got["analyze"]), groups(&want), "by {by:?}");
        assert!(groups(&want).as_array().unwrap().len() > 1);
        assert_eq!(got["charts"][0].as_str().unwrap(), svg, "by {by:?}");
    }
    // The trace is `rulesc trace`'s.
    let (code, trace, err) = run::rulesc_in(
        tmp.path(),
        &["trace", &format!("rules/{D20}"), SCENARIO],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let (status, got) = s.api("/api/trace", Some(&json!({ "scenario": SCENARIO })));
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["trace"].as_str().unwrap(), trace);
}

#[test]
fn a_variants_odds_are_rulesc_diffs() {
    let root = run::root();
    let s = Studio::start(
        &root.join("rules/kingsmark"),
        &[
            "--variant",
            root.join("examples/variants/gritty_kingsmark")
                .to_str()
                .unwrap(),
        ],
    );
    let (_, files) = s.api("/api/files", None);
    assert_eq!(
        files["variants"],
        json!(["examples/variants/gritty_kingsmark"])
    );
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("diff.svg");
    let (code, out, err) = run::rulesc_in(
        &root,
        &[
            "diff",
            "rules/kingsmark",
            "examples/variants/gritty_kingsmark",
            "examples/kingsmark/aldren.yaml",
            "--format",
            "json",
            "--svg",
            svg.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let want: Value = serde_json::from_str(&out).unwrap();
    let (status, got) = s.api(
        "/api/diff",
        Some(&json!({
            "scenario": "examples/kingsmark/aldren.yaml",
            "variant": "examples/variants/gritty_kingsmark",
        })),
    );
    assert_eq!(status, 200, "{got}");
    // The same document, but for the scenario's path, which each names as it was given.
    let (mut got_diff, mut want) = (got["diff"].clone(), want);
    for d in [&mut got_diff, &mut want] {
        d.as_object_mut().unwrap().remove("scenario");
    }
    assert!(got_diff == want, "the studio's diff is not `rulesc diff`'s");
    assert!(want["groups"].as_array().unwrap().len() > 1);
    assert_eq!(
        got["chart"].as_str().unwrap(),
        std::fs::read_to_string(&svg).unwrap()
    );
    // Only a variant given on the command line is compared with.
    let (status, _) = s.api(
        "/api/diff",
        Some(&json!({
            "scenario": "examples/kingsmark/aldren.yaml",
            "variant": "examples/variants/broken_variant",
        })),
    );
    assert_eq!(status, 404);
}

#[test]
fn a_ruleset_with_errors_runs_nothing_and_says_why() {
    let tmp = project(D20);
    let s = studio_of(tmp.path());
    let original = std::fs::read_to_string(tmp.path().join(ATTACK)).unwrap();
    let typo = original.replacen("or can_block(c)", "or can_blok(c)", 1);
    for path in ["/api/odds", "/api/trace"] {
        let (status, v) = s.api(
            path,
            Some(&json!({ "scenario": SCENARIO, "files": { ATTACK: typo } })),
        );
        assert_eq!(status, 422, "{v}");
        assert!(v["error"].as_str().unwrap().contains("errors"), "{v}");
        assert_eq!(v["diagnostics"][0]["code"], json!("E0306"));
    }
}

/// A file name that is markup: the studio lists it, and the page must show it as text.
const HOSTILE_FILE: &str = "<img src=x onerror=alert('file')>.rules";

/// The hostile fixture (`tests/fixtures/book/hostile`) copied into a project folder of
/// its own, with one more file whose name is markup; its studio and its scenario's name.
fn hostile_studio() -> (tempfile::TempDir, Studio, String) {
    let from = run::root().join("tests/fixtures/book/hostile");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("rulesc.toml"), "").unwrap();
    for (dir, file) in [
        ("ruleset", "ruleset.yaml"),
        ("ruleset", "strike.rules"),
        ("examples", "strike.yaml"),
    ] {
        std::fs::create_dir_all(tmp.path().join(dir)).unwrap();
        std::fs::copy(from.join(dir).join(file), tmp.path().join(dir).join(file)).unwrap();
    }
    std::fs::write(
        tmp.path().join("ruleset").join(HOSTILE_FILE),
        "// <script>alert('file text')</script>\n",
    )
    .unwrap();
    let examples = tmp.path().join("examples");
    let s = Studio::start(
        &tmp.path().join("ruleset"),
        &["--examples", examples.to_str().unwrap()],
    );
    let scenario = "examples/strike.yaml".to_string();
    let (_, files) = s.api("/api/files", None);
    assert_eq!(
        files["scenarios"]["scenarios"],
        json!([scenario]),
        "{files}"
    );
    assert!(
        files["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["name"] == json!(format!("ruleset/{HOSTILE_FILE}"))),
        "{files}"
    );
    (tmp, s, scenario)
}

#[test]
fn a_hostile_ruleset_is_served_as_text() {
    let (_tmp, s, scenario) = hostile_studio();
    let (status, head, page) = http(s.port, "GET", &format!("/?token={}", s.token), &[], None);
    assert_eq!(status, 200);
    // The page holds no writer text but the folder's name; the API answers JSON, which
    // a browser told `nosniff` never reads as a page.
    for markup in ["alert(", "onerror", "hostile_book"] {
        assert!(!page.contains(markup), "{markup}: {page}");
    }
    assert!(head
        .iter()
        .any(|(k, v)| k == "x-content-type-options" && v == "nosniff"));
    let (status, v) = s.api("/api/trace", Some(&json!({ "scenario": scenario })));
    assert_eq!(status, 200, "{v}");
    // The trace text as `rulesc trace` prints it, markup and all, inside a JSON string.
    let trace = v["trace"].as_str().unwrap();
    assert!(
        trace.contains("</textarea><svg onload=alert(1)>"),
        "{trace}"
    );
    let (status, v) = s.api("/api/odds", Some(&json!({ "scenario": scenario })));
    assert_eq!(status, 200, "{v}");
    let chart = v["charts"][0].as_str().unwrap();
    assert!(!chart.contains("<script"), "{chart}");
    assert!(chart.contains("&lt;script&gt;"), "{chart}");
}

#[test]
fn with_format_json_it_prints_one_object_then_serves() {
    use std::io::BufRead;
    let tmp = project(D20);
    let mut child = serve::Killed(
        std::process::Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .args(["studio", &format!("rules/{D20}"), "--format", "json"])
            .current_dir(tmp.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let port = v["port"].as_u64().unwrap() as u16;
    let token = v["url"].as_str().unwrap().split("token=").nth(1).unwrap();
    let (status, _, _) = http(
        port,
        "GET",
        "/api/files",
        &[("X-Rulesc-Token", token)],
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(v["ruleset"], json!(format!("rules/{D20}")));
    assert!(
        v["url"].as_str().unwrap().starts_with("http://127.0.0.1:"),
        "{v}"
    );
}

// ---- in a real browser -------------------------------------------------------------

/// The browser and its driver, or `None` after saying why the test skips.
fn browser() -> Option<webdriver::Browser> {
    match webdriver::tools() {
        Some((chromium, driver)) => Some(webdriver::Browser::start(&chromium, &driver)),
        None => {
            eprintln!(
                "skipped: no chromium or chromedriver on this machine (apt-get install chromium chromium-driver; .ci/run installs them)"
            );
            None
        }
    }
}

/// Opens the studio and waits for its first check.
fn open(b: &webdriver::Browser, s: &Studio) {
    b.goto(&s.url);
    b.wait(
        "the first check",
        "const t = document.getElementById('status').textContent; return t !== 'loading…' && t !== 'checking…' && t;",
    );
}

fn open_file(b: &webdriver::Browser, name: &str) {
    b.click(&format!("#files button[data-name='{name}']"));
    b.wait(
        "the file to open",
        &format!("return document.getElementById('current').textContent === '{name}';"),
    );
}

#[test]
fn in_a_browser_a_typo_is_shown_at_its_line_fixed_and_saved() {
    let Some(b) = browser() else { return };
    let tmp = project(D20);
    let s = studio_of(tmp.path());
    let disk = tmp.path().join(ATTACK);
    let original = std::fs::read_to_string(&disk).unwrap();
    open(&b, &s);
    assert_eq!(
        b.js(
            "return document.getElementById('status').textContent",
            vec![]
        ),
        json!("no problems")
    );
    open_file(&b, ATTACK);
    // The typo, typed as a person types it: the cursor after `can_bl`, a Delete (U+E017),
    // so `can_block` becomes `can_blck`.
    let at = original.find("or can_block(c)").unwrap() + "or can_bl".len();
    let line = original[..at].lines().count();
    let units = original[..at].encode_utf16().count();
    b.js(
        "const t = document.getElementById('text'); t.focus(); t.setSelectionRange(arguments[0], arguments[0]);",
        vec![json!(units)],
    );
    b.type_into("#text", "\u{E017}");
    let problem = b.wait(
        "the diagnostic",
        "const li = document.querySelector('#problems li'); return li && [li.dataset.line, li.textContent];",
    );
    assert_eq!(problem[0], json!(line.to_string()), "{problem}");
    assert!(
        problem[1].as_str().unwrap().contains("can_blck"),
        "{problem}"
    );
    // The line is marked in the gutter and behind the text.
    let marked = b.js(
        "return [document.querySelectorAll('#gutter-lines div')[arguments[0] - 1].className, document.querySelector('#marks div').dataset.line];",
        vec![json!(line)],
    );
    assert_eq!(marked, json!(["error", line.to_string()]));
    // Revealed (a click on the problem scrolls to it), the number and the mark are level
    // with each other, and the text selected there is the typo.
    b.click("#problems li");
    let level = b.js(
        "const n = document.querySelectorAll('#gutter-lines div')[arguments[0] - 1].getBoundingClientRect(); const m = document.querySelector('#marks div').getBoundingClientRect(); const t = document.getElementById('text'); return [Math.round(n.top - m.top), t.value.slice(t.selectionStart, t.selectionEnd)];",
        vec![json!(line)],
    );
    assert_eq!(level, json!([0, "can_blck"]));
    // One click applies the did-you-mean, and the problem goes.
    b.click("#problems button.fix");
    b.wait(
        "the fix's check",
        "return document.getElementById('status').textContent === 'no problems' && document.querySelectorAll('#problems li').length === 0;",
    );
    let text = b.js("return document.getElementById('text').value", vec![]);
    assert_eq!(text.as_str().unwrap(), original);

    // Saved: the disk holds what the page holds.
    b.js(
        "const t = document.getElementById('text'); t.focus(); t.setSelectionRange(0, 0);",
        vec![],
    );
    b.type_into("#text", "// saved from the studio\n");
    b.click("#save");
    b.wait(
        "the save",
        "return document.getElementById('message').textContent.startsWith('Saved');",
    );
    let want = format!("// saved from the studio\n{original}");
    assert_eq!(std::fs::read_to_string(&disk).unwrap(), want);

    // Another editor changes the file: the page's save is refused, the disk kept, the
    // page's text kept.
    let theirs = format!("// another editor\n{original}");
    std::fs::write(&disk, &theirs).unwrap();
    b.type_into("#text", "// mine\n");
    b.click("#save");
    let msg = b.wait(
        "the refusal",
        "const m = document.getElementById('message').textContent; return m.includes('changed on disk') && m;",
    );
    assert!(msg.as_str().unwrap().contains(ATTACK), "{msg}");
    assert_eq!(std::fs::read_to_string(&disk).unwrap(), theirs);
    let page = b.js("return document.getElementById('text').value", vec![]);
    assert!(page.as_str().unwrap().contains("// mine\n"), "{page}");
    // Then the writer chooses: save theirs over it (the disk gets the page's text), or
    // load the disk's.
    b.click("#overwrite");
    b.wait(
        "the save over it",
        "return document.getElementById('message').textContent.startsWith('Saved');",
    );
    assert_eq!(
        std::fs::read_to_string(&disk).unwrap(),
        page.as_str().unwrap()
    );
    std::fs::write(&disk, &theirs).unwrap();
    b.type_into("#text", "// mine again\n");
    b.click("#save");
    b.wait(
        "the second refusal",
        "return document.getElementById('message').textContent.includes('changed on disk');",
    );
    b.click("#load-disk");
    b.wait(
        "the disk's text",
        "return document.getElementById('message').textContent.startsWith('Loaded');",
    );
    let page = b.js("return document.getElementById('text').value", vec![]);
    assert_eq!(page.as_str().unwrap(), theirs);
    assert_eq!(std::fs::read_to_string(&disk).unwrap(), theirs);
}

#[test]
fn in_a_browser_a_scenarios_odds_are_analyzes() {
    let Some(b) = browser() else { return };
    let tmp = project(D20);
    // A variant beside it, to compare with (it extends `../../../rules/d20-armor-slots`).
    let variant = tmp.path().join("examples/variants/d20_house_rules");
    std::fs::create_dir_all(&variant).unwrap();
    std::fs::copy(
        run::root().join("examples/variants/d20_house_rules/ruleset.yaml"),
        variant.join("ruleset.yaml"),
    )
    .unwrap();
    let s = Studio::start(
        &tmp.path().join("rules").join(D20),
        &["--variant", variant.to_str().unwrap()],
    );
    let (want, svg) = analyze(tmp.path(), None);
    open(&b, &s);
    b.js(
        "document.getElementById('scenario').value = arguments[0];",
        vec![json!(SCENARIO)],
    );
    b.click("#odds");
    let rows = b.wait(
        "the odds table",
        "const rows = [...document.querySelectorAll('#odds-table tr')].filter(r => r.querySelector('td')); return rows.length && rows.map(r => [r.querySelector('.group').textContent, r.querySelector('.percent').textContent, r.querySelector('.exact').textContent]);",
    );
    let expected: Vec<Value> = want["results"][0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            json!([
                g["group"],
                format!("{:.4}%", g["percent"].as_f64().unwrap()),
                g["probability"]
            ])
        })
        .collect();
    assert_eq!(rows, Value::Array(expected));
    // The chart is `--svg`'s, shown as an image.
    let src = b.js(
        "return decodeURIComponent(document.querySelector('#chart img').src.split(',').slice(1).join(','));",
        vec![],
    );
    assert_eq!(src.as_str().unwrap(), svg);
    let shown = b.wait(
        "the chart to load",
        "const i = document.querySelector('#chart img'); return i.complete && i.naturalWidth;",
    );
    assert!(shown.as_u64().unwrap() > 100, "{shown}");
    // Compared with the variant: `rulesc diff`'s chart and text.
    let diff_svg = tmp.path().join("diff.svg");
    let (code, diff_text, err) = run::rulesc_in(
        tmp.path(),
        &[
            "diff",
            &format!("rules/{D20}"),
            "examples/variants/d20_house_rules",
            SCENARIO,
            "--svg",
            diff_svg.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    b.click("#compare");
    let shown = b.wait(
        "the comparison",
        "const i = document.querySelector('#chart img'); const o = document.getElementById('output').textContent; return i && o && [decodeURIComponent(i.src.split(',').slice(1).join(',')), o];",
    );
    assert_eq!(
        shown[0].as_str().unwrap(),
        std::fs::read_to_string(&diff_svg).unwrap()
    );
    assert_eq!(shown[1].as_str().unwrap().trim_end(), diff_text.trim_end());
    // Back to the ruleset's own odds for the picture.
    b.click("#odds");
    b.wait(
        "the odds table again",
        "return document.querySelectorAll('#odds-table td').length > 0;",
    );
    // For the picture: a typo beside the odds, its problem revealed in the editor.
    open_file(&b, ATTACK);
    b.js(
        "const t = document.getElementById('text'); const i = t.value.indexOf('or can_block(c)') + 9; t.focus(); t.setSelectionRange(i, i);",
        vec![],
    );
    b.type_into("#text", "\u{E017}");
    b.wait(
        "the diagnostic",
        "return document.querySelectorAll('#problems li').length > 0;",
    );
    b.click("#problems li");
    screenshot(&b);
}

/// The screenshot `docs/studio.md` shows: written into `docs/images/` when
/// `RULESC_DOCS_SCREENSHOTS=1`; always checked not to be blank.
fn screenshot(b: &webdriver::Browser) {
    let png = b.screenshot();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let count = |(r, g, bl): (u8, u8, u8)| {
        pixmap
            .pixels()
            .iter()
            .filter(|p| p.red() == r && p.green() == g && p.blue() == bl)
            .count()
    };
    // The header (#243447) and the chart's bars (#4e79a7) are there.
    assert!(
        count((0x24, 0x34, 0x47)) > 10_000,
        "no header: the stylesheet did not load"
    );
    assert!(count((0x4e, 0x79, 0xa7)) > 1_000, "no chart bars");
    if std::env::var_os("RULESC_DOCS_SCREENSHOTS").is_some() {
        std::fs::write(run::root().join("docs/images/studio.png"), png).unwrap();
    }
}

#[test]
fn in_a_browser_a_hostile_ruleset_injects_nothing() {
    let Some(b) = browser() else { return };
    let (_tmp, s, scenario) = hostile_studio();
    open(&b, &s);
    b.js(
        "document.getElementById('scenario').value = arguments[0];",
        vec![json!(scenario)],
    );
    b.click("#odds");
    b.wait(
        "the odds",
        "return document.querySelectorAll('#odds-table td').length > 0;",
    );
    b.click("#trace");
    b.wait(
        "the trace",
        "return document.getElementById('output').textContent.includes('strike');",
    );
    for f in ["ruleset/ruleset.yaml", "ruleset/strike.rules"] {
        open_file(&b, f);
    }
    // The file whose name is markup: listed as its name, opened by a click.
    let name = format!("ruleset/{HOSTILE_FILE}");
    let listed = b.js(
        "return [...document.querySelectorAll('#files button')].filter(x => x.textContent === arguments[0]).length;",
        vec![json!(HOSTILE_FILE)],
    );
    assert_eq!(listed, json!(1));
    b.js(
        "[...document.querySelectorAll('#files button')].find(x => x.dataset.name === arguments[0]).click();",
        vec![json!(name)],
    );
    b.wait(
        "the file to open",
        "return document.getElementById('text').value.includes('file text');",
    );
    // Every element is one the page makes; the only script is the studio's, and every
    // image is a chart. (An alert would also fail the commands above: WebDriver refuses
    // to run a script while a dialog is open.)
    let tags = b.js(
        "return [...new Set([...document.querySelectorAll('*')].map(e => e.tagName.toLowerCase()))].sort();",
        vec![],
    );
    let allowed = [
        "body", "br", "button", "caption", "div", "h1", "h2", "head", "header", "html", "img",
        "label", "li", "link", "main", "meta", "nav", "option", "p", "pre", "script", "section",
        "select", "span", "strong", "table", "td", "textarea", "th", "title", "tr", "ul", "input",
    ];
    for t in tags.as_array().unwrap() {
        assert!(
            allowed.contains(&t.as_str().unwrap()),
            "a <{t}> the page does not make"
        );
    }
    let odd = b.js(
        "return [document.scripts.length, [...document.images].filter(i => !i.src.startsWith('data:image/svg+xml')).length, [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length];",
        vec![],
    );
    assert_eq!(odd, json!([1, 0, 0]));
    let shown = b.js("return document.getElementById('text').value", vec![]);
    assert!(shown
        .as_str()
        .unwrap()
        .contains("<script>alert('file text')</script>"));
    // The trace is shown as the text it is.
    let trace = b.js(
        "return document.getElementById('output').textContent",
        vec![],
    );
    assert!(
        trace
            .as_str()
            .unwrap()
            .contains("</textarea><svg onload=alert(1)>"),
        "{trace}"
    );
}
