//! The exact distribution of one roll: every distinct roll it can give (total and natural
//! first face) with its weight, computed the way icepool does rather than by walking
//! faces: sums by convolution, keep-highest/lowest by order statistics, exploding dice as
//! chains cut at a stated depth. The semantics are the runtime's [`rulesc_runtime::roll`]
//! (and the tests hold the two together face by face).

use super::exact::{Mass, W};
use num_bigint::BigInt;
#[cfg(test)]
use num_bigint::BigUint;
use num_traits::One;
#[cfg(test)]
use num_traits::Zero;
use rulesc_runtime::dice::{MAX_DICE, MAX_EXPLOSIONS, MAX_KEPT, MAX_SIDES};
#[cfg(test)]
use rulesc_runtime::DiceSource;
use rulesc_runtime::{DiceSpec, Keep, NoTrace, PathDice, Roll};
use std::collections::HashMap;

/// The distinct outcomes of one roll, with weights over `den`: the entries and the cut
/// weight add up to `den` exactly.
#[derive(Debug, Clone)]
pub struct RollDist {
    /// (roll, dice it drew, weight). Dice drawn are counted only under [`Bound::Dice`].
    pub entries: Vec<(Roll, u32, W)>,
    /// The weight of rolls cut off (an exploding chain past the depth, or past the dice
    /// left on the path).
    pub cut: W,
    pub den: W,
}

/// How a roll's dice are bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Each exploding die explodes at most this many times; at the runtime's own cap
    /// (`MAX_EXPLOSIONS`) the chain simply stops, as in play, and nothing is cut.
    Depth(u32),
    /// At most this many dice in this roll (what is left of a path's budget, as the path
    /// walker counts): the roll's faces are walked one by one, so keep this for small
    /// rolls.
    Dice(u32),
}

/// The roll is too large to tabulate within the state limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

/// The distribution of rolling `spec`. With `natural` false, every entry's natural face
/// is 0 (for rolls whose natural face nothing reads, so that equal totals merge).
/// `max_entries` bounds the work: a roll with more distinct outcomes than that (or
/// intermediate tables that large) is [`TooLarge`].
pub fn roll_dist(
    spec: DiceSpec,
    bound: Bound,
    natural: bool,
    max_entries: usize,
) -> Result<RollDist, TooLarge> {
    let n = spec.count.min(MAX_DICE as u32);
    let s = spec.sides.min(MAX_SIDES as u32);
    if n == 0 || s == 0 {
        return Ok(RollDist {
            entries: vec![(
                Roll {
                    total: 0,
                    natural: 0,
                },
                0,
                W::one(),
            )],
            cut: W::zero(),
            den: W::one(),
        });
    }
    let spec = DiceSpec {
        count: n,
        sides: s,
        ..spec
    };
    let mut d = match bound {
        // Without explosions a roll always draws its count of dice: the budget cuts all
        // of it or none.
        Bound::Dice(left) if !spec.explode || s == 1 => {
            if n > left {
                RollDist {
                    entries: Vec::new(),
                    cut: W::one(),
                    den: W::one(),
                }
            } else {
                let mut d = convolved(spec, 0, natural, max_entries)?;
                d.entries.iter_mut().for_each(|e| e.1 = n);
                d
            }
        }
        Bound::Dice(left) => by_faces(spec, left, max_entries)?,
        Bound::Depth(depth) => convolved(spec, depth.min(MAX_EXPLOSIONS), natural, max_entries)?,
    };
    if !natural {
        d = forget_natural(d);
    }
    Ok(d)
}

fn forget_natural(d: RollDist) -> RollDist {
    let mut merged: HashMap<(i64, u32), W> = HashMap::new();
    let mut order = Vec::new();
    for (r, used, w) in d.entries {
        let key = (r.total, used);
        merged
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                W::zero()
            })
            .add(&w);
    }
    let entries = order
        .into_iter()
        .map(|k| {
            let w = merged.remove(&k).unwrap_or_default();
            (
                Roll {
                    total: k.0,
                    natural: 0,
                },
                k.1,
                w,
            )
        })
        .collect();
    RollDist { entries, ..d }
}

