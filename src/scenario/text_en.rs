//! The English renderer: every sentence a reader of raftlab reads in
//! English (panel verdicts, and soon event sentences and command results)
//! is made here, from structured data, at the last moment. A second
//! language is one more module implementing [`Renderer`] beside this one.

use crate::raft::NodeId;

use super::narrate::Renderer;
use super::view::QuorumView;

/// raftlab in English.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct English;

/// "1, 2, 3".
fn list(ids: &[NodeId]) -> String {
    ids.iter()
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Renderer for English {
    fn quorum_verdict(&self, q: &QuorumView) -> String {
        let Some(leader) = q.leader else {
            return "no leader: no write can commit until an election is won".to_string();
        };
        let (n, voters) = (q.reachable.len(), q.voters.len());
        if q.can_reach_quorum {
            format!(
                "leader {leader} reaches {n} of {voters} voters: quorum {} holds",
                q.quorum
            )
        } else {
            format!(
                "leader {leader} reaches only {n} of {voters} voters (quorum {}): it will step down",
                q.quorum
            )
        }
    }

    fn quorum_sentence(&self, q: &QuorumView) -> String {
        let mut s = format!(
            "Voters: {} ({}). Quorum: {}.",
            q.voters.len(),
            list(&q.voters),
            q.quorum
        );
        if !q.learners.is_empty() {
            s += &format!(" Learners (not counted): {}.", list(&q.learners));
        }
        let Some(from) = q.from else {
            s += " No member is running.";
            return s;
        };
        let who = if q.leader == Some(from) {
            format!("Leader {from}")
        } else {
            format!("No leader; node {from} (highest term)")
        };
        let n = q.reachable.len();
        s += &format!(
            " {who} reaches {n} voter{} ({}): ",
            if n == 1 { "" } else { "s" },
            list(&q.reachable)
        );
        if q.has_quorum {
            s += "a quorum.";
        } else {
            s += &format!("{} short of the quorum.", q.quorum.saturating_sub(n));
        }
        s
    }
}
