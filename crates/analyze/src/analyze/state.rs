//! Program states of the merged engine, and distributions over them.
//!
//! A [`State`] is everything the rest of a resolution can depend on: the locals of every
//! frame of the call stack, how far each scripted decision's answers were used, and the
//! dice drawn (only when a per-path dice budget is in force). Two branches that reach the
//! same point with equal states are merged: their weights add. Equality is by content,
//! and by which records are shared: a record two locals (or two frames) both hold is one
//! record, so a change through one name shows through the other, in the state as in the
//! interpreter.

use super::exact::W;
use crate::eval::Value;
use num_traits::Zero;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Debug, Clone)]
pub struct State {
    /// The locals of each frame, outermost first (plus the engine's hidden slots).
    pub frames: Vec<Vec<Value>>,
    /// Answers used so far, per scripted decision name.
    pub cursor: Vec<u32>,
    /// Dice drawn on the path (kept at 0 unless a per-path dice budget is in force).
    pub used: u32,
    /// The value a `return` left (for states leaving a function).
    pub ret: Value,
}

impl Default for State {
    fn default() -> Self {
        State {
            frames: Vec::new(),
            cursor: Vec::new(),
            used: 0,
            ret: Value::Unit,
        }
    }
}

impl State {
    pub fn top(&mut self) -> &mut Vec<Value> {
        if self.frames.is_empty() {
            self.frames.push(Vec::new());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    /// A copy that shares no record with `self` (and shares among its own locals exactly
    /// the records `self` shares among its own): what a branch gets before it changes a
    /// record.
    pub fn unshared(&self) -> State {
        let mut seen: HashMap<*const RefCell<Vec<Value>>, Rc<RefCell<Vec<Value>>>> = HashMap::new();
        let frames = self
            .frames
            .iter()
            .map(|f| f.iter().map(|v| deep(v, &mut seen)).collect())
            .collect();
        State {
            frames,
            cursor: self.cursor.clone(),
            used: self.used,
            ret: deep(&self.ret, &mut seen),
        }
    }
}

fn deep(
    v: &Value,
    seen: &mut HashMap<*const RefCell<Vec<Value>>, Rc<RefCell<Vec<Value>>>>,
) -> Value {
    match v {
        Value::Record(r) => {
            if let Some(copy) = seen.get(&Rc::as_ptr(r)) {
                return Value::Record(copy.clone());
            }
            let copy = Rc::new(RefCell::new(Vec::new()));
            seen.insert(Rc::as_ptr(r), copy.clone());
            let fields: Vec<Value> = r.borrow().iter().map(|f| deep(f, seen)).collect();
            *copy.borrow_mut() = fields;
            Value::Record(copy)
        }
        Value::List(l) => Value::List(Rc::new(l.iter().map(|x| deep(x, seen)).collect())),
        Value::Map(m) => Value::Map(Rc::new(m.iter().map(|x| deep(x, seen)).collect())),
        Value::SortedMap(m) => {
            let entries: Vec<(Value, Value)> = m
                .iter()
                .map(|(k, v)| (deep(k, seen), deep(v, seen)))
                .collect();
            let zero = deep(&m.zero, seen);
            Value::SortedMap(Rc::new(crate::eval::SortedMap::new(entries, zero)))
        }
        Value::Outcome { tag, fields } => Value::Outcome {
            tag: *tag,
            fields: fields.iter().map(|x| deep(x, seen)).collect(),
        },
        other => other.clone(),
    }
}

/// Writes a canonical encoding of `v`: equal encodings mean equal values (records that
/// are shared encode as the same ordinal, numbered in order of first appearance).
pub fn encode_value(v: &Value, out: &mut Vec<u64>, seen: &mut Vec<*const RefCell<Vec<Value>>>) {
    let mut enc = Enc {
        seen: std::mem::take(seen),
        cache: None,
        inner: None,
    };
    enc.value(v, out);
    *seen = enc.seen;
}

/// Each record's own encoding (its fields, with a marker where a record sits inside
/// it), and the records inside it, by address. An entry holds its record alive, so no
/// other record can take its address while the cache lives; and records in a
/// distribution are not changed (the engine changes only fresh copies, before adding
/// them).
#[derive(Debug, Clone, Default)]
pub struct RecordCache {
    at: HashMap<usize, Cached, PrehashedBuild>,
    words: Vec<u64>,
}

#[derive(Debug, Clone)]
struct Cached {
    _alive: Rc<RefCell<Vec<Value>>>,
    words: (usize, usize),
    inner: Vec<Rc<RefCell<Vec<Value>>>>,
}

impl RecordCache {
    fn clear(&mut self) {
        self.at.clear();
        self.words.clear();
    }
}

struct Enc<'c> {
    seen: Vec<*const RefCell<Vec<Value>>>,
    cache: Option<&'c mut RecordCache>,
    /// While encoding one record's own fields: the records inside it, in order (they are
    /// written as a marker, and encoded after it).
    inner: Option<Vec<Rc<RefCell<Vec<Value>>>>>,
}

impl Enc<'_> {
    fn list(&mut self, tag: u64, items: &[Value], out: &mut Vec<u64>) {
        out.push(tag);
        out.push(items.len() as u64);
        for x in items {
            self.value(x, out);
        }
    }

