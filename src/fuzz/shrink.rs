//! Shrinking a failing script by delta debugging: chunks of lines first,
//! halving their size, then single lines, until none can go.

use super::check::check;
use super::verdict::FailureKind;

/// Removes command lines from `script` while `still_fails` holds: chunks
/// first, halving their size, then single lines, until no single line can
/// go (delta debugging). The first line (the `cluster` line) always stays.
/// Returns a script on which `still_fails` holds, or `script` itself if it
/// does not hold there.
pub fn shrink(script: &str, mut still_fails: impl FnMut(&str) -> bool) -> String {
    let mut lines: Vec<&str> = script.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return script.to_string();
    }
    let head = lines.remove(0);
    let render = |body: &[&str]| {
        let mut s = String::from(head);
        s.push('\n');
        for l in body {
            s.push_str(l);
            s.push('\n');
        }
        s
    };
    if !still_fails(&render(&lines)) {
        return script.to_string();
    }
    let mut chunk = lines.len().div_ceil(2).max(1);
    loop {
        let mut removed_any = false;
        let mut start = 0;
        while start < lines.len() {
            let end = (start + chunk).min(lines.len());
            let candidate: Vec<&str> = lines[..start]
                .iter()
                .chain(&lines[end..])
                .copied()
                .collect();
            if still_fails(&render(&candidate)) {
                lines = candidate;
                removed_any = true;
            } else {
                start = end;
            }
        }
        if chunk == 1 {
            if !removed_any {
                break;
            }
        } else {
            chunk = chunk.div_ceil(2);
        }
    }
    render(&lines)
}

/// Shrinks a failing script, keeping the kind of its first failure.
pub fn shrink_failure(script: &str, kind: &FailureKind) -> String {
    shrink(script, |s| {
        check(s).is_ok_and(|o| o.failures.iter().any(|f| &f.kind == kind))
    })
}
