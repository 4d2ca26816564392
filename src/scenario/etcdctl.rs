//! etcdctl v3 in the console: a line starting with `etcdctl` is read as
//! etcdctl would read it, translated to the one scenario command it stands
//! for (which the history records, so a run stays a scenario script), and
//! its result printed as etcdctl's simple printer prints it.
//!
//! Each translation follows etcdctl's command function of the same name in
//! `etcdctl/ctlv3/command` (argument checks and their messages included);
//! each printer follows `printer_simple.go` and the tables of `printer.go`.
//! See `docs/etcdctl.md` for the commands, and for how raftlab's member ids
//! 1..15 map to etcd's 64-bit hexadecimal member ids and names.
//!
//! etcdctl's own output and errors are quoted as etcdctl prints them, in
//! every language; raftlab's own explanations (a command it does not model,
//! a member name it cannot map) are sentences of the [`Renderer`].
//!
//! [`Renderer`]: super::narrate::Renderer

use super::ast::{Command, NodeId, MAX_NODE_ID, MIN_NODE_ID};
use super::exec::Session;
use super::report::CommandResult;
use super::report::Failure;
use crate::raft::joined::Joined;
use crate::server::cluster::DEADLINE_EXCEEDED;
use crate::server::{ErrorCode, ErrorDetail, Release, UrlProblem, Waited};
use std::sync::Arc;

/// The etcdctl commands raftlab models, as its refusal lists them.
pub const MODELLED: &[&str] = &[
    "member add NAME --peer-urls=URL [--learner]",
    "member promote ID",
    "member remove ID",
    "member list [--consistency=l|s]",
    "put KEY VALUE",
    "get KEY [--consistency=l|s]",
    "move-leader ID",
    "endpoint status",
];

/// splitmix64's finaliser: a bijection of u64 that scatters small numbers
/// over all 64 bits, as etcd's hashed member ids look.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The etcd member id of raftlab member `id`: fixed for each id, the same in
/// every run (etcd hashes the peer URLs, the cluster token and, for an added
/// member, the time: raftlab keeps only "a 64-bit number shown in hex").
pub fn member_id(id: NodeId) -> u64 {
    mix(id)
}

/// The raftlab member an etcd member id stands for, if any.
pub fn node_of(member_id: u64) -> Option<NodeId> {
    (MIN_NODE_ID..=MAX_NODE_ID).find(|&n| mix(n) == member_id)
}

/// etcd's member name of raftlab member `id` (its `--name`): `n1`, `n2`...,
/// the host its default peer URL names.
pub fn member_name(id: NodeId) -> String {
    format!("n{id}")
}

/// The raftlab member an etcd member name stands for: `nN`, N in 1..=15.
pub fn node_of_name(name: &str) -> Option<NodeId> {
    let digits = name.strip_prefix('n')?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id: NodeId = digits.parse().ok()?;
    (MIN_NODE_ID..=MAX_NODE_ID).contains(&id).then_some(id)
}

/// The client URL of member `id` (etcd `--advertise-client-urls`).
pub fn client_url(id: NodeId) -> String {
    format!("http://n{id}:2379")
}

/// The cluster id: etcd derives it from the bootstrap members' ids; raftlab
/// mixes the bootstrap voters' member ids in ascending order.
pub fn cluster_id(voters: &[NodeId]) -> u64 {
    let mut ids: Vec<NodeId> = voters.to_vec();
    crate::raft::vecmap::sort_u64s(&mut ids);
    ids.into_iter()
        .fold(0x7261_6674_6c61_6200, |h, id| mix(h ^ member_id(id)))
}

/// Why an etcdctl line ran nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EtcdctlError {
    /// etcdctl itself refuses the arguments, with this message (its own
    /// words: etcdctl prints `Error: ` and it).
    Etcdctl(String),
    /// The server would answer with this error without raftlab running
    /// anything: an id that names no member raftlab can have.
    Server { code: ErrorCode, member_id: u64 },
    /// A command raftlab does not model (its words after `etcdctl`, up to
    /// the arguments; empty for a bare `etcdctl`).
    Unmodelled { command: String },
    /// A flag raftlab does not model, of a command it does (empty: a
    /// global flag).
    UnmodelledFlag { command: String, flag: String },
    /// A member name that is not `n1`..`n15`.
    BadName { name: String },
    /// Several peer URLs (raftlab's members have one).
    SeveralUrls,
}

/// How the result of a translated command is printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Print {
    MemberAdd {
        name: String,
        peer_urls: String,
        learner: bool,
    },
    MemberPromote {
        member_id: u64,
    },
    MemberRemove {
        member_id: u64,
    },
    MemberList,
    Put,
    Get {
        key: String,
    },
    MoveLeader {
        target: u64,
    },
    EndpointStatus,
}

/// An etcdctl line, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The scenario command it stands for: the history records it.
    pub command: Arc<Command>,
    pub print: Print,
}

/// Whether a console line is an etcdctl command.
pub fn is_etcdctl(line: &str) -> bool {
    let t = line.trim_start();
    t == "etcdctl" || t.starts_with("etcdctl ") || t.starts_with("etcdctl\t")
}

