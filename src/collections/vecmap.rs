//! Small ordered maps and sets kept in a sorted `Vec`: [`VecMap`] and
//! [`VecSet`], with the parts of `BTreeMap`'s and `BTreeSet`'s interface that
//! raftlab uses, and the same iteration order (ascending keys).
//!
//! Why not `BTreeMap`: the standard B-tree is compiled again for every pair
//! of key and value types, about 8 KB of wasm each, and raftlab had twenty
//! such pairs: a fifth of the page's module. Most of raftlab's maps hold one
//! entry per node, per link or per open request: a few dozen at most. For
//! those a sorted vector is as fast (a scan or one binary search, a short move on
//! insert and remove) and its code is a few hundred bytes per type. Maps
//! that can hold thousands of entries (the messages in flight, the key-value
//! store) are [`VecMap`]s too where new keys are rare; the messages in
//! flight and the cluster's pending requests, whose ids only grow, are
//! [`IdMap`]s: appended at the end, removed in any order.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::VecDeque;
use std::fmt;
use std::ops::{Bound, RangeBounds};

/// Up to this many entries a map is searched from its start (natively).
const SCAN: usize = 16;

/// Where `cmp` finds its item in sorted `items` (`binary_search_by`'s
/// answer). Most maps hold one entry per node or link: natively a scan of
/// a few entries beats a binary search's unpredictable steps (8% more
/// deliveries a second in `raftlab bench`, docs/performance.md). The page's
/// module keeps the binary search alone: there the scan, inlined in every
/// map's code, made the first load 6.8 KB larger and the engine no faster.
fn search<T>(items: &[T], cmp: impl Fn(&T) -> Ordering) -> Result<usize, usize> {
    if cfg!(target_arch = "wasm32") || items.len() > SCAN {
        return items.binary_search_by(cmp);
    }
    for (i, t) in items.iter().enumerate() {
        match cmp(t) {
            Ordering::Less => {}
            Ordering::Equal => return Ok(i),
            Ordering::Greater => return Err(i),
        }
    }
    Err(items.len())
}

/// An ordered map over a sorted vector of `(key, value)` pairs.
#[derive(Clone, PartialEq, Eq, Hash)]
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

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// The index range that `range` covers in a sorted sequence of `len`
/// keys, where `cmp(i, q)` compares the key at `i` with `q`.
fn index_range<Q: ?Sized>(
    len: usize,
    cmp: impl Fn(usize, &Q) -> Ordering,
    range: &impl RangeBounds<Q>,
) -> (usize, usize) {
    // The first index whose key is not before `q` (or, with `after_equal`,
    // whose key is after `q`); keys are sorted.
    let first = |q: &Q, after_equal: bool| {
        let (mut lo, mut hi) = (0, len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let o = cmp(mid, q);
            if o == Ordering::Less || (after_equal && o == Ordering::Equal) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    };
    let start = match range.start_bound() {
        Bound::Included(s) => first(s, false),
        Bound::Excluded(s) => first(s, true),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(e) => first(e, true),
        Bound::Excluded(e) => first(e, false),
        Bound::Unbounded => len,
    };
    (start, end.max(start))
}

impl<K, V> VecMap<K, V> {
    /// Counts the vector of pairs (not what they own).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.vec(&self.entries);
    }

    pub const fn new() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.entries.iter())
    }

    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    pub fn pop_first(&mut self) -> Option<(K, V)> {
        if self.entries.is_empty() {
            None
        } else {
            Some(self.entries.remove(0))
        }
    }

    pub fn pop_last(&mut self) -> Option<(K, V)> {
        self.entries.pop()
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> VecMap<K, V> {
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        search(&self.entries, |(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        match self.find(key) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    pub fn get_key_value<Q: Ord + ?Sized>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
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

    /// `key`'s place in the map, as `BTreeMap::entry`.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.find(&key);
        Entry { map: self, key, at }
    }

    /// The entry of the key that `cmp` seeks, added with the key `make()`
    /// and the default value if it is not there: one search. `cmp(k)` orders
    /// key `k` against the key sought, as `K`'s order would (a key type may
    /// compare a cheaper part first).
    pub fn get_or_insert_ordered(
        &mut self,
        cmp: impl Fn(&K) -> Ordering,
        make: impl FnOnce() -> K,
    ) -> (&K, &mut V)
    where
        V: Default,
    {
        let i = match search(&self.entries, |(k, _)| cmp(k)) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (make(), V::default()));
                i
            }
        };
        let (k, v) = &mut self.entries[i];
        (k, v)
    }

    /// Sets `key`'s value; returns the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The entries whose keys are in `range`, in order.
    pub fn range<Q: Ord + ?Sized>(&self, range: impl RangeBounds<Q>) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
    {
        let (a, b) = index_range(
            self.entries.len(),
            |i, q: &Q| self.entries[i].0.borrow().cmp(q),
            &range,
        );
        Iter(self.entries[a..b].iter())
    }

    /// Removes and returns the entries from `key` on.
    pub fn split_off<Q: Ord + ?Sized>(&mut self, key: &Q) -> Self
    where
        K: Borrow<Q>,
    {
        let at = self.find(key).unwrap_or_else(|i| i);
        VecMap {
            entries: self.entries.split_off(at),
        }
    }
}

