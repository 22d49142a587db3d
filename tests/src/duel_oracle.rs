//! An exact reference for the duel of `fixtures/fights/duel` (issue 26 §1): a Markov
//! chain written by hand from the rules' text (the comments of `duel/rules/duel.rules`),
//! round by round over the duelists' states, with exact weights. It calls nothing of
//! rulesc's (no evaluator, no `analyze`, no generated code), so `rulesc simulate` can be
//! held to it (`tests/duel_odds.rs`), and the exact run of `rulesc analyze` on a fight can
//! be timed and checked beside it once it exists (`benches/fight_odds.rs`).
//!
//! What the chain keeps of a duelist between steps is what the rules can still read:
//! its vigor and its three conditions. Initiative is rolled afresh each round and read
//! only in that round, so it is not part of a state. A step is one turn, or one pair of
//! turns at once; equal states are merged after each step and after each round, and
//! [`Odds::states`] counts the distinct states so held (see `docs/design/fight-odds.md`).
//!
//! Weights are whole numbers over a common denominator: a round is 36 initiative pairs
//! times 100 pairs of d10 faces for each of the two attacks (a turn that rolls nothing,
//! and the attack a fight that ended never makes, count as all 100 faces), so a weight
//! after round `r` is a count out of `360000^r`, converted to a [`BigRational`] at the end.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// What the fight file sets of a duelist (rule 1 and its fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duelist {
    pub vigor: i64,
    pub skill: i64,
    pub armor: i64,
}

/// A duel: two duelists (the first joined first) and the round limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duel {
    pub duelists: [Duelist; 2],
    pub rounds: u32,
}

impl Duel {
    /// `fixtures/fights/duel/fight.yaml`: Ada (skill 1) of Red against Bram (armor 1) of
    /// Blue, 10 vigor each, at most 20 rounds.
    pub fn fixture() -> Duel {
        Duel {
            duelists: [
                Duelist {
                    vigor: 10,
                    skill: 1,
                    armor: 0,
                },
                Duelist {
                    vigor: 10,
                    skill: 0,
                    armor: 1,
                },
            ],
            rounds: 20,
        }
    }
}

/// The exact odds of a duel.
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    /// The chance each duelist's side wins, in joining order.
    pub wins: [BigRational; 2],
    pub draw: BigRational,
    /// Both still standing after the last round.
    pub undecided: BigRational,
    /// `rounds[r]`: the chance the fight lasted `r` rounds (an undecided one lasted the
    /// limit); index 0 is never used, as in `simulate`'s counts.
    pub rounds: Vec<BigRational>,
    /// Distinct states held: the state before the first round, then for each round the
    /// states after the first of two turns taken one after the other (with who took it),
    /// after the round's turns, and after its end (the next round's start).
    pub states: usize,
}

impl Odds {
    /// The mean number of rounds.
    pub fn mean_rounds(&self) -> BigRational {
        self.rounds
            .iter()
            .enumerate()
            .map(|(r, p)| p * BigRational::from_integer(r.into()))
            .sum()
    }
}

/// A duelist between steps: what the rules can still read of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Fighter {
    vigor: i64,
    exposed: bool,
    staggered: bool,
    bleeding: bool,
}

type State = [Fighter; 2];

/// What one turn does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Act {
    /// A staggered duelist loses its attack (rule 6).
    Skip,
    /// Rules 3 and 4: `damage` 0 is a miss.
    Attack {
        damage: i64,
        fumble: bool,
        critical: bool,
        deep: bool,
    },
}

/// How a fight stood after a step.
enum After {
    Going(State),
    Won(usize),
    Draw,
}

/// A layer of states with their weights (counts out of the layer's denominator).
type Layer = HashMap<State, BigUint>;

fn add(layer: &mut Layer, s: State, w: BigUint) {
    *layer.entry(s).or_insert_with(BigUint::zero) += w;
}

