//! Layer 5, native: the `raftlab` command line.

pub mod bench;
pub mod fuzz;
pub mod run;
pub mod serve;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "raftlab",
    version,
    about = "A Raft-with-learners cluster, simulated deterministically"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scenario script: a readable trace, or the JSON report with --json.
    /// Exit status 0 when every expect held and no safety property broke, 1
    /// otherwise, 2 when the script does not parse.
    Run {
        /// The script file, or - for standard input.
        file: String,
        /// Print the JSON report instead of the trace.
        #[arg(long)]
        json: bool,
    },
    /// Measure the engine: 5 voters and a learner under a steady write load.
    Bench {
        /// Simulated seconds to run.
        #[arg(long, default_value_t = 600)]
        seconds: u64,
        /// Client writes per second.
        #[arg(long, default_value_t = 100)]
        rate: u64,
    },
    /// Randomised fault runs, each a scenario script, checked for safety,
    /// linearizable reads, liveness and durability; a failure prints its
    /// shrunk script and exits 1. The output is the same whatever --jobs;
    /// the wall time goes to standard error.
    Fuzz {
        /// How many seeds to run.
        #[arg(long, default_value_t = 100)]
        seeds: u64,
        /// The first seed.
        #[arg(long, default_value_t = 1)]
        start: u64,
        /// Simulated time of each run, like 60s.
        #[arg(long, default_value = "60s")]
        duration: String,
        /// Seeds run at once, on as many threads (default: the cores available).
        #[arg(long, value_name = "N", default_value_t = fuzz::default_jobs(), value_parser = fuzz::parse_jobs)]
        jobs: std::num::NonZeroUsize,
    },
    /// Serve the browser app (www/ and the wasm build in pkg/) on a local address.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: String,
        /// Folder holding the crate (with www/ and pkg/).
        #[arg(long, default_value = ".")]
        root: std::path::PathBuf,
        /// Seconds a connection may stay silent (sending its request or
        /// taking the response) before the server closes it.
        #[arg(
            long,
            default_value_t = serve::DEFAULT_TIMEOUT.as_secs(),
            value_parser = clap::value_parser!(u64).range(1..=3600)
        )]
        timeout: u64,
    },
}

/// Runs the command line and returns the process exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { file, json } => {
            let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
            run::run(&file, json, &mut out, &mut err)
        }
        Command::Bench { seconds, rate } => bench::run(seconds, rate),
        Command::Fuzz {
            seeds,
            start,
            duration,
            jobs,
        } => {
            let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
            fuzz::run(seeds, start, &duration, jobs, &mut out, &mut err)
        }
        Command::Serve {
            addr,
            root,
            timeout,
        } => match serve::serve(&addr, &root, std::time::Duration::from_secs(timeout)) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("raftlab serve: {e}");
                1
            }
        },
    }
}
