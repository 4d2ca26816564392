//! The in-flight window of a follower in Replicate state (etcd's
//! `tracker/inflights.go`): the last index of each MsgApp sent but not yet
//! acknowledged. When the window is full the leader stops sending entries
//! to that follower until acknowledgements free slots.

use std::collections::VecDeque;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inflights {
    /// Last entry index of each unacknowledged MsgApp, oldest first (ascending).
    indexes: VecDeque<u64>,
    /// At most this many messages may be in flight (etcd's MaxInflightMsgs).
    capacity: usize,
}

impl Inflights {
    pub fn new(capacity: usize) -> Inflights {
        // The buffer grows on demand: most followers never fill the window,
        // and an empty VecDeque costs nothing to clone.
        Inflights {
            indexes: VecDeque::new(),
            capacity,
        }
    }

    /// Records a MsgApp whose last entry is `index`.
    pub fn add(&mut self, index: u64) {
        debug_assert!(!self.full(), "add to a full inflights window");
        debug_assert!(self.indexes.back().is_none_or(|&last| last <= index));
        self.indexes.push_back(index);
    }

    /// Frees every message whose last index is at most `to` (they are acknowledged).
    pub fn free_le(&mut self, to: u64) {
        while self.indexes.front().is_some_and(|&i| i <= to) {
            self.indexes.pop_front();
        }
    }

    pub fn full(&self) -> bool {
        self.indexes.len() >= self.capacity
    }

    /// Counts the window's buffer.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.deque(&self.indexes);
    }

    pub fn count(&self) -> usize {
        self.indexes.len()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn reset(&mut self) {
        self.indexes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_and_frees_in_order() {
        let mut inf = Inflights::new(3);
        assert!(!inf.full());
        inf.add(5);
        inf.add(7);
        inf.add(9);
        assert!(inf.full());
        assert_eq!(inf.count(), 3);
        inf.free_le(4);
        assert_eq!(inf.count(), 3);
        inf.free_le(7);
        assert_eq!(inf.count(), 1);
        assert!(!inf.full());
        inf.free_le(100);
        assert_eq!(inf.count(), 0);
        inf.add(10);
        inf.reset();
        assert_eq!(inf.count(), 0);
    }
}
