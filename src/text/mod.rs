//! Below the Raft core: small text helpers written for the page's module
//! size, each standing in for a standard-library function (`docs/crates.md`):
//! joining strings, finding a word, printing a float with fixed decimals.

pub mod fixed;
pub mod joined;
pub mod substr;
