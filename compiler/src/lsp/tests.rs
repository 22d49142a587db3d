//! The server's rounds, driven in-process with every message queued before it starts, so
//! what a round takes is known: coalescing, answers in order, cancellation, and stopping.
//! (`compiler/tests/lsp.rs` drives the binary as an editor does.)

use super::{convert, serve, Error};
use lsp_server::{Connection, Message, Notification, Request, Response};
use serde_json::{json, Value};
use std::path::Path;

const MANIFEST: &str = "\
ruleset:
  name: fixture
  title: A small ruleset
enums:
  HitLocation: [Head, Torso, Arm, Leg]
tables:
  hit_locations:
    die: d4
    value: HitLocation
    rows: { 4: Head, 3: Torso, 2: Arm, 1: Leg }
";

/// A rules file whose one unknown name is `name`, after `lines` empty lines.
fn rules(lines: usize, name: &str) -> String {
    format!(
        "{}procedure where() -> HitLocation {{\n  let _x = {name}\n  return roll hit_locations\n}}\n",
        "\n".repeat(lines)
    )
}

fn project() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ruleset.yaml"), MANIFEST).unwrap();
    std::fs::write(dir.path().join("a.rules"), rules(0, "1")).unwrap();
    let uri = uri(&dir.path().join("a.rules"));
    (dir, uri)
}

fn uri(path: &Path) -> String {
    let path = convert::canonical(path);
    convert::path_to_uri(&path).unwrap().as_str().to_string()
}

fn request(id: i32, method: &str, params: Value) -> Message {
    Request::new(id.into(), method.into(), params).into()
}

fn notification(method: &str, params: Value) -> Message {
    Notification::new(method.into(), params).into()
}

fn change(uri: &str, version: i32, text: &str) -> Message {
    notification(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    )
}

fn hover(id: i32, uri: &str, line: u32, character: u32) -> Message {
    request(
        id,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    )
}

/// Runs the server on `messages` (after the handshake), all queued before it starts and
/// the connection then closed; what it sent after answering `initialize`, and how it
/// ended.
fn session(uri: &str, text: &str, messages: Vec<Message>) -> (Vec<Message>, Result<(), Error>) {
    let (to_server, server_in) = crossbeam_channel::unbounded();
    let (server_out, from_server) = crossbeam_channel::unbounded();
    let mut all = vec![
        request(1, "initialize", json!({"capabilities": {}})),
        notification("initialized", json!({})),
        notification(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "rulesc", "version": 1, "text": text}}),
        ),
    ];
    all.extend(messages);
    for m in all {
        to_server.send(m).unwrap();
    }
    drop(to_server);
    let ended = serve(Connection {
        sender: server_out,
        receiver: server_in,
    });
    let sent: Vec<Message> = from_server.try_iter().collect();
    assert!(
        matches!(&sent[0], Message::Response(r) if r.id == 1.into() && r.response_result.is_ok()),
        "{sent:?}"
    );
    (sent[1..].to_vec(), ended)
}

fn publishes(sent: &[Message]) -> Vec<&Notification> {
    sent.iter()
        .filter_map(|m| match m {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => Some(n),
            _ => None,
        })
        .collect()
}