/// Walks every face path of `spec` through the runtime's own `roll`, at most `left` dice
/// deep: exact by construction, and costly (one run per face path).
fn by_faces(spec: DiceSpec, left: u32, max_entries: usize) -> Result<RollDist, TooLarge> {
    let mut dice = PathDice::new(left as usize);
    let mut masses: HashMap<(i64, i64, u32), Mass> = HashMap::new();
    let mut order = Vec::new();
    let mut cut = Mass::default();
    let mut paths = 0usize;
    loop {
        dice.start();
        let r = rulesc_runtime::roll(&mut dice, spec, &mut NoTrace, 0);
        if dice.cut() {
            cut.add(dice.sides());
        } else {
            let key = (r.total, r.natural, dice.drawn() as u32);
            masses
                .entry(key)
                .or_insert_with(|| {
                    order.push(key);
                    Mass::default()
                })
                .add(dice.sides());
        }
        paths += 1;
        if paths > max_entries.saturating_mul(64) {
            return Err(TooLarge);
        }
        if !dice.advance() {
            break;
        }
    }
    // One common denominator: the lcm of the paths' probabilities' denominators.
    let probs: Vec<_> = order
        .iter()
        .map(|k| masses.get(k).map(Mass::value).unwrap_or_default())
        .collect();
    let cut = cut.value();
    let den = probs
        .iter()
        .chain(std::iter::once(&cut))
        .fold(BigInt::one(), |l, p| {
            num_integer::Integer::lcm(&l, p.denom())
        });
    let weight = |p: &super::exact::Prob| {
        let n = p.numer() * (&den / p.denom());
        W::Big(n.to_biguint().expect("a probability is not negative"))
    };
    let entries = order
        .iter()
        .zip(&probs)
        .map(|(&(total, natural, used), p)| (Roll { total, natural }, used, weight(p)))
        .collect();
    Ok(RollDist {
        entries,
        cut: weight(&cut),
        den: W::Big(den.to_biguint().expect("a common denominator is positive")),
    })
}

/// One die: each outcome's (value, first face, weight) over `s^m`, `m` the longest chain,
/// and the weight of the chain cut at the depth.
fn one_die(s: u32, explode: bool, depth: u32) -> (Vec<(i64, u32, W)>, W, W) {
    let sw = W::Small(u128::from(s));
    if !explode || s == 1 {
        let faces = (1..=s).map(|f| (i64::from(f), f, W::one())).collect();
        return (faces, W::zero(), sw);
    }
    let m = depth + 1;
    let pow = |e: u32| (0..e).fold(W::one(), |acc, _| acc.mul(&sw));
    let mut out = Vec::new();
    let mut cut = W::zero();
    for j in 1..=m {
        let base = i64::from(j - 1) * i64::from(s);
        let w = pow(m - j);
        let first = |r: u32| if j == 1 { r } else { s };
        for r in 1..s {
            out.push((base + i64::from(r), first(r), w.clone()));
        }
        if j == m {
            if depth >= MAX_EXPLOSIONS {
                // The runtime stops the chain here: the last highest face just counts.
                out.push((base + i64::from(s), first(s), W::one()));
            } else {
                cut = W::one();
            }
        }
    }
    (out, cut, pow(m))
}

/// A distribution of sums as a dense table from `lo`.
#[derive(Debug, Clone)]
struct Dense {
    lo: i64,
    w: Vec<W>,
}

impl Dense {
    fn point(v: i64) -> Dense {
        Dense {
            lo: v,
            w: vec![W::one()],
        }
    }

    /// The distribution of `self + x`, `x` distributed as `die` (value, weight).
    fn plus(&self, die: &[(i64, W)], max_entries: usize) -> Result<Dense, TooLarge> {
        let dlo = die.iter().map(|d| d.0).min().unwrap_or(0);
        let dhi = die.iter().map(|d| d.0).max().unwrap_or(0);
        let len = self.w.len() + (dhi - dlo) as usize;
        if len > max_entries {
            return Err(TooLarge);
        }
        let mut w = vec![W::zero(); len];
        for (i, a) in self.w.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (v, b) in die {
                w[i + (v - dlo) as usize].add(&a.mul(b));
            }
        }
        Ok(Dense {
            lo: self.lo + dlo,
            w,
        })
    }

    fn entries(&self) -> impl Iterator<Item = (i64, &W)> {
        self.w
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(move |(i, w)| (self.lo + i as i64, w))
    }
}

