//! Running etcdctl: what a user of etcd sees is etcdctl's answer, with
//! clientv3's retries and waits in it, so the driver asks through etcdctl
//! and times each command from start to end.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one etcdctl command answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// It exited with status 0.
    pub ok: bool,
    pub stdout: String,
    /// Its error, as it printed it (`Error: ` and clientv3's retry logs
    /// left out), when it failed.
    pub error: String,
    /// Wall-clock milliseconds from start to exit.
    pub ms: u64,
}

/// Runs `etcdctl --endpoints=... --command-timeout=... ARGS`. A command
/// that outlives its timeout by far (a hung etcdctl) is killed.
pub fn run(bin: &Path, endpoints: &[String], timeout_ms: u64, args: &[String]) -> Reply {
    let started = Instant::now();
    let mut cmd = Command::new(bin);
    cmd.env("ETCDCTL_API", "3")
        .arg(format!("--endpoints={}", endpoints.join(",")))
        .arg(format!("--command-timeout={timeout_ms}ms"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Reply {
                ok: false,
                stdout: String::new(),
                error: format!("cannot run {}: {e}", bin.display()),
                ms: 0,
            }
        }
    };
    // Read both pipes on their own threads so a chatty command (clientv3
    // logs each retry) never blocks on a full pipe.
    let mut out = child.stdout.take();
    let mut errs = child.stderr.take();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = errs.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let limit = Duration::from_millis(timeout_ms.saturating_add(10_000));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    let ok = status.is_some_and(|s| s.success());
    let error = if ok {
        String::new()
    } else if status.is_none() {
        "etcdctl did not exit and was killed".to_string()
    } else {
        error_text(&stderr, &stdout)
    };
    Reply {
        ok,
        stdout,
        error,
        ms,
    }
}

/// The error etcdctl printed: its `Error: ...` line, or the last line that
/// is not one of clientv3's JSON log lines.
pub fn error_text(stderr: &str, stdout: &str) -> String {
    let lines = || {
        stderr
            .lines()
            .chain(stdout.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('{'))
    };
    if let Some(e) = lines().find_map(|l| l.strip_prefix("Error: ")) {
        return e.to_string();
    }
    // `endpoint status`: "Failed to get the status of endpoint X (why)".
    if let Some(l) = lines().find(|l| l.starts_with("Failed to get the status")) {
        if let Some(inner) = l.rsplit_once('(').map(|(_, r)| r.trim_end_matches(')')) {
            return inner.to_string();
        }
        return l.to_string();
    }
    lines().next_back().unwrap_or("etcdctl failed").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_is_etcdctls_line_not_clientv3s_retry_logs() {
        let stderr = "{\"level\":\"warn\",\"msg\":\"retrying of unary invoker failed\"}\n\
                      Error: etcdserver: rpc not supported for learner\n";
        assert_eq!(
            error_text(stderr, ""),
            "etcdserver: rpc not supported for learner"
        );
        let status =
            "Failed to get the status of endpoint 127.0.0.1:21003 (context deadline exceeded)\n";
        assert_eq!(error_text(status, ""), "context deadline exceeded");
        assert_eq!(error_text("", "something else\n"), "something else");
    }
}
