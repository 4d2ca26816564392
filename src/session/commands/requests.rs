//! The client's requests: writes (`put`, `delete`, `compaction`), reads
//! (`get`, `watch`, `member list`) and the steady write load (`load`).

use crate::server::client::DEFAULT_PUT_SIZE;
use crate::server::Call;

use crate::lang::ast::{Command, DEFAULT_CLIENT_TIMEOUT_MS};
use crate::session::commands::done_or_wait;
use crate::session::driver::{Answer, Op};
use crate::session::exec::{read_into, sync_watch, Session};
use crate::session::failure::Failure;
use crate::session::report::{CommandResult, MemberJson};

impl Session {
    /// `put`, `delete` and `compaction`: a write through the leader, waited
    /// for unless `put ... nowait`.
    pub(super) fn write(
        &mut self,
        cmd: &Command,
        result: &mut CommandResult,
    ) -> Result<Option<Op>, Failure> {
        match cmd {
            Command::Put {
                key,
                value,
                via,
                size,
                nowait,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let rl = *require_leader;
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let request = c.start_put(key, value, *via, *size, timeout, rl)?;
                if *nowait {
                    result.pending = true;
                    self.nowait
                        .insert((k as u64, request), self.results.len() as u64);
                    return Ok(None);
                }
                Ok(Some(Op::Request {
                    cluster: k,
                    request,
                    answer: Answer::Put,
                }))
            }
            Command::Delete {
                key,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_delete(key, *via, timeout, *require_leader)?;
                Ok(match call {
                    Call::Done((deleted, revision)) => {
                        result.deleted = Some(deleted);
                        result.revision = Some(revision);
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
                        cluster: k,
                        request,
                        answer: Answer::Deleted,
                    }),
                })
            }
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_compaction(*rev, *via, timeout, *require_leader)?;
                Ok(done_or_wait(k, call))
            }
            // `start` sends only the commands above here.
            _ => Ok(None),
        }
    }

    /// `get`, `watch` and `member list`: a read, answered at once or
    /// waited for.
    pub(super) fn read(
        &mut self,
        cmd: &Command,
        result: &mut CommandResult,
    ) -> Result<Option<Op>, Failure> {
        match cmd {
            Command::Get {
                key,
                rev,
                via,
                serializable,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let rev = rev.unwrap_or(0);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_get(key, rev, *via, *serializable, timeout, *require_leader)?;
                Ok(match call {
                    Call::Done(read) => {
                        read_into(result, read);
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
                        cluster: k,
                        request,
                        answer: Answer::Read,
                    }),
                })
            }
            Command::Watch {
                key,
                prefix,
                from_rev,
                via,
            } => {
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let id = c.watch(key, *prefix, from_rev.unwrap_or(0), *via)?;
                result.watch = Some(id);
                result.events = Some(Vec::new());
                self.watch_results
                    .insert((k as u64, id), self.results.len() as u64);
                sync_watch(self.fleet.cluster(k), id, result);
                Ok(None)
            }
            Command::MemberList {
                serializable,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_member_list(*serializable, timeout, *require_leader)?;
                Ok(match call {
                    Call::Done(list) => {
                        result.members = Some(list.into_iter().map(MemberJson::from).collect());
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
                        cluster: k,
                        request,
                        answer: Answer::Members,
                    }),
                })
            }
            // `start` sends only the commands above here.
            _ => Ok(None),
        }
    }

    /// `load rate=N/s` and `load stop`: the clients' steady writes, which
    /// take no time to start or stop.
    pub(super) fn load(
        &mut self,
        cmd: &Command,
        result: &mut CommandResult,
    ) -> Result<(), Failure> {
        match cmd {
            Command::LoadStart {
                rate_per_s,
                size,
                via,
            } => {
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                if let Some(v) = via {
                    c.target(Some(*v))?;
                }
                c.start_load(*rate_per_s, size.unwrap_or(DEFAULT_PUT_SIZE), *via);
            }
            Command::LoadStop => {
                // Every cluster's load stops; the first's counts are told.
                let mut told = None;
                for k in 0..self.fleet.len() {
                    if let Some(load) = self.fleet.cluster_mut(k).stop_load() {
                        told.get_or_insert(load);
                    }
                }
                if let Some(load) = told {
                    result.detail = Some(format!(
                        "{} writes sent, {} refused at once",
                        load.sent, load.refused
                    ));
                }
            }
            // `start` sends only the commands above here.
            _ => {}
        }
        Ok(())
    }
}
