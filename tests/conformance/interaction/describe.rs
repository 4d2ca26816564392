//! etcd's text forms of entries, messages, snapshots and Ready (etcd-io/raft
//! `util.go`: DescribeEntry, DescribeMessage, DescribeSnapshot,
//! DescribeReady...), over raftlab's types.
//!
//! A proposal's data is opaque to raftlab's core as to etcd's: this adapter
//! proposes its text as the payload, and an empty entry is etcd's entry with
//! no data.

use raftlab::collections::vecmap::VecSet;

use raftlab::raft::{
    ConfChangeSingle, ConfChangeType, ConfState, Entry, EntryData, HardState, Message, MessageType,
    NodeId, Snapshot, StateRole,
};

/// etcd's `%q` of a byte string (Go's strconv.Quote).
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `v2 l3 r4 u5` (etcd's ConfChangesToString).
pub fn changes_text(changes: &[ConfChangeSingle]) -> String {
    let words: Vec<String> = changes
        .iter()
        .map(|c| {
            let t = match c.change_type {
                ConfChangeType::AddNode => 'v',
                ConfChangeType::AddLearnerNode => 'l',
                ConfChangeType::RemoveNode => 'r',
                ConfChangeType::UpdateNode => 'u',
            };
            format!("{t}{}", c.node_id)
        })
        .collect();
    words.join(" ")
}

/// `1/4 EntryNormal "foo"`, `1/5 EntryConfChangeV2 v2 v3`.
pub fn entry(e: &Entry) -> String {
    let (kind, text) = match &e.data {
        EntryData::Empty => ("EntryNormal", quote("")),
        EntryData::Normal(data) => (
            "EntryNormal",
            quote(data.get::<String>().map_or("", String::as_str)),
        ),
        EntryData::ConfChange(cc) => ("EntryConfChange", changes_text(&cc.as_v2().changes)),
        EntryData::ConfChangeV2(cc) => ("EntryConfChangeV2", changes_text(&cc.changes)),
    };
    let text = if text.is_empty() {
        text
    } else {
        format!(" {text}")
    };
    format!("{}/{} {kind}{text}", e.term, e.index)
}

/// One entry per line (etcd's DescribeEntries).
pub fn entries<'a>(es: impl IntoIterator<Item = &'a Entry>) -> String {
    es.into_iter().map(|e| format!("{}\n", entry(e))).collect()
}

/// etcd's `raftpb.MessageType` name.
pub fn message_type(t: MessageType) -> &'static str {
    t.name()
}

/// The sender as etcd has it: for MsgTransferLeader, the transferee (etcd
/// names it in `from`; raftlab, whose network routes by `from`, carries it
/// in the context).
fn sender(m: &Message) -> NodeId {
    if m.msg_type == MessageType::TransferLeader && m.context != 0 {
        m.context
    } else {
        m.from
    }
}

/// etcd's DescribeMessage.
pub fn message(m: &Message) -> String {
    let mut s = format!(
        "{:x}->{:x} {} Term:{} Log:{}/{}",
        sender(m),
        m.to,
        message_type(m.msg_type),
        m.term,
        m.log_term,
        m.index
    );
    if m.reject {
        s.push_str(&format!(" Rejected (Hint: {})", m.reject_hint));
    }
    if m.commit != 0 {
        s.push_str(&format!(" Commit:{}", m.commit));
    }
    match m.entries.as_slice() {
        [] => {}
        [e] => s.push_str(&format!(" Entries:[{}]", entry(e))),
        es => {
            s.push_str(" Entries:[");
            for e in es {
                s.push_str(&format!("\n  {}", entry(e)));
            }
            s.push_str("\n]");
        }
    }
    if let Some(snap) = m.snapshot.as_ref().filter(|s| s.metadata.index != 0) {
        s.push_str(&format!("\n  Snapshot: {}", snapshot(snap)));
    }
    s
}

fn ids(set: &VecSet<NodeId>) -> String {
    let v: Vec<String> = set.iter().map(u64::to_string).collect();
    format!("[{}]", v.join(" "))
}

/// etcd's DescribeConfState.
pub fn conf_state(cs: &ConfState) -> String {
    format!(
        "Voters:{} VotersOutgoing:{} Learners:{} LearnersNext:{} AutoLeave:{}",
        ids(&cs.voters),
        ids(&cs.voters_outgoing),
        ids(&cs.learners),
        ids(&cs.learners_next),
        cs.auto_leave
    )
}

/// etcd's DescribeSnapshot.
pub fn snapshot(s: &Snapshot) -> String {
    let m = &s.metadata;
    format!(
        "Index:{} Term:{} ConfState:{}",
        m.index,
        m.term,
        conf_state(&m.conf_state)
    )
}

/// etcd's DescribeHardState.
pub fn hard_state(hs: &HardState) -> String {
    let mut s = format!("Term:{}", hs.term);
    if hs.vote != 0 {
        s.push_str(&format!(" Vote:{}", hs.vote));
    }
    s.push_str(&format!(" Commit:{}", hs.commit));
    s
}

/// etcd's StateType name.
pub fn role(r: StateRole) -> &'static str {
    match r {
        StateRole::Follower => "StateFollower",
        StateRole::PreCandidate => "StatePreCandidate",
        StateRole::Candidate => "StateCandidate",
        StateRole::Leader => "StateLeader",
    }
}

/// What one Ready holds (etcd's Ready, synchronous storage).
pub struct Ready {
    pub soft: Option<(NodeId, StateRole)>,
    pub hard: Option<HardState>,
    pub entries: Vec<Entry>,
    pub snapshot: Option<Snapshot>,
    pub committed: Vec<Entry>,
    pub messages: Vec<Message>,
    pub must_sync: bool,
}

/// etcd's DescribeReady.
pub fn ready(rd: &Ready) -> String {
    let mut s = String::new();
    if let Some((lead, r)) = rd.soft {
        s.push_str(&format!("Lead:{lead} State:{}\n", role(r)));
    }
    if let Some(hs) = rd.hard.filter(|hs| *hs != HardState::default()) {
        s.push_str(&format!("HardState {}\n", hard_state(&hs)));
    }
    if !rd.entries.is_empty() {
        s.push_str("Entries:\n");
        s.push_str(&entries(&rd.entries));
    }
    if let Some(snap) = &rd.snapshot {
        s.push_str(&format!("Snapshot {}\n", snapshot(snap)));
    }
    if !rd.committed.is_empty() {
        s.push_str("CommittedEntries:\n");
        s.push_str(&entries(&rd.committed));
    }
    if !rd.messages.is_empty() {
        s.push_str("Messages:\n");
        for m in &rd.messages {
            s.push_str(&message(m));
            s.push('\n');
        }
    }
    if s.is_empty() {
        "<empty Ready>".to_string()
    } else {
        format!("Ready MustSync={}:\n{s}", rd.must_sync)
    }
}
