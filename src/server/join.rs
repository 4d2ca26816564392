//! A new member's process joining a running cluster, before it starts raft
//! (etcdserver `NewServer`, the case of a member without a WAL and
//! `--initial-cluster-state existing`): it talks to its peers over HTTP
//! first, and each peer it cannot reach costs it the peer dial timeout.
//!
//! 1. The cluster's membership from the first peer that answers
//!    (`GetClusterFromRemotePeers`, peer URLs in their order).
//! 2. Every other member's version (`getVersions`, or `getMembersVersions`
//!    in v3.6), for `isCompatibleWithCluster`.
//! 3. From etcd 3.5 on, whether a downgrade is enabled
//!    (`getDowngradeEnabledFromRemotePeers`): the members in order until one
//!    answers. The peer serves `/downgrade/enabled` only after a
//!    linearizable read (`linearizableReadNotify`) within its request
//!    timeout, so without a leader each running peer costs 7 s.
//!
//! A peer whose process is down refuses the connection at once. raftlab asks
//! the peers in the order of their node numbers; etcd sorts members by their
//! ids, which are hashes, so in a real cluster the order among peers differs
//! while what each one costs does not. The HTTP round trips themselves take
//! no simulated time.

use crate::raft::NodeId;
use crate::sim::{Event, EventKind, JoinStep, ReadOf};

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::join_state::{Join, Phase, Wait};
use super::request::{Deferred, Outcome, RequestId};

impl Cluster {
    /// Starts member `id`'s process as a member joining this cluster: it
    /// starts raft once it has talked to its peers (the module's doc).
    pub(crate) fn join(&mut self, id: NodeId, peers: Vec<NodeId>) {
        self.world.listen(id);
        self.joins.push(Join {
            node: id,
            peers,
            phase: Phase::Membership,
            at: 0,
            wait: Wait::Nothing,
        });
        self.drive_joins();
    }

    /// Whether member `id`'s process is up and talking to its peers, raft
    /// not started yet.
    pub fn joining(&self, id: NodeId) -> bool {
        self.joins.iter().any(|j| j.node == id)
    }

    /// Stops a joining process (a crash before it started raft): it left
    /// nothing behind, and a start begins it again.
    pub(crate) fn stop_join(&mut self, id: NodeId) -> bool {
        let Some(i) = self.joins.iter().position(|j| j.node == id) else {
            return false;
        };
        // The peer's read it waited for has no one to answer any more.
        if let Wait::Read(request) = self.joins.remove(i).wait {
            self.drop_quietly(request);
        }
        self.world.stop_listening(id);
        true
    }

    /// The next moment a joining process gives up a dial.
    pub(crate) fn next_join_time(&self) -> Option<u64> {
        self.joins
            .iter()
            .filter_map(|j| match j.wait {
                Wait::Dial(t) => Some(t),
                _ => None,
            })
            .min()
    }

    /// A request finished: if a joining process waited for it, it learns
    /// whether its peer answered. Returns whether it was one of theirs (no
    /// client waits for those).
    pub(crate) fn join_answered(&mut self, request: RequestId, outcome: &Outcome) -> bool {
        let Some(i) = self
            .joins
            .iter()
            .position(|j| j.wait == Wait::Read(request))
        else {
            return false;
        };
        let read_ms = self.request_timeout_ms();
        self.joins[i].wait = Wait::Answered(match outcome {
            Outcome::Failed(_) => Err(JoinStep::NoAnswer { ms: read_ms }),
            _ => Ok(()),
        });
        true
    }

    /// Whether `request` is a peer's read for a joining process.
    pub(crate) fn is_join_read(&self, request: RequestId) -> bool {
        self.joins.iter().any(|j| j.wait == Wait::Read(request))
    }

    /// A peer's read for a joining process fails: its leader changed before
    /// it confirmed the read (`linearizableReadLoop` notifies every read
    /// waiting with `ErrLeaderChanged`, and the peer handler answers 500).
    pub(crate) fn fail_join_read(&mut self, request: RequestId) {
        if let Some(j) = self
            .joins
            .iter_mut()
            .find(|j| j.wait == Wait::Read(request))
        {
            j.wait = Wait::Answered(Err(JoinStep::LeaderChanged));
        }
        self.drop_quietly(request);
    }

    /// Ends a joining process's read that nobody waits for any more.
    fn drop_quietly(&mut self, request: RequestId) {
        if let Some(p) = self.pending.get_mut(&request) {
            p.quiet = true;
        }
        let failed = ServerError::new(ErrorCode::Timeout, ErrorDetail::EtcdText);
        self.complete(request, Outcome::Failed(failed));
    }

    /// Moves every joining process on as far as it can go now.
    pub(crate) fn drive_joins(&mut self) {
        let mut i = 0;
        while i < self.joins.len() {
            if self.drive_join(i) {
                let node = self.joins.remove(i).node;
                // Its peers all asked: raft starts, unless the member was
                // removed meanwhile (its peers would answer "removed").
                if self.world.start(node).is_err() {
                    self.world.stop_listening(node);
                }
            } else {
                i += 1;
            }
        }
    }

    /// Moves joining process `i` on; true once it may start raft.
    fn drive_join(&mut self, i: usize) -> bool {
        let now = self.now();
        let dial_ms = 1_000 + self.world.config().election_timeout_ms;
        let read_ms = self.request_timeout_ms();
        let downgrade = self.cfg.release.join_asks_downgrade();
        loop {
            let j = &mut self.joins[i];
            match j.wait {
                Wait::Dial(t) if t > now => return false,
                Wait::Read(_) => return false,
                Wait::Answered(Ok(())) => return true,
                Wait::Answered(Err(why)) => {
                    let (node, peer) = (j.node, j.peers[j.at]);
                    (j.wait, j.at) = (Wait::Nothing, j.at + 1);
                    self.say_join(node, peer, why);
                }
                Wait::Dial(_) => (j.wait, j.at) = (Wait::Nothing, j.at + 1),
                Wait::Nothing => {}
            }
            let j = &mut self.joins[i];
            let (node, phase) = (j.node, j.phase);
            let Some(&peer) = j.peers.get(j.at) else {
                // Every peer asked in this phase: the next one, or raft.
                j.at = 0;
                match (phase, downgrade) {
                    (Phase::Membership, _) => j.phase = Phase::Versions,
                    (Phase::Versions, true) => j.phase = Phase::Downgrade,
                    _ => return true,
                }
                continue;
            };
            if !self.runs(peer) {
                // Connection refused: the next peer at once.
                self.joins[i].at += 1;
                continue;
            }
            let net = self.world.network();
            if net.is_cut(node, peer) || net.is_cut(peer, node) {
                self.joins[i].wait = Wait::Dial(now + dial_ms);
                self.say_join(node, peer, JoinStep::Unreachable { ms: dial_ms });
                return false;
            }
            match phase {
                Phase::Membership => {
                    let j = &mut self.joins[i];
                    (j.phase, j.at) = (Phase::Versions, 0);
                }
                Phase::Versions => self.joins[i].at += 1,
                Phase::Downgrade => {
                    let request = self.new_request();
                    self.joins[i].wait = Wait::Read(request);
                    self.say_join(node, peer, JoinStep::Asks);
                    let then = Deferred::Read(ReadOf::Downgrade { asker: node });
                    self.send(request, Some(peer), then, read_ms);
                }
            }
        }
    }

    fn say_join(&mut self, node: NodeId, peer: NodeId, step: JoinStep) {
        let time_ms = self.now();
        self.push_event(Event {
            time_ms,
            kind: EventKind::Join { node, peer, step },
        });
    }
}
