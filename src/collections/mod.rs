//! Below the Raft core: general-purpose collections written for the page's
//! module size, each saying which standard type it stands in for and what
//! that would cost (`docs/crates.md`): sorted-vector maps and sets, a FIFO,
//! a vector in shared chunks, and the memory meter that weighs them.

pub mod chunked;
pub mod fifo;
pub mod heap;
pub mod vecmap;
