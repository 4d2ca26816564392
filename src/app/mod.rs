//! Layer 5, the page's logic: everything the browser front end decides that
//! is not a binding, a canvas call or the DOM. It builds and is tested
//! natively; `wasm` wraps it for the page.
//!
//! - `engine`: the running scenario (a timeline in the sandbox, or a
//!   lesson); every action is a command text;
//! - `history`: the history view of client operations and the checker's anomaly;
//! - `log`: the event log's lines, with repeats folded;
//! - `player`: the pace a lesson step plays at;
//! - `plan`: what a run is about to do, and how long the page will take;
//! - `presets`: what the page's buttons stand for;
//! - `safety`: what the safety indicator says;
//! - `scene`: how each node and log strip looks, and where labels go;
//! - `layout`: where nodes, links and log strips sit, and hit-testing;
//! - `hand`: what a message dot's and a link's popup buttons stand for;
//! - `dots`: where each message dot stands, held ones queued at their
//!   receiver's side;
//! - `palette`: the canvas's colours.

pub mod dots;
pub mod engine;
pub mod hand;
pub mod history;
pub mod layout;
pub mod log;
pub mod palette;
pub mod plan;
pub mod player;
pub mod presets;
pub mod safety;
pub mod scene;
pub mod trig;

pub use engine::Engine;
