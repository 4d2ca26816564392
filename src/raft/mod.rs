//! Layer 1: one node's Raft, as etcd's raft library does it.
//!
//! Pure and deterministic: the caller feeds it `tick()` and `step(msg)` and
//! collects the messages it wants sent. No clock, no I/O; its only source of
//! randomness is a generator handed in by the world, seeded from the run's seed.

pub mod kv;
pub mod types;

pub use kv::KvStore;
pub use types::*;
