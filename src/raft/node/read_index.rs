//! Linearizable reads on the leader (etcd's `raft.go`: `MsgReadIndex` in
//! `stepLeader`, `sendMsgReadIndexResponse`, `releasePendingReadIndexMessages`,
//! `responseToReadIndexReq`).

use super::*;

impl Raft {
    pub(super) fn committed_entry_in_current_term(&self) -> bool {
        self.log.term(self.log.committed) == Some(self.term)
    }

    pub(super) fn leader_read_index(&mut self, req: ReadRequest) {
        if self.tracker.is_singleton() {
            // The only voter: nobody can have replaced us.
            self.answer_read(req, self.log.committed);
            return;
        }
        if !self.committed_entry_in_current_term() {
            // Our commit index may lag the real one until we commit in our term.
            self.pending_read_index.push(req);
            return;
        }
        self.start_read_round(req);
    }

    /// Record the read at the current commit index and confirm leadership
    /// with a heartbeat round carrying its position; under lease-based reads,
    /// answer at once.
    pub(super) fn start_read_round(&mut self, mut req: ReadRequest) {
        if self.read_only_option == ReadOnlyOption::LeaseBased {
            return self.answer_read(req, self.log.committed);
        }
        req.index = self.log.committed;
        self.read_only.add_request(req);
        let ctx = self.read_only.heartbeat_ctx();
        self.read_only.recv_ack(self.id, ctx);
        self.bcast_heartbeat();
    }

    pub(super) fn release_pending_read_index(&mut self) {
        if self.pending_read_index.is_empty() || !self.committed_entry_in_current_term() {
            return;
        }
        for req in std::mem::take(&mut self.pending_read_index) {
            self.start_read_round(req);
        }
    }

    pub(super) fn answer_read(&mut self, req: ReadRequest, index: u64) {
        if req.from == NONE || req.from == self.id {
            self.read_states.push(ReadState {
                index,
                request: req.request,
            });
        } else {
            let mut m = Message::new(MessageType::ReadIndexResp, self.id, req.from, self.term);
            m.index = index;
            m.context = req.request;
            self.send(m);
        }
    }
}
