//! A tiny in-memory network for the core's tests: messages are delivered
//! instantly (in the order they were sent), committed entries are applied
//! at once (a write to the tests' own state machine, a configuration change
//! through `apply_conf_change`), and links or whole nodes can be cut.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;

use raftlab::raft::events::RaftEvent;
use raftlab::raft::node::{bootstrap_storage, Config, Raft, StateRole, Storage};
use raftlab::raft::types::{
    ConfChange, ConfChangeType, EntryData, Message, MessageType, NodeId, Opaque,
};
use raftlab::sim::invariants::Checker;

type DropFn = Box<dyn Fn(&Message) -> bool>;

/// The tests' application: each write sets a key (what a normal entry
/// carries, opaque to the core).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    pub key: String,
    pub value: String,
    pub request: u64,
}

/// The tests' state machine: the writes applied, by key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State(BTreeMap<String, String>);

impl State {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }
}

pub struct Network {
    pub nodes: BTreeMap<NodeId, Raft>,
    pub state: BTreeMap<NodeId, State>,
    /// Nodes cut off from everyone (messages to and from them are lost).
    isolated: BTreeSet<NodeId>,
    /// Directed links that lose every message.
    cut: BTreeSet<(NodeId, NodeId)>,
    /// Extra loss rule, e.g. "drop every MsgApp from 1".
    pub drop_if: Option<DropFn>,
    /// Every message delivered, in order.
    pub delivered: Vec<Message>,
    /// Every event, tagged with the node it happened on.
    pub events: Vec<(NodeId, RaftEvent)>,
    pub config: Config,
    next_request: u64,
    /// Raft's safety properties, checked after every step. The checker
    /// belongs to the simulated world; the core's tests borrow it so that
    /// every one of them runs the same checks.
    pub checker: Checker,
    /// Steps so far: the checker's clock.
    steps: u64,
}

impl Drop for Network {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let v = self.checker.violations();
            assert!(v.is_empty(), "safety violated: {v:#?}");
        }
    }
}

pub fn config(id: NodeId) -> Config {
    Config {
        max_inflight_msgs: 256,
        ..Config::new(id)
    }
}

pub fn conf_change(change_type: ConfChangeType, node_id: NodeId) -> EntryData {
    EntryData::ConfChange(Rc::new(ConfChange {
        change_type,
        node_id,
        request: 1000 + node_id,
        context: Opaque::default(),
        promote: false,
    }))
}

impl Network {
    /// A new cluster of `voters`, bootstrapped as etcd's StartNode does,
    /// with the default test configuration.
    pub fn new(voters: &[NodeId]) -> Network {
        Network::with_config(voters, config(0))
    }

    /// Like `new`, with `template` (its id is replaced per node).
    pub fn with_config(voters: &[NodeId], template: Config) -> Network {
        let mut net = Network {
            nodes: BTreeMap::new(),
            state: BTreeMap::new(),
            isolated: BTreeSet::new(),
            cut: BTreeSet::new(),
            drop_if: None,
            delivered: Vec::new(),
            events: Vec::new(),
            config: template,
            next_request: 1,
            checker: Checker::default(),
            steps: 0,
        };
        for &v in voters {
            net.start(v, bootstrap_storage(voters));
        }
        net
    }

    /// Start (or restart) node `id` from `storage`, seeded by its id.
    pub fn start(&mut self, id: NodeId, storage: Storage) {
        let cfg = Config {
            id,
            ..self.config.clone()
        };
        let state = storage
            .snapshot
            .data
            .get::<State>()
            .cloned()
            .unwrap_or_default();
        let node = Raft::new(&cfg, storage, 0x5eed ^ id);
        self.nodes.insert(id, node);
        self.state.insert(id, state);
        self.apply(id);
    }

    /// Stop node `id`, returning what it had on disk.
    pub fn crash(&mut self, id: NodeId) -> Storage {
        self.state.remove(&id);
        self.nodes
            .remove(&id)
            .expect("crash of an unknown node")
            .storage()
    }

    pub fn node(&self, id: NodeId) -> &Raft {
        &self.nodes[&id]
    }

