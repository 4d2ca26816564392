//! `raftlab serve` over real sockets: it serves the page and the wasm build,
//! an idle or stalled client does not delay anyone else, it answers HEAD and
//! revalidation, it sends gzip to a client that asks for it, it refuses
//! every path outside `www/` and `pkg/`, and a taken port gets a one-line
//! message.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `raftlab serve`, stopped when dropped (also when a test fails).
struct Served {
    child: Child,
    addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(root: &Path, extra: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(["serve", "--addr", "127.0.0.1:0", "--root"])
        .arg(root)
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let addr = first_line
        .trim()
        .strip_prefix("raftlab is served at http://")
        .and_then(|a| a.strip_suffix('/'))
        .map(str::to_string);
    match addr {
        Some(addr) => Served { child, addr },
        None => {
            let _ = child.kill();
            panic!("unexpected first line {first_line:?}")
        }
    }
}

/// A folder laid out like the crate: a page, a wasm build, and a file
/// beside them that must never be served.
fn site(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("www")).unwrap();
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    std::fs::write(
        root.join("www/index.html"),
        "<!doctype html><canvas></canvas>",
    )
    .unwrap();
    std::fs::write(root.join("www/app.js"), "export {};\n").unwrap();
    // Large enough that it does not fit one socket buffer.
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.resize(600 * 1024, 7);
    std::fs::write(root.join("pkg/raftlab_bg.wasm"), &wasm).unwrap();
    std::fs::write(root.join("secret.txt"), "not for the browser").unwrap();
    root
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One request on a fresh connection, read to its close.
fn request(addr: &str, method: &str, path: &str, headers: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of head in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

fn get(addr: &str, path: &str) -> Reply {
    request(addr, "GET", path, "")
}

#[test]
fn serve_gives_the_page_and_refuses_paths_outside_it() {
    let server = serve(Path::new(env!("CARGO_MANIFEST_DIR")), &[]);
    let page = get(&server.addr, "/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(String::from_utf8_lossy(&page.body).contains("<canvas"));
    assert_eq!(get(&server.addr, "/../Cargo.toml").status, 404);
    assert_eq!(get(&server.addr, "/no-such-file.js").status, 404);
}

#[test]
fn an_idle_connection_and_a_slow_client_do_not_delay_the_page() {
    let root = site("serve-idle");
    let server = serve(&root, &[]);
    // A connection that sends nothing (a browser's preconnect, a stalled
    // client) and one that sends half a request and stops.
    let _idle = TcpStream::connect(&server.addr).unwrap();
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    write!(slow, "GET / HTTP/1.1\r\nHost: {}\r\nUser-Ag", server.addr).unwrap();
    // A client that asks for the wasm module and never reads it.
    let mut stuck = TcpStream::connect(&server.addr).unwrap();
    write!(
        stuck,
        "GET /pkg/raftlab_bg.wasm HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(100));

    for (path, len) in [("/", 32), ("/pkg/raftlab_bg.wasm", 600 * 1024)] {
        let start = Instant::now();
        let reply = get(&server.addr, path);
        let took = start.elapsed();
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.body.len(), len, "{path}");
        assert!(took < Duration::from_secs(1), "{path} took {took:?}");
    }
}

#[test]
fn silent_connections_are_closed_after_the_timeout() {
    let root = site("serve-timeout");
    let server = serve(&root, &["--timeout", "1"]);
    let mut idle = TcpStream::connect(&server.addr).unwrap();
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    write!(slow, "GET / HTTP/1.1\r\nHost: {}\r\n", server.addr).unwrap();
    for stream in [&mut idle, &mut slow] {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let start = Instant::now();
        // The server closes its end: reading reaches the end (whatever it
        // wrote first) instead of waiting for ever.
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).unwrap();
        let took = start.elapsed();
        assert!(took < Duration::from_secs(5), "closed after {took:?}");
        assert!(!String::from_utf8_lossy(&rest).contains("200 OK"));
    }
    // And the server still serves.
    assert_eq!(get(&server.addr, "/").status, 200);
}

#[test]
fn content_types_head_and_revalidation() {
    let root = site("serve-types");
    let server = serve(&root, &[]);
    let addr = &server.addr;
    for (path, kind) in [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/app.js?v=2", "text/javascript; charset=utf-8"),
        ("/pkg/raftlab_bg.wasm", "application/wasm"),
    ] {
        let reply = get(addr, path);
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.header("content-type"), Some(kind), "{path}");
        assert_eq!(reply.header("cache-control"), Some("no-cache"), "{path}");
    }

    // HEAD: the same status and type, no body.
    let head = request(addr, "HEAD", "/pkg/raftlab_bg.wasm", "");
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("application/wasm"));
    assert!(head.body.is_empty());
    let missing = request(addr, "HEAD", "/nothing.js", "");
    assert_eq!(missing.status, 404);
    assert!(missing.body.is_empty());

    // The ETag revalidates while the file is unchanged, and not after.
    let first = get(addr, "/app.js");
    let tag = first.header("etag").unwrap().to_string();
    let again = request(addr, "GET", "/app.js", &format!("If-None-Match: {tag}\r\n"));
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    std::fs::write(root.join("www/app.js"), "export const rebuilt = 1;\n").unwrap();
    let changed = request(addr, "GET", "/app.js", &format!("If-None-Match: {tag}\r\n"));
    assert_eq!(changed.status, 200);
    assert_eq!(changed.body, b"export const rebuilt = 1;\n");
    assert_ne!(changed.header("etag"), Some(tag.as_str()));

