//! The network faults on a real cluster: one network namespace per member,
//! joined by a bridge, each member with its own address, and a cut link as
//! iptables DROP rules inside the two namespaces it joins. The host's own
//! rules are never touched; live TCP connections go silent as on a real
//! partition, and deleting the namespaces cleans everything up. Bandwidth
//! is a token bucket (`tc ... tbf`) on each member's interface.
//!
//! Names all start with `rl` and carry the slot (the cluster's port block),
//! so clusters run at once never share one: the bridge `rl{slot}br`, the
//! namespaces `rl{slot}n{id}`, the host's end of each link `rl{slot}v{id}`;
//! the subnet is `10.213.{slot}.0/24`, the host `.254` on it, member N `.N`.
//! Needs root, `ip` (iproute2), `iptables` and, for bandwidth, `tc`.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use crate::raft::NodeId;

/// Whether namespaces can be made here: root, and the tools.
pub fn available() -> Result<(), String> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    if uid != "0" {
        return Err("which needs root (run as root to drive network faults)".to_string());
    }
    // `tc` (iproute2, with `ip`) only sets a bandwidth, but it comes with
    // `ip`: a machine with one has both.
    for tool in ["ip", "iptables", "tc"] {
        if !tool_exists(tool) {
            return Err(format!(
                "which needs {tool} (Debian's iproute2 and iptables packages)"
            ));
        }
    }
    Ok(())
}

