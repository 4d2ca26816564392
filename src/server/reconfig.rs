//! etcd's strict reconfiguration check (`--strict-reconfig-check`): before
//! proposing a membership change, the leader refuses one that would leave the
//! cluster without a quorum of started, connected voters.
//!
//! "Started" means the member has published itself at least once; "active"
//! means its peer stream with the leader has been up for the health
//! interval. Pure functions over a view of the leader's knowledge.

use crate::raft::NodeId;

use super::error::{ErrorCode, ServerError};

/// One voter as the leader sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VoterView {
    pub id: NodeId,
    pub started: bool,
    /// Connected to the leader for at least the health interval (the leader
    /// itself is always active).
    pub active: bool,
}

/// etcd's readiness rule for promoting a learner (`readyPercent` in
/// etcd's `isLearnerReady`): its match index must be at least this share of
/// the leader's.
pub const READINESS_RATIO: f64 = 0.9;

/// Majority of `n` voters (Raft's own arithmetic, in `raft::quorum`).
fn quorum(n: usize) -> usize {
    crate::raft::quorum::majority(n)
}

fn not_enough(detail: String) -> ServerError {
    ServerError::new(ErrorCode::NotEnoughStartedMembers, detail)
}

fn unhealthy(detail: String) -> ServerError {
    ServerError::new(ErrorCode::Unhealthy, detail)
}

/// Adding a voter: the started voters must still be a quorum of the larger
/// cluster (a one-member cluster may always grow to two), and the leader must
/// be connected to a quorum of it.
pub fn check_add_voter(voters: &[VoterView]) -> Result<(), ServerError> {
    let after = voters.len() + 1;
    let started = voters.iter().filter(|v| v.started).count();
    if !(started == 1 && after == 2) && started < quorum(after) {
        return Err(not_enough(format!(
            "{started} started voters would be fewer than the quorum {} of {after} voters",
            quorum(after)
        )));
    }
    check_connected(voters, after)
}

/// Adding a learner changes no quorum, but etcd still wants a healthy leader.
pub fn check_add_learner(voters: &[VoterView]) -> Result<(), ServerError> {
    check_connected(voters, voters.len())
}

fn check_connected(voters: &[VoterView], after: usize) -> Result<(), ServerError> {
    if voters.len() == 1 {
        return Ok(());
    }
    let active = voters.iter().filter(|v| v.active).count();
    if active < quorum(after) {
        return Err(unhealthy(format!(
            "the leader is connected to {active} voters, fewer than the quorum {} of {after} voters",
            quorum(after)
        )));
    }
    Ok(())
}

/// Promoting a learner counts it as a started voter.
pub fn check_promote(voters: &[VoterView]) -> Result<(), ServerError> {
    let after = voters.len() + 1;
    let started = voters.iter().filter(|v| v.started).count() + 1;
    if started < quorum(after) {
        return Err(not_enough(format!(
            "{started} started voters would be fewer than the quorum {} of {after} voters",
            quorum(after)
        )));
    }
    Ok(())
}

/// Removing voter `id`: the other started voters must be a quorum of what
/// remains; a voter that is not connected may always go; otherwise the
/// remaining active voters must be a quorum.
pub fn check_remove_voter(
    voters: &[VoterView],
    id: NodeId,
    leader: NodeId,
) -> Result<(), ServerError> {
    // What remains: every voter but `id` (all of them if `id` is no voter).
    let after = voters.iter().filter(|v| v.id != id).count();
    let started = voters.iter().filter(|v| v.started && v.id != id).count();
    if started < quorum(after) {
        return Err(not_enough(format!(
            "{started} other started voters would be fewer than the quorum {} of {after} voters",
            quorum(after)
        )));
    }
    let target_active = voters.iter().any(|v| v.id == id && v.active);
    if id != leader && !target_active {
        return Ok(());
    }
    let active = voters.iter().filter(|v| v.active).count();
    if active.saturating_sub(1) < quorum(after) {
        return Err(unhealthy(format!(
            "{} active voters would remain, fewer than the quorum {} of {after} voters",
            active.saturating_sub(1),
            quorum(after)
        )));
    }
    Ok(())
}

