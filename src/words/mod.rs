//! Layer 4, the words: every sentence a reader reads about a run, in
//! English and in Japanese, made at the last moment from the session's facts
//! and the language's errors (the [`Renderer`](renderer::Renderer) each
//! language implements), and the choice of language.

pub mod catalog_ja;
pub mod etcdctl;
pub mod language;
pub mod renderer;
pub mod text_en;
pub mod text_ja;
