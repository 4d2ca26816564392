//! Quorum arithmetic (etcd's `quorum/` package): which index a set of voters
//! has committed and how an election stands, for one majority
//! (`majority.rs`) or for the two majorities of a joint configuration
//! (`joint.rs`, the Raft dissertation's §4.3 joint consensus).
//!
//! Only voters appear here: learners are never passed in, so they can never
//! help commit an entry, win an election or keep a leader in office.

mod joint;
mod majority;

pub use joint::JointConfig;
pub use majority::MajorityConfig;

/// The committed index of the empty configuration (etcd prints it "∞"): it
/// never holds a joint configuration back, so a joint configuration with an
/// empty outgoing half behaves like its incoming half.
pub const INFINITY: u64 = u64::MAX;

/// How many of `n` voters make a majority.
pub fn majority(n: usize) -> usize {
    n / 2 + 1
}

/// The outcome of an election as far as the votes received so far tell
/// (etcd's `quorum.VoteResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteResult {
    /// Neither a quorum of grants nor of rejections yet.
    Pending,
    /// A quorum rejected: the candidate cannot win.
    Lost,
    /// A quorum granted.
    Won,
}

impl VoteResult {
    /// etcd's name for it (`VotePending`, `VoteLost`, `VoteWon`).
    pub fn name(self) -> &'static str {
        match self {
            VoteResult::Pending => "VotePending",
            VoteResult::Lost => "VoteLost",
            VoteResult::Won => "VoteWon",
        }
    }
}

/// An index as etcd's `quorum.Index` prints it: "∞" for [`INFINITY`].
pub fn format_index(index: u64) -> String {
    if index == INFINITY {
        "∞".to_string()
    } else {
        index.to_string()
    }
}
