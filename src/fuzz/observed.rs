//! A run as the final check watches it: the session, with the tracker of
//! acknowledged writes and reads and the coverage counts fed after every
//! command.

use std::sync::Arc;

use crate::lang::ast::{Command, Script};
use crate::session::exec::Session;

use super::coverage::Coverage;
use super::generate::run_line;
use super::tracker::Tracker;

pub struct Observed {
    pub session: Session,
    pub tracker: Tracker,
    pub coverage: Coverage,
    /// The commands run after the script, as text.
    pub final_phase: Vec<String>,
    /// The line number the next command takes.
    line: usize,
}

impl Observed {
    /// Runs every command of `script`, watching each.
    pub fn run_script(script: &Script) -> Observed {
        let mut o = Observed {
            session: Session::new(&script.cluster),
            tracker: Tracker::default(),
            coverage: Coverage::default(),
            final_phase: Vec::new(),
            line: script.commands.last().map_or(1, |c| c.line) + 1,
        };
        for cmd in &script.commands {
            o.session
                .execute(cmd.line, &cmd.text, Arc::clone(&cmd.node));
            o.watch();
        }
        o
    }

    /// Runs `cmd` as the final phase's next line; whether it succeeded.
    pub fn run(&mut self, cmd: Command) -> bool {
        self.final_phase
            .push(run_line(&mut self.session, self.line, cmd));
        self.line += 1;
        self.watch();
        self.session.results().last().is_some_and(|r| r.ok)
    }

    fn watch(&mut self) {
        self.tracker.observe(&self.session);
        self.coverage.observe(&self.session.take_narration());
    }
}
