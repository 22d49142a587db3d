//! `rulesc lsp` driven as an editor drives it: the binary is started, and the test speaks
//! JSON-RPC to it over its stdin and stdout (initialize, didOpen, didChange, hover,
//! definition, completion, rename, formatting, shutdown, exit), asserting the answers.
//! The modules under `lsp/` (at the end) test the rest with the same client: navigation,
//! quick fixes, signature help, typed YAML completion, packs, scenarios and fight files.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Long enough for a loaded CI machine; a healthy server answers in milliseconds.
const PATIENCE: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pending: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        Client::start_with(Stdio::inherit())
    }

    /// A server whose standard error goes to `stderr` ([`ended`] reads it when piped).
    fn start_with(stderr: Stdio) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start rulesc lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                r.read_exact(&mut body).unwrap();
                let v: Value = serde_json::from_slice(&body).expect("a JSON message");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            pending: Vec::new(),
        }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        self.incoming
            .recv_timeout(PATIENCE)
            .expect("the server answers in time")
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.recv();
            if msg["id"] == json!(id) {
                assert!(msg.get("error").is_none(), "{method} failed: {msg}");
                return msg["result"].clone();
            }
            self.pending.push(msg);
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let is_ours = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(i) = self.pending.iter().position(is_ours) {
            let m = self.pending.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.recv();
            if is_ours(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.pending.push(m);
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        let language = if uri.ends_with(".rules") {
            "rulesc"
        } else {
            "yaml"
        };
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r, Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "rulesc lsp exited with {status}");
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

const MANIFEST: &str = "\
ruleset:
  name: fixture
  title: A small ruleset
scales:
  DamageLevel: [NoWound, Minor, Moderate, Severe, Critical]
enums:
  HitLocation: [Head, Torso, Arm, Leg]
tables:
  hit_locations:
    die: d4
    value: HitLocation
    rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }
";

const ATTACK: &str = "\
outcome AttackResult { Miss, Hit(level: DamageLevel, location: HitLocation) }

procedure attack(bonus: int) -> AttackResult {
  let total = roll d12! + bonus
  if total < 7 { return Miss }
  return Hit(level: Minor, location: roll hit_locations)
}
";

/// A base and a variant of it, in sibling folders: the variant overrides a table in
/// YAML and a formula in the DSL.
const BASE: &str = "\
ruleset:
  name: base
  title: The base
scales:
  DamageLevel: [NoWound, Minor, Moderate, Severe, Critical]
enums:
  HitLocation: [Head, Torso, Arm, Leg]
types:
  Fighter:
    skill: int
    armor: { type: int, doc: Points of armor worn. }
tables:
  # Where a blow lands.
  hit_locations:
    die: d4
    value: HitLocation
    rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }
records:
  Fighter:
    Mira: { skill: 3, armor: 1 }
";

const BASE_RULES: &str = "\
outcome Blow { Miss, Hit(level: DamageLevel, location: HitLocation) }

# A fighter's bonus to hit.
formula bonus(f: Fighter) -> int = f.skill

procedure strike(f: Fighter) -> Blow {
  let total = roll d12 + bonus(f)
  if total < 7 { return Miss }
  return Hit(level: Minor, location: roll hit_locations)
}
";

const VARIANT: &str = "\
ruleset:
  name: variant
  title: The variant
  extends: ../base
override:
  tables:
    hit_locations:
      rows: { 4: Torso }
";

const VARIANT_RULES: &str = "\
override formula bonus(f: Fighter) -> int = f.skill + f.armor
";

fn variant_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (folder, files) in [
        (
            "base",
            [("ruleset.yaml", BASE), ("combat.rules", BASE_RULES)],
        ),
        (
            "variant",
            [("ruleset.yaml", VARIANT), ("combat.rules", VARIANT_RULES)],
        ),
    ] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(folder).join(name), text).unwrap();
        }
    }
    dir
}

