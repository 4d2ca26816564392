//! Layer 5, native: the `raftlab` command line.

pub mod bench;
pub mod diff;
pub mod fuzz;
pub mod run;
pub mod serve;
pub mod strip;

use std::io::IsTerminal;

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
    /// otherwise, 2 when the script does not parse, 3 when the run was
    /// stopped before its end (--max-wall, or the memory budget).
    Run {
        /// The script file, or - for standard input.
        file: String,
        /// Print the JSON report instead of the trace.
        #[arg(long)]
        json: bool,
        /// Stop the run once it has taken this much wall-clock time, like
        /// 30s, 1.5s, 2m or 1h; the report is the run up to the last
        /// command that finished.
        #[arg(long, value_name = "DURATION", value_parser = run::parse_wall)]
        max_wall: Option<std::time::Duration>,
        /// The run's memory budget, counted from what the cluster, its logs
        /// and the results hold, like 256MB or 2GB, or `none`; a run that
        /// would hold more stops with a message.
        #[arg(long, value_name = "SIZE", value_parser = parse_memory, default_value = "512MB")]
        max_memory: MemoryLimit,
    },
    /// Measure the engine: 5 voters and a learner under a steady write load.
    Bench {
        /// Simulated seconds of load (1 to a day's 86400), after the
        /// cluster's set-up (an election, then a learner added: about 7 s).
        #[arg(long, default_value_t = 600, value_parser = bench::parse_seconds)]
        seconds: u64,
        /// Client writes per second (1 to 10000).
        #[arg(long, default_value_t = 100, value_parser = bench::parse_rate)]
        rate: u64,
    },
    /// Randomised fault runs, each a scenario script, checked for safety,
    /// linearizable reads, liveness (where etcd promises it) and
    /// durability; a failure prints its shrunk script and exits 1. The
    /// output is the same whatever --jobs; the wall time goes to standard
    /// error. `raftlab fuzz merge FILES...` merges the --json reports of a
    /// campaign's shards.
    #[command(args_conflicts_with_subcommands = true)]
    Fuzz {
        #[command(subcommand)]
        merge: Option<FuzzMerge>,
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
        /// Run only the K-th of N disjoint parts of the seeds, like 2/8
        /// (each seed's output is what the whole campaign prints for it).
        #[arg(long, value_name = "K/N", value_parser = parse_shard)]
        shard: Option<crate::fuzz::Shard>,
        /// Print the campaign's report as JSON (for `raftlab fuzz merge`).
        #[arg(long)]
        json: bool,
    },
    /// Run a scenario script in the simulator and on real local etcd
    /// clusters (one per --etcd), command by command, and print one table:
    /// each line, raftlab's answer, each release's answer, and whether they
    /// are the same. Exit status 0 when every line is the same or a known
    /// difference, 1 when a line differs or an expect failed, 2 when the
    /// script uses something that cannot be driven on a real etcd.
    Diff {
        /// The script file.
        file: std::path::PathBuf,
        /// An etcd binary to compare with; give it once per release (default:
        /// etcd on PATH).
        #[arg(long = "etcd", value_name = "PATH")]
        etcd: Vec<std::path::PathBuf>,
        /// The etcdctl of the same release, once per --etcd, in the same
        /// order (default: the etcdctl beside each etcd).
        #[arg(long = "etcdctl", value_name = "PATH")]
        etcdctl: Vec<std::path::PathBuf>,
        /// The known differences, each with its reason (default:
        /// tests/real_etcd/known-differences.txt when it exists).
        #[arg(long, value_name = "FILE")]
        known: Option<std::path::PathBuf>,
        /// Show a condition etcd does not let the driver observe (commit
        /// indexes, message counts...) as skipped instead of refusing the
        /// script.
        #[arg(long)]
        skip_undrivable: bool,
        /// The first port of the clusters' blocks (40 ports per release; also
        /// numbers the network namespaces' subnet).
        #[arg(long, value_name = "PORT", default_value_t = 21000)]
        ports: u16,
        /// Also write the comparison as JSON to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<std::path::PathBuf>,
        /// Keep each cluster's data directories and logs in this folder.
        #[arg(long, value_name = "DIR")]
        keep: Option<std::path::PathBuf>,
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

/// `raftlab fuzz merge`.
#[derive(Subcommand, Debug)]
enum FuzzMerge {
    /// Merge the --json reports of a campaign's shards (every shard once)
    /// into the whole campaign's report, printed as JSON: the same as one
    /// run of the whole campaign prints. Exit status 1 when a seed failed,
    /// 2 when the files do not make one campaign.
    Merge {
        /// The shards' reports.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

/// A scenario's text, from the file at `path` (`-`: standard input where
/// `stdin` allows it). A file that is not UTF-8 is said to be no text, not
/// given the reader's bare "stream did not contain valid UTF-8".
pub fn read_script(path: &std::path::Path, stdin: bool) -> Result<String, String> {
    use std::io::Read;
    let read = if stdin && path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    let path = path.display();
    read.map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => {
            format!("{path} is not a text file (a scenario is UTF-8 text)")
        }
        _ => format!("cannot read {path}: {e}"),
    })
}

fn parse_shard(s: &str) -> Result<crate::fuzz::Shard, String> {
    s.parse()
}

/// A memory budget in bytes, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MemoryLimit(Option<u64>);

fn parse_memory(s: &str) -> Result<MemoryLimit, String> {
    if s == "none" {
        return Ok(MemoryLimit(None));
    }
    // The language's sizes stop at 1GB; a budget may be more.
    let bytes = match s.strip_suffix("GB") {
        Some(n) => crate::lang::parse::parse_size(&format!("{n}MB"))?.saturating_mul(1024),
        None => crate::lang::parse::parse_size(s)?,
    };
    match bytes {
        0 => Err("the memory budget must be more than 0 (or none)".to_string()),
        n => Ok(MemoryLimit(Some(n))),
    }
}

/// Runs the command line and returns the process exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Command::Run {
            file,
            json,
            max_wall,
            max_memory,
        } => {
            let opts = run::RunOptions {
                json,
                max_wall,
                max_memory: max_memory.0,
                progress: std::io::stderr().is_terminal(),
            };
            let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
            run::run(&file, &opts, &mut out, &mut err)
        }
        Command::Bench { seconds, rate } => bench::run(seconds, rate),
        Command::Fuzz {
            merge,
            seeds,
            start,
            duration,
            jobs,
            shard,
            json,
        } => {
            let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
            match merge {
                Some(FuzzMerge::Merge { files }) => fuzz::merge_files(&files, &mut out, &mut err),
                None => {
                    let args = fuzz::FuzzArgs {
                        seeds,
                        start,
                        duration,
                        jobs,
                        shard,
                        json,
                    };
                    fuzz::run(&args, &mut out, &mut err)
                }
            }
        }
        Command::Diff {
            file,
            etcd,
            etcdctl,
            known,
            skip_undrivable,
            ports,
            json,
            keep,
        } => {
            let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
            let releases = match diff_releases(&etcd, &etcdctl) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("raftlab diff: {e}");
                    return 2;
                }
            };
            let default_known = std::path::PathBuf::from("tests/real_etcd/known-differences.txt");
            let known = known.or_else(|| default_known.exists().then_some(default_known));
            let opts = diff::DiffOptions {
                file,
                releases,
                known,
                skip_undrivable,
                port_base: ports,
                json,
                keep,
            };
            diff::run(&opts, &mut out, &mut err)
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

