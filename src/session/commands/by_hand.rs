//! Running the commands of a hand on single messages: `hold`, `release`,
//! `drop` and `deliver-next` (the world does each: `sim/world/by_hand.rs`,
//! which says what etcd's transport does around held messages).
//!
//! A command naming a node no cluster knows, or two nodes that no link
//! joins (of different clusters, or a mirror process, whose links carry
//! client requests, no Raft messages), is refused with `member-not-found`
//! and changes nothing; `drop` and `deliver-next` that find no message are
//! refused with `no-message`.

use crate::raft::NodeId;
use crate::server::{ErrorCode, ErrorDetail, ServerError};

use crate::lang::ast::Command;
use crate::session::exec::Session;
use crate::session::failure::Failure;
use crate::session::report::{CommandResult, HandDone, MessageJson};

impl Session {
    /// Runs one of the four commands (it takes no time, but for
    /// `deliver-next`, which moves the clock to its message's arrival).
    pub(in crate::session) fn by_hand(
        &mut self,
        cmd: &Command,
        result: &mut CommandResult,
    ) -> Result<(), Failure> {
        let done = match cmd {
            Command::Hold { a, b, one_way } => {
                let (k, dirs) = self.directions(*a, *b, *one_way)?;
                let w = self.fleet_mut().cluster_mut(k).world_mut();
                for &(from, to) in &dirs {
                    w.hold(from, to);
                }
                let net = w.network();
                let held: Vec<MessageJson> = dirs
                    .iter()
                    .flat_map(|&(from, to)| net.on_link(from, to))
                    .map(|f| MessageJson::from(&net.envelope(f)))
                    .collect();
                let done = HandDone::Held {
                    from: *a,
                    to: *b,
                    both: !*one_way,
                    count: held.len() as u64,
                };
                result.messages = Some(held);
                done
            }
            Command::Release { link, count } => {
                let mut wanted = *count;
                let plans: Vec<(usize, Vec<(NodeId, NodeId)>)> = match link {
                    Some((a, b, one_way)) => vec![self.directions(*a, *b, *one_way)?],
                    None => (0..self.fleet().len())
                        .map(|k| {
                            let net = self.fleet().cluster(k).world().network();
                            (k, net.held_links().collect())
                        })
                        .collect(),
                };
                let mut released = Vec::new();
                let mut left = 0;
                for (k, dirs) in plans {
                    if wanted == Some(0) {
                        break;
                    }
                    let c = self.fleet_mut().cluster_mut(k);
                    let out = c.world_mut().release(&dirs, wanted);
                    wanted = wanted.map(|n| n.saturating_sub(out.len() as u64));
                    let net = c.world().network();
                    left += dirs
                        .iter()
                        .filter(|&&(f, t)| net.is_held(f, t))
                        .map(|&(f, t)| net.on_link(f, t).count() as u64)
                        .sum::<u64>();
                    c.absorb_events();
                    released.extend(out.iter().map(MessageJson::from));
                }
                self.fleet_mut().pump();
                let done = HandDone::Released {
                    count: released.len() as u64,
                    left,
                };
                result.messages = Some(released);
                done
            }
            Command::Drop {
                from,
                to,
                kind,
                id,
                count,
            } => {
                let (k, _) = self.directions(*from, *to, true)?;
                let c = self.fleet_mut().cluster_mut(k);
                let dropped = c.world_mut().drop_messages(*from, *to, *kind, *id, *count);
                c.absorb_events();
                if dropped.is_empty() {
                    return Err(ServerError::new(
                        ErrorCode::NoMessage,
                        ErrorDetail::NothingToDrop {
                            from: *from,
                            to: *to,
                            kind: *kind,
                            id: *id,
                        },
                    )
                    .into());
                }
                result.messages = Some(dropped.iter().map(MessageJson::from).collect());
                HandDone::Dropped {
                    from: *from,
                    to: *to,
                    count: dropped.len() as u64,
                }
            }
            Command::DeliverNext { link } => {
                let k = match link {
                    Some((a, b)) => Some(self.directions(*a, *b, true)?.0),
                    None => None,
                };
                let Some(e) = self.deliver_next(k, *link) else {
                    let held = self.held_count(k, *link);
                    return Err(ServerError::new(
                        ErrorCode::NoMessage,
                        ErrorDetail::NothingToDeliver { link: *link, held },
                    )
                    .into());
                };
                let done = HandDone::Delivered {
                    from: e.from,
                    to: e.to,
                    kind: e.kind,
                    term: e.term,
                    at_ms: self.now(),
                };
                result.messages = Some(vec![MessageJson::from(&e)]);
                done
            }
            _ => return Ok(()),
        };
        result.detail = Some(done.english());
        result.hand = Some(done);
        Ok(())
    }

