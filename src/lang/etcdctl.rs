//! etcdctl v3 in the console: a line starting with `etcdctl` is read as
//! etcdctl would read it, translated to the one scenario command it stands
//! for (which the history records, so a run stays a scenario script), and
//! its result printed as etcdctl's simple printer (or, with `-w table`, its
//! table printer) prints it.
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
//! [`Renderer`]: crate::words::renderer::Renderer

use crate::lang::ast::{Command, NodeId, MAX_NODE_ID, MIN_NODE_ID};
use crate::lang::suggest::levenshtein;
use crate::server::{ErrorCode, Release};
use std::sync::Arc;

/// The etcdctl commands raftlab models, as its refusal lists them.
pub const MODELLED: &[&str] = &[
    "member add NAME --peer-urls=URL [--learner]",
    "member promote ID",
    "member remove ID",
    "member list [--consistency=l|s]",
    "put KEY VALUE",
    "get KEY [--consistency=l|s] [--rev=REV]",
    "del KEY",
    "compaction REV",
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
    crate::collections::vecmap::sort_u64s(&mut ids);
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
    /// An output format etcdctl has a printer for and raftlab does not
    /// (`json`, `protobuf`, `fields`).
    UnmodelledPrinter { printer: String },
    /// A member name that is not `n1`..`n15`.
    BadName { name: String },
    /// Several peer URLs (raftlab's members have one).
    SeveralUrls,
    /// `--endpoints` other than one member's client URL.
    BadEndpoints { endpoints: String },
    /// A negative revision to compact, which etcd refuses as compacted
    /// after a round through Raft; raftlab's revisions are whole numbers.
    NegativeRevision { rev: String },
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
    /// The number of keys deleted.
    Del,
    Compaction {
        rev: u64,
    },
    MoveLeader {
        target: u64,
    },
    /// Every member's status, or only the one `--endpoints` names.
    EndpointStatus {
        only: Option<NodeId>,
    },
}

/// An etcdctl line, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The scenario command it stands for: the history records it.
    pub command: Arc<Command>,
    pub print: Print,
    /// `-w table` (`--write-out=table`): etcdctl's table printer.
    pub table: bool,
}

/// What a scenario makes of a first word that is etcdctl's command and not
/// one of the language's (`del`, `lease`): a refusal that says so, rather
/// than a guess at a scenario command it is near (`lease` is not `release`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EtcdctlWord {
    /// etcdctl's line (`del KEY`) and the scenario command it stands for
    /// (`delete KEY`); `console`: the page's console takes etcdctl's too.
    Written {
        etcdctl: &'static str,
        scenario: &'static str,
        console: bool,
    },
    /// A command raftlab does not model.
    Unmodelled,
}

/// etcdctl's commands that a scenario writes otherwise (the three the
/// table of docs/etcdctl.md translates, and make-mirror's mirror process):
/// the command, its line, the scenario's, whether the console takes it.
const WRITTEN: [(&str, &str, &str, bool); 4] = [
    ("del", "del KEY", "delete KEY", true),
    ("move-leader", "move-leader ID", "transfer-leader N", true),
    ("endpoint", "endpoint status", "status", true),
    (
        "make-mirror",
        "make-mirror DEST",
        "mirror start M from=N to=D",
        false,
    ),
];

