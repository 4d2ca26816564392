//! Names near a mistyped word: the edit distance behind etcdctl's "Did you
//! mean this?" (cobra's `ld`), and the command, option, condition or name
//! the scenario language suggests for a word that names none.

/// The edit distance of a word to a name, ASCII letters folded (cobra's
/// `ld` with `ignoreCase`, over bytes). Only a refusal measures, so the rows
/// are allocated: no name is too long for them.
pub fn levenshtein(a: &str, b: &str) -> usize {
    distance(a, b, false)
}

/// The edit distance of a word to a name where two letters swapped count as
/// one edit (the optimal string alignment distance), ASCII letters folded:
/// `wiat` is one from `wait`, where cobra's distance makes it two. The
/// scenario language's own suggestions use it; etcdctl's keep cobra's.
pub fn typo_distance(a: &str, b: &str) -> usize {
    distance(a, b, true)
}

/// Levenshtein's distance, and with `swaps` a swap of two neighbouring
/// letters as one edit.
fn distance(a: &str, b: &str, swaps: bool) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let same = |x: u8, y: u8| x.eq_ignore_ascii_case(&y);
    // Three rows: the one before the last is where a swap is measured from.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(!same(a[i - 1], b[j - 1]));
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if swaps && i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        (before, last, row) = (last, row, before);
    }
    last[b.len()]
}

/// The one of `names` a mistyped word most likely meant: the only one the
/// word begins (three letters or more: `trans` for `transfer-leader`), else
/// the nearest within two edits, one for a word of four letters or fewer
/// (`help` is two from `hold`; a swap of two letters is one edit).
/// None where two are as near: a guess between them would mislead more than
/// the list of all.
pub fn nearest<'a>(word: &str, names: &[&'a str]) -> Option<&'a str> {
    let letters = word.chars().count();
    let mut begun = names.iter().filter(|n| {
        letters >= 3
            && n.get(..word.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(word))
    });
    if let (Some(&name), None) = (begun.next(), begun.next()) {
        return Some(name);
    }
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for &name in names {
        let d = typo_distance(word, name);
        if d > if letters <= 4 { 1 } else { 2 } {
            continue;
        }
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tied = true,
            _ => (best, tied) = (Some((d, name)), false),
        }
    }
    best.filter(|_| !tied).map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances_fold_ascii_letters() {
        for (a, b, d) in [
            ("memebr", "member", 2),
            ("MEMBER", "member", 0),
            ("", "get", 3),
            ("e", "del", 2),
            ("foo", "lock", 3),
            ("lst", "list", 1),
            ("transfer-leadr", "transfer-leader", 1),
            ("x", "a-name-longer-than-any-command", 30),
        ] {
            assert_eq!(levenshtein(a, b), d, "{a} {b}");
            assert_eq!(levenshtein(b, a), d, "{b} {a}");
        }
    }

    #[test]
    fn the_nearest_name_is_one_or_none() {
        let names = crate::lang::ast::COMMAND_NAMES;
        for (word, near) in [
            ("putt", Some("put")),
            ("membr", Some("member")),
            ("crahs", Some("crash")),
            ("Get", Some("get")),
            ("dele", Some("delete")),
            ("trans", Some("transfer-leader")),
            // As near to two, or the start of two: no guess.
            ("pet", None),
            ("comp", None),
            ("del", None),
            // Too far.
            ("x", None),
            ("help", None),
            // Two letters swapped is one edit.
            ("wiat", Some("wait")),
            ("ptu", Some("put")),
        ] {
            assert_eq!(nearest(word, &names), near, "{word}");
        }
        assert_eq!(nearest("vai", &["via", "timeout"]), Some("via"));
        assert_eq!(nearest("laeder", &["leader", "follower"]), Some("leader"));
    }

    #[test]
    fn a_swap_is_one_edit_in_the_typo_distance_only() {
        for (a, b, typo, cobra) in [
            ("wiat", "wait", 1, 2),
            ("ab", "ba", 1, 2),
            ("abc", "ca", 3, 3),
            ("help", "hold", 2, 2),
            ("PUT", "put", 0, 0),
            ("", "get", 3, 3),
            ("x", "a-name-longer-than-any-command", 30, 30),
        ] {
            assert_eq!(typo_distance(a, b), typo, "{a} {b}");
            assert_eq!(typo_distance(b, a), typo, "{b} {a}");
            assert_eq!(levenshtein(a, b), cobra, "{a} {b}");
        }
    }
}
