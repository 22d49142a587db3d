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
}

/// Iterator over the filled boxes of a [`Track`] (1-based numbers, lowest first).
#[derive(Debug, Clone, Copy)]
pub struct Boxes {
    rest: u64,
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
}
