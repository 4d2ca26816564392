//! Why a command failed, as facts.

use std::sync::Arc;

use crate::lang::ast::Condition;
use crate::server::ServerError;
use crate::session::cond::Unmet;
use crate::session::stop::{Stop, STOPPED};

/// Why a command failed, as facts: the report's `error` and `detail` are
/// made from it (the English words, `detail.rs`), and each language renders
/// it when it is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The server refused or failed the request.
    Server(ServerError),
    /// `expect COND` did not hold: what was true instead.
    Expect { cond: Arc<Condition>, unmet: Unmet },
    /// `wait-until COND within=D` ran out of time.
    WaitUntil {
        cond: Arc<Condition>,
        within_ms: u64,
        unmet: Unmet,
    },
    /// The run stopped during the command (or before it).
    Stopped(Box<Stop>),
}

impl Failure {
    /// The error code, as the report says it.
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Server(e) => e.code.as_str(),
            Failure::Expect { .. } => crate::server::ErrorCode::ExpectFailed.as_str(),
            Failure::WaitUntil { .. } => crate::server::ErrorCode::Timeout.as_str(),
            Failure::Stopped(_) => STOPPED,
        }
    }
}

impl From<ServerError> for Failure {
    fn from(e: ServerError) -> Failure {
        Failure::Server(e)
    }
}
