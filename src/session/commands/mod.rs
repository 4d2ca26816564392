//! What each scenario command does to the run, by what it acts on: the
//! script's own flow (time, checks, narration), the client's requests,
//! membership, faults and the network, and the other clusters and mirror
//! processes, and a hand on single messages. [`Session::start`] sends each
//! command to its group; running it on (a command that lets time pass) is
//! `exec.rs`'s.

mod by_hand;
mod faults;
mod fleet;
mod flow;
mod membership;
mod requests;

use crate::raft::NodeId;
use crate::server::Call;

use crate::lang::ast::Command;
use crate::session::driver::{Answer, Op};
use crate::session::exec::Session;
use crate::session::failure::Failure;
use crate::session::report::CommandResult;

impl Session {
    /// Starts one parsed command: does what takes no time, and returns what
    /// is left to wait for, if anything.
    pub(super) fn start(
        &mut self,
        cmd: &Command,
        result: &mut CommandResult,
    ) -> Result<Option<Op>, Failure> {
        match cmd {
            Command::Wait(_)
            | Command::WaitUntil { .. }
            | Command::Expect(_)
            | Command::Status { .. }
            | Command::Say { .. }
            | Command::Pause => self.flow(cmd, result),
            Command::Put { .. } | Command::Delete { .. } | Command::Compaction { .. } => {
                self.write(cmd, result)
            }
            Command::Get { .. } | Command::Watch { .. } | Command::MemberList { .. } => {
                self.read(cmd, result)
            }
            Command::LoadStart { .. } | Command::LoadStop => self.load(cmd, result).map(|()| None),
            Command::MemberAdd { .. }
            | Command::MemberPromote { .. }
            | Command::MemberRemove { .. } => self.member_change(cmd),
            Command::MemberChange { .. } | Command::MemberLeaveJoint { .. } => {
                self.joint_change(cmd)
            }
            Command::TransferLeader(id) => self.transfer_leader(*id),
            Command::Start(_) | Command::Crash(_) | Command::Campaign(_) | Command::Compact(_) => {
                self.process_fault(cmd).map(|()| None)
            }
            Command::Cut { .. }
            | Command::Heal { .. }
            | Command::Partition(_)
            | Command::Net { .. }
            | Command::Isolate(_) => self.network(cmd).map(|()| None),
            Command::AddCluster(_) | Command::MirrorStart { .. } | Command::MirrorStop(_) => {
                self.fleet_command(cmd).map(|()| None)
            }
            Command::Hold { .. }
            | Command::Release { .. }
            | Command::Drop { .. }
            | Command::DeliverNext { .. } => self.by_hand(cmd, result).map(|()| None),
        }
    }

    /// The cluster a request with `via` goes to: `via`'s, else the first.
    fn via_cluster(&self, via: Option<NodeId>) -> usize {
        via.and_then(|id| self.fleet.cluster_of(id)).unwrap_or(0)
    }

    /// The cluster of node `id` (the first if no cluster knows it: its own
    /// checks then refuse the command as before).
    fn node_cluster(&self, id: NodeId) -> usize {
        self.fleet.cluster_of(id).unwrap_or(0)
    }
}

fn done_or_wait(cluster: usize, call: Call<()>) -> Option<Op> {
    match call {
        Call::Done(()) => None,
        Call::Waiting(request) => Some(Op::Request {
            cluster,
            request,
            answer: Answer::Done,
        }),
    }
}
