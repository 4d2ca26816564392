//! raftlab: a Raft-with-learners cluster, simulated deterministically.
//!
//! Layers, each knowing only the one below:
//! 1. [`raft`]: one node's Raft (roles, log, progress, quorum, configuration changes);
//! 2. [`sim`]: the simulated world (network, time, storage, crashes, invariants, events);
//! 3. [`server`]: etcd's member and client API with etcd's checks and errors;
//! 4. the scenario language, in four rooms, each knowing the ones before it:
//!    [`lang`] (the syntax: lexer, parser, syntax tree, parse errors),
//!    [`session`] (running a script: the session, conditions, the report,
//!    the view model, time travel, share links), [`words`] (every sentence,
//!    in English and Japanese), and the tools built on all three,
//!    [`lessons`] and [`fuzz`];
//! 5. the front ends: the `raftlab` binary ([`cli`], native only), and the
//!    page: [`app`], its logic (built and tested natively), and, on wasm32
//!    only, `wasm`, its bindings, canvas and DOM.

pub mod app;
pub mod collections;
pub mod fuzz;
pub mod lang;
pub mod lessons;
pub mod raft;
pub mod server;
pub mod session;
pub mod sim;
pub mod text;
pub mod words;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
