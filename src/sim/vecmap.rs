//! A small ordered map kept in a sorted `Vec`. The network keeps a few
//! dozen entries per map at most (one per pair of nodes, or per stream);
//! for those a sorted vector is as fast as a `BTreeMap`, and each of its
//! instances costs the wasm module far less code.

/// An ordered map over a sorted vector of `(key, value)` pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    fn find(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        match self.find(key) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// The value for `key`, inserted with `make` if absent.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    pub fn insert(&mut self, key: K, value: V) {
        match self.find(&key) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (key, value)),
        }
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Counts the vector of pairs (not what they own).
    pub fn heap_size(&self, m: &mut crate::raft::heap::Meter) {
        m.vec(&self.entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_keys_in_order() {
        let mut m = VecMap::default();
        m.insert(3, "c");
        m.insert(1, "a");
        *m.get_or_insert_with(2, || "x") = "b";
        m.insert(3, "C");
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(m.get(&3), Some(&"C"));
        assert_eq!(m.remove(&1), Some("a"));
        m.retain(|k, _| *k != 2);
        assert_eq!(m.len(), 1);
        assert!(m.get_mut(&2).is_none());
    }
}