/// Pairs each --etcd with its --etcdctl (the one beside it when none is
/// given) and asks them their release.
fn diff_releases(
    etcd: &[std::path::PathBuf],
    etcdctl: &[std::path::PathBuf],
) -> Result<Vec<diff::Binaries>, String> {
    use std::path::PathBuf;
    let etcd: Vec<PathBuf> = if etcd.is_empty() {
        vec![PathBuf::from("etcd")]
    } else {
        etcd.to_vec()
    };
    if !etcdctl.is_empty() && etcdctl.len() != etcd.len() {
        return Err(format!(
            "{} --etcd but {} --etcdctl: give one etcdctl per etcd, or none",
            etcd.len(),
            etcdctl.len()
        ));
    }
    etcd.iter()
        .enumerate()
        .map(|(i, e)| {
            let ctl = etcdctl.get(i).cloned().unwrap_or_else(|| {
                let beside = e.with_file_name("etcdctl");
                if e.parent().is_some_and(|p| !p.as_os_str().is_empty()) {
                    beside
                } else {
                    PathBuf::from("etcdctl")
                }
            });
            diff::Binaries::probe(e, &ctl)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_budgets_read_as_sizes_beyond_the_language_or_none() {
        assert_eq!(parse_memory("512MB"), Ok(MemoryLimit(Some(512 << 20))));
        assert_eq!(parse_memory("2GB"), Ok(MemoryLimit(Some(2 << 30))));
        assert_eq!(parse_memory("1.5GB"), Ok(MemoryLimit(Some(3 << 29))));
        assert_eq!(parse_memory("none"), Ok(MemoryLimit(None)));
        assert!(parse_memory("0MB").is_err());
        assert!(parse_memory("12").unwrap_err().contains("unit"));
    }
}
