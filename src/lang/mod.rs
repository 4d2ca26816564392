//! Layer 4, the scenario language itself: its syntax and nothing of a
//! running session. One small text language drives the browser console,
//! the lessons, share links, the command-line runner and the tests
//! (`docs/scenario-language.md`): the lexer, the parser, the typed syntax
//! tree, parse errors as data, the `say` placeholders, and etcdctl's command
//! line read as the scenario command it stands for.

pub mod ast;
pub mod braces;
pub mod etcdctl;
pub mod lexer;
pub mod messages;
pub mod parse;
pub mod parse_error;
pub mod say;
pub mod suggest;

#[cfg(test)]
mod parse_tests;
