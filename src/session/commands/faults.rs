//! Faults and the network: a node's process (`start`, `crash`,
//! `campaign`, `compact`) and its links (`cut`, `heal`, `partition`,
//! `net`, `isolate`).

use crate::raft::NodeId;
use crate::server::{ErrorCode, ErrorDetail, ServerError};

use crate::lang::ast::Command;
use crate::session::exec::Session;
use crate::session::failure::Failure;

impl Session {
    /// What happens to one node's process, at once.
    pub(super) fn process_fault(&mut self, cmd: &Command) -> Result<(), Failure> {
        match cmd {
            Command::Start(id) => {
                let k = self.node_cluster(*id);
                self.fleet.cluster_mut(k).start_process(*id)?;
            }
            Command::Crash(id) => {
                let c = self.fleet.cluster_mut(self.node_cluster(*id));
                c.crash_process(*id)?;
            }
            Command::Campaign(id) => {
                let c = self.fleet.cluster_mut(self.node_cluster(*id));
                c.check_running(*id)?;
                c.world_mut().campaign(*id);
            }
            Command::Compact(id) => {
                let c = self.fleet.cluster_mut(self.node_cluster(*id));
                c.check_running(*id)?;
                c.world_mut().compact(*id);
            }
            // `start` sends only the commands above here.
            _ => {}
        }
        Ok(())
    }

    /// What happens to the links between nodes, at once.
    pub(super) fn network(&mut self, cmd: &Command) -> Result<(), Failure> {
        match cmd {
            Command::Cut { a, b, one_way } => self.set_link(*a, *b, *one_way, true)?,
            Command::Heal { link } => match link {
                None => {
                    for k in 0..self.fleet.len() {
                        self.fleet.cluster_mut(k).world_mut().heal_all();
                    }
                    self.fleet.heal_mirror_links();
                }
                Some((a, b, one_way)) => self.set_link(*a, *b, *one_way, false)?,
            },
            Command::Partition(groups) => self.partition(groups)?,
            Command::Net {
                loss_ppm,
                latency,
                bandwidth,
            } => {
                let c = self.fleet.main_mut();
                let cfg = c.world().config();
                let latency = latency.unwrap_or(cfg.latency_ms);
                let bandwidth = bandwidth.unwrap_or(cfg.bandwidth);
                let loss = loss_ppm.unwrap_or(cfg.loss_ppm);
                c.world_mut().set_network(latency, bandwidth, loss);
            }
            Command::Isolate(id) => self.isolate(*id)?,
            // `start` sends only the commands above here.
            _ => {}
        }
        Ok(())
    }

    /// Cuts every link between two of `groups`.
    fn partition(&mut self, groups: &[Vec<NodeId>]) -> Result<(), Failure> {
        let all: Vec<NodeId> = groups.iter().flatten().copied().collect();
        for id in &all {
            if self.fleet.cluster_of(*id).is_none() && !self.fleet.is_mirror(*id) {
                return Err(no_such_node(*id).into());
            }
        }
        // Every link between two groups is cut; two nodes of
        // different clusters have none.
        for (i, g) in groups.iter().enumerate() {
            for h in &groups[i + 1..] {
                for &a in g {
                    for &b in h {
                        let linked = self.fleet.is_mirror_link(a, b)
                            || self.fleet.cluster_of(a) == self.fleet.cluster_of(b);
                        if linked {
                            self.set_link(a, b, false, true)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Cuts every link of node `id`: in its cluster, and a mirror's.
    fn isolate(&mut self, id: NodeId) -> Result<(), Failure> {
        let mirror_peers: Vec<(NodeId, NodeId)> = self
            .fleet
            .mirrors()
            .iter()
            .flat_map(|m| [(m.id, m.from), (m.id, m.to)])
            .filter(|(m, p)| *m == id || *p == id)
            .collect();
        if self.fleet.is_mirror(id) {
            for (m, p) in mirror_peers {
                self.set_link(m, p, false, true)?;
            }
            return Ok(());
        }
        let k = self.fleet.cluster_of(id).ok_or_else(|| no_such_node(id))?;
        let c = self.fleet.cluster_mut(k);
        let others: Vec<NodeId> = c.known_ids().into_iter().filter(|o| *o != id).collect();
        c.world_mut().isolate(id, &others);
        for (m, p) in mirror_peers {
            self.set_link(m, p, false, true)?;
        }
        Ok(())
    }

    /// Cuts (or heals) the link `a`–`b` in direction a to b, and back unless
    /// `one_way`: within one cluster, or between a mirror and one of its two
    /// members. Two nodes of different clusters have no link.
    fn set_link(&mut self, a: NodeId, b: NodeId, one_way: bool, cut: bool) -> Result<(), Failure> {
        let ends = [(a, b), (b, a)];
        let ends = if one_way { &ends[..1] } else { &ends[..] };
        if self.fleet.is_mirror_link(a, b) {
            for &(x, y) in ends {
                self.fleet.set_mirror_link(x, y, cut);
            }
            return Ok(());
        }
        for id in [a, b] {
            if self.fleet.cluster_of(id).is_none() && !self.fleet.is_mirror(id) {
                return Err(no_such_node(id).into());
            }
        }
        let (ka, kb) = (self.fleet.cluster_of(a), self.fleet.cluster_of(b));
        match (ka, kb) {
            (Some(x), Some(y)) if x == y => {
                let w = self.fleet.cluster_mut(x).world_mut();
                for &(p, q) in ends {
                    if cut {
                        w.cut(p, q);
                    } else {
                        w.heal(p, q);
                    }
                }
                Ok(())
            }
            _ => Err(ServerError::new(
                ErrorCode::MemberNotFound,
                ErrorDetail::NoLinkAcross { a, b },
            )
            .into()),
        }
    }
}

/// A command naming a node no cluster knows.
fn no_such_node(id: NodeId) -> ServerError {
    ServerError::new(ErrorCode::MemberNotFound, ErrorDetail::NoSuchNode { id })
}
