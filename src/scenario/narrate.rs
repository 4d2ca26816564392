//! Narration: what the reader is told, as structured data, and the
//! [`Renderer`] each language implements to put it into words.
//!
//! Nothing above this module builds a sentence: the session, the timeline
//! and the lesson player hand out structured values, and the front end asks
//! its renderer for the words at the last moment.

use super::view::QuorumView;

/// Puts the view model and the narration into one language's words.
pub trait Renderer {
    /// The quorum panel's verdict: can the leader commit?
    fn quorum_verdict(&self, q: &QuorumView) -> String;
    /// The lesson panel's sentence: the quorum arithmetic spelled out.
    fn quorum_sentence(&self, q: &QuorumView) -> String;
}
