//! The script's own flow: time passing (`wait`, `wait-until`), checks
//! (`expect`, `status`) and narration (`say`, `pause`).

use crate::lang::ast::{Command, DEFAULT_CLIENT_TIMEOUT_MS};
use crate::lang::say;
use crate::server::{ErrorCode, ErrorDetail, ServerError, Waited};
use crate::session::driver::Op;
use crate::session::exec::Session;
use crate::session::failure::Failure;
use crate::session::report::CommandResult;

impl Session {
    /// `wait` and `wait-until` become the command in progress; the others
    /// take no time.
    pub(super) fn flow(
        &mut self,
        cmd: &Command,
        result: &mut CommandResult,
    ) -> Result<Option<Op>, Failure> {
        let now = self.now();
        match cmd {
            Command::Wait(ms) => {
                return Ok(Some(Op::Wait {
                    until: now.saturating_add(*ms),
                }));
            }
            Command::WaitUntil { cond, within_ms } => {
                return Ok(Some(Op::WaitUntil {
                    cond: cond.clone(),
                    deadline: now.saturating_add(*within_ms),
                    within_ms: *within_ms,
                    check: true,
                }));
            }
            Command::Expect(cond) => {
                if let Err(why) = self.check_condition(cond) {
                    return Err(Failure::Expect {
                        cond: cond.clone(),
                        unmet: why,
                    });
                }
            }
            Command::Status { via: None } => result.status = Some(std::rc::Rc::new(self.status())),
            Command::Status { via: Some(id) } => {
                let k = self.node_cluster(*id);
                // A member the cluster knows whose process is not running:
                // etcdctl endpoint status dials it until its command timeout
                // (clientv3 waits for a connection), then says "context
                // deadline exceeded" (checked against etcd 3.4.23 and 3.5.1).
                let world = self.fleet.cluster(k).world();
                if world.node(*id).is_some() && world.raft(*id).is_none() {
                    let why = ErrorDetail::Deadline {
                        waited: Waited::NotRunning { via: *id },
                        raft_refused: None,
                    };
                    result.fail(ServerError::new(ErrorCode::Timeout, why));
                    return Ok(Some(Op::Wait {
                        until: now.saturating_add(DEFAULT_CLIENT_TIMEOUT_MS),
                    }));
                }
                result.member_status =
                    Some(std::rc::Rc::new(self.fleet.cluster(k).member_status(*id)?));
            }
            Command::Say { text, .. } => result.detail = Some(say::fill(text, &self.say_facts())),
            Command::Pause => {}
            // `start` sends only the commands above here.
            _ => {}
        }
        Ok(None)
    }
}
