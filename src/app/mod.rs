//! Layer 5, the page's logic: everything the browser front end decides that
//! is not a binding, a canvas call or the DOM. It builds and is tested
//! natively; `wasm` wraps it for the page.
//!
//! - `engine`: the running scenario (a timeline in the sandbox, or a
//!   lesson); every action is a command text;
//! - `layout`: where nodes, links and log strips sit, and hit-testing;
//! - `palette`: the canvas's colours.

pub mod engine;
pub mod layout;
pub mod palette;

pub use engine::Engine;