/// Splits a line into words as a POSIX shell would for simple cases:
/// whitespace separates, single quotes keep everything, double quotes keep
/// everything but `\"` and `\\`, a backslash outside quotes escapes the next
/// character.
fn words(line: &str) -> Result<Vec<String>, EtcdctlError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut any = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            '\'' => {
                any = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(unterminated()),
                    }
                }
            }
            '"' => {
                any = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                            cur.push(chars.next().unwrap_or('\\'))
                        }
                        Some(c) => cur.push(c),
                        None => return Err(unterminated()),
                    }
                }
            }
            '\\' => {
                any = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c => {
                any = true;
                cur.push(c);
            }
        }
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

fn unterminated() -> EtcdctlError {
    EtcdctlError::Etcdctl("unterminated quoted string".to_string())
}

/// etcdctl's global flags (its root command's), each with whether it
/// takes a value: valid after any command, as cobra's persistent flags are.
/// The last [`GLOBAL_NEW_IN_3_6`] came with v3.6.
const GLOBAL_FLAGS: &[(&str, bool)] = &[
    ("endpoints", true),
    ("debug", false),
    ("write-out", true),
    ("hex", false),
    ("dial-timeout", true),
    ("command-timeout", true),
    ("keepalive-time", true),
    ("keepalive-timeout", true),
    ("insecure-transport", false),
    ("insecure-discovery", false),
    ("insecure-skip-tls-verify", false),
    ("cert", true),
    ("key", true),
    ("cacert", true),
    ("user", true),
    ("password", true),
    ("discovery-srv", true),
    ("discovery-srv-name", true),
    ("help", false),
    ("max-request-bytes", true),
    ("max-recv-bytes", true),
];
const GLOBAL_NEW_IN_3_6: usize = 2;

/// The one-letter forms of global flags: `-w`, `-d`, and cobra's `-h`.
fn shorthand(c: char) -> Option<&'static str> {
    match c {
        'w' => Some("write-out"),
        'd' => Some("discovery-srv"),
        'h' => Some("help"),
        _ => None,
    }
}

/// `flags` as etcdctl v3.6 has them, less the last `new_in_3_6` before it.
fn of_release<'a>(
    flags: &'a [(&'a str, bool)],
    new_in_3_6: usize,
    v36: bool,
) -> &'a [(&'a str, bool)] {
    match v36 {
        true => flags,
        false => &flags[..flags.len() - new_in_3_6],
    }
}

/// One flag as typed: its long name, its value if any, whether it is a
/// global flag, and the word it was typed as.
struct Flag {
    name: String,
    value: Option<String>,
    global: bool,
    typed: String,
}

/// A command's arguments and flags, as pflag splits them: `--name=value`,
/// `--name value` for flags that take a value, `--name` for booleans,
/// `-w simple`, `-wsimple` and `-w=simple` for a shorthand.
struct Args {
    command: String,
    positional: Vec<String>,
    flags: Vec<Flag>,
}