/// A key's place in a [`VecMap`], present or not (`BTreeMap`'s `Entry`).
pub struct Entry<'a, K, V> {
    map: &'a mut VecMap<K, V>,
    key: K,
    at: Result<usize, usize>,
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let i = match self.at {
            Ok(i) => i,
            Err(i) => {
                self.map.entries.insert(i, (self.key, make()));
                i
            }
        };
        &mut self.map.entries[i].1
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    pub fn and_modify(self, change: impl FnOnce(&mut V)) -> Self {
        if let Ok(i) = self.at {
            change(&mut self.map.entries[i].1);
        }
        self
    }

    pub fn key(&self) -> &K {
        &self.key
    }
}

/// Iterator over a [`VecMap`]'s entries, in key order.
#[derive(Clone, Debug)]
pub struct Iter<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

/// As `BTreeMap`: a later pair replaces an earlier one with the same key.
impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = VecMap::new();
        map.extend(iter);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(pairs: [(K, V); N]) -> Self {
        pairs.into_iter().collect()
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for this key")
    }
}

/// An ordered set over a sorted vector.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VecSet<T> {
    items: Vec<T>,
}

impl<T> Default for VecSet<T> {
    fn default() -> Self {
        VecSet { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for VecSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

impl<T> VecSet<T> {
    /// Counts the vector of items (not what they own).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.vec(&self.items);
    }

    pub const fn new() -> Self {
        VecSet { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    pub fn pop_last(&mut self) -> Option<T> {
        self.items.pop()
    }

    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }

    /// The items in order, as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }
}

impl<T: Ord> VecSet<T> {
    fn find<Q: Ord + ?Sized>(&self, item: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        search(&self.items, |t| t.borrow().cmp(item))
    }

    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(item).is_ok()
    }

    /// Adds `item`; false if it was there already.
    pub fn insert(&mut self, item: T) -> bool {
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, item);
                true
            }
        }
    }

    /// Removes `item`; false if it was not there.
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        match self.find(item) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    pub fn pop_first(&mut self) -> Option<T> {
        if self.items.is_empty() {
            None
        } else {
            Some(self.items.remove(0))
        }
    }

    /// The items in `range`, in order.
    pub fn range<Q: Ord + ?Sized>(&self, range: impl RangeBounds<Q>) -> std::slice::Iter<'_, T>
    where
        T: Borrow<Q>,
    {
        let (a, b) = index_range(
            self.items.len(),
            |i, q: &Q| self.items[i].borrow().cmp(q),
            &range,
        );
        self.items[a..b].iter()
    }

    /// Removes and returns the items from `item` on.
    pub fn split_off<Q: Ord + ?Sized>(&mut self, item: &Q) -> Self
    where
        T: Borrow<Q>,
    {
        let at = self.find(item).unwrap_or_else(|i| i);
        VecSet {
            items: self.items.split_off(at),
        }
    }

    /// The items in one set only, in order.
    pub fn symmetric_difference<'a>(
        &'a self,
        other: &'a VecSet<T>,
    ) -> impl Iterator<Item = &'a T> + 'a {
        self.union(other)
            .filter(move |t| !(self.contains(*t) && other.contains(*t)))
    }

    pub fn is_subset(&self, other: &VecSet<T>) -> bool {
        self.items.iter().all(|t| other.contains(t))
    }

    /// The items of `self` not in `other`, in order.
    pub fn difference<'a>(&'a self, other: &'a VecSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |t| !other.contains(*t))
    }

    /// The items in both, in order.
    pub fn intersection<'a>(&'a self, other: &'a VecSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |t| other.contains(*t))
    }

    /// The items in either, in order.
    pub fn union<'a>(&'a self, other: &'a VecSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        let (mut a, mut b) = (self.items.iter().peekable(), other.items.iter().peekable());
        std::iter::from_fn(move || match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => match x.cmp(y) {
                Ordering::Less => a.next(),
                Ordering::Greater => b.next(),
                Ordering::Equal => {
                    b.next();
                    a.next()
                }
            },
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        })
    }
}

