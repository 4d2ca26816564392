//! The scenario language: one small text language drives the browser
//! console, the lessons, share links, the command-line runner and the tests.
//! See `docs/scenario-language.md`.

pub mod ast;
pub mod lexer;
pub mod parse;

#[cfg(test)]
mod parse_tests;

pub use ast::{ClusterSpec, Command, Condition, ErrorCode, RoleName, Script, Spanned};
pub use parse::{parse_command, parse_duration, parse_script, parse_size, ParseError};
