//! etcd's error texts, as etcdctl prints them, and the raftlab error code
//! each stands for: the one place `raftlab diff` maps them. The texts are
//! etcd's `api/v3rpc/rpctypes/error.go` (`ErrGRPC...`), etcdctl's own, Go's
//! and gRPC's; a text that stands for no code is kept whole (the comparison
//! then shows it as it is).

use crate::server::ErrorCode;

/// Each text and its code, the first match wins: a longer text comes before
/// a text it starts with.
pub const ERRORS: &[(&str, ErrorCode)] = &[
    (
        "etcdserver: can only promote a learner member which is in sync with leader",
        ErrorCode::LearnerNotReady,
    ),
    (
        "etcdserver: can only promote a learner member",
        ErrorCode::MemberNotLearner,
    ),
    (
        "etcdserver: too many learner members in cluster",
        ErrorCode::TooManyLearners,
    ),
    (
        "etcdserver: re-configuration failed due to not enough started members",
        ErrorCode::NotEnoughStartedMembers,
    ),
    ("etcdserver: unhealthy cluster", ErrorCode::Unhealthy),
    ("etcdserver: member ID already exist", ErrorCode::IdExists),
    (
        "etcdserver: Peer URLs already exists",
        ErrorCode::PeerUrlExists,
    ),
    // etcd answers a removed id as not found (`toGRPCErrorMap`:
    // `membership.ErrIDRemoved` is `ErrGRPCMemberNotFound`).
    ("etcdserver: member not found", ErrorCode::MemberNotFound),
    (
        "etcdserver: given member URLs are invalid",
        ErrorCode::BadUrl,
    ),
    // etcdctl checks peer URLs itself before it sends (`types.NewURLs`).
    (
        "URL scheme must be http, https, unix, or unixs",
        ErrorCode::BadUrl,
    ),
    (
        "URL address does not have the form \"host:port\"",
        ErrorCode::BadUrl,
    ),
    ("URL must not contain a path", ErrorCode::BadUrl),
    (
        "etcdserver: bad leader transferee",
        ErrorCode::BadLeaderTransferee,
    ),
    (
        "etcdserver: rpc not supported for learner",
        ErrorCode::NotSupportedForLearner,
    ),
    ("etcdserver: server stopped", ErrorCode::ServerStopped),
    ("raft: stopped", ErrorCode::ServerStopped),
    ("etcdserver: no leader", ErrorCode::NoLeader),
    // etcdctl move-leader finds no endpoint that leads.
    ("no leader endpoint given", ErrorCode::NoLeader),
    // Also "..., possibly due to previous leader failure" and "..., possibly
    // due to connection lost".
    ("etcdserver: request timed out", ErrorCode::Timeout),
    ("context deadline exceeded", ErrorCode::Timeout),
    ("etcdserver: key is not provided", ErrorCode::EmptyKey),
    (
        "etcdserver: mvcc: required revision has been compacted",
        ErrorCode::Compacted,
    ),
    (
        "etcdserver: mvcc: required revision is a future revision",
        ErrorCode::FutureRev,
    ),
    // A member's process that cannot start: its log's last words
    // (`embed.StartEtcd`, `configurePeerListeners`; a removed member's
    // `etcdserver` "the member has been permanently removed").
    ("creating peer listener failed", ErrorCode::BadUrl),
    ("bind: cannot assign requested address", ErrorCode::BadUrl),
    (
        "the member has been permanently removed from the cluster",
        ErrorCode::IdRemoved,
    ),
    // The connection to the member broke under the request (its process
    // died): clientv3 does not retry a write then.
    ("transport is closing", ErrorCode::NotStarted),
    ("error reading from server: EOF", ErrorCode::NotStarted),
    ("connection reset by peer", ErrorCode::NotStarted),
];

/// The raftlab code etcd's `text` stands for, if any.
pub fn code_of(text: &str) -> Option<ErrorCode> {
    ERRORS
        .iter()
        .find(|(t, _)| text.contains(t))
        .map(|&(_, code)| code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etcds_texts_map_to_raftlabs_codes_longest_first() {
        let cases = [
            (
                "Error: etcdserver: can only promote a learner member which is in sync with leader",
                ErrorCode::LearnerNotReady,
            ),
            (
                "Error: etcdserver: can only promote a learner member",
                ErrorCode::MemberNotLearner,
            ),
            (
                "rpc error: code = Unknown desc = context deadline exceeded",
                ErrorCode::Timeout,
            ),
            (
                "etcdserver: request timed out, possibly due to connection lost",
                ErrorCode::Timeout,
            ),
            ("Error: etcdserver: unhealthy cluster", ErrorCode::Unhealthy),
            (
                "URL must not contain a path: http://127.0.0.1:21024/",
                ErrorCode::BadUrl,
            ),
        ];
        for (text, code) in cases {
            assert_eq!(code_of(text), Some(code), "{text}");
        }
        assert_eq!(code_of("etcdserver: leader changed"), None);
        // Every code the table names is one of raftlab's, and no text is
        // shadowed by an earlier one it contains.
        for (i, (t, _)) in ERRORS.iter().enumerate() {
            for (earlier, _) in &ERRORS[..i] {
                assert!(!t.contains(earlier), "{t:?} is shadowed by {earlier:?}");
            }
        }
    }
}
