//! `quorum/testdata`: etcd's `quorum/datadriven_test.go` over raftlab's
//! `raft::quorum`. `committed cfg=(..) [cfgj=(..)|cfgj=zero] idx=(..)`
//! prints the acknowledged indexes and the committed index; `vote ...
//! votes=(y,n,_)` the election's outcome. Like etcd's harness, it also
//! checks results that must not change (another computation, a symmetric
//! or self-joined configuration, lower acknowledgements) and prints any
//! disagreement, which the expected output never contains.

use raftlab::collections::vecmap::VecMap;

use raftlab::raft::quorum::{format_index, JointConfig, MajorityConfig, INFINITY};
use raftlab::raft::NodeId;

use super::datadriven::Directive;

pub fn run(d: &Directive) -> Result<String, String> {
    let mut ids = Vec::new();
    let mut idsj = Vec::new();
    let mut joint = false;
    let mut idxs = Vec::new();
    let mut votes = Vec::new();
    for arg in &d.args {
        for v in &arg.vals {
            match arg.key.as_str() {
                "cfg" => ids.push(number(v)?),
                "cfgj" => {
                    joint = true;
                    if v != "zero" {
                        idsj.push(number(v)?);
                    }
                }
                // `_`: no information (different from an index of 0).
                "idx" => idxs.push(if v == "_" { 0 } else { number(v)? }),
                "votes" => votes.push(match v.as_str() {
                    "y" => 2,
                    "n" => 1,
                    "_" => 0,
                    other => return Err(format!("unknown vote: {other}")),
                }),
                other => return Err(format!("unknown arg {other}")),
            }
        }
    }
    let c: MajorityConfig = ids.iter().copied().collect();
    let cj: MajorityConfig = idsj.iter().copied().collect();
    let both = JointConfig {
        incoming: c.clone(),
        outgoing: cj.clone(),
    };
    let input = if d.cmd == "vote" { &votes } else { &idxs };
    if both.ids().len() != input.len() {
        return Ok(format!(
            "error: mismatched input (explicit or _) for voters {:?}: {input:?}",
            both.ids()
        ));
    }
    match d.cmd.as_str() {
        "committed" => {
            let l = lookuper(&idxs, &ids, &idsj);
            Ok(if joint {
                committed_joint(&c, &cj, &l)
            } else {
                committed_majority(&c, &l)
            })
        }
        "vote" => {
            let l: VecMap<NodeId, bool> = lookuper(&votes, &ids, &idsj)
                .into_iter()
                .map(|(id, v)| (id, v != 1))
                .collect();
            Ok(if joint {
                vote_joint(&both, &l)
            } else {
                format!("{}\n", c.vote_result(&l).name())
            })
        }
        other => Err(format!("unknown command: {other}")),
    }
}

fn number(v: &str) -> Result<u64, String> {
    v.trim().parse().map_err(|_| format!("not a number: {v}"))
}

/// The values in the order the ids appear in (ids, idsj), without
/// repetition; zeroes (`_`) are dropped: no information.
fn lookuper(vals: &[u64], ids: &[NodeId], idsj: &[NodeId]) -> VecMap<NodeId, u64> {
    let mut l = VecMap::new();
    let mut next = vals.iter();
    for &id in ids.iter().chain(idsj) {
        if l.contains_key(&id) {
            continue;
        }
        if let Some(&v) = next.next() {
            l.insert(id, v);
        }
    }
    l.retain(|_, v| *v != 0);
    l
}

fn committed_majority(c: &MajorityConfig, l: &VecMap<NodeId, u64>) -> String {
    let get = |id| l.get(&id).copied();
    let idx = c.committed_index(get);
    let mut buf = c.describe(get);
    let mut check = |alt: u64, how: &str| {
        if alt != idx {
            buf.push_str(&format!("{} <-- {how}\n", format_index(alt)));
        }
    };
    check(
        alternative_committed_index(c, l),
        "via alternative computation",
    );
    let zero_joint = JointConfig {
        incoming: c.clone(),
        outgoing: MajorityConfig::default(),
    };
    check(zero_joint.committed_index(get), "via zero-joint quorum");
    let self_joint = JointConfig {
        incoming: c.clone(),
        outgoing: c.clone(),
    };
    check(self_joint.committed_index(get), "via self-joint quorum");
    // Lowering an acknowledgement below the committed index from above it
    // cannot change the result.
    for id in c.iter() {
        let acked = get(id).unwrap_or(0);
        if idx > acked && acked > 0 {
            for lower in [acked - 1, 0] {
                let mut o = l.clone();
                o.insert(id, lower);
                let alt = c.committed_index(|i| o.get(&i).copied());
                if alt != idx {
                    buf.push_str(&format!(
                        "{} <-- overlaying {id}->{acked}",
                        format_index(alt)
                    ));
                }
            }
        }
    }
    buf.push_str(&format!("{}\n", format_index(idx)));
    buf
}

fn committed_joint(c: &MajorityConfig, cj: &MajorityConfig, l: &VecMap<NodeId, u64>) -> String {
    let get = |id| l.get(&id).copied();
    let cc = JointConfig {
        incoming: c.clone(),
        outgoing: cj.clone(),
    };
    let swapped = JointConfig {
        incoming: cj.clone(),
        outgoing: c.clone(),
    };
    let mut buf = cc.describe(get);
    let idx = cc.committed_index(get);
    let alt = swapped.committed_index(get);
    if alt != idx {
        buf.push_str(&format!("{} <-- via symmetry\n", format_index(alt)));
    }
    buf.push_str(&format!("{}\n", format_index(idx)));
    buf
}

fn vote_joint(both: &JointConfig, l: &VecMap<NodeId, bool>) -> String {
    let swapped = JointConfig {
        incoming: both.outgoing.clone(),
        outgoing: both.incoming.clone(),
    };
    let r = both.vote_result(l);
    let alt = swapped.vote_result(l);
    let mut buf = String::new();
    if alt != r {
        buf.push_str(&format!("{} <-- via symmetry\n", alt.name()));
    }
    buf.push_str(&format!("{}\n", r.name()));
    buf
}

/// The committed index counted another way: the largest acknowledged
/// index that a majority has acknowledged at or above.
fn alternative_committed_index(c: &MajorityConfig, l: &VecMap<NodeId, u64>) -> u64 {
    if c.is_empty() {
        return INFINITY;
    }
    let acked: Vec<u64> = c.iter().filter_map(|id| l.get(&id).copied()).collect();
    let q = c.len() / 2 + 1;
    acked
        .iter()
        .copied()
        .filter(|&idx| acked.iter().filter(|&&a| a >= idx).count() >= q)
        .max()
        .unwrap_or(0)
}
