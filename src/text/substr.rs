//! Finding a word in a text without the standard library's `&str` pattern
//! searcher: `str::find`, `split_once`, `contains` and `trim_*_matches`
//! with a `&str` pattern bring its two-way search (about 3.5 KB of the
//! page's module, docs/crates.md, the fifth round) for a few searches of
//! short words in short texts (a script's words, the lesson bundle's
//! file marks), where comparing at each place is as good.

/// Where `needle` first occurs in `hay`, as `hay.find(needle)` says. A
/// match of a whole UTF-8 word starts and ends on character boundaries.
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return Some(0);
    }
    h.windows(n.len()).position(|w| w == n)
}

/// `hay.split_once(needle)`.
pub fn split_once<'a>(hay: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let i = find(hay, needle)?;
    Some((hay.get(..i)?, hay.get(i + needle.len()..)?))
}

#[cfg(test)]
mod tests {
    use super::{find, split_once};

    #[test]
    fn as_the_standard_library() {
        let hays = [
            "",
            "a",
            "a->b",
            "->",
            "1..2..3",
            "日本->語",
            "ab",
            "aab",
            "\n@@ x\n@@ y",
        ];
        let needles = ["", "->", "..", "a", "ab", "語", "\n@@ ", "b->"];
        for h in hays {
            for n in needles {
                assert_eq!(find(h, n), h.find(n), "{h:?} {n:?}");
                assert_eq!(split_once(h, n), h.split_once(n), "{h:?} {n:?}");
            }
        }
    }
}
