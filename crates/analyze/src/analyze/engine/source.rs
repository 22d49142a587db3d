//! The engine's dice and decider: each roll decided whole, its distinct outcomes walked
//! like an odometer; decisions answered from the scenario's script per state.

use super::{BadAnswer, Decisions, Engine, Stop};
use crate::analyze::dice::RollDist;
use crate::analyze::exact::W;
use rulesc_runtime::{Decide, DiceSource, DiceSpec, Roll, Scripted};
use std::cell::Cell;
use std::rc::Rc;

/// The decider of one state: fixed answers first, then the scenario's script from the
/// state's own position in it.
pub struct Cursor<'a> {
    dec: &'a Decisions<'a>,
    cursor: &'a mut Vec<u32>,
}

impl<'a> Cursor<'a> {
    /// A decider answering from `dec`, `cursor` holding how many answers of each
    /// scripted name were used (one zero per name to start).
    pub fn new(dec: &'a Decisions<'a>, cursor: &'a mut Vec<u32>) -> Self {
        Cursor { dec, cursor }
    }
}

impl Cursor<'_> {
    /// The answer to `name` among `options` (named by `label` when the decider asked for
    /// names): the fixed one, else the state's next scripted one, else the first option.
    fn answer(
        &mut self,
        name: &'static str,
        options: u32,
        label: Option<&dyn Fn(u32) -> String>,
    ) -> u32 {
        let last = options.saturating_sub(1);
        // An answer not among the options makes the analysis an error: the value the run
        // goes on with is never reported.
        let bad = |answer: Scripted, nth: Option<usize>| {
            let offered = match (&answer, label) {
                (Scripted::Named(_), Some(l)) => (0..options).map(l).collect(),
                _ => Vec::new(),
            };
            let _ = self.dec.bad.set(BadAnswer {
                name: name.to_string(),
                nth,
                answer,
                options,
                offered,
            });
        };
        if let Some((_, a)) = self.dec.fixed.iter().find(|(n, _)| n == name) {
            if *a > last {
                bad(Scripted::Index(*a), None);
            }
            return (*a).min(last);
        }
        let Some(i) = self.dec.script.iter().position(|(n, _)| *n == name) else {
            return 0;
        };
        let queue = self.dec.script[i].1;
        let Some(used) = self.cursor.get(i).copied() else {
            return 0;
        };
        let Some(a) = queue.get(used as usize) else {
            return 0;
        };
        self.cursor[i] += 1;
        let nth = Some(used as usize);
        match a {
            Scripted::Index(x) if *x > last => {
                bad(a.clone(), nth);
                last
            }
            Scripted::Index(x) => *x,
            Scripted::Named(n) => match label.and_then(|l| (0..options).find(|&o| l(o) == *n)) {
                Some(o) => o,
                None => {
                    bad(a.clone(), nth);
                    0
                }
            },
        }
    }
}

impl Decide for Cursor<'_> {
    fn decide(&mut self, name: &'static str, options: u32) -> u32 {
        self.answer(name, options, None)
    }

    fn wants_labels(&self, name: &str) -> bool {
        // Names are made only when the state's next answer is one.
        let Some(i) = self.dec.script.iter().position(|(n, _)| *n == name) else {
            return false;
        };
        let used = self.cursor.get(i).copied().unwrap_or(u32::MAX) as usize;
        matches!(self.dec.script[i].1.get(used), Some(Scripted::Named(_)))
    }

    fn decide_among(
        &mut self,
        name: &'static str,
        options: u32,
        label: &dyn Fn(u32) -> String,
    ) -> u32 {
        self.answer(name, options, Some(label))
    }
}

/// The dice of the engine: each roll is decided whole, walking its distinct outcomes like
/// an odometer (the path of one run is a choice per roll).
pub struct RollPaths<'e, 'a> {
    pub(super) eng: &'e Engine<'a>,
    pub(super) path: Vec<(usize, Rc<RollDist>)>,
    pub(super) pos: usize,
    pub(super) used: u32,
    pub(super) cut: bool,
    pub(super) fail: Cell<Option<Stop>>,
}

impl RollPaths<'_, '_> {
    pub(super) fn choices(d: &RollDist) -> usize {
        d.entries.len() + usize::from(!d.cut.is_zero())
    }

    pub(super) fn advance(&mut self) -> bool {
        self.path.truncate(self.pos);
        while let Some((c, d)) = self.path.pop() {
            if c + 1 < Self::choices(&d) {
                self.path.push((c + 1, d));
                return true;
            }
        }
        false
    }

    /// The weight of the path just run, over its denominator.
    pub(super) fn weight(&self) -> (W, W) {
        fn taken((c, d): &(usize, Rc<RollDist>)) -> &W {
            d.entries.get(*c).map_or(&d.cut, |e| &e.2)
        }
        match &self.path[..self.pos.min(self.path.len())] {
            [] => (W::one(), W::one()),
            // One roll (a fast segment's, most often): its own weight, nothing multiplied.
            [one] => (taken(one).clone(), one.1.den.clone()),
            path => path.iter().fold((W::one(), W::one()), |(w, den), step| {
                (w.mul(taken(step)), den.mul(&step.1.den))
            }),
        }
    }
}

impl RollPaths<'_, '_> {
    /// The roll of `spec` at `site` on this path: the path's choice for it, or a new
    /// roll's first outcome. A path cut off here or stopped (the state limit, the time)
    /// reads 0: its run is stopped ([`DiceSource::stopped`]) and what it gives is
    /// counted unexplored, never as an outcome.
    fn decided(&mut self, spec: DiceSpec, site: u32) -> Roll {
        let zero = Roll {
            total: 0,
            natural: 0,
        };
        if self.cut || self.fail.get().is_some() {
            return zero;
        }
        if self.pos == self.path.len() {
            match self.eng.roll_at(spec, site, self.used) {
                Ok(d) => self.path.push((0, d)),
                Err(stop) => {
                    self.fail.set(Some(stop));
                    return zero;
                }
            }
        }
        let (c, d) = &self.path[self.pos];
        self.pos += 1;
        match d.entries.get(*c) {
            Some((r, used, _)) => {
                self.used += used;
                *r
            }
            None => {
                self.cut = true;
                zero
            }
        }
    }
}

impl DiceSource for RollPaths<'_, '_> {
    fn face(&mut self, sides: u32) -> u32 {
        // A face drawn outside a whole roll (a roll whose faces are wanted: `faces(r)`,
        // `kept(r)`, `dropped(r)`): a roll of one die, each face one choice of the path.
        // The 0 of a path cut off or stopped is read as 1 only to keep the trait's range
        // (`1..=sides`): that path's run is stopped and never counted as an outcome.
        let r = self.decided(DiceSpec::new(1, sides), u32::MAX);
        r.total.clamp(1, i64::from(sides.max(1))) as u32
    }

    fn stopped(&self) -> bool {
        if self.cut || self.fail.get().is_some() {
            return true;
        }
        if let Err(stop) = self.eng.tick() {
            self.fail.set(Some(stop));
            return true;
        }
        false
    }

    fn whole(&mut self, spec: DiceSpec, site: u32) -> Option<Roll> {
        Some(self.decided(spec, site))
    }
}
