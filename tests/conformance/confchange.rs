//! `confchange/testdata`: etcd's `confchange/datadriven_test.go` over
//! raftlab's `raft::confchange` and tracker. `simple`, `enter-joint
//! [autoleave=true]` and `leave-joint` take changes `v1 l2 r3 u4` (voter,
//! learner, remove, update) and print the configuration and the progress
//! of every peer, or the refusal. Each command's new peers probe from an
//! index one higher than the last's, as in etcd's harness.

use raftlab::raft::confchange::Changer;
use raftlab::raft::{ConfChangeSingle, ConfChangeType, ProgressTracker};

use super::datadriven::Directive;

/// The tracker under test and the last index new peers start from.
pub struct Env {
    tracker: ProgressTracker,
    last_index: u64,
}

impl Env {
    pub fn new() -> Env {
        Env {
            tracker: ProgressTracker::new(10),
            last_index: 0,
        }
    }

    pub fn run(&mut self, d: &Directive) -> Result<String, String> {
        let out = self.change(d);
        self.last_index += 1;
        out
    }

    fn change(&mut self, d: &Directive) -> Result<String, String> {
        let changes = match parse_changes(&d.input) {
            Ok(c) => c,
            Err(e) => return Ok(e),
        };
        let changer = Changer {
            tracker: &self.tracker,
            last_index: self.last_index,
        };
        let changed = match d.cmd.as_str() {
            "simple" => changer.simple(&changes),
            "enter-joint" => {
                let auto_leave = d.val("autoleave") == Some("true");
                changer.enter_joint(auto_leave, &changes)
            }
            "leave-joint" if !changes.is_empty() => {
                return Ok("this command takes no input\n".into())
            }
            "leave-joint" => changer.leave_joint(),
            _ => return Ok("unknown command".into()),
        };
        match changed {
            Ok((config, progress)) => {
                self.tracker.config = config;
                self.tracker.progress = progress;
                Ok(format!(
                    "{}\n{}",
                    self.tracker.config,
                    self.tracker.describe()
                ))
            }
            Err(e) => Ok(format!("{e}\n")),
        }
    }
}

/// `v1 l2 r3 u4`, as etcd's ConfChangesFromString reads it; the error is
/// the output etcd's harness gives.
pub fn parse_changes(input: &str) -> Result<Vec<ConfChangeSingle>, String> {
    let mut out = Vec::new();
    for tok in input.split(' ').filter(|t| !t.is_empty()) {
        if tok.len() < 2 {
            return Err(format!("unknown token {tok}"));
        }
        let change_type = match tok.as_bytes()[0] {
            b'v' => ConfChangeType::AddNode,
            b'l' => ConfChangeType::AddLearnerNode,
            b'r' => ConfChangeType::RemoveNode,
            b'u' => ConfChangeType::UpdateNode,
            _ => return Err(format!("unknown input: {tok}")),
        };
        let node_id = tok[1..]
            .parse()
            .map_err(|_| format!("strconv.ParseUint: parsing {:?}: invalid syntax", &tok[1..]))?;
        out.push(ConfChangeSingle {
            change_type,
            node_id,
        });
    }
    Ok(out)
}