fn convolved(
    spec: DiceSpec,
    depth: u32,
    natural: bool,
    max_entries: usize,
) -> Result<RollDist, TooLarge> {
    let (n, s) = (spec.count, spec.sides);
    let (die, _, die_den) = one_die(s, spec.explode, depth);
    let max_value = die.iter().map(|d| d.0).max().unwrap_or(0);
    if (max_value as u128).saturating_mul(u128::from(n)) > max_entries as u128 * 4 {
        return Err(TooLarge);
    }
    let den = (0..n).fold(W::one(), |acc, _| acc.mul(&die_den));
    let keep = match spec.keep {
        Keep::All => None,
        Keep::Highest(k) => Some((k.min(MAX_KEPT), true)),
        Keep::Lowest(k) => Some((k.min(MAX_KEPT), false)),
    };
    let mut entries: Vec<(Roll, u32, W)> = Vec::new();
    match keep {
        Some((k, highest)) if k < n => {
            let values = merge_values(die.iter().map(|(v, _, w)| (*v, w.clone())));
            if natural {
                // Each first die in turn, pinned; the other n-1 dice around it.
                let mut by_natural: Vec<(u32, HashMap<i64, W>)> = Vec::new();
                for (v1, f1, w1) in &die {
                    let kept =
                        order_statistics(&values, n - 1, k, highest, Some(*v1), max_entries)?;
                    let slot = match by_natural.iter().position(|(f, _)| f == f1) {
                        Some(i) => i,
                        None => {
                            by_natural.push((*f1, HashMap::new()));
                            by_natural.len() - 1
                        }
                    };
                    for (t, w) in kept {
                        by_natural[slot].1.entry(t).or_default().add(&w.mul(w1));
                    }
                }
                for (f, totals) in by_natural {
                    let mut totals: Vec<_> = totals.into_iter().collect();
                    totals.sort_by_key(|(t, _)| *t);
                    for (t, w) in totals {
                        entries.push((
                            Roll {
                                total: t,
                                natural: i64::from(f),
                            },
                            0,
                            w,
                        ));
                    }
                }
            } else {
                let kept = order_statistics(&values, n, k, highest, None, max_entries)?;
                let mut kept: Vec<_> = kept.into_iter().collect();
                kept.sort_by_key(|(t, _)| *t);
                for (t, w) in kept {
                    entries.push((
                        Roll {
                            total: t,
                            natural: 0,
                        },
                        0,
                        w,
                    ));
                }
            }
        }
        _ => {
            let plain: Vec<(i64, W)> = die.iter().map(|(v, _, w)| (*v, w.clone())).collect();
            let mut rest = Dense::point(0);
            for _ in 1..n {
                rest = rest.plus(&plain, max_entries)?;
            }
            if natural {
                for f in 1..=s {
                    let first: Vec<(i64, W)> = die
                        .iter()
                        .filter(|d| d.1 == f)
                        .map(|(v, _, w)| (*v, w.clone()))
                        .collect();
                    let sums = rest.plus(&first, max_entries)?;
                    for (t, w) in sums.entries() {
                        entries.push((
                            Roll {
                                total: t,
                                natural: i64::from(f),
                            },
                            0,
                            w.clone(),
                        ));
                    }
                }
            } else {
                let sums = rest.plus(&plain, max_entries)?;
                for (t, w) in sums.entries() {
                    entries.push((
                        Roll {
                            total: t,
                            natural: 0,
                        },
                        0,
                        w.clone(),
                    ));
                }
            }
        }
    }
    if entries.len() > max_entries {
        return Err(TooLarge);
    }
    let total = entries.iter().fold(W::zero(), |mut a, (_, _, w)| {
        a.add(w);
        a
    });
    Ok(RollDist {
        cut: den.sub(&total),
        entries,
        den,
    })
}

fn merge_values(items: impl Iterator<Item = (i64, W)>) -> Vec<(i64, W)> {
    let mut m: HashMap<i64, W> = HashMap::new();
    for (v, w) in items {
        m.entry(v).or_default().add(&w);
    }
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by_key(|(v, _)| *v);
    v
}