/// `word` as etcdctl's command, when it is one of any release (as cobra
/// names them: case counts).
pub fn etcdctl_word(word: &str) -> Option<EtcdctlWord> {
    if let Some(&(_, etcdctl, scenario, console)) = WRITTEN.iter().find(|w| w.0 == word) {
        return Some(EtcdctlWord::Written {
            etcdctl,
            scenario,
            console,
        });
    }
    ROOT.contains(&word).then_some(EtcdctlWord::Unmodelled)
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
            match w.strip_prefix("--") {
                Some(body) => flags.push(long_flag(w, body, &mut it, known, global)?),
                None => shorthands(w, &mut it, &mut flags)?,
            }
        }
        Ok(Args {
            command: command.to_string(),
            positional,
            flags,
        })
    }

    /// Refuses any flag but `modelled` and `--write-out` (a global flag is
    /// named as typed, as raftlab's flag of plain `etcdctl`). Of the
    /// printers, raftlab has etcdctl's simple and table ones; its json,
    /// protobuf and fields printers are refused here, a name etcdctl has
    /// no printer for is etcdctl's own error ([`Args::table`]).
    fn only(&self, modelled: &[&str]) -> Result<(), EtcdctlError> {
        if let printer @ ("json" | "protobuf" | "fields") = self.write_out() {
            return Err(EtcdctlError::UnmodelledPrinter {
                printer: printer.to_string(),
            });
        }
        let allowed = |f: &Flag| {
            f.name == "write-out" || (f.name == "endpoints" && modelled.contains(&"endpoints"))
        };
        match self
            .flags
            .iter()
            .find(|f| !allowed(f) && (f.global || !modelled.contains(&f.name.as_str())))
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

    /// The printer's name: the last `--write-out` (pflag keeps the last
    /// value), `simple` by default.
    fn write_out(&self) -> &str {
        self.value("write-out").unwrap_or("simple")
    }

    /// Whether etcdctl prints with its table printer; a name it has no
    /// printer for is its `unsupported output format` (`NewPrinter`
    /// returns nil), before any request.
    fn table(&self) -> Result<bool, EtcdctlError> {
        match self.write_out() {
            "simple" => Ok(false),
            "table" => Ok(true),
            _ => Err(EtcdctlError::Etcdctl(
                "unsupported output format".to_string(),
            )),
        }
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|f| f.name == name)
            .and_then(|f| f.value.as_deref())
    }

    /// The member `--endpoints` names (the last one given, as pflag keeps
    /// it): one client URL, `http://nN:2379` or `nN:2379`. Without it the
    /// console's etcdctl has every member as its endpoints. A host `nN`
    /// that is no member's is taken as one whose process is down (etcdctl
    /// dials it until its deadline).
    fn endpoint(&self) -> Result<Option<NodeId>, EtcdctlError> {
        let Some(eps) = self.value("endpoints") else {
            return Ok(None);
        };
        let bad = || EtcdctlError::BadEndpoints {
            endpoints: eps.to_string(),
        };
        let host = eps.strip_prefix("http://").unwrap_or(eps);
        let name = host.strip_suffix(":2379").ok_or_else(bad)?;
        node_of_name(name).map(Some).ok_or_else(bad)
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

/// A flag typed `--name=value`, `--name value` or `--name` (the word
/// `w`, `body` without its dashes): the command's own (`known`) or a
/// global one; a value it takes may be the next word of `it`.
fn long_flag(
    w: &str,
    body: &str,
    it: &mut std::slice::Iter<'_, String>,
    known: &[(&str, bool)],
    global: &[(&str, bool)],
) -> Result<Flag, EtcdctlError> {
    if body.starts_with('-') || body.starts_with('=') {
        return Err(EtcdctlError::Etcdctl(format!("bad flag syntax: {w}")));
    }
    let (name, value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (body, None),
    };
    let found = known
        .iter()
        .map(|&(n, v)| (n, v, false))
        .chain(global.iter().map(|&(n, v)| (n, v, true)))
        .find(|&(n, _, _)| n == name);
    let Some((name, takes_value, global)) = found else {
        return Err(EtcdctlError::Etcdctl(format!("unknown flag: --{name}")));
    };
    let value = match value {
        None if takes_value => Some(
            it.next()
                .cloned()
                .ok_or_else(|| EtcdctlError::Etcdctl(format!("flag needs an argument: {w}")))?,
        ),
        v => v,
    };
    Ok(Flag {
        name: name.to_string(),
        value,
        global,
        typed: w.to_string(),
    })
}

/// Shorthands (the word `w`, `-` and letters): a run of letters, each a
/// flag, until one takes the rest of the word (or the next word of `it`)
/// as its value.
fn shorthands(
    w: &str,
    it: &mut std::slice::Iter<'_, String>,
    flags: &mut Vec<Flag>,
) -> Result<(), EtcdctlError> {
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
            typed: w.to_string(),
        });
        shorts = next;
    }
    Ok(())
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

/// etcdctl del's flags (NewDelCommand's); the last [`DEL_NEW_IN_3_6`]
/// came with v3.6.
const DEL_FLAGS: &[(&str, bool)] = &[
    ("prefix", false),
    ("prev-kv", false),
    ("from-key", false),
    ("range", false),
];
const DEL_NEW_IN_3_6: usize = 1;

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
    let (command, print, table) = understand(line, release)?;
    Ok(Translation {
        command: Arc::new(command),
        print,
        table,
    })
}

