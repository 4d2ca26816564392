//! The disk a real cluster takes, checked before it starts: a member's data
//! directory is about 128 MB from its first second, whatever it stores,
//! because etcd writes its log in 64 MB segments it allocates whole
//! (`wal.SegmentSizeBytes`, `fileutil.Preallocate`) and keeps the next one
//! ready beside it (`wal/file_pipeline.go`: the `0.tmp` file). A disk that
//! fills up mid-run makes etcd fail in ways that look like a difference
//! from raftlab; refusing first says what is wrong.

use std::collections::BTreeSet;
use std::path::Path;

use crate::lang::ast::{Command, Script};
use crate::raft::NodeId;

/// One member's data directory at most, as measured with etcd 3.4.23 and
/// 3.5.1: two 64 MB log segments and a little for the store.
pub const PER_MEMBER: u64 = 130 << 20;

/// The members a script can start: its bootstrap voters and every id it
/// adds (a removed member's directory is deleted, so this is an upper bound).
pub fn members(script: &Script) -> usize {
    let mut ids: BTreeSet<NodeId> = script.cluster.voters.iter().copied().collect();
    for c in &script.commands {
        if let Command::MemberAdd { id, .. } = &*c.node {
            ids.insert(*id);
        }
    }
    ids.len()
}

/// The bytes `clusters` real clusters of `script` need at most.
pub fn needed(script: &Script, clusters: usize) -> u64 {
    PER_MEMBER * (members(script) * clusters) as u64
}

/// The bytes an unprivileged process may still write on the file system
/// that holds `path` (`statvfs`'s available blocks); `None` when it cannot
/// be asked.
pub fn free(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c_path` is a NUL-terminated path and `stat` is a buffer of
    // the struct's size, which statvfs fills when it returns 0.
    let stat = unsafe {
        if libc::statvfs(c_path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    #[allow(clippy::unnecessary_cast)] // the fields' widths differ by platform
    Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

/// Whole megabytes, for messages.
pub fn mb(bytes: u64) -> u64 {
    bytes / (1 << 20)
}

/// Refuses when `dir` lacks what `clusters` clusters of `script` need.
pub fn check(dir: &Path, script: &Script, clusters: usize) -> Result<(), String> {
    let need = needed(script, clusters);
    match free(dir) {
        Some(have) if have < need => Err(format!(
            "{}: {} MB free, and the {} etcd members this script starts need about {} MB \
             (etcd allocates each member's log 64 MB at a time, and the next 64 MB ahead): \
             free some space, or give --keep a folder on a larger disk",
            dir.display(),
            mb(have),
            members(script) * clusters,
            mb(need)
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse::parse_script;

    #[test]
    fn members_counts_voters_and_every_added_id_once() {
        let s = parse_script(
            "cluster voters=1,2,3\nmember add 4 --learner\nmember remove 4\nmember add 4 --learner\nmember add 5\n",
        )
        .unwrap();
        assert_eq!(members(&s), 5);
        assert_eq!(needed(&s, 2), 10 * PER_MEMBER);
        let one = parse_script("cluster voters=1\n").unwrap();
        assert_eq!(members(&one), 1);
    }

    #[test]
    fn free_space_is_read_and_a_folder_too_small_is_refused() {
        let dir = std::env::temp_dir();
        let have = free(&dir).expect("statvfs answers for the temporary folder");
        assert!(have > 0);
        assert!(free(Path::new("/no/such/folder/here")).is_none());
        // 15 members on as many clusters as it takes to pass what is free.
        let s = parse_script("cluster voters=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n").unwrap();
        let clusters = usize::try_from(have / (15 * PER_MEMBER)).unwrap_or(usize::MAX - 1) + 1;
        let err = check(&dir, &s, clusters).unwrap_err();
        assert!(err.contains("MB free"), "{err}");
        assert!(
            err.contains(&format!("the {} etcd members", 15 * clusters)),
            "{err}"
        );
        assert!(check(&dir, &parse_script("cluster voters=1\n").unwrap(), 0).is_ok());
    }
}
