//! `rulesc book`: the book of every shipped ruleset renders, every link in it resolves,
//! its odds are `analyze`'s, a hostile ruleset renders with no markup of its own, the
//! same input gives the same bytes, and the output folder is written only when it is a
//! book's.

mod run;

use rulesc::analyze::exact::fraction;
use rulesc::analyze::{Limits, View};
use rulesc::book::{render, Book, Options};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The shipped rulesets' folders.
fn shipped() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(run::root().join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("ruleset.yaml").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every value of attribute `attr` in `html`, in order.
fn attrs(html: &str, attr: &str) -> Vec<String> {
    let key = format!(" {attr}=\"");
    html.split(&key)
        .skip(1)
        .map(|rest| unescape(&rest[..rest.find('"').unwrap()]))
        .collect()
}

/// The text of every element opening with `open` (up to the next `<`).
fn texts(html: &str, open: &str) -> Vec<String> {
    html.split(open)
        .skip(1)
        .map(|rest| unescape(&rest[..rest.find('<').unwrap()]))
        .collect()
}

/// Resolves `href` from the page `from` (both `/`-separated, from the book's root):
/// the page and the anchor.
fn resolve(from: &str, href: &str) -> (String, Option<String>) {
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f.to_string())),
        None => (href, None),
    };
    if path.is_empty() {
        return (from.to_string(), frag);
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in path.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    (parts.join("/"), frag)
}

/// Every link of every page (and every entry of the search index) leads to a file of
/// the book and, with a `#`, to an element of it with that id; no id is given twice on
/// one page. Returns how many links were followed.
fn links_resolve(book: &Book) -> usize {
    let files: BTreeMap<&str, &str> = book
        .files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let mut ids: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in &files {
        let mut set = BTreeSet::new();
        for id in attrs(text, "id") {
            assert!(set.insert(id.clone()), "{name}: id {id} given twice");
        }
        ids.insert(name, set);
    }
    let mut followed = 0;
    let mut check = |from: &str, href: &str| {
        assert!(
            !href.contains(':'),
            "{from}: a link out of the book ({href})"
        );
        let (page, frag) = resolve(from, href);
        let Some(set) = ids.get(page.as_str()) else {
            panic!("{from}: {href} leads to {page}, which the book does not have");
        };
        if let Some(f) = frag {
            assert!(set.contains(&f), "{from}: {href}: {page} has no id {f}");
        }
        followed += 1;
    };
    for (name, text) in &files {
        if name.ends_with(".html") {
            for href in attrs(text, "href") {
                check(name, &href);
            }
            for src in attrs(text, "src") {
                check(name, &src);
            }
        }
    }
    // The search index: [name, kind, href from the root].
    let script = files["search.js"];
    let json = script
        .strip_prefix("const BOOK_INDEX = ")
        .and_then(|s| s.split_once(";\n"))
        .map(|(j, _)| j)
        .unwrap();
    let entries: Vec<(String, String, String)> = serde_json::from_str(json).unwrap();
    assert!(!entries.is_empty());
    for (_, _, href) in &entries {
        check("index.html", href);
    }
    followed
}

/// The odds tables of a page: each scenario's rows (label, exact chance), in order.
fn odds_tables(html: &str) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for chunk in html.split("<table class=\"odds\" data-scenario=\"").skip(1) {
        let scenario = unescape(&chunk[..chunk.find('"').unwrap()]);
        let table = &chunk[..chunk.find("</table>").unwrap()];
        let labels = texts(table, "<td class=\"label\">")
            .into_iter()
            .chain(texts(table, "<td class=\"label unexplored\">"));
        let exact = texts(table, "<td class=\"num exact\">");
        let rows = out.entry(scenario).or_default();
        rows.extend(labels.zip(exact));
    }
    out
}

/// The rows `analyze` gives for a scenario: each group's label and exact chance, then
/// the unexplored part.
fn analyzed(p: &rulesc::ir::Program, scenario: &Path) -> Vec<(String, String)> {
    let (reports, _, _) =
        rulesc::analyze::reports(p, scenario, &Limits::default(), &View::default())
            .unwrap_or_else(|(d, _)| panic!("{}: {d:?}", scenario.display()));
    let mut rows = Vec::new();
    for r in reports {
        for row in &r.rows {
            rows.push((row.label.clone(), fraction(&row.prob)));
        }
        if !num_traits::Zero::is_zero(&r.unexplored) {
            rows.push((
                format!("(unexplored: {})", r.unexplored_why),
                fraction(&r.unexplored),
            ));
        }
    }
    rows
}

