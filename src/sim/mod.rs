//! Layer 2: the simulated world. Many Raft nodes, a network of directed
//! links with latency and bandwidth, simulated time, crash and start, one
//! seeded random generator, invariant checks after every event, and a
//! structured event stream. Everything is a function of the seed and of the
//! commands applied at given times: the same inputs give the same run.

pub mod config;
pub mod event;
pub mod invariants;
pub mod kv;
pub mod linearizability;
pub mod membership;
pub mod mvcc;
pub mod network;
pub mod node;
pub mod streams;
pub use crate::collections::vecmap;
pub mod world;

pub use config::WorldConfig;
pub use event::{
    DropReason, Event, EventKind, JoinStep, MirrorEvent, ModeDecision, NotYet, Served,
};
pub use invariants::Violation;
pub use kv::{Compaction, Delete, KeyRead, KvStore, MemberRecord, PeerUrls, Put, Request};
pub use network::{Envelope, InFlight, MessageCounts, Transport};
pub use node::{PendingRead, ReadOf, SimNode};
pub use streams::Stream;
pub use world::{NodeWatch, World};