    /// A record: its ordinal among the records seen (the same record twice is written
    /// as a back-reference), its own fields, then the records inside it.
    fn record(&mut self, r: &Rc<RefCell<Vec<Value>>>, out: &mut Vec<u64>) {
        if let Some(inner) = &mut self.inner {
            out.push(15);
            inner.push(r.clone());
            return;
        }
        let ptr = Rc::as_ptr(r);
        if let Some(i) = self.seen.iter().position(|p| *p == ptr) {
            out.extend([11, i as u64]);
            return;
        }
        self.seen.push(ptr);
        out.extend([12, (self.seen.len() - 1) as u64]);
        let key = ptr as usize;
        let inner = match self.cache.as_ref().and_then(|c| c.at.get(&key)) {
            Some(c) => {
                let words = &self.cache.as_ref().map_or(&[][..], |x| &x.words[..]);
                out.extend_from_slice(&words[c.words.0..c.words.1]);
                c.inner.clone()
            }
            None => {
                let start = out.len();
                self.inner = Some(Vec::new());
                self.list(13, &r.borrow(), out);
                let inner = self.inner.take().unwrap_or_default();
                if let Some(c) = &mut self.cache {
                    let a = c.words.len();
                    c.words.extend_from_slice(&out[start..]);
                    let entry = Cached {
                        _alive: r.clone(),
                        words: (a, c.words.len()),
                        inner: inner.clone(),
                    };
                    c.at.insert(key, entry);
                }
                inner
            }
        };
        for x in &inner {
            self.record(x, out);
        }
    }

    fn value(&mut self, v: &Value, out: &mut Vec<u64>) {
        #[allow(unreachable_patterns)]
        match v {
            Value::Unit => out.push(0),
            Value::Int(i) => out.extend([1, *i as u64]),
            Value::Bool(b) => out.extend([2, u64::from(*b)]),
            Value::Choice(c) => out.extend([3, u64::from(*c)]),
            Value::Roll(r) => out.extend([4, r.total as u64, r.natural as u64]),
            Value::Dice(d) => {
                let keep = match d.keep {
                    rulesc_runtime::Keep::All => 0,
                    rulesc_runtime::Keep::Highest(k) => (1 << 32) | u64::from(k),
                    rulesc_runtime::Keep::Lowest(k) => (2 << 32) | u64::from(k),
                };
                out.extend([
                    5,
                    u64::from(d.count),
                    u64::from(d.sides),
                    u64::from(d.explode),
                    keep,
                ])
            }
            Value::Track(t) => out.extend([6, t.filled]),
            Value::TrackBox { track, number } => out.extend([7, *track as u64, u64::from(*number)]),
            Value::List(l) => self.list(8, l, out),
            Value::Map(m) => self.list(9, m, out),
            // The keys held and their values (the zero is the type's).
            Value::SortedMap(m) => {
                out.extend([16, m.len() as u64]);
                for (k, v) in m.iter() {
                    self.value(k, out);
                    self.value(v, out);
                }
            }
            Value::Outcome { tag, fields } => {
                out.push(10);
                self.list(u64::from(*tag), fields, out)
            }
            Value::Record(r) => self.record(r, out),
            // A kind of value this encoder does not know yet: its debug text, which shows
            // all of its content.
            other => {
                let text = format!("{other:?}");
                out.push(14);
                out.push(text.len() as u64);
                out.extend(text.as_bytes().chunks(8).map(|c| {
                    let mut b = [0u8; 8];
                    b[..c.len()].copy_from_slice(c);
                    u64::from_le_bytes(b)
                }));
            }
        }
    }
}

