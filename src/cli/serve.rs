//! A small static file server for the app: `/` is `www/`, `/pkg/` is the
//! wasm-bindgen output. Local use only; it serves GET and HEAD of files
//! under those two folders and nothing else.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

pub fn serve(addr: &str, root: &Path) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr)?;
    println!("raftlab is served at http://{}/", listener.local_addr()?);
    for stream in listener.incoming() {
        match stream {
            // One request at a time is plenty for one local browser, and keeps
            // the server free of threads.
            Ok(stream) => {
                if let Err(e) = handle(stream, root) {
                    eprintln!("raftlab serve: {e}");
                }
            }
            Err(e) => eprintln!("raftlab serve: {e}"),
        }
    }
    Ok(())
}

/// Maps a request path onto a file, refusing anything that climbs out of the
/// served folders.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or("/");
    let (base, rest) = match path.strip_prefix("/pkg/") {
        Some(rest) => (root.join("pkg"), rest),
        None => (root.join("www"), path.trim_start_matches('/')),
    };
    let rest = if rest.is_empty() { "index.html" } else { rest };
    let relative = Path::new(rest);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    Some(base.join(relative))
}

pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("scenario") | Some("txt") | Some("md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn handle(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut line)?;
    // Drain the headers; the server needs none of them.
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"",
            false,
        );
    }
    let file = resolve(root, target).and_then(|p| std::fs::read(&p).ok().map(|b| (p, b)));
    match file {
        Some((path, body)) => respond(
            &mut stream,
            "200 OK",
            content_type(&path),
            &body,
            method == "HEAD",
        ),
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain; charset=utf-8",
            b"not found\n",
            method == "HEAD",
        ),
    }
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    kind: &str,
    body: &[u8],
    head: bool,
) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if !head {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_into_www_and_pkg_only() {
        let root = Path::new("/r");
        assert_eq!(resolve(root, "/"), Some(PathBuf::from("/r/www/index.html")));
        assert_eq!(
            resolve(root, "/app.js?v=1"),
            Some(PathBuf::from("/r/www/app.js"))
        );
        assert_eq!(
            resolve(root, "/pkg/raftlab_bg.wasm"),
            Some(PathBuf::from("/r/pkg/raftlab_bg.wasm"))
        );
        assert_eq!(resolve(root, "/../Cargo.toml"), None);
        assert_eq!(resolve(root, "/pkg/../../etc/passwd"), None);
    }

    #[test]
    fn wasm_is_served_as_application_wasm() {
        // Browsers refuse streaming compilation of wasm under any other type.
        assert_eq!(
            content_type(Path::new("x/raftlab_bg.wasm")),
            "application/wasm"
        );
        assert_eq!(
            content_type(Path::new("index.html")),
            "text/html; charset=utf-8"
        );
    }
}
