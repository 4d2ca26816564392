//! The known differences: lines of scripts where raftlab answers otherwise
//! than a release of etcd, each with its reason (a timing granularity, a
//! simplification on purpose). One entry a line:
//!
//! ```text
//! FILE:LINE RELEASES REASON
//! lessons/11-what-a-learner-refuses.scenario:30 3.4.23,3.5.1 etcdctl retries ...
//! ```
//!
//! FILE matches a script named so or ending so (`/FILE`); RELEASES is a
//! comma-separated list of versions (`3.4.23`) or `all`; the reason is the
//! rest of the line and must be given. `#` starts a comment line. A place
//! written `FILE:LINE?` is a line that may or may not differ from one run to
//! the next (its reason a timing or a chance): it is not warned of when it
//! did not differ.

use std::path::Path;

use super::row::{Outcome, Verdict};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    file: String,
    line: usize,
    /// `None`: every release.
    releases: Option<Vec<String>>,
    reason: String,
    /// The line of the known-differences file, for its messages.
    at: usize,
    /// `FILE:LINE?`: it may not differ in a run (no warning then).
    may: bool,
}

impl Known {
    pub fn load(path: &Path) -> Result<Known, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Known::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Known, String> {
        let mut entries = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let at = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.splitn(3, char::is_whitespace);
            let place = words.next().unwrap_or("");
            let releases = words.next().unwrap_or("").trim();
            let reason = words.next().unwrap_or("").trim();
            let (place, may) = match place.strip_suffix('?') {
                Some(p) => (p, true),
                None => (place, false),
            };
            let (file, number) = place
                .rsplit_once(':')
                .ok_or_else(|| format!("line {at}: expected FILE:LINE, found {place:?}"))?;
            let number: usize = number
                .parse()
                .map_err(|_| format!("line {at}: {number:?} is not a line number"))?;
            if releases.is_empty() {
                return Err(format!(
                    "line {at}: missing the releases (3.4.23,3.5.1 or all)"
                ));
            }
            if reason.is_empty() {
                return Err(format!(
                    "line {at}: every known difference needs its reason"
                ));
            }
            let releases =
                (releases != "all").then(|| releases.split(',').map(str::to_string).collect());
            entries.push(Entry {
                file: file.to_string(),
                line: number,
                releases,
                reason: reason.to_string(),
                at,
                may,
            });
        }
        Ok(Known { entries })
    }

    fn find(&self, file: &str, line: usize, version: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| {
            e.line == line
                && names(file, &e.file)
                && e.releases
                    .as_ref()
                    .is_none_or(|r| r.iter().any(|v| v == version))
        })
    }

    /// The reason line `line` of `file` differs on `version`, if known.
    pub fn reason(&self, file: &str, line: usize, version: &str) -> Option<&str> {
        self.find(file, line, version).map(|e| e.reason.as_str())
    }

    /// Warnings for the entries about `file` that matched no difference in
    /// this run (the line no longer differs, or moved), but for those that
    /// may not differ (`FILE:LINE?`).
    pub fn unused(&self, file: &str, outcome: &Outcome) -> Vec<String> {
        self.entries
            .iter()
            .filter(|e| !e.may && names(file, &e.file))
            .filter(|e| {
                !outcome
                    .rows
                    .iter()
                    .any(|r| r.line == e.line && matches!(r.verdict, Verdict::Known(_)))
            })
            .map(|e| {
                format!(
                    "known difference at line {} (entry {}) did not differ in this run",
                    e.line, e.at
                )
            })
            .collect()
    }
}

/// Whether a script named `file` is the one an entry names.
fn names(file: &str, entry: &str) -> bool {
    let file = file.replace('\\', "/");
    file == entry || file.ends_with(&format!("/{entry}"))
}

#[cfg(test)]
mod tests {
    use super::super::row::Row;
    use super::*;

    #[test]
    fn entries_need_a_place_releases_and_a_reason() {
        let k = Known::parse(
            "# comment\n\nlessons/11.scenario:30 3.4.23,3.5.1 etcdctl retries 100 times\nx.scenario:2 all why\n",
        )
        .unwrap();
        assert_eq!(
            k.reason("./lessons/11.scenario", 30, "3.5.1"),
            Some("etcdctl retries 100 times")
        );
        assert_eq!(k.reason("lessons/11.scenario", 30, "3.6.0"), None);
        assert_eq!(k.reason("lessons/11.scenario", 31, "3.5.1"), None);
        assert_eq!(k.reason("tests/x.scenario", 2, "3.6.0"), Some("why"));
        assert_eq!(k.reason("tests/ax.scenario", 2, "3.6.0"), None);
        assert!(Known::parse("a.scenario:3 all")
            .unwrap_err()
            .contains("reason"));
        assert!(Known::parse("a.scenario 3.4.23 why").is_err());
        assert!(Known::parse("a.scenario:x all why").is_err());
    }

    #[test]
    fn an_entry_that_may_not_differ_is_not_warned_of() {
        let k = Known::parse("x.scenario:2 all a timing\nx.scenario:3? all a chance\n").unwrap();
        assert_eq!(k.reason("x.scenario", 3, "3.5.1"), Some("a chance"));
        let row = |line, verdict| Row {
            line,
            command: String::new(),
            raftlab: Vec::new(),
            etcd: Vec::new(),
            verdict,
        };
        let outcome = |rows| Outcome {
            file: "x.scenario".into(),
            releases: vec!["3.5.1".into()],
            rows,
            all_checks_passed: true,
            checks_held_on: Vec::new(),
            exit: 0,
        };
        // Neither line differed: only the entry without `?` is warned of.
        let quiet = outcome(vec![row(2, Verdict::Same), row(3, Verdict::Same)]);
        assert_eq!(
            k.unused("x.scenario", &quiet),
            ["known difference at line 2 (entry 1) did not differ in this run"]
        );
        let both = outcome(vec![
            row(2, Verdict::Known("a timing".into())),
            row(3, Verdict::Known("a chance".into())),
        ]);
        assert!(k.unused("x.scenario", &both).is_empty());
    }
}
