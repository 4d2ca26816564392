//! Application data that Raft carries, stores and sends without reading it:
//! etcd's `[]byte` fields (a normal entry's `Data`, a configuration change's
//! `Context`, a snapshot's `Data`). The core only knows how many bytes it
//! weighs on the wire; the application puts a value of its own type in and
//! takes it back out by that type (`get::<T>()`). The simulated etcd
//! processes put their own requests, change contexts and applied state here
//! (`sim::kv`); the core never names those types.
//!
//! A value, not bytes: it is shared (`Rc`), never serialised, so a snapshot
//! of a large store costs nothing to hand around, and two payloads compare
//! equal when their values do.

use std::any::Any;
use std::fmt;
use std::rc::Rc;

use crate::collections::heap::{HeapSize, Meter};

/// An opaque payload (empty by default: etcd's nil `Data`).
#[derive(Clone)]
pub struct Opaque {
    value: Option<Rc<dyn Any>>,
    /// Bytes on the wire.
    size: u64,
    /// Compares two values of the type this payload was made from.
    eq: fn(&dyn Any, &dyn Any) -> bool,
    /// Prints the value (for `Debug` only). Not in the page's module: a
    /// printer kept here for every payload type would keep the derived
    /// `Debug` of each of them there (the store's records and images, the
    /// server's errors: 2 KB gzipped), and the page never prints a payload.
    #[cfg(not(target_arch = "wasm32"))]
    debug: fn(&dyn Any, &mut fmt::Formatter<'_>) -> fmt::Result,
    /// Counts what the value owns (nothing for a payload made with
    /// [`Opaque::new`]: only its allocation counts).
    heap: fn(&dyn Any, &mut Meter),
}

impl Opaque {
    /// `value`, weighing `size` bytes on the wire.
    pub fn new<T: Any + fmt::Debug + PartialEq>(value: T, size: u64) -> Opaque {
        Opaque::shared(Rc::new(value), size)
    }

    /// A value already shared, weighing `size` bytes on the wire.
    pub fn shared<T: Any + fmt::Debug + PartialEq>(value: Rc<T>, size: u64) -> Opaque {
        Opaque {
            value: Some(value),
            size,
            eq: |a, b| a.downcast_ref::<T>() == b.downcast_ref::<T>(),
            #[cfg(not(target_arch = "wasm32"))]
            debug: |v, f| match v.downcast_ref::<T>() {
                Some(v) => v.fmt(f),
                None => f.write_str("?"),
            },
            heap: |_, _| {},
        }
    }

    /// [`Opaque::new`] for a value whose memory the session's meter counts
    /// (`Session::memory_bytes`): what it owns, walked by its [`HeapSize`].
    pub fn metered<T: Any + fmt::Debug + PartialEq + HeapSize>(value: T, size: u64) -> Opaque {
        Opaque {
            heap: |v, m| {
                if let Some(v) = v.downcast_ref::<T>() {
                    v.heap_size(m);
                }
            },
            ..Opaque::new(value, size)
        }
    }

    /// Counts the payload: its share of the shared value and of what that
    /// owns.
    pub fn heap_size(&self, m: &mut Meter) {
        if let Some(v) = &self.value {
            let ptr = Rc::as_ptr(v) as *const u8 as usize;
            m.shared_dyn(ptr, Rc::strong_count(v), std::mem::size_of_val(&**v), |m| {
                (self.heap)(&**v, m)
            });
        }
    }

    /// Bytes this payload weighs on the wire (0 when empty).
    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.value.is_none()
    }

    /// The value, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.value.as_deref().and_then(|v| v.downcast_ref())
    }

    /// The shared value, if it is a `T`.
    pub fn get_rc<T: Any>(&self) -> Option<Rc<T>> {
        self.value.clone().and_then(|v| v.downcast().ok())
    }
}

impl Default for Opaque {
    fn default() -> Opaque {
        Opaque {
            value: None,
            size: 0,
            eq: |_, _| true,
            #[cfg(not(target_arch = "wasm32"))]
            debug: |_, f| f.write_str("empty"),
            heap: |_, _| {},
        }
    }
}

impl PartialEq for Opaque {
    fn eq(&self, other: &Opaque) -> bool {
        self.size == other.size
            && match (&self.value, &other.value) {
                (None, None) => true,
                (Some(a), Some(b)) => Rc::ptr_eq(a, b) || (self.eq)(&**a, &**b),
                _ => false,
            }
    }
}

impl Eq for Opaque {}

impl fmt::Debug for Opaque {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            #[cfg(not(target_arch = "wasm32"))]
            Some(v) => (self.debug)(&**v, f),
            #[cfg(target_arch = "wasm32")]
            Some(_) => write!(f, "payload of {} bytes", self.size),
            None => f.write_str("empty"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_is_read_back_by_its_type_and_compared_by_value() {
        let a = Opaque::new(String::from("x"), 1);
        assert_eq!(a.get::<String>().map(String::as_str), Some("x"));
        assert_eq!(a.get::<u64>(), None);
        assert_eq!(a.size(), 1);
        assert_eq!(a, Opaque::new(String::from("x"), 1));
        assert_ne!(a, Opaque::new(String::from("y"), 1));
        // Another type, even with equal bytes, is another value.
        assert_ne!(Opaque::new(1u64, 8), Opaque::new(1i64, 8));
        assert_ne!(a, Opaque::default());
        assert_eq!(Opaque::default(), Opaque::default());
        assert!(Opaque::default().is_empty() && Opaque::default().get::<String>().is_none());
        assert_eq!(format!("{a:?}"), "\"x\"");
    }
}