/// The scenario command an etcdctl line stands for, what etcdctl prints,
/// and whether it prints it as a table.
fn understand(line: &str, release: Release) -> Result<(Command, Print, bool), EtcdctlError> {
    let v36 = release == Release::V3_6;
    let mut args = words(line)?;
    if args.first().is_none_or(|w| w != "etcdctl") {
        return Err(EtcdctlError::Unmodelled {
            command: line.trim().to_string(),
        });
    }
    args.remove(0);
    let (path, rest) = find(args, release)?;
    let name = path.join(" ");
    let unmodelled = || EtcdctlError::Unmodelled {
        command: name.clone(),
    };
    // Each command's own flags, as etcdctl defines them; `help`: a command
    // with subcommands and none named, for which etcdctl prints its help
    // (after parsing its flags), which raftlab does not model.
    let (own, help): (&[(&str, bool)], bool) = match path.as_slice() {
        [] | ["member"] => (&[], true),
        ["endpoint"] => (&[("cluster", false)], true),
        ["member", "add"] => (&[("peer-urls", true), ("learner", false)], false),
        // member list has --consistency since v3.6 (before, it answered
        // from the member's state).
        ["member", "list"] if v36 => (&[("consistency", true)], false),
        ["member", "promote" | "remove" | "list"] | ["move-leader"] => (&[], false),
        ["put"] => (PUT_FLAGS, false),
        ["get"] => (of_release(GET_FLAGS, GET_NEW_IN_3_6, v36), false),
        ["del"] => (of_release(DEL_FLAGS, DEL_NEW_IN_3_6, v36), false),
        ["compaction"] => (&[("physical", false)], false),
        ["endpoint", "status"] => (&[("cluster", false)], false),
        _ => return Err(unmodelled()),
    };
    let a = Args::split(&name, &rest, own, v36)?;
    if help {
        return Err(unmodelled());
    }
    let (command, print) = match path.as_slice() {
        ["member", "add"] => member_add(&a)?,
        // The same one argument, a member id, for both.
        ["member", sub @ ("promote" | "remove")] => member_by_id(sub, &a)?,
        ["member", "list"] => member_list(&a)?,
        ["put"] => put(&a)?,
        ["get"] => get(&a)?,
        ["del"] => del(&a)?,
        ["compaction"] => compaction(&a)?,
        ["move-leader"] => move_leader(&a)?,
        ["endpoint", "status"] => endpoint_status(&a)?,
        _ => return Err(unmodelled()),
    };
    // etcdctl picks its printer as it makes its client
    // (`initDisplayFromCmd`), after the command's own argument checks.
    let table = a.table()?;
    Ok((command, print, table))
}

/// `member promote ID` and `member remove ID` (`sub`).
fn member_by_id(sub: &str, a: &Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&[])?;
    let (member_id, id) = member_arg(
        a,
        "member ID is not provided",
        ErrorCode::MemberNotFound,
        true,
    )?;
    let (timeout_ms, require_leader) = (None, false);
    Ok(if sub == "promote" {
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

/// `member list [--consistency=l|s]`.
fn member_list(a: &Args) -> Result<(Command, Print), EtcdctlError> {
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

/// `put KEY VALUE` (etcdctl `putCommandFunc`).
fn put(a: &Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&["endpoints"])?;
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
            via: a.endpoint()?,
            size: None,
            nowait: false,
            timeout_ms: None,
            require_leader: false,
        },
        Print::Put,
    ))
}

/// `get KEY [--consistency=l|s] [--rev=REV]` (etcdctl `getCommandFunc`).
fn get(a: &Args) -> Result<(Command, Print), EtcdctlError> {
    // pflag reads --rev as it parses the flags, before the command runs.
    let rev = match a.value("rev") {
        Some(v) => go_parse_int(v, true).map_err(|why| {
            EtcdctlError::Etcdctl(format!(
                "invalid argument \"{v}\" for \"--rev\" flag: strconv.ParseInt: parsing \"{v}\": {why}"
            ))
        })?,
        None => 0,
    };
    a.only(&["consistency", "rev", "endpoints"])?;
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
            // etcd reads the latest revision for any revision not above
            // zero (mvcc `rangeKeys`).
            rev: u64::try_from(rev).ok().filter(|&r| r > 0),
            via: a.endpoint()?,
            serializable,
            timeout_ms: None,
            require_leader: false,
        },
        Print::Get { key },
    ))
}