/// The YAML files of a folder with a top-level key.
fn files_with(dir: &Path, key: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .any(|l| l.starts_with(&format!("{key}:")))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_shipped_ruleset_renders_its_links_resolve_and_its_odds_are_analyzes() {
    let dirs = shipped();
    assert_eq!(dirs.len(), 5, "{dirs:?}");
    let started = std::time::Instant::now();
    let books: Vec<Book> = std::thread::scope(|s| {
        let handles: Vec<_> = dirs
            .iter()
            .map(|d| s.spawn(move || render(d, &Options::default())))
            .collect();
        handles
            .into_iter()
            .zip(&dirs)
            .map(|(h, d)| match h.join().unwrap() {
                Ok((book, _)) => book,
                Err((diags, _)) => panic!("{}: {diags:?}", d.display()),
            })
            .collect()
    });
    // Seconds, not minutes: about half a minute for all five in a debug build, most of it
    // Victory Stars' two scenarios, which reach `analyze`'s memory limit (a bound on a
    // build gone slow, with room for a loaded machine running other tests).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(300),
        "{:?}",
        started.elapsed()
    );
    for (dir, book) in dirs.iter().zip(&books) {
        let name = dir.file_name().unwrap();
        let followed = links_resolve(book);
        assert!(followed > 100, "{}: only {followed} links", dir.display());
        let page = |f: &str| {
            book.files
                .iter()
                .find(|(n, _)| n == f)
                .map(|(_, t)| t.as_str())
                .unwrap()
        };
        // Every page of definitions is there, and the rules are linked.
        for f in [
            "index.html",
            "scales.html",
            "types.html",
            "tables.html",
            "tracks.html",
            "records.html",
            "rules.html",
            "odds.html",
            "book.css",
            "search.js",
        ] {
            page(f);
        }
        assert!(page("rules.html").contains("<span class=\"kw\">procedure</span>"));
        // Every scenario of its examples folder, with analyze's numbers.
        let examples = run::root().join("examples").join(name);
        let scenarios = files_with(&examples, "run");
        let fights = files_with(&examples, "sides");
        assert!(!scenarios.is_empty(), "{}", examples.display());
        let tables = odds_tables(page("odds.html"));
        assert_eq!(tables.len(), scenarios.len(), "{}", dir.display());
        let (p, _, _) = rulesc::compile_dir(dir);
        let p = p.unwrap();
        for s in &scenarios {
            let file = s.file_name().unwrap().to_string_lossy().to_string();
            let want = analyzed(&p, s);
            assert!(!want.is_empty());
            assert_eq!(tables[&file], want, "{}", s.display());
        }
        // Each fight file: its win rates, from `simulate` with the book's seed.
        let odds = page("odds.html");
        assert_eq!(
            odds.matches("<table class=\"fight\"").count(),
            fights.len(),
            "{}",
            dir.display()
        );
        for f in &fights {
            let (file, _) = rulesc::simulate::read(&p, f).unwrap();
            let summary = rulesc::simulate::simulate(
                &p,
                &file,
                rulesc::book::FIGHT_RUNS,
                rulesc::book::FIGHT_SEED,
            );
            let fname = f.file_name().unwrap().to_string_lossy().to_string();
            let chunk = odds
                .split(&format!("data-fight=\"{fname}\""))
                .nth(1)
                .unwrap();
            let table = &chunk[..chunk.find("</table>").unwrap()];
            let runs: Vec<u64> = texts(table, "<td class=\"num runs\">")
                .iter()
                .map(|t| t.parse().unwrap())
                .collect();
            let mut want = summary.wins.clone();
            want.push(summary.draws);
            want.push(summary.undecided);
            want.extend(summary.errors.values());
            assert_eq!(runs, want, "{}", f.display());
            assert_eq!(runs.iter().sum::<u64>(), rulesc::book::FIGHT_RUNS);
            // Its chart is `simulate --svg`'s, with the book's seed: win rates with
            // their intervals, then the rounds played.
            let svg = summary.svg(&p, &file, rulesc::book::FIGHT_SEED);
            assert!(svg.contains("95% interval") && svg.contains("rounds played"));
            let chart = &chunk[chunk.find("<div class=\"chart\">").unwrap()..];
            assert!(
                chart.starts_with(&format!("<div class=\"chart\">{svg}</div>")),
                "{}",
                f.display()
            );
        }
    }
}

