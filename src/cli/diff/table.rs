//! The table `raftlab diff` prints: one row per line of the script (the
//! narration left out), raftlab's answer, each release's, and the verdict;
//! then each line that differs or failed, with why, and a summary.

use std::io::Write;

use crate::server::ErrorCode;

use super::row::{Answer, Binaries, Outcome, Verdict};

/// The widest a cell gets before it is cut (with `…`).
const COMMAND_WIDTH: usize = 44;
const ANSWER_WIDTH: usize = 34;

fn cut(s: &str, width: usize) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() <= width {
        s
    } else {
        let mut t: String = s.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}

/// An answer in a cell: what it said, and how long it took when that
/// matters (over 100 ms).
fn cell(a: &Option<Answer>) -> String {
    match a {
        None => "-".to_string(),
        Some(a) => {
            let raftlabs = |code: &str| ErrorCode::ALL.iter().any(|c| c.as_str() == code);
            let text = match &a.code {
                None => a.text.clone(),
                Some(code) if code == "expect-failed" => format!("fails: {}", a.text),
                Some(code) if raftlabs(code) => code.clone(),
                Some(_) => a.text.clone(),
            };
            if a.ms >= 100 {
                format!("{text} ({:.1}s)", a.ms as f64 / 1000.0)
            } else {
                text
            }
        }
    }
}

/// raftlab's answers under each profile: one text when they agree.
fn raftlab_cell(answers: &[Option<Answer>]) -> String {
    let cells: Vec<String> = answers.iter().filter(|a| a.is_some()).map(cell).collect();
    let mut unique = cells.clone();
    unique.dedup();
    if unique.len() <= 1 {
        unique.pop().unwrap_or_else(|| "-".to_string())
    } else {
        cells.join(" / ")
    }
}

/// The table of every line's answers, then each difference said, then the
/// count.
pub fn print(out: &mut dyn Write, outcome: &Outcome, releases: &[Binaries]) {
    let rows = cells(outcome, releases);
    write_aligned(out, &rows);
    let _ = writeln!(out);
    let (mut same, mut known, mut failed) = (0, 0, 0);
    for r in &outcome.rows {
        let said = match &r.verdict {
            Verdict::Same => {
                same += 1;
                continue;
            }
            Verdict::Skipped => continue,
            Verdict::Known(why) => {
                known += 1;
                format!("known difference: {why}")
            }
            Verdict::Differs(why) => format!("differs: {why}"),
            Verdict::ExpectFailed(why) => format!("the expectation failed {why}"),
            Verdict::FailsAlike(why) => format!("the expectation fails alike {why}"),
        };
        if r.verdict.fails() {
            failed += 1;
        }
        let _ = writeln!(out, "line {}: {}: {said}", r.line, r.command);
    }
    let _ = writeln!(
        out,
        "{}: {same} lines the same, {known} known differences, {failed} failing",
        outcome.file
    );
}

/// The header and a row of cells for every line with something to show.
fn cells(outcome: &Outcome, releases: &[Binaries]) -> Vec<Vec<String>> {
    let mut header = vec![
        "line".to_string(),
        "command".to_string(),
        "raftlab".to_string(),
    ];
    for b in releases {
        header.push(format!("etcd {}", b.version));
    }
    header.push(String::new());
    let mut rows: Vec<Vec<String>> = vec![header];
    for r in &outcome.rows {
        if r.verdict == Verdict::Skipped && r.etcd.iter().flatten().all(|a| a.text.is_empty()) {
            continue;
        }
        let mut row = vec![
            r.line.to_string(),
            cut(&r.command, COMMAND_WIDTH),
            cut(&raftlab_cell(&r.raftlab), ANSWER_WIDTH),
        ];
        for a in &r.etcd {
            row.push(cut(&cell(a), ANSWER_WIDTH));
        }
        row.push(r.verdict.word().to_string());
        rows.push(row);
    }
    rows
}

/// The rows in columns: the line number aligned right, the rest left.
fn write_aligned(out: &mut dyn Write, rows: &[Vec<String>]) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::new();
        for (i, c) in row.iter().enumerate() {
            let pad = widths[i].saturating_sub(c.chars().count());
            if i == 0 {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            } else {
                line.push_str("  ");
                line.push_str(c);
                if i + 1 < row.len() {
                    line.push_str(&" ".repeat(pad));
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_say_the_answer_and_its_time_when_it_took_long() {
        assert_eq!(cell(&None), "-");
        assert_eq!(cell(&Some(Answer::ok("ok", 20))), "ok");
        assert_eq!(cell(&Some(Answer::ok("ok", 1500))), "ok (1.5s)");
        let refused = Answer::failed("unhealthy", "etcdserver: unhealthy cluster", 3);
        assert_eq!(cell(&Some(refused)), "unhealthy");
        let odd = Answer::failed(
            "etcdserver: leader changed",
            "etcdserver: leader changed",
            3,
        );
        assert_eq!(cell(&Some(odd)), "etcdserver: leader changed");
        let same = [Some(Answer::ok("ok", 1)), Some(Answer::ok("ok", 2))];
        assert_eq!(raftlab_cell(&same), "ok");
        let two = [
            Some(Answer::ok("ok", 1)),
            Some(Answer::failed("unhealthy", "x", 2)),
        ];
        assert_eq!(raftlab_cell(&two), "ok / unhealthy");
        assert_eq!(cut("abcdef", 4), "abc…");
    }
}