/// etcd's learner readiness for promotion: its match index is at least
/// [`READINESS_RATIO`] (90%) of the leader's.
pub fn check_learner_ready(
    id: NodeId,
    learner_match: u64,
    leader_match: u64,
) -> Result<(), ServerError> {
    if (learner_match as f64) < (leader_match as f64) * READINESS_RATIO {
        return Err(ServerError::new(
            ErrorCode::LearnerNotReady,
            format!(
                "learner {id} match {learner_match} < {}% of leader match {leader_match}",
                (READINESS_RATIO * 100.0).round()
            ),
        ));
    }
    Ok(())
}

/// etcd's peer URL rules, checked at the API before anything is proposed.
pub fn check_peer_url(url: &str) -> Result<(), ServerError> {
    let bad = |why: &str| ServerError::new(ErrorCode::BadUrl, format!("peer URL {url:?}: {why}"));
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(bad("expected scheme://host:port"));
    };
    if !matches!(scheme, "http" | "https" | "unix" | "unixs") {
        return Err(bad("URL scheme must be http, https, unix, or unixs"));
    }
    let (hostport, path) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if !path.is_empty() && path != "/" {
        return Err(bad("URL must not contain a path"));
    }
    let Some((host, port)) = hostport.rsplit_once(':') else {
        return Err(bad("URL address does not have the form \"host:port\""));
    };
    if host.is_empty()
        || port.is_empty()
        || !port.bytes().all(|b| b.is_ascii_digit())
        || port.parse::<u16>().is_err()
    {
        return Err(bad("URL address does not have the form \"host:port\""));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(id: NodeId, started: bool, active: bool) -> VoterView {
        VoterView {
            id,
            started,
            active,
        }
    }

    #[test]
    fn peer_urls_follow_etcd_rules() {
        assert!(check_peer_url("http://n4:2380").is_ok());
        assert!(check_peer_url("https://10.0.0.9:2380").is_ok());
        assert!(check_peer_url("unix://sock:1").is_ok());
        for bad in [
            "n4:2380",
            "ftp://n4:2380",
            "http://n4",
            "http://n4:2380/peer",
            "http://:2380",
            "http://n4:port",
            "http://n4:99999",
        ] {
            let e = check_peer_url(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadUrl, "{bad}");
        }
    }

    #[test]
    fn adding_a_voter_to_one_started_member_is_allowed() {
        assert!(check_add_voter(&[v(1, true, true)]).is_ok());
    }

    #[test]
    fn adding_a_voter_with_a_follower_cut_off_is_unhealthy() {
        // Figure 6: 3 voters, one partitioned away; 4 voters need 3 connected.
        let voters = [v(1, true, true), v(2, true, true), v(3, true, false)];
        assert_eq!(
            check_add_voter(&voters).unwrap_err().code,
            ErrorCode::Unhealthy
        );
        // A learner changes no quorum: 2 of 3 connected is enough.
        assert!(check_add_learner(&voters).is_ok());
    }

    #[test]
    fn adding_a_voter_needs_started_members() {
        let voters = [v(1, true, true), v(2, false, true), v(3, false, true)];
        assert_eq!(
            check_add_voter(&voters).unwrap_err().code,
            ErrorCode::NotEnoughStartedMembers
        );
    }

    #[test]
    fn removing_a_voter_protects_the_quorum() {
        let voters = [v(1, true, true), v(2, true, true), v(3, true, false)];
        // 3 is down: removing it is safe.
        assert!(check_remove_voter(&voters, 3, 1).is_ok());
        // 2 is active: removing it leaves 1 active voter of 2: unhealthy.
        assert_eq!(
            check_remove_voter(&voters, 2, 1).unwrap_err().code,
            ErrorCode::Unhealthy
        );
    }

    #[test]
    fn learner_readiness_is_ninety_percent_of_the_leader() {
        assert!(check_learner_ready(4, 90, 100).is_ok());
        let e = check_learner_ready(4, 3, 12).unwrap_err();
        assert_eq!(e.code, ErrorCode::LearnerNotReady);
        assert_eq!(e.detail, "learner 4 match 3 < 90% of leader match 12");
    }
}
