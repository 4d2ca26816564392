//! The `raftlab serve` command serves the page and the wasm build.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn get(addr: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn serve_gives_the_page_and_refuses_paths_outside_it() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--root",
            env!("CARGO_MANIFEST_DIR"),
        ])
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
        .unwrap_or_else(|| panic!("unexpected first line {first_line:?}"))
        .to_string();

    let page = get(&addr, "/");
    let outside = get(&addr, "/../Cargo.toml");
    let missing = get(&addr, "/no-such-file.js");
    child.kill().unwrap();
    let _ = child.wait();

    assert!(page.starts_with("HTTP/1.1 200 OK"), "{page}");
    assert!(page.contains("text/html"));
    assert!(page.contains("<canvas"));
    assert!(outside.starts_with("HTTP/1.1 404"), "{outside}");
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
}