/// The canonical encoding of a whole state.
pub fn encode(s: &State, out: &mut Vec<u64>, cache: Option<&mut RecordCache>) {
    out.clear();
    let mut enc = Enc {
        seen: Vec::new(),
        cache,
        inner: None,
    };
    out.push(s.frames.len() as u64);
    for f in &s.frames {
        out.push(f.len() as u64);
        for v in f {
            enc.value(v, out);
        }
    }
    out.push(s.cursor.len() as u64);
    out.extend(s.cursor.iter().map(|&c| u64::from(c)));
    out.push(u64::from(s.used));
    enc.value(&s.ret, out);
}

/// A fast hash of a state's encoding (the Fx mixing step of rustc and Firefox): the
/// encodings are long word slices made by this program, not attacker-chosen text.
fn fx(words: &[u64]) -> u64 {
    words.iter().fold(words.len() as u64, |h, &x| {
        (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    })
}

/// A hasher for keys that are already hashes (and for addresses, mixed once).
#[derive(Default, Clone, Copy)]
pub struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }

    fn write_usize(&mut self, x: usize) {
        // Addresses: their low bits are alike, so spread them (Fx's multiplier).
        self.0 = (x as u64)
            .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
            .rotate_left(26);
    }
}

type PrehashedBuild = std::hash::BuildHasherDefault<Prehashed>;

/// A hasher for keys made of words by this program (the Fx mixing step, as [`fx`]).
#[derive(Default, Clone, Copy)]
pub struct Words(u64);

