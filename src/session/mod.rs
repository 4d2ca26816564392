//! Layer 4, a running scenario: the [`Session`](exec::Session) that runs
//! commands against the clusters, the conditions of `expect` and
//! `wait-until`, the report, the view model every front end reads, time
//! travel and share links. It knows the language (`crate::lang`); the words
//! of a language are `crate::words`.

mod commands;
pub mod cond;
pub mod detail;
pub mod driver;
pub mod exec;
pub mod failure;
pub mod narrate;
pub mod refusal;
pub mod report;
pub mod share;
pub mod slice;
pub mod stop;
pub mod timeline;
pub mod view;
