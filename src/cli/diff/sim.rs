//! The simulator's side of `raftlab diff`: the script run under the release
//! profile of each etcd binary, one command at a time, each command's
//! answer and how much simulated time it took.

use std::sync::Arc;

use crate::lang::ast::Command;
use crate::lang::ast::Script;
use crate::lang::parse::parse_script;
use crate::server::Release;
use crate::session::exec::Session;
use crate::session::failure::Failure;
use crate::session::report::CommandResult;

use super::row::{Answer, Binaries};

/// The profile raftlab runs the script with beside `bins`: the binary's
/// own. A script whose `cluster` line names a release runs only beside a
/// binary of that release (its minor, or that very patch).
pub fn profile_for(script: &Script, bins: &Binaries) -> Result<Release, String> {
    let written = written_release(script);
    match written {
        None => Ok(bins.release),
        Some(r) if r == bins.release || (r == r.minor() && r == bins.release.minor()) => {
            Ok(bins.release)
        }
        Some(r) => Err(format!("the script's cluster line names etcd={r}")),
    }
}

/// The release the script's `cluster` line names, if it names one.
fn written_release(script: &Script) -> Option<Release> {
    let text = script.cluster.to_string();
    text.split_whitespace()
        .find_map(|w| w.strip_prefix("etcd="))
        .and_then(|v| v.parse().ok())
}

/// The script's source with its first `cluster` line set to `profile`
/// (its `etcd=` replaced, or added). Line numbers do not change.
pub fn with_profile(source: &str, profile: Release) -> String {
    let mut done = false;
    let mut out = String::with_capacity(source.len() + 16);
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if !done && trimmed.starts_with("cluster") && trimmed[7..].starts_with([' ', '\t']) {
            done = true;
            let indent = &line[..line.len() - trimmed.len()];
            let mut words: Vec<String> = Vec::new();
            let (body, newline) = match trimmed.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (trimmed, ""),
            };
            // `cluster` first, then the profile, then the other options
            // as written (the option order does not matter).
            for (i, w) in body.split(' ').enumerate() {
                if i == 0 {
                    words.push(w.to_string());
                    words.push(format!("etcd={profile}"));
                } else if !w.starts_with("etcd=") {
                    words.push(w.to_string());
                }
            }
            out.push_str(indent);
            out.push_str(&words.join(" "));
            out.push_str(newline);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The script parsed under `profile`.
pub fn script_for(source: &str, profile: Release) -> Result<Script, String> {
    parse_script(&with_profile(source, profile)).map_err(|e| e.to_string())
}

/// Runs the script under `profile`: one answer per command, in order.
pub fn run(source: &str, profile: Release) -> Result<Vec<Answer>, String> {
    let script = script_for(source, profile)?;
    let mut session = Session::new(&script.cluster);
    let mut answers = Vec::with_capacity(script.commands.len());
    for c in &script.commands {
        let before = session.now();
        let result = session.execute(c.line, &c.text, Arc::clone(&c.node));
        let ms = session.now().saturating_sub(before);
        answers.push(answer_of(&c.node, &result, ms));
    }
    Ok(answers)
}

/// A simulated result as the comparison reads it.
pub fn answer_of(cmd: &Command, r: &CommandResult, ms: u64) -> Answer {
    let mut a = if r.ok {
        Answer::ok(ok_text(cmd, r), ms)
    } else {
        let code = r.error.unwrap_or("error");
        // A condition says what was true instead, as the driver's do.
        let text = match r.failure.as_deref() {
            Some(Failure::Expect { unmet, .. }) | Some(Failure::WaitUntil { unmet, .. }) => {
                crate::session::detail::unmet(unmet)
            }
            _ => code.to_string(),
        };
        Answer::failed(code, text, ms)
    };
    a.value = r.value.clone();
    if let Some(list) = &r.members {
        let mut m: Vec<_> = list.iter().map(|m| (m.id, m.learner, m.started)).collect();
        m.sort_unstable();
        a.members = Some(m);
    }
    if let Some(s) = &r.member_status {
        a.status = Some((s.leader, s.is_learner));
    }
    a
}

/// What a command that succeeded says in the table.
fn ok_text(cmd: &Command, r: &CommandResult) -> String {
    match (cmd, &r.value) {
        (Command::Get { .. }, Some(Some(v))) => format!("ok: {v}"),
        (Command::Get { .. }, Some(None)) => "ok: no such key".to_string(),
        (Command::Expect(_), _) | (Command::WaitUntil { .. }, _) => "holds".to_string(),
        (Command::MemberList { .. }, _) => match &r.members {
            Some(list) => format!(
                "ok: {}",
                super::compare::members_text(list.iter().map(|m| (m.id, m.learner, m.started)))
            ),
            None => "ok".to_string(),
        },
        (Command::Status { via: Some(_) }, _) => match &r.member_status {
            Some(s) => super::compare::status_text(s.leader, s.is_learner),
            None => "ok".to_string(),
        },
        _ => "ok".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_goes_on_the_cluster_line_and_lines_keep_their_numbers() {
        let src = "# a comment\n\ncluster voters=1,2,3 seed=4\nput k v\n";
        let out = with_profile(src, Release::V3_4_23);
        assert_eq!(
            out,
            "# a comment\n\ncluster etcd=3.4.23 voters=1,2,3 seed=4\nput k v\n"
        );
        let pinned = with_profile("cluster voters=1 etcd=3.5", Release::V3_5_1);
        assert_eq!(pinned, "cluster etcd=3.5.1 voters=1");
        let script = script_for(src, Release::V3_5_1).unwrap();
        assert_eq!(script.cluster.etcd, Release::V3_5_1);
        assert_eq!(script.commands[0].line, 4);
    }

    #[test]
    fn a_script_pinned_to_a_release_runs_only_beside_it() {
        let bins = |release: Release| Binaries {
            etcd: "etcd".into(),
            etcdctl: "etcdctl".into(),
            version: release.to_string(),
            release,
        };
        let any = parse_script("cluster voters=1").unwrap();
        assert_eq!(
            profile_for(&any, &bins(Release::V3_4_23)),
            Ok(Release::V3_4_23)
        );
        let minor = parse_script("cluster voters=1 etcd=3.5").unwrap();
        assert_eq!(
            profile_for(&minor, &bins(Release::V3_5_1)),
            Ok(Release::V3_5_1)
        );
        assert!(profile_for(&minor, &bins(Release::V3_4_23)).is_err());
        let patch = parse_script("cluster voters=1 etcd=3.4.23").unwrap();
        assert_eq!(
            profile_for(&patch, &bins(Release::V3_4_23)),
            Ok(Release::V3_4_23)
        );
        assert!(profile_for(&patch, &bins(Release::V3_5_1)).is_err());
    }

    #[test]
    fn a_run_answers_each_command_with_its_simulated_time() {
        let src = "cluster voters=1,2,3\nwait-until leader\nput k v\nget k\nexpect value=v\nexpect term=9\n";
        let answers = run(src, Release::V3_5_1).unwrap();
        assert_eq!(answers.len(), 5);
        assert!(answers[0].ok && answers[0].ms > 0);
        assert_eq!(answers[2].value, Some(Some("v".to_string())));
        assert_eq!(answers[2].text, "ok: v");
        assert!(answers[3].ok);
        assert!(!answers[4].ok);
        assert_eq!(answers[4].code.as_deref(), Some("expect-failed"));
    }
}
