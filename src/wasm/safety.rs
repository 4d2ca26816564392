//! The safety indicator in the page's DOM. What it says (`app::safety`) is
//! decided natively; here it becomes a button and a list. The panel is
//! rendered from a status object, so a test can feed it a synthetic
//! violation (the simulated cluster never breaks one through the page).

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::app::safety::{SafetyStatus, SafetyView};
use crate::words::renderer::Renderer;

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
pub fn render(el: &Element, status: &SafetyStatus, words: &dyn Renderer) -> Result<(), JsValue> {
    let count = status.violations.len().to_string();
    if el.get_attribute("data-violations").as_deref() == Some(count.as_str())
        && el.query_selector(".safety-button")?.is_some()
    {
        return Ok(());
    }
    let v = SafetyView::of(status, words);
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
    button.set_attribute("title", &v.tip)?;
    let dot = child(&doc, &button, "span", "safety-dot")?;
    dot.set_attribute("aria-hidden", "true")?;
    dot.set_text_content(Some(if v.ok { "✓" } else { "✗" }));
    let text = child(&doc, &button, "span", "safety-text")?;
    text.set_attribute("role", "status")?;
    text.set_text_content(Some(&v.headline));

    list.set_text_content(None);
    let head = doc.create_element("p")?;
    head.set_text_content(Some(&v.list_head));
    list.append_child(&head)?;
    if !v.ok {
        let ol = doc.create_element("ol")?;
        for item in &v.items {
            let li = doc.create_element("li")?;
            li.set_text_content(Some(item));
            ol.append_child(&li)?;
        }
        list.append_child(&ol)?;
    }
    Ok(())
}