impl<'a, T> IntoIterator for &'a VecSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T> IntoIterator for VecSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<T: Ord> FromIterator<T> for VecSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut set = VecSet::new();
        set.extend(iter);
        set
    }
}

impl<T: Ord> Extend<T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for t in iter {
            self.insert(t);
        }
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for VecSet<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

/// An ordered map from ids that mostly arrive in increasing order (a new
/// message, a new request) and leave in any order: an insert at the end is
/// a push, a removal leaves a hole that is dropped once it reaches either
/// end, or when holes outnumber the entries. Lookups are binary searches.
///
/// The values stay where they were put, in a slab (`values`, its free
/// places in `free`); the ordered slots hold an id and a place. A message
/// in flight is a couple of hundred bytes: the slots move when holes are
/// dropped, and moving 16 bytes a slot instead of the whole message took
/// about a twentieth of the engine's time (docs/performance.md).
#[derive(Clone)]
pub struct IdMap<V> {
    /// `(id, place in values)` in id order; `HOLE`: removed.
    slots: VecDeque<(u64, u32)>,
    values: Vec<Option<V>>,
    free: Vec<u32>,
    live: usize,
}

const HOLE: u32 = u32::MAX;

impl<V> IdMap<V> {
    /// Counts the slots and the slab (not what the values own).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.deque(&self.slots);
        m.vec(&self.values);
        m.vec(&self.free);
    }
}

impl<V> Default for IdMap<V> {
    fn default() -> Self {
        IdMap {
            slots: VecDeque::new(),
            values: Vec::new(),
            free: Vec::new(),
            live: 0,
        }
    }
}

/// Equal when they hold the same ids with equal values, wherever in the
/// slab each value sits.
impl<V: PartialEq> PartialEq for IdMap<V> {
    fn eq(&self, other: &Self) -> bool {
        self.live == other.live && self.iter().eq(other.iter())
    }
}

impl<V: Eq> Eq for IdMap<V> {}

impl<V: fmt::Debug> fmt::Debug for IdMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V> IdMap<V> {
    pub fn new() -> Self {
        IdMap::default()
    }

    /// The slot of `id` (`Ok`, possibly a hole), or where it would go.
    fn find(&self, id: u64) -> Result<usize, usize> {
        // Ids mostly come one after another, so `id` is usually in the slot
        // `id - first` (until holes are compacted away): one look instead of
        // a search, on every message delivered.
        if let Some((first, _)) = self.slots.front() {
            let i = id.wrapping_sub(*first) as usize;
            if self.slots.get(i).is_some_and(|(k, _)| *k == id) {
                return Ok(i);
            }
        }
        self.slots.binary_search_by(|(k, _)| k.cmp(&id))
    }

