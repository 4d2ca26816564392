//! The background load (`load rate=N/s [size=S] [via=N]`) on a real cluster:
//! writes sent at a fixed rate and not waited for, as raftlab's load sends
//! them (`server/load.rs`): the same keys (`load/0` to `load/99`), the same
//! spacing (the first one interval after the start), each value padded to
//! the write's size. Each goes through the member's JSON gateway
//! (`gateway::put_plain`) in a thread of its own, so a write held by a
//! member that knows no leader holds nothing else up, and is given up at
//! the client's timeout, as clientv3 gives it up.
//!
//! Simplified on purpose: raftlab's load sends each write to the leader of
//! the moment; here every write goes to the member that led when the load
//! started (or `via`), which forwards it to the leader as etcd does.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::server::client::DEFAULT_PUT_SIZE;
use crate::server::request::CLIENT_TIMEOUT_MS;

use super::gateway;

/// Distinct keys, as raftlab's load cycles through.
const LOAD_KEYS: u64 = 100;

/// Writes waiting for their answer at most: a second of the heaviest load
/// a lesson uses, five seconds (the client's timeout) of most. A write due
/// while this many wait is not sent, and counted.
const MAX_WAITING: u64 = 1024;

/// What the load has done so far.
#[derive(Debug, Default)]
pub struct Counts {
    pub sent: AtomicU64,
    pub succeeded: AtomicU64,
    pub failed: AtomicU64,
    /// Due while `MAX_WAITING` writes waited: not sent.
    pub not_sent: AtomicU64,
}

/// A running load; it stops when stopped or dropped.
pub struct Load {
    stop: Option<Sender<()>>,
    scheduler: Option<JoinHandle<()>>,
    pub counts: Arc<Counts>,
}

/// The key and value of write number `n`: the value is `n` in digits,
/// padded to the write's size (key and value together).
pub fn write(n: u64, size: Option<u64>) -> (String, String) {
    let key = format!("load/{}", n % LOAD_KEYS);
    let mut value = n.to_string();
    let size = size.unwrap_or(DEFAULT_PUT_SIZE) as usize;
    let want = size.saturating_sub(key.len()).max(value.len());
    value.extend(std::iter::repeat_n('.', want - value.len()));
    (key, value)
}

