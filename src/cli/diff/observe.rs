//! Looking at a real member without changing it, for the conditions of
//! `expect` and `wait-until`: its raft status (term, role, leader, commit,
//! applied, and a leader's progress of each peer), which etcd publishes at
//! `/debug/vars` as `raft.status` (`etcdserver/raft.go`, expvar), and the
//! member list through etcd's JSON gateway (`/v3/cluster/member/list`).
//! Plain HTTP to the member's client URL, a fraction of a second each.

use std::collections::BTreeMap;
use std::time::Duration;

use oxhttp::model::{Body, Method, Request};
use oxhttp::Client;
use serde_json::Value;

/// How long one look may take: a member that does not answer in this time
/// counts as not answering (it runs, but is hung or still starting).
const LOOK_TIMEOUT: Duration = Duration::from_millis(700);

/// A member's raft status (etcd-raft's `Status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaftStatus {
    /// Its own id, as etcd computed it.
    pub id: u64,
    pub term: u64,
    /// `leader`, `follower`, `candidate` or `pre-candidate`.
    pub role: &'static str,
    /// The leader it knows (0: none).
    pub lead: u64,
    pub commit: u64,
    pub applied: u64,
    /// A leader's view of each peer, itself included: (match, state).
    pub progress: BTreeMap<u64, (u64, &'static str)>,
}

/// One member of a member list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub id: u64,
    /// Named: it has published itself (etcd's `IsStarted`).
    pub started: bool,
    pub learner: bool,
    pub peer_urls: Vec<String>,
}

fn client() -> Client {
    Client::new().with_global_timeout(LOOK_TIMEOUT)
}

fn fetch(addr: &str, method: Method, path: &str, body: &str) -> Result<Value, String> {
    let request = Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"))
        .body(Body::from(body.to_string()))
        .map_err(|e| e.to_string())?;
    let response = client().request(request).map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("{path} answered {}", response.status()));
    }
    let text = response
        .into_body()
        .to_string()
        .map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

/// A number etcd writes as a JSON number or (its gateway) as a string, in
/// decimal; `hex` for expvar's ids, written in hexadecimal.
fn number(v: &Value, hex: bool) -> u64 {
    match v {
        Value::Number(n) => n.as_u64().unwrap_or(0),
        Value::String(s) if hex => u64::from_str_radix(s, 16).unwrap_or(0),
        Value::String(s) => s.parse().unwrap_or(0),
        _ => 0,
    }
}

fn role_name(state: &str) -> &'static str {
    match state {
        "StateLeader" => "leader",
        "StateCandidate" => "candidate",
        "StatePreCandidate" => "pre-candidate",
        _ => "follower",
    }
}

fn progress_name(state: &str) -> &'static str {
    match state {
        "StateSnapshot" => "snapshot",
        "StateReplicate" => "replicate",
        _ => "probe",
    }
}

/// The raft status of the member whose client listens at `addr`.
pub fn raft_status(addr: &str) -> Result<RaftStatus, String> {
    let vars = fetch(addr, Method::GET, "/debug/vars", "")?;
    let s = vars
        .get("raft.status")
        .ok_or("no raft.status in /debug/vars")?;
    let mut progress = BTreeMap::new();
    if let Some(p) = s.get("progress").and_then(Value::as_object) {
        for (id, pr) in p {
            let id = u64::from_str_radix(id, 16).unwrap_or(0);
            let matched = number(&pr["match"], false);
            let state = progress_name(pr["state"].as_str().unwrap_or(""));
            progress.insert(id, (matched, state));
        }
    }
    Ok(RaftStatus {
        id: number(&s["id"], true),
        term: number(&s["term"], false),
        role: role_name(s["raftState"].as_str().unwrap_or("")),
        lead: number(&s["lead"], true),
        commit: number(&s["commit"], false),
        applied: number(&s["applied"], false),
        progress,
    })
}

/// Whether the member at `addr` takes itself for a learner: its own
/// membership, as applied (etcd's `Status` answers `isLearner` from
/// `EtcdServer.IsLearner`, the local member's entry in its applied cluster;
/// the gateway leaves a false out).
pub fn is_learner(addr: &str) -> Result<bool, String> {
    let v = fetch(addr, Method::POST, "/v3/maintenance/status", "{}")?;
    Ok(status_is_learner(&v))
}

/// A `Status` answer's `isLearner`, false when left out.
pub fn status_is_learner(v: &Value) -> bool {
    v.get("isLearner").and_then(Value::as_bool).unwrap_or(false)
}

/// The member list the member at `addr` answers from its own state.
pub fn member_list(addr: &str) -> Result<Vec<Listed>, String> {
    let v = fetch(addr, Method::POST, "/v3/cluster/member/list", "{}")?;
    Ok(parse_members(&v))
}

/// The members of a MemberList response (etcdctl's `-w json` or the
/// gateway's).
pub fn parse_members(v: &Value) -> Vec<Listed> {
    v.get("members")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|m| Listed {
                    id: number(&m["ID"], false),
                    started: m["name"].as_str().is_some_and(|n| !n.is_empty()),
                    learner: m["isLearner"].as_bool().unwrap_or(false),
                    peer_urls: m["peerURLs"]
                        .as_array()
                        .map(|u| {
                            u.iter()
                                .filter_map(|x| x.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether something listens at `addr` (the member's client port).
pub fn listening(addr: &str) -> bool {
    use std::net::{TcpStream, ToSocketAddrs};
    addr.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .is_some_and(|a| TcpStream::connect_timeout(&a, Duration::from_millis(100)).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_says_learner_only_when_it_says_so() {
        let learner: Value = serde_json::from_str(
            r#"{"header":{"member_id":"1"},"version":"3.5.1","isLearner":true}"#,
        )
        .unwrap();
        let voter: Value =
            serde_json::from_str(r#"{"header":{"member_id":"1"},"version":"3.5.1"}"#).unwrap();
        assert!(status_is_learner(&learner));
        assert!(!status_is_learner(&voter));
    }

    #[test]
    fn members_and_numbers_read_as_etcdctl_and_the_gateway_write_them() {
        let etcdctl: Value = serde_json::from_str(
            r#"{"members":[{"ID":17806941506648915946,"name":"n2","peerURLs":["http://127.0.0.1:21022"],"isLearner":true},
                           {"ID":389059050481045148,"peerURLs":["http://127.0.0.1:21024"]}]}"#,
        )
        .unwrap();
        let m = parse_members(&etcdctl);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].id, 17806941506648915946);
        assert!(m[0].learner && m[0].started);
        assert!(!m[1].learner && !m[1].started);
        assert_eq!(m[1].peer_urls, ["http://127.0.0.1:21024"]);
        let gateway: Value =
            serde_json::from_str(r#"{"members":[{"ID":"389059050481045148","name":"n1"}]}"#)
                .unwrap();
        assert_eq!(parse_members(&gateway)[0].id, 389059050481045148);
        assert_eq!(
            number(&Value::String("f71ef6f47ff7bfea".into()), true),
            0xf71ef6f47ff7bfea
        );
        assert_eq!(role_name("StatePreCandidate"), "pre-candidate");
        assert_eq!(progress_name("StateReplicate"), "replicate");
    }
}
