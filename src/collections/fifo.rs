//! A first-in first-out queue as a vector and a cursor, not a `VecDeque`,
//! whose code the page's module would compile once more for each element
//! type (docs/crates.md, the fifth round): the session's and the timeline's
//! command queues, and a mirror process's writes to relay. An item taken
//! leaves an empty one (its `Default`, which owns nothing) in its place;
//! the taken ones go when they are half the vector, so a queue that never
//! empties (a mirror under steady load) does not grow with all it ever
//! held, and each item is moved once on average.

/// A first-in first-out queue: `items[head..]`.
#[derive(Debug, Clone)]
pub(crate) struct Fifo<T> {
    items: Vec<T>,
    head: usize,
}

impl<T> Default for Fifo<T> {
    fn default() -> Fifo<T> {
        Fifo {
            items: Vec::new(),
            head: 0,
        }
    }
}

impl<T: Default> Fifo<T> {
    pub fn push_back(&mut self, t: T) {
        self.items.push(t);
    }

    pub fn pop_front(&mut self) -> Option<T> {
        let t = std::mem::take(self.items.get_mut(self.head)?);
        self.head += 1;
        if 2 * self.head >= self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        Some(t)
    }

    /// Puts an item back in front (the one just taken, which could not
    /// start yet).
    pub fn push_front(&mut self, t: T) {
        match self.head.checked_sub(1) {
            Some(h) => {
                self.head = h;
                if let Some(slot) = self.items.get_mut(h) {
                    *slot = t;
                }
            }
            None => self.items.insert(0, t),
        }
    }

    pub fn front(&self) -> Option<&T> {
        self.items.get(self.head)
    }

    pub fn len(&self) -> usize {
        self.items.len() - self.head
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn clear(&mut self) {
        self.items.clear();
        self.head = 0;
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter().skip(self.head)
    }

    /// The buffer, as `Meter::vec` counts a vector's.
    pub fn capacity_bytes(&self) -> usize {
        self.items.capacity() * size_of::<T>()
    }
}

#[cfg(test)]
mod tests {
    use super::Fifo;
    use std::collections::VecDeque;

    /// Random pushes, pops, put-backs and clears give what a `VecDeque` gives.
    #[test]
    fn as_a_deque() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut fifo = Fifo::default();
        let mut deque = VecDeque::new();
        let mut next = 0u32;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            match seed % 16 {
                0..=6 => {
                    fifo.push_back(next);
                    deque.push_back(next);
                    next += 1;
                }
                7..=12 => {
                    let (a, b) = (fifo.pop_front(), deque.pop_front());
                    assert_eq!(a, b);
                    if let Some(x) = a.filter(|_| seed % 3 == 0) {
                        fifo.push_front(x);
                        deque.push_front(x);
                    }
                }
                13 if seed % 7 == 0 => {
                    fifo.clear();
                    deque.clear();
                }
                _ => {}
            }
            assert_eq!(fifo.len(), deque.len());
            assert_eq!(fifo.is_empty(), deque.is_empty());
            assert_eq!(fifo.front(), deque.front());
            assert!(fifo.iter().eq(deque.iter()));
        }
        assert!(next > 5_000);
    }

    /// A queue that never empties keeps at most about twice what it holds.
    #[test]
    fn a_queue_that_never_empties_stays_small() {
        let mut fifo = Fifo::default();
        for i in 0..10u64 {
            fifo.push_back(i);
        }
        for i in 10..100_000u64 {
            fifo.push_back(i);
            assert_eq!(fifo.pop_front(), Some(i - 10));
            assert!(
                fifo.items.len() <= 2 * fifo.len() + 2,
                "{} kept",
                fifo.items.len()
            );
        }
        assert!(fifo.iter().copied().eq(99_990..100_000));
    }

    #[test]
    fn put_back_into_an_emptied_queue() {
        let mut fifo = Fifo::default();
        fifo.push_back("a");
        assert_eq!(fifo.pop_front(), Some("a"));
        assert!(fifo.is_empty());
        fifo.push_front("a");
        fifo.push_back("b");
        assert_eq!(fifo.iter().copied().collect::<Vec<_>>(), ["a", "b"]);
    }
}
