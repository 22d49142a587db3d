//! `rulesc lsp` driven as an editor drives it: the binary is started, and the test speaks
//! JSON-RPC to it over its stdin and stdout (initialize, didOpen, didChange, hover,
//! definition, completion, rename, shutdown, exit), asserting the answers.

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
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
fn neovim_headless_shows_the_servers_diagnostics() {
    let dir = project();
    let typo = ATTACK.replace("d12! + bonus", "d12! + bonsu");
    std::fs::write(dir.path().join("attack.rules"), typo).unwrap();
    let Some(seen) = neovim(dir.path(), 3, 27) else {
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
}
