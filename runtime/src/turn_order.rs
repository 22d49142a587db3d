//! The turn-order engine: rounds, turns and acted markers.
//!
//! Each participant has a sort key (a list of integers compared lexicographically,
//! highest first: a ruleset's initiative and its tie-breakers). Participants with equal
//! keys act simultaneously. A key may change at any time; the change moves the
//! participant only among the turns not yet taken this round, and a participant who has
//! acted this round keeps its marker until the next round starts.

use alloc::vec;
use alloc::vec::Vec;

/// Participants are numbered `0..n` in the order they were added.
#[derive(Debug, Clone, Default)]
pub struct TurnOrder {
    keys: Vec<Vec<i64>>,
    acted: Vec<bool>,
    pub round: u32,
}

impl TurnOrder {
    pub fn new(keys: Vec<Vec<i64>>) -> Self {
        let n = keys.len();
        TurnOrder {
            keys,
            acted: vec![false; n],
            round: 1,
        }
    }

    /// Changes a participant's key (its initiative changed); takes effect at once.
    pub fn set_key(&mut self, who: usize, key: Vec<i64>) {
        if let Some(k) = self.keys.get_mut(who) {
            *k = key;
        }
    }

    pub fn has_acted(&self, who: usize) -> bool {
        self.acted.get(who).copied().unwrap_or(false)
    }

    /// Orders `who` from the highest key to the lowest, equal keys grouped (simultaneous).
    pub fn rank(&self, who: &[usize]) -> Vec<Vec<usize>> {
        let mut ids: Vec<usize> = who
            .iter()
            .copied()
            .filter(|&i| i < self.keys.len())
            .collect();
        ids.sort_by(|&a, &b| self.keys[b].cmp(&self.keys[a]).then(a.cmp(&b)));
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for id in ids {
            match groups.last_mut() {
                Some(g) if self.keys[g[0]] == self.keys[id] => g.push(id),
                _ => groups.push(vec![id]),
            }
        }
        groups
    }

    /// The turns still to come this round, in order.
    pub fn remaining(&self) -> Vec<Vec<usize>> {
        let waiting: Vec<usize> = (0..self.keys.len()).filter(|&i| !self.acted[i]).collect();
        self.rank(&waiting)
    }

    /// Takes the next turn of this round (a group acting simultaneously) and places the
    /// acted marker on it. `None` when everyone has acted.
    pub fn next_turn(&mut self) -> Option<Vec<usize>> {
        let group = self.remaining().into_iter().next()?;
        for &i in &group {
            self.acted[i] = true;
        }
        Some(group)
    }

    /// Marks a participant as having acted without taking a turn (e.g. surprised, or a
    /// turn dissolved into waiting).
    pub fn mark_acted(&mut self, who: usize) {
        if let Some(a) = self.acted.get_mut(who) {
            *a = true;
        }
    }

    /// Starts the next round: markers removed, the current keys give the order.
    pub fn start_round(&mut self) {
        self.acted.iter_mut().for_each(|a| *a = false);
        self.round += 1;
    }
}
