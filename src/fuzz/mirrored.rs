//! In a share of the runs a second cluster, `copy`, joins at the start with
//! a mirror process copying the first into it (etcdctl make-mirror,
//! `server::mirror`), whose links the run cuts and heals now and then. A
//! stream of its own decides, so the other runs' scripts stay as they were.

use rand::RngExt;
use rand_pcg::Pcg64;

use super::stream::side_stream;
use crate::lang::ast::{ClusterSpec, Command};
use crate::raft::NodeId;

const MIRROR_STREAM: u64 = 0x6d69_7272_6f72_2121;
/// The share of runs with a second cluster and a mirror into it.
const MIRROR_SHARE: f64 = 0.2;
/// The mirror process and the second cluster's voters in those runs.
const MIRROR_ID: NodeId = 12;
const COPY_VOTERS: [NodeId; 3] = [13, 14, 15];

/// The mirror's stream of `seed`'s run, if it has a mirror.
pub fn mirror_stream(seed: u64) -> Option<Pcg64> {
    side_stream(seed, MIRROR_STREAM, MIRROR_SHARE)
}

/// The commands that add the second cluster and start the mirror.
pub fn mirror_setup(source: NodeId) -> [Command; 2] {
    let mut copy = ClusterSpec::new(COPY_VOTERS.to_vec());
    copy.name = Some("copy".to_string());
    [
        Command::AddCluster(Box::new(copy)),
        Command::MirrorStart {
            id: MIRROR_ID,
            from: source,
            to: COPY_VOTERS[0],
            prefix: None,
        },
    ]
}

/// Now and then, a cut or a heal of one of the mirror's two links.
pub fn mirror_fault(rng: &mut Pcg64, source: NodeId) -> Option<Command> {
    if !rng.random_bool(0.05) {
        return None;
    }
    let peer = if rng.random_bool(0.7) {
        source
    } else {
        COPY_VOTERS[0]
    };
    Some(if rng.random_bool(0.5) {
        Command::Cut {
            a: MIRROR_ID,
            b: peer,
            one_way: false,
        }
    } else {
        Command::Heal {
            link: Some((MIRROR_ID, peer, false)),
        }
    })
}
