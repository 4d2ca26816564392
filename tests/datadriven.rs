//! Data-driven tests, etcd's way: each file under `tests/testdata/<family>/`
//! is a story of directives, each followed by the whole output it gives,
//! and a change of behaviour is a readable diff of these files. Rewrite
//! them after an intended change with `RAFTLAB_BLESS=1 cargo test --test
//! datadriven`, and review the diff. The runner is `datadriven/runner.rs`;
//! each family's directives are in its own module:
//!
//! - `parse`: the scenario language's parser: every command form in its
//!   canonical text and its syntax tree, every error with its column;
//! - `cluster`: quorum, configuration changes and the leader's progress
//!   tracker through the `describe()` printers, as a run goes on;
//! - `trace`: whole scenario runs, narrated as `raftlab run` prints them;
//! - `etcdctl`: etcdctl lines in the console: the command each is recorded
//!   as and what etcdctl prints.
#![cfg(not(target_arch = "wasm32"))]

mod datadriven {
    pub mod cluster;
    pub mod etcdctl;
    pub mod parse;
    pub mod runner;
    pub mod trace;
}

use datadriven::runner::run_family;

#[test]
fn parse() {
    run_family("parse", datadriven::parse::run);
}

#[test]
fn cluster() {
    run_family("cluster", datadriven::cluster::run);
}

#[test]
fn trace() {
    run_family("trace", datadriven::trace::run);
}

#[test]
fn etcdctl() {
    run_family("etcdctl", datadriven::etcdctl::run);
}
