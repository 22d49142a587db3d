//! A `rulesc studio` process for a test (killed when dropped) and a small HTTP/1.1 client
//! for it and for the WebDriver server (plain requests on 127.0.0.1, `Connection: close`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `rulesc studio`, killed (and reaped) on drop.
pub struct Studio {
    child: Child,
    pub port: u16,
    pub token: String,
    pub url: String,
}

impl Studio {
    /// Starts `rulesc studio <dir> --port 0 [args]` and reads the address it prints.
    pub fn start(dir: &Path, args: &[&str]) -> Studio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .arg("studio")
            .arg(dir)
            .args(["--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("no address in {line:?}")
            })
            .to_string();
        let (addr, token) = url
            .trim_start_matches("http://127.0.0.1:")
            .split_once("/?token=")
            .unwrap();
        let port = addr.parse().unwrap();
        let token = token.to_string();
        Studio {
            child,
            port,
            token,
            url,
        }
    }

    /// An API call with the token: status and body as JSON.
    pub fn api(&self, path: &str, body: Option<&serde_json::Value>) -> (u16, serde_json::Value) {
        let text = body.map(|b| b.to_string());
        let (status, _, body) = http(
            self.port,
            if text.is_some() { "POST" } else { "GET" },
            path,
            &[("X-Rulesc-Token", &self.token)],
            text.as_deref(),
        );
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{path}: {status} {body:?} is not JSON: {e}"));
        (status, value)
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A child process killed (and reaped) when dropped, even when its test panics.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One request to 127.0.0.1:`port`: status, headers (lower-cased names) and body. A
/// `Host` header is sent unless `headers` has one.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.unwrap_or("");
    if method == "POST" || !body.is_empty() {
        req.push_str("Content-Type: application/json\r\n");
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    read_response(&mut s)
}

/// Reads one response: its head, then `Content-Length` bytes, or chunks, or (with
/// neither) up to the end of the connection.
pub fn read_response(s: &mut TcpStream) -> (u16, Vec<(String, String)>, String) {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let split = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "the connection closed before a response head");
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    if let Some(len) = header("content-length") {
        let len: usize = len.parse().unwrap();
        while body.len() < len {
            let n = s.read(&mut buf).unwrap();
            assert!(n > 0, "the connection closed inside a body");
            body.extend_from_slice(&buf[..n]);
        }
        body.truncate(len);
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        while !body.ends_with(b"0\r\n\r\n") {
            let n = s.read(&mut buf).unwrap();
            assert!(n > 0, "the connection closed inside a chunked body");
            body.extend_from_slice(&buf[..n]);
        }
        body = dechunk(&body);
    } else {
        s.read_to_end(&mut body).unwrap();
    }
    (status, headers, String::from_utf8(body).unwrap())
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let size_text = String::from_utf8_lossy(&b[..end]).to_string();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        b = &b[end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// A copy of a shipped ruleset and its examples in a fresh project folder (marked by
/// `rulesc.toml`): `<tmp>/rules/<name>` and `<tmp>/examples/<name>`.
pub fn project(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("rulesc.toml"), "").unwrap();
    for group in ["rules", "examples"] {
        let from = super::run::root().join(group).join(name);
        let to = tmp.path().join(group).join(name);
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    tmp
}