    /// The slab place of `id`'s value, if it holds one.
    fn place(&self, id: u64) -> Option<usize> {
        let i = self.find(id).ok()?;
        let place = self.slots[i].1;
        (place != HOLE).then_some(place as usize)
    }

    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    pub fn get(&self, id: &u64) -> Option<&V> {
        self.values[self.place(*id)?].as_ref()
    }

    pub fn get_mut(&mut self, id: &u64) -> Option<&mut V> {
        let place = self.place(*id)?;
        self.values[place].as_mut()
    }

    pub fn contains_key(&self, id: &u64) -> bool {
        self.place(*id).is_some()
    }

    /// A place in the slab for `value`.
    fn store(&mut self, value: V) -> u32 {
        match self.free.pop() {
            Some(place) => {
                self.values[place as usize] = Some(value);
                place
            }
            None => {
                let place = u32::try_from(self.values.len())
                    .ok()
                    .filter(|&p| p != HOLE)
                    .expect("fewer than 2^32 - 1 values at once");
                self.values.push(Some(value));
                place
            }
        }
    }

    /// Sets `id`'s value; returns the value it replaced.
    pub fn insert(&mut self, id: u64, value: V) -> Option<V> {
        if self.slots.back().is_none_or(|(last, _)| *last < id) {
            let place = self.store(value);
            self.slots.push_back((id, place));
            self.live += 1;
            return None;
        }
        match self.find(id) {
            Ok(i) => match self.slots[i].1 {
                HOLE => {
                    self.slots[i].1 = self.store(value);
                    self.live += 1;
                    None
                }
                place => self.values[place as usize].replace(value),
            },
            Err(i) => {
                let place = self.store(value);
                self.slots.insert(i, (id, place));
                self.live += 1;
                None
            }
        }
    }

    pub fn remove(&mut self, id: &u64) -> Option<V> {
        let i = self.find(*id).ok()?;
        let place = std::mem::replace(&mut self.slots[i].1, HOLE);
        if place == HOLE {
            return None;
        }
        let old = self.values[place as usize].take();
        self.free.push(place);
        self.live -= 1;
        while self.slots.front().is_some_and(|(_, p)| *p == HOLE) {
            self.slots.pop_front();
        }
        while self.slots.back().is_some_and(|(_, p)| *p == HOLE) {
            self.slots.pop_back();
        }
        if self.slots.len() > 2 * self.live + 64 {
            self.slots.retain(|(_, p)| *p != HOLE);
        }
        if self.live == 0 {
            // Empty: the slab starts over (its memory stays for the next).
            self.values.clear();
            self.free.clear();
        }
        old
    }

    /// The entries in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&u64, &V)> + Clone {
        let values = &self.values;
        self.slots.iter().filter_map(move |(k, p)| {
            let v = values.get(*p as usize)?.as_ref()?;
            Some((k, v))
        })
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + Clone {
        self.iter().map(|(_, v)| v)
    }
}

/// Sorts `u64`s ascending. The standard library's unstable sort, once for
/// this one type: every keyed sort here packs its key and position into a
/// `u64` and comes through it, so the page's module holds one sort (2 KB
/// gzipped in its first part, measured in `docs/crates.md`).
pub fn sort_u64s(v: &mut [u64]) {
    v.sort_unstable();
}

/// Sorts `items` stably by a 32-bit key, with the one sort of `u64`s the
/// module already has (key and position packed in one word) rather than a
/// sort compiled again for each item type and key (3 to 4 KB of wasm each).
pub fn sort_by_u32_key<T>(items: &mut [T], key: impl Fn(&T) -> u32) {
    assert!(items.len() <= u32::MAX as usize, "too many items to sort");
    let mut order: Vec<u64> = items
        .iter()
        .enumerate()
        .map(|(i, t)| (u64::from(key(t)) << 32) | i as u64)
        .collect();
    sort_u64s(&mut order);
    let positions: Vec<usize> = order.iter().map(|&o| (o & 0xffff_ffff) as usize).collect();
    reorder(items, &positions);
}

