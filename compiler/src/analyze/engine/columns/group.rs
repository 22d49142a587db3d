//! The lanes of a segment grouped by what they lead to.

use super::super::segment::Exit;
use crate::analyze::exact::W;
use crate::analyze::state::WordsBuild;
use std::collections::HashMap;

/// Distinct results of the lanes, by their key, in the order of their first lane.
#[derive(Default)]
pub(super) struct Groups {
    pub(super) keys: Vec<Vec<u64>>,
    pub(super) index: HashMap<Vec<u64>, usize, WordsBuild>,
    /// (first lane, exit, weight).
    pub(super) exits: Vec<(usize, Exit, W)>,
}

impl Groups {
    /// Adds weight `w` of lanes whose first is `lane` to the result whose key is `key`,
    /// made by `exit` if new.
    pub(super) fn add(&mut self, key: &[u64], lane: usize, w: W, exit: impl FnOnce() -> Exit) {
        let found = if self.keys.len() <= 8 {
            self.keys.iter().position(|k| k.as_slice() == key)
        } else {
            if self.index.is_empty() {
                for (i, k) in self.keys.iter().enumerate() {
                    self.index.insert(k.clone(), i);
                }
            }
            self.index.get(key).copied()
        };
        match found {
            Some(i) => {
                let g = &mut self.exits[i];
                g.0 = g.0.min(lane);
                g.2.add(&w);
            }
            None => {
                if !self.index.is_empty() {
                    self.index.insert(key.to_vec(), self.keys.len());
                }
                self.keys.push(key.to_vec());
                self.exits.push((lane, exit(), w));
            }
        }
    }
}

/// The lanes of one `return` (or of the segment's end) grouped by what differs between
/// them: the dice drawn and the words of the values that are columns, `stride` words a
/// lane. Groups are made in lane order.
pub(super) struct Local {
    pub(super) stride: usize,
    pub(super) keys: Vec<u64>,
    /// (first lane, weight).
    pub(super) groups: Vec<(usize, W)>,
    pub(super) index: HashMap<Vec<u64>, usize, WordsBuild>,
    pub(super) last: usize,
}

impl Local {
    pub(super) fn add(&mut self, key: &[u64], lane: usize, w: &W) {
        let s = self.stride;
        let at = |keys: &[u64], i: usize| {
            keys[i * s..(i + 1) * s]
                .iter()
                .zip(key)
                .all(|(a, b)| a == b)
        };
        let found = if !self.groups.is_empty() && at(&self.keys, self.last) {
            Some(self.last)
        } else if self.groups.len() <= 16 {
            (0..self.groups.len()).find(|&i| at(&self.keys, i))
        } else {
            if self.index.is_empty() {
                for i in 0..self.groups.len() {
                    self.index.insert(self.keys[i * s..(i + 1) * s].to_vec(), i);
                }
            }
            self.index.get(key).copied()
        };
        let i = match found {
            Some(i) => {
                add(&mut self.groups[i].1, w);
                i
            }
            None => {
                if !self.index.is_empty() {
                    self.index.insert(key.to_vec(), self.groups.len());
                }
                self.keys.extend_from_slice(key);
                self.groups.push((lane, w.clone()));
                self.groups.len() - 1
            }
        };
        self.last = i;
    }
}

/// `acc += w`, without a call for two small weights.
#[inline(always)]
pub(super) fn add(acc: &mut W, w: &W) {
    if let (W::Small(a), W::Small(b)) = (&mut *acc, w) {
        if let Some(c) = a.checked_add(*b) {
            *a = c;
            return;
        }
    }
    acc.add(w);
}