fn tool_exists(tool: &str) -> bool {
    Command::new(tool)
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn run(args: &[&str]) -> Result<(), String> {
    let out = Command::new(args[0])
        .args(&args[1..])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", args[0]))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Runs `args` with `input` on its standard input.
fn run_with_input(args: &[&str], input: &str) -> Result<(), String> {
    use std::io::Write;
    let mut child = Command::new(args[0])
        .args(&args[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", args[0]))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .map_err(|e| format!("{}: {e}", args.join(" ")))?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The namespaces of one cluster.
#[derive(Debug)]
pub struct Network {
    slot: u16,
    /// Members whose namespace exists.
    members: BTreeSet<NodeId>,
    /// Cut links, each as (lower id, higher id).
    cuts: BTreeSet<(NodeId, NodeId)>,
    /// Outbound bytes per second per member (`None`: unlimited).
    bandwidth: Option<u64>,
}

impl Network {
    /// The bridge and the host's address on it; anything of this slot left
    /// by an earlier run that was killed is removed first.
    pub fn new(slot: u16, bandwidth: Option<u64>) -> Result<Network, String> {
        if slot > 250 {
            return Err(format!("network slot {slot} is out of range (0..=250)"));
        }
        let net = Network {
            slot,
            members: BTreeSet::new(),
            cuts: BTreeSet::new(),
            bandwidth,
        };
        net.remove_leftovers();
        let br = net.bridge();
        run(&["ip", "link", "add", &br, "type", "bridge"])?;
        run(&[
            "ip",
            "addr",
            "add",
            &format!("{}/24", net.host_ip()),
            "dev",
            &br,
        ])?;
        run(&["ip", "link", "set", &br, "up"])?;
        Ok(net)
    }

    fn bridge(&self) -> String {
        format!("rl{}br", self.slot)
    }

    /// Member `id`'s namespace.
    pub fn namespace(&self, id: NodeId) -> String {
        format!("rl{}n{id}", self.slot)
    }

    fn host_ip(&self) -> String {
        format!("10.213.{}.254", self.slot)
    }

    /// Member `id`'s address.
    pub fn ip(&self, id: NodeId) -> String {
        format!("10.213.{}.{id}", self.slot)
    }

    fn remove_leftovers(&self) {
        let prefix = format!("rl{}n", self.slot);
        if let Ok(out) = Command::new("ip").args(["netns", "list"]).output() {
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let name = line.split_whitespace().next().unwrap_or("");
                let ours = name
                    .strip_prefix(&prefix)
                    .is_some_and(|n| n.parse::<NodeId>().is_ok());
                if ours {
                    let _ = run(&["ip", "netns", "del", name]);
                }
            }
        }
        for id in 1..=15 {
            let _ = Command::new("ip")
                .args(["link", "del", &format!("rl{}v{id}", self.slot)])
                .stderr(Stdio::null())
                .status();
        }
        let _ = Command::new("ip")
            .args(["link", "del", &self.bridge()])
            .stderr(Stdio::null())
            .status();
    }

    /// Makes member `id`'s namespace and link (once), with the rules and
    /// bandwidth in force.
    pub fn add_member(&mut self, id: NodeId) -> Result<(), String> {
        if self.members.contains(&id) {
            return Ok(());
        }
        let ns = self.namespace(id);
        let veth = format!("rl{}v{id}", self.slot);
        run(&["ip", "netns", "add", &ns])?;
        self.members.insert(id);
        run(&[
            "ip", "link", "add", &veth, "type", "veth", "peer", "name", "eth0", "netns", &ns,
        ])?;
        run(&["ip", "link", "set", &veth, "master", &self.bridge(), "up"])?;
        let inside = |args: &[&str]| {
            let mut all = vec!["ip", "netns", "exec", ns.as_str()];
            all.extend_from_slice(args);
            run(&all)
        };
        inside(&[
            "ip",
            "addr",
            "add",
            &format!("{}/24", self.ip(id)),
            "dev",
            "eth0",
        ])?;
        inside(&["ip", "link", "set", "eth0", "up"])?;
        inside(&["ip", "link", "set", "lo", "up"])?;
        self.apply_bandwidth(id)?;
        self.apply_rules(id)
    }

    /// Cuts the link between `a` and `b` (both ways).
    pub fn cut(&mut self, a: NodeId, b: NodeId) -> Result<(), String> {
        if a == b {
            return Ok(());
        }
        self.cuts.insert((a.min(b), a.max(b)));
        self.apply_rules(a)?;
        self.apply_rules(b)
    }

    /// Heals the link between `a` and `b`.
    pub fn heal(&mut self, a: NodeId, b: NodeId) -> Result<(), String> {
        self.cuts.remove(&(a.min(b), a.max(b)));
        self.apply_rules(a)?;
        self.apply_rules(b)
    }

    /// Heals every link.
    pub fn heal_all(&mut self) -> Result<(), String> {
        let touched: BTreeSet<NodeId> = self.cuts.iter().flat_map(|&(a, b)| [a, b]).collect();
        self.cuts.clear();
        for id in touched {
            self.apply_rules(id)?;
        }
        Ok(())
    }

    /// Whether the link between `a` and `b` is cut.
    pub fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        self.cuts.contains(&(a.min(b), a.max(b)))
    }

    /// Sets every member's outbound bandwidth.
    pub fn set_bandwidth(&mut self, bandwidth: Option<u64>) -> Result<(), String> {
        self.bandwidth = bandwidth;
        let ids: Vec<NodeId> = self.members.iter().copied().collect();
        for id in ids {
            self.apply_bandwidth(id)?;
        }
        Ok(())
    }

    /// Writes member `id`'s rules anew from the cuts (its namespace only:
    /// the host's tables are never touched).
    fn apply_rules(&self, id: NodeId) -> Result<(), String> {
        if !self.members.contains(&id) {
            return Ok(());
        }
        let mut rules = String::from(
            "*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n",
        );
        for &(a, b) in &self.cuts {
            let other = match id {
                x if x == a => b,
                x if x == b => a,
                _ => continue,
            };
            let ip = self.ip(other);
            rules.push_str(&format!(
                "-A INPUT -s {ip} -j DROP\n-A OUTPUT -d {ip} -j DROP\n"
            ));
        }
        rules.push_str("COMMIT\n");
        let ns = self.namespace(id);
        run_with_input(&["ip", "netns", "exec", &ns, "iptables-restore"], &rules)
    }

    fn apply_bandwidth(&self, id: NodeId) -> Result<(), String> {
        if !self.members.contains(&id) {
            return Ok(());
        }
        let ns = self.namespace(id);
        match self.bandwidth {
            Some(bytes) => {
                let bits = bytes.saturating_mul(8).max(8_000);
                // A bucket of a tenth of a second's bytes (at least a few
                // packets), and room to queue a second's worth: raftlab's
                // queue has no bound, tc's must have one.
                let burst = (bytes / 10).max(16 * 1024);
                run(&[
                    "ip",
                    "netns",
                    "exec",
                    &ns,
                    "tc",
                    "qdisc",
                    "replace",
                    "dev",
                    "eth0",
                    "root",
                    "tbf",
                    "rate",
                    &format!("{bits}bit"),
                    "burst",
                    &format!("{burst}"),
                    "latency",
                    "1s",
                ])
            }
            None => {
                let _ = Command::new("ip")
                    .args([
                        "netns", "exec", &ns, "tc", "qdisc", "del", "dev", "eth0", "root",
                    ])
                    .stderr(Stdio::null())
                    .status();
                Ok(())
            }
        }
    }
}

impl Drop for Network {
    /// Removes each link (its host end: both ends go), each namespace and
    /// the bridge. A namespace the kernel still holds (a socket closing in
    /// it) would keep its link: the link goes first.
    fn drop(&mut self) {
        for &id in &self.members {
            let _ = run(&["ip", "link", "del", &format!("rl{}v{id}", self.slot)]);
            let _ = run(&["ip", "netns", "del", &self.namespace(id)]);
        }
        let _ = run(&["ip", "link", "del", &self.bridge()]);
    }
}
