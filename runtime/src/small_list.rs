//! [`SmallList`]: a list of `Copy` values kept inline up to `N` items, on the heap past
//! them. Generated code builds the lists the rules compute (a comprehension, a formula
//! or procedure that returns a list of numbers, flags or names) in one, so a resolution
//! that only reads such a list allocates nothing; a list stored in a record stays a
//! `Vec`. It reads as a slice (`Deref<Target = [T]>`): `len`, `iter`, `contains`,
//! indexing, `to_vec`, and `Vec::from` owns it.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};

/// A list of `Copy` values, inline up to `N` items (no allocation), on the heap past
/// them. Reads as a `&[T]`; compares, hashes and prints as one.
#[derive(Clone)]
pub struct SmallList<T: Copy, const N: usize> {
    repr: Repr<T, N>,
}

#[derive(Clone)]
enum Repr<T: Copy, const N: usize> {
    /// The first `len` items are the list's (the array is filled with copies of the
    /// first item, so no item is ever uninitialised).
    Inline(usize, [T; N]),
    /// Empty (an empty `Vec` does not allocate), or past `N` items.
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> SmallList<T, N> {
    /// An empty list (no allocation).
    pub const fn new() -> Self {
        SmallList {
            repr: Repr::Heap(Vec::new()),
        }
    }

    /// A copy of `items`: inline when they fit.
    pub fn from_slice(items: &[T]) -> Self {
        match items.first() {
            Some(&first) if items.len() <= N => {
                let mut inline = [first; N];
                inline[..items.len()].copy_from_slice(items);
                SmallList {
                    repr: Repr::Inline(items.len(), inline),
                }
            }
            _ => SmallList {
                repr: Repr::Heap(items.to_vec()),
            },
        }
    }

    /// Appends `item`, moving the list to the heap when it outgrows `N`.
    pub fn push(&mut self, item: T) {
        match &mut self.repr {
            Repr::Heap(v) if v.is_empty() && v.capacity() == 0 && N > 0 => {
                self.repr = Repr::Inline(1, [item; N]);
            }
            Repr::Heap(v) => v.push(item),
            Repr::Inline(len, items) if *len < N => {
                items[*len] = item;
                *len += 1;
            }
            Repr::Inline(len, items) => {
                let mut v = Vec::with_capacity(2 * N);
                v.extend_from_slice(&items[..*len]);
                v.push(item);
                self.repr = Repr::Heap(v);
            }
        }
    }

    /// Whether the list is on the heap (it grew past `N` items).
    pub fn spilled(&self) -> bool {
        matches!(&self.repr, Repr::Heap(v) if v.capacity() > 0)
    }
}

impl<T: Copy, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> DerefMut for SmallList<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.repr {
            Repr::Inline(len, items) => &mut items[..*len],
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.repr {
            Repr::Inline(len, items) => &items[..*len],
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> AsRef<[T]> for SmallList<T, N> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for SmallList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = SmallList::new();
        for item in iter {
            list.push(item);
        }
        list
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a SmallList<T, N> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy, const N: usize> From<SmallList<T, N>> for Vec<T> {
    /// The list as a `Vec` (the heap's own when it spilled, else a copy).
    fn from(list: SmallList<T, N>) -> Vec<T> {
        match list.repr {
            Repr::Inline(len, items) => items[..len].to_vec(),
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> From<&[T]> for SmallList<T, N> {
    fn from(items: &[T]) -> Self {
        Self::from_slice(items)
    }
}

impl<T: Copy + PartialEq, const N: usize, const M: usize> PartialEq<SmallList<T, M>>
    for SmallList<T, N>
{
    fn eq(&self, other: &SmallList<T, M>) -> bool {
        self[..] == other[..]
    }
}

impl<T: Copy + Eq, const N: usize> Eq for SmallList<T, N> {}

impl<T: Copy + PartialEq, const N: usize> PartialEq<[T]> for SmallList<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self[..] == *other
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq<&[T]> for SmallList<T, N> {
    fn eq(&self, other: &&[T]) -> bool {
        self[..] == **other
    }
}

impl<T: Copy + PartialEq, const N: usize, const M: usize> PartialEq<[T; M]> for SmallList<T, N> {
    fn eq(&self, other: &[T; M]) -> bool {
        self[..] == other[..]
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq<Vec<T>> for SmallList<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self[..] == other[..]
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq<SmallList<T, N>> for Vec<T> {
    fn eq(&self, other: &SmallList<T, N>) -> bool {
        self[..] == other[..]
    }
}

impl<T: Copy + PartialOrd, const N: usize> PartialOrd for SmallList<T, N> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        self[..].partial_cmp(&other[..])
    }
}

/// Lists order as slices do: item by item, a prefix first.
impl<T: Copy + Ord, const N: usize> Ord for SmallList<T, N> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self[..].cmp(&other[..])
    }
}

impl<T: Copy + core::hash::Hash, const N: usize> core::hash::Hash for SmallList<T, N> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self[..].hash(state);
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for SmallList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::SmallList;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn up_to_n_items_stay_inline_past_them_the_list_spills_in_order() {
        let mut l = SmallList::<i64, 3>::new();
        assert!(l.is_empty() && !l.spilled());
        for i in 1..=3 {
            l.push(i);
        }
        assert_eq!(&l[..], &[1, 2, 3]);
        assert!(!l.spilled());
        l.push(4);
        assert!(l.spilled());
        assert_eq!(&l[..], &[1, 2, 3, 4]);
        assert_eq!(Vec::from(l), vec![1, 2, 3, 4]);
    }

    #[test]
    fn a_slice_copies_inline_when_it_fits_and_compares_as_a_slice() {
        let a = SmallList::<u8, 2>::from_slice(&[7, 8]);
        let b: SmallList<u8, 4> = [7u8, 8].iter().copied().collect();
        assert!(!a.spilled() && !b.spilled());
        assert_eq!(a, b);
        assert_eq!(a, vec![7, 8]);
        assert_eq!(vec![7, 8], a);
        assert_eq!(a, [7, 8]);
        assert_ne!(a, [7]);
        let shorter = SmallList::<u8, 2>::from_slice(&[7]);
        assert!(shorter < a && a < SmallList::from_slice(&[7, 9]));
        let long = SmallList::<u8, 2>::from_slice(&[1, 2, 3]);
        assert!(long.spilled());
        assert_eq!(long.len(), 3);
        assert_eq!(
            Vec::from(SmallList::<u8, 2>::from_slice(&[])),
            Vec::<u8>::new()
        );
        assert_eq!(alloc::format!("{a:?}"), "[7, 8]");
    }

    #[test]
    fn a_zero_capacity_list_lives_on_the_heap() {
        let mut l = SmallList::<i64, 0>::new();
        l.push(5);
        assert!(l.spilled());
        assert_eq!(&l[..], &[5]);
    }
}