fn fixture() -> PathBuf {
    run::root().join("tests/fixtures/book/hostile")
}

/// The only tags a page of the book may hold: those the book writes itself.
const TAGS: &[&str] = &[
    "!DOCTYPE",
    "html",
    "head",
    "meta",
    "title",
    "link",
    "body",
    "header",
    "span",
    "a",
    "nav",
    "input",
    "ul",
    "li",
    "main",
    "h1",
    "h2",
    "h3",
    "p",
    "code",
    "section",
    "table",
    "tr",
    "th",
    "td",
    "div",
    "pre",
    "details",
    "summary",
    "em",
    "strong",
    "ol",
    "blockquote",
    "del",
    "script",
    "svg",
    "rect",
    "text",
    "line",
    "path",
    "br",
    "hr",
    "thead",
    "tbody",
];

#[test]
fn a_hostile_ruleset_renders_with_no_markup_of_its_own() {
    let f = fixture();
    let options = Options {
        packs: vec![f.join("pack.yaml")],
        variants: Vec::new(),
        examples: Some(f.join("examples")),
    };
    let (book, _) = render(&f.join("ruleset"), &options).unwrap_or_else(|(d, _)| panic!("{d:?}"));
    links_resolve(&book);
    let all: String = book.files.iter().map(|(_, t)| t.as_str()).collect();
    // The hostile text is there, as text.
    for shown in [
        "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;",
        "&lt;/textarea&gt;",
        "&lt;script&gt;alert(&#39;record&#39;)&lt;/script&gt;",
        "&lt;img src=x onerror=alert(&#39;pack record&#39;)&gt;",
        "&lt;script&gt;alert(&#39;doc&#39;)&lt;/script&gt;",
        "&lt;script&gt;alert(&quot;rules comment&quot;)&lt;/script&gt;",
    ] {
        assert!(all.contains(shown), "{shown} is not shown");
    }
    for (name, text) in &book.files {
        if !name.ends_with(".html") {
            continue;
        }
        // Every tag is one the book writes; every script is the search's.
        for tag in text.split('<').skip(1) {
            let tag = tag.trim_start_matches('/');
            let name_end = tag
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '!'))
                .unwrap_or(tag.len());
            let t = &tag[..name_end];
            assert!(
                TAGS.contains(&t),
                "{name}: a <{t}> the book does not write: <{}",
                &tag[..tag.len().min(60)]
            );
        }
        for s in text.split("<script").skip(1) {
            assert!(
                s.starts_with(" src=\"search.js\"></script>")
                    || s.starts_with(" src=\"../../search.js\"></script>"),
                "{name}: <script{}",
                &s[..s.len().min(60)]
            );
        }
        // No tag carries an event handler or a script address.
        for tag in text.split('<').skip(1) {
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            let lower = tag.to_ascii_lowercase();
            assert!(!lower.contains("javascript:"), "{name}: <{tag}>");
            let handler = lower
                .split_whitespace()
                .skip(1)
                .any(|a| a.starts_with("on") && a.contains('='));
            assert!(!handler, "{name}: <{tag}>");
        }
    }
}

fn kingsmark_options() -> Options {
    let root = run::root();
    Options {
        packs: vec![root.join("examples/homebrew/black_forest_armory.yaml")],
        variants: vec![root.join("examples/variants/gritty_kingsmark")],
        examples: None,
    }
}

