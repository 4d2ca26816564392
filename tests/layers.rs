//! The house's shape, checked: every module of `src/` imports only rooms
//! below its own (the table [`LAYERS`]), and no files import each other in
//! a circle. etcd's Go packages cannot form a cycle (the compiler refuses
//! one); in a Rust crate nothing stops it, so this test does.
//!
//! A reference is any path a file names: `use crate::a::b`, an inline
//! `crate::a::b::f()`, or `super::x` (resolved from the file's own module),
//! in code and in its test modules alike; comments and strings are not
//! code. Each resolves to the longest module path that is a file of
//! `src/`, so `crate::session::exec::Session` is an arrow to
//! `src/session/exec.rs`, and `crate::lessons::find` one to
//! `src/lessons/mod.rs` (which re-exports it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The rooms of `src/`, lowest first: a room may import the rooms of lower
/// layers only. Two rooms on one layer may not import each other.
const LAYERS: &[(&str, u32)] = &[
    // Below the Raft core: general-purpose code written for the page's size.
    ("collections", 0),
    ("text", 0),
    // 1: one node's Raft.
    ("raft", 1),
    // 2: the simulated world.
    ("sim", 2),
    // 3: etcd's server.
    ("server", 3),
    // 4: the scenario language, in four steps.
    ("lang", 4),
    ("session", 5),
    ("words", 6),
    ("lessons", 7),
    ("fuzz", 7),
    // 5: the front ends; the page's bindings above its logic.
    ("app", 8),
    ("cli", 8),
    ("wasm", 9),
];

/// One file: its module path (`session::exec`; `lessons` for
/// `lessons/mod.rs`) and its code without comments and strings.
struct File {
    module: Vec<String>,
    code: String,
}

/// `text` with comments and the insides of string and character literals
/// blanked out (line breaks kept), so that only code is read.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push(b'\n');
                    }
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(b, i) {
            out.extend(b[i..end].iter().filter(|&&c| c == b'\n'));
            i = end;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    out.push(b'\n');
                }
                i += 1;
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
        } else if b[i] == b'\'' && is_char_literal(b, i) {
            // A character literal, not a lifetime: skip to its closing quote.
            i += 1;
            if b[i] == b'\\' {
                i += 1;
            }
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where a raw string (`r"..."`, `r#"..."#`) starting at `i` ends.
fn raw_string_end(b: &[u8], i: usize) -> Option<usize> {
    if b[i] != b'r' || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) {
        return None;
    }
    let mut j = i + 1;
    let mut hashes = 0;
    while j < b.len() && b[j] == b'#' {
        hashes += 1;
        j += 1;
    }
    if j >= b.len() || b[j] != b'"' {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat_n(b'#', hashes))
        .collect();
    let start = j + 1;
    (start..b.len())
        .find(|&k| b[k..].starts_with(&close))
        .map(|k| k + close.len())
}

/// Whether the `'` at `i` opens a character literal (`'a'`, `'\n'`,
/// `'é'`) rather than naming a lifetime (`'a`).
fn is_char_literal(b: &[u8], i: usize) -> bool {
    if b.get(i + 1) == Some(&b'\\') {
        return true;
    }
    // One character (of up to four UTF-8 bytes), then the closing quote.
    (2..=5).any(|len| {
        b.get(i + len) == Some(&b'\'')
            && std::str::from_utf8(&b[i + 1..i + len]).is_ok_and(|s| s.chars().count() == 1)
    })
}

fn read_files(dir: &Path, module: &mut Vec<String>, out: &mut Vec<File>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            if name == "bin" {
                continue;
            }
            module.push(name);
            read_files(&path, module, out);
            module.pop();
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut m = module.clone();
            if stem != "mod" && stem != "lib" {
                m.push(stem.to_string());
            }
            let text = std::fs::read_to_string(&path).unwrap();
            out.push(File {
                module: m,
                code: code_only(&text),
            });
        }
    }
}

/// Every module path a file's code names, resolved to absolute paths from
/// the crate's root (`super::` from the file's own module).
fn references(f: &File) -> Vec<Vec<String>> {
    let code = &f.code;
    let mut refs = Vec::new();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // The words of the path at the start of `s`: it ends at the first
    // piece that is not a whole identifier (`f(` in `a::f(x)::b`).
    let words = |s: &str| -> Vec<String> {
        let mut out = Vec::new();
        for piece in s.split("::") {
            let w: String = piece.chars().take_while(|&c| ident(c)).collect();
            let whole = w.len() == piece.len();
            if !w.is_empty() {
                out.push(w);
            }
            if !whole || out.is_empty() {
                break;
            }
        }
        out
    };
    for (at, _) in code.match_indices("crate::") {
        if at > 0 && code[..at].ends_with(|c: char| ident(c) || c == ':') {
            continue;
        }
        // `use crate::a::{b, c::d}`: each inner path (`a::b`, `a::c::d`).
        let tail = &code[at..];
        let path_end = tail
            .find(|c: char| !(ident(c) || c == ':'))
            .unwrap_or(tail.len());
        if !tail[path_end..].starts_with('{') {
            refs.push(words(&tail["crate::".len()..]));
        } else {
            let prefix = words(&tail["crate::".len()..path_end]);
            let close = tail[path_end..]
                .find('}')
                .map_or(tail.len(), |c| path_end + c);
            for inner in tail[path_end + 1..close].split(',') {
                let mut p = prefix.clone();
                p.extend(words(inner.trim()));
                refs.push(p);
            }
        }
    }
    // `super::` climbs from the file's own module. Inside a file's own
    // `mod tests` it means the file itself, which reads the same as its
    // folder's module: arrows to a file's own folders are left out below.
    for (at, _) in code.match_indices("super::") {
        if at > 0 && code[..at].ends_with(|c: char| ident(c) || c == ':') {
            continue;
        }
        let mut base = f.module.clone();
        let mut rest = &code[at..];
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        let mut p = base;
        p.extend(words(rest));
        refs.push(p);
    }
    refs
}