/// The distribution of the sum of the best `k` of `n` dice (plus, with `pinned`, one more
/// die fixed at that value, so `n + 1` dice in all), each die distributed as `values`
/// (sorted by value, weights over the die's denominator): dynamic programming over the
/// values from best to worst, placing how many dice show each (icepool's approach), so
/// the cost grows with values x dice x sums, not with the number of face paths.
fn order_statistics(
    values: &[(i64, W)],
    n: u32,
    k: u32,
    highest: bool,
    pinned: Option<i64>,
    max_entries: usize,
) -> Result<HashMap<i64, W>, TooLarge> {
    let n = n as usize;
    let k = k as usize;
    let binom = binomials(n);
    // states[c]: placed c of the n free dice; map kept sum -> weight.
    let mut states: Vec<HashMap<i64, W>> = vec![HashMap::new(); n + 1];
    states[0].insert(0, W::one());
    let mut pinned_placed = false;
    let order: Vec<&(i64, W)> = if highest {
        values.iter().rev().collect()
    } else {
        values.iter().collect()
    };
    for (v, w) in order {
        let pin = usize::from(pinned == Some(*v));
        let mut powers = vec![W::one()];
        for j in 1..=n {
            let next = powers[j - 1].mul(w);
            powers.push(next);
        }
        let mut next: Vec<HashMap<i64, W>> = vec![HashMap::new(); n + 1];
        for (c, row) in states.iter().enumerate() {
            let all_before = c + usize::from(pinned_placed);
            let room = k.saturating_sub(all_before);
            for (t, wt) in row {
                for j in 0..=(n - c) {
                    let kept = (j + pin).min(room) as i64;
                    let weight = wt.mul(&binom[n - c][j]).mul(&powers[j]);
                    next[c + j].entry(t + kept * v).or_default().add(&weight);
                }
            }
        }
        if pin == 1 {
            pinned_placed = true;
        }
        states = next;
        if states.iter().map(HashMap::len).sum::<usize>() > max_entries {
            return Err(TooLarge);
        }
    }
    Ok(std::mem::take(&mut states[n]))
}

/// Rows `0..=n` of Pascal's triangle.
fn binomials(n: usize) -> Vec<Vec<W>> {
    let mut rows: Vec<Vec<W>> = vec![vec![W::one()]];
    for i in 1..=n {
        let prev = &rows[i - 1];
        let mut row = vec![W::one(); i + 1];
        for j in 1..i {
            let mut x = prev[j - 1].clone();
            x.add(&prev[j]);
            row[j] = x;
        }
        rows.push(row);
    }
    rows
}

/// The exact probability of one roll outcome (tests and views).
pub fn probability(d: &RollDist, total: i64, natural: Option<i64>) -> super::exact::Prob {
    let w = d
        .entries
        .iter()
        .filter(|(r, _, _)| r.total == total && natural.is_none_or(|n| r.natural == n))
        .fold(W::zero(), |mut a, (_, _, w)| {
            a.add(w);
            a
        });
    w.over(&d.den)
}

/// A dice source for the tests: walks every face path, cutting a path whose exploding
/// chain would explode more than `depth` times (what [`Bound::Depth`] cuts).
#[cfg(test)]
struct DepthPaths {
    path: PathDice,
    sides: u32,
    run: u32,
    depth: u32,
    cut: bool,
}

