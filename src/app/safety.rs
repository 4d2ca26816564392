//! The safety indicator's content: green while every Raft safety property
//! holds, red with the broken property, its time and its nodes as soon as the
//! world's checker records a violation. `wasm::safety` puts it into the DOM.

use serde::Deserialize;

use crate::session::report::Status;
use crate::session::view::ViolationView;
use crate::words::renderer::Renderer;

/// The part of a status object the indicator reads. Read leniently: a
/// missing or malformed field is empty, so anything the page passes renders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct SafetyStatus {
    pub violations: Vec<ViolationView>,
}

impl SafetyStatus {
    pub fn of(status: &Status) -> SafetyStatus {
        SafetyStatus {
            violations: status
                .violations
                .iter()
                .map(|v| ViolationView {
                    time_ms: v.time_ms,
                    property: v.property.to_string(),
                    nodes: v.nodes.clone(),
                    text: v.text.clone(),
                })
                .collect(),
        }
    }
}

/// The indicator in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafetyView {
    pub ok: bool,
    /// The button's text.
    pub headline: String,
    /// The button's tooltip.
    pub tip: String,
    /// The list's heading, and one line per violation.
    pub list_head: String,
    pub items: Vec<String>,
}

impl SafetyView {
    pub fn of(status: &SafetyStatus, words: &dyn Renderer) -> SafetyView {
        let v = &status.violations;
        SafetyView {
            ok: v.is_empty(),
            headline: words.safety_headline(v),
            tip: words.safety_tip(v.is_empty()),
            list_head: words.safety_list_head(v.len()),
            items: v.iter().map(|x| words.violation(x)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::text_en::English;

    #[test]
    fn green_without_violations_red_with_the_first_and_a_count() {
        let ok = SafetyView::of(&SafetyStatus::default(), &English);
        assert!(ok.ok && ok.items.is_empty());
        assert_eq!(ok.headline, "Raft safety: all invariants hold");
        assert!(ok
            .list_head
            .starts_with("No violation. Checked after every event: election safety"));

        let status: SafetyStatus = serde_json::from_value(serde_json::json!({
            "time_ms": 5,
            "violations": [
                {"time_ms": 12345, "property": "election safety",
                 "text": "two leaders in term 3: nodes 1 and 2", "nodes": [1, 2]},
                {"time_ms": 13000, "property": "log matching", "nodes": [2, 3, 4]},
                {"text": "no time, no property"}
            ]
        }))
        .unwrap();
        let broken = SafetyView::of(&status, &English);
        assert!(!broken.ok);
        assert_eq!(
            broken.headline,
            "Raft safety broken: election safety at t=12.35s, nodes 1 and 2 (+2 more)"
        );
        assert_eq!(
            broken.items,
            [
                "t=12.35s, nodes 1 and 2 · election safety: two leaders in term 3: nodes 1 and 2",
                "t=13.00s, nodes 2, 3 and 4 · log matching",
                "t=0.00s · a safety property: no time, no property",
            ]
        );
        assert_eq!(
            broken.list_head,
            "3 violations of Raft's safety properties (checked after every event):"
        );
    }

    #[test]
    fn the_status_of_a_real_run_reads_green() {
        let s =
            crate::session::exec::Session::from_script("cluster voters=1,2,3\nwait 2s\n").unwrap();
        let view = SafetyView::of(&SafetyStatus::of(&s.status()), &English);
        assert!(view.ok, "{view:?}");
    }
}
