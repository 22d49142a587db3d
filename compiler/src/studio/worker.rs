//! The check worker: one thread runs checks, one at a time, and a check superseded by a
//! newer one is never run.
//!
//! A check request waits in a slot of one. A newer request takes the slot, and the one it
//! replaces is answered `{"superseded": true}` at once; a check that finishes after a
//! newer request came is answered the same way (its diagnostics are stale). So a burst of
//! keystrokes, which the page already gathers into one request after a pause, costs at
//! most the check running now and the last one.

use super::api::{self, CheckRequest};
use super::{error, json, respond, Studio};
use std::sync::{Condvar, Mutex};
use tiny_http::Request;

/// The slot and its bell.
#[derive(Default)]
pub struct Checks {
    slot: Mutex<Slot>,
    bell: Condvar,
}

#[derive(Default)]
struct Slot {
    waiting: Option<(Request, Vec<u8>)>,
    /// Requests received: a check answers only if none came after it.
    received: u64,
}

fn superseded(request: Request) {
    respond(
        request,
        json(200, &serde_json::json!({ "superseded": true })),
    );
}

impl Checks {
    /// Queues a check, answering the one it replaces as superseded.
    pub fn submit(&self, request: Request, body: Vec<u8>) {
        let replaced = {
            let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
            slot.received += 1;
            slot.waiting.replace((request, body))
        };
        self.bell.notify_one();
        if let Some((old, _)) = replaced {
            superseded(old);
        }
    }
}

/// The worker's loop: takes the waiting check, runs it, answers it unless a newer one
/// came meanwhile.
pub fn run(s: &Studio) {
    loop {
        let (request, body, number) = {
            let mut slot = s.checks.slot.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some((r, b)) = slot.waiting.take() {
                    break (r, b, slot.received);
                }
                slot = s.checks.bell.wait(slot).unwrap_or_else(|e| e.into_inner());
            }
        };
        let answer = super::guarded(|| match serde_json::from_slice::<CheckRequest>(&body) {
            Ok(q) => api::check(s, &q),
            Err(e) => error(400, format!("a malformed request: {e}")),
        });
        let newer = s
            .checks
            .slot
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .received
            > number;
        if newer {
            superseded(request);
        } else {
            respond(request, answer);
        }
    }
}
