//! The names the language gives Raft's message types (`drop 1->2
//! kind=app`, the report's `messages[].kind`): etcd-raft's `MessageType`
//! without its `Msg` prefix, in lower case with dashes (`MsgAppResp` is
//! `app-resp`, `MsgSnap` is `snapshot`). The two local types, MsgHup and
//! MsgBeat, never cross the network and have no name here.

use crate::raft::MessageType;

/// Every kind a message on the network can be, in etcd's order.
pub const MESSAGE_KINDS: [(&str, MessageType); 14] = [
    ("app", MessageType::App),
    ("app-resp", MessageType::AppResp),
    ("heartbeat", MessageType::Heartbeat),
    ("heartbeat-resp", MessageType::HeartbeatResp),
    ("vote", MessageType::Vote),
    ("vote-resp", MessageType::VoteResp),
    ("pre-vote", MessageType::PreVote),
    ("pre-vote-resp", MessageType::PreVoteResp),
    ("snapshot", MessageType::Snap),
    ("timeout-now", MessageType::TimeoutNow),
    ("read-index", MessageType::ReadIndex),
    ("read-index-resp", MessageType::ReadIndexResp),
    ("prop", MessageType::Prop),
    ("transfer-leader", MessageType::TransferLeader),
];

/// The language's name of a message type (`hup` and `beat` for the two
/// local ones, which no command names).
pub fn kind_name(kind: MessageType) -> &'static str {
    match MESSAGE_KINDS.iter().find(|(_, k)| *k == kind) {
        Some((name, _)) => name,
        None if kind == MessageType::Hup => "hup",
        None => "beat",
    }
}

/// The message type a name stands for.
pub fn kind_named(name: &str) -> Option<MessageType> {
    MESSAGE_KINDS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, k)| *k)
}

/// The language's name of a type written as etcd-raft writes it
/// (`MsgAppResp`, any case): what a refusal suggests to a reader of etcd.
pub fn kind_named_as_etcd(name: &str) -> Option<&'static str> {
    MESSAGE_KINDS
        .iter()
        .find(|(_, k)| k.name().eq_ignore_ascii_case(name))
        .map(|(n, _)| *n)
}

/// The names, in the order an error message lists them.
pub fn kind_names() -> Vec<&'static str> {
    MESSAGE_KINDS.iter().map(|(n, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_and_is_etcds_name_in_lower_case() {
        for (name, kind) in MESSAGE_KINDS {
            assert_eq!(kind_named(name), Some(kind));
            assert_eq!(kind_name(kind), name);
            // MsgAppResp is app-resp; MsgSnap alone is spelled out.
            let etcd: String = kind
                .name()
                .trim_start_matches("Msg")
                .chars()
                .flat_map(|c| {
                    let dash = c.is_ascii_uppercase().then_some('-');
                    dash.into_iter()
                        .chain(std::iter::once(c.to_ascii_lowercase()))
                })
                .collect();
            let etcd = etcd.trim_start_matches('-').replace("snap", "snapshot");
            assert_eq!(etcd, name, "{}", kind.name());
        }
        assert_eq!(kind_named("hup"), None);
        assert_eq!(kind_named("App"), None);
        assert_eq!(kind_named_as_etcd("MsgSnap"), Some("snapshot"));
        assert_eq!(kind_named_as_etcd("msgpreVOTEresp"), Some("pre-vote-resp"));
        // Local types have no name on the network.
        assert_eq!(kind_named_as_etcd("MsgHup"), None);
    }
}
