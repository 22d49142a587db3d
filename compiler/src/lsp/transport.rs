//! The JSON-RPC transport on stdin and stdout (or any input and output): lsp-server's
//! framing and messages, read within limits, on queues of [`QUEUED_MESSAGES`] each way. lsp-server's own `Connection::stdio` allocates whatever a
//! `Content-Length` header announces and reads a header line of any length, so one
//! corrupt or hostile header (`Content-Length: 99999999999`) aborted the process on a
//! failed allocation. Here a message past [`MAX_MESSAGE_BYTES`] or a header line past
//! [`MAX_HEADER_BYTES`] ends the server with an error instead.

use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

/// The longest message read: room for a ruleset file at the loader's largest
/// ([`crate::load::MAX_FILE_BYTES`], 4 MiB) with every character escaped in JSON.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header line read (`Content-Length: ...` and the like), its CR LF included.
pub const MAX_HEADER_BYTES: usize = 1024;

/// How many messages the reader may read ahead of the server, and the server write ahead
/// of the writer. Reading ahead is what lets the server see a burst of edits at once and
/// check only the last (see [`super`]); the bound keeps a client that writes without end
/// (or reads nothing) waiting rather than filling memory.
pub const QUEUED_MESSAGES: usize = 512;

/// The threads reading the client's messages and writing the server's.
pub struct IoThreads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
    /// Why the reader stopped, when a message could not be read: set before the reader
    /// lets go of its channel, so a server that finds the channel closed finds it set.
    unread: Arc<Mutex<Option<String>>>,
}

impl IoThreads {
    /// Why the reader stopped, if it met a message it could not read.
    pub fn unread(&self) -> Option<String> {
        self.unread.lock().ok().and_then(|r| r.clone())
    }

    /// Waits for both threads; the first error either met (a message it could not read,
    /// a closed output) is the result.
    pub fn join(self) -> io::Result<()> {
        let reader = self.reader.join();
        let writer = self.writer.join();
        for r in [reader, writer] {
            r.map_err(|_| io::Error::other("a transport thread panicked"))??;
        }
        Ok(())
    }

    /// Waits for the writer only (once the connection is dropped it writes what is left
    /// and stops), leaving a reader that may still wait on its input: what a server that
    /// stopped on an error does, so that its last answers are not lost.
    pub fn join_writer(self) {
        let _ = self.writer.join();
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> io::Result<(Connection, IoThreads)> {
    spawn(io::BufReader::new(io::stdin()), io::stdout())
}

/// A connection over any input and output: a thread reads messages from `input` by
/// [`read`] until it ends, fails or says `exit`; another writes the server's to `output`.
pub fn spawn<R, W>(mut input: R, mut output: W) -> io::Result<(Connection, IoThreads)>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (to_client, outgoing) = crossbeam_channel::bounded::<Message>(QUEUED_MESSAGES);
    let writer = thread::Builder::new()
        .name("rulesc-lsp-writer".into())
        .spawn(move || outgoing.into_iter().try_for_each(|m| m.write(&mut output)))?;
    let (incoming, from_client) = crossbeam_channel::bounded::<Message>(QUEUED_MESSAGES);
    let unread = Arc::new(Mutex::new(None));
    let reason = Arc::clone(&unread);
    let reader = thread::Builder::new()
        .name("rulesc-lsp-reader".into())
        .spawn(move || {
            let result = loop {
                match read(&mut input) {
                    Ok(Some(msg)) => {
                        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                        if incoming.send(msg).is_err() || exit {
                            break Ok(());
                        }
                    }
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(e),
                }
            };
            if let (Err(e), Ok(mut r)) = (&result, reason.lock()) {
                *r = Some(e.to_string());
            }
            drop(incoming);
            result
        })?;
    let conn = Connection {
        sender: to_client,
        receiver: from_client,
    };
    Ok((
        conn,
        IoThreads {
            reader,
            writer,
            unread,
        },
    ))
}

/// The next message on `inp`: `None` when the input ends before one starts. A header line
/// longer than [`MAX_HEADER_BYTES`] or not ending in CR LF, a message announcing more than
/// [`MAX_MESSAGE_BYTES`] or none at all, a body cut short, or a body that is not a JSON-RPC
/// message is an error (`InvalidData`, or `UnexpectedEof` for the cut body).
pub fn read(inp: &mut impl BufRead) -> io::Result<Option<Message>> {
    let mut size = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = inp
            .by_ref()
            .take(MAX_HEADER_BYTES as u64)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        let Some(header) = line.strip_suffix(b"\r\n") else {
            return Err(invalid(if line.len() >= MAX_HEADER_BYTES {
                format!("a header line longer than {MAX_HEADER_BYTES} bytes")
            } else {
                format!(
                    "a header line not ending in CR LF: {:?}",
                    String::from_utf8_lossy(&line)
                )
            }));
        };
        if header.is_empty() {
            break;
        }
        let header = String::from_utf8_lossy(header);
        let (name, value) = header
            .split_once(": ")
            .ok_or_else(|| invalid(format!("a malformed header line: {header:?}")))?;
        if name.eq_ignore_ascii_case("Content-Length") {
            let n: usize = value
                .parse()
                .map_err(|_| invalid(format!("a Content-Length that is not a size: {value:?}")))?;
            if n > MAX_MESSAGE_BYTES {
                return Err(invalid(format!(
                    "a message of {n} bytes, past the language server's limit of {} MiB",
                    MAX_MESSAGE_BYTES >> 20
                )));
            }
            size = Some(n);
        }
    }
    let size = size.ok_or_else(|| invalid("a message without a Content-Length header".into()))?;
    // The body, framed again for lsp-server's own reader (which parses the message).
    let mut framed = format!("Content-Length: {size}\r\n\r\n").into_bytes();
    let start = framed.len();
    framed.resize(start + size, 0);
    inp.read_exact(&mut framed[start..])?;
    Message::read(&mut framed.as_slice())
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn error(input: &[u8]) -> String {
        match read(&mut &input[..]) {
            Err(e) => e.to_string(),
            Ok(m) => panic!("read {m:?}"),
        }
    }

