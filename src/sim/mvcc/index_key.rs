//! A key as the store's index holds it: the text, shared with the records
//! that carry it, and its first eight bytes as one number.
//!
//! Every member finds each write's key in its index (etcd's `treeIndex`
//! is a B-tree searched the same way). Comparing the first eight bytes as a
//! number orders most pairs of keys without reading their texts: `load/17`
//! and `load/42` differ there. The order is the texts' own, so the index
//! can still be searched and ranged by `&str`.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::ops::Deref;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IndexKey {
    /// The text's first eight bytes, big-endian, zeros after a shorter
    /// text: two texts that differ there are ordered by it as by their
    /// bytes, and two that do not are ordered by `text`.
    head: u64,
    text: Rc<str>,
}

/// The first eight bytes of `s` as [`IndexKey::head`] holds them.
pub fn head_of(s: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = s.len().min(8);
    b[..n].copy_from_slice(&s.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

impl IndexKey {
    pub fn new(text: Rc<str>) -> IndexKey {
        IndexKey {
            head: head_of(&text),
            text,
        }
    }

    pub fn text(&self) -> &Rc<str> {
        &self.text
    }

    /// This key against the text `s`, whose head is `head` ([`head_of`]).
    pub fn cmp_text(&self, head: u64, s: &str) -> Ordering {
        self.head.cmp(&head).then_with(|| (*self.text).cmp(s))
    }
}

impl Ord for IndexKey {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_text(other.head, &other.text)
    }
}

impl PartialOrd for IndexKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Borrow<str> for IndexKey {
    fn borrow(&self) -> &str {
        &self.text
    }
}

impl Deref for IndexKey {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_as_the_texts_do() {
        // Shorter and longer than the head, sharing it, with zero bytes
        // (a shorter text's padding must not tie with a real zero byte),
        // and bytes above 0x7f.
        let texts = [
            "",
            "\0",
            "\0\0",
            "a",
            "a\0",
            "a\0b",
            "ab",
            "load/1",
            "load/10",
            "load/100",
            "load/2",
            "load/99",
            "load/990000",
            "load/99\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "abcdefgz",
            "\u{e9}t\u{e9}",
            "\u{7f}",
            "~",
        ];
        for a in texts {
            for b in texts {
                let (ka, kb) = (IndexKey::new(Rc::from(a)), IndexKey::new(Rc::from(b)));
                assert_eq!(ka.cmp(&kb), a.cmp(b), "{a:?} against {b:?}");
                assert_eq!(ka.cmp_text(head_of(b), b), a.cmp(b), "{a:?} against {b:?}");
                assert_eq!(ka == kb, a == b);
            }
        }
    }
}