/// The LSP position of the `nth` (0-based) occurrence of `needle` in `text`, plus
/// `plus` characters (ASCII text).
fn pos(text: &str, needle: &str, nth: usize, plus: usize) -> Value {
    let at = text.match_indices(needle).nth(nth).expect("needle").0 + plus;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

fn doc_pos(uri: &str, position: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": position})
}

fn hover_text(c: &mut Client, uri: &str, position: Value) -> String {
    let r = c.request("textDocument/hover", doc_pos(uri, position));
    assert_eq!(r["contents"]["kind"], "markdown", "{r}");
    r["contents"]["value"].as_str().unwrap().to_string()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), MANIFEST).unwrap();
    std::fs::write(dir.path().join("attack.rules"), ATTACK).unwrap();
    dir
}

fn initialize(c: &mut Client, root: &Path) -> Value {
    let r = c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    r
}

#[test]
fn diagnostics_follow_the_writers_typing() {
    let dir = project();
    let attack = uri(&dir.path().join("attack.rules"));
    let manifest = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["serverInfo"]["name"], "rulesc");

    // Opened clean: an empty list says it was checked.
    c.open(&attack, ATTACK);
    assert_eq!(c.diagnostics(&attack), Vec::<Value>::new());

    // A typo as the writer types it (not saved): the checker's error, at the name.
    let typo = ATTACK.replace("d12! + bonus", "d12! + bonsu");
    c.change(&attack, 2, &typo);
    let diags = c.diagnostics(&attack);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "E0306");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "rulesc");
    assert_eq!(
        d["range"],
        json!({"start": {"line": 3, "character": 26}, "end": {"line": 3, "character": 31}})
    );
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("`bonsu`"), "{message}");
    assert!(message.contains("did you mean `bonus`?"), "{message}");

    // Fixed: cleared.
    c.change(&attack, 3, ATTACK);
    assert_eq!(c.diagnostics(&attack), Vec::<Value>::new());

    // The YAML of the same ruleset, from the same checker: an unknown table key.
    c.open(&manifest, MANIFEST);
    assert_eq!(c.diagnostics(&manifest), Vec::<Value>::new());
    let bad = MANIFEST.replace("    die: d4", "    dice: d4");
    c.change(&manifest, 2, &bad);
    let diags = c.diagnostics(&manifest);
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "E0103"
                && d["range"]["start"] == json!({"line": 9, "character": 4})),
        "{diags:?}"
    );
    // The unsaved YAML is what the rules file is checked against: the table it names
    // has no die now, and the rules file hears of nothing new about it (the error is the
    // YAML's), while the file on disk is untouched.
    assert!(std::fs::read_to_string(dir.path().join("ruleset.yaml"))
        .unwrap()
        .contains("die: d4"));
    c.shutdown();
}

