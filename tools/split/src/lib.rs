//! Splits raftlab's page module in two (docs/page-module.md): the functions a
//! first visit runs, which the page loads before it is ready, and the rest,
//! loaded once the page is idle, or at once by the first function of theirs
//! that runs before that.
//!
//! Which functions wait is a list of names (`tools/split/deferred.txt`),
//! written by `make split-profile` from what the page ran on a first visit.
//! A function the list does not name stays in the first part: a new or
//! renamed function never makes the first visit wait for the rest.

pub mod instrument;
pub mod names;
pub mod plan;
pub mod split;

use std::collections::BTreeSet;

/// The deferred list from a profile: the names of the functions that never
/// ran (`ran[i]` for the function numbered `i`), less every name one that ran
/// also has (generic code may give two functions one name), sorted.
pub fn deferred_list(names: &[String], ran: &[bool]) -> Vec<String> {
    let ran_names: BTreeSet<&str> = names
        .iter()
        .zip(ran)
        .filter(|(_, &r)| r)
        .map(|(n, _)| n.as_str())
        .collect();
    let idle: BTreeSet<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !n.is_empty() && !ran_names.contains(n))
        .collect();
    idle.into_iter().map(str::to_owned).collect()
}

/// The deferred list's names: its lines, less blank ones and `#` comments.
pub fn read_list(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The module `bytes` (read with its names) split by the list: its parts and
/// the plan they follow.
pub fn split_by_list(
    bytes: &[u8],
    list: &BTreeSet<String>,
) -> anyhow::Result<(split::Parts, plan::Plan)> {
    let module = walrus::ModuleConfig::new().parse(bytes)?;
    let mut deferred = Vec::new();
    for f in module.funcs.iter() {
        let i = f.id().index();
        if deferred.len() <= i {
            deferred.resize(i + 1, false);
        }
        deferred[i] = list.contains(&names::stable_name(&module, f.id()));
    }
    let plan = plan::plan(&module, &|i| deferred.get(i).copied().unwrap_or(false));
    let parts = split::split(bytes, &plan)?;
    Ok((parts, plan))
}
