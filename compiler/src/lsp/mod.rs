//! `rulesc lsp`: the language server, over stdio (lsp-server's JSON-RPC messages, read
//! within limits by [`transport`]; lsp-types for the protocol's types).
//!
//! The server keeps the text of every open document and checks, with the same
//! [`crate::compile_dir_with`] as `rulesc check`, each ruleset folder that holds an open
//! document (and those whose `extends` chain reads one), the open documents replacing
//! the files on disk.
//!
//! Messages are handled in rounds. A round takes every message queued (the transport
//! reads ahead of the server, up to [`transport::QUEUED_MESSAGES`]) and handles them in
//! order: an edit only updates its document; a request is answered against the documents
//! as the messages before it left them (the folders they changed checked first); a
//! `$/cancelRequest` answers a request still queued `RequestCancelled` instead. Then each
//! folder changed is checked, once, and its diagnostics published, unless messages came
//! in meanwhile: newer edits would make them stale, so the next round checks again and
//! publishes that. A burst of edits is so checked a few times and published once, for
//! its last version.
//!
//! Diagnostics are published per file. A file's diagnostics come from the check of its
//! own ruleset folder when that is open, else from a ruleset that extends it. An open
//! content pack, scenario or fight file is checked after the rulesets, against its own
//! ruleset's program ([`extras`]), and hears its own diagnostics.
//!
//! The server stops at `exit` after `shutdown` (requests between them are refused). An
//! `exit` without `shutdown`, or the client's input ending before it, is an error.

mod actions;
pub mod convert;
mod extras;
mod features;
mod navigation;
mod signature;
pub mod transport;
mod yaml_values;

use convert::Encoding;

use crate::check::index::Index;
use crate::diag::Diagnostics;
use crate::load::Overlay;
use crate::source::Sources;
use convert::canonical;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Serves the protocol on stdin and stdout until the client says `exit`.
pub fn run_stdio() -> Result<(), Error> {
    let (conn, io) = transport::stdio()?;
    finish(serve(conn), io)
}

/// Serves the protocol on any input and output, as [`run_stdio`] does on stdin and
/// stdout (the fuzz target runs the server in-process through it).
pub fn run<R, W>(input: R, output: W) -> Result<(), Error>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (conn, io) = transport::spawn(input, output)?;
    finish(serve(conn), io)
}

fn finish(served: Result<(), Error>, io: transport::IoThreads) -> Result<(), Error> {
    // A message the transport could not read ends the reader, which closes the connection
    // under the server: the reader's reason, not the server's "closed without shutdown",
    // is the error. (A server that failed otherwise does not wait for a reader still
    // waiting on its input, only for the writer to write its last answers.)
    if served.is_err() {
        let reason = io.unread();
        io.join_writer();
        return match reason {
            Some(reason) => Err(reason.into()),
            None => served,
        };
    }
    io.join()?;
    Ok(())
}

fn closed_early() -> Error {
    "the editor closed the connection without `shutdown`".into()
}

fn exit_early() -> Error {
    "the editor said `exit` without `shutdown` first".into()
}

/// Serves the protocol on a connection: the initialize handshake, then messages until
/// `shutdown` and `exit`.
pub fn serve(conn: Connection) -> Result<(), Error> {
    let enc = initialize(&conn)?;
    let mut server = Server {
        conn: &conn,
        enc,
        docs: BTreeMap::new(),
        analyses: BTreeMap::new(),
        dirty: BTreeSet::new(),
        checked: BTreeSet::new(),
        published: BTreeMap::new(),
        extras: BTreeMap::new(),
        extras_stale: false,
        extras_checked: false,
        queue: VecDeque::new(),
        shut_down: false,
    };
    server.serve()
}

