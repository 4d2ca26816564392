//! etcd release profiles (`cluster ... etcd=3.4|3.5|3.6`): where etcd's
//! releases differ in a rule raftlab models, the profile picks the rule of
//! that release branch. docs/etcd-fidelity.md lists each difference with
//! the etcd file and function it follows.

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Release {
    /// etcd v3.4, the release the design document describes.
    V3_4,
    V3_5,
    /// The newest release, the default.
    #[default]
    V3_6,
}

impl Release {
    pub const ALL: [Release; 3] = [Release::V3_4, Release::V3_5, Release::V3_6];

    pub fn as_str(self) -> &'static str {
        match self {
            Release::V3_4 => "3.4",
            Release::V3_5 => "3.5",
            Release::V3_6 => "3.6",
        }
    }

    /// `--snapshot-count`'s default (etcdserver `DefaultSnapshotCount`):
    /// 100000 until v3.5, 10000 from v3.6.
    pub fn default_snapshot_count(self) -> u64 {
        match self {
            Release::V3_4 | Release::V3_5 => 100_000,
            Release::V3_6 => 10_000,
        }
    }

    /// v3.6 snapshots the raft log in memory and compacts it every 100
    /// applied entries (etcdserver `shouldSnapshotToMemory`,
    /// `memorySnapshotCount`); before, only every snapshot-count entries.
    pub fn memory_snapshot_count(self) -> Option<u64> {
        (self == Release::V3_6).then_some(100)
    }

    /// Whether `--max-learners` exists: v3.4 and v3.5 hard-code one learner
    /// (membership `maxLearners = 1`); v3.6 added the flag.
    pub fn max_learners_settable(self) -> bool {
        self == Release::V3_6
    }

    /// Whether the strict check of MemberAdd asks the member taking the
    /// request to be connected to every voter (v3.4 `mayAddMember`:
    /// `isConnectedFullySince`) rather than to a quorum of the cluster after
    /// the add (v3.5 and v3.6: `isConnectedToQuorumAfterAddingNewMemberSince`).
    pub fn add_needs_every_voter(self) -> bool {
        self == Release::V3_4
    }

    /// Whether etcdctl's `member list` is linearizable by default (v3.6:
    /// `--consistency=l`; before, the member answers from its own state).
    pub fn member_list_linearizable(self) -> bool {
        self == Release::V3_6
    }

    /// Whether `unix://` and `unixs://` peer URLs must also be `host:port`
    /// without a path (`types.NewURLs` in v3.4; v3.5 checks only http and
    /// https URLs).
    pub fn unix_urls_checked(self) -> bool {
        self == Release::V3_4
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Release {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Release::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| format!("unknown etcd release {s:?}; expected 3.4, 3.5 or 3.6"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_round_trip_and_differ_where_etcd_does() {
        for r in Release::ALL {
            assert_eq!(r.as_str().parse::<Release>(), Ok(r));
        }
        assert!("3.7".parse::<Release>().is_err());
        assert_eq!(Release::default(), Release::V3_6);
        assert_eq!(Release::V3_5.default_snapshot_count(), 100_000);
        assert_eq!(Release::V3_6.default_snapshot_count(), 10_000);
        assert!(!Release::V3_5.max_learners_settable());
        assert!(Release::V3_4.add_needs_every_voter());
        assert!(!Release::V3_5.add_needs_every_voter());
    }
}
