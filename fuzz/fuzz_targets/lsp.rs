//! `rulesc lsp` driven by a stranger's editor: the input becomes a sequence of JSON-RPC
//! frames (after `initialize`): didOpen, didChange, didClose and didSave of the files of a
//! small ruleset (on disk in a scratch folder, made once; the server only lays the open
//! documents over it), hover, definition, completion, prepareRename and rename at any
//! position, `$/cancelRequest`, `shutdown`, `exit`, any bytes as a framed message body,
//! and a malformed frame. The server runs in-process on them (`rulesc::lsp::run`, as on
//! stdin and stdout). It never panics, and answers every request it read: each request
//! the transport reads from the input, up to `exit` or the first frame it cannot read,
//! has an answer (a result, or an error such as RequestCancelled) in the output.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_server::{Message, RequestId};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

fuzz_target!(|data: &[u8]| run(data));

const MANIFEST: &str = "\
ruleset:
  name: fuzz
  title: A small ruleset
scales:
  DamageLevel: [NoWound, Minor, Moderate, Severe, Critical]
enums:
  HitLocation: [Head, Torso, Arm, Leg]
types:
  Fighter:
    skill: int
tables:
  hit_locations:
    die: d4
    value: HitLocation
    rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }
";

const RULES: &str = "\
outcome Blow { Miss, Hit(level: DamageLevel, location: HitLocation) }

formula bonus(f: Fighter) -> int = f.skill

procedure strike(f: Fighter) -> Blow {
  let total = roll d12 + bonus(f)
  if total < 7 { return Miss }
  return Hit(level: Minor, location: roll hit_locations)
}
";

/// The files a message names: the two on disk, two that are not.
const FILES: [&str; 4] = ["ruleset.yaml", "a.rules", "b.rules", "data.yaml"];

/// The scratch ruleset folder, written once per process.
fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("rulesc-fuzz-lsp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        std::fs::write(dir.join("ruleset.yaml"), MANIFEST).expect("a scratch file");
        std::fs::write(dir.join("a.rules"), RULES).expect("a scratch file");
        dir.canonicalize().expect("a scratch folder")
    })
}

/// Reads the fuzz input a field at a time (zeros once it runs out).
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b
    }

    /// Up to 1,024 bytes, their length first.
    fn bytes(&mut self) -> &[u8] {
        let n = (usize::from(self.byte()) << 2 | usize::from(self.byte() & 3)).min(self.0.len());
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        taken
    }

    /// A file's text: the shipped text with a stretch of it replaced by fuzz bytes.
    fn text(&mut self, file: &str) -> String {
        let base = match file {
            "ruleset.yaml" => MANIFEST,
            "a.rules" | "b.rules" => RULES,
            _ => "",
        };
        let at = usize::from(self.byte()) * base.len() / 256;
        let cut = usize::from(self.byte() % 32);
        let mut text = base.as_bytes()[..at].to_vec();
        text.extend_from_slice(self.bytes());
        text.extend_from_slice(&base.as_bytes()[(at + cut).min(base.len())..]);
        String::from_utf8_lossy(&text).into_owned()
    }
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// The frames the input stands for.
fn frames(data: &[u8]) -> Vec<u8> {
    let mut inp = Input(data);
    let dir = folder();
    let uri = |i: u8| {
        format!(
            "file://{}",
            dir.join(FILES[usize::from(i) % FILES.len()]).display()
        )
    };
    let mut out = Vec::new();
    let push = |out: &mut Vec<u8>, v: Value| out.extend(frame(v.to_string().as_bytes()));
    let utf8 = inp.byte() & 1 == 1;
    let encodings = if utf8 {
        json!(["utf-8"])
    } else {
        json!(["utf-16"])
    };
    push(
        &mut out,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "processId": null, "capabilities": {"general": {"positionEncodings": encodings}}}}),
    );
    push(
        &mut out,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    let mut id = 0;
    let mut version = 1;
    while !inp.0.is_empty() {
        let op = inp.byte() % 16;
        let file = inp.byte();
        let doc = json!({"uri": uri(file)});
        let position = json!({"textDocument": doc, "position": {
            "line": inp.byte() % 40, "character": inp.byte() % 80}});
        let request = |id: &mut i32, method: &str, params: Value| {
            *id += 1;
            json!({"jsonrpc": "2.0", "id": *id, "method": method, "params": params})
        };
        let notification = |method: &str, params: Value| json!({"jsonrpc": "2.0", "method": method, "params": params});
        version += 1;
        let name = FILES[usize::from(file) % FILES.len()];
        let msg = match op {
            0 | 1 => {
                let language = if name.ends_with(".rules") {
                    "rulesc"
                } else {
                    "yaml"
                };
                notification(
                    "textDocument/didOpen",
                    json!({"textDocument": {
                    "uri": uri(file), "languageId": language, "version": version,
                    "text": inp.text(name)}}),
                )
            }
            2..=4 => notification(
                "textDocument/didChange",
                json!({
                "textDocument": {"uri": uri(file), "version": version},
                "contentChanges": [{"text": inp.text(name)}]}),
            ),
            5 => notification("textDocument/didClose", json!({"textDocument": doc})),
            6 => notification("textDocument/didSave", json!({"textDocument": doc})),
            7 => request(&mut id, "textDocument/hover", position),
            8 => request(&mut id, "textDocument/definition", position),
            9 => request(&mut id, "textDocument/completion", position),
            10 => request(&mut id, "textDocument/prepareRename", position),
            11 => {
                let mut params = position;
                params["newName"] = json!(String::from_utf8_lossy(inp.bytes()));
                request(&mut id, "textDocument/rename", params)
            }
            12 => notification("$/cancelRequest", json!({"id": id - i32::from(file % 4)})),
            13 => {
                // Rarely `shutdown` or `exit`: most inputs should get far.
                match file {
                    0 => request(&mut id, "shutdown", Value::Null),
                    1 => notification("exit", Value::Null),
                    _ => continue,
                }
            }
            14 => {
                // Any bytes as a message body, framed.
                out.extend(frame(inp.bytes()));
                continue;
            }
            _ => {
                // Any bytes as a frame: most end the session there.
                if file % 8 == 0 {
                    out.extend_from_slice(inp.bytes());
                }
                continue;
            }
        };
        push(&mut out, msg);
    }
    out
}

/// What the server wrote, shared with the test once the server is done.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every message of `bytes` the transport reads, up to `exit` or a frame it cannot read.
fn messages(mut bytes: &[u8]) -> Vec<Message> {
    let mut out = Vec::new();
    while let Ok(Some(msg)) = rulesc::lsp::transport::read(&mut bytes) {
        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
        out.push(msg);
        if exit {
            break;
        }
    }
    out
}

fn run(data: &[u8]) {
    let input = frames(data);
    let output = Output::default();
    // Ok, or an error a client would hear of (`exit` without `shutdown`, a frame that
    // could not be read): either way, not a panic.
    let _ = rulesc::lsp::run(std::io::Cursor::new(input.clone()), output.clone());
    let written = output.0.lock().unwrap().clone();
    let asked: BTreeSet<RequestId> = messages(&input)
        .into_iter()
        .filter_map(|m| match m {
            Message::Request(r) => Some(r.id),
            _ => None,
        })
        .collect();
    let answered: BTreeSet<RequestId> = messages(&written)
        .into_iter()
        .filter_map(|m| match m {
            Message::Response(r) => Some(r.id),
            _ => None,
        })
        .collect();
    let unanswered: Vec<_> = asked.difference(&answered).collect();
    assert!(
        unanswered.is_empty(),
        "requests not answered: {unanswered:?}"
    );
}