    // Only GET and HEAD.
    let post = request(addr, "POST", "/", "Content-Length: 0\r\n");
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn a_client_that_accepts_gzip_gets_gzip_and_others_the_file_as_it_is() {
    let root = site("serve-gzip");
    let server = serve(&root, &[]);
    let addr = &server.addr;
    let wasm = std::fs::read(root.join("pkg/raftlab_bg.wasm")).unwrap();

    let plain = get(addr, "/pkg/raftlab_bg.wasm");
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.header("vary"), Some("Accept-Encoding"));
    assert_eq!(plain.body, wasm);

    for accept in [
        "gzip",
        "deflate, gzip;q=0.5",
        "gzip, deflate, br, zstd",
        "*",
    ] {
        let gz = request(
            addr,
            "GET",
            "/pkg/raftlab_bg.wasm",
            &format!("Accept-Encoding: {accept}\r\n"),
        );
        assert_eq!(gz.status, 200, "{accept}");
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{accept}");
        assert_eq!(gz.header("content-type"), Some("application/wasm"));
        assert_eq!(gz.header("vary"), Some("Accept-Encoding"));
        assert!(gz.body.len() < wasm.len() / 10, "{} bytes", gz.body.len());
        assert_eq!(gunzip(&gz.body), wasm, "{accept}");
        // Another encoding of the file: another validator.
        assert_ne!(gz.header("etag"), plain.header("etag"));
    }
    // Refused, or not offered: the file as it is.
    for accept in ["gzip;q=0", "deflate, br", "identity", "gzip;q=0.0, *;q=0"] {
        let reply = request(
            addr,
            "GET",
            "/app.js",
            &format!("Accept-Encoding: {accept}\r\n"),
        );
        assert_eq!(reply.header("content-encoding"), None, "{accept}");
        assert_eq!(reply.body, b"export {};\n", "{accept}");
    }

    // The gzip answer revalidates with its own tag, and changes with the file.
    let gz_head = "Accept-Encoding: gzip\r\n";
    let first = request(addr, "GET", "/app.js", gz_head);
    let tag = first.header("etag").unwrap().to_string();
    assert_eq!(gunzip(&first.body), b"export {};\n");
    let again = request(
        addr,
        "GET",
        "/app.js",
        &format!("{gz_head}If-None-Match: {tag}\r\n"),
    );
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // The plain answer's tag does not validate the gzip one, nor the reverse.
    let plain_tag = get(addr, "/app.js").header("etag").unwrap().to_string();
    let other = request(
        addr,
        "GET",
        "/app.js",
        &format!("{gz_head}If-None-Match: {plain_tag}\r\n"),
    );
    assert_eq!(other.status, 200);
    let reverse = request(addr, "GET", "/app.js", &format!("If-None-Match: {tag}\r\n"));
    assert_eq!(reverse.status, 200);
    assert_eq!(reverse.body, b"export {};\n");
    // Rewritten (a longer file, so its tag changes even within the
    // file system's time resolution): the next gzip answer is the new file.
    std::fs::write(root.join("www/app.js"), "export const rebuilt = 1;\n").unwrap();
    let changed = request(addr, "GET", "/app.js", gz_head);
    assert_eq!(changed.status, 200);
    assert_eq!(gunzip(&changed.body), b"export const rebuilt = 1;\n");
    assert_ne!(changed.header("etag"), Some(tag.as_str()));

    // HEAD says the same headers, with no body.
    let head = request(addr, "HEAD", "/pkg/raftlab_bg.wasm", gz_head);
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-encoding"), Some("gzip"));
    assert!(head.body.is_empty());
}

#[test]
fn nothing_outside_www_and_pkg_is_served() {
    let root = site("serve-outside");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("secret.txt"), root.join("www/secret.txt")).unwrap();
    let server = serve(&root, &[]);
    for path in [
        "/../secret.txt",
        "/pkg/../secret.txt",
        "/pkg/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "//secret.txt",
        "/pkg/",
        "/pkg",
        "/secret.txt",
    ] {
        let reply = get(&server.addr, path);
        assert_eq!(reply.status, 404, "{path}");
        assert!(
            !String::from_utf8_lossy(&reply.body).contains("not for the browser"),
            "{path}"
        );
    }
}

#[test]
fn a_taken_port_gets_a_one_line_message_and_a_failing_status() {
    let root = site("serve-taken");
    let server = serve(&root, &[]);
    let out = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(["serve", "--addr", &server.addr, "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "raftlab serve: {} is already in use; ",
            server.addr
        )),
        "{stderr}"
    );
    assert!(stderr.contains("set RAFTLAB_ADDR="), "{stderr}");
    // The first server is unharmed.
    assert_eq!(get(&server.addr, "/").status, 200);
}

#[test]
fn a_missing_wasm_build_is_pointed_out() {
    let root = site("serve-no-pkg");
    std::fs::remove_dir_all(root.join("pkg")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(["serve", "--addr", "127.0.0.1:0", "--root"])
        .arg(&root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let mut warning = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut warning)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(first_line.starts_with("raftlab is served at http://"));
    assert!(
        warning.contains("pkg/raftlab_bg.wasm is missing") && warning.contains("make pkg"),
        "{warning}"
    );
}
