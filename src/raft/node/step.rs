//! Step (etcd's `raft.go`: `Step`, `stepCandidate`, `stepFollower`): the
//! term rules every message goes through, (pre-)votes, proposals, then what
//! candidates and followers do with the rest.

use super::*;

impl Raft {
    /// etcd's raft.Step: a message of a higher term makes us a follower (a
    /// vote request within a leader's lease aside), one of a lower term is
    /// answered or ignored; then votes and proposals are handled whatever
    /// the role, and everything else by the role.
    pub(super) fn step_inner(&mut self, m: Message) {
        if m.term > self.term {
            if matches!(m.msg_type, MessageType::Vote | MessageType::PreVote) {
                let force = m.context == CAMPAIGN_TRANSFER;
                let in_lease = self.check_quorum
                    && self.lead != NONE
                    && self.election_elapsed < self.election_tick;
                if !force && in_lease {
                    // We heard from a leader less than an election timeout
                    // ago: a disruptive candidate is ignored, term unchanged.
                    self.events.push(RaftEvent::VoteRejected {
                        candidate: m.from,
                        term: m.term,
                        pre_vote: m.msg_type == MessageType::PreVote,
                        reason: "lease",
                    });
                    return;
                }
            }
            match m.msg_type {
                // A pre-vote never changes our term.
                MessageType::PreVote => {}
                // A granted pre-vote comes at our term + 1: we raise our term only
                // once we win. A rejection carries the voter's (higher) term.
                MessageType::PreVoteResp if !m.reject => {}
                MessageType::App | MessageType::Heartbeat | MessageType::Snap => {
                    self.become_follower(m.term, m.from);
                }
                _ => self.become_follower(m.term, NONE),
            }
        } else if m.term < self.term && m.term != 0 {
            if (self.check_quorum || self.pre_vote)
                && matches!(m.msg_type, MessageType::Heartbeat | MessageType::App)
            {
                // A leader of an older term: tell it our term so it steps
                // down. With CheckQuorum/PreVote our higher term could not
                // otherwise reach it (its followers ignore our votes).
                let resp = Message::new(MessageType::AppResp, self.id, m.from, self.term);
                self.send(resp);
            } else if m.msg_type == MessageType::PreVote {
                // Reject so that an old-term pre-candidate learns our term.
                let mut resp = Message::new(MessageType::PreVoteResp, self.id, m.from, self.term);
                resp.reject = true;
                self.send(resp);
            }
            // Anything else from an older term is stale: ignored.
            return;
        }

        match m.msg_type {
            MessageType::Hup => self.hup(self.default_campaign()),
            MessageType::Vote | MessageType::PreVote => self.handle_vote_request(m),
            MessageType::Prop => {
                let _ = self.handle_prop(m.entries);
            }
            _ => match self.role {
                StateRole::Leader => self.step_leader(m),
                StateRole::Candidate | StateRole::PreCandidate => self.step_candidate(m),
                StateRole::Follower => self.step_follower(m),
            },
        }
    }

    /// Grant a (pre-)vote to an up-to-date candidate we can vote for. Any
    /// node answers, learners included: a learner may already be a voter in
    /// the candidate's configuration without knowing it yet.
    pub(super) fn handle_vote_request(&mut self, m: Message) {
        let pre_vote = m.msg_type == MessageType::PreVote;
        let resp_type = if pre_vote {
            MessageType::PreVoteResp
        } else {
            MessageType::VoteResp
        };
        let can_vote = self.vote == m.from
            || (self.vote == NONE && self.lead == NONE)
            || (pre_vote && m.term > self.term);
        let up_to_date = self.log.is_up_to_date(m.index, m.log_term);
        if can_vote && up_to_date {
            // Answer at the request's term, so a pre-candidate (whose own
            // term is lower) does not discard the grant as stale.
            self.send(Message::new(resp_type, self.id, m.from, m.term));
            if !pre_vote {
                self.election_elapsed = 0;
                self.vote = m.from;
            }
            self.events.push(RaftEvent::VoteGranted {
                candidate: m.from,
                term: m.term,
                pre_vote,
            });
        } else {
            let mut resp = Message::new(resp_type, self.id, m.from, self.term);
            resp.reject = true;
            self.send(resp);
            let reason = if !can_vote && self.vote != NONE {
                "already voted"
            } else if !can_vote {
                "leader known"
            } else {
                "log not up to date"
            };
            self.events.push(RaftEvent::VoteRejected {
                candidate: m.from,
                term: m.term,
                pre_vote,
                reason,
            });
        }
    }