#[test]
fn a_variant_shows_what_it_changes_and_a_pack_its_records() {
    let root = run::root();
    let kingsmark = root.join("rules/kingsmark");
    let gritty = root.join("examples/variants/gritty_kingsmark");
    let (book, _) =
        render(&kingsmark, &kingsmark_options()).unwrap_or_else(|(d, _)| panic!("{d:?}"));
    links_resolve(&book);
    let page = |f: &str| {
        book.files
            .iter()
            .find(|(n, _)| n == f)
            .map(|(_, t)| t.as_str())
            .unwrap_or_else(|| panic!("no {f}"))
    };
    // The variant's own pages, and its changes as `diff` finds them.
    page("variants/gritty_kingsmark/rules.html");
    let changes = page("variants/gritty_kingsmark/changes.html");
    let (_, base_defs) = rulesc::explain::definitions(&kingsmark).unwrap();
    let (_, var_defs) = rulesc::explain::definitions(&gritty).unwrap();
    let want = rulesc::analyze::diff::changes(&base_defs, &var_defs);
    assert!(!want.is_empty());
    assert_eq!(
        changes.matches("<section class=\"def\">").count(),
        want.len()
    );
    for c in &want {
        assert!(changes.contains(&format!("{}</h2>", c.name)), "{}", c.name);
    }
    // The odds under both, as `diff` gives them, for each of the base's scenarios.
    let scenario = root.join("examples/kingsmark/aldren.yaml");
    let (d, _) = rulesc::analyze::diff::compare(
        &kingsmark,
        &gritty,
        &scenario,
        &Limits::default(),
        &View::default(),
    )
    .unwrap_or_else(|(d, _)| panic!("{d:?}"));
    let chunk = changes
        .split("data-scenario=\"aldren.yaml\"")
        .nth(1)
        .unwrap();
    let table = &chunk[..chunk.find("</table>").unwrap()];
    let labels = texts(table, "<td class=\"label\">");
    let pairs = rulesc::analyze::diff::pairs(&d.base, &d.variant);
    assert_eq!(
        labels,
        pairs.iter().map(|p| p.label.clone()).collect::<Vec<_>>()
    );
    for p in &pairs {
        assert!(
            table.contains(&format!("{:+.4} pp", p.points())),
            "{}",
            p.label
        );
    }
    // Each fight file under both, simulated as `rulesc diff` simulates it: its outcomes
    // and each change, with the same runs and seed.
    let fight = root.join("examples/kingsmark/fight.yaml");
    let runs = rulesc::simulate::diff::Runs {
        n: rulesc::book::FIGHT_RUNS,
        seed: rulesc::book::FIGHT_SEED,
        max: None,
    };
    let (fd, _) = rulesc::simulate::diff::compare(&kingsmark, &gritty, &fight, &[], runs)
        .unwrap_or_else(|(d, _)| panic!("{d:?}"));
    let chunk = changes.split("data-fight=\"fight.yaml\"").nth(1).unwrap();
    let table = &chunk[..chunk.find("</table>").unwrap()];
    assert_eq!(
        texts(table, "<td class=\"label\">"),
        fd.rows.iter().map(|r| r.label.clone()).collect::<Vec<_>>()
    );
    for r in &fd.rows {
        let (change, _, _) = rulesc::simulate::diff::change(r.base, r.variant, fd.runs);
        assert!(
            table.contains(&format!("{:+.1} pp", change * 100.0)),
            "{}",
            r.label
        );
    }
    // The pack's page lists every record the check found in it.
    let (p, _, _) = rulesc::compile_dir(&kingsmark);
    let (packs, diags, _) = rulesc::pack::check_packs(&p.unwrap(), &kingsmark_options().packs);
    assert!(!diags.has_errors());
    let pack = page("pack-black_forest_armory.html");
    let listed = texts(pack, "record</span>");
    let want: Vec<String> = packs[0].records.iter().map(|(_, n, _)| n.clone()).collect();
    assert!(!want.is_empty());
    assert_eq!(listed, want);
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let kingsmark = run::root().join("rules/kingsmark");
    let (a, _) = render(&kingsmark, &kingsmark_options()).unwrap_or_else(|(d, _)| panic!("{d:?}"));
    let (b, _) = render(&kingsmark, &kingsmark_options()).unwrap_or_else(|(d, _)| panic!("{d:?}"));
    assert_eq!(a.files.len(), b.files.len());
    for ((na, ta), (nb, tb)) in a.files.iter().zip(&b.files) {
        assert_eq!(na, nb);
        assert!(ta == tb, "{na} differs between two renderings");
    }
    // Written twice through the command line, from two folders: the same bytes, and the
    // second run over the first book changes nothing.
    let tmp = tempfile::tempdir().unwrap();
    let root = run::root();
    let args = |out: &str| {
        vec![
            "book".to_string(),
            "rules/kingsmark".into(),
            "--variant".into(),
            "examples/variants/gritty_kingsmark".into(),
            "-o".into(),
            tmp.path().join(out).display().to_string(),
        ]
    };
    let call = |dir: &Path, a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run::rulesc_in(dir, &a, &[])
    };
    let (code, out, err) = call(&root, args("one"));
    assert_eq!(code, 0, "{out}{err}");
    let mut from_rules = args("two");
    from_rules[1] = "kingsmark".into();
    from_rules[3] = "../examples/variants/gritty_kingsmark".into();
    let (code, _, err) = call(&root.join("rules"), from_rules);
    assert_eq!(code, 0, "{err}");
    let read = |dir: &Path| -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    out.insert(
                        p.strip_prefix(dir).unwrap().to_path_buf(),
                        std::fs::read(&p).unwrap(),
                    );
                }
            }
        }
        out
    };
    let one = read(&tmp.path().join("one"));
    assert!(one.len() > 15);
    assert_eq!(one, read(&tmp.path().join("two")));
    let (code, out, _) = call(&root, args("one"));
    assert_eq!(code, 0);
    assert!(out.contains("(0 changed)"), "{out}");
}

