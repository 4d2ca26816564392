//! Layer 1: one node's Raft, as etcd's raft library does it.
//!
//! Pure and deterministic: the caller feeds it `tick()` and `step(msg)` and
//! collects the messages it wants sent. No clock, no I/O; its only source of
//! randomness is a generator handed in by the world, seeded from the run's seed.
//!
//! It passes etcd-raft's own data-driven tests (`tests/etcd_raft_conformance.rs`).
//! Of etcd's raft options it models PreVote, CheckQuorum, MaxSizePerMsg,
//! MaxInflightMsgs, MaxCommittedSizePerReady, ReadOnlyOption,
//! StepDownOnRemoval and DisableConfChangeValidation; not AsyncStorageWrites
//! (a node persists synchronously, etcd's Ready/Advance mode),
//! MaxInflightBytes, MaxUncommittedEntriesSize or DisableProposalForwarding,
//! which etcd's server leaves at their defaults.

pub mod confchange;
pub mod events;
pub mod inflights;
pub mod log;
pub mod node;
pub mod opaque;
pub mod progress;
pub mod quorum;
pub mod read_only;
pub mod tracker;
pub mod types;

pub use events::{ProposeError, RaftEvent, StepError};
pub use node::{
    bootstrap_peers, bootstrap_storage, Config, Peer, Raft, ReadOnlyOption, StateRole, Storage,
};
pub use progress::{Progress, ProgressState};
pub use tracker::{ProgressTracker, TrackerConfig};
pub use types::*;