/// Waits for `initialize` and answers it, refusing any other request meanwhile; the
/// position encoding agreed on.
fn initialize(conn: &Connection) -> Result<Encoding, Error> {
    use lsp::notification::{Exit, Notification as _};
    use lsp::request::{Initialize, Request as _};
    loop {
        let req = match conn.receiver.recv().map_err(|_| closed_early())? {
            Message::Request(req) => req,
            Message::Notification(n) if n.method == Exit::METHOD => return Err(exit_early()),
            _ => continue,
        };
        if req.method != Initialize::METHOD {
            let refused = Response::new_err(
                req.id,
                ErrorCode::ServerNotInitialized as i32,
                format!("`{}` before `initialize`", req.method),
            );
            conn.sender.send(refused.into())?;
            continue;
        }
        let params: lsp::InitializeParams = match serde_json::from_value(req.params) {
            Ok(params) => params,
            Err(e) => {
                let refused =
                    Response::new_err(req.id, ErrorCode::InvalidParams as i32, e.to_string());
                conn.sender.send(refused.into())?;
                continue;
            }
        };
        let offers_utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|encs| encs.contains(&lsp::PositionEncodingKind::UTF8));
        let (enc, kind) = if offers_utf8 {
            (Encoding::Utf8, lsp::PositionEncodingKind::UTF8)
        } else {
            (Encoding::Utf16, lsp::PositionEncodingKind::UTF16)
        };
        let result = lsp::InitializeResult {
            capabilities: capabilities(kind),
            server_info: Some(lsp::ServerInfo {
                name: "rulesc".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        let answer = Response::new_ok(req.id, serde_json::to_value(result)?);
        conn.sender.send(answer.into())?;
        return Ok(enc);
    }
}

fn capabilities(encoding: lsp::PositionEncodingKind) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(encoding),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::FULL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..Default::default()
        }),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        signature_help_provider: Some(lsp::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                ..Default::default()
            },
        )),
        ..Default::default()
    }
}

/// An open document.
pub(crate) struct Doc {
    uri: lsp::Uri,
    version: i32,
    text: String,
}

/// The last check of one ruleset folder.
pub(crate) struct Analysis {
    diags: Diagnostics,
    sources: Sources,
    /// The program, when it checks (packs, scenarios and fight files are read against it).
    program: Option<std::sync::Arc<crate::ir::Program>>,
    /// The index of the last check that got past loading (while a file does not parse,
    /// hover and the rest answer from the check before), with the sources it points into.
    index: Option<(Sources, Index)>,
}

/// An open pack, scenario or fight file: its ruleset folder, and what its last check found.
pub(crate) struct Extra {
    kind: extras::Kind,
    ruleset: Option<PathBuf>,
    diags: Vec<lsp::Diagnostic>,
    /// What the last check found, with the sources it points into (for quick fixes).
    found: Option<(Diagnostics, Sources)>,
}

struct Server<'c> {
    conn: &'c Connection,
    enc: Encoding,
    /// Open documents by canonical path.
    docs: BTreeMap<PathBuf, Doc>,
    /// Checked ruleset folders by canonical path.
    analyses: BTreeMap<PathBuf, Analysis>,
    /// Ruleset folders to check again before the next answer.
    dirty: BTreeSet<PathBuf>,
    /// Ruleset folders checked since diagnostics were last published.
    checked: BTreeSet<PathBuf>,
    /// What was last published for each file.
    published: BTreeMap<PathBuf, Vec<lsp::Diagnostic>>,
    /// Open packs, scenarios and fight files (outside ruleset folders), by path.
    extras: BTreeMap<PathBuf, Extra>,
    /// One of them changed, or was opened or closed, since they were last checked.
    extras_stale: bool,
    /// They were checked since diagnostics were last published.
    extras_checked: bool,
    /// Messages taken from the connection, not yet handled.
    queue: VecDeque<Message>,
    /// `shutdown` was answered: only `exit` is left.
    shut_down: bool,
}