fn response(sent: &[Message], id: i32) -> &Response {
    let found: Vec<&Response> = sent
        .iter()
        .filter_map(|m| match m {
            Message::Response(r) if r.id == id.into() => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "one answer to request {id}: {sent:?}");
    found[0]
}

/// The result of request `id`, which must have succeeded.
fn ok(sent: &[Message], id: i32) -> &Value {
    match &response(sent, id).response_result {
        Ok(v) => v,
        Err(e) => panic!("request {id} failed: {e:?}"),
    }
}

/// The error code of request `id`, which must have failed.
fn refused(sent: &[Message], id: i32) -> i32 {
    match &response(sent, id).response_result {
        Ok(v) => panic!("request {id} answered {v}"),
        Err(e) => e.code,
    }
}

fn closed_early(ended: Result<(), Error>) {
    let e = ended.expect_err("the connection closed without shutdown");
    assert!(e.to_string().contains("without `shutdown`"), "{e}");
}

#[test]
fn a_burst_of_edits_is_published_once_for_its_last_version() {
    let (_dir, uri) = project();
    let mut messages = Vec::new();
    for v in 2..=2000 {
        messages.push(change(&uri, v, &rules(v as usize % 5, &format!("n{v}"))));
    }
    let (sent, ended) = session(&uri, &rules(0, "1"), messages);
    closed_early(ended);
    let published = publishes(&sent);
    // One publication: the last version's, with its own unknown name. (Before rounds,
    // every edit was checked and published: 2,000 of them.)
    assert_eq!(published.len(), 1, "{published:?}");
    let p = &published[0].params;
    assert_eq!(p["version"], 2000);
    let diags = p["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0306");
    assert!(diags[0]["message"].as_str().unwrap().contains("`n2000`"));
    assert_eq!(
        diags[0]["range"]["start"],
        json!({"line": 1, "character": 11})
    );
}

#[test]
fn a_request_is_answered_against_the_edits_before_it() {
    let (_dir, uri) = project();
    let mut messages = Vec::new();
    // Up to version 500 the table's name is on line 5; then on line 2.
    for v in 2..=500 {
        messages.push(change(&uri, v, &rules(3, "1")));
    }
    messages.push(hover(2, &uri, 5, 16));
    for v in 501..=1000 {
        messages.push(change(&uri, v, &rules(0, "1")));
    }
    messages.push(hover(3, &uri, 2, 16));
    messages.push(hover(4, &uri, 5, 16));
    let (sent, ended) = session(&uri, &rules(0, "1"), messages);
    closed_early(ended);
    for id in [2, 3] {
        let text = ok(&sent, id)["contents"]["value"].to_string();
        assert!(text.contains("table hit_locations"), "{id}: {text}");
    }
    // Line 5 of the last text is past its end: nothing there.
    assert_eq!(*ok(&sent, 4), Value::Null);
    // The requests are answered in the order they came.
    let order: Vec<&Response> = sent
        .iter()
        .filter_map(|m| match m {
            Message::Response(r) => Some(r),
            _ => None,
        })
        .collect();
    let ids: Vec<_> = order.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, [2.into(), 3.into(), 4.into()]);
}

#[test]
fn a_cancelled_request_still_queued_is_answered_cancelled() {
    let (_dir, uri) = project();
    let messages = vec![
        change(&uri, 2, &rules(0, "2")),
        hover(2, &uri, 2, 16),
        hover(3, &uri, 2, 16),
        notification("$/cancelRequest", json!({"id": 2})),
        // A request already answered, or never sent: nothing to do.
        notification("$/cancelRequest", json!({"id": 99})),
    ];
    let (sent, ended) = session(&uri, &rules(0, "1"), messages);
    closed_early(ended);
    assert_eq!(refused(&sent, 2), -32800);
    ok(&sent, 3);
}

#[test]
fn the_server_stops_well_only_at_exit_after_shutdown() {
    let (_dir, uri) = project();
    let text = rules(0, "1");
    // `exit` with no `shutdown`: an error.
    let (_, ended) = session(&uri, &text, vec![notification("exit", Value::Null)]);
    let e = ended.expect_err("exit without shutdown");
    assert!(e.to_string().contains("`exit` without `shutdown`"), "{e}");
    // `shutdown`, a request refused after it, then `exit`: a clean stop.
    let messages = vec![
        request(2, "shutdown", Value::Null),
        hover(3, &uri, 2, 16),
        notification("exit", Value::Null),
    ];
    let (sent, ended) = session(&uri, &text, messages);
    ended.unwrap();
    assert_eq!(*ok(&sent, 2), Value::Null);
    assert_eq!(refused(&sent, 3), -32600);
    // The connection closing after `shutdown` is as good as `exit`.
    let (_, ended) = session(&uri, &text, vec![request(2, "shutdown", Value::Null)]);
    ended.unwrap();
}

#[test]
fn requests_before_initialize_are_refused_and_a_bad_one_does_not_end_the_server() {
    let (to_server, server_in) = crossbeam_channel::unbounded();
    let (server_out, from_server) = crossbeam_channel::unbounded();
    for m in [
        hover(1, "file:///x.rules", 0, 0),
        request(2, "initialize", json!({"capabilities": 7})),
        request(3, "initialize", json!({"capabilities": {}})),
        request(4, "shutdown", Value::Null),
        notification("exit", Value::Null),
    ] {
        to_server.send(m).unwrap();
    }
    drop(to_server);
    serve(Connection {
        sender: server_out,
        receiver: server_in,
    })
    .unwrap();
    let sent: Vec<Message> = from_server.try_iter().collect();
    assert_eq!(refused(&sent, 1), -32002);
    assert_eq!(refused(&sent, 2), -32602);
    ok(&sent, 3);
    assert_eq!(*ok(&sent, 4), Value::Null);
}