/// `del KEY` (etcdctl `delCommandFunc`).
fn del(a: &Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&["endpoints"])?;
    // getDelOp: one key and an optional range_end.
    let (Some(key), 1..=2) = (a.positional.first(), a.positional.len()) else {
        return Err(EtcdctlError::Etcdctl(
            "del command needs one argument as key and an optional argument as range_end"
                .to_string(),
        ));
    };
    if a.positional.len() > 1 {
        return Err(EtcdctlError::UnmodelledFlag {
            command: "del".to_string(),
            flag: "range_end".to_string(),
        });
    }
    Ok((
        Command::Delete {
            key: key.clone(),
            via: a.endpoint()?,
            timeout_ms: None,
            require_leader: false,
        },
        Print::Del,
    ))
}

/// `compaction REV` (etcdctl `compactionCommandFunc`).
fn compaction(a: &Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&["endpoints"])?;
    let [arg] = a.positional.as_slice() else {
        return Err(EtcdctlError::Etcdctl(
            "compaction command needs 1 argument".to_string(),
        ));
    };
    let rev = go_parse_int(arg, false).map_err(|why| {
        EtcdctlError::Etcdctl(format!("strconv.ParseInt: parsing \"{arg}\": {why}"))
    })?;
    let rev =
        u64::try_from(rev).map_err(|_| EtcdctlError::NegativeRevision { rev: arg.clone() })?;
    Ok((
        Command::Compaction {
            rev,
            via: a.endpoint()?,
            timeout_ms: None,
            require_leader: false,
        },
        Print::Compaction { rev },
    ))
}

/// `endpoint status [--cluster]` (etcdctl `epStatusCommandFunc`): every
/// member's, or the one member `--endpoints` names. With `--cluster`
/// etcdctl asks that endpoint for the members first, which raftlab does
/// not model.
fn endpoint_status(a: &Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&["cluster", "endpoints"])?;
    let only = a.endpoint()?;
    if only.is_some() && a.bool("cluster")? {
        return Err(EtcdctlError::UnmodelledFlag {
            command: "endpoint status".to_string(),
            flag: "--endpoints (with --cluster)".to_string(),
        });
    }
    Ok((
        Command::Status { via: only },
        Print::EndpointStatus { only },
    ))
}

/// Go's `strconv.ParseInt(s, base, 64)` with base 0 (`base0`: a `0x`,
/// `0o`, `0b` or `0` prefix picks the base, and `_` may separate digits,
/// as pflag reads an int64 flag) or 10 (as etcdctl reads an argument).
/// The error is Go's reason: "invalid syntax" or "value out of range".
fn go_parse_int(s: &str, base0: bool) -> Result<i64, &'static str> {
    const SYNTAX: &str = "invalid syntax";
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (base, digits) = match lower.as_bytes() {
        [b'0', b'x', _, ..] if base0 => (16, &lower[2..]),
        [b'0', b'o', _, ..] if base0 => (8, &lower[2..]),
        [b'0', b'b', _, ..] if base0 => (2, &lower[2..]),
        [b'0', ..] if base0 => (8, &lower[1..]),
        [] => return Err(SYNTAX),
        _ => (10, &lower[..]),
    };
    let mut n: u64 = 0;
    let mut underscores = false;
    for c in digits.chars() {
        if c == '_' && base0 {
            underscores = true;
            continue;
        }
        let d = c.to_digit(base).ok_or(SYNTAX)?;
        n = n
            .checked_mul(u64::from(base))
            .and_then(|n| n.checked_add(u64::from(d)))
            .ok_or("value out of range")?;
    }
    if underscores && !underscore_ok(s) {
        return Err(SYNTAX);
    }
    match neg {
        false => i64::try_from(n).map_err(|_| "value out of range"),
        true if n <= 1 << 63 => Ok((n as i64).wrapping_neg()),
        true => Err("value out of range"),
    }
}

