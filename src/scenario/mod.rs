//! The scenario language: one small text language drives the browser
//! console, the lessons, share links, the command-line runner and the tests.
//! See `docs/scenario-language.md`.

pub mod ast;
pub mod braces;
pub mod cond;
pub mod etcdctl;
pub mod exec;
pub mod fuzz;
pub mod lang;
pub mod lessons;
pub mod lexer;
pub mod narrate;
pub mod narration;
pub mod parse;
pub mod parse_error;
pub mod report;
pub mod say;
pub mod share;
pub mod slice;
pub mod text_en;
pub mod text_ja;
pub mod timeline;
pub mod view;

#[cfg(test)]
mod parse_tests;

pub use ast::{ClusterSpec, Command, Condition, ErrorCode, RoleName, Script, Spanned};
pub use exec::Session;
pub use parse::{
    parse_command, parse_duration, parse_script, parse_size, ParseError, ParseErrorKind,
};
pub use report::{CommandResult, Report, Status};
pub use slice::{Progress, Stop, StopReason, DEFAULT_MEMORY_BUDGET};
