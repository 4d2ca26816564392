//! What the canvas's hand on single messages stands for: a message dot's
//! popup (what the message carries, and the commands its Drop and Hold this
//! link buttons run) and a link's popup (the commands of its Hold, Release
//! one and Release all). Each button runs the command it stands for, so the
//! history and a share link replay the click.

use serde::Serialize;

use crate::lang::messages::kind_name;
use crate::raft::NodeId;
use crate::server::Fleet;
use crate::session::report::MessageJson;

/// A message dot's popup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DotHand {
    /// What it carries, as the report lists it.
    pub message: MessageJson,
    /// Its type as etcd names it (`MsgApp`).
    pub etcd_kind: &'static str,
    /// Drop: `drop A->B kind=KIND count=1` when it is the first of its kind
    /// on its direction, else `drop A->B id=N`.
    pub drop: String,
    /// Hold this link: `hold A->B`, unless its direction is held already.
    pub hold: Option<String>,
}

/// Message `id` of the cluster of node `from`, if it is on its way.
pub fn dot_hand(fleet: &Fleet, from: NodeId, id: u64) -> Option<DotHand> {
    let c = fleet.cluster(fleet.cluster_of(from)?);
    let net = c.world().network();
    let f = net.in_flight_message(id)?;
    let (to, kind) = (f.msg.to, f.msg.msg_type);
    let first_of_kind = net
        .on_link(from, to)
        .find(|m| m.msg.msg_type == kind)
        .is_some_and(|m| m.id == id);
    let drop = if first_of_kind {
        format!("drop {from}->{to} kind={} count=1", kind_name(kind))
    } else {
        format!("drop {from}->{to} id={id}")
    };
    Some(DotHand {
        message: MessageJson::from(&net.envelope(f)),
        etcd_kind: kind.name(),
        drop,
        hold: (!net.is_held(from, to)).then(|| format!("hold {from}->{to}")),
    })
}

/// One direction of a link, as its popup says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Direction {
    pub from: NodeId,
    pub to: NodeId,
    pub held: bool,
    /// Messages held on it.
    pub waiting: usize,
    /// Messages on their way on it, not held.
    pub flying: usize,
}

/// A link's popup: both directions, and the commands of its buttons
/// (`None`: the button is not shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinkHand {
    pub a: NodeId,
    pub b: NodeId,
    pub directions: [Direction; 2],
    /// Hold: `hold A B`, unless both directions are held.
    pub hold: Option<String>,
    /// Release one: `release X->Y count=1` for the held message sent first.
    pub release_one: Option<String>,
    /// Release all: `release A B` (or the one held direction), while
    /// anything is held.
    pub release_all: Option<String>,
}

/// The link between `a` and `b` (of one cluster), or `None`.
pub fn link_hand(fleet: &Fleet, a: NodeId, b: NodeId) -> Option<LinkHand> {
    let k = fleet.cluster_of(a)?;
    if fleet.cluster_of(b) != Some(k) || a == b {
        return None;
    }
    let net = fleet.cluster(k).world().network();
    let direction = |from: NodeId, to: NodeId| {
        let held = net.is_held(from, to);
        let n = net.on_link(from, to).count();
        Direction {
            from,
            to,
            held,
            waiting: if held { n } else { 0 },
            flying: if held { 0 } else { n },
        }
    };
    let directions = [direction(a, b), direction(b, a)];
    let oldest = net
        .in_flight()
        .filter(|f| net.is_held_message(f))
        .find(|f| (f.msg.from, f.msg.to) == (a, b) || (f.msg.from, f.msg.to) == (b, a));
    let release_all = match (directions[0].held, directions[1].held) {
        (true, true) => Some(format!("release {a} {b}")),
        (true, false) => Some(format!("release {a}->{b}")),
        (false, true) => Some(format!("release {b}->{a}")),
        (false, false) => None,
    };
    Some(LinkHand {
        a,
        b,
        directions,
        hold: (!(directions[0].held && directions[1].held)).then(|| format!("hold {a} {b}")),
        release_one: oldest.map(|f| format!("release {}->{} count=1", f.msg.from, f.msg.to)),
        release_all,
    })
}