/// The stable sorted order of `n` items compared by position (`less(a, b)`:
/// item `a` goes strictly before item `b`): a bottom-up merge sort compiled
/// once, which the linearizability checker's sorts share rather than the
/// standard library's sorts compiled again for each item type and order
/// (about 5 KB of the page's module gzipped for its four).
pub fn stable_order(n: usize, less: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut from: Vec<usize> = (0..n).collect();
    let mut to = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut l, mut r) = (lo, mid);
            for slot in &mut to[lo..hi] {
                // The left run's item first unless the right's goes strictly
                // before it: equal items keep their order.
                if r < hi && (l == mid || less(from[r], from[l])) {
                    *slot = from[r];
                    r += 1;
                } else {
                    *slot = from[l];
                    l += 1;
                }
            }
            lo = hi;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    from
}

/// `items` in `order` (a permutation of its positions, as [`stable_order`]
/// gives).
/// In place, by swaps worked out once for every item type (moving the items
/// out and back compiled a vector of `Option`s and its iterators for each).
pub fn reorder<T>(items: &mut [T], order: &[usize]) {
    for (a, b) in swaps(order) {
        items.swap(a, b);
    }
}

/// The swaps that put the item at `order[k]` at position `k`: each cycle
/// of the permutation walked once, the item for the place just filled
/// taken from where the cycle goes next.
fn swaps(order: &[usize]) -> Vec<(usize, usize)> {
    let mut done = vec![false; order.len()];
    let mut out = Vec::new();
    for start in 0..order.len() {
        let mut j = start;
        while !done[j] {
            done[j] = true;
            let k = order[j];
            if k == start {
                break;
            }
            out.push((j, k));
            j = k;
        }
    }
    out
}

/// An ordered set over a sorted deque, for items that mostly leave near
/// either end (the oldest first): a removal moves the shorter side, not
/// everything after it. The cluster's request deadlines and parked requests
/// are such sets: under a heavy load thousands wait, and a sorted vector
/// moved all the rest at each removal.
#[derive(Clone, PartialEq, Eq)]
pub struct DequeSet<T> {
    items: VecDeque<T>,
}

