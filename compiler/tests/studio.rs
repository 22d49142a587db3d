//! `rulesc studio`: the server refuses requests without the token or from another site,
//! serves only the project's files (no traversal, no link out), refuses a save over a
//! file changed on disk (the disk untouched), gives `analyze`'s odds and `--svg`'s chart,
//! gives `diff`'s comparison with a variant, drops superseded checks and serves hostile
//! text as data; then (`studio/browser.rs`), in a real headless Chromium driven through
//! WebDriver (skipped, saying so, when `chromium` or `chromedriver` is missing): a typo's
//! diagnostic at its line, its fix applied, a scenario's odds equal to `analyze`'s, a
//! save on disk, a conflicting save refused.
//!
//! Every server and driver a test starts is killed when the test ends (on drop).

#[path = "studio/browser.rs"]
mod browser;
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
    // The studio's comparison of `file` (a scenario, or a fight file under `key`
    // "fight") against `rulesc diff`'s JSON and `--svg` chart for the same file: the same
    // document but for the file's path, which each names as it was given; the studio's
    // answer is returned.
    let tmp = tempfile::tempdir().unwrap();
    let same_as_diff = |key: &str, file: &str, extra: &[&str]| -> Value {
        let svg = tmp.path().join("diff.svg");
        let mut args = vec![
            "diff",
            "rules/kingsmark",
            "examples/variants/gritty_kingsmark",
            file,
            "--format",
            "json",
            "--svg",
            svg.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = run::rulesc_in(&root, &args, &[]);
        assert_eq!(code, 0, "{err}");
        let want: Value = serde_json::from_str(&out).unwrap();
        let (status, got) = s.api(
            "/api/diff",
            Some(&json!({ key: file, "variant": "examples/variants/gritty_kingsmark" })),
        );
        assert_eq!(status, 200, "{got}");
        let (mut got_diff, mut want) = (got["diff"].clone(), want);
        for d in [&mut got_diff, &mut want] {
            d.as_object_mut().unwrap().remove(key);
        }
        assert!(
            got_diff == want,
            "the studio's diff of {file} is not `rulesc diff`'s"
        );
        assert_eq!(
            got["chart"].as_str().unwrap(),
            std::fs::read_to_string(&svg).unwrap(),
            "{file}"
        );
        want
    };
    let want = same_as_diff("scenario", "examples/kingsmark/aldren.yaml", &[]);
    assert!(want["groups"].as_array().unwrap().len() > 1);
    // A fight file under both, simulated as `rulesc diff` simulates it.
    same_as_diff(
        "fight",
        "examples/kingsmark/fight.yaml",
        &["--seed", "0", "-n", "1000"],
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