    /// Node `id`'s applied state as a snapshot's data.
    pub fn snapshot_data(&self, id: NodeId) -> Opaque {
        Opaque::new(self.state[&id].clone(), 100)
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Raft {
        self.nodes.get_mut(&id).expect("unknown node")
    }

    pub fn isolate(&mut self, id: NodeId) {
        self.isolated.insert(id);
    }

    /// Cut both directions between `a` and `b`.
    pub fn cut(&mut self, a: NodeId, b: NodeId) {
        self.cut.insert((a, b));
        self.cut.insert((b, a));
    }

    /// Heal every link and rejoin every isolated node.
    pub fn heal(&mut self) {
        self.isolated.clear();
        self.cut.clear();
        self.drop_if = None;
    }

    fn lost(&self, m: &Message) -> bool {
        self.isolated.contains(&m.from)
            || self.isolated.contains(&m.to)
            || self.cut.contains(&(m.from, m.to))
            || self.drop_if.as_ref().is_some_and(|f| f(m))
    }

    /// Apply node `id`'s committed entries and install a restored snapshot.
    pub fn apply(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        let state = self.state.entry(id).or_default();
        loop {
            if let Some(snap) = node.take_restored_snapshot() {
                *state = snap.data.get::<State>().cloned().unwrap_or_default();
            }
            let entries = node.committed_entries();
            let Some(last) = entries.last().map(|e| e.index) else {
                break;
            };
            for e in &entries {
                self.checker.observe_applied(self.steps, id, e);
                match &e.data {
                    EntryData::Normal(data) => {
                        if let Some(w) = data.get::<Write>() {
                            state.0.insert(w.key.clone(), w.value.clone());
                        }
                    }
                    EntryData::ConfChange(cc) => {
                        node.apply_conf_change(cc);
                    }
                    EntryData::ConfChangeV2(cc) => {
                        let _ = node.apply_conf_change_v2(cc);
                    }
                    EntryData::Empty => {}
                }
            }
            node.applied_to(last);
        }
        self.steps += 1;
        self.checker.observe(self.steps, id, node);
        for ev in node.take_events() {
            self.events.push((id, ev));
        }
    }

    /// Deliver messages (and apply entries) until the network is quiet.
    pub fn drain(&mut self) {
        let mut queue: VecDeque<Message> = VecDeque::new();
        let mut budget = 100_000;
        loop {
            budget -= 1;
            assert!(budget > 0, "the network never quiets down");
            let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
            for id in ids {
                self.ready(id, &mut queue);
            }
            let Some(m) = queue.pop_front() else {
                break;
            };
            if self.lost(&m) {
                continue;
            }
            self.delivered.push(m.clone());
            let to = m.to;
            if let Some(node) = self.nodes.get_mut(&to) {
                let _ = node.step(m);
                self.apply(to);
            }
        }
    }

    /// One etcd Ready/Advance cycle of node `id`, repeated while advancing
    /// produces more: apply, queue its messages, count its own acks.
    fn ready(&mut self, id: NodeId, queue: &mut VecDeque<Message>) {
        loop {
            self.apply(id);
            queue.extend(self.node_mut(id).take_messages());
            if !self.node_mut(id).advance() {
                return;
            }
        }
    }

    /// One tick on every node, then deliver.
    pub fn tick_all(&mut self, ticks: u32) {
        for _ in 0..ticks {
            let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
            for id in ids {
                self.node_mut(id).tick();
            }
            self.drain();
        }
    }

    /// Ticks of node `id` only, delivering after each.
    pub fn tick_node(&mut self, id: NodeId, ticks: u32) {
        for _ in 0..ticks {
            self.node_mut(id).tick();
            self.drain();
        }
    }

    pub fn campaign(&mut self, id: NodeId) {
        self.node_mut(id).campaign();
        self.drain();
    }

    /// Propose a write of `key` on node `id` and deliver.
    pub fn put(&mut self, id: NodeId, key: &str, value: &str) -> bool {
        let request = self.next_request;
        self.next_request += 1;
        let data = EntryData::Normal(Opaque::new(
            Write {
                key: key.into(),
                value: value.into(),
                request,
            },
            10,
        ));
        let ok = self.node_mut(id).propose(data).is_ok();
        self.drain();
        ok
    }

    pub fn propose_conf(
        &mut self,
        id: NodeId,
        change_type: ConfChangeType,
        target: NodeId,
    ) -> bool {
        let ok = self
            .node_mut(id)
            .propose(conf_change(change_type, target))
            .is_ok();
        self.drain();
        ok
    }

    /// Leaders among live nodes.
    pub fn leaders(&self) -> Vec<NodeId> {
        self.nodes
            .iter()
            .filter(|(_, n)| n.role() == StateRole::Leader)
            .map(|(&id, _)| id)
            .collect()
    }

    /// Events of node `id` matching `pred`.
    pub fn events_of(&self, id: NodeId, pred: impl Fn(&RaftEvent) -> bool) -> Vec<RaftEvent> {
        self.events
            .iter()
            .filter(|(n, e)| *n == id && pred(e))
            .map(|(_, e)| e.clone())
            .collect()
    }

    pub fn count_delivered(&self, t: MessageType, from: NodeId, to: NodeId) -> usize {
        self.delivered
            .iter()
            .filter(|m| m.msg_type == t && m.from == from && m.to == to)
            .count()
    }
}
