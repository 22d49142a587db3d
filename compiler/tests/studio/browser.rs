//! The studio in a real headless Chromium, driven through WebDriver (skipped, saying so,
//! when `chromium` or `chromedriver` is missing): a typo's diagnostic at its line, its fix
//! applied, saves on disk and a conflicting one refused, a scenario's odds and a
//! variant's comparison equal to `analyze`'s and `diff`'s, a hostile ruleset inert.

use super::*;

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