impl Load {
    /// Starts sending `rate_per_s` writes a second of `size` bytes to the
    /// member whose client address is `addr`.
    pub fn start(addr: String, rate_per_s: u64, size: Option<u64>) -> Load {
        let counts = Arc::new(Counts::default());
        let (stop, stopped) = channel::<()>();
        let interval = Duration::from_micros((1_000_000 / rate_per_s.max(1)).max(1));
        let shared = Arc::clone(&counts);
        let scheduler = std::thread::spawn(move || {
            let started = Instant::now();
            for n in 0u64.. {
                let due = started + interval * u32::try_from(n + 1).unwrap_or(u32::MAX);
                match stopped.recv_timeout(due.saturating_duration_since(Instant::now())) {
                    Err(RecvTimeoutError::Timeout) => {}
                    // Stopped, or the load dropped.
                    _ => return,
                }
                let waiting = shared.sent.load(Ordering::Relaxed)
                    - shared.succeeded.load(Ordering::Relaxed)
                    - shared.failed.load(Ordering::Relaxed);
                if waiting >= MAX_WAITING {
                    shared.not_sent.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                shared.sent.fetch_add(1, Ordering::Relaxed);
                let (key, value) = write(n, size);
                let (addr, counts) = (addr.clone(), Arc::clone(&shared));
                let spawned = std::thread::Builder::new()
                    .stack_size(256 * 1024)
                    .spawn(move || {
                        let reply = gateway::put_plain(&addr, &key, &value, CLIENT_TIMEOUT_MS);
                        let count = if reply.ok {
                            &counts.succeeded
                        } else {
                            &counts.failed
                        };
                        count.fetch_add(1, Ordering::Relaxed);
                    });
                if spawned.is_err() {
                    shared.failed.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        Load {
            stop: Some(stop),
            scheduler: Some(scheduler),
            counts,
        }
    }

    /// Stops sending (the writes on their way go on to their answers), and
    /// says what was sent so far, in the words of raftlab's `load stop`.
    pub fn stop(mut self) -> String {
        self.halt();
        let c = &self.counts;
        format!(
            "{} writes sent, {} failed so far, {} not sent",
            c.sent.load(Ordering::Relaxed),
            c.failed.load(Ordering::Relaxed),
            c.not_sent.load(Ordering::Relaxed)
        )
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(s) = self.scheduler.take() {
            let _ = s.join();
        }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.halt();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::sync::Mutex;

    #[test]
    fn writes_are_raftlabs_keys_padded_to_their_size() {
        assert_eq!(write(0, None).0, "load/0");
        assert_eq!(write(0, None).1.len() + "load/0".len(), 64);
        assert_eq!(write(123, Some(2048)).0, "load/23");
        let (k, v) = write(123, Some(2048));
        assert_eq!(k.len() + v.len(), 2048);
        assert!(v.starts_with("123."));
        // A size smaller than the digits keeps the digits.
        assert_eq!(write(123_456, Some(4)).1, "123456");
    }

    /// A gateway that answers every put at once and keeps the keys it got.
    fn fake_gateway() -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let got = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&got);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                let seen = Arc::clone(&seen);
                std::thread::spawn(move || {
                    let mut buf = vec![0u8; 8192];
                    let mut text = String::new();
                    // Headers, then the JSON body by its length.
                    while let Ok(n) = s.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        text.push_str(&String::from_utf8_lossy(&buf[..n]));
                        if let Some((head, body)) = text.split_once("\r\n\r\n") {
                            let len = head
                                .lines()
                                .find_map(|l| {
                                    l.to_ascii_lowercase()
                                        .strip_prefix("content-length:")
                                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                                })
                                .unwrap_or(0);
                            if body.len() >= len {
                                break;
                            }
                        }
                    }
                    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
                    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
                    let key = v["key"].as_str().and_then(gateway::decode_base64);
                    seen.lock()
                        .unwrap()
                        .push(String::from_utf8(key.unwrap_or_default()).unwrap_or_default());
                    let answer = r#"{"header":{"revision":"2"}}"#;
                    let _ = write!(
                        s,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                        answer.len()
                    );
                });
            }
        });
        (addr, got)
    }

    #[test]
    fn a_load_sends_at_its_rate_until_stopped() {
        let (addr, got) = fake_gateway();
        let load = Load::start(addr, 100, Some(256));
        std::thread::sleep(Duration::from_millis(505));
        let counts = Arc::clone(&load.counts);
        let said = load.stop();
        let sent = counts.sent.load(Ordering::Relaxed);
        // 50 due in the half second (the first one interval in); a loaded
        // machine may send the last few late, never more than are due.
        assert!((40..=50).contains(&sent), "{sent} sent: {said}");
        assert!(said.starts_with(&format!("{sent} writes sent")), "{said}");
        // Stopped: nothing more is sent.
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(counts.sent.load(Ordering::Relaxed), sent);
        // Every write reached the gateway, keys in raftlab's cycle.
        let deadline = Instant::now() + Duration::from_secs(5);
        while counts.succeeded.load(Ordering::Relaxed) < sent && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(counts.succeeded.load(Ordering::Relaxed), sent);
        let mut keys = got.lock().unwrap().clone();
        keys.sort_by_key(|k| k[5..].parse::<u64>().unwrap_or(u64::MAX));
        let want: Vec<String> = (0..sent).map(|n| format!("load/{n}")).collect();
        assert_eq!(keys, want);
    }

    #[test]
    fn writes_to_a_member_that_is_not_there_fail_at_the_timeout_without_holding_the_rest_up() {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let load = Load::start(format!("127.0.0.1:{port}"), 50, None);
        std::thread::sleep(Duration::from_millis(300));
        let counts = Arc::clone(&load.counts);
        drop(load);
        // Each is dialled again until the client's timeout: none has
        // failed yet, and the schedule went on regardless.
        assert!(counts.sent.load(Ordering::Relaxed) >= 10);
        assert_eq!(counts.failed.load(Ordering::Relaxed), 0);
        assert_eq!(counts.succeeded.load(Ordering::Relaxed), 0);
    }
}
