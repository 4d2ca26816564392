//! etcd's strict reconfiguration check (`--strict-reconfig-check`): before
//! proposing a membership change, the member taking the request refuses one
//! that would leave the cluster without a quorum of started, connected
//! voters (etcdserver `mayAddMember`, `mayRemoveMember`, `mayPromoteMember`;
//! membership `IsReadyToAddVotingMember` and its siblings; the
//! connectivity helpers of etcdserver `util.go`).
//!
//! "Started" means the member has published itself at least once. The
//! connectivity is what that member's transport has noticed (see
//! `World::active_since`). Pure functions over a view of its knowledge.

use crate::raft::NodeId;

use super::error::{ErrorCode, ErrorDetail, ServerError, UrlProblem};
use super::release::Release;

/// One voting member as the member taking the request sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VoterView {
    pub id: NodeId,
    pub started: bool,
    /// Connected since before the health interval (5s) began: etcd's
    /// `isConnectedSince`. The member taking the request counts itself.
    pub connected: bool,
    /// Its peer stream is up now (`ActiveSince` is not zero).
    pub active: bool,
}

/// etcd's readiness rule for promoting a learner (`readyPercent` in
/// etcd's `isLearnerReady`): its match index must be at least this share of
/// the leader's.
pub const READINESS_RATIO: f64 = 0.9;

/// Majority of `n` voters (Raft's own arithmetic, in `raft::quorum`).
pub fn quorum(n: usize) -> usize {
    crate::raft::quorum::majority(n)
}

fn not_enough(started: usize, quorum: usize, voters: usize, others: bool) -> ServerError {
    ServerError::new(
        ErrorCode::NotEnoughStartedMembers,
        ErrorDetail::NotEnoughStarted {
            started,
            quorum,
            voters,
            others,
        },
    )
}

fn unhealthy(why: ErrorDetail) -> ServerError {
    ServerError::new(ErrorCode::Unhealthy, why)
}

/// etcd's `mayAddMember`. A voter needs the started voters to stay a quorum
/// of the larger cluster (a one-voter cluster may always grow to two). Voter
/// or learner, the member taking the request must be connected to a quorum
/// of the cluster after the add, the new member counted as not connected
/// (v3.5 and later; any cluster of one voter passes), or to every voter
/// (v3.4's `isConnectedFullySince`).
pub fn check_add(voters: &[VoterView], learner: bool, release: Release) -> Result<(), ServerError> {
    let after = voters.len() + 1;
    let started = voters.iter().filter(|v| v.started).count();
    // IsReadyToAddVotingMember; a one-started-member cluster may grow to two.
    let one_to_two = started == 1 && after == 2;
    if !learner && !one_to_two && started < quorum(after) {
        return Err(not_enough(started, quorum(after), after, false));
    }
    let connected = voters.iter().filter(|v| v.connected).count();
    if release.add_needs_every_voter() {
        if connected < voters.len() {
            return Err(unhealthy(ErrorDetail::UnhealthyNotAll {
                connected,
                voters: voters.len(),
                release,
            }));
        }
    } else if voters.len() > 1 && connected < quorum(after) {
        return Err(unhealthy(ErrorDetail::UnhealthyAdd {
            connected,
            quorum: quorum(after),
            members: after,
        }));
    }
    Ok(())
}

/// etcd's `IsReadyToPromoteMember`: the learner counts as a started voter.
pub fn check_promote(voters: &[VoterView]) -> Result<(), ServerError> {
    let after = voters.len() + 1;
    let started = voters.iter().filter(|v| v.started).count() + 1;
    if started < quorum(after) {
        return Err(not_enough(started, quorum(after), after, false));
    }
    Ok(())
}

