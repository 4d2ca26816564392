//! `testdata/`: etcd's `rafttest.InteractionEnv` over raftlab's `Raft`.
//!
//! The environment holds nodes 1..n and the messages in flight. Nothing
//! moves unless a command says so: `process-ready N` hands out node N's
//! Ready (what changed, to persist, to apply, to send) and then advances
//! it, `deliver-msgs N` steps the messages addressed to N, `stabilize`
//! does both until nothing is left. The text printed is etcd's (see
//! `describe.rs`).
//!
//! raftlab's node has no Ready of its own: it persists everything at once
//! and exposes its state, so the Ready is read off it as etcd's RawNode
//! computes it: the soft and hard state that changed since the last
//! Ready, the entries it holds that storage does not (etcd's unstable
//! entries), a restored snapshot, the committed entries, the messages.

mod commands;
mod describe;
mod storage;

use raftlab::raft::{
    Entry, EntryData, HardState, Message, MessageType, NodeId, Opaque, Raft, StateRole,
};

use self::describe::Ready;
use self::storage::MemStorage;
use super::datadriven::Directive;

/// One member of the group and what the harness keeps beside it.
struct Node {
    raft: Raft,
    storage: MemStorage,
    /// Leader and role, and hard state, as of the last Ready (etcd's
    /// RawNode.prevSoftSt and prevHardSt).
    prev_soft: (NodeId, StateRole),
    prev_hard: HardState,
    election_tick: u32,
    heartbeat_tick: u32,
}

impl Node {
    fn soft(&self) -> (NodeId, StateRole) {
        (self.raft.leader_id(), self.raft.role())
    }

    /// The entries the node holds that storage does not have yet, from the
    /// first that differs (etcd's unstable entries).
    fn unstable(&self) -> Vec<Entry> {
        let (first, last) = (self.raft.first_index(), self.raft.last_index());
        let from = (first..=last).find(|&i| self.storage.term(i) != self.raft.term_at(i));
        from.map_or_else(Vec::new, |lo| {
            self.raft.entries_in(lo, last + 1).cloned().collect()
        })
    }

    /// etcd's RawNode.HasReady.
    fn has_ready(&self) -> bool {
        let hard = self.raft.hard_state();
        self.soft() != self.prev_soft
            || (hard != HardState::default() && hard != self.prev_hard)
            || self.raft.restored_snapshot().is_some()
            || self.raft.has_pending_messages()
            || !self.unstable().is_empty()
            || !self.raft.committed_entries().is_empty()
    }

    /// The Ready, accepted: what it reports counts as reported.
    fn ready(&mut self) -> Ready {
        let soft = self.soft();
        let hard = self.raft.hard_state();
        let entries = self.unstable();
        let committed = self.raft.committed_entries();
        let rd = Ready {
            soft: (soft != self.prev_soft).then_some(soft),
            hard: (hard != self.prev_hard).then_some(hard),
            must_sync: !entries.is_empty()
                || hard.vote != self.prev_hard.vote
                || hard.term != self.prev_hard.term,
            entries,
            snapshot: self.raft.take_restored_snapshot(),
            committed,
            messages: self.raft.take_messages(),
        };
        self.prev_soft = soft;
        if hard != HardState::default() {
            self.prev_hard = hard;
        }
        self.raft.take_events();
        rd
    }

    /// Persists and applies a Ready, then advances the node (etcd's
    /// processAppend, processApply and Advance). Every applied entry leaves
    /// a snapshot of the state at its index, which is what a leader sends a
    /// follower its log no longer covers (the harness's "History").
    fn handle(&mut self, rd: &Ready) -> Result<(), String> {
        if let Some(hs) = rd.hard {
            self.storage.hard_state = hs;
        }
        match &rd.snapshot {
            Some(_) if !rd.entries.is_empty() => {
                return Err("can't apply snapshot and entries at the same time".into())
            }
            Some(snap) => self.storage.apply_snapshot(snap),
            None => self.storage.append(&rd.entries)?,
        }
        for e in &rd.committed {
            match &e.data {
                EntryData::ConfChange(cc) => {
                    self.raft.apply_conf_change(cc);
                }
                EntryData::ConfChangeV2(cc) => {
                    self.raft
                        .apply_conf_change_v2(cc)
                        .map_err(|err| format!("applying {}: {err}", describe::entry(e)))?;
                }
                _ => {}
            }
            self.raft.create_snapshot(e.index, Opaque::default());
        }
        self.raft.advance();
        if let Some(last) = rd.committed.last() {
            self.raft.applied_to(last.index);
        }
        Ok(())
    }
}