impl Args {
    /// `known`: etcdctl's own flags of this command, each with whether it
    /// takes a value. A flag neither the command nor the root has is
    /// pflag's error, word for word.
    /// `v36`: etcdctl v3.6, whose root has flags older ones lack.
    fn split(
        command: &str,
        rest: &[String],
        known: &[(&str, bool)],
        v36: bool,
    ) -> Result<Args, EtcdctlError> {
        let global = of_release(GLOBAL_FLAGS, GLOBAL_NEW_IN_3_6, v36);
        let lookup = |name: &str| {
            known
                .iter()
                .map(|&(n, v)| (n, v, false))
                .chain(global.iter().map(|&(n, v)| (n, v, true)))
                .find(|&(n, _, _)| n == name)
        };
        let mut positional = Vec::new();
        let mut flags = Vec::new();
        let mut it = rest.iter();
        let mut only_args = false;
        while let Some(w) = it.next() {
            if only_args || !w.starts_with('-') || w == "-" {
                positional.push(w.clone());
                continue;
            }
            if w == "--" {
                only_args = true;
                continue;
            }
            if let Some(body) = w.strip_prefix("--") {
                if body.starts_with('-') || body.starts_with('=') {
                    return Err(EtcdctlError::Etcdctl(format!("bad flag syntax: {w}")));
                }
                let (name, value) = match body.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (body, None),
                };
                let Some((name, takes_value, global)) = lookup(name) else {
                    return Err(EtcdctlError::Etcdctl(format!("unknown flag: --{name}")));
                };
                let value = match value {
                    None if takes_value => Some(it.next().cloned().ok_or_else(|| {
                        EtcdctlError::Etcdctl(format!("flag needs an argument: {w}"))
                    })?),
                    v => v,
                };
                flags.push(Flag {
                    name: name.to_string(),
                    value,
                    global,
                    typed: w.clone(),
                });
                continue;
            }
            // Shorthands: a run of letters, each a flag, until one takes
            // the rest of the word (or the next word) as its value.
            let mut shorts = &w[1..];
            while let Some(c) = shorts.chars().next() {
                let Some(name) = shorthand(c) else {
                    // pflag quotes the first byte as a character.
                    let q = char::from(shorts.as_bytes()[0]);
                    return Err(EtcdctlError::Etcdctl(format!(
                        "unknown shorthand flag: '{q}' in -{shorts}"
                    )));
                };
                let after = &shorts[1..];
                let (value, next) = if let Some(v) = after.strip_prefix('=') {
                    (Some(v.to_string()), "")
                } else if name == "help" {
                    (None, after)
                } else if !after.is_empty() {
                    (Some(after.to_string()), "")
                } else {
                    let v = it.next().cloned().ok_or_else(|| {
                        EtcdctlError::Etcdctl(format!("flag needs an argument: '{c}' in -{shorts}"))
                    })?;
                    (Some(v), "")
                };
                flags.push(Flag {
                    name: name.to_string(),
                    value,
                    global: true,
                    typed: w.clone(),
                });
                shorts = next;
            }
        }
        Ok(Args {
            command: command.to_string(),
            positional,
            flags,
        })
    }

    /// Refuses any flag but `modelled` and the simple printer (a global
    /// flag is named as typed, as raftlab's flag of plain `etcdctl`).
    fn only(&self, modelled: &[&str]) -> Result<(), EtcdctlError> {
        let simple = |f: &Flag| f.name == "write-out" && f.value.as_deref() == Some("simple");
        match self
            .flags
            .iter()
            .find(|f| !simple(f) && (f.global || !modelled.contains(&f.name.as_str())))
        {
            Some(f) if f.global => Err(EtcdctlError::UnmodelledFlag {
                command: String::new(),
                flag: f.typed.clone(),
            }),
            Some(f) => Err(EtcdctlError::UnmodelledFlag {
                command: self.command.clone(),
                flag: format!("--{}", f.name),
            }),
            None => Ok(()),
        }
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|f| f.name == name)
            .and_then(|f| f.value.as_deref())
    }

    /// A boolean flag: `--name`, `--name=true` or `--name=false`.
    fn bool(&self, name: &str) -> Result<bool, EtcdctlError> {
        match self.flags.iter().rev().find(|f| f.name == name) {
            None => Ok(false),
            Some(Flag { value: None, .. }) => Ok(true),
            Some(Flag { value: Some(v), .. }) => match v.as_str() {
                "true" | "1" | "t" | "T" | "TRUE" | "True" => Ok(true),
                "false" | "0" | "f" | "F" | "FALSE" | "False" => Ok(false),
                _ => Err(EtcdctlError::Etcdctl(format!(
                    "invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax"
                ))),
            },
        }
    }

    /// `--consistency=l|s` (etcdctl's `IsSerializable`). Its error quotes
    /// get's `--consistency` whatever the command, so a bad value of
    /// another command's flag is reported as get's default, `l`.
    fn serializable(&self) -> Result<bool, EtcdctlError> {
        match self.value("consistency").unwrap_or("l") {
            "l" => Ok(false),
            "s" => Ok(true),
            other => {
                let quoted = if self.command == "get" { other } else { "l" };
                Err(EtcdctlError::Etcdctl(format!(
                    "unknown consistency flag \"{quoted}\""
                )))
            }
        }
    }
}

/// A hexadecimal member id argument (etcdctl: `strconv.ParseUint(arg, 16,
/// 64)`), and the raftlab member it names. `wrapped`: the member commands
/// wrap a parse error in "bad member ID arg (...)"; move-leader prints it
/// bare.
fn member_arg(
    args: &Args,
    what: &str,
    unknown: ErrorCode,
    wrapped: bool,
) -> Result<(u64, NodeId), EtcdctlError> {
    let [arg] = args.positional.as_slice() else {
        return Err(EtcdctlError::Etcdctl(what.to_string()));
    };
    // Go's ParseUint takes no sign; Rust's takes a `+`.
    let parsed = match arg.strip_prefix('+') {
        Some(_) => Err(None),
        None => u64::from_str_radix(arg, 16).map_err(|e| Some(*e.kind())),
    };
    let id = parsed.map_err(|kind| {
        let why = match kind {
            Some(std::num::IntErrorKind::PosOverflow) => "value out of range",
            _ => "invalid syntax",
        };
        let parse = format!("strconv.ParseUint: parsing \"{arg}\": {why}");
        EtcdctlError::Etcdctl(if wrapped {
            format!("bad member ID arg ({parse}), expecting ID in Hex")
        } else {
            parse
        })
    })?;
    let node = node_of(id).ok_or(EtcdctlError::Server {
        code: unknown,
        member_id: id,
    })?;
    Ok((id, node))
}

/// etcdctl put's flags (putCommandFunc's), with whether each takes a value.
const PUT_FLAGS: &[(&str, bool)] = &[
    ("lease", true),
    ("prev-kv", false),
    ("ignore-value", false),
    ("ignore-lease", false),
];

/// etcdctl get's flags (NewGetCommand's), with whether each takes a
/// value. The last [`GET_NEW_IN_3_6`] came with v3.6.
const GET_FLAGS: &[(&str, bool)] = &[
    ("consistency", true),
    ("order", true),
    ("sort-by", true),
    ("limit", true),
    ("prefix", false),
    ("from-key", false),
    ("rev", true),
    ("keys-only", false),
    ("count-only", false),
    ("print-value-only", false),
    ("min-create-rev", true),
    ("max-create-rev", true),
    ("min-mod-rev", true),
    ("max-mod-rev", true),
];
const GET_NEW_IN_3_6: usize = 4;

