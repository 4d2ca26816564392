//! Below the Raft core: general-purpose collections. Sorted-vector maps and
//! sets stand in for `BTreeMap` and `BTreeSet`, which the page's module would
//! compile once per key and value type, about 4 KB gzipped each
//! (`docs/crates.md`); a vector in shared chunks makes a time-travel
//! checkpoint's clone cheap; the memory meter weighs what a run holds.

pub mod chunked;
pub mod heap;
pub mod vecmap;
