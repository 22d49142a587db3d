//! `rulesc studio <ruleset>`: a local web app to edit, check and run a ruleset in a
//! browser, served by this binary (no Node, nothing fetched at run time).
//!
//! The server ([`Studio::serve`]) binds to 127.0.0.1 only and answers a request only
//! when all of these hold (else 403, nothing read):
//! - it carries the run's token ([`Studio::token`], 128 random bits printed in the URL,
//!   as Jupyter's): in the `token` query parameter (the page and its script and style) or
//!   the `X-Rulesc-Token` header (the API, which the page's script calls);
//! - its `Host` is the loopback address and this port (`127.0.0.1`, `localhost`,
//!   `[::1]`): a page of another site that a DNS-rebinding attack points at 127.0.0.1
//!   sends its own host name, and is refused;
//! - its `Origin`, when it has one, is this server's, and `Sec-Fetch-Site` is not
//!   `cross-site`.
//!
//! Every answer carries a Content-Security-Policy allowing only this server's own script
//! and style (no inline script, no other site): with writer text put into the page only
//! as text (`textContent`, never as markup, see `page/studio.js`) and the charts shown
//! as images, a hostile ruleset's names, labels, comments and trace text run nothing.
//!
//! Files ([`files`]) are the ruleset folder's `*.yaml` and `*.rules` and the example
//! scenarios and fight files beside it, named by their path in the project folder; a
//! request names one of those or is refused (no path is ever joined from a request).
//! They are read through [`crate::load::read_text`] and written through
//! [`crate::output::write`], as the CLI reads and writes. The API ([`api`]) checks with
//! [`crate::check_dir`] and runs with the same calls as `trace`, `analyze` and
//! `simulate`; checks go to one worker thread that drops superseded ones ([`worker`]).

mod api;
pub mod files;
mod worker;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response, Server};

/// Largest request body: a check sends every unsaved file of the ruleset, each at most
/// [`crate::load::MAX_FILE_BYTES`], all within the run's byte budget.
pub const MAX_BODY_BYTES: u64 = crate::load::MAX_RUN_BYTES + (1 << 20);

/// Most runs (trace, odds, simulate) at once; more are answered 503 (try again).
pub const MAX_RUNS: usize = 2;

/// The policy every answer carries: this server's script, style and fetches only; images
/// from this server or `data:` (the charts); no frames, no forms, no plugins.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/studio.js");
const STYLE: &str = include_str!("page/studio.css");

/// What a studio serves besides the ruleset folder.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The folder of scenarios and fight files (by default, where `rulesc book` finds it).
    pub examples: Option<PathBuf>,
    /// Variant rulesets the odds can be compared with (as `rulesc diff`).
    pub variants: Vec<PathBuf>,
}

/// One studio: the ruleset folder it serves, the run's token, the check worker.
pub struct Studio {
    pub(crate) project: files::Project,
    token: String,
    port: u16,
    server: Server,
    checks: worker::Checks,
    runs: AtomicUsize,
    /// One save at a time: the version compared and the file replaced as one step for
    /// this server's own requests.
    saving: std::sync::Mutex<()>,
}

/// Why a studio could not start.
#[derive(Debug)]
pub enum StartError {
    /// The ruleset folder is not a readable folder.
    Folder(String),
    /// The examples folder or a variant folder is not a readable folder inside the
    /// project folder.
    Examples(String),
    /// The port could not be bound.
    Bind(String),
    /// No random token could be made.
    Random(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Folder(s)
            | StartError::Examples(s)
            | StartError::Bind(s)
            | StartError::Random(s) => f.write_str(s),
        }
    }
}