/// Rule 1: out at 0 vigor or less. The fight ends when at most one stands.
fn settle(s: State) -> After {
    match (s[0].vigor <= 0, s[1].vigor <= 0) {
        (false, false) => After::Going(s),
        (false, true) => After::Won(0),
        (true, false) => After::Won(1),
        (true, true) => After::Draw,
    }
}

/// The ending tallies, each a count out of `360000^r` for the round `r` it ended in.
struct Tally {
    wins: [Vec<BigUint>; 2],
    draw: Vec<BigUint>,
}

impl Duel {
    /// The 100 equally likely pairs of d10 faces of `i`'s attack on a foe exposed or not,
    /// grouped by what the attack does (rules 3 and 4).
    fn attacks(&self, i: usize, foe_exposed: bool) -> Vec<(Act, u32)> {
        let me = self.duelists[i];
        let foe = self.duelists[1 - i];
        let mut acts: Vec<(Act, u32)> = Vec::new();
        for a in 1..=10i64 {
            for b in 1..=10i64 {
                let doubles = a == b;
                let total = a + b + me.skill;
                let needed = if foe_exposed { 8 } else { 11 };
                let act = if total < needed {
                    Act::Attack {
                        damage: 0,
                        fumble: doubles,
                        critical: false,
                        deep: false,
                    }
                } else {
                    let damage = if total >= 15 { 3 } else { 2 };
                    Act::Attack {
                        damage: (damage - foe.armor).max(1),
                        fumble: false,
                        critical: doubles,
                        deep: total >= 18,
                    }
                };
                match acts.iter_mut().find(|(x, _)| *x == act) {
                    Some((_, n)) => *n += 1,
                    None => acts.push((act, 1)),
                }
            }
        }
        acts
    }

    /// What `i`'s turn may do from `s`, out of 100.
    fn turn(&self, s: &State, i: usize) -> Vec<(Act, u32)> {
        if s[i].staggered {
            vec![(Act::Skip, 100)]
        } else {
            self.attacks(i, s[1 - i].exposed)
        }
    }

    /// `i`'s own changes of its turn: its exposure ends as the turn starts (rule 5) and
    /// begins again on a fumble; a stagger is spent by the attack it takes (rule 6).
    fn own(f: &mut Fighter, act: Act) {
        f.exposed = matches!(act, Act::Attack { fumble: true, .. });
        if act == Act::Skip {
            f.staggered = false;
        }
    }

    /// A blow's changes to the foe (rules 4, 6 and 7), `was_staggered` the foe's stagger
    /// as the blow was struck (one already staggered is not staggered twice).
    fn struck(foe: &mut Fighter, act: Act, was_staggered: bool) {
        if let Act::Attack {
            damage,
            critical,
            deep,
            ..
        } = act
        {
            // A miss does 0 damage, and is neither critical nor deep.
            foe.vigor -= damage;
            if critical && !was_staggered {
                foe.staggered = true;
            }
            if deep {
                foe.bleeding = true;
            }
        }
    }

    /// `i` takes its turn alone.
    fn alone(s: &State, i: usize, act: Act) -> State {
        let mut t = *s;
        Self::own(&mut t[i], act);
        Self::struck(&mut t[1 - i], act, s[1 - i].staggered);
        t
    }

    /// Both strike at once (rule 2): each turn from `s`, both landing together.
    fn at_once(s: &State, acts: [Act; 2]) -> State {
        let mut t = *s;
        for i in 0..2 {
            Self::own(&mut t[i], acts[i]);
        }
        for i in 0..2 {
            Self::struck(&mut t[1 - i], acts[i], s[1 - i].staggered);
        }
        t
    }

    /// Rule 7, at each round's end: each bleeding duelist loses 1 vigor, both at once.
    fn bleed(s: &State) -> State {
        let mut t = *s;
        for f in &mut t {
            if f.bleeding {
                f.vigor -= 1;
            }
        }
        t
    }

