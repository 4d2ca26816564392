//! Why a command failed, in English: the report's `detail` (and the
//! command line's), which the report's contract gives in English
//! (`docs/scenario-language.md`). The page says it in its reader's language
//! from the same facts (`crate::words`); the English renderer uses these
//! sentences too.

use crate::lang::ast::{format_duration, format_quoted};
use crate::server::request::DEADLINE_EXCEEDED;
use crate::server::{ErrorCode, ErrorDetail, SelfView, ServerError, UrlProblem, Waited};
use crate::session::cond::{SetName, Unmet};
use crate::session::failure::Failure;
use crate::sim::linearizability::{Anomaly, OpName};
use crate::text::fixed::Fixed;

/// A server's refusal or failure in English: the report's `detail`. etcd's
/// own text follows raftlab's facts, as etcd's client would print it.
pub fn server_detail(e: &ServerError) -> String {
    use ErrorDetail::*;
    let etcd = e.code.etcd_text();
    match &e.why {
        EtcdText => etcd.to_string(),
        Membership(m) => m.etcd_text().to_string(),
        NoLeaderKnown { via } => format!("member {via} knows no leader: {etcd}"),
        NoMemberRunning => format!("no member is running: {etcd}"),
        ProposalDropped { why } => format!("{why}: {etcd}"),
        Unexpected { outcome } => format!("unexpected outcome {outcome}"),
        Removed { id } => {
            format!("member {id} was removed from the cluster; its process has stopped")
        }
        RemovedCannotReturn { id } => {
            format!("member {id} was removed from the cluster; it cannot come back")
        }
        RemovedForGood { id } => format!("member {id} was removed; its process stopped for good"),
        NotRunning { id } => format!("member {id}'s process is not running"),
        NodeDown { id } => format!("node {id}'s process is not running"),
        Stopped { id, in_raft: false } => {
            format!("member {id} stopped, removed from the cluster: {etcd}")
        }
        Stopped { id, in_raft: true } => format!(
            "member {id} stopped, removed from the cluster, while the request waited for a leader: raft: stopped"
        ),
        AlreadyRunning { id } => format!("node {id}'s process is already running"),
        NotAMember { id } => {
            format!("node {id} is not a member: add it with `member add {id}` first")
        }
        NoSuchNode { id } => format!("there is no node {id}"),
        LearnerRpc { via } => format!("member {via} is a learner: {etcd}"),
        NotTracked { leader, id } => format!("leader {leader} tracks no member {id}: {etcd}"),
        ReadOnlyLearner { id, mode } => {
            format!("member {id} is a read-only learner ({mode}): {etcd}")
        }
        LearnerNotReady {
            id,
            learner,
            learner_match,
            leader_match,
            percent,
        } => {
            let (role, why) = match learner {
                true => ("learner", ""),
                false => (
                    "voter",
                    " (etcd measures a promotion's match before it finds that the member is no learner)",
                ),
            };
            format!(
                "{role} {id} match {learner_match} < {percent}% of leader match {leader_match}{why}"
            )
        }
        NotEnoughStarted {
            started,
            quorum,
            voters,
            others,
        } => format!(
            "{started} {}started voter{} would be fewer than the quorum {quorum} of {voters} \
             voters: {etcd}",
            if *others { "other " } else { "" },
            if *started == 1 { "" } else { "s" }
        ),
        UnhealthyNotAll {
            connected,
            voters,
            release,
        } => format!(
            "connected for 5s to {connected} of the {voters} voters; etcd {release} asks for all \
             of them: {etcd}"
        ),
        UnhealthyAdd {
            connected,
            quorum,
            members,
        } => format!(
            "connected for 5s to {} (itself counted), fewer than the quorum {quorum} of the \
             {members} members after the add; a peer counts once connected for 5s: {etcd}",
            count(*connected as u64, "voter", "voters")
        ),
        UnhealthyRemove {
            connected,
            voters,
            remain,
            quorum,
            after,
        } => format!(
            "connected for 5s to {connected} of {voters} voters; {remain} would remain, fewer \
             than the quorum {quorum} of {after} voters: {etcd}"
        ),
        BadPeerUrl { url, problem } => {
            format!("peer URL {url:?}: {} ({etcd})", url_problem(problem))
        }
        PeerListener {
            id,
            peer_url,
            go_error,
        } => format!(
            "member {id}'s process on host n{id} cannot listen on its peer URL {peer_url}: \
             etcd exits at start-up with \"creating peer listener failed\": {go_error}"
        ),
        BadTransferee { to, learner: false } => {
            format!("member {to} is not in the cluster: {etcd}")
        }
        BadTransferee { to, learner: true } => format!("member {to} is a learner: {etcd}"),
        Deadline {
            waited,
            raft_refused,
        } => deadline(waited, *raft_refused),
        WatchCanceled {
            watch,
            compact_revision,
        } => format!("watch {watch} was cancelled: {etcd} (compact revision {compact_revision})"),
        IdInCluster { id, cluster } => format!("id {id} is already a node of cluster {cluster}"),
        MirrorExists { id } => format!("id {id} is already a mirror process"),
        ClusterNameTaken { name } => format!("there is already a cluster named {name}"),
        MirrorSameCluster { from, to, cluster } => format!(
            "{from} and {to} are both in cluster {cluster}: a mirror copies into another cluster"
        ),
        NoSuchMirror { id } => format!("there is no mirror process {id}"),
        NoLinkAcross { a, b } => format!(
            "no link joins {a} and {b}: they are in different clusters, or one is a mirror \
             process, linked only to the two members it reads from and writes to"
        ),
        NothingToDeliver { link, held } => {
            let on = link.map_or(String::new(), |(a, b)| format!(" from {a} to {b}"));
            match held {
                0 => format!("no message is on its way{on}"),
                n => format!(
                    "no message is on its way{on} that is not held ({n} held: release delivers \
                     them)"
                ),
            }
        }
        NothingToDrop { from, to, kind, id } => {
            let kind = kind.map_or("message".to_string(), |k| k.name().to_string());
            let id = id.map_or(String::new(), |i| format!(" numbered {i}"));
            format!("no {kind}{id} from {from} to {to} is in flight or held")
        }
    }
}

