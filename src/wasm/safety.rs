//! The safety indicator: always visible, green while every Raft safety
//! property holds, red with the broken property, its time and its nodes as
//! soon as the world's checker records a violation. The panel is rendered
//! here, from the status object, so a test can feed it a synthetic violation
//! (the simulated cluster never breaks one through the page).

use serde::Deserialize;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::scenario::report::Status;

/// What the world checks after every event.
pub const CHECKED: &str = "election safety, log matching, leader completeness, \
     state machine safety, term and commit monotonicity, learners never campaign";

/// The part of a status object the indicator reads. Read leniently: a
/// missing or malformed field is empty, so anything the page passes renders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct SafetyStatus {
    pub violations: Vec<Item>,
}

impl SafetyStatus {
    pub fn of(status: &Status) -> SafetyStatus {
        SafetyStatus {
            violations: status
                .violations
                .iter()
                .map(|v| Item {
                    time_ms: v.time_ms,
                    property: v.property.to_string(),
                    nodes: v.nodes.clone(),
                    text: v.text.clone(),
                })
                .collect(),
        }
    }
}

/// One violation as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Item {
    pub time_ms: u64,
    pub property: String,
    pub nodes: Vec<u64>,
    pub text: String,
}

impl Default for Item {
    fn default() -> Item {
        Item {
            time_ms: 0,
            property: "a safety property".to_string(),
            nodes: Vec::new(),
            text: String::new(),
        }
    }
}

impl Item {
    /// "t=12.34s, nodes 1 and 2" (no nodes: just the time).
    fn when_who(&self) -> String {
        let t = format!("t={:.2}s", self.time_ms as f64 / 1000.0);
        match self.nodes.as_slice() {
            [] => t,
            [one] => format!("{t}, node {one}"),
            many => {
                let (last, rest) = many.split_last().unwrap_or((&0, &[]));
                let rest: Vec<String> = rest.iter().map(u64::to_string).collect();
                format!("{t}, nodes {} and {last}", rest.join(", "))
            }
        }
    }

    pub fn line(&self) -> String {
        if self.text.is_empty() {
            format!("{} · {}", self.when_who(), self.property)
        } else {
            format!("{} · {}: {}", self.when_who(), self.property, self.text)
        }
    }
}

/// The indicator's content for a status object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub ok: bool,
    pub headline: String,
    pub items: Vec<Item>,
}

pub fn view(status: &SafetyStatus) -> View {
    let items = status.violations.clone();
    let headline = match items.first() {
        None => "Raft safety: all invariants hold".to_string(),
        Some(first) => {
            let more = match items.len() {
                1 => String::new(),
                n => format!(" (+{} more)", n - 1),
            };
            format!(
                "Raft safety broken: {} at {}{more}",
                first.property,
                first.when_who()
            )
        }
    };
    View {
        ok: items.is_empty(),
        headline,
        items,
    }
}

fn child(doc: &Document, parent: &Element, tag: &str, class: &str) -> Result<Element, JsValue> {
    if let Some(e) = parent.query_selector(&format!(":scope > .{class}"))? {
        return Ok(e);
    }
    let e = doc.create_element(tag)?;
    e.set_class_name(class);
    parent.append_child(&e)?;
    Ok(e)
}

/// Renders the indicator into `el`: a button (its text, the headline; it
/// toggles the list, which the page does) and the list of violations. Builds
/// what is missing the first time; afterwards touches the DOM only when the
/// number of violations changed.
pub fn render(el: &Element, status: &SafetyStatus) -> Result<(), JsValue> {
    let v = view(status);
    let count = v.items.len().to_string();
    if el.get_attribute("data-violations").as_deref() == Some(count.as_str())
        && el.query_selector(".safety-button")?.is_some()
    {
        return Ok(());
    }
    let doc = el
        .owner_document()
        .ok_or_else(|| JsValue::from_str("the element has no document"))?;
    el.set_attribute("data-violations", &count)?;
    el.class_list().toggle_with_force("ok", v.ok)?;
    el.class_list().toggle_with_force("broken", !v.ok)?;

    let button = child(&doc, el, "button", "safety-button")?;
    button.set_attribute("type", "button")?;
    if button.get_attribute("aria-expanded").is_none() {
        button.set_attribute("aria-expanded", "false")?;
    }
    let list = child(&doc, el, "div", "safety-list")?;
    if list.id().is_empty() {
        list.set_id("safety-list");
    }
    button.set_attribute("aria-controls", &list.id())?;
    if button.get_attribute("aria-expanded").as_deref() != Some("true") {
        list.set_attribute("hidden", "")?;
    }
    button.set_attribute(
        "title",
        if v.ok {
            "Every Raft safety property is checked after every event; click for the list"
        } else {
            "A safety property was broken; click for every violation"
        },
    )?;
    let dot = child(&doc, &button, "span", "safety-dot")?;
    dot.set_attribute("aria-hidden", "true")?;
    dot.set_text_content(Some(if v.ok { "✓" } else { "✗" }));
    let text = child(&doc, &button, "span", "safety-text")?;
    text.set_attribute("role", "status")?;
    text.set_text_content(Some(&v.headline));

    list.set_text_content(None);
    let head = doc.create_element("p")?;
    head.set_text_content(Some(&if v.ok {
        format!("No violation. Checked after every event: {CHECKED}.")
    } else {
        format!(
            "{} violation{} of Raft's safety properties (checked after every event):",
            v.items.len(),
            if v.items.len() == 1 { "" } else { "s" }
        )
    }));
    list.append_child(&head)?;
    if !v.ok {
        let ol = doc.create_element("ol")?;
        for item in &v.items {
            let li = doc.create_element("li")?;
            li.set_text_content(Some(&item.line()));
            ol.append_child(&li)?;
        }
        list.append_child(&ol)?;
    }
    Ok(())
}