    /// The exact odds, by rounds: each round's initiative (36 pairs of d6: 15 where the
    /// first is higher, 15 the second, 6 tied), then the turns in that order, or both at
    /// once, then the bleeding at the round's end.
    ///
    /// Each duelist must start standing (vigor 1 or more): the engine would end the fight
    /// before round 1, which this chain does not model.
    pub fn odds(&self) -> Odds {
        assert!(
            self.duelists.iter().all(|d| d.vigor > 0),
            "the duel oracle starts with both duelists standing"
        );
        let start = [0, 1].map(|i| Fighter {
            vigor: self.duelists[i].vigor,
            exposed: false,
            staggered: false,
            bleeding: false,
        });
        let limit = self.rounds as usize;
        let mut tally = Tally {
            wins: [
                vec![BigUint::zero(); limit + 1],
                vec![BigUint::zero(); limit + 1],
            ],
            draw: vec![BigUint::zero(); limit + 1],
        };
        let mut states = 1;
        let mut round: Layer = HashMap::from([(start, BigUint::one())]);
        for r in 1..=limit {
            if round.is_empty() {
                break;
            }
            // The first of two turns one after the other: who took it, and the state.
            let mut first: [Layer; 2] = [HashMap::new(), HashMap::new()];
            let mut turns: Layer = HashMap::new();
            let mut end = |after: After, w: BigUint, turns: &mut Layer| match after {
                After::Going(t) => add(turns, t, w),
                After::Won(i) => tally.wins[i][r] += w,
                After::Draw => tally.draw[r] += w,
            };
            for (s, w) in &round {
                for (i, layer) in first.iter_mut().enumerate() {
                    for (act, n) in self.turn(s, i) {
                        // 15 of the 36 initiative pairs put `i` first.
                        let w = w * 15u32 * n;
                        match settle(Self::alone(s, i, act)) {
                            After::Going(t) => add(layer, t, w),
                            // The foe's attack never made: all 100 of its faces.
                            ended => end(ended, w * 100u32, &mut turns),
                        }
                    }
                }
                let (a, b) = (self.turn(s, 0), self.turn(s, 1));
                for &(act_a, n_a) in &a {
                    for &(act_b, n_b) in &b {
                        let w = w * 6u32 * n_a * n_b;
                        end(settle(Self::at_once(s, [act_a, act_b])), w, &mut turns);
                    }
                }
            }
            for (i, layer) in first.iter().enumerate() {
                states += layer.len();
                let j = 1 - i;
                for (s, w) in layer {
                    for (act, n) in self.turn(s, j) {
                        end(settle(Self::alone(s, j, act)), w * n, &mut turns);
                    }
                }
            }
            states += turns.len();
            let mut next: Layer = HashMap::new();
            for (s, w) in turns {
                match settle(Self::bleed(&s)) {
                    After::Going(t) => add(&mut next, t, w),
                    After::Won(i) => tally.wins[i][r] += w,
                    After::Draw => tally.draw[r] += w,
                }
            }
            states += next.len();
            round = next;
        }
        // What is left stands at the limit: undecided, out of `360000^limit`.
        let undecided_count: BigUint = round.values().sum();
        let denominator = |r: usize| BigUint::from(360_000u32).pow(r as u32);
        let ratio =
            |n: &BigUint, r: usize| BigRational::new(n.clone().into(), denominator(r).into());
        let mut wins = [BigRational::zero(), BigRational::zero()];
        let mut draw = BigRational::zero();
        let mut rounds = vec![BigRational::zero(); limit + 1];
        for (r, in_round) in rounds.iter_mut().enumerate().skip(1) {
            for (won, by_round) in wins.iter_mut().zip(&tally.wins) {
                let p = ratio(&by_round[r], r);
                *won += &p;
                *in_round += p;
            }
            let p = ratio(&tally.draw[r], r);
            draw += &p;
            *in_round += p;
        }
        let undecided = ratio(&undecided_count, limit);
        rounds[limit] += &undecided;
        Odds {
            wins,
            draw,
            undecided,
            rounds,
            states,
        }
    }
}
