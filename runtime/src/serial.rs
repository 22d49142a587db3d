//! Serde support (the `serde` feature): how the runtime's own types read and write, and
//! the helpers generated code names when it is built with `Builder::serde(true)`.
//!
//! - [`DiceSpec`] is a string in the rules' own notation: `"d12!"`, `"2d6"`, `"4d6kh3"`.
//! - [`Track`] is the list of its filled box numbers, lowest first: `[1, 3]`.
//! - A `map<K, V>` field (a `[V; N]` indexed by the scale or enum `K`) is a map from
//!   `K`'s names to values: `{ "ArmedCombat": 2 }`; a key left out holds `V`'s default
//!   (the rules' zero), a key given twice is an error ([`Map`]).
//!
//! Generated types name these through `::rulesc_runtime::serde` (the re-exported crate),
//! so a crate that links generated code needs no `serde` dependency of its own.

use crate::dice::{DiceSpec, Keep, MAX_DICE, MAX_SIDES};
use crate::track::{Track, MAX_BOXES};
use alloc::format;
use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

impl Serialize for DiceSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        parse_dice(&text).map_err(de::Error::custom)
    }
}

/// Parses the notation `DiceSpec` displays: `[N]dM[khK|klK][!]` (`!` may also come
/// before the keep), within the runtime's limits.
pub fn parse_dice(text: &str) -> Result<DiceSpec, String> {
    let bad = || format!("`{text}` is not dice (write it as `d12`, `2d6!` or `4d6kh3`)");
    let (count, rest) = text.trim().split_once('d').ok_or_else(bad)?;
    let count: u32 = if count.is_empty() {
        1
    } else {
        count.parse().map_err(|_| bad())?
    };
    let mut rest = rest;
    let mut explode = false;
    if let Some(r) = rest.strip_suffix('!') {
        explode = true;
        rest = r;
    }
    let (sides, keep) = match rest.find('k') {
        None => (rest, Keep::All),
        Some(i) => {
            let (sides, k) = rest.split_at(i);
            let (k, explode_mid) = match k.strip_suffix('!') {
                Some(k) => (k, true),
                None => (k, false),
            };
            explode |= explode_mid;
            let keep = if let Some(n) = k.strip_prefix("kh") {
                Keep::Highest(n.parse().map_err(|_| bad())?)
            } else if let Some(n) = k.strip_prefix("kl") {
                Keep::Lowest(n.parse().map_err(|_| bad())?)
            } else {
                return Err(bad());
            };
            (sides, keep)
        }
    };
    let sides: u32 = sides.parse().map_err(|_| bad())?;
    if i64::from(count) > MAX_DICE || sides == 0 || i64::from(sides) > MAX_SIDES {
        return Err(format!(
            "`{text}`: at most {MAX_DICE} dice of 1 to {MAX_SIDES} sides"
        ));
    }
    Ok(DiceSpec {
        count,
        sides,
        explode,
        keep,
    })
}

impl Serialize for Track {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.boxes().count()))?;
        for b in self.boxes() {
            seq.serialize_element(&b)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Track {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        TrackOf::<MAX_BOXES>::deserialize(d)
    }
}

/// A track of `N` boxes: its filled box numbers must be in `1..=N`, each once. Generated
/// records read their track fields through `TrackOf::<N>::deserialize`.
pub struct TrackOf<const N: usize>;

impl<const N: usize> TrackOf<N> {
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Track, D::Error> {
        d.deserialize_seq(TrackVisitor::<N>)
    }
}

struct TrackVisitor<const N: usize>;

impl<'de, const N: usize> Visitor<'de> for TrackVisitor<N> {
    type Value = Track;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "the filled box numbers of a track of {N} boxes")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Track, A::Error> {
        let mut t = Track::default();
        while let Some(b) = seq.next_element::<u64>()? {
            if b == 0 || b > N.min(MAX_BOXES) as u64 {
                return Err(de::Error::custom(format!(
                    "box {b} is not on a track of {N} boxes (boxes are numbered from 1)"
                )));
            }
            if t.is_filled(b as usize) {
                return Err(de::Error::custom(format!("box {b} is listed twice")));
            }
            t.filled |= 1 << (b - 1);
        }
        Ok(t)
    }
}

/// A scale or enum that keys `map<K, V>` fields: generated enums implement it when built
/// with serde.
pub trait MapKey: Copy + 'static {
    /// Every value, in order: `ALL[k.index()] == k`.
    const ALL: &'static [Self];
    fn index(self) -> usize;
}

/// Reads and writes a `map<K, V>` field (`[V; N]`, indexed by `K`) as a map from `K`'s
/// names: `#[serde(serialize_with = "Map::<K>::serialize", deserialize_with = "Map::<K>::deserialize")]`.
pub struct Map<K>(PhantomData<K>);

impl<K: MapKey + Serialize> Map<K> {
    pub fn serialize<V: Serialize, S: Serializer, const N: usize>(
        values: &[V; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(K::ALL.iter().zip(values.iter()))
    }
}

impl<'de, K: MapKey + Deserialize<'de>> Map<K> {
    pub fn deserialize<V, D, const N: usize>(d: D) -> Result<[V; N], D::Error>
    where
        V: Deserialize<'de> + Default,
        D: Deserializer<'de>,
    {
        d.deserialize_map(MapVisitor::<K, V, N>(PhantomData))
    }
}

struct MapVisitor<K, V, const N: usize>(PhantomData<(K, V)>);

impl<'de, K, V, const N: usize> Visitor<'de> for MapVisitor<K, V, N>
where
    K: MapKey + Deserialize<'de>,
    V: Deserialize<'de> + Default,
{
    type Value = [V; N];

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map whose keys are the names of a scale or enum")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<[V; N], A::Error> {
        let mut out: [V; N] = core::array::from_fn(|_| V::default());
        let mut seen = [false; N];
        while let Some(k) = map.next_key::<K>()? {
            let i = k.index();
            if i >= N {
                return Err(de::Error::custom("a map key out of range"));
            }
            if seen[i] {
                return Err(de::Error::custom("a map key given twice"));
            }
            seen[i] = true;
            out[i] = map.next_value()?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn dice_notation_round_trips() {
        for text in [
            "d12",
            "d12!",
            "2d6",
            "4d6kh3",
            "2d20kl1",
            "3d10kh2!",
            "1000d1000000",
        ] {
            let d = parse_dice(text).unwrap();
            assert_eq!(d.to_string(), text);
        }
        assert_eq!(parse_dice("1d12").unwrap(), DiceSpec::new(1, 12));
        for bad in [
            "", "d", "12", "2d0", "1001d6", "d1000001", "2d6kx1", "xd6", "2d6kh",
        ] {
            assert!(parse_dice(bad).is_err(), "{bad}");
        }
    }
}
