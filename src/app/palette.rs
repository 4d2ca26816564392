//! Every colour the canvas uses, in one place, so the legend in the page and
//! the drawing agree. Plain CSS colour strings: no allocation while drawing.

use crate::raft::{MessageType, StateRole};

pub const BACKGROUND: &str = "#0b1120";
pub const PANEL: &str = "#111a2e";
pub const GRID: &str = "#1e293b";
pub const TEXT: &str = "#e2e8f0";
pub const TEXT_DIM: &str = "#94a3b8";
pub const TEXT_FAINT: &str = "#64748b";
pub const LINK: &str = "#334155";
pub const LINK_CUT: &str = "#ef4444";
pub const HOVER: &str = "#f8fafc";
pub const NODE_TEXT_DARK: &str = "#0b1120";

pub const LEADER: &str = "#f59e0b";
pub const FOLLOWER: &str = "#38bdf8";
pub const CANDIDATE: &str = "#f472b6";
pub const PRE_CANDIDATE: &str = "#c084fc";
pub const DOWN: &str = "#475569";
/// A member whose process was never started.
pub const NOT_STARTED: &str = "#334155";

pub const COMMIT: &str = "#f8fafc";
pub const APPLIED: &str = "#4ade80";
pub const SNAPSHOT: &str = "#f97316";
pub const TIMER: &str = "#e2e8f0";
pub const TIMER_TRACK: &str = "#1e293b";
pub const GOOD: &str = "#4ade80";
/// Failover's countdown on a voter the leader does not hear from.
pub const COUNTDOWN: &str = "#ef4444";
/// The `auto-promote` threshold on a learner's catch-up bar.
pub const AUTO_LINE: &str = "#a3e635";
/// The badges of the learners' kinds (the page's legend shows them).
pub const STANDBY: &str = "#c4b5fd";
pub const READ_WEAK: &str = "#fb7185";
pub const READ_STRONG: &str = "#2dd4bf";
pub const BAD: &str = "#f87171";

pub fn role(role: Option<StateRole>) -> &'static str {
    match role {
        None => DOWN,
        Some(StateRole::Leader) => LEADER,
        Some(StateRole::Follower) => FOLLOWER,
        Some(StateRole::Candidate) => CANDIDATE,
        Some(StateRole::PreCandidate) => PRE_CANDIDATE,
    }
}

/// A message's colour: requests saturated, their responses lighter.
pub fn message(kind: MessageType) -> &'static str {
    use MessageType::*;
    match kind {
        Vote => "#f472b6",
        VoteResp => "#fbcfe8",
        PreVote => "#c084fc",
        PreVoteResp => "#e9d5ff",
        App => "#34d399",
        AppResp => "#a7f3d0",
        Heartbeat => "#facc15",
        HeartbeatResp => "#fef08a",
        Snap => "#f97316",
        ReadIndex => "#2dd4bf",
        ReadIndexResp => "#99f6e4",
        TimeoutNow | TransferLeader => "#60a5fa",
        Prop => "#a3e635",
        Hup | Beat => "#94a3b8",
    }
}

/// The legend the page shows, in the order it shows it: (label, colour).
pub const MESSAGE_LEGEND: [(&str, &str); 7] = [
    ("append", "#34d399"),
    ("heartbeat", "#facc15"),
    ("vote", "#f472b6"),
    ("pre-vote", "#c084fc"),
    ("snapshot", "#f97316"),
    ("read index", "#2dd4bf"),
    ("transfer", "#60a5fa"),
];

const TERMS: [&str; 8] = [
    "#0ea5e9", "#a855f7", "#10b981", "#f43f5e", "#eab308", "#6366f1", "#14b8a6", "#ec4899",
];

/// Log entries are coloured by term, cycling through eight hues.
pub fn term(term: u64) -> &'static str {
    TERMS[(term % TERMS.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legend of `www/index.html`: (label, colour) of each swatch.
    fn page_legend() -> Vec<(String, String)> {
        let page = include_str!("../../www/index.html");
        let start = page.find("id=\"legend\"").expect("the page has a legend");
        let end = start + page[start..].find("</ul>").unwrap();
        page[start..end]
            .split("<li")
            .filter_map(|li| {
                let c = li.split("--c:").nth(1)?;
                let colour = c[..7].to_string();
                let label = li.split("</span>").nth(1)?.split("</li>").next()?;
                Some((label.trim().to_string(), colour))
            })
            .collect()
    }

    #[test]
    fn the_pages_legend_shows_the_canvas_colours() {
        let legend = page_legend();
        let colour = |label: &str| {
            legend
                .iter()
                .find(|(l, _)| l == label)
                .map(|(_, c)| c.as_str())
                .unwrap_or_else(|| panic!("no {label} in the legend: {legend:?}"))
        };
        assert_eq!(colour("leader"), role(Some(StateRole::Leader)));
        assert_eq!(colour("follower"), role(Some(StateRole::Follower)));
        assert_eq!(colour("candidate"), role(Some(StateRole::Candidate)));
        assert_eq!(colour("pre-candidate"), role(Some(StateRole::PreCandidate)));
        assert_eq!(colour("down"), role(None));
        for (label, c) in MESSAGE_LEGEND {
            assert_eq!(colour(label), c, "{label}");
        }
        assert_eq!(colour("append"), message(MessageType::App));
        assert_eq!(colour("vote"), message(MessageType::Vote));
        assert_eq!(colour("snapshot"), message(MessageType::Snap));
        assert_eq!(colour("standby"), STANDBY);
        assert_eq!(colour("read-only weak"), READ_WEAK);
        assert_eq!(colour("read-only strong"), READ_STRONG);
    }
}