#[test]
fn the_book_is_written_only_into_a_new_folder_or_a_book() {
    let tmp = tempfile::tempdir().unwrap();
    let root = run::root();
    let book = |out: &Path| {
        let out = out.display().to_string();
        run::rulesc_in(&root, &["book", "rules/hit-strength", "-o", &out], &[])
    };
    // A file: refused, left as it was.
    let file = tmp.path().join("notes.txt");
    std::fs::write(&file, "my notes").unwrap();
    let (code, _, err) = book(&file);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0010") && err.contains("a file"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my notes");
    // A folder with other things in it: refused, nothing written.
    let folder = tmp.path().join("mine");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("index.html"), "mine").unwrap();
    let (code, _, err) = book(&folder);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("E0010") && err.contains(".rulesc-book"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("index.html")).unwrap(),
        "mine"
    );
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
    // A link to a folder: refused.
    #[cfg(unix)]
    {
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(tmp.path().join("empty"), &link).unwrap();
        std::fs::create_dir(tmp.path().join("empty")).unwrap();
        let (code, _, err) = book(&link);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("a link"), "{err}");
        assert_eq!(
            std::fs::read_dir(tmp.path().join("empty")).unwrap().count(),
            0
        );
    }
    // A new folder, then the same folder again (a previous book): a file the previous
    // book listed and this one does not have is removed; a file the writer put there is
    // left alone.
    let out = tmp.path().join("book");
    let (code, _, err) = book(&out);
    assert_eq!(code, 0, "{err}");
    let marker = out.join(".rulesc-book");
    let mut listed = std::fs::read_to_string(&marker).unwrap();
    assert!(listed.contains("\nindex.html\n"));
    std::fs::write(out.join("old-page.html"), "from an older book").unwrap();
    listed.push_str("old-page.html\n");
    std::fs::write(&marker, listed).unwrap();
    std::fs::write(out.join("writer.txt"), "kept").unwrap();
    let (code, _, err) = book(&out);
    assert_eq!(code, 0, "{err}");
    assert!(!out.join("old-page.html").exists());
    assert_eq!(
        std::fs::read_to_string(out.join("writer.txt")).unwrap(),
        "kept"
    );
    assert!(out.join("index.html").is_file());
}

/// The browser this machine has, if any (Debian's `chromium`).
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
        .find(|p| p.is_file())
}