/// etcd's `mayRemoveMember` for a member that is not a learner: the other
/// started voters must be a quorum of what remains; a member whose peer
/// stream is down now may then go at once (unless it is the member taking
/// the request); otherwise the voters connected for 5s, less one, must be
/// a quorum of what remains.
pub fn check_remove_voter(
    voters: &[VoterView],
    id: NodeId,
    local: NodeId,
) -> Result<(), ServerError> {
    let after = voters.iter().filter(|v| v.id != id).count();
    let started = voters.iter().filter(|v| v.started && v.id != id).count();
    if started < quorum(after) {
        return Err(not_enough(started, quorum(after), after, true));
    }
    let down = !voters.iter().any(|v| v.id == id && v.active);
    if id != local && down {
        return Ok(());
    }
    let connected = voters.iter().filter(|v| v.connected).count();
    // etcd: (active - 1) < 1 + (len(m)-1)/2
    if connected.saturating_sub(1) < 1 + voters.len().saturating_sub(1) / 2 {
        return Err(unhealthy(ErrorDetail::UnhealthyRemove {
            connected,
            voters: voters.len(),
            remain: connected.saturating_sub(1),
            quorum: 1 + voters.len().saturating_sub(1) / 2,
            after,
        }));
    }
    Ok(())
}

/// etcd's `isLearnerReady`, on the leader: the learner's match index must
/// be at least [`READINESS_RATIO`] (90%) of the leader's. It looks at any
/// member the leader tracks, a voter too (`learner` false): whether it is a
/// learner is asked only when the change applies.
pub fn check_learner_ready(
    id: NodeId,
    learner: bool,
    learner_match: u64,
    leader_match: u64,
) -> Result<(), ServerError> {
    if (learner_match as f64) < (leader_match as f64) * READINESS_RATIO {
        return Err(ServerError::new(
            ErrorCode::LearnerNotReady,
            ErrorDetail::LearnerNotReady {
                id,
                learner,
                learner_match,
                leader_match,
                percent: (READINESS_RATIO * 100.0).round() as u64,
            },
        ));
    }
    Ok(())
}

/// etcd's peer URL rules (client `types.NewURLs`, on Go's `url.Parse`),
/// checked when MemberAdd arrives, before anything is proposed. http and
/// https URLs need `host:port` and no path (a trailing `/` is a path); a
/// query or a fragment passes. Since v3.5 unix URLs are not checked further.
pub fn check_peer_url(url: &str, release: Release) -> Result<(), ServerError> {
    let input = url.trim();
    let problem = match parse_url(input) {
        Err(go_error) => Some(UrlProblem::Parse {
            input: input.to_string(),
            go_error,
        }),
        Ok(u) => {
            let is = |names: [&str; 2]| names.iter().any(|n| u.scheme.eq_ignore_ascii_case(n));
            let http = is(["http", "https"]);
            let checked = http || (is(["unix", "unixs"]) && release.unix_urls_checked());
            let rule = if !http && !is(["unix", "unixs"]) {
                Some("URL scheme must be http, https, unix, or unixs")
            } else if checked && !split_host_port(u.host) {
                Some("URL address does not have the form \"host:port\"")
            } else if checked && !u.path.is_empty() {
                Some("URL must not contain a path")
            } else {
                None
            };
            rule.map(|rule| UrlProblem::Rule {
                input: input.to_string(),
                rule,
            })
        }
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(ServerError::new(
            ErrorCode::BadUrl,
            ErrorDetail::BadPeerUrl {
                url: url.to_string(),
                problem,
            },
        )),
    }
}

/// The parts of a URL `check_peer_url` needs, as Go's `url.Parse` splits them.
struct ParsedUrl<'a> {
    scheme: &'a str,
    host: &'a str,
    path: &'a str,
}

