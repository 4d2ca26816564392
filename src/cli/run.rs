//! `raftlab run FILE|- [--json] [--max-wall=DURATION] [--max-memory=SIZE]`:
//! runs a scenario script. Exit status 0 when every `expect` held and no
//! safety property broke, 1 otherwise, 2 when the script does not parse
//! (then nothing runs), 3 when the run was stopped before the end of the
//! script (it took longer than `--max-wall`, or would have held more than
//! its memory budget): a one-line message on standard error says why, and
//! the report is the run up to the last command that finished, with a
//! `stopped` field.
//!
//! The run goes in slices (`Session::run_slice`, the API the page uses):
//! between two slices the runner prints the narration, checks the wall
//! clock and, on a terminal, draws a progress bar on standard error.

use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::lang::ast::Script;
use crate::lang::parse::parse_duration;
use crate::lang::parse::parse_script;
use crate::session::exec::Session;
use crate::session::report::Report;
use crate::session::stop::Progress;
use crate::session::stop::StopReason;
use crate::session::stop::DEFAULT_MEMORY_BUDGET;
use crate::words::renderer::Renderer;
use crate::words::text_en::English;

/// Work per slice: a few milliseconds of a busy cluster, so the wall clock
/// is looked at often and the bar moves smoothly.
const SLICE_WORK: u64 = 1 << 12;

/// A run that takes longer than this shows its progress bar (on a terminal).
const SHOW_PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Exit status of a run stopped before its end.
pub const EXIT_STOPPED: i32 = 3;

/// How to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// Print the JSON report instead of the trace.
    pub json: bool,
    /// Stop the run once it has taken this long.
    pub max_wall: Option<Duration>,
    /// The session's memory budget, in bytes (`None`: no limit).
    pub max_memory: Option<u64>,
    /// Draw a progress bar on standard error for a long run (only when it
    /// is a terminal).
    pub progress: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            json: false,
            max_wall: None,
            max_memory: Some(DEFAULT_MEMORY_BUDGET),
            progress: false,
        }
    }
}

/// Parses `--max-wall`: a duration as the scenario language writes it
/// (`250ms`, `30s`, `1.5s`), or in minutes or hours (`2m`, `1h`).
pub fn parse_wall(s: &str) -> Result<Duration, String> {
    let scaled = |n: &str, per: u64| -> Result<Duration, String> {
        let secs = parse_duration(&format!("{n}s"))?;
        secs.checked_mul(per)
            .map(Duration::from_millis)
            .ok_or_else(|| format!("{s} is too long"))
    };
    let d = if let Some(n) = s.strip_suffix('h') {
        scaled(n, 3600)?
    } else if let Some(n) = s.strip_suffix('m').filter(|n| !n.ends_with('m')) {
        scaled(n, 60)?
    } else {
        Duration::from_millis(parse_duration(s)?)
    };
    if d.is_zero() {
        return Err("the wall-clock limit must be more than 0".to_string());
    }
    Ok(d)
}

/// Runs the script at `path` (`-` is standard input), writing the trace or
/// the JSON report to `out` and problems to `err`. Returns the exit status.
pub fn run(path: &str, opts: &RunOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let source = match super::read_script(path.as_ref(), true) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "raftlab run: {e}");
            return 2;
        }
    };
    run_source(&source, path, opts, out, err)
}

/// The progress bar, once the run has gone on long enough to need one.
struct Bar {
    enabled: bool,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Bar {
    fn update(&mut self, p: &Progress) {
        if !self.enabled || self.started.elapsed() < SHOW_PROGRESS_AFTER {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(Some(p.total_ms), ProgressDrawTarget::stderr())
                .with_elapsed(self.started.elapsed());
            let style =
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {msg} (eta {eta})")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        bar.set_length(p.total_ms.max(1));
        bar.set_position(p.done_ms);
        bar.set_message(format!(
            "simulated {:.1}s of {:.1}s, {}/{} commands done",
            p.done_ms as f64 / 1000.0,
            p.total_ms as f64 / 1000.0,
            p.commands_done,
            p.commands_total
        ));
    }

    /// Prints with the bar out of the way.
    fn print(&self, f: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

pub fn run_source(
    source: &str,
    name: &str,
    opts: &RunOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let script = match parse_script(source) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "{name}: {e}");
            return 2;
        }
    };
    let session = run_in_slices(&script, opts, out);
    let report = session.report();
    if opts.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
            }
            Err(e) => {
                let _ = writeln!(err, "raftlab run: cannot write the report: {e}");
                return 1;
            }
        }
    } else {
        write_summary(&report, out);
    }
    if let Some(stop) = session.stopped() {
        let _ = writeln!(err, "raftlab run: {name}: {}", stop.message);
        return EXIT_STOPPED;
    }
    if session.passed() {
        0
    } else {
        1
    }
}

/// Runs `script` a slice at a time to its end, or until `--max-wall` or
/// the memory budget stops it: the trace as it goes (unless `--json`) and
/// the progress bar.
fn run_in_slices(script: &Script, opts: &RunOptions, out: &mut dyn Write) -> Session {
    let started = Instant::now();
    let mut bar = Bar {
        enabled: opts.progress,
        started,
        bar: None,
    };
    let mut session = Session::queued(script);
    session.set_memory_budget(opts.max_memory);
    loop {
        let lines = session.take_narration();
        if !opts.json {
            bar.print(|| {
                for line in lines {
                    let _ = writeln!(out, "{}", English.trace(&line));
                }
            });
        }
        if !session.is_running() {
            break;
        }
        if let Some(max) = opts.max_wall.filter(|&m| started.elapsed() >= m) {
            let limit_ms = u64::try_from(max.as_millis()).unwrap_or(u64::MAX);
            session.stop(StopReason::MaxWall { limit_ms });
            continue;
        }
        let p = session.run_slice(SLICE_WORK);
        bar.update(&p);
    }
    bar.clear();
    session
}

/// The trace's last lines: the counts, and each safety violation.
fn write_summary(report: &Report, out: &mut dyn Write) {
    let failed = report
        .results
        .iter()
        .filter(|r| r.error == Some("expect-failed"))
        .count();
    let _ = writeln!(
        out,
        "{} commands, {failed} failed expectations, {} safety violations, simulated time {:.2}s",
        report.results.len(),
        report.violations.len(),
        report.time_ms as f64 / 1000.0
    );
    for v in &report.violations {
        let _ = writeln!(
            out,
            "violation at t={:.2}s: {}: {}",
            v.time_ms as f64 / 1000.0,
            v.property,
            v.text
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_limits_read_like_the_language_and_in_minutes_and_hours() {
        assert_eq!(parse_wall("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_wall("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_wall("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_wall("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_wall("1h"), Ok(Duration::from_secs(3600)));
        assert!(parse_wall("0s").is_err());
        assert!(parse_wall("30").unwrap_err().contains("unit"));
        assert!(parse_wall("soon").is_err());
    }
}
