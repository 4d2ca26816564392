//! `raftlab-split`: tools/build-pkg.sh splits the page's module with it, and
//! `make split-profile` writes its list.

use anyhow::Context;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Splits raftlab's page module: what a first visit runs, and the rest")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the two parts of MODULE (read with its name section) as the list says.
    Split {
        module: PathBuf,
        /// The deferred list: the names of the functions the first part leaves out.
        #[arg(long)]
        list: PathBuf,
        /// Where the first part goes (may be MODULE itself).
        #[arg(long)]
        first: PathBuf,
        /// Where the deferred part goes.
        #[arg(long)]
        deferred: PathBuf,
    },
    /// Write MODULE with every function telling the page its number as it starts.
    Instrument {
        module: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Each function's name, one a line, in the order of their numbers.
        #[arg(long)]
        names: PathBuf,
    },
    /// Print the deferred list: the names of the functions that did not run.
    List {
        /// The names `instrument` wrote.
        #[arg(long)]
        names: PathBuf,
        /// The numbers of the functions that ran, one a line.
        #[arg(long)]
        ran: PathBuf,
    },
}

fn read(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn write(path: &PathBuf, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Split {
            module,
            list,
            first,
            deferred,
        } => {
            let bytes = read(&module)?;
            let names = raftlab_split::read_list(&String::from_utf8_lossy(&read(&list)?));
            let (parts, plan) = raftlab_split::split_by_list(&bytes, &names)
                .with_context(|| format!("cannot split {}", module.display()))?;
            write(&first, &parts.first)?;
            write(&deferred, &parts.deferred)?;
            println!(
                "{}: {} bytes; {}: {} bytes ({} functions, {} of them called from the first part)",
                first.display(),
                parts.first.len(),
                deferred.display(),
                parts.deferred.len(),
                plan.moved.len(),
                plan.stubs.len()
            );
        }
        Command::Instrument { module, out, names } => {
            let (bytes, list) = raftlab_split::instrument::instrument(&read(&module)?)?;
            write(&out, &bytes)?;
            write(&names, (list.join("\n") + "\n").as_bytes())?;
        }
        Command::List { names, ran } => {
            let names: Vec<String> = String::from_utf8_lossy(&read(&names)?)
                .lines()
                .map(str::to_owned)
                .collect();
            let mut did = vec![false; names.len()];
            for line in String::from_utf8_lossy(&read(&ran)?).lines() {
                let n: usize = line
                    .trim()
                    .parse()
                    .with_context(|| format!("not a function number: {line:?}"))?;
                *did.get_mut(n)
                    .with_context(|| format!("no function numbered {n}"))? = true;
            }
            for name in raftlab_split::deferred_list(&names, &did) {
                println!("{name}");
            }
        }
    }
    Ok(())
}
