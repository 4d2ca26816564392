//! raftlab: a Raft-with-learners cluster, simulated deterministically.
//!
//! Layers, each knowing only the one below:
//! 1. [`raft`]: one node's Raft (roles, log, progress, quorum, configuration changes);
//! 2. [`sim`]: the simulated world (network, time, storage, crashes, invariants, events);
//! 3. [`server`]: etcd's member and client API with etcd's checks and errors;
//! 4. [`scenario`]: the scenario language (parser, executor, report);
//! 5. the front ends: the `raftlab` binary ([`cli`], native only), and the
//!    page: [`app`], its logic (built and tested natively), and, on wasm32
//!    only, `wasm`, its bindings, canvas and DOM.

pub mod app;
pub mod collections;
pub mod raft;
pub mod scenario;
pub mod server;
pub mod sim;
pub mod text;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
