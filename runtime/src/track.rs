//! A track: a row of boxes filled from the lowest (wound boxes). The filled boxes are a
//! bit set, so a track is `Copy` and filling one allocates nothing. The boxes' levels and
//! attributes live in the ruleset (generated tables or the interpreter's program).

/// Most boxes one track may have.
pub const MAX_BOXES: usize = 64;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Track {
    pub filled: u64,
}

impl Track {
    /// A track with the given 1-based boxes filled (numbers out of range are ignored).
    pub fn with_filled(boxes: &[i64]) -> Self {
        let mut t = Track::default();
        for &b in boxes {
            if (1..=MAX_BOXES as i64).contains(&b) {
                t.filled |= 1 << (b - 1);
            }
        }
        t
    }

    pub fn is_filled(&self, number: usize) -> bool {
        (1..=MAX_BOXES).contains(&number) && self.filled & (1 << (number - 1)) != 0
    }

    /// Fills the lowest empty box whose level is `level` (`levels[i]` is box `i + 1`'s
    /// level). If every box of that level is filled and `escalate` is set, tries the next
    /// level up, and so on. Returns the 1-based box filled and its level, or `None` when
    /// nothing could be filled.
    pub fn fill(&mut self, levels: &[u8], level: u8, escalate: bool) -> Option<(usize, u8)> {
        let top = levels.iter().copied().max()?;
        let mut want = level;
        loop {
            for (i, &l) in levels.iter().enumerate().take(MAX_BOXES) {
                if l == want && self.filled & (1 << i) == 0 {
                    self.filled |= 1 << i;
                    return Some((i + 1, want));
                }
            }
            if !escalate || want >= top {
                return None;
            }
            want += 1;
        }
    }

    /// The filled box numbers, lowest first. Walks the set bits only, so a track with
    /// two filled boxes costs two steps, not sixty-four.
    pub fn boxes(&self) -> Boxes {
        Boxes { rest: self.filled }
    }

    /// The filled boxes numbered `1..=n` (a track of `n` boxes), lowest first: the
    /// bits above box `n` are masked off once, not compared box by box.
    #[inline]
    pub fn boxes_to(&self, n: usize) -> Boxes {
        let mask = if n >= MAX_BOXES {
            u64::MAX
        } else {
            (1u64 << n) - 1
        };
        Boxes {
            rest: self.filled & mask,
        }
    }
}

/// Iterator over the filled boxes of a [`Track`] (1-based numbers, lowest first).
#[derive(Debug, Clone, Copy)]
pub struct Boxes {
    rest: u64,
}

impl Boxes {
    /// The boxes left, as a set of bits (box `n` is bit `n - 1`): an interpreter keeps a
    /// walk over them in an integer register.
    #[inline]
    pub fn bits(self) -> u64 {
        self.rest
    }

    /// The boxes of a set of bits made by [`Self::bits`].
    #[inline]
    pub fn from_bits(bits: u64) -> Boxes {
        Boxes { rest: bits }
    }

    /// Box `number` alone, if it is among these: at most one box, found by its bit
    /// rather than by walking the others (`filled(t) if box.number == n`).
    #[inline]
    pub fn only(self, number: i64) -> Boxes {
        let bit = if (1..=MAX_BOXES as i64).contains(&number) {
            1u64 << (number - 1)
        } else {
            0
        };
        Boxes {
            rest: self.rest & bit,
        }
    }
}

impl Iterator for Boxes {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.rest == 0 {
            return None;
        }
        let bit = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        Some(bit + 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.count_ones() as usize;
        (n, Some(n))
    }

    #[inline]
    fn count(self) -> usize {
        self.rest.count_ones() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn fills_the_lowest_empty_box_of_the_level_then_escalates() {
        let levels = [1, 1, 2, 3];
        let mut t = Track::default();
        assert_eq!(t.fill(&levels, 1, true), Some((1, 1)));
        assert_eq!(t.fill(&levels, 1, true), Some((2, 1)));
        assert_eq!(t.fill(&levels, 1, true), Some((3, 2)));
        assert_eq!(t.fill(&levels, 2, false), None);
        assert_eq!(t.fill(&levels, 3, true), Some((4, 3)));
        assert_eq!(t.fill(&levels, 3, true), None);
        assert_eq!(t.boxes().collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }

    #[test]
    fn boxes_to_n_are_the_filled_boxes_numbered_up_to_n() {
        let t = Track::with_filled(&[1, 3, 12, 13, 64]);
        assert_eq!(t.boxes_to(12).collect::<Vec<_>>(), vec![1, 3, 12]);
        assert_eq!(t.boxes_to(12).count(), 3);
        assert_eq!(t.boxes_to(13).collect::<Vec<_>>(), vec![1, 3, 12, 13]);
        assert_eq!(t.boxes_to(0).count(), 0);
        assert_eq!(t.boxes_to(63).count(), 4);
        assert_eq!(t.boxes_to(64).collect::<Vec<_>>(), vec![1, 3, 12, 13, 64]);
        assert_eq!(t.boxes_to(100).count(), 5);
        for n in 0..=70 {
            let filtered: Vec<usize> = t.boxes().filter(|&b| b <= n).collect();
            assert_eq!(t.boxes_to(n).collect::<Vec<_>>(), filtered, "n = {n}");
        }
    }

    #[test]
    fn only_keeps_the_one_numbered_box_if_it_is_there() {
        let t = Track::with_filled(&[1, 3, 12, 13, 64]);
        for number in [i64::MIN, -1, 0, 1, 2, 3, 12, 13, 14, 64, 65, i64::MAX] {
            let filtered: Vec<usize> = t.boxes_to(12).filter(|&b| b as i64 == number).collect();
            let only: Vec<usize> = t.boxes_to(12).only(number).collect();
            assert_eq!(only, filtered, "box {number}");
        }
        assert_eq!(t.boxes().only(64).collect::<Vec<_>>(), vec![64]);
    }
}
