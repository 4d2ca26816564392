//! Names near a mistyped word: the edit distance behind etcdctl's "Did you
//! mean this?" (cobra's `ld`), and the command, option or condition the
//! scenario language suggests for a word that names none.

/// The edit distance of a word to a name, ASCII letters folded (cobra's
/// `ld` with `ignoreCase`, over bytes). Only a refusal measures, so the row
/// is allocated: no name is too long for it.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
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

/// The one of `names` a mistyped word most likely meant: the only one the
/// word begins (three letters or more: `trans` for `transfer-leader`), else
/// the nearest within two edits, one for a word of four letters or fewer
/// (`help` is two from `hold`).
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
        let d = levenshtein(word, name);
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
            ("wiat", None),
        ] {
            assert_eq!(nearest(word, &names), near, "{word}");
        }
    }
}
