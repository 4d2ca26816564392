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
/// A held direction's bar and its messages' rings (`hold`).
pub const HELD: &str = "#fbbf24";
pub const HOVER: &str = "#f8fafc";
pub const NODE_TEXT_DARK: &str = "#0b1120";

// The roles' colours stay apart for readers with the common colour-vision
// deficiencies: the test `roles_stay_apart_under_colour_blindness` (below)
// simulates protanopia, deuteranopia and tritanopia (Machado, Oliveira and
// Fernandes 2009, full severity) and wants at least MIN_ROLE_DISTANCE
// (CIEDE2000) between any two (docs/accessibility.md). A learner is told by
// its shape (a hollow dashed hexagon), a leader by its halo too, a node
// that is down by its cross too; every node's role is also written beside it.
pub const LEADER: &str = "#f59e0b";
pub const FOLLOWER: &str = "#38bdf8";
pub const CANDIDATE: &str = "#c026d3";
pub const PRE_CANDIDATE: &str = "#fae8ff";
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
/// A node that sees itself otherwise than the cluster does (a learner
/// promoted behind its back).
pub const SELF_VIEW: &str = "#fbbf24";

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

    /// Colour-vision deficiency, simulated: Machado, Oliveira and Fernandes
    /// (2009), "A Physiologically-based Model for Simulation of Color
    /// Vision Deficiency", their matrices at severity 1.0, applied to
    /// linear sRGB.
    const SIMULATIONS: [(&str, [[f64; 3]; 3]); 4] = [
        (
            "normal vision",
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        ),
        (
            "protanopia",
            [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
        ),
        (
            "deuteranopia",
            [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
        ),
        (
            "tritanopia",
            [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        ),
    ];

    /// Two roles this far apart (CIEDE2000) are told apart at a glance on
    /// the canvas's small discs (2.3 is a just noticeable difference).
    const MIN_ROLE_DISTANCE: f64 = 15.0;

    fn linear(hex: &str) -> [f64; 3] {
        let c = |i: usize| {
            let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        [c(1), c(3), c(5)]
    }

    /// CIELAB (D65) of a linear sRGB colour.
    fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x), f(y), f(z));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// The CIEDE2000 colour difference (Sharma, Wu and Dalal 2005).
    fn ciede2000([l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]) -> f64 {
        let deg = f64::to_radians;
        let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
        let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
        let (a1, a2) = ((1.0 + g) * a1, (1.0 + g) * a2);
        let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
        let hue = |b: f64, a: f64| b.atan2(a).to_degrees().rem_euclid(360.0);
        let (h1, h2) = (hue(b1, a1), hue(b2, a2));
        let dh = if c1 * c2 == 0.0 {
            0.0
        } else if (h2 - h1).abs() <= 180.0 {
            h2 - h1
        } else if h2 > h1 {
            h2 - h1 - 360.0
        } else {
            h2 - h1 + 360.0
        };
        let d_l = l2 - l1;
        let d_c = c2 - c1;
        let d_h = 2.0 * (c1 * c2).sqrt() * (deg(dh) / 2.0).sin();
        let l_bar = (l1 + l2) / 2.0;
        let c_bar = (c1 + c2) / 2.0;
        let h_bar = if c1 * c2 == 0.0 {
            h1 + h2
        } else if (h1 - h2).abs() <= 180.0 {
            (h1 + h2) / 2.0
        } else if h1 + h2 < 360.0 {
            (h1 + h2 + 360.0) / 2.0
        } else {
            (h1 + h2 - 360.0) / 2.0
        };
        let t = 1.0 - 0.17 * deg(h_bar - 30.0).cos()
            + 0.24 * deg(2.0 * h_bar).cos()
            + 0.32 * deg(3.0 * h_bar + 6.0).cos()
            - 0.20 * deg(4.0 * h_bar - 63.0).cos();
        let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
        let r_c = 2.0 * (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt();
        let s_l = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
        let s_c = 1.0 + 0.045 * c_bar;
        let s_h = 1.0 + 0.015 * c_bar * t;
        let r_t = -(2.0 * deg(d_theta)).sin() * r_c;
        ((d_l / s_l).powi(2)
            + (d_c / s_c).powi(2)
            + (d_h / s_h).powi(2)
            + r_t * (d_c / s_c) * (d_h / s_h))
            .sqrt()
    }

    /// `hex` as a reader with `m`'s deficiency sees it, in CIELAB.
    fn seen(hex: &str, m: &[[f64; 3]; 3]) -> [f64; 3] {
        let c = linear(hex);
        let row = |i: usize| (m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2]).clamp(0.0, 1.0);
        lab([row(0), row(1), row(2)])
    }

    #[test]
    fn the_colour_difference_matches_its_published_test_data() {
        // Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17 and 25.
        let pairs = [
            ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
            ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
            ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
            (
                [60.2574, -34.0099, 36.2677],
                [60.4626, -34.1751, 39.4387],
                1.2644,
            ),
        ];
        for (a, b, want) in pairs {
            let got = ciede2000(a, b);
            assert!((got - want).abs() < 1e-4, "{a:?} {b:?}: {got} not {want}");
        }
    }

    #[test]
    fn roles_stay_apart_under_colour_blindness() {
        let roles = [
            ("leader", role(Some(StateRole::Leader))),
            ("follower", role(Some(StateRole::Follower))),
            ("pre-candidate", role(Some(StateRole::PreCandidate))),
            ("candidate", role(Some(StateRole::Candidate))),
            ("down", role(None)),
        ];
        let mut closest = f64::MAX;
        for (vision, m) in &SIMULATIONS {
            for (i, (a, ca)) in roles.iter().enumerate() {
                for (b, cb) in &roles[i + 1..] {
                    let d = ciede2000(seen(ca, m), seen(cb, m));
                    closest = closest.min(d);
                    assert!(
                        d >= MIN_ROLE_DISTANCE,
                        "with {vision}, {a} ({ca}) and {b} ({cb}) are only {d:.1} apart"
                    );
                }
            }
        }
        // The colours before this check: a follower and a pre-candidate
        // were 3.4 apart for a deuteranope, all but the same.
        let old = ciede2000(
            seen("#38bdf8", &SIMULATIONS[2].1),
            seen("#c084fc", &SIMULATIONS[2].1),
        );
        assert!(old < 5.0, "{old}");
        assert!(closest >= MIN_ROLE_DISTANCE, "{closest}");
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