/// What etcd's client says of a peer URL it refuses (Go's `url.Parse`
/// error, or the rule of etcd's `types.NewURLs` it breaks).
pub fn url_problem(problem: &UrlProblem) -> String {
    match problem {
        UrlProblem::Parse { input, go_error } => format!("parse {input:?}: {go_error}"),
        UrlProblem::Rule { input, rule } => format!("{rule}: {input}"),
    }
}

/// A request whose wait ended: what it waited for, and raft's refusal of
/// the change, if raft refused it.
fn deadline(waited: &Waited, raft_refused: Option<&str>) -> String {
    let what = match waited {
        Waited::Transfer { to } => format!("leadership did not move to {to} in time"),
        Waited::NoLeaderAt { via } => {
            format!("{DEADLINE_EXCEEDED}: member {via} knew no leader to send the request to")
        }
        Waited::NoMember => {
            format!("{DEADLINE_EXCEEDED}: no member was running to take the request")
        }
        Waited::NotRunning { via } => format!(
            "{DEADLINE_EXCEEDED}: member {via}'s process was not running, and the client could not connect to it"
        ),
        Waited::ClientDeadline => DEADLINE_EXCEEDED.to_string(),
        Waited::ServerTimeout => ErrorCode::Timeout.etcd_text().to_string(),
    };
    match raft_refused {
        Some(reason) => format!("{what} (raft refused the change: {reason})"),
        None => what,
    }
}

/// What was true instead of a condition, in English.
pub fn unmet(u: &Unmet) -> String {
    match u {
        Unmet::NoLeader => "there is no leader".to_string(),
        Unmet::LeaderIs(l) => format!("the leader is {l}"),
        Unmet::Match { id, matched, last } => {
            format!("the leader's match for {id} is {matched} of {last}")
        }
        Unmet::NotTracked(id) => format!("the leader tracks no progress for {id}"),
        Unmet::NotApplied { commit, behind } => {
            let each: Vec<String> = behind
                .iter()
                .map(|(id, applied)| format!("{id} has applied {applied}"))
                .collect();
            format!("the leader's commit is {commit} but {}", each.join(", "))
        }
        Unmet::Quorum(q) => format!("the quorum is {q}"),
        Unmet::Set { set, actual } => {
            let what = match set {
                SetName::Voters => "voters",
                SetName::Learners => "learners",
                SetName::OutgoingVoters => "outgoing voters",
            };
            let ids: Vec<String> = actual.iter().map(|id| id.to_string()).collect();
            format!("the {what} are [{}]", ids.join(","))
        }
        Unmet::Term(t) => format!("the term is {t}"),
        Unmet::Commit(c) => format!("the leader's commit index is {c}"),
        Unmet::Role { id, actual } => format!("node {id} is {actual}"),
        Unmet::SeesItself { id, actual } => match actual {
            None => format!("node {id} is down"),
            Some(SelfView::Outside) => format!("node {id} is not in its own configuration"),
            Some(kind) => format!("node {id} sees itself as a {}", kind.name()),
        },
        Unmet::Progress { id, actual } => format!("the leader's progress for {id} is {actual}"),
        Unmet::NoPrevious => "there is no previous command".to_string(),
        Unmet::PreviousFailed(code) => format!("the previous command failed with {code}"),
        Unmet::PreviousSucceeded => "the previous command succeeded".to_string(),
        Unmet::PreviousNotGet => "the previous command was not a get".to_string(),
        Unmet::PreviousRead(Some(v)) => format!("the previous get read {}", format_quoted(v)),
        Unmet::PreviousRead(None) => "the previous get found no such key".to_string(),
        Unmet::Anomaly(None) => String::new(),
        Unmet::Anomaly(Some(a)) => anomaly(a),
        Unmet::Linearizable { operations, keys } => {
            format!("the history of {operations} operations on {keys} keys is linearizable")
        }
        Unmet::NoWatch(w) => format!("there is no watch {w}"),
        Unmet::Mirror { id, actual: None } => format!("there is no mirror process {id}"),
        Unmet::MirrorError { id, code: None } => format!("mirror {id} has not failed"),
        Unmet::MirrorError {
            id,
            code: Some(code),
        } => format!("mirror {id} failed with {code}"),
        Unmet::Mirror {
            id,
            actual: Some(state),
        } => format!("mirror {id} is {state}"),
        Unmet::WatchEvents { watch, events } => {
            format!(
                "watch {watch} has received {}",
                count(*events, "event", "events")
            )
        }
        Unmet::WatchOpen { watch, events } => {
            format!(
                "watch {watch} is still open ({} received)",
                count(*events as u64, "event", "events")
            )
        }
        Unmet::Queued {
            node,
            named,
            queued,
        } => {
            let whose = if *named {
                format!("node {node}'s")
            } else {
                format!("the leader's ({node})")
            };
            format!("{whose} send queue holds {queued} bytes")
        }
        Unmet::Messages { id, out, count: n } => {
            let verb = if *out { "sent" } else { "received" };
            format!(
                "node {id} {verb} {} during the previous command",
                count(*n, "message", "messages")
            )
        }
        Unmet::OnLink {
            from,
            to,
            held,
            count: n,
        } => {
            let what = count(*n, "message", "messages");
            let (is, its) = if *n == 1 {
                ("is", "its")
            } else {
                ("are", "their")
            };
            match held {
                true => format!("{what} {is} held from {from} to {to}"),
                false => format!("{what} {is} on {its} way from {from} to {to}, not held"),
            }
        }
    }
}