    #[test]
    fn messages_are_read_one_after_another_until_the_input_ends() {
        let mut input = framed(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        input.extend(b"content-length: 35\r\nContent-Type: x\r\n\r\n");
        input.extend(br#"{"jsonrpc":"2.0","method":"exit"}  "#);
        let mut inp = &input[..];
        let first = read(&mut inp).unwrap();
        assert!(matches!(first, Some(Message::Notification(n)) if n.method == "initialized"));
        let second = read(&mut inp).unwrap();
        assert!(matches!(second, Some(Message::Notification(n)) if n.method == "exit"));
        assert!(read(&mut inp).unwrap().is_none());
    }

    #[test]
    fn a_size_past_the_limit_is_refused_and_one_at_it_taken() {
        let at = format!("Content-Length: {MAX_MESSAGE_BYTES}\r\n\r\n");
        // At the limit the size is taken (the body is then missing).
        assert!(error(at.as_bytes()).contains("failed to fill whole buffer"));
        let past = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE_BYTES + 1);
        assert_eq!(
            error(past.as_bytes()),
            format!(
                "a message of {} bytes, past the language server's limit of 64 MiB",
                MAX_MESSAGE_BYTES + 1
            )
        );
        let huge = "Content-Length: 99999999999999999999999\r\n\r\n";
        assert!(error(huge.as_bytes()).contains("not a size"));
    }

    #[test]
    fn a_header_line_is_read_up_to_its_limit() {
        // The longest line taken: the limit, CR LF included.
        let name = "X".repeat(MAX_HEADER_BYTES - ": \r\n".len());
        let mut ok = format!("{name}: \r\n").into_bytes();
        assert_eq!(ok.len(), MAX_HEADER_BYTES);
        ok.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        assert!(read(&mut &ok[..]).unwrap().is_some());
        // One byte more, and a line with no end at all.
        let long = format!("X{name}: \r\n");
        assert_eq!(
            error(long.as_bytes()),
            format!("a header line longer than {MAX_HEADER_BYTES} bytes")
        );
        assert!(error(&vec![b'a'; 10 * MAX_HEADER_BYTES]).contains("longer than"));
    }

    #[test]
    fn malformed_frames_are_errors() {
        assert!(error(b"Content-Length: 2\n\n{}").contains("not ending in CR LF"));
        assert!(error(b"Content-Length 2\r\n\r\n{}").contains("malformed header"));
        assert!(error(b"Content-Type: x\r\n\r\n{}").contains("without a Content-Length"));
        assert!(error(b"Content-Length: 10\r\n\r\n{}").contains("failed to fill whole buffer"));
        assert!(error(&framed(r#"{"a":"#)).contains("malformed LSP payload"));
    }
}
