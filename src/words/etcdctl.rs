//! What etcdctl prints for an etcdctl line the console ran: its standard
//! output as etcdctl's simple printer writes it (`printer_simple.go` and the
//! tables of `printer.go`) or, with `-w table`, as its table printer draws
//! it (`printer_table.go`), or `Error: ...` as it prints a failure. The
//! line's translation into a scenario command is `crate::lang::etcdctl`.

use crate::lang::ast::Command;
use crate::lang::etcdctl::{client_url, cluster_id, member_id, member_name, Print, Translation};
use crate::raft::NodeId;
use crate::server::request::DEADLINE_EXCEEDED;
use crate::server::{ErrorCode, ErrorDetail, MemberStatus, Release, Waited};
use crate::session::detail::url_problem;
use crate::session::exec::Session;
use crate::session::failure::Failure;
use crate::session::report::CommandResult;

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
            eps.join(" ")
        )];
    }
    // endpoint status says which endpoint did not answer on a line of
    // its own (below), not as an error.
    if let (Some(code), false) = (r.error, matches!(t.print, Print::EndpointStatus { .. })) {
        return vec![format!("Error: {}", error_text(code, r))];
    }
    match &t.print {
        Print::MemberList => rows(t.table, MEMBER_LIST_HEADER, &member_list(r)),
        Print::EndpointStatus { only } => {
            let header = match session.spec().etcd {
                Release::V3_6 => STATUS_HEADER_3_6,
                _ => STATUS_HEADER,
            };
            let (mut failed, status) = endpoint_status(session, *only);
            failed.extend(rows(t.table, header, &status));
            failed
        }
        // compactionCommandFunc prints with fmt.Println, not the printer.
        Print::Compaction { rev } => vec![format!("compacted revision {rev}")],
        // etcdctl's table printer has the two above alone; for the others
        // it stops after the request (`printerUnsupported`).
        _ if t.table => vec!["Error: table not supported as output format".to_string()],
        Print::MemberAdd {
            name,
            peer_urls,
            learner,
        } => member_added(t, name, peer_urls, *learner, session),
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
        Print::Put => vec!["OK".to_string()],
        Print::Del => vec![r.deleted.unwrap_or(0).to_string()],
        Print::Get { key } => match &r.value {
            Some(Some(v)) => vec![key.clone(), v.clone()],
            _ => Vec::new(),
        },
        Print::MoveLeader { target } => vec![format!(
            "Leadership transferred from {:x} to {target:x}",
            leader_before.map_or(0, member_id)
        )],
    }
}

/// Rows as the printer `-w` chose prints them: the simple printer a line
/// each, its cells joined by `, `; the table printer its table.
fn rows(table: bool, header: &[&str], rows: &[Vec<String>]) -> Vec<String> {
    match table {
        true => self::table(header, rows),
        false => rows.iter().map(|row| row.join(", ")).collect(),
    }
}

/// The tables' headers (`makeMemberListTable`, `makeEndpointStatusTable`).
const MEMBER_LIST_HEADER: &[&str] = &[
    "ID",
    "Status",
    "Name",
    "Peer Addrs",
    "Client Addrs",
    "Is Learner",
];
const STATUS_HEADER: &[&str] = &[
    "endpoint",
    "ID",
    "version",
    "db size",
    "is leader",
    "is learner",
    "raft term",
    "raft index",
    "raft applied index",
    "errors",
];
const STATUS_HEADER_3_6: &[&str] = &[
    "endpoint",
    "ID",
    "version",
    "storage version",
    "db size",
    "in use",
    "percentage not in use",
    "quota",
    "is leader",
    "is learner",
    "raft term",
    "raft index",
    "raft applied index",
    "errors",
    "downgrade target version",
    "downgrade enabled",
];