/// etcdctl's commands under its root, in the order `ctl.go` adds them,
/// which is the order cobra lists suggestions in (each release has those
/// [`in_release`] says). cobra adds `help` last, when etcdctl runs.
const ROOT: &[&str] = &[
    "get",
    "put",
    "del",
    "txn",
    "compaction",
    "alarm",
    "defrag",
    "endpoint",
    "move-leader",
    "watch",
    "version",
    "lease",
    "member",
    "snapshot",
    "make-mirror",
    "migrate",
    "lock",
    "elect",
    "auth",
    "user",
    "role",
    "check",
    "completion",
    "downgrade",
    "help",
];

/// The longest name in [`ROOT`].
const NAME_MAX: usize = 11;

/// `migrate` is etcdctl v3.4's only; `completion` and `downgrade` came
/// with v3.6.
fn in_release(command: &str, release: Release) -> bool {
    match command {
        "migrate" => release.minor() == Release::V3_4,
        "completion" | "downgrade" => release == Release::V3_6,
        _ => true,
    }
}

/// The subcommands of the command at `path` that the console looks into,
/// in the order etcdctl adds them; none for a command it takes whole.
fn subcommands(path: &[&str]) -> &'static [&'static str] {
    match path {
        [] => ROOT,
        ["member"] => &["add", "remove", "update", "list", "promote"],
        ["endpoint"] => &["health", "status", "hashkv"],
        _ => &[],
    }
}

/// Where cobra's `stripFlags` finds the next command word: the first word
/// that is not a flag, passing over the value of a flag that takes one.
/// A flag cobra does not know yet (`-h`: cobra adds it after finding the
/// command) is taken as one that takes a value. The flags that take none
/// are the global booleans, and endpoint's `--cluster` under `endpoint`.
fn command_word(args: &[String], endpoint: bool) -> Option<usize> {
    let boolean = |name: &str| {
        (endpoint && name == "cluster")
            || (name != "help" && GLOBAL_FLAGS.iter().any(|&(n, v)| !v && n == name))
    };
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if w == "--" {
            return None;
        }
        let takes_value = match w.strip_prefix("--") {
            Some(name) => !w.contains('=') && !boolean(name),
            None => w.len() == 2 && w.starts_with('-') && w != "-=",
        };
        if takes_value {
            i += 1;
        } else if !w.is_empty() && !w.starts_with('-') {
            return Some(i - 1);
        }
    }
    None
}