/// Whether `deliver-next` has a message to deliver (one on its way, not
/// held) in any cluster of the run.
pub fn can_deliver_next(fleet: &Fleet) -> bool {
    fleet
        .clusters()
        .iter()
        .any(|c| c.world().anything_to_deliver(None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse::parse_command;
    use crate::session::exec::Session;

    fn session(extra: &str) -> Session {
        Session::from_script(&format!(
            "cluster voters=1,2,3 seed=2\ncampaign 1\nwait-until leader=1 within=2s\n{extra}"
        ))
        .unwrap()
    }

    #[test]
    fn a_dot_drops_itself_and_holds_its_direction() {
        let mut s = session("hold 1->2\nput x 1 nowait\nwait 300ms\n");
        let net = s.cluster().world().network();
        let ids: Vec<u64> = net.on_link(1, 2).map(|f| f.id).collect();
        assert!(ids.len() >= 3);
        // The first heartbeat: dropped by its kind; a later one by its id.
        let hb: Vec<u64> = net
            .on_link(1, 2)
            .filter(|f| f.msg.msg_type == crate::raft::MessageType::Heartbeat)
            .map(|f| f.id)
            .collect();
        let first = dot_hand(s.fleet(), 1, hb[0]).unwrap();
        assert_eq!(first.drop, "drop 1->2 kind=heartbeat count=1");
        assert_eq!(first.hold, None, "held already");
        assert!(first.message.held);
        let second = dot_hand(s.fleet(), 1, hb[1]).unwrap();
        assert_eq!(second.drop, format!("drop 1->2 id={}", hb[1]));
        // Each command parses, and drops exactly that message.
        for (hand, id) in [(&second, hb[1]), (&first, hb[0])] {
            assert!(parse_command(&hand.drop).is_ok());
            let r = s.command(&hand.drop).unwrap();
            assert!(r.ok, "{r:?}");
            let dropped = r.messages.unwrap();
            assert_eq!(dropped.len(), 1);
            assert_eq!(dropped[0].id, id);
        }
        assert!(dot_hand(s.fleet(), 1, hb[0]).is_none(), "gone");
    }

    #[test]
    fn a_links_popup_holds_and_releases_one_then_all() {
        let mut s = session("wait 100ms\n");
        let l = link_hand(s.fleet(), 1, 2).unwrap();
        assert_eq!(l.hold.as_deref(), Some("hold 1 2"));
        assert_eq!((l.release_one.clone(), l.release_all.clone()), (None, None));
        s.command("hold 1 2").unwrap();
        s.advance(300);
        let l = link_hand(s.fleet(), 1, 2).unwrap();
        assert_eq!(l.hold, None);
        assert!(l.directions.iter().all(|d| d.held && d.flying == 0));
        let waiting: usize = l.directions.iter().map(|d| d.waiting).sum();
        assert!(waiting >= 2);
        let one = l.release_one.unwrap();
        let r = s.command(&one).unwrap();
        assert_eq!(r.messages.map(|m| m.len()), Some(1));
        let all = link_hand(s.fleet(), 1, 2).unwrap().release_all.unwrap();
        assert_eq!(all, "release 1 2");
        assert!(s.command(&all).unwrap().ok);
        let l = link_hand(s.fleet(), 1, 2).unwrap();
        assert!(l.directions.iter().all(|d| !d.held && d.waiting == 0));
        assert!(link_hand(s.fleet(), 1, 1).is_none());
        assert!(link_hand(s.fleet(), 1, 9).is_none());
    }

    #[test]
    fn deliver_next_is_offered_only_when_something_is_on_its_way_unheld() {
        let mut s = session("put x 1 nowait\n");
        assert!(can_deliver_next(s.fleet()));
        s.command("hold 1 2").unwrap();
        s.command("hold 1 3").unwrap();
        s.advance(500);
        assert!(!can_deliver_next(s.fleet()));
    }

    #[test]
    fn deliver_next_is_offered_for_a_message_still_in_its_senders_stream() {
        // 64 KB at 1 MB/s: the write waits in node 1's stream, no arrival
        // known yet, and deliver-next lets the stream send it first.
        let mut s = Session::from_script(
            "cluster voters=1,2,3 seed=2 transport=streams bandwidth=1MB/s\ncampaign 1\n\
             wait-until leader=1 within=2s\nput x 1 size=64KB nowait\n",
        )
        .unwrap();
        let waiting = s.cluster().world().network().in_flight().any(|m| {
            m.arrives_ms == crate::sim::network::UNKNOWN_MS
                && m.msg.msg_type == crate::raft::MessageType::App
        });
        assert!(waiting, "a MsgApp waits in its stream");
        assert!(can_deliver_next(s.fleet()));
        assert!(s.command("deliver-next").unwrap().ok);
        s.command("hold 1 2").unwrap();
        s.command("hold 1 3").unwrap();
        s.command("hold 2 3").unwrap();
        assert!(!can_deliver_next(s.fleet()));
    }
}