/// A table as etcdctl's table printer draws it with tablewriter v0.0.5
/// (the release etcdctl v3.4 to v3.6 pin): a border of `+`, `-` and `|`,
/// the header upper-cased and centred (one space more on the right when
/// the gap is odd), every cell right-aligned (`SetAlignment(ALIGN_RIGHT)`).
/// The headers are etcdctl's own, all ASCII: upper-cased as ASCII, which
/// keeps the Unicode case tables out of the page's first load.
/// tablewriter wraps a cell wider than 30 columns at its spaces; no cell
/// raftlab prints has both, so that is not done here.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> Vec<String> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = widths.iter().fold("+".to_string(), |mut l, w| {
        l.push_str(&"-".repeat(w + 2));
        l.push('+');
        l
    });
    let row_of = |cells: Vec<String>| {
        cells.iter().fold("|".to_string(), |mut l, c| {
            l.push(' ');
            l.push_str(c);
            l.push_str(" |");
            l
        })
    };
    let heading = row_of(
        header
            .iter()
            .zip(&widths)
            .map(|(h, &w)| {
                let gap = w - h.chars().count();
                format!(
                    "{}{}{}",
                    " ".repeat(gap / 2),
                    h.to_ascii_uppercase(),
                    " ".repeat(gap - gap / 2)
                )
            })
            .collect(),
    );
    let mut out = vec![line.clone(), heading, line.clone()];
    for row in rows {
        out.push(row_of(
            widths
                .iter()
                .enumerate()
                .map(|(i, &w)| format!("{:>w$}", row.get(i).map_or("", String::as_str)))
                .collect(),
        ));
    }
    out.push(line);
    out
}

/// What etcdctl prints after `Error: ` for a command that failed with
/// `code`.
fn error_text(code: &str, r: &CommandResult) -> String {
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
        Some(ErrorDetail::BadPeerUrl { problem, .. }) => Some(url_problem(problem)),
        _ => None,
    };
    if client_deadline {
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
    }
}

/// `member add`'s lines: the member added, and the environment its
/// process is to start with (etcdctl's simple printer's MemberAdd).
fn member_added(
    t: &Translation,
    name: &str,
    peer_urls: &str,
    learner: bool,
    session: &Session,
) -> Vec<String> {
    let cluster = session.cluster();
    let cid = cluster_id(&session.spec().voters);
    let Command::MemberAdd { id, .. } = *t.command else {
        return Vec::new();
    };
    // etcdctl says "as learner" since v3.6 (its simple printer's
    // MemberAdd); before, a learner is "added" as a voter is.
    let as_learner = learner && session.spec().etcd == Release::V3_6;
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
                name.to_string()
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
    out.push(format!("ETCD_INITIAL_CLUSTER={:?}", conf.join(",")));
    out.push(format!("ETCD_INITIAL_ADVERTISE_PEER_URLS={peer_urls:?}"));
    out.push("ETCD_INITIAL_CLUSTER_STATE=\"existing\"".to_string());
    out
}

/// `member list`'s rows, one a member.
fn member_list(r: &CommandResult) -> Vec<Vec<String>> {
    r.members
        .iter()
        .flatten()
        .map(|m| {
            vec![
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
        })
        .collect()
}

/// `endpoint status`: a line for each endpoint that did not answer, and a
/// row for each of the others. The endpoints are every member, or `only`.
fn endpoint_status(session: &Session, only: Option<NodeId>) -> (Vec<String>, Vec<Vec<String>>) {
    let cluster = session.cluster();
    let v36 = session.spec().etcd == Release::V3_6;
    // epStatusCommandFunc says which endpoints failed as it asks
    // them, and prints the table of the others after.
    let (mut failed, mut rows) = (Vec::new(), Vec::new());
    let endpoints: Vec<NodeId> = match only {
        Some(id) => vec![id],
        None => cluster.known_ids().into_iter().collect(),
    };
    for id in endpoints {
        match cluster.member_status(id) {
            Ok(s) => rows.push(status_row(id, &s, v36)),
            Err(_) => failed.push(format!(
                "Failed to get the status of endpoint {} (context deadline exceeded)",
                client_url(id)
            )),
        }
    }
    (failed, rows)
}

/// One endpoint's row of `endpoint status` (v3.6 has more columns).
fn status_row(id: NodeId, s: &MemberStatus, v36: bool) -> Vec<String> {
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
        s.errors.join(", "),
    ]);
    if v36 {
        row.extend([String::new(), "false".to_string()]);
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