#[test]
fn a_page_of_the_book_shows_in_a_browser() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no chromium on this machine (apt-get install chromium)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    let (code, _, err) = run::rulesc_in(
        &run::root(),
        &[
            "book",
            "rules/hit-strength",
            "-o",
            &out.display().to_string(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let shot = tmp.path().join("odds.png");
    let status = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1000,2400",
        ])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", out.join("odds.html").display()))
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let pixmap = resvg::tiny_skia::Pixmap::load_png(&shot).unwrap();
    let pixels = pixmap.pixels();
    // The page is not blank: the stylesheet's header colour (#2f3b4c) and the chart's
    // bars (#4e79a7, drawn inline under the page's Content-Security-Policy) are there.
    let has = |(r, g, b): (u8, u8, u8)| {
        pixels
            .iter()
            .filter(|p| p.red() == r && p.green() == g && p.blue() == b)
            .count()
    };
    assert!(
        has((0x2f, 0x3b, 0x4c)) > 10_000,
        "no header: the stylesheet did not load"
    );
    assert!(has((0x4e, 0x79, 0xa7)) > 1_000, "no chart bars");
    // The picture docs/book.md shows: `RULESC_DOCS_SCREENSHOTS=1` writes it again.
    if std::env::var_os("RULESC_DOCS_SCREENSHOTS").is_some() {
        std::fs::copy(&shot, run::root().join("docs/images/book.png")).unwrap();
    }
}

#[test]
fn a_table_with_two_keys_is_printed_as_a_grid() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("grid");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("ruleset.yaml"),
        "ruleset: { name: grid }\nenums:\n  Armor: [Cloth, Leather, Mail, Plate]\ntables:\n  to_wound:\n    key: [int, Armor]\n    value: int\n    columns: [Cloth, Leather, Mail, Plate]\n    rows:\n      \"..2\": [4, 5, 6, 6]\n      \"3-4\": [3, 4, 5, 6]\n      \"5..\": [2, 3, 4, 5]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("use.rules"),
        "procedure wound(strength: int, armor: Armor) -> int {\n  return to_wound[strength, armor]\n}\n",
    )
    .unwrap();
    let options = Options {
        examples: Some(tmp.path().to_path_buf()),
        ..Options::default()
    };
    let (book, _) = render(&dir, &options).unwrap_or_else(|(d, _)| panic!("{d:?}"));
    links_resolve(&book);
    let tables = &book
        .files
        .iter()
        .find(|(n, _)| n == "tables.html")
        .unwrap()
        .1;
    let grid = tables.split("id=\"table-to_wound\"").nth(1).unwrap();
    let grid = &grid[grid.find("<table>").unwrap()..grid.find("</table>").unwrap()];
    let rows: Vec<&str> = grid.split("<tr>").skip(1).collect();
    // The head: the corner, then one column per armor, by its label (linked).
    assert!(rows[0].starts_with("<th>key</th>"), "{}", rows[0]);
    assert_eq!(texts(rows[0], "\">"), ["Cloth", "Leather", "Mail", "Plate"]);
    // Each row: its strengths, then one cell per column, as written.
    let cells = |r: &str| -> Vec<String> { texts(r, "<td>") };
    assert_eq!(texts(rows[1], "<th>"), ["2 or less"]);
    assert_eq!(cells(rows[1]), ["4", "5", "6", "6"]);
    assert_eq!(texts(rows[2], "<th>"), ["3–4"]);
    assert_eq!(cells(rows[2]), ["3", "4", "5", "6"]);
    assert_eq!(texts(rows[3], "<th>"), ["5 or more"]);
    assert_eq!(cells(rows[3]), ["2", "3", "4", "5"]);
    assert_eq!(rows.len(), 4);
}

#[test]
fn a_packs_page_names_its_own_variants_and_says_what_it_adds() {
    // Issue 29 §6: the harpoon is of the pack's damage type, which the ruleset's pages
    // do not show: named, not linked (and never `?`).
    let root = run::root();
    let options = Options {
        packs: vec![root.join("examples/homebrew/sea_raiders.yaml")],
        variants: Vec::new(),
        examples: None,
    };
    let (book, _) = render(&root.join("examples/homebrew/salt_coast"), &options)
        .unwrap_or_else(|(d, _)| panic!("{d:?}"));
    links_resolve(&book);
    let page = &book
        .files
        .iter()
        .find(|(n, _)| n == "pack-sea_raiders.html")
        .expect("the pack's page")
        .1;
    assert!(page.contains("<td>Brine</td>"), "{page}");
    assert!(!page.contains("<td>?</td>"), "{page}");
    assert!(
        page.contains("1 variant(s), 1 level(s), 1 row(s), 2 new definition(s)"),
        "{page}"
    );
}