/// cobra's `findNext`: the subcommand named `word`, or with
/// `EnablePrefixMatching` (etcdctl sets it) the one subcommand whose name
/// starts with it. Case counts.
fn find_next(word: &str, names: &[&'static str], release: Release) -> Option<&'static str> {
    let (mut prefixed, mut count) = (None, 0);
    for &n in names.iter().filter(|n| in_release(n, release)) {
        if n == word {
            return Some(n);
        }
        if n.starts_with(word) {
            (prefixed, count) = (Some(n), count + 1);
        }
    }
    prefixed.filter(|_| count == 1)
}

/// The edit distance of a word to a command's name (of at most
/// [`NAME_MAX`] letters), ASCII letters folded (cobra's `ld` with
/// `ignoreCase`, over bytes).
fn levenshtein(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row = [0; NAME_MAX + 1];
    for (j, d) in row.iter_mut().enumerate() {
        *d = j;
    }
    for (i, ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = if ca.eq_ignore_ascii_case(cb) {
                diag
            } else {
                1 + diag.min(row[j]).min(row[j + 1])
            };
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// What etcdctl prints for a first word that names none of its commands
/// (cobra's `legacyArgs` and `findSuggestions`, printed by `ExecuteC`):
/// the error, with the commands within two edits of the word or starting
/// with it (letters folded) when there are any, and the usage hint. etcdctl
/// before v3.6 prints the error once more as it exits (its `ExitWithError`).
fn unknown_command(word: &str, release: Release) -> EtcdctlError {
    // Rust's quoting is Go's %q for all but control characters.
    let mut error = format!("unknown command {word:?} for \"etcdctl\"");
    // Root's own SuggestFor ("etcdctl") is never read: cobra reads the
    // SuggestFor of the root's subcommands, and none of etcdctl's has one.
    let mut near = String::new();
    for &c in &ROOT[..ROOT.len() - 1] {
        let prefix = c
            .get(..word.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(word));
        if in_release(c, release) && (levenshtein(word, c) <= 2 || prefix) {
            near += "\n\t";
            near += c;
        }
    }
    if !near.is_empty() {
        error += "\n\nDid you mean this?";
        error += &near;
    }
    // Printed by cobra with its hint (a blank line after the suggestions),
    // and again by etcdctl before v3.6.
    let mut text = error.clone();
    if !near.is_empty() {
        text.push('\n');
    }
    text += "\nRun 'etcdctl --help' for usage.";
    if release != Release::V3_6 {
        text += "\nError: ";
        text += &error;
    }
    EtcdctlError::Etcdctl(text)
}

/// The command etcdctl runs for its arguments, as cobra's `Command.Find`
/// finds it: its path from the root (empty: the root itself) and the
/// arguments left for it. A first word that names no command is etcdctl's
/// error; a later one is an argument of the command found so far.
fn find(
    mut args: Vec<String>,
    release: Release,
) -> Result<(Vec<&'static str>, Vec<String>), EtcdctlError> {
    let v36 = release == Release::V3_6;
    let mut path = Vec::new();
    loop {
        let names = subcommands(&path);
        if names.is_empty() {
            break;
        }
        let Some(at) = command_word(&args, matches!(path.as_slice(), ["endpoint"])) else {
            break;
        };
        let Some(next) = find_next(&args[at], names, release) else {
            if path.is_empty() {
                return Err(unknown_command(&args[at], release));
            }
            break;
        };
        // cobra's argsMinusFirstX: since cobra v1.7 (etcdctl v3.6) the word
        // found; before, the first word spelt as it, even a flag's value.
        let drop = match v36 {
            true => at,
            false => args.iter().position(|w| *w == args[at]).unwrap_or(at),
        };
        args.remove(drop);
        path.push(next);
    }
    Ok((path, args))
}

/// Reads an etcdctl line (`etcdctl` included) as the etcdctl of `release`
/// reads it.
pub fn translate(line: &str, release: Release) -> Result<Translation, EtcdctlError> {
    let (command, print) = understand(line, release)?;
    Ok(Translation {
        command: Arc::new(command),
        print,
    })
}

/// The scenario command an etcdctl line stands for, and what etcdctl prints.
fn understand(line: &str, release: Release) -> Result<(Command, Print), EtcdctlError> {
    let v36 = release == Release::V3_6;
    let mut args = words(line)?;
    if args.first().is_none_or(|w| w != "etcdctl") {
        return Err(EtcdctlError::Unmodelled {
            command: line.trim().to_string(),
        });
    }
    args.remove(0);
    let (path, rest) = find(args, release)?;
    let name = path.joined(" ");
    let unmodelled = || EtcdctlError::Unmodelled {
        command: name.clone(),
    };
    match path.as_slice() {
        // A command with subcommands and none named: etcdctl prints its
        // help (after parsing its flags), which raftlab does not model.
        [] | ["member"] | ["endpoint"] => {
            let own: &[(&str, bool)] = match path.as_slice() {
                ["endpoint"] => &[("cluster", false)],
                _ => &[],
            };
            Args::split(&name, &rest, own, v36)?;
            Err(unmodelled())
        }
        ["member", sub] => {
            match *sub {
                "add" => member_add(Args::split(
                    &name,
                    &rest,
                    &[("peer-urls", true), ("learner", false)],
                    v36,
                )?),
                // The same one argument, a member id, for both.
                "promote" | "remove" => {
                    let a = Args::split(&name, &rest, &[], v36)?;
                    a.only(&[])?;
                    let (member_id, id) = member_arg(
                        &a,
                        "member ID is not provided",
                        ErrorCode::MemberNotFound,
                        true,
                    )?;
                    let (timeout_ms, require_leader) = (None, false);
                    Ok(if *sub == "promote" {
                        (
                            Command::MemberPromote {
                                id,
                                timeout_ms,
                                require_leader,
                            },
                            Print::MemberPromote { member_id },
                        )
                    } else {
                        (
                            Command::MemberRemove {
                                id,
                                timeout_ms,
                                require_leader,
                            },
                            Print::MemberRemove { member_id },
                        )
                    })
                }
                "list" => {
                    let a = Args::split(
                        &name,
                        &rest,
                        // member list has --consistency since v3.6
                        // (before, it answered from the member's state).
                        if v36 { &[("consistency", true)] } else { &[] },
                        v36,
                    )?;
                    a.only(&["consistency"])?;
                    Ok((
                        Command::MemberList {
                            serializable: a.serializable()?,
                            via: None,
                            timeout_ms: None,
                            require_leader: false,
                        },
                        Print::MemberList,
                    ))
                }
                _ => Err(unmodelled()),
            }
        }
        ["put"] => {
            let a = Args::split("put", &rest, PUT_FLAGS, v36)?;
            a.only(&[])?;
            // getPutOp reads the value from the second argument and
            // ignores any after it.
            let [key, value, ..] = a.positional.as_slice() else {
                return Err(EtcdctlError::Etcdctl(
                    "put command needs 1 argument and input from stdin or 2 arguments".to_string(),
                ));
            };
            Ok((
                Command::Put {
                    key: key.clone(),
                    value: value.clone(),
                    via: None,
                    size: None,
                    nowait: false,
                    timeout_ms: None,
                    require_leader: false,
                },
                Print::Put,
            ))
        }
        ["get"] => {
            let a = Args::split(
                "get",
                &rest,
                of_release(GET_FLAGS, GET_NEW_IN_3_6, v36),
                v36,
            )?;
            a.only(&["consistency"])?;
            // getGetOp's order: no key, then the consistency, then a
            // range_end (the second argument; any after it is ignored).
            let Some(key) = a.positional.first().cloned() else {
                return Err(EtcdctlError::Etcdctl(
                    "get command needs one argument as key and an optional argument as range_end"
                        .to_string(),
                ));
            };
            let serializable = a.serializable()?;
            if a.positional.len() > 1 {
                return Err(EtcdctlError::UnmodelledFlag {
                    command: "get".to_string(),
                    flag: "range_end".to_string(),
                });
            }
            Ok((
                Command::Get {
                    key: key.clone(),
                    rev: None,
                    via: None,
                    serializable,
                    timeout_ms: None,
                    require_leader: false,
                },
                Print::Get { key },
            ))
        }
        ["move-leader"] => {
            let a = Args::split("move-leader", &rest, &[], v36)?;
            a.only(&[])?;
            if a.positional.len() != 1 {
                return Err(EtcdctlError::Etcdctl(
                    "move-leader command needs 1 argument".to_string(),
                ));
            }
            let (target, id) = // etcd's MoveLeader: a transferee that is not a member is
            // ErrBadLeaderTransferee.
            member_arg(
                &a,
                "move-leader command needs 1 argument",
                ErrorCode::BadLeaderTransferee,
                false,
            )?;
            Ok((Command::TransferLeader(id), Print::MoveLeader { target }))
        }
        ["endpoint", "status"] => {
            let a = Args::split(&name, &rest, &[("cluster", false)], v36)?;
            a.only(&["cluster"])?;
            Ok((Command::Status { via: None }, Print::EndpointStatus))
        }
        _ => Err(unmodelled()),
    }
}

/// `member add NAME --peer-urls=URL [--learner]` (etcdctl
/// `memberAddCommandFunc`).
fn member_add(a: Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&["peer-urls", "learner"])?;
    let learner = a.bool("learner")?;
    let name = match a.positional.as_slice() {
        [] => {
            return Err(EtcdctlError::Etcdctl(
                "member name not provided".to_string(),
            ))
        }
        [name] => name.clone(),
        many => {
            let mut ev = "too many arguments".to_string();
            for s in many {
                // etcd lowercases the word first; no character outside
                // ASCII lowercases to h, t or p, so ASCII folding is the
                // same test without the Unicode case tables.
                if s.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("http")) {
                    ev += &format!(", did you mean --peer-urls={s}");
                }
            }
            return Err(EtcdctlError::Etcdctl(ev));
        }
    };
    let peer_urls = a.value("peer-urls").unwrap_or("").to_string();
    if peer_urls.is_empty() {
        return Err(EtcdctlError::Etcdctl(
            "member peer urls not provided".to_string(),
        ));
    }
    if peer_urls.as_bytes().contains(&b',') {
        return Err(EtcdctlError::SeveralUrls);
    }
    let id = node_of_name(&name).ok_or_else(|| EtcdctlError::BadName { name: name.clone() })?;
    Ok((
        Command::MemberAdd {
            id,
            learner,
            voter: false,
            standby: false,
            read_only: None,
            peer_url: Some(peer_urls.clone()),
            via: None,
            timeout_ms: None,
            require_leader: false,
        },
        Print::MemberAdd {
            name,
            peer_urls,
            learner,
        },
    ))
}

/// go-humanize's `Bytes`: SI units, one decimal below 10. In integers (the
/// float logarithm and power it was written with cost the page 2 KB);
/// a test checks it against that float form.
pub fn humanize_bytes(s: u64) -> String {
    const SIZES: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    if s < 10 {
        return format!("{s} B");
    }
    let (mut e, mut unit) = (0, 1u128);
    while s as u128 >= unit * 1000 {
        e += 1;
        unit *= 1000;
    }
    // Tenths of the value in `unit`, rounded half up: floor(10·s/unit + 0.5).
    // Below 10,001 (`s` is below 1000 `unit`s), so printed as a `u64`: the
    // printing of `u128` would be 1.5 KB more of the page's module.
    let tenths = ((20 * s as u128 + unit) / (2 * unit)) as u64;
    let suffix = SIZES[e];
    if tenths < 100 {
        format!("{}.{} {suffix}", tenths / 10, tenths % 10)
    } else {
        // `{:.0}` of the tenths: a half (exact in binary) goes to even.
        let (q, r) = (tenths / 10, tenths % 10);
        let q = if r > 5 || (r == 5 && q % 2 == 1) {
            q + 1
        } else {
            q
        };
        format!("{q} {suffix}")
    }
}

/// etcd's default backend quota (`DefaultQuotaBytes`, 2 GiB).
const QUOTA_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// What etcdctl prints for a translated command's result, line by line:
/// its standard output, or `Error: ...` as it prints a failure.
/// `leader_before`: the leader when the command was typed (move-leader
/// prints it).
pub fn output(
    t: &Translation,
    r: &CommandResult,
    leader_before: Option<NodeId>,
    session: &Session,
) -> Vec<String> {
    let cluster = session.cluster();
    let cid = cluster_id(&session.spec().voters);
    if matches!(t.print, Print::MoveLeader { .. }) && leader_before.is_none() {
        // etcdctl's move-leader asks its endpoints for their status first
        // and, when none of them leads, stops before sending anything.
        let eps: Vec<String> = cluster.known_ids().into_iter().map(client_url).collect();
        return vec![format!(
            "Error: no leader endpoint given at [{}]",
            eps.joined(" ")
        )];
    }
    if let Some(code) = r.error {
        // A request whose client deadline (etcdctl's --command-timeout)
        // ended first sees the gRPC deadline, not the server's timeout.
        let server_error = match r.failure.as_deref() {
            Some(Failure::Server(e)) => Some(&e.why),
            _ => None,
        };
        let client_deadline = matches!(
            server_error,
            Some(ErrorDetail::Deadline { waited, .. }) if *waited != Waited::ServerTimeout
        );
        // etcd's client checks peer URLs itself (types.NewURLs in its
        // memberAdd) and returns that error as it is, before any request.
        let bad_url = match server_error {
            Some(ErrorDetail::BadPeerUrl { problem, .. }) => Some(match problem {
                UrlProblem::Parse { input, go_error } => format!("parse {input:?}: {go_error}"),
                UrlProblem::Rule { input, rule } => format!("{rule}: {input}"),
            }),
            _ => None,
        };
        let text = if client_deadline {
            DEADLINE_EXCEEDED.to_string()
        } else if let Some(url) = bad_url {
            url
        } else {
            match code.parse::<ErrorCode>() {
                // etcd's gRPC layer (togRPCError) turns the server's
                // ErrIDRemoved into ErrGRPCMemberNotFound before any client
                // sees it.
                Ok(ErrorCode::IdRemoved) => ErrorCode::MemberNotFound.etcd_text().to_string(),
                Ok(c) => c.etcd_text().to_string(),
                Err(_) => code.to_string(),
            }
        };
        return vec![format!("Error: {text}")];
    }
    match &t.print {
        Print::MemberAdd {
            name,
            peer_urls,
            learner,
        } => {
            let Command::MemberAdd { id, .. } = *t.command else {
                return Vec::new();
            };
            // etcdctl says "as learner" since v3.6 (its simple printer's
            // MemberAdd); before, a learner is "added" as a voter is.
            let as_learner = *learner && session.spec().etcd == Release::V3_6;
            let mut out = vec![format!(
                "Member {:16x} added{}to cluster {cid:16x}",
                member_id(id),
                if as_learner { " as learner " } else { " " }
            )];
            let via = cluster
                .leader()
                .or_else(|| cluster.known_ids().into_iter().next());
            let members = via.map_or_else(Vec::new, |v| cluster.members_of(v));
            let conf: Vec<String> = members
                .iter()
                .map(|m| {
                    let n = if m.id == id {
                        name.clone()
                    } else if m.started {
                        member_name(m.id)
                    } else {
                        String::new()
                    };
                    format!("{n}={}", m.peer_url)
                })
                .collect();
            out.push(String::new());
            out.push(format!("ETCD_NAME={name:?}"));
            out.push(format!("ETCD_INITIAL_CLUSTER={:?}", conf.joined(",")));
            out.push(format!("ETCD_INITIAL_ADVERTISE_PEER_URLS={peer_urls:?}"));
            out.push("ETCD_INITIAL_CLUSTER_STATE=\"existing\"".to_string());
            out
        }
        Print::MemberPromote { member_id } => {
            vec![format!(
                "Member {member_id:16x} promoted in cluster {cid:16x}"
            )]
        }
        Print::MemberRemove { member_id } => {
            vec![format!(
                "Member {member_id:16x} removed from cluster {cid:16x}"
            )]
        }
        Print::MemberList => r
            .members
            .iter()
            .flatten()
            .map(|m| {
                [
                    format!("{:x}", member_id(m.id)),
                    if m.started { "started" } else { "unstarted" }.to_string(),
                    if m.started {
                        member_name(m.id)
                    } else {
                        String::new()
                    },
                    m.peer_url.clone(),
                    if m.published {
                        client_url(m.id)
                    } else {
                        String::new()
                    },
                    m.learner.to_string(),
                ]
                .joined(", ")
            })
            .collect(),
        Print::Put => vec!["OK".to_string()],
        Print::Get { key } => match &r.value {
            Some(Some(v)) => vec![key.clone(), v.clone()],
            _ => Vec::new(),
        },
        Print::MoveLeader { target } => vec![format!(
            "Leadership transferred from {:x} to {target:x}",
            leader_before.map_or(0, member_id)
        )],
        Print::EndpointStatus => {
            let v36 = session.spec().etcd == Release::V3_6;
            // epStatusCommandFunc says which endpoints failed as it asks
            // them, and prints the table of the others after.
            let (mut failed, mut rows) = (Vec::new(), Vec::new());
            for id in cluster.known_ids() {
                match cluster.member_status(id) {
                    Ok(s) => {
                        let db = humanize_bytes(s.db_size);
                        let version = format!("{}.0", s.version);
                        let leads = s.leader == Some(id);
                        let mut row = vec![
                            client_url(id),
                            format!("{:x}", member_id(id)),
                            version.clone(),
                        ];
                        if v36 {
                            row.extend([
                                version,
                                db.clone(),
                                db,
                                "0%".to_string(),
                                humanize_bytes(QUOTA_BYTES),
                            ]);
                        } else {
                            row.push(db);
                        }
                        row.extend([
                            leads.to_string(),
                            s.is_learner.to_string(),
                            s.raft_term.to_string(),
                            s.raft_index.to_string(),
                            s.raft_applied_index.to_string(),
                            s.errors.joined(", "),
                        ]);
                        if v36 {
                            row.extend([String::new(), "false".to_string()]);
                        }
                        rows.push(row.joined(", "));
                    }
                    Err(_) => failed.push(format!(
                        "Failed to get the status of endpoint {} (context deadline exceeded)",
                        client_url(id)
                    )),
                }
            }
            failed.extend(rows);
            failed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_ids_are_distinct_nonzero_and_map_back() {
        let ids: crate::raft::vecmap::VecSet<u64> =
            (MIN_NODE_ID..=MAX_NODE_ID).map(member_id).collect();
        assert_eq!(ids.len(), 15);
        for n in MIN_NODE_ID..=MAX_NODE_ID {
            assert_ne!(member_id(n), 0);
            assert_eq!(node_of(member_id(n)), Some(n));
            assert_eq!(node_of_name(&member_name(n)), Some(n));
        }
        assert_eq!(node_of(4), None);
        for bad in ["n0", "n16", "n04", "node4", "n", "4", "n4x"] {
            assert_eq!(node_of_name(bad), None, "{bad}");
        }
    }

    /// The float form go-humanize's `Bytes` is written in, which
    /// `humanize_bytes` follows in integers.
    fn humanize_bytes_in_floats(s: u64) -> String {
        const SIZES: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
        if s < 10 {
            return format!("{s} B");
        }
        let e = ((s as f64).ln() / 1000f64.ln()).floor();
        let suffix = SIZES[e as usize];
        let val = ((s as f64) / 1000f64.powf(e) * 10.0 + 0.5).floor() / 10.0;
        if val < 10.0 {
            format!("{val:.1} {suffix}")
        } else {
            format!("{val:.0} {suffix}")
        }
    }

    #[test]
    fn bytes_in_integers_as_in_floats() {
        let mut x: u64 = 1;
        for _ in 0..200_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Sizes up to a petabyte, spread over every magnitude.
            let n = (x >> 14) >> ((x >> 8) % 50);
            assert_eq!(humanize_bytes(n), humanize_bytes_in_floats(n), "{n}");
        }
        for p in [1_000u64, 1_000_000, 1_000_000_000, 1_000_000_000_000] {
            for n in [
                p - 51,
                p - 50,
                p - 49,
                p - 1,
                p,
                p + 1,
                p * 9_950 / 1_000,
                p * 10,
                p * 10 + p / 20,
            ] {
                assert_eq!(humanize_bytes(n), humanize_bytes_in_floats(n), "{n}");
            }
        }
        for n in 0..100_000 {
            assert_eq!(humanize_bytes(n), humanize_bytes_in_floats(n), "{n}");
        }
    }

    #[test]
    fn bytes_are_written_as_go_humanize_writes_them() {
        for (n, s) in [
            (0, "0 B"),
            (9, "9 B"),
            (10, "10 B"),
            (999, "999 B"),
            (1000, "1.0 kB"),
            (20_480, "20 kB"),
            (2_147_483_648, "2.1 GB"),
        ] {
            assert_eq!(humanize_bytes(n), s);
        }
    }

    #[test]
    fn edit_distance_folds_ascii_letters() {
        for (a, b, d) in [
            ("memebr", "member", 2),
            ("MEMBER", "member", 0),
            ("", "get", 3),
            ("e", "del", 2),
            ("foo", "lock", 3),
            ("lst", "list", 1),
        ] {
            assert_eq!(levenshtein(a, b), d, "{a} {b}");
            assert_eq!(levenshtein(b, a), d, "{b} {a}");
        }
        assert!(ROOT.iter().all(|c| c.len() <= NAME_MAX));
        assert!(ROOT.iter().any(|c| c.len() == NAME_MAX));
    }

    /// cobra's argsMinusFirstX took out the first word spelt as the
    /// command until v1.7 (etcdctl v3.4, v3.5), even a flag's value; since,
    /// the word it found.
    #[test]
    fn the_command_word_found_is_taken_out_as_cobra_takes_it() {
        let strings = |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let args = strings(&["-w", "get", "--debug", "get", "k"]);
        let v35 = find(args.clone(), Release::V3_5).unwrap();
        assert_eq!(v35, (vec!["get"], strings(&["-w", "--debug", "get", "k"])));
        let v36 = find(args, Release::V3_6).unwrap();
        assert_eq!(v36, (vec!["get"], strings(&["-w", "get", "--debug", "k"])));
    }

    #[test]
    fn shell_words_follow_quotes() {
        assert_eq!(
            words(r#"etcdctl put 'a b' "c \"d\"" e\ f"#).unwrap(),
            ["etcdctl", "put", "a b", "c \"d\"", "e f"]
        );
        assert!(words("etcdctl put 'a").is_err());
    }
}

/// "etcdctl put", or "etcdctl" for an empty command.
pub fn full_name(command: &str) -> String {
    if command.is_empty() {
        "etcdctl".to_string()
    } else {
        format!("etcdctl {command}")
    }
}

#[cfg(test)]
mod doc_tests {
    use super::*;

    /// docs/etcdctl.md lists every id as this module computes it.
    #[test]
    fn the_documented_ids_are_the_ids() {
        let doc = include_str!("../../docs/etcdctl.md");
        for n in MIN_NODE_ID..=MAX_NODE_ID {
            let row = format!("| {n} | n{n} | `{:x}` |", member_id(n));
            assert!(doc.contains(&row), "docs/etcdctl.md lacks {row}");
        }
    }
}
