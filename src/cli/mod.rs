//! Layer 5, native: the `raftlab` command line.

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
    /// Serve the browser app (www/ and the wasm build in pkg/) on a local address.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: String,
        /// Folder holding the crate (with www/ and pkg/).
        #[arg(long, default_value = ".")]
        root: std::path::PathBuf,
    },
}

/// Runs the command line and returns the process exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve { addr, root } => match serve::serve(&addr, &root) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("raftlab serve: {e}");
                1
            }
        },
    }
}
