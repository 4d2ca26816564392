//! Below the Raft core: printing a float with fixed decimals without the
//! standard library's float printing, which would cost the page's first
//! load about 10 KB gzipped (`docs/crates.md`).

pub mod fixed;