/// The nodes, the messages in flight and the output being written.
pub struct Env {
    nodes: Vec<Node>,
    messages: Vec<Message>,
    out: String,
    /// Log level NONE: nothing is printed but errors.
    quiet: bool,
}

impl Env {
    pub fn new() -> Env {
        Env {
            nodes: Vec::new(),
            messages: Vec::new(),
            out: String::new(),
            quiet: false,
        }
    }

    /// Runs one directive and returns its output (etcd's Handle). Errors
    /// the nodes report are part of the output; an `Err` is a directive the
    /// harness cannot run.
    pub fn run(&mut self, d: &Directive) -> Result<String, String> {
        self.out.clear();
        if let Some(err) = self.command(d)? {
            if self.quiet {
                return Ok(format!("{err}\n"));
            }
            self.out.push_str(&err);
        }
        if self.out.is_empty() {
            return Ok("ok\n".into());
        }
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        Ok(self.out.clone())
    }

    fn write(&mut self, s: &str) {
        if !self.quiet {
            self.out.push_str(s);
        }
    }

    /// Runs `f` with its output indented by two spaces (etcd's withIndent).
    fn indented<T>(&mut self, f: impl FnOnce(&mut Env) -> T) -> T {
        let outer = std::mem::take(&mut self.out);
        let r = f(self);
        let inner = std::mem::replace(&mut self.out, outer);
        for line in inner.lines() {
            self.out.push_str("  ");
            self.out.push_str(line);
            self.out.push('\n');
        }
        r
    }

    fn node(&mut self, id: NodeId) -> Result<&mut Node, String> {
        let idx = usize::try_from(id).ok().and_then(|i| i.checked_sub(1));
        idx.and_then(|i| self.nodes.get_mut(i))
            .ok_or_else(|| format!("no node {id}"))
    }

    /// Hands out node `id`'s Ready, then persists, applies and advances.
    fn process_ready(&mut self, id: NodeId) -> Result<(), String> {
        let rd = self.node(id)?.ready();
        let text = describe::ready(&rd);
        self.write(&text);
        self.node(id)?.handle(&rd)?;
        self.messages.extend(rd.messages);
        Ok(())
    }

    /// Delivers (or drops) the messages in flight to each recipient, of
    /// type `kind` if given; returns how many it handled.
    fn deliver(&mut self, kind: Option<MessageType>, recipients: &[(NodeId, bool)]) -> usize {
        let mut n = 0;
        for &(to, drop) in recipients {
            let (mine, rest): (Vec<Message>, Vec<Message>) = std::mem::take(&mut self.messages)
                .into_iter()
                .partition(|m| m.to == to && kind.is_none_or(|k| m.msg_type == k));
            self.messages = rest;
            n += mine.len();
            for m in mine {
                let text = describe::message(&m);
                self.write(&format!("{}{text}\n", if drop { "dropped: " } else { "" }));
                if drop {
                    continue;
                }
                let result = match self.node(m.to) {
                    Ok(node) => node.raft.step(m).map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                };
                if let Err(e) = result {
                    self.write(&format!("{e}\n"));
                }
            }
        }
        n
    }

    /// Ready handling and delivery on `ids` (every node if empty) until
    /// nothing is left to do (etcd's Stabilize).
    fn stabilize(&mut self, ids: &[NodeId]) -> Result<(), String> {
        let ids: Vec<NodeId> = if ids.is_empty() {
            (1..=self.nodes.len() as NodeId).collect()
        } else {
            ids.to_vec()
        };
        loop {
            let mut done = true;
            for &id in &ids {
                if self.node(id)?.has_ready() {
                    self.write(&format!("> {id} handling Ready\n"));
                    self.indented(|env| env.process_ready(id))?;
                    done = false;
                }
            }
            for &id in &ids {
                if self.messages.iter().any(|m| m.to == id) {
                    self.write(&format!("> {id} receiving messages\n"));
                    self.indented(|env| env.deliver(None, &[(id, false)]));
                    done = false;
                }
            }
            if done {
                return Ok(());
            }
        }
    }
}