impl<T> Default for DequeSet<T> {
    fn default() -> Self {
        DequeSet {
            items: VecDeque::new(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for DequeSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

impl<T: Ord> DequeSet<T> {
    pub fn new() -> Self {
        DequeSet::default()
    }

    /// Counts the deque of items (not what they own).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.deque(&self.items);
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.front()
    }

    pub fn iter(&self) -> std::collections::vec_deque::Iter<'_, T> {
        self.items.iter()
    }

    fn find(&self, item: &T) -> Result<usize, usize> {
        self.items.binary_search(item)
    }

    pub fn contains(&self, item: &T) -> bool {
        self.find(item).is_ok()
    }

    /// Adds `item`; false if it was there already.
    pub fn insert(&mut self, item: T) -> bool {
        if self.items.back().is_none_or(|last| *last < item) {
            self.items.push_back(item);
            return true;
        }
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, item);
                true
            }
        }
    }

    /// Removes `item`; false if it was not there.
    pub fn remove(&mut self, item: &T) -> bool {
        match self.find(item) {
            Ok(i) => self.items.remove(i).is_some(),
            Err(_) => false,
        }
    }

    /// The items in `range`, in order.
    pub fn range(&self, range: impl RangeBounds<T>) -> std::collections::vec_deque::Iter<'_, T> {
        let (a, b) = index_range(self.items.len(), |i, q: &T| self.items[i].cmp(q), &range);
        self.items.range(a..b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn keeps_keys_in_order() {
        let mut m = VecMap::default();
        m.insert(3, "c");
        m.insert(1, "a");
        *m.get_or_insert_with(2, || "x") = "b";
        assert_eq!(m.insert(3, "C"), Some("c"));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(m.get(&3), Some(&"C"));
        assert_eq!(m.remove(&1), Some("a"));
        m.retain(|k, _| *k != 2);
        assert_eq!(m.len(), 1);
        assert!(m.get_mut(&2).is_none());
    }

    /// The same operations on a `VecMap` and a `BTreeMap` give the same
    /// contents, in the same order, and the same answers.
    #[test]
    fn behaves_as_a_btree_map() {
        let mut v = VecMap::new();
        let mut b = BTreeMap::new();
        let mut x: u64 = 7;
        for step in 0..2000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (x >> 33) % 50;
            match step % 5 {
                0 | 1 => assert_eq!(v.insert(k, step), b.insert(k, step)),
                2 => assert_eq!(v.remove(&k), b.remove(&k)),
                3 => {
                    let r = v.range(k..k + 10).collect::<Vec<_>>();
                    assert_eq!(r, b.range(k..k + 10).collect::<Vec<_>>());
                    let r = v.range(..=k).next_back();
                    assert_eq!(r, b.range(..=k).next_back());
                }
                _ => {
                    let (mut v2, mut b2) = (v.clone(), b.clone());
                    let (sv, sb) = (v2.split_off(&k), b2.split_off(&k));
                    assert!(sv.iter().eq(sb.iter()) && v2.iter().eq(b2.iter()));
                }
            }
            assert!(v.iter().eq(b.iter()));
            assert_eq!(format!("{v:?}"), format!("{b:?}"));
        }
        let pairs = [(2, 'a'), (1, 'b'), (2, 'c')];
        let v: VecMap<_, _> = pairs.into_iter().collect();
        let b: BTreeMap<_, _> = pairs.into_iter().collect();
        assert!(v.iter().eq(b.iter()));
    }

    #[test]
    fn finds_alike_below_and_above_the_scanned_size() {
        // Up to SCAN entries a map is scanned, above it searched in halves.
        for n in 0..=2 * SCAN as u64 + 2 {
            let even: Vec<(u64, u64)> = (0..n).map(|i| (2 * i, i)).collect();
            let v: VecMap<u64, u64> = even.iter().copied().collect();
            let b: BTreeMap<u64, u64> = even.iter().copied().collect();
            for k in 0..2 * n + 2 {
                assert_eq!(v.get(&k), b.get(&k), "{n} entries, key {k}");
                assert_eq!(v.contains_key(&k), b.contains_key(&k));
                let (mut v2, mut b2) = (v.clone(), b.clone());
                assert_eq!(v2.insert(k, 99), b2.insert(k, 99));
                assert!(v2.iter().eq(b2.iter()), "{n} entries, key {k} inserted");
                let mut set: VecSet<u64> = v.keys().copied().collect();
                let mut bset: BTreeSet<u64> = b.keys().copied().collect();
                assert_eq!(set.contains(&k), bset.contains(&k));
                assert_eq!(set.insert(k), bset.insert(k));
                assert!(set.iter().eq(bset.iter()), "{n} items, {k} added");
            }
        }
    }

    #[test]
    fn id_map_behaves_as_a_btree_map() {
        let mut v = IdMap::new();
        let mut b = BTreeMap::new();
        let mut x: u64 = 3;
        let mut next = 0;
        for step in 0..20_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = x >> 33;
            match r % 7 {
                // Mostly new ids at the end, sometimes an old or a skipped one.
                0..=2 => {
                    next += 1 + r % 3;
                    assert_eq!(v.insert(next, step), b.insert(next, step));
                }
                3 => {
                    let k = r % (next + 1);
                    assert_eq!(v.insert(k, step), b.insert(k, step));
                }
                _ => {
                    let k = next.saturating_sub(r % 200);
                    assert_eq!(v.remove(&k), b.remove(&k));
                    assert_eq!(v.remove(&k), None);
                }
            }
            let k = r % (next + 2);
            assert_eq!(v.get(&k), b.get(&k));
            assert_eq!(v.len(), b.len());
            if step % 97 == 0 {
                assert!(v.iter().eq(b.iter()));
                assert!(v.values().rev().eq(b.values().rev()));
                assert!(v.slots.len() <= 2 * v.live + 64);
                assert_eq!(v.values.len() - v.free.len(), v.live);
            }
        }
        assert_eq!(format!("{v:?}"), format!("{b:?}"));
    }

    #[test]
    fn sorts_u64s_as_the_standard_library() {
        let mut x: u64 = 11;
        for n in (0..=45).chain([100, 1000, 5000]) {
            for spread in [3u64, 1 << 20, u64::MAX] {
                let items: Vec<u64> = (0..n)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (x >> 7) % spread.max(1)
                    })
                    .collect();
                for mut case in [
                    items.clone(),
                    {
                        let mut s = items.clone();
                        s.sort_unstable();
                        s
                    },
                    {
                        let mut s = items.clone();
                        s.sort_unstable_by(|a, b| b.cmp(a));
                        s
                    },
                ] {
                    let mut want = case.clone();
                    want.sort_unstable();
                    sort_u64s(&mut case);
                    assert_eq!(case, want, "n={n}");
                }
            }
        }
    }

    #[test]
    fn sorts_stably_by_a_u32_key() {
        let mut x: u64 = 5;
        for n in [0usize, 1, 2, 7, 100, 1000] {
            let items: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 40) as u32 % 17, i)
                })
                .collect();
            let (mut a, mut b) = (items.clone(), items);
            sort_by_u32_key(&mut a, |&(k, _)| k);
            b.sort_by_key(|&(k, _)| k);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn orders_stably_as_the_standard_sort_does() {
        let mut x: u64 = 7;
        for n in [0usize, 1, 2, 3, 7, 8, 9, 100, 1000, 4097] {
            let items: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 40) as u32 % 13, i)
                })
                .collect();
            let mut a = items.clone();
            let order = stable_order(a.len(), &|p, q| items[p].0 < items[q].0);
            reorder(&mut a, &order);
            let mut b = items;
            b.sort_by_key(|&(k, _)| k);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn behaves_as_a_btree_set() {
        let a: VecSet<u64> = [5, 1, 3, 9, 1].into();
        let b: VecSet<u64> = [3, 4, 5].into();
        let (sa, sb): (BTreeSet<u64>, BTreeSet<u64>) = ([5, 1, 3, 9, 1].into(), [3, 4, 5].into());
        assert!(a.iter().eq(sa.iter()));
        assert!(a.union(&b).eq(sa.union(&sb)));
        assert!(a.difference(&b).eq(sa.difference(&sb)));
        assert!(a.intersection(&b).eq(sa.intersection(&sb)));
        assert!(a.symmetric_difference(&b).eq(sa.symmetric_difference(&sb)));
        let (mut a2, mut sa2) = (a.clone(), sa.clone());
        assert!(a2.split_off(&4).iter().eq(sa2.split_off(&4).iter()));
        assert!(a2.iter().eq(sa2.iter()));
        assert!(a.range(2..=5).eq(sa.range(2..=5)));
        assert_eq!(format!("{a:?}"), format!("{sa:?}"));
        let mut c = a.clone();
        assert!(!c.insert(3) && c.insert(4) && c.remove(&1) && !c.remove(&1));
        assert_eq!(c.iter().copied().collect::<Vec<_>>(), vec![3, 4, 5, 9]);
        assert!(b.is_subset(&c) && !a.is_subset(&c));
    }

    #[test]
    fn a_deque_set_keeps_order_and_ranges_like_a_vec_set() {
        let mut d = DequeSet::new();
        let mut v = VecSet::new();
        for x in [5u64, 1, 9, 3, 7, 3, 11, 2] {
            assert_eq!(d.insert(x), v.insert(x));
        }
        assert!(d.iter().eq(v.iter()));
        assert_eq!(d.first(), v.first());
        assert!(d.range(3..=7).eq(v.range(3..=7)));
        assert!(d.range(4..).eq(v.range(4..)));
        for x in [1u64, 4, 9, 1] {
            assert_eq!(d.remove(&x), v.remove(&x));
        }
        assert!(d.iter().eq(v.iter()));
        assert_eq!(
            (d.len(), d.contains(&7), d.contains(&9)),
            (v.len(), true, false)
        );
    }
}
