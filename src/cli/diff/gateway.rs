//! Requests with etcd's require-leader option, which etcdctl has no flag for.
//! A clientv3 program asks for it with `clientv3.WithRequireLeader`: the
//! request carries the gRPC metadata `hasleader: true`, and the member's
//! interceptor answers `etcdserver: no leader` at once when it knows no
//! leader (`etcdserver/api/v3rpc/interceptor.go`, `newUnaryInterceptor`).
//! The driver sends such a request through the member's own JSON gateway
//! (`/v3/kv/put`, `/v3/kv/range`, `/v3/kv/deleterange`,
//! `/v3/kv/compaction`), which forwards an HTTP header
//! `Grpc-Metadata-hasleader` as that metadata, to the same interceptor.
//! Checked by hand on etcd 3.4.23: a member cut off from its quorum answers
//! `{"error":"etcdserver: no leader",...,"code":14}` within milliseconds,
//! where the same put without the header waits out its timeout.
//!
//! The background load's writes go through the gateway too, without the
//! header (`load.rs`): one HTTP request each, not an etcdctl process.

use std::time::{Duration, Instant};

use oxhttp::model::{Body, Method, Request};
use oxhttp::Client;
use serde_json::{json, Value};

use crate::session::share::{base64url_decode, base64url_encode};

use super::etcdctl::Reply;

/// What etcdctl prints when its command timeout passes: the answer when
/// the member does not answer in the client's time.
const DEADLINE: &str = "context deadline exceeded";

/// `put KEY VALUE` with require-leader, to the member at `addr` (its client
/// URL's host and port), as a clientv3 client with `timeout_ms` sees it.
pub fn put(addr: &str, key: &str, value: &str, timeout_ms: u64) -> Reply {
    send(addr, "/v3/kv/put", &put_body(key, value), timeout_ms, true)
}

/// `put KEY VALUE` as a plain client sends it: without require-leader, a
/// member that knows no leader holds it until one is elected or the
/// timeout passes.
pub fn put_plain(addr: &str, key: &str, value: &str, timeout_ms: u64) -> Reply {
    send(addr, "/v3/kv/put", &put_body(key, value), timeout_ms, false)
}

fn put_body(key: &str, value: &str) -> Value {
    json!({ "key": encode_base64(key.as_bytes()), "value": encode_base64(value.as_bytes()) })
}

/// `get KEY` with require-leader: the range response in the JSON etcdctl's
/// `-w json` prints (`kvs` with base64 keys and values) on success.
pub fn get(addr: &str, key: &str, rev: Option<u64>, serializable: bool, timeout_ms: u64) -> Reply {
    let mut body = json!({ "key": encode_base64(key.as_bytes()) });
    if let Some(r) = rev {
        body["revision"] = json!(r.to_string());
    }
    if serializable {
        body["serializable"] = json!(true);
    }
    send(addr, "/v3/kv/range", &body, timeout_ms, true)
}

/// `delete KEY` with require-leader.
pub fn delete(addr: &str, key: &str, timeout_ms: u64) -> Reply {
    let body = json!({ "key": encode_base64(key.as_bytes()) });
    send(addr, "/v3/kv/deleterange", &body, timeout_ms, true)
}

/// `compaction REV` with require-leader.
pub fn compaction(addr: &str, rev: u64, timeout_ms: u64) -> Reply {
    send(
        addr,
        "/v3/kv/compaction",
        &json!({ "revision": rev.to_string() }),
        timeout_ms,
        true,
    )
}

/// One request through the gateway, with require-leader or without. A
/// member that does not accept the connection is dialled again until the
/// timeout, as clientv3 re-dials.
fn send(addr: &str, path: &str, body: &Value, timeout_ms: u64, require_leader: bool) -> Reply {
    let started = Instant::now();
    let deadline = started + Duration::from_millis(timeout_ms);
    let failed = |error: String| Reply {
        ok: false,
        stdout: String::new(),
        error,
        ms: elapsed_ms(started),
    };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return failed(DEADLINE.to_string());
        }
        let mut builder = Request::builder()
            .method(Method::POST)
            .uri(format!("http://{addr}{path}"))
            .header("Content-Type", "application/json");
        if require_leader {
            builder = builder.header("Grpc-Metadata-hasleader", "true");
        }
        let request = match builder.body(Body::from(body.to_string())) {
            Ok(r) => r,
            Err(e) => return failed(e.to_string()),
        };
        match Client::new().with_global_timeout(left).request(request) {
            Ok(response) => {
                let text = response.into_body().to_string().unwrap_or_default();
                return answer(&text, elapsed_ms(started));
            }
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                std::thread::sleep(Duration::from_millis(50).min(left));
            }
            Err(_) => return failed(DEADLINE.to_string()),
        }
    }
}

/// The gateway's answer: the response's JSON, or its `error` (etcd's own
/// text, as etcdctl prints it).
fn answer(text: &str, ms: u64) -> Reply {
    let error = serde_json::from_str::<Value>(text)
        .ok()
        .map(|v| v["error"].as_str().map(str::to_string));
    match error {
        Some(None) => Reply {
            ok: true,
            stdout: text.to_string(),
            error: String::new(),
            ms,
        },
        Some(Some(e)) => Reply {
            ok: false,
            stdout: String::new(),
            error: e,
            ms,
        },
        None => Reply {
            ok: false,
            stdout: String::new(),
            error: format!("the gateway answered something other than JSON: {text}"),
            ms,
        },
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Standard base64 with padding, how etcd's JSON writes bytes: base64url
/// (the share links' encoder) with its two other characters.
pub fn encode_base64(bytes: &[u8]) -> String {
    let mut out: String = base64url_encode(bytes)
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    while out.len() % 4 != 0 {
        out.push('=');
    }
    out
}

/// Standard base64 (etcd's JSON of a key's or value's bytes).
pub fn decode_base64(s: &str) -> Option<Vec<u8>> {
    if s.contains(['-', '_']) {
        return None;
    }
    let url: String = s
        .trim_end_matches('=')
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    base64url_decode(&url).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_etcd_writes_it() {
        for (text, b64) in [
            ("", ""),
            ("v", "dg=="),
            ("ab", "YWI="),
            ("abc", "YWJj"),
            ("hello", "aGVsbG8="),
        ] {
            assert_eq!(encode_base64(text.as_bytes()), b64);
            assert_eq!(decode_base64(b64), Some(text.as_bytes().to_vec()));
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode_base64(&encode_base64(&all)), Some(all));
        assert_eq!(decode_base64("a*=="), None);
    }

    #[test]
    fn the_gateways_error_is_etcds_text() {
        let r = answer(
            r#"{"error":"etcdserver: no leader","message":"etcdserver: no leader","code":14}"#,
            3,
        );
        assert!(!r.ok);
        assert_eq!(r.error, "etcdserver: no leader");
        let r = answer(r#"{"header":{"revision":"2"}}"#, 3);
        assert!(r.ok);
        assert!(!answer("<html>", 3).ok);
    }

    #[test]
    fn a_member_that_never_answers_costs_the_clients_timeout() {
        // A port nothing listens on any more: refused, dialled again until
        // the timeout, as clientv3 does.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let r = put(&format!("127.0.0.1:{port}"), "k", "v", 300);
        assert!(!r.ok);
        assert_eq!(r.error, DEADLINE);
        assert!(r.ms >= 300, "{}", r.ms);
    }
}