impl Studio {
    /// Binds 127.0.0.1:`port` (0: any free port) for the ruleset folder `dir` and its
    /// examples folder (by default, where `rulesc book` finds it).
    pub fn bind(dir: &Path, options: &Options, port: u16) -> Result<Arc<Studio>, StartError> {
        let project = files::Project::new(dir, options.examples.as_deref(), &options.variants)?;
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| StartError::Random(e.to_string()))?;
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let server = Server::http(("127.0.0.1", port))
            .map_err(|e| StartError::Bind(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or_else(|| StartError::Bind("the server has no IP address".into()))?;
        Ok(Arc::new(Studio {
            project,
            token,
            port,
            server,
            checks: worker::Checks::default(),
            runs: AtomicUsize::new(0),
            saving: std::sync::Mutex::new(()),
        }))
    }

    /// The run's token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The address to open, token included.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/?token={}", self.port, self.token)
    }

    /// The ruleset folder served.
    pub fn dir(&self) -> &Path {
        &self.project.dir
    }

    /// Serves requests until the process ends: the check worker on its own thread, each
    /// run on a thread of its own (at most [`MAX_RUNS`]), the rest answered here.
    pub fn serve(self: &Arc<Self>) {
        let me = self.clone();
        // Checks and runs load rulesets from anyone: on threads with the CLI's stack
        // (`crate::WORKER_STACK`), not the 2 MiB of a thread's own.
        std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK)
            .spawn(move || worker::run(&me))
            .expect("the studio's check thread could not start");
        for request in self.server.incoming_requests() {
            self.handle(request);
        }
    }

    fn handle(self: &Arc<Self>, mut request: Request) {
        if let Err(why) = self.allowed(&request) {
            return respond(request, error(403, why));
        }
        let url = request.url().to_string();
        let path = url.split('?').next().unwrap_or("");
        let get = *request.method() == Method::Get;
        let post = *request.method() == Method::Post;
        match path {
            "/" if get => respond(request, self.page()),
            "/studio.js" if get => respond(request, text(SCRIPT, "text/javascript")),
            "/studio.css" if get => respond(request, text(STYLE, "text/css")),
            "/api/files" if get => respond(request, api::files(self)),
            "/api/file" | "/api/save" | "/api/check" | "/api/trace" | "/api/odds"
            | "/api/simulate" | "/api/diff"
                if post =>
            {
                let body = match body(&mut request) {
                    Ok(b) => b,
                    Err(e) => return respond(request, e),
                };
                match path {
                    "/api/file" => respond(request, api::read(self, &body)),
                    "/api/save" => respond(request, api::save(self, &body)),
                    "/api/check" => self.checks.submit(request, body),
                    _ => self.run(request, path.to_string(), body),
                }
            }
            "/" | "/studio.js" | "/studio.css" | "/api/files" | "/api/file" | "/api/save"
            | "/api/check" | "/api/trace" | "/api/odds" | "/api/simulate" | "/api/diff" => {
                respond(request, error(405, "method not allowed".into()))
            }
            _ => respond(request, error(404, "no such page".into())),
        }
    }

    /// A run on a thread of its own, unless [`MAX_RUNS`] are running.
    fn run(self: &Arc<Self>, request: Request, path: String, body: Vec<u8>) {
        if self.runs.fetch_add(1, Ordering::SeqCst) >= MAX_RUNS {
            self.runs.fetch_sub(1, Ordering::SeqCst);
            return respond(
                request,
                error(503, "busy: other runs are going on; try again".into()),
            );
        }
        let me = self.clone();
        // As `std::thread::spawn`, which this was, a thread that cannot start panics.
        std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK)
            .spawn(move || {
                let answer = guarded(|| match path.as_str() {
                    "/api/trace" => api::trace(&me, &body),
                    "/api/odds" => api::odds(&me, &body),
                    "/api/diff" => api::diff(&me, &body),
                    _ => api::simulate(&me, &body),
                });
                me.runs.fetch_sub(1, Ordering::SeqCst);
                respond(request, answer);
            })
            .expect("a studio run's thread could not start");
    }

    /// Whether a request may be answered: the token, a loopback `Host`, no foreign
    /// `Origin`.
    fn allowed(&self, request: &Request) -> Result<(), String> {
        let header = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let port = self.port;
        let hosts = [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        match header("Host") {
            Some(h) if hosts.iter().any(|ok| h.eq_ignore_ascii_case(ok)) => {}
            Some(_) => return Err("refused: the Host is not this server's loopback address (open the address rulesc studio printed)".into()),
            None => return Err("refused: the request names no Host".into()),
        }
        if let Some(origin) = header("Origin") {
            if !hosts
                .iter()
                .any(|ok| origin.eq_ignore_ascii_case(&format!("http://{ok}")))
            {
                return Err(
                    "refused: the request comes from another site (its Origin is not this server)"
                        .into(),
                );
            }
        }
        if header("Sec-Fetch-Site").is_some_and(|s| s.eq_ignore_ascii_case("cross-site")) {
            return Err("refused: the request comes from another site".into());
        }
        let given = header("X-Rulesc-Token").or_else(|| query_token(request.url()));
        match given {
            Some(t) if same(t.as_bytes(), self.token.as_bytes()) => Ok(()),
            Some(_) => Err(
                "refused: wrong token (open the address rulesc studio printed, with its token)"
                    .into(),
            ),
            None => Err(
                "refused: no token (open the address rulesc studio printed, with its token)".into(),
            ),
        }
    }

    /// The page, with the token for its script's requests.
    fn page(&self) -> Answer {
        let t = crate::markup::esc(&self.token);
        let title = crate::markup::esc(&self.project.title());
        let html = PAGE.replace("{{TOKEN}}", &t).replace("{{TITLE}}", &title);
        text(&html, "text/html; charset=utf-8")
    }
}

