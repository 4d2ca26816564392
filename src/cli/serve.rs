//! A small static file server for the app: `/` is `www/`, `/pkg/` is the
//! wasm-bindgen output. Local use only; it answers GET and HEAD of files
//! under those two folders and nothing else.
//!
//! HTTP itself (parsing requests, framing responses, keep-alive) is the
//! `oxhttp` crate's: one thread per connection, so an idle or stalled
//! client never delays another, and read and write timeouts, so it does not
//! hold its thread for ever. `docs/crates.md` says why oxhttp rather than
//! tiny_http. Every response says `Cache-Control: no-cache` and carries an
//! `ETag`: the browser asks again each time (a rebuilt module is never
//! stale) and gets `304 Not Modified` while the file is unchanged. The
//! page's scripts and style sheets go without their comments (`strip`).
//! A client that accepts gzip gets the page's files gzipped (`Gzipped`).

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, UNIX_EPOCH};

use flate2::write::GzEncoder;
use flate2::Compression;
use oxhttp::model::header::{
    ACCEPT_ENCODING, ALLOW, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH,
    VARY, X_CONTENT_TYPE_OPTIONS,
};
use oxhttp::model::{Body, HeaderValue, Method, Request, Response, StatusCode};
use oxhttp::Server;

/// How long a connection may stay silent, while the server waits for a
/// request or for the client to take a response, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
/// The module wasm-bindgen writes into `pkg/`.
const WASM_MODULE: &str = "raftlab_bg.wasm";
/// At most this many connections are served at once (a thread each); more
/// wait in the listen queue until one closes or times out.
const MAX_CONNECTIONS: usize = 128;

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    /// The address does not parse or resolve.
    BadAddress { addr: String, why: String },
    /// Another program listens there already.
    InUse { addr: SocketAddr },
    /// Any other reason the address cannot be listened on.
    Listen { addr: SocketAddr, error: io::Error },
    /// The root folder has no `www/`.
    NoPage { root: PathBuf },
    /// The server stopped.
    Stopped(io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::BadAddress { addr, why } => write!(
                f,
                "{addr:?} is not an address to listen on ({why}); give one like 127.0.0.1:8000"
            ),
            ServeError::InUse { addr } => {
                let mut next = *addr;
                next.set_port(addr.port().checked_add(1).unwrap_or(8000));
                write!(
                    f,
                    "{addr} is already in use; set RAFTLAB_ADDR={next} (or another free address) \
                     and run make serve again"
                )
            }
            ServeError::Listen { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            ServeError::NoPage { root } => write!(
                f,
                "{} has no www/ folder: run raftlab serve in the raftlab folder, or give it with \
                 --root",
                root.display()
            ),
            ServeError::Stopped(e) => write!(f, "the server stopped: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// Serves `root`'s `www/` and `pkg/` on `addr` until the process ends. The
/// first line on standard output is `raftlab is served at http://ADDR/`,
/// with the port the system chose if `addr` asked for port 0.
pub fn serve(addr: &str, root: &Path, timeout: Duration) -> Result<(), ServeError> {
    if !root.join("www").is_dir() {
        return Err(ServeError::NoPage {
            root: root.to_path_buf(),
        });
    }
    let asked = resolve_addr(addr)?;
    let root = Arc::new(root.to_path_buf());
    let gzipped = Arc::new(Gzipped::default());
    // oxhttp binds the address itself and does not say which port it got,
    // so the port is found (and a taken address reported) by binding here
    // first. Port 0 hands out a fresh port each time: should another
    // program take it in the instant between, try another.
    let mut tries = 0;
    let (local, server) = loop {
        let local = probe(asked)?;
        let (root, gzipped) = (Arc::clone(&root), Arc::clone(&gzipped));
        let spawned = Server::new(move |request| respond(&root, &gzipped, request))
            .bind(local)
            .with_global_timeout(timeout)
            .with_max_concurrent_connections(MAX_CONNECTIONS)
            .spawn();
        match spawned {
            Ok(server) => break (local, server),
            Err(e) if e.kind() == io::ErrorKind::AddrInUse && asked.port() == 0 && tries < 5 => {
                tries += 1;
            }
            Err(e) => return Err(listen_error(local, e)),
        }
    };
    println!("raftlab is served at http://{local}/");
    if !root.join("pkg").join(WASM_MODULE).is_file() {
        eprintln!(
            "raftlab serve: warning: pkg/{WASM_MODULE} is missing, so the page cannot start; \
             build it with make pkg (make serve does)"
        );
    }
    server.join().map_err(ServeError::Stopped)
}

fn resolve_addr(addr: &str) -> Result<SocketAddr, ServeError> {
    let bad = |why: String| ServeError::BadAddress {
        addr: addr.to_string(),
        why,
    };
    addr.to_socket_addrs()
        .map_err(|e| bad(e.to_string()))?
        .next()
        .ok_or_else(|| bad("it names no address".to_string()))
}

/// Binds `addr` and lets it go again: the address the server will use.
fn probe(addr: SocketAddr) -> Result<SocketAddr, ServeError> {
    let listener = TcpListener::bind(addr).map_err(|e| listen_error(addr, e))?;
    listener.local_addr().map_err(|e| listen_error(addr, e))
}

fn listen_error(addr: SocketAddr, error: io::Error) -> ServeError {
    if error.kind() == io::ErrorKind::AddrInUse {
        ServeError::InUse { addr }
    } else {
        ServeError::Listen { addr, error }
    }
}

/// Maps a request path onto a file, refusing anything that climbs out of the
/// served folders. The path is taken literally: an escaped `%2e%2e` is a
/// file name, which the folders do not hold.
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

/// The file a request names and the folder it really lies in (`"www"` or
/// `"pkg"`), if it is a regular file in one of them (a symbolic link
/// pointing out of them is refused too).
fn served_file(root: &Path, url_path: &str) -> Option<(PathBuf, &'static str)> {
    let file = resolve(root, url_path)?.canonicalize().ok()?;
    let dir = ["www", "pkg"].into_iter().find(|dir| {
        root.join(dir)
            .canonicalize()
            .is_ok_and(|dir| file.starts_with(dir))
    })?;
    file.is_file().then_some((file, dir))
}

pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
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

/// A validator that changes whenever the file does: its size and
/// modification time, as most static servers make it.
fn etag(meta: &fs::Metadata) -> String {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("\"{:x}-{:x}\"", meta.len(), modified)
}

/// Whether the client's `If-None-Match` names `tag` (or `*`); weak tags
/// match too, as RFC 9110 asks for this header.
fn matches(if_none_match: &str, tag: &str) -> bool {
    if_none_match
        .split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == tag)
}

/// Whether an `Accept-Encoding` header takes gzip: `gzip`, `x-gzip` or
/// `*`, with no `q=0` (RFC 9110, 12.5.3).
fn accepts_gzip(accept_encoding: &str) -> bool {
    accept_encoding.split(',').any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let wanted = parts
            .filter_map(|p| p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")))
            .all(|q| q.parse::<f32>().map_or(true, |q| q > 0.0));
        wanted
            && ["gzip", "x-gzip", "*"]
                .iter()
                .any(|g| name.eq_ignore_ascii_case(g))
    })
}

/// Whether a file of this type is worth compressing: text and wasm, not
/// images already compressed.
fn compressible(content_type: &str) -> bool {
    !matches!(content_type, "image/png" | "image/x-icon")
}

/// The gzip answers, made once per version of a file (its `ETag`) and
/// kept: the wasm module takes about a tenth of a second to compress, the
/// page asks for it on every load.
#[derive(Default)]
struct Gzipped {
    made: Mutex<HashMap<PathBuf, Made>>,
}

/// A file's gzip answer and the version (`ETag`) it was made from.
type Made = (String, Arc<Vec<u8>>);

impl Gzipped {
    /// The answers made so far (a thread that panicked holding them left
    /// them whole: each insert is one call).
    fn made(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Made>> {
        self.made.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The file at `path`, version `tag`, gzipped; `read` gives it as
    /// served, when it was not compressed yet.
    fn of(
        &self,
        path: &Path,
        tag: &str,
        read: impl FnOnce() -> io::Result<Vec<u8>>,
    ) -> io::Result<Arc<Vec<u8>>> {
        if let Some((made_tag, bytes)) = self.made().get(path) {
            if made_tag == tag {
                return Ok(Arc::clone(bytes));
            }
        }
        let body = read()?;
        // Level 9, as the page's size is counted (tests/e2e/page-size.mjs).
        let mut gz = GzEncoder::new(Vec::with_capacity(body.len() / 3), Compression::best());
        gz.write_all(&body)?;
        let bytes = Arc::new(gz.finish()?);
        self.made()
            .insert(path.to_path_buf(), (tag.to_string(), Arc::clone(&bytes)));
        Ok(bytes)
    }
}

/// The gzip answer's validator: the file's, marked, since a strong `ETag`
/// must differ between two encodings of the same file.
fn gzip_tag(tag: &str) -> String {
    format!("{}-gzip\"", tag.trim_end_matches('"'))
}

fn respond(root: &Path, gzipped: &Gzipped, request: &mut Request<Body>) -> Response<Body> {
    let head_only = request.method() == Method::HEAD;
    if request.method() != Method::GET && !head_only {
        let mut response = plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "raftlab serve answers GET and HEAD only\n",
            false,
        );
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let found = served_file(root, request.uri().path())
        .and_then(|(path, dir)| fs::metadata(&path).ok().map(|meta| (path, dir, meta)));
    let Some((path, dir, meta)) = found else {
        return plain(
            StatusCode::NOT_FOUND,
            "not found (raftlab serves www/ at / and pkg/ at /pkg/)\n",
            head_only,
        );
    };
    let kind = content_type(&path);
    let gzip = compressible(kind)
        && request
            .headers()
            .get(ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .is_some_and(accepts_gzip);
    let tag = etag(&meta);
    let tag = if gzip { gzip_tag(&tag) } else { tag };
    let revalidated = request
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| matches(v, &tag));
    let read = || fs::read(&path).map(|bytes| without_comments(dir, &path, bytes));
    let (status, body) = if revalidated {
        (StatusCode::NOT_MODIFIED, Vec::new())
    } else if head_only {
        // oxhttp frames a HEAD answer like any other, so it gets no body
        // (and hence says Content-Length: 0; docs/crates.md notes it).
        (StatusCode::OK, Vec::new())
    } else {
        let body = if gzip {
            gzipped.of(&path, &tag, read).map(|b| b.to_vec())
        } else {
            read()
        };
        match body {
            Ok(body) => (StatusCode::OK, body),
            Err(_) => {
                return plain(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the file could not be read\n",
                    false,
                )
            }
        }
    };
    file_response(status, body, &tag, kind, gzip)
}

/// A file's answer (or its `304 Not Modified`, or its head) with its
/// headers: its validator, its type and encoding, and how caches keep it.
fn file_response(
    status: StatusCode,
    body: Vec<u8>,
    tag: &str,
    kind: &'static str,
    gzip: bool,
) -> Response<Body> {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(tag) = HeaderValue::from_str(tag) {
        headers.insert(ETAG, tag);
    }
    if compressible(kind) {
        // A cache must not hand a gzip answer to a client that did not ask.
        headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    if status == StatusCode::OK {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
        if gzip {
            headers.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
    }
    response
}

/// The page's own scripts and style sheets (`www/`'s `.js` and `.css`)
/// without their comments (`strip`); anything else, and a file the
/// stripping cannot follow, as it is.
fn without_comments(dir: &str, path: &Path, bytes: Vec<u8>) -> Vec<u8> {
    let strip = match path.extension().and_then(|e| e.to_str()) {
        Some("js") => super::strip::js,
        Some("css") => super::strip::css,
        _ => return bytes,
    };
    if dir != "www" {
        return bytes;
    }
    match std::str::from_utf8(&bytes).map(strip) {
        Ok(Ok(text)) => text.into_bytes(),
        _ => bytes,
    }
}

/// A short plain-text answer (an error); without its text for HEAD.
fn plain(status: StatusCode, text: &'static str, head_only: bool) -> Response<Body> {
    let mut response = Response::new(Body::from(if head_only { "" } else { text }));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
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
        assert_eq!(resolve(root, "/./index.html"), None);
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

    #[test]
    fn the_pages_scripts_and_styles_go_without_comments_the_rest_as_is() {
        let root = std::env::temp_dir().join(format!("raftlab-serve-strip-{}", std::process::id()));
        for dir in ["www", "pkg"] {
            fs::create_dir_all(root.join(dir)).unwrap();
        }
        let src = b"// why\nlet a = 1; // a\n".to_vec();
        let put = |f: &str, body: &[u8]| {
            fs::write(root.join(f), body).unwrap();
            let (path, dir) =
                served_file(&root, &format!("/{}", f.trim_start_matches("www/"))).unwrap();
            assert_eq!(f.split('/').next(), Some(dir), "{f}");
            (dir, path)
        };
        let app = put("www/app.js", &src);
        assert_eq!(
            without_comments(app.0, &app.1, src.clone()),
            b"\nlet a = 1;\n"
        );
        let css = put("www/style.css", b"/* x */\na {}\n");
        assert_eq!(
            without_comments(css.0, &css.1, b"/* x */\na {}\n".to_vec()),
            b"\na {}\n"
        );
        // The module's glue, a page, a file the scanner cannot follow: as they are.
        let glue = put("pkg/raftlab.js", &src);
        assert_eq!(without_comments(glue.0, &glue.1, src.clone()), src);
        let html = put("www/index.html", &src);
        assert_eq!(without_comments(html.0, &html.1, src.clone()), src);
        let open = b"let s = 'open\n// x\n".to_vec();
        assert_eq!(without_comments(app.0, &app.1, open.clone()), open);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn accept_encoding_takes_gzip_unless_it_is_refused() {
        for yes in [
            "gzip",
            "GZIP",
            "x-gzip",
            "*",
            "br, gzip;q=0.8",
            "gzip ; q=1",
            "gzip;q=x",
        ] {
            assert!(accepts_gzip(yes), "{yes}");
        }
        for no in [
            "",
            "identity",
            "deflate, br",
            "gzip;q=0",
            "gzip; q=0.000",
            "gzipx",
        ] {
            assert!(!accepts_gzip(no), "{no}");
        }
        assert_eq!(gzip_tag("\"1a-2b\""), "\"1a-2b-gzip\"");
    }

    #[test]
    fn if_none_match_lists_and_weak_tags() {
        assert!(matches("\"a-1\"", "\"a-1\""));
        assert!(matches("\"x\", W/\"a-1\"", "\"a-1\""));
        assert!(matches("*", "\"a-1\""));
        assert!(!matches("\"a-2\"", "\"a-1\""));
    }

    #[test]
    fn a_taken_address_says_what_to_do() {
        let taken = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap();
        let e = probe(addr).unwrap_err();
        let message = e.to_string();
        assert!(matches!(e, ServeError::InUse { .. }), "{message}");
        assert_eq!(
            message,
            format!(
                "{addr} is already in use; set RAFTLAB_ADDR=127.0.0.1:{} (or another free \
                 address) and run make serve again",
                addr.port() + 1
            )
        );
    }
}