fn parse_url(input: &str) -> Result<ParsedUrl<'_>, String> {
    if input.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    // The fragment, then the scheme.
    let without_fragment = input.split('#').next().unwrap_or("");
    let mut scheme = "";
    let mut rest = without_fragment;
    for (i, c) in without_fragment.char_indices() {
        match c {
            'a'..='z' | 'A'..='Z' => {}
            '0'..='9' | '+' | '-' | '.' if i > 0 => {}
            ':' if i == 0 => return Err("missing protocol scheme".into()),
            ':' => {
                (scheme, rest) = (&without_fragment[..i], &without_fragment[i + 1..]);
                break;
            }
            _ => break,
        }
    }
    let rest = rest.split('?').next().unwrap_or("");
    let Some(after) = rest.strip_prefix("//").filter(|_| !scheme.is_empty()) else {
        // Opaque or relative: no host. A relative path whose first segment
        // holds a colon is a parse error.
        if scheme.is_empty()
            && rest
                .split('/')
                .next()
                .unwrap_or("")
                .as_bytes()
                .contains(&b':')
        {
            return Err("first path segment in URL cannot contain colon".into());
        }
        let path = if rest.starts_with('/') { rest } else { "" };
        return Ok(ParsedUrl {
            scheme,
            host: "",
            path,
        });
    };
    let (authority, path) = after.split_at(after.find('/').unwrap_or(after.len()));
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let port = match host.strip_prefix('[') {
        Some(v6) => match v6.find(']') {
            Some(end) => &v6[end + 1..],
            None => return Err("missing ']' in host".into()),
        },
        None => host.rfind(':').map_or("", |i| &host[i..]),
    };
    if !port.is_empty() && !port[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid port {port:?} after host"));
    }
    let allowed = |c: char| {
        !c.is_ascii()
            || c.is_ascii_alphanumeric()
            || b"-_.~!$&'()*+,;=:[]<>\"%".contains(&(c as u8))
    };
    if let Some(c) = host.chars().find(|&c| !allowed(c)) {
        return Err(format!("invalid character \"{c}\" in host name"));
    }
    Ok(ParsedUrl { scheme, host, path })
}

