//! The `cluster` family: quorum, configuration changes and progress as a
//! run goes on, printed by the engine's own `describe()` printers (the
//! tracker's and each progress's, as etcd-io/raft's tests print them).
//!
//! - `run`: scenario commands, as in the `trace` family; the output is each
//!   command's result only (`> command : summary`).
//! - `quorum`: the configuration and its arithmetic as the page's panels
//!   show them: voters, learners, the majority, who is reachable and who
//!   acknowledged the commit.
//! - `tracker [on=N]`: the leader's (or node N's) configuration and its
//!   progress tracker.
//! - `raft [on=N]`: every running node's (or node N's) Raft in one line.

use raftlab::raft::NodeId;
use raftlab::session::exec::Session;
use raftlab::session::narrate::Said;
use raftlab::session::view::QuorumView;
use raftlab::words::renderer::Renderer;
use raftlab::words::text_en::English;

use super::runner::Case;
use super::trace::feed;

fn ids(list: &[NodeId]) -> String {
    let all: Vec<String> = list.iter().map(NodeId::to_string).collect();
    format!("({})", all.join(" "))
}

fn on(c: &Case) -> Option<NodeId> {
    c.arg("on").map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{}: on={v} is not a node", c.line))
    })
}

pub fn run(session: &mut Option<Session>, c: &Case) -> String {
    if c.cmd == "run" {
        if let Err(e) = feed(session, c) {
            return format!("error: {e}\n");
        }
        let s = session.as_mut().expect("fed");
        return s
            .take_narration()
            .iter()
            .filter(|l| matches!(l.said, Said::Result(_)))
            .map(|l| English.trace(l) + "\n")
            .collect();
    }
    let Some(s) = session else {
        return "no run yet\n".into();
    };
    let cluster = s.cluster();
    match c.cmd.as_str() {
        "quorum" => {
            let q = QuorumView::of(cluster);
            format!(
                "voters={} learners={} quorum={}\nfrom={} reachable={} has-quorum={}\nleader={} commit={} acked={}\n",
                ids(&q.voters),
                ids(&q.learners),
                q.quorum,
                q.from.map_or("none".into(), |f| f.to_string()),
                ids(&q.reachable),
                q.has_quorum,
                q.leader.map_or("none".into(), |l| l.to_string()),
                q.commit,
                ids(&q.acked),
            )
        }
        "tracker" => {
            let Some(r) = on(c)
                .or_else(|| cluster.leader())
                .and_then(|id| cluster.world().raft(id))
            else {
                return "no such running node\n".into();
            };
            let conf = r.conf_state();
            let voters: Vec<NodeId> = conf.voters.iter().copied().collect();
            let learners: Vec<NodeId> = conf.learners.iter().copied().collect();
            format!(
                "voters={} learners={}\n{}",
                ids(&voters),
                ids(&learners),
                r.tracker().describe()
            )
        }
        "raft" => {
            let mut out = String::new();
            for n in cluster.world().nodes() {
                if on(c).is_some_and(|id| id != n.id) {
                    continue;
                }
                match &n.raft {
                    Some(r) => out.push_str(&r.describe()),
                    None if n.removed => out.push_str(&format!("{} removed", n.id)),
                    None => out.push_str(&format!("{} down", n.id)),
                }
                out.push('\n');
            }
            out
        }
        other => panic!("{}: unknown directive {other}", c.line),
    }
}