#[cfg(test)]
impl DiceSource for DepthPaths {
    fn face(&mut self, sides: u32) -> u32 {
        if self.run > self.depth {
            self.cut = true;
        }
        if self.cut {
            // The rest of a cut path does not branch.
            return 1;
        }
        let f = self.path.face(sides);
        self.run = if f == self.sides { self.run + 1 } else { 0 };
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::exact::Prob;

    fn p(n: u64, d: u64) -> Prob {
        Prob::new(n.into(), d.into())
    }

    fn exact(spec: DiceSpec, natural: bool) -> RollDist {
        roll_dist(spec, Bound::Depth(MAX_EXPLOSIONS), natural, 1 << 20).unwrap()
    }

    #[test]
    fn three_d6_totals_ten_in_27_of_216() {
        let d = exact(DiceSpec::new(3, 6), false);
        assert_eq!(probability(&d, 10, None), p(27, 216));
        assert_eq!(probability(&d, 3, None), p(1, 216));
        assert_eq!(probability(&d, 18, None), p(1, 216));
        assert_eq!(d.entries.len(), 16);
        assert!(d.cut.is_zero());
    }

    #[test]
    fn four_d6_keep_highest_three_matches_the_closed_form() {
        // The classic ability-score distribution: counts out of 1296 for totals 3..18.
        let counts = [
            1, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21,
        ];
        let spec = DiceSpec {
            keep: Keep::Highest(3),
            ..DiceSpec::new(4, 6)
        };
        let d = exact(spec, false);
        for (t, c) in (3..=18).zip(counts) {
            assert_eq!(probability(&d, t, None), p(c, 1296), "total {t}");
        }
        assert_eq!(d.entries.len(), 16);
    }

    /// Every face path of `spec` through the runtime's `roll` (exploding chains cut past
    /// `depth` explosions): the distribution by brute force.
    fn brute(spec: DiceSpec, depth: u32) -> (HashMap<(i64, i64), Prob>, Prob) {
        let explodes = spec.explode && spec.sides > 1;
        let mut src = DepthPaths {
            path: PathDice::new(64),
            sides: spec.sides,
            run: 0,
            depth: if explodes { depth } else { u32::MAX },
            cut: false,
        };
        let mut out: HashMap<(i64, i64), Prob> = HashMap::new();
        let mut cut = Prob::zero();
        loop {
            src.path.start();
            src.run = 0;
            src.cut = false;
            let r = rulesc_runtime::roll(&mut src, spec, &mut NoTrace, 0);
            let prob = src
                .path
                .sides()
                .fold(Prob::one(), |a, s| a / Prob::from_integer(s.into()));
            if src.cut {
                cut += prob;
            } else {
                *out.entry((r.total, r.natural)).or_insert_with(Prob::zero) += prob;
            }
            if !src.path.advance() {
                return (out, cut);
            }
        }
    }

    #[test]
    fn convolution_and_order_statistics_agree_with_the_runtime_face_by_face() {
        let mut specs = Vec::new();
        for count in 1..=3 {
            for sides in [1, 2, 3, 4] {
                for explode in [false, true] {
                    for keep in [
                        Keep::All,
                        Keep::Highest(1),
                        Keep::Highest(2),
                        Keep::Lowest(1),
                        Keep::Highest(0),
                    ] {
                        specs.push(DiceSpec {
                            count,
                            sides,
                            explode,
                            keep,
                        });
                    }
                }
            }
        }
        for spec in specs {
            for depth in [0, 1, 2] {
                let d = roll_dist(spec, Bound::Depth(depth), true, 1 << 20).unwrap();
                let (want, want_cut) = brute(spec, depth);
                let mut got: HashMap<(i64, i64), Prob> = HashMap::new();
                for (r, _, w) in &d.entries {
                    *got.entry((r.total, r.natural)).or_insert_with(Prob::zero) += w.over(&d.den);
                }
                got.retain(|_, p| !p.is_zero());
                assert_eq!(got, want, "{spec} depth {depth}");
                assert_eq!(d.cut.over(&d.den), want_cut, "{spec} depth {depth}: cut");
            }
        }
    }

    #[test]
    fn the_dice_budget_walks_faces_like_the_path_walker() {
        let spec = DiceSpec {
            explode: true,
            ..DiceSpec::new(2, 4)
        };
        let d = roll_dist(spec, Bound::Dice(3), true, 1 << 20).unwrap();
        let total = d.entries.iter().fold(d.cut.clone(), |mut a, (_, _, w)| {
            a.add(w);
            a
        });
        assert_eq!(total, d.den);
        // Cut where a fourth die would be needed: the first die shows 4 twice (1/16); it
        // shows 4 then 1-3 and the second die 4 (3/64); 1-3, then 4 and 4 (3/64).
        assert_eq!(d.cut.over(&d.den), p(1, 16) + p(3, 64) + p(3, 64));
        // 9 with a natural 4: 4 + g, then f, with g + f = 5 and both in 1..3: two paths.
        assert_eq!(probability(&d, 9, Some(4)), p(2, 64));
    }

    #[test]
    fn forty_d12_is_exact_past_128_bits() {
        let d = exact(DiceSpec::new(40, 12), false);
        let den = BigUint::from(12u32).pow(40);
        assert!(den > BigUint::from(u128::MAX));
        assert_eq!(
            probability(&d, 40, None),
            Prob::new(1.into(), den.clone().into())
        );
        // 41: one die shows 2, in 40 ways.
        assert_eq!(probability(&d, 41, None), Prob::new(40.into(), den.into()));
        let sum = d.entries.iter().fold(W::zero(), |mut a, (_, _, w)| {
            a.add(w);
            a
        });
        assert_eq!(sum, d.den);
    }

    #[test]
    fn rolls_too_large_to_tabulate_are_refused() {
        assert_eq!(
            roll_dist(
                DiceSpec::new(1000, 1_000_000),
                Bound::Depth(9),
                false,
                1 << 20
            )
            .unwrap_err(),
            TooLarge
        );
    }
}