/// Go's `underscoreOK`: each `_` between digits (a base prefix counts as
/// a digit).
fn underscore_ok(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s).to_ascii_lowercase();
    let b = s.as_bytes();
    // The last seen: '^' the start, '0' a digit or prefix, '_', '!' other.
    let (mut saw, mut i, mut hex) = (b'^', 0, false);
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1], b'b' | b'o' | b'x') {
        (saw, i, hex) = (b'0', 2, b[1] == b'x');
    }
    for &c in &b[i..] {
        if c.is_ascii_digit() || (hex && (b'a'..=b'f').contains(&c)) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else if saw == b'_' {
            return false;
        } else {
            saw = b'!';
        }
    }
    saw != b'_'
}

/// `move-leader ID` (etcdctl `transferLeadershipCommandFunc`).
fn move_leader(a: &Args) -> Result<(Command, Print), EtcdctlError> {
    a.only(&[])?;
    if a.positional.len() != 1 {
        return Err(EtcdctlError::Etcdctl(
            "move-leader command needs 1 argument".to_string(),
        ));
    }
    // etcd's MoveLeader: a transferee that is not a member is
    // ErrBadLeaderTransferee.
    let (target, id) = member_arg(
        a,
        "move-leader command needs 1 argument",
        ErrorCode::BadLeaderTransferee,
        false,
    )?;
    Ok((Command::TransferLeader(id), Print::MoveLeader { target }))
}

/// `member add NAME --peer-urls=URL [--learner]` (etcdctl
/// `memberAddCommandFunc`).
fn member_add(a: &Args) -> Result<(Command, Print), EtcdctlError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etcdctls_words_are_its_commands_and_name_the_scenarios() {
        for (word, etcdctl, scenario, _) in WRITTEN {
            assert!(ROOT.contains(&word), "{word}");
            assert!(etcdctl.starts_with(word), "{etcdctl}");
            let first = scenario.split(' ').next().unwrap_or("");
            assert!(
                crate::lang::ast::COMMAND_NAMES.contains(&first),
                "{scenario}"
            );
            assert!(!crate::lang::ast::COMMAND_NAMES.contains(&word), "{word}");
        }
        assert_eq!(etcdctl_word("lease"), Some(EtcdctlWord::Unmodelled));
        assert_eq!(
            etcdctl_word("del"),
            Some(EtcdctlWord::Written {
                etcdctl: "del KEY",
                scenario: "delete KEY",
                console: true
            })
        );
        // Not etcdctl's: cobra's names are case-sensitive.
        assert_eq!(etcdctl_word("release"), None);
        assert_eq!(etcdctl_word("DEL"), None);
    }

    #[test]
    fn member_ids_are_distinct_nonzero_and_map_back() {
        let ids: crate::collections::vecmap::VecSet<u64> =
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

    /// Go's strconv.ParseInt as pflag (base 0) and etcdctl's compaction
    /// (base 10) call it; the base-0 cases as etcdctl v3.4.23 read them.
    #[test]
    fn integers_are_read_as_go_reads_them() {
        let syntax = Err("invalid syntax");
        let range = Err("value out of range");
        for (s, want) in [
            ("0x5", Ok(5)),
            ("1_0", Ok(10)),
            ("0b101", Ok(5)),
            ("010", Ok(8)),
            ("0x_5", Ok(5)),
            ("+5", Ok(5)),
            ("-1", Ok(-1)),
            ("0", Ok(0)),
            ("1__0", syntax),
            ("_1", syntax),
            ("1_", syntax),
            ("08", syntax),
            ("0x", syntax),
            ("", syntax),
            ("-", syntax),
            ("abc", syntax),
            ("9223372036854775807", Ok(i64::MAX)),
            ("-9223372036854775808", Ok(i64::MIN)),
            ("9223372036854775808", range),
            ("99999999999999999999", range),
        ] {
            assert_eq!(go_parse_int(s, true), want, "base 0: {s:?}");
        }
        for (s, want) in [
            ("3", Ok(3)),
            ("0x3", syntax),
            ("1_0", syntax),
            ("010", Ok(10)),
        ] {
            assert_eq!(go_parse_int(s, false), want, "base 10: {s:?}");
        }
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