/// The file a module path names: the longest prefix that is a file.
fn resolve<'a>(path: &[String], modules: &'a BTreeSet<Vec<String>>) -> Option<&'a Vec<String>> {
    (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

fn layer(module: &[String]) -> Option<(&'static str, u32)> {
    let room = module.first()?;
    LAYERS.iter().find(|(r, _)| r == room).copied()
}

/// What is wrong with the house: arrows that run back up or sideways, and
/// circles of files.
fn problems(files: &[File]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut wrong = BTreeSet::new();
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in files {
        let from = f.module.join("::");
        if f.module.is_empty() {
            continue; // lib.rs declares the rooms.
        }
        let own = layer(&f.module);
        if own.is_none() {
            wrong.insert(format!("{from}: its room is in no layer of the table"));
        }
        let edges = graph.entry(f.module.clone()).or_default();
        for path in references(f) {
            let Some(to) = resolve(&path, &modules) else {
                continue;
            };
            if to == &f.module || to.is_empty() {
                continue;
            }
            // A folder's mod.rs declares and re-exports its own files; a
            // file's `super::` may be its own test module's (see
            // `references`): neither is an arrow between rooms of files.
            if to.starts_with(&f.module) || f.module.starts_with(to) {
                continue;
            }
            edges.insert(to.clone());
            let (Some((room, n)), Some((to_room, m))) = (own, layer(to)) else {
                continue;
            };
            if room != to_room && m >= n {
                wrong.insert(format!(
                    "{from} imports {} (`{}`): {to_room} (layer {m}) is not below {room} \
                     (layer {n})",
                    to.join("::"),
                    path.join("::")
                ));
            }
        }
    }
    for circle in circles(&graph) {
        let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
        wrong.insert(format!("a circle of files: {}", names.join(" -> ")));
    }
    wrong.into_iter().collect()
}

/// The strongly connected parts of more than one file (Tarjan's).
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Vec<String>) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut part = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    part.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.found.push(part);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn src_files() -> Vec<File> {
    let mut files = Vec::new();
    read_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut Vec::new(),
        &mut files,
    );
    files
}

#[test]
fn every_room_imports_only_rooms_below_it_and_no_files_import_in_a_circle() {
    let files = src_files();
    assert!(files.len() > 100, "read {} files of src/", files.len());
    let wrong = problems(&files);
    assert!(
        wrong.is_empty(),
        "the house's shape is broken:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_room_of_src_is_in_the_table() {
    let rooms: BTreeSet<String> = src_files()
        .iter()
        .filter_map(|f| f.module.first().cloned())
        .collect();
    let table: BTreeSet<String> = LAYERS.iter().map(|(r, _)| r.to_string()).collect();
    assert_eq!(rooms, table);
}

/// The check itself: an import that runs back up a layer, one sideways, and
/// a circle, each added to the real tree, are each found.
#[test]
fn an_import_back_up_a_sideways_one_and_a_circle_are_each_found() {
    let with = |module: &str, code: &str| {
        let mut files = src_files();
        let module: Vec<String> = module.split("::").map(String::from).collect();
        let f = files.iter_mut().find(|f| f.module == module).unwrap();
        f.code.push_str(&code_only(code));
        problems(&files)
    };
    // The Raft core naming the session, inline and in a `use` group.
    let up = with(
        "raft::log",
        "\nfn f() { crate::session::exec::Session::new(); }\n",
    );
    assert_eq!(up.len(), 1, "{up:?}");
    assert!(
        up[0].starts_with("raft::log imports session::exec"),
        "{up:?}"
    );
    let grouped = with(
        "sim::network",
        "\nuse crate::server::{cluster::Cluster, fleet};\n",
    );
    assert_eq!(grouped.len(), 2, "{grouped:?}");
    assert!(grouped
        .iter()
        .all(|w| w.contains("server (layer 3) is not below sim (layer 2)")));
    // The fuzzer and the lessons stand side by side.
    let sideways = with("fuzz", "\nuse crate::lessons::find;\n");
    assert!(
        sideways[0].starts_with("fuzz imports lessons"),
        "{sideways:?}"
    );
    // Two files of one room that import each other.
    let circle = with("session::cond", "\nuse super::exec::Session;\n");
    assert_eq!(circle.len(), 1, "{circle:?}");
    assert!(circle[0].starts_with("a circle of files:"), "{circle:?}");
    // Comments and strings are not code.
    let words = with(
        "raft::log",
        "\n// crate::session::exec\nconst S: &str = \"crate::app\";\n",
    );
    assert!(words.is_empty(), "{words:?}");
}