/// The answer `work` gives, or a 500 if it panicked (a bug in rulesc): the worker or
/// run thread goes on, and the page says what happened instead of waiting forever.
pub(crate) fn guarded(work: impl FnOnce() -> Answer) -> Answer {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|_| {
        error(
            500,
            "rulesc failed on this request: a bug in rulesc; please report it with the ruleset"
                .into(),
        )
    })
}

/// The `token` query parameter of a URL (hex digits only are kept as they are).
fn query_token(url: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .map(str::to_string)
}

/// Equal bytes, compared in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A request's body, read up to [`MAX_BODY_BYTES`].
fn body(request: &mut Request) -> Result<Vec<u8>, Answer> {
    if request
        .body_length()
        .is_some_and(|n| n as u64 > MAX_BODY_BYTES)
    {
        return Err(error(413, "the request is too large".into()));
    }
    let mut bytes = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY_BYTES + 1)
        .read_to_end(&mut bytes);
    match read {
        Err(e) => Err(error(400, format!("cannot read the request: {e}"))),
        Ok(_) if bytes.len() as u64 > MAX_BODY_BYTES => {
            Err(error(413, "the request is too large".into()))
        }
        Ok(_) => Ok(bytes),
    }
}

/// An answer: status, content type, body.
pub(crate) struct Answer {
    status: u16,
    kind: &'static str,
    body: String,
}

pub(crate) fn text(body: &str, kind: &'static str) -> Answer {
    Answer {
        status: 200,
        kind,
        body: body.to_string(),
    }
}

pub(crate) fn json(status: u16, value: &serde_json::Value) -> Answer {
    Answer {
        status,
        kind: "application/json",
        body: value.to_string(),
    }
}

pub(crate) fn error(status: u16, message: String) -> Answer {
    json(status, &serde_json::json!({ "error": message }))
}

/// Sends an answer with the security headers. A client gone away is not an error.
pub(crate) fn respond(request: Request, a: Answer) {
    let headers = [
        ("Content-Type", a.kind),
        ("Content-Security-Policy", CSP),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ];
    let mut response = Response::from_string(a.body).with_status_code(a.status);
    for (k, v) in headers {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            response.add_header(h);
        }
    }
    let _ = request.respond(response);
}

/// A canonical path's name in the project: relative to the project folder, `/`-separated.
pub(crate) fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel: PathBuf = path.strip_prefix(root).ok()?.to_path_buf();
    Some(rel.to_string_lossy().replace('\\', "/"))
}