    /// The cluster a link joins, and its directions (`a` to `b`, and back
    /// unless `one_way`); refused when no link joins the two.
    fn directions(
        &self,
        a: NodeId,
        b: NodeId,
        one_way: bool,
    ) -> Result<(usize, Vec<(NodeId, NodeId)>), Failure> {
        let fleet = self.fleet();
        for id in [a, b] {
            if fleet.cluster_of(id).is_none() && !fleet.is_mirror(id) {
                let why = ErrorDetail::NoSuchNode { id };
                return Err(ServerError::new(ErrorCode::MemberNotFound, why).into());
            }
        }
        match (fleet.cluster_of(a), fleet.cluster_of(b)) {
            (Some(x), Some(y)) if x == y => {
                let dirs = if one_way {
                    vec![(a, b)]
                } else {
                    vec![(a, b), (b, a)]
                };
                Ok((x, dirs))
            }
            _ => Err(ServerError::new(
                ErrorCode::MemberNotFound,
                ErrorDetail::NoLinkAcross { a, b },
            )
            .into()),
        }
    }

    /// Delivers the earliest arrival to come, in cluster `only` (every
    /// cluster with `None`) and on `link` (any direction with `None`), at
    /// its arrival, and nothing else: the clocks of the run move there
    /// together. A stream's bandwidth that finishes sending a message
    /// first is let do so (its message's arrival is known only then).
    fn deliver_next(
        &mut self,
        only: Option<usize>,
        link: Option<(NodeId, NodeId)>,
    ) -> Option<crate::sim::Envelope> {
        let clusters: Vec<usize> = match only {
            Some(k) => vec![k],
            None => (0..self.fleet().len()).collect(),
        };
        // Nothing to deliver: the streams are not let send either (a held
        // message still travels, but never arrives to be delivered), so a
        // failed deliver-next changes nothing.
        if !clusters
            .iter()
            .any(|&k| self.fleet().cluster(k).world().anything_to_deliver(link))
        {
            return None;
        }
        loop {
            let fleet = self.fleet();
            let arrival = clusters
                .iter()
                .filter_map(|&k| {
                    let w = fleet.cluster(k).world();
                    w.next_arrival(link).map(|(at, id)| (at, k, id))
                })
                .min();
            let transmit = clusters
                .iter()
                .filter_map(|&k| fleet.cluster(k).world().next_transmit().map(|t| (t, k)))
                .min();
            match (arrival, transmit) {
                (a, Some((t, k))) if a.is_none_or(|(at, _, _)| t <= at) => {
                    self.fleet_mut()
                        .cluster_mut(k)
                        .world_mut()
                        .run_next_transmit();
                }
                (None, _) => return None,
                (Some((at, k, id)), _) => {
                    let fleet = self.fleet_mut();
                    for j in 0..fleet.len() {
                        fleet.cluster_mut(j).world_mut().jump_clock(at);
                    }
                    let c = fleet.cluster_mut(k);
                    let e = c.world_mut().deliver_now(id);
                    c.absorb_events();
                    fleet.pump();
                    return e;
                }
            }
        }
    }

    /// Messages held in cluster `only` (every one with `None`), on `link`
    /// (every direction with `None`).
    fn held_count(&self, only: Option<usize>, link: Option<(NodeId, NodeId)>) -> u64 {
        let fleet = self.fleet();
        (0..fleet.len())
            .filter(|k| only.is_none_or(|o| o == *k))
            .map(|k| {
                let net = fleet.cluster(k).world().network();
                net.in_flight()
                    .filter(|f| net.is_held_message(f))
                    .filter(|f| link.is_none_or(|(a, b)| f.msg.from == a && f.msg.to == b))
                    .count() as u64
            })
            .sum()
    }
}