    pub(super) fn handle_prop(&mut self, entries: Vec<Entry>) -> Result<(), ProposeError> {
        if entries.is_empty() {
            return Ok(());
        }
        let r = match self.role {
            StateRole::Leader => self.leader_append_proposal(entries),
            StateRole::Follower if self.lead != NONE => {
                let mut m = Message::new(MessageType::Prop, self.id, self.lead, 0);
                m.entries = entries;
                self.send(m);
                Ok(())
            }
            _ => Err(ProposeError::NotLeaderNoLeader),
        };
        if let Err(e) = r {
            self.events
                .push(RaftEvent::ProposalDropped { reason: e.reason() });
        }
        r
    }

    pub(super) fn step_candidate(&mut self, m: Message) {
        // Only answers to our own kind of election count: a candidate may
        // still receive pre-vote answers from its pre-candidacy.
        let my_resp = if self.role == StateRole::PreCandidate {
            MessageType::PreVoteResp
        } else {
            MessageType::VoteResp
        };
        match m.msg_type {
            // A leader of our term exists (m.term == our term here).
            MessageType::App => {
                self.become_follower(m.term, m.from);
                self.handle_append_entries(m);
            }
            MessageType::Heartbeat => {
                self.become_follower(m.term, m.from);
                self.handle_heartbeat(m);
            }
            MessageType::Snap => {
                self.become_follower(m.term, m.from);
                self.handle_snapshot(m);
            }
            t if t == my_resp => self.poll(m.from, !m.reject),
            MessageType::TimeoutNow => self.events.push(RaftEvent::IgnoredTimeoutNow {
                reason: "not a follower",
            }),
            MessageType::TransferLeader => self.events.push(RaftEvent::TransferIgnored {
                to: transferee_of(&m),
                reason: "no leader",
            }),
            _ => {}
        }
    }

    pub(super) fn step_follower(&mut self, m: Message) {
        match m.msg_type {
            MessageType::App => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_append_entries(m);
            }
            MessageType::Heartbeat => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_heartbeat(m);
            }
            MessageType::Snap => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_snapshot(m);
            }
            MessageType::TransferLeader => {
                let to = transferee_of(&m);
                if self.lead == NONE {
                    self.events.push(RaftEvent::TransferIgnored {
                        to,
                        reason: "no leader",
                    });
                } else {
                    let mut fwd =
                        Message::new(MessageType::TransferLeader, self.id, self.lead, self.term);
                    fwd.context = to;
                    self.send(fwd);
                }
            }
            MessageType::TimeoutNow => match self.unpromotable_reason() {
                Some(reason) => self.events.push(RaftEvent::IgnoredTimeoutNow { reason }),
                // A transfer skips PreVote: we know the leader wants us to win.
                None => self.hup(CampaignType::Transfer),
            },
            // Without a leader the read is dropped, as etcd does.
            MessageType::ReadIndex if self.lead != NONE => {
                let mut fwd = Message::new(MessageType::ReadIndex, self.id, self.lead, 0);
                fwd.context = m.context;
                self.send(fwd);
            }
            MessageType::ReadIndexResp => self.read_states.push(ReadState {
                index: m.index,
                request: m.context,
            }),
            _ => {}
        }
    }
}
