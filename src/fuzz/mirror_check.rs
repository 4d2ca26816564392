//! The mirror: a mirror's destination never holds a value for a key that
//! its source never had for that key.

use std::collections::BTreeSet;

use crate::session::exec::Session;

use super::verdict::{Failure, FailureKind};

/// Every mirror's destination holds, on every member, only values its source
/// had for the same key: values some source member applied, or (once the
/// source compacted its history away) values a client sent it.
pub fn mirror_copies(session: &Session) -> Vec<Failure> {
    let fleet = session.fleet();
    let mut failures = Vec::new();
    for m in fleet.mirrors() {
        let source = fleet.cluster(m.source);
        let mut had: BTreeSet<(String, String)> = BTreeSet::new();
        let mut compacted = false;
        for n in source.world().nodes() {
            let store = &n.state.mvcc;
            compacted |= store.compact_revision().is_some();
            for (_, r) in store.records_from(0) {
                if !r.tombstone {
                    had.insert((r.key.to_string(), r.value.to_string()));
                }
            }
        }
        if compacted {
            had.extend(source.history().written());
        }
        let dest = fleet.cluster(m.destination);
        for n in dest.world().nodes() {
            let bad = n
                .state
                .mvcc
                .records_from(0)
                .filter(|(_, r)| !r.tombstone)
                .find(|(_, r)| !had.contains(&(r.key.to_string(), r.value.to_string())));
            if let Some((rev, r)) = bad {
                failures.push(Failure {
                    kind: FailureKind::Mirror,
                    text: format!(
                        "mirror {}: member {} of cluster {} holds {}={:?} at revision {rev}, \
                         a value cluster {} never had for that key",
                        m.id,
                        n.id,
                        fleet.name(m.destination),
                        r.key,
                        r.value,
                        fleet.name(m.source)
                    ),
                });
                break;
            }
        }
    }
    failures
}
