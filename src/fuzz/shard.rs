//! A campaign's seeds, and the disjoint parts it splits into: `--shard K/N`
//! runs the K-th of N contiguous parts of the range, as near equal in size
//! as whole seeds allow. A seed's run depends on the seed alone, so a part
//! prints for each of its seeds what the whole campaign prints for it.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A campaign: `seeds` seeds from `start`, each run for `duration_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Campaign {
    pub start: u64,
    pub seeds: u64,
    pub duration_ms: u64,
}

impl Campaign {
    /// Every seed of the campaign (ending at the top of u64 at most).
    pub fn range(&self) -> Range<u64> {
        self.start..self.start.saturating_add(self.seeds)
    }

    /// The seeds of `shard`, or of the whole campaign.
    pub fn seeds_of(&self, shard: Option<Shard>) -> Range<u64> {
        let all = self.range();
        let Some(s) = shard else { return all };
        let len = u128::from(all.end - all.start);
        let at = |k: u64| all.start + (len * u128::from(k) / u128::from(s.of)) as u64;
        at(s.index - 1)..at(s.index)
    }
}

/// The K-th of N parts, `K/N`, 1 <= K <= N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s:?} is not K/N, the K-th of N parts (like 2/8)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, of) = (
            k.parse::<u64>().map_err(|_| bad())?,
            n.parse::<u64>().map_err(|_| bad())?,
        );
        if of == 0 || index == 0 || index > of {
            return Err(format!(
                "{s:?}: the part must be from 1 to the number of parts, and there must be at \
                 least one part"
            ));
        }
        Ok(Shard { index, of })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// As its `K/N` text.
impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_cover_the_range_once_and_nearly_evenly() {
        let c = Campaign {
            start: 10,
            seeds: 300,
            duration_ms: 1,
        };
        for n in [1, 2, 3, 7, 300, 301, 1000] {
            let mut next = c.start;
            for k in 1..=n {
                let part = c.seeds_of(Some(Shard { index: k, of: n }));
                assert_eq!(part.start, next, "{k}/{n}");
                let len = part.end - part.start;
                assert!(len == 300 / n || len == 300 / n + 1, "{k}/{n}: {len}");
                next = part.end;
            }
            assert_eq!(next, 310, "{n} parts");
        }
        assert_eq!(c.seeds_of(None), 10..310);
        // The top of u64 does not wrap.
        let top = Campaign {
            start: u64::MAX - 5,
            seeds: 100,
            duration_ms: 1,
        };
        assert_eq!(
            top.seeds_of(Some(Shard { index: 2, of: 2 })),
            u64::MAX - 3..u64::MAX
        );
    }

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, of: 3 }));
        assert_eq!(Shard { index: 2, of: 3 }.to_string(), "2/3");
        for bad in ["", "3", "a/3", "2/", "-1/3", "2/3/4"] {
            assert!(
                bad.parse::<Shard>().unwrap_err().contains("is not K/N"),
                "{bad}"
            );
        }
        for bad in ["0/3", "4/3", "0/0", "1/0"] {
            assert!(
                bad.parse::<Shard>().unwrap_err().contains("from 1 to"),
                "{bad}"
            );
        }
    }
}