impl Words {
    #[inline]
    fn mix(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for Words {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            self.mix(u64::from_le_bytes(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.mix(x);
    }

    fn write_usize(&mut self, x: usize) {
        self.mix(x as u64);
    }
}

pub type WordsBuild = std::hash::BuildHasherDefault<Words>;

/// The bytes one word of a state's encoding stands for, in the memory budget
/// (`--max-memory`): the word itself, kept to merge the state, and the values it
/// encodes (a map entry of two numbers is four words, and about twice their bytes as
/// values), measured on distributions of large maps.
pub const BYTES_PER_WORD: u64 = 24;

/// A distribution over states: each state's weight over the common denominator `den`.
/// Equal states are merged as they are added: each state's encoding is kept, and found
/// again through its hash.
#[derive(Debug, Clone)]
pub struct Dist {
    pub den: W,
    pub states: Vec<(State, W)>,
    /// Hash of an encoding -> the first state with that hash; `next` chains the others.
    index: HashMap<u64, usize, PrehashedBuild>,
    next: Vec<usize>,
    keys: Vec<Box<[u64]>>,
    /// The words of `keys` together (what the memory budget counts).
    words: u64,
    scratch: Vec<u64>,
    records: RecordCache,
}

impl Dist {
    pub fn new(den: W) -> Dist {
        Dist {
            den,
            states: Vec::new(),
            index: HashMap::default(),
            next: Vec::new(),
            keys: Vec::new(),
            words: 0,
            scratch: Vec::new(),
            records: RecordCache::default(),
        }
    }

    /// The certain distribution of one state.
    pub fn single(s: State) -> Dist {
        let mut d = Dist::new(W::one());
        d.push(s, W::one());
        d
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The words of the states' encodings, together.
    pub fn words(&self) -> u64 {
        self.words
    }

    /// Adds `w` (over `den`) to state `s`.
    pub fn push(&mut self, s: State, w: W) {
        if w.is_zero() {
            return;
        }
        encode(&s, &mut self.scratch, Some(&mut self.records));
        let h = fx(&self.scratch);
        let mut at = self.index.get(&h).copied();
        while let Some(i) = at {
            if *self.keys[i] == *self.scratch {
                self.states[i].1.add(&w);
                return;
            }
            at = Some(self.next[i]).filter(|&n| n != usize::MAX);
        }
        let i = self.states.len();
        let head = self.index.insert(h, i).unwrap_or(usize::MAX);
        self.next.push(head);
        self.words += self.scratch.len() as u64;
        self.keys.push(self.scratch.as_slice().into());
        self.states.push((s, w));
    }

    /// Takes the states out (the distribution is left empty, same denominator).
    pub fn take(&mut self) -> Vec<(State, W)> {
        self.index.clear();
        self.next.clear();
        self.keys.clear();
        self.words = 0;
        self.records.clear();
        std::mem::take(&mut self.states)
    }

    /// Adds every state of `other`, over a common denominator.
    pub fn merge(&mut self, mut other: Dist) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other;
            return;
        }
        let (a, b) = scales(&self.den, &other.den);
        if a != W::one() {
            for (_, w) in &mut self.states {
                *w = w.mul(&a);
            }
            self.den = self.den.mul(&a);
        }
        for (s, w) in other.take() {
            self.push(s, w.mul(&b));
        }
    }

    /// Divides the denominator and every weight by their greatest common divisor, so
    /// numbers stay small (and in machine words) as rolls multiply denominators.
    pub fn reduce(&mut self) {
        let mut g = self.den.clone();
        for (_, w) in &self.states {
            if g == W::one() {
                return;
            }
            g = g.gcd(w);
        }
        if g.is_zero() || g == W::one() {
            return;
        }
        self.den = self.den.div_exact(&g);
        for (_, w) in &mut self.states {
            *w = w.div_exact(&g);
        }
    }
}

/// The factors that bring denominators `a` and `b` to their least common multiple.
pub fn scales(a: &W, b: &W) -> (W, W) {
    let g = a.gcd(b);
    if g.is_zero() {
        return (W::one(), W::one());
    }
    (b.div_exact(&g), a.div_exact(&g))
}

/// `w / den` as an exact probability.
pub fn prob(w: &W, den: &W) -> super::exact::Prob {
    if den.is_zero() {
        return super::exact::Prob::zero();
    }
    w.over(den)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fields: Vec<Value>) -> Value {
        Value::Record(Rc::new(RefCell::new(fields)))
    }

    #[test]
    fn equal_states_merge_and_sharing_counts() {
        let r = record(vec![Value::Int(1)]);
        let shared = State {
            frames: vec![vec![r.clone(), r]],
            ..State::default()
        };
        let apart = State {
            frames: vec![vec![
                record(vec![Value::Int(1)]),
                record(vec![Value::Int(1)]),
            ]],
            ..State::default()
        };
        let mut d = Dist::new(W::Small(4));
        d.push(shared.clone(), W::Small(1));
        d.push(shared.unshared(), W::Small(1));
        d.push(apart, W::Small(2));
        // The unshared copy keeps its own sharing: it merges with the original.
        assert_eq!(d.len(), 2);
        assert_eq!(d.states[0].1, W::Small(2));
        d.reduce();
        assert_eq!(d.den, W::Small(2));
    }

    #[test]
    fn an_unshared_copy_changes_alone() {
        let r = record(vec![Value::Int(1)]);
        let s = State {
            frames: vec![vec![r.clone()], vec![r]],
            ..State::default()
        };
        let c = s.unshared();
        if let Value::Record(x) = &c.frames[1][0] {
            x.borrow_mut()[0] = Value::Int(2);
        }
        // Both frames of the copy see the change; the original does not.
        assert!(matches!(&c.frames[0][0], Value::Record(x) if x.borrow()[0] == Value::Int(2)));
        assert!(matches!(&s.frames[0][0], Value::Record(x) if x.borrow()[0] == Value::Int(1)));
    }
}