/// The operations on one key that no order explains, each with its
/// moments.
fn anomaly(a: &Anomaly) -> String {
    let ops: Vec<String> = a
        .operations
        .iter()
        .map(|op| {
            let what = match (op.kind, &op.value) {
                (OpName::Write, Some(v)) => format!("write {}", format_quoted(v)),
                (OpName::Read, Some(v)) => format!("read {}", format_quoted(v)),
                (OpName::Read, None) => "read (absent)".to_string(),
                (OpName::Write, None) | (OpName::Delete, _) => "delete".to_string(),
            };
            let end = op.response_ms.map_or("no answer".to_string(), |r| {
                format!("{}s", Fixed(r as f64 / 1000.0, 2))
            });
            format!("{what} ({}s–{end})", Fixed(op.invoke_ms as f64 / 1000.0, 2))
        })
        .collect();
    format!(
        "operations on key {} that no order explains: {}",
        format_quoted(&a.key),
        ops.join(", ")
    )
}

/// `n` and its noun, `one` for 1, `many` otherwise.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Why a command failed, in English: the report's `detail`.
pub fn failure_detail(f: &Failure) -> String {
    match f {
        Failure::Server(e) => server_detail(e),
        Failure::Expect { cond, unmet: u } => format!("expected {cond}, but {}", unmet(u)),
        Failure::WaitUntil {
            cond,
            within_ms,
            unmet: u,
        } => format!(
            "{cond} did not hold within {}: {}",
            format_duration(*within_ms),
            unmet(u)
        ),
        Failure::Stopped(stop) => stop.message.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_is_singular() {
        let on = |held, count| {
            unmet(&Unmet::OnLink {
                from: 1,
                to: 2,
                held,
                count,
            })
        };
        assert_eq!(on(true, 1), "1 message is held from 1 to 2");
        assert_eq!(on(true, 3), "3 messages are held from 1 to 2");
        assert_eq!(
            on(false, 1),
            "1 message is on its way from 1 to 2, not held"
        );
        assert_eq!(
            on(false, 0),
            "0 messages are on their way from 1 to 2, not held"
        );
        let sent = |count| {
            unmet(&Unmet::Messages {
                id: 1,
                out: true,
                count,
            })
        };
        assert_eq!(sent(1), "node 1 sent 1 message during the previous command");
        assert_eq!(
            sent(2),
            "node 1 sent 2 messages during the previous command"
        );
    }

    #[test]
    fn the_strict_checks_count_one_voter_or_several() {
        let add = |connected| {
            server_detail(&ServerError::new(
                ErrorCode::Unhealthy,
                ErrorDetail::UnhealthyAdd {
                    connected,
                    quorum: 3,
                    members: 4,
                },
            ))
        };
        assert_eq!(
            add(1),
            "connected for 5s to 1 voter (itself counted), fewer than the quorum 3 of the 4 \
             members after the add; a peer counts once connected for 5s: etcdserver: unhealthy cluster"
        );
        assert!(
            add(2).starts_with("connected for 5s to 2 voters (itself counted)"),
            "{}",
            add(2)
        );
        let started = |started| {
            server_detail(&ServerError::new(
                ErrorCode::NotEnoughStartedMembers,
                ErrorDetail::NotEnoughStarted {
                    started,
                    quorum: 3,
                    voters: 4,
                    others: false,
                },
            ))
        };
        assert!(
            started(1).starts_with("1 started voter would be fewer than the quorum 3 of 4 voters"),
            "{}",
            started(1)
        );
        assert!(
            started(2).starts_with("2 started voters would be"),
            "{}",
            started(2)
        );
    }
}