impl Server<'_> {
    /// The rounds (see the module's documentation), until `exit`.
    fn serve(&mut self) -> Result<(), Error> {
        loop {
            match self.conn.receiver.recv() {
                Ok(msg) => self.queue.push_back(msg),
                Err(_) if self.shut_down => return Ok(()),
                Err(_) => return Err(closed_early()),
            }
            while self.queue.len() < transport::QUEUED_MESSAGES {
                let Ok(msg) = self.conn.receiver.try_recv() else {
                    break;
                };
                self.queue.push_back(msg);
            }
            self.cancel_queued()?;
            while let Some(msg) = self.queue.pop_front() {
                if self.handle(msg)? {
                    return Ok(());
                }
            }
            if self.shut_down {
                continue;
            }
            self.check();
            if self.conn.receiver.is_empty() {
                self.publish_checked()?;
            }
        }
    }

    /// Handles one message; `true` at `exit` after `shutdown`.
    fn handle(&mut self, msg: Message) -> Result<bool, Error> {
        use lsp::notification::{Exit, Notification as _};
        use lsp::request::{Request as _, Shutdown};
        match msg {
            Message::Notification(n) if n.method == Exit::METHOD => {
                return if self.shut_down {
                    Ok(true)
                } else {
                    Err(exit_early())
                };
            }
            Message::Notification(n) => {
                if !self.shut_down {
                    self.notification(n);
                }
            }
            Message::Request(req) if self.shut_down => {
                let refused = Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    format!("`{}` after `shutdown`: only `exit` is left", req.method),
                );
                self.send(refused)?;
            }
            Message::Request(req) if req.method == Shutdown::METHOD => {
                self.shut_down = true;
                self.send(Response::new_ok(req.id, ()))?;
            }
            Message::Request(req) => {
                self.check();
                let answer = self.request(req);
                self.send(answer)?;
            }
            Message::Response(_) => {}
        }
        Ok(false)
    }

    /// Answers `RequestCancelled` each queued request that a `$/cancelRequest` queued
    /// after it names, in place of running it. The cancellations are then done with (one
    /// naming a request already answered, or none, does nothing).
    fn cancel_queued(&mut self) -> Result<(), Error> {
        use lsp::notification::{Cancel, Notification as _};
        let is_cancel =
            |m: &Message| matches!(m, Message::Notification(n) if n.method == Cancel::METHOD);
        if !self.queue.iter().any(is_cancel) {
            return Ok(());
        }
        let mut kept = VecDeque::with_capacity(self.queue.len());
        for msg in std::mem::take(&mut self.queue) {
            let Message::Notification(n) = &msg else {
                kept.push_back(msg);
                continue;
            };
            if n.method != Cancel::METHOD {
                kept.push_back(msg);
                continue;
            }
            let Ok(p) = serde_json::from_value::<lsp::CancelParams>(n.params.clone()) else {
                continue;
            };
            let id: RequestId = match p.id {
                lsp::NumberOrString::Number(n) => n.into(),
                lsp::NumberOrString::String(s) => s.into(),
            };
            let queued = kept
                .iter()
                .position(|m| matches!(m, Message::Request(r) if r.id == id));
            if let Some(i) = queued {
                kept.remove(i);
                let cancelled = Response::new_err(
                    id,
                    ErrorCode::RequestCanceled as i32,
                    "cancelled by the editor".into(),
                );
                self.send(cancelled)?;
            }
        }
        self.queue = kept;
        Ok(())
    }

    fn send(&self, msg: impl Into<Message>) -> Result<(), Error> {
        self.conn.sender.send(msg.into())?;
        Ok(())
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification::{
            DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
            DidOpenTextDocument, DidSaveTextDocument, Notification as _,
        };
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                {
                    let d = p.text_document;
                    self.open(d.uri, d.version, d.text);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp::DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD)
                {
                    // Full sync: the last change holds the whole text.
                    if let Some(change) = p.content_changes.into_iter().last() {
                        let d = p.text_document;
                        self.open(d.uri, d.version, change.text);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    self.close(&p.text_document.uri);
                }
            }
            DidSaveTextDocument::METHOD | DidChangeWatchedFiles::METHOD => {
                // Files on disk changed: every ruleset may read them.
                self.dirty.extend(self.analyses.keys().cloned());
            }
            _ => {}
        }
    }

    fn open(&mut self, uri: lsp::Uri, version: i32, text: String) {
        let Some(path) = convert::uri_to_path(&uri) else {
            return;
        };
        let path = canonical(&path);
        let is_yaml = path.extension().is_some_and(|e| e == "yaml");
        let kind = (is_yaml && self.owner(&path).is_none())
            .then(|| extras::kind_of(&text))
            .flatten();
        self.docs.insert(path.clone(), Doc { uri, version, text });
        self.touched(&path);
        // A pack, scenario or fight file: checked against its ruleset (any of them may
        // read another: a scenario its packs).
        if self.extras.contains_key(&path) || kind.is_some() {
            self.extras_stale = true;
        }
        match kind {
            Some(kind) => {
                let e = self.extras.entry(path).or_insert(Extra {
                    kind,
                    ruleset: None,
                    diags: Vec::new(),
                    found: None,
                });
                e.kind = kind;
            }
            None => {
                self.extras.remove(&path);
            }
        }
    }

    fn close(&mut self, uri: &lsp::Uri) {
        let Some(path) = convert::uri_to_path(uri).map(|p| canonical(&p)) else {
            return;
        };
        self.docs.remove(&path);
        self.touched(&path);
        if self.extras.remove(&path).is_some() {
            self.extras_stale = true;
        }
        // A ruleset with no open document (nor an open pack, scenario or fight file
        // read against it) is no longer checked.
        let mut open: BTreeSet<PathBuf> = self.docs.keys().filter_map(|p| self.owner(p)).collect();
        open.extend(self.extras.values().filter_map(|e| e.ruleset.clone()));
        self.analyses.retain(|dir, _| open.contains(dir));
        self.dirty.retain(|dir| open.contains(dir));
    }

    /// Marks for checking the file's own ruleset and every ruleset that read it.
    fn touched(&mut self, path: &Path) {
        if let Some(owner) = self.owner(path) {
            if self.docs.contains_key(path) {
                self.dirty.insert(owner);
            }
        }
        for (dir, a) in &self.analyses {
            if a.sources.files.iter().any(|f| f.path == path) {
                self.dirty.insert(dir.clone());
            }
        }
    }

    /// The ruleset folder a file belongs to: its folder, if that holds `ruleset.yaml`
    /// (on disk or open).
    fn owner(&self, path: &Path) -> Option<PathBuf> {
        let dir = path.parent()?;
        let manifest = dir.join("ruleset.yaml");
        let is_rules_file = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "rules")
        );
        (is_rules_file && (manifest.is_file() || self.docs.contains_key(&manifest)))
            .then(|| dir.to_path_buf())
    }

    fn overlay(&self) -> Overlay {
        self.docs
            .iter()
            .map(|(p, d)| (p.clone(), d.text.clone()))
            .collect()
    }

    /// Checks the ruleset folders changed since their last check. What the checks find
    /// is published by [`Self::publish_checked`].
    fn check(&mut self) {
        if self.dirty.is_empty() && !self.extras_stale {
            return;
        }
        let overlay = self.overlay();
        let dirty = std::mem::take(&mut self.dirty);
        for dir in &dirty {
            self.check_folder(dir, &overlay);
        }
        self.checked.extend(dirty);
        if !self.extras.is_empty() {
            self.check_extras(&overlay);
        }
        self.extras_stale = false;
    }

    /// Checks the open packs, scenarios and fight files, each against its ruleset
    /// (checked first, if no open document made it checked already).
    fn check_extras(&mut self, overlay: &Overlay) {
        let paths: Vec<PathBuf> = self.extras.keys().cloned().collect();
        for path in paths {
            let (Some(doc), Some(kind)) =
                (self.docs.get(&path), self.extras.get(&path).map(|e| e.kind))
            else {
                continue;
            };
            let text = doc.text.clone();
            let previous = self.extras.get(&path).and_then(|e| e.ruleset.clone());
            let found = extras::ruleset_of(
                kind,
                &path,
                &text,
                previous.as_deref(),
                &self.analyses,
                overlay,
            );
            let (ruleset, diags, checked) = match found {
                Ok(dir) => {
                    if !self.analyses.contains_key(&dir) {
                        self.check_folder(&dir, overlay);
                        self.checked.insert(dir.clone());
                    }
                    let outside = extras::outside_project(kind, &path, &text);
                    let program = self.analyses.get(&dir).and_then(|a| a.program.clone());
                    match (outside, program) {
                        (Some(why), _) => {
                            let note = extras::note_at_start(why, lsp::DiagnosticSeverity::ERROR);
                            (Some(dir), vec![note], None)
                        }
                        (None, Some(p)) => {
                            let (diags, found) = extras::check(kind, &path, &text, &p, overlay);
                            let shown = extras::in_file(&diags, &found, &path, self.enc);
                            (Some(dir), shown, Some((diags, found)))
                        }
                        (None, None) => {
                            let broken = vec![extras::ruleset_broken(&dir)];
                            (Some(dir), broken, None)
                        }
                    }
                }
                Err(why) => {
                    let note = extras::note_at_start(why, lsp::DiagnosticSeverity::INFORMATION);
                    (None, vec![note], None)
                }
            };
            if let Some(e) = self.extras.get_mut(&path) {
                e.ruleset = ruleset;
                e.diags = diags;
                e.found = checked;
            }
        }
        self.extras_checked = true;
    }

    /// Checks one ruleset folder, keeping the index of the check before when this one
    /// did not get past loading.
    fn check_folder(&mut self, dir: &Path, overlay: &Overlay) {
        let checked = crate::check_dir(dir, overlay);
        let loaded = !checked.index.symbols.is_empty();
        let previous = self.analyses.remove(dir).and_then(|a| a.index);
        let index = if loaded {
            Some((checked.sources.clone(), checked.index))
        } else {
            previous
        };
        let analysis = Analysis {
            diags: checked.diags,
            sources: checked.sources,
            program: checked.program.map(std::sync::Arc::new),
            index,
        };
        self.analyses.insert(dir.to_path_buf(), analysis);
    }

    /// Publishes what changed since the last publication.
    fn publish_checked(&mut self) -> Result<(), Error> {
        if self.checked.is_empty() && !self.extras_checked {
            return Ok(());
        }
        let checked = std::mem::take(&mut self.checked);
        // An open document of a ruleset just checked hears the result even when it is
        // unchanged (an empty list says "checked, clean"); so does an open pack,
        // scenario or fight file just checked.
        let mut fresh: BTreeSet<PathBuf> = self
            .docs
            .keys()
            .filter(|p| self.owner(p).is_some_and(|o| checked.contains(&o)))
            .cloned()
            .collect();
        if std::mem::take(&mut self.extras_checked) {
            fresh.extend(self.extras.keys().cloned());
        }
        self.publish(&fresh)
    }

    fn publish(&mut self, fresh: &BTreeSet<PathBuf>) -> Result<(), Error> {
        // Every file some check read, with the diagnostics each check found in it.
        let mut found: BTreeMap<PathBuf, BTreeMap<&Path, Vec<lsp::Diagnostic>>> = BTreeMap::new();
        for (dir, a) in &self.analyses {
            for f in &a.sources.files {
                // The folder itself stands for folder-level problems: shown on its manifest.
                let file = if f.path.is_dir() {
                    f.path.join("ruleset.yaml")
                } else {
                    f.path.clone()
                };
                found.entry(file).or_default().entry(dir).or_default();
            }
            for d in a.diags.sorted() {
                let Some(f) = a.sources.files.get(d.span.file as usize) else {
                    continue;
                };
                let file = if f.path.is_dir() {
                    f.path.join("ruleset.yaml")
                } else {
                    f.path.clone()
                };
                let lsp_diag = convert::diagnostic(d, &a.sources, self.enc);
                found
                    .entry(file)
                    .or_default()
                    .entry(dir)
                    .or_default()
                    .push(lsp_diag);
            }
        }
        let mut now: BTreeMap<PathBuf, Vec<lsp::Diagnostic>> = BTreeMap::new();
        for (file, mut by_ruleset) in found {
            let own = self
                .owner(&file)
                .and_then(|o| by_ruleset.remove(o.as_path()));
            let list = own.or_else(|| by_ruleset.into_values().next());
            now.insert(file, list.unwrap_or_default());
        }
        for (file, e) in &self.extras {
            now.insert(file.clone(), e.diags.clone());
        }
        let gone: Vec<PathBuf> = self
            .published
            .keys()
            .filter(|p| !now.contains_key(*p))
            .cloned()
            .collect();
        for file in gone {
            now.insert(file, Vec::new());
        }
        for (file, diags) in now {
            let same = self
                .published
                .get(&file)
                .map_or(diags.is_empty(), |p| *p == diags);
            if same && !fresh.contains(&file) {
                continue;
            }
            let Some(uri) = self
                .docs
                .get(&file)
                .map(|d| d.uri.clone())
                .or_else(|| convert::path_to_uri(&file))
            else {
                continue;
            };
            let params = lsp::PublishDiagnosticsParams {
                uri,
                diagnostics: diags.clone(),
                version: self.docs.get(&file).map(|d| d.version),
            };
            self.notify::<lsp::notification::PublishDiagnostics>(params)?;
            if diags.is_empty() {
                self.published.remove(&file);
            } else {
                self.published.insert(file, diags);
            }
        }
        Ok(())
    }

    fn notify<N: lsp::notification::Notification>(&self, params: N::Params) -> Result<(), Error> {
        self.send(Notification::new(N::METHOD.to_string(), params))
    }

    fn request(&mut self, req: Request) -> Response {
        use lsp::request::{
            CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition,
            HoverRequest, PrepareRenameRequest, References, Rename, Request as _,
            SignatureHelpRequest, WorkspaceSymbolRequest,
        };
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => self.answer(req, features::hover),
            GotoDefinition::METHOD => self.answer(req, features::definition),
            Completion::METHOD => self.answer(req, features::completion),
            PrepareRenameRequest::METHOD => self.answer(req, features::prepare_rename),
            Rename::METHOD => self.answer(req, features::rename),
            Formatting::METHOD => self.answer(req, features::formatting),
            SignatureHelpRequest::METHOD => self.answer(req, signature::signature_help),
            CodeActionRequest::METHOD => self.answer(req, actions::code_action),
            DocumentSymbolRequest::METHOD => self.answer(req, navigation::document_symbol),
            References::METHOD => self.answer(req, navigation::references),
            WorkspaceSymbolRequest::METHOD => self.answer(req, navigation::workspace_symbol),
            _ => return not_supported(id, &req.method),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => Response::new_err(id, ErrorCode::InvalidParams as i32, message),
        }
    }

    /// Decodes a request's parameters, runs a feature on them, and encodes its answer.
    fn answer<P, R>(
        &self,
        req: Request,
        feature: fn(&features::World, P) -> Result<R, String>,
    ) -> Result<serde_json::Value, String>
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        let params: P = serde_json::from_value(req.params).map_err(|e| e.to_string())?;
        let world = features::World {
            enc: self.enc,
            docs: &self.docs,
            analyses: &self.analyses,
            extras: &self.extras,
        };
        let answer = feature(&world, params)?;
        serde_json::to_value(answer).map_err(|e| e.to_string())
    }
}

fn not_supported(id: RequestId, method: &str) -> Response {
    Response::new_err(
        id,
        ErrorCode::MethodNotFound as i32,
        format!("rulesc lsp does not handle `{method}`"),
    )
}

#[cfg(test)]
mod tests;
