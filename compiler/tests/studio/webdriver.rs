//! A small blocking client of the W3C WebDriver protocol, enough to drive Debian's
//! `chromedriver` and headless `chromium`: a session, navigation, elements, clicks,
//! scripts and screenshots. (fantoccini and thirtyfour are async, on tokio and hyper:
//! minutes of building on this project's two-core machines for a dozen JSON calls.)
//! Dropping the browser ends the session and kills `chromedriver`.

use super::serve::http;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The browser and its driver, when this machine has them.
pub fn tools() -> Option<(PathBuf, PathBuf)> {
    let path = std::env::var_os("PATH")?;
    let find = |names: &[&str]| {
        std::env::split_paths(&path)
            .flat_map(|d| names.iter().map(move |n| d.join(n)))
            .find(|p| p.is_file())
    };
    Some((
        find(&["chromium", "chromium-browser"])?,
        find(&["chromedriver"])?,
    ))
}

/// A headless browser session, ended (and its driver killed) on drop.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

/// An element's WebDriver reference.
pub type Element = String;

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    pub fn start(chromium: &std::path::Path, chromedriver: &std::path::Path) -> Browser {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let mut command = Command::new(chromedriver);
        // Its own process group, so that the browser it starts dies with it on drop.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let driver = command
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
        };
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "goog:chromeOptions": {
                "binary": chromium.display().to_string(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1400,900", "--hide-scrollbars", "--force-device-scale-factor=1",
                         "--disable-crash-reporter", "--disable-breakpad"],
            }
        }}});
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"].as_str().unwrap().to_string();
        b
    }

    /// One command: its `value`, or a panic with the driver's error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let (status, _, out) = http(
            self.port,
            method,
            path,
            &[],
            text.as_deref()
                .or(if method == "POST" { Some("{}") } else { None }),
        );
        let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
        assert_eq!(status, 200, "{method} {path}: {out}");
        v["value"].clone()
    }

    fn at(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", &self.at("/url"), Some(json!({ "url": url })));
    }

    /// The first element matching a CSS selector.
    pub fn find(&self, css: &str) -> Element {
        let v = self.call(
            "POST",
            &self.at("/element"),
            Some(json!({ "using": "css selector", "value": css })),
        );
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {v}"))
            .to_string()
    }

    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.call("POST", &self.at(&format!("/element/{e}/click")), None);
    }

    /// Types `text` into the element (keys as a person presses them).
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call(
            "POST",
            &self.at(&format!("/element/{e}/value")),
            Some(json!({ "text": text })),
        );
    }

    /// Runs a script's body (`return ...`) with `args` as `arguments`.
    pub fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.call(
            "POST",
            &self.at("/execute/sync"),
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Waits (up to 60 s) until the script returns something truthy; returns it.
    pub fn wait(&self, what: &str, script: &str) -> Value {
        let start = Instant::now();
        loop {
            let v = self.js(script, vec![]);
            let truthy =
                !matches!(&v, Value::Null | Value::Bool(false)) && v != json!("") && v != json!(0);
            if truthy {
                return v;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}; the page says: {}",
                self.js("return document.getElementById('status').textContent + ' | ' + document.getElementById('message').textContent", vec![])
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A screenshot of the window, as PNG bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", &self.at("/screenshot"), None);
        base64(v.as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = std::panic::catch_unwind(|| http(self.port, "DELETE", &path, &[], None));
        }
        // The driver and whatever of the browser is left: the whole process group.
        #[cfg(unix)]
        unsafe {
            libc::kill(-(self.driver.id() as i32), libc::SIGKILL);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (with padding), as WebDriver sends screenshots.
fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(val(c)) << (18 - 6 * i);
        }
        let take = chunk.len() - 1;
        for i in 0..take {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}
