//! [`SortedMap`]: a `map<K, V>` keyed by anything but a scale or enum (numbers, booleans,
//! records of those), as generated code holds it. (A map keyed by a scale or enum is an
//! array, one value per key.)

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// The keys a map holds, in ascending order, each with its value. A key it does not hold
/// reads as `V`'s default, the rules' zero; writing a key adds it. Iterating visits the
/// keys in ascending order, as the interpreter does. A tree: adding a key costs a
/// logarithm wherever it falls (a sorted array moved every entry above it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortedMap<K, V> {
    entries: BTreeMap<K, V>,
    zero: V,
}

impl<K: Ord, V: Default> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            entries: BTreeMap::new(),
            zero: V::default(),
        }
    }
}

impl<K: Ord, V: Default> SortedMap<K, V> {
    /// The map holding `entries`; a key given twice keeps its last value.
    pub fn from_entries(entries: Vec<(K, V)>) -> Self {
        let mut m = SortedMap::default();
        for (k, v) in entries {
            *m.entry(k) = v;
        }
        m
    }

    /// The value of `key`, or the zero when the map does not hold it.
    #[inline]
    pub fn get(&self, key: &K) -> &V {
        self.entries.get(key).unwrap_or(&self.zero)
    }

    /// The value of `key` to change, added (as the zero) when the map does not hold it.
    #[inline]
    pub fn entry(&mut self, key: K) -> &mut V {
        self.entries.entry(key).or_default()
    }

    /// The keys held, ascending.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.keys()
    }

    /// The keys held with their values, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(feature = "serde")]
mod serial {
    use super::SortedMap;
    use alloc::vec::Vec;
    use serde::de::{self, Deserialize, Deserializer};
    use serde::ser::{Serialize, Serializer};

    /// One entry as serde reads and writes it: `{ "key": .., "value": .. }`.
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Entry<K, V> {
        key: K,
        value: V,
    }

    /// A list of `{ "key": .., "value": .. }`, ascending by key.
    impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.entries.iter().map(|(key, value)| Entry { key, value }))
        }
    }

    /// A key given twice is an error; keys may come in any order.
    impl<'de, K, V> Deserialize<'de> for SortedMap<K, V>
    where
        K: Ord + Deserialize<'de>,
        V: Default + Deserialize<'de>,
    {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let entries = Vec::<Entry<K, V>>::deserialize(d)?;
            let mut m: SortedMap<K, V> = SortedMap::default();
            for Entry { key, value } in entries {
                if m.entries.insert(key, value).is_some() {
                    return Err(de::Error::custom("a map key given twice"));
                }
            }
            Ok(m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_not_held_reads_zero_and_writing_adds_it_in_order() {
        let mut m: SortedMap<i64, i64> = SortedMap::default();
        assert_eq!(*m.get(&5), 0);
        assert!(m.is_empty());
        *m.entry(5) += 2;
        *m.entry(-1) = 7;
        *m.entry(3) = 0;
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), [-1, 3, 5]);
        assert_eq!((*m.get(&5), *m.get(&-1), *m.get(&4)), (2, 7, 0));
        let m2 = SortedMap::from_entries(alloc::vec![(5, 2), (3, 0), (-1, 7)]);
        assert_eq!(m, m2);
    }
}