/// Each capability the server advertises, with the request it answers.
const PROVIDERS: &[(&str, &str)] = &[
    ("hoverProvider", "textDocument/hover"),
    ("definitionProvider", "textDocument/definition"),
    ("completionProvider", "textDocument/completion"),
    ("renameProvider", "textDocument/rename"),
    ("renameProvider", "textDocument/prepareRename"),
    ("documentFormattingProvider", "textDocument/formatting"),
    ("documentSymbolProvider", "textDocument/documentSymbol"),
    ("referencesProvider", "textDocument/references"),
    ("workspaceSymbolProvider", "workspace/symbol"),
    ("signatureHelpProvider", "textDocument/signatureHelp"),
    ("codeActionProvider", "textDocument/codeAction"),
];

/// The capabilities advertised are those answered: each provider's request is handled
/// (not `MethodNotFound`), and no provider is advertised without a request here.
#[test]
fn the_capabilities_advertised_are_the_requests_answered() {
    let caps =
        serde_json::to_value(super::capabilities(lsp_types::PositionEncodingKind::UTF16)).unwrap();
    let mut advertised: Vec<&str> = caps
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|k| !matches!(*k, "positionEncoding" | "textDocumentSync"))
        .collect();
    advertised.sort();
    let mut listed: Vec<&str> = PROVIDERS.iter().map(|(p, _)| *p).collect();
    listed.sort();
    listed.dedup();
    assert_eq!(advertised, listed);

    let (_dir, uri) = project();
    // Parameters every request here reads its own from.
    let params = json!({
        "textDocument": {"uri": uri},
        "position": {"line": 2, "character": 16},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}},
        "context": {"includeDeclaration": true, "diagnostics": [], "triggerKind": 1, "isRetrigger": false},
        "options": {"tabSize": 2, "insertSpaces": true},
        "newName": "where_hit",
        "query": "hit",
    });
    let mut messages: Vec<Message> = PROVIDERS
        .iter()
        .enumerate()
        .map(|(i, (_, method))| request(i as i32 + 2, method, params.clone()))
        .collect();
    let unknown = PROVIDERS.len() as i32 + 2;
    messages.push(request(unknown, "textDocument/documentHighlight", params));
    let (sent, ended) = session(&uri, &rules(0, "1"), messages);
    closed_early(ended);
    for (i, (_, method)) in PROVIDERS.iter().enumerate() {
        assert!(
            response(&sent, i as i32 + 2).response_result.is_ok(),
            "{method}: {sent:?}"
        );
    }
    assert_eq!(refused(&sent, unknown), -32601);
}

/// Every request at every position of a ruleset's files (a `.rules` file with a
/// multi-byte character and a half-typed call, the YAML with a half-typed value) is
/// answered, never a panic: the features read text as typed, where anything goes.
#[test]
fn every_request_at_every_position_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let yaml =
        format!("{MANIFEST}types:\n  T:\n    at: HitLocation\nrecords:\n  T:\n    t1: {{ at: Le\n");
    let rules = "// é, 🎲: a comment\nprocedure where(n: int) -> HitLocation {\n  let _x = max(n, [1, (2\n  return roll hit_locations\n}\n";
    std::fs::write(dir.path().join("ruleset.yaml"), &yaml).unwrap();
    std::fs::write(dir.path().join("a.rules"), rules).unwrap();
    let yaml_uri = uri(&dir.path().join("ruleset.yaml"));
    let rules_uri = uri(&dir.path().join("a.rules"));
    let mut messages = vec![notification(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": yaml_uri, "languageId": "yaml", "version": 1, "text": yaml}}),
    )];
    let methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
        "textDocument/references",
        "textDocument/signatureHelp",
        "textDocument/codeAction",
    ];
    let mut id = 2;
    for (uri, text) in [(&rules_uri, rules), (&yaml_uri, yaml.as_str())] {
        messages.push(request(
            id,
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        ));
        id += 1;
        for (line, l) in text.lines().enumerate() {
            // Each UTF-16 unit of the line, and one past its end.
            for character in 0..=l.encode_utf16().count() + 1 {
                let at = json!({"line": line, "character": character});
                for method in methods {
                    let params = json!({
                        "textDocument": {"uri": uri},
                        "position": at,
                        "range": {"start": at, "end": at},
                        "context": {"includeDeclaration": true, "diagnostics": [], "triggerKind": 1, "isRetrigger": false},
                    });
                    messages.push(request(id, method, params));
                    id += 1;
                }
            }
        }
    }
    let last = id;
    let (sent, ended) = session(&rules_uri, rules, messages);
    closed_early(ended);
    for id in 2..last {
        if let Err(e) = &response(&sent, id).response_result {
            assert_eq!(e.code, -32602, "request {id}: {e:?}");
        }
    }
}