/// Runs Neovim headless with its built-in LSP client against `rulesc lsp` (the script is
/// `tests/neovim/client.lua`); what it saw, as JSON. `None` when Neovim is not installed.
fn neovim(root: &Path, line: u32, col: u32) -> Option<Value> {
    if Command::new("nvim").arg("--version").output().is_err() {
        return None;
    }
    let out = root.join("neovim-saw.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/neovim/client.lua");
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        // Quits even if the script could not run.
        .args(["-c", "qall!"])
        .env("RULESC_BIN", env!("CARGO_BIN_EXE_rulesc"))
        .env("RULESC_ROOT", root.canonicalize().unwrap())
        .env("RULESC_OUT", &out)
        .env("RULESC_LINE", line.to_string())
        .env("RULESC_COL", col.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("start nvim");
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > 2 * PATIENCE {
            let _ = child.kill();
            panic!("Neovim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out).expect("the Neovim script wrote its results");
    Some(serde_json::from_str(&text).unwrap())
}

#[test]
fn neovim_headless_shows_diagnostics_hover_definition_outline_and_references() {
    let dir = project();
    let typo = ATTACK.replace("d12! + bonus", "d12! + bonsu");
    std::fs::write(dir.path().join("attack.rules"), typo).unwrap();
    let at = pos(ATTACK, "hit_locations", 0, 3);
    let (line, col) = (
        at["line"].as_u64().unwrap() as u32,
        at["character"].as_u64().unwrap() as u32,
    );
    let Some(seen) = neovim(dir.path(), line, col) else {
        eprintln!(
            "skipped: Neovim (`nvim`) is not installed; .ci/run installs it from Debian's packages"
        );
        return;
    };
    assert!(seen.get("lua_error").is_none(), "{seen}");
    let diags = seen["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{seen}");
    assert_eq!(diags[0]["lnum"], 3);
    assert_eq!(diags[0]["col"], 26);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.starts_with("unknown name `bonsu`"), "{message}");
    // Hover and go to definition on `hit_locations`, through Neovim's client.
    let hover = seen["textDocument/hover"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        hover.contains("table hit_locations: d4 -> HitLocation"),
        "{seen}"
    );
    let def = &seen["textDocument/definition"];
    let def = if def.is_array() { &def[0] } else { def };
    assert_eq!(def["uri"], uri(&dir.path().join("ruleset.yaml")), "{seen}");
    assert_eq!(
        def["range"]["start"],
        pos(MANIFEST, "hit_locations", 0, 0),
        "{seen}"
    );
    // The outline and the references, through Neovim's client too.
    let outline: Vec<&str> = seen["textDocument/documentSymbol"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(outline, ["AttackResult", "attack"], "{seen}");
    let refs = seen["textDocument/references"].as_array();
    assert_eq!(refs.map(Vec::len), Some(2), "{seen}");
}

#[test]
fn hover_tells_type_doc_and_origin_after_override() {
    let dir = variant_project();
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let variant_rules = uri(&dir.path().join("variant/combat.rules"));
    let variant = uri(&dir.path().join("variant/ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&variant_rules, VARIANT_RULES);
    assert_eq!(c.diagnostics(&variant_rules), Vec::<Value>::new());
    c.open(&base_rules, BASE_RULES);
    assert_eq!(c.diagnostics(&base_rules), Vec::<Value>::new());

    // A call in the base, hovered while the variant is open: the base's own check
    // answers (its file is its own), so `bonus` is the base's formula.
    let h = hover_text(&mut c, &base_rules, pos(BASE_RULES, "bonus(f)", 0, 1));
    assert!(h.contains("formula bonus(f: Fighter) -> int"), "{h}");
    assert!(h.contains("A fighter's bonus to hit."), "{h}");
    assert!(
        h.contains("formula, defined at `base/combat.rules:4`"),
        "{h}"
    );

    // The variant's override names both places.
    let h = hover_text(&mut c, &variant_rules, pos(VARIANT_RULES, "bonus", 0, 0));
    assert!(h.contains("formula bonus(f: Fighter) -> int"), "{h}");
    assert!(
        h.contains("defined by the base at `base/combat.rules:4`"),
        "{h}"
    );
    assert!(h.contains("overridden at `variant/combat.rules:1`"), "{h}");

    // A field: its type and its YAML doc text.
    let h = hover_text(&mut c, &variant_rules, pos(VARIANT_RULES, "armor", 0, 2));
    assert!(h.contains("Fighter.armor: int"), "{h}");
    assert!(h.contains("Points of armor worn."), "{h}");
    assert!(
        h.contains("field of `Fighter`, defined at `base/ruleset.yaml:11`"),
        "{h}"
    );

    // A YAML override of a table, hovered in the variant's YAML.
    c.open(&variant, VARIANT);
    c.diagnostics(&variant);
    let h = hover_text(&mut c, &variant, pos(VARIANT, "hit_locations", 0, 3));
    assert!(h.contains("table hit_locations: d4 -> HitLocation"), "{h}");
    assert!(h.contains("Where a blow lands."), "{h}");
    assert!(
        h.contains("defined by the base at `base/ruleset.yaml:14`"),
        "{h}"
    );
    assert!(h.contains("overridden at `variant/ruleset.yaml:7`"), "{h}");

    // A level and a local.
    let h = hover_text(&mut c, &base_rules, pos(BASE_RULES, "Minor", 0, 1));
    assert!(
        h.contains("DamageLevel.Minor: level 2 of 5 in scale DamageLevel"),
        "{h}"
    );
    let h = hover_text(&mut c, &base_rules, pos(BASE_RULES, "total < 7", 0, 1));
    // `roll d12 + ...` is a roll (an int that remembers its dice).
    assert!(h.contains("total: roll"), "{h}");
    assert!(
        h.contains("local of `strike`, defined at `base/combat.rules:7`"),
        "{h}"
    );
    // Nothing to say about a keyword.
    let r = c.request(
        "textDocument/hover",
        doc_pos(&base_rules, pos(BASE_RULES, "return", 0, 1)),
    );
    assert_eq!(r, Value::Null);
    c.shutdown();
}

#[test]
fn definition_goes_across_yaml_and_rules() {
    let dir = variant_project();
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let base_yaml = uri(&dir.path().join("base/ruleset.yaml"));
    let variant_rules = uri(&dir.path().join("variant/combat.rules"));
    let variant = uri(&dir.path().join("variant/ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&base_rules, BASE_RULES);
    c.diagnostics(&base_rules);
    let range = |text: &str, needle: &str, nth: usize| {
        let start = pos(text, needle, nth, 0);
        let end = pos(text, needle, nth, needle.len());
        json!({"start": start, "end": end})
    };

    // From a .rules file to the YAML table.
    let r = c.request(
        "textDocument/definition",
        doc_pos(&base_rules, pos(BASE_RULES, "hit_locations", 0, 2)),
    );
    assert_eq!(
        r,
        json!({"uri": base_yaml, "range": range(BASE, "hit_locations", 0)})
    );
    // A field, a level, a record type named in a parameter.
    let r = c.request(
        "textDocument/definition",
        doc_pos(&base_rules, pos(BASE_RULES, "skill", 0, 1)),
    );
    assert_eq!(
        r,
        json!({"uri": base_yaml, "range": range(BASE, "skill", 0)})
    );
    let r = c.request(
        "textDocument/definition",
        doc_pos(&base_rules, pos(BASE_RULES, "Minor", 0, 0)),
    );
    assert_eq!(
        r,
        json!({"uri": base_yaml, "range": range(BASE, "Minor", 0)})
    );
    let r = c.request(
        "textDocument/definition",
        doc_pos(&base_rules, pos(BASE_RULES, "Fighter", 0, 0)),
    );
    assert_eq!(
        r,
        json!({"uri": base_yaml, "range": range(BASE, "Fighter", 0)})
    );
    // In YAML: a level named in a table's rows, to the scale's list.
    c.open(&base_yaml, BASE);
    c.diagnostics(&base_yaml);
    let r = c.request(
        "textDocument/definition",
        doc_pos(&base_yaml, pos(BASE, "Torso", 1, 0)),
    );
    assert_eq!(
        r,
        json!({"uri": base_yaml, "range": range(BASE, "Torso", 0)})
    );

    // In the variant: the table's override first, then the base's definition.
    c.open(&variant, VARIANT);
    c.diagnostics(&variant);
    c.open(&variant_rules, VARIANT_RULES);
    c.diagnostics(&variant_rules);
    let r = c.request(
        "textDocument/definition",
        doc_pos(&variant, pos(VARIANT, "hit_locations", 0, 0)),
    );
    assert_eq!(
        r,
        json!([
            {"uri": variant, "range": range(VARIANT, "hit_locations", 0)},
            {"uri": base_yaml, "range": range(BASE, "hit_locations", 0)},
        ])
    );
    // The overriding formula: itself, then the base's.
    let r = c.request(
        "textDocument/definition",
        doc_pos(&variant_rules, pos(VARIANT_RULES, "bonus", 0, 1)),
    );
    assert_eq!(
        r,
        json!([
            {"uri": variant_rules, "range": range(VARIANT_RULES, "bonus", 0)},
            {"uri": base_rules, "range": range(BASE_RULES, "bonus", 1)},
        ])
    );
    c.shutdown();
}

fn labels(r: &Value) -> Vec<String> {
    let items = r
        .as_array()
        .or_else(|| r["items"].as_array())
        .expect("completion items");
    items
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn completion_offers_names_fields_levels_and_tables() {
    let dir = variant_project();
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&base_rules, BASE_RULES);
    c.diagnostics(&base_rules);

    // The writer types a new line in `strike`; the text does not parse while they type,
    // so the answers come from the last check.
    let typing = |c: &mut Client, version: i32, line: &str| -> (String, Value) {
        let text = BASE_RULES.replace("  if total < 7", &format!("  {line}\n  if total < 7"));
        c.change(&base_rules, version, &text);
        let at = pos(&text, line, 0, line.len());
        (text, at)
    };
    let (_, at) = typing(&mut c, 2, "let x = f.");
    let r = c.request("textDocument/completion", doc_pos(&base_rules, at));
    assert_eq!(labels(&r), ["skill", "armor"]);

    let (_, at) = typing(&mut c, 3, "let y = DamageLevel.Se");
    let r = c.request("textDocument/completion", doc_pos(&base_rules, at));
    assert_eq!(
        labels(&r),
        ["NoWound", "Minor", "Moderate", "Severe", "Critical"]
    );

    let (_, at) = typing(&mut c, 4, "let z = roll hit_loc");
    let r = c.request("textDocument/completion", doc_pos(&base_rules, at));
    assert_eq!(labels(&r), ["hit_locations"]);

    let (_, at) = typing(&mut c, 5, "let w = to");
    let r = c.request("textDocument/completion", doc_pos(&base_rules, at));
    let names = labels(&r);
    for expected in [
        "total",
        "f",
        "bonus",
        "strike",
        "hit_locations",
        "Mira",
        "Head",
        "Fighter",
        "let",
        "max",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    // Another function's locals and the fields are not names here.
    assert!(!names.iter().any(|n| n == "skill"), "{names:?}");
    c.shutdown();
}

#[test]
fn rename_changes_every_use_in_yaml_and_rules() {
    let dir = variant_project();
    let base_rules = uri(&dir.path().join("base/combat.rules"));
    let base_yaml = uri(&dir.path().join("base/ruleset.yaml"));
    let variant = uri(&dir.path().join("variant/ruleset.yaml"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&base_rules, BASE_RULES);
    c.diagnostics(&base_rules);
    c.open(&variant, VARIANT);
    c.diagnostics(&variant);

    let at = pos(BASE_RULES, "hit_locations", 0, 4);
    let r = c.request(
        "textDocument/prepareRename",
        doc_pos(&base_rules, at.clone()),
    );
    assert_eq!(r["placeholder"], "hit_locations");
    let mut params = doc_pos(&base_rules, at);
    params["newName"] = json!("where_hit");
    let r = c.request("textDocument/rename", params);
    let changes = &r["changes"];
    let edits = |uri: &str| -> Vec<Value> {
        let mut v = changes[uri].as_array().cloned().unwrap_or_default();
        v.sort_by_key(|e| e["range"]["start"]["line"].as_u64());
        v
    };
    let starts = |uri: &str| -> Vec<Value> {
        edits(uri)
            .iter()
            .map(|e| e["range"]["start"].clone())
            .collect()
    };
    // The definition in the base's YAML, the use in the base's rules, the variant's
    // override (open, so its check sees the same definition).
    assert_eq!(starts(&base_yaml), [pos(BASE, "hit_locations", 0, 0)]);
    assert_eq!(
        starts(&base_rules),
        [pos(BASE_RULES, "hit_locations", 0, 0)]
    );
    assert_eq!(starts(&variant), [pos(VARIANT, "hit_locations", 0, 0)]);
    assert!(edits(&variant).iter().all(|e| e["newText"] == "where_hit"));

    // A new name that is taken, or is a keyword, is refused.
    for taken in ["bonus", "roll"] {
        let mut params = doc_pos(&base_rules, pos(BASE_RULES, "hit_locations", 0, 4));
        params["newName"] = json!(taken);
        c.next_id += 1;
        let id = c.next_id;
        c.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/rename", "params": params}),
        );
        let answer = loop {
            let m = c.recv();
            if m["id"] == json!(id) {
                break m;
            }
        };
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(taken),
            "{answer}"
        );
    }
    c.shutdown();
}

/// A frame the server cannot read ends it, in the middle of a session, with exit code 1
/// and the reason (E0014), before anything of the announced size is allocated: lsp-server's
/// own reader aborted the process on `Content-Length: 99999999999` (a failed allocation,
/// exit 134) and read a header line of any length.
#[test]
fn an_unreadable_frame_ends_the_server_with_its_reason() {
    let cases: [(&[u8], &str); 4] = [
        (
            b"Content-Length: 99999999999\r\n\r\n{}",
            "a message of 99999999999 bytes, past the language server's limit of 64 MiB",
        ),
        (&[b'a'; 4096], "a header line longer than 1024 bytes"),
        (
            b"Content-Length: 2\n\n{}",
            "a header line not ending in CR LF",
        ),
        (b"Content-Length: 5\r\n\r\n{\"a\":", "malformed LSP payload"),
    ];
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "capabilities": {}}})
    .to_string();
    for (frame, reason) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start rulesc lsp");
        // Stdin stays open: the server must stop on the frame, not at the end of input.
        let mut stdin = child.stdin.take().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{init}", init.len()).unwrap();
        stdin.write_all(frame).unwrap();
        stdin.flush().unwrap();
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > PATIENCE {
                let _ = child.kill();
                panic!("the server still runs after {reason:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(1), "{reason}: {err}");
        assert!(
            err.contains("E0014") && err.contains(reason),
            "{reason}: {err}"
        );
        drop(stdin);
    }
}

/// How a server ended (waiting at most [`PATIENCE`]): its exit code and standard error.
fn ended(child: &mut Child) -> (Option<i32>, String) {
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("the server still runs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        stderr.read_to_string(&mut err).unwrap();
    }
    (status.code(), err)
}

/// 2,000 edits sent without waiting, then a hover: the server checks the last version
/// (not every edit: it did, publishing 2,000 times and taking minutes in a debug build),
/// publishes each version's own diagnostics, and answers the hover on the last text.
#[test]
fn a_burst_of_edits_is_checked_for_its_last_version() {
    const EDITS: i32 = 2000;
    let dir = project();
    let attack = uri(&dir.path().join("attack.rules"));
    let mut c = Client::start();
    initialize(&mut c, dir.path());
    c.open(&attack, ATTACK);
    assert_eq!(c.diagnostics(&attack), Vec::<Value>::new());
    // Version v names `b<v>` where `bonus` was, after v % 4 empty lines.
    let text = |v: i32| {
        let name = if v == EDITS + 1 {
            "bonsu".to_string()
        } else {
            format!("b{v}")
        };
        let lines = "\n".repeat(v as usize % 4);
        format!(
            "{lines}{}",
            ATTACK.replace("d12! + bonus", &format!("d12! + {name}"))
        )
    };
    for v in 2..=EDITS + 1 {
        c.change(&attack, v, &text(v));
    }
    let last = text(EDITS + 1);
    let h = hover_text(&mut c, &attack, pos(&last, "hit_locations", 0, 3));
    assert!(h.contains("table hit_locations: d4 -> HitLocation"), "{h}");

    // Every publication until the last version's.
    let mut seen = Vec::new();
    loop {
        let m = match c
            .pending
            .iter()
            .position(|m| m["method"] == "textDocument/publishDiagnostics")
        {
            Some(i) => c.pending.remove(i),
            None => c.recv(),
        };
        if m["method"] != "textDocument/publishDiagnostics" {
            continue;
        }
        assert_eq!(m["params"]["uri"], attack.as_str());
        let version = m["params"]["version"].as_i64().unwrap() as i32;
        seen.push(m);
        if version == EDITS + 1 {
            break;
        }
    }
    assert!(
        seen.len() < 50,
        "{} publications for {EDITS} edits",
        seen.len()
    );
    for m in &seen {
        // A version's diagnostics are its own: its unknown name, on its line.
        let version = m["params"]["version"].as_i64().unwrap() as i32;
        let diags = m["params"]["diagnostics"].as_array().unwrap();
        assert_eq!(diags.len(), 1, "{m}");
        let name = if version == EDITS + 1 {
            "bonsu".to_string()
        } else {
            format!("b{version}")
        };
        assert_eq!(diags[0]["code"], "E0306", "{m}");
        assert!(
            diags[0]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("`{name}`")),
            "{m}"
        );
        let line = 3 + version as usize % 4;
        assert_eq!(
            diags[0]["range"]["start"],
            json!({"line": line, "character": 26}),
            "{m}"
        );
    }
    c.shutdown();
}

/// The editor going away without `shutdown` (its end of stdin closed) is the error the
/// reference says, E0014 with exit code 1: it was a silent exit 0.
#[test]
fn stdin_closed_without_shutdown_is_e0014() {
    let dir = project();
    let mut c = Client::start_with(Stdio::piped());
    initialize(&mut c, dir.path());
    let Client {
        mut child, stdin, ..
    } = c;
    drop(stdin);
    let (code, err) = ended(&mut child);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("E0014"), "{err}");
    assert!(
        err.contains("the editor closed the connection without `shutdown`"),
        "{err}"
    );
}

/// `exit` without `shutdown` first stops the server (stdin still open) with exit code 1.
#[test]
fn exit_without_shutdown_is_e0014() {
    let dir = project();
    let attack = uri(&dir.path().join("attack.rules"));
    let mut c = Client::start_with(Stdio::piped());
    initialize(&mut c, dir.path());
    c.open(&attack, ATTACK);
    c.diagnostics(&attack);
    c.notify("exit", Value::Null);
    let (code, err) = ended(&mut c.child);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("E0014"), "{err}");
    assert!(err.contains("`exit` without `shutdown`"), "{err}");
}

/// `shutdown`, then a request (refused: only `exit` is left), then `exit`: exit code 0.
/// (lsp-server's shutdown took any message but `exit` after it as an error, exit 1.)
#[test]
fn shutdown_then_exit_stops_cleanly() {
    let dir = project();
    let attack = uri(&dir.path().join("attack.rules"));
    let mut c = Client::start_with(Stdio::piped());
    initialize(&mut c, dir.path());
    c.open(&attack, ATTACK);
    c.diagnostics(&attack);
    assert_eq!(c.request("shutdown", Value::Null), Value::Null);
    c.next_id += 1;
    let id = c.next_id;
    let params = doc_pos(&attack, pos(ATTACK, "hit_locations", 0, 3));
    c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": params}));
    let answer = loop {
        let m = c.recv();
        if m["id"] == json!(id) {
            break m;
        }
    };
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    c.notify("exit", Value::Null);
    let (code, err) = ended(&mut c.child);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn formatting_replaces_the_document_with_rulesc_fmts_layout() {
    let dir = project();
    let rules = uri(&dir.path().join("attack.rules"));
    let manifest = uri(&dir.path().join("ruleset.yaml"));
    let mut c = Client::start();
    let init = initialize(&mut c, dir.path());
    assert_eq!(init["capabilities"]["documentFormattingProvider"], true);
    let untidy =
        "// é: one edit, whatever the encoding\nprocedure p() {\nlet x=1   \n\n\n  return\n}";
    c.open(&rules, untidy);
    c.diagnostics(&rules);
    let params = |uri: &str| json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    let r = c.request("textDocument/formatting", params(&rules));
    let edits = r.as_array().unwrap();
    assert_eq!(edits.len(), 1, "{r}");
    assert_eq!(
        edits[0]["newText"],
        "// é: one edit, whatever the encoding\nprocedure p() {\n  let x = 1\n\n  return\n}\n"
    );
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], json!({"line": 6, "character": 1}));
    // Formatted already: no edit. Not parsing: no edit (its diagnostics say why).
    c.change(&rules, 2, "procedure p() {\n  return\n}\n");
    assert_eq!(
        c.request("textDocument/formatting", params(&rules)),
        json!([])
    );
    c.change(&rules, 3, "procedure p( {\nlet x=1\n");
    assert_eq!(
        c.request("textDocument/formatting", params(&rules)),
        Value::Null
    );
    // YAML is left alone.
    c.open(&manifest, MANIFEST);
    assert_eq!(
        c.request("textDocument/formatting", params(&manifest)),
        Value::Null
    );
    c.shutdown();
}

// Issue 29's language server beyond the basics, one module each (this file's client).
#[path = "lsp/actions.rs"]
mod actions;
#[path = "lsp/extras.rs"]
mod extras;
#[path = "lsp/navigation.rs"]
mod navigation;
#[path = "lsp/signature.rs"]
mod signature;
#[path = "lsp/yaml_completion.rs"]
mod yaml_completion;