/// Whether Go's `net.SplitHostPort` accepts `hostport` (the port may be
/// empty or any text; the host may be empty).
fn split_host_port(hostport: &str) -> bool {
    if let Some(v6) = hostport.strip_prefix('[') {
        return v6
            .find(']')
            .is_some_and(|end| v6[end + 1..].starts_with(':'));
    }
    match hostport.rfind(':') {
        Some(i) => !hostport.as_bytes()[..i].contains(&b':') && !hostport.contains(['[', ']']),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A voter: started, connected for 5s (`c`), stream up now (`a`).
    fn v(id: NodeId, started: bool, c: bool, a: bool) -> VoterView {
        VoterView {
            id,
            started,
            connected: c,
            active: a,
        }
    }

    fn healthy(id: NodeId) -> VoterView {
        v(id, true, true, true)
    }

    #[test]
    fn peer_urls_follow_etcd_new_urls() {
        let ok = |u: &str| check_peer_url(u, Release::V3_6).is_ok();
        // Query strings and fragments pass; Go's url.Parse allows any digits
        // as a port and an empty host.
        for good in [
            "http://n4:2380",
            "https://10.0.0.9:2380",
            "http://n4:2380?x=1",
            "http://n4:2380#top",
            "http://[::1]:2380",
            "http://:2380",
            "http://n4:99999",
            "HTTP://n4:2380",
            "unix://sock",
            "unixs://sock/path",
        ] {
            assert!(ok(good), "{good}");
        }
        for bad in [
            "n4:2380",
            "ftp://n4:2380",
            "http://n4",
            "http://n4:2380/",
            "http://n4:2380/peer",
            "http://n4:port",
            "http:n4:2380",
            "",
            ":2380",
            "http://n4 x:2380",
        ] {
            let e = check_peer_url(bad, Release::V3_6).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadUrl, "{bad}");
            assert!(
                matches!(&e.why, ErrorDetail::BadPeerUrl { url, .. } if url == bad),
                "{:?}",
                e.why
            );
        }
        let e = check_peer_url("http://n4:2380/", Release::V3_6).unwrap_err();
        assert!(
            matches!(
                &e.why,
                ErrorDetail::BadPeerUrl {
                    problem: UrlProblem::Rule {
                        rule: "URL must not contain a path",
                        ..
                    },
                    ..
                }
            ),
            "{:?}",
            e.why
        );
        // v3.4 checked unix URLs like http ones.
        assert!(check_peer_url("unix://sock", Release::V3_4).is_err());
        assert!(check_peer_url("unix://sock:1", Release::V3_4).is_ok());
    }

    #[test]
    fn adding_a_voter_to_one_started_member_is_allowed() {
        assert!(check_add(&[healthy(1)], false, Release::V3_6).is_ok());
        assert!(check_add(&[healthy(1)], false, Release::V3_4).is_ok());
    }

    #[test]
    fn adding_with_a_follower_cut_off_is_unhealthy_for_voters_and_learners() {
        // Figure 6: 3 voters, one partitioned away; after the add there are
        // 4 members, and 2 connected is fewer than their quorum of 3. etcd
        // asks the same of a learner (`mayAddMember` checks connectivity
        // whatever the new member is).
        let voters = [healthy(1), healthy(2), v(3, true, false, false)];
        for learner in [false, true] {
            for release in Release::ALL {
                let e = check_add(&voters, learner, release).unwrap_err();
                assert_eq!(e.code, ErrorCode::Unhealthy, "{learner} {release}");
            }
        }
    }

    #[test]
    fn v3_4_asks_for_every_voter_later_releases_for_a_quorum() {
        // 5 voters, one not connected: a quorum of 6 is 4, and 4 are connected.
        let mut voters: Vec<VoterView> = (1..=4).map(healthy).collect();
        voters.push(v(5, true, false, false));
        assert!(check_add(&voters, true, Release::V3_5).is_ok());
        assert!(check_add(&voters, true, Release::V3_6).is_ok());
        assert_eq!(
            check_add(&voters, true, Release::V3_4).unwrap_err().code,
            ErrorCode::Unhealthy
        );
    }

    #[test]
    fn adding_a_voter_needs_started_members_a_learner_does_not() {
        let voters = [healthy(1), v(2, false, true, true), v(3, false, true, true)];
        assert_eq!(
            check_add(&voters, false, Release::V3_6).unwrap_err().code,
            ErrorCode::NotEnoughStartedMembers
        );
        assert!(check_add(&voters, true, Release::V3_6).is_ok());
    }

    #[test]
    fn removing_a_voter_protects_the_quorum() {
        let voters = [healthy(1), healthy(2), v(3, true, false, false)];
        // 3's stream is down: removing it is safe.
        assert!(check_remove_voter(&voters, 3, 1).is_ok());
        // 2 is connected: removing it leaves 1 connected voter of 2.
        assert_eq!(
            check_remove_voter(&voters, 2, 1).unwrap_err().code,
            ErrorCode::Unhealthy
        );
    }

    #[test]
    fn a_voter_back_for_less_than_5s_is_not_removed_at_once() {
        // 3 came back 3s ago: its stream is up (no quick allow) but it is not
        // yet connected for the health interval, so only 1 and 2 count:
        // 2 - 1 = 1 remains, fewer than the quorum 2 of what remains.
        let voters = [healthy(1), healthy(2), v(3, true, false, true)];
        assert_eq!(
            check_remove_voter(&voters, 3, 1).unwrap_err().code,
            ErrorCode::Unhealthy
        );
        // Removing the member taking the request is never a quick allow.
        let down = [
            healthy(1),
            v(2, true, false, false),
            v(3, true, false, false),
        ];
        assert_eq!(
            check_remove_voter(&down, 1, 1).unwrap_err().code,
            ErrorCode::Unhealthy
        );
    }

    #[test]
    fn promoting_counts_the_learner_as_started() {
        let voters = [healthy(1), v(2, false, true, true)];
        // 2 started of 3 after the promotion: a quorum.
        assert!(check_promote(&voters).is_ok());
        let voters = [healthy(1), v(2, false, true, true), v(3, false, true, true)];
        assert_eq!(
            check_promote(&voters).unwrap_err().code,
            ErrorCode::NotEnoughStartedMembers
        );
    }

    #[test]
    fn learner_readiness_is_ninety_percent_of_the_leader() {
        assert!(check_learner_ready(4, true, 90, 100).is_ok());
        let e = check_learner_ready(4, true, 3, 12).unwrap_err();
        assert_eq!(e.code, ErrorCode::LearnerNotReady);
        assert_eq!(
            e.why,
            ErrorDetail::LearnerNotReady {
                id: 4,
                learner: true,
                learner_match: 3,
                leader_match: 12,
                percent: 90
            }
        );
    }
}
